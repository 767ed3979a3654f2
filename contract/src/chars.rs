//! How error messages name a character.

use alloc::string::String;

/// `U+0020 SPACE`, `U+00E9 'é'`: a character as a student can identify it.
///
/// ```
/// use iri_grammar_contract::describe_char;
/// assert_eq!(describe_char(' '), "U+0020 SPACE");
/// assert_eq!(describe_char('é'), "U+00E9 'é'");
/// assert_eq!(describe_char('\u{E000}'), "U+E000");
/// ```
pub fn describe_char(c: char) -> String {
    const ASCII_NAMES: [&str; 33] = [
        "NULL",
        "START OF HEADING",
        "START OF TEXT",
        "END OF TEXT",
        "END OF TRANSMISSION",
        "ENQUIRY",
        "ACKNOWLEDGE",
        "BELL",
        "BACKSPACE",
        "CHARACTER TABULATION",
        "LINE FEED",
        "LINE TABULATION",
        "FORM FEED",
        "CARRIAGE RETURN",
        "SHIFT OUT",
        "SHIFT IN",
        "DATA LINK ESCAPE",
        "DEVICE CONTROL ONE",
        "DEVICE CONTROL TWO",
        "DEVICE CONTROL THREE",
        "DEVICE CONTROL FOUR",
        "NEGATIVE ACKNOWLEDGE",
        "SYNCHRONOUS IDLE",
        "END OF TRANSMISSION BLOCK",
        "CANCEL",
        "END OF MEDIUM",
        "SUBSTITUTE",
        "ESCAPE",
        "INFORMATION SEPARATOR FOUR",
        "INFORMATION SEPARATOR THREE",
        "INFORMATION SEPARATOR TWO",
        "INFORMATION SEPARATOR ONE",
        "SPACE",
    ];
    let cp = c as u32;
    let name = match cp {
        0..=0x20 => Some(ASCII_NAMES[cp as usize]),
        0x7F => Some("DELETE"),
        0xA0 => Some("NO-BREAK SPACE"),
        0x200E => Some("LEFT-TO-RIGHT MARK"),
        0x200F => Some("RIGHT-TO-LEFT MARK"),
        0x202A => Some("LEFT-TO-RIGHT EMBEDDING"),
        0x202B => Some("RIGHT-TO-LEFT EMBEDDING"),
        0x202C => Some("POP DIRECTIONAL FORMATTING"),
        0x202D => Some("LEFT-TO-RIGHT OVERRIDE"),
        0x202E => Some("RIGHT-TO-LEFT OVERRIDE"),
        0xFEFF => Some("ZERO WIDTH NO-BREAK SPACE"),
        _ => None,
    };
    // Written by hand, not by `format!`: an invalid line's message says one
    // character, and the formatting machinery cost more than the rest of it.
    let mut out = String::with_capacity(8 + name.map_or(6, str::len));
    out.push_str("U+");
    let digits = (32 - cp.leading_zeros()).div_ceil(4).max(4);
    for k in (0..digits).rev() {
        let d = (cp >> (4 * k)) & 0xF;
        out.push(char::from_digit(d, 16).map_or('0', |h| h.to_ascii_uppercase()));
    }
    match name {
        Some(n) => {
            out.push(' ');
            out.push_str(n);
        }
        // No glyph for what has none to show: controls, private use, format
        // characters, tags, specials and noncharacters.
        None if c.is_control()
            || matches!(cp, 0x80..=0x9F | 0xAD | 0x200B..=0x200F | 0x2028..=0x202E
                | 0x2060..=0x206F | 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFF0..=0xFFFF
                | 0xE0000..=0xE0FFF | 0xF0000..)
            || cp & 0xFFFE == 0xFFFE => {}
        None => {
            out.push_str(" '");
            out.push(c);
            out.push('\'');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::describe_char;
    use alloc::format;

    #[test]
    fn every_code_point_is_written_as_format_writes_it() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            let d = describe_char(c);
            let hex = format!("U+{:04X}", c as u32);
            let rest = d.strip_prefix(hex.as_str());
            assert!(
                rest.is_some_and(|r| r.is_empty() || r.starts_with(' ')),
                "{d} for {hex}"
            );
        }
        assert_eq!(describe_char('\u{10FFFD}'), "U+10FFFD");
        assert_eq!(describe_char('\u{1F600}'), "U+1F600 '\u{1F600}'");
        assert_eq!(describe_char('\0'), "U+0000 NULL");
        assert_eq!(
            describe_char('\u{FEFF}'),
            "U+FEFF ZERO WIDTH NO-BREAK SPACE"
        );
        assert_eq!(describe_char('a'), "U+0061 'a'");
    }
}
