//! `iri-sql`: SQL with the IRI functions over files.
//!
//! ```console
//! $ iri-sql "SELECT iri_host(iri) AS host, count(*) AS n FROM '../shared/corpus/urls/ada-kasztp.txt'
//!            WHERE iri_is_valid(iri) GROUP BY host ORDER BY n DESC LIMIT 5"
//! ```
//!
//! A table named by a path to a file is that file: Parquet, CSV/TSV (with a header
//! line) and NDJSON by extension (`.gz`, `.zst`, `.bz2`, `.xz` after it for
//! compressed ones), anything else a list of IRIs, one a line (table `(offset, iri,
//! utf8_error)`: a line that is not UTF-8 has a NULL `iri` and says why in `utf8_error`).

use datafusion::arrow::array::RecordBatch;
use datafusion::arrow::datatypes::DataType;
use datafusion::error::{DataFusionError, Result};
use datafusion::prelude::SessionContext;
use futures::StreamExt;
use iri_grammar_datafusion::tables;
use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
usage: iri-sql [OPTIONS] SQL
       iri-sql scheduler [BALLISTA SCHEDULER FLAGS]   (--help lists them)
       iri-sql executor [BALLISTA EXECUTOR FLAGS]     (--help lists them)

Runs SQL with the IRI functions over files. A table named by a path is that
file, read by its extension: .parquet, .csv/.tsv (header line),
.json/.ndjson/.jsonl (one object a line), optionally compressed (.gz, .zst, .bz2,
.xz); any other file is a list of IRIs, one a line: table (offset, iri,
utf8_error), where a line that is not UTF-8 has iri NULL and utf8_error says why.

  SELECT iri_host(iri) AS host, count(*) AS n FROM 'urls.txt' GROUP BY host

";

const OPTIONS: &str = "\
options:
  --format table|json|csv  output: an aligned table (default), JSON Lines, or CSV
  --table NAME=PATH        register the file PATH as table NAME (repeatable)
  --partitions N           partitions to run in (default: one per core)
  --ballista               run on a standalone Ballista cluster in this process
                           (built with the `ballista` feature)
  --scheduler HOST:PORT    submit to the Ballista cluster whose scheduler is
                           there (`iri-sql scheduler` and `iri-sql executor`;
                           built with the `ballista` feature); every executor
                           reads the files at the same absolute paths
  --functions              list the IRI functions and their syntax
";

/// The usage's list of the functions, from the crate's own (`udf::udfs`), in lines
/// of at most 80 columns.
fn function_names() -> String {
    let mut out =
        String::from("functions (--functions gives each one's syntax and description):\n");
    let mut line = String::new();
    for f in iri_grammar_datafusion::udf::udfs() {
        if !line.is_empty() && 2 + line.len() + 1 + f.name().len() > 80 {
            out.push_str(&format!("  {line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(f.name());
    }
    out.push_str(&format!("  {line}\n\n"));
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Output {
    Table,
    Json,
    Csv,
}

struct Options {
    output: Output,
    tables: Vec<(String, String)>,
    partitions: Option<usize>,
    ballista: bool,
    scheduler: Option<String>,
    functions: bool,
    sql: Option<String>,
}

fn parse_args() -> std::result::Result<Options, String> {
    let mut o = Options {
        output: Output::Table,
        tables: Vec::new(),
        partitions: None,
        ballista: false,
        scheduler: None,
        functions: false,
        sql: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--format" => {
                o.output = match value("--format")?.as_str() {
                    "table" => Output::Table,
                    "json" => Output::Json,
                    "csv" => Output::Csv,
                    other => return Err(format!("unknown format {other:?}")),
                }
            }
            "--table" => {
                let v = value("--table")?;
                let (name, path) = v
                    .split_once('=')
                    .ok_or(format!("--table takes NAME=PATH, not {v:?}"))?;
                o.tables.push((name.to_string(), path.to_string()));
            }
            "--partitions" => {
                let v = value("--partitions")?;
                o.partitions = Some(
                    v.parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or(format!("--partitions takes a positive number, not {v:?}"))?,
                );
            }
            "--ballista" => o.ballista = true,
            "--scheduler" => o.scheduler = Some(value("--scheduler")?),
            "--functions" => o.functions = true,
            s if s.starts_with("--") => return Err(format!("unknown option {s}")),
            _ if o.sql.is_none() => o.sql = Some(a),
            _ => return Err("give one SQL statement (quote it)".to_string()),
        }
    }
    if o.sql.is_none() && !o.functions {
        return Err(String::new());
    }
    if o.ballista && o.scheduler.is_some() {
        return Err("--ballista starts a cluster, --scheduler uses one: give one".to_string());
    }
    Ok(o)
}

#[tokio::main]
async fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    if let Some(process @ ("scheduler" | "executor")) =
        args.next().as_ref().and_then(|a| a.to_str())
    {
        return cluster_process(process, args.collect()).await;
    }
    let options = match parse_args() {
        Ok(o) => o,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("iri-sql: {message}");
            }
            eprint!("{USAGE}{}{OPTIONS}", function_names());
            return ExitCode::from(2);
        }
    };
    // The text files DataFusion's own readers read, to explain an error of theirs.
    let mut text_files = Vec::new();
    match run(options, &mut text_files).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("iri-sql: {}", tables::explain_error(e, &text_files));
            ExitCode::from(1)
        }
    }
}

