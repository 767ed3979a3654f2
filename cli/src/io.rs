//! Inputs and outputs: the one place that knows about standard input and output,
//! lines, flushing, threads, and how an I/O error ends the program.
//!
//! Inputs come from the arguments or, with none, from standard input, one per line
//! (LF or CRLF stripped). A command renders each input's result into a string
//! ([`each_input`]); this module decides what of it is written (`--quiet`,
//! `--valid-only`, `--invalid-only`), prefixes it (`--with-input`), counts it
//! (`--summary`) and writes it in input order, whatever thread rendered it (`--jobs`).
//!
//! Standard input is read in blocks of whole lines ([`Blocks`]): a regular file's
//! fill up to 256 KiB; a pipe's or a terminal's are what one read gives, never waiting
//! for a block to fill, so that results stream: an interactive line is answered at
//! once. Lines are found and checked as UTF-8 a block at a time, not a line at a
//! time. With one thread (`--jobs 1`, or one core) each block is rendered and written
//! in turn, and output is flushed before each read that may wait. With more, a
//! thread reads ahead, the blocks are rendered on a pool of `--jobs` threads, each
//! into a buffer of its own, and this thread writes them in input order, flushing
//! whenever it has nothing to do; a few blocks a thread are read ahead at most, so
//! memory stays bounded whatever the input's size. A block of few lines (long ones,
//! or a line typed at a terminal) is rendered by the writing thread in its turn. A
//! closed pipe (`iri check < big.txt | head -1`) ends the run quietly; any other
//! write error, and any read error (with the line it came after), is reported on
//! standard error and ends the run with status 74.
//!
//! A record can be much bigger than its input (`tree --format json` writes forty
//! times the input: 43 MB for a path of 1 MB), too big to hold whole. So what a
//! command renders into is a [`Sink`]: the `String` of before (through `Deref`), which
//! can also let the record go out in pieces while it is rendered. The command says
//! how the input came out as soon as it knows ([`Sink::verdict`]), and calls
//! [`Sink::spill`] wherever the text so far is final. A spill writes what has
//! accumulated, once that is 64 KiB, if writing it now cannot change the output: the
//! record is the next thing to write (it is rendered on the thread that writes: a
//! block of few lines, every block under `--jobs 1`, or the first part of the
//! arguments), and no filter
//! (`--quiet`, `--valid-only`, `--invalid-only`) may still drop it. Otherwise (a part
//! that waits for the parts before it, a filter that does not know the verdict yet)
//! the sink keeps everything, as the `String` did. Pieces are prefixed
//! (`--with-input`) and separated as whole records are; under `--with-input` a piece
//! ends at the end of a line. A command that never spills is written as before.
//! `tree --format json` spills after each node; another command with big records
//! (`trace`, `tree`'s text and DOT forms) needs only the same two calls.
//!
//! For [`crate::run_in_memory`] (the fuzz target `cli_lines` and in-process tests),
//! standard input and output can be bytes in memory instead, for the current thread:
//! the commands are the same code either way, only the two streams differ.

use crate::json::{self, Object};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, BufWriter, Read, Write};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

/// Standard input and output held in memory, for the current thread.
struct Memory {
    /// What standard input holds; taken by the first command that reads it.
    input: Option<Vec<u8>>,
    /// What was written to standard output.
    output: Rc<RefCell<Vec<u8>>>,
}

thread_local! {
    static MEMORY: RefCell<Option<Memory>> = const { RefCell::new(None) };
    /// How much a [`Sink`] holds before a spill writes it: 64 KiB, the size of the
    /// output's buffer, which lets a piece that big through without copying it. Tests
    /// set it lower, to cut records into many pieces, or out of reach, to keep them
    /// whole.
    static SPILL_AT: Cell<usize> = const { Cell::new(64 * 1024) };
    /// The longest line of standard input that is read ([`set_max_line`]).
    static MAX_LINE: Cell<usize> = const { Cell::new(MAX_LINE_BYTES) };
}

/// The longest line of standard input read unless `--max-line-bytes` says otherwise:
/// 64 MiB, far beyond any address in use (a `data:` URI of a large image is a few
/// MiB), and small enough that the few blocks a run holds at once stay within memory
/// whatever the input: without a limit, an input without line ends (`/dev/zero`) was
/// held whole until the allocator gave up.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// Sets the longest line of standard input that the commands read on this thread
/// (`--max-line-bytes`); a longer line ends the run with an input error that names
/// it (status 74).
pub fn set_max_line(bytes: usize) {
    MAX_LINE.with(|m| m.set(bytes));
}

/// A writer into the shared output buffer of [`Memory`].
struct SharedBuffer(Rc<RefCell<Vec<u8>>>);

impl Write for SharedBuffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Runs `f` with standard input reading `stdin` and standard output written to
/// memory; returns `f`'s result and what was written.
pub fn in_memory<T>(stdin: &[u8], f: impl FnOnce() -> T) -> (T, Vec<u8>) {
    let output = Rc::new(RefCell::new(Vec::new()));
    MEMORY.with(|m| {
        *m.borrow_mut() = Some(Memory {
            input: Some(stdin.to_vec()),
            output: Rc::clone(&output),
        })
    });
    let result = f();
    MEMORY.with(|m| m.borrow_mut().take());
    let written = std::mem::take(&mut *output.borrow_mut());
    (result, written)
}

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

/// Standard input: the process's, or the bytes of [`in_memory`].
fn stdin_reader() -> Box<dyn Read + Send> {
    let memory = MEMORY.with(|m| {
        m.borrow_mut()
            .as_mut()
            .map(|m| m.input.take().unwrap_or_default())
    });
    match memory {
        Some(bytes) => Box::new(io::Cursor::new(bytes)),
        // Unlocked, so that another thread may read it; it is read in big blocks.
        None => Box::new(io::stdin()),
    }
}

/// Standard output: the process's, or the buffer of [`in_memory`].
fn stdout_writer() -> Box<dyn Write> {
    let memory = MEMORY.with(|m| {
        m.borrow()
            .as_ref()
            .map(|m| SharedBuffer(Rc::clone(&m.output)))
    });
    match memory {
        Some(buffer) => Box::new(buffer),
        None => Box::new(io::stdout().lock()),
    }
}

/// Why the program stops before its inputs are done.
#[derive(Debug)]
pub enum Failure {
    /// The command line asks for something impossible: status 2.
    Usage(String),
    /// Reading or writing failed: status 74 (`EX_IOERR` of sysexits.h).
    Io(String),
}

