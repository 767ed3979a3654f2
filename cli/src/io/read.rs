//! Standard input in blocks of whole lines, and the lines as inputs.
//!
//! A regular file's block fills up to [`BLOCK_BYTES`]. A pipe's or a terminal's
//! block is what one read gives, so that an interactive line is answered at once.
//! Lines are found, and checked as UTF-8, a block at a time. A line ends at LF, and
//! a CR just before it goes with it. A byte order mark at the very start is left
//! out. A line longer than `--max-line-bytes` ends the run with status 74.

use super::{RunError, ValidLines};
use crate::json::Object;
use std::borrow::Cow;
use std::cell::Cell;
use std::fmt::Write as _;
use std::io::{self, Read};

thread_local! {
    /// The longest line of standard input that is read ([`set_max_line`]).
    static MAX_LINE: Cell<usize> = const { Cell::new(MAX_LINE_BYTES) };
}

/// The longest line of standard input read unless `--max-line-bytes` says otherwise:
/// 64 MiB, far beyond any address in use (a `data:` URI of a large image is a few
/// MiB), and small enough that the few blocks a run holds at once stay within memory
/// whatever the input: without a limit, an input without line ends (`/dev/zero`)
/// would be held whole.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Sets the longest line of standard input that the commands read on this thread
/// (`--max-line-bytes`); a longer line ends the run with an input error that names
/// it (status 74).
pub fn set_max_line(bytes: usize) {
    MAX_LINE.with(|m| m.set(bytes));
}

/// One input: its text, or why it has none (a line of standard input that is not
/// UTF-8), its bytes as read, and its place among the inputs.
#[derive(Clone)]
pub struct Input<'a> {
    /// The text, or the message that says why there is none.
    pub text: Result<&'a str, String>,
    /// The bytes as given.
    pub raw: &'a [u8],
    /// 0-based: the how-manieth input this is.
    pub index: usize,
}

impl Input<'_> {
    /// The input for display: its text, or its bytes with U+FFFD for what is not
    /// UTF-8, so that a JSON record shows what the line held.
    pub fn lossy(&self) -> Cow<'_, str> {
        match self.text {
            Ok(s) => Cow::Borrowed(s),
            Err(_) => String::from_utf8_lossy(self.raw),
        }
    }

    /// Starts a JSON record with the input's fields: `"input"` and, for a line that
    /// is not UTF-8, `"input_bytes"`, its bytes in lower-case hex (lossless, where
    /// `"input"` shows U+FFFD for what is not UTF-8).
    pub fn json(&self) -> Object {
        let o = Object::new().str("input", &self.lossy());
        match self.text {
            Ok(_) => o,
            Err(_) => {
                let mut hex = String::with_capacity(2 * self.raw.len());
                for b in self.raw {
                    let _ = write!(hex, "{b:02x}");
                }
                o.str("input_bytes", &hex)
            }
        }
    }
}

/// A block of standard input holds whole lines, read until it holds at least this
/// many bytes (a regular file) or what one read gave (a pipe or a terminal, which may
/// wait for its writer); a line longer than this makes a longer block. Thousands of
/// lines, so that handing a block over costs nothing that shows; small enough that
/// the blocks a pool holds stay small, output included (`tree --format json` writes
/// forty times its input).
pub(super) const BLOCK_BYTES: usize = 256 * 1024;
/// The block of a command whose output is at most a few times its input (a verdict
/// per line, [`Style::block_bytes`](super::Style::block_bytes)): a line costs so
/// little there that handing a block of 256 KiB from thread to thread shows (a
/// quarter more CPU at two threads, measured), and its output stays below a
/// `BLOCK_BYTES` block's of `tree --format json`.
pub(super) const BIG_BLOCK_BYTES: usize = 1024 * 1024;
/// What one read of a pipe or a terminal asks for: a pipe's buffer.
const PIPE_READ_BYTES: usize = 64 * 1024;

/// Whole lines of standard input, their place among the inputs, and the block's
/// place among the blocks.
pub(super) struct Block {
    /// The lines, each ended by LF but perhaps the last (the end of the input): the
    /// first `len` bytes of a buffer that is given back to be read into again
    /// ([`Blocks::recycle`]), so that it is not allocated, zeroed and faulted in anew.
    pub(super) data: Vec<u8>,
    /// The lines are `data[start..len]`: a block cut from a byte range of a file
    /// begins after the line that runs into it ([`super::ranges`]).
    start: usize,
    len: usize,
    /// The index of the first line.
    first: usize,
    /// How many lines `data` holds; `None` where the blocks are not counted as they
    /// are read ([`Blocks::uncounted`]).
    pub(super) lines: Option<usize>,
    /// 0-based: the how-manieth block this is.
    pub(super) seq: usize,
}

