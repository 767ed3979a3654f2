//! The program under test: started once with its standard input and output as pipes,
//! asked one input at a time, killed and started again after a hang or a crash
//! (`docs/conform-protocol.md`).
//!
//! Nothing here waits without a bound: an answer is awaited with a timeout (a reader
//! thread sends the program's lines over a channel), a line is read up to
//! [`MAX_LINE`] bytes (a program that writes without a line feed cannot grow our
//! memory), standard error is kept as its last [`STDERR_TAIL`] bytes, and a program
//! that does not exit when its input closes is killed after [`GRACE`]. The end of its
//! output is the end of its answers: a program that closes it is killed at once. On
//! Unix the program runs in a process group of its own, killed as a whole, so that
//! what a shell adapter starts does not outlive it; every child is waited for (no
//! zombie). On Linux `iri` is besides the reaper of the orphans among the program's
//! descendants (`PR_SET_CHILD_SUBREAPER`, prctl(2)), so that what leaves the group
//! (`setsid`) is still found and killed with it, and the program is given SIGKILL
//! when the thread that started it ends (`PR_SET_PDEATHSIG`), `iri` killed included.

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
/// How long a program may take to exit once its input is closed, before it is
/// killed. (A program that closes its output is killed at once.)
pub const GRACE: Duration = Duration::from_secs(2);
/// How many times the program may fail (exit, hang) before its first answer.
pub const TRIES: u32 = 3;
/// How many lines the reader thread holds before the program must wait.
const LINES_AHEAD: usize = 4;
/// The first answer after each start may take this many timeouts: a program's
/// runtime may take seconds to start (a JVM, a Python import).
pub const FIRST_ANSWER_TIMEOUTS: u32 = 5;
/// How long a first line that is no answer is given to be followed by another (at
/// most the timeout): a banner or a warning at start-up is such a line, and the
/// answer to the input comes after it.
pub const SETTLE: Duration = Duration::from_millis(500);
/// The most characters of a reason an answer is not understood that are kept; a
/// longer one is cut, with its length said.
pub const MAX_WHY: usize = 200;
/// The variable, set for the program, by which what it starts is known as its own
/// (Linux): `IRI_CONFORM_RUN`, unique to each start.
pub const RUN_VARIABLE: &str = "IRI_CONFORM_RUN";

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

