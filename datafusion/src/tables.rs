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

use async_trait::async_trait;
use datafusion::arrow::array::{
    ArrayRef, RecordBatch, RecordBatchOptions, StringArray, StringBuilder, UInt64Array,
};
use datafusion::arrow::buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use datafusion::arrow::datatypes::{DataType, Field, Schema, SchemaRef};
use datafusion::catalog::{Session, TableProvider};
use datafusion::common::tree_node::TreeNodeRecursion;
use datafusion::common::{DataFusionError, Result, TableReference};
use datafusion::datasource::file_format::options::JsonReadOptions;
use datafusion::datasource::listing::PartitionedFile;
use datafusion::datasource::object_store::ObjectStoreUrl;
use datafusion::datasource::physical_plan::{
    FileGroup, FileOpenFuture, FileOpener, FileScanConfig, FileScanConfigBuilder, FileSource,
};
use datafusion::datasource::projection::{ProjectionOpener, SplitProjection};
use datafusion::datasource::source::DataSourceExec;
use datafusion::datasource::table_schema::TableSchema;
use datafusion::datasource::TableType;
use datafusion::logical_expr::Expr;
use datafusion::object_store::ObjectStore;
use datafusion::physical_expr::expressions::Column;
use datafusion::physical_expr::projection::ProjectionExprs;
use datafusion::physical_expr::PhysicalExpr;
use datafusion::physical_plan::metrics::ExecutionPlanMetricsSet;
use datafusion::physical_plan::stream::RecordBatchReceiverStreamBuilder;
use datafusion::physical_plan::{apply_expression_roots, ExecutionPlan};
use datafusion::prelude::{CsvReadOptions, DataFrame, ParquetReadOptions, SessionContext};
use futures::StreamExt;
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
///
/// The path is made absolute (canonical) here: on a cluster the table and its scans
/// travel to processes started in other directories, which open the file by that
/// path (`crate::codec`, with the `ballista` feature).
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
    let io =
        |e: std::io::Error| DataFusionError::External(format!("{}: {e}", path.display()).into());
    let path = std::fs::canonicalize(&path).map_err(io)?;
    let len = std::fs::metadata(&path).map_err(io)?.len();
    Ok(Arc::new(ListTable {
        path,
        ranges: byte_ranges(len, partitions, min_range),
    }))
}

/// A list as a table: each scan ([`ListScan`]) reads only the columns the query
/// uses (a `count(*)` copies no line, `iri_is_valid(iri)` builds no `offset`), one
/// partition per byte range. The ranges are cut when the table is made, from the
/// file's length then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListTable {
    path: PathBuf,
    ranges: Vec<(u64, u64)>,
}

impl ListTable {
    /// The table of the list at `path` read in `ranges` (for a table that has
    /// travelled: `crate::codec`). The ranges must be contiguous from byte 0, each
    /// `start <= end`: every line then starts in exactly one of them.
    pub fn new(path: PathBuf, ranges: Vec<(u64, u64)>) -> Result<ListTable> {
        check_ranges(&ranges)?;
        Ok(ListTable { path, ranges })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The byte ranges, one a partition.
    pub fn ranges(&self) -> &[(u64, u64)] {
        &self.ranges
    }
}

/// Whether `ranges` cut a file as [`byte_ranges`] does: at least one, contiguous
/// from 0, none backwards. Ranges that overlap would read a line twice, a gap would
/// lose the lines that start in it.
fn check_ranges(ranges: &[(u64, u64)]) -> Result<()> {
    let bad = |why: String| Err(DataFusionError::Plan(format!("list byte ranges: {why}")));
    let Some(&(first, _)) = ranges.first() else {
        return bad("there are none (a list has at least one partition)".to_string());
    };
    if first != 0 {
        return bad(format!("the first starts at byte {first}, not 0"));
    }
    let mut at = 0;
    for (k, &(start, end)) in ranges.iter().enumerate() {
        if start != at {
            return bad(format!(
                "range {k} starts at byte {start} where range {} ended at {at}",
                k.saturating_sub(1)
            ));
        }
        if end < start {
            return bad(format!(
                "range {k} ends at byte {end}, before its start {start}"
            ));
        }
        at = end;
    }
    Ok(())
}

#[async_trait]
impl TableProvider for ListTable {
    fn schema(&self) -> SchemaRef {
        list_schema()
    }