impl Block {
    /// Block `seq`: the lines `data[start..end]`, `lines` of them, the first of
    /// which is line `first` of the input (0-based).
    pub(super) fn new(
        data: Vec<u8>,
        start: usize,
        end: usize,
        first: usize,
        lines: usize,
        seq: usize,
    ) -> Block {
        Block {
            data,
            start,
            len: end,
            first,
            lines: Some(lines),
            seq,
        }
    }

    /// The lines as inputs: LF or CRLF stripped, text where they are UTF-8.
    pub(super) fn inputs(&self) -> Lines<'_> {
        Lines {
            data: &self.data[self.start..self.len],
            text_from: 0,
            text: "",
            start: 0,
            index: self.first,
        }
    }
}

/// Where a line ends in `data` (which starts the line): its end, LF or CR LF
/// stripped, and where the next line starts. Only this line's own CR goes with its
/// LF: an empty line must not take the CR that ends the line before it
/// (`a\r\r\n\n`: FUZZING.md finding 10).
#[inline(always)]
pub fn line_end(data: &[u8]) -> (usize, usize) {
    match memchr::memchr(b'\n', data) {
        Some(lf) if lf > 0 && data[lf - 1] == b'\r' => (lf - 1, lf + 1),
        Some(lf) => (lf, lf + 1),
        None => (data.len(), data.len()),
    }
}

/// The lines of a [`Block`] as inputs ([`Block::inputs`]). A struct rather than a
/// closure so that `next` is inlined into the loop that renders the lines, and each
/// `Input` stays in registers instead of going through memory.
///
/// The lines are checked as UTF-8 many at a time, the way that is fast for short
/// lines: from a line on, up to the end of the block or to the last line before a
/// byte that is not UTF-8 (a line ends at an LF, which is never within a character:
/// the lines of UTF-8 text are UTF-8). A line that is not is checked by itself, for
/// its message, and the lines after it many at a time again. Lines that a command's
/// shortcut takes ([`Lines::take_valid`]) are judged by it as bytes, and not checked
/// here.
pub(super) struct Lines<'a> {
    data: &'a [u8],
    /// Whole lines known to be UTF-8: `data` holds `text` from `text_from` on, and
    /// `text` ends where a line does.
    text_from: usize,
    text: &'a str,
    /// Where the next line starts.
    start: usize,
    /// The next line's place among the inputs.
    index: usize,
}

/// The whole lines of `data` that are UTF-8: all of it, or up to the end of the
/// last line before the first byte that is not.
fn whole_lines_of_text(data: &[u8]) -> &str {
    match std::str::from_utf8(data) {
        Ok(text) => text,
        Err(e) => {
            let valid = &data[..e.valid_up_to()];
            let end = memchr::memrchr(b'\n', valid).map_or(0, |lf| lf + 1);
            // Checked again, only where a byte is not UTF-8: no `unsafe`.
            std::str::from_utf8(&valid[..end]).unwrap_or_default()
        }
    }
}

impl<'a> Lines<'a> {
    /// The text known to be UTF-8 from where the next line starts, checked anew
    /// where that is past what was checked: whole lines, perhaps none (the next line
    /// is not UTF-8).
    #[inline(always)]
    fn text_ahead(&mut self) -> &'a str {
        let start = self.start;
        if start < self.text_from || start >= self.text_from + self.text.len() {
            self.text_from = start;
            self.text = whole_lines_of_text(&self.data[start..]);
        }
        &self.text[start - self.text_from..]
    }

    /// Takes the lines from here on that `valid` judges valid, up to the first it
    /// does not: how many.
    pub(super) fn take_valid(&mut self, valid: &ValidLines) -> usize {
        // The judge reads bytes: a valid line is UTF-8, and the lines it takes are
        // not checked again (`text_ahead` is for the lines it leaves).
        let Some(rest) = self.data.get(self.start..).filter(|r| !r.is_empty()) else {
            return 0;
        };
        match valid.lines(rest) {
            // A judge that takes lines takes their bytes: none taken, none counted.
            (len, n) if len > 0 && len <= rest.len() => {
                self.start += len;
                self.index += n;
                n
            }
            _ => 0,
        }
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = Input<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Input<'a>> {
        let (data, start) = (self.data, self.start);
        if start >= data.len() {
            return None;
        }
        let (end, next) = line_end(&data[start..]);
        let raw = &data[start..start + end];
        let ahead = self.text_ahead();
        let input = Input {
            text: match ahead.get(..end) {
                // Within the text ahead, which ends at a line's end: this line.
                Some(text) if ahead.len() >= next => Ok(text),
                _ => std::str::from_utf8(raw).map_err(not_utf8),
            },
            raw,
            index: self.index,
        };
        self.start = start + next;
        self.index += 1;
        Some(input)
    }
}

