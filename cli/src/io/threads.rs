//! The inputs rendered on several threads and written in input order.
//!
//! Many arguments are cut into contiguous parts, a thread each. The lines of
//! standard input come in blocks. With one thread each block is rendered and
//! written in turn, and output is flushed before each read that may wait. With
//! more, a pool renders the blocks, each into a part of its own, and this thread
//! writes the parts in order, flushing whenever it has nothing to do. Each thread of
//! the pool reads its own blocks of a regular file, side by side
//! ([`each_range_on_threads`]); a pipe or a terminal, whose reads may wait, is
//! read by a thread of its own for the pool ([`each_block_on_threads`]). At most a
//! few blocks a thread are read ahead, so memory stays bounded whatever the input's
//! size. A block of few lines is rendered by the writing thread in its turn, so that
//! its records may go out in pieces.

use super::order::{write_part, Ordered, Part};
use super::ranges::{Cut, Ranges};
use super::read::{Block, Blocks};
use super::sink::{render, render_into, Sink};
use super::summary::{Judgement, Tally};
use super::{Input, RunError, Style};
use std::io::{self, Write};

/// Below this many lines a block is rendered on the thread that writes, in its turn:
/// a few lines cost less than handing them over, and a record that is next in order
/// can go out in pieces while it is rendered ([`Sink::spill`]), which matters for
/// the long lines that make short blocks.
const PARALLEL_FROM: usize = 512;
/// The blocks read ahead of the one being written, per rendering thread: enough to
/// keep every thread busy while the writer waits for the next in order, few enough
/// to bound memory (this many times a block of `read::BLOCK_BYTES` a thread, and
/// their output).
const AHEAD_PER_THREAD: usize = 2;

/// Renders the arguments, on several threads if they are many (each renders a
/// contiguous part): the parts in order, what is left of them to write. The first
/// part is rendered on this thread, which writes: it is next in order, so its records
/// may go out while they are rendered.
pub(super) fn render_batch<F>(
    inputs: &[Input<'_>],
    style: &Style,
    f: &F,
    out: &mut Ordered,
) -> io::Result<Vec<Part>>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
{
    // Each thread renders a part of at least PARALLEL_FROM / 2 inputs: a thread
    // costs more to start than a few hundred lines cost to render.
    let threads = style.threads().min(inputs.len() / (PARALLEL_FROM / 2));
    if threads <= 1 {
        return Ok(vec![render(inputs.iter().cloned(), style, f, Some(out))?]);
    }
    let chunk = inputs.len().div_ceil(threads);
    let (first, rest) = inputs.split_at(chunk);
    std::thread::scope(|scope| {
        // A thread the system will not start (out of memory or of address space)
        // leaves its part to this thread, after the first: the output is the same.
        let handles: Vec<_> = rest
            .chunks(chunk)
            .map(|part| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || render(part.iter().cloned(), style, f, None))
                    .map_err(|_| part)
            })
            .collect();
        let first = render(first.iter().cloned(), style, f, Some(out));
        std::iter::once(first)
            .chain(handles.into_iter().map(|h| {
                match h {
                    Ok(h) => h
                        .join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
                    Err(part) => render(part.iter().cloned(), style, f, None),
                }
            }))
            .collect()
    })
}

/// What the reading thread and the rendering threads tell the writing thread.
enum Event {
    /// The next block, or the end of the input (`None`), or why reading failed.
    Read(Result<Option<Block>, RunError>),
    /// What a block came to (or the panic that stopped its thread).
    /// The block's buffer comes back with it, to be read into again.
    Rendered(usize, Vec<u8>, std::thread::Result<Part>),
}

/// Why the reading of blocks ended early.
pub(super) enum Stopped {
    /// Writing failed (a closed pipe among the reasons).
    Written(io::Error),
    /// Reading failed.
    Read(RunError),
}

impl From<io::Error> for Stopped {
    fn from(e: io::Error) -> Stopped {
        Stopped::Written(e)
    }
}

/// What the threads tell the writing thread next: at once where it is there, else
/// once they say it, the output flushed meanwhile (the writer has nothing else to
/// do). `stopped` says which threads, should none be left to say anything (a bug).
fn next_event<E>(
    events: &std::sync::mpsc::Receiver<E>,
    out: &mut Ordered,
    stopped: &str,
) -> Result<E, Stopped> {
    if let Ok(e) = events.try_recv() {
        return Ok(e);
    }
    out.out.flush()?;
    events
        .recv()
        .map_err(|_| Stopped::Read(RunError::Io(format!("reading standard input: {stopped}"))))
}

