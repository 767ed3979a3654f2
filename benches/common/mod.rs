//! What the benches share: the input lists (a built-in set, plus the URL lists of
//! `../shared/corpus/urls/` when present) and how an input is shown in reports.
// Each bench uses part of this module.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The inputs of one list: its name and the strings.
pub struct Batch {
    pub name: String,
    pub inputs: Vec<String>,
}

impl Batch {
    /// Their total length in bytes.
    pub fn bytes(&self) -> usize {
        self.inputs.iter().map(String::len).sum()
    }
}

/// `../shared/corpus/urls`, beside the project.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/urls")
}

/// The corpus lists in `dir`, one batch per `*.txt` file (license texts left out), or
/// none (with a message) when the folder is absent.
pub fn corpus_batches(dir: &Path) -> Vec<Batch> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => {
            println!(
                "corpus folder {} not readable ({e}): skipping the corpus lists, \
                 benchmarking the built-in set only",
                dir.display()
            );
            return Vec::new();
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .filter(|p| {
            !p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("LICENSE"))
        })
        .collect();
    paths.sort();
    let mut batches = Vec::new();
    for path in paths {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                println!("skipping {}: {e}", path.display());
                continue;
            }
        };
        // ada-kasztp.txt starts with a UTF-8 byte order mark: not part of the URL.
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        let inputs: Vec<String> = text
            .lines()
            .filter(|l| !l.is_empty())
            .map(str::to_owned)
            .collect();
        let name = path
            .file_stem()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_owned();
        batches.push(Batch { name, inputs });
    }
    batches
}

/// The built-in list first, then the corpus lists.
pub fn all_batches(builtin: &[&str]) -> Vec<Batch> {
    let mut batches = vec![Batch {
        name: "builtin".to_owned(),
        inputs: builtin.iter().map(|s| s.to_string()).collect(),
    }];
    batches.extend(corpus_batches(&corpus_dir()));
    batches
}

/// Shortens an input for display, on a character boundary.
pub fn show(s: &str) -> String {
    const MAX: usize = 110;
    if s.chars().count() <= MAX {
        format!("{s:?}")
    } else {
        let cut: String = s.chars().take(MAX).collect();
        format!("{cut:?}... ({} bytes)", s.len())
    }
}
