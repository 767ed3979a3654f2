//! Making and editing references component by component: [`ReferenceBuilder`], the
//! `set_…` methods of [`Reference`] (scheme, userinfo, host, port, path, query,
//! fragment) and its `with_…` ones, and the query as `name=value` pairs
//! ([`QueryPairs`]).
//!
//! Each component is checked against its own rule in the grammar of the reference
//! (`scheme`, `iuserinfo`, `ihost`, `port`, the path rule its context asks for,
//! `iquery`, `ifragment`), and the reference is written through the one builder of
//! the crate, which records the components as it writes: no parse of the result.
//! With [`ReferenceBuilder::encode`], what does not fit a component is
//! percent-encoded instead of refused ([`crate::pct::encode_invalid`]).

use super::{Component, Recomposer, Reference};
use crate::grammar::{check, Iri, MatchError, Rule, Variant};
use crate::pct::{self, EncodeSet};
use alloc::borrow::Cow;
use alloc::string::String;
use core::fmt;
use core::marker::PhantomData;
use core::net::IpAddr;

/// Builds a reference of grammar `V` from its components (RFC 3986 §5.3,
/// component recomposition), checking each against its rule.
///
/// The authority is present when a host is given (an empty host is a valid
/// `ireg-name`: `file:///x`); a userinfo or a port without a host gets the empty
/// host (`//user@:8080` is valid ABNF). Setters take `&str` or `None`
/// (`impl Into<Option<&str>>`), so that a component can be removed.
///
/// ```
/// use iri_grammar::IriRef;
/// let r = IriRef::builder()
///     .scheme("https")
///     .host("résumé.example")
///     .port(8443)
///     .path("/a/b")
///     .query("q=1")
///     .fragment("top")
///     .build()?;
/// assert_eq!(r, "https://résumé.example:8443/a/b?q=1#top");
/// assert_eq!(r.port_number(), Ok(Some(8443)));
///
/// // Each component is judged by its own rule: a space is no ipchar.
/// let e = IriRef::builder().scheme("http").host("a").path("/a b").build().unwrap_err();
/// assert_eq!(e.to_string(), "the path is invalid: unexpected U+0020 SPACE at char 2, in isegment");
///
/// // Or percent-encode what does not fit (valid %HH kept).
/// let r = IriRef::builder().scheme("http").host("a").path("/a b%20c").encode(true).build()?;
/// assert_eq!(r, "http://a/a%20b%20c");
/// # Ok::<(), iri_grammar::reference::BuildError>(())
/// ```
#[derive(Debug, Clone)]
pub struct ReferenceBuilder<'s, V: Variant = Iri> {
    scheme: Option<&'s str>,
    userinfo: Option<&'s str>,
    host: Option<Cow<'s, str>>,
    port: Option<Cow<'s, str>>,
    path: &'s str,
    query: Option<Cow<'s, str>>,
    fragment: Option<&'s str>,
    encode: bool,
    variant: PhantomData<V>,
}

impl<V: Variant> Default for ReferenceBuilder<'_, V> {
    fn default() -> Self {
        ReferenceBuilder::new()
    }
}

impl<'s, V: Variant> ReferenceBuilder<'s, V> {
    /// A builder with no component: it builds the empty reference (`""`, a valid
    /// `irelative-ref`: "the current document").
    pub fn new() -> Self {
        ReferenceBuilder {
            scheme: None,
            userinfo: None,
            host: None,
            port: None,
            path: "",
            query: None,
            fragment: None,
            encode: false,
            variant: PhantomData,
        }
    }

    /// A builder holding the components of `r`, to change some of them.
    pub(crate) fn from_reference(r: &'s Reference<'_, V>) -> Self {
        ReferenceBuilder {
            scheme: r.scheme(),
            userinfo: r.userinfo(),
            host: r.host().map(Cow::Borrowed),
            port: r.port().map(Cow::Borrowed),
            path: r.path(),
            query: r.query().map(Cow::Borrowed),
            fragment: r.fragment(),
            encode: false,
            variant: PhantomData,
        }
    }

    /// `scheme` (RFC 3986 §3.1), without the `:`. Never encoded: a scheme is
    /// letters, digits, `+`, `-`, `.`.
    pub fn scheme(mut self, scheme: impl Into<Option<&'s str>>) -> Self {
        self.scheme = scheme.into();
        self
    }

    /// `iuserinfo` (§3.2.1), without the `@`.
    pub fn userinfo(mut self, userinfo: impl Into<Option<&'s str>>) -> Self {
        self.userinfo = userinfo.into();
        self
    }

