//! Internationalized domain names in `ireg-name`: ToASCII (RFC 3987 §3.1 step 3),
//! ToUnicode (§3.2), and the host's form for comparison (§5.3.3), with UTS 46 as the
//! `idna` crate implements it.
//!
//! **A host stays one host.** UTS 46 maps some characters to ASCII delimiters:
//! U+FE6B SMALL COMMERCIAL AT to `@`, U+FF0F FULLWIDTH SOLIDUS to `/`, U+FE56 SMALL
//! QUESTION MARK to `?`, U+FF05 FULLWIDTH PERCENT SIGN to `%`. Spliced back into the
//! text, `http://evil.example﹫bank.example/` would become a reference whose host is
//! `bank.example`. So every result of this module is checked twice: UTS 46 runs with
//! the WHATWG URL deny list (`AsciiDenyList::URL`: no `%#/:<>?@[\]^|`, no space or
//! control), and the ASCII result must be a `reg-name` of RFC 3986 without `%`; a
//! Unicode result must give the same ASCII form back. What fails is not converted:
//! the caller reports an error or keeps the host as it was, as each operation
//! documents.
//!
//! RFC 3987 §3.1 asks for ToASCII on each dot-separated label with
//! UseSTD3ASCIIRules false; labels that are ASCII already are kept as written (RFC
//! 3490 §4.1 skips them), so only labels with non-ASCII characters change.
//!
//! **The `idna` feature** (on by default) brings the `idna` crate and the functions
//! of this module. Without it only the error types remain, and the operations that
//! would use IDNA say so with [`IdnaReason::Unavailable`]: `to_uri` and `to_iri`
//! with their `idna` option on a DNS host that needs it, and scheme-based
//! normalization of a DNS host that is not ASCII or has an `xn--` label (an ASCII
//! host is compared in lowercase, which is what UTS 46 gives it). `prepare` keeps
//! a non-ASCII host as an `ireg-name` instead of converting it.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use core::fmt;
#[cfg(feature = "idna")]
use {
    crate::grammar::{Rule, Uri},
    idna::uts46::{AsciiDenyList, Hyphens, Uts46},
};

/// Why a host or label has no IDNA form here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdnaError {
    /// The label (or host) that failed, as written.
    pub label: String,
    /// Why.
    pub reason: IdnaReason,
}

/// What went wrong in [`IdnaError`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum IdnaReason {
    /// UTS 46 processing rejects it (a disallowed character, a bad `xn--` label, a
    /// bidi or joiner rule).
    Rejected,
    /// UTS 46 maps it to this text, which is not one `reg-name`: it holds a delimiter
    /// (`@`, `/`, `?`, `#`, `:`, `[`, `]`), a `%`, a space or another character a
    /// host cannot have.
    NotOneHost(String),
    /// The host has percent-encoded octets that are not UTF-8, so they are no
    /// characters to give to IDNA.
    PercentEncoded,
    /// The host holds this character percent-encoded: one a host name cannot hold
    /// (an ASCII control, space or delimiter), in a host beyond ASCII; or one beyond
    /// ASCII that stays encoded in a host (RFC 3987 §3.2: the bidi formatting and
    /// invisible characters), which IDNA does not read through its encoding.
    EncodedCharacter(char),
    /// The library was built without its `idna` feature, so it has no UTS 46.
    Unavailable,
}

impl fmt::Display for IdnaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let label = &self.label;
        match &self.reason {
            IdnaReason::Rejected => write!(f, "UTS 46 rejects {label:?}"),
            IdnaReason::NotOneHost(mapped) => write!(
                f,
                "UTS 46 maps {label:?} to {mapped:?}, which is not one host name \
                 (a look-alike of a delimiter or of a character hosts cannot have)"
            ),
            IdnaReason::PercentEncoded => write!(
                f,
                "{label:?} has percent-encoded octets that are not UTF-8, so no characters \
                 for IDNA"
            ),
            IdnaReason::EncodedCharacter(c) if c.is_ascii() => write!(
                f,
                "{label:?} holds {} percent-encoded, which no IDNA label can hold",
                crate::grammar::describe_char(*c)
            ),
            IdnaReason::EncodedCharacter(c) => write!(
                f,
                "{label:?} holds {} percent-encoded, as it stays in a host (RFC 3987 §3.2), \
                 and IDNA reads characters, not their encodings",
                crate::grammar::describe_char(*c)
            ),
            IdnaReason::Unavailable => write!(
                f,
                "{label:?} needs IDNA, and iri-grammar was built without its idna feature"
            ),
        }
    }
}

