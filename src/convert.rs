//! Between the variants: IRI → URI (RFC 3987 §3.1), URI → IRI (§3.2) and
//! LEIRI → IRI (LEIRI note §3).
//!
//! All three rewrite a reference component by component, so that each character is
//! judged by the grammar of the component it is in (an `iprivate` character is
//! allowed in `iquery` only), in one pass that copies runs of unchanged text and
//! records the new components as it writes (no parse of the result). Nothing is
//! lost: what cannot be converted stays percent-encoded, and re-encoded octets use
//! uppercase hex (RFC 3986 §2.1).
//!
//! Choices where the documents say MAY or SHOULD:
//! - §3.1 MAY convert `ireg-name` with ToASCII: option [`ToUri::idna`], off by default,
//!   for the schemes of [`crate::schemes::uses_dns`]; UTS 46 processing (the `idna` crate), label by
//!   label, only labels that are not ASCII. A label ToASCII rejects, or maps to
//!   something that is not one host name (U+FE6B SMALL COMMERCIAL AT to `@`), is an
//!   error: see [`crate::idn`].
//! - §3.1 MAY percent-encode the US-ASCII characters not allowed in URIs: done when the
//!   input is a LEIRI (the only grammar that has them); an IRI cannot contain them.
//! - §3.2 step 4, characters "not appropriate" per §6.1: besides the §4.1 bidi
//!   formatting characters (which MUST stay encoded), these stay encoded too, because
//!   they are invisible or look like a space when displayed ([`stays_encoded`]): the
//!   newer bidi controls U+061C and U+2066-2069, U+00A0, U+00AD, U+1680, U+2000-200D,
//!   U+2028, U+2029, U+202F, U+205F, U+2060, U+3000 and U+FEFF.
//! - §3.2 MAY convert `xn--` labels with ToUnicode: option [`ToIri::idna`], off by
//!   default; a label stays as it is when ToUnicode fails, gives characters that would
//!   stay encoded, or would not give the same label back through ToASCII.

use crate::byte_search::{count_non_ascii, first_byte, first_non_ascii, next_non_ascii};
use crate::chars::LEIRI_ONLY_ASCII_BYTES;
use crate::grammar::VariantName;
use crate::grammar::{Component, HostKind};
use crate::grammar::{Iri, Uri, Variant};
use crate::idn::{self, IdnaError};
use crate::pct;
use crate::reference::{Recomposer, Reference};
use crate::schemes::uses_dns;
use crate::writer::{encode_run_beyond_ascii, Treatment};
use alloc::string::{String, ToString};
use core::fmt;

/// Why a conversion failed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConvertError {
    /// IDNA could not convert a label of the host (UTS 46 rejects it, or maps it to
    /// something that is not one host name).
    Idna(IdnaError),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Idna(e) => write!(f, "the host has no ToASCII form: {e}"),
        }
    }
}

impl core::error::Error for ConvertError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            ConvertError::Idna(e) => Some(e),
        }
    }
}

/// Options of [`Reference::to_uri_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToUri {
    /// Convert the non-ASCII labels of a DNS host with ToASCII (RFC 3987 §3.1 MAY).
    pub idna: bool,
}

/// Options of [`Reference::to_iri_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ToIri {
    /// Convert `xn--` labels of a DNS host with ToUnicode (RFC 3987 §3.2 MAY).
    pub idna: bool,
}

pub use crate::chars::{iri_allows, leiri_only_ascii, may_decode, stays_encoded};

