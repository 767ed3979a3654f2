//! Validation throughput of `iri_grammar` against peer crates, on the same inputs in
//! the same criterion group.
//!
//! Inputs: a built-in set of varied URIs, IRIs and references (always), and each URL
//! list `../shared/corpus/urls/*.txt` beside the project (when present; see its
//! PROVENANCE.md). Each iteration validates one whole list (a batch); the throughput
//! is set to the number of inputs, so criterion reports inputs per second.
//!
//! Contenders (each one's "is this string an IRI/URI reference?"):
//! - `iri_grammar/iri`: `is_match::<Iri>(Rule::IriReference, s)` (RFC 3987)
//! - `iri_grammar/uri`: `is_match::<Uri>(Rule::IriReference, s)` (RFC 3986)
//! - `oxiri/IriRef`: `oxiri::IriRef::parse(s)` (RFC 3987, also records positions)
//! - `fluent_uri/IriRef`: `fluent_uri::IriRef::parse(s)` (RFC 3987, also records positions)
//! - `fluent_uri/UriRef`: `fluent_uri::UriRef::parse(s)` (RFC 3986)
//!
//! Before measuring, it prints how many inputs of each list every contender accepts,
//! and examples where `iri_grammar` and a peer disagree.
//!
//! Run: `cargo bench --bench validate -- --warm-up-time 1 --measurement-time 3`
//! (a filter such as `validate/builtin` limits it to one list).

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use iri_grammar::grammar::{is_match, Iri, Rule, Uri};
use std::hint::black_box;

mod common;
use common::{all_batches, show, Batch};

/// One validator: a name and a function saying whether it accepts a string.
struct Contender {
    name: &'static str,
    accepts: fn(&str) -> bool,
}

fn iri_grammar_iri(s: &str) -> bool {
    is_match::<Iri>(Rule::IriReference, s)
}

fn iri_grammar_uri(s: &str) -> bool {
    is_match::<Uri>(Rule::IriReference, s)
}

fn oxiri_iri_ref(s: &str) -> bool {
    oxiri::IriRef::parse(s).is_ok()
}

fn fluent_iri_ref(s: &str) -> bool {
    fluent_uri::IriRef::parse(s).is_ok()
}

fn fluent_uri_ref(s: &str) -> bool {
    fluent_uri::UriRef::parse(s).is_ok()
}

const CONTENDERS: &[Contender] = &[
    Contender {
        name: "iri_grammar/iri",
        accepts: iri_grammar_iri,
    },
    Contender {
        name: "iri_grammar/uri",
        accepts: iri_grammar_uri,
    },
    Contender {
        name: "oxiri/IriRef",
        accepts: oxiri_iri_ref,
    },
    Contender {
        name: "fluent_uri/IriRef",
        accepts: fluent_iri_ref,
    },
    Contender {
        name: "fluent_uri/UriRef",
        accepts: fluent_uri_ref,
    },
];

/// Pairs compared for disagreements: (iri_grammar side, peer), same grammar.
const PAIRS: &[(usize, usize)] = &[(0, 2), (0, 3), (1, 4)];

/// Prints what each contender accepts, and where iri_grammar and a peer disagree.
fn report_acceptance(batches: &[Batch]) {
    println!("\n== acceptance (inputs accepted / inputs) ==");
    print!("{:<32} {:>7} {:>9}", "list", "inputs", "bytes");
    for c in CONTENDERS {
        print!(" {:>18}", c.name);
    }
    println!();
    for b in batches {
        print!("{:<32} {:>7} {:>9}", b.name, b.inputs.len(), b.bytes());
        for c in CONTENDERS {
            let n = b.inputs.iter().filter(|s| (c.accepts)(s)).count();
            print!(" {n:>18}");
        }
        println!();
    }
    println!("\n== disagreements (iri_grammar vs peer, same grammar) ==");
    const EXAMPLES: usize = 4;
    for b in batches {
        for &(ours, theirs) in PAIRS {
            let (a, p) = (&CONTENDERS[ours], &CONTENDERS[theirs]);
            let mut only_ours = Vec::new();
            let mut only_theirs = Vec::new();
            for s in &b.inputs {
                match ((a.accepts)(s), (p.accepts)(s)) {
                    (true, false) => only_ours.push(s.as_str()),
                    (false, true) => only_theirs.push(s.as_str()),
                    _ => {}
                }
            }
            if only_ours.is_empty() && only_theirs.is_empty() {
                continue;
            }
            println!(
                "{}: {} accepts {} that {} rejects; {} accepts {} that {} rejects",
                b.name,
                a.name,
                only_ours.len(),
                p.name,
                p.name,
                only_theirs.len(),
                a.name
            );
            for s in only_ours.iter().take(EXAMPLES) {
                println!("    only {:<18} {}", a.name, show(s));
            }
            for s in only_theirs.iter().take(EXAMPLES) {
                println!("    only {:<18} {}", p.name, show(s));
            }
        }
    }
    println!();
}

/// Measures one contender on one list: one iteration validates the whole list.
fn bench_one<F: Fn(&str) -> bool>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &[&str],
    name: &str,
    accepts: F,
) {
    group.bench_with_input(
        BenchmarkId::from_parameter(name),
        inputs,
        |bench, inputs| {
            bench.iter(|| {
                let mut accepted = 0usize;
                for &s in black_box(inputs) {
                    accepted += usize::from(accepts(black_box(s)));
                }
                black_box(accepted)
            })
        },
    );
}

fn bench_validate(c: &mut Criterion) {
    let batches = all_batches();
    report_acceptance(&batches);
    for b in &batches {
        let mut group = c.benchmark_group(format!("validate/{}", b.name));
        group.throughput(Throughput::Elements(b.inputs.len() as u64));
        let inputs: Vec<&str> = b.inputs.iter().map(String::as_str).collect();
        // Each contender by its own function item (not through a pointer), so the
        // compiler may inline it into the loop as it would in a user's program.
        bench_one(&mut group, &inputs, CONTENDERS[0].name, iri_grammar_iri);
        bench_one(&mut group, &inputs, CONTENDERS[1].name, iri_grammar_uri);
        bench_one(&mut group, &inputs, CONTENDERS[2].name, oxiri_iri_ref);
        bench_one(&mut group, &inputs, CONTENDERS[3].name, fluent_iri_ref);
        bench_one(&mut group, &inputs, CONTENDERS[4].name, fluent_uri_ref);
        group.finish();
    }
}

criterion_group!(benches, bench_validate);
criterion_main!(benches);
