//! # iri-grammar
//!
//! The ABNF of RFC 3986 (URI), RFC 3987 (IRI) and the W3C LEIRI note, made
//! executable: every rule is a nom combinator generated from the grammar files in
//! `grammar/`, generic over the grammar variant ([`Uri`], [`Iri`], [`Leiri`]).
//!
//! ```
//! use iri_grammar::{parse_tree, Iri};
//! let tree = parse_tree::<Iri>("IRI", "http://résumé.example.org/ros%C3%A9?q#f").unwrap();
//! assert_eq!(tree.root.rule, "IRI");
//! assert_eq!(tree.root.children[0].rule, "scheme");
//! ```
//!
//! The layers, in the order data flows: [`abnf`] (the grammar files as data, the
//! generator and the oracle) → [`grammar`] (the generated combinators) → [`tree`]
//! (parse trees) and [`reference`] (typed references) → [`resolve`] (RFC 3986 §5)
//! → the `iri` command line.
#![deny(missing_docs)]

pub mod bidi;
pub mod convert;
pub mod grammar;
pub mod idn;
pub mod lint;
pub mod normalize;
pub mod pct;
pub mod prepare;
pub mod reference;
pub mod resolve;
pub mod schemes;
pub mod tree;

pub use grammar::{check, is_match, Iri, Leiri, MatchError, Rule, Uri, Variant, VariantName};
pub use reference::{Component, HostKind, IriRef, LeiriRef, Reference, UriRef};
pub use resolve::ResolveError;
pub use tree::{parse_tree, Node, ParseTree};

/// The README's Rust examples, run as doctests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