/// [`Reference::to_uri_with`].
fn to_uri<V: Variant>(
    r: &Reference<'_, V>,
    options: ToUri,
) -> Result<Reference<'static, Uri>, ConvertError> {
    let dns = options.idna
        && r.host_kind() == Some(HostKind::RegName)
        && r.scheme().is_some_and(uses_dns)
        && r.host().is_some_and(|h| !h.is_ascii());
    if !dns {
        return Ok(to_uri_without_idna(r));
    }
    let leiri = V::NAME == VariantName::Leiri;
    let rules = Treatment::to_uri(leiri);
    let text = r.as_str();
    // Before the first character beyond ASCII, a URI's text is its own (a LEIRI's may
    // have ASCII a URI forbids; a host beyond ASCII, the one IDNA changes, ends after
    // it).
    let unchanged_before = if leiri {
        0
    } else {
        first_non_ascii(text.as_bytes()).unwrap_or(text.len())
    };
    let b = Recomposer::rebuild(
        r,
        text.len() + text.len() / 2,
        unchanged_before,
        |at, s, out| {
            if at == Component::Host && !s.is_ascii() {
                // A LEIRI's host may have ASCII a URI forbids: encoded first, so that
                // ASCII labels come out as URI text and the others fail ToASCII.
                let mut encoded = String::new();
                let host = if leiri && s.bytes().any(|b| LEIRI_ONLY_ASCII_BYTES[usize::from(b)]) {
                    pct::encode_unless(s, |c| !leiri_only_ascii(c), &mut encoded);
                    encoded.as_str()
                } else {
                    s
                };
                return idn::host_to_ascii(host, out).map_err(ConvertError::Idna);
            }
            rules.write(s, at, out);
            Ok(())
        },
    )?;
    Ok(b.finish())
}

