//! JSON output, written straight into a line of text (RFC 8259): no intermediate
//! values, so that `--json` costs little more than text output.

use std::fmt::Write as _;

/// Appends `s` as a JSON string.
pub fn string(s: &str, out: &mut String) {
    out.push('"');
    // Most strings need no escape: one scan, one copy.
    if !s
        .bytes()
        .any(|b| b < 0x20 || b == b'"' || b == b'\\' || b == 0x7F)
    {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut copied = 0;
    for (k, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0..=0x1F | 0x7F => "",
            _ => continue,
        };
        out.push_str(&s[copied..k]);
        if escape.is_empty() {
            let _ = write!(out, "\\u{b:04x}");
        } else {
            out.push_str(escape);
        }
        copied = k + 1;
    }
    out.push_str(&s[copied..]);
    out.push('"');
}

/// One JSON object, built field by field in the order written.
pub struct Object {
    text: String,
}

impl Object {
    pub fn new() -> Object {
        Object {
            text: String::from("{"),
        }
    }

    fn key(&mut self, key: &str) -> &mut String {
        if self.text.len() > 1 {
            self.text.push(',');
        }
        string(key, &mut self.text);
        self.text.push(':');
        &mut self.text
    }

    /// `"key": "value"`.
    pub fn str(mut self, key: &str, value: &str) -> Object {
        string(value, self.key(key));
        self
    }

    /// `"key": "value"` or `"key": null`.
    pub fn opt_str(mut self, key: &str, value: Option<&str>) -> Object {
        match value {
            Some(v) => string(v, self.key(key)),
            None => self.key(key).push_str("null"),
        }
        self
    }

    /// `"key": true` or `false`.
    pub fn bool(mut self, key: &str, value: bool) -> Object {
        self.key(key).push_str(if value { "true" } else { "false" });
        self
    }

    /// `"key": 12`.
    pub fn num(mut self, key: &str, value: usize) -> Object {
        let _ = write!(self.key(key), "{value}");
        self
    }

    /// `"key": null`.
    pub fn null(mut self, key: &str) -> Object {
        self.key(key).push_str("null");
        self
    }

    /// `"key": ` followed by JSON text already written.
    pub fn raw(mut self, key: &str, json: &str) -> Object {
        self.key(key).push_str(json);
        self
    }

    /// `"key": ["a", "b"]`.
    pub fn strs<'s>(mut self, key: &str, values: impl IntoIterator<Item = &'s str>) -> Object {
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
}