    /// `ihost` (§3.2.2) as text: a registered name, an `IPv4address`, or an
    /// `IP-literal` in brackets. `None` removes the authority (with the userinfo
    /// and the port).
    pub fn host(mut self, host: impl Into<Option<&'s str>>) -> Self {
        self.host = host.into().map(Cow::Borrowed);
        if self.host.is_none() {
            self.userinfo = None;
            self.port = None;
        }
        self
    }

    /// The host as an IP address: IPv6 in brackets (RFC 3986 §3.2.2), in the text
    /// form of RFC 5952.
    ///
    /// ```
    /// use iri_grammar::UriRef;
    /// use core::net::{IpAddr, Ipv6Addr};
    /// let r = UriRef::builder().scheme("http").ip(IpAddr::V6(Ipv6Addr::LOCALHOST)).port(80).build().unwrap();
    /// assert_eq!(r, "http://[::1]:80");
    /// ```
    pub fn ip(mut self, ip: IpAddr) -> Self {
        self.host = Some(Cow::Owned(match ip {
            IpAddr::V4(a) => alloc::format!("{a}"),
            IpAddr::V6(a) => alloc::format!("[{a}]"),
        }));
        self
    }

    /// `port` (§3.2.3) as a number.
    pub fn port(mut self, port: impl Into<Option<u16>>) -> Self {
        self.port = port.into().map(|p| Cow::Owned(alloc::format!("{p}")));
        self
    }

    /// `port` as text: any run of digits, even empty or above 65535 (valid ABNF).
    pub fn port_text(mut self, port: impl Into<Option<&'s str>>) -> Self {
        self.port = port.into().map(Cow::Borrowed);
        self
    }

    /// The path: with an authority, empty or starting with `/` (`ipath-abempty`);
    /// without, not starting with `//`, and in a relative reference without a `:`
    /// in its first segment (§3.3, §4.2).
    pub fn path(mut self, path: &'s str) -> Self {
        self.path = path;
        self
    }

    /// `iquery` (§3.4), without the `?`; `Some("")` is an empty query, `None` none.
    pub fn query(mut self, query: impl Into<Option<&'s str>>) -> Self {
        self.query = query.into().map(Cow::Borrowed);
        self
    }

