//! Typed references against peer crates, on the same inputs in the same criterion
//! group: (a) parsing into components, (b) resolution (RFC 3986 §5.2).
//!
//! (a) `parse/<list>`: each contender parses an IRI reference (RFC 3987
//! `IRI-reference`) and produces its components: scheme, authority, host (where the
//! crate offers it), path, query and fragment, as string slices.
//! - `iri_grammar/IriRef`: `iri_grammar::reference::IriRef::parse(s)` and its accessors
//! - `oxiri/IriRef`: `oxiri::IriRef::parse(s)` and its accessors (no host accessor)
//! - `iri_string/IriReferenceStr`: `IriReferenceStr::new(s)` and `scheme_str()`,
//!   `authority_str()`, `authority_components().host()`, `path_str()`, `query_str()`,
//!   `fragment_str()` (each accessor splits the string again: the type stores no positions)
//! - `fluent_uri/IriRef`: `fluent_uri::IriRef::parse(s)` and its accessors
//!
//! Inputs: the built-in set of `benches/validate.rs` and each URL list
//! `../shared/corpus/urls/*.txt` beside the project (when present), minus the inputs
//! that are no IRI reference (every contender rejects the same ones; rejection is
//! measured by `benches/validate.rs`). One iteration parses a whole list; the
//! throughput is the number of inputs.
//!
//! (b) `resolve/rfc3986`: the 23 normal examples of RFC 3986 §5.4.1 and the 19
//! abnormal ones of §5.4.2 against the base `http://a/b/c/d;p?q`, parsed once outside
//! the loop. Per iteration, each contender parses every reference, resolves it and
//! produces the result as an owned `String`:
//! - `iri_grammar`: `IriRef::parse(r)?.resolve(&base)?` into `String`
//! - `oxiri`: `base.resolve(&oxiri::IriRef::parse(r)?)?.into_inner()`
//! - `iri_string`: `FixedBaseResolver::new(base)` once, then
//!   `resolver.resolve(IriReferenceStr::new(r)?).to_dedicated_string()` into `String`
//! - `fluent_uri`: `fluent_uri::IriRef::parse(r)?.resolve_against(&base)?.into_string()`
//!
//! (c) `tree/<list>`: the parse tree of each IRI reference of a list,
//! `iri_grammar::tree::tree_of::<Iri>(Rule::IriReference, s)` (dropped after its
//! nodes are counted), beside `oxiri/IriRef`, oxiri's parse of it, for scale (issue
//! 12's target: a tree within 3 times oxiri's parse). Inputs: those of each list
//! that both accept. A program of its own, as a user's is: how the compiler splits
//! and inlines the combinators here is not what it does in `iri-bench`.
//!
//! Before measuring, it prints where the contenders' components differ, and every
//! resolution that differs from the RFC's result.
//!
//! Run: `cargo bench --bench reference -- --warm-up-time 1 --measurement-time 3`
//! (a filter such as `parse/builtin`, `resolve` or `tree/` limits it).

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, Throughput,
};
use iri_string::format::ToDedicatedString;
use iri_string::resolve::FixedBaseResolver;
use iri_string::types::{IriAbsoluteStr, IriReferenceStr};
use std::hint::black_box;

mod common;
use common::{all_batches, show, Batch};

/// The components of one reference, as every contender reports them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Parts<'a> {
    scheme: Option<&'a str>,
    authority: Option<&'a str>,
    /// `None` also when the crate has no host accessor (oxiri).
    host: Option<&'a str>,
    path: &'a str,
    query: Option<&'a str>,
    fragment: Option<&'a str>,
}

