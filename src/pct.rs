//! Percent-encoding (RFC 3986 §2.1): `pct-encoded = "%" HEXDIG HEXDIG`, one octet
//! written as two hexadecimal digits, and the UTF-8 reading of octets that RFC 3987
//! §3.2 step 3 asks for.
//!
//! This is the one place where octets become `%HH` and back. Octets are written with
//! uppercase hex digits, as RFC 3986 §2.1 says producers SHOULD.
//!
//! ```
//! use iri_grammar::{pct::{self, EncodeSet}, Iri, Uri};
//! // Text for a component: what its rule does not allow, percent-encoded.
//! assert_eq!(pct::encode::<Iri>("a b/ü?", EncodeSet::Segment), "a%20b%2Fü%3F");
//! assert_eq!(pct::encode::<Uri>("a b/ü?", EncodeSet::Query), "a%20b/%C3%BC?");
//! // Decoding: strict UTF-8, what is not UTF-8 stays encoded.
//! assert_eq!(pct::decode("ros%C3%A9%FF"), "rosé%FF");
//! let mut out = String::new();
//! pct::encode_char('é', &mut out);
//! assert_eq!(out, "%C3%A9");
//! ```
//!
//! Encoding is per grammar and per component: a character is kept when the
//! component's rule allows it in grammar `V` ([`allows`]), so `ü` stays in an IRI
//! and is encoded in a URI, and `?` stays in a query and is encoded in a segment.
//! [`encode`] takes text as data (every `%` becomes `%25`); [`encode_invalid`] takes
//! text that may already hold percent-encodings, keeps each valid `%HH`, and
//! encodes only what does not fit (a `%` without two hex digits becomes `%25`).

use crate::chars::{ascii_set, leiri_only_ascii, PCHAR, SUB_DELIMS, UNRESERVED};
use crate::grammar::Component;
use crate::grammar::{is_compiled_match, Rule, Variant, VariantName};
use alloc::borrow::Cow;
use alloc::string::String;

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// `%00%01…%FF`: the triplet of every octet, to copy rather than compose.
const TRIPLETS: &str = {
    const BYTES: [u8; 768] = {
        let mut t = [0u8; 768];
        let mut o = 0;
        while o < 256 {
            t[3 * o] = b'%';
            t[3 * o + 1] = UPPER_HEX[o >> 4];
            t[3 * o + 2] = UPPER_HEX[o & 15];
            o += 1;
        }
        t
    };
    match core::str::from_utf8(&BYTES) {
        Ok(s) => s,
        Err(_) => panic!("ASCII"),
    }
};

/// Appends `%HH` of one octet, uppercase.
///
/// ```
/// let mut out = String::new();
/// iri_grammar::pct::encode_octet(0x2f, &mut out);
/// assert_eq!(out, "%2F");
/// ```
#[inline]
pub fn encode_octet(octet: u8, out: &mut String) {
    let at = 3 * usize::from(octet);
    out.push_str(&TRIPLETS[at..at + 3]);
}

/// Appends `%HH` of each UTF-8 octet of `c` (RFC 3987 §3.1 step 2).
///
/// ```
/// let mut out = String::new();
/// iri_grammar::pct::encode_char('\u{10300}', &mut out);
/// assert_eq!(out, "%F0%90%8C%80");
/// ```
#[inline]
pub fn encode_char(c: char, out: &mut String) {
    let mut buf = [0u8; 4];
    encode_octets(c.encode_utf8(&mut buf).as_bytes(), out);
}

