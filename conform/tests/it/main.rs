//! The integration tests of `iri conform`, one binary: the planted bugs
//! ([`planted`], [`planted_resolve`]), the planted-deviation benchmark
//! ([`deviations`]) and programs that hang, crash or answer garbage ([`programs`]).
//! The runs of whole reference rules in several seeds are slow in a debug build,
//! and run with `--ignored`, in release, as `.ci/run` does:
//! `cargo test --release -p iri-grammar-conform --test it -- --ignored`.
//!
//! The binary is also the adapter the planted bugs run (started again with
//! `IRI_CONFORM_TEST_ADAPTER` set, or `--conform-adapter deviation:NAME`), so it has
//! no test harness printing on standard output, which is the protocol's: `main`
//! runs the tests itself, those whose names contain one of the arguments if any are
//! given (`cargo test -p iri-grammar-conform --test it -- hang`).

/// The tests of a module, by name: `tests! { a, b }` is `TESTS`, each name with its
/// function.
macro_rules! tests {
    ($($test:ident),* $(,)?) => {
        pub const TESTS: &[(&str, fn())] = &[$((stringify!($test), $test)),*];
    };
}

/// Tests run only when `--ignored` is given (as a test harness runs `#[ignore]`d
/// ones): too slow for a debug build.
macro_rules! ignored_tests {
    ($($test:ident),* $(,)?) => {
        pub const IGNORED: &[(&str, fn())] = &[$((stringify!($test), $test)),*];
    };
}

mod deviations;
mod planted;
mod planted_resolve;
#[cfg(unix)]
mod programs;

use std::panic::{catch_unwind, AssertUnwindSafe};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let [_, flag, mode] = args.as_slice() {
        if let (true, Some(name)) = (flag == "--conform-adapter", mode.strip_prefix("deviation:")) {
            deviations::adapter(name);
            return;
        }
    }
    if let Ok(mode) = std::env::var("IRI_CONFORM_TEST_ADAPTER") {
        if mode.starts_with("resolve-") {
            planted_resolve::adapter(&mode);
            return;
        }
        planted::adapter(&mode);
        return;
    }
    let filters = filters();
    let chosen = |tests: &'static [(&'static str, fn())]| {
        tests
            .iter()
            .filter(|(name, _)| filters.is_empty() || filters.iter().any(|f| name.contains(f)))
            .copied()
            .collect::<Vec<_>>()
    };
    if args.iter().any(|a| a == "--ignored") {
        // One after the other, as the planted tests below: some set the mode
        // their adapter inherits.
        let failed: Vec<&str> = (chosen(planted::IGNORED).into_iter())
            .chain(chosen(deviations::IGNORED))
            .filter(|(name, test)| !passes(name, *test))
            .map(|(name, _)| name)
            .collect();
        if !failed.is_empty() {
            eprintln!("failed: {}", failed.join(", "));
            std::process::exit(1);
        }
        return;
    }
    let mut failed = Vec::new();
    // One after the other: each sets the mode its adapter inherits.
    for (name, test) in chosen(planted::TESTS)
        .into_iter()
        .chain(chosen(planted_resolve::TESTS))
    {
        if !passes(name, test) {
            failed.push(name);
        }
    }
    // In parallel, as many at once as a test harness runs: most wait on a timeout.
    #[cfg(unix)]
    failed.extend(in_parallel(chosen(programs::TESTS)));
    if !failed.is_empty() {
        eprintln!("failed: {}", failed.join(", "));
        std::process::exit(1);
    }
}

/// Runs `tests` on as many threads as the machine runs at once; the names of those
/// that failed.
#[cfg(unix)]
fn in_parallel(tests: Vec<(&'static str, fn())>) -> Vec<&'static str> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (next, failed) = (AtomicUsize::new(0), Mutex::new(Vec::new()));
    std::thread::scope(|s| {
        for _ in 0..threads.min(tests.len()) {
            s.spawn(|| {
                while let Some(&(name, test)) = tests.get(next.fetch_add(1, Ordering::SeqCst)) {
                    if !passes(name, test) {
                        failed.lock().unwrap_or_else(|e| e.into_inner()).push(name);
                    }
                }
            });
        }
    });
    failed.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// Runs one test; a panic is its failure.
fn passes(name: &str, test: fn()) -> bool {
    let ok = catch_unwind(AssertUnwindSafe(test)).is_ok();
    println!("test {name} ... {}", if ok { "ok" } else { "FAILED" });
    ok
}

/// The names asked for: the arguments that are not options, nor the values of the
/// options of a test harness that take one.
fn filters() -> Vec<String> {
    let mut out = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--test-threads" | "--skip" | "--format" | "--color" | "--logfile" | "-Z" => {
                args.next();
            }
            _ if a.starts_with('-') => {}
            _ => out.push(a),
        }
    }
    out
}
