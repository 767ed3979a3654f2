//! Reading a list's lines: the file cut into byte ranges at line ends, read in
//! blocks, each line a row (its offset, its text or where it is not UTF-8).

use super::*;

/// `0..len` cut into up to `partitions` ranges of equal length, each at least
/// `min_range` bytes (one range for an empty file). The cuts fall anywhere: which
/// lines a range has is decided at line ends when it is read ([`read_list_range`]).
pub(super) fn byte_ranges(len: u64, partitions: usize, min_range: u64) -> Vec<(u64, u64)> {
    let n = (partitions.max(1) as u64)
        .min(len.div_ceil(min_range.max(1)))
        .max(1);
    let step = len.div_ceil(n);
    (0..n)
        .map(|k| ((k * step).min(len), ((k + 1) * step).min(len)))
        .collect()
}

/// The bytes read from a file at a time: lines are found in large reads, not read
/// one by one.
pub(super) const BLOCK: usize = 1 << 20;

/// A file read in [`BLOCK`]s: `buf` holds the file's bytes from offset `at`, of
/// which those before `head` are consumed.
pub(super) struct Blocks {
    file: File,
    buf: Vec<u8>,
    head: usize,
    at: u64,
    eof: bool,
}

impl Blocks {
    /// Reads the next block after what `buf` holds, dropping what is consumed.
    /// `false` at the end of the file.
    fn refill(&mut self) -> std::io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        self.buf.drain(..self.head);
        self.at += self.head as u64;
        self.head = 0;
        let old = self.buf.len();
        self.buf.resize(old + BLOCK, 0);
        let n = loop {
            match self.file.read(&mut self.buf[old..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                r => break r,
            }
        };
        self.buf.truncate(old + n.as_ref().copied().unwrap_or(0));
        if n? == 0 {
            self.eof = true;
            return Ok(false);
        }
        Ok(true)
    }

    /// The next line, as its file offset, its range in `buf` without the `\n`, and
    /// whether a `\n` ended it (the last line may have none); `None` at the end of
    /// the file. A line has no length limit but the file's. The range is valid
    /// until the next call.
    fn next_line(&mut self) -> std::io::Result<Option<(u64, std::ops::Range<usize>, bool)>> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.head..]) {
                let line = self.head..self.head + i;
                let at = self.at + self.head as u64;
                self.head += i + 1;
                return Ok(Some((at, line, true)));
            }
            if !self.refill()? {
                // The last line, without a final `\n`.
                if self.head == self.buf.len() {
                    return Ok(None);
                }
                let line = self.head..self.buf.len();
                let at = self.at + self.head as u64;
                self.head = self.buf.len();
                return Ok(Some((at, line, false)));
            }
        }
    }
}

/// The rows of one batch, gathered before its columns are made: the lines' texts
/// end to end in `values` (the bytes of the `iri` column, copied once from the
/// block), `ends[i]` where line `i`'s text ends there.
pub(super) struct Batch {
    /// The file offset of each line.
    starts: Vec<u64>,
    values: Vec<u8>,
    /// `0`, then the end of each line's text in `values`: the `iri` column's offsets.
    ends: Vec<i32>,
    /// Whether the first line's text starts after a byte order mark (3 bytes on).
    bom: bool,
}

impl Batch {
    fn new(batch_size: usize, texts: bool) -> Batch {
        let mut ends = Vec::with_capacity(if texts { batch_size + 1 } else { 0 });
        if texts {
            ends.push(0);
        }
        Batch {
            starts: Vec::with_capacity(batch_size),
            values: Vec::with_capacity(if texts { batch_size * 64 } else { 0 }),
            ends,
            bom: false,
        }
    }

    fn len(&self) -> usize {
        self.starts.len()
    }

    fn is_empty(&self) -> bool {
        self.starts.is_empty()
    }

    /// Where line `i`'s text starts in the file.
    fn text_start(&self, i: usize) -> u64 {
        self.starts[i]
            + if i == 0 && self.bom {
                BOM.len() as u64
            } else {
                0
            }
    }

    /// The `iri` and `utf8_error` columns. The texts are checked as UTF-8 at once:
    /// when all of `values` is UTF-8 and every line starts on a character boundary,
    /// each line is UTF-8 (a line is cut from the others at ASCII bytes in the file,
    /// so only a line ending inside a sequence that the next line's bytes complete
    /// fails the boundary test). Otherwise line by line: a line that is not UTF-8
    /// gets a NULL `iri` and a `utf8_error` saying why, and its bytes are dropped
    /// from the column. The lines' offsets come back for the `offset` column.
    fn texts(self) -> (StringArray, StringArray, Vec<u64>) {
        let rows = self.len();
        let all_utf8 = match std::str::from_utf8(&self.values) {
            Ok(s) => self.ends.iter().all(|&e| s.is_char_boundary(e as usize)),
            Err(_) => false,
        };
        if all_utf8 {
            let offsets = OffsetBuffer::new(ScalarBuffer::from(self.ends));
            // SAFETY: `offsets` start at 0, grow (each line appended after the
            // last) and end at `values.len()` (pushed after each append); `values`
            // is UTF-8 and every offset is on a character boundary (checked above).
            let iris =
                unsafe { StringArray::new_unchecked(offsets, Buffer::from_vec(self.values), None) };
            return (iris, StringArray::new_null(rows), self.starts);
        }
        let mut iris = StringBuilder::with_capacity(rows, self.values.len());
        let mut errors = StringBuilder::with_capacity(rows, 0);
        for i in 0..rows {
            let text = &self.values[self.ends[i] as usize..self.ends[i + 1] as usize];
            match std::str::from_utf8(text) {
                Ok(s) => {
                    iris.append_value(s);
                    errors.append_null();
                }
                // No text, so no IRI: NULL, and the reason beside it (see the module
                // documentation for why not U+FFFD).
                Err(e) => {
                    iris.append_null();
                    errors.append_value(utf8_error_message(text, e, self.text_start(i)));
                }
            }
        }
        (iris.finish(), errors.finish(), self.starts)
    }
}

