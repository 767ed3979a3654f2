//! `iri-bench`: the measurement harness behind `BENCHMARKS.md`.
//!
//! Two measures, each on the same inputs for every contender:
//! - **instructions per input**, counted by callgrind: a contender runs over a list
//!   once and three times, and (Ir₃ − Ir₁) / (2 × inputs) cancels loading, parsing
//!   the inputs beforehand and start-up. Deterministic for a given binary, whatever
//!   else the machine does.
//! - **best-of wall clock**: the contenders take turns on chunks of 256 inputs, many
//!   rounds; the minimum per chunk is kept and summed, so that noise from a shared
//!   machine mostly drops out.
//!
//! ```text
//! RUSTFLAGS="-C llvm-args=-align-all-functions=6" \
//!     cargo build --profile profiling -p iri-grammar-bench --target-dir target/bench
//! target/bench/profiling/iri-bench all            # every table of BENCHMARKS.md (ir: ~25 min)
//! target/bench/profiling/iri-bench ir validate    # one task's instruction counts
//! target/bench/profiling/iri-bench time parse     # one task's best-of times
//! target/bench/profiling/iri-bench list           # tasks, contenders and lists
//! target/bench/profiling/iri-bench markdown time   # the tables of BENCHMARKS.md, with
//!                                                # the command, commit and date of each
//! ```
//!
//! `markdown` prints the same tables under a heading each that names the command that
//! printed it, the commit (`IRI_BENCH_COMMIT`, else `git rev-parse --short HEAD`) and
//! the date; `bench/regenerate.sh` pastes them into BENCHMARKS.md.
//!
//! Every function is aligned to 64 bytes (the `RUSTFLAGS`): then a contender's code
//! sits alike in every build, whatever changed around it. Without it a peer's time
//! moves with the binary: oxiri's parse of the isaacs list took 88 ns in one build
//! and 71 ns in the next of the same oxiri code, ours alike in both. `time` says when
//! the binary was built otherwise. The flags change no instruction count.
//!
//! Inputs: the built-in list of `benches/` and the URL lists of
//! `../shared/corpus/urls/` (when present), plus sets derived from them per task.
//! The inputs are loaded once and leaked, so that every contender's parsed values can
//! borrow them for the whole run.

#[path = "../../benches/common/mod.rs"]
mod common;
/// RFC 3986 §5.4's examples, as the tests and the criterion benchmarks have them.
#[path = "../../tests/it/common/rfc3986.rs"]
mod rfc3986;
mod tasks;

use std::process::Command;
use std::sync::OnceLock;
use std::time::{Instant, SystemTime};
use tasks::{Runner, Task, TASKS};

/// Set by `iri-bench markdown ...`: the commit and date each table's heading names.
static MARKDOWN: OnceLock<Stamp> = OnceLock::new();

struct Stamp {
    commit: String,
    date: String,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["run", task, contender, list, passes] => run(task, contender, list, passes),
        ["ir", tasks @ ..] => each_task(tasks, instructions),
        ["time", tasks @ ..] => each_task(tasks, times),
        ["all"] => {
            each_task(&[], instructions);
            each_task(&[], times);
        }
        ["markdown", measure @ ("ir" | "time"), tasks @ ..] => {
            let _ = MARKDOWN.set(Stamp {
                commit: commit(),
                date: today(),
            });
            each_task(
                tasks,
                if *measure == "ir" {
                    instructions
                } else {
                    times
                },
            );
        }
        ["list"] => list(),
        _ => {
            eprintln!(
                "usage: iri-bench ir [TASK...] | time [TASK...] | all | list\n\
                 \x20      iri-bench markdown ir|time [TASK...]\n\
                 (internal: iri-bench run TASK CONTENDER LIST PASSES)"
            );
            std::process::exit(2);
        }
    }
}

/// The commit measured: `IRI_BENCH_COMMIT`, else `git rev-parse --short HEAD` here.
fn commit() -> String {
    if let Some(c) = std::env::var_os("IRI_BENCH_COMMIT") {
        return c.to_string_lossy().into_owned();
    }
    Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".to_string())
}

