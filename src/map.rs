//! Between the variants: IRI → URI (RFC 3987 §3.1), URI → IRI (§3.2) and
//! LEIRI → IRI (LEIRI note §3).
//!
//! All three rebuild a reference component by component, so that each character is
//! judged by the grammar of the component it is in (an `iprivate` character is
//! allowed in `iquery` only). Nothing is lost: what cannot be converted stays
//! percent-encoded, and re-encoded octets use uppercase hex (RFC 3986 §2.1).
//!
//! Choices where the documents say MAY or SHOULD:
//! - §3.1 MAY convert `ireg-name` with ToASCII: option [`ToUri::idna`], off by default,
//!   for the schemes of [`uses_dns`]; UTS 46 processing (the `idna` crate), label by
//!   label, only labels that are not ASCII. A label ToASCII rejects is an error.
//! - §3.1 MAY percent-encode the US-ASCII characters not allowed in URIs: done when the
//!   input is a LEIRI (the only grammar that has them); an IRI cannot contain them.
//! - §3.2 step 4, characters "not appropriate" per §6.1: besides the §4.1 bidi
//!   formatting characters (which MUST stay encoded), these stay encoded too, because
//!   they are invisible or look like a space when displayed ([`KEPT_ENCODED`]): the
//!   newer bidi controls U+061C and U+2066-2069, U+00A0, U+00AD, U+1680, U+2000-200D,
//!   U+2028, U+2029, U+202F, U+205F, U+2060, U+3000 and U+FEFF.
//! - §3.2 MAY convert `xn--` labels with ToUnicode: option [`ToIri::idna`], off by
//!   default; a label stays as it is when ToUnicode fails or gives characters that would
//!   stay encoded or that `ireg-name` does not allow.

use crate::abnf::VariantName;
use crate::grammar::generated::{rfc3987_iprivate, rfc3987_ucschar};
use crate::grammar::{Iri, MatchError, Uri, Variant};
use crate::reference::Reference;
use std::fmt;
use std::fmt::Write as _;

/// Why a conversion failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MapError {
    /// ToASCII (UTS 46) rejected a label of the host.
    Idna {
        /// The label.
        label: String,
        /// Why.
        reason: String,
    },
    /// A percent-encoded host is not UTF-8, so it has no ToASCII form.
    HostNotUtf8(String),
    /// The result does not parse: a defect of this library, reported instead of a panic.
    Output(MatchError),
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MapError::Idna { label, reason } => {
                write!(
                    f,
                    "the host label {label:?} has no ToASCII form (UTS 46): {reason}"
                )
            }
            MapError::HostNotUtf8(h) => write!(
                f,
                "the host {h:?} is percent-encoded but not UTF-8, so it has no ToASCII form"
            ),
            MapError::Output(e) => write!(f, "the conversion produced an invalid result: {e}"),
        }
    }
}

impl std::error::Error for MapError {}

/// Options of [`to_uri`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToUri {
    /// Convert the non-ASCII labels of a DNS host with ToASCII (RFC 3987 §3.1 MAY).
    pub idna: bool,
}

/// Options of [`to_iri`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToIri {
    /// Convert `xn--` labels of a DNS host with ToUnicode (RFC 3987 §3.2 MAY).
    pub idna: bool,
}

/// Whether a scheme is known to use DNS host names (case-insensitive): the schemes of
/// [`crate::schemes::SCHEMES`] with a DNS host (http, https, ws, wss, ftp, file).
///
/// ```
/// assert!(iri_grammar::map::uses_dns("HTTPS"));
/// assert!(!iri_grammar::map::uses_dns("urn"));
/// ```
pub fn uses_dns(scheme: &str) -> bool {
    crate::schemes::scheme_rules(scheme).is_some_and(|r| r.dns_host)
}

/// The bidi formatting characters RFC 3987 §4.1 forbids: LRM, RLM, LRE, RLE, PDF, LRO, RLO.
pub const BIDI_FORMATTING: [char; 7] = [
    '\u{200E}', '\u{200F}', '\u{202A}', '\u{202B}', '\u{202C}', '\u{202D}', '\u{202E}',
];

/// Characters that URI → IRI keeps percent-encoded besides those the grammar and §4.1
/// exclude (see the module documentation), as inclusive ranges.
pub const KEPT_ENCODED: [(char, char); 13] = [
    ('\u{00A0}', '\u{00A0}'),
    ('\u{00AD}', '\u{00AD}'),
    ('\u{061C}', '\u{061C}'),
    ('\u{1680}', '\u{1680}'),
    ('\u{2000}', '\u{200D}'),
    ('\u{2028}', '\u{2029}'),
    ('\u{202F}', '\u{202F}'),
    ('\u{205F}', '\u{2060}'),
    ('\u{2066}', '\u{2069}'),
    ('\u{3000}', '\u{3000}'),
    ('\u{FEFF}', '\u{FEFF}'),
    ('\u{200E}', '\u{200F}'),
    ('\u{202A}', '\u{202E}'),
];