/// What a command returns: whether every input succeeded, or why it stopped.
pub type Outcome = Result<bool, Failure>;

/// What a command that can also answer "unknown" returns (`compare`).
pub type Verdicts = Result<Status, Failure>;

/// The result of one input, or of a whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Valid, equivalent, converted: exit status 0.
    Success,
    /// Neither: `compare` could not decide (exit status 3, when no input failed).
    Unknown,
    /// Invalid, different, not converted: exit status 1.
    Failed,
}

impl From<bool> for Status {
    fn from(ok: bool) -> Status {
        if ok {
            Status::Success
        } else {
            Status::Failed
        }
    }
}

impl Status {
    /// The status of a run: the worst of its inputs' (failed over unknown over success).
    fn and(self, other: Status) -> Status {
        self.max(other)
    }
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

/// What one input came to: its status, and when it did not succeed, why, as the
/// summary counts it.
pub struct Judged {
    pub status: Status,
    /// The summary's key for an input that did not succeed.
    pub why: Option<Why>,
}

impl Judged {
    pub fn success() -> Judged {
        Judged {
            status: Status::Success,
            why: None,
        }
    }

    pub fn failed(why: Why) -> Judged {
        Judged {
            status: Status::Failed,
            why: Some(why),
        }
    }
}

/// Why an input did not succeed, as `--summary` groups them: the component a
/// reference is blamed in and what it may hold, else the grammar's farthest failure
/// (the component being read, the innermost rule, and everything expected there,
/// each once), or a reason without a place in the grammar (`not-utf8`, `idna`, a
/// lint code, ...).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Why {
    /// `port`, `port`, `a port holds digits only (RFC 3986 §3.2.3)`.
    Blame {
        component: &'static str,
        rule: &'static str,
        reason: String,
    },
    Grammar {
        component: Option<&'static str>,
        rule: Option<String>,
        expected: Vec<String>,
    },
    Reason(String),
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
    w: BufWriter<Box<dyn Write>>,
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

    /// Flushes what is buffered; the run's outcome, given whether all succeeded.
    pub fn finish(mut self, all_ok: bool) -> Outcome {
        match self.w.flush() {
            Ok(()) => Ok(all_ok),
            Err(e) => ended_by(e, all_ok),
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

/// The outcome of a run that a write error `e` ended: a closed pipe is a reader that
/// has seen enough, any other error is reported.
pub fn ended_by(e: io::Error, all_ok: bool) -> Outcome {
    if e.kind() == io::ErrorKind::BrokenPipe {
        Ok(all_ok)
    } else {
        Err(Failure::Io(format!("writing standard output: {e}")))
    }
}

fn ended_by_status(e: io::Error, status: Status) -> Verdicts {
    ended_by(e, true).map(|_| status)
}

/// How the results of a per-input command are written.
#[derive(Debug, Clone, Default)]
pub struct Style {
    /// JSON Lines instead of text.
    pub json: bool,
    /// `--with-input` (`-H`): each line starts with its input.
    pub with_input: bool,
    /// `--quiet` (`-q`): no results; the first input that fails ends the run.
    pub quiet: bool,
    /// `--invalid-only`: only the inputs that did not succeed.
    pub invalid_only: bool,
    /// `--valid-only`: only the inputs that succeeded.
    pub valid_only: bool,
    /// `--summary`: the counts after the results.
    pub summary: bool,
    /// `--jobs`: the threads that render the inputs.
    pub jobs: Option<u16>,
    /// Text records of several lines (`parse`) are separated by a blank line.
    pub blank_line_between: bool,
    /// Each input is a pair, A TAB B (`compare`): `--with-input` writes two columns.
    pub pair: bool,
    /// The command's result is a verdict (`check`, `compare`): under `--valid-only`
    /// too, its text output is the kept inputs ([`Style::copies_inputs`]).
    pub verdicts: bool,
}

impl Style {
    /// Whether the records are the kept inputs themselves, as `grep` prints the lines
    /// it keeps, in text, without `--with-input` (which writes the input and its
    /// result): under `--invalid-only`, whatever the command (a failed input's
    /// record is its error, which does not say which input it was); under
    /// `--valid-only`, for a command of verdicts (whose records say only `valid`;
    /// the other commands keep their results, the normal forms of the inputs that
    /// have one). Such records go out byte for byte, a copy of the lines kept,
    /// unless standard output is a terminal, which is shown their control and bidi
    /// formatting characters as `\uXXXX` as all text output is ([`Out`]).
    pub fn copies_inputs(&self) -> bool {
        let s = self;
        !self.json && !s.with_input && (s.invalid_only || self.verdicts && s.valid_only)
    }

    fn shows(&self, status: Status) -> bool {
        let s = self;
        !(s.quiet
            || s.valid_only && status != Status::Success
            || s.invalid_only && status == Status::Success)
    }

    /// Whether what is shown depends on how the input came out.
    fn filters(&self) -> bool {
        let s = self;
        s.quiet || s.valid_only || s.invalid_only
    }

    /// Whether records are separated by a blank line: text records of several lines,
    /// unless each line carries its input.
    fn separates(&self) -> bool {
        self.blank_line_between && !self.json && !self.with_input && !self.copies_inputs()
    }

    /// Whether each text line starts with its input (`--with-input`).
    fn prefixes(&self) -> bool {
        self.with_input && !self.json
    }

    /// The threads that render a batch: `--jobs`, at most the cores the system gives
    /// this process (more threads than cores only take turns), by default all of them.
    fn threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.jobs {
            Some(n) => usize::from(n).min(cores),
            None => cores,
        }
    }
}

/// What a part of the inputs came to: the text to write, and the counts.
#[derive(Default)]
struct Part {
    /// What is to be written: records filtered, separated and prefixed.
    text: String,
    tally: Tally,
    /// Whether a record of this part has been kept: the next is separated from it.
    kept: bool,
    /// Whether some of the part has been written already (by a spill): the rest
    /// continues it, with no separator before it.
    begun: bool,
}

impl Part {
    /// Appends a piece of a record, after a blank line if it begins a record and the
    /// part has one before it, each line after the input under `--with-input`.
    fn add(&mut self, style: &Style, input: &Input<'_>, piece: &str, begins: bool) {
        if begins {
            if style.separates() && self.kept {
                self.text.push('\n');
            }
            self.kept = true;
        }
        if !style.prefixes() {
            self.text.push_str(piece);
            return;
        }
        let lossy = input.lossy();
        let prefix = match lossy.split_once('\t') {
            Some((a, b)) if style.pair => Cow::Owned(format!("{}\t{}", tsv_field(a), tsv_field(b))),
            _ => tsv_field(&lossy),
        };
        for line in piece.split_inclusive('\n') {
            self.text.push_str(&prefix);
            self.text.push('\t');
            self.text.push_str(line);
        }
    }
}

/// Standard output as the records reach it, in input order.
struct Ordered {
    out: Out,
    /// Records are separated by a blank line ([`Style::separates`]).
    separates: bool,
    /// Whether a record has been written: the next part is separated from it.
    wrote_any: bool,
    /// What a sink holds before a spill writes it ([`SPILL_AT`]).
    spill_at: usize,
}

impl Ordered {
    fn new(style: &Style) -> Ordered {
        let raw = style.json || style.copies_inputs() && !stdout_is_a_terminal();
        Ordered {
            out: if raw { Out::raw() } else { Out::new() },
            separates: style.separates(),
            wrote_any: false,
            spill_at: SPILL_AT.with(Cell::get),
        }
    }

    /// Writes `text`, the next of a part; `begun` says whether some of the part went
    /// before it (then it needs no separator), and becomes true.
    fn put(&mut self, text: &str, begun: &mut bool) -> io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        if self.separates && self.wrote_any && !*begun {
            self.out.write_all(b"\n")?;
        }
        self.out.write_all(text.as_bytes())?;
        *begun = true;
        self.wrote_any = true;
        Ok(())
    }
}

/// Where a command renders the result of one input: the `String` of its record
/// (through `Deref`; it may hold records before it, so take marks with `len()`), which
/// this module writes when the input is done, or in pieces while it is rendered: see
/// the module doc, [`Sink::verdict`] and [`Sink::spill`].
#[derive(Default)]
pub struct Sink<'w> {
    text: String,
    /// Where this input's record begins in `text`.
    start: usize,
    /// How the input came out, if the command has said so before it is done.
    verdict: Option<Status>,
    /// The way out for a record that is next in input order; `None` for one that
    /// waits for records before it, and for a sink that only collects text.
    early: Option<Early<'w>>,
}

