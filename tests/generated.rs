//! The committed `src/grammar/generated.rs` is what the generator makes of
//! `grammar/*.abnf` today (the rust-analyzer "sourcegen" way: students read the
//! generated code on the page, and this test keeps it honest).

use iri_grammar_abnf::{codegen, Grammars};
use std::path::Path;

#[test]
fn generated_combinators_are_fresh() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/grammar/generated.rs");
    let fresh = codegen::generate(&Grammars::builtin()).expect("the grammar files generate");
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if committed == fresh {
        return;
    }
    if std::env::var_os("IRI_GRAMMAR_REGENERATE").is_some() {
        std::fs::write(&path, fresh).expect("write src/grammar/generated.rs");
        return;
    }
    let first_difference = committed
        .lines()
        .zip(fresh.lines())
        .position(|(a, b)| a != b)
        .map_or(committed.lines().count().min(fresh.lines().count()), |n| n)
        + 1;
    panic!(
        "src/grammar/generated.rs is stale (first difference at line {first_difference}).\n\
         Regenerate it with:\n\n    IRI_GRAMMAR_REGENERATE=1 cargo test --test generated\n"
    );
}