/// The longest line of standard input that the commands read on this thread
/// ([`set_max_line`]).
pub(super) fn max_line() -> usize {
    MAX_LINE.with(Cell::get)
}

/// The error for line `line` (1-based), which starts `offset` bytes into standard
/// input and is longer than `max_line` bytes.
pub(super) fn too_long(line: usize, offset: u64, max_line: usize) -> RunError {
    RunError::Io(format!(
        "line {line} of standard input (from byte offset {offset}) is longer than \
         {max_line} bytes, the longest line read: --max-line-bytes raises the limit"
    ))
}

/// The message of a line that is not UTF-8.
fn not_utf8(e: std::str::Utf8Error) -> String {
    format!(
        "the input is not UTF-8 (invalid byte at offset {})",
        e.valid_up_to()
    )
}

/// Standard input cut into [`Block`]s of whole lines.
pub(super) struct Blocks {
    reader: Box<dyn Read + Send>,
    /// Whether a read never waits (a regular file): blocks are filled.
    pub(super) file: bool,
    /// The start of a line that the last read cut, for the next block.
    carry: Vec<u8>,
    /// Buffers of blocks done with, to read into.
    spare: Vec<Vec<u8>>,
    /// Whether the input has ended.
    eof: bool,
    /// The lines and the blocks so far.
    lines: usize,
    seq: usize,
    /// The bytes of the input before the next block, for the message of a line
    /// beyond `max_line`.
    offset: u64,
    /// The longest line read ([`set_max_line`]).
    max_line: usize,
    /// What a regular file's block fills up to ([`BLOCK_BYTES`], or
    /// [`Blocks::of_size`]).
    block_bytes: usize,
    /// Whether a block's lines are counted as it is read ([`Blocks::uncounted`]).
    counted: bool,
    /// The error of a line beyond `max_line`, once the lines before it are a block.
    too_long: Option<RunError>,
}

/// The UTF-8 byte order mark, U+FEFF.
const BOM: &[u8] = "\u{FEFF}".as_bytes();

/// `reader` without a byte order mark at its very start, and how many bytes were
/// left out. A BOM opening a stream is the encoding's signature (RFC 3629 §6), which
/// editors write at the start of a file, not a character of its first line: that
/// line is judged without it, as `iri-sql` judges the first row of a file. A U+FEFF
/// anywhere else is a character like any other (and no rule allows it).
fn without_bom(mut reader: Box<dyn Read + Send>) -> (Box<dyn Read + Send>, u64) {
    let mut head = [0u8; 3];
    let mut n = 0;
    // Reads stop as soon as what came cannot begin a BOM: a pipe's first line is
    // answered at once, however short.
    while n < head.len() && head[..n] == BOM[..n] {
        match reader.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // Left for the block reader, whose next read meets it again and says
            // which line it came after.
            Err(_) => break,
        }
    }
    if &head[..n] == BOM {
        return (reader, BOM.len() as u64);
    }
    (
        Box::new(io::Cursor::new(head[..n].to_vec()).chain(reader)),
        0,
    )
}

impl Blocks {
    pub(super) fn new(reader: Box<dyn Read + Send>, file: bool) -> Blocks {
        let (reader, skipped) = without_bom(reader);
        Blocks {
            reader,
            file,
            carry: Vec::new(),
            spare: Vec::new(),
            eof: false,
            lines: 0,
            seq: 0,
            offset: skipped,
            max_line: max_line(),
            too_long: None,
            block_bytes: BLOCK_BYTES,
            counted: true,
        }
    }

