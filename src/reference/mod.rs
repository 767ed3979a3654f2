//! Typed IRI references (RFC 3987 §2.2, RFC 3986 §3-4): the components of a
//! reference, zero-copy.
//!
//! A reference is parsed in two exact steps: the compiled grammar (an automaton
//! generated from `grammar/`, see [`crate::grammar`]) decides that the text matches
//! `IRI-reference` (`URI-reference`, `LEIRI-reference`), and then the split of RFC
//! 3986 Appendix B, which is exact on a valid reference, finds the components. The
//! host's kind is decided as `ihost` decides it: first match wins.

mod absolute;
mod edit;
mod host;
mod recompose;

pub use absolute::{AbsoluteIri, AbsoluteLeiri, AbsoluteReference, AbsoluteUri, NotAbsolute};
pub use edit::{BuildError, QueryPair, QueryPairs, ReferenceBuilder};
pub use host::{Host, PortOutOfRange};

pub(crate) use crate::grammar::components::{host_kind, Components, ABSENT};
pub use crate::grammar::components::{Component, HostKind};
pub(crate) use recompose::Recomposer;

use crate::grammar::split::Boundaries;
use crate::grammar::{split_reference, Iri, Leiri, MatchError, Rule, Uri, Variant};
use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use core::borrow::Borrow;
use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use core::ops::Range;
use core::str::FromStr;

/// An IRI reference of grammar `V` (`IRI-reference` of RFC 3987, `URI-reference` of
/// RFC 3986 under [`Uri`], `LEIRI-reference` under [`Leiri`]), with its components.
///
/// Borrowed (`Reference<'a, V>` from [`Reference::parse`]) or owned
/// (`Reference<'static, V>` from a `String`, or [`Reference::into_owned`]).
/// Equality, order and hashing are those of the exact string: RFC 3987 §5.3.1's
/// simple string comparison.
///
/// ```
/// use iri_grammar::reference::{IriRef, HostKind};
/// let r = IriRef::parse("http://user@résumé.example.org:8080/a/b?q#f").unwrap();
/// assert_eq!(r.scheme(), Some("http"));
/// assert_eq!(r.authority(), Some("user@résumé.example.org:8080"));
/// assert_eq!(r.userinfo(), Some("user"));
/// assert_eq!(r.host(), Some("résumé.example.org"));
/// assert_eq!(r.host_kind(), Some(HostKind::RegName));
/// assert_eq!(r.port(), Some("8080"));
/// assert_eq!(r.path(), "/a/b");
/// assert_eq!(r.query(), Some("q"));
/// assert_eq!(r.fragment(), Some("f"));
/// ```
pub struct Reference<'a, V: Variant = Iri> {
    text: Cow<'a, str>,
    c: Components,
    variant: PhantomData<V>,
}

/// An RFC 3987 IRI reference.
pub type IriRef<'a> = Reference<'a, Iri>;
/// An RFC 3986 URI reference.
pub type UriRef<'a> = Reference<'a, Uri>;
/// A LEIRI reference.
pub type LeiriRef<'a> = Reference<'a, Leiri>;

impl<'a, V: Variant> Reference<'a, V> {
    /// Parses an IRI reference of grammar `V`, borrowing the text. Allocates nothing.
    ///
    /// ```
    /// use iri_grammar::reference::UriRef;
    /// assert!(UriRef::parse("../a?b").is_ok());
    /// let e = UriRef::parse("http://résumé/").unwrap_err();
    /// assert_eq!(e.char_offset(), 8);
    /// assert_eq!(e.found(), Some('é'));
    /// ```
    pub fn parse(text: &'a str) -> Result<Self, MatchError> {
        reference_of::<V, _>(text, |c| Reference {
            text: Cow::Borrowed(text),
            c,
            variant: PhantomData,
        })
    }