/// What a spill needs to write a piece of a record as a whole record is written.
struct Early<'w> {
    style: &'w Style,
    input: &'w Input<'w>,
    out: &'w mut Ordered,
    /// The part the record belongs to: its records not written yet, and its state.
    part: &'w mut Part,
    /// Whether a piece of this record has been written.
    begun: bool,
    /// The write error that ends the run: nothing more is written.
    error: Option<io::Error>,
}

impl Sink<'_> {
    /// Says how the input came out, before the record is done: under a filter
    /// (`--valid-only`, ...) a record can go out early only once the filter knows it
    /// keeps it. The status returned at the end must be the same.
    pub fn verdict(&mut self, status: Status) {
        self.verdict = Some(status);
    }

    /// Marks a point where the text so far is final: what has accumulated is written
    /// if it is beyond the threshold and the record may go out now (module doc).
    pub fn spill(&mut self) {
        let Some(early) = &mut self.early else {
            return;
        };
        if self.text.len() < early.out.spill_at {
            return;
        }
        if early.error.is_some() {
            // The run ends with that error: what follows need not be kept.
            self.text.clear();
            self.start = 0;
            return;
        }
        let style = early.style;
        let kept = match self.verdict {
            Some(status) => style.shows(status),
            None => !style.filters(),
        };
        if !kept {
            return;
        }
        let written = if !style.separates() && !style.prefixes() {
            // The text is the part's (records before this one, then this one so far),
            // as written.
            let written = early.out.put(&self.text, &mut early.part.begun);
            self.text.clear();
            self.start = 0;
            written
        } else {
            // The text is this record's alone: its whole lines go into the part,
            // separated and prefixed, and the part goes out.
            let end = if style.prefixes() {
                self.text.rfind('\n').map_or(0, |k| k + 1)
            } else {
                self.text.len()
            };
            if end == 0 {
                return;
            }
            early
                .part
                .add(style, early.input, &self.text[..end], !early.begun);
            self.text.drain(..end);
            let written = early.out.put(&early.part.text, &mut early.part.begun);
            early.part.text.clear();
            written
        };
        early.begun = true;
        if let Err(e) = written {
            early.error = Some(e);
        }
    }
}

impl Deref for Sink<'_> {
    type Target = String;
    fn deref(&self) -> &String {
        &self.text
    }
}

impl DerefMut for Sink<'_> {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.text
    }
}

/// A tree's JSON goes out node by node from a record ([`Sink::spill`]).
impl crate::literals::TreeOut for Sink<'_> {
    fn text(&mut self) -> &mut String {
        &mut self.text
    }

    fn spill(&mut self) {
        Sink::spill(self);
    }
}

/// The counts of `--summary`.
#[derive(Default)]
struct Tally {
    inputs: usize,
    success: usize,
    unknown: usize,
    failed: usize,
    why: HashMap<Why, usize>,
    status: Option<Status>,
}

impl Tally {
    fn add(&mut self, j: Judged) {
        self.inputs += 1;
        match j.status {
            Status::Success => self.success += 1,
            Status::Unknown => self.unknown += 1,
            Status::Failed => self.failed += 1,
        }
        if let Some(w) = j.why {
            *self.why.entry(w).or_insert(0) += 1;
        }
        self.status = Some(self.status.map_or(j.status, |s| s.and(j.status)));
    }

    fn merge(&mut self, other: Tally) {
        self.inputs += other.inputs;
        self.success += other.success;
        self.unknown += other.unknown;
        self.failed += other.failed;
        for (w, n) in other.why {
            *self.why.entry(w).or_insert(0) += n;
        }
        if let Some(s) = other.status {
            self.status = Some(self.status.map_or(s, |t| t.and(s)));
        }
    }

    fn status(&self) -> Status {
        self.status.unwrap_or(Status::Success)
    }
}

