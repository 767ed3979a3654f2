//! Planted resolution bugs (`iri conform --resolve`): an adapter over the library's
//! own resolution (RFC 3986 §5.2) with one deliberate deviation each must be found
//! and grouped at the step of §5.2.2–§5.2.4 it breaks, with a short example; the
//! faithful one must agree on every pair.
//!
//! - `resolve-no-dots`: remove_dot_segments (§5.2.4) never applied;
//! - `resolve-query`: the base's query kept for a reference with a path (§5.2.2);
//! - `resolve-merge`: merge (§5.2.3) without the base's last segment removed;
//! - `resolve-faithful`: the library's resolution.
//!
//! The adapter is this test binary, started again with `IRI_CONFORM_TEST_ADAPTER`
//! set to the mode; `main.rs` hands it to [`adapter`].

use iri_grammar::resolve::remove_dot_segments;
use iri_grammar::{Iri, Reference, VariantName};
use iri_grammar_conform::resolve::{merge, run, Kind, ResolveReport, Step};
use iri_grammar_conform::Options;
use std::ffi::OsString;
use std::io::{BufRead, Write};

tests! {
    the_faithful_resolver_agrees,
    no_remove_dot_segments_is_found_at_its_step,
    a_query_kept_for_a_path_is_query_inheritance,
    a_merge_that_keeps_the_last_segment_is_found,
}

/// Resolves each `[base, reference]` pair as RFC 3986 §5.2.2 says, in the IRI
/// grammar, but for the mode's deviation.
pub fn adapter(mode: &str) {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let (base, reference): (String, String) = serde_json::from_str(&line.unwrap()).unwrap();
        let target = match (
            Reference::<Iri>::parse(&base),
            Reference::<Iri>::parse(&reference),
        ) {
            (Ok(b), Ok(r)) if b.scheme().is_some() => Some(if mode == "resolve-faithful" {
                r.resolve(&b).unwrap().to_string()
            } else {
                resolve(&b, &r, mode)
            }),
            _ => None,
        };
        let answer = target.map_or_else(
            || "invalid".to_string(),
            |t| serde_json::to_string(&t).unwrap(),
        );
        writeln!(out, "{answer}").unwrap();
        out.flush().unwrap();
    }
}

/// §5.2.2's pseudo-code, with the deviation of `mode`.
fn resolve(b: &Reference<'_, Iri>, r: &Reference<'_, Iri>, mode: &str) -> String {
    let dots = |p: &str| {
        if mode == "resolve-no-dots" {
            p.to_string()
        } else {
            remove_dot_segments(p)
        }
    };
    let (scheme, authority, path, query);
    if let Some(s) = r.scheme() {
        (scheme, authority, path, query) = (s, r.authority(), dots(r.path()), r.query());
    } else if r.authority().is_some() {
        (scheme, authority, path, query) = (
            b.scheme().unwrap(),
            r.authority(),
            dots(r.path()),
            r.query(),
        );
    } else {
        (scheme, authority) = (b.scheme().unwrap(), b.authority());
        if r.path().is_empty() {
            path = b.path().to_string();
            query = r.query().or(b.query());
        } else {
            path = if r.path().starts_with('/') {
                dots(r.path())
            } else if mode == "resolve-merge" {
                dots(&format!("{}/{}", b.path(), r.path()))
            } else {
                dots(&merge(b.authority().is_some(), b.path(), r.path()))
            };
            query = if mode == "resolve-query" {
                r.query().or(b.query())
            } else {
                r.query()
            };
        }
    }
    // §5.3's recomposition.
    let mut t = format!("{scheme}:");
    if let Some(a) = authority {
        t.push_str("//");
        t.push_str(a);
    }
    // A path that starts with `//` without an authority would read as one: `/.`
    // in front keeps the same path (as the library writes it).
    if authority.is_none() && path.starts_with("//") {
        t.push_str("/.");
    }
    t.push_str(&path);
    if let Some(q) = query {
        t.push('?');
        t.push_str(q);
    }
    if let Some(f) = r.fragment() {
        t.push('#');
        t.push_str(f);
    }
    t
}

fn myself(mode: &str) -> Vec<OsString> {
    std::env::set_var("IRI_CONFORM_TEST_ADAPTER", mode);
    vec![std::env::current_exe().unwrap().into_os_string()]
}

fn report(mode: &str) -> ResolveReport {
    let options = Options {
        grammar: VariantName::Iri,
        budget: 2000,
        ..Options::default()
    };
    let report = run(&options, &myself(mode)).unwrap();
    assert!(
        report.hangs.is_empty() && report.crashes.is_empty() && report.unreadable.is_empty(),
        "{report:#?}"
    );
    report
}

/// The group of `step`: it holds most of the disagreements, and its shortest
/// example, base and reference together, is at most `at_most` characters.
fn found_at(report: &ResolveReport, step: Step, at_most: usize) {
    let g = report
        .groups
        .iter()
        .find(|g| (g.kind, g.step) == (Kind::Target, step))
        .unwrap_or_else(|| panic!("no group at {step:?}: {:#?}", report.groups));
    assert!(
        2 * g.count > report.disagreements,
        "{step:?} holds {} of {}: {:#?}",
        g.count,
        report.disagreements,
        report.groups
    );
    let e = &g.examples[0];
    let n = e.base.chars().count() + e.reference.chars().count();
    assert!(n <= at_most, "{e:#?}");
    assert_ne!(e.expected, e.got);
}

fn the_faithful_resolver_agrees() {
    let r = report("resolve-faithful");
    assert!(r.ok(), "{:#?}", r.groups);
    assert_eq!((r.agreed, r.inputs), (2000, 2000));
}

fn no_remove_dot_segments_is_found_at_its_step() {
    let r = report("resolve-no-dots");
    found_at(&r, Step::RemoveDotSegments, 4);
}

fn a_query_kept_for_a_path_is_query_inheritance() {
    let r = report("resolve-query");
    found_at(&r, Step::QueryInheritance, 5);
    // Only that: every other step agrees.
    assert_eq!(r.groups.len(), 1, "{:#?}", r.groups);
}

fn a_merge_that_keeps_the_last_segment_is_found() {
    let r = report("resolve-merge");
    found_at(&r, Step::Merge, 5);
}
