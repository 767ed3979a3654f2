//! Preparing arbitrary strings as IRI references (IRI processing draft §4-5): what
//! software does with what a person typed or a document contained.
//!
//! 1. Strip leading and trailing ASCII white space: U+0020, U+000D, U+000A, U+0009,
//!    and no other Unicode space.
//! 2. One reference: each space becomes `%20`; several references ([`prepare_multi`]):
//!    split on runs of U+0020.
//! 3. Split into components as RFC 3986 Appendix B does, with the draft's scheme rule
//!    (ALPHA, then ALPHA / DIGIT / `+` / `-` / `.`, up to the first `:`).
//! 4. Host: an `IP-literal` or `IPv4address` as it is; otherwise an `ireg-name`, which
//!    for schemes that use DNS ([`uses_dns`]) goes through IDNA (UTS 46 ToASCII, the
//!    `idna` crate) when it is not ASCII, so DNS names become punycode. Port: digits only.
//! 5. In every other component, characters the RFC 3987 grammar does not allow there
//!    are percent-encoded (UTF-8, uppercase hex); a `%` that does not start a
//!    `pct-encoded` becomes `%25`.
//!
//! The result is a valid IRI reference, or an error saying why none can be made.
//! Not done: §6 of the draft, queries of http(s) URIs in a non-UTF-8 document charset
//! (the input here is already Unicode).

use crate::grammar::{is_match, Iri, MatchError, Rule};
#[cfg(feature = "idna")]
use crate::idn;
use crate::idn::IdnaError;
use crate::pct::{self, EncodeSet};
use crate::reference::IriRef;
use crate::schemes::uses_dns;
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// Why a string cannot be prepared as an IRI reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PrepareError {
    /// Nothing is left after stripping white space.
    Empty,
    /// A prefix up to `:` looks like a scheme but is not one (a scheme starts with a
    /// letter and has only letters, digits, `+`, `-`, `.`); read as a relative
    /// reference, its first segment would contain a `:`, which RFC 3986 §4.2 forbids.
    NotAScheme(String),
    /// The port is not all digits (RFC 3986 §3.2.3).
    BadPort(String),
    /// A host in brackets that is no `IP-literal` (RFC 3986 §3.2.2).
    BadIpLiteral(String),
    /// IDNA (UTS 46 ToASCII) rejected the host, or would map it to something that
    /// is not one host name (U+FE6B SMALL COMMERCIAL AT to `@`).
    Idna(IdnaError),
    /// The prepared string is still not an IRI reference.
    Invalid(MatchError),
}

impl fmt::Display for PrepareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PrepareError::Empty => write!(f, "nothing is left after stripping white space"),
            PrepareError::NotAScheme(p) => write!(
                f,
                "{p:?} looks like a scheme but is not one (a scheme starts with a letter and \
                 has only letters, digits, \"+\", \"-\", \".\"), and a relative reference \
                 cannot have \":\" in its first segment"
            ),
            PrepareError::BadPort(p) => write!(f, "the port {p:?} is not all digits"),
            PrepareError::BadIpLiteral(h) => write!(f, "{h:?} is in brackets but is no IP literal"),
            PrepareError::Idna(e) => write!(f, "the host has no ToASCII form: {e}"),
            PrepareError::Invalid(e) => {
                write!(f, "the result is no IRI reference: {}", e.message())
            }
        }
    }
}

impl core::error::Error for PrepareError {}

/// The four ASCII white-space characters of the draft (step 1).
fn is_ascii_ws(c: char) -> bool {
    matches!(c, ' ' | '\r' | '\n' | '\t')
}

/// Prepares one IRI reference from an arbitrary string.
///
/// ```
/// use iri_grammar::prepare::prepare;
/// assert_eq!(prepare("  http://résumé.example.org/my file?q=<1>#a#b\n").unwrap(),
///            "http://xn--rsum-bpad.example.org/my%20file?q=%3C1%3E#a%23b");
/// assert_eq!(prepare("docs/ünïcode 100%.txt").unwrap(), "docs/ünïcode%20100%25.txt");
/// assert!(prepare("1http://x").is_err());
/// ```
pub fn prepare(input: &str) -> Result<IriRef<'static>, PrepareError> {
    let s = input.trim_matches(is_ascii_ws);
    if s.is_empty() && !input.is_empty() {
        return Err(PrepareError::Empty);
    }
    prepare_one(s)
}

/// Prepares several IRI references separated by runs of spaces (step 2, where a
/// context allows several references).
///
/// ```
/// use iri_grammar::prepare::prepare_multi;
/// let refs: Vec<String> = prepare_multi(" a.xml   b c.xml ")
///     .into_iter().map(|r| r.unwrap().to_string()).collect();
/// assert_eq!(refs, ["a.xml", "b", "c.xml"]);
/// ```
pub fn prepare_multi(input: &str) -> Vec<Result<IriRef<'static>, PrepareError>> {
    input
        .trim_matches(is_ascii_ws)
        .split(' ')
        .filter(|p| !p.is_empty())
        .map(prepare_one)
        .collect()
}

/// Splits like RFC 3986 Appendix B: `^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?`.
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