/// [`to_uri`] without its IDNA step: RFC 3987 §3.1's mapping alone, which every
/// IRI (and LEIRI) has, so it cannot fail.
fn to_uri_without_idna<V: Variant>(r: &Reference<'_, V>) -> Reference<'static, Uri> {
    let text = r.as_str();
    let leiri = V::NAME == VariantName::Leiri;
    let non_ascii = first_non_ascii(text.as_bytes());
    // A URI already (every character ASCII and allowed in URIs): the identity, with
    // the components already known. Only a LEIRI can have ASCII a URI forbids.
    if non_ascii.is_none()
        && !(leiri && text.bytes().any(|b| LEIRI_ONLY_ASCII_BYTES[usize::from(b)]))
    {
        return Reference::from_parts(text.to_string(), *r.components());
    }
    if !leiri {
        return encode_beyond_ascii(r, non_ascii.unwrap_or(text.len()));
    }
    let rules = Treatment::to_uri(leiri);
    let written = Recomposer::rebuild(r, text.len() + text.len() / 2, 0, |at, s, out| {
        rules.write(s, at, out);
        Ok::<(), core::convert::Infallible>(())
    });
    match written {
        Ok(b) => b.finish(),
        Err(never) => match never {},
    }
}

/// [`to_uri`] of an IRI (or a URI) whose host takes no IDNA step: RFC 3987 §3.1 step 2
/// alone, each octet beyond ASCII written as `%HH`; `first` is where the first such
/// octet is. Nothing else changes, so the structure stays: each component boundary
/// moves right by two bytes per octet beyond ASCII before it (no boundary falls
/// inside a character: each is next to an ASCII delimiter or at an end of the text).
/// The octets beyond ASCII are counted first, which gives the output's length; then
/// the text is written run by run, and after each run beyond ASCII the boundaries
/// that follow it move.
fn encode_beyond_ascii<V: Variant>(r: &Reference<'_, V>, first: usize) -> Reference<'static, Uri> {
    let text = r.as_str();
    let bytes = text.as_bytes();
    let mut c = *r.components();
    let mut out = String::with_capacity(text.len() + 2 * count_non_ascii(&bytes[first..]));
    out.push_str(&text[..first]);
    // Runs beyond ASCII (a character or a word) are encoded octet by octet; runs of
    // ASCII (most of a text) are found sixteen bytes at a time and copied whole.
    let mut k = first;
    loop {
        let run = k;
        // Where the run ends in `c`'s offsets, which have moved with the runs before.
        let grown_before = out.len() - run;
        k = encode_run_beyond_ascii(bytes, k, &mut out);
        c.shift_from((k + grown_before) as u32, 2 * (k - run) as i64);
        let Some(ascii) = next_non_ascii(&bytes[k..]) else {
            out.push_str(&text[k..]);
            break;
        };
        out.push_str(&text[k..k + ascii]);
        k += ascii;
    }
    debug_assert_eq!(out.len(), out.capacity());
    Reference::from_parts(out, c)
}

/// [`Reference::to_iri_with`].
fn to_iri<V: Variant>(
    r: &Reference<'_, V>,
    options: ToIri,
) -> Result<Reference<'static, Iri>, ConvertError> {
    let idna_host = options.idna
        && r.host_kind() == Some(HostKind::RegName)
        && r.scheme().is_some_and(uses_dns);
    #[cfg(not(feature = "idna"))]
    if idna_host && r.host().is_some_and(idn::has_ace_label) {
        return Err(ConvertError::Idna(IdnaError {
            label: r.host().unwrap_or_default().to_string(),
            reason: crate::idn::IdnaReason::Unavailable,
        }));
    }
    // ToUnicode where the host has an ACE label, or may have one once decoded
    // (`xn--99zt5%32a`, `a%2Exn--…`).
    let dns = idna_host
        && r.host()
            .is_some_and(|h| idn::has_ace_label(h) || h.contains('%'));
    Ok(to_iri_unless_dns(r, dns))
}

/// [`to_iri`], with ToUnicode on the host when `dns`. ToUnicode never fails: a label
/// it cannot convert stays as it is.
fn to_iri_unless_dns<V: Variant>(r: &Reference<'_, V>, dns: bool) -> Reference<'static, Iri> {
    let text = r.as_str();
    let leiri = V::NAME == VariantName::Leiri;
    let first_percent = first_byte(text.as_bytes(), b'%').unwrap_or(text.len());
    // Nothing percent-encoded and no ToUnicode to do: a URI or IRI is its own IRI.
    if !leiri && !dns && first_percent == text.len() {
        return Reference::from_parts(text.to_string(), *r.components());
    }
    if !leiri && !dns {
        return decode_percent_runs(r, first_percent);
    }
    // What comes before the first `%` stays as it is, but for a LEIRI's characters
    // and a host that takes ToUnicode.
    let unchanged_before = match r.span(Component::Host) {
        _ if leiri => 0,
        Some(host) if dns => first_percent.min(host.start),
        _ => first_percent,
    };
    let written = Recomposer::rebuild(r, text.len(), unchanged_before, |at, s, out| {
        if at == Component::Host && dns {
            host_to_unicode(s, leiri, out);
        } else if leiri {
            // A branch for each value of `leiri`, so that each writer's table and
            // `keep` are constants where it runs.
            Treatment::to_iri(at, true).write(s, at, out);
        } else {
            Treatment::to_iri(at, false).write(s, at, out);
        }
        Ok::<(), core::convert::Infallible>(())
    });
    match written {
        Ok(b) => b.finish(),
        Err(never) => match never {},
    }
}

/// [`to_iri`] of a URI (or IRI) whose conversion is RFC 3987 §3.2's decoding alone (not
/// a LEIRI, no host for ToUnicode), from its first `%` on: each `%HH` run is decoded
/// as its component allows (the writer of [`Treatment::to_iri`]); nothing else changes, so
/// the structure stays: one pass over the whole text, and each component boundary
/// moves left by what the runs before it shrank. (A run lies inside one component:
/// `%HH` holds no delimiter.) A host with a run is classified again, as the grammar
/// does (`%31.2.3.4` decodes to an `IPv4address`).
fn decode_percent_runs<V: Variant>(
    r: &Reference<'_, V>,
    first_percent: usize,
) -> Reference<'static, Iri> {
    let text = r.as_str();
    let bytes = text.as_bytes();
    let original = r.components();
    let mut c = *original;
    // Outside a LEIRI the writer is the same in every component (`percent_run` is
    // told the component); `Path` only names one.
    let rules = Treatment::to_iri(Component::Path, false);
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first_percent]);
    let mut host_changed = false;
    let mut start = first_percent;
    while start < text.len() {
        let at = original.component_at(start);
        let written = out.len();
        let end = start + rules.percent_run(&text[start..], at, &mut out);
        host_changed |= at == Component::Host;
        // The boundaries after this run move by what it shrank (never grew: a
        // character keeps its octets' triplets, an octet its own).
        let by = (out.len() - written) as i64 - (end - start) as i64;
        c.shift_from((written + end - start) as u32, by);
        let next = first_byte(&bytes[end..], b'%').map_or(text.len(), |k| end + k);
        out.push_str(&text[end..next]);
        start = next;
    }
    if host_changed {
        let host = c.host.0 as usize..c.host.1 as usize;
        c.host_kind = Some(crate::reference::host_kind(&out[host]));
    }
    Reference::from_parts(out, c)
}

