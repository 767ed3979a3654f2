//! A list on the wire: Ballista's extension codecs for [`ListTable`] and its scans
//! ([`ListScan`]).
//!
//! Ballista ships plans as protobuf (DataFusion's `datafusion-proto`). What that
//! format does not know, a table or a plan node of this crate, it hands to the
//! extension codecs of the process: the client encodes the logical plan, whose scan
//! of a list carries the [`ListTable`] ([`ListLogicalCodec`]); the scheduler decodes
//! it, plans, and encodes each stage for the executors, whose leaves are list
//! scans (DataFusion's `DataSourceExec` of a `FileScanConfig` with a
//! [`ListSource`](crate::tables::ListSource), restricted by the scheduler to the
//! byte ranges of the task: [`ListPhysicalCodec`]); each executor decodes its stage
//! with the same codecs. Everything else is left to Ballista's own codecs, which each of
//! these wraps. So every process of a cluster needs them: the client's
//! `SessionConfig` (`with_ballista_logical_extension_codec`,
//! `with_ballista_physical_extension_codec`), the scheduler's `SchedulerConfig` and
//! the executor's `ExecutorProcessConfig` (`override_logical_codec`,
//! `override_physical_codec`); `crate::ballista` sets them all.
//!
//! # The bytes of a list node
//!
//! ```text
//! offset  size  what
//! 0       8     the magic bytes "iri-list"
//! 8       1     the format's version: 1
//! 9       1     what the node is: b'T' a ListTable, b'S' a ListScan
//! 10      4     the message's length N, unsigned, little-endian
//! 14      N     the message, protobuf ([`ListNode`])
//! ```
//!
//! and nothing after. The magic tells a list node from Ballista's nodes, which are
//! protobuf messages of message fields: their first byte has wire type 2 (length
//! delimited), where `i` (0x69) is field 13 of wire type 1 (64-bit), which no
//! message of Ballista's starts with. The length makes a node cut short (or one
//! with bytes after it) an error: protobuf alone would read a message cut between
//! two fields as a message without the later fields, a scan of other columns.
//!
//! The bytes come from the network: decoding checks every count and length against
//! a bound before it keeps anything ([`MAX_RANGES`], [`MAX_PATH`], three columns),
//! every value against what the node may hold (no range that ends before it
//! starts, a table's ranges cut as [`ListTable::new`] says, columns 0 to 2 each at
//! most once), and answers anything else with an error that says what is wrong,
//! never a panic.

use crate::tables::{list_schema, ListScan, ListTable};
use ballista_core::serde::{BallistaLogicalExtensionCodec, BallistaPhysicalExtensionCodec};
use datafusion::arrow::datatypes::SchemaRef;
use datafusion::catalog::TableProvider;
use datafusion::common::{DataFusionError, Result, TableReference};
use datafusion::datasource::file_format::FileFormatFactory;
use datafusion::execution::TaskContext;
use datafusion::logical_expr::{
    AggregateUDF, Extension, HigherOrderUDF, LogicalPlan, ScalarUDF, WindowUDF,
};
use datafusion::physical_expr_common::physical_expr::proto_decode::PhysicalExprDecodeCtx;
use datafusion::physical_expr_common::physical_expr::proto_encode::PhysicalExprEncodeCtx;
use datafusion::physical_plan::{ExecutionPlan, PhysicalExpr};
use datafusion_proto::logical_plan::LogicalExtensionCodec;
use datafusion_proto::physical_plan::{PhysicalExtensionCodec, PhysicalProtoConverterExtension};
use prost::Message;
use std::path::PathBuf;
use std::sync::Arc;

/// The first bytes of every list node.
const MAGIC: &[u8; 8] = b"iri-list";
/// The version of the layout and of [`ListNode`] this build writes and reads.
const VERSION: u8 = 1;
/// The magic, the version, the kind and the length.
const HEADER: usize = MAGIC.len() + 1 + 1 + 4;
/// The most byte ranges (partitions) a list node holds: far above any
/// `target_partitions` a cluster runs, and a bound on what a node may make a
/// process allocate.
pub const MAX_RANGES: usize = 1 << 16;
/// The longest path a list node holds, in bytes (Linux's `PATH_MAX`).
pub const MAX_PATH: usize = 4096;

