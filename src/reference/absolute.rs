//! References that cannot be relative: [`AbsoluteReference`] (`AbsoluteIri`,
//! `AbsoluteUri`, `AbsoluteLeiri`), what a base must be (RFC 3986 §5.1) and what
//! resolution gives.

use super::{BuildError, Reference, ABSENT};
use crate::grammar::{explain, Iri, Leiri, MatchError, Rule, Uri, Variant};
use alloc::string::String;
use core::borrow::Borrow;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Deref;
use core::str::FromStr;

/// A reference of grammar `V` that has a scheme: it matches `IRI` (`URI` in RFC
/// 3986, `LEIRI` in the note), never `irelative-ref`.
///
/// **What "absolute" means here.** The type holds what the `IRI` rule matches (`URI`
/// in RFC 3986 §3, `LEIRI` in the note): a scheme, and a fragment allowed. RFC 3986
/// §4.3 calls "absolute URI" the narrower `absolute-URI`, without a fragment. The
/// wider one is chosen because resolution (§5.2.2) gives a URI *with* the
/// reference's fragment (`http://a/b` + `#f` is `http://a/b#f`), so only the wider
/// type can be what `resolve` returns; and because the types programs already use
/// for "an IRI" are this one (oxiri's `Iri`, url's `Url`, iri-string's `IriStr`).
/// A base's fragment is ignored by resolution (§5.2.2 never reads it), so a base
/// with a fragment is no error. The narrower form is one call away:
/// [`Reference::without_fragment`], and [`Reference::is_absolute_iri`] tells them
/// apart.
///
/// It dereferences to [`Reference`], so every accessor is there; [`scheme`] is no
/// `Option`. Resolution reads in the direction of oxiri and url:
/// `base.resolve(&reference)` and `base.join("../g")` (for a [`Reference`] the same
/// operation reads the other way, `reference.resolve(&base)`).
///
/// ```
/// use iri_grammar::reference::{AbsoluteIri, IriRef};
/// let base = AbsoluteIri::parse("http://a/b/c/d;p?q")?;
/// assert_eq!(base.scheme(), "http");
/// assert_eq!(base.join("../g")?, "http://a/b/g");
/// assert_eq!(base.resolve(&IriRef::parse("#s")?), "http://a/b/c/d;p?q#s");
/// // Relative references are not absolute:
/// assert!(AbsoluteIri::parse("//a/b").is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// [`scheme`]: AbsoluteReference::scheme
pub struct AbsoluteReference<'a, V: Variant = Iri>(Reference<'a, V>);

/// An RFC 3987 IRI (the `IRI` rule: a scheme, a fragment allowed).
pub type AbsoluteIri<'a> = AbsoluteReference<'a, Iri>;
/// An RFC 3986 URI (the `URI` rule).
pub type AbsoluteUri<'a> = AbsoluteReference<'a, Uri>;
/// A LEIRI (the `LEIRI` rule).
pub type AbsoluteLeiri<'a> = AbsoluteReference<'a, Leiri>;

impl<'a, V: Variant> AbsoluteReference<'a, V> {
    /// Parses an IRI of grammar `V` (the `IRI` rule), borrowing the text. A valid
    /// relative reference is an error of the `IRI` rule, which wants a scheme.
    ///
    /// ```
    /// use iri_grammar::reference::AbsoluteUri;
    /// assert!(AbsoluteUri::parse("urn:isbn:0451450523").is_ok());
    /// let e = AbsoluteUri::parse("/a/b").unwrap_err();
    /// assert_eq!((e.start_rule(), e.char_offset(), e.rule()), ("URI", 0, Some("scheme")));
    /// ```
    pub fn parse(text: &'a str) -> Result<Self, MatchError> {
        let r = Reference::parse(text).map_err(|_| explain::<V>(Rule::Iri, text))?;
        AbsoluteReference::try_from(r).map_err(|_| explain::<V>(Rule::Iri, text))
    }

