//! Inputs and outputs: the one module of the command that touches standard input
//! and output, and that turns an I/O error into exit status 74.
//!
//! Inputs are the arguments or, with none, the lines of standard input. A command
//! renders each input's result into a [`Sink`] and says how the input came out
//! ([`Judgement`]). This module writes the results in input order, whatever thread
//! rendered them, as the command's [`Style`] says: JSON or text, and the options
//! for scripts.
//!
//! - `read`: standard input in blocks of whole lines, and the lines as inputs.
//! - `ranges`: a regular file's lines in blocks by byte range, read side by side.
//! - `threads`: the inputs rendered on several threads, written in order.
//! - `order`: the parts of the inputs, filtered, and written in order.
//! - `sink`: where a record is rendered, and how a big one goes out in pieces.
//! - `style` and `summary`: what is written, and the counts of `--summary`.
//! - `visible`: standard output, and what a terminal is given of it.
//! - `memory`: standard input and output in memory, for `run_in_memory`.

mod memory;
mod order;
mod ranges;
mod read;
mod sink;
mod style;
mod summary;
mod threads;
mod visible;

pub use memory::in_memory;
pub use read::{line_end, set_max_line, Input, MAX_LINE_BYTES};
#[cfg(test)]
pub use sink::set_spill_at;
pub use sink::Sink;
pub use style::{LineJudge, Style, ValidLines};
pub use summary::{Cause, Item, Judgement};
pub use visible::{ended_by, say, tell, visible, Out};

use memory::{stdin_at, stdin_is_a_file, stdin_reader};
use order::{write_part, Ordered};
use ranges::Ranges;
use read::Blocks;
use std::io::Write;
use summary::{finish, Tally};
use threads::{each_block, each_block_on_threads, each_range_on_threads, render_batch, Stopped};

/// Why a run stops before its inputs are done, whatever their verdicts.
#[derive(Debug)]
pub enum RunError {
    /// The command line asks for something impossible: status 2.
    Usage(String),
    /// Reading or writing failed: status 74 (`EX_IOERR` of sysexits.h).
    Io(String),
}

/// What a command returns: the verdict of its run, or the error that stopped it.
pub type Outcome = Result<Verdict, RunError>;

/// How one input came out, or a whole run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Valid, equivalent, converted: exit status 0.
    Success,
    /// Neither: `compare` could not decide (exit status 3, when no input failed).
    Unknown,
    /// Invalid, different, not converted: exit status 1.
    Failed,
}

impl From<bool> for Verdict {
    fn from(ok: bool) -> Verdict {
        if ok {
            Verdict::Success
        } else {
            Verdict::Failed
        }
    }
}

impl Verdict {
    /// The verdict of a run: the worst of its inputs' (failed over unknown over
    /// success).
    fn and(self, other: Verdict) -> Verdict {
        self.max(other)
    }
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
/// (a `String`, which a big record may leave in pieces: see [`Sink`]), and says
/// how the input came out. Writes the results in input order, filtered and prefixed
/// as `style` says, then the summary if asked for.
pub fn each_input<F>(args: &[String], style: &Style, f: F) -> Outcome
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
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
            parts.into_iter().try_for_each(|mut part| {
                write_part(&mut part, style, &mut out, &mut tally).map(drop)
            })
        });
        if let Err(e) = written {
            return ended_by(e, tally.verdict());
        }
        return finish(out.out, style, &tally);
    }
    let threads = style.threads();
    let at = if threads > 1 { stdin_at() } else { None };
    let result = if let Some((source, origin)) = at {
        let ranges = Ranges::new(source, origin, style.block_bytes());
        each_range_on_threads(ranges, threads, style, &f, &mut out, &mut tally)
    } else {
        let blocks = Blocks::new(stdin_reader(), stdin_is_a_file()).of_size(style.block_bytes());
        if threads > 1 {
            each_block_on_threads(blocks, threads, style, &f, &mut out, &mut tally)
        } else {
            each_block(&mut blocks.uncounted(), style, &f, &mut out, &mut tally)
        }
    };
    match result {
        Ok(()) => finish(out.out, style, &tally),
        Err(Stopped::Written(e)) => ended_by(e, tally.verdict()),
        Err(Stopped::Read(failure)) => {
            let _ = out.out.flush();
            Err(failure)
        }
    }
}

/// Each input, read the same way as [`each_input`] but handed to `f` one at a time
/// on this thread, for commands that gather over all inputs (`coverage`).
pub fn for_each_input(args: &[String], mut f: impl FnMut(&Input<'_>)) -> Result<(), RunError> {
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