    /// Parses an owned string.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let r = IriRef::parse_owned(String::from("a:b")).unwrap();
    /// assert_eq!(r.scheme(), Some("a"));
    /// ```
    pub fn parse_owned(text: String) -> Result<Reference<'static, V>, MatchError> {
        let c = components::<V>(&text)?;
        Ok(Reference {
            text: Cow::Owned(text),
            c,
            variant: PhantomData,
        })
    }

    /// Builds a reference from text and components known to be right (resolution).
    pub(crate) fn from_parts(text: String, c: Components) -> Reference<'static, V> {
        debug_assert_eq!(
            components::<V>(&text).as_ref().ok(),
            Some(&c),
            "components of {text:?}"
        );
        Reference {
            text: Cow::Owned(text),
            c,
            variant: PhantomData,
        }
    }

    pub(crate) fn components(&self) -> &Components {
        &self.c
    }

    /// The same text and components in grammar `W`, whose language holds `V`'s
    /// (URI ⊂ IRI ⊂ LEIRI: RFC 3987 §2.2 and the LEIRI note §2 only widen
    /// character classes, never the structure, so the components are the same).
    fn widen<W: Variant>(self) -> Reference<'a, W> {
        debug_assert_eq!(components::<W>(&self.text).as_ref().ok(), Some(&self.c));
        Reference {
            text: self.text,
            c: self.c,
            variant: PhantomData,
        }
    }

    /// The same text in grammar `W`, if it is a reference of `W`; its error in `W`
    /// otherwise.
    fn narrow<W: Variant>(self) -> Result<Reference<'a, W>, MatchError> {
        let c = components::<W>(&self.text)?;
        debug_assert_eq!(c, self.c);
        Ok(Reference {
            text: self.text,
            c,
            variant: PhantomData,
        })
    }

    /// The reference without its fragment (and without the `#`), borrowing this
    /// one's text. For an IRI this is its `absolute-IRI` (RFC 3986 §4.3), what
    /// §5.1 asks of a base, and what a retrieval is about (§3.5: the fragment is
    /// for the client).
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let r = IriRef::parse("http://a/b?q#f").unwrap();
    /// assert_eq!(r.without_fragment(), "http://a/b?q");
    /// assert!(r.without_fragment().is_absolute_iri());
    /// assert_eq!(IriRef::parse("#").unwrap().without_fragment(), "");
    /// ```
    pub fn without_fragment(&self) -> Reference<'_, V> {
        let mut c = self.c;
        let end = if c.fragment_start == ABSENT {
            self.len()
        } else {
            c.fragment_start - 1
        };
        c.fragment_start = ABSENT;
        Reference {
            text: Cow::Borrowed(self.slice(0, end)),
            c,
            variant: PhantomData,
        }
    }

    /// The reference as a string slice.
    ///
    /// ```
    /// let r = iri_grammar::reference::IriRef::parse("#f").unwrap();
    /// assert_eq!(r.as_str(), "#f");
    /// ```
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// An owned copy (no-op when already owned).
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let owned: IriRef<'static> = IriRef::parse("a:b").unwrap().into_owned();
    /// assert_eq!(owned.as_str(), "a:b");
    /// ```
    pub fn into_owned(self) -> Reference<'static, V> {
        Reference {
            text: Cow::Owned(self.text.into_owned()),
            c: self.c,
            variant: PhantomData,
        }
    }

    fn slice(&self, start: u32, end: u32) -> &str {
        let (start, end) = (start as usize, end as usize);
        let text: &str = &self.text;
        debug_assert!(start <= end && end <= text.len());
        debug_assert!(text.is_char_boundary(start) && text.is_char_boundary(end));
        // SAFETY: a component's boundaries are 0, the text's length, or next to one of
        // the ASCII delimiters `:` `/` `?` `#` `@` (the split of a valid reference, or
        // the builder, which writes the delimiters itself), so they are character
        // boundaries, in order, within the text.
        unsafe { text.get_unchecked(start..end) }
    }

    fn len(&self) -> u32 {
        self.text.len() as u32
    }

    /// `scheme`, without the `:`; `None` for a relative reference.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("HTTP://a").unwrap().scheme(), Some("HTTP"));
    /// assert_eq!(IriRef::parse("//a").unwrap().scheme(), None);
    /// ```
    pub fn scheme(&self) -> Option<&str> {
        (self.c.scheme_end != ABSENT).then(|| self.slice(0, self.c.scheme_end))
    }

    /// `iauthority`, without the `//`; `None` when there is no `//` (an empty
    /// authority, as in `file:///x`, is `Some("")`).
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("file:///x").unwrap().authority(), Some(""));
    /// assert_eq!(IriRef::parse("mailto:a@b").unwrap().authority(), None);
    /// ```
    pub fn authority(&self) -> Option<&str> {
        let (s, e) = self.c.authority;
        (s != ABSENT).then(|| self.slice(s, e))
    }

    /// `iuserinfo`, without the `@`.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("//u:p@h").unwrap().userinfo(), Some("u:p"));
    /// assert_eq!(IriRef::parse("//@h").unwrap().userinfo(), Some(""));
    /// assert_eq!(IriRef::parse("//h").unwrap().userinfo(), None);
    /// ```
    pub fn userinfo(&self) -> Option<&str> {
        (self.c.userinfo_end != ABSENT).then(|| self.slice(self.c.authority.0, self.c.userinfo_end))
    }

    /// `ihost`, with the brackets of an IP literal.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("//[::1]:80").unwrap().host(), Some("[::1]"));
    /// ```
    pub fn host(&self) -> Option<&str> {
        let (s, e) = self.c.host;
        (s != ABSENT).then(|| self.slice(s, e))
    }

    /// What kind of host: decided by the grammar, first match wins.
    ///
    /// ```
    /// use iri_grammar::reference::{IriRef, HostKind};
    /// let kind = |s| IriRef::parse(s).unwrap().host_kind();
    /// assert_eq!(kind("http://1.2.3.4/"), Some(HostKind::Ipv4));
    /// assert_eq!(kind("http://01.02.03.04/"), Some(HostKind::RegName));
    /// assert_eq!(kind("http://[v7.x]/"), Some(HostKind::IpvFuture));
    /// assert_eq!(kind("a:b"), None);
    /// ```
    pub fn host_kind(&self) -> Option<HostKind> {
        self.c.host_kind
    }

    /// The host as a value ([`Host`]): a registered name, an IPv4 or IPv6 address,
    /// or an `IPvFuture`; `None` when there is no authority. The grammar has decided
    /// the kind (first match wins), so this cannot fail.
    ///
    /// ```
    /// use iri_grammar::reference::{Host, IriRef};
    /// use core::net::Ipv6Addr;
    /// let r = IriRef::parse("http://[2001:db8::7]:8080/").unwrap();
    /// assert_eq!(r.host(), Some("[2001:db8::7]"));
    /// assert_eq!(r.host_parsed(), Some(Host::Ipv6(Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 7))));
    /// ```
    pub fn host_parsed(&self) -> Option<Host<'_>> {
        Some(Host::of_valid(self.host()?, self.c.host_kind?))
    }

    /// `port`, without the `:`; `Some("")` for `http://a:/`.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("http://a:/").unwrap().port(), Some(""));
    /// assert_eq!(IriRef::parse("http://a/").unwrap().port(), None);
    /// ```
    pub fn port(&self) -> Option<&str> {
        (self.c.port_start != ABSENT).then(|| self.slice(self.c.port_start, self.c.authority.1))
    }

    /// The port as a number: `Ok(None)` when there is none or it is empty (RFC 3986
    /// §3.2.3: an empty port is as if there were none); leading zeros are ignored
    /// (`:080` is 80). `port = *DIGIT` has no upper bound in the ABNF, so
    /// `http://a:65536/` is a valid reference: its port is an error here,
    /// [`PortOutOfRange`], rather than a wrapped or truncated number.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let port = |s| IriRef::parse(s).unwrap().port_number();
    /// assert_eq!(port("http://a:8080/"), Ok(Some(8080)));
    /// assert_eq!(port("http://a:080/"), Ok(Some(80)));
    /// assert_eq!(port("http://a:/"), Ok(None));
    /// assert_eq!(port("http://a/"), Ok(None));
    /// assert!(port("http://a:123456/").is_err());
    /// ```
    pub fn port_number(&self) -> Result<Option<u16>, PortOutOfRange> {
        self.port().map_or(Ok(None), host::port_number)
    }

    /// The port as a number, or when there is none (or it is empty) the default
    /// port of the scheme if [`crate::schemes`] knows it (http 80, https 443, ws
    /// 80, wss 443, ftp 21); `Ok(None)` otherwise.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let port = |s| IriRef::parse(s).unwrap().port_or_known_default();
    /// assert_eq!(port("https://a/"), Ok(Some(443)));
    /// assert_eq!(port("HTTP://a:/"), Ok(Some(80)));
    /// assert_eq!(port("http://a:8080/"), Ok(Some(8080)));
    /// assert_eq!(port("urn:isbn:0451450523"), Ok(None));
    /// ```
    pub fn port_or_known_default(&self) -> Result<Option<u16>, PortOutOfRange> {
        if let Some(n) = self.port_number()? {
            return Ok(Some(n));
        }
        let default = self
            .scheme()
            .and_then(crate::schemes::scheme_rules)
            .and_then(|rules| rules.default_port);
        default.map_or(Ok(None), host::port_number)
    }

    /// The path: always present, possibly empty.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("http://a").unwrap().path(), "");
    /// assert_eq!(IriRef::parse("a:b/c?d").unwrap().path(), "b/c");
    /// ```
    pub fn path(&self) -> &str {
        self.slice(self.c.path.0, self.c.path.1)
    }

    /// `iquery`, without the `?`; `Some("")` for `http://a/?`, `None` for `http://a/`.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("http://a/?").unwrap().query(), Some(""));
    /// assert_eq!(IriRef::parse("http://a/").unwrap().query(), None);
    /// ```
    pub fn query(&self) -> Option<&str> {
        let s = self.c.query_start;
        (s != ABSENT).then(|| {
            let e = if self.c.fragment_start != ABSENT {
                self.c.fragment_start - 1
            } else {
                self.len()
            };
            self.slice(s, e)
        })
    }

    /// `ifragment`, without the `#`.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert_eq!(IriRef::parse("a:b#").unwrap().fragment(), Some(""));
    /// ```
    pub fn fragment(&self) -> Option<&str> {
        let s = self.c.fragment_start;
        (s != ABSENT).then(|| self.slice(s, self.len()))
    }

    /// The path's segments (`isegment`s), split at `/`; an absolute path's leading
    /// `/` gives no empty first segment.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let r = IriRef::parse("http://a/b//c/").unwrap();
    /// assert_eq!(r.path_segments().collect::<Vec<_>>(), ["b", "", "c", ""]);
    /// assert_eq!(IriRef::parse("http://a").unwrap().path_segments().count(), 0);
    /// assert_eq!(IriRef::parse("x/y").unwrap().path_segments().collect::<Vec<_>>(), ["x", "y"]);
    /// ```
    pub fn path_segments(&self) -> impl Iterator<Item = &str> {
        let p = self.path();
        let p = p.strip_prefix('/').unwrap_or(p);
        let empty = self.path().is_empty();
        p.split('/').filter(move |_| !empty)
    }

    /// Whether this is an IRI (`IRI`: it has a scheme), not a relative reference.
    /// An IRI may have a fragment; see [`Reference::is_absolute_iri`].
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert!(IriRef::parse("a:b#c").unwrap().is_absolute());
    /// assert!(!IriRef::parse("//a/b").unwrap().is_absolute());
    /// ```
    pub fn is_absolute(&self) -> bool {
        self.c.scheme_end != ABSENT
    }

    /// Whether this is a relative reference (`irelative-ref`).
    ///
    /// ```
    /// assert!(iri_grammar::reference::IriRef::parse("b").unwrap().is_relative());
    /// ```
    pub fn is_relative(&self) -> bool {
        !self.is_absolute()
    }

    /// Whether this matches `absolute-IRI`: a scheme and no fragment (what RFC 3986
    /// §5.1 wants of a base).
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert!(IriRef::parse("a:b").unwrap().is_absolute_iri());
    /// assert!(!IriRef::parse("a:b#c").unwrap().is_absolute_iri());
    /// ```
    pub fn is_absolute_iri(&self) -> bool {
        self.is_absolute() && self.c.fragment_start == ABSENT
    }

    /// Where a component is in [`Reference::as_str`], as a byte range without its
    /// delimiters; `None` when it is absent (the path is always present).
    ///
    /// ```
    /// use iri_grammar::reference::{Component, IriRef};
    /// let r = IriRef::parse("http://u@h:8/p?q#f").unwrap();
    /// assert_eq!(r.span(Component::Authority), Some(7..12));
    /// assert_eq!(r.span(Component::Port), Some(11..12));
    /// assert_eq!(r.span(Component::Path), Some(12..14));
    /// assert_eq!(r.span(Component::Fragment), Some(17..18));
    /// assert_eq!(IriRef::parse("a:b").unwrap().span(Component::Query), None);
    /// ```
    pub fn span(&self, part: Component) -> Option<Range<usize>> {
        let c = &self.c;
        let len = self.len();
        let present =
            |start: u32, end: u32| (start != ABSENT).then_some(start as usize..end as usize);
        match part {
            Component::Scheme => (c.scheme_end != ABSENT).then_some(0..c.scheme_end as usize),
            Component::Authority => present(c.authority.0, c.authority.1),
            Component::Userinfo => (c.userinfo_end != ABSENT)
                .then_some(c.authority.0 as usize..c.userinfo_end as usize),
            Component::Host => present(c.host.0, c.host.1),
            Component::Port => present(c.port_start, c.authority.1),
            Component::Path => Some(c.path.0 as usize..c.path.1 as usize),
            Component::Query => present(
                c.query_start,
                if c.fragment_start != ABSENT {
                    c.fragment_start - 1
                } else {
                    len
                },
            ),
            Component::Fragment => present(c.fragment_start, len),
        }
    }

    /// The text of a component (as [`Reference::span`] delimits it).
    ///
    /// ```
    /// use iri_grammar::reference::{Component, IriRef};
    /// let r = IriRef::parse("http://h/p?q").unwrap();
    /// assert_eq!(r.get(Component::Host), Some("h"));
    /// assert_eq!(r.get(Component::Fragment), None);
    /// ```
    pub fn get(&self, part: Component) -> Option<&str> {
        self.span(part).map(|r| &self.text[r])
    }

    /// The byte ranges of the path's segments (`isegment`s), as
    /// [`Reference::path_segments`] splits it.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let r = IriRef::parse("http://a/b//c").unwrap();
    /// assert_eq!(r.path_segment_spans().collect::<Vec<_>>(), [9..10, 11..11, 12..13]);
    /// ```
    pub fn path_segment_spans(&self) -> impl Iterator<Item = Range<usize>> + '_ {
        let (start, end) = (self.c.path.0 as usize, self.c.path.1 as usize);
        let path = &self.text[start..end];
        let skip = usize::from(path.starts_with('/'));
        let mut at = start + skip;
        path[skip..]
            .split('/')
            .filter(move |_| start != end)
            .map(move |s| {
                let r = at..at + s.len();
                at += s.len() + 1;
                r
            })
    }
}