    fn table_type(&self) -> TableType {
        TableType::Base
    }

    async fn scan(
        &self,
        _state: &dyn Session,
        projection: Option<&Vec<usize>>,
        _filters: &[Expr],
        limit: Option<usize>,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        ListScan {
            path: self.path.clone(),
            ranges: self.ranges.clone(),
            projection: Columns::of(projection.map(Vec::as_slice))?.0,
            limit,
        }
        .plan()
    }
}

/// A scan of a list: partition `k` makes the rows of the lines that start in
/// `ranges[k]` (a line starting at a range's `start` belongs to it only when
/// `start` is 0 or follows a `\n`: otherwise the range before has it), with the
/// columns of `projection` (indices into [`list_schema`], in that order), at most
/// `limit` rows a partition.
///
/// Its plan ([`ListScan::plan`]) is DataFusion's own file scan, a `DataSourceExec`
/// of a `FileScanConfig`, one file group a range, each the file with its byte range,
/// read by [`ListSource`]. Not a plan node of this crate's: a Ballista scheduler
/// gives each task a plan restricted to the task's partitions, and it can restrict
/// only the scans it knows, `FileScanConfig`'s file groups among them; a scan of
/// its own would be run whole by every task, each row read once a task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListScan {
    /// The file, opened by this path wherever the plan runs.
    pub path: PathBuf,
    /// One byte range a partition.
    pub ranges: Vec<(u64, u64)>,
    /// The columns made, as indices into [`list_schema`].
    pub projection: Vec<usize>,
    /// The most rows a partition makes.
    pub limit: Option<usize>,
}

impl ListScan {
    /// The plan that reads it.
    pub fn plan(&self) -> Result<Arc<dyn ExecutionPlan>> {
        if let Some(&(start, end)) = self.ranges.iter().find(|(start, end)| end < start) {
            return Err(DataFusionError::Plan(format!(
                "list byte range {start}..{end} ends before it starts"
            )));
        }
        let columns = Columns::of(Some(&self.projection))?;
        let path = self.path.to_str().ok_or_else(|| {
            DataFusionError::Plan(format!("{}: a path that is not UTF-8", self.path.display()))
        })?;
        let size = self.ranges.iter().map(|&(_, end)| end).max().unwrap_or(0);
        let start_end = |n: u64| {
            i64::try_from(n).map_err(|_| {
                DataFusionError::Plan(format!("list byte offset {n} is past any file's end"))
            })
        };
        let groups = self
            .ranges
            .iter()
            .map(|&(start, end)| {
                let file =
                    PartitionedFile::new(path, size).with_range(start_end(start)?, start_end(end)?);
                Ok(FileGroup::new(vec![file]))
            })
            .collect::<Result<Vec<_>>>()?;
        let source = Arc::new(ListSource::new(self.path.clone()));
        let config = FileScanConfigBuilder::new(ObjectStoreUrl::local_filesystem(), source)
            .with_file_groups(groups)
            .with_projection_indices(Some(columns.0))?
            .with_limit(self.limit)
            .build();
        Ok(DataSourceExec::from_data_source(config))
    }

    /// The list scan that `plan` is, if it is one (`None` for any other plan).
    pub fn of_plan(plan: &dyn ExecutionPlan) -> Option<Result<ListScan>> {
        let exec = plan.downcast_ref::<DataSourceExec>()?;
        let config =
            (exec.data_source().as_ref() as &dyn std::any::Any).downcast_ref::<FileScanConfig>()?;
        let source =
            (config.file_source().as_ref() as &dyn std::any::Any).downcast_ref::<ListSource>()?;
        Some(source.scan_of(config))
    }
}

/// The lines of a list as DataFusion's file scans read files: a `FileSource`
/// whose opener (`ListOpener`) reads the lines that start in a file's byte range
/// as [`read_list_range`] does. It reads only the columns of its projection, which
/// must be columns of [`list_schema`] as they are (what a scan asks for: anything
/// computed from them is left to the plan above).
#[derive(Clone)]
pub struct ListSource {
    path: PathBuf,
    table_schema: TableSchema,
    batch_size: Option<usize>,
    metrics: ExecutionPlanMetricsSet,
    projection: SplitProjection,
}

