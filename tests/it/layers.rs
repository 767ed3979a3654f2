//! The one-way layers of ARCHITECTURE.md ("Invariants"), checked on the source: the
//! grammar (`src/grammar/`) imports nothing from the typed references or the
//! operations built on it, and the operations stand side by side. Doc comments may
//! link up; code may not.

use std::path::Path;

/// The modules above the grammar.
const ABOVE: &[&str] = &[
    "reference",
    "resolve",
    "convert",
    "normalize",
    "lint",
    "prepare",
    "bidi",
];

/// The `.rs` files under `dir`, folders included, as paths relative to `src/`.
fn sources_under(dir: &str) -> Vec<String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    let mut folders = vec![src.join(dir)];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(&src).unwrap();
                found.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    found
}

#[test]
fn the_grammar_imports_nothing_from_the_layers_above_it() {
    let files = sources_under("grammar");
    assert!(
        files.len() >= 10,
        "src/grammar/ has {} .rs files: the test reads the wrong place",
        files.len()
    );
    let mut found = Vec::new();
    for file in &files {
        for named in modules_named(file) {
            if ABOVE.contains(&named.as_str()) {
                found.push(format!("src/{file} imports crate::{named}"));
            }
        }
        // A relative path up (`super::super::reference`) reaches the same modules.
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file))
                .unwrap();
        for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
            if let Some(at) = line.rfind("super::") {
                let after = &line[at + "super::".len()..];
                let name: String = after
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if ABOVE.contains(&name.as_str()) {
                    found.push(format!("src/{file} imports super::{name}"));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the grammar reaches up:\n{}",
        found.join("\n")
    );
}

/// The operations the documents define, one module each, in `src/`.
const OPERATIONS: &[&str] = &["resolve", "convert", "normalize", "prepare", "lint", "bidi"];

/// What the operations share, below them: none of these imports an operation.
const SHARED: &[&str] = &[
    "chars",
    "pct",
    "idn",
    "schemes",
    "byte_search",
    "writer",
    "path",
];

/// The modules of this crate that the code of `file` names (`crate::x`, and each
/// first name of a `crate::{x, y::z}` group), comments left out.
fn modules_named(file: &str) -> Vec<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let code: String = text
        .lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut named = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // The first name of each item of the group, at brace depth 0.
            let mut depth = 0;
            let mut item_start = true;
            let mut name = String::new();
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && (c.is_alphanumeric() || c == '_') => name.push(c),
                    _ if item_start && !name.is_empty() => {
                        named.push(std::mem::take(&mut name));
                        item_start = false;
                    }
                    _ => {}
                }
            }
            if !name.is_empty() {
                named.push(name);
            }
        } else {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            named.push(name);
        }
    }
    named
}

/// ARCHITECTURE.md ("Invariants"): an operation is built on the references and on
/// what the operations share, never on another operation, so that a bug in one is
/// in its own file; the one exception is the lint, whose bidi findings are the
/// rules of RFC 3987 §4 that `bidi` checks. What they share imports no operation,
/// and the character tables and percent-encoding (`chars`, `pct`) sit below the
/// references.
#[test]
fn operations_import_no_other_operation() {
    let mut found = Vec::new();
    for op in OPERATIONS {
        for named in modules_named(&format!("{op}.rs")) {
            let allowed = *op == "lint" && named == "bidi";
            if named != *op && OPERATIONS.contains(&named.as_str()) && !allowed {
                found.push(format!("src/{op}.rs imports crate::{named}"));
            }
        }
    }
    for shared in SHARED {
        for named in modules_named(&format!("{shared}.rs")) {
            let below_references = ["chars", "pct"].contains(shared);
            if OPERATIONS.contains(&named.as_str()) || (below_references && named == "reference") {
                found.push(format!("src/{shared}.rs imports crate::{named}"));
            }
        }
    }
    assert!(found.is_empty(), "layers crossed:\n{}", found.join("\n"));
    // The reader sees the imports it must judge.
    assert!(modules_named("normalize.rs").contains(&"writer".to_string()));
    assert!(modules_named("lint.rs").contains(&"bidi".to_string()));
}
