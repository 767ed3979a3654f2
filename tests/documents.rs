//! The documents stay true to the repository: every path `ARCHITECTURE.md` names in
//! backticks exists, and every relative link of the README, the guides in `docs/`,
//! `ARCHITECTURE.md`, `CONTRIBUTING.md` and `FUZZING.md` leads to a file or folder
//! that exists. (The examples of the documents are run elsewhere: the Rust ones as
//! doctests, `src/lib.rs`; the `iri` ones by `cli/tests/docs.rs`.)

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