/// What `then` makes of the components of `text` if it matches the reference rule
/// of `V`; the error otherwise.
///
/// `then` builds the caller's value in place, so that [`Reference::parse`] makes its
/// error ([`not_a_reference`], out of line) straight into the `Result` it returns.
/// Passed through a `Result<Components, MatchError>` first, the error was copied
/// from one layout into the other, and the copy's loads waited for the stores that
/// had just written it (a store-forwarding stall); an `Option<Components>` in
/// between would slow the successful parse instead.
#[inline(always)]
fn reference_of<V: Variant, T>(
    text: &str,
    then: impl FnOnce(Components) -> T,
) -> Result<T, MatchError> {
    // Span slots are u32; the grammar has no length limit, this library does.
    let mut b = Boundaries::NONE;
    if text.len() < MatchError::LONGEST && split_reference::<V>(text, &mut b) {
        Ok(then(Components::from_boundaries(text, &b)))
    } else {
        Err(not_a_reference::<V>(text))
    }
}

/// The components of `text` if it matches the reference rule of `V`; the error
/// otherwise.
#[inline(always)]
fn components<V: Variant>(text: &str) -> Result<Components, MatchError> {
    reference_of::<V, _>(text, |c| c)
}

/// Why `text` is no reference of `V`: too long for the spans, or not matched.
#[cold]
#[inline(never)]
fn not_a_reference<V: Variant>(text: &str) -> MatchError {
    if text.len() >= MatchError::LONGEST {
        MatchError::too_long::<V>(Rule::IriReference, text, "a reference shorter than 4 GiB")
    } else {
        // Not `grammar::explain`, out of line for the paths that succeed: this
        // function is already, and a refusal need not pay for a second call.
        MatchError::new::<V>(Rule::IriReference, text)
    }
}

