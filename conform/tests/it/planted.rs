//! The planted bug (issue 41): an adapter over the library itself with one
//! deliberate deviation, `dec-octet` also accepting `256`, must be reported as one
//! group in `dec-octet` whose minimal example is a few characters long; the same
//! adapter without the deviation must agree on every input.
//!
//! A second deviation is the one a regular expression ending in `$` has (Python's
//! `rfc3987` has it): a final line feed let through. Found after a path, a query, an
//! authority..., it is one cause, and must be one group whose example is the line
//! feed alone.
//!
//! A third reads `/h` as `//h` (an optional first slash), a cause found in several
//! places: every disagreement must count in exactly one group. A fourth refuses the
//! first code point of one of `ucschar`'s ranges: it must be found in every seed.
//!
//! The adapter is this test binary, started again with `IRI_CONFORM_TEST_ADAPTER`
//! set (`planted`, `dollar`, `slash`, `ucschar` or `faithful`); `main.rs` hands it
//! to [`adapter`].

use iri_grammar::grammar::matches_dyn;
use iri_grammar::{Component, Reference, Rule, Variant, VariantName};
use iri_grammar_conform::protocol::COMPONENTS;
use iri_grammar_conform::verdict::Kind;
use iri_grammar_conform::{run, Options};
use std::ffi::OsString;
use std::io::{BufRead, Write};

tests! {
    the_planted_bug_is_one_group_in_dec_octet,
    the_faithful_adapter_agrees,
}

// Runs of the whole reference rule, several seeds each: about 30 s a run in a debug
// build, 1-2 s in release, so run with the benchmark (`--ignored`, in release).
ignored_tests! {
    the_planted_bug_is_found_in_iri_references_too,
    a_final_line_feed_let_through_is_one_group,
    every_disagreement_counts_in_one_group,
    a_range_that_starts_one_late_is_found,
}

/// Answers for the rule of IRI_CONFORM_RULE in IRI_CONFORM_GRAMMAR, as the library
/// does; `planted`: with every `256` read as `255` (same length, so the components
/// of the rewritten string are the same byte ranges of the input); `dollar`: with a
/// final line feed dropped, as `$` matches before one.
pub fn adapter(mode: &str) {
    let grammar = std::env::var("IRI_CONFORM_GRAMMAR").unwrap();
    let variant = VariantName::EVERY
        .into_iter()
        .find(|v| v.as_str() == grammar)
        .unwrap();
    let rule_name = std::env::var("IRI_CONFORM_RULE").unwrap();
    let Some(rule) = Rule::named(variant, &rule_name) else {
        eprintln!("no rule {rule_name}");
        std::process::exit(3);
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let input: String = serde_json::from_str(&line.unwrap()).unwrap();
        let asked = match mode {
            "planted" => input.replace("256", "255"),
            "dollar" => input.strip_suffix('\n').unwrap_or(&input).to_string(),
            _ => input.clone(),
        };
        let mut valid = matches_dyn(variant, rule, &asked);
        if mode == "ucschar" {
            // ucschar's last range starting one late: `%xE1001-EFFFD` for
            // `%xE1000-EFFFD`.
            valid = valid && !asked.contains('\u{E1000}');
        }
        if mode == "slash" && !valid && input.starts_with('/') {
            // An optional first slash, `\/?\/` in a regular expression: `/h/p` taken
            // as `//h/p`.
            valid = matches_dyn(variant, rule, &format!("/{asked}"));
        }
        let spans = iri_grammar::with_variant!(variant, V => spans::<V>(&asked), Iri2001 => None);
        let mut answer = serde_json::Map::new();
        answer.insert("valid".into(), valid.into());
        if let (true, Some(spans)) = (valid, spans) {
            for (part, span) in spans {
                let value = span.map_or(serde_json::Value::Null, |r| input[r].into());
                answer.insert(part.as_str().into(), value);
            }
        }
        writeln!(out, "{}", serde_json::Value::Object(answer)).unwrap();
        out.flush().unwrap();
    }
}

type Spans = Vec<(Component, Option<std::ops::Range<usize>>)>;

fn spans<V: Variant>(s: &str) -> Option<Spans> {
    let r = Reference::<V>::parse(s).ok()?;
    Some(COMPONENTS.iter().map(|&p| (p, r.span(p))).collect())
}

fn myself(mode: &str) -> Vec<OsString> {
    std::env::set_var("IRI_CONFORM_TEST_ADAPTER", mode);
    vec![std::env::current_exe().unwrap().into_os_string()]
}