    /// The query made of `name=value` pairs joined by `&`, each name and value
    /// percent-encoded as data ([`EncodeSet::QueryPair`]: `&`, `=`, `+` and what
    /// `iquery` does not allow); a pair without a value is written as its name
    /// alone. No pairs: no query.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let r = IriRef::builder()
    ///     .path("search")
    ///     .query_pairs([("q", Some("crème brûlée & co")), ("lang", Some("fr")), ("x", None)])
    ///     .build()
    ///     .unwrap();
    /// assert_eq!(r, "search?q=crème%20brûlée%20%26%20co&lang=fr&x");
    /// let pairs: Vec<_> = r.query_pairs().map(|p| (p.decoded_name(), p.decoded_value())).collect();
    /// assert_eq!(pairs[0].1.as_deref(), Some("crème brûlée & co"));
    /// ```
    pub fn query_pairs<'p>(
        mut self,
        pairs: impl IntoIterator<Item = (&'p str, Option<&'p str>)>,
    ) -> Self {
        let mut query = String::new();
        for (k, (name, value)) in pairs.into_iter().enumerate() {
            if k > 0 {
                query.push('&');
            }
            pct::encode_into::<V>(name, EncodeSet::QueryPair, &mut query);
            if let Some(value) = value {
                query.push('=');
                pct::encode_into::<V>(value, EncodeSet::QueryPair, &mut query);
            }
        }
        self.query = (!query.is_empty()).then_some(Cow::Owned(query));
        self
    }

    /// `ifragment` (§3.5), without the `#`.
    pub fn fragment(mut self, fragment: impl Into<Option<&'s str>>) -> Self {
        self.fragment = fragment.into();
        self
    }

    /// Percent-encode what does not fit a component's rule instead of refusing it
    /// (off by default): each character its rule does not allow becomes `%HH` of
    /// its UTF-8 octets, and a `%` that starts no `pct-encoded` becomes `%25`; a
    /// valid `%HH` is kept, so encoded text is not encoded twice. In the first
    /// segment of a relative path, `:` is encoded too. The scheme, the port, an IP
    /// literal and a path that does not fit its context (`//a` without an
    /// authority) cannot be mended by encoding and are still errors.
    pub fn encode(mut self, encode: bool) -> Self {
        self.encode = encode;
        self
    }

    /// Checks every component against its rule and writes the reference.
    pub fn build(self) -> Result<Reference<'static, V>, BuildError> {
        let authority = self.host.is_some() || self.userinfo.is_some() || self.port.is_some();
        let fix = |text: &'s str, set: EncodeSet| -> Cow<'s, str> {
            if self.encode {
                pct::encode_invalid::<V>(text, set)
            } else {
                Cow::Borrowed(text)
            }
        };
        if let Some(scheme) = self.scheme {
            checked::<V>(Component::Scheme, Rule::Scheme, scheme)?;
        }
        let userinfo = self.userinfo.map(|u| fix(u, EncodeSet::Userinfo));
        if let Some(u) = &userinfo {
            checked::<V>(Component::Userinfo, Rule::Iuserinfo, u)?;
        }
        let host: Cow<'_, str> = match &self.host {
            Some(h) if self.encode && !h.starts_with('[') => {
                Cow::Owned(pct::encode_invalid::<V>(h, EncodeSet::RegName).into_owned())
            }
            Some(h) => Cow::Borrowed(h),
            None => Cow::Borrowed(""),
        };
        if authority {
            checked::<V>(Component::Host, Rule::Ihost, &host)?;
        }
        if let Some(p) = &self.port {
            checked::<V>(Component::Port, Rule::Port, p)?;
        }
        let path = self.path_text(authority);
        checked::<V>(Component::Path, self.path_rule(&path, authority), &path)?;
        let query = match &self.query {
            Some(q) if self.encode => Some(Cow::Owned(
                pct::encode_invalid::<V>(q, EncodeSet::Query).into_owned(),
            )),
            Some(q) => Some(Cow::Borrowed(&**q)),
            None => None,
        };
        if let Some(q) = &query {
            checked::<V>(Component::Query, Rule::Iquery, q)?;
        }
        let fragment = self.fragment.map(|f| fix(f, EncodeSet::Fragment));
        if let Some(f) = &fragment {
            checked::<V>(Component::Fragment, Rule::Ifragment, f)?;
        }

        let len = self.scheme.map_or(0, str::len)
            + host.len()
            + path.len()
            + query.as_deref().map_or(0, str::len)
            + fragment.as_deref().map_or(0, str::len)
            + 16;
        let mut b = Recomposer::with_capacity(len);
        b.push_optional(Component::Scheme, self.scheme);
        if authority {
            b.open(Component::Authority);
            b.push_optional(Component::Userinfo, userinfo.as_deref());
            b.push(Component::Host, &host);
            b.push_optional(Component::Port, self.port.as_deref());
            b.close(Component::Authority);
        }
        b.push(Component::Path, &path);
        b.push_optional(Component::Query, query.as_deref());
        b.push_optional(Component::Fragment, fragment.as_deref());
        Ok(b.finish())
    }

    /// The path, encoded when asked: what `ipath` does not allow, and in the first
    /// segment of a relative path without authority, `:`.
    fn path_text(&self, authority: bool) -> Cow<'s, str> {
        if !self.encode {
            return Cow::Borrowed(self.path);
        }
        let path = pct::encode_invalid::<V>(self.path, EncodeSet::Path);
        let first_end = path.find('/').unwrap_or(path.len());
        if authority || self.scheme.is_some() || !path[..first_end].contains(':') {
            return path;
        }
        let mut out = String::with_capacity(path.len() + 4);
        out.push_str(&path[..first_end].replace(':', "%3A"));
        out.push_str(&path[first_end..]);
        Cow::Owned(out)
    }

    /// The rule the path must match where it stands (RFC 3986 §3: `hier-part`,
    /// `relative-part`).
    fn path_rule(&self, path: &str, authority: bool) -> Rule {
        if authority {
            Rule::IpathAbempty
        } else if path.is_empty() {
            Rule::IpathEmpty
        } else if path.starts_with('/') {
            Rule::IpathAbsolute
        } else if self.scheme.is_some() {
            Rule::IpathRootless
        } else {
            Rule::IpathNoscheme
        }
    }
}

/// `text` checked against `rule` as component `at`.
fn checked<V: Variant>(at: Component, rule: Rule, text: &str) -> Result<(), BuildError> {
    check::<V>(rule, text).map_err(|error| BuildError {
        component: at,
        error,
    })
}