/// Appends `%HH` of each octet of `octets`, uppercase: the triplets of up to 16
/// octets are put together on the stack and appended at once, rather than three
/// bytes at a time.
///
/// ```
/// let mut out = String::new();
/// iri_grammar::pct::encode_octets("納豆".as_bytes(), &mut out);
/// assert_eq!(out, "%E7%B4%8D%E8%B1%86");
/// ```
pub fn encode_octets(octets: &[u8], out: &mut String) {
    out.reserve(3 * octets.len());
    let triplets = TRIPLETS.as_bytes();
    for chunk in octets.chunks(16) {
        let mut buf = [0u8; 48];
        for (k, &o) in chunk.iter().enumerate() {
            let at = 3 * usize::from(o);
            buf[3 * k..3 * k + 3].copy_from_slice(&triplets[at..at + 3]);
        }
        let ascii = &buf[..3 * chunk.len()];
        debug_assert!(ascii.is_ascii());
        // SAFETY: every byte of `buf` was copied from TRIPLETS, which is ASCII (its
        // bytes are `%` and hex digits, and its constant is built by `from_utf8`), so
        // any prefix of it is UTF-8; checking it again would be work on every encoding.
        out.push_str(unsafe { core::str::from_utf8_unchecked(ascii) });
    }
}

/// Appends `text`, each character `keep` rejects as `%HH` of its UTF-8 octets. Runs of
/// kept characters are copied whole.
///
/// ```
/// let mut out = String::new();
/// iri_grammar::pct::encode_unless("a b/é", |c| c.is_ascii_alphanumeric() || c == '/', &mut out);
/// assert_eq!(out, "a%20b/%C3%A9");
/// ```
pub fn encode_unless(text: &str, keep: impl Fn(char) -> bool, out: &mut String) {
    let mut copied = 0;
    for (k, c) in text.char_indices() {
        if !keep(c) {
            out.push_str(&text[copied..k]);
            encode_char(c, out);
            copied = k + c.len_utf8();
        }
    }
    out.push_str(&text[copied..]);
}

/// Where encoded text goes: each set is the characters one component's rule allows
/// as themselves (the rule's `pct-encoded` aside), in the grammar of the call.
///
/// ```
/// use iri_grammar::{pct::EncodeSet, Rule};
/// assert_eq!(EncodeSet::Query.rule(), Rule::Iquery);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeSet {
    /// `iuserinfo` (RFC 3987 §2.2; `userinfo`, RFC 3986 §3.2.1): `iunreserved`,
    /// `sub-delims`, `:`.
    Userinfo,
    /// `ireg-name` (`reg-name`, RFC 3986 §3.2.2): `iunreserved`, `sub-delims`.
    RegName,
    /// One `isegment` (`segment`, RFC 3986 §3.3): `ipchar`; `/` is encoded, so the
    /// text stays one segment.
    Segment,
    /// `isegment-nz-nc`: `ipchar` but `:`, the first segment of a relative path
    /// (RFC 3986 §4.2: a `:` there would read as a scheme).
    SegmentNoColon,
    /// A path: `ipchar` and `/`.
    Path,
    /// `iquery` (RFC 3986 §3.4): `ipchar`, `iprivate`, `/`, `?`.
    Query,
    /// A name or a value in a query of `name=value` pairs joined by `&`: as
    /// [`EncodeSet::Query`], with `&`, `=` and `+` encoded too (the delimiters of
    /// HTML forms, which a value must not be read as).
    QueryPair,
    /// `ifragment` (RFC 3986 §3.5): `ipchar`, `/`, `?`.
    Fragment,
}

impl EncodeSet {
    /// The rule whose characters the set is.
    pub fn rule(self) -> Rule {
        match self {
            EncodeSet::Userinfo => Rule::Iuserinfo,
            EncodeSet::RegName => Rule::IregName,
            EncodeSet::Segment | EncodeSet::Path => Rule::Isegment,
            EncodeSet::SegmentNoColon => Rule::IsegmentNzNc,
            EncodeSet::Query | EncodeSet::QueryPair => Rule::Iquery,
            EncodeSet::Fragment => Rule::Ifragment,
        }
    }

    /// The component the set is for.
    pub fn component(self) -> Component {
        match self {
            EncodeSet::Userinfo => Component::Userinfo,
            EncodeSet::RegName => Component::Host,
            EncodeSet::Segment | EncodeSet::SegmentNoColon | EncodeSet::Path => Component::Path,
            EncodeSet::Query | EncodeSet::QueryPair => Component::Query,
            EncodeSet::Fragment => Component::Fragment,
        }
    }

