//! The planted-deviation benchmark (issue 47): an exact validator, the ABNF oracle
//! itself, with one rule of the grammar changed at a time — a character class, a
//! repetition, an alternative — and, for components, the library's parse with one
//! component given wrong. Each deviation is run through `iri conform` at the default
//! budget in several seeds, and a table says, per deviation: in how many seeds it was
//! found, how many groups it made, the rule the largest group names, and the shortest
//! minimal example.
//!
//! The target: every deviation found in every seed, in exactly one group, named at
//! the rule a developer would change (or its parent, one step up), with a minimal
//! example. The test fails when a deviation misses it, naming which and why.
//!
//! It runs in release (`.ci/run`: `cargo test --release -p iri-grammar-conform
//! --test it -- --ignored deviations`), since the oracle is slow in a debug build;
//! `IRI_CONFORM_SEEDS` sets the number of seeds (default 5) and
//! `IRI_CONFORM_DEVIATIONS` a comma-separated list of names to run.
//! `bench/regenerate.sh` puts its table into BENCHMARKS.md.
//!
//! The adapter is this test binary, started again with `--conform-adapter
//! deviation:NAME` ([`adapter`]).

use iri_grammar::{Component, Reference, Variant, VariantName};
use iri_grammar_abnf::model::builtin::files;
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::Grammar;
use iri_grammar_conform::protocol::{string_literal, COMPONENTS};
use iri_grammar_conform::verdict::Kind;
use iri_grammar_conform::{run, Options, Report};
use std::ffi::OsString;
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

ignored_tests! {
    deviations_are_found_once_and_named_at_their_rule,
}

/// How a deviation is planted.
enum Plant {
    /// Rules of the grammar replaced by these definitions (ABNF, layered over the
    /// document's files, so a rule of the same name is replaced).
    Abnf(&'static str),
    /// The library's parse, with one component given wrong: `(component, what the
    /// program gives for it, from what the library parses)`.
    Component(Component, fn(Option<&str>) -> Option<String>),
}

/// One deviation.
struct Deviation {
    name: &'static str,
    grammar: VariantName,
    plant: Plant,
    /// The kind of disagreement it makes.
    kind: Kind,
    /// The rules a developer would change, or their parent one step up: the group
    /// must name one of them.
    rules: &'static [&'static str],
    /// How many causes it plants, and so groups it must make: 1, but for the two
    /// causes at once, where `rules` are those of the one not to be masked.
    causes: usize,
}

const fn abnf(
    name: &'static str,
    grammar: VariantName,
    text: &'static str,
    kind: Kind,
    rules: &'static [&'static str],
) -> Deviation {
    Deviation {
        name,
        grammar,
        plant: Plant::Abnf(text),
        kind,
        rules,
        causes: 1,
    }
}

use Kind::{AcceptsInvalid as Accepts, Component as Comp, RejectsValid as Rejects};
use VariantName::{Iri, Uri};

