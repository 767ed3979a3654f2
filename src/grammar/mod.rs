//! The grammars of RFC 3986, RFC 3987 and the LEIRI note: every rule by name, in
//! each of the three grammars. The combinators themselves (one nom parser per rule,
//! generated from `grammar/*.abnf`) are in [`crate::combinators`].
//!
//! One rule set serves the three grammars: the combinators are generic over a
//! [`Variant`] ([`Uri`], [`Iri`], [`Leiri`]), which supplies the character classes
//! the documents define differently (`ucschar`, `iprivate`: empty for URIs, RFC 3987's
//! for IRIs, the LEIRI note's `ucschar` for LEIRIs). Every rule of each document can
//! be matched by its own name in that document ([`Rule::named`]).
//!
//! ```
//! use iri_grammar::grammar::{check, is_match, Iri, Rule, Uri};
//! assert!(is_match::<Iri>(Rule::IriReference, "http://résumé.example.org/"));
//! assert!(!is_match::<Uri>(Rule::IriReference, "http://résumé.example.org/"));
//! let err = check::<Iri>(Rule::Iri, "http://a/b c").unwrap_err();
//! assert_eq!(err.char_offset(), 10);
//! assert_eq!(err.rule(), Some("isegment"));
//! ```

pub(crate) mod automaton;
pub use automaton::WalkTables;
#[rustfmt::skip]
mod automata;
mod blame;
pub(crate) mod components;
mod error;

#[rustfmt::skip]
#[allow(missing_docs)]
pub(crate) mod generated;
pub(crate) mod runtime;
pub(crate) mod split;

use split::Boundaries;

pub use blame::ComponentFailure;
pub(crate) use components::{Component, HostKind};
/// What the trace (`crate::trace`, with `std`) says of terminals.
#[cfg(feature = "std")]
pub(crate) use error::describe;
pub use error::{Expectation, ExpectedBy, MatchError};
pub(crate) use generated::parse_rule;
pub use generated::Rule;
/// A character as errors name it; the oracle's explanations (`iri-grammar-abnf`) name
/// it the same way, from the same crate (`iri-grammar-contract`).
pub use iri_grammar_contract::describe_char;
/// The grammars, as plain data (the type-level variants are [`Uri`], [`Iri`],
/// [`Leiri`] and [`Iri2001`]): for choosing a grammar at run time.
pub use iri_grammar_contract::VariantName;

use runtime::{Check, Failure, Mode};

mod sealed {
    /// Only the grammars of this crate are variants: the generated combinators know
    /// their rules.
    pub trait Sealed {}
    impl Sealed for super::Uri {}
    impl Sealed for super::Iri {}
    impl Sealed for super::Leiri {}
    impl Sealed for super::Iri2001 {}
}

/// A grammar: which characters `ucschar` and `iprivate` stand for, and the rule names.
///
/// Implemented by [`Uri`], [`Iri`] and [`Leiri`], the grammars of references, and by
/// [`Iri2001`], the 2001 draft's grammar (sealed: the generated combinators know these
/// four); the implementations are generated from the grammar files. The typed
/// references ([`crate::Reference`]) exist for the first three only: a
/// `Reference<Iri2001>` does not compile (it fails when instantiated).
pub trait Variant:
    sealed::Sealed + Copy + Default + core::fmt::Debug + Send + Sync + 'static
{
    /// Which grammar this is.
    const NAME: VariantName;
    /// Whether `c` is in one of the variant rules whose bits are set in `rules`.
    #[doc(hidden)]
    fn variant_char(rules: u32, c: char) -> bool;
    /// The ASCII characters of the variant rules whose bits are set in `rules`
    /// (LEIRI's `ucschar` has some: space, `<`, `>`, controls, ...).
    #[doc(hidden)]
    fn variant_ascii(rules: u32) -> u128;
}

/// RFC 3986 URIs: `ucschar` and `iprivate` are empty; rules carry RFC 3986 names.
///
/// ```
/// use iri_grammar::grammar::{is_match, Rule, Uri};
/// assert!(is_match::<Uri>(Rule::named_in::<Uri>("path-abempty").unwrap(), "/a/b"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Uri;

/// RFC 3987 IRIs.
///
/// ```
/// use iri_grammar::grammar::{is_match, Iri, Rule};
/// assert!(is_match::<Iri>(Rule::Iquery, "q=\u{E000}"));
/// assert!(!is_match::<Iri>(Rule::Isegment, "\u{E000}"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Iri;

