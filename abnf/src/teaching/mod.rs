//! What the pages for people learning the grammars show: FIRST sets and who uses
//! whom ([`analysis`]), terminals as the characters they stand for ([`label`]),
//! railroad diagrams (`railroad`) and links to the documents ([`documents`]).

pub mod analysis;
pub mod documents;
pub mod label;
#[cfg(feature = "railroad")]
pub mod railroad;
