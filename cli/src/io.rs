//! Inputs and outputs: the one place that knows about standard input and output,
//! lines, flushing, threads, and how an I/O error ends the program.
//!
//! Inputs come from the arguments or, with none, from standard input, one per line
//! (LF or CRLF stripped). A command renders each input's result into a string
//! ([`each_input`]); this module decides what of it is written (`--quiet`,
//! `--valid-only`, `--invalid-only`), prefixes it (`--with-input`), counts it
//! (`--summary`) and writes it in input order, whatever thread rendered it (`--jobs`).
//!
//! Lines of standard input are read in batches of what is already waiting (never
//! waiting for a batch to fill), so that results stream: an interactive line is
//! answered at once. A big batch is split among the threads, each rendering a
//! contiguous part; the parts are written in order. Output is flushed whenever no
//! more input is waiting. A closed pipe (`iri check < big.txt | head -1`) ends the run
//! quietly; any other write error, and any read error, is reported on standard error
//! and ends the run with status 74.
//!
//! For [`crate::run_in_memory`] (the fuzz target `cli_lines` and in-process tests),
//! standard input and output can be bytes in memory instead, for the current thread:
//! the commands are the same code either way, only the two streams differ.

use crate::args::ScriptArgs;
use crate::json::{self, Object};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::{self, BufRead, BufWriter, Read, Write};
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