/// What a list node is: its byte at offset 9.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// A [`ListTable`], in a logical plan.
    Table,
    /// A [`ListScan`], in a physical plan.
    Scan,
}

impl Kind {
    fn byte(self) -> u8 {
        match self {
            Kind::Table => b'T',
            Kind::Scan => b'S',
        }
    }

    fn name(self) -> &'static str {
        match self {
            Kind::Table => "a list table",
            Kind::Scan => "a list scan",
        }
    }
}

/// A list node's message: the file, its byte ranges, and for a scan the columns
/// and the limit.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ListNode {
    /// The file's absolute path, as every executor opens it.
    #[prost(string, tag = "1")]
    pub path: String,
    /// One byte range a partition.
    #[prost(message, repeated, tag = "2")]
    pub ranges: Vec<ByteRange>,
    /// A scan's columns, as indices into the list's schema (0 `offset`, 1 `iri`,
    /// 2 `utf8_error`), in the order it makes them; empty for `count(*)`.
    #[prost(uint32, repeated, tag = "3")]
    pub columns: Vec<u32>,
    /// A scan's most rows a partition.
    #[prost(uint64, optional, tag = "4")]
    pub limit: Option<u64>,
}

/// The bytes `start..end` of the file: the lines that start there.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ByteRange {
    #[prost(uint64, tag = "1")]
    pub start: u64,
    #[prost(uint64, tag = "2")]
    pub end: u64,
}

/// A list node's error: the bytes are not a node this build can read.
fn malformed(why: impl std::fmt::Display) -> DataFusionError {
    DataFusionError::Plan(format!("a list node that cannot be read: {why}"))
}

/// Writes `node` as a list node of `kind` to `buf`.
fn write_node(kind: Kind, node: &ListNode, buf: &mut Vec<u8>) -> Result<()> {
    // What the reader refuses is refused here too, so that a plan no executor can
    // read fails where it is made, with the reason.
    check_node(kind, node)?;
    let len = node.encoded_len();
    let len32 = u32::try_from(len).map_err(|_| malformed(format!("{len} bytes long")))?;
    buf.reserve(HEADER + len);
    buf.extend_from_slice(MAGIC);
    buf.push(VERSION);
    buf.push(kind.byte());
    buf.extend_from_slice(&len32.to_le_bytes());
    node.encode(buf)
        .map_err(|e| DataFusionError::Internal(format!("encoding a list node: {e}")))
}

/// Whether `buf` is a list node (of any kind or version): the other bytes a codec
/// sees are Ballista's.
fn is_list_node(buf: &[u8]) -> bool {
    buf.starts_with(MAGIC)
}

/// Reads the list node of `kind` that `buf` holds, checked ([`check_node`]).
fn read_node(kind: Kind, buf: &[u8]) -> Result<ListNode> {
    let Some(header) = buf.get(..HEADER) else {
        return Err(malformed(format!(
            "{} bytes, shorter than the {HEADER} bytes of its header",
            buf.len()
        )));
    };
    if &header[..MAGIC.len()] != MAGIC {
        return Err(malformed("it does not start with \"iri-list\""));
    }
    let version = header[8];
    if version != VERSION {
        return Err(malformed(format!(
            "version {version}, where this iri-sql reads version {VERSION}: run the same \
             iri-sql build on the client, the scheduler and every executor"
        )));
    }
    let found = header[9];
    if found != kind.byte() {
        return Err(malformed(format!(
            "kind byte 0x{found:02X} where {} (0x{:02X}) was expected",
            kind.name(),
            kind.byte()
        )));
    }
    let len = u32::from_le_bytes([header[10], header[11], header[12], header[13]]) as usize;
    let body = &buf[HEADER..];
    if body.len() != len {
        return Err(malformed(format!(
            "its header gives a message of {len} bytes, and {} follow",
            body.len()
        )));
    }
    // prost checks each length against the bytes left before it reads, so what it
    // allocates is bounded by the message's length.
    let node = ListNode::decode(body).map_err(|e| malformed(format!("its message: {e}")))?;
    check_node(kind, &node)?;
    Ok(node)
}

