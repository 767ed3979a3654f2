//! The grammar's rules as nom parsers, for composing them with nom's own combinators.
//!
//! Every rule of the generated rule set is a function named after it
//! (`ipath-abempty` → [`ipath_abempty`]), generic over the grammar `V` ([`Uri`],
//! [`Iri`], [`Leiri`]) and the mode `M`: [`Check`] validates without allocating,
//! [`Tree`] builds rule nodes, [`Explain`] keeps the farthest failure, [`Trace`]
//! records every step (for [`crate::trace`]). Each is an
//! ordinary `fn(&str) -> IResult<&str, M::Out, Failure>`, so it composes with nom:
//!
//! ```
//! use iri_grammar::combinators::{ipath_abempty, iquery, Check, Failure};
//! use iri_grammar::Iri;
//! use nom::{bytes::complete::tag, sequence::preceded, Parser};
//!
//! let mut path_then_query = (
//!     preceded(tag::<_, _, Failure>("path="), ipath_abempty::<Iri, Check>),
//!     preceded(tag("?"), iquery::<Iri, Check>),
//! );
//! let (rest, _) = path_then_query.parse("path=/ros%C3%A9/b?q=1#f").unwrap();
//! assert_eq!(rest, "#f");
//! ```
//!
//! What is stable here: the rule functions, the modes ([`Mode`] and its four) and the
//! failure type ([`Failure`], [`PResult`]). The ABNF operators the rules are written
//! with (`Lit`, `Range`, `Cat`, `Alt`, `Repeat`, `Opt`, and `Ahead`, `First`, `Scan`,
//! `Delimited`, which make the ordered translation of ABNF exact and fast) are not:
//! they are what `abnf/src/codegen/mod.rs` writes the rules with and change whenever
//! it does, so they live in a hidden module, `combinators::unstable`, outside the API.
//! Each rule's documentation shows its ABNF beside its code. Most programs want
//! [`crate::Reference`] or [`crate::is_match`] instead.

pub use crate::grammar::generated::*;
/// Tree mode finds its arena through a thread-local: it needs `std`.
#[cfg(feature = "std")]
pub use crate::grammar::runtime::Tree;
pub use crate::grammar::runtime::{Check, Explain, Failure, Mode, PResult};
/// Trace mode keeps its steps in a thread-local: it needs `std`.
#[cfg(feature = "std")]
pub use crate::grammar::runtime::{Trace, TRACE_LIMIT};
pub use crate::grammar::{Iri, Iri2001, Leiri, Uri, Variant};

/// The ABNF operators the generated rules are written with, and the types their modes
/// pass around. **Unstable**, outside the API and its semver: they follow the
/// generator (`abnf/src/codegen/`) and change whenever it does. Hidden from the
/// documentation; compose the rule functions instead.
#[doc(hidden)]
pub mod unstable {
    pub use crate::grammar::runtime::{
        rule, Ahead, Ahead2, Alt, Cat, Choice, Class, Delimited, Diag, Empty, Expected, First, Lit,
        LitCs, Nodes, Opt, Parse, Prose, Range, RawNode, Repeat, Scan, Set, Set2, Step, INF,
    };
}