    /// Blocks whose lines are not counted as they are read, for the one thread that
    /// reads and renders each block in turn: rendering finds the lines anyway, and
    /// says how many there were when the block is done with ([`Blocks::rendered`]),
    /// before the next is read. A count of its own would read every byte once more
    /// (a sixth of what `wc -l` costs, for each line).
    pub(super) fn uncounted(self) -> Blocks {
        Blocks {
            counted: false,
            ..self
        }
    }

    /// The blocks of a regular file filled up to `bytes` instead of [`BLOCK_BYTES`].
    pub(super) fn of_size(self, bytes: usize) -> Blocks {
        Blocks {
            block_bytes: bytes,
            ..self
        }
    }

    /// The next block: a regular file's fills up to its size ([`BLOCK_BYTES`]); a pipe's is
    /// what one read gave, so that an interactive line is answered at once. Either
    /// way it holds at least one whole line, or what the end of the input left.
    /// `None` at the end. A read error names the line it came after; a line longer
    /// than `max_line` is an error that names it, found once that many bytes of it
    /// are read, so that no more than that is ever held of one line.
    pub(super) fn next_block(&mut self) -> Result<Option<Block>, RunError> {
        if let Some(failure) = self.too_long.take() {
            return Err(failure);
        }
        // Every byte of `data` is initialized; the block is its first `len`.
        let mut data = self.spare.pop().unwrap_or_default();
        let mut len = self.carry.len();
        if data.len() < len {
            data.resize(len, 0);
        }
        data[..len].copy_from_slice(&self.carry);
        self.carry.clear();
        let mut line_end = None;
        // Where the line being read starts: after the last LF read so far.
        let mut line_start = 0;
        while !self.eof {
            let start = len;
            let want = if self.file {
                self.block_bytes.saturating_sub(start).max(PIPE_READ_BYTES)
            } else {
                PIPE_READ_BYTES
            };
            if data.len() < start + want {
                data.resize(start + want, 0);
            }
            let n = loop {
                match self.reader.read(&mut data[start..start + want]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => {
                        let lines = memchr::memchr_iter(b'\n', &data[..start]).count();
                        return Err(RunError::Io(format!(
                            "reading standard input after line {}: {e}",
                            self.lines + lines
                        )));
                    }
                }
            };
            len += n;
            if n == 0 {
                self.eof = true;
                break;
            }
            // The line that was being read ends at the first LF of what was read (or
            // goes on); a line that begins in this read is at most `want` long, so
            // only a limit below that needs each of them looked at. A line's length
            // is its bytes before the LF.
            let new = &data[start..len];
            let first_end = memchr::memchr(b'\n', new).map_or(len, |k| start + k);
            let mut over = (first_end - line_start > self.max_line).then_some(line_start);
            if over.is_none() && self.max_line < want {
                let mut from = first_end + 1;
                for lf in memchr::memchr_iter(b'\n', new).skip(1).map(|k| start + k) {
                    if lf - from > self.max_line {
                        over = Some(from);
                        break;
                    }
                    from = lf + 1;
                }
                if over.is_none() && from < len && len - from > self.max_line {
                    over = Some(from);
                }
            }
            if let Some(at) = over {
                // The lines before it are a block of their own, so that their
                // results are written before the run ends.
                let failure = self.line_too_long(&data[..at]);
                if at == 0 {
                    return Err(failure);
                }
                self.too_long = Some(failure);
                self.eof = true;
                len = at;
                break;
            }
            if let Some(k) = memchr::memrchr(b'\n', new) {
                line_end = Some(start + k + 1);
                line_start = start + k + 1;
                if !self.file || len >= self.block_bytes {
                    break;
                }
            }
        }
        if len == 0 {
            self.spare.push(data);
            return Ok(None);
        }
        if !self.eof {
            // A line was seen: the block ends after the last one; the rest is the
            // beginning of the next block's first line.
            let end = line_end.unwrap_or(len);
            self.carry.extend_from_slice(&data[end..len]);
            len = end;
        }
        let lines = self.counted.then(|| {
            let lfs = memchr::memchr_iter(b'\n', &data[..len]).count();
            lfs + usize::from(data[len - 1] != b'\n')
        });
        let block = Block {
            data,
            start: 0,
            len,
            first: self.lines,
            lines,
            seq: self.seq,
        };
        self.lines += lines.unwrap_or(0);
        self.offset += len as u64;
        self.seq += 1;
        Ok(Some(block))
    }