impl core::error::Error for IdnaError {}

#[cfg(feature = "idna")]
const UTS46: Uts46 = Uts46::new();

#[cfg(feature = "idna")]
/// Whether `ascii` may stand as (part of) a host: an RFC 3986 `reg-name` without
/// percent-encodings.
fn is_plain_reg_name(ascii: &str) -> bool {
    !ascii.contains('%') && crate::grammar::is_compiled_match!(Uri, Rule::IregName, ascii)
}

#[cfg(feature = "idna")]
/// UTS 46 ToASCII of `text`, checked: the result is a plain `reg-name`.
fn to_ascii(text: &str) -> Result<Cow<'_, str>, IdnaError> {
    let fail = |reason| IdnaError {
        label: text.to_string(),
        reason,
    };
    match UTS46.to_ascii(
        text.as_bytes(),
        AsciiDenyList::URL,
        Hyphens::Allow,
        idna::uts46::DnsLength::Ignore,
    ) {
        Ok(ascii) => one_host(text, ascii),
        Err(_) => Err(fail(rejection(text))),
    }
}

#[cfg(feature = "idna")]
/// `ascii`, the ToASCII form UTS 46 gave `text`, if it is one host: a plain
/// `reg-name`. Otherwise the error that says what it became.
fn one_host<'a>(text: &str, ascii: Cow<'a, str>) -> Result<Cow<'a, str>, IdnaError> {
    if is_plain_reg_name(&ascii) {
        Ok(ascii)
    } else {
        Err(IdnaError {
            label: text.to_string(),
            reason: IdnaReason::NotOneHost(ascii.into_owned()),
        })
    }
}

#[cfg(feature = "idna")]
/// Why ToASCII with the deny list failed: if mapping without it gives a delimiter,
/// say so (that is the spoofing case); otherwise UTS 46 rejects the text itself.
#[cold]
fn rejection(text: &str) -> IdnaReason {
    match UTS46.to_ascii(
        text.as_bytes(),
        AsciiDenyList::EMPTY,
        Hyphens::Allow,
        idna::uts46::DnsLength::Ignore,
    ) {
        Ok(mapped) if !is_plain_reg_name(&mapped) => IdnaReason::NotOneHost(mapped.into_owned()),
        _ => IdnaReason::Rejected,
    }
}

/// Whether a label is an ACE label (ASCII, starting with `xn--` in any case), the
/// form ToUnicode decodes.
#[inline]
pub(crate) fn is_ace(label: &str) -> bool {
    starts_like_ace(label) && label.is_ascii()
}

/// Whether `text` starts with the ACE prefix `xn--` (ASCII case aside).
fn starts_like_ace(text: &str) -> bool {
    text.as_bytes()
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"xn--"))
}

/// The labels of a host, split at each full stop. (`str::split('.')` searches with
/// `memchr`, whose set-up costs more than hosts are long: a sixth of a non-ASCII
/// host's comparison form went to four such splits.)
fn labels(host: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(host);
    core::iter::from_fn(move || {
        let text = rest?;
        match text.bytes().position(|b| b == b'.') {
            Some(dot) => {
                rest = Some(&text[dot + 1..]);
                Some(&text[..dot])
            }
            None => rest.take(),
        }
    })
}

/// Whether a host has an ACE label.
pub(crate) fn has_ace_label(host: &str) -> bool {
    // Most hosts have no hyphen, which every ACE label has: found a word at a time.
    crate::byte_search::first_byte(host.as_bytes(), b'-').is_some() && labels(host).any(is_ace)
}

#[cfg(feature = "idna")]
/// ToASCII of a host for RFC 3987 §3.1: labels with non-ASCII characters through UTS
/// 46, ASCII labels as written. Appends the result to `out`; on error appends nothing.
///
/// ```
/// use iri_grammar::idn::host_to_ascii;
/// let mut out = String::new();
/// host_to_ascii("Résumé.Example.org", &mut out).unwrap();
/// assert_eq!(out, "xn--rsum-bpad.Example.org");
/// // U+FE6B SMALL COMMERCIAL AT would map to "@": refused.
/// assert!(host_to_ascii("evil.example\u{FE6B}bank.example", &mut String::new()).is_err());
/// ```
pub fn host_to_ascii(host: &str, out: &mut String) -> Result<(), IdnaError> {
    if host.is_ascii() {
        out.push_str(host);
        return Ok(());
    }
    let start = out.len();
    for (k, label) in labels(host).enumerate() {
        if k > 0 {
            out.push('.');
        }
        if label.is_ascii() {
            out.push_str(label);
            continue;
        }
        match to_ascii(label) {
            Ok(a) => out.push_str(&a),
            Err(e) => {
                out.truncate(start);
                return Err(e);
            }
        }
    }
    Ok(())
}

