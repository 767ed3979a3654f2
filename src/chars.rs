//! The character classes the operations share: RFC 3986 §2 (`unreserved`,
//! `sub-delims`, `pchar`), RFC 3987 §2.2 (`ucschar`, `iprivate`), the US-ASCII
//! characters the LEIRI note §3 adds, the bidi formatting characters of RFC 3987
//! §4.1, and the characters URI → IRI keeps encoded (§3.2 step 4).
//!
//! Percent-encoding ([`crate::pct`]), the conversions ([`crate::convert`]),
//! normalization ([`crate::normalize`](mod@crate::normalize)), the bidi rules ([`crate::bidi`]) and the
//! findings ([`crate::lint`]) all take their classes from here, so that no operation
//! module reads another's predicates. The public ones keep the paths they were
//! published under (`convert::may_decode`, `bidi::is_formatting_character`, ...),
//! re-exported from there. Which schemes use DNS hosts is a fact about schemes, not
//! characters: [`crate::schemes::uses_dns`].
//!
//! ASCII classes are sets of code points, a bit each in a `u128`, built at compile
//! time; the loops that ask per byte read them as 256-entry tables ([`byte_table`]).

use crate::grammar::generated::{rfc3987_iprivate, rfc3987_ucschar};
use crate::grammar::Component;

/// The set of the ASCII characters of `chars`.
pub(crate) const fn ascii_set(chars: &str) -> u128 {
    let b = chars.as_bytes();
    let mut set = 0;
    let mut k = 0;
    while k < b.len() {
        set |= 1 << b[k];
        k += 1;
    }
    set
}

/// The set of the ASCII characters from `first` to `last`, both included.
pub(crate) const fn ascii_range(first: u8, last: u8) -> u128 {
    let mut set = 0;
    let mut c = first;
    while c <= last {
        set |= 1 << c;
        c += 1;
    }
    set
}

/// A set as a table by byte (no byte beyond ASCII is in it).
pub(crate) const fn byte_table(set: u128) -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = set & (1 << b) != 0;
        b += 1;
    }
    t
}

/// RFC 5234 Appendix B.1 `ALPHA` and `DIGIT`.
const ALPHA_DIGIT: u128 =
    ascii_range(b'a', b'z') | ascii_range(b'A', b'Z') | ascii_range(b'0', b'9');

/// RFC 3986 §2.3 `unreserved`: `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
pub(crate) const UNRESERVED: u128 = ALPHA_DIGIT | ascii_set("-._~");

/// [`UNRESERVED`] by byte, for the loops that copy runs of it.
pub(crate) const UNRESERVED_BYTES: [bool; 256] = byte_table(UNRESERVED);

/// RFC 3986 §2.2 `sub-delims`: `"!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / ","
/// / ";" / "="`.
pub(crate) const SUB_DELIMS: u128 = ascii_set("!$&'()*+,;=");

/// RFC 3986 §3.3 `pchar`, its ASCII characters: `unreserved / sub-delims / ":" / "@"`
/// (`pct-encoded` aside).
pub(crate) const PCHAR: u128 = UNRESERVED | SUB_DELIMS | ascii_set(":@");

/// The C0 controls and DEL (RFC 5234 Appendix B.1 `CTL`).
const CONTROLS: u128 = ascii_range(0, 0x1F) | ascii_set("\u{7F}");

/// The US-ASCII characters a LEIRI allows and a URI or IRI does not (LEIRI note §3):
/// space, `<`, `>`, `"`, `{`, `}`, `|`, `\`, `^`, `` ` ``, C0 controls and DEL.
const LEIRI_ONLY_ASCII: u128 = ascii_set(" <>\"{}|\\^`") | CONTROLS;

/// [`LEIRI_ONLY_ASCII`] by byte.
pub(crate) const LEIRI_ONLY_ASCII_BYTES: [bool; 256] = byte_table(LEIRI_ONLY_ASCII);

/// Whether `c` is one of the US-ASCII characters a LEIRI allows and a URI or IRI does
/// not (LEIRI note §3): space, `<`, `>`, `"`, `{`, `}`, `|`, `\`, `^`, `` ` ``, C0
/// controls and DEL.
///
/// ```
/// assert!(iri_grammar::convert::leiri_only_ascii('<'));
/// assert!(!iri_grammar::convert::leiri_only_ascii('/'));
/// ```
pub fn leiri_only_ascii(c: char) -> bool {
    c.is_ascii() && LEIRI_ONLY_ASCII_BYTES[c as usize]
}

/// Whether an IRI allows the character `c` unencoded in component `at` (RFC 3987 §2.2):
/// ASCII characters are judged by the caller; beyond ASCII, `ucschar` everywhere and
/// `iprivate` in the query only.
///
/// ```
/// use iri_grammar::{convert::iri_allows, reference::Component};
/// assert!(iri_allows('é', Component::Path));
/// assert!(iri_allows('\u{E000}', Component::Query));
/// assert!(!iri_allows('\u{E000}', Component::Path));
/// ```
pub fn iri_allows(c: char, at: Component) -> bool {
    rfc3987_ucschar(c) || (at == Component::Query && rfc3987_iprivate(c))
}

