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

mod lines;
mod list;

pub use lines::read_list_range;
use lines::*;
use list::*;
pub use list::{list_schema, text_list, text_list_in_ranges, ListScan, ListSource, ListTable};

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