fn the_planted_bug_is_one_group_in_dec_octet() {
    let options = Options {
        grammar: VariantName::Uri,
        rule: Some("IPv4address".to_string()),
        ..Options::default()
    };
    let report = run(&options, &myself("planted")).unwrap();
    assert!(
        report.hangs.is_empty() && report.crashes.is_empty(),
        "{report:#?}"
    );
    assert!(report.unreadable.is_empty(), "{report:#?}");
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    let g = &report.groups[0];
    assert_eq!(
        (g.kind, g.rule.as_str()),
        (Kind::AcceptsInvalid, "dec-octet")
    );
    assert_eq!(g.section.as_deref(), Some("3.2.2"));
    let shortest = &g.examples[0].input;
    assert!(
        shortest.contains("256") && shortest.len() <= 16,
        "{shortest}"
    );
    assert!(!report.ok());
}

fn the_planted_bug_is_found_in_iri_references_too() {
    // In an IRI reference `256` is wrong only in an IPv4 address inside an IP
    // literal (`1.2.3.256` is a registered name), which the default budget reaches
    // in 4 of the seeds 0-7: the cover set reaches dec-octet's `"25" %x30-35`
    // through one context, whichever its draw takes, and near misses are single
    // edits of it (issue 47, defect 7). Seed 2 is one that reaches it; what is
    // checked here is the group the run makes of it.
    let options = Options {
        seed: 2,
        ..Options::default()
    };
    let report = run(&options, &myself("planted")).unwrap();
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    let g = &report.groups[0];
    assert_eq!(
        (g.kind, g.rule.as_str()),
        (Kind::AcceptsInvalid, "dec-octet")
    );
    let shortest = &g.examples[0].input;
    assert!(
        shortest.contains("256") && shortest.len() <= 16,
        "{shortest}"
    );
}

fn a_final_line_feed_let_through_is_one_group() {
    let report = run(&Options::default(), &myself("dollar")).unwrap();
    assert_eq!(report.groups.len(), 1, "{:#?}", report.groups);
    let g = &report.groups[0];
    assert_eq!(g.kind, Kind::AcceptsInvalid);
    assert_eq!(g.examples[0].input, "\n", "{g:#?}");
}

/// A deviation found in several places (an optional first slash: `/h` read as
/// `//h`, found in the authority, the reg-name, the relative part): however the run
/// groups them, each disagreement counts in exactly one group, and a group counts at
/// least the ones minimized into it (issue 47, defect 5: "1 found, 6 minimized").
fn every_disagreement_counts_in_one_group() {
    for seed in 0..3 {
        let options = Options {
            seed,
            ..Options::default()
        };
        let report = run(&options, &myself("slash")).unwrap();
        assert!(!report.groups.is_empty(), "seed {seed}: {report:#?}");
        let counted: usize = report.groups.iter().map(|g| g.count).sum();
        assert_eq!(
            counted, report.disagreements,
            "seed {seed}: {:#?}",
            report.groups
        );
        for g in &report.groups {
            assert!(g.count >= g.minimized, "seed {seed}: {g:#?}");
        }
    }
}

/// A range of `ucschar` that starts one code point late (issue 47, defect 7: such
/// deviations got 0-9 hits in 5,000 inputs, found in some seeds and not others).
/// The near misses replace each character beyond ASCII by the ends of every class
/// beyond ASCII, so the refused code point is asked in many inputs of every seed:
/// 9, 9 and 11 disagreements in seeds 0-2 (17, 12 and 14 before an eighth kind of
/// near miss, a rule without its delimiters, shared their budget), where the edits
/// by code-point neighbours alone gave 2, 1 and 3.
fn a_range_that_starts_one_late_is_found() {
    for seed in 0..3 {
        let options = Options {
            seed,
            ..Options::default()
        };
        let report = run(&options, &myself("ucschar")).unwrap();
        assert!(
            report.disagreements >= 6,
            "seed {seed}: {} disagreements",
            report.disagreements
        );
        assert_eq!(report.groups.len(), 1, "seed {seed}: {:#?}", report.groups);
        let g = &report.groups[0];
        assert_eq!(g.kind, Kind::RejectsValid, "seed {seed}: {g:#?}");
        assert!(
            g.examples[0].input.contains('\u{E1000}'),
            "seed {seed}: {g:#?}"
        );
    }
}

fn the_faithful_adapter_agrees() {
    let options = Options::default();
    let report = run(&options, &myself("faithful")).unwrap();
    assert!(report.ok(), "{report:#?}");
    assert_eq!(report.agreed, report.inputs);
    assert_eq!(report.starts, 1);
}
