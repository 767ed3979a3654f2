//! Standard output, and what a terminal is given of it.
//!
//! Text output shows what an input holds, not what it would do to a terminal.
//! Control characters other than LF and TAB, and the bidi formatting characters,
//! are written `\uXXXX` ([`visible`]). Every message of the command goes through
//! [`tell`] or [`say`] for the same reason. A closed pipe ends a run quietly; any
//! other write error ends it with status 74.

use super::memory::stdout_writer;
use super::{Outcome, RunError, Verdict};
use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Write};

/// Writes a message for a person to standard error: every message of the command
/// goes through here (or through [`crate::main_with`]'s, for the one that ends a run),
/// so that what it quotes (an input, a file or folder name, a rule of a user's
/// grammar) is shown through [`visible`], never obeyed by the terminal.
pub fn tell(message: &str) {
    eprintln!("{}", visible(message));
}

/// Writes a line for a person to standard output (`book`'s "pages written"),
/// through [`visible`] as [`tell`] does. A write error is left to the command's
/// results, which follow or are already written.
pub fn say(line: &str) {
    let mut out = stdout_writer();
    let _ = writeln!(out, "{}", visible(line));
    let _ = out.flush();
}

/// Standard output, buffered.
///
/// Output meant for a terminal shows what the input holds, not what the input would
/// do to the terminal: a carriage return would let `http://evil.example/` print over
/// itself as another address, `ESC c` resets the terminal, U+202E reverses what
/// follows. So [`Out::new`] writes every control character but the line feed and the
/// tab, and every bidi formatting character, as `\uXXXX` ([`visible`]), as
/// `--with-input` already wrote its column. In JSON that is the same string (JSON
/// escapes the control characters anyway); JSON Lines of the per-input commands are
/// written as they are ([`Out::raw`]).
pub struct Out {
    pub(super) w: BufWriter<Box<dyn Write>>,
    /// Whether control and bidi formatting characters are written as `\uXXXX`.
    visible: bool,
}

impl Out {
    /// Standard output for text (and for JSON, which the escape leaves equal).
    pub fn new() -> Out {
        Out {
            w: BufWriter::with_capacity(64 * 1024, stdout_writer()),
            visible: true,
        }
    }

    /// Standard output written byte for byte: for JSON Lines, whose strings escape
    /// the control characters themselves.
    pub fn raw() -> Out {
        Out {
            visible: false,
            ..Out::new()
        }
    }

    /// Flushes what is buffered; the run's outcome, given its verdict (`true`: every
    /// input succeeded).
    pub fn finish(mut self, verdict: impl Into<Verdict>) -> Outcome {
        match self.w.flush() {
            Ok(()) => Ok(verdict.into()),
            Err(e) => ended_by(e, verdict),
        }
    }
}