#[cfg(feature = "idna")]
/// ToUnicode of an ACE label (RFC 3987 §3.2), when the Unicode form is safe to show:
/// UTS 46 finds no error, every character passes `allowed`, and ToASCII of the
/// result gives the label back (so converting back is lossless and the form is
/// stable). `None` otherwise: the label stays as it is.
///
/// ```
/// use iri_grammar::idn::label_to_unicode;
/// assert_eq!(label_to_unicode("xn--99zt52a", |_| true).as_deref(), Some("納豆"));
/// assert_eq!(label_to_unicode("XN--99ZT52A", |_| true).as_deref(), Some("納豆"));
/// // Decodes, but its Unicode form would not give this ACE label back.
/// assert_eq!(label_to_unicode("xn--xn----aa--aa--aa-nis", |_| true), None);
/// ```
pub fn label_to_unicode(label: &str, allowed: impl Fn(char) -> bool) -> Option<String> {
    if !is_ace(label) {
        return None;
    }
    let (unicode, result) = UTS46.to_unicode(label.as_bytes(), AsciiDenyList::URL, Hyphens::Allow);
    if result.is_err()
        || unicode.contains('.')
        || !unicode.chars().all(|c| c.is_ascii() || allowed(c))
    {
        return None;
    }
    gives_back(&unicode, label).then(|| unicode.into_owned())
}

#[cfg(feature = "idna")]
/// Whether ToASCII of `unicode`, the ToUnicode of ACE label `label` without error,
/// gives `label` back (ASCII case aside). UTS 46 ToUnicode accepts a decoded label
/// only if mapping and NFC leave it as it is (idna's `after_punycode_decode`), so
/// ToASCII of a label beyond ASCII is `xn--` and its Punycode: one encoding, not a
/// second pass through UTS 46 (a third of the cost of a host's comparison form).
/// Except for text that starts like an ACE label itself (`xn---\u{5A2}-aa--aa--aa`,
/// from `xn--xn----aa--aa--aa-nis`): ToASCII takes it for one, and its decoding
/// fails. ASCII text is left to ToASCII.
/// `tests::the_round_trip_is_toascii_of_tounicode` checks this against ToASCII.
fn gives_back(unicode: &str, label: &str) -> bool {
    if !starts_like_ace(label) {
        return false;
    }
    if unicode.is_ascii() || starts_like_ace(unicode) {
        return to_ascii(unicode).is_ok_and(|back| back.eq_ignore_ascii_case(label));
    }
    let Some(code) = idna::punycode::encode_str(unicode) else {
        return false;
    };
    label.len() == 4 + code.len() && label[4..].eq_ignore_ascii_case(&code)
}

/// The comparison form of a host when it needs no UTS 46 (`None`: UTS 46 decides).
/// An ASCII host without ACE labels is its own ASCII lowercase (a test checks this
/// against UTS 46 on generated hosts). A host that keeps percent-encodings (the
/// caller aligned it: what is left encoded may not be decoded in a host) is
/// [`encoded_host_form`]'s.
fn comparison_form_without_uts46(host: &str) -> Option<Result<Cow<'_, str>, IdnaError>> {
    if host.contains('%') {
        return Some(encoded_host_form(host));
    }
    if host.is_ascii() && !has_ace_label(host) {
        return Some(Ok(if host.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(host.to_ascii_lowercase())
        } else {
            Cow::Borrowed(host)
        }));
    }
    None
}