/// Reads the lines of the list at `path` that start in `start..end` ([`ListScan`])
/// as batches of up to `batch_size` rows of `columns` of [`list_schema`], handing
/// each to `emit` until it returns `false`.
pub(super) fn read_lines(
    path: &Path,
    start: u64,
    end: u64,
    batch_size: usize,
    columns: Columns,
    mut emit: impl FnMut(RecordBatch) -> bool,
) -> Result<()> {
    let io =
        |e: std::io::Error| DataFusionError::External(format!("{}: {e}", path.display()).into());
    let mut file = File::open(path).map_err(io)?;
    // Does a line start at `start`? Only if the byte before is `\n`: read from that
    // byte and skip to the first line end.
    let from = start.saturating_sub(1);
    file.seek(SeekFrom::Start(from)).map_err(io)?;
    let mut blocks = Blocks {
        file,
        buf: Vec::with_capacity(BLOCK),
        head: 0,
        at: from,
        eof: false,
    };
    if start > 0 && blocks.next_line().map_err(io)?.is_none() {
        return Ok(());
    }
    let schema = columns.schema()?;
    let batch_size = batch_size.max(1);
    // `utf8_error` needs the texts as much as `iri`: it says which are not UTF-8.
    let texts = columns.wants(1) || columns.wants(2);
    // A byte order mark opens the file, not its first IRI.
    let mut at_file_start = start == 0;
    // A line read but left for the next batch, whose text did not fit in this one's
    // `iri` column (Arrow's `Utf8` holds under 2 GiB a batch).
    let mut pending = None;
    let mut done = false;
    while !done {
        let mut batch = Batch::new(batch_size, texts);
        while batch.len() < batch_size {
            let next = match pending.take() {
                Some(line) => Some(line),
                None => blocks.next_line().map_err(io)?,
            };
            let Some((pos, line, ended)) = next else {
                done = true;
                break;
            };
            if pos >= end {
                done = true;
                break;
            }
            if texts {
                let mut text = &blocks.buf[line.clone()];
                let bom = at_file_start && text.starts_with(BOM);
                if bom {
                    text = &text[BOM.len()..];
                }
                // `\r\n` ends a line as `\n` does; a `\r` at the very end of the
                // file is the line's.
                if ended {
                    text = text.strip_suffix(b"\r").unwrap_or(text);
                }
                let Ok(text_end) = i32::try_from(batch.values.len() + text.len()) else {
                    if batch.is_empty() {
                        return Err(DataFusionError::External(
                            format!(
                                "{}: the line at byte {pos} is {} bytes long, over the 2 GiB \
                                 a string column holds",
                                path.display(),
                                text.len()
                            )
                            .into(),
                        ));
                    }
                    pending = Some((pos, line, ended));
                    break;
                };
                batch.values.extend_from_slice(text);
                batch.ends.push(text_end);
                batch.bom |= bom;
            }
            at_file_start = false;
            batch.starts.push(pos);
        }
        if batch.is_empty() {
            break;
        }
        let rows = batch.len();
        let mut made: [Option<ArrayRef>; 3] = [None, None, None];
        // The texts first: a line that is not UTF-8 is explained by its offset.
        let starts = if texts {
            let (iris, errors, starts) = batch.texts();
            made[1] = Some(Arc::new(iris));
            made[2] = Some(Arc::new(errors));
            starts
        } else {
            batch.starts
        };
        if columns.wants(0) {
            made[0] = Some(Arc::new(UInt64Array::from(starts)));
        }
        let arrays = columns
            .0
            .iter()
            .map(|&c| {
                made[c].clone().ok_or_else(|| {
                    DataFusionError::Internal(format!("list column {c} was not made"))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let batch = RecordBatch::try_new_with_options(
            schema.clone(),
            arrays,
            &RecordBatchOptions::new().with_row_count(Some(rows)),
        )?;
        if !emit(batch) {
            break;
        }
    }
    Ok(())
}

/// The rows of the list at `path` whose lines start in `start..end`, in batches of
/// `batch_size` rows, with the columns of `projection` (indices into [`list_schema`];
/// `None`: all): what one partition of [`text_list`] reads (for tests of where
/// ranges cut and of what a projection makes).
#[doc(hidden)]
pub fn read_list_range(
    path: &Path,
    start: u64,
    end: u64,
    batch_size: usize,
    projection: Option<&[usize]>,
) -> Result<Vec<RecordBatch>> {
    let mut batches = Vec::new();
    read_lines(
        path,
        start,
        end,
        batch_size,
        Columns::of(projection)?,
        |b| {
            batches.push(b);
            true
        },
    )?;
    Ok(batches)
}