/// What came of one input: `A` is the answer of the exchange asked, [`Answer`] for
/// validation, a target for resolution ([`crate::resolve`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<A = Answer> {
    /// An answer of the protocol.
    Answer(A),
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
    /// The value of [`RUN_VARIABLE`] given to this start.
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    token: String,
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
    /// Variables given to the program beside the protocol's four
    /// (`IRI_CONFORM_MODE`).
    env: Vec<(String, String)>,
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
            env: Vec::new(),
        }
    }

    /// The same program, started with `key` set to `value` as well: the exchange
    /// asked (`IRI_CONFORM_MODE`, docs/conform-protocol.md).
    #[must_use]
    pub fn with_env(mut self, key: &str, value: &str) -> Subject {
        self.env.push((key.to_string(), value.to_string()));
        self
    }

    fn start(&mut self) -> Result<Running, Stop> {
        let (name, args) = self
            .program
            .command
            .split_first()
            .ok_or_else(|| Stop("no program to test: give it after --".to_string()))?;
        let token = run_token();
        let mut cmd = Command::new(name);
        cmd.args(args)
            .env(RUN_VARIABLE, &token)
            .env("IRI_CONFORM_PROTOCOL", VERSION)
            .env("IRI_CONFORM_GRAMMAR", &self.program.grammar)
            .env("IRI_CONFORM_RULE", &self.program.rule)
            // The exchange asked; `with_env` gives another (`resolve`).
            .env("IRI_CONFORM_MODE", "validate")
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        #[cfg(unix)]
        interrupts::forward();
        #[cfg(target_os = "linux")]
        contain::prepare(&mut cmd);
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
            token,
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
        self.ask_line(&input_line(input), read_answer)
    }

    /// Writes `line` (an input as the exchange asked writes it, without its line
    /// feed) and reads the answer with `read`, starting the program if it is not
    /// running: [`Subject::ask`] for any exchange of the protocol, with the same
    /// timeouts, restarts and bounds.
    ///
    /// # Errors
    /// As [`Subject::ask`].
    pub fn ask_line<A>(
        &mut self,
        line: &str,
        read: impl Fn(&str) -> Result<A, String>,
    ) -> Result<Outcome<A>, Stop> {
        let r = match self.running.take() {
            Some(r) => r,
            None => self.start()?,
        };
        let outcome = self.exchange(r, line, &read)?;
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
    ///
    /// # Errors
    /// [`Stop`] when the program wrote a line that answers no input: from then on
    /// its lines no longer answer the inputs they follow, and every disagreement
    /// counted would be false (a banner at start-up gave 138 to 155 of them).
    fn exchange<A>(
        &mut self,
        mut r: Running,
        input_line: &str,
        read: &impl Fn(&str) -> Result<A, String>,
    ) -> Result<Outcome<A>, Stop> {
        // A line already waiting answers no input: the program says more than it is
        // asked.
        let early = match r.lines.try_recv() {
            Ok(FromProgram::Line(bytes)) => Some(shown(&bytes)),
            Ok(FromProgram::TooLong) => Some(String::new()),
            // Its output ended after its last answer: it answers nothing more.
            Ok(FromProgram::End) | Err(mpsc::TryRecvError::Disconnected) => {
                return Ok(Self::ended(r))
            }
            Err(mpsc::TryRecvError::Empty) => None,
        };
        if let Some(line) = early {
            kill(&mut r);
            return Err(self.out_of_step(&format!(
                "wrote {line:?} before it was asked: more answers than inputs"
            )));
        }
        let mut line = input_line.to_string();
        line.push('\n');
        let written = match r.stdin.as_mut() {
            Some(w) => w.write_all(line.as_bytes()).and_then(|()| w.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        if written.is_err() {
            // It closed its input: it has exited or is about to.
            return Ok(Self::ended(r));
        }
        let wait = if r.answered {
            self.timeout
        } else {
            self.timeout * FIRST_ANSWER_TIMEOUTS
        };
        Ok(match r.lines.recv_timeout(wait) {
            Ok(FromProgram::Line(bytes)) => {
                let first = !r.answered;
                r.answered = true;
                let outcome = understand(&bytes, read);
                if let (true, Outcome::NotUnderstood { line, .. }) = (first, &outcome) {
                    // A banner or a warning at start-up, with the answer after it?
                    if let Ok(FromProgram::Line(next)) =
                        r.lines.recv_timeout(SETTLE.min(self.timeout))
                    {
                        kill(&mut r);
                        return Err(self.out_of_step(&format!(
                            "wrote {line:?} and then {:?} for its first input: a line that \
                             answers no input (a banner or a warning on standard output?)",
                            shown(&next)
                        )));
                    }
                }
                self.running = Some(r);
                outcome
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
        })
    }

    /// The run's end when the program's lines no longer answer the inputs in order:
    /// what it did, and what the protocol asks.
    fn out_of_step(&self, what: &str) -> Stop {
        Stop(format!(
            "{} {what}. Every line it writes on standard output must answer one input, \
             in order (docs/conform-protocol.md): write anything else to standard error. \
             Its answers would no longer match the inputs, so the run stops here",
            self.program.command[0].to_string_lossy()
        ))
    }

    /// The program ended its output, which ends its answers: how it exited, and the
    /// end of its standard error. One that has not exited is killed at once (a
    /// program that is exiting keeps its own status: a signal does not change it once
    /// its exit has begun, and its output closes only then).
    fn ended<A>(mut r: Running) -> Outcome<A> {
        drop(r.stdin.take());
        let exited = r.child.try_wait().ok().flatten();
        kill(&mut r);
        let _ = r.stderr_done.recv_timeout(Duration::from_millis(500));
        let stderr = tail_text(&r.stderr);
        let status = match exited.or_else(|| r.child.try_wait().ok().flatten()) {
            Some(s) if exited.is_some() || !killed_by_us(s) => status_text(s),
            _ => "killed: it closed its output and kept running".to_string(),
        };
        Outcome::Crash { status, stderr }
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
pub fn describe<A>(o: &Outcome<A>) -> String {
    match o {
        Outcome::Answer(_) => "an answer".to_string(),
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

/// `s` cut at `max` characters, saying how long it was.
pub fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        None => s.to_string(),
        Some((end, _)) => format!("{}… ({} characters in all)", &s[..end], s.chars().count()),
    }
}

fn understand<A>(bytes: &[u8], read: impl Fn(&str) -> Result<A, String>) -> Outcome<A> {
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(line) => match read(line) {
            Ok(a) => Outcome::Answer(a),
            Err(why) => Outcome::NotUnderstood {
                line: shown(bytes),
                why: cut(&why, MAX_WHY),
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

/// Kills the program and everything in its process group, and waits for it; on
/// Linux, with what it started elsewhere ([`contain::end`]), found while its tree is
/// whole.
fn kill(r: &mut Running) {
    drop(r.stdin.take());
    #[cfg(unix)]
    interrupts::running_none();
    #[cfg(target_os = "linux")]
    if let Ok(pid) = i32::try_from(r.child.id()) {
        contain::end(pid, &r.token);
    }
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

/// Whether the program died of the SIGKILL [`kill`] sends.
fn killed_by_us(s: ExitStatus) -> bool {
    #[cfg(unix)]
    {
        std::os::unix::process::ExitStatusExt::signal(&s) == Some(9)
    }
    #[cfg(not(unix))]
    {
        let _ = s;
        true
    }
}

/// A value of [`RUN_VARIABLE`] no other start shares: this process and a count.
fn run_token() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static STARTS: AtomicU64 = AtomicU64::new(0);
    format!(
        "{}.{}",
        std::process::id(),
        STARTS.fetch_add(1, Ordering::Relaxed)
    )
}

/// Kills and waits for the orphans this process adopted (as the reaper of its
/// descendants' orphans, Linux): what a program started, left its process group
/// and session, and cleared [`RUN_VARIABLE`] from. For a process that starts no
/// children of its own but the program under test (the command line, once the run
/// is over); elsewhere it would kill those too. Nothing elsewhere than Linux.
pub fn end_orphans() {
    #[cfg(target_os = "linux")]
    contain::end_children();
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

/// What the program starts is ended with it (Linux). `iri` is made the reaper of
/// its descendants' orphans (`PR_SET_CHILD_SUBREAPER`, prctl(2)): a process that
/// leaves the program's process group and session (`setsid`) and whose parent dies
/// is adopted by `iri`, not by init. When the program is killed, its process group,
/// every descendant of it, and every adopted orphan whose environment holds this
/// start's [`RUN_VARIABLE`] (and their descendants) are killed, then waited for.
/// The program itself is given SIGKILL when the thread that started it ends
/// (`PR_SET_PDEATHSIG`): a SIGKILL of `iri` leaves it no time to kill anything.
#[cfg(target_os = "linux")]
mod contain {
    use std::collections::{HashMap, HashSet};
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::sync::Once;
    use std::time::{Duration, Instant};

    /// How many times the processes are looked for and killed: one that forks while
    /// it is being killed leaves a child the next look finds.
    const ROUNDS: usize = 8;
    /// How long the killed are waited for (a process in uninterruptible sleep dies
    /// when it wakes).
    const REAP_WITHIN: Duration = Duration::from_secs(2);

    /// Makes this process the reaper of its descendants' orphans, once, and has the
    /// program killed when the thread that starts it ends.
    pub fn prepare(cmd: &mut Command) {
        static ONCE: Once = Once::new();
        ONCE.call_once(|| {
            // SAFETY: prctl(2) with PR_SET_CHILD_SUBREAPER reads no memory of ours.
            // Where it fails, orphans go to init as before.
            unsafe {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            }
        });
        // SAFETY: getpid(2) has no preconditions.
        let parent = unsafe { libc::getpid() };
        // SAFETY: the hook runs in the child between fork and exec, and calls only
        // prctl(2), getppid(2) and _exit(2), which are async-signal-safe.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // Its parent died before the signal was asked for: it would never come.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }

    /// A process as /proc/PID/stat gives it (proc(5)).
    struct Process {
        pid: i32,
        ppid: i32,
        pgrp: i32,
        zombie: bool,
    }

    fn processes() -> Vec<Process> {
        let Ok(dir) = std::fs::read_dir("/proc") else {
            return Vec::new();
        };
        dir.flatten()
            .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            .filter_map(|pid| {
                let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
                // The command name, in parentheses, may hold spaces and parentheses.
                let mut f = stat.get(stat.rfind(')')? + 1..)?.split_whitespace();
                let zombie = f.next()? == "Z";
                let ppid = f.next()?.parse().ok()?;
                let pgrp = f.next()?.parse().ok()?;
                Some(Process {
                    pid,
                    ppid,
                    pgrp,
                    zombie,
                })
            })
            .collect()
    }

    /// Whether the environment of `pid` holds `entry` (`NAME=value`).
    fn carries(pid: i32, entry: &[u8]) -> bool {
        std::fs::read(format!("/proc/{pid}/environ"))
            .is_ok_and(|env| env.split(|&b| b == 0).any(|e| e == entry))
    }

    /// The processes of the program `program` started with `entry`: itself, its
    /// process group, the orphans adopted by this process that carry the entry, and
    /// all their descendants.
    fn of_the_program(all: &[Process], me: i32, program: i32, entry: &[u8]) -> HashSet<i32> {
        let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
        for p in all {
            children.entry(p.ppid).or_default().push(p.pid);
        }
        let mut found: HashSet<i32> = HashSet::new();
        let mut todo: Vec<i32> = all
            .iter()
            .filter(|p| {
                // A pid is not given again while its process is an unwaited child.
                (p.pid == program && p.ppid == me)
                    || p.pgrp == program
                    || (p.ppid == me && !p.zombie && carries(p.pid, entry))
            })
            .map(|p| p.pid)
            .collect();
        while let Some(pid) = todo.pop() {
            if pid != me && found.insert(pid) {
                todo.extend(children.get(&pid).into_iter().flatten());
            }
        }
        found
    }

    /// Kills the program `program`, started with `token`, and what it started, and
    /// waits for what this process must but the program itself (its `Child` does).
    pub fn end(program: i32, token: &str) {
        let entry = format!("{}={token}", super::RUN_VARIABLE);
        // SAFETY: getpid(2) has no preconditions.
        let me = unsafe { libc::getpid() };
        let mut killed: HashSet<i32> = HashSet::new();
        for _ in 0..ROUNDS {
            let all = processes();
            let new: Vec<i32> = of_the_program(&all, me, program, entry.as_bytes())
                .into_iter()
                .filter(|pid| !killed.contains(pid))
                .collect();
            if new.is_empty() {
                break;
            }
            for pid in new {
                // SAFETY: kill(2) reads no memory of ours.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
                killed.insert(pid);
            }
        }
        killed.remove(&program);
        reap(me, &killed);
    }

    /// Kills and waits for every child of this process.
    pub fn end_children() {
        // SAFETY: getpid(2) has no preconditions.
        let me = unsafe { libc::getpid() };
        let mut killed = HashSet::new();
        for _ in 0..ROUNDS {
            let children: Vec<i32> = processes()
                .into_iter()
                .filter(|p| p.ppid == me && !killed.contains(&p.pid))
                .map(|p| p.pid)
                .collect();
            if children.is_empty() {
                break;
            }
            for pid in children {
                // SAFETY: kill(2) reads no memory of ours.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
                killed.insert(pid);
            }
        }
        reap(me, &killed);
    }

    /// Waits for those of `killed` that are, or become (their parent killed too),
    /// children of this process, until none is left or [`REAP_WITHIN`] has passed.
    fn reap(me: i32, killed: &HashSet<i32>) {
        if killed.is_empty() {
            return;
        }
        let until = Instant::now() + REAP_WITHIN;
        loop {
            let left: Vec<Process> = processes()
                .into_iter()
                .filter(|p| killed.contains(&p.pid))
                .collect();
            for p in left.iter().filter(|p| p.ppid == me) {
                let mut status = 0;
                // SAFETY: waitpid(2) of a child of ours, writing only `status`.
                unsafe {
                    libc::waitpid(p.pid, &raw mut status, libc::WNOHANG);
                }
            }
            if left.is_empty() || Instant::now() >= until {
                return;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
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
