//! Inputs and outputs: the one place that knows about standard input and output,
//! lines, flushing, and how an I/O error ends the program.
//!
//! Inputs come from the arguments or, with none, from standard input, one per line
//! (LF or CRLF stripped). Results are written through a buffer that is flushed
//! whenever no more input is waiting, so that results stream. A closed pipe
//! (`iri check < big.txt | head -1`) ends the run quietly; any other write error, and
//! any read error, is reported on standard error and ends the run with status 74.

use std::borrow::Cow;
use std::io::{self, BufRead, BufWriter, Write};

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
    w: BufWriter<io::StdoutLock<'static>>,
}

impl Out {
    pub fn new() -> Out {
        Out {
            w: BufWriter::with_capacity(64 * 1024, io::stdout().lock()),
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
    let stdin = io::stdin();
    let mut reader = io::BufReader::with_capacity(64 * 1024, stdin.lock());
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
