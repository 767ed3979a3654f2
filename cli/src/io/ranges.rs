//! A regular file's lines cut into blocks by byte range, each block read by the
//! thread that renders it, all at once.
//!
//! Block `k` is made of the lines that begin in the `k`-th range of
//! [`Ranges::block_bytes`] bytes: it starts after the first LF at or after the byte
//! before its range (at the range itself for the first), and ends with the line
//! that holds its range's last byte, read past the range as far as that line goes.
//! So a block depends on no other, and the threads read theirs side by side: where
//! one thread cuts every block in turn ([`super::read::Blocks`]), its reads, a copy
//! of every byte of the input, are what the others wait for (at 16 threads `check
//! --summary` ran no faster than at 8, at a third of the speed of 16 processes on a
//! 16th of the input each: `bench/record/2026-11-29T2148-bff4ec0-cli-scale.md`).
//!
//! The only thing a block needs from the others is the index of its first line,
//! which `tree` writes and a message about a line names: each block's lines are
//! counted as it is read, and [`Firsts`] sums the counts in block order.

use super::read::{max_line, too_long, Block};
use super::RunError;
use std::collections::BTreeMap;
use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};

/// What is read past a range, at first, for the rest of the line that holds its
/// last byte.
const LINE_READ_BYTES: usize = 4096;

/// Standard input where it can be read at any offset: a regular file, or the bytes
/// of [`super::in_memory`].
pub(super) enum Source {
    #[cfg(unix)]
    File(std::fs::File),
    Memory(Vec<u8>),
}

impl Source {
    /// Reads from byte `at` into `buf`: how many bytes were read (0 at the end).
    fn read_at(&self, buf: &mut [u8], at: u64) -> io::Result<usize> {
        match self {
            #[cfg(unix)]
            Source::File(f) => std::os::unix::fs::FileExt::read_at(f, buf, at),
            Source::Memory(bytes) => {
                let from = usize::try_from(at).map_or(bytes.len(), |at| at.min(bytes.len()));
                let n = buf.len().min(bytes.len() - from);
                buf[..n].copy_from_slice(&bytes[from..from + n]);
                Ok(n)
            }
        }
    }

    /// Leaves the file's position at byte `at`, where a reader that read it through
    /// would have left it, for a command run after this one on the same input.
    fn seek(&self, at: u64) {
        match self {
            #[cfg(unix)]
            Source::File(f) => {
                use std::io::Seek;
                let _ = (&*f).seek(io::SeekFrom::Start(at));
            }
            Source::Memory(_) => {}
        }
    }
}

/// The index of each block's first line: the sum of the lines of the blocks before
/// it, known once each of them is read.
#[derive(Default)]
struct Firsts {
    state: Mutex<Counted>,
    known: Condvar,
}

#[derive(Default)]
struct Counted {
    /// The first block whose first line is not yet known, and that line's index.
    next: usize,
    lines: usize,
    /// The lines of blocks read after `next`, each by block.
    ahead: BTreeMap<usize, usize>,
    /// The first lines known of blocks whose threads have not yet asked for them.
    firsts: BTreeMap<usize, usize>,
}

impl Firsts {
    /// Says that block `seq` holds `lines` lines, and waits for the index of its
    /// first line. Every block claimed is read and counted without waiting on
    /// anything, so the wait ends once the blocks before `seq` are read.
    fn first_of(&self, seq: usize, lines: usize) -> usize {
        let mut s = self.first_of_now(seq, lines);
        loop {
            if let Some(first) = s.firsts.remove(&seq) {
                return first;
            }
            s = self.known.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Says that block `seq` will never be counted (its reading panicked): it is
    /// taken to hold no line, so that the threads waiting for the blocks after it
    /// go on, where the run is ending anyway.
    fn abandon(&self, seq: usize) {
        let counted = {
            let s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
            s.next > seq || s.ahead.contains_key(&seq)
        };
        if !counted {
            drop(self.first_of_now(seq, 0));
        }
    }

    /// Says that block `seq` holds `lines` lines, and works out the first lines of
    /// the blocks that makes known; the state, still locked.
    fn first_of_now(&self, seq: usize, lines: usize) -> std::sync::MutexGuard<'_, Counted> {
        let mut s = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        s.ahead.insert(seq, lines);
        let mut moved = false;
        loop {
            let next = s.next;
            let Some(n) = s.ahead.remove(&next) else {
                break;
            };
            let first = s.lines;
            s.firsts.insert(next, first);
            s.lines += n;
            s.next += 1;
            moved = true;
        }
        if moved {
            self.known.notify_all();
        }
        s
    }
}

/// What reading a block came to.
pub(super) enum Cut {
    /// The block's lines (perhaps none: a line may run through a whole range);
    /// `last` where the input ends in it.
    Lines { block: Block, last: bool },
    /// The block's lines before a line longer than the longest read, or before a
    /// read that failed; the run ends with `failure` once they are written.
    Failed { block: Block, failure: RunError },
}

/// A regular file's lines, cut into blocks by byte range.
pub(super) struct Ranges {
    source: Source,
    /// Where the input began when the run started, which the offsets of messages
    /// count from, and where its first line begins (past a byte order mark).
    origin: u64,
    start: u64,
    /// The size of a range.
    block_bytes: usize,
    /// The longest line read ([`super::set_max_line`] on the thread that made this).
    max_line: usize,
    /// The next block to claim.
    next: AtomicUsize,
    firsts: Firsts,
}

impl Ranges {
    /// The lines of `source` from byte `origin` on, in blocks of ranges of
    /// `block_bytes`. A byte order mark at `origin` is left out, as
    /// [`super::read::Blocks`] leaves it out.
    pub(super) fn new(source: Source, origin: u64, block_bytes: usize) -> Ranges {
        const BOM: &[u8] = "\u{FEFF}".as_bytes();
        let mut head = [0u8; 3];
        let mut n = 0;
        while n < head.len() {
            match source.read_at(&mut head[n..], origin + n as u64) {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // Met again by the first block's read, which says so.
                Err(_) => break,
            }
        }
        let start = origin + if head == BOM { BOM.len() as u64 } else { 0 };
        Ranges {
            source,
            origin,
            start,
            block_bytes: block_bytes.max(1),
            max_line: max_line(),
            next: AtomicUsize::new(0),
            firsts: Firsts::default(),
        }
    }

