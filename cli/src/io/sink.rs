//! Where a command renders the record of one input, and how a big record goes out
//! in pieces.
//!
//! A record can be much bigger than its input (a tree's JSON, text or DOT), too big
//! to hold whole. A [`Sink`] is the record's `String` (through `Deref`) that can also
//! let the record go out while it is rendered. The command says how the input came
//! out as soon as it knows ([`Sink::verdict`]), and calls [`Sink::spill`] wherever
//! the text so far is final. A spill writes what has accumulated, once that is
//! [`SPILL_AT`] bytes, if writing it now cannot change the output: the record is the
//! next to write, and no filter may still drop it. Otherwise the sink keeps
//! everything, and the record is written whole.

use super::order::{Ordered, Part};
use super::read::Lines;
use super::summary::{Cause, Judgement, Tally};
use super::{Input, Style, ValidLines, Verdict};
use std::cell::Cell;
use std::io;
use std::ops::{Deref, DerefMut};

thread_local! {
    /// How much a [`Sink`] holds before a spill writes it: 64 KiB, the size of the
    /// output's buffer, which lets a piece that big through without copying it. Tests
    /// set it lower, to cut records into many pieces, or out of reach, to keep them
    /// whole.
    pub(super) static SPILL_AT: Cell<usize> = const { Cell::new(64 * 1024) };
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
    verdict: Option<Verdict>,
    /// The way out for a record that is next in input order; `None` for one that
    /// waits for records before it, and for a sink that only collects text.
    early: Option<Early<'w>>,
    /// Whether the inputs are counted by cause (`--summary`).
    counts_causes: bool,
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
    /// The judgement of an input that did not succeed; `cause` is worked out only
    /// where the inputs are counted by cause (`--summary`): elsewhere nothing
    /// reads it, and an explanation's cause costs a tenth of the explanation.
    pub fn failed(&self, cause: impl FnOnce() -> Cause) -> Judgement {
        Judgement::failed(self.counts_causes.then(cause))
    }

    /// Says how the input came out, before the record is done: under a filter
    /// (`--valid-only`, ...) a record can go out early only once the filter knows it
    /// keeps it. The status returned at the end must be the same.
    pub fn verdict(&mut self, status: Verdict) {
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

/// The inputs [`render`] is given: the lines of a block, or arguments.
pub(super) trait Inputs<'a>: Iterator<Item = Input<'a>> {
    /// Takes the inputs from here on that `valid` judges valid lines, up to the
    /// first it does not: how many (none, for inputs that are not lines).
    fn take_valid(&mut self, _valid: &ValidLines) -> usize {
        0
    }
}

impl<'a> Inputs<'a> for Lines<'a> {
    fn take_valid(&mut self, valid: &ValidLines) -> usize {
        Lines::take_valid(self, valid)
    }
}

impl<'a, 'b> Inputs<'a> for std::iter::Cloned<std::slice::Iter<'b, Input<'a>>> {}

/// Renders `inputs` into a part: each input by `f`, kept or dropped by `style`,
/// prefixed with the input under `--with-input`. With `out`, the part is the next to
/// be written, and records may go out while they are rendered (`Sink::spill`); the
/// part returned holds what has not. Without, a write cannot fail. Where the style
/// has a shortcut for valid lines ([`ValidLines`]) and records are written as they
/// are, the runs of lines it takes are counted and their records written at once.
pub(super) fn render<'a, F>(
    inputs: impl Inputs<'a>,
    style: &Style,
    f: &F,
    out: Option<&mut Ordered>,
) -> io::Result<Part>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement,
{
    render_into(String::new(), inputs, style, f, out)
}