/// The comparison form of a host with percent-encodings. An ASCII host whose
/// encodings are all of ASCII characters (`local%0Ahost`: a control, a space, a
/// delimiter, or a sub-delim whose encoding RFC 3986 §2.2 keeps apart from it) is
/// no DNS name: no host name holds these characters, so IDNA has nothing to say
/// of it. Scheme-based normalization needs no IDNA step (RFC 3986 §6.2.3; RFC 3987
/// §5.3.3 makes IDN equivalence a "may", for IDNs), so such a host is its own
/// form, ASCII letters in lowercase and the `%HH` as they are. Anything else is an
/// error that says what is there: octets that are not UTF-8, or a character IDNA
/// would have to read through its encoding.
fn encoded_host_form(host: &str) -> Result<Cow<'_, str>, IdnaError> {
    let bytes = host.as_bytes();
    let (mut not_utf8, mut beyond_ascii, mut ascii) = (false, None, None);
    let mut k = 0;
    while k < bytes.len() {
        let n = crate::pct::decode_run(&bytes[k..], |d| match d {
            crate::pct::Decoded::Octet(_) => not_utf8 = true,
            crate::pct::Decoded::Char(c, _) if c.is_ascii() => {
                ascii.get_or_insert(c);
            }
            crate::pct::Decoded::Char(c, _) => {
                beyond_ascii.get_or_insert(c);
            }
        });
        // Past the run, or to the next `%` (an ASCII byte, so a character boundary).
        k = match n {
            0 => bytes[k + 1..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(bytes.len(), |p| k + 1 + p),
            n => k + n,
        };
    }
    let reason = match (not_utf8, beyond_ascii, ascii) {
        (true, _, _) => IdnaReason::PercentEncoded,
        (false, Some(c), _) => IdnaReason::EncodedCharacter(c),
        (false, None, Some(_)) if host.is_ascii() => {
            let mut form = String::with_capacity(host.len());
            crate::pct::push_lowercase_outside_triplets(host, &mut form);
            return Ok(if form == host {
                Cow::Borrowed(host)
            } else {
                Cow::Owned(form)
            });
        }
        (false, None, Some(c)) => IdnaReason::EncodedCharacter(c),
        // A `%` without two hex digits, which no valid host has.
        (false, None, None) => IdnaReason::PercentEncoded,
    };
    Err(IdnaError {
        label: host.to_string(),
        reason,
    })
}

#[cfg(feature = "idna")]
/// The form of a DNS host that scheme-based comparison uses (RFC 3987 §5.3.3):
/// ToUnicode(ToASCII(host)), where every label's Unicode form passes `allowed` and
/// gives its ASCII form back; otherwise the ASCII form. An ASCII host without ACE
/// labels is its own ASCII lowercase (a test checks this against UTS 46 on generated
/// hosts), so it skips UTS 46.
///
/// ```
/// use iri_grammar::idn::comparison_form;
/// assert_eq!(comparison_form("XN--RSUM-BPAD.Example", |_| true).unwrap(), "résumé.example");
/// assert_eq!(comparison_form("Résumé.example", |_| false).unwrap(), "xn--rsum-bpad.example");
/// assert_eq!(comparison_form("WWW.Example.org", |_| true).unwrap(), "www.example.org");
/// assert!(comparison_form("e\u{FE56}x.c", |_| true).is_err());
/// ```
pub fn comparison_form(
    host: &str,
    allowed: impl Fn(char) -> bool,
) -> Result<Cow<'_, str>, IdnaError> {
    if let Some(form) = comparison_form_without_uts46(host) {
        return form;
    }
    // One UTS 46 pass gives both forms: ToUnicode in `unicode` and, when some label
    // is beyond ASCII, ToASCII in `ascii` (otherwise the two are one). ToUnicode of
    // each label of the ASCII form is then the label of the Unicode form at the same
    // place: the whole host passed UTS 46's checks, which are those of each label
    // and, for bidi, stricter, so no ACE label needs to go through UTS 46 again.
    // `tests::one_pass_gives_the_definition` checks this against ToUnicode of each
    // label of ToASCII(host).
    //
    // Room for the usual growth: a label's ACE form is at most a few bytes longer
    // than its UTF-8 (`xn--`, a hyphen); mapping seldom lengthens text.
    let mut unicode = String::with_capacity(host.len() + 8);
    let mut ascii = String::with_capacity(2 * host.len() + 8);
    let processed = UTS46.process(
        host.as_bytes(),
        AsciiDenyList::URL,
        Hyphens::Allow,
        idna::uts46::ErrorPolicy::FailFast,
        |_, _, _| true,
        &mut unicode,
        Some(&mut ascii),
    );
    if processed != Ok(idna::uts46::ProcessingSuccess::WroteToSink) {
        // UTS 46 fails (to_ascii says why) or leaves the host as it is.
        return comparison_form_label_by_label(&to_ascii(host)?, allowed).map(Cow::Owned);
    }
    if ascii.is_empty() {
        // No label beyond ASCII: UTS 46 wrote the ASCII form into `unicode` alone.
        return one_host(host, Cow::Owned(unicode));
    }
    let ascii = one_host(host, Cow::Owned(ascii))?;
    // Each label beyond ASCII is shown if it passes `allowed` and gives its ASCII
    // form back. Most hosts show all, and their form is `unicode` as it is: another
    // is written only from the first label that is not shown.
    let out = {
        let mut out: Option<String> = None;
        let (mut u_labels, mut a_labels) = (labels(&unicode), labels(&ascii));
        // Where `u` starts in `unicode`.
        let mut at = 0;
        loop {
            let (u, a) = match (u_labels.next(), a_labels.next()) {
                (Some(u), Some(a)) => (u, a),
                (None, None) => break out,
                // A label decoded to text with a full stop, which is not shown.
                _ => return comparison_form_label_by_label(&ascii, &allowed).map(Cow::Owned),
            };
            let shown =
                u == a || (u.chars().all(|c| c.is_ascii() || allowed(c)) && gives_back(u, a));
            if let Some(out) = &mut out {
                out.push('.');
                out.push_str(if shown { u } else { a });
            } else if !shown {
                let mut form = String::with_capacity(ascii.len());
                form.push_str(&unicode[..at]);
                form.push_str(a);
                out = Some(form);
            }
            at += u.len() + 1;
        }
    };
    Ok(Cow::Owned(out.unwrap_or(unicode)))
}

