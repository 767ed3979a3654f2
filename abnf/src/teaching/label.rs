//! How a terminal of the grammar is shown to a person: the characters it stands for,
//! not its ABNF spelling.
//!
//! RFC 5234 writes terminals as numeric values (`%x30-35`, §2.3, §3.4) because the
//! grammar must be exact about code points; a student reading a railroad diagram or a
//! FIRST set wants to see `'0'–'5'`. Printable ASCII is shown as itself in single
//! quotes, non-printing ASCII by its control-code abbreviation (`SP`, `HTAB`, `LF`,
//! `CR`, `NUL`, `DEL`, as RFC 5234 Appendix B.1 and ISO 646 name them), and anything
//! else as `U+XXXX`: a range such as `%xA0-D7FF` is clearer as `U+00A0–U+D7FF` than as
//! the glyphs at its ends, which may be invisible, combining or unassigned.

use crate::Element;

/// The abbreviations of the C0 controls (ISO 646 / ECMA-6), as RFC 5234 Appendix B.1
/// uses some of them (`CR`, `LF`, `HTAB`, `SP`).
const C0: [&str; 32] = [
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HTAB", "LF", "VT", "FF", "CR",
    "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC",
    "FS", "GS", "RS", "US",
];

/// One code point as a person reads it: `'a'`, `'%'`, `SP`, `LF`, `DEL`, `U+00A0`.
///
/// ```
/// use iri_grammar_abnf::teaching::label::char_label;
/// assert_eq!(char_label(0x30), "'0'");
/// assert_eq!(char_label(0x20), "SP");
/// assert_eq!(char_label(0x0A), "LF");
/// assert_eq!(char_label(0x7F), "DEL");
/// assert_eq!(char_label(0xE9), "U+00E9");
/// ```
pub fn char_label(cp: u32) -> String {
    match cp {
        0..=0x1F => C0[cp as usize].to_string(),
        0x20 => "SP".to_string(),
        0x7F => "DEL".to_string(),
        0x21..=0x7E => format!("'{}'", char::from(cp as u8)),
        _ => format!("U+{cp:04X}"),
    }
}

/// A range of code points: one label when it is one code point, `lo–hi` otherwise.
///
/// ```
/// use iri_grammar_abnf::teaching::label::range_label;
/// assert_eq!(range_label(0x30, 0x35), "'0'–'5'");
/// assert_eq!(range_label(0x41, 0x41), "'A'");
/// assert_eq!(range_label(0x00, 0x1F), "NUL–US");
/// assert_eq!(range_label(0xA0, 0xD7FF), "U+00A0–U+D7FF");
/// ```
pub fn range_label(lo: u32, hi: u32) -> String {
    if lo == hi {
        char_label(lo)
    } else {
        format!("{}–{}", char_label(lo), char_label(hi))
    }
}

/// A quoted string of the grammar (RFC 5234 §2.3): `"//"` as written when every
/// character is printable, otherwise its characters one by one (`SP`); a string with
/// letters that is not `%s` matches them in either case (§2.3), so `"v"` reads
/// `"v" or "V"`.
///
/// ```
/// use iri_grammar_abnf::teaching::label::string_label;
/// assert_eq!(string_label("//", false), "\"//\"");
/// assert_eq!(string_label("v", false), "\"v\" or \"V\"");
/// assert_eq!(string_label("v", true), "\"v\"");
/// assert_eq!(string_label(" ", false), "SP");
/// ```
pub fn string_label(text: &str, case_sensitive: bool) -> String {
    if text.is_empty() {
        return "\"\"".to_string();
    }
    if !text.chars().all(|c| c.is_ascii_graphic()) {
        return text
            .chars()
            .map(|c| char_label(c as u32))
            .collect::<Vec<_>>()
            .join(" ");
    }
    let has_letters = text.chars().any(|c| c.is_ascii_alphabetic());
    if case_sensitive || !has_letters {
        return format!("\"{text}\"");
    }
    let (lower, upper) = (text.to_ascii_lowercase(), text.to_ascii_uppercase());
    if lower == upper {
        format!("\"{text}\"")
    } else if text.len() == 1 {
        format!("\"{lower}\" or \"{upper}\"")
    } else {
        format!("\"{text}\" (any case)")
    }
}

/// The label of a terminal element (a quoted string, a value or a range); `None` for
/// the other elements.
///
/// ```
/// use iri_grammar_abnf::{teaching::label::terminal_label, Element};
/// assert_eq!(terminal_label(&Element::Range(0x31, 0x39)).as_deref(), Some("'1'–'9'"));
/// assert_eq!(terminal_label(&Element::Sequence(vec![0x0D, 0x0A])).as_deref(), Some("CR LF"));
/// assert_eq!(terminal_label(&Element::Rule("DIGIT".into())), None);
/// ```
pub fn terminal_label(e: &Element) -> Option<String> {
    match e {
        Element::CharVal {
            text,
            case_sensitive,
        } => Some(string_label(text, *case_sensitive)),
        Element::Range(lo, hi) => Some(range_label(*lo, *hi)),
        Element::Sequence(cps) => Some(
            cps.iter()
                .map(|&c| char_label(c))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}