/// The components of a reference, for per-component decisions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    /// `scheme`.
    Scheme,
    /// `iuserinfo`.
    Userinfo,
    /// `ihost`.
    Host,
    /// `port`.
    Port,
    /// The path.
    Path,
    /// `iquery`.
    Query,
    /// `ifragment`.
    Fragment,
}

/// Whether an IRI allows the character `c` unencoded in component `at` (RFC 3987 §2.2):
/// ASCII characters are judged by the caller; beyond ASCII, `ucschar` everywhere and
/// `iprivate` in the query only.
pub fn iri_allows(c: char, at: Component) -> bool {
    rfc3987_ucschar(c) || (at == Component::Query && rfc3987_iprivate(c))
}

fn push_pct(out: &mut String, c: char) {
    let mut buf = [0u8; 4];
    for b in c.encode_utf8(&mut buf).bytes() {
        let _ = write!(out, "%{b:02X}");
    }
}

/// Appends `s`, each character that `keep` rejects as `%HH` of its UTF-8 octets.
fn encode_unless(s: &str, out: &mut String, keep: impl Fn(char) -> bool) {
    for c in s.chars() {
        if keep(c) {
            out.push(c);
        } else {
            push_pct(out, c);
        }
    }
}

/// Rebuilds `r` component by component with `f`, which writes a component's new
/// text. The delimiters stay as they are.
pub(crate) fn rebuild<V: Variant>(
    r: &Reference<'_, V>,
    mut f: impl FnMut(Component, &str, &mut String) -> Result<(), MapError>,
) -> Result<String, MapError> {
    let mut out = String::with_capacity(r.as_str().len() + 16);
    if let Some(s) = r.scheme() {
        f(Component::Scheme, s, &mut out)?;
        out.push(':');
    }
    if r.authority().is_some() {
        out.push_str("//");
        if let Some(u) = r.userinfo() {
            f(Component::Userinfo, u, &mut out)?;
            out.push('@');
        }
        f(Component::Host, r.host().unwrap_or(""), &mut out)?;
        if let Some(p) = r.port() {
            out.push(':');
            f(Component::Port, p, &mut out)?;
        }
    }
    f(Component::Path, r.path(), &mut out)?;
    if let Some(q) = r.query() {
        out.push('?');
        f(Component::Query, q, &mut out)?;
    }
    if let Some(frag) = r.fragment() {
        out.push('#');
        f(Component::Fragment, frag, &mut out)?;
    }
    Ok(out)
}

fn finish<W: Variant>(text: String) -> Result<Reference<'static, W>, MapError> {
    Reference::<W>::parse_owned(text).map_err(MapError::Output)
}

/// The US-ASCII characters a LEIRI allows and a URI or IRI does not (LEIRI note §3):
/// space, `<`, `>`, `"`, `{`, `}`, `|`, `\`, `^`, `` ` ``, C0 controls and DEL.
pub fn leiri_only_ascii(c: char) -> bool {
    matches!(
        c,
        ' ' | '<' | '>' | '"' | '{' | '}' | '|' | '\\' | '^' | '`' | '\0'..='\x1F' | '\x7F'
    )
}

/// IRI → URI (RFC 3987 §3.1): every `ucschar` and `iprivate` character becomes `%HH`
/// of its UTF-8 octets (uppercase); from a LEIRI, so do the US-ASCII characters URIs do
/// not allow. Existing percent-encodings and URI characters stay exactly as they are,
/// so the mapping is the identity on URIs and idempotent.
///
/// ```
/// use iri_grammar::{map::{to_uri, ToUri}, IriRef};
/// let iri = IriRef::parse("http://www.example.org/red%09rosé#red").unwrap();
/// assert_eq!(to_uri(&iri, ToUri::default()).unwrap(), "http://www.example.org/red%09ros%C3%A9#red");
/// let iri = IriRef::parse("http://résumé.example.org").unwrap();
/// assert_eq!(to_uri(&iri, ToUri { idna: true }).unwrap(), "http://xn--rsum-bpad.example.org");
/// ```
pub fn to_uri<V: Variant>(
    r: &Reference<'_, V>,
    options: ToUri,
) -> Result<Reference<'static, Uri>, MapError> {
    // A URI already (every character ASCII and allowed in URIs): the identity, with
    // the components already known.
    if r.as_str()
        .chars()
        .all(|c| c.is_ascii() && !leiri_only_ascii(c))
    {
        return Ok(Reference::from_parts(
            r.as_str().to_string(),
            *r.components(),
        ));
    }
    let dns = options.idna && r.scheme().is_some_and(uses_dns);
    let text = rebuild(r, |at, s, out| {
        if at == Component::Host && dns && !s.is_ascii() {
            return host_to_ascii(s, out);
        }
        encode_unless(s, out, |c| c.is_ascii() && !leiri_only_ascii(c));
        Ok(())
    })?;
    finish(text)
}