impl<V: Variant> Reference<'_, V> {
    /// IRI → URI (RFC 3987 §3.1) without IDNA, the common case: every character
    /// beyond ASCII (and, from a LEIRI, every ASCII character URIs forbid) as `%HH`
    /// of its UTF-8 octets. Every reference has this mapping, so it cannot fail;
    /// [`Reference::to_uri_with`] takes the options (ToASCII of a DNS host, which can).
    ///
    /// ```
    /// use iri_grammar::{convert::ToUri, IriRef};
    /// let iri = IriRef::parse("http://résumé.example.org/rosé").unwrap();
    /// assert_eq!(iri.to_uri(), "http://r%C3%A9sum%C3%A9.example.org/ros%C3%A9");
    /// assert_eq!(iri.to_uri_with(ToUri { idna: true }).unwrap(), "http://xn--rsum-bpad.example.org/ros%C3%A9");
    /// ```
    pub fn to_uri(&self) -> Reference<'static, Uri> {
        to_uri_without_idna(self)
    }

    /// IRI → URI (RFC 3987 §3.1) with its options, the host through ToASCII with
    /// [`ToUri::idna`]: every `ucschar` and `iprivate` character becomes `%HH`
    /// of its UTF-8 octets (uppercase); from a LEIRI, so do the US-ASCII characters URIs do
    /// not allow. Existing percent-encodings and URI characters stay exactly as they are,
    /// so the mapping is the identity on URIs and idempotent.
    ///
    /// ```
    /// use iri_grammar::{convert::ToUri, IriRef};
    /// let iri = IriRef::parse("http://www.example.org/red%09rosé#red").unwrap();
    /// assert_eq!(iri.to_uri_with(ToUri::default()).unwrap(), "http://www.example.org/red%09ros%C3%A9#red");
    /// let iri = IriRef::parse("http://résumé.example.org").unwrap();
    /// assert_eq!(iri.to_uri_with(ToUri { idna: true }).unwrap(), "http://xn--rsum-bpad.example.org");
    /// // A host stays one host: U+FF0F FULLWIDTH SOLIDUS would map to "/".
    /// let iri = IriRef::parse("http://a\u{FF0F}b.c/x").unwrap();
    /// assert!(iri.to_uri_with(ToUri { idna: true }).is_err());
    /// ```
    pub fn to_uri_with(&self, options: ToUri) -> Result<Reference<'static, Uri>, ConvertError> {
        to_uri(self, options)
    }

    /// URI → IRI (RFC 3987 §3.2), and LEIRI → IRI (LEIRI note §3), without IDNA, the
    /// common case: it cannot fail; [`Reference::to_iri_with`] takes the options.
    ///
    /// ```
    /// use iri_grammar::{convert::ToIri, UriRef};
    /// let uri = UriRef::parse("http://xn--rsum-bpad.example.org/ros%C3%A9").unwrap();
    /// assert_eq!(uri.to_iri(), "http://xn--rsum-bpad.example.org/rosé");
    /// assert_eq!(uri.to_iri_with(ToIri { idna: true }).unwrap(), "http://résumé.example.org/rosé");
    /// ```
    pub fn to_iri(&self) -> Reference<'static, Iri> {
        to_iri_unless_dns(self, false)
    }

    /// URI → IRI (RFC 3987 §3.2) with its options, the host through ToUnicode with
    /// [`ToIri::idna`]; the five steps: percent-encodings are decoded except
    /// those of `%`, of reserved characters and of US-ASCII characters URIs do not allow;
    /// octets that are not strictly legal UTF-8 (overlong forms, surrogates, truncated
    /// sequences, code points beyond U+10FFFF) and characters not appropriate in their
    /// component stay encoded (uppercase hex). A non-UTF-8 encoding is never guessed.
    /// The input may be an IRI already (its characters are kept as they are) or a LEIRI
    /// (what an IRI cannot have is percent-encoded first, as [`Reference::leiri_to_iri`] does).
    ///
    /// ```
    /// use iri_grammar::{convert::ToIri, UriRef};
    /// let uri = UriRef::parse("http://www.example.org/D%C3%BCrst").unwrap();
    /// assert_eq!(uri.to_iri_with(ToIri::default()).unwrap(), "http://www.example.org/Dürst");
    /// let uri = UriRef::parse("http://www.example.org/D%FCrst").unwrap();
    /// assert_eq!(uri.to_iri_with(ToIri::default()).unwrap(), "http://www.example.org/D%FCrst");
    /// let uri = UriRef::parse("http://xn--99zt52a.example.org/%e2%80%ae").unwrap();
    /// assert_eq!(uri.to_iri_with(ToIri { idna: true }).unwrap(), "http://納豆.example.org/%E2%80%AE");
    /// ```
    pub fn to_iri_with(&self, options: ToIri) -> Result<Reference<'static, Iri>, ConvertError> {
        to_iri(self, options)
    }

    /// LEIRI → IRI (LEIRI note §3): each character a LEIRI allows and an IRI does not
    /// *in that component* becomes `%HH` of its UTF-8 octets (uppercase): the US-ASCII
    /// characters of [`leiri_only_ascii`], characters outside `ucschar` (a private-use
    /// character stays in the query and is encoded in the path), and the bidi formatting
    /// characters of RFC 3987 §4.1.
    ///
    /// ```
    /// use iri_grammar::LeiriRef;
    /// let l = LeiriRef::parse("http://a/b c/\u{E000}?\u{E000}").unwrap();
    /// assert_eq!(l.leiri_to_iri().unwrap(), "http://a/b%20c/%EE%80%80?\u{E000}");
    /// ```
    pub fn leiri_to_iri(&self) -> Result<Reference<'static, Iri>, ConvertError> {
        leiri_to_iri(self)
    }
}