impl<V: Variant> Clone for Reference<'_, V> {
    fn clone(&self) -> Self {
        Reference {
            text: self.text.clone(),
            c: self.c,
            variant: PhantomData,
        }
    }
}

impl<V: Variant> fmt::Display for Reference<'_, V> {
    /// The reference as written.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl<V: Variant> fmt::Debug for Reference<'_, V> {
    /// The text and every component (absent ones as `None`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reference")
            .field("grammar", &V::NAME)
            .field("text", &self.as_str())
            .field("scheme", &self.scheme())
            .field("userinfo", &self.userinfo())
            .field("host", &self.host())
            .field("host_kind", &self.host_kind())
            .field("port", &self.port())
            .field("path", &self.path())
            .field("query", &self.query())
            .field("fragment", &self.fragment())
            .finish()
    }
}

impl<V: Variant> AsRef<str> for Reference<'_, V> {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl<V: Variant> Borrow<str> for Reference<'_, V> {
    /// Consistent with `Eq`, `Ord` and `Hash`, which are those of the string.
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl<V: Variant> PartialEq for Reference<'_, V> {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl<V: Variant> Eq for Reference<'_, V> {}

impl<V: Variant> PartialOrd for Reference<'_, V> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl<V: Variant> Ord for Reference<'_, V> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl<V: Variant> Hash for Reference<'_, V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl<V: Variant> PartialEq<str> for Reference<'_, V> {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl<V: Variant> PartialEq<&str> for Reference<'_, V> {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl<V: Variant> FromStr for Reference<'static, V> {
    type Err = MatchError;
    /// Parses into an owned reference.
    ///
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// let r: IriRef<'static> = "http://a/b".parse().unwrap();
    /// assert_eq!(r.path(), "/b");
    /// ```
    fn from_str(s: &str) -> Result<Self, MatchError> {
        Reference::parse_owned(s.to_string())
    }
}

impl<'a, V: Variant> TryFrom<&'a str> for Reference<'a, V> {
    type Error = MatchError;
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert!(IriRef::try_from("a b").is_err());
    /// ```
    fn try_from(s: &'a str) -> Result<Self, MatchError> {
        Reference::parse(s)
    }
}

impl<V: Variant> TryFrom<String> for Reference<'static, V> {
    type Error = MatchError;
    /// ```
    /// use iri_grammar::reference::IriRef;
    /// assert!(IriRef::try_from(String::from("a:b")).is_ok());
    /// ```
    fn try_from(s: String) -> Result<Self, MatchError> {
        Reference::parse_owned(s)
    }
}

