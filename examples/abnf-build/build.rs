//! Generates nom parsers from ABNF at build time: the whole use of
//! `iri_grammar_abnf::codegen::standalone` (see `abnf/src/codegen/standalone.rs`).

use iri_grammar_abnf::codegen::standalone::{generate, Options};
use iri_grammar_abnf::Grammar;
use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    // RFC 3339's date-time: one file, RFC 5234's core rules (DIGIT) come when used.
    write(&["grammars/rfc3339.abnf"], "rfc3339", &out);
    // RFC 6874's zone identifiers on RFC 3986: its IP-literal replaces RFC 3986's.
    write(
        &[
            "../../grammar/rfc3986.abnf",
            "../../tests/grammars/rfc6874.abnf",
        ],
        "rfc6874",
        &out,
    );
}

fn write(files: &[&str], module: &str, out: &str) {
    for f in files {
        println!("cargo:rerun-if-changed={f}");
    }
    let grammar = Grammar::read_files(files).unwrap_or_else(|e| panic!("{e}"));
    // The generator refuses what it cannot make exact (left recursion, ambiguity
    // beyond its lookahead), checking its translation against the ABNF oracle first.
    let code =
        generate(&grammar, &Options::new(module)).unwrap_or_else(|e| panic!("{module}: {e}"));
    std::fs::write(Path::new(out).join(format!("{module}.rs")), code).expect("write OUT_DIR");
}