    /// The error for a line longer than `max_line`, which starts after `before`
    /// (the bytes of this block that precede it).
    fn line_too_long(&self, before: &[u8]) -> RunError {
        let line = self.lines + memchr::memchr_iter(b'\n', before).count() + 1;
        too_long(line, self.offset + before.len() as u64, self.max_line)
    }

    /// Gives back the buffer of a block done with, to read the next ones into.
    pub(super) fn recycle(&mut self, data: Vec<u8>) {
        self.spare.push(data);
    }

    /// Gives back the buffer of a block rendered, and how many lines it held: where
    /// the blocks are not counted as they are read, the next block's first line.
    pub(super) fn rendered(&mut self, data: Vec<u8>, lines: usize) {
        if !self.counted {
            self.lines += lines;
        }
        self.recycle(data);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A reader that gives at most `sizes[k % len]` bytes on its k-th read, as a pipe
    /// gives what its writer wrote so far.
    struct Trickle {
        data: io::Cursor<Vec<u8>>,
        sizes: Vec<usize>,
        reads: usize,
    }

    impl Read for Trickle {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.sizes[self.reads % self.sizes.len()].min(buf.len());
            self.reads += 1;
            self.data.read(&mut buf[..n])
        }
    }

    /// Lines as `read_until` gives them: LF or CRLF stripped (a CR only with its
    /// LF), the last line without LF kept.
    pub(in crate::io) fn lines_of(data: &[u8]) -> Vec<Vec<u8>> {
        let mut lines: Vec<Vec<u8>> = data.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
        let last = lines.pop().expect("split gives one at least");
        for line in &mut lines {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        if !last.is_empty() {
            lines.push(last);
        }
        lines
    }

    /// Lines of every kind: CRLF, lone CRs, empty, not UTF-8, long, and one longer
    /// than a block.
    pub(in crate::io) fn mixed_lines() -> Vec<u8> {
        let mut data = Vec::new();
        for k in 0..40_000 {
            match k % 9 {
                0 => data.extend_from_slice(b"http://a/\r\n"),
                1 => data.extend_from_slice(b"a\r\r\n\n"),
                2 => data.extend_from_slice(b"http://\xff/\n"),
                3 => data.extend_from_slice("http://é.example/ü\n".as_bytes()),
                4 => data.extend_from_slice(&[b'x'; 300]),
                _ => data.extend_from_slice(format!("http://a/{k}?q!\n").as_bytes()),
            }
        }
        data.extend_from_slice(&vec![b'y'; BLOCK_BYTES + 17]);
        data.extend_from_slice(b"\nlast\r");
        data
    }

    #[test]
    fn blocks_cut_lines_as_reading_line_by_line_did() {
        let data = mixed_lines();
        let want = lines_of(&data);
        for (file, sizes, block_bytes) in [
            (true, vec![usize::MAX], BLOCK_BYTES),
            (true, vec![usize::MAX], BIG_BLOCK_BYTES),
            (true, vec![1, 7, 4096, 100_000], BLOCK_BYTES),
            (true, vec![1, 7, 4096, 100_000], BIG_BLOCK_BYTES),
            (false, vec![usize::MAX], BLOCK_BYTES),
            (false, vec![1, 2, 3, 65_536, 13], BLOCK_BYTES),
        ] {
            let reader = Trickle {
                data: io::Cursor::new(data.clone()),
                sizes,
                reads: 0,
            };
            let mut blocks = Blocks::new(Box::new(reader), file).of_size(block_bytes);
            let mut got = Vec::new();
            let mut seq = 0;
            while let Some(block) = blocks.next_block().ok().flatten() {
                assert_eq!((block.seq, block.first), (seq, got.len()));
                let before = got.len();
                for input in block.inputs() {
                    assert_eq!(input.index, got.len());
                    match input.text {
                        Ok(text) => assert_eq!(text.as_bytes(), input.raw),
                        Err(e) => {
                            assert!(std::str::from_utf8(input.raw).is_err());
                            assert!(e.contains("not UTF-8"), "{e}");
                        }
                    }
                    got.push(input.raw.to_vec());
                }
                assert_eq!(Some(got.len() - before), block.lines);
                seq += 1;
                blocks.recycle(block.data);
            }
            assert!(got == want, "file: {file}, blocks of {block_bytes}");
            // A file's blocks fill up to their size: fewer, larger blocks.
            if file {
                assert!(seq <= data.len().div_ceil(block_bytes) + 1, "{seq} blocks");
            }
        }
    }
}