    /// The next block to read: blocks are claimed in order, and each one claimed
    /// must be read ([`Ranges::read`]), or the threads waiting for the index of a
    /// later block's first line wait for ever.
    pub(super) fn claim(&self) -> usize {
        self.next.fetch_add(1, Ordering::Relaxed)
    }

    /// Lets go the threads waiting for block `seq` to be counted, where reading it
    /// panicked (a bug).
    pub(super) fn abandon(&self, seq: usize) {
        self.firsts.abandon(seq);
    }

    /// Reads block `seq` into `data` (a buffer to reuse) and cuts it: the lines that
    /// begin in its range.
    pub(super) fn read(&self, seq: usize, mut data: Vec<u8>) -> Cut {
        let range = self.block_bytes as u64;
        let off = self.start.saturating_add(range.saturating_mul(seq as u64));
        // The byte before the range says whether a line begins at its first.
        let lo = if seq == 0 { off } else { off - 1 };
        let limit = (off - lo) as usize + self.block_bytes;
        let failed = |data: Vec<u8>, e: io::Error| {
            let first = self.firsts.first_of(seq, 0);
            Cut::Failed {
                block: Block::new(data, 0, 0, first, 0, seq),
                failure: RunError::Io(format!("reading standard input after line {first}: {e}")),
            }
        };
        let mut got = match self.fill(&mut data, 0, lo, limit) {
            Ok(n) => n,
            Err(e) => return failed(data, e),
        };
        let mut last = got < limit;
        let begin = match seq {
            0 => 0,
            _ => memchr::memchr(b'\n', &data[..got]).map_or(got, |k| k + 1),
        };
        if begin >= got {
            let first = self.firsts.first_of(seq, 0);
            if last {
                self.source.seek(lo + got as u64);
            }
            return Cut::Lines {
                block: Block::new(data, 0, 0, first, 0, seq),
                last,
            };
        }
        // The block ends with the line that holds the range's last byte.
        let mut end = got;
        if !last && data[limit - 1] != b'\n' {
            // That line began after the last LF of the range (or at `begin`).
            let line = memchr::memrchr(b'\n', &data[begin..limit]).map_or(begin, |k| begin + k + 1);
            loop {
                // A few lines' worth first (most lines are short), then twice
                // what the line has so far.
                let want = LINE_READ_BYTES.max(got - line);
                let n = match self.fill(&mut data, got, lo + got as u64, want) {
                    Ok(n) => n,
                    Err(e) => return failed(data, e),
                };
                let new = got;
                got += n;
                if let Some(k) = memchr::memchr(b'\n', &data[new..got]) {
                    end = new + k + 1;
                    break;
                }
                if n < want {
                    last = true;
                    end = got;
                    break;
                }
                if got - line > self.max_line {
                    end = got;
                    break;
                }
            }
        } else if !last {
            end = limit;
        }
        // A line longer than the longest read ends the block before it.
        let mut too_long_at = None;
        if end - begin > self.max_line {
            let mut from = begin;
            for lf in memchr::memchr_iter(b'\n', &data[begin..end]).map(|k| begin + k) {
                if lf - from > self.max_line {
                    too_long_at = Some(from);
                    break;
                }
                from = lf + 1;
            }
            if too_long_at.is_none() && from < end && end - from > self.max_line {
                too_long_at = Some(from);
            }
        }
        let cut = too_long_at.unwrap_or(end);
        let lfs = memchr::memchr_iter(b'\n', &data[begin..cut]).count();
        let lines = lfs + usize::from(cut > begin && data[cut - 1] != b'\n');
        let first = self.firsts.first_of(seq, lines);
        let block = Block::new(data, begin, cut, first, lines, seq);
        match too_long_at {
            Some(at) => Cut::Failed {
                block,
                failure: too_long(
                    first + lines + 1,
                    lo + at as u64 - self.origin,
                    self.max_line,
                ),
            },
            None => {
                if last {
                    self.source.seek(lo + end as u64);
                }
                Cut::Lines { block, last }
            }
        }
    }

