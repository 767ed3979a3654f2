//! The one-way layers of ARCHITECTURE.md ("Invariants"), checked on the source: the
//! grammar (`src/grammar/`) imports nothing from the typed references or the
//! operations built on it. Doc comments may link up; code may not.

use std::path::Path;

/// The modules above the grammar, as a path inside the crate names them.
const ABOVE: &[&str] = &[
    "crate::reference",
    "crate::resolve",
    "crate::convert",
    "crate::normalize",
    "crate::lint",
    "crate::prepare",
    "crate::bidi",
];

#[test]
fn the_grammar_imports_nothing_from_the_layers_above_it() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/grammar");
    let mut files = 0;
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        files += 1;
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for above in ABOVE {
                if code.contains(above)
                    || (code.starts_with("use super::super") && code.contains("reference"))
                {
                    found.push(format!("{}:{}: {}", path.display(), n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        files >= 5,
        "src/grammar/ has {files} .rs files: the test reads the wrong place"
    );
    assert!(
        found.is_empty(),
        "the grammar reaches up:\n{}",
        found.join("\n")
    );
}
