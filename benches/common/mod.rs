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

/// `../shared/corpus/urls`, beside the project (the workspace root: this file is also
/// compiled into `bench/`, one folder down).
pub fn corpus_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let beside = |root: &Path| root.join("../shared/corpus/urls");
    match manifest.parent() {
        Some(parent) if !beside(manifest).is_dir() && beside(parent).is_dir() => beside(parent),
        _ => beside(manifest),
    }
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

/// Varied URIs, IRIs and references, valid and not, so the bench always has inputs.
pub const BUILTIN: &[&str] = &[
    "http://example.org/",
    "https://www.example.com/path/to/page.html?query=1&other=two#section-3",
    "https://user:password@host.example.com:8443/a/b/c;params?x=y#frag",
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "ldap://[2001:db8::7]/c=GB?objectClass?one",
    "http://[::ffff:192.168.0.1]:8080/index",
    "http://[v7.fe80::a+en1]/",
    "http://192.168.1.1/admin/login.php",
    "mailto:John.Doe@example.com",
    "news:comp.infosystems.www.servers.unix",
    "tel:+1-816-555-1212",
    "telnet://192.0.2.16:80/",
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
    "urn:isbn:0451450523",
    "file:///home/user/Documents/report%202024.pdf",
    "data:text/plain;charset=utf-8,Hello%2C%20World%21",
    "http://r\u{e9}sum\u{e9}.example.org/ros%C3%A9?q=caf\u{e9}#\u{e9}t\u{e9}",
    "http://\u{4f8b}\u{5b50}.\u{6d4b}\u{8bd5}/\u{8def}\u{5f84}/\u{6587}\u{4ef6}",
    "https://de.wikipedia.org/wiki/K\u{f6}ln_(Stadt)",
    "http://example.org/\u{1F600}/emoji?x=\u{E000}",
    "http://dbpedia.org/resource/C%C3%B4te_d%27Ivoire",
    "//cdn.example.net/lib/v1.2.3/script.min.js",
    "../../images/logo.png",
    "./relative/path;v=1?x#y",
    "?only=query",
    "#fragment-only",
    "",
    // invalid (for RFC 3986 and RFC 3987 alike)
    "http://example.org/a path with spaces",
    "http://[::1/unclosed",
    "http://example.org/%zz",
    "https://example.com/search?q=<script>",
    "http://example.org/a#b#c",
    ":missing-scheme",
];

/// The built-in list first, then the corpus lists.
pub fn all_batches() -> Vec<Batch> {
    let builtin = BUILTIN;
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