/// The deviations: 24 of RFC 3986's rules, 5 of RFC 3987's, 3 of components.
const DEVIATIONS: &[Deviation] = &[
    // Repetitions.
    abnf("port at most 5 digits", Uri, "port = *5DIGIT", Rejects, &["port", "authority"]),
    abnf("port not empty", Uri, "port = 1*DIGIT", Rejects, &["port", "authority"]),
    abnf("h16 of 5 digits", Uri, "h16 = 1*5HEXDIG", Accepts, &["h16", "IPv6address", "ls32"]),
    abnf(
        "IPv6 *5 for *6 before the last ::",
        Uri,
        "IPv6address = 6( h16 \":\" ) ls32 / \"::\" 5( h16 \":\" ) ls32 \
         / [ h16 ] \"::\" 4( h16 \":\" ) ls32 / [ *1( h16 \":\" ) h16 ] \"::\" 3( h16 \":\" ) ls32 \
         / [ *2( h16 \":\" ) h16 ] \"::\" 2( h16 \":\" ) ls32 / [ *3( h16 \":\" ) h16 ] \"::\" h16 \":\" ls32 \
         / [ *4( h16 \":\" ) h16 ] \"::\" ls32 / [ *5( h16 \":\" ) h16 ] \"::\" h16 \
         / [ *5( h16 \":\" ) h16 ] \"::\"",
        Rejects,
        &["IPv6address", "IP-literal"],
    ),
    abnf("reg-name not empty", Uri, "reg-name = 1*( unreserved / pct-encoded / sub-delims )", Rejects, &["reg-name", "host"]),
    abnf("IPvFuture without its dot", Uri, "IPvFuture = \"v\" 1*HEXDIG [ \".\" ] 1*( unreserved / sub-delims / \":\" )", Accepts, &["IPvFuture", "IP-literal"]),
    // Character classes.
    abnf("dec-octet up to 256", Uri, "dec-octet = DIGIT / %x31-39 DIGIT / \"1\" 2DIGIT / \"2\" %x30-34 DIGIT / \"25\" %x30-36", Accepts, &["dec-octet", "IPv4address"]),
    abnf("scheme takes _", Uri, "scheme = ALPHA *( ALPHA / DIGIT / \"+\" / \"-\" / \".\" / \"_\" )", Accepts, &["scheme", "URI"]),
    abnf("scheme lower case only", Uri, "scheme = %x61-7A *( %x61-7A / DIGIT / \"+\" / \"-\" / \".\" )", Rejects, &["scheme", "URI"]),
    abnf("userinfo without :", Uri, "userinfo = *( unreserved / pct-encoded / sub-delims )", Rejects, &["userinfo", "authority"]),
    abnf("reg-name without ~", Uri, "reg-name = *( ALPHA / DIGIT / \"-\" / \".\" / \"_\" / pct-encoded / sub-delims )", Rejects, &["reg-name", "host"]),
    abnf("query without ?", Uri, "query = *( pchar / \"/\" )", Rejects, &["query", "URI-reference", "relative-ref", "URI"]),
    // A `#` in a segment or a query begins the fragment: a program whose `pchar`
    // takes `#` takes the same strings as one whose `fragment` does (the part before
    // the first `#` is a reference without it, the part after one takes what
    // `pchar`, `/` and `?` take, and `#`), and no input tells them apart; one whose
    // `pct-encoded` takes it does not (`//#@[::]`).
    abnf("fragment takes #", Uri, "fragment = *( pchar / \"/\" / \"?\" / \"#\" )", Accepts, &["fragment", "relative-ref", "URI", "pchar"]),
    abnf("query takes a space", Uri, "query = *( pchar / \"/\" / \"?\" / \" \" )", Accepts, &["query", "relative-ref", "URI"]),
    abnf("pct-encoded upper case only", Uri, "pct-encoded = \"%\" ( DIGIT / %x41-46 ) ( DIGIT / %x41-46 )", Rejects, &["pct-encoded"]),
    abnf("segment-nz-nc takes :", Uri, "segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / \"@\" / \":\" )", Accepts, &["segment-nz-nc", "path-noscheme"]),
    abnf("sub-delims without '", Uri, "sub-delims = \"!\" / \"$\" / \"&\" / \"(\" / \")\" / \"*\" / \"+\" / \",\" / \";\" / \"=\"", Rejects, &["sub-delims", "pchar", "segment-nz-nc", "reg-name"]),
    abnf("sub-delims take \"", Uri, "sub-delims = \"!\" / \"$\" / \"&\" / \"'\" / \"(\" / \")\" / \"*\" / \"+\" / \",\" / \";\" / \"=\" / %x22", Accepts, &["sub-delims", "pchar", "segment-nz-nc", "reg-name"]),
    abnf("unreserved without ~", Uri, "unreserved = ALPHA / DIGIT / \"-\" / \".\" / \"_\"", Rejects, &["unreserved", "pchar", "segment-nz-nc", "reg-name"]),
    abnf("pchar takes [ and ]", Uri, "pchar = unreserved / pct-encoded / sub-delims / \":\" / \"@\" / \"[\" / \"]\"", Accepts, &["pchar", "segment", "segment-nz", "segment-nz-nc"]),
    abnf("IPvFuture decimal", Uri, "IPvFuture = \"v\" 1*DIGIT \".\" 1*( unreserved / sub-delims / \":\" )", Rejects, &["IPvFuture", "IP-literal"]),
    // Alternatives.
    abnf("dec-octet with a leading zero", Uri, "dec-octet = DIGIT / %x31-39 DIGIT / \"1\" 2DIGIT / \"2\" %x30-34 DIGIT / \"25\" %x30-35 / \"0\" 1*2DIGIT", Accepts, &["dec-octet", "IPv4address"]),
    abnf("pct-encoded takes a lone %", Uri, "pct-encoded = \"%\" HEXDIG HEXDIG / \"%\"", Accepts, &["pct-encoded"]),
    abnf("host takes a bare IPv6 address", Uri, "host = IP-literal / IPv4address / reg-name / IPv6address", Accepts, &["host", "authority"]),
    abnf("ls32 without IPv4", Uri, "ls32 = ( h16 \":\" h16 )", Rejects, &["ls32", "IPv6address"]),
    abnf("path-absolute may start with //", Uri, "path-absolute = \"/\" [ segment *( \"/\" segment ) ]", Accepts, &["path-absolute", "relative-part", "hier-part"]),
    abnf("an optional first slash", Uri, "relative-part = \"/\" [ \"/\" ] authority path-abempty / path-absolute / path-noscheme / path-empty", Accepts, &["relative-part", "relative-ref"]),
    // Two causes at once, as in ajv-formats' `uri-reference` (issue 47, defect 6):
    // each must have its own group, the optional slash's not masking the other.
    Deviation {
        causes: 2,
        ..abnf(
        "two causes: a leading zero and an optional first slash",
        Uri,
        "dec-octet = DIGIT / %x31-39 DIGIT / \"1\" 2DIGIT / \"2\" %x30-34 DIGIT / \"25\" %x30-35 / \"0\" 1*2DIGIT\n\
         relative-part = \"/\" [ \"/\" ] authority path-abempty / path-absolute / path-noscheme / path-empty",
        Accepts,
        &["dec-octet", "IPv4address"],
    )
    },
    // RFC 3987's ranges.
    abnf("ucschar's last range one late", Iri, "ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD / %xD0000-DFFFD / %xE1001-EFFFD", Rejects, &["ucschar", "iunreserved"]),
    abnf("ucschar's first range one early", Iri, "ucschar = %xA0-D7FE / %xF900-FDCF / %xFDF0-FFEF / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD / %xD0000-DFFFD / %xE1000-EFFFD", Rejects, &["ucschar", "iunreserved"]),
    abnf("ucschar up to U+FFFD", Iri, "ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFFD / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD / %xD0000-DFFFD / %xE1000-EFFFD", Accepts, &["ucschar", "iunreserved"]),
    // `ucschar` occurs only in `iunreserved`: a program taking iprivate in either
    // takes the same strings, and no input tells them apart.
    abnf("iprivate in the path", Iri, "iunreserved = ALPHA / DIGIT / \"-\" / \".\" / \"_\" / \"~\" / ucschar / iprivate", Accepts, &["iunreserved", "ipchar", "ucschar"]),
    abnf("iprivate's first range one short", Iri, "iprivate = %xE000-F8FE / %xF0000-FFFFD / %x100000-10FFFD", Rejects, &["iprivate", "iquery"]),
    // Components.
    Deviation {
        name: "an empty port given as absent",
        grammar: Uri,
        plant: Plant::Component(Component::Port, |p| p.filter(|p| !p.is_empty()).map(str::to_string)),
        kind: Comp,
        rules: &["port"],
        causes: 1,
    },
    Deviation {
        name: "the query given with its ?",
        grammar: Uri,
        plant: Plant::Component(Component::Query, |q| q.map(|q| format!("?{q}"))),
        kind: Comp,
        rules: &["query"],
        causes: 1,
    },
    Deviation {
        name: "an IP literal's host without brackets",
        grammar: Uri,
        plant: Plant::Component(Component::Host, |h| {
            h.map(|h| h.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(h).to_string())
        }),
        kind: Comp,
        rules: &["host"],
        causes: 1,
    },
];

