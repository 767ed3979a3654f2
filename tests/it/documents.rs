//! The documents stay true to the repository: every path `ARCHITECTURE.md` names in
//! backticks exists, and every relative link of the README, the guides in `docs/`,
//! `ARCHITECTURE.md`, `CONTRIBUTING.md` and `FUZZING.md` leads to a file or folder
//! that exists; the commands they give to install, measure and fuzz do what they say.
//! (The examples of the documents are run elsewhere: the Rust ones as doctests,
//! `src/lib.rs`; the `iri` ones by `cli/tests/it/docs.rs`.)

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(document: &str) -> String {
    std::fs::read_to_string(root().join(document))
        .unwrap_or_else(|e| panic!("{document} cannot be read: {e}"))
}

/// The extensions of the files a document names without a folder (`Cargo.toml`).
const EXTENSIONS: &[&str] = &[
    "rs", "md", "toml", "abnf", "sh", "json", "txt", "tsv", "html", "js", "css", "py",
];

/// The lines of a Markdown text outside fenced code blocks.
fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut in_fence = false;
    text.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            return false;
        }
        !in_fence
    })
}

/// The text between backticks, pair by pair, outside fenced code blocks.
fn backticked(text: &str) -> Vec<&str> {
    let mut spans = Vec::new();
    for line in prose_lines(text) {
        let mut parts = line.split('`');
        parts.next();
        while let (Some(inside), Some(_)) = (parts.next(), parts.next()) {
            spans.push(inside);
        }
    }
    spans
}

/// Whether a span reads as a path of the repository: one word, with a `/` or a
/// known extension, not a URL, a pattern, a route of the server or a place outside.
fn looks_like_a_path(span: &str) -> bool {
    let word = !span.is_empty() && !span.contains(char::is_whitespace);
    let pattern = span.contains(['*', '<', '>', '{', '}', '$', '=', ':', '?', '#', '"', '\'']);
    let outside = span.starts_with('/') || span.starts_with("..");
    let has_extension = span
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && EXTENSIONS.contains(&ext));
    word && !pattern && !outside && (span.contains('/') || has_extension)
}

/// Whether a file named `name` exists anywhere in the repository (outside build
/// output): for bare file names such as `mod.rs` or `build.rs`.
fn exists_somewhere(dir: &Path, name: &str) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let path = entry.path();
        let skip = matches!(
            entry.file_name().to_str(),
            Some("target" | ".git" | "node_modules")
        );
        if skip {
            false
        } else if path.is_dir() {
            exists_somewhere(&path, name)
        } else {
            entry.file_name() == name
        }
    })
}

#[test]
fn every_path_architecture_names_exists() {
    let text = read("ARCHITECTURE.md");
    let mut checked = 0;
    let mut missing = Vec::new();
    for span in backticked(&text) {
        if !looks_like_a_path(span) {
            continue;
        }
        checked += 1;
        let found = if span.contains('/') {
            root().join(span.trim_end_matches('/')).exists()
        } else {
            root().join(span).exists() || exists_somewhere(root(), span)
        };
        if !found {
            missing.push(span);
        }
    }
    assert!(
        checked > 50,
        "only {checked} paths found in ARCHITECTURE.md: is the reading of backticks broken?"
    );
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md names paths that do not exist: {missing:?}"
    );
}

/// Every top-level folder of the repository is in ARCHITECTURE.md's map, named in
/// backticks as `folder/` (or a path inside it), so that a new folder cannot go
/// unexplained.
#[test]
fn architecture_maps_every_top_level_folder() {
    let text = read("ARCHITECTURE.md");
    let named = backticked(&text);
    let mut unmapped = Vec::new();
    let mut folders = 0;
    for entry in std::fs::read_dir(root()).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        // Build output, and a contributor's own hidden folders (a virtual
        // environment, an editor's settings); `.ci/` is the project's.
        let build_output = matches!(name.as_str(), "target" | "target-wasm" | "dist");
        let hidden = name.starts_with('.') && name != ".ci";
        if !entry.path().is_dir() || hidden || build_output {
            continue;
        }
        folders += 1;
        let prefix = format!("{name}/");
        if !named.iter().any(|span| span.starts_with(&prefix)) {
            unmapped.push(prefix);
        }
    }
    assert!(
        folders > 10,
        "only {folders} folders at the root: the test reads the wrong place"
    );
    assert!(
        unmapped.is_empty(),
        "ARCHITECTURE.md's map names no path in {unmapped:?}"
    );
}