/// A component that does not match its rule, from [`ReferenceBuilder::build`] or
/// a `set_…` method.
///
/// `{}` names the component and gives the short form of the grammar's error;
/// `{:#}` the long one, with a caret under the failing character of the component.
///
/// ```
/// use iri_grammar::{reference::Component, IriRef};
/// let mut r = IriRef::parse("http://a/b").unwrap();
/// let e = r.set_fragment(Some("a#b")).unwrap_err();
/// assert_eq!(e.component(), Component::Fragment);
/// assert_eq!(e.error().char_offset(), 1);
/// assert_eq!(r, "http://a/b"); // unchanged
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    component: Component,
    error: MatchError,
}

impl BuildError {
    /// The component that does not fit.
    pub fn component(&self) -> Component {
        self.component
    }

    /// Why: the error of its text against its rule (offsets are in the
    /// component's text).
    pub fn error(&self) -> &MatchError {
        &self.error
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the {} is invalid: ", self.component)?;
        if f.alternate() {
            write!(f, "{:#}", self.error)
        } else {
            // The short form without its "invalid RULE: " opening, which would
            // repeat what this one says.
            self.error.write_short(f)
        }
    }
}

impl core::error::Error for BuildError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl<'a, V: Variant> Reference<'a, V> {
    /// An empty [`ReferenceBuilder`] of this grammar.
    pub fn builder() -> ReferenceBuilder<'static, V> {
        ReferenceBuilder::new()
    }

    /// A [`ReferenceBuilder`] holding this reference's components, to change some.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let r = IriRef::parse("http://u@a:1/p?q#f").unwrap();
    /// let s = r.to_builder().scheme("https").port(None).userinfo(None).build().unwrap();
    /// assert_eq!(s, "https://a/p?q#f");
    /// ```
    pub fn to_builder(&self) -> ReferenceBuilder<'_, V> {
        ReferenceBuilder::from_reference(self)
    }

    /// Replaces the query (`None` removes it with its `?`), checked against
    /// `iquery`. On error the reference is unchanged.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let mut r = IriRef::parse("http://a/b?old#f").unwrap();
    /// r.set_query(Some("q=ü")).unwrap();
    /// assert_eq!(r, "http://a/b?q=ü#f");
    /// r.set_query(None).unwrap();
    /// assert_eq!(r, "http://a/b#f");
    /// assert!(r.set_query(Some("a b")).is_err());
    /// ```
    pub fn set_query(&mut self, query: Option<&str>) -> Result<(), BuildError> {
        *self = self.to_builder().query(query).build()?;
        Ok(())
    }

    /// Replaces the fragment (`None` removes it with its `#`), checked against
    /// `ifragment`.
    pub fn set_fragment(&mut self, fragment: Option<&str>) -> Result<(), BuildError> {
        *self = self.to_builder().fragment(fragment).build()?;
        Ok(())
    }

    /// Replaces the path, checked against the path rule its context asks for
    /// (`ipath-abempty` after an authority: empty or starting with `/`).
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let mut r = IriRef::parse("http://a/b?q").unwrap();
    /// r.set_path("/c/d").unwrap();
    /// assert_eq!(r, "http://a/c/d?q");
    /// let e = r.set_path("rel").unwrap_err();
    /// assert_eq!(e.error().start_rule(), "ipath-abempty");
    /// assert_eq!(e.error().char_offset(), 0);
    /// ```
    pub fn set_path(&mut self, path: &str) -> Result<(), BuildError> {
        *self = self.to_builder().path(path).build()?;
        Ok(())
    }

    /// Replaces the scheme (RFC 3986 §3.1; `None` removes it with its `:`, making a
    /// relative reference), checked against `scheme`, then the path against the rule
    /// its new context asks for (without a scheme or an authority, a first segment
    /// may not hold a `:`, §4.2). On error the reference is unchanged. As url's
    /// `set_scheme`, but any scheme may become any other: the grammar is generic.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let mut r = IriRef::parse("http://a/b").unwrap();
    /// r.set_scheme(Some("https")).unwrap();
    /// assert_eq!(r, "https://a/b");
    /// let e = r.set_scheme(Some("1http")).unwrap_err();
    /// assert_eq!(e.to_string(), "the scheme is invalid: unexpected U+0031 '1' at char 0, in scheme");
    /// assert_eq!(r, "https://a/b");
    /// let mut urn = IriRef::parse("urn:isbn:0-395").unwrap();
    /// assert!(urn.set_scheme(None).is_err()); // "isbn:0-395" would read as a scheme
    /// ```
    pub fn set_scheme(&mut self, scheme: Option<&str>) -> Result<(), BuildError> {
        *self = self.to_builder().scheme(scheme).build()?;
        Ok(())
    }

    /// Replaces the userinfo (§3.2.1, without its `@`; `None` removes it), checked
    /// against `iuserinfo`. A reference without an authority gets one, with an
    /// empty host (`//user@`, valid ABNF), if its path allows it. On error the
    /// reference is unchanged. url's `set_username` and `set_password` in one: the
    /// RFC deprecates the password (`user:password`) but the grammar keeps it.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let mut r = IriRef::parse("ftp://ftp.example/f").unwrap();
    /// r.set_userinfo(Some("anonymous")).unwrap();
    /// assert_eq!(r, "ftp://anonymous@ftp.example/f");
    /// assert!(r.set_userinfo(Some("a@b")).is_err()); // an "@" ends the userinfo
    /// r.set_userinfo(None).unwrap();
    /// assert_eq!(r, "ftp://ftp.example/f");
    /// ```
    pub fn set_userinfo(&mut self, userinfo: Option<&str>) -> Result<(), BuildError> {
        *self = self.to_builder().userinfo(userinfo).build()?;
        Ok(())
    }

    /// Replaces the host (§3.2.2: a registered name, an IPv4 address, or an IP
    /// literal in brackets), checked against `ihost`; `None` removes the whole
    /// authority, userinfo and port with it, if the path allows it (a path starting
    /// with `//` needs an authority before it). On error the reference is
    /// unchanged. The kind of the new host is the grammar's (first match wins).
    ///
    /// ```
    /// use iri_grammar::{Host, IriRef};
    /// use std::net::Ipv6Addr;
    /// let mut r = IriRef::parse("http://u@a:8080/p").unwrap();
    /// r.set_host(Some("résumé.example")).unwrap();
    /// assert_eq!(r, "http://u@résumé.example:8080/p");
    /// r.set_host(Some("[::1]")).unwrap();
    /// assert_eq!(r.host_parsed(), Some(Host::Ipv6(Ipv6Addr::LOCALHOST)));
    /// let e = r.set_host(Some("a b")).unwrap_err();
    /// assert_eq!(e.error().char_offset(), 1);
    /// assert_eq!(r, "http://u@[::1]:8080/p");
    /// r.set_host(None).unwrap();
    /// assert_eq!(r, "http:/p");
    /// ```
    pub fn set_host(&mut self, host: Option<&str>) -> Result<(), BuildError> {
        *self = self.to_builder().host(host).build()?;
        Ok(())
    }

    /// Replaces the port (§3.2.3; `None` removes it with its `:`). A number always
    /// matches `port`; a reference without an authority gets one, with an empty
    /// host, if its path allows it. On error the reference is unchanged.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let mut r = IriRef::parse("http://a/p").unwrap();
    /// r.set_port(Some(8080)).unwrap();
    /// assert_eq!(r, "http://a:8080/p");
    /// r.set_port(None).unwrap();
    /// assert_eq!(r, "http://a/p");
    /// let mut opaque = IriRef::parse("mailto:x@example.org").unwrap();
    /// assert!(opaque.set_port(Some(25)).is_err()); // an authority needs "/" or no path
    /// assert_eq!(opaque, "mailto:x@example.org");
    /// ```
    pub fn set_port(&mut self, port: Option<u16>) -> Result<(), BuildError> {
        *self = self.to_builder().port(port).build()?;
        Ok(())
    }

    /// [`Reference::set_query`], by value.
    pub fn with_query(mut self, query: Option<&str>) -> Result<Self, BuildError> {
        self.set_query(query)?;
        Ok(self)
    }

    /// [`Reference::set_fragment`], by value.
    pub fn with_fragment(mut self, fragment: Option<&str>) -> Result<Self, BuildError> {
        self.set_fragment(fragment)?;
        Ok(self)
    }

    /// [`Reference::set_path`], by value.
    pub fn with_path(mut self, path: &str) -> Result<Self, BuildError> {
        self.set_path(path)?;
        Ok(self)
    }

    /// The query as `name=value` pairs: split at `&` (empty pieces skipped), each
    /// at its first `=`. Names and values are as written. RFC 3986 gives the query
    /// no structure: this is the convention of HTML forms. Two decodings:
    /// - [`QueryPair::decoded_name`], [`QueryPair::decoded_value`]: RFC 3986's,
    ///   percent-decoding alone (§2.1); a `+` stays a `+`, a sub-delim like any
    ///   other (§2.2).
    /// - [`QueryPair::form_decoded_name`], [`QueryPair::form_decoded_value`]: the
    ///   `application/x-www-form-urlencoded` convention of HTML forms and the WHATWG
    ///   URL Standard, where a `+` is a space, then the same percent-decoding (so
    ///   `%2B` is the `+`).
    ///
    /// Which one a query uses is for its producer to say: a form submission's query
    /// is form-encoded, most others are not (`?q=C++` asks for `C++` by the RFC and
    /// for `C` and two spaces by the form convention). No query: no pairs.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let r = IriRef::parse("http://a/?q=r%C3%A9sum%C3%A9&flag&&x=1=2").unwrap();
    /// let pairs: Vec<_> = r.query_pairs().map(|p| (p.name(), p.value())).collect();
    /// assert_eq!(pairs, [("q", Some("r%C3%A9sum%C3%A9")), ("flag", None), ("x", Some("1=2"))]);
    /// assert_eq!(r.query_pairs().next().unwrap().decoded_value().as_deref(), Some("résumé"));
    ///
    /// let form = IriRef::parse("http://a/search?q=C++%2B+r%C3%A9sum%C3%A9").unwrap();
    /// let q = form.query_pairs().next().unwrap();
    /// assert_eq!(q.decoded_value().as_deref(), Some("C++++résumé"));
    /// assert_eq!(q.form_decoded_value().as_deref(), Some("C  + résumé"));
    /// ```
    pub fn query_pairs(&self) -> QueryPairs<'_> {
        QueryPairs { rest: self.query() }
    }
}