/// LEIRIs (W3C Note, 2008): IRIs with a wider `ucschar`; `IRI` is named `LEIRI`.
///
/// ```
/// use iri_grammar::grammar::{is_match, Leiri, Rule};
/// let rule = Rule::named_in::<Leiri>("LEIRI-reference").unwrap();
/// assert!(is_match::<Leiri>(rule, "http://example.org/a b<c>"));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Leiri;

/// The 2001 IRI draft, draft-masinter-url-i18n-07 §2.2: IRIs on RFC 2396 (with RFC
/// 2732's IPv6 literals), a grammar with a rule set of its own
/// (`grammar/draft-masinter-url-i18n-07.abnf`, its fixes commented there). Its rules
/// answer to the draft's names (`IRI-reference`, `absoluteIRI`, `ihier_part`); every
/// rule, tree and error works as for the other grammars, but it has no typed
/// references, conversions or lint: it is history, for comparing.
///
/// ```
/// use iri_grammar::grammar::{is_match, Iri, Iri2001, Rule};
/// let draft = Rule::named_in::<Iri2001>("IRI-reference").unwrap();
/// assert!(is_match::<Iri2001>(draft, "http://a/b;p?[x]"));
/// assert!(!is_match::<Iri>(Rule::IriReference, "http://a/b;p?[x]"));
/// assert_eq!(Rule::named_in::<Iri2001>("ipath-abempty"), None);
/// ```
///
/// The rules of RFC 3987's rule set are not rules of this grammar (they have no name
/// in it); run with `Iri2001` they are the URI grammar's. Typed references are
/// refused when compiled:
///
/// ```compile_fail
/// let r = iri_grammar::Reference::<iri_grammar::Iri2001>::parse("http://a/");
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Iri2001;

impl Rule {
    /// The rule named `name` in the grammar of `variant` (ABNF names are
    /// case-insensitive): RFC 3986 names under `Uri`, RFC 3987 names under `Iri`,
    /// the LEIRI note's under `Leiri`.
    ///
    /// ```
    /// use iri_grammar::{grammar::Rule, VariantName};
    /// assert_eq!(Rule::named(VariantName::Uri, "hier-part"), Some(Rule::IhierPart));
    /// assert_eq!(Rule::named(VariantName::Uri, "ihier-part"), None);
    /// assert_eq!(Rule::named(VariantName::Leiri, "leiri-reference"), Some(Rule::IriReference));
    /// ```
    pub fn named(variant: VariantName, name: &str) -> Option<Rule> {
        // RFC 3986's `unreserved` is both the URI name of `iunreserved` and a rule
        // RFC 3987 uses unchanged (in IPvFuture): the rule of that very name wins.
        let mut found = None;
        for &r in Rule::ALL {
            if r.name_in(variant)
                .is_some_and(|n| n.eq_ignore_ascii_case(name))
            {
                if r.iri_name().eq_ignore_ascii_case(name) {
                    return Some(r);
                }
                found = found.or(Some(r));
            }
        }
        found
    }

    /// [`Rule::named`] for a type-level variant.
    ///
    /// ```
    /// use iri_grammar::grammar::{Iri, Rule};
    /// assert_eq!(Rule::named_in::<Iri>("ipath-abempty"), Some(Rule::IpathAbempty));
    /// ```
    pub fn named_in<V: Variant>(name: &str) -> Option<Rule> {
        Rule::named(V::NAME, name)
    }

    /// The rule's name in `V`'s grammar; the RFC 3987 name if `V` has no such rule.
    ///
    /// ```
    /// use iri_grammar::grammar::{Rule, Uri};
    /// assert_eq!(Rule::IpathAbempty.name::<Uri>(), "path-abempty");
    /// ```
    pub fn name<V: Variant>(self) -> &'static str {
        self.name_of(V::NAME)
    }

    /// [`Rule::name`] for a variant known at run time.
    ///
    /// ```
    /// use iri_grammar::{grammar::Rule, VariantName};
    /// assert_eq!(Rule::IpathAbempty.name_of(VariantName::Uri), "path-abempty");
    /// assert_eq!(Rule::Ucschar.name_of(VariantName::Uri), "ucschar");
    /// ```
    pub fn name_of(self, variant: VariantName) -> &'static str {
        self.name_in(variant).unwrap_or_else(|| self.iri_name())
    }

    /// The rules of `variant`'s grammar, each once, under its names there.
    ///
    /// ```
    /// use iri_grammar::{grammar::Rule, VariantName};
    /// let uri: Vec<_> = Rule::of(VariantName::Uri).map(|(name, _)| name).collect();
    /// assert!(uri.contains(&"pchar") && !uri.contains(&"ucschar"));
    /// ```
    pub fn of(variant: VariantName) -> impl Iterator<Item = (&'static str, Rule)> {
        Rule::ALL.iter().filter_map(move |&r| {
            let name = r.name_in(variant)?;
            (Rule::named(variant, name) == Some(r)).then_some((name, r))
        })
    }
}