/// Whether `node` is one a list node of `kind` may hold: a path of at most
/// [`MAX_PATH`] bytes; 1 to [`MAX_RANGES`] ranges, none backwards; for a table, no
/// columns nor limit; for a scan, columns 0 to 2, each at most once.
fn check_node(kind: Kind, node: &ListNode) -> Result<()> {
    if node.path.is_empty() {
        return Err(malformed("the path is empty"));
    }
    if node.path.len() > MAX_PATH {
        return Err(malformed(format!(
            "a path of {} bytes, over the {MAX_PATH} a node holds",
            node.path.len()
        )));
    }
    if node.path.contains('\0') {
        return Err(malformed("the path holds a NUL byte"));
    }
    if node.ranges.len() > MAX_RANGES {
        return Err(malformed(format!(
            "{} byte ranges, over the {MAX_RANGES} a node holds",
            node.ranges.len()
        )));
    }
    if let Some((k, r)) = node
        .ranges
        .iter()
        .enumerate()
        .find(|(_, r)| r.end < r.start)
    {
        return Err(malformed(format!(
            "byte range {k} ends at {}, before it starts at {}",
            r.end, r.start
        )));
    }
    match kind {
        Kind::Table => {
            if !node.columns.is_empty() || node.limit.is_some() {
                return Err(malformed("a list table with a scan's columns or limit"));
            }
            // A table's ranges cut its whole file.
            let ranges: Vec<(u64, u64)> = node.ranges.iter().map(|r| (r.start, r.end)).collect();
            crate::tables::ListTable::new(PathBuf::new(), ranges).map_err(malformed)?;
        }
        Kind::Scan => {
            if node.columns.len() > 3 {
                return Err(malformed(format!(
                    "{} columns, where a list has 3",
                    node.columns.len()
                )));
            }
            for (i, &c) in node.columns.iter().enumerate() {
                if c > 2 {
                    return Err(malformed(format!("column {c}, where a list has 0 to 2")));
                }
                if node.columns[..i].contains(&c) {
                    return Err(malformed(format!("column {c} twice")));
                }
            }
            if let Some(limit) = node.limit {
                usize::try_from(limit)
                    .map_err(|_| malformed(format!("a limit of {limit} rows")))?;
            }
        }
    }
    Ok(())
}

/// `ranges` as a node holds them.
fn byte_ranges(ranges: &[(u64, u64)]) -> Vec<ByteRange> {
    ranges
        .iter()
        .map(|&(start, end)| ByteRange { start, end })
        .collect()
}

/// The ranges a node holds.
fn ranges_of(node: &ListNode) -> Vec<(u64, u64)> {
    node.ranges.iter().map(|r| (r.start, r.end)).collect()
}

/// The path as a node holds it: UTF-8 (protobuf strings are).
fn path_text(path: &std::path::Path) -> Result<String> {
    path.to_str().map(str::to_string).ok_or_else(|| {
        DataFusionError::Plan(format!(
            "{}: a path that is not UTF-8 cannot be sent to executors",
            path.display()
        ))
    })
}

/// Encodes `table` as a list node.
pub fn encode_table(table: &ListTable, buf: &mut Vec<u8>) -> Result<()> {
    let node = ListNode {
        path: path_text(table.path())?,
        ranges: byte_ranges(table.ranges()),
        columns: Vec::new(),
        limit: None,
    };
    write_node(Kind::Table, &node, buf)
}

/// Decodes the list table that `buf` holds.
pub fn decode_table(buf: &[u8]) -> Result<ListTable> {
    let node = read_node(Kind::Table, buf)?;
    let ranges = ranges_of(&node);
    ListTable::new(PathBuf::from(node.path), ranges)
}

/// Encodes `scan` as a list node.
pub fn encode_scan(scan: &ListScan, buf: &mut Vec<u8>) -> Result<()> {
    let node = ListNode {
        path: path_text(&scan.path)?,
        ranges: byte_ranges(&scan.ranges),
        columns: scan.projection.iter().map(|&c| c as u32).collect(),
        limit: scan.limit.map(|n| n as u64),
    };
    write_node(Kind::Scan, &node, buf)
}

/// Decodes the list scan that `buf` holds.
pub fn decode_scan(buf: &[u8]) -> Result<ListScan> {
    let node = read_node(Kind::Scan, buf)?;
    Ok(ListScan {
        ranges: ranges_of(&node),
        projection: node.columns.iter().map(|&c| c as usize).collect(),
        // `check_node` has checked that the limit fits.
        limit: node.limit.map(|n| n as usize),
        path: PathBuf::from(node.path),
    })
}

