//! Files as tables, named by their path: `SELECT ... FROM 'urls.txt'`.
//!
//! CSV, Parquet and NDJSON are DataFusion's own readers. A plain list (one IRI a
//! line, what crawl indexes and `grep -o` produce) is read here, because no CSV
//! setting reads every line as it is: a CSV reader gives quotes and separators a
//! meaning, and stops the whole query at the first line that is not UTF-8, where a
//! person cleaning links wants to see that line.
//!
//! A list is the table `(offset UInt64, iri Utf8, utf8_error Utf8)`: `offset` is the
//! byte offset of the line in the file (exact whatever the partitioning, which a line
//! number would not be without reading the file twice; `tail -c +$((offset + 1)) FILE
//! | head -1` shows the line), `iri` the line without its `\n` or `\r\n`. A line that
//! is not UTF-8 has no text: its `iri` is NULL and `utf8_error` says where its first
//! byte that is not UTF-8 is (NULL for every other line). The row is kept, so the
//! line is not lost, but nothing is made of it: RFC 3987 §2.2 defines IRIs over
//! characters, and a repair such as U+FFFD for the bad bytes would be a character the
//! file does not hold, which `iri_prepare` or `iri_to_uri` would turn into a valid
//! IRI (`%EF%BF%BD`) indistinguishable from a genuine U+FFFD. NULL makes every
//! function give NULL for it; `utf8_error` is what explains it, as `iri_error` does
//! for text. A UTF-8 byte order mark at the start of the file is no part of the first
//! line. The file is split into byte ranges, one partition each, cut at line ends.

use datafusion::arrow::array::{ArrayBuilder, RecordBatch, StringBuilder, UInt64Builder};
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::catalog::streaming::StreamingTable;
use datafusion::catalog::TableProvider;
use datafusion::common::{DataFusionError, Result, TableReference};
use datafusion::datasource::file_format::options::JsonReadOptions;
use datafusion::execution::TaskContext;
use datafusion::physical_plan::stream::RecordBatchReceiverStreamBuilder;
use datafusion::physical_plan::streaming::PartitionStream;
use datafusion::physical_plan::SendableRecordBatchStream;
use datafusion::prelude::{CsvReadOptions, ParquetReadOptions, SessionContext};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const BOM: &[u8] = "\u{FEFF}".as_bytes();

/// The schema of a list.
pub fn list_schema() -> SchemaRef {
    Arc::new(Schema::new(vec![
        Field::new("offset", DataType::UInt64, false),
        Field::new("iri", DataType::Utf8, true),
        Field::new("utf8_error", DataType::Utf8, true),
    ]))
}

/// Why a line is not UTF-8, for the `utf8_error` column: the first byte that is not
/// part of a UTF-8 sequence, by its offset in the line and in the file (`line_start`
/// is where the line's text starts in the file, after a byte order mark).
fn utf8_error_message(text: &[u8], e: std::str::Utf8Error, line_start: u64) -> String {
    let at = e.valid_up_to();
    let byte = text[at];
    let file_at = line_start + at as u64;
    match e.error_len() {
        Some(_) => format!(
            "the line is not UTF-8: invalid byte 0x{byte:02X} at offset {at} of the line \
             (byte {file_at} of the file)"
        ),
        // The sequence that starts at `at` is cut short by the end of the line.
        None => format!(
            "the line is not UTF-8: it ends inside the sequence that byte 0x{byte:02X} \
             starts at offset {at} of the line (byte {file_at} of the file)"
        ),
    }
}

/// A list of IRIs, one a line, as a table of up to `partitions` partitions (byte
/// ranges of at least 1 MiB: smaller ones cost more to start than they save).
pub fn text_list(path: impl Into<PathBuf>, partitions: usize) -> Result<Arc<dyn TableProvider>> {
    text_list_in_ranges(path, partitions, 1 << 20)
}

