//! Conversions (RFC 3987 §3.1, §3.2) and normalization (RFC 3987 §5.3, RFC 3986 §6.2)
//! against peer crates, on the same inputs in the same criterion group.
//!
//! Every contender starts from its own parsed value (parsed once, outside the loop)
//! and produces the result as an owned `String`:
//!
//! (a) `to_uri/<list>` and `to_uri_mapped/all`: IRI → URI (§3.1).
//! - `iri_grammar`: `r.to_uri_with(ToUri::default())` (`r: IriRef`)
//!   into `String`
//! - `iri_string`: `r.encode_to_uri().to_dedicated_string()` (`r: &IriReferenceStr`)
//!   into `String`
//! - `fluent_uri`: `r.to_uri_ref().into_string()` (`r: fluent_uri::IriRef<&str>`)
//!
//! `to_uri/<list>` runs on the IRI references of a list (every contender parses the
//! same ones); `to_uri_mapped/all` on the IRIs that `to_iri` makes of the URI references
//! of all lists together, keeping those it changed (mostly decoded characters beyond
//! ASCII: where IRI → URI has work to do; a few hundred in the corpus, 1 in the built-in
//! list).
//!
//! (b) `to_iri/<list>`: URI → IRI (§3.2) of the list's URI references, `iri_grammar`
//! only (`r.to_iri_with(ToIri::default())`, `r: UriRef`): neither iri-string 0.7 nor
//! fluent-uri 0.4 maps URIs to IRIs. `to_iri_pct/all`: the same on the URI references
//! of all lists together that contain a percent-encoding (the others are copied as
//! they are: nothing to decode).
//!
//! (c) `normalize/<list>`: normalization of the list's IRIs (with a scheme; iri-string
//! normalizes only those, as `IriStr`), and `normalize_pct/all`: of the IRIs of all
//! lists together that contain a percent-encoding (where percent-encodings need
//! aligning):
//! - `iri_grammar/Syntax`, `iri_grammar/Scheme`:
//!   `r.normalize_with(Level::Syntax | Level::Scheme, NormalizeOptions::default())` into `String`
//! - `iri_string`: `r.normalize().to_dedicated_string()` (`r: &IriStr`) into `String`
//! - `fluent_uri`: `r.normalize().into_string()` (`r: fluent_uri::Iri<&str>`)
//!
//! Before measuring, it prints where the contenders' results differ, by component.
//!
//! Inputs: the built-in list of `benches/validate.rs` and each URL list
//! `../shared/corpus/urls/*.txt` beside the project (when present).
//!
//! Run: `cargo bench --bench convert -- --warm-up-time 1 --measurement-time 3`
//! (a filter such as `to_uri/`, `to_iri`, `normalize/builtin` limits it).
//!
//! The contenders and the input sets are `pub(crate)`, so that a scratch profiling
//! harness can include this file as a module and run exactly these closures.

use criterion::measurement::WallTime;
use criterion::{
    criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion, SamplingMode,
    Throughput,
};
use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::normalize::{Level, NormalizeOptions};
use iri_grammar::reference::{IriRef, UriRef};
use iri_string::format::ToDedicatedString;
use iri_string::types::{IriReferenceStr, IriStr};
use std::collections::BTreeMap;
use std::hint::black_box;

mod common;
use common::{all_batches, show};

// ---------------------------------------------------------------------------------
// The contenders: a parsed value in, an owned `String` out (`None`: refused).

/// IRI → URI, iri_grammar.
pub(crate) fn ours_to_uri(r: &IriRef<'_>) -> Option<String> {
    r.to_uri_with(ToUri::default()).ok().map(String::from)
}

/// IRI → URI, iri-string.
pub(crate) fn iri_string_to_uri(r: &IriReferenceStr) -> Option<String> {
    Some(r.encode_to_uri().to_dedicated_string().into())
}

/// IRI → URI, fluent-uri.
pub(crate) fn fluent_to_uri(r: &fluent_uri::IriRef<&str>) -> Option<String> {
    Some(r.to_uri_ref().into_string())
}

/// URI → IRI, iri_grammar.
pub(crate) fn ours_to_iri(r: &UriRef<'_>) -> Option<String> {
    r.to_iri_with(ToIri::default()).ok().map(String::from)
}

/// Syntax-based normalization, iri_grammar.
pub(crate) fn ours_syntax(r: &IriRef<'_>) -> Option<String> {
    r.normalize_with(Level::Syntax, NormalizeOptions::default())
        .ok()
        .map(String::from)
}

/// Scheme-based normalization, iri_grammar.
pub(crate) fn ours_scheme(r: &IriRef<'_>) -> Option<String> {
    r.normalize_with(Level::Scheme, NormalizeOptions::default())
        .ok()
        .map(String::from)
}

