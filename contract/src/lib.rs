//! What the generator of iri-grammar (`iri-grammar-abnf`) and the runtime library it
//! generates code for (`iri-grammar`) agree on, so that neither depends on the other:
//!
//! - [`VariantName`]: the grammars, by name;
//! - [`Part`]: RFC 3986 Appendix B's split as an automaton, whose parts the generator
//!   writes into the compiled grammar's states and the runtime reads components from;
//! - [`Set`]: what may come next, as the generator computes it and the generated
//!   combinators test it;
//! - [`describe_char`]: a character as error messages name it, so that the combinators'
//!   errors and the oracle's say the same;
//! - [`tree`]: parse trees as text and as DOT, the combinators' and the oracle's alike.
//!
//! `no_std` with `alloc`, no dependencies: the runtime library without default
//! features still compiles nom and this crate only.

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;

mod chars;
mod set;
mod split;
pub mod tree;

pub use chars::describe_char;
pub use set::Set;
pub use split::Part;

/// The grammars, as plain data (the runtime's type-level variants are `Uri`, `Iri`,
/// `Leiri` and `Iri2001`): for choosing a grammar at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantName {
    /// RFC 3986.
    Uri,
    /// RFC 3987.
    Iri,
    /// The LEIRI note.
    Leiri,
    /// The 2001 IRI draft (draft-masinter-url-i18n-07), a grammar of its own rule set:
    /// rules, trees and errors, no typed references (the runtime's `Iri2001`).
    Iri2001,
}
impl VariantName {
    /// The three grammars of references, in the order the documents layer them: one
    /// rule set, RFC 3987's, serves them. The 2001 draft's grammar is not among them
    /// (it has a rule set of its own); [`VariantName::EVERY`] adds it.
    pub const ALL: [VariantName; 3] = [VariantName::Uri, VariantName::Iri, VariantName::Leiri];

    /// Every grammar of the engine: [`VariantName::ALL`] and the 2001 draft's, in the
    /// order of history's reading of them.
    pub const EVERY: [VariantName; 4] = [
        VariantName::Uri,
        VariantName::Iri,
        VariantName::Leiri,
        VariantName::Iri2001,
    ];

    /// `uri`, `iri`, `leiri` or `iri-2001`.
    ///
    /// ```
    /// assert_eq!(iri_grammar_contract::VariantName::Leiri.as_str(), "leiri");
    /// assert_eq!(iri_grammar_contract::VariantName::Iri2001.as_str(), "iri-2001");
    /// ```
    #[inline]
    pub fn as_str(self) -> &'static str {
        match self {
            VariantName::Uri => "uri",
            VariantName::Iri => "iri",
            VariantName::Leiri => "leiri",
            VariantName::Iri2001 => "iri-2001",
        }
    }

    /// Whether the grammar has typed references (the runtime's `Reference`): all but the
    /// 2001 draft's.
    #[inline]
    pub const fn has_references(self) -> bool {
        !matches!(self, VariantName::Iri2001)
    }
}