impl ListSource {
    /// The source of the list at `path`, all its columns.
    pub fn new(path: PathBuf) -> ListSource {
        let table_schema = TableSchema::from(list_schema());
        ListSource {
            path,
            projection: SplitProjection::unprojected(&table_schema),
            table_schema,
            batch_size: None,
            metrics: ExecutionPlanMetricsSet::new(),
        }
    }

    /// The columns of `projection` when each is a column of [`list_schema`] by its
    /// own name; `None` otherwise.
    fn columns_of(projection: &ProjectionExprs) -> Option<Vec<usize>> {
        let schema = list_schema();
        projection
            .iter()
            .map(|p| {
                let column = p.expr.downcast_ref::<Column>()?;
                let field = schema.fields().get(column.index())?;
                (field.name() == column.name() && p.alias == *field.name())
                    .then_some(column.index())
            })
            .collect()
    }

    /// The scan `config` (whose source this is) reads.
    fn scan_of(&self, config: &FileScanConfig) -> Result<ListScan> {
        let projection = Self::columns_of(&self.projection.source).ok_or_else(|| {
            DataFusionError::Internal("a list scan with a computed projection".to_string())
        })?;
        let ranges = config
            .file_groups
            .iter()
            .map(|group| match group.files() {
                [file] => match &file.range {
                    Some(r) => match (u64::try_from(r.start), u64::try_from(r.end)) {
                        (Ok(start), Ok(end)) => Ok((start, end)),
                        _ => Err(DataFusionError::Internal(format!(
                            "a list scan's byte range {}..{}",
                            r.start, r.end
                        ))),
                    },
                    None => Ok((0, file.object_meta.size)),
                },
                files => Err(DataFusionError::Internal(format!(
                    "a list scan's partition of {} files",
                    files.len()
                ))),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(ListScan {
            path: self.path.clone(),
            ranges,
            projection,
            limit: config.limit,
        })
    }
}

impl FileSource for ListSource {
    fn create_file_opener(
        &self,
        _object_store: Arc<dyn ObjectStore>,
        _base_config: &FileScanConfig,
        _partition: usize,
    ) -> Result<Arc<dyn FileOpener>> {
        // The file is read with the standard library, in large blocks on tokio's
        // blocking pool: the list's path is a local path on every process.
        let opener = Arc::new(ListOpener {
            path: self.path.clone(),
            // DataFusion sets the session's batch size when it opens a scan; 8192 is
            // its default.
            batch_size: self.batch_size.unwrap_or(8192),
            columns: Columns(self.projection.file_indices.clone()),
        });
        ProjectionOpener::try_new(
            self.projection.clone(),
            opener,
            self.table_schema.file_schema(),
        )
    }

    fn table_schema(&self) -> &TableSchema {
        &self.table_schema
    }

    fn with_batch_size(&self, batch_size: usize) -> Arc<dyn FileSource> {
        Arc::new(ListSource {
            batch_size: Some(batch_size),
            ..self.clone()
        })
    }

    fn try_pushdown_projection(
        &self,
        projection: &ProjectionExprs,
    ) -> Result<Option<Arc<dyn FileSource>>> {
        let merged = self.projection.source.try_merge(projection)?;
        if Self::columns_of(&merged).is_none() {
            return Ok(None);
        }
        Ok(Some(Arc::new(ListSource {
            projection: SplitProjection::new(self.table_schema.file_schema(), &merged),
            ..self.clone()
        })))
    }

    fn projection(&self) -> Option<&ProjectionExprs> {
        Some(&self.projection.source)
    }

    fn metrics(&self) -> &ExecutionPlanMetricsSet {
        &self.metrics
    }

    fn file_type(&self) -> &str {
        "list"
    }

    /// A list's partitions are its byte ranges, cut when its table is made: not
    /// cut again by DataFusion's file repartitioning.
    fn supports_repartitioning(&self) -> bool {
        false
    }

    fn apply_expressions(
        &self,
        f: &mut dyn FnMut(&Arc<dyn PhysicalExpr>) -> Result<TreeNodeRecursion>,
    ) -> Result<TreeNodeRecursion> {
        apply_expression_roots(self.projection.source.iter(), f)
    }
}

/// Opens one byte range of a list ([`ListSource`]): the lines that start in it.
struct ListOpener {
    path: PathBuf,
    batch_size: usize,
    columns: Columns,
}

impl FileOpener for ListOpener {
    fn open(&self, file: PartitionedFile) -> Result<FileOpenFuture> {
        let (start, end) = match &file.range {
            None => (0, u64::MAX),
            Some(r) => match (u64::try_from(r.start), u64::try_from(r.end)) {
                (Ok(start), Ok(end)) => (start, end),
                _ => {
                    return Err(DataFusionError::Internal(format!(
                        "a list's byte range {}..{}",
                        r.start, r.end
                    )))
                }
            },
        };
        let (path, batch_size, columns) =
            (self.path.clone(), self.batch_size, self.columns.clone());
        Ok(Box::pin(async move {
            let mut builder = RecordBatchReceiverStreamBuilder::new(columns.schema()?, 2);
            let tx = builder.tx();
            // File reads block: on tokio's blocking pool, not on a worker thread. A
            // closed channel is the query no longer reading (a LIMIT): stop too.
            builder.spawn_blocking(move || {
                read_lines(&path, start, end, batch_size, columns, |batch| {
                    tx.blocking_send(Ok(batch)).is_ok()
                })
            });
            Ok(builder.build().boxed())
        }))
    }
}

/// The columns of [`list_schema`] a scan makes, in the order it asks for them:
/// indices, 0 `offset`, 1 `iri`, 2 `utf8_error`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Columns(Vec<usize>);

impl Columns {
    fn all() -> Columns {
        Columns(vec![0, 1, 2])
    }

    /// The columns of a projection (`None`: all of them), each as often as it is
    /// asked for (DataFusion asks for each once).
    fn of(projection: Option<&[usize]>) -> Result<Columns> {
        match projection {
            None => Ok(Columns::all()),
            Some(p) => match p.iter().find(|&&i| i > 2) {
                Some(i) => Err(DataFusionError::Internal(format!(
                    "a list has 3 columns, not a column {i}"
                ))),
                None => Ok(Columns(p.to_vec())),
            },
        }
    }

    fn wants(&self, column: usize) -> bool {
        self.0.contains(&column)
    }

    fn schema(&self) -> Result<SchemaRef> {
        Ok(Arc::new(list_schema().project(&self.0)?))
    }
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
struct Batch {
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
fn read_lines(
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

/// Registers the file at `path` as the table `name`; a folder, or a glob pattern
/// (`urls/*.txt`), as the table of all its files one after the other, as
/// DataFusion's listing tables take them. Each file is read by its own extension.
pub async fn register_path(ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
    let files = files_of(path)?;
    if let [file] = files.as_slice() {
        if file == path {
            return register_file(ctx, name, path).await;
        }
    }
    let mut all: Option<DataFrame> = None;
    for file in &files {
        let df = read_file(ctx, file).await?;
        all = Some(match all {
            None => df,
            Some(all) => all.union(df)?,
        });
    }
    let all = all.ok_or_else(|| no_file(path))?;
    ctx.register_table(TableReference::bare(name), all.into_view())?;
    Ok(())
}

/// Whether `path` is a glob pattern, as DataFusion's listing tables see one.
fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '['])
}

fn no_file(path: &str) -> DataFusionError {
    if is_glob(path) {
        DataFusionError::Plan(format!("{path}: no file matches this pattern"))
    } else {
        DataFusionError::Plan(format!("{path}: the folder holds no file"))
    }
}

/// The files `path` names: itself, the files of a folder, or those a glob pattern
/// matches, in the order of their names. None is an error that says why.
pub fn files_of(path: &str) -> Result<Vec<String>> {
    let io = |e: std::io::Error| DataFusionError::Plan(format!("{path}: {e}"));
    let mut files = Vec::new();
    if Path::new(path).is_dir() {
        for entry in std::fs::read_dir(path).map_err(io)? {
            let entry = entry.map_err(io)?;
            if entry.file_type().map_err(io)?.is_file() {
                files.push(entry.path());
            }
        }
    } else if is_glob(path) && !Path::new(path).exists() {
        let pattern = glob::glob(path)
            .map_err(|e| DataFusionError::Plan(format!("{path}: not a glob pattern: {e}")))?;
        for file in pattern {
            let file = file.map_err(|e| DataFusionError::Plan(format!("{path}: {e}")))?;
            if file.is_file() {
                files.push(file);
            }
        }
    } else {
        std::fs::metadata(path).map_err(io)?;
        return Ok(vec![path.to_string()]);
    }
    files.sort();
    if files.is_empty() {
        return Err(no_file(path));
    }
    files
        .into_iter()
        .map(|f| {
            f.into_os_string().into_string().map_err(|f| {
                DataFusionError::Plan(format!("{path}: a file name that is not UTF-8: {f:?}"))
            })
        })
        .collect()
}

/// The file at `path` as a data frame, read by its extension.
async fn read_file(ctx: &SessionContext, path: &str) -> Result<DataFrame> {
    let ext = extension_of(path);
    match Format::of(path) {
        Format::Parquet => {
            ctx.read_parquet(path, ParquetReadOptions::default().file_extension(&ext))
                .await
        }
        Format::Csv => ctx.read_csv(path, csv_options(&ext)).await,
        Format::NdJson => ctx.read_json(path, json_options(&ext)).await,
        Format::List => {
            let partitions = ctx.state().config().target_partitions();
            ctx.read_table(text_list(path, partitions)?)
        }
    }
}

fn csv_options(ext: &str) -> CsvReadOptions<'_> {
    let mut options = CsvReadOptions::new().file_extension(ext);
    if ext.to_ascii_lowercase().starts_with(".tsv") {
        options = options.delimiter(b'\t');
    }
    if let Some(c) = compression_of(ext) {
        options = options.file_compression_type(c);
    }
    options
}

fn json_options(ext: &str) -> JsonReadOptions<'_> {
    let mut options = JsonReadOptions::default().file_extension(ext);
    if let Some(c) = compression_of(ext) {
        options = options.file_compression_type(c);
    }
    options
}