    /// The ASCII characters the set keeps in URIs and IRIs (a bit per code point).
    const fn ascii(self) -> u128 {
        const UNRESERVED_SUB_DELIMS: u128 = UNRESERVED | SUB_DELIMS;
        match self {
            EncodeSet::Userinfo => UNRESERVED_SUB_DELIMS | ascii_set(":"),
            EncodeSet::RegName => UNRESERVED_SUB_DELIMS,
            EncodeSet::Segment => PCHAR,
            EncodeSet::SegmentNoColon => PCHAR & !ascii_set(":"),
            EncodeSet::Path => PCHAR | ascii_set("/"),
            EncodeSet::Query | EncodeSet::Fragment => PCHAR | ascii_set("/?"),
            EncodeSet::QueryPair => (PCHAR | ascii_set("/?")) & !ascii_set("&=+"),
        }
    }
}

/// Whether `c` may stand as itself in text of `set` in grammar `V` (`%` never: it
/// starts a `pct-encoded`). ASCII by the set's table (plus, in a LEIRI, the
/// US-ASCII characters the LEIRI note adds to `ucschar`); beyond ASCII, by the
/// grammar itself: whether the rule matches the character.
///
/// ```
/// use iri_grammar::{pct::{allows, EncodeSet}, Iri, Leiri, Uri};
/// assert!(allows::<Iri>(EncodeSet::Path, 'é') && !allows::<Uri>(EncodeSet::Path, 'é'));
/// assert!(allows::<Iri>(EncodeSet::Query, '\u{E000}') && !allows::<Iri>(EncodeSet::Path, '\u{E000}'));
/// assert!(allows::<Leiri>(EncodeSet::Path, ' ') && !allows::<Iri>(EncodeSet::Path, ' '));
/// assert!(!allows::<Iri>(EncodeSet::QueryPair, '&'));
/// ```
pub fn allows<V: Variant>(set: EncodeSet, c: char) -> bool {
    if c.is_ascii() {
        return set.ascii() & (1 << (c as u32)) != 0
            || (V::NAME == VariantName::Leiri && leiri_only_ascii(c));
    }
    let mut buf = [0u8; 4];
    let c = &*c.encode_utf8(&mut buf);
    // One arm per rule, so that each is known to be compiled (`set.rule()`).
    match set {
        EncodeSet::Userinfo => is_compiled_match!(V, Rule::Iuserinfo, c),
        EncodeSet::RegName => is_compiled_match!(V, Rule::IregName, c),
        EncodeSet::Segment | EncodeSet::Path => is_compiled_match!(V, Rule::Isegment, c),
        EncodeSet::SegmentNoColon => is_compiled_match!(V, Rule::IsegmentNzNc, c),
        EncodeSet::Query | EncodeSet::QueryPair => is_compiled_match!(V, Rule::Iquery, c),
        EncodeSet::Fragment => is_compiled_match!(V, Rule::Ifragment, c),
    }
}

/// `text` as data for a component of grammar `V`: every character `set` does not
/// allow ([`allows`]), and every `%`, percent-encoded as UTF-8 (uppercase hex).
/// Borrowed when nothing needs encoding.
///
/// ```
/// use iri_grammar::{pct::{encode, EncodeSet}, Iri};
/// assert_eq!(encode::<Iri>("100% sûr", EncodeSet::Fragment), "100%25%20sûr");
/// assert_eq!(encode::<Iri>("a=b&c", EncodeSet::QueryPair), "a%3Db%26c");
/// assert!(matches!(encode::<Iri>("plain", EncodeSet::Path), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn encode<V: Variant>(text: &str, set: EncodeSet) -> Cow<'_, str> {
    encode_with(text, |c| c != '%' && allows::<V>(set, c))
}

/// [`encode`], appending to `out`.
pub fn encode_into<V: Variant>(text: &str, set: EncodeSet, out: &mut String) {
    encode_unless(text, |c| c != '%' && allows::<V>(set, c), out);
}

