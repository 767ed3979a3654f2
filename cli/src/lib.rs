//! `iri`, the command line of iri-grammar, as a library: the binary (`src/main.rs`)
//! is one call of [`main_with`]. The library exists so that the command can also be
//! driven in-process with standard input and output in memory ([`run_in_memory`]):
//! the fuzz target `cli_lines` (`fuzz/`) runs the commands' line processing that way.
//! The contract (commands, output, exit status) is in the README, "The `iri` command";
//! each command is a module of `commands`, and `io` and `json` hold what they share.

// Errors are per input and off the fast path: their size (report::Problem) costs
// nothing that matters, and boxing them would only add an allocation.
#![allow(clippy::result_large_err)]
#![warn(clippy::undocumented_unsafe_blocks)]

mod args;
mod caret;
mod commands;
use iri_grammar_coverage as coverage;
mod html;
mod io;
mod report;
// What the teaching views show, and the JSON writer, live in iri-grammar-teach,
// which the static playground (js/page) shares; the commands name them by these
// short names.
use iri_grammar_teach::{json, lesson as teach, literals};

use io::{RunError, Verdict};
use std::ffi::OsString;

/// The exit status and message of a run.
fn status(outcome: io::Outcome) -> (u8, Option<String>) {
    match outcome {
        Ok(Verdict::Success) => (0, None),
        Ok(Verdict::Failed) => (1, None),
        // Only `compare` answers "unknown" (and only when no input failed).
        Ok(Verdict::Unknown) => (3, None),
        Err(RunError::Usage(msg)) => (2, Some(format!("iri: {msg}"))),
        Err(RunError::Io(msg)) => (74, Some(format!("iri: {msg}"))),
    }
}

/// Runs the command line `args` (the first is the program's name) on the process's
/// standard streams, as the `iri` binary does; returns the exit status. A command
/// line clap refuses ends the process with clap's message and status 2.
pub fn main_with<I, T>(args: I) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match args::parse(args) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let (code, message) = status(commands::run(&cli));
    if let Some(m) = message {
        // A message may quote an input: shown, not obeyed, by the terminal.
        io::tell(&m);
    }
    code
}

/// What a run in memory gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The exit status the binary would have.
    pub status: u8,
    /// What was written to standard output.
    pub stdout: Vec<u8>,
    /// What would have been written to standard error.
    pub stderr: String,
}

/// Runs the command line `args` (the first is the program's name) with standard
/// input holding `stdin` and standard output captured, in the current thread.
///
/// ```
/// let run = iri_cli::run_in_memory(["iri", "check"], b"http://a/\nhttp://a/ b\n");
/// assert_eq!(run.status, 1);
/// assert!(String::from_utf8(run.stdout).unwrap().starts_with("valid\ninvalid: "));
/// ```
pub fn run_in_memory<I, T>(args: I, stdin: &[u8]) -> Run
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match args::parse(args) {
        Ok(cli) => cli,
        Err(e) => {
            return Run {
                status: u8::try_from(e.exit_code()).unwrap_or(2),
                stdout: Vec::new(),
                stderr: e.to_string(),
            }
        }
    };
    let (outcome, stdout) = io::in_memory(stdin, || commands::run(&cli));
    let (status, message) = status(outcome);
    Run {
        status,
        stdout,
        stderr: message.unwrap_or_default(),
    }
}
