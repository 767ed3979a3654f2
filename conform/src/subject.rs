//! The program under test: started once with its standard input and output as pipes,
//! asked one input at a time, killed and started again after a hang or a crash
//! (`docs/conform-protocol.md`).
//!
//! Nothing here waits without a bound: an answer is awaited with a timeout (a reader
//! thread sends the program's lines over a channel), a line is read up to
//! [`MAX_LINE`] bytes (a program that writes without a line feed cannot grow our
//! memory), standard error is kept as its last [`STDERR_TAIL`] bytes, and a program
//! that does not exit when its input closes is killed after [`GRACE`]. On Unix the
//! program runs in a process group of its own, killed as a whole, so that what a
//! shell adapter starts does not outlive it; every child is waited for (no zombie).

use crate::protocol::{input_line, read_answer, Answer, VERSION};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest answer line read; the rest of a longer line is skipped.
pub const MAX_LINE: usize = 1 << 20;
/// How much of the end of the program's standard error is kept.
pub const STDERR_TAIL: usize = 4096;
/// How long a program may take to exit once its input is closed, or once it has
/// closed its output, before it is killed.
pub const GRACE: Duration = Duration::from_secs(2);
/// How many times the program may fail (exit, hang) before its first answer.
pub const TRIES: u32 = 3;
/// How many lines the reader thread holds before the program must wait.
const LINES_AHEAD: usize = 4;
/// The first answer after each start may take this many timeouts: a program's
/// runtime may take seconds to start (a JVM, a Python import).
pub const FIRST_ANSWER_TIMEOUTS: u32 = 5;

/// The command that starts the program and what it is told.
#[derive(Debug, Clone)]
pub struct Program {
    /// The program and its arguments.
    pub command: Vec<OsString>,
    /// The grammar (`IRI_CONFORM_GRAMMAR`).
    pub grammar: String,
    /// The rule (`IRI_CONFORM_RULE`).
    pub rule: String,
}

/// What came of one input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// An answer of the protocol.
    Answer(Answer),
    /// No answer within the timeout: the program was killed.
    NoAnswer,
    /// The program exited, or closed its output, before answering.
    Crash {
        /// How it ended (`exit status 3`, `signal 11`).
        status: String,
        /// The end of its standard error.
        stderr: String,
    },
    /// A line that is none of the protocol's answers.
    NotUnderstood {
        /// The line (lossily decoded, cut at 200 characters).
        line: String,
        /// What is wrong with it.
        why: String,
    },
}

/// Why the run cannot go on (exit status 2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stop(pub String);

impl std::fmt::Display for Stop {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Stop {}

/// A line read from the program, or the end of its output.
enum FromProgram {
    Line(Vec<u8>),
    TooLong,
    End,
}

struct Running {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<FromProgram>,
    stderr: Arc<Mutex<VecDeque<u8>>>,
    stderr_done: Receiver<()>,
    /// Whether it has answered since it was started.
    answered: bool,
}

/// The program under test, started on the first question.
pub struct Subject {
    program: Program,
    timeout: Duration,
    running: Option<Running>,
    /// Whether the program ever answered.
    ever_answered: bool,
    /// Failures (crash, hang) since the last answer.
    failed_in_a_row: u32,
    /// How many times it was started.
    pub starts: usize,
}

impl Subject {
    /// The program, not started yet, and how long an answer may take.
    pub fn new(program: Program, timeout: Duration) -> Subject {
        Subject {
            program,
            timeout,
            running: None,
            ever_answered: false,
            failed_in_a_row: 0,
            starts: 0,
        }
    }