/// The targets of the inline links `[text](target)` of a Markdown text, outside
/// fenced code blocks.
fn link_targets(text: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    for line in prose_lines(text) {
        let mut rest = line;
        while let Some(k) = rest.find("](") {
            let after = &rest[k + 2..];
            let Some(end) = after.find(')') else { break };
            targets.push(&after[..end]);
            rest = &after[end..];
        }
    }
    targets
}

#[test]
fn every_relative_link_of_the_documents_leads_somewhere() {
    let mut documents: Vec<PathBuf> = [
        "README.md",
        "ARCHITECTURE.md",
        "CONTRIBUTING.md",
        "FUZZING.md",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    for entry in std::fs::read_dir(root().join("docs")).expect("docs/") {
        let path = entry.expect("an entry of docs/").path();
        if path.extension().is_some_and(|e| e == "md") {
            documents.push(path.strip_prefix(root()).expect("in the root").to_owned());
        }
    }
    let mut broken = Vec::new();
    for document in &documents {
        let text = read(document.to_str().expect("a UTF-8 path"));
        let folder = root().join(document).parent().expect("a folder").to_owned();
        for target in link_targets(&text) {
            let external = target.contains("://") || target.starts_with("mailto:");
            if external || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().expect("split gives one part");
            if !folder.join(file).exists() {
                broken.push(format!("{}: {target}", document.display()));
            }
        }
    }
    assert!(broken.is_empty(), "links that lead nowhere: {broken:#?}");
}

/// README: "Tests that read the public test data in `../shared/corpus/` say plainly when
/// they skip". The test harness hides what `println!` and `eprintln!` print in a
/// passing test, so a skip said that way is never seen: every test that skips writes
/// `SKIPPED ...` straight to standard error instead (`writeln!(std::io::stderr(), ..)`).
#[test]
fn every_skip_is_said_where_cargo_test_shows_it() {
    let mut hidden = Vec::new();
    let mut files = 0;
    let mut stack: Vec<PathBuf> = [
        "tests",
        "cli/tests",
        "abnf/tests",
        "conform/tests",
        "conform/adapters/rust/tests",
        "coverage/tests",
        "datafusion/tests",
    ]
    .iter()
    .map(|d| root().join(d))
    .filter(|d| d.is_dir())
    .collect();
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            files += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            for (n, line) in text.lines().enumerate() {
                // A skip message ("skipped: why", "SKIPPED ..."), not a count of
                // skipped rows in a report line.
                let l = line.to_ascii_lowercase();
                let says_skip = l.contains("skipped:") || l.contains("(\"skip");
                if (l.contains("println!(") || l.contains("print!(")) && says_skip {
                    hidden.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(files > 20, "the test folders were read ({files} files)");
    assert!(
        hidden.is_empty(),
        "skips said where the harness hides them:\n{}",
        hidden.join("\n")
    );
}

/// The lines of the section `[name]` of a TOML text, up to the next section.
fn toml_section<'a>(text: &'a str, name: &str) -> Vec<&'a str> {
    let header = format!("[{name}]");
    text.lines()
        .skip_while(|l| l.trim() != header)
        .skip(1)
        .take_while(|l| !l.trim_start().starts_with('['))
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect()
}

/// The documents' commands and scripts, as (file, text): README, the guides,
/// `CONTRIBUTING.md`, `FUZZING.md`, `BENCHMARKS.md`, and the scripts and harnesses
/// that build for measuring (`bench/`, `abnf/examples/`).
fn commands_and_scripts() -> Vec<(String, String)> {
    let mut files: Vec<String> = [
        "README.md",
        "CONTRIBUTING.md",
        "FUZZING.md",
        "BENCHMARKS.md",
        "python/README.md",
        "fuzz/run.sh",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    for dir in ["docs", "bench", "bench/src", "abnf/examples", "benches"] {
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if path.is_file() && ["md", "sh", "rs"].contains(&ext) {
                let name = path.strip_prefix(root()).unwrap();
                files.push(name.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files.into_iter().map(|f| (f.clone(), read(&f))).collect()
}

/// Shipped binaries (`cargo install`, the release build) carry no line tables nor
/// symbols (the `iri` binary was 63 MB with them, 9 MB without); the measurement
/// harness and callgrind keep them, in a profile of their own, `profiling`, and
/// every command that builds for measuring uses it.
#[test]
fn shipped_binaries_are_stripped_and_measuring_keeps_line_tables() {
    let cargo = read("Cargo.toml");
    let release = toml_section(&cargo, "profile.release");
    assert!(release.contains(&"strip = true"), "{release:?}");
    assert!(release.contains(&"debug = false"), "{release:?}");
    let profiling = toml_section(&cargo, "profile.profiling");
    assert!(
        profiling.contains(&"inherits = \"release\""),
        "{profiling:?}"
    );
    assert!(
        profiling.contains(&"debug = \"line-tables-only\""),
        "{profiling:?}"
    );
    assert!(profiling.contains(&"strip = false"), "{profiling:?}");

    let mut wrong = Vec::new();
    let mut builds = 0;
    for (file, text) in commands_and_scripts() {
        for (n, line) in text.lines().enumerate() {
            // A profiler run on a binary, or a build of the harness.
            let profiles = line.contains("valgrind") || line.contains("perf record");
            let builds_harness = line.contains("cargo build") && line.contains("iri-grammar-bench")
                || line.contains("cargo") && line.contains("--example oracle_trees");
            if builds_harness {
                builds += 1;
            }
            let release = line.contains("target/release/")
                || line.contains("target/bench/release/")
                || line.contains("--release");
            if (profiles || builds_harness) && release {
                wrong.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(builds >= 3, "the harness's builds were found ({builds})");
    assert!(
        wrong.is_empty(),
        "built or profiled without line tables (use --profile profiling):\n{}",
        wrong.join("\n")
    );
}

/// `cargo install` ignores `Cargo.lock` unless told `--locked`, and re-resolved 81
/// crates (288 for DataFusion) to newer versions than the tested ones: every
/// `cargo install` the documents and scripts give pins it.
#[test]
fn every_cargo_install_is_locked() {
    let mut unlocked = Vec::new();
    let mut installs = 0;
    for (file, text) in commands_and_scripts() {
        for (n, line) in text.lines().enumerate() {
            // A command (`cargo install ARGS`), not the name of one in prose.
            if !line.contains("cargo install ") {
                continue;
            }
            installs += 1;
            if !line.contains("cargo install --locked") {
                unlocked.push(format!("{file}:{}: {}", n + 1, line.trim()));
            }
        }
    }
    assert!(installs >= 5, "the installs were found ({installs})");
    assert!(
        unlocked.is_empty(),
        "cargo install without --locked:\n{}",
        unlocked.join("\n")
    );
}

/// `fuzz/run.sh` without cargo-fuzz stops before it writes a seed (it wrote 42,700
/// files before finding cargo-fuzz missing): exit status 2 and what to install.
/// Run from a copy of the script, with a `cargo` that knows no `fuzz`, so that the
/// repository's `fuzz/seeds` is not touched.
#[cfg(unix)]
#[test]
fn fuzz_run_checks_for_cargo_fuzz_before_writing_seeds() {
    use std::os::unix::fs::PermissionsExt;
    let dir = std::env::temp_dir().join(format!("iri-fuzz-run-{}", std::process::id()));
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let script = dir.join("run.sh");
    std::fs::copy(root().join("fuzz/run.sh"), &script).unwrap();
    let cargo = bin.join("cargo");
    std::fs::write(
        &cargo,
        "#!/bin/sh\necho 'error: no such command: `fuzz`' >&2\nexit 101\n",
    )
    .unwrap();
    std::fs::set_permissions(&cargo, std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg("1")
        .env("PATH", path)
        .env("IRI_CORPUS", dir.join("no-corpus"))
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let seeds = dir.join("seeds").exists();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("cargo install --locked cargo-fuzz"),
        "{stderr}"
    );
    assert!(!seeds, "seeds were written before the check: {stderr}");
}
