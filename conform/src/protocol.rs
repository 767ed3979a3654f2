//! The line protocol of `docs/conform-protocol.md`: an input is a JSON string literal
//! (RFC 8259 §7) in ASCII on a line of its own; an answer is a line `valid`,
//! `invalid`, or a JSON object with the verdict and the components (RFC 3986 §3,
//! RFC 3987 §2.2) the program found.

use iri_grammar::Component;
use serde_json::Value;
use std::fmt::Write as _;

/// The version of the protocol, given to the program as `IRI_CONFORM_PROTOCOL`: 2
/// adds the resolution exchange (`IRI_CONFORM_MODE=resolve`); validation is version
/// 1's exchange unchanged.
pub const VERSION: &str = "2";

/// The components an answer may give, in the order of RFC 3986 §3 (and of the
/// protocol page's table).
pub const COMPONENTS: [Component; 8] = Component::ALL;

/// `s` as the line the program reads, without its line feed: a JSON string literal
/// in ASCII only. Printable ASCII stands for itself but `"` and `\`; the controls
/// JSON names (`\n`, `\t`, ...) by name; every other character as `\uXXXX`, and a
/// character beyond U+FFFF as its UTF-16 surrogate pair (RFC 8259 §7), so that the
/// line is the same whatever the program's idea of encodings.
///
/// ```
/// use iri_grammar_conform::protocol::input_line;
/// assert_eq!(input_line("a\"b\\c"), r#""a\"b\\c""#);
/// assert_eq!(input_line("r\u{e9}\n\u{1F600}"), r#""r\u00e9\n\ud83d\ude00""#);
/// ```
pub fn input_line(s: &str) -> String {
    string_literal(s, |c| matches!(c, ' '..='~'))
}

/// `s` as a JSON string literal (RFC 8259 §7) in which the characters `raw` says
/// stand for themselves (never `"`, `\` or a control); the controls JSON names by
/// name; every other character as `\uXXXX`, beyond U+FFFF as its UTF-16 pair. The
/// protocol's input line keeps printable ASCII raw ([`input_line`]); `iri conform`'s
/// report keeps letters beyond ASCII raw too, so that its examples read.
pub fn string_literal(s: &str, raw: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if !c.is_control() && raw(c) => out.push(c),
            c => {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{u:04x}");
                }
            }
        }
    }
    out.push('"');
    out
}

/// What a program answered for an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Whether the input matches the rule asked.
    pub valid: bool,
    /// The components it gave (for a valid input; an invalid one's are dropped), in
    /// the order of [`COMPONENTS`]: `None` for `null` (absent), `Some` for present.
    /// A key the program left out is not here and not compared.
    pub components: Vec<(Component, Option<String>)>,
}

impl Answer {
    /// The component the program gave for `part`: `None` if it gave none (not
    /// compared), `Some(None)` if it said absent.
    pub fn component(&self, part: Component) -> Option<Option<&str>> {
        self.components
            .iter()
            .find(|(p, _)| *p == part)
            .map(|(_, v)| v.as_deref())
    }
}

/// Reads an answer line (without its line end): `valid`, `invalid`, or a JSON object
/// whose `valid` is a boolean and whose components, when present, are strings or
/// `null`. Keys not in the protocol are ignored.
///
/// # Errors
/// Why the line is none of these, for the report.
///
/// ```
/// use iri_grammar_conform::protocol::read_answer;
/// assert!(read_answer("valid").unwrap().valid);
/// let a = read_answer(r#"{"valid": true, "query": null, "x": 1}"#).unwrap();
/// assert_eq!(a.components.len(), 1);
/// assert!(read_answer("yes").is_err());
/// ```
pub fn read_answer(line: &str) -> Result<Answer, String> {
    match line {
        "valid" | "invalid" => {
            return Ok(Answer {
                valid: line == "valid",
                components: Vec::new(),
            })
        }
        _ => {}
    }
    if !line.trim_start().starts_with('{') {
        return Err("neither `valid`, `invalid` nor a JSON object".to_string());
    }
    let value: Value = serde_json::from_str(line).map_err(|e| format!("not a JSON object: {e}"))?;
    let Value::Object(map) = value else {
        return Err("not a JSON object".to_string());
    };
    let valid = match map.get("valid") {
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("`valid` is {}, not true or false", brief(other))),
        None => return Err("the object has no `valid`".to_string()),
    };
    let mut components = Vec::new();
    for part in COMPONENTS {
        let value = match map.get(part.as_str()) {
            None => continue,
            Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                return Err(format!(
                    "`{}` is {}, not a string or null",
                    part.as_str(),
                    brief(other)
                ))
            }
        };
        components.push((part, value));
    }
    if !valid {
        components.clear();
    }
    Ok(Answer { valid, components })
}