    /// Reads up to `want` bytes from byte `at` into `data[from..]`, growing it: how
    /// many (fewer only at the end of the input).
    fn fill(&self, data: &mut Vec<u8>, from: usize, at: u64, want: usize) -> io::Result<usize> {
        if data.len() < from + want {
            data.resize(from + want, 0);
        }
        let mut n = 0;
        while n < want {
            match self
                .source
                .read_at(&mut data[from + n..from + want], at + n as u64)
            {
                Ok(0) => break,
                Ok(k) => n += k,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::io::read::tests::{lines_of, mixed_lines};

    /// Every block of `ranges`, read in turn, as the lines they hold, and the
    /// failure that ended them; checks each block's number, its lines' indices and
    /// their count.
    fn lines_read(ranges: &Ranges) -> (Vec<Vec<u8>>, Option<String>) {
        let mut got = Vec::new();
        loop {
            let seq = ranges.claim();
            let (block, end) = match ranges.read(seq, Vec::new()) {
                Cut::Lines { block, last } => (block, last.then_some(None)),
                Cut::Failed { block, failure } => (block, Some(Some(format!("{failure:?}")))),
            };
            assert_eq!(block.seq, seq);
            let before = got.len();
            for input in block.inputs() {
                assert_eq!(input.index, got.len());
                got.push(input.raw.to_vec());
            }
            assert_eq!(Some(got.len() - before), block.lines);
            if let Some(failure) = end {
                return (got, failure);
            }
        }
    }

    #[test]
    fn a_block_abandoned_lets_the_blocks_after_it_go_on() {
        let firsts = Firsts::default();
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| firsts.first_of(1, 7));
            firsts.abandon(0);
            assert_eq!(waiting.join().ok(), Some(0));
        });
        // Counted already: abandoning it changes nothing.
        firsts.abandon(1);
        assert_eq!(firsts.first_of(2, 1), 7);
    }

    #[test]
    fn ranges_cut_the_lines_that_blocks_do() {
        let data = mixed_lines();
        let want = lines_of(&data);
        for block_bytes in [1, 2, 3, 7, 300, 4096, 100_000, 1 << 20] {
            let ranges = Ranges::new(Source::Memory(data.clone()), 0, block_bytes);
            let (got, failure) = lines_read(&ranges);
            assert_eq!(failure, None);
            assert!(got == want, "ranges of {block_bytes}");
        }
    }

    #[test]
    fn ranges_cut_short_inputs_at_every_size() {
        for input in [
            &b""[..],
            b"\n",
            b"\n\n",
            b"a",
            b"a\n",
            b"ab\ncd",
            b"\xef\xbb\xbfa\nb\n",
            b"\xef\xbb\xbf",
            b"\xef\xbb",
            b"a\r\n\r\nb\rc\n\n",
        ] {
            let mut want = lines_of(input.strip_prefix(b"\xef\xbb\xbf").unwrap_or(input));
            if input == b"\xef\xbb" {
                want = lines_of(input);
            }
            for block_bytes in 1..=input.len() + 2 {
                let ranges = Ranges::new(Source::Memory(input.to_vec()), 0, block_bytes);
                let (got, failure) = lines_read(&ranges);
                assert_eq!(failure, None);
                assert_eq!(got, want, "{input:?} in ranges of {block_bytes}");
            }
        }
    }

    #[test]
    fn a_line_too_long_ends_the_lines_before_it_with_its_number() {
        let input = b"ab\ncdefgh\nij\n".to_vec();
        crate::io::set_max_line(4);
        for block_bytes in 1..=input.len() + 1 {
            let ranges = Ranges::new(Source::Memory(input.clone()), 0, block_bytes);
            let (got, failure) = lines_read(&ranges);
            assert_eq!(got, vec![b"ab".to_vec()], "ranges of {block_bytes}");
            let failure = failure.expect("line 2 is too long");
            assert!(
                failure.contains("line 2 of standard input (from byte offset 3)"),
                "{failure}"
            );
        }
        crate::io::set_max_line(crate::io::MAX_LINE_BYTES);
    }
}