/// `text` made to fit a component of grammar `V`: each valid `pct-encoded` is
/// kept as it is, a `%` that starts none becomes `%25`, and every other character
/// `set` does not allow is percent-encoded. Text that fits already is returned
/// borrowed (for valid text this is the identity).
///
/// ```
/// use iri_grammar::{pct::{encode_invalid, EncodeSet}, Uri};
/// assert_eq!(encode_invalid::<Uri>("a%20b c%zz", EncodeSet::Path), "a%20b%20c%25zz");
/// ```
pub fn encode_invalid<V: Variant>(text: &str, set: EncodeSet) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let fits = |k: usize, c: char| {
        if c == '%' {
            octet_at(bytes, k).is_some()
        } else {
            allows::<V>(set, c)
        }
    };
    match text.char_indices().find(|&(k, c)| !fits(k, c)) {
        None => Cow::Borrowed(text),
        Some((first, _)) => {
            let mut out = String::with_capacity(text.len() + 8);
            out.push_str(&text[..first]);
            for (k, c) in text[first..].char_indices() {
                if fits(first + k, c) {
                    out.push(c);
                } else {
                    encode_char(c, &mut out);
                }
            }
            Cow::Owned(out)
        }
    }
}

/// `text` with every character `keep` rejects encoded; borrowed if none is.
fn encode_with(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    match text.char_indices().find(|&(_, c)| !keep(c)) {
        None => Cow::Borrowed(text),
        Some((first, _)) => {
            let mut out = String::with_capacity(text.len() + 8);
            out.push_str(&text[..first]);
            encode_unless(&text[first..], keep, &mut out);
            Cow::Owned(out)
        }
    }
}

/// Writes `text` with its ASCII letters in lowercase, except the hex digits of its
/// `%HH` triplets, which keep their case (RFC 3986 §6.2.2.1 gives them uppercase).
pub(crate) fn push_lowercase_outside_triplets(text: &str, out: &mut String) {
    let mut hex_left = 0;
    for c in text.chars() {
        if hex_left > 0 {
            hex_left -= 1;
            out.push(c);
        } else if c == '%' {
            hex_left = 2;
            out.push(c);
        } else {
            out.push(c.to_ascii_lowercase());
        }
    }
}

/// The value of a hexadecimal digit (`HEXDIG`, either case).
#[inline]
pub fn hex_value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The octet of the `pct-encoded` at `bytes[k..]`, if there is one.
///
/// ```
/// assert_eq!(iri_grammar::pct::octet_at(b"a%2fb", 1), Some(0x2f));
/// assert_eq!(iri_grammar::pct::octet_at(b"%2", 0), None);
/// ```
#[inline]
pub fn octet_at(bytes: &[u8], k: usize) -> Option<u8> {
    match bytes.get(k..k + 3)? {
        [b'%', h, l] => Some(hex_value(*h)? << 4 | hex_value(*l)?),
        _ => None,
    }
}

/// A piece of text after percent-decoding a run of `pct-encoded` octets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decoded {
    /// A character whose UTF-8 octets were all percent-encoded, with the byte length
    /// of its encoded form in the text.
    Char(char, usize),
    /// An octet that is not part of a strictly legal UTF-8 sequence (RFC 3629: no
    /// overlong forms, no surrogates, nothing beyond U+10FFFF): it can only stay
    /// encoded (RFC 3987 §3.2 step 3).
    Octet(u8),
}

/// Reads the run of `pct-encoded` octets at the start of `bytes` as strict UTF-8,
/// calling `f` for each character or stray octet, in order; returns the length of the
/// run in bytes (0 if `bytes` does not start with a `pct-encoded`).
///
/// ```
/// use iri_grammar::pct::{decode_run, Decoded};
/// let mut seen = Vec::new();
/// let n = decode_run(b"%C3%A9%FFx", |d| seen.push(d));
/// assert_eq!(n, 9);
/// assert_eq!(seen, [Decoded::Char('é', 6), Decoded::Octet(0xFF)]);
/// ```
pub fn decode_run(bytes: &[u8], mut f: impl FnMut(Decoded)) -> usize {
    let mut k = 0;
    while let Some(lead) = octet_at(bytes, k) {
        match char_at(bytes, k, lead) {
            Some(c) => {
                let n = 3 * c.len_utf8();
                f(Decoded::Char(c, n));
                k += n;
            }
            None => {
                f(Decoded::Octet(lead));
                k += 3;
            }
        }
    }
    k
}

