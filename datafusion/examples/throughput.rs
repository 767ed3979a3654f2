//! Rows per second of `iri_is_valid`, `iri_host` and `iri_normalize` in DataFusion,
//! against the library called in a plain loop on the same strings: the engine's
//! overhead as a ratio, and the scaling from one partition to two.
//!
//! ```console
//! $ cargo run --release -p iri-grammar-datafusion --example throughput -- [--rows N] [--runs K]
//! ```
//!
//! The rows are the corpus URL lists (`../shared/corpus/urls/*.txt`, read as the list
//! reader reads them), repeated to `--rows` (default 10 million), held in memory as
//! `Utf8View` batches of 8192 rows (what DataFusion's Parquet reader produces), so
//! that the numbers are the functions' and the engine's, not the disk's. Each figure
//! is the best of `--runs` runs (default 3): the machine is shared, and the best run
//! is the one least disturbed.

use datafusion::arrow::array::{ArrayRef, RecordBatch, StringViewArray};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::datasource::MemTable;
use iri_grammar::grammar::{is_match, Iri, Rule};
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::IriRef;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

const BATCH: usize = 8192;

/// A function's name, its SQL expression, and the same work done by the library.
type Case = (&'static str, &'static str, fn(&str) -> bool);

fn corpus_lines() -> Vec<String> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/urls");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".txt") && !n.starts_with("LICENSE")
        })
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for f in files {
        let text = String::from_utf8_lossy(&std::fs::read(&f).unwrap()).into_owned();
        let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
        lines.extend(text.lines().map(str::to_string));
    }
    lines
}

fn batches(lines: &[String], rows: usize) -> Vec<RecordBatch> {
    let schema = Arc::new(Schema::new(vec![Field::new(
        "iri",
        DataType::Utf8View,
        true,
    )]));
    let mut out = Vec::new();
    let mut i = 0;
    while i < rows {
        let n = BATCH.min(rows - i);
        let array: ArrayRef = Arc::new(StringViewArray::from_iter_values(
            (i..i + n).map(|k| lines[k % lines.len()].as_str()),
        ));
        out.push(RecordBatch::try_new(schema.clone(), vec![array]).unwrap());
        i += n;
    }
    out
}

fn best<F: FnMut() -> u64>(runs: usize, mut f: F) -> (Duration, u64) {
    let mut best = Duration::MAX;
    let mut result = 0;
    for _ in 0..runs {
        let t = Instant::now();
        result = std::hint::black_box(f());
        best = best.min(t.elapsed());
    }
    (best, result)
}

/// The library in a plain loop over the same strings, on `threads` threads.
fn library(batches: &[RecordBatch], threads: usize, f: fn(&str) -> bool) -> u64 {
    let per = batches.len().div_ceil(threads);
    std::thread::scope(|s| {
        let handles: Vec<_> = batches
            .chunks(per.max(1))
            .map(|chunk| {
                s.spawn(move || {
                    let mut n = 0u64;
                    for b in chunk {
                        let a = b
                            .column(0)
                            .as_any()
                            .downcast_ref::<StringViewArray>()
                            .unwrap();
                        for s in a.iter().flatten() {
                            n += f(s) as u64;
                        }
                    }
                    n
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

fn lib_valid(s: &str) -> bool {
    is_match::<Iri>(Rule::IriReference, s)
}
fn lib_host(s: &str) -> bool {
    IriRef::parse(s)
        .ok()
        .and_then(|r| r.host().map(|h| std::hint::black_box(h).len()))
        .is_some()
}
fn lib_normalize(s: &str) -> bool {
    IriRef::parse(s)
        .ok()
        .and_then(|r| {
            r.normalize_with(Level::Syntax, NormalizeOptions::default())
                .ok()
        })
        .map(std::hint::black_box)
        .is_some()
}

fn main() {
    let mut rows = 10_000_000usize;
    let mut runs = 3usize;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rows" => rows = args.next().unwrap().parse().unwrap(),
            "--runs" => runs = args.next().unwrap().parse().unwrap(),
            other => panic!("unknown argument {other}"),
        }
    }
    let lines = corpus_lines();
    let data = batches(&lines, rows);
    let mb: usize = lines.iter().map(|l| l.len()).sum::<usize>() * rows / lines.len() / 1_000_000;
    println!(
        "{} corpus lines repeated to {rows} rows ({mb} MB of text), Utf8View batches of {BATCH}, best of {runs} runs\n",
        lines.len()
    );
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();

    println!("| function | partitions | engine rows/s | per core | library loop rows/s | engine time ÷ loop time | scaling 1→2 |");
    println!("|---|---|---|---|---|---|---|");
    let cases: [Case; 4] = [
        ("(scan only)", "count(iri)", |_| true),
        (
            "iri_is_valid",
            "count(*) FILTER (WHERE iri_is_valid(iri))",
            lib_valid,
        ),
        ("iri_host", "count(iri_host(iri))", lib_host),
        ("iri_normalize", "count(iri_normalize(iri))", lib_normalize),
    ];
    for (name, expr, lib) in cases {
        let mut single = 0.0;
        for partitions in [1usize, 2] {
            // The batches dealt round-robin over the partitions.
            let mut parts = vec![Vec::new(); partitions];
            for (k, b) in data.iter().enumerate() {
                parts[k % partitions].push(b.clone());
            }
            let table = MemTable::try_new(data[0].schema(), parts).unwrap();
            let ctx = iri_grammar_datafusion::session(Some(partitions));
            ctx.register_table("t", Arc::new(table)).unwrap();
            let sql = format!("SELECT {expr} FROM t");
            let (engine, n) = best(runs, || {
                rt.block_on(async {
                    let b = ctx.sql(&sql).await.unwrap().collect().await.unwrap();
                    let c = b[0]
                        .column(0)
                        .as_any()
                        .downcast_ref::<datafusion::arrow::array::Int64Array>()
                        .unwrap();
                    c.value(0) as u64
                })
            });
            let (library_time, m) = best(runs, || library(&data, partitions, lib));
            if name != "(scan only)" {
                assert_eq!(n, m, "{name}: engine and library disagree");
            }
            let rate = rows as f64 / engine.as_secs_f64();
            let lib_rate = rows as f64 / library_time.as_secs_f64();
            if partitions == 1 {
                single = rate;
            }
            let scaling = if partitions == 2 {
                format!("{:.2}×", rate / single)
            } else {
                String::new()
            };
            println!(
                "| {name} | {partitions} | {} | {} | {} | {:.2} | {scaling} |",
                human(rate),
                human(rate / partitions as f64),
                human(lib_rate),
                lib_rate / rate,
            );
        }
    }
}

fn human(rate: f64) -> String {
    if rate >= 1e6 {
        format!("{:.2} M", rate / 1e6)
    } else {
        format!("{:.0} k", rate / 1e3)
    }
}