/// The bidi formatting characters RFC 3987 §4.1 lists (and the LEIRI note's "bidi
/// formatting characters" group): an IRI MUST NOT contain them.
///
/// ```
/// assert!(iri_grammar::bidi::FORMATTING_CHARACTERS.contains(&('\u{202E}', "RLO")));
/// ```
pub const FORMATTING_CHARACTERS: [(char, &str); 7] = [
    ('\u{200E}', "LRM"),
    ('\u{200F}', "RLM"),
    ('\u{202A}', "LRE"),
    ('\u{202B}', "RLE"),
    ('\u{202C}', "PDF"),
    ('\u{202D}', "LRO"),
    ('\u{202E}', "RLO"),
];

/// The abbreviation of a bidi formatting character of RFC 3987 §4.1 (`RLO` for
/// U+202E), `None` for any other character.
///
/// ```
/// use iri_grammar::bidi::formatting_name;
/// assert_eq!(formatting_name('\u{200F}'), Some("RLM"));
/// assert_eq!(formatting_name('\u{2067}'), None);
/// ```
pub fn formatting_name(c: char) -> Option<&'static str> {
    FORMATTING_CHARACTERS
        .iter()
        .find(|(f, _)| *f == c)
        .map(|(_, name)| *name)
}

/// Whether `c` is one of the seven bidi formatting characters of RFC 3987 §4.1.
///
/// ```
/// use iri_grammar::bidi::is_formatting_character;
/// assert!(is_formatting_character('\u{202A}'));
/// assert!(!is_formatting_character('\u{05D0}'));
/// ```
pub fn is_formatting_character(c: char) -> bool {
    // The range test first: conversions ask this of every character beyond ASCII.
    ('\u{200E}'..='\u{202E}').contains(&c) && FORMATTING_CHARACTERS.iter().any(|&(f, _)| f == c)
}

#[cfg(feature = "lint")]
/// Whether `c` is a bidi control that Unicode added after RFC 3987 (Unicode 6.3,
/// 2013): ARABIC LETTER MARK U+061C and the isolates LRI, RLI, FSI, PDI
/// (U+2066-2069, found by their `Bidi_Class`). They are in `ucschar`, and §4.1's
/// reasons (invisible, they reorder the display) apply to them as well.
///
/// ```
/// use iri_grammar::bidi::is_later_control;
/// assert!(is_later_control('\u{2067}'));
/// assert!(is_later_control('\u{061C}'));
/// assert!(!is_later_control('\u{202E}'));
/// ```
pub fn is_later_control(c: char) -> bool {
    use unicode_bidi::{bidi_class, BidiClass};
    c == '\u{061C}'
        || matches!(
            bidi_class(c),
            BidiClass::LRI | BidiClass::RLI | BidiClass::FSI | BidiClass::PDI
        )
}

/// Characters that URI → IRI keeps percent-encoded although the grammar allows them
/// (RFC 3987 §3.2 step 4, "not appropriate" per §6.1): the bidi formatting characters
/// of §4.1, and those invisible or looking like a space when displayed (the newer
/// bidi controls U+061C and U+2066-2069, U+00A0, U+00AD, U+1680, U+2000-200D, U+2028,
/// U+2029, U+202F, U+205F, U+2060, U+3000 and U+FEFF).
///
/// ```
/// use iri_grammar::convert::stays_encoded;
/// assert!(stays_encoded('\u{202E}') && stays_encoded('\u{00A0}') && stays_encoded('\u{2067}'));
/// assert!(!stays_encoded('é'));
/// ```
pub fn stays_encoded(c: char) -> bool {
    is_formatting_character(c)
        || matches!(
            c,
            '\u{00A0}'
                | '\u{00AD}'
                | '\u{061C}'
                | '\u{1680}'
                | '\u{2000}'..='\u{200D}'
                | '\u{2028}'..='\u{2029}'
                | '\u{202F}'
                | '\u{205F}'..='\u{2060}'
                | '\u{2066}'..='\u{2069}'
                | '\u{3000}'
                | '\u{FEFF}'
        )
}

/// Whether URI → IRI leaves `c` decoded in component `at` (RFC 3987 §3.2 steps 2 and
/// 4): an unreserved US-ASCII character, or a character the IRI grammar allows there
/// that does not stay encoded.
///
/// ```
/// use iri_grammar::{convert::may_decode, reference::Component};
/// assert!(may_decode('~', Component::Path) && !may_decode('/', Component::Path));
/// assert!(may_decode('é', Component::Host) && !may_decode('\u{202E}', Component::Path));
/// ```
pub fn may_decode(c: char, at: Component) -> bool {
    if c.is_ascii() {
        return UNRESERVED_BYTES[c as usize];
    }
    iri_allows(c, at) && !stays_encoded(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_tables_are_their_sets() {
        for b in 0..=255u8 {
            let c = char::from(b);
            assert_eq!(
                UNRESERVED_BYTES[usize::from(b)],
                c.is_ascii_alphanumeric() || "-._~".contains(c),
                "{b:#x}"
            );
            assert_eq!(
                leiri_only_ascii(c),
                b.is_ascii_control() || " <>\"{}|\\^`".contains(c),
                "{b:#x}"
            );
        }
    }
}