/// Each block rendered and written on this thread, one after the other (`--jobs 1`,
/// one core, or no thread to be had). Output is flushed before each read of a pipe
/// or a terminal, which may wait.
pub(super) fn each_block<F>(
    blocks: &mut Blocks,
    style: &Style,
    f: &F,
    out: &mut Ordered,
    tally: &mut Tally,
) -> Result<(), Stopped>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
{
    loop {
        if !blocks.file {
            out.out.flush()?;
        }
        let Some(block) = blocks.next_block().map_err(Stopped::Read)? else {
            return Ok(());
        };
        let mut part = render(block.inputs(), style, f, Some(out))?;
        blocks.rendered(block.data, part.tally.inputs());
        if !write_part(&mut part, style, out, tally)? {
            return Ok(());
        }
    }
}

/// Each range of a regular file read, rendered and written on this thread, one
/// after the other ([`each_range_on_threads`] when no thread is to be had).
fn each_range<F>(
    ranges: &Ranges,
    style: &Style,
    f: &F,
    out: &mut Ordered,
    tally: &mut Tally,
) -> Result<(), Stopped>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
{
    let mut data = Vec::new();
    loop {
        let (block, end) = match ranges.read(ranges.claim(), data) {
            Cut::Lines { block, last } => (block, last.then_some(None)),
            Cut::Failed { block, failure } => (block, Some(Some(failure))),
        };
        let mut part = render(block.inputs(), style, f, Some(out))?;
        data = block.data;
        if !write_part(&mut part, style, out, tally)? {
            return Ok(());
        }
        match end {
            None => {}
            Some(None) => return Ok(()),
            Some(Some(failure)) => return Err(Stopped::Read(failure)),
        }
    }
}

/// Each block rendered on one of `threads` threads and written on this one, in
/// order; a thread reads ahead. Memory is bounded: the reading thread waits when
/// [`AHEAD_PER_THREAD`] blocks a thread are read and not yet written. Output is
/// flushed whenever this thread has nothing to do: no input waiting, no block
/// rendered that is next in order.
pub(super) fn each_block_on_threads<F>(
    mut blocks: Blocks,
    threads: usize,
    style: &Style,
    f: &F,
    out: &mut Ordered,
    tally: &mut Tally,
) -> Result<(), Stopped>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
{
    use std::collections::{BTreeMap, VecDeque};
    use std::sync::mpsc;
    use std::sync::Mutex;

    let (events, event) = mpsc::channel::<Event>();
    let ahead = AHEAD_PER_THREAD * threads;
    // One credit for each block the reading thread may read ahead of the writer;
    // a credit given back brings the buffer of the block written.
    let (credit, credits) = mpsc::sync_channel::<Option<Vec<u8>>>(ahead);
    for _ in 0..ahead {
        let _ = credit.send(None);
    }
    // The reading thread is not scoped: a read may wait on a terminal for ever, and
    // a run that stops early (`-q`, a closed pipe) must not wait for it. It is given
    // the input once it runs: a thread the system will not start leaves the input
    // to this thread, which then reads, renders and writes alone. Where a read never
    // waits (a regular file, bytes in memory) it is joined before this returns.
    let never_waits = blocks.file;
    let (give, given) = mpsc::channel::<Blocks>();
    let reader = {
        let events = events.clone();
        std::thread::Builder::new()
            .name("iri-read".to_string())
            .spawn(move || {
                let Ok(mut blocks) = given.recv() else { return };
                while let Ok(spare) = credits.recv() {
                    if let Some(data) = spare {
                        blocks.recycle(data);
                    }
                    let read = blocks.next_block();
                    let more = matches!(read, Ok(Some(_)));
                    if events.send(Event::Read(read)).is_err() || !more {
                        return;
                    }
                }
            })
    };
    if reader.is_err() {
        return each_block(&mut blocks, style, f, out, tally);
    }
    if let Err(mpsc::SendError(mut blocks)) = give.send(blocks) {
        return each_block(&mut blocks, style, f, out, tally);
    }
    let (work, jobs) = mpsc::channel::<Block>();
    let jobs = Mutex::new(jobs);
    let result = std::thread::scope(|scope| {
        let mut renderers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let events = events.clone();
            let jobs = &jobs;
            let spawned = std::thread::Builder::new()
                .name("iri-render".to_string())
                .spawn_scoped(scope, move || loop {
                    let next = jobs.lock().map(|jobs| jobs.recv());
                    let Ok(Ok(block)) = next else { return };
                    let part = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        render(block.inputs(), style, f, None)
                            .expect("a part without a writer cannot fail to write")
                    }));
                    if events
                        .send(Event::Rendered(block.seq, block.data, part))
                        .is_err()
                    {
                        return;
                    }
                });
            if let Ok(renderer) = spawned {
                renderers.push(renderer);
            }
        }
        let started = renderers.len();
        drop(events);
        // Blocks read and not yet handed over; parts rendered and not yet written.
        let mut waiting: VecDeque<Block> = VecDeque::new();
        let mut rendered: BTreeMap<usize, (Part, Vec<u8>)> = BTreeMap::new();
        let mut next = 0;
        let mut read = 0;
        let mut ended = false;
        let mut failed: Option<RunError> = None;
        let result = (|| loop {
            // What is next in order goes out, and gives its credit back.
            while let Some((mut part, data)) = rendered.remove(&next) {
                next += 1;
                let _ = credit.send(Some(data));
                if !write_part(&mut part, style, out, tally)? {
                    return Ok(());
                }
            }
            // Blocks go to the threads; a short one waits for its turn and is
            // rendered here (all of them, when no thread started).
            while let Some(block) = waiting.front() {
                if block.lines.is_some_and(|n| n >= PARALLEL_FROM) && started > 0 {
                    let block = waiting.pop_front().expect("a block is waiting");
                    if let Err(mpsc::SendError(block)) = work.send(block) {
                        waiting.push_front(block);
                        break;
                    }
                } else if block.seq == next {
                    let block = waiting.pop_front().expect("a block is waiting");
                    let mut part = render(block.inputs(), style, f, Some(out))?;
                    next += 1;
                    let _ = credit.send(Some(block.data));
                    if !write_part(&mut part, style, out, tally)? {
                        return Ok(());
                    }
                } else {
                    break;
                }
            }
            if ended && next == read {
                return failed.take().map_or(Ok(()), |e| Err(Stopped::Read(e)));
            }
            let e = next_event(&event, out, "the reading thread stopped")?;
            match e {
                Event::Read(Ok(Some(block))) => {
                    read += 1;
                    waiting.push_back(block);
                }
                Event::Read(Ok(None)) => ended = true,
                // Said once the blocks read before it are written.
                Event::Read(Err(failure)) => {
                    failed = Some(failure);
                    ended = true;
                }
                Event::Rendered(seq, data, Ok(part)) => {
                    rendered.insert(seq, (part, data));
                }
                Event::Rendered(_, _, Err(panic)) => std::panic::resume_unwind(panic),
            }
        })();
        // The rendering threads end when the work does. They are joined here, not
        // left to the scope, which waits for a thread's closure but not for its
        // thread-local destructors: when this returns, the threads are gone.
        drop(work);
        for renderer in renderers {
            let _ = renderer.join();
        }
        result
    });
    if never_waits {
        // Unblocked (its sends fail, its wait for a credit ends), the reading thread
        // stops after at most one more block.
        drop((event, credit));
        if let Ok(reader) = reader {
            let _ = reader.join();
        }
    }
    result
}