/// The methods both codecs hand to the codec they wrap, unchanged: functions
/// travel by name, and a list is never a function.
macro_rules! delegate_functions {
    () => {
        fn try_decode_udf(&self, name: &str, buf: &[u8]) -> Result<Arc<ScalarUDF>> {
            self.inner.try_decode_udf(name, buf)
        }

        fn try_encode_udf(&self, node: &ScalarUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udf(node, buf)
        }

        fn try_decode_higher_order_function(
            &self,
            name: &str,
            buf: &[u8],
        ) -> Result<Arc<HigherOrderUDF>> {
            self.inner.try_decode_higher_order_function(name, buf)
        }

        fn try_encode_higher_order_function(
            &self,
            node: &HigherOrderUDF,
            buf: &mut Vec<u8>,
        ) -> Result<()> {
            self.inner.try_encode_higher_order_function(node, buf)
        }

        fn try_decode_udaf(&self, name: &str, buf: &[u8]) -> Result<Arc<AggregateUDF>> {
            self.inner.try_decode_udaf(name, buf)
        }

        fn try_encode_udaf(&self, node: &AggregateUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udaf(node, buf)
        }

        fn try_decode_udwf(&self, name: &str, buf: &[u8]) -> Result<Arc<WindowUDF>> {
            self.inner.try_decode_udwf(name, buf)
        }

        fn try_encode_udwf(&self, node: &WindowUDF, buf: &mut Vec<u8>) -> Result<()> {
            self.inner.try_encode_udwf(node, buf)
        }
    };
}

/// Ballista's logical codec, and [`ListTable`]s.
#[derive(Debug)]
pub struct ListLogicalCodec {
    inner: Arc<dyn LogicalExtensionCodec>,
}

impl ListLogicalCodec {
    /// List tables, and `inner` for everything else.
    pub fn new(inner: Arc<dyn LogicalExtensionCodec>) -> ListLogicalCodec {
        ListLogicalCodec { inner }
    }
}

impl Default for ListLogicalCodec {
    /// List tables, and Ballista's default logical codec for everything else.
    fn default() -> ListLogicalCodec {
        ListLogicalCodec::new(Arc::new(BallistaLogicalExtensionCodec::default()))
    }
}

impl LogicalExtensionCodec for ListLogicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[LogicalPlan],
        ctx: &TaskContext,
    ) -> Result<Extension> {
        self.inner.try_decode(buf, inputs, ctx)
    }

    fn try_encode(&self, node: &Extension, buf: &mut Vec<u8>) -> Result<()> {
        self.inner.try_encode(node, buf)
    }

    fn try_decode_table_provider(
        &self,
        buf: &[u8],
        table_ref: &TableReference,
        schema: SchemaRef,
        ctx: &TaskContext,
    ) -> Result<Arc<dyn TableProvider>> {
        if !is_list_node(buf) {
            return self
                .inner
                .try_decode_table_provider(buf, table_ref, schema, ctx);
        }
        // The schema travels beside the node: it must be a list's.
        if schema.fields() != list_schema().fields() {
            return Err(malformed(format!(
                "table {table_ref} is a list with the schema {schema}, not a list's"
            )));
        }
        Ok(Arc::new(decode_table(buf)?))
    }

    fn try_encode_table_provider(
        &self,
        table_ref: &TableReference,
        node: Arc<dyn TableProvider>,
        buf: &mut Vec<u8>,
    ) -> Result<()> {
        match node.downcast_ref::<ListTable>() {
            Some(table) => encode_table(table, buf),
            None => self.inner.try_encode_table_provider(table_ref, node, buf),
        }
    }

    fn try_decode_file_format(
        &self,
        buf: &[u8],
        ctx: &TaskContext,
    ) -> Result<Arc<dyn FileFormatFactory>> {
        self.inner.try_decode_file_format(buf, ctx)
    }

    fn try_encode_file_format(
        &self,
        buf: &mut Vec<u8>,
        node: Arc<dyn FileFormatFactory>,
    ) -> Result<()> {
        self.inner.try_encode_file_format(buf, node)
    }

    delegate_functions!();
}