/// The §3.2 decoding of the whole host, then ToUnicode of each `xn--` label of the
/// result; a label stays as it is when ToUnicode fails or its result would not be left
/// decoded by [`to_iri`] (see [`idn::label_to_unicode`]).
///
/// Decoding comes first so that the conversion is idempotent: a label that only
/// becomes an ACE label once decoded (`xn--99zt5%32a`), or a `%2E` that splits a label,
/// must get ToUnicode in this pass, or a second `to_iri` would change the host again.
fn host_to_unicode(host: &str, leiri: bool, out: &mut String) {
    let mut decoded = String::with_capacity(host.len());
    Treatment::to_iri(Component::Host, leiri).write(host, Component::Host, &mut decoded);
    for (k, label) in decoded.split('.').enumerate() {
        if k > 0 {
            out.push('.');
        }
        match idn::label_to_unicode(label, |c| may_decode(c, Component::Host)) {
            Some(u) => out.push_str(&u),
            None => out.push_str(label),
        }
    }
}

/// [`Reference::leiri_to_iri`].
fn leiri_to_iri<V: Variant>(r: &Reference<'_, V>) -> Result<Reference<'static, Iri>, ConvertError> {
    let b = Recomposer::rebuild(r, r.as_str().len() + 16, 0, |at, s, out| {
        Treatment::leiri_to_iri(at).write(s, at, out);
        Ok::<(), ConvertError>(())
    })?;
    Ok(b.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::Leiri;

    #[test]
    fn leiri_input_to_iri_is_leiri_to_iri_then_to_iri() {
        for s in [
            "http://a/b c%41/\u{E000}?\u{E000}%C3%A9",
            "x:\u{202E}%E2%80%AE<>",
        ] {
            let l = Reference::<Leiri>::parse(s).unwrap();
            let direct = to_iri(&l, ToIri::default()).unwrap();
            let two = to_iri(&leiri_to_iri(&l).unwrap(), ToIri::default()).unwrap();
            assert_eq!(direct, two, "{s:?}");
        }
    }

    /// The one pass of [`decode_percent_runs`] writes what the writer of each component
    /// writes (`Recomposer::rebuild`, the path of LEIRIs and of hosts for ToUnicode), with
    /// the same components, on URIs with runs of every kind in every component.
    #[test]
    fn one_pass_decoding_is_the_per_component_writer() {
        let runs = [
            "%41",
            "%7e",
            "%2F",
            "%25",
            "%20",
            "%3A",
            "%C3%A9",
            "%c3%a9",
            "%E2%80%AE",
            "%EE%80%80",
            "%FF",
            "%C3",
            "%C0%AF",
            "%F0%9F%98%80",
            "%31",
            "%2E",
            "%ED%A0%80",
            "%EF%BF%BD",
        ];
        let mut next = crate::testing::numbers(0x9E37_79B9_7F4A_7C15);
        let piece = |next: &mut dyn FnMut(usize) -> usize| -> String {
            (0..next(4))
                .map(|_| {
                    if next(2) == 0 {
                        runs[next(runs.len())]
                    } else {
                        ["a", "1", ".", "B"][next(4)]
                    }
                })
                .collect()
        };
        let mut checked = 0;
        for k in 0..5_000 {
            let text = match if k < 2 { k + 3 } else { next(3) } {
                // Hosts that decode to an IPv4address.
                3 => "http://%31%32%37.0.0.1/%EE%80%80?%EE%80%80".to_string(),
                4 => "//%31.%32.3.4:8/p%C3%A9".to_string(),
                0 => format!(
                    "http://{}@{}:8/{}/{}?{}#{}",
                    piece(&mut next),
                    piece(&mut next),
                    piece(&mut next),
                    piece(&mut next),
                    piece(&mut next),
                    piece(&mut next)
                ),
                1 => format!(
                    "//{}{}/x?{}",
                    piece(&mut next),
                    piece(&mut next),
                    piece(&mut next)
                ),
                _ => format!(
                    "{}/{}#{}",
                    piece(&mut next),
                    piece(&mut next),
                    piece(&mut next)
                ),
            };
            let Ok(r) = Reference::<Uri>::parse(&text) else {
                continue;
            };
            let Some(first) = first_byte(text.as_bytes(), b'%') else {
                continue;
            };
            let one = decode_percent_runs(&r, first);
            let each = Recomposer::rebuild(&r, text.len(), 0, |at, s, out| {
                Treatment::to_iri(at, false).write(s, at, out);
                Ok::<(), ConvertError>(())
            })
            .unwrap()
            .finish::<Iri>();
            assert_eq!(one.as_str(), each.as_str(), "{text:?}");
            assert_eq!(one.components(), each.components(), "{text:?}");
            checked += 1;
        }
        assert!(checked > 3_000, "{checked}");
    }
}