#[cfg(feature = "idna")]
/// The comparison form of a host from its ASCII form, each ACE label through
/// ToUnicode on its own: the definition [`comparison_form`] computes in one pass,
/// and its answer when a label decodes to text with a full stop.
fn comparison_form_label_by_label(
    ascii: &str,
    allowed: impl Fn(char) -> bool,
) -> Result<String, IdnaError> {
    let mut out = String::with_capacity(ascii.len());
    for (k, label) in labels(ascii).enumerate() {
        if k > 0 {
            out.push('.');
        }
        match label_to_unicode(label, &allowed) {
            Some(u) => out.push_str(&u),
            None => out.push_str(label),
        }
    }
    Ok(out)
}

#[cfg(feature = "idna")]
/// ToASCII of a whole host through UTS 46 (for preparation, IRI processing draft
/// §4: the host a person typed). Checked like the rest of this module.
pub(crate) fn domain_to_ascii(host: &str) -> Result<Cow<'_, str>, IdnaError> {
    to_ascii(host)
}

/// What the operations get without the `idna` feature: the same answers where no
/// UTS 46 is needed, [`IdnaReason::Unavailable`] where it is.
#[cfg(not(feature = "idna"))]
mod without_idna {
    use super::*;

    fn unavailable(text: &str) -> IdnaError {
        IdnaError {
            label: text.to_string(),
            reason: IdnaReason::Unavailable,
        }
    }

    pub(crate) fn host_to_ascii(host: &str, out: &mut String) -> Result<(), IdnaError> {
        if !host.is_ascii() {
            return Err(unavailable(host));
        }
        out.push_str(host);
        Ok(())
    }

    pub(crate) fn label_to_unicode(_: &str, _: impl Fn(char) -> bool) -> Option<String> {
        None
    }

    pub(crate) fn comparison_form(
        host: &str,
        _: impl Fn(char) -> bool,
    ) -> Result<Cow<'_, str>, IdnaError> {
        comparison_form_without_uts46(host).unwrap_or_else(|| Err(unavailable(host)))
    }
}

#[cfg(not(feature = "idna"))]
pub(crate) use without_idna::{comparison_form, host_to_ascii, label_to_unicode};

#[cfg(all(test, feature = "idna"))]
mod tests {
    use super::*;

