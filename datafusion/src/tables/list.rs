//! The list table: its schema, provider, scan, source and opener, so that a plain
//! list of IRIs is a table DataFusion plans and runs in partitions.

use super::*;

pub(super) const BOM: &[u8] = "\u{FEFF}".as_bytes();

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
pub(super) fn utf8_error_message(text: &[u8], e: std::str::Utf8Error, line_start: u64) -> String {
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
pub(super) fn check_ranges(ranges: &[(u64, u64)]) -> Result<()> {
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
pub(super) struct ListOpener {
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
pub(super) struct Columns(pub(super) Vec<usize>);

impl Columns {
    pub(super) fn all() -> Columns {
        Columns(vec![0, 1, 2])
    }

    /// The columns of a projection (`None`: all of them), each as often as it is
    /// asked for (DataFusion asks for each once).
    pub(super) fn of(projection: Option<&[usize]>) -> Result<Columns> {
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

    pub(super) fn wants(&self, column: usize) -> bool {
        self.0.contains(&column)
    }

    pub(super) fn schema(&self) -> Result<SchemaRef> {
        Ok(Arc::new(list_schema().project(&self.0)?))
    }
}
