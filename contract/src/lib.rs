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

use core::fmt;
use core::str::FromStr;

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

    /// Every spelling [`str::parse`] accepts, with the grammar it names: each
    /// grammar's [`as_str`](VariantName::as_str) first, then the aliases — the
    /// documents' names (`rfc3986`, `rfc3987`) and `iri2001`. Matched without regard
    /// to ASCII case, `_` standing for `-` (Python identifiers have no `-`).
    pub const SPELLINGS: [(&'static str, VariantName); 7] = [
        ("uri", VariantName::Uri),
        ("iri", VariantName::Iri),
        ("leiri", VariantName::Leiri),
        ("iri-2001", VariantName::Iri2001),
        ("rfc3986", VariantName::Uri),
        ("rfc3987", VariantName::Iri),
        ("iri2001", VariantName::Iri2001),
    ];
}

/// A grammar's name, as every front end reads it ([`VariantName::SPELLINGS`]).
///
/// ```
/// use iri_grammar_contract::VariantName;
/// assert_eq!("LEIRI".parse(), Ok(VariantName::Leiri));
/// assert_eq!("iri_2001".parse(), Ok(VariantName::Iri2001));
/// assert_eq!("rfc3986".parse(), Ok(VariantName::Uri));
/// assert!("url".parse::<VariantName>().is_err());
/// ```
impl FromStr for VariantName {
    type Err = ParseVariantNameError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        by_spelling(&VariantName::SPELLINGS, s).ok_or(ParseVariantNameError)
    }
}

/// The value a spelling set gives `s`: the first entry of `table` that `s` spells,
/// but for ASCII case and `_` for `-` (Python identifiers have no `-`). The one
/// reading of names behind every `FromStr` of option names (grammars here, levels
/// and character normalizations in the library).
///
/// ```
/// use iri_grammar_contract::by_spelling;
/// let table = [("iri-2001", 2001), ("iri", 2005)];
/// assert_eq!(by_spelling(&table, "IRI_2001"), Some(2001));
/// assert_eq!(by_spelling(&table, "url"), None);
/// ```
pub fn by_spelling<T: Copy>(table: &[(&str, T)], s: &str) -> Option<T> {
    let folded = |b: u8| match b {
        b'_' => b'-',
        b => b.to_ascii_lowercase(),
    };
    let spelled = |spelling: &str| {
        s.len() == spelling.len() && s.bytes().zip(spelling.bytes()).all(|(a, b)| folded(a) == b)
    };
    table
        .iter()
        .find(|(spelling, _)| spelled(spelling))
        .map(|&(_, value)| value)
}

/// The error of [`VariantName`]'s [`FromStr`]: the string names no grammar. Its
/// message lists the canonical names; a front end adds the string it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParseVariantNameError;

impl fmt::Display for ParseVariantNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected 'uri', 'iri', 'leiri' or 'iri-2001'")
    }
}

impl core::error::Error for ParseVariantNameError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_reads_back() {
        for v in VariantName::EVERY {
            assert_eq!(v.as_str().parse(), Ok(v));
            assert_eq!(v.as_str().to_ascii_uppercase().parse(), Ok(v));
        }
    }

    #[test]
    fn the_spelling_set() {
        let read = |s: &str| s.parse::<VariantName>();
        for (s, v) in [
            ("uri", VariantName::Uri),
            ("RFC3986", VariantName::Uri),
            ("Iri", VariantName::Iri),
            ("rfc3987", VariantName::Iri),
            ("leiri", VariantName::Leiri),
            ("iri-2001", VariantName::Iri2001),
            ("IRI_2001", VariantName::Iri2001),
            ("iri2001", VariantName::Iri2001),
        ] {
            assert_eq!(read(s), Ok(v), "{s}");
        }
        for s in [
            "", "url", " iri", "iri ", "iri-", "rfc-3986", "le-iri", "iri:IRI",
        ] {
            assert_eq!(read(s), Err(ParseVariantNameError), "{s:?}");
        }
    }
}
