//! Which component of a reference an input went wrong in, said the way a person
//! reads a reference.
//!
//! The grammar explains a failure where its longest match stopped, which is right
//! for the grammar and can be wrong for a person: in `http://a:8x/` the grammar
//! reads `a:8x` on as a userinfo that might still meet an `@`, and stops at the `/`
//! (char 11, in `iuserinfo`), while the port holds the `x` (char 10). So for the
//! rules of references, an error also splits the input as RFC 3986 Appendix B does
//! (which any string can be split by) and checks the scheme and each part of the
//! authority against its own rule: the first that fails is the
//! [`ComponentFailure`], said first in the error's messages; the grammar's own
//! explanation follows it. An input with no scheme where the rule needs one (an
//! `IRI` given `rel/only`) is said to be that.

use super::components::{Component, Components, ABSENT};
use super::error::failure_offset;
use super::split::Boundaries;
use super::{is_match, Rule, Variant, VariantName};
use core::fmt;

/// The component a reference failed in: which one, where, and what it may hold
/// ([`super::MatchError::component`]).
///
/// ```
/// use iri_grammar::{reference::Component, IriRef};
/// let e = IriRef::parse("http://a:8x/").unwrap_err();
/// let c = e.component().unwrap();
/// assert_eq!((c.component(), c.rule(), c.char_offset(), c.found()), (Component::Port, "port", 10, Some('x')));
/// assert_eq!(c.may_hold(), "a port holds digits only (RFC 3986 §3.2.3)");
/// assert_eq!(e.char_offset(), 11); // where the grammar's longest match stopped
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComponentFailure {
    component: Component,
    rule: &'static str,
    byte_offset: usize,
    char_offset: usize,
    found: Option<char>,
    may_hold: &'static str,
    /// No scheme where the rule needs one: the rule's name, and whether the input
    /// is a relative reference.
    no_scheme: Option<(&'static str, bool)>,
}

impl ComponentFailure {
    /// The component: [`Component::Scheme`], [`Component::Userinfo`],
    /// [`Component::Host`] or [`Component::Port`].
    pub fn component(&self) -> Component {
        self.component
    }

    /// The component's rule, by its name in the grammar of the error (`ihost` in
    /// an IRI, `host` in a URI).
    pub fn rule(&self) -> &'static str {
        self.rule
    }

    /// Byte offset of the character the component cannot hold (of where the scheme
    /// is missing: 0).
    pub fn byte_offset(&self) -> usize {
        self.byte_offset
    }

    /// The same, in characters from 0.
    pub fn char_offset(&self) -> usize {
        self.char_offset
    }

    /// That character; `None` at the end of the input.
    pub fn found(&self) -> Option<char> {
        self.found
    }

    /// What the component may hold, in words, with the section that says so.
    pub fn may_hold(&self) -> &'static str {
        self.may_hold
    }

    /// Whether the failure is a missing scheme, where the rule asked for needs one
    /// (the input may then be a relative reference: [`Self::is_relative_reference`]).
    pub fn is_missing_scheme(&self) -> bool {
        self.no_scheme.is_some()
    }

    /// Whether the input is a relative reference given to a rule that needs a
    /// scheme (`AbsoluteIri::parse("rel/only")`).
    pub fn is_relative_reference(&self) -> bool {
        self.no_scheme.is_some_and(|(_, relative)| relative)
    }

    /// The part of the messages after the position: `, in the port: a port holds
    /// ...`, or `: a relative reference ...`.
    pub(crate) fn write_what(&self, f: &mut impl fmt::Write) -> fmt::Result {
        match self.no_scheme {
            Some((rule, relative)) => {
                if relative {
                    f.write_str(": a relative reference (RFC 3986 §4.2), with no scheme")?;
                } else {
                    f.write_str(": no scheme")?;
                }
                write!(f, "; {rule} begins with a scheme and \":\" (RFC 3986 §3)")
            }
            None => write!(f, ", in the {}: {}", self.component.as_str(), self.may_hold),
        }
    }
}

