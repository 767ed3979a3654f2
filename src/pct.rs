//! Percent-encoding (RFC 3986 §2.1): `pct-encoded = "%" HEXDIG HEXDIG`, one octet
//! written as two hexadecimal digits, and the UTF-8 reading of octets that RFC 3987
//! §3.2 step 3 asks for.
//!
//! This is the one place where octets become `%HH` and back. Octets are written with
//! uppercase hex digits, as RFC 3986 §2.1 says producers SHOULD.
//!
//! ```
//! use iri_grammar::pct;
//! let mut out = String::new();
//! pct::encode_char('é', &mut out);
//! assert_eq!(out, "%C3%A9");
//! assert_eq!(pct::decode("ros%C3%A9%FF"), "rosé%FF");
//! ```

use alloc::borrow::Cow;
use alloc::string::String;

const UPPER_HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `%HH` of one octet, uppercase.
///
/// ```
/// let mut out = String::new();
/// iri_grammar::pct::encode_octet(0x2f, &mut out);
/// assert_eq!(out, "%2F");
/// ```
#[inline]
pub fn encode_octet(octet: u8, out: &mut String) {
    let triplet = [
        b'%',
        UPPER_HEX[usize::from(octet >> 4)],
        UPPER_HEX[usize::from(octet & 15)],
    ];
    // Three ASCII bytes.
    out.push_str(core::str::from_utf8(&triplet).unwrap_or_default());
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
    for &b in c.encode_utf8(&mut buf).as_bytes() {
        encode_octet(b, out);
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
            let next = text[k + 1..].find('%').map_or(text.len(), |p| k + 1 + p);
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

    fn run(s: &str) -> (usize, Vec<Decoded>) {
        let mut v = Vec::new();
        let n = decode_run(s.as_bytes(), |d| v.push(d));
        (n, v)
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