/// Every URI reference is an IRI reference (RFC 3987 §2.2: the IRI rules widen the
/// URI rules' character classes), with the same components.
///
/// ```
/// use iri_grammar::{IriRef, UriRef};
/// let u = UriRef::parse("http://a/b?c#d").unwrap();
/// let i: IriRef = u.into();
/// assert_eq!((i.host(), i.query()), (Some("a"), Some("c")));
/// ```
impl<'a> From<Reference<'a, Uri>> for Reference<'a, Iri> {
    fn from(r: Reference<'a, Uri>) -> Self {
        r.widen()
    }
}

/// Every IRI reference is a LEIRI reference (the LEIRI note §2 widens `ucschar`).
impl<'a> From<Reference<'a, Iri>> for Reference<'a, Leiri> {
    fn from(r: Reference<'a, Iri>) -> Self {
        r.widen()
    }
}

/// Every URI reference is a LEIRI reference.
impl<'a> From<Reference<'a, Uri>> for Reference<'a, Leiri> {
    fn from(r: Reference<'a, Uri>) -> Self {
        r.widen()
    }
}

/// An IRI reference that is a URI reference as it is (an IRI with only ASCII
/// characters); otherwise the URI grammar's error. To convert any IRI, see
/// [`Reference::to_uri`].
///
/// ```
/// use iri_grammar::{IriRef, UriRef};
/// assert!(UriRef::try_from(IriRef::parse("http://a/b").unwrap()).is_ok());
/// let e = UriRef::try_from(IriRef::parse("http://a/é").unwrap()).unwrap_err();
/// assert_eq!(e.char_offset(), 9);
/// ```
impl<'a> TryFrom<Reference<'a, Iri>> for Reference<'a, Uri> {
    type Error = MatchError;
    fn try_from(r: Reference<'a, Iri>) -> Result<Self, MatchError> {
        r.narrow()
    }
}