/// Whether all of `input` matches `rule` in grammar `V`. Allocates nothing.
///
/// ```
/// use iri_grammar::grammar::{is_match, Uri, Rule};
/// assert!(is_match::<Uri>(Rule::DecOctet, "255"));
/// assert!(!is_match::<Uri>(Rule::DecOctet, "256"));
/// ```
pub fn is_match<V: Variant>(rule: Rule, input: &str) -> bool {
    compiled_match::<V>(rule, input)
        .unwrap_or_else(|| matches!(parse_rule::<V, Check>(rule, input), Ok(("", ()))))
}

/// How far an input can be read as the start of a match of a rule
/// ([`viable_prefix`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ViablePrefix {
    /// The length in bytes of the longest prefix of the input that some string of
    /// the rule starts with: the byte there (if there is one) can continue no match.
    /// It may fall inside a character, where the rule takes other characters that
    /// begin with the same bytes.
    pub len: usize,
    /// Whether that prefix is itself a match of the rule.
    pub is_match: bool,
}

/// How far `input` can be read as the start of a match of `rule` in grammar `V`,
/// by one walk of the compiled grammar; `None` if the rule is not compiled (the 2001
/// draft's grammar, and the rules `automata.rs` leaves to the combinators). Where
/// `input` does not match, `len` is where its error is ([`MatchError::byte_offset`],
/// up to the start of the character it falls in). A line-oriented reader can find a
/// line's end and judge the line in the same walk: no rule of RFC 3986 or RFC 3987
/// takes a line feed, so a walk over a line and what follows stops at its end, and
/// the line is valid when it stops there with `is_match`.
///
/// `input` is bytes (a `&str` or a `&[u8]`): the grammars' characters are Unicode
/// scalar values read as UTF-8, so what a walk reads of bytes that are not UTF-8
/// is the UTF-8 text before them, and a match is UTF-8 text (the automata are
/// checked for it, state by state). A reader can judge a line's bytes without
/// checking them as UTF-8 first.
///
/// ```
/// use iri_grammar::grammar::{viable_prefix, Iri, Rule};
/// let p = viable_prefix::<Iri>(Rule::IriReference, "http://a/b c").unwrap();
/// assert_eq!((p.len, p.is_match), (10, true));
/// let p = viable_prefix::<Iri>(Rule::IriReference, "http://a/b\nhttp://c/").unwrap();
/// assert_eq!((p.len, p.is_match), (10, true));
/// // An IP literal not closed: no match is `http://[::1`.
/// let p = viable_prefix::<Iri>(Rule::Iri, "http://[::1 x").unwrap();
/// assert_eq!((p.len, p.is_match), (11, false));
/// // Bytes that are not UTF-8 end what can be read.
/// let p = viable_prefix::<Iri>(Rule::IriReference, b"http://a/\xFFb").unwrap();
/// assert_eq!((p.len, p.is_match), (9, true));
/// ```
#[inline]
pub fn viable_prefix<V: Variant>(rule: Rule, input: impl AsRef<[u8]>) -> Option<ViablePrefix> {
    let bytes = input.as_ref();
    let rule = rule as usize;
    let (len, is_match) = match V::NAME {
        VariantName::Uri => automata::URI
            .start(rule)
            .map(|s| automata::URI.stop(s, bytes)),
        VariantName::Iri => automata::IRI
            .start(rule)
            .map(|s| automata::IRI.stop(s, bytes)),
        VariantName::Leiri => automata::LEIRI
            .start(rule)
            .map(|s| automata::LEIRI.stop(s, bytes)),
        VariantName::Iri2001 => None,
    }?;
    Some(ViablePrefix { len, is_match })
}

/// Whether the generator compiled `rule` into the automaton of `variant`'s grammar
/// (`automata.rs` names the rules it leaves to the combinators); a `const fn`, so
/// that code which names a rule can require it when it is compiled
/// ([`is_compiled_match!`]).
pub(crate) const fn compiled(variant: VariantName, rule: Rule) -> bool {
    let starts = match variant {
        VariantName::Uri => automata::URI_STARTS,
        VariantName::Iri => automata::IRI_STARTS,
        VariantName::Leiri => automata::LEIRI_STARTS,
        VariantName::Iri2001 => return false,
    };
    starts[rule as usize] != u16::MAX
}