/// Registers the one file at `path` as the table `name`.
async fn register_file(ctx: &SessionContext, name: &str, path: &str) -> Result<()> {
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
        Format::Csv => ctx.register_csv(table, path, csv_options(&ext)).await,
        Format::NdJson => ctx.register_json(table, path, json_options(&ext)).await,
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

/// The tables the SQL names by a path (`FROM 'urls.txt'`, `FROM "data/links.parquet"`,
/// `FROM 'urls/'`, `FROM 'urls/*.txt'`) that are not registered yet; an error naming
/// the path and the reason when one names no readable file. Names that are no path
/// (no `/`, `.` or glob character, and no file of that name) are left to the catalog.
pub fn paths_in(ctx: &SessionContext, sql: &str) -> Result<Vec<String>> {
    let state = ctx.state();
    let dialect = state.config().options().sql_parser.dialect;
    let statement = state.sql_to_statement(sql, &dialect)?;
    let mut paths = Vec::new();
    for r in state.resolve_table_references(&statement)? {
        if let TableReference::Bare { table } = &r {
            let path = table.as_ref();
            if ctx.table_exist(r.clone())? {
                continue;
            }
            if looks_like_a_path(path) {
                // A name no table has that reads as a path is a file that is
                // missing or unreadable: say which and why, not "table not found".
                files_of(path)?;
                paths.push(path.to_string());
            }
        }
    }
    Ok(paths)
}

/// Whether a table name is meant as a path: it names something on disk, or has a
/// folder separator, an extension's dot or a glob character.
fn looks_like_a_path(name: &str) -> bool {
    Path::new(name).exists() || name.contains(['/', '.']) || is_glob(name)
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

/// The error `e` of a query over the text files `paths` (CSV, NDJSON), explained
/// when a reader stopped at bytes that are not UTF-8.
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