    /// Parses an owned string.
    pub fn parse_owned(text: String) -> Result<AbsoluteReference<'static, V>, MatchError> {
        match Reference::parse_owned(text) {
            Ok(r) => AbsoluteReference::try_from(r)
                .map_err(|e| explain::<V>(Rule::Iri, e.reference().as_str())),
            Err(e) => Err(explain::<V>(Rule::Iri, e.input())),
        }
    }

    /// `scheme`, without the `:`: always there.
    pub fn scheme(&self) -> &str {
        let end = self.0.components().scheme_end;
        debug_assert_ne!(end, ABSENT);
        &self.0.as_str()[..end as usize]
    }

    /// The result of resolution against a base, which has a scheme, as the result
    /// does (RFC 3986 §5.2.2: `T.scheme` is the reference's or the base's).
    pub(crate) fn resolved(r: Reference<'a, V>) -> Self {
        debug_assert!(r.scheme().is_some());
        AbsoluteReference(r)
    }

    /// The reference this is.
    pub fn as_reference(&self) -> &Reference<'a, V> {
        &self.0
    }

    /// The reference this is, by value.
    pub fn into_reference(self) -> Reference<'a, V> {
        self.0
    }

    /// An owned copy (no-op when already owned).
    pub fn into_owned(self) -> AbsoluteReference<'static, V> {
        AbsoluteReference(self.0.into_owned())
    }

    /// Replaces the query (`None` removes it), checked against `iquery`; see
    /// [`Reference::set_query`]. The result is still absolute.
    ///
    /// ```
    /// use iri_grammar::reference::AbsoluteIri;
    /// let mut iri = AbsoluteIri::parse("http://a/b?x#f").unwrap();
    /// iri.set_query(Some("y")).unwrap();
    /// iri.set_fragment(None).unwrap();
    /// assert_eq!(iri, "http://a/b?y");
    /// ```
    pub fn set_query(&mut self, query: Option<&str>) -> Result<(), BuildError> {
        self.0.set_query(query)
    }

    /// Replaces the fragment (`None` removes it); see [`Reference::set_fragment`].
    pub fn set_fragment(&mut self, fragment: Option<&str>) -> Result<(), BuildError> {
        self.0.set_fragment(fragment)
    }

    /// Replaces the path, checked against the rule its context asks for; see
    /// [`Reference::set_path`].
    pub fn set_path(&mut self, path: &str) -> Result<(), BuildError> {
        self.0.set_path(path)
    }

    /// Replaces the scheme, checked against `scheme`; an absolute IRI keeps one, so
    /// there is no `None`. See [`Reference::set_scheme`].
    ///
    /// ```
    /// use iri_grammar::reference::AbsoluteIri;
    /// let mut iri = AbsoluteIri::parse("http://a/b").unwrap();
    /// iri.set_scheme("wss").unwrap();
    /// iri.set_port(Some(8443)).unwrap();
    /// assert_eq!(iri, "wss://a:8443/b");
    /// assert!(iri.set_scheme("").is_err());
    /// ```
    pub fn set_scheme(&mut self, scheme: &str) -> Result<(), BuildError> {
        self.0.set_scheme(Some(scheme))
    }

    /// Replaces the userinfo (`None` removes it); see [`Reference::set_userinfo`].
    pub fn set_userinfo(&mut self, userinfo: Option<&str>) -> Result<(), BuildError> {
        self.0.set_userinfo(userinfo)
    }

    /// Replaces the host (`None` removes the authority); see [`Reference::set_host`].
    pub fn set_host(&mut self, host: Option<&str>) -> Result<(), BuildError> {
        self.0.set_host(host)
    }

    /// Replaces the port (`None` removes it); see [`Reference::set_port`].
    pub fn set_port(&mut self, port: Option<u16>) -> Result<(), BuildError> {
        self.0.set_port(port)
    }

    /// [`AbsoluteReference::set_query`], by value.
    pub fn with_query(mut self, query: Option<&str>) -> Result<Self, BuildError> {
        self.set_query(query)?;
        Ok(self)
    }

    /// [`AbsoluteReference::set_fragment`], by value.
    pub fn with_fragment(mut self, fragment: Option<&str>) -> Result<Self, BuildError> {
        self.set_fragment(fragment)?;
        Ok(self)
    }

    /// [`AbsoluteReference::set_path`], by value.
    pub fn with_path(mut self, path: &str) -> Result<Self, BuildError> {
        self.set_path(path)?;
        Ok(self)
    }

    /// The IRI without its fragment: RFC 3986 §4.3's `absolute-URI` (`absolute-IRI`),
    /// borrowing this one's text.
    pub fn without_fragment(&self) -> AbsoluteReference<'_, V> {
        AbsoluteReference(self.0.without_fragment())
    }
}

/// Why a reference is no [`AbsoluteReference`]: it has no scheme. Holds the
/// reference, so that nothing is lost.
///
/// ```
/// use iri_grammar::reference::{AbsoluteIri, IriRef};
/// let e = AbsoluteIri::try_from(IriRef::parse("../g").unwrap()).unwrap_err();
/// assert_eq!(e.to_string(), "\"../g\" has no scheme: it is a relative reference");
/// assert_eq!(e.into_reference(), "../g");
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct NotAbsolute<'a, V: Variant = Iri>(Reference<'a, V>);

impl<'a, V: Variant> NotAbsolute<'a, V> {
    /// The relative reference.
    pub fn reference(&self) -> &Reference<'a, V> {
        &self.0
    }

    /// The relative reference, by value.
    pub fn into_reference(self) -> Reference<'a, V> {
        self.0
    }
}

impl<V: Variant> fmt::Debug for NotAbsolute<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("NotAbsolute")
            .field(&self.0.as_str())
            .finish()
    }
}

impl<V: Variant> fmt::Display for NotAbsolute<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:?} has no scheme: it is a relative reference",
            self.0.as_str()
        )
    }
}

impl<V: Variant> core::error::Error for NotAbsolute<'_, V> {}

