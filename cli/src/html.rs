//! HTML pieces shared by `iri book` and `iri serve`.
//!
//! Pages are written as polyglot markup (well-formed XML that is also HTML5: every
//! element closed, no named entities but XML's five), so a test can check every page
//! with an XML parser, and nothing is loaded from elsewhere: the style is inline and
//! the diagrams are inline SVG, so a page works from a file, offline.

use crate::teach::Lesson;
use std::fmt::Write as _;

/// `s` with `&`, `<`, `>`, `"` and `'` escaped, for text and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Not allowed in XML 1.0 at all (§2.2 Char): shown by code point.
            c if ((c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r'))
                || matches!(c, '\u{FFFE}' | '\u{FFFF}') =>
            {
                let _ = write!(out, "U+{:04X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Whether a character is one a reader cannot see or that would disturb the text
/// around it: controls, bidi formatting characters, zero-width characters, spaces
/// other than U+0020, non-characters and private use.
fn invisible(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{A0}' | '\u{AD}' | '\u{061C}'
        | '\u{1680}' | '\u{2000}'..='\u{200F}' | '\u{2028}'..='\u{202F}'
        | '\u{205F}'..='\u{206F}' | '\u{3000}' | '\u{E000}'..='\u{F8FF}'
        | '\u{FDD0}'..='\u{FDEF}' | '\u{FEFF}' | '\u{FFF0}'..='\u{FFFF}'
        | '\u{E0000}'..='\u{10FFFF}')
        || (c as u32 & 0xFFFE) == 0xFFFE
}

/// A string of the grammar's language as HTML: visible characters as themselves, the
/// others as a marked `U+XXXX`, so that `http://a/\u{202E}` shows what the grammar sees.
/// `mark`, a character offset, is wrapped in `<mark>` (the character a match failed at;
/// the end of the string gets a marked space).
pub fn string(s: &str, mark: Option<usize>) -> String {
    let mut out = String::new();
    let mut n = 0;
    for (k, c) in s.chars().enumerate() {
        n = k + 1;
        let piece = if invisible(c) {
            format!("<span class=\"cp\">U+{:04X}</span>", c as u32)
        } else {
            esc(&c.to_string())
        };
        if mark == Some(k) {
            let _ = write!(out, "<mark>{piece}</mark>");
        } else {
            out.push_str(&piece);
        }
    }
    if mark.is_some_and(|m| m >= n) {
        out.push_str("<mark class=\"end\"> </mark>");
    }
    out
}

/// Lines of text from elsewhere (a program's standard error) as HTML, for a `<pre>`:
/// each line as [`string`] shows it, so controls and bidi formatting characters are
/// marked `U+XXXX`, never obeyed; the line feeds stay.
pub fn text(s: &str) -> String {
    s.split('\n')
        .map(|line| string(line, None))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The ABNF text of a definition with each rule name linked by `href` (when the
/// grammar has that rule), comments, strings, values and prose set apart for the style.
/// The text keeps the names as its document writes them; `current`, the rule being
/// defined, is not linked to itself.
pub fn abnf(
    text: &str,
    current: &str,
    lesson: &Lesson<'_>,
    href: &dyn Fn(&str) -> String,
) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    let mut k = 0;
    let take = |from: usize, to: usize| -> String { chars[from..to].iter().collect() };
    while k < chars.len() {
        let c = chars[k];
        let start = k;
        match c {
            ';' => {
                while k < chars.len() && chars[k] != '\n' {
                    k += 1;
                }
                let _ = write!(out, "<span class=\"c\">{}</span>", esc(&take(start, k)));
            }
            '"' => {
                k += 1;
                while k < chars.len() && chars[k] != '"' {
                    k += 1;
                }
                k = (k + 1).min(chars.len());
                let _ = write!(out, "<span class=\"s\">{}</span>", esc(&take(start, k)));
            }
            '<' => {
                while k < chars.len() && chars[k] != '>' {
                    k += 1;
                }
                k = (k + 1).min(chars.len());
                let _ = write!(out, "<span class=\"s\">{}</span>", esc(&take(start, k)));
            }
            '%' => {
                k += 1;
                while k < chars.len()
                    && (chars[k].is_ascii_alphanumeric() || ".-".contains(chars[k]))
                {
                    k += 1;
                }
                let _ = write!(out, "<span class=\"s\">{}</span>", esc(&take(start, k)));
            }
            c if c.is_ascii_alphabetic() => {
                while k < chars.len() && (chars[k].is_ascii_alphanumeric() || chars[k] == '-') {
                    k += 1;
                }
                let name = take(start, k);
                let shown = lesson.shown(&name);
                if lesson.has(&shown) && !shown.eq_ignore_ascii_case(current) {
                    let _ = write!(out, "<a href=\"{}\">{}</a>", esc(&href(&shown)), esc(&name));
                } else {
                    out.push_str(&esc(&name));
                }
            }
            _ => {
                out.push_str(&esc(&c.to_string()));
                k += 1;
            }
        }
    }
    out
}

/// The style of the book's pages (and, with `serve.css`, the server's page).
pub const STYLE: &str = r#"
body { font: 16px/1.5 system-ui, sans-serif; margin: 0 auto; max-width: 60rem; padding: 1rem 2rem 3rem; color: #1d1d1f; background: #fdfcf9; }
nav { font-size: .9rem; margin-bottom: 1rem; }
nav a { margin-right: .25rem; }
h1 { font-family: ui-monospace, monospace; margin: .5rem 0; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid #ddd; }
pre, code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; }
pre { background: #f3f1ea; padding: .75rem 1rem; overflow-x: auto; border-radius: 4px; }
pre.abnf .c { color: #6a737d; } pre.abnf .s { color: #032f62; }
.cp { font-size: .7em; border: 1px solid #999; border-radius: 2px; padding: 0 .15em; color: #555; vertical-align: middle; }
mark { background: #ffb3b3; } mark.end { padding: 0 .2em; }
.diagram { overflow-x: auto; }
.diagram svg { max-width: none; }
ul.chars { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .35rem; }
ul.chars li { font-family: ui-monospace, monospace; background: #eef3fb; border: 1px solid #c9d6ea; border-radius: 3px; padding: 0 .4em; }
ul.examples { padding-left: 1.2rem; }
ul.examples li { font-family: ui-monospace, monospace; word-break: break-all; margin: .2rem 0; }
.why { font-family: system-ui, sans-serif; color: #555; font-size: .85rem; word-break: normal; display: block; }
table { border-collapse: collapse; }
td, th { text-align: left; padding: .2rem .8rem .2rem 0; vertical-align: top; }
.note { color: #555; font-style: italic; }
.muted { color: #777; }
"#;

/// A complete page: `<!DOCTYPE html>`, the style inline, the title, then `body`.
pub fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\" xmlns=\"http://www.w3.org/1999/xhtml\">\n<head>\n\
         <meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}\n</body>\n</html>\n",
        esc(title)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_show_what_cannot_be_seen() {
        assert_eq!(string("a<b", None), "a&lt;b");
        assert_eq!(
            string("a\u{202E}", Some(1)),
            "a<mark><span class=\"cp\">U+202E</span></mark>"
        );
        assert_eq!(string("ab", Some(2)), "ab<mark class=\"end\"> </mark>");
    }
}