impl fmt::Display for ComponentFailure {
    /// One line: `unexpected U+0078 'x' at char 10, in the port: a port holds digits
    /// only (RFC 3986 §3.2.3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.no_scheme.is_some() {
            write!(f, "at char {}", self.char_offset)?;
        } else {
            f.write_str("unexpected ")?;
            match self.found {
                Some(c) => f.write_str(&super::describe_char(c))?,
                None => f.write_str("end of input")?,
            }
            write!(f, " at char {}", self.char_offset)?;
        }
        self.write_what(f)
    }
}

const SCHEME: &str = "a scheme is a letter, then letters, digits, \"+\", \"-\" or \".\" \
                      (RFC 3986 §3.1)";
const USERINFO: &str = "a userinfo holds unreserved characters, percent-encodings, \
                        sub-delims and \":\", and ends at \"@\" (RFC 3986 §3.2.1)";
const HOST: &str = "a host is a registered name (unreserved characters, \
                    percent-encodings, sub-delims), an IPv4 address, or an IP literal \
                    in brackets (RFC 3986 §3.2.2)";
const IP_LITERAL: &str = "an IP literal is an IPv6 address, or \"v\", hex digits, \".\" \
                          and more, in brackets (RFC 3986 §3.2.2)";
const PORT: &str = "a port holds digits only (RFC 3986 §3.2.3)";

/// The component `input` fails in, for the rules of references, where the
/// grammar's longest match stopped at byte `farthest`; `None` for other rules,
/// the 2001 draft's grammar, or when no component is to blame.
pub(crate) fn diagnose<V: Variant>(
    rule: Rule,
    input: &str,
    farthest: usize,
) -> Option<ComponentFailure> {
    let absolute = matches!(rule, Rule::Iri | Rule::AbsoluteIri);
    let reference = absolute || matches!(rule, Rule::IriReference | Rule::IrelativeRef);
    if !reference || V::NAME == VariantName::Iri2001 || u32::try_from(input.len()).is_err() {
        return None;
    }
    let c = Components::from_boundaries(input, &Boundaries::of(input));
    let at = |offset: usize| {
        (
            offset,
            input[..offset].chars().count(),
            input[offset..].chars().next(),
        )
    };
    if absolute && c.scheme_end == ABSENT {
        let (byte_offset, char_offset, found) = at(0);
        return Some(ComponentFailure {
            component: Component::Scheme,
            rule: Rule::Scheme.name::<V>(),
            byte_offset,
            char_offset,
            found,
            may_hold: SCHEME,
            no_scheme: Some((rule.name::<V>(), is_match::<V>(Rule::IrelativeRef, input))),
        });
    }
    // The components the split finds, in order: (component, rule, start, end).
    let span = |s: u32, e: u32| (s as usize, e as usize);
    let mut parts: [Option<(Component, Rule, usize, usize)>; 4] = [None; 4];
    if rule != Rule::IrelativeRef && c.scheme_end != ABSENT {
        let (s, e) = span(0, c.scheme_end);
        parts[0] = Some((Component::Scheme, Rule::Scheme, s, e));
    }
    let (a_start, a_end) = c.authority;
    if a_start != ABSENT && (a_start as usize..=a_end as usize).contains(&farthest) {
        if c.userinfo_end != ABSENT {
            let (s, e) = span(a_start, c.userinfo_end);
            parts[1] = Some((Component::Userinfo, Rule::Iuserinfo, s, e));
        }
        let (s, e) = span(c.host.0, c.host.1);
        parts[2] = Some((Component::Host, Rule::Ihost, s, e));
        if c.port_start != ABSENT {
            let (s, e) = span(c.port_start, a_end);
            parts[3] = Some((Component::Port, Rule::Port, s, e));
        }
    }
    parts
        .into_iter()
        .flatten()
        .find_map(|(component, part, start, end)| {
            let text = &input[start..end];
            if is_match::<V>(part, text) {
                return None;
            }
            let (byte_offset, char_offset, found) = at(start + failure_offset::<V>(part, text));
            let may_hold = match component {
                Component::Scheme => SCHEME,
                Component::Userinfo => USERINFO,
                Component::Host if text.starts_with('[') => IP_LITERAL,
                Component::Host => HOST,
                _ => PORT,
            };
            Some(ComponentFailure {
                component,
                rule: part.name::<V>(),
                byte_offset,
                char_offset,
                found,
                may_hold,
                no_scheme: None,
            })
        })
}