impl<'a, V: Variant> TryFrom<Reference<'a, V>> for AbsoluteReference<'a, V> {
    type Error = NotAbsolute<'a, V>;
    /// The reference, if it has a scheme.
    fn try_from(r: Reference<'a, V>) -> Result<Self, NotAbsolute<'a, V>> {
        if r.is_absolute() {
            Ok(AbsoluteReference(r))
        } else {
            Err(NotAbsolute(r))
        }
    }
}

impl<'a, V: Variant> From<AbsoluteReference<'a, V>> for Reference<'a, V> {
    fn from(a: AbsoluteReference<'a, V>) -> Self {
        a.0
    }
}

/// Every URI is an IRI.
impl<'a> From<AbsoluteReference<'a, Uri>> for AbsoluteReference<'a, Iri> {
    fn from(a: AbsoluteReference<'a, Uri>) -> Self {
        AbsoluteReference(a.0.into())
    }
}

/// Every IRI is a LEIRI.
impl<'a> From<AbsoluteReference<'a, Iri>> for AbsoluteReference<'a, Leiri> {
    fn from(a: AbsoluteReference<'a, Iri>) -> Self {
        AbsoluteReference(a.0.into())
    }
}

/// An IRI that is a URI as it is (only ASCII characters); otherwise the URI
/// grammar's error.
impl<'a> TryFrom<AbsoluteReference<'a, Iri>> for AbsoluteReference<'a, Uri> {
    type Error = MatchError;
    fn try_from(a: AbsoluteReference<'a, Iri>) -> Result<Self, MatchError> {
        Ok(AbsoluteReference(a.0.try_into()?))
    }
}

impl<'a, V: Variant> TryFrom<&'a str> for AbsoluteReference<'a, V> {
    type Error = MatchError;
    fn try_from(s: &'a str) -> Result<Self, MatchError> {
        AbsoluteReference::parse(s)
    }
}

impl<V: Variant> TryFrom<String> for AbsoluteReference<'static, V> {
    type Error = MatchError;
    fn try_from(s: String) -> Result<Self, MatchError> {
        AbsoluteReference::parse_owned(s)
    }
}

impl<V: Variant> FromStr for AbsoluteReference<'static, V> {
    type Err = MatchError;
    /// Parses into an owned IRI.
    fn from_str(s: &str) -> Result<Self, MatchError> {
        AbsoluteReference::parse_owned(String::from(s))
    }
}

impl<'a, V: Variant> Deref for AbsoluteReference<'a, V> {
    type Target = Reference<'a, V>;
    fn deref(&self) -> &Reference<'a, V> {
        &self.0
    }
}

impl<V: Variant> Clone for AbsoluteReference<'_, V> {
    fn clone(&self) -> Self {
        AbsoluteReference(self.0.clone())
    }
}

impl<V: Variant> fmt::Display for AbsoluteReference<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

impl<V: Variant> fmt::Debug for AbsoluteReference<'_, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl<V: Variant> AsRef<str> for AbsoluteReference<'_, V> {
    fn as_ref(&self) -> &str {
        self.0.as_str()
    }
}

impl<V: Variant> Borrow<str> for AbsoluteReference<'_, V> {
    /// Consistent with `Eq`, `Ord` and `Hash`, which are those of the string.
    fn borrow(&self) -> &str {
        self.0.as_str()
    }
}

impl<V: Variant> PartialEq for AbsoluteReference<'_, V> {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}

impl<V: Variant> Eq for AbsoluteReference<'_, V> {}

impl<V: Variant> PartialOrd for AbsoluteReference<'_, V> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<V: Variant> Ord for AbsoluteReference<'_, V> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.0.cmp(&other.0)
    }
}

impl<V: Variant> Hash for AbsoluteReference<'_, V> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.hash(state)
    }
}

impl<V: Variant> PartialEq<str> for AbsoluteReference<'_, V> {
    fn eq(&self, other: &str) -> bool {
        self.0.as_str() == other
    }
}

impl<V: Variant> PartialEq<&str> for AbsoluteReference<'_, V> {
    fn eq(&self, other: &&str) -> bool {
        self.0.as_str() == *other
    }
}

impl<V: Variant> PartialEq<Reference<'_, V>> for AbsoluteReference<'_, V> {
    fn eq(&self, other: &Reference<'_, V>) -> bool {
        self.0.as_str() == other.as_str()
    }
}

impl<V: Variant> From<AbsoluteReference<'_, V>> for String {
    fn from(a: AbsoluteReference<'_, V>) -> String {
        a.0.into()
    }
}

#[cfg(feature = "serde")]
impl<V: Variant> serde::Serialize for AbsoluteReference<'_, V> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

#[cfg(feature = "serde")]
impl<'de, V: Variant> serde::Deserialize<'de> for AbsoluteReference<'static, V> {
    /// Deserializes a string and validates it; a relative reference is an error.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <String as serde::Deserialize>::deserialize(d)?;
        AbsoluteReference::parse_owned(s).map_err(serde::de::Error::custom)
    }
}