/// `iri-sql scheduler` or `iri-sql executor`: a process of a Ballista cluster.
async fn cluster_process(process: &str, args: Vec<std::ffi::OsString>) -> ExitCode {
    #[cfg(feature = "ballista")]
    {
        use iri_grammar_datafusion::ballista;
        let result = match process {
            "scheduler" => ballista::scheduler_main(args).await,
            _ => ballista::executor_main(args).await,
        };
        match result {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("iri-sql {process}: {e}");
                ExitCode::from(1)
            }
        }
    }
    #[cfg(not(feature = "ballista"))]
    {
        let _ = args;
        eprintln!(
            "iri-sql {process}: this iri-sql was built without the `ballista` feature \
             (cargo build --release --features ballista -p iri-grammar-datafusion)"
        );
        ExitCode::from(2)
    }
}

async fn context(options: &Options) -> Result<SessionContext> {
    if let Some(scheduler) = &options.scheduler {
        #[cfg(feature = "ballista")]
        return iri_grammar_datafusion::ballista::remote(scheduler, options.partitions).await;
        #[cfg(not(feature = "ballista"))]
        return Err(DataFusionError::Configuration(format!(
            "--scheduler {scheduler}: this iri-sql was built without the `ballista` feature \
             (cargo run --features ballista -p iri-grammar-datafusion)"
        )));
    }
    if options.ballista {
        #[cfg(feature = "ballista")]
        {
            let n = options
                .partitions
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            return iri_grammar_datafusion::ballista::standalone(n).await;
        }
        #[cfg(not(feature = "ballista"))]
        return Err(DataFusionError::Configuration(
            "--ballista: this iri-sql was built without the `ballista` feature \
             (cargo run --features ballista -p iri-grammar-datafusion)"
                .to_string(),
        ));
    }
    Ok(iri_grammar_datafusion::session(options.partitions))
}