/// Today's date (UTC) as YYYY-MM-DD, from the days since 1970 (the civil calendar's
/// arithmetic of Howard Hinnant's `civil_from_days`).
fn today() -> String {
    let secs = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A table's heading: plain, or with `markdown` the command, commit and date under it.
fn heading(t: &Task, measure: &str, command: &str, note: Option<&str>) {
    match MARKDOWN.get() {
        None => println!("\n### {} — {measure}\n", t.name),
        Some(s) => {
            println!("\n#### {} — {measure}\n", t.name);
            print!(
                "`iri-bench {command} {}` at `{}`, {}.",
                t.name, s.commit, s.date
            );
            match note {
                Some(n) => println!(" {n}\n"),
                None => println!("\n"),
            }
        }
    }
    println!("{}\n", t.about);
}

fn task(name: &str) -> &'static Task {
    TASKS
        .iter()
        .find(|t| t.name == name)
        .unwrap_or_else(|| panic!("no task {name:?}; `iri-bench list` shows them"))
}

fn each_task(names: &[&str], f: fn(&'static Task)) {
    if names.is_empty() {
        TASKS.iter().for_each(f);
    } else {
        names.iter().for_each(|n| f(task(n)));
    }
}

fn list() {
    for t in TASKS {
        println!("{}: {}", t.name, t.about);
        for c in t.contenders {
            println!("    {}: {}", c.name, c.about);
        }
        let lists: Vec<String> = (t.lists)().into_iter().map(|l| l.name).collect();
        println!("    lists: {}", lists.join(", "));
    }
}

/// The internal command callgrind runs: one contender over one list, `passes` times.
fn run(task_name: &str, contender: &str, list: &str, passes: &str) {
    let t = task(task_name);
    let passes: usize = passes.parse().expect("passes is a number");
    let l = (t.lists)()
        .into_iter()
        .find(|l| l.name == list)
        .unwrap_or_else(|| panic!("no list {list:?} for {task_name}"));
    let c = t
        .contenders
        .iter()
        .find(|c| c.name == contender)
        .unwrap_or_else(|| panic!("no contender {contender:?} for {task_name}"));
    let runner = (c.prepare)(l.inputs);
    let mut sum = 0u64;
    for _ in 0..passes {
        sum = sum.wrapping_add(runner.pass());
    }
    std::hint::black_box(sum);
}

/// Whether this binary was built with every function aligned to 64 bytes: four
/// functions of different crates all are (one chance in 256 otherwise, where
/// functions are aligned to 16).
fn functions_aligned() -> bool {
    let addresses = [
        functions_aligned as *const () as usize,
        run as *const () as usize,
        oxiri::IriRef::<&str>::parse as *const () as usize,
        iri_grammar::is_match::<iri_grammar::Iri> as *const () as usize,
    ];
    addresses.iter().all(|a| a % 64 == 0)
}

/// Instructions per input for every contender and list of `t`.
fn instructions(t: &'static Task) {
    let exe = std::env::current_exe().expect("own path");
    heading(t, "instructions per input (callgrind)", "ir", None);
    print_header(t, "list (inputs)");
    for l in (t.lists)() {
        // What each contender keeps of the list (to-iri keeps URIs), counted once.
        let kept: Vec<usize> = t
            .contenders
            .iter()
            .map(|c| (c.prepare)(l.inputs).len())
            .collect();
        // A list the task keeps nothing of (no URIs in the non-ASCII list) has no cost
        // per input to show.
        if kept.iter().all(|&n| n == 0) {
            continue;
        }
        let mut row = Vec::new();
        for (c, &kept) in t.contenders.iter().zip(&kept) {
            let count = |passes: &str| -> Option<u64> {
                let out = Command::new("valgrind")
                    .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
                    .arg(&exe)
                    .args(["run", t.name, c.name, &l.name, passes])
                    .output()
                    .ok()?;
                let err = String::from_utf8_lossy(&out.stderr);
                err.lines()
                    .find_map(|line| line.split("Collected :").nth(1))
                    .and_then(|n| n.trim().parse().ok())
            };
            let items = kept.max(1) as f64;
            let per = match (count("1"), count("3")) {
                (Some(one), Some(three)) => Some(three.saturating_sub(one) as f64 / (2.0 * items)),
                _ => None,
            };
            row.push(per);
        }
        print_row(t, &l.name, l.inputs.len(), &row, 0);
    }
}

/// Best-of wall clock per input for every contender and list of `t`.
fn times(t: &'static Task) {
    const ROUNDS: usize = 30;
    const CHUNK: usize = 256;
    let aligned = functions_aligned();
    if !aligned {
        eprintln!(
            "iri-bench: functions are not aligned to 64 bytes, so the peers' times depend \
             on where this build put their code; build as the head of bench/src/main.rs says"
        );
    }
    let note = (!aligned).then_some("Functions not aligned to 64 bytes in this build.");
    heading(t, "best-of time per input (ns)", "time", note);
    print_header(t, "list (inputs)");
    for l in (t.lists)() {
        let runners: Vec<Box<dyn Runner>> =
            t.contenders.iter().map(|c| (c.prepare)(l.inputs)).collect();
        if runners.iter().all(|r| r.len() == 0) {
            continue;
        }
        let chunks = runners
            .iter()
            .map(|r| r.len().div_ceil(CHUNK))
            .max()
            .unwrap_or(0);
        if std::env::var_os("IRI_BENCH_ADDRESSES").is_some() {
            where_the_data_is(t, &l, &runners);
        }
        let mut best = vec![vec![f64::INFINITY; chunks]; runners.len()];
        for _ in 0..ROUNDS {
            for k in 0..chunks {
                for (r, best) in runners.iter().zip(best.iter_mut()) {
                    let start = Instant::now();
                    std::hint::black_box(r.pass_range(k * CHUNK, (k + 1) * CHUNK));
                    let ns = start.elapsed().as_nanos() as f64;
                    best[k] = best[k].min(ns);
                }
            }
        }
        let row: Vec<Option<f64>> = runners
            .iter()
            .zip(&best)
            .map(|(r, b)| (r.len() > 0).then(|| b.iter().sum::<f64>() / r.len() as f64))
            .collect();
        print_row(t, &l.name, l.inputs.len(), &row, 1);
    }
}

/// With `IRI_BENCH_ADDRESSES` set, `time` writes to stderr where each list's inputs,
/// each contender's prepared data and the stack are, modulo a page: to look for the
/// cause of a mode in which one task's times are a quarter higher for a whole run
/// (bench/record/history.md, "equivalent states merged"), if it is where the data lies.
fn where_the_data_is(t: &Task, l: &tasks::List, runners: &[Box<dyn tasks::Runner>]) {
    let page = |p: *const u8| p as usize % 4096;
    let stack = 0u8;
    let mut line = format!(
        "addresses {} {}: stack {:#05x}, first input {:#05x}, list {:#05x}",
        t.name,
        l.name,
        page(&stack),
        l.inputs.first().map_or(0, |s| page(s.as_ptr())),
        page(l.inputs.as_ptr().cast()),
    );
    for (c, r) in t.contenders.iter().zip(runners) {
        line.push_str(&format!(", {} {:#05x}", c.name, page(r.items_at())));
    }
    eprintln!("{line}");
}

fn print_header(t: &Task, first: &str) {
    let mut head = format!("| {first} |");
    let mut rule = String::from("|---|");
    for c in t.contenders {
        head.push_str(&format!(" {} |", c.name));
        rule.push_str("--:|");
    }
    for (a, b) in t.ratios {
        head.push_str(&format!(
            " {} / {} |",
            t.contenders[*a].name, t.contenders[*b].name
        ));
        rule.push_str("--:|");
    }
    println!("{head}\n{rule}");
}

fn print_row(t: &Task, list: &str, inputs: usize, row: &[Option<f64>], decimals: usize) {
    let mut line = format!("| {list} ({inputs}) |");
    for v in row {
        match v {
            Some(x) => line.push_str(&format!(" {x:.decimals$} |")),
            None => line.push_str(" — |"),
        }
    }
    for (a, b) in t.ratios {
        match (row[*a], row[*b]) {
            (Some(x), Some(y)) if y > 0.0 => line.push_str(&format!(" **{:.2}** |", x / y)),
            _ => line.push_str(" — |"),
        }
    }
    println!("{line}");
}