/// The character whose UTF-8 octets are percent-encoded at `bytes[k..]`, the first
/// being `lead`: RFC 3629's table of well-formed sequences, so that overlong forms,
/// surrogates and code points beyond U+10FFFF are no characters.
#[inline]
fn char_at(bytes: &[u8], k: usize, lead: u8) -> Option<char> {
    let (len, second) = match lead {
        0x00..=0x7F => return Some(char::from(lead)),
        0xC2..=0xDF => (2, 0x80..=0xBF),
        0xE0 => (3, 0xA0..=0xBF),
        0xE1..=0xEC | 0xEE..=0xEF => (3, 0x80..=0xBF),
        0xED => (3, 0x80..=0x9F),
        0xF0 => (4, 0x90..=0xBF),
        0xF1..=0xF3 => (4, 0x80..=0xBF),
        0xF4 => (4, 0x80..=0x8F),
        _ => return None,
    };
    let mut octets = [lead, 0, 0, 0];
    for (n, slot) in octets.iter_mut().enumerate().take(len).skip(1) {
        let o = octet_at(bytes, k + 3 * n)?;
        let fits = if n == 1 {
            second.contains(&o)
        } else {
            (0x80..=0xBF).contains(&o)
        };
        if !fits {
            return None;
        }
        *slot = o;
    }
    core::str::from_utf8(&octets[..len]).ok()?.chars().next()
}

