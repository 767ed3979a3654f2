//! The command line's integration tests: one binary, linked once, with a module per
//! suite. Each suite runs `iri` as other programs do (`CARGO_BIN_EXE_iri`), so the
//! suites share nothing but `common`. One suite's tests: `cargo test -p iri-cli
//! --test it NAME::` (`cli::`, `docs::`, `snapshots::`, `browser::`, ...).

mod browser;
mod cli;
mod common;
mod conform;
mod docs;
mod grammars;
mod hostile_inputs;
mod schemas;
mod scripts;
mod server;
mod snapshots;
mod teaching;
mod user_grammars;
