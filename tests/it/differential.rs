//! The generated combinators and the compiled grammar against the oracle, for every
//! rule of every grammar.
//!
//! ABNF is not PEG (README, "ABNF is not PEG"): the generated combinators translate
//! unordered alternation and repetitions that give back into ordered nom parsers, and
//! the compiled grammar is a minimized automaton built from the same rule table; the
//! oracle (an interpreter of the rule table with true ABNF semantics) proves both exact
//! over generated and mutated strings for every rule and every variant. This is that
//! proof.
//!
//! For each grammar (`Uri`, `Iri`, `Leiri`, `Iri2001`) and each rule of its table
//! (`Grammars::table`: core + RFC 3986 for `Uri`, + RFC 3987 for `Iri`, + the LEIRI
//! note for `Leiri`, whose start rules are tested under their LEIRI names; core + the
//! 2001 draft for `Iri2001`, its own rule set), the test
//! draws at least 2,000 strings with fixed seeds — about half generated from the rule,
//! half near misses of those (`Generator::mutate`), with a few concatenations and
//! strings of other rules mixed in — and asks the oracle (`iri_grammar_abnf::oracle`),
//! the generated combinators (`iri_grammar::combinators::rule` in `Check` mode)
//! and `is_match` (the compiled grammar where the rule is compiled) whether the whole
//! string matches. Any disagreement fails the test, naming grammar, rule, input and
//! the three verdicts.
//!
//! Long runs: `IRI_DIFFERENTIAL_CASES=N` sets the total number of cases over all rules
//! and grammars (spread evenly, never fewer than 2,000 per rule), and
//! `IRI_DIFFERENTIAL_SEED=S` changes the seeds, e.g.
//!
//! ```text
//! IRI_DIFFERENTIAL_CASES=10000000 cargo test --release -p iri-grammar --test it differential -- --nocapture
//! ```
//!
//! Last long runs: 2026-11-24, `6066fb4` (the walk's states widened to 32 bits, each
//! skip table in an arm of its own): 10,000,128 cases, 0 disagreements, 53 s; and at
//! `4486ddf`, the same, 81 s (beside other work). 2026-11-23, `686e84f` (the walk
//! skipping sixteen bytes at a time with SSSE3): 10,000,128 cases, 0 disagreements, 83 s.

use iri_grammar::combinators::{rule as combinator, Check};
use iri_grammar::grammar::{matches_dyn, Rule};
use iri_grammar::Variant;
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{name_in, Grammars, VariantName};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The grammars of references and the 2001 draft's (a rule set of its own).
const VARIANTS: [VariantName; 4] = VariantName::EVERY;

/// Cases per rule and grammar in an ordinary `cargo test`.
const DEFAULT_CASES_PER_RULE: u64 = 2_000;

/// How many disagreements to print in full.
const SHOW: usize = 30;

/// The names the test asks for: the table's names, with LEIRI's renaming of `IRI`.
///
/// Under `Iri` and `Leiri` the table still holds the RFC 3986 rules that RFC 3987
/// replaces by its own (`hier-part` by `ihier-part`, `pchar` by `ipchar`): they are
/// names of the URI grammar, tested under `Uri`. A replaced rule that the IRI grammar
/// still uses (IPvFuture uses `unreserved`) stays.
fn rule_names(grammars: &Grammars, v: VariantName) -> Vec<String> {
    let replaced = |name: &str| {
        matches!(v, VariantName::Iri | VariantName::Leiri)
            && grammars.rfc3986.get(name).is_some()
            && grammars
                .rfc3987
                .rules
                .iter()
                .any(|r| name_in(&r.name, VariantName::Uri).eq_ignore_ascii_case(name))
    };
    // Names the IRI grammar refers to, from its own rules and the RFC 3986 rules it keeps.
    let mut used: Vec<String> = Vec::new();
    let mut frontier: Vec<&iri_grammar_abnf::RuleDef> = grammars
        .table(v)
        .into_iter()
        .filter(|r| !replaced(&r.name))
        .collect();
    while let Some(r) = frontier.pop() {
        let mut refs = Vec::new();
        r.definition.rule_refs(&mut |n| refs.push(n.to_string()));
        for n in refs {
            if !used.iter().any(|u| u.eq_ignore_ascii_case(&n)) {
                if let Some(def) = grammars
                    .table(v)
                    .into_iter()
                    .find(|d| d.name.eq_ignore_ascii_case(&n))
                {
                    frontier.push(def);
                }
                used.push(n);
            }
        }
    }
    grammars
        .table(v)
        .iter()
        .filter(|r| !replaced(&r.name) || used.iter().any(|u| u.eq_ignore_ascii_case(&r.name)))
        .map(|r| {
            if v == VariantName::Leiri && r.name.contains("IRI") {
                // IRI, IRI-reference, absolute-IRI → LEIRI, LEIRI-reference, absolute-LEIRI.
                r.name.replacen("IRI", "LEIRI", 1)
            } else {
                r.name.clone()
            }
        })
        .collect()
}