/// What a thread that reads and renders blocks of a regular file tells the writing
/// thread ([`each_range_on_threads`]).
enum Done {
    /// What block `seq` came to (or the panic that stopped its thread); the thread
    /// keeps the block's buffer, to read its next block into.
    Rendered(usize, std::thread::Result<Part>),
    /// A block of few lines, for the writing thread to render in its turn; its
    /// buffer comes back with the block's credit.
    Short(Block),
    /// The input has ended after this many blocks.
    Ended(usize),
    /// Reading failed after this many blocks.
    Failed(usize, RunError),
}

/// A block's place in the pipeline of [`each_range_on_threads`], given back
/// with the buffers of a block written: its input's, where the writer rendered it,
/// and its output's, whose room the next part is rendered into.
#[derive(Default)]
struct Credit {
    data: Option<Vec<u8>>,
    text: String,
}

/// Each block of a regular file read and rendered by one of `threads` threads, and
/// written on this one, in order.
///
/// Where a thread reads ahead for the others ([`each_block_on_threads`]), the
/// system copies each block into a buffer that another core rendered last, and that
/// core reads it again: the copy costs three times what it costs one thread, which
/// keeps its buffer in its own cache (a quarter of all the CPU time of `check
/// --summary --jobs 2`, measured with `perf record`). Here each thread reads its
/// own block into its own buffer and renders it while it is fresh; the blocks are
/// byte ranges ([`Ranges`]), so the threads read side by side. A read of a regular
/// file never waits, so the threads may be joined when the run stops early. Memory
/// is bounded: a thread takes one of [`AHEAD_PER_THREAD`] credits a thread before
/// it reads, and the writer gives it back once the block is written.
pub(super) fn each_range_on_threads<F>(
    ranges: Ranges,
    threads: usize,
    style: &Style,
    f: &F,
    out: &mut Ordered,
    tally: &mut Tally,
) -> Result<(), Stopped>
where
    F: Fn(&Input<'_>, &mut Sink<'_>) -> Judgement + Sync,
{
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Mutex};

    let (events, event) = mpsc::channel::<Done>();
    let ahead = AHEAD_PER_THREAD * threads;
    // One credit for each block that may be read ahead of the writer; a credit
    // given back may bring the buffer of a block the writer rendered.
    let (credit, credits) = mpsc::sync_channel::<Credit>(ahead);
    for _ in 0..ahead {
        let _ = credit.send(Credit::default());
    }
    let credits = Mutex::new(credits);
    // Set when the writer stops early (`-q`, a closed pipe) or a thread has met the
    // end of the input: no more blocks are claimed.
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let mut renderers = Vec::with_capacity(threads);
        for _ in 0..threads {
            let events = events.clone();
            let (ranges, credits, stop) = (&ranges, &credits, &stop);
            let spawned = std::thread::Builder::new()
                .name("iri-render".to_string())
                .spawn_scoped(scope, move || {
                    // The buffer this thread read into last, still in its cache.
                    let mut own: Option<Vec<u8>> = None;
                    loop {
                        let Ok(Ok(Credit { data: spare, text })) = credits.lock().map(|c| c.recv())
                        else {
                            return;
                        };
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        let seq = ranges.claim();
                        let buffer = own.take().or(spare).unwrap_or_default();
                        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                            ranges.read(seq, buffer)
                        }));
                        let (block, end) = match read {
                            Ok(Cut::Lines { block, last }) => {
                                (block, last.then_some(Done::Ended(seq + 1)))
                            }
                            Ok(Cut::Failed { block, failure }) => {
                                (block, Some(Done::Failed(seq + 1, failure)))
                            }
                            // A bug: the threads waiting for this block's count are
                            // let go, and the writer ends the run with the panic.
                            Err(panic) => {
                                ranges.abandon(seq);
                                stop.store(true, Ordering::Relaxed);
                                let _ = events.send(Done::Rendered(seq, Err(panic)));
                                return;
                            }
                        };
                        let done = if block.lines.is_some_and(|n| n >= PARALLEL_FROM) {
                            let part =
                                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                                    render_into(text, block.inputs(), style, f, None)
                                        .expect("a part without a writer cannot fail to write")
                                }));
                            own = Some(block.data);
                            Done::Rendered(seq, part)
                        } else {
                            Done::Short(block)
                        };
                        // The end first: the writer knows it before it writes this
                        // block, and writes no block after it.
                        let last = end.is_some();
                        if let Some(end) = end {
                            stop.store(true, Ordering::Relaxed);
                            let _ = events.send(end);
                        }
                        if events.send(done).is_err() || last {
                            return;
                        }
                    }
                });
            if let Ok(renderer) = spawned {
                renderers.push(renderer);
            }
        }
        drop(events);
        if renderers.is_empty() {
            // No thread to be had: this one reads, renders and writes alone.
            return each_range(&ranges, style, f, out, tally);
        }
        // Blocks of few lines waiting for their turn, parts waiting for theirs.
        let mut short: BTreeMap<usize, Block> = BTreeMap::new();
        let mut rendered: BTreeMap<usize, Part> = BTreeMap::new();
        let mut next = 0;
        // How many blocks there are, once a thread has found the end; why reading
        // failed, to be said once the blocks before it are written.
        let mut total: Option<usize> = None;
        let mut failed: Option<RunError> = None;
        let result = (|| loop {
            while total.is_none_or(|t| next < t) {
                let (mut part, data) = if let Some(part) = rendered.remove(&next) {
                    (part, None)
                } else if let Some(block) = short.remove(&next) {
                    (
                        render(block.inputs(), style, f, Some(out))?,
                        Some(block.data),
                    )
                } else {
                    break;
                };
                next += 1;
                let go_on = write_part(&mut part, style, out, tally)?;
                // The credit goes back with the buffers written from.
                let text = std::mem::take(&mut part.text);
                let _ = credit.send(Credit { data, text });
                if !go_on {
                    return Ok(());
                }
            }
            if total.is_some_and(|t| next >= t) {
                return failed.take().map_or(Ok(()), |e| Err(Stopped::Read(e)));
            }
            let e = next_event(&event, out, "the reading threads stopped")?;
            match e {
                Done::Rendered(seq, Ok(part)) => {
                    rendered.insert(seq, part);
                }
                Done::Rendered(_, Err(panic)) => std::panic::resume_unwind(panic),
                Done::Short(block) => {
                    short.insert(block.seq, block);
                }
                // The earliest end is the end: blocks after it are not written.
                Done::Ended(n) if total.is_none_or(|t| n < t) => {
                    total = Some(n);
                    failed = None;
                }
                Done::Failed(n, failure) if total.is_none_or(|t| n < t) => {
                    total = Some(n);
                    failed = Some(failure);
                }
                Done::Ended(_) | Done::Failed(..) => {}
            }
        })();
        // The threads stop at their next credit; they are joined here, not left to
        // the scope, which waits for a thread's closure but not for its
        // thread-local destructors: when this returns, the threads are gone.
        stop.store(true, Ordering::Relaxed);
        drop(credit);
        for renderer in renderers {
            let _ = renderer.join();
        }
        result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::memory::in_memory;
    use crate::io::ranges::Source;
    use crate::io::read::tests::mixed_lines;
    use crate::io::read::BLOCK_BYTES;
    use crate::io::summary::{finish, Cause};
    use crate::io::Verdict;
    use std::fmt::Write as _;

    #[test]
    fn threads_write_what_one_thread_writes() {
        let data = mixed_lines();
        let f = |input: &Input<'_>, sink: &mut Sink<'_>| {
            let text = input.lossy();
            let _ = writeln!(sink, "{} {}", input.index, text.len());
            if text.contains('!') || input.text.is_err() {
                Judgement::failed(Some(Cause::Reason("bang".to_string())))
            } else {
                Judgement::success()
            }
        };
        for mask in 0..16u32 {
            let bit = |k: u32| mask & (1 << k) != 0;
            let style = Style {
                json: bit(0),
                with_input: bit(1),
                valid_only: bit(2),
                summary: bit(3),
                blank_line_between: bit(1),
                pair: false,
                verdicts: bit(2),
                ..Style::default()
            };
            let run = |threads: usize| {
                let (written, out) = in_memory(b"", || {
                    let mut out = Ordered::new(&style);
                    let mut tally = Tally::default();
                    let blocks = Blocks::new(Box::new(io::Cursor::new(data.clone())), true);
                    let ended = match threads {
                        1 => each_block(&mut blocks.uncounted(), &style, &f, &mut out, &mut tally),
                        // A thread reading ahead for the others.
                        t if t % 2 == 0 => {
                            each_block_on_threads(blocks, t, &style, &f, &mut out, &mut tally)
                        }
                        // Each thread reading its own ranges of a file, of two sizes.
                        t => {
                            let size = if t < 5 { BLOCK_BYTES } else { 40_000 };
                            let ranges = Ranges::new(Source::Memory(data.clone()), 0, size);
                            each_range_on_threads(ranges, t, &style, &f, &mut out, &mut tally)
                        }
                    };
                    assert!(ended.is_ok());
                    finish(out.out, &style, &tally)
                });
                assert_eq!(written.ok(), Some(Verdict::Failed));
                out
            };
            let one = run(1);
            assert!(!one.is_empty());
            for threads in [2, 3, 8, 9] {
                assert!(run(threads) == one, "{style:?}, {threads} threads");
            }
        }
    }

    /// A command that panics on a line (a bug) ends the run with its panic, on every
    /// way of reading, and never leaves it waiting.
    #[test]
    fn a_panic_while_rendering_ends_the_run() {
        // Many more blocks after the panic than the credits of the threads.
        let data = mixed_lines().repeat(8);
        let f = |input: &Input<'_>, _sink: &mut Sink<'_>| {
            assert!(input.index != 20_000, "a bug on line 20000");
            Judgement::success()
        };
        for threads in [2, 3] {
            let (done, ended) = std::sync::mpsc::channel();
            let data = data.clone();
            std::thread::spawn(move || {
                let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    in_memory(b"", || {
                        let style = Style::default();
                        let mut out = Ordered::new(&style);
                        let mut tally = Tally::default();
                        if threads == 2 {
                            let blocks = Blocks::new(Box::new(io::Cursor::new(data)), false);
                            let _ =
                                each_block_on_threads(blocks, 2, &style, &f, &mut out, &mut tally);
                        } else {
                            let ranges = Ranges::new(Source::Memory(data), 0, 40_000);
                            let _ =
                                each_range_on_threads(ranges, 3, &style, &f, &mut out, &mut tally);
                        }
                    })
                }));
                let _ = done.send(run.is_err());
            });
            let panicked = ended.recv_timeout(std::time::Duration::from_secs(60));
            assert_eq!(panicked, Ok(true), "{threads} threads");
        }
    }
}