/// Parses `s` with iri_grammar and hands its components to `f`.
fn ours<R>(s: &str, f: impl FnOnce(Parts<'_>) -> R) -> Option<R> {
    let r = iri_grammar::reference::IriRef::parse(s).ok()?;
    Some(f(Parts {
        scheme: r.scheme(),
        authority: r.authority(),
        host: r.host(),
        path: r.path(),
        query: r.query(),
        fragment: r.fragment(),
    }))
}

/// Parses `s` with oxiri and hands its components to `f`.
fn oxiri_parts<R>(s: &str, f: impl FnOnce(Parts<'_>) -> R) -> Option<R> {
    let r = oxiri::IriRef::parse(s).ok()?;
    Some(f(Parts {
        scheme: r.scheme(),
        authority: r.authority(),
        host: None,
        path: r.path(),
        query: r.query(),
        fragment: r.fragment(),
    }))
}

/// Parses `s` with iri-string and hands its components to `f`.
fn iri_string_parts<R>(s: &str, f: impl FnOnce(Parts<'_>) -> R) -> Option<R> {
    let r = IriReferenceStr::new(s).ok()?;
    Some(f(Parts {
        scheme: r.scheme_str(),
        authority: r.authority_str(),
        host: r.authority_components().map(|a| a.host()),
        path: r.path_str(),
        query: r.query_str(),
        fragment: r.fragment_str(),
    }))
}

/// Parses `s` with fluent-uri and hands its components to `f`.
fn fluent_parts<R>(s: &str, f: impl FnOnce(Parts<'_>) -> R) -> Option<R> {
    let r = fluent_uri::IriRef::parse(s).ok()?;
    let authority = r.authority();
    Some(f(Parts {
        scheme: r.scheme().map(|x| x.as_str()),
        authority: authority.map(|a| a.as_str()),
        host: authority.map(|a| a.host()),
        path: r.path().as_str(),
        query: r.query().map(|x| x.as_str()),
        fragment: r.fragment().map(|x| x.as_str()),
    }))
}

/// The components as text, for comparing contenders (`None`: rejected).
type Shown = Option<String>;

const PARSER_NAMES: [&str; 4] = [
    "iri_grammar/IriRef",
    "oxiri/IriRef",
    "iri_string/IriReferenceStr",
    "fluent_uri/IriRef",
];

/// Every contender's components of `s`, as text (oxiri's missing host filled with
/// `host`, taken from the others, so that only real differences show).
fn shown_all(s: &str) -> [Shown; 4] {
    fn show<'a>(mut p: Parts<'a>, host: Option<Option<&'a str>>) -> String {
        if let Some(h) = host {
            p.host = h;
        }
        format!("{p:?}")
    }
    let host = ours(s, |p| p.host.map(str::to_owned)).flatten();
    [
        ours(s, |p| show(p, None)),
        oxiri_parts(s, |p| show(p, Some(host.as_deref()))),
        iri_string_parts(s, |p| show(p, None)),
        fluent_parts(s, |p| show(p, None)),
    ]
}

/// RFC 3986 §5.4: the base and the (reference, result) pairs of §5.4.1 and §5.4.2
/// (strict: `http:g` stays `http:g`).
#[path = "../tests/it/common/rfc3986.rs"]
mod rfc3986;
use rfc3986::BASE;
fn resolutions() -> impl Iterator<Item = &'static (&'static str, &'static str)> {
    rfc3986::NORMAL_EXAMPLES
        .iter()
        .chain(rfc3986::ABNORMAL_EXAMPLES.iter())
}

/// The inputs of a list that every contender parses; prints what was left out and
/// where the contenders' components differ from ours.
fn valid_inputs(b: &Batch) -> Vec<&str> {
    let mut valid = Vec::new();
    let mut rejected = [0usize; 4];
    let mut differ = [0usize; 4];
    const EXAMPLES: usize = 4;
    for s in &b.inputs {
        let results = shown_all(s);
        for (k, r) in results.iter().enumerate() {
            rejected[k] += usize::from(r.is_none());
        }
        if results.iter().any(Option::is_none) {
            continue;
        }
        valid.push(s.as_str());
        for k in 1..results.len() {
            if results[k] != results[0] {
                differ[k] += 1;
                if differ[k] <= EXAMPLES {
                    println!(
                        "    {} ({}): {} gives {}, {} gives {}",
                        show(s),
                        b.name,
                        PARSER_NAMES[k],
                        results[k].as_deref().unwrap_or("?"),
                        PARSER_NAMES[0],
                        results[0].as_deref().unwrap_or("?")
                    );
                }
            }
        }
    }
    print!("{:<32} {:>7} {:>7}", b.name, b.inputs.len(), valid.len());
    for k in 0..PARSER_NAMES.len() {
        print!(" {:>8}/{:<6}", rejected[k], differ[k]);
    }
    println!();
    valid
}

/// Measures one parser on one list: one iteration parses the whole list.
fn bench_parse<F: Fn(&str) -> bool>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    inputs: &[&str],
    name: &str,
    parse: F,
) {
    group.bench_with_input(
        BenchmarkId::from_parameter(name),
        inputs,
        |bench, inputs| {
            bench.iter(|| {
                let mut parsed = 0usize;
                for &s in black_box(inputs) {
                    parsed += usize::from(parse(black_box(s)));
                }
                black_box(parsed)
            })
        },
    );
}

fn bench_parse_all(c: &mut Criterion) {
    let batches = all_batches();
    println!("\n== parse: inputs, valid (parsed by all), and per contender rejected/components differing from iri_grammar's ==");
    print!("{:<32} {:>7} {:>7}", "list", "inputs", "valid");
    for name in PARSER_NAMES {
        print!(" {:>16}", name.split('/').next().unwrap_or(name));
    }
    println!();
    let lists: Vec<(String, Vec<&str>)> = batches
        .iter()
        .map(|b| (b.name.clone(), valid_inputs(b)))
        .collect();
    println!();
    for (name, inputs) in &lists {
        let mut group = c.benchmark_group(format!("parse/{name}"));
        group.throughput(Throughput::Elements(inputs.len() as u64));
        // Each contender hands its components to `black_box` while they are borrowed.
        bench_parse(&mut group, inputs, PARSER_NAMES[0], |s| {
            ours(s, |p| black_box(p).path.len()).is_some()
        });
        bench_parse(&mut group, inputs, PARSER_NAMES[1], |s| {
            oxiri_parts(s, |p| black_box(p).path.len()).is_some()
        });
        bench_parse(&mut group, inputs, PARSER_NAMES[2], |s| {
            iri_string_parts(s, |p| black_box(p).path.len()).is_some()
        });
        bench_parse(&mut group, inputs, PARSER_NAMES[3], |s| {
            fluent_parts(s, |p| black_box(p).path.len()).is_some()
        });
        group.finish();
    }
}

/// The resolvers: each parses its base once, then parses and resolves references.
struct Resolvers {
    ours: iri_grammar::reference::IriRef<'static>,
    oxiri: oxiri::Iri<&'static str>,
    iri_string: FixedBaseResolver<'static, iri_string::spec::IriSpec>,
    fluent: fluent_uri::Iri<&'static str>,
}

impl Resolvers {
    fn new() -> Resolvers {
        let base = IriAbsoluteStr::new(BASE).expect("iri-string: base");
        Resolvers {
            ours: iri_grammar::reference::IriRef::parse(BASE).expect("iri_grammar: base"),
            oxiri: oxiri::Iri::parse(BASE).expect("oxiri: base"),
            iri_string: FixedBaseResolver::new(base),
            fluent: fluent_uri::Iri::parse(BASE).expect("fluent-uri: base"),
        }
    }

    fn ours(&self, r: &str) -> Option<String> {
        let r = iri_grammar::reference::IriRef::parse(r).ok()?;
        Some(r.resolve(&self.ours).ok()?.into())
    }

    fn oxiri(&self, r: &str) -> Option<String> {
        let r = oxiri::IriRef::parse(r).ok()?;
        Some(self.oxiri.resolve(&r).ok()?.into_inner())
    }

    fn iri_string(&self, r: &str) -> Option<String> {
        let r = IriReferenceStr::new(r).ok()?;
        Some(self.iri_string.resolve(r).to_dedicated_string().into())
    }

    fn fluent(&self, r: &str) -> Option<String> {
        let r = fluent_uri::IriRef::parse(r).ok()?;
        Some(r.resolve_against(&self.fluent).ok()?.into_string())
    }
}

type ResolveFn = fn(&Resolvers, &str) -> Option<String>;

const RESOLVERS: &[(&str, ResolveFn)] = &[
    ("iri_grammar", Resolvers::ours),
    ("oxiri", Resolvers::oxiri),
    ("iri_string", Resolvers::iri_string),
    ("fluent_uri", Resolvers::fluent),
];

/// Prints every result that differs from the RFC's.
fn check_resolution(res: &Resolvers) {
    println!("\n== resolve: results that differ from RFC 3986 §5.4 ==");
    let mut all_right = true;
    for (name, f) in RESOLVERS {
        for &(r, expected) in resolutions() {
            let got = f(res, r);
            if got.as_deref() != Some(expected) {
                all_right = false;
                println!("    {name}: {r:?} gives {got:?}, RFC 3986: {expected:?}");
            }
        }
    }
    if all_right {
        println!(
            "    none: all {} contenders give the RFC's {} results",
            RESOLVERS.len(),
            resolutions().count()
        );
    }
    println!();
}

fn bench_resolve_one<F: Fn(&Resolvers, &str) -> Option<String>>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    res: &Resolvers,
    refs: &[&str],
    name: &str,
    resolve: F,
) {
    group.bench_with_input(BenchmarkId::from_parameter(name), refs, |bench, refs| {
        bench.iter(|| {
            for &r in black_box(refs) {
                black_box(resolve(res, black_box(r)));
            }
        })
    });
}

