//! The ABNF tooling of iri-grammar, by concern: [`model`], the rules as data (RFC
//! 5234), read from the text in `grammar/` or from a user's files; [`codegen`], the
//! generator of the nom combinators of `src/grammar/generated.rs` and of the automata
//! of `src/grammar/automata.rs`; [`oracle`], the interpreter of a rule table with the
//! true ABNF semantics, the reference for the generated code, and its explanations;
//! [`strings`], strings drawn from a grammar, near misses, shrinking and the
//! differences between grammars; [`teaching`], what the pages for people learning the
//! grammars show (FIRST sets, who uses whom, railroad diagrams, links to the
//! documents). The model knows nothing about URIs and depends on no other concern.
//!
//! Two default features can be turned off by a program that only reads grammars,
//! interprets them and draws strings from them (the Python package's `generate`):
//! `codegen` ([`codegen`], with regex-automata and regex-syntax) and `railroad`
//! (`teaching::railroad`).

#[cfg(feature = "codegen")]
pub mod codegen;
pub mod model;
pub mod oracle;
pub mod strings;
pub mod teaching;

pub use iri_grammar_contract::VariantName;
pub use model::builtin::{leiri_to_iri_name, name_in, Grammars};
pub use model::grammar::{Grammar, GrammarError};
pub use model::reader::{read, ReadError};
pub use model::{Element, RuleDef, RuleList, Source};