impl Write for Out {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.visible {
            self.write_all(buf)?;
            Ok(buf.len())
        } else {
            self.w.write(buf)
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        if !self.visible {
            return self.w.write_all(buf);
        }
        let mut rest = buf;
        while let Some((at, len, c)) = first_hidden(rest) {
            self.w.write_all(&rest[..at])?;
            write!(self.w, "\\u{c:04X}")?;
            rest = &rest[at + len..];
        }
        self.w.write_all(rest)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

/// The outcome of a run that a write error `e` ended, given its verdict so far: a
/// closed pipe is a reader that has seen enough, any other error is reported.
pub fn ended_by(e: io::Error, verdict: impl Into<Verdict>) -> Outcome {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(verdict.into())
    } else {
        Err(RunError::Io(format!("writing standard output: {e}")))
    }
}

/// An input as the first column of `--with-input`: the characters that would break
/// the line or the columns (U+0000–U+001F, U+007F–U+009F) written `\uXXXX`, as the
/// corpus's TSV files write them (bidi formatting characters are escaped by [`Out`]).
pub fn tsv_field(s: &str) -> Cow<'_, str> {
    if !s.chars().any(needs_escape) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if needs_escape(c) {
            let _ = write!(out, "\\u{:04X}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

fn needs_escape(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// `s` as [`Out::new`] writes it: control characters other than the line feed and the
/// tab, and bidi formatting characters, as `\uXXXX`. For messages that go to standard
/// error.
pub fn visible(s: &str) -> Cow<'_, str> {
    if first_hidden(s.as_bytes()).is_none() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    let mut rest = s;
    while let Some((at, len, c)) = first_hidden(rest.as_bytes()) {
        out.push_str(&rest[..at]);
        let _ = write!(out, "\\u{c:04X}");
        rest = &rest[at + len..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Bytes that may begin a character a terminal must not be given raw: C0 controls
/// (but TAB and LF), DEL, and the lead bytes of the C1 controls (U+0080–U+009F:
/// C2), of U+061C ARABIC LETTER MARK (D8) and of the other bidi formatting
/// characters (U+200E–U+200F, U+202A–U+202E, U+2066–U+2069: E2).
const MAY_HIDE: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 0x20 {
        t[b] = b != b'\t' as usize && b != b'\n' as usize;
        b += 1;
    }
    t[0x7F] = true;
    t[0xC2] = true;
    t[0xD8] = true;
    t[0xE2] = true;
    t
};

/// The first character of UTF-8 `bytes` that [`visible`] escapes: its offset, its
/// length in bytes and its code point. Output is mostly printable ASCII (`valid`,
/// messages, the inputs themselves), so it is looked at 32 bytes at a time, with a
/// test the compiler vectorizes ([`may_hide_any`]); a chunk where some byte might
/// begin a hidden character is looked at a byte at a time, through [`MAY_HIDE`].
fn first_hidden(bytes: &[u8]) -> Option<(usize, usize, u32)> {
    const CHUNK: usize = 32;
    let mut from = 0;
    while from < bytes.len() {
        let end = (from + CHUNK).min(bytes.len());
        if let Ok(chunk) = <&[u8; CHUNK]>::try_from(&bytes[from..end]) {
            if !may_hide_any(chunk) {
                from = end;
                continue;
            }
        }
        for at in from..end {
            if MAY_HIDE[usize::from(bytes[at])] {
                if let Some((len, c)) = hidden_at(bytes, at) {
                    return Some((at, len, c));
                }
            }
        }
        from = end;
    }
    None
}

/// Whether some byte of `chunk` is one that [`MAY_HIDE`] marks, or another
/// non-ASCII byte: C0 controls but TAB and LF, DEL, and every byte from 0x80 (a
/// superset of the table, cheaper to test on a whole chunk at once).
#[inline]
fn may_hide_any(chunk: &[u8; 32]) -> bool {
    chunk.iter().fold(false, |any, &b| {
        any | ((b < 0x20) & (b != b'\t') & (b != b'\n')) | (b >= 0x7F)
    })
}

/// The hidden character that begins at `bytes[at]`, a byte [`MAY_HIDE`] marks: its
/// length and code point, or `None` when the character is one to show (a lead byte
/// of a character that is not a C1 control nor a bidi formatting character).
fn hidden_at(bytes: &[u8], at: usize) -> Option<(usize, u32)> {
    let next = |n: usize| bytes.get(at + n).copied().unwrap_or(0);
    match bytes[at] {
        0xC2 => (0x80..=0x9F)
            .contains(&next(1))
            .then(|| (2, u32::from(next(1)))),
        0xD8 => (next(1) == 0x9C).then_some((2, 0x061C)),
        0xE2 => {
            let c = 0x2000 + ((u32::from(next(1)) & 0x3F) << 6) + (u32::from(next(2)) & 0x3F);
            let bidi = matches!(next(1), 0x80 | 0x81)
                && matches!(c, 0x200E..=0x200F | 0x202A..=0x202E | 0x2066..=0x2069);
            bidi.then_some((3, c))
        }
        b => Some((1, u32::from(b))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminals_are_shown_controls_and_bidi_formatting_never_given_them() {
        assert_eq!(
            visible("http://evil.example/\rhttp://bank.example/x"),
            "http://evil.example/\\u000Dhttp://bank.example/x"
        );
        assert_eq!(visible("\u{1b}c\u{8}\u{7f}"), "\\u001Bc\\u0008\\u007F");
        assert_eq!(
            visible("a\u{202E}b\u{2066}\u{200F}\u{61C}"),
            "a\\u202Eb\\u2066\\u200F\\u061C"
        );
        assert_eq!(visible("\u{85}\u{9b}\u{a0}"), "\\u0085\\u009B\u{a0}");
        // What is kept: the layout, and every other character, the lead bytes' other
        // characters among them (U+00E9, U+0600, U+2010, U+2067's neighbours).
        let kept = "a\tb\nrésumé \u{600}\u{2010}\u{2029}\u{2065}\u{206A}\u{202F}";
        assert!(matches!(visible(kept), Cow::Borrowed(_)));
        // Every code point decides as the definition says.
        for c in (0..=0x3000).filter_map(char::from_u32) {
            let hidden = matches!(c, '\u{0}'..='\u{8}' | '\u{B}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
                || matches!(c, '\u{61C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}');
            let s = format!("x{c}y");
            let want = if hidden {
                format!("x\\u{:04X}y", c as u32)
            } else {
                s.clone()
            };
            assert_eq!(visible(&s), want, "U+{:04X}", c as u32);
        }
    }

    #[test]
    fn hidden_characters_are_found_across_the_chunks_looked_at_whole() {
        // `first_hidden` tests 32 bytes at a time: put each kind of character at
        // every place around the chunks' edges, a multi-byte one cut by an edge too.
        for c in ['\r', '\u{7f}', '\u{85}', '\u{61C}', '\u{202E}', '\u{2067}'] {
            for before in 0..=70 {
                let s = format!("{}{c}{}", "a".repeat(before), "b".repeat(70 - before));
                let want = format!(
                    "{}\\u{:04X}{}",
                    "a".repeat(before),
                    c as u32,
                    "b".repeat(70 - before)
                );
                assert_eq!(visible(&s), want, "U+{:04X} after {before}", c as u32);
            }
        }
        // Characters kept, whose bytes the chunk test stops at, are kept wherever
        // they fall; so are TAB and LF.
        for before in 0..=70 {
            let s = format!(
                "{}é\u{2010}\t\n{}",
                "a".repeat(before),
                "b".repeat(70 - before)
            );
            assert!(matches!(visible(&s), Cow::Borrowed(_)), "after {before}");
        }
    }
}