/// Renders `inputs` into a part: each input by `f`, kept or dropped by `style`,
/// prefixed with the input under `--with-input`. With `out`, the part is the next to
/// be written, and records may go out while they are rendered (`Sink::spill`); the
/// part returned holds what has not. Without, a write cannot fail.
fn render<'a, F>(
    inputs: impl IntoIterator<Item = Input<'a>>,
    style: &Style,
    f: &F,
    mut out: Option<&mut Ordered>,
) -> io::Result<Part>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judged,
{
    let mut part = Part::default();
    // The common case renders straight into the part, and takes back what is not
    // shown; with separators or prefixes, a record is rendered apart, then added.
    let whole = !style.separates() && !style.prefixes();
    // A record that becomes a copy of its input goes out only once it is whole.
    let copies = style.copies_inputs();
    let mut record = String::new();
    for input in inputs {
        let input = &input;
        let text = std::mem::take(if whole { &mut part.text } else { &mut record });
        let mut sink = Sink {
            start: text.len(),
            text,
            verdict: None,
            early: out.as_deref_mut().filter(|_| !copies).map(|out| Early {
                style,
                input,
                out,
                part: &mut part,
                begun: false,
                error: None,
            }),
        };
        let judged = f(input, &mut sink);
        let Sink {
            mut text,
            start,
            verdict,
            early,
        } = sink;
        let begun = match early {
            Some(Early { error: Some(e), .. }) => return Err(e),
            Some(early) => early.begun,
            None => false,
        };
        debug_assert!(
            !begun || verdict.is_none_or(|v| v == judged.status),
            "a record went out as {verdict:?} and ended as {:?}",
            judged.status
        );
        // A record that began to go out is finished, whatever the filter says now.
        let shown = begun || style.shows(judged.status);
        if shown && copies {
            text.truncate(start);
            text.push_str(&input.lossy());
            text.push('\n');
        }
        if whole {
            if !shown {
                text.truncate(start);
            }
            part.text = text;
        } else {
            if shown && !text.is_empty() {
                part.add(style, input, &text, !begun);
            }
            text.clear();
            record = text;
        }
        part.tally.add(judged);
    }
    Ok(part)
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

/// A block of standard input holds whole lines, read until it holds at least this
/// many bytes (a regular file) or what one read gave (a pipe or a terminal, which may
/// wait for its writer); a line longer than this makes a longer block. Thousands of
/// lines, so that handing a block over costs nothing that shows; small enough that
/// the blocks a pool holds stay small, output included (`tree --format json` writes
/// forty times its input).
const BLOCK_BYTES: usize = 256 * 1024;
/// What one read of a pipe or a terminal asks for: a pipe's buffer.
const PIPE_READ_BYTES: usize = 64 * 1024;
/// Below this many lines a block is rendered on the thread that writes, in its turn:
/// a few lines cost less than handing them over, and a record that is next in order
/// can go out in pieces while it is rendered ([`Sink::spill`]), which matters for
/// the long lines that make short blocks.
const PARALLEL_FROM: usize = 512;
/// The blocks read ahead of the one being written, per rendering thread: enough to
/// keep every thread busy while the writer waits for the next in order, few enough
/// to bound memory (this many times [`BLOCK_BYTES`] a thread, and their output).
const AHEAD_PER_THREAD: usize = 2;

/// Renders the arguments, on several threads if they are many (each renders a
/// contiguous part): the parts in order, what is left of them to write. The first
/// part is rendered on this thread, which writes: it is next in order, so its records
/// may go out while they are rendered.
fn render_batch<F>(
    inputs: &[Input<'_>],
    style: &Style,
    f: &F,
    out: &mut Ordered,
) -> io::Result<Vec<Part>>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judged + Sync,
{
    // Each thread renders a part of at least PARALLEL_FROM / 2 inputs: a thread
    // costs more to start than a few hundred lines cost to render.
    let threads = style.threads().min(inputs.len() / (PARALLEL_FROM / 2));
    if threads <= 1 {
        return Ok(vec![render(inputs.iter().cloned(), style, f, Some(out))?]);
    }
    let chunk = inputs.len().div_ceil(threads);
    let (first, rest) = inputs.split_at(chunk);
    std::thread::scope(|scope| {
        // A thread the system will not start (out of memory or of address space)
        // leaves its part to this thread, after the first: the output is the same.
        let handles: Vec<_> = rest
            .chunks(chunk)
            .map(|part| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || render(part.iter().cloned(), style, f, None))
                    .map_err(|_| part)
            })
            .collect();
        let first = render(first.iter().cloned(), style, f, Some(out));
        std::iter::once(first)
            .chain(handles.into_iter().map(|h| {
                match h {
                    Ok(h) => h
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                    Err(part) => render(part.iter().cloned(), style, f, None),
                }
            }))
            .collect()
    })
}

/// Whole lines of standard input, their place among the inputs, and the block's
/// place among the blocks.
struct Block {
    /// The lines, each ended by LF but perhaps the last (the end of the input): the
    /// first `len` bytes of a buffer that is given back to be read into again
    /// ([`Blocks::recycle`]), so that it is not allocated, zeroed and faulted in anew.
    data: Vec<u8>,
    len: usize,
    /// The index of the first line.
    first: usize,
    /// How many lines `data` holds.
    lines: usize,
    /// 0-based: the how-manieth block this is.
    seq: usize,
}

impl Block {
    /// The lines as inputs: LF or CRLF stripped, text where they are UTF-8. The
    /// block is checked as a whole, the way that is fast for many short lines; a
    /// block with a line that is not UTF-8 is checked line by line, for the messages.
    /// (A line ends at an LF, which is never within a character: the lines of UTF-8
    /// text are UTF-8.)
    fn inputs(&self) -> Lines<'_> {
        let data = &self.data[..self.len];
        Lines {
            data,
            text: std::str::from_utf8(data).ok(),
            ends: memchr::memchr_iter(b'\n', data),
            start: 0,
            index: self.first,
        }
    }
}

/// The lines of a [`Block`] as inputs ([`Block::inputs`]). A struct rather than a
/// closure so that `next` is inlined into the loop that renders the lines: called,
/// it handed each `Input` back through memory, and reading it back stalled on
/// store forwarding (a tenth of `check`'s time, perf annotate of `render`).
struct Lines<'a> {
    data: &'a [u8],
    /// The whole block as text, when it is all UTF-8.
    text: Option<&'a str>,
    ends: memchr::Memchr<'a>,
    /// Where the next line starts.
    start: usize,
    /// The next line's place among the inputs.
    index: usize,
}

impl<'a> Iterator for Lines<'a> {
    type Item = Input<'a>;