/// Runs the query; `text_files` receives each CSV or NDJSON file that
/// DataFusion's readers read (see [`register`]).
async fn run(options: Options, text_files: &mut Vec<String>) -> Result<()> {
    if options.functions {
        for f in iri_grammar_datafusion::udf::udfs() {
            if let Some(doc) = f.documentation() {
                println!("{}\n    {}\n", doc.syntax_example, doc.description);
            }
        }
        if options.sql.is_none() {
            return Ok(());
        }
    }
    let ctx = context(&options).await?;
    for (name, path) in &options.tables {
        register(&ctx, &options, name, path, text_files).await?;
    }
    let sql = options.sql.as_deref().unwrap_or_default();
    let distributed = options.ballista || options.scheduler.is_some();
    let mut renamed = Vec::new();
    for (i, path) in tables::paths_in(&ctx, sql)?.into_iter().enumerate() {
        if distributed {
            // Ballista sends the plan as protobuf, where a column's table is a
            // string parsed again on the other side: `links.csv` comes back as
            // table `csv` of schema `links`. So there the file is the table
            // `file_N`, and the statement names it so.
            let name = format!("file_{i}");
            register(&ctx, &options, &name, &path, text_files).await?;
            renamed.push((path, name));
        } else {
            register(&ctx, &options, &path, &path, text_files).await?;
        }
    }
    let df = if renamed.is_empty() {
        ctx.sql(sql).await?
    } else {
        let state = ctx.state();
        let dialect = state.config().options().sql_parser.dialect;
        let mut statement = state.sql_to_statement(sql, &dialect)?;
        rename_tables(&mut statement, &renamed);
        let plan = state.statement_to_plan(statement).await?;
        ctx.execute_logical_plan(plan).await?
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    match options.output {
        Output::Table => {
            let batches = df.collect().await?;
            let text = datafusion::arrow::util::pretty::pretty_format_batches(&batches)?;
            writeln!(out, "{text}")?;
        }
        Output::Json => {
            // Streamed: a result of a billion rows is written as it comes.
            let mut stream = df.execute_stream().await?;
            let mut writer = datafusion::arrow::json::LineDelimitedWriter::new(&mut out);
            while let Some(batch) = stream.next().await {
                writer.write(&batch?)?;
            }
            writer.finish()?;
        }
        Output::Csv => {
            let schema = df.schema().as_arrow().clone();
            if let Some(f) = schema.fields().iter().find(|f| {
                matches!(
                    f.data_type(),
                    DataType::Struct(_) | DataType::List(_) | DataType::LargeList(_)
                )
            }) {
                return Err(DataFusionError::Plan(format!(
                    "column {:?} is a {}: CSV has no nested values; use --format json, or \
                     select its fields (iri_error(s)['rule'])",
                    f.name(),
                    f.data_type()
                )));
            }
            let mut stream = df.execute_stream().await?;
            let mut writer = datafusion::arrow::csv::Writer::new(&mut out);
            while let Some(batch) = stream.next().await {
                let batch: RecordBatch = batch?;
                writer.write(&batch)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

/// Renames in `statement` each table named by one of `renamed`'s paths to its new
/// name.
fn rename_tables(statement: &mut datafusion::sql::parser::Statement, renamed: &[(String, String)]) {
    use datafusion::sql::sqlparser::ast::{visit_relations_mut, Ident, ObjectName, ObjectNamePart};
    use std::ops::ControlFlow;
    let mut rename = |name: &mut ObjectName| {
        if let [ObjectNamePart::Identifier(ident)] = name.0.as_slice() {
            if let Some((_, new)) = renamed.iter().find(|(path, _)| *path == ident.value) {
                *name = ObjectName(vec![ObjectNamePart::Identifier(Ident::new(new))]);
            }
        }
        ControlFlow::<()>::Continue(())
    };
    use datafusion::sql::parser::{CopyToSource, Statement};
    let _ = match statement {
        Statement::Statement(s) => visit_relations_mut(s.as_mut(), &mut rename),
        Statement::Explain(e) => {
            rename_tables(&mut e.statement, renamed);
            ControlFlow::Continue(())
        }
        Statement::CopyTo(c) => match &mut c.source {
            CopyToSource::Query(q) => visit_relations_mut(q.as_mut(), &mut rename),
            CopyToSource::Relation(name) => rename(name),
        },
        _ => ControlFlow::Continue(()),
    };
}

/// Registers the file `path` as table `name`, and adds it to `text_files` when one of
/// DataFusion's text readers (CSV, JSON) reads it: those stop the query at bytes that
/// are not UTF-8, and [`tables::explain_error`] finds them in these files. A list is
/// read by the crate's list reader on every engine: on a cluster, its table and
/// scans travel to the scheduler and the executors (`iri_grammar_datafusion::codec`).
async fn register(
    ctx: &SessionContext,
    options: &Options,
    name: &str,
    path: &str,
    text_files: &mut Vec<String>,
) -> Result<()> {
    let absolute;
    let path = if options.scheduler.is_some() {
        // The executors open the file by the path the client sends them: make it
        // absolute, so that an executor started in another directory finds it (a
        // list's table makes its path absolute itself).
        absolute = std::path::absolute(path)?;
        absolute.to_str().ok_or_else(|| {
            DataFusionError::Plan(format!(
                "{path}: a path that is not UTF-8 cannot be sent to executors"
            ))
        })?
    } else {
        path
    };
    if matches!(
        tables::Format::of(path),
        tables::Format::Csv | tables::Format::NdJson
    ) {
        text_files.push(path.to_string());
    }
    tables::register_path(ctx, name, path).await
}