fn split(s: &str) -> Parts<'_> {
    let (before_fragment, fragment) = match s.find('#') {
        Some(k) => (&s[..k], Some(&s[k + 1..])),
        None => (s, None),
    };
    let (before_query, query) = match before_fragment.find('?') {
        Some(k) => (&before_fragment[..k], Some(&before_fragment[k + 1..])),
        None => (before_fragment, None),
    };
    let (scheme, rest) = match before_query.find([':', '/']) {
        Some(k) if k > 0 && before_query.as_bytes()[k] == b':' => {
            (Some(&before_query[..k]), &before_query[k + 1..])
        }
        _ => (None, before_query),
    };
    let (authority, path) = match rest.strip_prefix("//") {
        Some(r) => {
            let end = r.find('/').unwrap_or(r.len());
            (Some(&r[..end]), &r[end..])
        }
        None => (None, rest),
    };
    Parts {
        scheme,
        authority,
        path,
        query,
        fragment,
    }
}

/// Appends `s`, percent-encoding what the IRI grammar does not allow in the
/// component of `set` (step 5); a valid `%HH` is kept, any other `%` is `%25`.
fn encode_into(s: &str, out: &mut String, set: EncodeSet) {
    out.push_str(&pct::encode_invalid::<Iri>(s, set));
}

fn prepare_one(s: &str) -> Result<IriRef<'static>, PrepareError> {
    let p = split(s);
    let mut out = String::with_capacity(s.len() + 8);
    if let Some(scheme) = p.scheme {
        if !crate::grammar::is_compiled_match!(Iri, Rule::Scheme, scheme) {
            return Err(PrepareError::NotAScheme(format!("{scheme}:")));
        }
        out.push_str(scheme);
        out.push(':');
    }
    if let Some(authority) = p.authority {
        out.push_str("//");
        let (userinfo, hostport) = match authority.rfind('@') {
            Some(k) => (Some(&authority[..k]), &authority[k + 1..]),
            None => (None, authority),
        };
        if let Some(u) = userinfo {
            encode_into(u, &mut out, EncodeSet::Userinfo);
            out.push('@');
        }
        // The port follows the last ":" that is not inside an IP literal.
        let host_end = if hostport.starts_with('[') {
            hostport.find(']').map_or(hostport.len(), |k| k + 1)
        } else {
            0
        };
        let (host, port) = match hostport[host_end..].rfind(':') {
            Some(k) => (
                &hostport[..host_end + k],
                Some(&hostport[host_end + k + 1..]),
            ),
            None => (hostport, None),
        };
        prepare_host(host, p.scheme, &mut out)?;
        if let Some(port) = port {
            if !port.bytes().all(|b| b.is_ascii_digit()) {
                return Err(PrepareError::BadPort(port.to_string()));
            }
            out.push(':');
            out.push_str(port);
        }
    } else if p.scheme.is_none() {
        // A relative reference whose first segment has ":" would read as a scheme.
        let first = p.path.split('/').next().unwrap_or("");
        if first.contains(':') {
            let prefix = &first[..=first.find(':').unwrap_or(0)];
            return Err(PrepareError::NotAScheme(prefix.to_string()));
        }
    }
    encode_into(p.path, &mut out, EncodeSet::Path);
    if let Some(q) = p.query {
        out.push('?');
        encode_into(q, &mut out, EncodeSet::Query);
    }
    if let Some(f) = p.fragment {
        out.push('#');
        encode_into(f, &mut out, EncodeSet::Fragment);
    }
    IriRef::parse_owned(out).map_err(PrepareError::Invalid)
}

/// ToASCII of a DNS host. A host stays one host: a character that UTS 46 maps to a
/// delimiter is an error, never a new authority (see `crate::idn`).
#[cfg(feature = "idna")]
fn dns_to_ascii(host: &str) -> Result<Option<Cow<'_, str>>, PrepareError> {
    idn::domain_to_ascii(host)
        .map(Some)
        .map_err(PrepareError::Idna)
}

/// Without the `idna` feature: no ToASCII, the host stays an `ireg-name`.
#[cfg(not(feature = "idna"))]
fn dns_to_ascii(_: &str) -> Result<Option<Cow<'_, str>>, PrepareError> {
    Ok(None)
}

/// The host of step 4. Without the `idna` feature a DNS host that is not ASCII is
/// kept as an `ireg-name` (characters the grammar does not allow there encoded),
/// which is still an IRI; with it, it becomes its ToASCII form.
fn prepare_host(host: &str, scheme: Option<&str>, out: &mut String) -> Result<(), PrepareError> {
    if host.starts_with('[') {
        if !is_match::<Iri>(Rule::IpLiteral, host) {
            return Err(PrepareError::BadIpLiteral(host.to_string()));
        }
        out.push_str(host);
        return Ok(());
    }
    if crate::grammar::is_compiled_match!(Iri, Rule::Ipv4address, host) {
        out.push_str(host);
        return Ok(());
    }
    if scheme.is_some_and(uses_dns) && !host.is_ascii() {
        if let Some(ascii) = dns_to_ascii(host)? {
            out.push_str(&ascii);
            return Ok(());
        }
    }
    encode_into(host, out, EncodeSet::RegName);
    Ok(())
}