/// [`text_list`] with ranges of at least `min_range` bytes (tests cut small files).
#[doc(hidden)]
pub fn text_list_in_ranges(
    path: impl Into<PathBuf>,
    partitions: usize,
    min_range: u64,
) -> Result<Arc<dyn TableProvider>> {
    let path = path.into();
    let len = std::fs::metadata(&path)
        .map_err(|e| DataFusionError::External(format!("{}: {e}", path.display()).into()))?
        .len();
    let schema = list_schema();
    let parts: Vec<Arc<dyn PartitionStream>> = byte_ranges(len, partitions, min_range)
        .into_iter()
        .map(|(start, end)| {
            Arc::new(LineRange {
                path: path.clone(),
                start,
                end,
                schema: schema.clone(),
            }) as Arc<dyn PartitionStream>
        })
        .collect();
    Ok(Arc::new(StreamingTable::try_new(schema, parts)?))
}

/// `0..len` cut into up to `partitions` ranges of equal length, each at least
/// `min_range` bytes (one range for an empty file). The cuts fall anywhere: which
/// lines a range has is decided at line ends when it is read ([`read_list_range`]).
fn byte_ranges(len: u64, partitions: usize, min_range: u64) -> Vec<(u64, u64)> {
    let n = (partitions.max(1) as u64)
        .min(len.div_ceil(min_range.max(1)))
        .max(1);
    let step = len.div_ceil(n);
    (0..n)
        .map(|k| ((k * step).min(len), ((k + 1) * step).min(len)))
        .collect()
}

/// The lines that start in `start..end` (a line starting at `start` belongs here
/// only when `start` is 0 or follows a `\n`: otherwise the previous range has it).
#[derive(Debug)]
struct LineRange {
    path: PathBuf,
    start: u64,
    end: u64,
    schema: SchemaRef,
}

impl PartitionStream for LineRange {
    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    fn execute(&self, ctx: Arc<TaskContext>) -> SendableRecordBatchStream {
        let batch_size = ctx.session_config().batch_size();
        let mut builder = RecordBatchReceiverStreamBuilder::new(self.schema.clone(), 2);
        let tx = builder.tx();
        let (path, start, end) = (self.path.clone(), self.start, self.end);
        // File reads block: on tokio's blocking pool, not on a worker thread. A
        // closed channel is the query no longer reading (a LIMIT): stop too.
        builder.spawn_blocking(move || {
            read_lines(&path, start, end, batch_size, |batch| {
                tx.blocking_send(Ok(batch)).is_ok()
            })
        });
        builder.build()
    }
}

/// The bytes read from a file at a time: lines are found in large reads, not read
/// one by one.
const BLOCK: usize = 1 << 20;