/// [`render`], into `text` (emptied first): the buffer of a part written before,
/// whose room is used again rather than grown anew, allocated, and faulted in.
pub(super) fn render_into<'a, F>(
    mut text: String,
    mut inputs: impl Inputs<'a>,
    style: &Style,
    f: &F,
    mut out: Option<&mut Ordered>,
) -> io::Result<Part>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement,
{
    text.clear();
    let mut part = Part::default();
    part.text = text;
    part.tally = Tally::counting_causes(style.summary);
    // The common case renders straight into the part, and takes back what is not
    // shown; with separators or prefixes, a record is rendered apart, then added.
    let whole = !style.separates() && !style.prefixes();
    // A record that becomes a copy of its input goes out only once it is whole.
    let copies = style.copies_inputs();
    let shortcut = style.valid_lines.as_ref().filter(|_| whole && !copies);
    let mut record = String::new();
    loop {
        if let Some(valid) = shortcut {
            let n = inputs.take_valid(valid);
            if style.shows(Verdict::Success) {
                valid.write(n, &mut part.text);
            }
            part.tally.add_successes(n);
        }
        let Some(input) = inputs.next() else {
            break;
        };
        let input = &input;
        let text = std::mem::take(if whole { &mut part.text } else { &mut record });
        let mut sink = Sink {
            start: text.len(),
            text,
            verdict: None,
            counts_causes: style.summary,
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
            ..
        } = sink;
        let begun = match early {
            Some(Early { error: Some(e), .. }) => return Err(e),
            Some(early) => early.begun,
            None => false,
        };
        debug_assert!(
            !begun || verdict.is_none_or(|v| v == judged.verdict),
            "a record went out as {verdict:?} and ended as {:?}",
            judged.verdict
        );
        // A record that began to go out is finished, whatever the filter says now.
        let shown = begun || style.shows(judged.verdict);
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

/// Sets how much a [`Sink`] holds before a spill writes it, on this thread.
#[cfg(test)]
pub fn set_spill_at(bytes: usize) {
    SPILL_AT.with(|s| s.set(bytes));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::each_input;
    use crate::io::memory::{in_memory, written};
    use crate::io::summary::Cause;
    use std::fmt::Write as _;
    use std::sync::Mutex;

    /// Runs `f` on `inputs` (arguments) in memory; what each spill had written by
    /// then, and what was written in all.
    fn pieces(
        style: &Style,
        inputs: &[&str],
        f: impl Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
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
            Judgement::success()
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
            Judgement::success()
        });
        assert_eq!((seen, out.len()), (vec![0], 3 * step + 1));
        // Said invalid, it is held, then dropped.
        let (seen, out) = pieces(&style, &["a"], |_, sink| {
            sink.verdict(Verdict::Failed);
            record(sink);
            Judgement::failed(Some(Cause::Reason("no".to_string())))
        });
        assert_eq!((seen, out.len()), (vec![0], 0));
        // Said valid, it goes out as it is rendered.
        let (seen, out) = pieces(&style, &["a"], |_, sink| {
            sink.verdict(Verdict::Success);
            record(sink);
            Judgement::success()
        });
        assert_eq!((seen, out.len()), (vec![3 * step], 3 * step + 1));
    }

    /// A command of several lines a record, spilling everywhere, mid-line too: an
    /// input with a `!` fails.
    fn lines(declare: bool) -> impl Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync {
        move |input, sink| {
            let text = input.lossy();
            let ok = !text.contains('!');
            let status = Verdict::from(ok);
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
                Judgement::success()
            } else {
                Judgement::failed(Some(Cause::Reason("bang".to_string())))
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
                valid_lines: None,
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

    /// The lines of `stdin` through `each_input` with a command that says `ok` for a
    /// line without `!` (a record of two lines for the others) and, if `shortcut`,
    /// the same judgement as a [`ValidLines`]: what was written, and the run's
    /// verdict.
    fn judged(style: &Style, stdin: &[u8], shortcut: bool) -> (Vec<u8>, Option<Verdict>) {
        let lines = |t: &[u8]| {
            let (mut at, mut n) = (0, 0);
            while at < t.len() {
                let (end, next) = crate::io::line_end(&t[at..]);
                match std::str::from_utf8(&t[at..at + end]) {
                    Ok(text) if !text.contains('!') => {
                        at += next;
                        n += 1;
                    }
                    _ => break,
                }
            }
            (at, n)
        };
        let style = Style {
            valid_lines: shortcut.then(|| ValidLines::new(std::sync::Arc::new(lines), "ok\n")),
            ..style.clone()
        };
        let (status, out) = in_memory(stdin, || {
            each_input(&[], &style, |input, sink| {
                let text = input.lossy();
                if input.text.is_ok() && !text.contains('!') {
                    sink.push_str("ok\n");
                    Judgement::success()
                } else {
                    let _ = writeln!(sink, "bad: {text:?}\nsecond line");
                    Judgement::failed(Some(Cause::Reason("bang".to_string())))
                }
            })
        });
        (out, status.ok())
    }

    /// A cause is worked out for the summary's count, and only for it; the
    /// summary counts every failure by it.
    #[test]
    fn causes_are_worked_out_only_for_a_summary() {
        use std::sync::atomic::{AtomicUsize, Ordering};
        for summary in [false, true] {
            let style = Style {
                summary,
                ..Style::default()
            };
            let asked = AtomicUsize::new(0);
            let (_, out) = in_memory(b"a\nb!\nc!\n", || {
                each_input(&[], &style, |input, sink| {
                    if input.lossy().contains('!') {
                        sink.failed(|| {
                            asked.fetch_add(1, Ordering::Relaxed);
                            Cause::Reason("bang".to_string())
                        })
                    } else {
                        Judgement::success()
                    }
                })
            });
            let out = String::from_utf8(out).unwrap();
            assert_eq!(asked.into_inner(), if summary { 2 } else { 0 });
            assert_eq!(out.contains("2  bang"), summary, "{out}");
        }
    }

    #[test]
    fn valid_lines_taken_by_a_shortcut_are_written_as_one_by_one() {
        // Runs of valid lines, invalid ones, CR LF, empty lines, a line that is not
        // UTF-8, a last line without LF; and a thousand lines, for --jobs.
        let mut stdin = b"a\nb!\n\nc\r\n\r\n\xffd\ne\r\r\nf\n!\ng\n".to_vec();
        for k in 0..1000 {
            stdin.extend_from_slice(if k % 97 == 0 {
                b"x!\n"
            } else {
                b"http://a/b\n"
            });
        }
        stdin.extend_from_slice(b"end");
        for mask in 0..128u32 {
            let bit = |k: u32| mask & (1 << k) != 0;
            if bit(3) && bit(4) {
                continue; // --valid-only and --invalid-only conflict
            }
            let style = Style {
                json: bit(0),
                with_input: bit(1),
                quiet: bit(2),
                valid_only: bit(3),
                invalid_only: bit(4),
                summary: bit(5),
                jobs: Some(if bit(6) { 2 } else { 1 }),
                verdicts: true,
                ..Style::default()
            };
            let (one_by_one, verdict) = judged(&style, &stdin, false);
            assert!(
                !one_by_one.is_empty() || style.quiet && !style.summary,
                "{style:?}"
            );
            assert_eq!(verdict, Some(Verdict::Failed), "{style:?}");
            assert!(
                (one_by_one.clone(), verdict) == judged(&style, &stdin, true),
                "{style:?}"
            );
        }
    }
}