/// The most characters of a value an error shows.
const VALUE_SHOWN: usize = 60;

/// A value as an error shows it: its JSON, cut at [`VALUE_SHOWN`] characters, with
/// its length when cut (an answer may be a megabyte long).
fn brief(v: &Value) -> String {
    let json = v.to_string();
    match json.char_indices().nth(VALUE_SHOWN) {
        None => json,
        Some((end, _)) => format!("{}… ({} characters)", &json[..end], json.chars().count()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A string of every class of character: printable ASCII, the controls JSON
    /// names, other C0 controls, DEL, C1 controls, the BMP (Latin, CJK, private
    /// use, U+FFFD, U+FFFF), the last code point before the surrogates and the first
    /// after, and characters beyond U+FFFF up to U+10FFFF.
    fn every_kind() -> Vec<String> {
        let mut v: Vec<String> = (0u32..0x250)
            .chain(0xD7F0..0xD800)
            .chain(0xE000..0xE010)
            .chain([0x3000, 0x4E2D, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF])
            .chain([0x10000, 0x1F600, 0xE0001, 0xFFFFF, 0x10FFFF])
            .filter_map(char::from_u32)
            .map(|c| format!("a{c}b"))
            .collect();
        v.push(String::new());
        v.push(" http://a/b c\n".to_string());
        v.push("\\u0041\"\\".to_string());
        v
    }

    #[test]
    fn inputs_round_trip_through_a_json_reader_in_ascii() {
        for s in every_kind() {
            let line = input_line(&s);
            assert!(
                line.bytes().all(|b| (0x20..0x7F).contains(&b)),
                "{line:?} is not printable ASCII"
            );
            let back: String = serde_json::from_str(&line).unwrap();
            assert_eq!(back, s, "{line}");
        }
    }

    #[test]
    fn astral_characters_are_surrogate_pairs() {
        assert_eq!(input_line("\u{10FFFF}"), r#""\udbff\udfff""#);
        assert_eq!(input_line("\u{7F}\u{0}"), r#""\u007f\u0000""#);
    }

    #[test]
    fn answers_of_every_form() {
        assert_eq!(
            read_answer("invalid").unwrap(),
            Answer {
                valid: false,
                components: vec![]
            }
        );
        let a = read_answer(
            r#"{"valid": true, "scheme": "http", "authority": "a", "userinfo": null, "host": "a", "port": "", "path": "/p", "query": "q", "fragment": null, "extra": [1]}"#,
        )
        .unwrap();
        assert!(a.valid);
        assert_eq!(a.components.len(), 8);
        assert_eq!(a.component(Component::Port), Some(Some("")));
        assert_eq!(a.component(Component::Userinfo), Some(None));
        let b = read_answer(r#"{"valid": true}"#).unwrap();
        assert_eq!(b.component(Component::Host), None);
        // An invalid answer's components are not compared.
        let c = read_answer(r#"{"valid": false, "host": "x"}"#).unwrap();
        assert!(c.components.is_empty());
    }

    #[test]
    fn bad_answers_say_why() {
        for (line, why) in [
            ("", "neither"),
            ("Valid", "neither"),
            ("valid ", "neither"),
            ("true", "neither"),
            ("{", "not a JSON object"),
            (r#"{"valid": "true"}"#, "`valid` is"),
            (r#"{"valid": 1}"#, "`valid` is"),
            (r#"{"scheme": "a"}"#, "no `valid`"),
            (r#"{"valid": true, "port": 80}"#, "`port` is 80"),
            (r#"{"valid": true, "host": ["a"]}"#, "`host` is"),
            (
                format!(r#"{{"valid": "{}"}}"#, "A".repeat(1_000_000)).as_str(),
                "AAAA… (1000002 characters), not true",
            ),
            (r#"{"valid": true} x"#, "not a JSON object"),
        ] {
            let e = read_answer(line).unwrap_err();
            assert!(e.contains(why), "{line:?}: {e}");
            assert!(e.len() < 200, "{e}");
        }
    }
}