/// Answers for the rule and grammar of the protocol's variables, with deviation
/// `name` planted.
pub fn adapter(name: &str) {
    let d = DEVIATIONS
        .iter()
        .find(|d| d.name == name)
        .unwrap_or_else(|| panic!("no deviation {name:?}"));
    let rule = std::env::var("IRI_CONFORM_RULE").unwrap();
    let grammar = planted_grammar(d);
    let oracle = Oracle::of(&grammar);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let input: String = serde_json::from_str(&line.unwrap()).unwrap();
        let valid = oracle.matches(&rule, &input).unwrap_or(false);
        let answer = match &d.plant {
            Plant::Component(part, wrong) if valid => {
                let mut answer = serde_json::Map::new();
                answer.insert("valid".into(), true.into());
                let spans =
                    iri_grammar::with_variant!(d.grammar, V => spans::<V>(&input), Iri2001 => None);
                for (p, span) in spans.unwrap_or_default() {
                    let text = span.map(|r| &input[r]);
                    let given = if p == *part {
                        wrong(text)
                    } else {
                        text.map(str::to_string)
                    };
                    answer.insert(
                        p.as_str().into(),
                        given.map_or(serde_json::Value::Null, Into::into),
                    );
                }
                serde_json::Value::Object(answer).to_string()
            }
            _ => if valid { "valid" } else { "invalid" }.to_string(),
        };
        writeln!(out, "{answer}").unwrap();
        out.flush().unwrap();
    }
}

