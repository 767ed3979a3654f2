//! What the corpus tests share: where `../shared/corpus` is, and its TSV escapes.
// Each test module uses part of this module.
#![allow(dead_code)]

pub mod rfc3986;

use std::path::PathBuf;

/// `../shared/corpus/<sub>` beside the project. `None`, with a message, when it is
/// absent; a failure when it is absent and `CI=true`, where the corpus tests must run.
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/corpus")
        .join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "../shared/corpus/{sub} is missing and CI=true: the corpus tests must run in CI"
    );
    skipped(&format!("../shared/corpus/{sub} not found"));
    None
}

/// Says that a test is skipped, and why, where `cargo test` shows it: straight to the
/// process's standard error, which the test harness does not capture (it hides what
/// `println!` and `eprintln!` print in a passing test).
pub fn skipped(why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED {why}");
}

/// `\uXXXX` escapes of the corpus TSV format (README.md there).
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(k) = rest.find("\\u") {
        let hex = rest.get(k + 2..k + 6);
        match hex
            .and_then(|h| u32::from_str_radix(h, 16).ok())
            .and_then(char::from_u32)
        {
            Some(c) => {
                out.push_str(&rest[..k]);
                out.push(c);
                rest = &rest[k + 6..];
            }
            None => {
                out.push_str(&rest[..k + 2]);
                rest = &rest[k + 2..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A URI with hex digits in uppercase and percent-encoded unreserved characters
/// decoded: URIs equal up to RFC 3986 §6.2.2.1-2 have the same one.
pub fn hex_normal(s: &str) -> String {
    let mut out = String::new();
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'%' {
            let v = u8::from_str_radix(&s[k + 1..k + 3], 16).unwrap();
            let c = v as char;
            if c.is_ascii_alphanumeric() || "-._~".contains(c) {
                out.push(c);
            } else {
                out.push_str(&format!("%{v:02X}"));
            }
            k += 3;
        } else {
            out.push(b[k] as char);
            k += 1;
        }
    }
    out
}