/// The `name=value` pairs of a query ([`Reference::query_pairs`]).
#[derive(Debug, Clone)]
pub struct QueryPairs<'q> {
    rest: Option<&'q str>,
}

impl<'q> Iterator for QueryPairs<'q> {
    type Item = QueryPair<'q>;
    fn next(&mut self) -> Option<QueryPair<'q>> {
        loop {
            let rest = self.rest?;
            let (piece, after) = match rest.split_once('&') {
                Some((piece, after)) => (piece, Some(after)),
                None => (rest, None),
            };
            self.rest = after;
            if piece.is_empty() {
                continue;
            }
            let (name, value) = match piece.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (piece, None),
            };
            return Some(QueryPair { name, value });
        }
    }
}

/// One `name=value` pair of a query, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct QueryPair<'q> {
    name: &'q str,
    value: Option<&'q str>,
}

impl<'q> QueryPair<'q> {
    /// The name, as written.
    pub fn name(&self) -> &'q str {
        self.name
    }

    /// The value, as written; `None` when the pair has no `=`.
    pub fn value(&self) -> Option<&'q str> {
        self.value
    }

    /// The name, percent-decoded as strict UTF-8 ([`pct::decode`]: octets that
    /// are not UTF-8 stay encoded).
    pub fn decoded_name(&self) -> Cow<'q, str> {
        pct::decode(self.name)
    }

    /// The value, percent-decoded as [`QueryPair::decoded_name`].
    pub fn decoded_value(&self) -> Option<Cow<'q, str>> {
        self.value.map(pct::decode)
    }

    /// The name, decoded as `application/x-www-form-urlencoded` (HTML forms, the
    /// WHATWG URL Standard): each `+` a space, then percent-decoded as
    /// [`QueryPair::decoded_name`] (`%2B` is a `+`). Not RFC 3986's reading, where
    /// a `+` is a `+`. Octets that are not UTF-8 stay percent-encoded, as in the
    /// RFC decoding, where the WHATWG parser would write U+FFFD.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let r = IriRef::parse("http://a/?first+name=Ada+L.").unwrap();
    /// let p = r.query_pairs().next().unwrap();
    /// assert_eq!((&*p.form_decoded_name(), &*p.decoded_name()), ("first name", "first+name"));
    /// ```
    pub fn form_decoded_name(&self) -> Cow<'q, str> {
        form_decode(self.name)
    }

    /// The value, decoded as [`QueryPair::form_decoded_name`].
    pub fn form_decoded_value(&self) -> Option<Cow<'q, str>> {
        self.value.map(form_decode)
    }
}

/// `application/x-www-form-urlencoded` decoding: `+` as a space, then strict
/// percent-decoding. The `+` are replaced first, so that a `%2B` stays a `+`.
fn form_decode(text: &str) -> Cow<'_, str> {
    if !text.contains('+') {
        return pct::decode(text);
    }
    Cow::Owned(pct::decode(&text.replace('+', " ")).into_owned())
}