/// [`is_match`] for a rule that the code names and the generator compiles for every
/// grammar that has an automaton (asserted when the caller is compiled): the
/// automaton alone decides, with no fallback to the combinators, so that a program
/// which only validates and splits references links none of them (the WebAssembly
/// module of `js/`, a quarter of whose size they were). The 2001 draft's grammar,
/// which has no automaton, still runs them.
macro_rules! is_compiled_match {
    ($V:ty, $rule:expr, $input:expr) => {{
        const {
            assert!(
                matches!(
                    <$V as $crate::grammar::Variant>::NAME,
                    $crate::grammar::VariantName::Iri2001
                ) || $crate::grammar::compiled(<$V as $crate::grammar::Variant>::NAME, $rule),
                "the rule is not compiled: use is_match"
            )
        };
        $crate::grammar::compiled_or_draft::<$V>($rule, $input)
    }};
}
pub(crate) use is_compiled_match;

/// What [`is_compiled_match!`] runs once it has checked that `rule` is compiled.
#[inline(always)]
pub(crate) fn compiled_or_draft<V: Variant>(rule: Rule, input: &str) -> bool {
    match V::NAME {
        VariantName::Iri2001 => is_match::<V>(rule, input),
        _ => compiled_match::<V>(rule, input) == Some(true),
    }
}

/// Whether `input` matches `IRI-reference` (the rule of `V`'s references), and if it
/// does, the boundaries of its components in `found`, from the compiled grammar's one
/// walk.
#[inline(always)]
pub(crate) fn split_reference<V: Variant>(input: &str, found: &mut Boundaries) -> bool {
    // Typed references are RFC 3987's rule set's: a `Reference<Iri2001>` is refused
    // when it is compiled, not at run time.
    const {
        assert!(
            V::NAME.has_references(),
            "the 2001 draft's grammar (Iri2001) has no typed references: use its rules \
             with is_match, check and tree_of"
        )
    };
    // The generator compiles the reference rule of every grammar with references,
    // so the automaton always answers (and the combinators are not linked in here).
    const {
        assert!(
            compiled(V::NAME, Rule::IriReference),
            "the reference rule is not compiled"
        )
    };
    let bytes = input.as_bytes();
    let rule = Rule::IriReference as usize;
    let compiled = match V::NAME {
        VariantName::Uri => automata::URI
            .start(rule)
            .map(|s| automata::URI.split(s, bytes, found)),
        VariantName::Iri => automata::IRI
            .start(rule)
            .map(|s| automata::IRI.split(s, bytes, found)),
        VariantName::Leiri => automata::LEIRI
            .start(rule)
            .map(|s| automata::LEIRI.split(s, bytes, found)),
        VariantName::Iri2001 => None,
    };
    // `None` cannot be: asserted above.
    matches!(compiled, Some(Ok(_)))
}

/// Whether all of `input` matches `rule`, by the compiled grammar of `V`; `None` if
/// the rule is not compiled (see `automata.rs` for which are not).
#[inline]
pub(crate) fn compiled_match<V: Variant>(rule: Rule, input: &str) -> Option<bool> {
    // One arm per grammar, each walking with its own constants; `V::NAME` is known
    // at compile time, so only one remains.
    let bytes = input.as_bytes();
    let rule = rule as usize;
    match V::NAME {
        VariantName::Uri => automata::URI
            .start(rule)
            .map(|s| automata::URI.accepts(s, bytes)),
        VariantName::Iri => automata::IRI
            .start(rule)
            .map(|s| automata::IRI.accepts(s, bytes)),
        VariantName::Leiri => automata::LEIRI
            .start(rule)
            .map(|s| automata::LEIRI.accepts(s, bytes)),
        // The 2001 draft's rules run on the combinators only (README, "How it is built").
        VariantName::Iri2001 => None,
    }
}

/// The compiled automaton of `variant`'s grammar as a walk outside this crate reads
/// it ([`WalkTables`]); `None` for the 2001 draft, whose rules are not compiled.
#[doc(hidden)]
pub fn walk_tables(variant: VariantName) -> Option<WalkTables> {
    match variant {
        VariantName::Uri => Some(automata::URI.walk_tables()),
        VariantName::Iri => Some(automata::IRI.walk_tables()),
        VariantName::Leiri => Some(automata::LEIRI.walk_tables()),
        VariantName::Iri2001 => None,
    }
}

