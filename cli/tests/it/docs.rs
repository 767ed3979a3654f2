//! The command-line examples of the documents, run: every ```` ```console ```` block of
//! the README and of the guides in `docs/` holds `$ iri ...` lines, each followed by
//! what it prints (standard output and standard error together) and, when it does
//! not exit 0, a `? STATUS` line. trycmd runs each with the `iri` built here, from
//! the repository root (so that `grammar/...` paths in the examples resolve), and
//! fails on any difference. `[..]` in an expected line matches any text, `...` on
//! a line of its own any lines.
//!
//! Commands of other programs (`iri-sql`, `cargo`, `pip`) are not run here:
//! `iri-sql` needs DataFusion, which the root `cargo test` does not build.
//! To see what the examples print now: `TRYCMD=dump cargo test -p iri-cli --test it docs::`.

use std::path::Path;

#[test]
fn the_examples_of_the_documents_print_what_they_say() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ is in the repository");
    // The examples name files relative to the repository root.
    std::env::set_current_dir(root).expect("the repository root");
    trycmd::TestCases::new()
        .register_bin("iri", Path::new(env!("CARGO_BIN_EXE_iri")))
        .register_bin("iri-sql", trycmd::schema::Bin::Ignore)
        .register_bin("cargo", trycmd::schema::Bin::Ignore)
        .register_bin("pip", trycmd::schema::Bin::Ignore)
        .case(root.join("README.md"))
        .case(root.join("docs/command-line.md"))
        .case(root.join("docs/teaching.md"))
        .case(root.join("docs/library.md"))
        .case(root.join("docs/sql.md"));
}