/// Decodes every `pct-encoded` whose octets form strictly legal UTF-8; octets that do
/// not stay encoded, in uppercase. Text that is not percent-encoded is kept as it is.
///
/// This is a plain decoding, not the conversion of RFC 3987 §3.2 (which keeps reserved
/// characters and some others encoded: see `convert::to_iri`).
///
/// ```
/// use iri_grammar::pct::decode;
/// assert_eq!(decode("D%C3%BCrst"), "Dürst");
/// assert_eq!(decode("D%FCrst"), "D%FCrst");
/// assert_eq!(decode("a%2fb"), "a/b");
/// assert!(matches!(decode("plain"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn decode(text: &str) -> Cow<'_, str> {
    let Some(first) = text.find('%') else {
        return Cow::Borrowed(text);
    };
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..first]);
    let mut k = first;
    while k < bytes.len() {
        let n = decode_run(&bytes[k..], |d| match d {
            Decoded::Char(c, _) => out.push(c),
            Decoded::Octet(b) => encode_octet(b, &mut out),
        });
        if n == 0 {
            // By bytes: the character at `k` may be more than one byte long (a run
            // just decoded can be followed by any character).
            let next = bytes[k + 1..]
                .iter()
                .position(|&b| b == b'%')
                .map_or(text.len(), |p| k + 1 + p);
            out.push_str(&text[k..next]);
            k = next;
        } else {
            k += n;
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grammar::{is_match, Iri, Leiri, Uri};

    /// Every encode set.
    const SETS: [EncodeSet; 8] = [
        EncodeSet::Userinfo,
        EncodeSet::RegName,
        EncodeSet::Segment,
        EncodeSet::SegmentNoColon,
        EncodeSet::Path,
        EncodeSet::Query,
        EncodeSet::QueryPair,
        EncodeSet::Fragment,
    ];

    /// Beyond ASCII, `allows` asks the compiled rule of each set: it agrees with
    /// `is_match` of `set.rule()` on characters of every class RFC 3987 names
    /// (`ucschar`, `iprivate`, neither) and the LEIRI note's additions.
    #[test]
    fn non_ascii_is_the_rule() {
        fn check<V: Variant>() {
            let chars = [
                '\u{80}',
                '\u{A0}',
                'é',
                '\u{D7FF}',
                '\u{E000}',
                '\u{F8FF}',
                '\u{F900}',
                '\u{FDD0}',
                '\u{FDF0}',
                '\u{FFEF}',
                '\u{FFFD}',
                '\u{FFFF}',
                '\u{10000}',
                '\u{1FFFD}',
                '\u{1FFFE}',
                '\u{E1000}',
                '\u{F0000}',
                '\u{10FFFD}',
                '\u{10FFFF}',
            ];
            for set in SETS {
                for c in chars {
                    let by_rule = is_match::<V>(set.rule(), c.encode_utf8(&mut [0; 4]));
                    assert_eq!(allows::<V>(set, c), by_rule, "{set:?} {c:?} {:?}", V::NAME);
                }
            }
        }
        check::<Uri>();
        check::<Iri>();
        check::<Leiri>();
    }

    /// The ASCII tables are the grammar's: for every set, grammar and ASCII
    /// character, `allows` agrees with matching the set's rule.
    #[test]
    fn ascii_tables_are_the_rules() {
        fn check<V: Variant>() {
            for set in SETS {
                for b in 0..128u8 {
                    let c = char::from(b);
                    let s = c.to_string();
                    let by_rule = match set {
                        EncodeSet::Path => c == '/' || is_match::<V>(Rule::Isegment, &s),
                        EncodeSet::QueryPair => {
                            !"&=+".contains(c) && is_match::<V>(Rule::Iquery, &s)
                        }
                        _ => is_match::<V>(set.rule(), &s),
                    };
                    assert_eq!(allows::<V>(set, c), by_rule, "{set:?} {c:?} {:?}", V::NAME);
                }
            }
        }
        check::<Uri>();
        check::<Iri>();
        check::<Leiri>();
    }

    #[test]
    fn encode_then_decode_is_the_text() {
        for text in ["a b", "100%", "x/y?z#w", "é\u{E000}&=", "%41"] {
            for set in [EncodeSet::Segment, EncodeSet::Query, EncodeSet::QueryPair] {
                let e = encode::<Uri>(text, set);
                assert!(e.is_ascii(), "{e}");
                assert_eq!(decode(&e), text, "{set:?}");
                assert_eq!(encode_invalid::<Uri>(&e, set), e);
            }
        }
    }

    fn run(s: &str) -> (usize, Vec<Decoded>) {
        let mut v = Vec::new();
        let n = decode_run(s.as_bytes(), |d| v.push(d));
        (n, v)
    }

    #[test]
    fn decode_after_a_run_before_a_wide_character() {
        // The run "%41" is followed by a three-byte character, then a percent.
        assert_eq!(decode("%41\u{202E}x%42"), "A\u{202E}xB");
        assert_eq!(decode("%FF\u{E9}%"), "%FF\u{E9}%");
    }

    #[test]
    fn strict_utf8() {
        // Overlong "/", a surrogate, beyond U+10FFFF, a truncated sequence.
        for bad in ["%C0%AF", "%ED%A0%80", "%F4%90%80%80", "%E2%82"] {
            let (n, v) = run(bad);
            assert_eq!(n, bad.len());
            assert!(
                v.iter().all(|d| matches!(d, Decoded::Octet(_))),
                "{bad}: {v:?}"
            );
        }
        assert_eq!(run("%F0%9F%98%80").1, [Decoded::Char('😀', 12)]);
        assert_eq!(
            run("%e2%82%ac%41").1,
            [Decoded::Char('€', 9), Decoded::Char('A', 3)]
        );
    }

    #[test]
    fn agrees_with_std_on_every_two_octet_prefix() {
        for a in 0x80..=0xFFu8 {
            for b in 0x00..=0xFFu8 {
                let s = format!("%{a:02X}%{b:02X}%80%80");
                let mut got = Vec::new();
                decode_run(s.as_bytes(), |d| got.push(d));
                let octets = [a, b, 0x80, 0x80];
                let mut want = Vec::new();
                for chunk in octets.utf8_chunks() {
                    for c in chunk.valid().chars() {
                        want.push(Decoded::Char(c, 3 * c.len_utf8()));
                    }
                    want.extend(chunk.invalid().iter().map(|&o| Decoded::Octet(o)));
                }
                assert_eq!(got, want, "{s}");
            }
        }
    }
}