/// Normalization, iri-string.
pub(crate) fn iri_string_normalize(r: &IriStr) -> Option<String> {
    Some(r.normalize().to_dedicated_string().into())
}

/// Normalization, fluent-uri.
pub(crate) fn fluent_normalize(r: &fluent_uri::Iri<&str>) -> Option<String> {
    Some(r.normalize().into_string())
}

// ---------------------------------------------------------------------------------
// Inputs.

/// The IRI references of a list that every IRI → URI contender parses, parsed by each.
pub(crate) struct ToUriSet<'a> {
    pub(crate) ours: Vec<IriRef<'a>>,
    pub(crate) iri_string: Vec<&'a IriReferenceStr>,
    pub(crate) fluent: Vec<fluent_uri::IriRef<&'a str>>,
}

impl<'a> ToUriSet<'a> {
    pub(crate) fn new(inputs: &'a [String]) -> ToUriSet<'a> {
        let mut set = ToUriSet {
            ours: Vec::new(),
            iri_string: Vec::new(),
            fluent: Vec::new(),
        };
        for s in inputs {
            if let (Ok(a), Ok(b), Ok(c)) = (
                IriRef::parse(s),
                IriReferenceStr::new(s),
                fluent_uri::IriRef::parse(s.as_str()),
            ) {
                set.ours.push(a);
                set.iri_string.push(b);
                set.fluent.push(c);
            }
        }
        set
    }
}

/// The URI references of a list, parsed.
pub(crate) fn uri_refs(inputs: &[String]) -> Vec<UriRef<'_>> {
    inputs
        .iter()
        .filter_map(|s| UriRef::parse(s).ok())
        .collect()
}

/// The URI references of a list with a percent-encoding (where URI → IRI has work).
pub(crate) fn pct_uris(inputs: &[String]) -> Vec<String> {
    inputs
        .iter()
        .filter(|s| s.contains('%') && UriRef::parse(s).is_ok())
        .cloned()
        .collect()
}

/// The IRIs `to_iri` makes of the URI references of a list, where it changes them.
pub(crate) fn mapped_iris(inputs: &[String]) -> Vec<String> {
    uri_refs(inputs)
        .iter()
        .filter_map(|u| ours_to_iri(u).filter(|i| i != u.as_str()))
        .collect()
}

/// The IRIs of a list (a scheme) that every normalization contender parses and that
/// iri_grammar normalizes at both levels, parsed by each.
pub(crate) struct NormalizeSet<'a> {
    pub(crate) ours: Vec<IriRef<'a>>,
    pub(crate) iri_string: Vec<&'a IriStr>,
    pub(crate) fluent: Vec<fluent_uri::Iri<&'a str>>,
    /// IRIs that iri_grammar refuses to normalize at the scheme level (IDNA).
    pub(crate) refused: Vec<&'a str>,
}

impl<'a> NormalizeSet<'a> {
    pub(crate) fn new(inputs: &'a [String]) -> NormalizeSet<'a> {
        let mut set = NormalizeSet {
            ours: Vec::new(),
            iri_string: Vec::new(),
            fluent: Vec::new(),
            refused: Vec::new(),
        };
        for s in inputs {
            let (Ok(a), Ok(b), Ok(c)) = (
                IriRef::parse(s),
                IriStr::new(s),
                fluent_uri::Iri::parse(s.as_str()),
            ) else {
                continue;
            };
            if !a.is_absolute() {
                continue;
            }
            if ours_syntax(&a).is_none() || ours_scheme(&a).is_none() {
                set.refused.push(s);
                continue;
            }
            set.ours.push(a);
            set.iri_string.push(b);
            set.fluent.push(c);
        }
        set
    }
}

// ---------------------------------------------------------------------------------
// Agreement reports.

/// The components in which two references differ, e.g. `"host+port"`; `"text"` when
/// one does not parse as an IRI reference.
fn differing_components(a: &str, b: &str) -> String {
    let (Ok(x), Ok(y)) = (IriRef::parse(a), IriRef::parse(b)) else {
        return "text".to_owned();
    };
    let mut parts = Vec::new();
    let pairs = [
        ("scheme", x.scheme(), y.scheme()),
        ("userinfo", x.userinfo(), y.userinfo()),
        ("host", x.host(), y.host()),
        ("port", x.port(), y.port()),
        ("path", Some(x.path()), Some(y.path())),
        ("query", x.query(), y.query()),
        ("fragment", x.fragment(), y.fragment()),
    ];
    for (name, p, q) in pairs {
        if p != q {
            parts.push(name);
        }
    }
    parts.join("+")
}

/// Differences between our results and a peer's, by differing components.
#[derive(Default)]
struct Differences {
    by_kind: BTreeMap<String, (usize, Vec<String>)>,
}

impl Differences {
    const EXAMPLES: usize = 2;