/// ToASCII of each non-ASCII label of a host; ASCII labels are kept as written.
fn host_to_ascii(host: &str, out: &mut String) -> Result<(), MapError> {
    for (k, label) in host.split('.').enumerate() {
        if k > 0 {
            out.push('.');
        }
        if label.is_ascii() {
            out.push_str(label);
            continue;
        }
        match idna::domain_to_ascii(label) {
            Ok(a) if !a.contains('.') => out.push_str(&a),
            Ok(a) => {
                return Err(MapError::Idna {
                    label: label.to_string(),
                    reason: format!("it maps to {a:?}, which is more than one label"),
                })
            }
            Err(e) => {
                return Err(MapError::Idna {
                    label: label.to_string(),
                    reason: format!("{e:?}"),
                })
            }
        }
    }
    Ok(())
}

/// Whether `to_iri(to_uri(text))` is `text` itself: no percent-encoding to align, no
/// US-ASCII character a URI forbids, and every other character a `ucschar` that §3.2
/// leaves decoded anywhere. Lets normalization skip two conversions in the common case.
pub(crate) fn aligned_already(text: &str) -> bool {
    text.chars().all(|c| {
        if c.is_ascii() {
            c != '%' && !leiri_only_ascii(c)
        } else {
            rfc3987_ucschar(c) && !KEPT_ENCODED.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
        }
    })
}

/// Whether URI → IRI may leave `c` decoded in component `at` (§3.2 step 4).
fn may_decode(c: char, at: Component) -> bool {
    if c.is_ascii() {
        // Only unreserved US-ASCII characters are decoded (step 2).
        return c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~');
    }
    iri_allows(c, at) && !KEPT_ENCODED.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// URI → IRI (RFC 3987 §3.2), the five steps: percent-encodings are decoded except
/// those of `%`, of reserved characters and of US-ASCII characters URIs do not allow;
/// octets that are not strictly legal UTF-8 (overlong forms, surrogates, truncated
/// sequences, code points beyond U+10FFFF) and characters not appropriate in their
/// component stay encoded (uppercase hex). A non-UTF-8 encoding is never guessed.
/// The input may be an IRI already (its characters are kept as they are).
///
/// ```
/// use iri_grammar::{map::{to_iri, ToIri}, UriRef};
/// let uri = UriRef::parse("http://www.example.org/D%C3%BCrst").unwrap();
/// assert_eq!(to_iri(&uri, ToIri::default()).unwrap(), "http://www.example.org/Dürst");
/// let uri = UriRef::parse("http://www.example.org/D%FCrst").unwrap();
/// assert_eq!(to_iri(&uri, ToIri::default()).unwrap(), "http://www.example.org/D%FCrst");
/// let uri = UriRef::parse("http://xn--99zt52a.example.org/%e2%80%ae").unwrap();
/// assert_eq!(to_iri(&uri, ToIri { idna: true }).unwrap(), "http://納豆.example.org/%E2%80%AE");
/// ```
pub fn to_iri<V: Variant>(
    r: &Reference<'_, V>,
    options: ToIri,
) -> Result<Reference<'static, Iri>, MapError> {
    let dns = options.idna && r.scheme().is_some_and(uses_dns);
    // Nothing percent-encoded and no ToUnicode to do: a URI or IRI is its own IRI.
    let idna_work = dns
        && r.host()
            .is_some_and(|h| h.contains("xn--") || h.contains("XN--"));
    if V::NAME != VariantName::Leiri && !r.as_str().contains('%') && !idna_work {
        return Ok(Reference::from_parts(
            r.as_str().to_string(),
            *r.components(),
        ));
    }
    let text = rebuild(r, |at, s, out| {
        if at == Component::Host && dns && s.contains("xn--") {
            host_to_unicode(s, out);
            return Ok(());
        }
        decode_component(s, at, out);
        Ok(())
    })?;
    finish(text)
}