/// The document's grammar with the deviation's rules layered over it.
fn planted_grammar(d: &Deviation) -> Grammar {
    let mut layers = vec![("core.abnf", files::CORE), ("rfc3986.abnf", files::RFC3986)];
    if d.grammar == Iri {
        layers.push(("rfc3987.abnf", files::RFC3987));
    }
    let text = match d.plant {
        Plant::Abnf(text) => format!("{text}\n"),
        Plant::Component(..) => String::new(),
    };
    if !text.is_empty() {
        layers.push(("planted.abnf", &text));
    }
    Grammar::from_abnf(&layers).unwrap_or_else(|e| panic!("{}: {e}", d.name))
}

type Spans = Vec<(Component, Option<std::ops::Range<usize>>)>;

fn spans<V: Variant>(s: &str) -> Option<Spans> {
    let r = Reference::<V>::parse(s).ok()?;
    Some(COMPONENTS.iter().map(|&p| (p, r.span(p))).collect())
}

/// What one run of one deviation gave.
struct Outcome {
    seed: u64,
    found: bool,
    groups: usize,
    /// The rule of the group with the most disagreements of the deviation's kind.
    rule: Option<String>,
    /// The shortest example of that group.
    example: Option<String>,
    /// Whether the groups are all of the deviation's kind and the largest names one
    /// of its rules.
    named: bool,
    /// Each group: kind, rule, count and shortest example, for the failure message.
    all: Vec<String>,
}

fn outcome(d: &Deviation, seed: u64, r: &Report) -> Outcome {
    // The group of the cause: the largest of its kind, or with two causes, the
    // largest naming one of the rules of the one not to be masked.
    let of_kind = r.groups.iter().filter(|g| g.kind == d.kind);
    let largest = if d.causes == 1 {
        of_kind.max_by_key(|g| g.count)
    } else {
        of_kind
            .filter(|g| d.rules.contains(&g.rule.as_str()))
            .max_by_key(|g| g.count)
    };
    Outcome {
        seed,
        found: largest.is_some(),
        groups: r.groups.len(),
        rule: largest.map(|g| g.rule.clone()),
        example: largest
            .and_then(|g| g.examples.first())
            .map(|e| e.input.clone()),
        named: largest.is_some_and(|g| d.rules.contains(&g.rule.as_str())),
        all: r
            .groups
            .iter()
            .map(|g| {
                let e = g.examples.first().map_or("", |e| e.input.as_str());
                format!("{} in {} ({}, {e:?})", g.kind.as_str(), g.rule, g.count)
            })
            .collect(),
    }
}

