//! `is_match` and `check` for every rule by name in each grammar, against the oracle
//! (`iri_grammar_abnf::oracle`, an interpreter with exact ABNF semantics).
//!
//! The input is cut to 64 bytes: the oracle's cost grows with the length times the
//! number of rules, and a disagreement shows on short strings. The rule is chosen by
//! the option bytes, or, when there are none (a seed), by a hash of the text, so that
//! every rule gets inputs from the seeds. For that rule in each of the four grammars
//! (`VariantName::EVERY`, the 2001 draft's included; by index into the grammar's own
//! list of names, `Rule::of`), and for the grammar's reference rule where it has one:
//! `is_match` equals the oracle, `check` equals `is_match`, and an error's message can
//! be written.
#![no_main]

use iri_grammar::grammar::{check, matches_dyn, Rule};
use iri_grammar::VariantName;
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::Grammars;
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

struct Judges {
    oracles: Vec<Oracle<'static>>,
    rules: Vec<Vec<(&'static str, Rule)>>,
}

/// The grammars live as long as the process (a `static`, so that the leak
/// sanitizer does not see them lost when the thread's oracles are dropped at exit).
static GRAMMARS: OnceLock<Grammars> = OnceLock::new();

thread_local! {
    static JUDGES: Judges = {
        let grammars: &'static Grammars = GRAMMARS.get_or_init(Grammars::builtin);
        Judges {
            oracles: VariantName::EVERY.iter().map(|&v| Oracle::new(grammars, v)).collect(),
            rules: VariantName::EVERY.iter().map(|&v| Rule::of(v).collect()).collect(),
        }
    };
}

fn check_of(v: VariantName, rule: Rule, s: &str) -> Result<(), String> {
    let r = iri_grammar::with_variant!(v, V => check::<V>(rule, s));
    r.map_err(|e| e.to_string())
}

fn judge(j: &Judges, vi: usize, name: &str, rule: Rule, s: &str) {
    let v = VariantName::EVERY[vi];
    let expected = j.oracles[vi]
        .matches(name, s)
        .expect("a rule of the grammar");
    let got = matches_dyn(v, rule, s);
    assert_eq!(
        got, expected,
        "{v:?} {name} on {s:?}: oracle {expected}, combinators {got}"
    );
    let checked = check_of(v, rule, s);
    assert_eq!(
        checked.is_ok(),
        got,
        "{v:?} {name} on {s:?}: check and is_match disagree"
    );
}

fuzz_target!(|data: &[u8]| {
    let ([text], mut u) = iri_fuzz::split::<1>(data);
    let s = iri_fuzz::truncate(&text, 64);
    let pick: usize = if u.is_empty() {
        s.bytes().fold(7usize, |h, b| {
            h.wrapping_mul(31).wrapping_add(usize::from(b))
        })
    } else {
        u.arbitrary().unwrap_or(0)
    };
    JUDGES.with(|j| {
        for (vi, rules) in j.rules.iter().enumerate() {
            let (name, rule) = rules[pick % rules.len()];
            judge(j, vi, name, rule, s);
            if let Some(reference) = Rule::IriReference.name_in(VariantName::EVERY[vi]) {
                judge(j, vi, reference, Rule::IriReference, s);
            }
        }
    });
});