/// A LEIRI reference that is an IRI reference as it is; otherwise the IRI
/// grammar's error. To convert any LEIRI, see [`Reference::leiri_to_iri`].
impl<'a> TryFrom<Reference<'a, Leiri>> for Reference<'a, Iri> {
    type Error = MatchError;
    fn try_from(r: Reference<'a, Leiri>) -> Result<Self, MatchError> {
        r.narrow()
    }
}

/// A LEIRI reference that is a URI reference as it is.
impl<'a> TryFrom<Reference<'a, Leiri>> for Reference<'a, Uri> {
    type Error = MatchError;
    fn try_from(r: Reference<'a, Leiri>) -> Result<Self, MatchError> {
        r.narrow()
    }
}

impl<V: Variant> From<Reference<'_, V>> for String {
    fn from(r: Reference<'_, V>) -> String {
        r.text.into_owned()
    }
}

#[cfg(feature = "serde")]
impl<V: Variant> serde::Serialize for Reference<'_, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// `IriRef<'static>` (any `Reference<'static, V>`) is the type to deserialize: it
/// owns its text, so it is `DeserializeOwned` and works with every deserializer
/// (`serde_json::from_reader` too). To borrow from the input instead, without a
/// copy, use [`deserialize_borrowed`] on a field `#[serde(borrow)]`.
#[cfg(feature = "serde")]
impl<'de, V: Variant> serde::Deserialize<'de> for Reference<'static, V> {
    /// Deserializes a string and validates it; an invalid reference is an error.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Reference::parse_owned(s).map_err(serde::de::Error::custom)
    }
}