/// A file read in [`BLOCK`]s: `buf` holds the file's bytes from offset `at`, of
/// which those before `head` are consumed.
struct Blocks {
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
    /// the file. A line has no length limit but the file's.
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

/// Reads the lines of the list at `path` that start in `start..end` ([`LineRange`])
/// as batches of up to `batch_size` rows of [`list_schema`], handing each to `emit`
/// until it returns `false`.
fn read_lines(
    path: &Path,
    start: u64,
    end: u64,
    batch_size: usize,
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
    let schema = list_schema();
    let batch_size = batch_size.max(1);
    // A byte order mark opens the file, not its first IRI.
    let mut at_file_start = start == 0;
    let mut done = false;
    while !done {
        let mut offsets = UInt64Builder::with_capacity(batch_size);
        let mut iris = StringBuilder::with_capacity(batch_size, batch_size * 64);
        // Almost every line is UTF-8: no bytes reserved for messages.
        let mut errors = StringBuilder::with_capacity(batch_size, 0);
        while offsets.len() < batch_size {
            let Some((pos, line, ended)) = blocks.next_line().map_err(io)? else {
                done = true;
                break;
            };
            if pos >= end {
                done = true;
                break;
            }
            offsets.append_value(pos);
            let mut text = &blocks.buf[line];
            let mut text_start = pos;
            if std::mem::take(&mut at_file_start) {
                if let Some(t) = text.strip_prefix(BOM) {
                    text = t;
                    text_start += BOM.len() as u64;
                }
            }
            // `\r\n` ends a line as `\n` does; a `\r` at the very end of the file
            // is the line's.
            if ended {
                text = text.strip_suffix(b"\r").unwrap_or(text);
            }
            match std::str::from_utf8(text) {
                Ok(s) => {
                    iris.append_value(s);
                    errors.append_null();
                }
                // No text, so no IRI: NULL, and the reason beside it (see the module
                // documentation for why not U+FFFD).
                Err(e) => {
                    iris.append_null();
                    errors.append_value(utf8_error_message(text, e, text_start));
                }
            }
        }
        if offsets.is_empty() {
            break;
        }
        let batch = RecordBatch::try_new(
            schema.clone(),
            vec![
                Arc::new(offsets.finish()),
                Arc::new(iris.finish()),
                Arc::new(errors.finish()),
            ],
        )?;
        if !emit(batch) {
            break;
        }
    }
    Ok(())
}

/// The rows of the list at `path` whose lines start in `start..end`, in batches of
/// `batch_size` rows: what one partition of [`text_list`] reads (for tests of where
/// ranges cut).
#[doc(hidden)]
pub fn read_list_range(
    path: &Path,
    start: u64,
    end: u64,
    batch_size: usize,
) -> Result<Vec<RecordBatch>> {
    let mut batches = Vec::new();
    read_lines(path, start, end, batch_size, |b| {
        batches.push(b);
        true
    })?;
    Ok(batches)
}

/// How a file is read, from its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.parquet`
    Parquet,
    /// `.csv`, `.tsv` (with a header line), possibly compressed.
    Csv,
    /// `.json`, `.ndjson`, `.jsonl`: one JSON object a line.
    NdJson,
    /// Anything else: one IRI a line.
    List,
}

impl Format {
    pub fn of(path: &str) -> Format {
        let name = path.to_ascii_lowercase();
        let name = [".gz", ".zst", ".bz2", ".xz"]
            .iter()
            .find_map(|c| name.strip_suffix(c))
            .unwrap_or(&name);
        if name.ends_with(".parquet") {
            Format::Parquet
        } else if name.ends_with(".csv") || name.ends_with(".tsv") {
            Format::Csv
        } else if name.ends_with(".json") || name.ends_with(".ndjson") || name.ends_with(".jsonl") {
            Format::NdJson
        } else {
            Format::List
        }
    }
}

fn extension_of(path: &str) -> String {
    // DataFusion's readers select files by extension: give the whole one
    // (`.csv.gz`), or '' for a name without a dot.
    let name = Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match name.find('.') {
        Some(i) => name[i..].to_string(),
        None => String::new(),
    }
}

/// Registers the file at `path` as the table `name`.
pub async fn register_path(ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
    let ext = extension_of(path);
    let table = TableReference::bare(name);
    match Format::of(path) {
        Format::Parquet => {
            ctx.register_parquet(
                table,
                path,
                ParquetReadOptions::default().file_extension(&ext),
            )
            .await
        }
        Format::Csv => {
            let mut options = CsvReadOptions::new().file_extension(&ext);
            if ext.to_ascii_lowercase().starts_with(".tsv") {
                options = options.delimiter(b'\t');
            }
            if let Some(c) = compression_of(&ext) {
                options = options.file_compression_type(c);
            }
            ctx.register_csv(table, path, options).await
        }
        Format::NdJson => {
            let mut options = JsonReadOptions::default().file_extension(&ext);
            if let Some(c) = compression_of(&ext) {
                options = options.file_compression_type(c);
            }
            ctx.register_json(table, path, options).await
        }
        Format::List => {
            let partitions = ctx.state().config().target_partitions();
            ctx.register_table(table, text_list(path, partitions)?)?;
            Ok(())
        }
    }
}