/// Standard input: the process's, or the bytes of [`in_memory`].
fn stdin_reader() -> Box<dyn Read> {
    let memory = MEMORY.with(|m| {
        m.borrow_mut()
            .as_mut()
            .map(|m| m.input.take().unwrap_or_default())
    });
    match memory {
        Some(bytes) => Box::new(io::Cursor::new(bytes)),
        None => Box::new(io::stdin().lock()),
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

/// Why an input did not succeed, as `--summary` groups them: the grammar's farthest
/// failure (its innermost rule and what was expected there), or a reason without a
/// place in the grammar (`not-utf8`, `idna`, a lint code, ...).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Why {
    Grammar {
        rule: Option<String>,
        expected: Vec<String>,
    },
    Reason(String),
}

/// Standard output, buffered.
pub struct Out {
    w: BufWriter<Box<dyn Write>>,
}

impl Out {
    pub fn new() -> Out {
        Out {
            w: BufWriter::with_capacity(64 * 1024, stdout_writer()),
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
        self.w.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.w.write_all(buf)
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
    /// The options of the command line (`-H`, `-q`, `--summary`, ...).
    pub script: ScriptArgs,
    /// Text records of several lines (`parse`) are separated by a blank line.
    pub blank_line_between: bool,
    /// Each input is a pair, A TAB B (`compare`): `--with-input` writes two columns.
    pub pair: bool,
}

impl Style {
    fn shows(&self, status: Status) -> bool {
        let s = &self.script;
        !(s.quiet
            || s.valid_only && status != Status::Success
            || s.invalid_only && status == Status::Success)
    }

    /// Whether records are separated by a blank line: text records of several lines,
    /// unless each line carries its input.
    fn separates(&self) -> bool {
        self.blank_line_between && !self.json && !self.script.with_input
    }

    /// Whether each text line starts with its input (`--with-input`).
    fn prefixes(&self) -> bool {
        self.script.with_input && !self.json
    }

    fn threads(&self) -> usize {
        match self.script.jobs {
            Some(n) => usize::from(n),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }
}

/// What a part of the inputs came to: the text to write, and the counts.
#[derive(Default)]
struct Part {
    text: String,
    tally: Tally,
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
/// prefixed with the input under `--with-input`.
fn render<F>(inputs: &[Input<'_>], style: &Style, f: &F) -> Part
where
    F: Fn(&Input<'_>, &mut String) -> Judged,
{
    let mut part = Part::default();
    // The common case renders straight into the part, and takes back what is not shown.
    if !style.separates() && !style.prefixes() {
        for input in inputs {
            let mark = part.text.len();
            let judged = f(input, &mut part.text);
            if !style.shows(judged.status) {
                part.text.truncate(mark);
            }
            part.tally.add(judged);
        }
        return part;
    }
    let mut record = String::new();
    for input in inputs {
        record.clear();
        let judged = f(input, &mut record);
        if style.shows(judged.status) && !record.is_empty() {
            if style.separates() && !part.text.is_empty() {
                part.text.push('\n');
            }
            if style.prefixes() {
                let lossy = input.lossy();
                let prefix = match lossy.split_once('\t') {
                    Some((a, b)) if style.pair => format!("{}\t{}", tsv_field(a), tsv_field(b)),
                    _ => tsv_field(&lossy).into_owned(),
                };
                for line in record.split_inclusive('\n') {
                    part.text.push_str(&prefix);
                    part.text.push('\t');
                    part.text.push_str(line);
                }
            } else {
                part.text.push_str(&record);
            }
        }
        part.tally.add(judged);
    }
    part
}

/// An input as the first column of `--with-input`: the characters that would break
/// the line or the columns (U+0000–U+001F, U+007F–U+009F) written `\uXXXX`, as the
/// corpus's TSV files write them.
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

/// Batches of lines: at most this many lines, or about this many bytes.
const BATCH_LINES: usize = 16 * 1024;
const BATCH_BYTES: usize = 2 << 20;
/// Below this many inputs a batch is rendered on the calling thread.
const PARALLEL_FROM: usize = 512;

/// Renders a batch, on several threads if it is big enough: the parts in order.
fn render_batch<F>(inputs: &[Input<'_>], style: &Style, f: &F) -> Vec<Part>
where
    F: Fn(&Input<'_>, &mut String) -> Judged + Sync,
{
    let threads = style.threads();
    if threads <= 1 || inputs.len() < PARALLEL_FROM {
        return vec![render(inputs, style, f)];
    }
    let chunk = inputs.len().div_ceil(threads);
    std::thread::scope(|scope| {
        let handles: Vec<_> = inputs
            .chunks(chunk)
            .map(|part| scope.spawn(move || render(part, style, f)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a rendering thread panicked"))
            .collect()
    })
}

/// Runs `f` on each input, from the arguments or from standard input: `f` renders
/// the input's result (text or JSON, as `style.json` says) into the string it is
/// given, and says how the input came out. Writes the results in input order,
/// filtered and prefixed as `style` says, then the summary if asked for.
pub fn each_input<F>(args: &[String], style: &Style, f: F) -> Verdicts
where
    F: Fn(&Input<'_>, &mut String) -> Judged + Sync,
{
    let mut out = Out::new();
    let mut tally = Tally::default();
    let mut wrote_any = false;
    // Writes the parts of a batch; false when the run should stop (-q has its answer).
    let mut write_parts =
        |parts: Vec<Part>, out: &mut Out, tally: &mut Tally| -> io::Result<bool> {
            for part in parts {
                if !part.text.is_empty() {
                    if style.separates() && wrote_any {
                        out.write_all(b"\n")?;
                    }
                    out.write_all(part.text.as_bytes())?;
                    wrote_any = true;
                }
                tally.merge(part.tally);
            }
            Ok(!(style.script.quiet && !style.script.summary && tally.status() != Status::Success))
        };
    if !args.is_empty() {
        let inputs: Vec<Input<'_>> = args
            .iter()
            .enumerate()
            .map(|(index, s)| Input {
                text: Ok(s),
                raw: s.as_bytes(),
                index,
            })
            .collect();
        let parts = render_batch(&inputs, style, &f);
        if let Err(e) = write_parts(parts, &mut out, &mut tally) {
            return ended_by_status(e, tally.status());
        }
        return finish(out, style, &tally);
    }
    let mut reader = io::BufReader::with_capacity(64 * 1024, stdin_reader());
    let mut data: Vec<u8> = Vec::new();
    let mut ends: Vec<usize> = Vec::new();
    let mut index = 0;
    let mut eof = false;
    // Reading a regular file never waits: batches fill up. A pipe or a terminal may
    // wait for its writer: a batch is what is already there, so that results stream.
    let file = stdin_is_a_file();
    while !eof {
        data.clear();
        ends.clear();
        // What is waiting, up to a batch; at least one line (or the end).
        loop {
            let line_start = data.len();
            match reader.read_until(b'\n', &mut data) {
                Ok(0) => {
                    eof = true;
                    break;
                }
                Ok(_) => {}
                Err(e) => {
                    let _ = out.flush();
                    return Err(Failure::Io(format!("reading standard input: {e}")));
                }
            }
            // Only this line's own CR goes with its LF: an empty line must not take
            // the CR that ends the line before it (`a\r\r\n\n`: FUZZING.md finding 10).
            if data.last() == Some(&b'\n') {
                data.pop();
                if data.len() > line_start && data.last() == Some(&b'\r') {
                    data.pop();
                }
            }
            ends.push(data.len());
            if (!file && reader.buffer().is_empty())
                || ends.len() >= BATCH_LINES
                || data.len() >= BATCH_BYTES
            {
                break;
            }
        }
        if ends.is_empty() {
            break;
        }
        let mut inputs = Vec::with_capacity(ends.len());
        let mut start = 0;
        for &end in &ends {
            let raw = &data[start..end];
            inputs.push(Input {
                text: std::str::from_utf8(raw).map_err(|e| {
                    format!(
                        "the input is not UTF-8 (invalid byte at offset {})",
                        e.valid_up_to()
                    )
                }),
                raw,
                index,
            });
            index += 1;
            start = end;
        }
        let parts = render_batch(&inputs, style, &f);
        match write_parts(parts, &mut out, &mut tally) {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => return ended_by_status(e, tally.status()),
        }
        if reader.buffer().is_empty() {
            if let Err(e) = out.flush() {
                return ended_by_status(e, tally.status());
            }
        }
    }
    finish(out, style, &tally)
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

/// Writes the summary if asked for, flushes, and gives the run's status.
fn finish(mut out: Out, style: &Style, tally: &Tally) -> Verdicts {
    let status = tally.status();
    if style.script.summary {
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
            Why::Grammar { rule, expected } => {
                let _ = writeln!(
                    s,
                    "{n:>8}  {} expects {}",
                    rule.as_deref().unwrap_or("(top)"),
                    if expected.is_empty() {
                        "something else".to_string()
                    } else {
                        expected.join(" | ")
                    }
                );
            }
            Why::Reason(r) => {
                let _ = writeln!(s, "{n:>8}  {r}");
            }
        }
    }
    s
}

/// The summary as one JSON object: `{"summary": {"inputs", "valid", "invalid",
/// "unknown", "failures": [{"count", "rule", "expected", "reason"}]}}`.
fn summary_json(tally: &Tally) -> String {
    let failures = json::array(reasons(tally).into_iter().map(|(why, n)| {
        let o = Object::new().num("count", n);
        match why {
            Why::Grammar { rule, expected } => o
                .opt_str("rule", rule.as_deref())
                .strs("expected", expected.iter().map(String::as_str))
                .null("reason"),
            Why::Reason(r) => o
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
        for (index, s) in args.iter().enumerate() {
            f(&Input {
                text: Ok(s),
                raw: s.as_bytes(),
                index,
            });
        }
        return Ok(());
    }
    let mut reader = io::BufReader::with_capacity(64 * 1024, stdin_reader());
    let mut line = Vec::new();
    let mut index = 0;
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(()),
            Ok(_) => {}
            Err(e) => return Err(Failure::Io(format!("reading standard input: {e}"))),
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        f(&Input {
            text: std::str::from_utf8(&line).map_err(|e| {
                format!(
                    "the input is not UTF-8 (invalid byte at offset {})",
                    e.valid_up_to()
                )
            }),
            raw: &line,
            index,
        });
        index += 1;
    }
}
