//! What the SQL tests share (`tests/cluster.rs` too): a session with the functions,
//! a query to strings, and where `../shared/corpus` is.
#![allow(dead_code)]

use datafusion::arrow::array::{
    ArrayRef, LargeStringArray, RecordBatch, StringArray, StringViewArray,
};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::arrow::util::display::{ArrayFormatter, FormatOptions};
use datafusion::datasource::MemTable;
use datafusion::prelude::SessionContext;
use std::path::PathBuf;
use std::sync::Arc;

pub fn ctx() -> SessionContext {
    iri_grammar_datafusion::session(Some(2))
}

/// Runs `sql` and returns its rows, each value as text (`NULL` for null).
pub async fn rows(ctx: &SessionContext, sql: &str) -> Vec<Vec<String>> {
    let batches = ctx
        .sql(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
        .collect()
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
    batches_to_rows(&batches)
}

/// The rows of `batches`, each value as text (`NULL` for null).
pub fn batches_to_rows(batches: &[RecordBatch]) -> Vec<Vec<String>> {
    let options = FormatOptions::default().with_null("NULL");
    let mut out = Vec::new();
    for b in batches {
        let formatters: Vec<_> = b
            .columns()
            .iter()
            .map(|c| ArrayFormatter::try_new(c.as_ref(), &options).unwrap())
            .collect();
        for i in 0..b.num_rows() {
            out.push(formatters.iter().map(|f| f.value(i).to_string()).collect());
        }
    }
    out
}

/// The one value of a one-row, one-column query.
pub async fn one(ctx: &SessionContext, sql: &str) -> String {
    let r = rows(ctx, sql).await;
    assert_eq!(r.len(), 1, "{sql}: {r:?}");
    assert_eq!(r[0].len(), 1, "{sql}: {r:?}");
    r[0][0].clone()
}

/// The error of a query that must fail.
pub async fn error(ctx: &SessionContext, sql: &str) -> String {
    match ctx.sql(sql).await {
        Err(e) => e.to_string(),
        Ok(df) => match df.collect().await {
            Err(e) => e.to_string(),
            Ok(b) => panic!("{sql} should fail, gave {} batches", b.len()),
        },
    }
}

/// Registers table `t(id, u8, l, v)`: the same strings as `Utf8`, `LargeUtf8` and
/// `Utf8View`, so that every function is checked on the three layouts.
pub fn register_layouts(ctx: &SessionContext, name: &str, values: &[Option<&str>]) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("id", DataType::Int64, false),
        Field::new("u8", DataType::Utf8, true),
        Field::new("l", DataType::LargeUtf8, true),
        Field::new("v", DataType::Utf8View, true),
    ]));
    let ids: ArrayRef = Arc::new(datafusion::arrow::array::Int64Array::from_iter_values(
        0..values.len() as i64,
    ));
    let u8: ArrayRef = Arc::new(StringArray::from(values.to_vec()));
    let l: ArrayRef = Arc::new(LargeStringArray::from(values.to_vec()));
    let v: ArrayRef = Arc::new(StringViewArray::from(values.to_vec()));
    let batch = RecordBatch::try_new(schema.clone(), vec![ids, u8, l, v]).unwrap();
    let table = MemTable::try_new(schema, vec![vec![batch]]).unwrap();
    ctx.register_table(name, Arc::new(table)).unwrap();
}

/// `../shared/corpus/<sub>` beside the repository. `None`, with a message, when it is
/// absent; a failure when it is absent and `CI=true`, where the corpus tests must run.
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(sub);
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "../shared/corpus/{sub} is missing and CI=true: the corpus tests must run in CI"
    );
    skipped(&format!("../shared/corpus/{sub} not found"));
    None
}

/// Says that a test is skipped, and why, where `cargo test` shows it: straight to the
/// process's standard error, which the test harness does not capture (it hides what
/// `println!` and `eprintln!` print in a passing test).
pub fn skipped(why: &str) {
    use std::io::Write as _;
    let _ = writeln!(std::io::stderr(), "SKIPPED {why}");
}
