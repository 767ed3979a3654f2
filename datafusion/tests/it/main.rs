//! The integration tests of `iri-grammar-datafusion`, one binary (one link of
//! DataFusion) with a module per concern. `tests/cluster.rs`, a real Ballista
//! cluster of three processes, is a binary of its own: see its documentation.

mod common;

#[cfg(feature = "ballista")]
mod ballista;
mod cli;
mod corpus;
mod lists;
mod sql;
