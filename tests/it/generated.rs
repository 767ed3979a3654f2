//! The committed `src/grammar/generated.rs` is what the generator makes of
//! `grammar/*.abnf` today (the rust-analyzer "sourcegen" way: students read the
//! generated code on the page, and this test keeps it honest).

use iri_grammar_abnf::{codegen, Grammars};
use std::path::Path;

#[test]
fn generated_combinators_are_fresh() {
    let fresh = codegen::generate(&Grammars::builtin()).expect("the grammar files generate");
    fresh_or_regenerate("src/grammar/generated.rs", fresh);
}

#[test]
fn generated_automata_are_fresh() {
    let fresh = codegen::generate_automata(&Grammars::builtin()).expect("the grammar compiles");
    fresh_or_regenerate("src/grammar/automata.rs", fresh);
}

/// Passes when the committed file is `fresh`; rewrites it when
/// `IRI_GRAMMAR_REGENERATE` is set; fails otherwise.
fn fresh_or_regenerate(file: &str, fresh: String) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == fresh {
        return;
    }
    if std::env::var_os("IRI_GRAMMAR_REGENERATE").is_some() {
        std::fs::write(&path, fresh).unwrap_or_else(|e| panic!("write {file}: {e}"));
        return;
    }
    let first_difference = committed
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
        .map_or(committed.lines().count().min(fresh.lines().count()), |n| n)
        + 1;
    panic!(
        "{file} is stale (first difference at line {first_difference}).\n\
         Regenerate it with:\n\n    IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar --test it generated\n"
    );
}