fn deviations_are_found_once_and_named_at_their_rule() {
    let seeds: u64 = std::env::var("IRI_CONFORM_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let only: Vec<String> = std::env::var("IRI_CONFORM_DEVIATIONS")
        .map(|s| s.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let chosen: Vec<&Deviation> = DEVIATIONS
        .iter()
        .filter(|d| only.is_empty() || only.iter().any(|o| d.name.contains(o.as_str())))
        .collect();
    let jobs: Vec<(usize, u64)> = (0..chosen.len())
        .flat_map(|k| (0..seeds).map(move |s| (k, s)))
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Vec<Outcome>>> =
        Mutex::new((0..chosen.len()).map(|_| Vec::new()).collect());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                while let Some(&(k, seed)) = jobs.get(next.fetch_add(1, Ordering::SeqCst)) {
                    let d = chosen[k];
                    let options = Options {
                        grammar: d.grammar,
                        seed,
                        ..Options::default()
                    };
                    let report = run(&options, &adapter_command(d.name)).unwrap();
                    let o = outcome(d, seed, &report);
                    results.lock().unwrap()[k].push(o);
                }
            });
        }
    });
    let results = results.into_inner().unwrap();
    let (table, failures) = table(&chosen, &results, seeds);
    println!("{table}");
    // Each run that misses, with all its groups: what to look at.
    for f in &failures {
        println!("miss: {f}");
    }
    if let Ok(path) = std::env::var("IRI_CONFORM_TABLE") {
        std::fs::write(path, &table).unwrap();
    }
    assert!(
        failures.is_empty(),
        "deviations that miss the target:\n{}",
        failures.join("\n")
    );
}

/// The table as BENCHMARKS.md shows it, and the deviations that miss the target.
fn table(chosen: &[&Deviation], results: &[Vec<Outcome>], seeds: u64) -> (String, Vec<String>) {
    let mut t = String::from(
        "| deviation | grammar | kind | found | groups | rule named | shortest example |\n\
         |---|---|---|--:|--:|---|---|\n",
    );
    let mut failures = Vec::new();
    for (d, runs) in chosen.iter().zip(results) {
        let found = runs.iter().filter(|o| o.found).count();
        let groups: Vec<usize> = runs.iter().map(|o| o.groups).collect();
        let mut named: Vec<String> = runs.iter().filter_map(|o| o.rule.clone()).collect();
        named.sort();
        named.dedup();
        let example = runs
            .iter()
            .filter_map(|o| o.example.as_deref())
            .min_by_key(|e| (e.chars().count(), e.to_string()));
        let (gmin, gmax) = (
            groups.iter().min().unwrap_or(&0),
            groups.iter().max().unwrap_or(&0),
        );
        t.push_str(&format!(
            "| {} | {} | {} | {found}/{seeds} | {} | {} | {} |\n",
            d.name.replace('|', "\\|"),
            d.grammar.as_str(),
            d.kind.as_str(),
            if gmin == gmax {
                gmin.to_string()
            } else {
                format!("{gmin}–{gmax}")
            },
            named
                .iter()
                .map(|r| format!("`{r}`"))
                .collect::<Vec<_>>()
                .join(", "),
            example.map_or_else(String::new, |e| format!(
                "`{}` ({})",
                shown(e).replace('|', "\\|"),
                e.chars().count()
            )),
        ));
        for o in runs {
            let why = if !o.found {
                Some("not found".to_string())
            } else if d.causes == 1 && o.groups != 1 {
                Some(format!("{} groups", o.groups))
            } else if !o.named {
                Some(format!("named {:?}, not one of {:?}", o.rule, d.rules))
            } else {
                None
            };
            if let Some(why) = why {
                failures.push(format!(
                    "{} (seed {}): {why}: {}",
                    d.name,
                    o.seed,
                    o.all.join("; ")
                ));
            }
        }
    }
    (t, failures)
}

/// An example as the command line shows it: a JSON string literal with controls and
/// characters beyond ASCII other than letters escaped (`"\ue000"`, not an invisible
/// private-use character).
fn shown(s: &str) -> String {
    string_literal(s, |c| {
        c.is_ascii_graphic() || c == ' ' || (!c.is_ascii() && c.is_alphabetic())
    })
}

/// This test binary, started as the adapter of deviation `name`.
fn adapter_command(name: &str) -> Vec<OsString> {
    vec![
        std::env::current_exe().unwrap().into_os_string(),
        "--conform-adapter".into(),
        format!("deviation:{name}").into(),
    ]
}