fn compression_of(
    ext: &str,
) -> Option<datafusion::datasource::file_format::file_compression_type::FileCompressionType> {
    use datafusion::datasource::file_format::file_compression_type::FileCompressionType as C;
    let e = ext.to_ascii_lowercase();
    if e.ends_with(".gz") {
        Some(C::GZIP)
    } else if e.ends_with(".zst") {
        Some(C::ZSTD)
    } else if e.ends_with(".bz2") {
        Some(C::BZIP2)
    } else if e.ends_with(".xz") {
        Some(C::XZ)
    } else {
        None
    }
}

/// The tables the SQL names by a path to an existing file (`FROM 'urls.txt'`,
/// `FROM "data/links.parquet"`) that are not registered yet. Names that are no file
/// are left to the catalog (registered tables, CTEs).
pub fn paths_in(ctx: &SessionContext, sql: &str) -> Result<Vec<String>> {
    let state = ctx.state();
    let dialect = state.config().options().sql_parser.dialect;
    let statement = state.sql_to_statement(sql, &dialect)?;
    let mut paths = Vec::new();
    for r in state.resolve_table_references(&statement)? {
        if let TableReference::Bare { table } = &r {
            let path = table.as_ref();
            if Path::new(path).is_file() && !ctx.table_exist(r.clone())? {
                paths.push(path.to_string());
            }
        }
    }
    Ok(paths)
}

/// Registers every file the SQL names by its path as a table of that name, so that
/// files need no separate registration.
pub async fn register_paths_in(ctx: &SessionContext, sql: &str) -> Result<Vec<String>> {
    let paths = paths_in(ctx, sql)?;
    for path in &paths {
        register_path(ctx, path, path).await?;
    }
    Ok(paths)
}

/// Registers a list as one-column CSV, the table `(iri)`: for engines that cannot
/// run [`text_list`]'s reader (Ballista's executors deserialize only the tables they
/// know). The separator and quote are the ASCII unit and record separators, which
/// no IRI has; unlike [`text_list`], a line that is not UTF-8 or that holds one of
/// those two characters stops the query, a lone CR ends a line, and there is no
/// `offset` nor `utf8_error`.
pub async fn register_list_as_csv(ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
    let ext = extension_of(path);
    let schema = Schema::new(vec![Field::new("iri", DataType::Utf8, true)]);
    let mut options = CsvReadOptions::new()
        .has_header(false)
        .delimiter(0x1f)
        .quote(0x1e)
        .schema(&schema)
        .file_extension(&ext);
    if let Some(c) = compression_of(&ext) {
        options = options.file_compression_type(c);
    }
    ctx.register_csv(TableReference::bare(name), path, options)
        .await
}

/// Where a text file first holds bytes that are not UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NotUtf8 {
    /// The line, counted from 1 (lines end at `\n`, as `sed -n 'LINEp'` counts them).
    pub line: u64,
    /// The offset of the first byte that is not UTF-8, in the file as decompressed.
    pub byte: u64,
    /// That byte.
    pub value: u8,
}