    fn start(&mut self) -> Result<Running, Stop> {
        let (name, args) = self
            .program
            .command
            .split_first()
            .ok_or_else(|| Stop("no program to test: give it after --".to_string()))?;
        let mut cmd = Command::new(name);
        cmd.args(args)
            .env("IRI_CONFORM_PROTOCOL", VERSION)
            .env("IRI_CONFORM_GRAMMAR", &self.program.grammar)
            .env("IRI_CONFORM_RULE", &self.program.rule)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        #[cfg(unix)]
        interrupts::forward();
        let mut child = cmd
            .spawn()
            .map_err(|e| Stop(format!("cannot start {}: {e}", name.to_string_lossy())))?;
        #[cfg(unix)]
        interrupts::running(child.id());
        self.starts += 1;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("piped");
        let stderr_pipe = child.stderr.take().expect("piped");
        // Bounded: a program that writes lines nobody asked for (`yes valid`) blocks
        // its reader, not our memory.
        let (tx, lines) = mpsc::sync_channel(LINES_AHEAD);
        std::thread::spawn(move || read_lines(stdout, &tx));
        let stderr = Arc::new(Mutex::new(VecDeque::with_capacity(STDERR_TAIL)));
        let (done_tx, stderr_done) = mpsc::channel();
        let tail = Arc::clone(&stderr);
        std::thread::spawn(move || {
            keep_tail(stderr_pipe, &tail);
            let _ = done_tx.send(());
        });
        Ok(Running {
            child,
            stdin,
            lines,
            stderr,
            stderr_done,
            answered: false,
        })
    }

    /// Asks the program about `input`, starting it if it is not running.
    ///
    /// # Errors
    /// [`Stop`] when the program cannot be started, or has failed [`TRIES`] times in
    /// a row without ever answering.
    pub fn ask(&mut self, input: &str) -> Result<Outcome, Stop> {
        let r = match self.running.take() {
            Some(r) => r,
            None => self.start()?,
        };
        let outcome = self.exchange(r, input);
        match outcome {
            Outcome::NoAnswer | Outcome::Crash { .. } => {
                self.failed_in_a_row += 1;
                if !self.ever_answered && self.failed_in_a_row >= TRIES {
                    return Err(Stop(format!(
                        "{} failed {TRIES} times without answering ({})",
                        self.program.command[0].to_string_lossy(),
                        describe(&outcome)
                    )));
                }
            }
            _ => {
                self.ever_answered = true;
                self.failed_in_a_row = 0;
            }
        }
        Ok(outcome)
    }