    /// The fast path of [`comparison_form`] is sound: for ASCII hosts without ACE
    /// labels and without `%`, UTS 46 gives the ASCII lowercase, both ways.
    #[test]
    fn ascii_hosts_without_ace_labels_are_their_own_lowercase() {
        // Every reg-name character but "%", in every position of short labels.
        let chars: Vec<char> = ('a'..='z')
            .chain('A'..='Z')
            .chain('0'..='9')
            .chain("-._~!$&'()*+,;=".chars())
            .collect();
        let mut next = crate::testing::numbers(0x9E37_79B9_7F4A_7C15);
        let mut checked = 0;
        for _ in 0..20_000 {
            let len = next(12);
            let host: String = (0..len).map(|_| chars[next(chars.len())]).collect();
            if has_ace_label(&host) {
                continue;
            }
            let lower = host.to_ascii_lowercase();
            // With the deny list some ASCII hosts are refused by UTS 46 itself
            // (sub-delims are no LDH characters but URL's list allows them): then
            // the fast path must not be more lenient than the checked one.
            match to_ascii(&host) {
                Ok(a) => {
                    assert_eq!(a, lower, "{host:?}");
                    let (u, r) = UTS46.to_unicode(a.as_bytes(), AsciiDenyList::URL, Hyphens::Allow);
                    assert!(r.is_ok());
                    assert_eq!(u, lower, "{host:?}");
                    checked += 1;
                }
                Err(e) => panic!("{host:?}: {e}"),
            }
        }
        assert!(checked > 15_000);
    }

    /// [`gives_back`] answers as ToASCII of the Unicode form would: on ACE labels
    /// made from text of many kinds (mapped, not NFC, joiners, right-to-left, case),
    /// their case changed, and `xn--` with arbitrary tails.
    #[test]
    fn the_round_trip_is_toascii_of_tounicode() {
        let pool: Vec<char> =
            "abcxyz09-AZÉéßςΣσ\u{301}e\u{200D}\u{200C}אב١٣عﻻＡｂ。納豆한ﬁ\u{1F600}ǅİı"
                .chars()
                .collect();
        let mut next = crate::testing::numbers(0x2545_F491_4F6C_DD1D);
        let (mut labels, mut decoded) = (0, 0);
        for _ in 0..40_000 {
            let label = if next(2) == 0 {
                // Arbitrary tails: some decode to text that encodes otherwise
                // (`xn--xn----aa--aa--aa-nis`).
                let tail: String = (0..1 + next(24))
                    .map(|_| char::from(b"abcnsxz0189--"[next(13)]))
                    .collect();
                format!("xn--{tail}")
            } else {
                // Text that itself starts like an ACE label decodes without error,
                // but ToASCII takes it for one and fails.
                let start = ["", "", "xn--", "XN-", "xn-"][next(5)];
                let text: String = start
                    .chars()
                    .chain((0..1 + next(6)).map(|_| pool[next(pool.len())]))
                    .collect();
                let Some(code) = idna::punycode::encode_str(&text) else {
                    continue;
                };
                let label = format!("xn--{code}");
                if next(3) == 0 {
                    label.to_ascii_uppercase()
                } else {
                    label
                }
            };
            let (unicode, result) =
                UTS46.to_unicode(label.as_bytes(), AsciiDenyList::URL, Hyphens::Allow);
            if result.is_err() || unicode.contains('.') {
                continue;
            }
            let by_toascii = to_ascii(&unicode).is_ok_and(|b| b.eq_ignore_ascii_case(&label));
            assert_eq!(
                gives_back(&unicode, &label),
                by_toascii,
                "{label:?} -> {unicode:?}"
            );
            labels += 1;
            decoded += usize::from(by_toascii);
        }

        // Both answers occur often enough to mean something.
        assert!(
            labels > 3_000 && decoded > 1_000 && labels - decoded > 100,
            "{labels} labels, {decoded} given back"
        );
    }