    fn add(&mut self, input: &str, ours: &str, peer: &str) {
        if ours == peer {
            return;
        }
        let entry = self
            .by_kind
            .entry(differing_components(ours, peer))
            .or_default();
        entry.0 += 1;
        if entry.1.len() < Self::EXAMPLES {
            entry.1.push(format!(
                "{}: ours {}, peer {}",
                show(input),
                show(ours),
                show(peer)
            ));
        }
    }

    fn print(&self, what: &str, list: &str, total: usize) {
        let differing: usize = self.by_kind.values().map(|(n, _)| n).sum();
        println!("  {list}: {what}: {differing} of {total} differ");
        for (kind, (n, examples)) in &self.by_kind {
            println!("    {kind}: {n}");
            for e in examples {
                println!("      {e}");
            }
        }
    }
}

fn report_to_uri(list: &str, set: &ToUriSet<'_>) {
    let mut iri_string = Differences::default();
    let mut fluent = Differences::default();
    for k in 0..set.ours.len() {
        let input = set.ours[k].as_str();
        let ours = ours_to_uri(&set.ours[k]).unwrap_or_default();
        iri_string.add(
            input,
            &ours,
            &iri_string_to_uri(set.iri_string[k]).unwrap_or_default(),
        );
        fluent.add(
            input,
            &ours,
            &fluent_to_uri(&set.fluent[k]).unwrap_or_default(),
        );
    }
    iri_string.print("to_uri, iri_grammar vs iri_string", list, set.ours.len());
    fluent.print("to_uri, iri_grammar vs fluent_uri", list, set.ours.len());
}

fn report_normalize(list: &str, set: &NormalizeSet<'_>) {
    let mut iri_string = Differences::default();
    let mut fluent = Differences::default();
    let mut fluent_scheme = Differences::default();
    let mut levels = Differences::default();
    for k in 0..set.ours.len() {
        let input = set.ours[k].as_str();
        let syntax = ours_syntax(&set.ours[k]).unwrap_or_default();
        let scheme = ours_scheme(&set.ours[k]).unwrap_or_default();
        let fl = fluent_normalize(&set.fluent[k]).unwrap_or_default();
        iri_string.add(
            input,
            &syntax,
            &iri_string_normalize(set.iri_string[k]).unwrap_or_default(),
        );
        fluent.add(input, &syntax, &fl);
        fluent_scheme.add(input, &scheme, &fl);
        levels.add(input, &syntax, &scheme);
    }
    let n = set.ours.len();
    if !set.refused.is_empty() {
        println!(
            "  {list}: left out, iri_grammar refuses them at Level::Scheme: {}",
            set.refused.len()
        );
        for s in set.refused.iter().take(Differences::EXAMPLES) {
            println!("      {}", show(s));
        }
    }
    iri_string.print("iri_grammar/Syntax vs iri_string", list, n);
    fluent.print("iri_grammar/Syntax vs fluent_uri", list, n);
    fluent_scheme.print("iri_grammar/Scheme vs fluent_uri", list, n);
    levels.print(
        "iri_grammar/Syntax vs iri_grammar/Scheme (\"peer\" = Scheme)",
        list,
        n,
    );
}

// ---------------------------------------------------------------------------------
// Measurement.

/// A group of one list: `inputs` items per iteration. Large lists take a second or more
/// per iteration of the slower contenders, so every group samples flat, 20 samples.
fn group<'c>(c: &'c mut Criterion, name: String, inputs: usize) -> BenchmarkGroup<'c, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Elements(inputs as u64));
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(20);
    group
}

/// Measures one contender on one list: one iteration converts the whole list.
fn bench_one<T>(
    group: &mut BenchmarkGroup<'_, WallTime>,
    name: &str,
    items: &[T],
    f: impl Fn(&T) -> Option<String>,
) {
    group.bench_function(BenchmarkId::from_parameter(name), |bench| {
        bench.iter(|| {
            for x in black_box(items) {
                black_box(f(black_box(x)));
            }
        })
    });
}

fn bench_to_uri(c: &mut Criterion, group_name: &str, list: &str, set: &ToUriSet<'_>) {
    if set.ours.is_empty() {
        return;
    }
    let mut g = group(c, format!("{group_name}/{list}"), set.ours.len());
    bench_one(&mut g, "iri_grammar", &set.ours, ours_to_uri);
    bench_one(&mut g, "iri_string", &set.iri_string, |r| {
        iri_string_to_uri(r)
    });
    bench_one(&mut g, "fluent_uri", &set.fluent, fluent_to_uri);
    g.finish();
}