    /// Writes `input` to the running program and reads its answer; keeps it running
    /// if it answered.
    fn exchange(&mut self, mut r: Running, input: &str) -> Outcome {
        // A line already waiting answers no input: the program says more than it is
        // asked, and its answers no longer match the inputs. It is started again.
        let early = match r.lines.try_recv() {
            Ok(FromProgram::Line(bytes)) => Some(shown(&bytes)),
            Ok(FromProgram::TooLong) => Some(String::new()),
            // The end, read here, is read again below as the channel's disconnection.
            Ok(FromProgram::End) | Err(_) => None,
        };
        if let Some(line) = early {
            kill(&mut r);
            return Outcome::NotUnderstood {
                line,
                why: "a line written before the input was: more answers than inputs".to_string(),
            };
        }
        let mut line = input_line(input);
        line.push('\n');
        let written = match r.stdin.as_mut() {
            Some(w) => w.write_all(line.as_bytes()).and_then(|()| w.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
            // It closed its input: it has exited or is about to.
            return Self::ended(r);
        }
        let wait = if r.answered {
            self.timeout
        } else {
            self.timeout * FIRST_ANSWER_TIMEOUTS
        };
        match r.lines.recv_timeout(wait) {
            Ok(FromProgram::Line(bytes)) => {
                r.answered = true;
                self.running = Some(r);
                understand(&bytes)
            }
            Ok(FromProgram::TooLong) => {
                r.answered = true;
                self.running = Some(r);
                Outcome::NotUnderstood {
                    line: String::new(),
                    why: format!("a line longer than {MAX_LINE} bytes"),
                }
            }
            Ok(FromProgram::End) | Err(RecvTimeoutError::Disconnected) => Self::ended(r),
            Err(RecvTimeoutError::Timeout) => {
                kill(&mut r);
                Outcome::NoAnswer
            }
        }
    }

    /// The program ended its output: how it exited, and the end of its standard error.
    fn ended(mut r: Running) -> Outcome {
        drop(r.stdin.take());
        let status = wait_at_most(&mut r.child, GRACE);
        kill(&mut r);
        let _ = r.stderr_done.recv_timeout(Duration::from_millis(500));
        let stderr = tail_text(&r.stderr);
        Outcome::Crash {
            status: status.map_or_else(|| "killed: it kept running".to_string(), status_text),
            stderr,
        }
    }

    /// Closes the program's input, waits [`GRACE`] for it to exit, then kills it.
    pub fn close(&mut self) {
        if let Some(mut r) = self.running.take() {
            drop(r.stdin.take());
            wait_at_most(&mut r.child, GRACE);
            kill(&mut r);
        }
    }
}

impl Drop for Subject {
    fn drop(&mut self) {
        self.close();
    }
}

/// What an outcome that is no answer was, in a few words.
pub fn describe(o: &Outcome) -> String {
    match o {
        Outcome::Answer(a) => if a.valid { "valid" } else { "invalid" }.to_string(),
        Outcome::NoAnswer => "no answer in time".to_string(),
        Outcome::Crash { status, stderr } if stderr.trim().is_empty() => {
            format!("it exited, {status}")
        }
        Outcome::Crash { status, stderr } => {
            let last = stderr.trim_end().lines().last().unwrap_or_default();
            format!("it exited, {status}: {last}")
        }
        Outcome::NotUnderstood { why, .. } => format!("answer not understood: {why}"),
    }
}

/// A line as the report shows it: decoded lossily, cut at 200 characters.
fn shown(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).chars().take(200).collect()
}

fn understand(bytes: &[u8]) -> Outcome {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(line) => match read_answer(line) {
            Ok(a) => Outcome::Answer(a),
            Err(why) => Outcome::NotUnderstood {
                line: shown(bytes),
                why,
            },
        },
        Err(_) => Outcome::NotUnderstood {
            line: shown(bytes),
            why: "not UTF-8".to_string(),
        },
    }
}

fn status_text(s: ExitStatus) -> String {
    if let Some(code) = s.code() {
        return format!("exit status {code}");
    }
    #[cfg(unix)]
    if let Some(sig) = std::os::unix::process::ExitStatusExt::signal(&s) {
        return format!("signal {sig}");
    }
    s.to_string()
}

/// Waits for the child to exit, polling, for at most `limit`.
fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let until = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(s)) => return Some(s),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

/// Kills the program and everything in its process group, and waits for it.
fn kill(r: &mut Running) {
    drop(r.stdin.take());
    #[cfg(unix)]
    interrupts::running_none();
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(r.child.id()) {
        // SAFETY: kill(2) with a negative pid signals the process group the program
        // leads (process_group(0) at its start); it touches no memory of ours.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = r.child.kill();
    let _ = r.child.wait();
}

/// The program runs in a process group of its own, so that a kill reaches what it
/// starts (`sh -c`, a JVM's helpers); then a Ctrl-C at the terminal reaches only
/// `iri`, and a program that hangs would outlive it. So an interrupt, hang-up or
/// termination of `iri` kills the running program's group first, then ends `iri` as
/// that signal would have.
#[cfg(unix)]
mod interrupts {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Once;

    /// The running program's process group (its pid), 0 when none runs.
    static GROUP: AtomicI32 = AtomicI32::new(0);
    const SIGNALS: [libc::c_int; 3] = [libc::SIGINT, libc::SIGHUP, libc::SIGTERM];

    extern "C" fn on_signal(sig: libc::c_int) {
        let group = GROUP.load(Ordering::SeqCst);
        // SAFETY: kill(2), signal(2) and raise(3) are async-signal-safe; the handler
        // touches nothing but an atomic.
        unsafe {
            if group > 0 {
                libc::kill(-group, libc::SIGKILL);
            }
            libc::signal(sig, libc::SIG_DFL);
            libc::raise(sig);
        }
    }

    /// Installs the handler, once, for the signals a terminal or a supervisor sends.
    pub fn forward() {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            for sig in SIGNALS {
                // SAFETY: the handler is an `extern "C" fn(c_int)` that only does what
                // a signal handler may (see on_signal); a signal the process ignores
                // (nohup) stays ignored.
                unsafe {
                    let handler = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                    if libc::signal(sig, handler) == libc::SIG_IGN {
                        libc::signal(sig, libc::SIG_IGN);
                    }
                }
            }
        });
    }

    /// Records the program just started.
    pub fn running(pid: u32) {
        GROUP.store(i32::try_from(pid).unwrap_or(0), Ordering::SeqCst);
    }

    /// Records that no program runs.
    pub fn running_none() {
        GROUP.store(0, Ordering::SeqCst);
    }
}

