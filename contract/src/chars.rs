//! How error messages name a character.

use alloc::format;
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
    match name {
        Some(n) => format!("U+{cp:04X} {n}"),
        // No glyph for what has none to show: controls, private use, format
        // characters, tags, specials and noncharacters.
        None if c.is_control()
            || matches!(cp, 0x80..=0x9F | 0xAD | 0x200B..=0x200F | 0x2028..=0x202E
                | 0x2060..=0x206F | 0xE000..=0xF8FF | 0xFDD0..=0xFDEF | 0xFFF0..=0xFFFF
                | 0xE0000..=0xE0FFF | 0xF0000..)
            || cp & 0xFFFE == 0xFFFE =>
        {
            format!("U+{cp:04X}")
        }
        None => format!("U+{cp:04X} '{c}'"),
    }
}
