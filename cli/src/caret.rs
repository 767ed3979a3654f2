//! The input with a caret under the character where a match failed, for terminals.
//!
//! The library's messages count characters from 0 (`at char 8`), as its offsets do;
//! people count columns from 1, so the caret line says which column it points at and
//! that columns are 1-based. To keep the caret under the right character:
//! - characters that take no column or cannot be seen (controls, bidi formatting
//!   characters such as U+202E, which would also reorder the line, zero-width and
//!   combining characters) are shown as `⟨U+202E⟩`: the grammar sees a code point
//!   there, and so should the reader;
//! - wide characters (CJK) count as two columns, as terminals draw them.

use unicode_width::UnicodeWidthChar;

/// How one character of the input is shown, and how many terminal columns it takes.
fn shown(c: char) -> (String, usize) {
    let bidi_or_invisible = matches!(
        c,
        '\u{061C}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    );
    match c.width() {
        Some(w) if w > 0 && !bidi_or_invisible => (c.to_string(), w),
        _ => {
            let s = format!("⟨U+{:04X}⟩", c as u32);
            let w = s.chars().filter_map(|c| c.width()).sum();
            (s, w)
        }
    }
}

/// Two lines: the input as shown, and a caret under the character at `char_offset`
/// (0-based; the input's length for a failure at its end), labelled with its 1-based
/// column. Both lines start with `indent`.
///
/// ```text
///   http://a b/
///           ^ column 9 (1-based)
/// ```
pub fn caret(input: &str, char_offset: usize, indent: &str) -> String {
    let mut line = String::new();
    let mut before = 0;
    for (k, c) in input.chars().enumerate() {
        let (s, w) = shown(c);
        if k < char_offset {
            before += w;
        }
        line.push_str(&s);
    }
    let column = char_offset + 1;
    let at_end = if char_offset >= input.chars().count() {
        ", the end of the input"
    } else {
        ""
    };
    // Spaces by repetition, not by a format width: a width is a u16 and an input of
    // 65,536 columns would be out of its range.
    let pad = " ".repeat(before);
    format!("{indent}{line}\n{indent}{pad}^ column {column} (1-based){at_end}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_is_under_the_failing_character() {
        assert_eq!(
            caret("http://a b/", 8, "  "),
            "  http://a b/\n          ^ column 9 (1-based)\n"
        );
        assert_eq!(
            caret("ab", 2, ""),
            "ab\n  ^ column 3 (1-based), the end of the input\n"
        );
    }

    #[test]
    fn invisible_and_wide_characters_keep_it_aligned() {
        // U+202E is shown by its code point: 10 columns before the 'x'.
        assert_eq!(
            caret("a\u{202E}x", 2, ""),
            "a⟨U+202E⟩x\n         ^ column 3 (1-based)\n"
        );
        // 納 takes two columns.
        assert_eq!(caret("納x y", 2, ""), "納x y\n   ^ column 3 (1-based)\n");
    }

    #[test]
    fn carets_beyond_a_format_width_are_drawn() {
        // A format width is a u16: 65,536 columns panicked ("Formatting argument out
        // of range"), as did 32,768 wide characters.
        let wide = "a".repeat(65_536);
        let c = caret(&wide, 65_536, "");
        assert!(c.ends_with(&format!(
            "{}^ column 65537 (1-based), the end of the input\n",
            " ".repeat(65_536)
        )));
        let cjk = "納".repeat(32_768);
        assert!(caret(&cjk, 32_768, "").contains(&format!("{}^", " ".repeat(65_536))));
    }
}
