//! How the results of a per-input command are written: JSON or text, and the
//! options for scripts (`-H`, `-q`, `--valid-only`, `--invalid-only`, `--summary`,
//! `--jobs`).

use super::Verdict;
use std::fmt;
use std::sync::Arc;

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
    /// A shortcut for the lines of standard input that are valid, where the command
    /// has one (`check` in text): they are judged and written a run at a time, with
    /// no record rendered one by one (see [`ValidLines`]).
    pub valid_lines: Option<ValidLines>,
}

/// The judge of [`ValidLines`]: of the valid lines at the start of some bytes (and
/// so UTF-8), how many bytes they take, their ends included, and how many they are.
pub type LineJudge = Arc<dyn Fn(&[u8]) -> (usize, usize) + Send + Sync>;

/// How a command judges the valid lines of a block without its per-input path:
/// `lines` is given the bytes from the start of a line to the end of the block and
/// says how many of them are valid lines, one after the other, with their ends (LF,
/// or CR LF, or the end of the block), and how many lines that is: up to the first
/// line the command must judge itself. A valid line's record is `record` (with
/// `--summary`, one success). A line that is not UTF-8 is never valid: the command
/// says why. One call judges a run of lines, so that the judge's own cost (a call
/// through a pointer, the grammar's start) is paid once a run, not once a line. Used
/// only where records are written as they are: not with `--with-input`, separators
/// or copied inputs.
#[derive(Clone)]
pub struct ValidLines {
    lines: LineJudge,
    record: &'static str,
    /// `record` many times over, so that a run of them is written in few copies.
    records: Arc<str>,
}

impl ValidLines {
    /// How many records a copy writes at most.
    const RUN: usize = 64;

    pub fn new(lines: LineJudge, record: &'static str) -> Self {
        ValidLines {
            lines,
            record,
            records: record.repeat(Self::RUN).into(),
        }
    }

    /// The valid lines at the start of `bytes`: their length with their ends, and
    /// how many.
    #[inline(always)]
    pub(super) fn lines(&self, bytes: &[u8]) -> (usize, usize) {
        (self.lines)(bytes)
    }

    /// Writes the records of `n` valid lines.
    pub(super) fn write(&self, n: usize, text: &mut String) {
        let mut left = n;
        while left > 0 {
            let k = left.min(Self::RUN);
            text.push_str(&self.records[..k * self.record.len()]);
            left -= k;
        }
    }
}

impl fmt::Debug for ValidLines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ValidLines")
            .field("record", &self.record)
            .finish_non_exhaustive()
    }
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
    /// formatting characters as `\uXXXX` as all text output is ([`Out`](super::Out)).
    pub fn copies_inputs(&self) -> bool {
        !self.json && !self.with_input && (self.invalid_only || self.verdicts && self.valid_only)
    }

    pub(super) fn shows(&self, status: Verdict) -> bool {
        !(self.quiet
            || self.valid_only && status != Verdict::Success
            || self.invalid_only && status == Verdict::Success)
    }

    /// Whether what is shown depends on how the input came out.
    pub(super) fn filters(&self) -> bool {
        self.quiet || self.valid_only || self.invalid_only
    }

    /// Whether records are separated by a blank line: text records of several lines,
    /// unless each line carries its input.
    pub(super) fn separates(&self) -> bool {
        self.blank_line_between && !self.json && !self.with_input && !self.copies_inputs()
    }

    /// Whether each text line starts with its input (`--with-input`).
    pub(super) fn prefixes(&self) -> bool {
        self.with_input && !self.json
    }

    /// What a block of a regular file given on standard input fills up to: larger
    /// where the output is a verdict per line in text (`check`, `compare`), at most a
    /// line's message for each line; [`read::BLOCK_BYTES`](super::read::BLOCK_BYTES)
    /// where a line may make forty times its bytes (`tree`, JSON).
    pub(super) fn block_bytes(&self) -> usize {
        if self.verdicts && !self.json {
            super::read::BIG_BLOCK_BYTES
        } else {
            super::read::BLOCK_BYTES
        }
    }

    /// The threads that render a batch: `--jobs`, at most the cores the system gives
    /// this process (more threads than cores only take turns), by default all of them.
    pub(super) fn threads(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        match self.jobs {
            Some(n) => usize::from(n).min(cores),
            None => cores,
        }
    }
}