/// Steps 2-5 of §3.2 on one component.
fn decode_component(s: &str, at: Component, out: &mut String) {
    let bytes = s.as_bytes();
    let mut k = 0;
    // Octets >= 0x80 from a run of percent-encodings, waiting to be read as UTF-8.
    let mut pending: Vec<u8> = Vec::new();
    let hex = |at: usize| bytes.get(at).and_then(|&b| (b as char).to_digit(16));
    while k < bytes.len() {
        // The grammar guarantees two hex digits after "%" in a valid reference.
        let triplet = match (bytes[k], hex(k + 1), hex(k + 2)) {
            (b'%', Some(h), Some(l)) => Some(h * 16 + l),
            _ => None,
        };
        match triplet {
            Some(octet) if octet >= 0x80 => {
                pending.push(octet as u8);
                k += 3;
            }
            Some(octet) => {
                flush(&mut pending, at, out);
                let c = char::from(octet as u8);
                if may_decode(c, at) {
                    out.push(c);
                } else {
                    // %, reserved and disallowed US-ASCII: kept as written.
                    out.push_str(&s[k..k + 3]);
                }
                k += 3;
            }
            None => {
                flush(&mut pending, at, out);
                let c = s[k..].chars().next().unwrap_or('\0');
                out.push(c);
                k += c.len_utf8();
            }
        }
    }
    flush(&mut pending, at, out);
}

/// Reads pending octets as strict UTF-8 (step 3) and decodes the characters that may
/// appear in the component (step 4); the rest is re-encoded.
fn flush(pending: &mut Vec<u8>, at: Component, out: &mut String) {
    for chunk in pending.utf8_chunks() {
        for c in chunk.valid().chars() {
            if may_decode(c, at) {
                out.push(c);
            } else {
                push_pct(out, c);
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "%{b:02X}");
        }
    }
    pending.clear();
}

/// ToUnicode of each `xn--` label; a label stays as it is when ToUnicode fails or its
/// result would not be left decoded by [`to_iri`].
fn host_to_unicode(host: &str, out: &mut String) {
    for (k, label) in host.split('.').enumerate() {
        if k > 0 {
            out.push('.');
        }
        let is_ace = label.len() > 4 && label[..4].eq_ignore_ascii_case("xn--");
        if is_ace {
            let (unicode, result) = idna::domain_to_unicode(label);
            let fits = result.is_ok()
                && !unicode.contains('.')
                && unicode.chars().all(|c| {
                    may_decode(c, Component::Host) || c.is_ascii_alphanumeric() || c == '-'
                });
            if fits {
                out.push_str(&unicode);
                continue;
            }
        }
        decode_component(label, Component::Host, out);
    }
}

/// LEIRI → IRI (LEIRI note §3): each character a LEIRI allows and an IRI does not
/// *in that component* becomes `%HH` of its UTF-8 octets (uppercase): the US-ASCII
/// characters of [`leiri_only_ascii`], characters outside `ucschar` (a private-use
/// character stays in the query and is encoded in the path), and the bidi formatting
/// characters of RFC 3987 §4.1.
///
/// ```
/// use iri_grammar::{map::leiri_to_iri, LeiriRef};
/// let l = LeiriRef::parse("http://a/b c/\u{E000}?\u{E000}").unwrap();
/// assert_eq!(leiri_to_iri(&l).unwrap(), "http://a/b%20c/%EE%80%80?\u{E000}");
/// ```
pub fn leiri_to_iri<V: Variant>(r: &Reference<'_, V>) -> Result<Reference<'static, Iri>, MapError> {
    let text = rebuild(r, |at, s, out| {
        encode_unless(s, out, |c| {
            if c.is_ascii() {
                !leiri_only_ascii(c)
            } else {
                iri_allows(c, at) && !BIDI_FORMATTING.contains(&c)
            }
        });
        Ok(())
    })?;
    finish(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::abnf::{generate::Generator, Grammars, VariantName};
    use crate::grammar::Leiri;

    /// The fast path of normalization is sound: when `aligned_already` says so, the two
    /// conversions give the text back unchanged.
    #[test]
    fn aligned_already_means_the_conversions_are_the_identity() {
        let grammars = Grammars::builtin();
        for (variant, rule) in [
            (VariantName::Iri, "IRI-reference"),
            (VariantName::Leiri, "LEIRI-reference"),
            (VariantName::Uri, "URI-reference"),
        ] {
            let mut g = Generator::new(&grammars, variant, 3);
            let mut fast = 0;
            for _ in 0..3000 {
                let s = g.generate(rule).unwrap();
                if !aligned_already(&s) {
                    continue;
                }
                fast += 1;
                let r = Reference::<Leiri>::parse(&s).unwrap();
                let round =
                    to_iri(&to_uri(&r, ToUri::default()).unwrap(), ToIri::default()).unwrap();
                assert_eq!(round.as_str(), s, "{variant:?}");
            }
            assert!(fast > 100, "{variant:?}: {fast}");
        }
    }
}
