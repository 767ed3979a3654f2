//! The library's integration tests: one binary, a module per concern, so that the
//! library and the peers it is compared with are linked once. `cargo test -p
//! iri-grammar --test it MODULE` runs one module (every crate's binary is named `it`,
//! hence `-p`); the long modes of
//! `differential`, `oracle_explains`, `peers` and `properties` are set by environment
//! variables (CONTRIBUTING.md, "Long runs").

#![warn(clippy::undocumented_unsafe_blocks)]

mod common;

mod api;
mod conformance;
mod corpus_normalize;
mod corpus_resolve;
mod differential;
mod documents;
mod exactness;
mod fuzz_findings;
mod generated;
mod grammar_history;
mod iri2001;
mod layers;
mod lint;
mod map;
mod names;
mod no_alloc;
mod normalize;
mod oracle_explains;
mod peers;
mod prepare;
mod properties;
mod reference;
mod resolve;
mod security;
mod serde;
mod snapshots;