/// Deserializes a reference that borrows its text from the input where the
/// deserializer lends it (a JSON string without escapes, from `serde_json::from_str`),
/// and owns a copy where it cannot (an escaped string, a reader); validated either
/// way. For a field of a borrowing struct:
///
/// ```text
/// #[derive(Deserialize)]
/// struct Link<'a> {
///     #[serde(borrow, deserialize_with = "iri_grammar::reference::deserialize_borrowed")]
///     href: IriRef<'a>,
/// }
/// ```
///
/// The `Deserialize` of `Reference` itself is for `Reference<'static, V>` only:
/// one impl cannot give both a borrowed `Reference<'a>` and a `DeserializeOwned`
/// `Reference<'static>` (serde's `Cow` has the same limit, and the same answer).
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use iri_grammar::{reference::deserialize_borrowed, IriRef};
/// let json = r#""http://a/b?c""#;
/// let r: IriRef<'_> = deserialize_borrowed(&mut serde_json::Deserializer::from_str(json)).unwrap();
/// assert_eq!(r.query(), Some("c"));
/// assert!(json.as_bytes().as_ptr_range().contains(&r.as_str().as_ptr())); // no copy
/// # }
/// ```
#[cfg(feature = "serde")]
pub fn deserialize_borrowed<'de: 'a, 'a, D, V>(d: D) -> Result<Reference<'a, V>, D::Error>
where
    D: serde::Deserializer<'de>,
    V: Variant,
{
    struct Text<V>(PhantomData<V>);
    impl<'de, V: Variant> serde::de::Visitor<'de> for Text<V> {
        type Value = Reference<'de, V>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(
                f,
                "a string that matches {}",
                Rule::IriReference.name::<V>()
            )
        }
        fn visit_borrowed_str<E: serde::de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
            Reference::parse(s).map_err(E::custom)
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Self::Value, E> {
            Reference::parse_owned(s.to_string()).map_err(E::custom)
        }
        fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Self::Value, E> {
            Reference::parse_owned(s).map_err(E::custom)
        }
    }
    d.deserialize_str(Text(PhantomData))
}