/// Ballista's physical codec, and list scans ([`ListScan`]).
#[derive(Debug)]
pub struct ListPhysicalCodec {
    inner: Arc<dyn PhysicalExtensionCodec>,
}

impl ListPhysicalCodec {
    /// List scans, and `inner` for everything else.
    pub fn new(inner: Arc<dyn PhysicalExtensionCodec>) -> ListPhysicalCodec {
        ListPhysicalCodec { inner }
    }
}

impl Default for ListPhysicalCodec {
    /// List scans, and Ballista's default physical codec for everything else.
    fn default() -> ListPhysicalCodec {
        ListPhysicalCodec::new(Arc::new(BallistaPhysicalExtensionCodec::default()))
    }
}

impl PhysicalExtensionCodec for ListPhysicalCodec {
    fn try_decode(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn ExecutionPlan>],
        ctx: &TaskContext,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<Arc<dyn ExecutionPlan>> {
        if !is_list_node(buf) {
            return self.inner.try_decode(buf, inputs, ctx, proto_converter);
        }
        if !inputs.is_empty() {
            return Err(malformed(format!(
                "a list scan with {} inputs: it reads a file",
                inputs.len()
            )));
        }
        decode_scan(buf)?.plan()
    }

    fn try_encode(
        &self,
        node: Arc<dyn ExecutionPlan>,
        buf: &mut Vec<u8>,
        proto_converter: &dyn PhysicalProtoConverterExtension,
    ) -> Result<()> {
        match ListScan::of_plan(node.as_ref()) {
            Some(scan) => encode_scan(&scan?, buf),
            None => self.inner.try_encode(node, buf, proto_converter),
        }
    }

    fn try_decode_expr(
        &self,
        buf: &[u8],
        inputs: &[Arc<dyn PhysicalExpr>],
        ctx: &PhysicalExprDecodeCtx<'_>,
    ) -> Result<Arc<dyn PhysicalExpr>> {
        self.inner.try_decode_expr(buf, inputs, ctx)
    }

    fn try_encode_expr(
        &self,
        node: &Arc<dyn PhysicalExpr>,
        buf: &mut Vec<u8>,
        ctx: &PhysicalExprEncodeCtx<'_>,
    ) -> Result<()> {
        self.inner.try_encode_expr(node, buf, ctx)
    }

    delegate_functions!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use datafusion_proto::physical_plan::DefaultPhysicalProtoConverter;

    /// A scan as a Ballista task gets it: some of the table's ranges, in any order.
    fn scan(projection: &[usize], limit: Option<usize>) -> ListScan {
        ListScan {
            path: PathBuf::from("/data/links, é.txt"),
            ranges: vec![(10, 20), (0, 10), (20, 20), (20, 1 << 40)],
            projection: projection.to_vec(),
            limit,
        }
    }

    fn encoded_scan(s: &ListScan) -> Vec<u8> {
        let mut buf = Vec::new();
        encode_scan(s, &mut buf).unwrap();
        buf
    }

    /// A node written by hand, to check what the reader refuses.
    fn raw(kind: u8, version: u8, node: &ListNode) -> Vec<u8> {
        let body = node.encode_to_vec();
        let mut buf = MAGIC.to_vec();
        buf.push(version);
        buf.push(kind);
        buf.extend_from_slice(&(body.len() as u32).to_le_bytes());
        buf.extend_from_slice(&body);
        buf
    }

    fn good() -> ListNode {
        ListNode {
            path: "/data/links.txt".to_string(),
            ranges: byte_ranges(&[(0, 5), (5, 9)]),
            columns: vec![1],
            limit: None,
        }
    }

    #[test]
    fn a_table_comes_back_equal() {
        let table =
            ListTable::new(PathBuf::from("/data/a.txt"), vec![(0, 7), (7, 7), (7, 99)]).unwrap();
        let mut buf = Vec::new();
        encode_table(&table, &mut buf).unwrap();
        assert!(buf.starts_with(b"iri-list\x01T"));
        assert_eq!(decode_table(&buf).unwrap(), table);
        // The empty file's one empty range.
        let empty = ListTable::new(PathBuf::from("/e"), vec![(0, 0)]).unwrap();
        let mut buf = Vec::new();
        encode_table(&empty, &mut buf).unwrap();
        assert_eq!(decode_table(&buf).unwrap(), empty);
    }

