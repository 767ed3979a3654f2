//! Inputs and outputs: the one place that knows about standard input and output,
//! lines, flushing, and how an I/O error ends the program.
//!
//! Inputs come from the arguments or, with none, from standard input, one per line
//! (LF or CRLF stripped). Results are written through a buffer that is flushed
//! whenever no more input is waiting, so that results stream. A closed pipe
//! (`iri check < big.txt | head -1`) ends the run quietly; any other write error, and
//! any read error, is reported on standard error and ends the run with status 74.
//!
//! For [`crate::run_in_memory`] (the fuzz target `cli_lines` and in-process tests),
//! standard input and output can be bytes in memory instead, for the current thread:
//! the commands are the same code either way, only the two streams differ.

use std::borrow::Cow;
use std::cell::RefCell;
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

/// One input: its text, or why it has none (a line of standard input that is not
/// UTF-8), and its bytes as read.
pub struct Input<'a> {
    /// The text, or the message that says why there is none.
    pub text: Result<&'a str, String>,
    /// The bytes as given.
    pub raw: &'a [u8],
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

/// Runs `f` on each input, from the arguments or from standard input, writing to
/// standard output; `f` says whether the input succeeded.
pub fn each_input(
    args: &[String],
    mut f: impl FnMut(&mut Out, &Input<'_>) -> io::Result<bool>,
) -> Outcome {
    let mut out = Out::new();
    let mut all_ok = true;
    if !args.is_empty() {
        for s in args {
            let input = Input {
                text: Ok(s),
                raw: s.as_bytes(),
            };
            match f(&mut out, &input) {
                Ok(ok) => all_ok &= ok,
                Err(e) => return ended_by(e, all_ok),
            }
        }
        return out.finish(all_ok);
    }
    let mut reader = io::BufReader::with_capacity(64 * 1024, stdin_reader());
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) => {
                let _ = out.flush();
                return Err(Failure::Io(format!("reading standard input: {e}")));
            }
        }
        if line.last() == Some(&b'\n') {
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
        }
        let input = Input {
            text: std::str::from_utf8(&line).map_err(|e| {
                format!(
                    "the input is not UTF-8 (invalid byte at offset {})",
                    e.valid_up_to()
                )
            }),
            raw: &line,
        };
        match f(&mut out, &input) {
            Ok(ok) => all_ok &= ok,
            Err(e) => return ended_by(e, all_ok),
        }
        if reader.buffer().is_empty() {
            if let Err(e) = out.flush() {
                return ended_by(e, all_ok);
            }
        }
    }
    out.finish(all_ok)
}