    #[inline(always)]
    fn next(&mut self) -> Option<Input<'a>> {
        let (data, start) = (self.data, self.start);
        if start >= data.len() {
            return None;
        }
        let (end, next) = match self.ends.next() {
            // Only this line's own CR goes with its LF: an empty line must not take
            // the CR that ends the line before it (`a\r\r\n\n`: FUZZING.md finding 10).
            Some(lf) if lf > start && data[lf - 1] == b'\r' => (lf - 1, lf + 1),
            Some(lf) => (lf, lf + 1),
            None => (data.len(), data.len()),
        };
        let raw = &data[start..end];
        let input = Input {
            text: match self.text {
                Some(text) => Ok(&text[start..end]),
                None => std::str::from_utf8(raw).map_err(not_utf8),
            },
            raw,
            index: self.index,
        };
        self.start = next;
        self.index += 1;
        Some(input)
    }
}

/// The message of a line that is not UTF-8.
fn not_utf8(e: std::str::Utf8Error) -> String {
    format!(
        "the input is not UTF-8 (invalid byte at offset {})",
        e.valid_up_to()
    )
}

/// Standard input cut into [`Block`]s of whole lines.
struct Blocks {
    reader: Box<dyn Read + Send>,
    /// Whether a read never waits (a regular file): blocks are filled.
    file: bool,
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
    /// The error of a line beyond `max_line`, once the lines before it are a block.
    too_long: Option<Failure>,
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
    fn new(reader: Box<dyn Read + Send>, file: bool) -> Blocks {
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
            max_line: MAX_LINE.with(Cell::get),
            too_long: None,
        }
    }

    /// The next block: a regular file's fills up to [`BLOCK_BYTES`]; a pipe's is
    /// what one read gave, so that an interactive line is answered at once. Either
    /// way it holds at least one whole line, or what the end of the input left.
    /// `None` at the end. A read error names the line it came after; a line longer
    /// than `max_line` is an error that names it, found once that many bytes of it
    /// are read, so that no more than that is ever held of one line.
    fn next_block(&mut self) -> Result<Option<Block>, Failure> {
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
                BLOCK_BYTES.saturating_sub(start).max(PIPE_READ_BYTES)
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
                        return Err(Failure::Io(format!(
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
                if !self.file || len >= BLOCK_BYTES {
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
        let mut lines = memchr::memchr_iter(b'\n', &data[..len]).count();
        if data[len - 1] != b'\n' {
            lines += 1;
        }
        let block = Block {
            data,
            len,
            first: self.lines,
            lines,
            seq: self.seq,
        };
        self.lines += lines;
        self.offset += len as u64;
        self.seq += 1;
        Ok(Some(block))
    }

    /// The error for a line longer than `max_line`, which starts after `before`
    /// (the bytes of this block that precede it).
    fn line_too_long(&self, before: &[u8]) -> Failure {
        let line = self.lines + memchr::memchr_iter(b'\n', before).count() + 1;
        let offset = self.offset + before.len() as u64;
        Failure::Io(format!(
            "line {line} of standard input (from byte offset {offset}) is longer than \
             {} bytes, the longest line read: --max-line-bytes raises the limit",
            self.max_line
        ))
    }

    /// Gives back the buffer of a block done with, to read the next ones into.
    fn recycle(&mut self, data: Vec<u8>) {
        self.spare.push(data);
    }
}

/// What the reading thread and the rendering threads tell the writing thread.
enum Event {
    /// The next block, or the end of the input (`None`), or why reading failed.
    Read(Result<Option<Block>, Failure>),
    /// What a block came to (or the panic that stopped its thread).
    /// The block's buffer comes back with it, to be read into again.
    Rendered(usize, Vec<u8>, std::thread::Result<Part>),
}

/// Says on standard error when an argument, judged as an input itself, also names a
/// file: `iri check urls.txt` judges the string `urls.txt` (a valid relative
/// reference), not the file's lines, which a newcomer easily expects. Once a run;
/// the verdicts and the exit status are not changed.
fn note_file_arguments(args: &[String]) {
    let mut files = args
        .iter()
        .filter(|a| std::path::Path::new(a.as_str()).is_file());
    if let Some(first) = files.next() {
        let more = files.count();
        let others = match more {
            0 => String::new(),
            1 => " (and 1 other argument)".to_string(),
            n => format!(" (and {n} other arguments)"),
        };
        tell(&format!(
            "iri: note: the argument {first:?}{others} is judged as a string, though it \
             names a file; to judge the file's lines, give them on standard input: \
             iri ... < {first}"
        ));
    }
}

/// Runs `f` on each input, from the arguments or from standard input: `f` renders
/// the input's result (text or JSON, as `style.json` says) into the sink it is given
/// (a `String`, which a big record may leave in pieces: see the module doc), and says
/// how the input came out. Writes the results in input order, filtered and prefixed
/// as `style` says, then the summary if asked for.
pub fn each_input<F>(args: &[String], style: &Style, f: F) -> Verdicts
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judged + Sync,
{
    let mut out = Ordered::new(style);
    let mut tally = Tally::default();
    if !args.is_empty() {
        note_file_arguments(args);
        let inputs: Vec<Input<'_>> = args
            .iter()
            .enumerate()
            .map(|(index, s)| Input {
                text: Ok(s),
                raw: s.as_bytes(),
                index,
            })
            .collect();
        let written = render_batch(&inputs, style, &f, &mut out).and_then(|parts| {
            parts
                .into_iter()
                .try_for_each(|part| write_part(part, style, &mut out, &mut tally).map(drop))
        });
        if let Err(e) = written {
            return ended_by_status(e, tally.status());
        }
        return finish(out.out, style, &tally);
    }
    let blocks = Blocks::new(stdin_reader(), stdin_is_a_file());
    let threads = style.threads();
    let result = if threads > 1 {
        each_block_on_threads(blocks, threads, style, &f, &mut out, &mut tally)
    } else {
        each_block(blocks, style, &f, &mut out, &mut tally)
    };
    match result {
        Ok(()) => finish(out.out, style, &tally),
        Err(Ended::Written(e)) => ended_by_status(e, tally.status()),
        Err(Ended::Read(failure)) => {
            let _ = out.out.flush();
            Err(failure)
        }
    }
}

/// Why the reading of blocks ended early.
enum Ended {
    /// Writing failed (a closed pipe among the reasons).
    Written(io::Error),
    /// Reading failed.
    Read(Failure),
}

impl From<io::Error> for Ended {
    fn from(e: io::Error) -> Ended {
        Ended::Written(e)
    }
}

/// Writes what is left of a part and counts it; false when the run should stop
/// (`-q` has its answer).
fn write_part(
    mut part: Part,
    style: &Style,
    out: &mut Ordered,
    tally: &mut Tally,
) -> io::Result<bool> {
    out.put(&part.text, &mut part.begun)?;
    tally.merge(part.tally);
    Ok(!(style.quiet && !style.summary && tally.status() != Status::Success))
}

/// Each block rendered and written on this thread, one after the other (`--jobs 1`,
/// one core, or no thread to be had). Output is flushed before each read of a pipe
/// or a terminal, which may wait.
fn each_block<F>(
    mut blocks: Blocks,
    style: &Style,
    f: &F,
    out: &mut Ordered,
    tally: &mut Tally,
) -> Result<(), Ended>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judged + Sync,
{
    loop {
        if !blocks.file {
            out.out.flush()?;
        }
        let Some(block) = blocks.next_block().map_err(Ended::Read)? else {
            return Ok(());
        };
        let part = render(block.inputs(), style, f, Some(out))?;
        blocks.recycle(block.data);
        if !write_part(part, style, out, tally)? {
            return Ok(());
        }
    }
}

/// Each block rendered on one of `threads` threads and written on this one, in
/// order; a thread reads ahead. Memory is bounded: the reading thread waits when
/// [`AHEAD_PER_THREAD`] blocks a thread are read and not yet written. Output is
/// flushed whenever this thread has nothing to do: no input waiting, no block
/// rendered that is next in order.
fn each_block_on_threads<F>(
    blocks: Blocks,
    threads: usize,
    style: &Style,
    f: &F,
    out: &mut Ordered,
    tally: &mut Tally,
) -> Result<(), Ended>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judged + Sync,
{
    use std::collections::{BTreeMap, VecDeque};
    use std::sync::mpsc;
    use std::sync::Mutex;

    let (events, event) = mpsc::channel::<Event>();
    let ahead = AHEAD_PER_THREAD * threads;
    // One credit for each block the reading thread may read ahead of the writer;
    // a credit given back brings the buffer of the block written.
    let (credit, credits) = mpsc::sync_channel::<Option<Vec<u8>>>(ahead);
    for _ in 0..ahead {
        let _ = credit.send(None);
    }
    // The reading thread is not scoped: a read may wait on a terminal for ever, and
    // a run that stops early (`-q`, a closed pipe) must not wait for it. It is given
    // the input once it runs: a thread the system will not start leaves the input
    // to this thread, which then reads, renders and writes alone. Where a read never
    // waits (a regular file, bytes in memory) it is joined before this returns.
    let never_waits = blocks.file;
    let (give, given) = mpsc::channel::<Blocks>();
    let reader = {
        let events = events.clone();
        std::thread::Builder::new()
            .name("iri-read".to_string())
            .spawn(move || {
                let Ok(mut blocks) = given.recv() else { return };
                while let Ok(spare) = credits.recv() {
                    if let Some(data) = spare {
                        blocks.recycle(data);
                    }
                    let read = blocks.next_block();
                    let more = matches!(read, Ok(Some(_)));
                    if events.send(Event::Read(read)).is_err() || !more {
                        return;
                    }
                }
            })
    };
    if reader.is_err() {
        return each_block(blocks, style, f, out, tally);
    }
    if let Err(mpsc::SendError(blocks)) = give.send(blocks) {
        return each_block(blocks, style, f, out, tally);
    }
    let (work, jobs) = mpsc::channel::<Block>();
    let jobs = Mutex::new(jobs);
    let result = std::thread::scope(|scope| {
        let mut renderers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let events = events.clone();
            let jobs = &jobs;
            let spawned = std::thread::Builder::new()
                .name("iri-render".to_string())
                .spawn_scoped(scope, move || loop {
                    let next = jobs.lock().map(|jobs| jobs.recv());
                    let Ok(Ok(block)) = next else { return };
                    let part = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        render(block.inputs(), style, f, None)
                            .expect("a part without a writer cannot fail to write")
                    }));
                    if events
                        .send(Event::Rendered(block.seq, block.data, part))
                        .is_err()
                    {
                        return;
                    }
                });
            if let Ok(renderer) = spawned {
                renderers.push(renderer);
            }
        }
        let started = renderers.len();
        drop(events);
        // Blocks read and not yet handed over; parts rendered and not yet written.
        let mut waiting: VecDeque<Block> = VecDeque::new();
        let mut rendered: BTreeMap<usize, (Part, Vec<u8>)> = BTreeMap::new();
        let mut next = 0;
        let mut read = 0;
        let mut ended = false;
        let result = (|| loop {
            // What is next in order goes out, and gives its credit back.
            while let Some((part, data)) = rendered.remove(&next) {
                next += 1;
                let _ = credit.send(Some(data));
                if !write_part(part, style, out, tally)? {
                    return Ok(());
                }
            }
            // Blocks go to the threads; a short one waits for its turn and is
            // rendered here (all of them, when no thread started).
            while let Some(block) = waiting.front() {
                if block.lines >= PARALLEL_FROM && started > 0 {
                    let block = waiting.pop_front().expect("a block is waiting");
                    if let Err(mpsc::SendError(block)) = work.send(block) {
                        waiting.push_front(block);
                        break;
                    }
                } else if block.seq == next {
                    let block = waiting.pop_front().expect("a block is waiting");
                    let part = render(block.inputs(), style, f, Some(out))?;
                    next += 1;
                    let _ = credit.send(Some(block.data));
                    if !write_part(part, style, out, tally)? {
                        return Ok(());
                    }
                } else {
                    break;
                }
            }
            if ended && next == read {
                return Ok(());
            }
            let e = match event.try_recv() {
                Ok(e) => e,
                Err(_) => {
                    out.out.flush()?;
                    match event.recv() {
                        Ok(e) => e,
                        // Only a bug could leave nothing to wait for.
                        Err(_) => {
                            return Err(Ended::Read(Failure::Io(
                                "reading standard input: the reading thread stopped".to_string(),
                            )))
                        }
                    }
                }
            };
            match e {
                Event::Read(Ok(Some(block))) => {
                    read += 1;
                    waiting.push_back(block);
                }
                Event::Read(Ok(None)) => ended = true,
                Event::Read(Err(failure)) => return Err(Ended::Read(failure)),
                Event::Rendered(seq, data, Ok(part)) => {
                    rendered.insert(seq, (part, data));
                }
                Event::Rendered(_, _, Err(panic)) => std::panic::resume_unwind(panic),
            }
        })();
        // The rendering threads end when the work does. They are joined here, not
        // left to the scope, which waits for a thread's closure but not for its
        // thread-local destructors: when this returns, the threads are gone.
        drop(work);
        for renderer in renderers {
            let _ = renderer.join();
        }
        result
    });
    if never_waits {
        // Unblocked (its sends fail, its wait for a credit ends), the reading thread
        // stops after at most one more block.
        drop((event, credit));
        if let Ok(reader) = reader {
            let _ = reader.join();
        }
    }
    result
}