/// Sends the lines of `from` (without their line feed), each at most [`MAX_LINE`]
/// bytes, then the end.
fn read_lines(from: impl Read, to: &mpsc::SyncSender<FromProgram>) {
    let mut reader = BufReader::with_capacity(64 * 1024, from);
    let mut line: Vec<u8> = Vec::new();
    let mut too_long = false;
    loop {
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => break,
            Ok(b) => b,
        };
        let (piece, ends) = match buf.iter().position(|&b| b == b'\n') {
            Some(k) => (&buf[..k], Some(k + 1)),
            None => (buf, None),
        };
        if !too_long {
            if line.len() + piece.len() > MAX_LINE {
                too_long = true;
                line = Vec::new();
            } else {
                line.extend_from_slice(piece);
            }
        }
        let used = ends.unwrap_or(buf.len());
        reader.consume(used);
        if ends.is_some() {
            let sent = if too_long {
                to.send(FromProgram::TooLong)
            } else {
                to.send(FromProgram::Line(std::mem::take(&mut line)))
            };
            too_long = false;
            if sent.is_err() {
                return;
            }
        }
    }
    if !line.is_empty() {
        let _ = to.send(FromProgram::Line(line));
    }
    let _ = to.send(FromProgram::End);
}

/// Keeps the last [`STDERR_TAIL`] bytes of `from` in `tail`, until its end.
fn keep_tail(mut from: impl Read, tail: &Mutex<VecDeque<u8>>) {
    let mut buf = [0u8; 4096];
    loop {
        match from.read(&mut buf) {
            Ok(0) | Err(_) => return,
            Ok(n) => {
                let mut t = tail.lock().unwrap_or_else(|e| e.into_inner());
                t.extend(&buf[..n]);
                let over = t.len().saturating_sub(STDERR_TAIL);
                t.drain(..over);
            }
        }
    }
}

fn tail_text(tail: &Mutex<VecDeque<u8>>) -> String {
    let t = tail.lock().unwrap_or_else(|e| e.into_inner());
    let bytes: Vec<u8> = t.iter().copied().collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_error_keeps_only_its_tail() {
        // A megabyte of diagnostics, the last of them numbered.
        let text: String = (0..100_000).map(|k| format!("{k:09}\n")).collect();
        let tail = Mutex::new(VecDeque::new());
        keep_tail(text.as_bytes(), &tail);
        let kept = tail_text(&tail);
        assert_eq!(kept.len(), STDERR_TAIL);
        assert!(text.ends_with(&kept));
        assert!(kept.ends_with("000099999\n"));
    }

    #[test]
    fn a_line_is_cut_at_its_limit() {
        // A line of 3 MiB without a line feed, then a short one.
        let mut bytes = vec![b'x'; 3 * MAX_LINE];
        bytes.extend_from_slice(b"\nvalid\n");
        let (tx, rx) = mpsc::sync_channel(LINES_AHEAD);
        std::thread::spawn(move || read_lines(&bytes[..], &tx));
        assert!(matches!(rx.recv().unwrap(), FromProgram::TooLong));
        assert!(matches!(rx.recv().unwrap(), FromProgram::Line(l) if l == b"valid"));
        assert!(matches!(rx.recv().unwrap(), FromProgram::End));
    }
}
