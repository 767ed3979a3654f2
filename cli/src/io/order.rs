//! The parts of the inputs as they are written: each part's records filtered,
//! separated and prefixed, and standard output taking the parts in input order.

use super::memory::stdout_is_a_terminal;
use super::sink::SPILL_AT;
use super::summary::Tally;
use super::visible::{tsv_field, Out};
use super::{Input, Style, Verdict};
use std::borrow::Cow;
use std::cell::Cell;
use std::io::{self, Write};

/// What a part of the inputs came to: the text to write, and the counts.
#[derive(Default)]
pub(super) struct Part {
    /// What is to be written: records filtered, separated and prefixed.
    pub(super) text: String,
    pub(super) tally: Tally,
    /// Whether a record of this part has been kept: the next is separated from it.
    kept: bool,
    /// Whether some of the part has been written already (by a spill): the rest
    /// continues it, with no separator before it.
    pub(super) begun: bool,
}

impl Part {
    /// Appends a piece of a record, after a blank line if it begins a record and the
    /// part has one before it, each line after the input under `--with-input`.
    pub(super) fn add(&mut self, style: &Style, input: &Input<'_>, piece: &str, begins: bool) {
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
pub(super) struct Ordered {
    pub(super) out: Out,
    /// Records are separated by a blank line ([`Style::separates`]).
    separates: bool,
    /// Whether a record has been written: the next part is separated from it.
    wrote_any: bool,
    /// What a sink holds before a spill writes it ([`SPILL_AT`]).
    pub(super) spill_at: usize,
}

impl Ordered {
    pub(super) fn new(style: &Style) -> Ordered {
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
    pub(super) fn put(&mut self, text: &str, begun: &mut bool) -> io::Result<()> {
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

/// Writes what is left of a part and counts it; false when the run should stop
/// (`-q` has its answer). The part keeps its text, whose buffer may be used again.
pub(super) fn write_part(
    part: &mut Part,
    style: &Style,
    out: &mut Ordered,
    tally: &mut Tally,
) -> io::Result<bool> {
    out.put(&part.text, &mut part.begun)?;
    tally.merge(std::mem::take(&mut part.tally));
    Ok(!(style.quiet && !style.summary && tally.verdict() != Verdict::Success))
}