/// Whether standard input is a regular file, or bytes in memory (which a read never
/// waits on).
fn stdin_is_a_file() -> bool {
    if MEMORY.with(|m| m.borrow().is_some()) {
        return true;
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        io::stdin()
            .as_fd()
            .try_clone_to_owned()
            .ok()
            .map(std::fs::File::from)
            .and_then(|f| f.metadata().ok())
            .is_some_and(|m| m.is_file())
    }
    #[cfg(not(unix))]
    {
        false
    }
}

/// Whether standard output is a terminal (never for output in memory).
fn stdout_is_a_terminal() -> bool {
    use std::io::IsTerminal;
    MEMORY.with(|m| m.borrow().is_none()) && io::stdout().is_terminal()
}

/// Sets how much a [`Sink`] holds before a spill writes it, on this thread.
#[cfg(test)]
pub fn set_spill_at(bytes: usize) {
    SPILL_AT.with(|s| s.set(bytes));
}

/// Writes the summary if asked for, flushes, and gives the run's status.
fn finish(mut out: Out, style: &Style, tally: &Tally) -> Verdicts {
    let status = tally.status();
    if style.summary {
        let text = if style.json {
            summary_json(tally)
        } else {
            summary_text(tally)
        };
        if let Err(e) = out.write_all(text.as_bytes()) {
            return ended_by_status(e, status);
        }
    }
    match out.w.flush() {
        Ok(()) => Ok(status),
        Err(e) => ended_by_status(e, status),
    }
}