fn bench_resolve(c: &mut Criterion) {
    let res = Resolvers::new();
    check_resolution(&res);
    let refs: Vec<&str> = resolutions().map(|&(r, _)| r).collect();
    let mut group = c.benchmark_group("resolve/rfc3986");
    group.throughput(Throughput::Elements(refs.len() as u64));
    bench_resolve_one(&mut group, &res, &refs, RESOLVERS[0].0, Resolvers::ours);
    bench_resolve_one(&mut group, &res, &refs, RESOLVERS[1].0, Resolvers::oxiri);
    bench_resolve_one(
        &mut group,
        &res,
        &refs,
        RESOLVERS[2].0,
        Resolvers::iri_string,
    );
    bench_resolve_one(&mut group, &res, &refs, RESOLVERS[3].0, Resolvers::fluent);
    group.finish();
}

/// (c): trees, beside oxiri's parse.
fn bench_tree(c: &mut Criterion) {
    use iri_grammar::tree::tree_of;
    use iri_grammar::{Iri, Rule};
    for b in all_batches() {
        let inputs: Vec<&str> = b
            .inputs
            .iter()
            .map(String::as_str)
            .filter(|s| {
                oxiri::IriRef::parse(*s).is_ok() && tree_of::<Iri>(Rule::IriReference, s).is_ok()
            })
            .collect();
        let mut group = c.benchmark_group(format!("tree/{}", b.name));
        group.throughput(Throughput::Elements(inputs.len() as u64));
        bench_parse(&mut group, &inputs, "iri_grammar/tree_of", |s| {
            tree_of::<Iri>(Rule::IriReference, s).is_ok_and(|t| black_box(t.nodes().count()) > 0)
        });
        bench_parse(&mut group, &inputs, PARSER_NAMES[1], |s| {
            oxiri::IriRef::parse(s).is_ok()
        });
        group.finish();
    }
}

criterion_group!(benches, bench_parse_all, bench_resolve, bench_tree);
criterion_main!(benches);