    #[test]
    fn a_scan_comes_back_equal_and_as_a_plan() {
        for projection in [&[][..], &[2, 0][..], &[1][..], &[0, 1, 2][..]] {
            for limit in [None, Some(0), Some(7)] {
                let s = scan(projection, limit);
                assert_eq!(decode_scan(&encoded_scan(&s)).unwrap(), s);
                // The plan it is, and back.
                let plan = s.plan().unwrap();
                assert_eq!(ListScan::of_plan(plan.as_ref()).unwrap().unwrap(), s);
                assert_eq!(
                    plan.properties().partitioning.partition_count(),
                    s.ranges.len()
                );
                let names: Vec<String> = plan
                    .schema()
                    .fields()
                    .iter()
                    .map(|f| f.name().clone())
                    .collect();
                let want: Vec<String> = projection
                    .iter()
                    .map(|&c| list_schema().field(c).name().clone())
                    .collect();
                assert_eq!(names, want);
            }
        }
        // A task's slice may be no range at all.
        let none = ListScan {
            ranges: vec![],
            ..scan(&[1], None)
        };
        assert_eq!(decode_scan(&encoded_scan(&none)).unwrap(), none);
    }

    #[test]
    fn the_codecs_encode_lists_and_pass_the_rest_on() {
        use datafusion::physical_plan::empty::EmptyExec;
        let codec = ListPhysicalCodec::default();
        let s = scan(&[0, 1], Some(3));
        let plan = s.plan().unwrap();
        let mut buf = Vec::new();
        codec
            .try_encode(plan.clone(), &mut buf, &DefaultPhysicalProtoConverter {})
            .unwrap();
        let ctx = TaskContext::default();
        let back = codec
            .try_decode(&buf, &[], &ctx, &DefaultPhysicalProtoConverter {})
            .unwrap();
        assert_eq!(ListScan::of_plan(back.as_ref()).unwrap().unwrap(), s);
        // A node that is neither a list's nor Ballista's: Ballista's error.
        let empty: Arc<dyn ExecutionPlan> = Arc::new(EmptyExec::new(list_schema()));
        assert!(ListScan::of_plan(empty.as_ref()).is_none());
        assert!(codec
            .try_encode(empty, &mut Vec::new(), &DefaultPhysicalProtoConverter {})
            .is_err());
        // A list scan given inputs.
        assert!(codec
            .try_decode(&buf, &[plan], &ctx, &DefaultPhysicalProtoConverter {})
            .is_err());

        let codec = ListLogicalCodec::default();
        let table: Arc<dyn TableProvider> =
            Arc::new(ListTable::new(PathBuf::from("/a"), vec![(0, 3)]).unwrap());
        let name = TableReference::bare("links");
        let mut buf = Vec::new();
        codec
            .try_encode_table_provider(&name, table.clone(), &mut buf)
            .unwrap();
        let back = codec
            .try_decode_table_provider(&buf, &name, list_schema(), &ctx)
            .unwrap();
        assert_eq!(back.downcast_ref::<ListTable>(), table.downcast_ref());
        // The schema beside the node is not a list's.
        let other = Arc::new(list_schema().project(&[1]).unwrap());
        let e = codec
            .try_decode_table_provider(&buf, &name, other, &ctx)
            .unwrap_err();
        assert!(e.to_string().contains("not a list's"), "{e}");
    }

    #[test]
    fn every_cut_of_a_node_is_an_error() {
        let whole = encoded_scan(&scan(&[2, 0], Some(3)));
        for n in 0..whole.len() {
            let e = decode_scan(&whole[..n]).unwrap_err().to_string();
            assert!(e.contains("a list node that cannot be read"), "{n}: {e}");
        }
        let mut longer = whole.clone();
        longer.push(0);
        assert!(decode_scan(&longer).is_err());
        // Through the codec too (a cut shorter than the magic is Ballista's to read,
        // and Ballista refuses it).
        let codec = ListPhysicalCodec::default();
        let ctx = TaskContext::default();
        for n in 0..whole.len() {
            assert!(codec
                .try_decode(&whole[..n], &[], &ctx, &DefaultPhysicalProtoConverter {})
                .is_err());
        }
    }

