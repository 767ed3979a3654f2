//! The grammar's rules as nom parsers, for composing them with nom's own combinators.
//!
//! [`rule`] gives the combinator of any rule of the generated rule set, generic over
//! the grammar `V` ([`Uri`](crate::Uri), [`Iri`](crate::Iri), [`Leiri`](crate::Leiri))
//! and the mode `M`: [`Check`] validates without allocating, [`Tree`] builds rule
//! nodes, [`Explain`] keeps the farthest failure, [`Trace`] records every step (for
//! [`crate::trace`]). Each is an ordinary `Fn(&str) -> IResult<&str, M::Out,
//! Failure>`, so it composes with nom:
//!
//! ```
//! use iri_grammar::combinators::{rule, Check, Failure};
//! use iri_grammar::{Iri, Rule};
//! use nom::{bytes::complete::tag, sequence::preceded, Parser};
//!
//! let mut path_then_query = (
//!     preceded(tag::<_, _, Failure>("path="), rule::<Iri, Check>(Rule::IpathAbempty)),
//!     preceded(tag("?"), rule::<Iri, Check>(Rule::Iquery)),
//! );
//! let (rest, _) = path_then_query.parse("path=/ros%C3%A9/b?q=1#f").unwrap();
//! assert_eq!(rest, "#f");
//! ```
//!
//! What is stable here: [`rule`], the modes ([`Mode`] and its four) and the failure
//! type ([`Failure`], [`PResult`]). The generated functions behind [`rule`], one per
//! rule, and the ABNF operators they are written with (`Lit`, `Range`, `Cat`, `Alt`,
//! `Repeat`, `Opt`, and `Ahead`, `First`, `Scan`, `Delimited`, which make the ordered
//! translation of ABNF exact and fast) are not: they are what `abnf/src/codegen/`
//! writes and change whenever it does, so the operators live in a hidden module,
//! `combinators::unstable`, outside the API. `iri grammar RULE --rust` shows a rule's
//! generated code beside its ABNF. Most programs want [`crate::Reference`] or
//! [`crate::is_match`] instead.

use crate::grammar::generated::parse_rule;
/// Tree mode finds its arena through a thread-local: it needs `std`.
#[cfg(feature = "std")]
pub use crate::grammar::runtime::Tree;
pub use crate::grammar::runtime::{Check, Explain, Failure, Mode, PResult};
/// Trace mode keeps its steps in a thread-local: it needs `std`.
#[cfg(feature = "std")]
pub use crate::grammar::runtime::{Trace, TRACE_LIMIT};
use crate::grammar::{Rule, Variant};

/// The combinator of `rule` in grammar `V` and mode `M`: a nom parser of the rule's
/// longest match at the start of its input (the ordered translation made exact,
/// README "ABNF is not PEG"), which leaves the rest. The rule is chosen at run time,
/// by value; [`Rule::named`](crate::Rule::named) finds one by its name in a grammar.
///
/// ```
/// use iri_grammar::combinators::{rule, Check};
/// use iri_grammar::{Rule, Uri};
/// let scheme = rule::<Uri, Check>(Rule::Scheme);
/// assert_eq!(scheme("http://a").unwrap().0, "://a");
/// assert!(scheme("1http").is_err());
/// ```
pub fn rule<V: Variant, M: Mode>(rule: Rule) -> impl Fn(&str) -> PResult<'_, M> {
    move |i| parse_rule::<V, M>(rule, i)
}

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