/// [`is_match`] with the grammar chosen at run time.
///
/// ```
/// use iri_grammar::{grammar::{matches_dyn, Rule}, VariantName};
/// assert!(matches_dyn(VariantName::Leiri, Rule::Iri, "http://a/ b"));
/// assert!(!matches_dyn(VariantName::Iri, Rule::Iri, "http://a/ b"));
/// ```
pub fn matches_dyn(variant: VariantName, rule: Rule, input: &str) -> bool {
    crate::with_variant!(variant, V => is_match::<V>(rule, input))
}

/// Runs an expression generic over a [`Variant`] for the grammar a [`VariantName`]
/// names at run time: `with_variant!(name, V => expr)` is `expr` with `V` the type
/// [`Uri`], [`Iri`], [`Leiri`] or [`Iri2001`], one arm each, each compiled for its
/// grammar. `with_variant!(name, V => expr, Iri2001 => other)` gives `other` for the
/// 2001 draft, whose grammar has rules but no typed references (`Reference<Iri2001>`
/// does not compile).
///
/// ```
/// use iri_grammar::{check, with_variant, Reference, Rule, VariantName};
/// let name = VariantName::Leiri;
/// assert!(with_variant!(name, V => check::<V>(Rule::Iri, "http://a/ b")).is_ok());
/// let scheme = with_variant!(name, V => {
///     Reference::<V>::parse("http://a/ b").ok().and_then(|r| r.scheme().map(str::to_owned))
/// }, Iri2001 => None);
/// assert_eq!(scheme.as_deref(), Some("http"));
/// ```
#[macro_export]
macro_rules! with_variant {
    ($variant:expr, $V:ident => $body:expr, Iri2001 => $draft:expr $(,)?) => {
        match $variant {
            $crate::VariantName::Uri => {
                type $V = $crate::Uri;
                $body
            }
            $crate::VariantName::Iri => {
                type $V = $crate::Iri;
                $body
            }
            $crate::VariantName::Leiri => {
                type $V = $crate::Leiri;
                $body
            }
            $crate::VariantName::Iri2001 => $draft,
        }
    };
    ($variant:expr, $V:ident => $body:expr $(,)?) => {
        $crate::with_variant!($variant, $V => $body, Iri2001 => {
            type $V = $crate::Iri2001;
            $body
        })
    };
}

/// Runs `rule` on all of `input` in mode `M`: the output, or the failure with the
/// end of input expected where the match stopped short.
pub(crate) fn full_match<V: Variant, M: Mode>(rule: Rule, input: &str) -> Result<M::Out, Failure> {
    match parse_rule::<V, M>(rule, input) {
        Ok(("", out)) => Ok(out),
        Ok((rest, out)) => Err(M::fail_after(
            out,
            M::fail(rest.len(), &[runtime::Expected::End]),
        )),
        Err(nom::Err::Error(f) | nom::Err::Failure(f)) => Err(f),
        Err(nom::Err::Incomplete(_)) => Err(M::fail(0, &[])),
    }
}

/// Whether all of `input` matches `rule` in grammar `V`, and if not, where and why.
///
/// Validation runs allocation-free; only a failure is run again to explain it.
///
/// ```
/// use iri_grammar::grammar::{check, Iri, Rule};
/// assert!(check::<Iri>(Rule::Iri, "http://example.org/ros%C3%A9").is_ok());
/// let e = check::<Iri>(Rule::Iri, "http://example.org/a b").unwrap_err();
/// assert_eq!(e.to_string(), "invalid IRI: unexpected U+0020 SPACE at char 20, in isegment");
/// assert_eq!(e.message(),
///     "at char 20 (U+0020 SPACE): isegment expects ipchar (iunreserved / pct-encoded / \
///      sub-delims / \":\" / \"@\"); ipath-abempty expects \"/\"; \
///      IRI expects \"#\", \"?\" or end of input, in ipath-abempty < ihier-part < IRI");
/// ```
pub fn check<V: Variant>(rule: Rule, input: &str) -> Result<(), MatchError> {
    if is_match::<V>(rule, input) {
        return Ok(());
    }
    Err(explain::<V>(rule, input))
}

/// The error of an input that does not match `rule` (call it only for a non-match);
/// the explanation is worked out when it is first asked for. Kept out of line, so
/// that the paths that succeed stay as small as they were.
#[cold]
#[inline(never)]
pub(crate) fn explain<V: Variant>(rule: Rule, input: &str) -> MatchError {
    MatchError::new::<V>(rule, input)
}