/// The first bytes of the file at `path` that are not UTF-8, decompressed as its
/// extension says (`.gz`, `.zst`, `.bz2`, `.xz`); `None` when it is all UTF-8. Reads
/// the file up to there, so it is for explaining an error, not for every query.
pub fn first_non_utf8(path: &str) -> Result<Option<NotUtf8>> {
    let io = |e: std::io::Error| DataFusionError::External(format!("{path}: {e}").into());
    let file = File::open(path).map_err(io)?;
    let mut reader: Box<dyn Read + Send> = match compression_of(&extension_of(path)) {
        Some(c) => c.convert_read(file)?,
        None => Box::new(file),
    };
    let mut buf = vec![0u8; 1 << 20];
    // `kept` bytes at the start of `buf` are a sequence cut by the previous read.
    let (mut kept, mut consumed, mut line) = (0usize, 0u64, 1u64);
    loop {
        let n = reader.read(&mut buf[kept..]).map_err(io)?;
        let filled = kept + n;
        let chunk = &buf[..filled];
        match std::str::from_utf8(chunk) {
            Ok(_) => {
                if n == 0 {
                    return Ok(None);
                }
                line += chunk.iter().filter(|&&b| b == b'\n').count() as u64;
                consumed += filled as u64;
                kept = 0;
            }
            Err(e) => {
                let at = e.valid_up_to();
                line += chunk[..at].iter().filter(|&&b| b == b'\n').count() as u64;
                // A sequence cut by the end of this read may go on in the next one;
                // cut by the end of the file (`n == 0`), it is not UTF-8.
                if e.error_len().is_none() && n > 0 {
                    consumed += at as u64;
                    buf.copy_within(at..filled, 0);
                    kept = filled - at;
                    continue;
                }
                return Ok(Some(NotUtf8 {
                    line,
                    byte: consumed + at as u64,
                    value: chunk[at],
                }));
            }
        }
    }
}

/// Whether `e` is DataFusion's CSV or JSON reader stopping at bytes that are not
/// UTF-8. Their messages are the only sign: arrow-csv's "Encountered invalid UTF-8
/// data for line N and field M" (reading; N counts from the start of the range the
/// partition reads) and "invalid utf-8: invalid UTF-8 in field N near byte index K"
/// (inferring the schema), arrow-json's "Encountered non-UTF-8 data" and
/// "Encountered truncated UTF-8 sequence" (reading) and the standard library's
/// "stream did not contain valid UTF-8" (inferring). The error is Arrow's, wrapped by
/// DataFusion (and turned into text by Ballista), so it is recognized by its text;
/// should the words change, the error is shown as it is.
fn is_utf8_error(e: &DataFusionError) -> bool {
    let text = e.to_string().to_ascii_lowercase();
    [
        "invalid utf-8",
        "non-utf-8 data",
        "truncated utf-8 sequence",
        "did not contain valid utf-8",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// The error `e` of a query over the text files `paths` (CSV, NDJSON, and lists
/// read as CSV), explained when a reader stopped at bytes that are not UTF-8.
///
/// DataFusion's CSV and JSON readers decode a whole batch of rows at once: a field
/// that is not UTF-8 fails the batch, so no reader option can give that one row
/// NULL and read on (the list reader, [`text_list`], can, and does), and their error
/// names neither the file nor, for a file read in several ranges, the line in it.
/// The query has stopped either way; this finds the first bytes that are not UTF-8
/// in the first of `paths` that has some, and says where they are and what to do.
/// Any other error, or one no file explains, is returned as it is.
pub fn explain_error(e: DataFusionError, paths: &[String]) -> DataFusionError {
    if !is_utf8_error(&e) {
        return e;
    }
    for path in paths {
        let Ok(Some(at)) = first_non_utf8(path) else {
            continue;
        };
        let reader = match Format::of(path) {
            Format::NdJson => "JSON",
            _ => "CSV",
        };
        let decompressed = if compression_of(&extension_of(path)).is_some() {
            ", decompressed"
        } else {
            ""
        };
        return DataFusionError::Execution(format!(
            "{path}: line {} is not UTF-8 (byte 0x{:02X} at offset {} of the file{decompressed}). \
             DataFusion's {reader} reader decodes a batch of rows at once and cannot give one \
             field NULL and read on, so the query stops at the first such byte: convert the \
             file to UTF-8 (iconv), or give the IRIs as a list, one a line, whose reader keeps \
             such a line with a NULL iri and says why in utf8_error. The reader said: {e}",
            at.line, at.value, at.byte
        ));
    }
    e
}