    #[test]
    fn what_a_node_may_not_hold_is_refused() {
        let scan_error = |buf: Vec<u8>| decode_scan(&buf).map(|_| ()).unwrap_err().to_string();
        let table_error = |buf: Vec<u8>| decode_table(&buf).map(|_| ()).unwrap_err().to_string();
        let refused = |node: ListNode, why: &str| {
            let e = scan_error(raw(b'S', VERSION, &node));
            assert!(e.contains(why), "{node:?}: {e}");
        };
        assert!(scan_error(raw(b'S', 2, &good())).contains("version 2"));
        let table = ListNode {
            columns: vec![],
            ..good()
        };
        assert!(scan_error(raw(b'T', VERSION, &table)).contains("kind byte 0x54"));
        assert!(scan_error(raw(b'X', VERSION, &good())).contains("kind byte 0x58"));
        assert!(table_error(raw(b'S', VERSION, &good())).contains("kind byte 0x53"));
        assert!(table_error(raw(b'T', VERSION, &good())).contains("a scan's columns"));
        let limited = ListNode {
            limit: Some(1),
            ..table.clone()
        };
        assert!(table_error(raw(b'T', VERSION, &limited)).contains("a scan's columns"));
        // A table's ranges cut the whole file, from 0, without a gap.
        for (ranges, why) in [
            (vec![], "there are none"),
            (vec![(1, 5)], "starts at byte 1"),
            (vec![(0, 5), (6, 9)], "range 1 starts at byte 6"),
        ] {
            let node = ListNode {
                ranges: byte_ranges(&ranges),
                ..table.clone()
            };
            let e = table_error(raw(b'T', VERSION, &node));
            assert!(e.contains(why), "{ranges:?}: {e}");
        }
        refused(
            ListNode {
                path: String::new(),
                ..good()
            },
            "path is empty",
        );
        refused(
            ListNode {
                path: "/".repeat(MAX_PATH + 1),
                ..good()
            },
            "over the 4096",
        );
        refused(
            ListNode {
                path: "/a\0b".into(),
                ..good()
            },
            "NUL",
        );
        refused(
            ListNode {
                ranges: byte_ranges(&vec![(0, 1); MAX_RANGES + 1]),
                ..good()
            },
            "over the 65536",
        );
        refused(
            ListNode {
                ranges: byte_ranges(&[(0, 5), (9, 5)]),
                ..good()
            },
            "byte range 1 ends at 5, before it starts at 9",
        );
        refused(
            ListNode {
                columns: vec![3],
                ..good()
            },
            "column 3",
        );
        refused(
            ListNode {
                columns: vec![1, 1],
                ..good()
            },
            "twice",
        );
        refused(
            ListNode {
                columns: vec![0, 1, 2, 0],
                ..good()
            },
            "4 columns",
        );
        // Protobuf that is no message: a string field whose length runs past the end.
        let mut buf = MAGIC.to_vec();
        buf.extend_from_slice(&[VERSION, b'S', 2, 0, 0, 0, 0x0A, 0x7F]);
        assert!(scan_error(buf).contains("its message"));
        // A header that claims more than there is.
        let mut buf = raw(b'S', VERSION, &good());
        buf[10..14].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(scan_error(buf).contains("4294967295 bytes"));
    }

    proptest::proptest! {
        /// Any bytes after the magic, or any byte of a good node changed: an error
        /// or a node that passes the checks (and makes a plan), never a panic.
        #[test]
        fn garbage_is_an_error_not_a_panic(
            tail in proptest::collection::vec(proptest::num::u8::ANY, 0..64),
            at in 0usize..200,
            byte in proptest::num::u8::ANY,
        ) {
            let mut buf = MAGIC.to_vec();
            buf.extend_from_slice(&tail);
            let _ = decode_scan(&buf);
            let _ = decode_table(&buf);
            let mut buf = encoded_scan(&scan(&[1, 2], Some(9)));
            let at = at % buf.len();
            buf[at] = byte;
            if let Ok(s) = decode_scan(&buf) {
                proptest::prop_assert!(s.projection.iter().all(|&c| c < 3));
                let _ = s.plan();
            }
        }
    }
}