/// splitmix64: the test's own choices (which other rule, which kind of case).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A fixed seed per grammar and rule (FNV-1a of both names), mixed with the base seed.
fn seed_for(base: u64, v: VariantName, name: &str) -> u64 {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for b in v.as_str().bytes().chain([0]).chain(name.bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01B3);
    }
    h ^ base
}

fn env_u64(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    let value = value.trim().replace('_', "");
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name} must be a whole number, not {value:?}")),
    )
}

#[test]
fn every_rule_of_every_grammar_is_served_by_name() {
    let grammars = Grammars::builtin();
    let mut problems = Vec::new();
    for v in VARIANTS {
        let oracle = Oracle::new(&grammars, v);
        for name in rule_names(&grammars, v) {
            match Rule::named(v, &name) {
                None => problems.push(format!("{v:?}: Rule::named({name:?}) is None")),
                Some(rule) => match rule.name_in(v) {
                    Some(n) if n.eq_ignore_ascii_case(&name) => {}
                    other => problems.push(format!(
                        "{v:?}: Rule::named({name:?}) gives a rule whose name_in is {other:?}"
                    )),
                },
            }
        }
        // And the other way: every combinator of the grammar has ABNF the oracle knows,
        // so none escapes the differential test.
        for &rule in Rule::ALL {
            if let Some(n) = rule.name_in(v) {
                if oracle.rule(n).is_none() {
                    problems.push(format!(
                        "{v:?}: a rule is named {n:?}, which the grammar's table lacks"
                    ));
                }
                let back = Rule::named(v, n).and_then(|r| r.name_in(v));
                if back != Some(n) {
                    problems.push(format!(
                        "{v:?}: a rule is named {n:?}, but Rule::named({n:?}) is named {back:?}"
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} naming problems:\n{}",
        problems.len(),
        problems.join("\n")
    );
}

/// One disagreement between the oracle and an engine.
struct Disagreement {
    variant: VariantName,
    rule: String,
    input: String,
    oracle: bool,
    /// `None`: the combinator panicked.
    combinators: Option<bool>,
    /// What `is_match` says: the compiled grammar (the automaton) where the rule is
    /// compiled, the combinators otherwise. `None`: it panicked.
    compiled: Option<bool>,
}

/// The combinators' verdict (in `Check` mode), whatever `is_match` uses.
fn combinators_match(v: VariantName, rule: Rule, input: &str) -> bool {
    fn run<V: Variant>(rule: Rule, input: &str) -> bool {
        matches!(combinator::<V, Check>(rule)(input), Ok(("", ())))
    }
    iri_grammar::with_variant!(v, V => run::<V>(rule, input))
}

/// Disagreements per "grammar rule", and the first few of each.
type Found = (Vec<(String, usize)>, Vec<Disagreement>);

#[test]
fn combinators_agree_with_the_oracle() {
    let started = Instant::now();
    let grammars = Grammars::builtin();
    let oracles: Vec<Oracle<'_>> = VARIANTS
        .iter()
        .map(|&v| Oracle::new(&grammars, v))
        .collect();

    // The jobs: every (grammar, rule) the combinators serve (the naming test above
    // fails for those they do not).
    let mut jobs: Vec<(usize, String, Rule)> = Vec::new();
    let mut all_names: Vec<Vec<String>> = Vec::new();
    for (vi, &v) in VARIANTS.iter().enumerate() {
        let names = rule_names(&grammars, v);
        for name in &names {
            if let Some(rule) = Rule::named(v, name) {
                jobs.push((vi, name.clone(), rule));
            }
        }
        all_names.push(names);
    }
    assert!(!jobs.is_empty(), "no rule is served by the combinators");

    let per_rule = match env_u64("IRI_DIFFERENTIAL_CASES") {
        Some(total) => total
            .div_ceil(jobs.len() as u64)
            .max(DEFAULT_CASES_PER_RULE),
        None => DEFAULT_CASES_PER_RULE,
    };
    let base_seed = env_u64("IRI_DIFFERENTIAL_SEED").unwrap_or(0x1A1_3986_3987);

    let next_job = AtomicUsize::new(0);
    let judged = AtomicUsize::new(0);
    let accepted = AtomicUsize::new(0);
    // Rules whose cases were all accepted or all rejected: the test would be weak there.
    let one_sided: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let found: Mutex<Found> = Mutex::new((Vec::new(), Vec::new()));
    let threads = std::thread::available_parallelism()
        .map_or(2, |n| n.get())
        .min(jobs.len());

    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let j = next_job.fetch_add(1, Ordering::Relaxed);
                let Some((vi, name, rule)) = jobs.get(j) else {
                    break;
                };
                let v = VARIANTS[*vi];
                let oracle = &oracles[*vi];
                let others = &all_names[*vi];
                let seed = seed_for(base_seed, v, name);
                let mut gen = Generator::new(&grammars, v, seed);
                let mut choices = seed;
                let mut local = Vec::new();
                let mut local_count = 0usize;
                let mut local_accepted = 0u64;
                for i in 0..per_rule {
                    let input = match i % 10 {
                        // A string of the rule and, every tenth case, two in a row.
                        8 => {
                            let a = gen.generate(name).expect("rule known");
                            a + &gen.generate(name).expect("rule known")
                        }
                        k if k % 2 == 0 => gen.generate(name).expect("rule known"),
                        // A string of another rule of the grammar, as is or mutated.
                        9 => {
                            let other =
                                &others[(splitmix(&mut choices) % others.len() as u64) as usize];
                            let s = gen.generate(other).expect("rule known");
                            if splitmix(&mut choices) % 2 == 0 {
                                s
                            } else {
                                gen.mutate(&s)
                            }
                        }
                        // A near miss.
                        _ => {
                            let s = gen.generate(name).expect("rule known");
                            gen.mutate(&s)
                        }
                    };
                    let expected = oracle
                        .matches(name, &input)
                        .expect("rule known to the oracle");
                    local_accepted += u64::from(expected);
                    let got =
                        catch_unwind(AssertUnwindSafe(|| combinators_match(v, *rule, &input))).ok();
                    let compiled =
                        catch_unwind(AssertUnwindSafe(|| matches_dyn(v, *rule, &input))).ok();
                    if got != Some(expected) || compiled != Some(expected) {
                        local_count += 1;
                        if local.len() < SHOW {
                            local.push(Disagreement {
                                variant: v,
                                rule: name.clone(),
                                input,
                                oracle: expected,
                                combinators: got,
                                compiled,
                            });
                        }
                    }
                }
                judged.fetch_add(per_rule as usize, Ordering::Relaxed);
                accepted.fetch_add(local_accepted as usize, Ordering::Relaxed);
                if local_accepted == 0 || local_accepted == per_rule {
                    let mut o = one_sided.lock().unwrap_or_else(|e| e.into_inner());
                    o.push(format!("{v:?} {name}"));
                }
                if local_count > 0 {
                    let mut f = found.lock().unwrap_or_else(|e| e.into_inner());
                    f.0.push((format!("{v:?} {name}"), local_count));
                    f.1.extend(local);
                }
            });
        }
    });

    let judged = judged.into_inner();
    let accepted = accepted.into_inner();
    let elapsed = started.elapsed();
    let (mut by_rule, mut shown) = found.into_inner().unwrap_or_else(|e| e.into_inner());
    println!(
        "differential: judged {judged} cases ({per_rule} per rule, {} rules over {} grammars; \
         {accepted} matching, {} not) in {:.1} s on {threads} threads",
        jobs.len(),
        VARIANTS.len(),
        judged - accepted,
        elapsed.as_secs_f64()
    );
    let one_sided = one_sided.into_inner().unwrap_or_else(|e| e.into_inner());
    if by_rule.is_empty() {
        assert!(
            one_sided.is_empty(),
            "the cases of these rules were all matching or all not: {one_sided:?}"
        );
        return;
    }
    by_rule.sort();
    let count: usize = by_rule.iter().map(|(_, n)| n).sum();
    // Deterministic report order: by grammar, rule, then input length.
    shown.sort_by(|a, b| {
        (a.variant.as_str(), &a.rule, a.input.len(), &a.input).cmp(&(
            b.variant.as_str(),
            &b.rule,
            b.input.len(),
            &b.input,
        ))
    });
    // Show a spread over rules rather than 30 cases of the first one.
    let mut report = Vec::new();
    let mut round = 0;
    while report.len() < SHOW && report.len() < shown.len() {
        for (key, _) in &by_rule {
            if let Some(d) = shown
                .iter()
                .filter(|d| format!("{:?} {}", d.variant, d.rule) == *key)
                .nth(round)
            {
                report.push(d);
                if report.len() == SHOW {
                    break;
                }
            }
        }
        round += 1;
    }
    let mut text = String::new();
    for d in report {
        let verdict = |v: Option<bool>| v.map_or("panicked".to_string(), |b| b.to_string());
        text.push_str(&format!(
            "  {:?} {}: input {:?}: oracle {}, combinators {}, is_match {}\n",
            d.variant,
            d.rule,
            d.input,
            d.oracle,
            verdict(d.combinators),
            verdict(d.compiled)
        ));
    }
    let rules: Vec<String> = by_rule.iter().map(|(k, n)| format!("{k}: {n}")).collect();
    panic!(
        "{count} of {judged} cases disagree, in {} rules ({}); the first ones:\n{text}",
        rules.len(),
        rules.join(", ")
    );
}