    /// [`comparison_form`]'s one UTS 46 pass gives what its definition gives:
    /// ToASCII of the host, then ToUnicode of each ACE label on its own, shown if it
    /// passes `allowed` and gives the label back. Hosts of one to four labels, each
    /// ASCII (any case), beyond ASCII (mapped, not NFC, joiners, right-to-left,
    /// look-alikes of delimiters, ideographic full stops), an ACE label of such text
    /// or `xn--` with an arbitrary tail; three `allowed` policies.
    #[test]
    fn one_pass_gives_the_definition() {
        let pool: Vec<char> = "abcxyz09-AZÉéßςΣσeＡｂ。納豆한ﬁ\u{1F600}ǅİı"
            .chars()
            .collect();
        // Rarer, as most hosts with them are refused: right-to-left characters (the
        // bidi rule), joiners and a combining mark (their context rules); look-alikes
        // of delimiters and characters a host cannot have.
        let tricky: Vec<char> = "\u{301}\u{200D}\u{200C}אב١٣عﻻ".chars().collect();
        let bad: Vec<char> = "\u{FE6B}\u{FF0F}\u{FF0E}\u{FF02}_~!$'".chars().collect();
        fn definition(host: &str, allowed: &dyn Fn(char) -> bool) -> Result<String, IdnaError> {
            match comparison_form_without_uts46(host) {
                Some(form) => form.map(Cow::into_owned),
                None => comparison_form_label_by_label(&to_ascii(host)?, allowed),
            }
        }
        let policies: [&dyn Fn(char) -> bool; 3] = [&|_| true, &|c| c < '\u{590}', &|c| {
            !('\u{590}'..'\u{900}').contains(&c)
        }];
        let mut next = crate::testing::numbers(0x6A09_E667_F3BC_C908);
        let (mut hosts, mut shown, mut refused) = (0, 0, 0);
        for _ in 0..30_000 {
            let labels: Vec<String> = (0..1 + next(4))
                .map(|_| {
                    let ace = |text: &str, next: &mut dyn FnMut(usize) -> usize| {
                        match idna::punycode::encode_str(text) {
                            Some(code) if next(3) == 0 => format!("XN--{code}"),
                            Some(code) => format!("xn--{code}"),
                            None => "a".into(),
                        }
                    };
                    let text = |next: &mut dyn FnMut(usize) -> usize| -> String {
                        (0..1 + next(6))
                            .map(|_| match next(40) {
                                0 => bad[next(bad.len())],
                                1..=6 => tricky[next(tricky.len())],
                                _ => pool[next(pool.len())],
                            })
                            .collect()
                    };
                    match next(8) {
                        0..=2 => (0..1 + next(8))
                            .map(|_| char::from(b"abcXYZ019-"[next(10)]))
                            .collect(),
                        3 | 4 => text(&mut next),
                        5 | 6 => {
                            // Mostly of text as UTS 46 maps it (else its decoding is
                            // refused as not mapped).
                            let raw = text(&mut next);
                            let mapped = match next(4) {
                                0 => raw,
                                _ => UTS46
                                    .to_unicode(raw.as_bytes(), AsciiDenyList::URL, Hyphens::Allow)
                                    .0
                                    .replace('.', ""),
                            };
                            // Labels that decode to ASCII are refused: not many.
                            match mapped.is_ascii() {
                                true => ace(&format!("{mapped}納"), &mut next),
                                false => ace(&mapped, &mut next),
                            }
                        }
                        _ => {
                            let tail: String = (0..1 + next(16))
                                .map(|_| char::from(b"abcnsxz0189--"[next(13)]))
                                .collect();
                            format!("xn--{tail}")
                        }
                    }
                })
                .collect();
            let host = labels.join(".");
            let allowed = policies[next(3)];
            let fast = comparison_form(&host, allowed).map(Cow::into_owned);
            assert_eq!(fast, definition(&host, allowed), "{host:?}");
            hosts += 1;
            match fast {
                Ok(form) => shown += usize::from(!form.is_ascii()),
                Err(_) => refused += 1,
            }
        }
        // Every kind of answer occurs often enough to mean something.
        assert!(
            shown > 4_000 && refused > 10_000 && hosts - shown - refused > 4_000,
            "{hosts} hosts, {shown} shown beyond ASCII, {refused} refused"
        );
    }

    #[test]
    fn delimiters_made_by_mapping_are_refused() {
        for (host, mapped) in [
            ("evil.example\u{FE6B}bank.example", '@'),
            ("a\u{FF0F}b.c", '/'),
            ("\u{FE56}", '?'),
            ("\u{FF05}aa", '%'),
            ("a\u{FF03}b", '#'),
            ("a\u{FF1A}b", ':'),
            ("a\u{FF3B}b", '['),
        ] {
            let e = to_ascii(host).unwrap_err();
            match e.reason {
                IdnaReason::NotOneHost(m) => assert!(m.contains(mapped), "{host:?}: {m:?}"),
                other => panic!("{host:?}: {other:?}"),
            }
        }
        // Characters UTS 46 maps to ASCII that the deny list lets through but a host
        // cannot have: caught by the reg-name check.
        assert!(to_ascii("a\u{FF02}b").is_err());
    }
}