/// The reasons counted, most frequent first (then in a fixed order).
fn reasons(tally: &Tally) -> Vec<(&Why, usize)> {
    let mut v: Vec<(&Why, usize)> = tally.why.iter().map(|(w, n)| (w, *n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    v
}

/// The closing block of `--summary`: a line of counts, then one line per reason.
fn summary_text(tally: &Tally) -> String {
    let mut s = format!(
        "summary: {} inputs, {} valid, {} invalid",
        tally.inputs, tally.success, tally.failed
    );
    if tally.unknown > 0 {
        let _ = write!(s, ", {} unknown", tally.unknown);
    }
    s.push('\n');
    for (why, n) in reasons(tally) {
        match why {
            Why::Grammar {
                component,
                rule,
                expected,
            } => {
                let _ = write!(s, "{n:>8}  ");
                if let Some(c) = component {
                    let _ = write!(s, "{c}, ");
                }
                let _ = write!(s, "in {}: expected ", rule.as_deref().unwrap_or("(top)"));
                match expected.split_last() {
                    None => s.push_str("something else"),
                    Some((last, [])) => s.push_str(last),
                    Some((last, rest)) => {
                        let _ = write!(s, "{} or {last}", rest.join(", "));
                    }
                }
                s.push('\n');
            }
            Why::Blame {
                component, reason, ..
            } => {
                let _ = writeln!(s, "{n:>8}  {component}: {reason}");
            }
            Why::Reason(r) => {
                let _ = writeln!(s, "{n:>8}  {r}");
            }
        }
    }
    s
}

/// The summary as one JSON object: `{"summary": {"inputs", "valid", "invalid",
/// "unknown", "failures": [{"count", "component", "rule", "expected", "reason"}]}}`.
fn summary_json(tally: &Tally) -> String {
    let failures = json::array(reasons(tally).into_iter().map(|(why, n)| {
        let o = Object::new().num("count", n);
        match why {
            Why::Grammar {
                component,
                rule,
                expected,
            } => o
                .opt_str("component", *component)
                .opt_str("rule", rule.as_deref())
                .strs("expected", expected.iter().map(String::as_str))
                .null("reason"),
            Why::Blame {
                component,
                rule,
                reason,
            } => o
                .str("component", component)
                .str("rule", rule)
                .strs("expected", std::iter::empty())
                .str("reason", reason),
            Why::Reason(r) => o
                .null("component")
                .null("rule")
                .strs("expected", std::iter::empty())
                .str("reason", r),
        }
        .finish()
    }));
    let inner = Object::new()
        .num("inputs", tally.inputs)
        .num("valid", tally.success)
        .num("invalid", tally.failed)
        .num("unknown", tally.unknown)
        .raw("failures", &failures)
        .finish();
    let mut s = Object::new().raw("summary", &inner).finish();
    s.push('\n');
    s
}

/// Each input, read the same way as [`each_input`] but handed to `f` one at a time
/// on this thread, for commands that gather over all inputs (`coverage`).
pub fn for_each_input(args: &[String], mut f: impl FnMut(&Input<'_>)) -> Result<(), Failure> {
    if !args.is_empty() {
        note_file_arguments(args);
        for (index, s) in args.iter().enumerate() {
            f(&Input {
                text: Ok(s),
                raw: s.as_bytes(),
                index,
            });
        }
        return Ok(());
    }
    // Nothing is written before the end: blocks may fill, whatever the input is.
    let mut blocks = Blocks::new(stdin_reader(), true);
    while let Some(block) = blocks.next_block()? {
        block.inputs().for_each(|input| f(&input));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

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

    /// How many bytes [`in_memory`] has been given so far.
    fn written() -> usize {
        MEMORY.with(|m| m.borrow().as_ref().map_or(0, |m| m.output.borrow().len()))
    }

    /// Runs `f` on `inputs` (arguments) in memory; what each spill had written by
    /// then, and what was written in all.
    fn pieces(
        style: &Style,
        inputs: &[&str],
        f: impl Fn(&Input<'_>, &mut Sink<'_>) -> Judged + Sync,
    ) -> (Vec<usize>, Vec<u8>) {
        let inputs: Vec<String> = inputs.iter().map(|s| s.to_string()).collect();
        let seen = Mutex::new(Vec::new());
        let (status, out) = in_memory(b"", || {
            each_input(&inputs, style, |input, sink| {
                let judged = f(input, sink);
                seen.lock().unwrap().push(written());
                judged
            })
        });
        assert!(status.is_ok());
        (seen.into_inner().unwrap(), out)
    }

    #[test]
    fn a_record_goes_out_in_pieces_while_it_is_rendered() {
        let step = SPILL_AT.with(Cell::get);
        let spilled = Mutex::new(Vec::new());
        let (seen, out) = pieces(&Style::default(), &["a", "b"], |_, sink| {
            for _ in 0..3 {
                sink.push_str(&"x".repeat(step));
                sink.spill();
                spilled.lock().unwrap().push(written());
            }
            sink.push('\n');
            Judged::success()
        });
        // Each piece passed the output's buffer before the next was rendered; what the
        // first record left (its line's end) went out with the second's first piece.
        let after_a = [step, 2 * step, 3 * step];
        let after_b = [4 * step + 1, 5 * step + 1, 6 * step + 1];
        assert_eq!(spilled.into_inner().unwrap(), [after_a, after_b].concat());
        assert_eq!(seen, [3 * step, 6 * step + 1]);
        assert_eq!(out.len(), 6 * step + 2);
    }

    #[test]
    fn a_filter_keeps_a_record_until_it_knows_the_verdict() {
        let step = SPILL_AT.with(Cell::get);
        let style = Style {
            valid_only: true,
            ..Style::default()
        };
        let record = |sink: &mut Sink<'_>| {
            for _ in 0..3 {
                sink.push_str(&"x".repeat(step));
                sink.spill();
            }
            sink.push('\n');
        };
        // Unsaid, the verdict could drop the record: it is held whole.
        let (seen, out) = pieces(&style, &["a"], |_, sink| {
            record(sink);
            Judged::success()
        });
        assert_eq!((seen, out.len()), (vec![0], 3 * step + 1));
        // Said invalid, it is held, then dropped.
        let (seen, out) = pieces(&style, &["a"], |_, sink| {
            sink.verdict(Status::Failed);
            record(sink);
            Judged::failed(Why::Reason("no".to_string()))
        });
        assert_eq!((seen, out.len()), (vec![0], 0));
        // Said valid, it goes out as it is rendered.
        let (seen, out) = pieces(&style, &["a"], |_, sink| {
            sink.verdict(Status::Success);
            record(sink);
            Judged::success()
        });
        assert_eq!((seen, out.len()), (vec![3 * step], 3 * step + 1));
    }

    /// A command of several lines a record, spilling everywhere, mid-line too: an
    /// input with a `!` fails.
    fn lines(declare: bool) -> impl Fn(&Input<'_>, &mut Sink<'_>) -> Judged + Sync {
        move |input, sink| {
            let text = input.lossy();
            let ok = !text.contains('!');
            let status = Status::from(ok);
            if declare {
                sink.verdict(status);
            }
            for (k, c) in text.chars().enumerate() {
                let _ = write!(sink, "line {k} ");
                sink.spill();
                let _ = writeln!(sink, "of {text:?}: {c}");
                sink.spill();
            }
            if ok {
                Judged::success()
            } else {
                Judged::failed(Why::Reason("bang".to_string()))
            }
        }
    }

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
    fn lines_of(data: &[u8]) -> Vec<Vec<u8>> {
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
    fn mixed_lines() -> Vec<u8> {
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
        for (file, sizes) in [
            (true, vec![usize::MAX]),
            (true, vec![1, 7, 4096, 100_000]),
            (false, vec![usize::MAX]),
            (false, vec![1, 2, 3, 65_536, 13]),
        ] {
            let reader = Trickle {
                data: io::Cursor::new(data.clone()),
                sizes,
                reads: 0,
            };
            let mut blocks = Blocks::new(Box::new(reader), file);
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
                assert_eq!(got.len() - before, block.lines);
                seq += 1;
                blocks.recycle(block.data);
            }
            assert!(got == want, "file: {file}");
        }
    }

    #[test]
    fn threads_write_what_one_thread_writes() {
        let data = mixed_lines();
        let f = |input: &Input<'_>, sink: &mut Sink<'_>| {
            let text = input.lossy();
            let _ = writeln!(sink, "{} {}", input.index, text.len());
            if text.contains('!') || input.text.is_err() {
                Judged::failed(Why::Reason("bang".to_string()))
            } else {
                Judged::success()
            }
        };
        for mask in 0..16u32 {
            let bit = |k: u32| mask & (1 << k) != 0;
            let style = Style {
                json: bit(0),
                with_input: bit(1),
                valid_only: bit(2),
                summary: bit(3),
                blank_line_between: bit(1),
                pair: false,
                verdicts: bit(2),
                ..Style::default()
            };
            let run = |threads: usize| {
                let (written, out) = in_memory(b"", || {
                    let mut out = Ordered::new(&style);
                    let mut tally = Tally::default();
                    let blocks = Blocks::new(Box::new(io::Cursor::new(data.clone())), true);
                    let ended = if threads == 1 {
                        each_block(blocks, &style, &f, &mut out, &mut tally)
                    } else {
                        each_block_on_threads(blocks, threads, &style, &f, &mut out, &mut tally)
                    };
                    assert!(ended.is_ok());
                    finish(out.out, &style, &tally)
                });
                assert_eq!(written.ok(), Some(Status::Failed));
                out
            };
            let one = run(1);
            assert!(!one.is_empty());
            for threads in [2, 3, 8] {
                assert!(run(threads) == one, "{style:?}, {threads} threads");
            }
        }
    }

    #[test]
    fn pieces_are_written_as_whole_records_are() {
        let short = ["abc", "d!", "", "e\tf", "g\u{1}h!", "ij"];
        let many: Vec<String> = (0..700)
            .map(|k| format!("{}{}", "k".repeat(k % 7), if k % 5 == 0 { "!" } else { "" }))
            .collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        for mask in 0..256u32 {
            let bit = |k: u32| mask & (1 << k) != 0;
            if bit(3) && bit(4) {
                continue; // --valid-only and --invalid-only conflict
            }
            let style = Style {
                json: bit(0),
                with_input: bit(1),
                valid_only: bit(3),
                invalid_only: bit(4),
                summary: bit(5),
                jobs: Some(if bit(6) { 2 } else { 1 }),
                quiet: false,
                blank_line_between: bit(2),
                pair: bit(7),
                verdicts: false,
            };
            for inputs in [&short[..], &many[..]] {
                for declare in [false, true] {
                    set_spill_at(usize::MAX);
                    let (_, whole) = pieces(&style, inputs, lines(declare));
                    set_spill_at(1);
                    let (_, cut) = pieces(&style, inputs, lines(declare));
                    assert!(whole == cut, "{style:?}, declared: {declare}");
                }
            }
        }
    }
}