fn bench_conversions(c: &mut Criterion) {
    let batches = all_batches();
    println!("\n== conversions: inputs per list ==");
    println!(
        "{:<30} {:>7} {:>9} {:>9} {:>9} {:>13} {:>9}",
        "list", "inputs", "IRI refs", "non-ASCII", "URI refs", "mapped IRIs", "roundtrip≠"
    );
    let mapped: Vec<Vec<String>> = batches.iter().map(|b| mapped_iris(&b.inputs)).collect();
    for (b, m) in batches.iter().zip(&mapped) {
        let set = ToUriSet::new(&b.inputs);
        let uris = uri_refs(&b.inputs);
        // URI → IRI → URI gives the URI back, up to the case of hex digits and the
        // percent-encodings of unreserved characters, which §3.2 decodes.
        let roundtrip: Vec<(&str, Option<String>)> = uris
            .iter()
            .filter_map(|u| {
                let back = ours_to_iri(u)
                    .and_then(|i| IriRef::parse(&i).ok().and_then(|r| ours_to_uri(&r)));
                (back.as_deref() != Some(u.as_str())).then_some((u.as_str(), back))
            })
            .collect();
        println!(
            "{:<30} {:>7} {:>9} {:>9} {:>9} {:>13} {:>9}",
            b.name,
            b.inputs.len(),
            set.ours.len(),
            set.ours.iter().filter(|r| !r.as_str().is_ascii()).count(),
            uris.len(),
            m.len(),
            roundtrip.len()
        );
        for (u, back) in roundtrip.iter().take(2) {
            println!(
                "    {} → IRI → URI {}",
                show(u),
                back.as_deref().map_or("(refused)".to_owned(), show)
            );
        }
    }
    let all_mapped: Vec<String> = mapped.into_iter().flatten().collect();
    println!("\n== to_uri: where the peers' results differ from iri_grammar's ==");
    for b in &batches {
        report_to_uri(&b.name, &ToUriSet::new(&b.inputs));
    }
    report_to_uri("all (mapped)", &ToUriSet::new(&all_mapped));
    println!();
    for b in &batches {
        bench_to_uri(c, "to_uri", &b.name, &ToUriSet::new(&b.inputs));
    }
    bench_to_uri(c, "to_uri_mapped", "all", &ToUriSet::new(&all_mapped));
    let all_pct: Vec<String> = batches.iter().flat_map(|b| pct_uris(&b.inputs)).collect();
    println!(
        "URI references with a percent-encoding, all lists: {}\n",
        all_pct.len()
    );
    let lists = batches
        .iter()
        .map(|b| ("to_iri", b.name.as_str(), &b.inputs))
        .chain([("to_iri_pct", "all", &all_pct)]);
    for (group_name, list, inputs) in lists {
        let uris = uri_refs(inputs);
        if !uris.is_empty() {
            let mut g = group(c, format!("{group_name}/{list}"), uris.len());
            bench_one(&mut g, "iri_grammar", &uris, ours_to_iri);
            g.finish();
        }
    }
}

fn bench_normalize(c: &mut Criterion) {
    let batches = all_batches();
    // The IRIs with a percent-encoding, all lists together: where the alignment of
    // percent-encodings (RFC 3987 §3.2 via `to_uri` and `to_iri`) has work to do.
    let all_pct: Vec<String> = batches
        .iter()
        .flat_map(|b| b.inputs.iter().filter(|s| s.contains('%')).cloned())
        .collect();
    println!("\n== normalize: IRIs per list, and where the results differ ==");
    let sets: Vec<(String, NormalizeSet<'_>)> = batches
        .iter()
        .map(|b| {
            (
                format!("normalize/{}", b.name),
                NormalizeSet::new(&b.inputs),
            )
        })
        .chain([("normalize_pct/all".to_owned(), NormalizeSet::new(&all_pct))])
        .collect();
    for (name, set) in &sets {
        report_normalize(name, set);
    }
    println!();
    for (name, set) in &sets {
        if set.ours.is_empty() {
            continue;
        }
        let mut g = group(c, name.clone(), set.ours.len());
        bench_one(&mut g, "iri_grammar/Syntax", &set.ours, ours_syntax);
        bench_one(&mut g, "iri_grammar/Scheme", &set.ours, ours_scheme);
        bench_one(&mut g, "iri_string", &set.iri_string, |r| {
            iri_string_normalize(r)
        });
        bench_one(&mut g, "fluent_uri", &set.fluent, fluent_normalize);
        g.finish();
    }
}

criterion_group!(benches, bench_conversions, bench_normalize);
criterion_main!(benches);
