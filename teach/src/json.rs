//! JSON output, written straight into a line of text (RFC 8259): no intermediate
//! values, so that `--json` costs little more than text output.

use std::fmt::Write as _;

/// The bytes that go into a JSON string escaped: the quotation mark, the reverse
/// solidus and the control characters, as RFC 8259 §7 has it, and DEL, so that no
/// JSON line holds a control character.
const ESCAPED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = true;
        b += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t[0x7F] = true;
    t
};

/// Whether any of the eight bytes of `w` is one of [`ESCAPED`]: the bit tricks of
/// "Bit Twiddling Hacks" (a byte less than n; a byte equal to c), with no false
/// answer either way.
fn any_escaped(w: u64) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let less_than = |n: u8| w.wrapping_sub(ONES * u64::from(n)) & !w & HIGHS;
    let equal = |c: u8| {
        let v = w ^ (ONES * u64::from(c));
        v.wrapping_sub(ONES) & !v & HIGHS
    };
    less_than(0x20) | equal(b'"') | equal(b'\\') | equal(0x7F) != 0
}

/// Appends `s` as a JSON string.
pub fn string(s: &str, out: &mut String) {
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    let mut copied = 0;
    let mut k = 0;
    loop {
        // Most bytes need no escape: eight at a time, then one at a time up to the
        // byte that needs one (or the end).
        while let Some(word) = bytes.get(k..k + 8) {
            let word: [u8; 8] = word.try_into().expect("eight bytes");
            if any_escaped(u64::from_ne_bytes(word)) {
                break;
            }
            k += 8;
        }
        while k < bytes.len() && !ESCAPED[usize::from(bytes[k])] {
            k += 1;
        }
        let Some(&b) = bytes.get(k) else { break };
        out.push_str(&s[copied..k]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            _ => {
                let _ = write!(out, "\\u{b:04x}");
            }
        }
        k += 1;
        copied = k;
    }
    out.push_str(&s[copied..]);
    out.push('"');
}

thread_local! {
    /// A record's buffer, given back by [`Object::line`] for the next
    /// [`Object::new`] on this thread.
    static SPARE: std::cell::Cell<String> = const { std::cell::Cell::new(String::new()) };
}

/// One JSON object, built field by field in the order written.
pub struct Object {
    text: String,
}

impl Default for Object {
    fn default() -> Object {
        Object::new()
    }
}

impl Object {
    pub fn new() -> Object {
        // The buffer the last record written with `line` gave back, else room for a
        // typical record (`parse`'s are about 300 bytes), so that it is not grown
        // and copied field by field, nor allocated anew for each input.
        let mut text = SPARE.with(|spare| spare.take());
        if text.capacity() == 0 {
            text.reserve(384);
        }
        text.push('{');
        Object { text }
    }

    /// Starts the member `key`: a name the program writes (`"input"`, `"host"`),
    /// never one taken from an input, so it is written as it is, without the escape
    /// that the values need (half of the strings of a `parse` record are its keys).
    fn key(&mut self, key: &'static str) -> &mut String {
        debug_assert!(
            !key.bytes().any(|b| ESCAPED[usize::from(b)]),
            "a key that JSON must escape: {key:?}"
        );
        if self.text.len() > 1 {
            self.text.push(',');
        }
        self.text.push('"');
        self.text.push_str(key);
        self.text.push_str("\":");
        &mut self.text
    }

    /// `"key": "value"`.
    pub fn str(mut self, key: &'static str, value: &str) -> Object {
        string(value, self.key(key));
        self
    }

    /// `"key": "value"` or `"key": null`.
    pub fn opt_str(mut self, key: &'static str, value: Option<&str>) -> Object {
        match value {
            Some(v) => string(v, self.key(key)),
            None => self.key(key).push_str("null"),
        }
        self
    }

    /// `"key": true` or `false`.
    pub fn bool(mut self, key: &'static str, value: bool) -> Object {
        self.key(key).push_str(if value { "true" } else { "false" });
        self
    }

    /// `"key": 12`.
    pub fn num(mut self, key: &'static str, value: usize) -> Object {
        let _ = write!(self.key(key), "{value}");
        self
    }

    /// `"key": null`.
    pub fn null(mut self, key: &'static str) -> Object {
        self.key(key).push_str("null");
        self
    }

    /// `"key": ` followed by JSON text already written.
    pub fn raw(mut self, key: &'static str, json: &str) -> Object {
        self.key(key).push_str(json);
        self
    }

    /// `"key": ["a", "b"]`.
    pub fn strs<'s>(
        mut self,
        key: &'static str,
        values: impl IntoIterator<Item = &'s str>,
    ) -> Object {
        let out = self.key(key);
        out.push('[');
        for (k, v) in values.into_iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            string(v, out);
        }
        out.push(']');
        self
    }

    /// Appends the object's text and a line feed to `out`: a JSON Lines record.
    pub fn line(mut self, out: &mut String) {
        self.text.push_str("}\n");
        out.push_str(&self.text);
        // The buffer serves the next record (a few KiB at most are kept: one
        // record's, not the biggest's).
        if self.text.capacity() <= 4096 {
            self.text.clear();
            SPARE.with(|spare| spare.set(self.text));
        }
    }

    /// The object's text, `{...}`.
    pub fn finish(mut self) -> String {
        self.text.push('}');
        self.text
    }
}

/// `[a, b, ...]` of JSON texts already written.
pub fn array<S: AsRef<str>>(items: impl IntoIterator<Item = S>) -> String {
    let mut out = String::from("[");
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(item.as_ref());
    }
    out.push(']');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_json_needs() {
        let mut out = String::new();
        string("a\"b\\c\n\u{1}\u{7f}é\u{202E}", &mut out);
        assert_eq!(out, "\"a\\\"b\\\\c\\n\\u0001\\u007fé\u{202E}\"");
        let o = Object::new()
            .str("input", "x")
            .bool("valid", true)
            .null("error")
            .finish();
        assert_eq!(o, r#"{"input":"x","valid":true,"error":null}"#);
    }

    #[test]
    fn escapes_wherever_the_byte_falls_in_a_word() {
        // One byte at a time, as RFC 8259 §7 says.
        let reference = |s: &str| {
            let mut out = String::from("\"");
            for c in s.chars() {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    '\0'..='\u{1f}' | '\u{7f}' => out.push_str(&format!("\\u{:04x}", c as u32)),
                    c => out.push(c),
                }
            }
            out.push('"');
            out
        };
        for len in 0..40 {
            for at in 0..len {
                for special in [
                    "\"", "\\", "\n", "\u{1}", "\u{1f}", "\u{7f}", " ", "!", "#", "[", "]", "~",
                    "é", "\u{80}", "\u{202E}",
                ] {
                    let s: String = (0..len)
                        .map(|k| if k == at { special } else { "a" })
                        .collect();
                    let mut out = String::new();
                    string(&s, &mut out);
                    assert_eq!(out, reference(&s), "{s:?}");
                }
            }
        }
    }
}