#[cfg(test)]
mod tests {
    use super::Components;
    use crate::grammar::split::Boundaries;

    /// Appendix B's automaton (`Part`, walked by `Boundaries::of`) and the components
    /// worked out from it agree with Appendix B's regular expression, written out.
    #[test]
    fn agrees_with_appendix_b() {
        for s in [
            "http://u:p@h:8/a/b?q#f",
            "a:b",
            "//h",
            "/p?q",
            "?q",
            "#f",
            "",
            "rel/a:b",
            "x://[::1]:80",
            "x://u@[v1.a]",
            "x://h:",
            "f:/a",
            "a://u:p:q@h/",
        ] {
            let b = Components::from_boundaries(s, &Boundaries::of(s));
            // Appendix B by hand.
            let fragment = s.find('#');
            let before_fragment = &s[..fragment.unwrap_or(s.len())];
            let query = before_fragment.find('?');
            let hier = &before_fragment[..query.unwrap_or(before_fragment.len())];
            let scheme = hier
                .find([':', '/'])
                .filter(|&k| k > 0 && hier.as_bytes()[k] == b':');
            let rest_at = scheme.map_or(0, |k| k + 1);
            let authority = hier[rest_at..].starts_with("//").then_some(rest_at + 2);
            let want = |x: Option<usize>| x.map_or(u32::MAX, |k| k as u32);
            assert_eq!(b.scheme_end, want(scheme), "{s}");
            assert_eq!(b.authority.0, want(authority), "{s}");
            assert_eq!(b.query_start, want(query.map(|k| k + 1)), "{s}");
            assert_eq!(b.fragment_start, want(fragment.map(|k| k + 1)), "{s}");
            if let Some(a) = authority {
                let end = hier[a..].find('/').map_or(hier.len(), |k| a + k);
                assert_eq!(b.authority.1, end as u32, "{s}");
            }
        }
    }
}
