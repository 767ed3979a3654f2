//! The code generator for any grammar: nom combinators for a [`Grammar`] of one's
//! own, as Rust source that depends on nothing but `nom`, for a `build.rs` to write
//! into `OUT_DIR` (see the crate `examples/abnf-build`,
//! which generates parsers for RFC 3339's date-time and RFC 6874's zone identifiers).
//!
//! ```
//! use iri_grammar_abnf::{codegen::standalone::{generate, Options}, Grammar};
//! let g = Grammar::from_abnf(&[("v.abnf", "version = 1*DIGIT \".\" 1*DIGIT\n")]).unwrap();
//! let code = generate(&g, &Options::new("version")).unwrap();
//! assert!(code.contains("pub mod version {"));
//! assert!(code.contains("pub fn version(i: &str) -> IResult<&str, &str>"));
//! ```
//!
//! Each rule becomes `pub fn rule(i: &str) -> nom::IResult<&str, &str>`: it
//! recognizes a match of the rule at the start of `i` and returns the rest and the
//! matched text, so it composes with nom's own parsers; `rule_full(i) -> bool` says
//! whether all of `i` matches. The code is the same translation as the engine's own
//! combinators (`codegen`, README "ABNF is not PEG"): ordered alternatives and greedy
//! repetitions, made exact by lookahead on the FOLLOW sets (`Ahead`), two characters
//! deep where one cannot tell an alternative from a longer one (`lookahead2`).
//!
//! # What it refuses, and why
//!
//! The oracle serves every grammar; this generator only those it can make exact, and
//! it says which problem it found ([`GenerateError`]):
//!
//! - **left recursion** (`expr = expr "+" term / term`): a rule that can reach itself
//!   without reading a character; the generated function would call itself forever.
//!   (Right recursion, `list = item [ "," list ]`, is fine.)
//! - **ambiguity one or two characters of lookahead cannot settle**
//!   (`r = a "x" "x"` with `a = "p" / "p" "x" "x" "y"`: after `p`, only the fourth
//!   character says which alternative of `a` was meant). The generator
//!   does not prove exactness; it *checks* it before writing: it runs the
//!   translation (an interpreter of exactly the code it writes) against the oracle
//!   on strings drawn from every rule and near misses of them ([`Options::cases`]),
//!   and refuses with the first input where they disagree.
//! - rules that refer to rules no file defines.

use super::lookahead2::Look2;
use super::{enum_name, fn_name, Analysis, RuleSet, SetRule};
use crate::oracle::Oracle;
use crate::strings::generate::Generator;
use crate::{Element, Grammar, RuleList};
use iri_grammar_contract::Set;
use std::collections::HashMap;
use std::fmt::{self, Write as _};

/// What to generate.
#[derive(Debug, Clone)]
pub struct Options {
    /// The module the rules are written in (`pub mod NAME { ... }`).
    pub module: String,
    /// How many strings per rule (half drawn from it, half near misses) the
    /// translation is checked on against the oracle before it is written; 0 skips
    /// the check.
    pub cases: usize,
    /// The seed of those strings.
    pub seed: u64,
    /// The most steps of the oracle that check may take ([`CHECK_STEPS`] unless
    /// the caller says otherwise): a step is one rule at one position of a string,
    /// and a string of `n` characters counts `(n + 1)` times the grammar's rules,
    /// as many as the oracle may evaluate on it, and drawing the strings counts the
    /// string generator's steps ([`Generator::steps_taken`]). Past it, the generator refuses
    /// ([`GenerateError::Budget`]) before it runs the oracle at all.
    pub steps: u64,
}

impl Options {
    /// A module named `module`, checked on 400 strings per rule within
    /// [`CHECK_STEPS`].
    pub fn new(module: &str) -> Options {
        Options {
            module: module.to_string(),
            cases: 400,
            seed: 6874,
            steps: CHECK_STEPS,
        }
    }
}

/// The default budget of the check against the oracle ([`Options::steps`]). The
/// check of RFC 3986 and RFC 3987 read as a user's grammar counts between 10 and
/// 20 million, RFC 3986 alone or the 2001 draft's grammar under 10 million; a
/// grammar is untrusted input, and a chain of 2,000 rules `rK = ["a"] rK+1`
/// would count tens of billions (the oracle evaluates each of the rules below on
/// each string of each rule).
pub const CHECK_STEPS: u64 = 1 << 27;

/// Why the generator refuses a grammar (the oracle still serves it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GenerateError {
    /// A rule refers to a rule no file defines.
    Undefined {
        /// The rule whose definition has the reference.
        rule: String,
        /// The name no file defines.
        name: String,
    },
    /// Rules that can reach themselves without reading a character.
    LeftRecursion {
        /// The cycle, first rule repeated at the end.
        cycle: Vec<String>,
    },
    /// The ordered translation disagrees with the ABNF on an input: a choice needs
    /// more lookahead than the generator has.
    NotExact {
        /// The rule asked for.
        rule: String,
        /// The input.
        input: String,
        /// Whether the ABNF (the oracle) matches it; the translation says the opposite.
        abnf: bool,
    },
    /// Two rule names make the same Rust name (`a-b` and `a_b`).
    NameClash {
        /// The two names.
        names: (String, String),
    },
    /// Checking the translation against the oracle on [`Options::cases`] strings
    /// per rule would take more than [`Options::steps`].
    Budget {
        /// The rule whose strings go past the budget.
        rule: String,
        /// The budget.
        steps: u64,
    },
}

impl fmt::Display for GenerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GenerateError::Undefined { rule, name } => write!(
                f,
                "rule {rule} refers to {name}, which no file (nor RFC 5234's core rules) defines"
            ),
            GenerateError::LeftRecursion { cycle } => write!(
                f,
                "left recursion: {} (each can start with the next without reading a \
                 character, so the generated parser would call itself forever); rewrite \
                 it as a repetition, or let the oracle serve the grammar",
                cycle.join(" → ")
            ),
            GenerateError::NotExact { rule, input, abnf } => write!(
                f,
                "not exact: on {input:?} the ABNF of {rule} says {}, the generated parser \
                 would say {}: a choice in it (or in a rule it uses) is ambiguous in a way \
                 one or two characters of lookahead cannot settle; the oracle serves the \
                 grammar",
                if *abnf { "match" } else { "no match" },
                if *abnf { "no match" } else { "match" },
            ),
            GenerateError::Budget { rule, steps } => write!(
                f,
                "checking the parsers against the ABNF would take more than {steps} steps \
                 of the oracle (a rule at a position of a string is a step; the strings \
                 drawn from {rule} go past it): the grammar is too large or its strings \
                 too long for the check within that budget"
            ),
            GenerateError::NameClash { names } => write!(
                f,
                "rules {} and {} would have the same Rust name, {}",
                names.0,
                names.1,
                fn_name(&names.0)
            ),
        }
    }
}

impl std::error::Error for GenerateError {}

/// The translation, as data: what the generated code does, interpreted to check it
/// and printed to write it.
#[derive(Debug, Clone)]
enum Peg {
    /// A quoted string, ASCII letters in either case.
    Lit(String),
    /// A case-sensitive string (`%s"..."`, `%x41.42`).
    LitCs(String),
    /// One character in a code point range.
    Range(u32, u32),
    Cat(Vec<Peg>),
    /// The first alternative that matches.
    Alt(Vec<Peg>),
    /// `min` to `max` matches, greedy; an empty match ends the run.
    Repeat(u32, Option<u32>, Box<Peg>),
    Opt(Box<Peg>),
    /// A match only if what follows it is in the set.
    Ahead(Set, Box<Peg>),
    /// The same, two characters deep.
    Ahead2(Look2, Box<Peg>),
    /// A rule, by index.
    Rule(usize),
    /// Prose: matches nothing.
    Fail,
    Empty,
}

/// Generates the source of a module of nom parsers, one per rule of `grammar`.
///
/// # Errors
/// [`GenerateError`]: an undefined rule, left recursion, a translation that is not
/// exact, two names that clash, a check past its budget.
pub fn generate(grammar: &Grammar, options: &Options) -> Result<String, GenerateError> {
    let set = RuleSet {
        module: None,
        about: "",
        rules: grammar
            .rules()
            .iter()
            .map(|r| SetRule {
                name: &r.name,
                rule: r,
                names: [None, None, None, None],
                variant_defs: None,
                shared: false,
                ident: enum_name(&r.name),
            })
            .collect(),
    };
    let mut rust_names: HashMap<String, &str> = HashMap::new();
    for a in &set.rules {
        if let Some(b) = rust_names.insert(fn_name(a.name), a.name) {
            return Err(GenerateError::NameClash {
                names: (b.to_string(), a.name.to_string()),
            });
        }
    }
    if let Some(name) = grammar.undefined().first() {
        let rule = grammar
            .rules()
            .iter()
            .find(|r| {
                let mut found = false;
                r.definition
                    .rule_refs(&mut |n| found |= n.eq_ignore_ascii_case(name));
                found
            })
            .map_or_else(String::new, |r| r.name.clone());
        return Err(GenerateError::Undefined {
            rule,
            name: name.clone(),
        });
    }
    let no_core = RuleList {
        file: String::new(),
        document: String::new(),
        rules: Vec::new(),
    };
    let a = Analysis::new(&set, &no_core).map_err(|e| GenerateError::Undefined {
        rule: String::new(),
        name: e.0,
    })?;
    if let Some(cycle) = left_recursion(&set, &a) {
        return Err(GenerateError::LeftRecursion { cycle });
    }
    let positions = positions(&set);
    let index = |n: &str| positions.get(&n.to_ascii_lowercase()).copied();
    let pegs: Vec<Peg> = set
        .rules
        .iter()
        .map(|r| {
            let key = r.name.to_ascii_lowercase();
            translate(
                &a,
                &index,
                &r.rule.definition,
                a.follow[&key],
                &a.follow2[&key],
            )
        })
        .collect();
    if options.cases > 0 {
        verify(grammar, &set, &pegs, options)?;
    }
    Ok(print(grammar, &set, &pegs, &options.module))
}

/// Each rule's index by its lower-cased name (the first of a name given twice, as
/// a search from the start finds it).
fn positions(set: &RuleSet<'_>) -> HashMap<String, usize> {
    let mut out = HashMap::new();
    for (k, r) in set.rules.iter().enumerate() {
        out.entry(r.name.to_ascii_lowercase()).or_insert(k);
    }
    out
}

/// The first cycle of rules that can start with one another without reading.
fn left_recursion(set: &RuleSet<'_>, a: &Analysis<'_, '_>) -> Option<Vec<String>> {
    // Rule k → rule j when j can be the first thing k reads.
    fn leftmost(a: &Analysis<'_, '_>, e: &Element, out: &mut Vec<String>) {
        match e {
            Element::Rule(n) => out.push(n.to_ascii_lowercase()),
            Element::Alternation(v) => v.iter().for_each(|x| leftmost(a, x, out)),
            Element::Concatenation(v) => {
                for x in v {
                    leftmost(a, x, out);
                    if !a.nullable_of(x) {
                        break;
                    }
                }
            }
            Element::Repetition { element, max, .. } if *max != Some(0) => {
                leftmost(a, element, out)
            }
            _ => {}
        }
    }
    let n = set.rules.len();
    let positions = positions(set);
    let pos = |name: &str| positions.get(name).copied();
    let edges: Vec<Vec<usize>> = set
        .rules
        .iter()
        .map(|r| {
            let mut names = Vec::new();
            leftmost(a, &r.rule.definition, &mut names);
            names.iter().filter_map(|x| pos(x)).collect()
        })
        .collect();
    // Depth-first search for a back edge; the path on the stack is the cycle.
    fn dfs(
        k: usize,
        edges: &[Vec<usize>],
        state: &mut [u8],
        path: &mut Vec<usize>,
    ) -> Option<Vec<usize>> {
        state[k] = 1;
        path.push(k);
        for &j in &edges[k] {
            if state[j] == 1 {
                let from = path.iter().position(|&p| p == j).unwrap_or(0);
                let mut cycle = path[from..].to_vec();
                cycle.push(j);
                return Some(cycle);
            }
            if state[j] == 0 {
                if let Some(c) = dfs(j, edges, state, path) {
                    return Some(c);
                }
            }
        }
        path.pop();
        state[k] = 2;
        None
    }
    let mut state = vec![0u8; n];
    for k in 0..n {
        if state[k] == 0 {
            if let Some(c) = dfs(k, &edges, &mut state, &mut Vec::new()) {
                return Some(c.iter().map(|&k| set.rules[k].name.to_string()).collect());
            }
        }
    }
    None
}

/// The translation of `e` given what may follow it: the engine's generator's
/// decisions (`Writer::alternation`, `Writer::repetition`), without its speed-ups
/// (`First`, `Scan`), which do not change what matches.
fn translate(
    a: &Analysis<'_, '_>,
    index: &dyn Fn(&str) -> Option<usize>,
    e: &Element,
    follow: Set,
    follow2: &Look2,
) -> Peg {
    match e {
        Element::Rule(n) => index(n).map_or(Peg::Fail, Peg::Rule),
        Element::CharVal {
            text,
            case_sensitive: false,
        } => Peg::Lit(text.clone()),
        Element::CharVal {
            text,
            case_sensitive: true,
        } => Peg::LitCs(text.clone()),
        Element::Sequence(cs) => match cs.iter().map(|&c| char::from_u32(c)).collect() {
            Some(s) => Peg::LitCs(s),
            None => Peg::Fail,
        },
        Element::Range(lo, hi) => Peg::Range(*lo, *hi),
        Element::Prose(_) => Peg::Fail,
        Element::Concatenation(items) => Peg::Cat(
            items
                .iter()
                .enumerate()
                .map(|(k, x)| {
                    let f = a.first_of_seq(&items[k + 1..], follow);
                    let f2 = Look2::after(&a.first2_seq(&items[k + 1..]), follow2);
                    translate(a, index, x, f, &f2)
                })
                .collect(),
        ),
        Element::Alternation(alts) => Peg::Alt(
            alts.iter()
                .enumerate()
                .map(|(k, x)| {
                    let inner = translate(a, index, x, follow, follow2);
                    let later = alts[k + 1..]
                        .iter()
                        .fold(Set::new(), |s, y| s.union(a.first_of(y)));
                    let last = k + 1 == alts.len();
                    if !last && a.prefix_conflict(alts, k, follow) {
                        Peg::Ahead2(follow2.clone(), Box::new(inner))
                    } else if !last && (a.first_of(x).intersects(later) || a.nullable_of(x)) {
                        Peg::Ahead(follow, Box::new(inner))
                    } else {
                        inner
                    }
                })
                .collect(),
        ),
        Element::Repetition {
            min,
            max,
            element,
            optional_syntax,
        } => {
            if *max == Some(0) {
                return Peg::Empty;
            }
            let inner_follow = a.after_iteration(element, *max, follow);
            let inner_follow2 = a.after_iteration2(element, *max, follow2);
            let inner = translate(a, index, element, inner_follow, &inner_follow2);
            let needs_guard = Some(*min) != *max
                && (a.first_of(element).intersects(follow) || a.nullable_of(element));
            let inner = if needs_guard {
                Peg::Ahead(inner_follow, Box::new(inner))
            } else {
                inner
            };
            if *optional_syntax {
                Peg::Opt(Box::new(inner))
            } else {
                Peg::Repeat(*min, *max, Box::new(inner))
            }
        }
    }
}

/// What the generated code does with `i`: the rest after a match, or `None`.
fn run<'i>(pegs: &[Peg], p: &Peg, i: &'i str) -> Option<&'i str> {
    match p {
        Peg::Lit(s) => {
            let have = i.as_bytes().get(..s.len())?;
            have.eq_ignore_ascii_case(s.as_bytes())
                .then(|| &i[s.len()..])
        }
        Peg::LitCs(s) => i.strip_prefix(s.as_str()),
        Peg::Range(lo, hi) => {
            let c = i.chars().next()?;
            (*lo..=*hi)
                .contains(&(c as u32))
                .then(|| &i[c.len_utf8()..])
        }
        Peg::Cat(items) => items.iter().try_fold(i, |i, x| run(pegs, x, i)),
        Peg::Alt(alts) => alts.iter().find_map(|x| run(pegs, x, i)),
        Peg::Repeat(min, max, x) => {
            let (mut rest, mut n) = (i, 0u32);
            while max.is_none_or(|m| n < m) {
                match run(pegs, x, rest) {
                    Some(r) if r.len() == rest.len() => return Some(rest),
                    Some(r) => {
                        rest = r;
                        n += 1;
                    }
                    None => break,
                }
            }
            (n >= *min).then_some(rest)
        }
        Peg::Opt(x) => Some(run(pegs, x, i).unwrap_or(i)),
        Peg::Ahead(s, x) => run(pegs, x, i).filter(|r| s.admits(r)),
        Peg::Ahead2(s, x) => run(pegs, x, i).filter(|r| admits2(s, r)),
        Peg::Rule(k) => run(pegs, &pegs[*k], i),
        Peg::Fail => None,
        Peg::Empty => Some(i),
    }
}

/// Whether the input starts with a pair of the set (or ends where the set allows).
fn admits2(s: &Look2, i: &str) -> bool {
    let Some(c) = i.chars().next() else {
        return s.end;
    };
    let rest = &i[c.len_utf8()..];
    s.grouped()
        .iter()
        .any(|(a, b)| a.admits(i) && b.admits(rest))
}

/// Runs the translation against the oracle on strings of every rule and near misses.
fn verify(
    grammar: &Grammar,
    set: &RuleSet<'_>,
    pegs: &[Peg],
    options: &Options,
) -> Result<(), GenerateError> {
    let oracle = Oracle::of(grammar);
    let mut gen = Generator::of(grammar, options.seed);
    // The cost first, on the same strings (a copy of the generator draws them),
    // so that a grammar past the budget is refused before the oracle runs. The
    // oracle evaluates at most every rule at every position of a string; drawing
    // the strings counts its own steps.
    let rules = set.rules.len() as u64;
    let mut dry = gen.clone();
    let mut spent = 0u64;
    for r in &set.rules {
        for case in 0..options.cases {
            let s = case_string(&mut dry, r.name, case);
            let positions = s.chars().count() as u64 + 1;
            spent = spent.saturating_add(positions.saturating_mul(rules));
            if spent.saturating_add(dry.steps_taken()) > options.steps {
                return Err(GenerateError::Budget {
                    rule: r.name.to_string(),
                    steps: options.steps,
                });
            }
        }
    }
    for (k, r) in set.rules.iter().enumerate() {
        for case in 0..options.cases {
            let s = case_string(&mut gen, r.name, case);
            let abnf = oracle.matches(r.name, &s).unwrap_or(false);
            let ours = run(pegs, &Peg::Rule(k), &s) == Some("");
            if abnf != ours {
                return Err(GenerateError::NotExact {
                    rule: r.name.to_string(),
                    input: s,
                    abnf,
                });
            }
        }
    }
    Ok(())
}

/// The string of case `case` of a rule's check: drawn from it, or a near miss of
/// one drawn (odd cases). A rule with no string to draw (an empty language, a
/// string past the generator's budget) is checked on the empty string and near
/// misses of it.
fn case_string(gen: &mut Generator<'_>, rule: &str, case: usize) -> String {
    let s = gen.generate(rule).unwrap_or_default();
    if case % 2 == 0 {
        s
    } else {
        gen.mutate(&s)
    }
}

/// A Rust identifier for a rule: its name as [`fn_name`] makes it, raw if a keyword.
fn ident(name: &str) -> String {
    const KEYWORDS: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum",
        "extern", "false", "fn", "for", "gen", "if", "impl", "in", "let", "loop", "match", "mod",
        "move", "mut", "pub", "ref", "return", "static", "struct", "super", "trait", "true", "try",
        "type", "unsafe", "use", "where", "while", "abstract", "become", "box", "do", "final",
        "macro", "override", "priv", "typeof", "unsized", "virtual", "yield",
    ];
    let f = fn_name(name);
    if ["self", "Self", "crate", "super"].contains(&f.as_str()) {
        format!("{f}_")
    } else if KEYWORDS.contains(&f.as_str()) {
        format!("r#{f}")
    } else {
        f
    }
}

fn set_literal(s: Set) -> String {
    format!(
        "Set {{ ascii: 0x{:X}, non_ascii: {}, end: {} }}",
        s.ascii_bits(),
        s.has_non_ascii(),
        s.has_end()
    )
}

fn rust_string(s: &str) -> String {
    format!("{s:?}")
}

/// Writes the module.
fn print(grammar: &Grammar, set: &RuleSet<'_>, pegs: &[Peg], module: &str) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "// Generated by iri-grammar-abnf (codegen::standalone) from {}. Do not edit.\n\
         // Each rule is a nom parser that recognizes it: `rule(i)` returns the rest and\n\
         // the text matched; `rule_full(i)` says whether all of `i` matches.\n\n\
         #[allow(dead_code, unused_parens, clippy::all)]\n\
         pub mod {module} {{\n\
         use nom::IResult;\n",
        grammar.name()
    )
    .unwrap();
    out.push_str(PRELUDE);
    let mut consts = Vec::new();
    for (r, p) in set.rules.iter().zip(pegs) {
        let name = ident(r.name);
        let inner = format!("{}_", fn_name(r.name));
        out.push_str("\n/// ```abnf\n");
        for line in r.rule.text.lines() {
            writeln!(out, "/// {line}").unwrap();
        }
        writeln!(out, "/// ```\n///\n/// {}", r.rule.source).unwrap();
        writeln!(
            out,
            "pub fn {name}(i: &str) -> IResult<&str, &str> {{\n    \
             match {inner}(i) {{\n        \
             Some(rest) => Ok((rest, &i[..i.len() - rest.len()])),\n        \
             None => Err(nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Verify))),\n    \
             }}\n}}\n"
        )
        .unwrap();
        writeln!(
            out,
            "/// Whether all of `i` matches `{}`.\npub fn {}_full(i: &str) -> bool {{\n    \
             {inner}(i) == Some(\"\")\n}}\n",
            r.rule.name,
            fn_name(r.name)
        )
        .unwrap();
        let body = expr(set, p, &mut consts, 1);
        writeln!(out, "fn {inner}(i: &str) -> R<'_> {{\n    {body}\n}}").unwrap();
    }
    for (k, c) in consts.iter().enumerate() {
        writeln!(out, "\nconst LOOK_{k}: {c};").unwrap();
    }
    out.push_str("}\n");
    out
}

/// The expression of `p` on the input `i` (a `&str`), of type `R` (`Option<&str>`).
fn expr(set: &RuleSet<'_>, p: &Peg, consts: &mut Vec<String>, depth: usize) -> String {
    let pad = "    ".repeat(depth);
    let sub = |p: &Peg, consts: &mut Vec<String>| expr(set, p, consts, depth + 1);
    match p {
        Peg::Lit(s) => format!("lit(i, {})", rust_string(s)),
        Peg::LitCs(s) => format!("lit_cs(i, {})", rust_string(s)),
        Peg::Range(lo, hi) => format!("range(i, 0x{lo:X}, 0x{hi:X})"),
        Peg::Rule(k) => format!("{}_(i)", fn_name(set.rules[*k].name)),
        Peg::Fail => "None".to_string(),
        Peg::Empty => "Some(i)".to_string(),
        Peg::Cat(items) => {
            let mut s = String::from("(|| {\n");
            for (k, x) in items.iter().enumerate() {
                let e = sub(x, consts);
                if k + 1 == items.len() {
                    writeln!(s, "{pad}    {e}").unwrap();
                } else {
                    writeln!(s, "{pad}    let i = {e}?;").unwrap();
                }
            }
            write!(s, "{pad}}})()").unwrap();
            s
        }
        Peg::Alt(alts) => {
            let parts: Vec<String> = alts.iter().map(|x| sub(x, consts)).collect();
            let mut s = parts[0].clone();
            for p in &parts[1..] {
                write!(s, "\n{pad}    .or_else(|| {p})").unwrap();
            }
            s
        }
        Peg::Repeat(min, max, x) => {
            let body = sub(x, consts);
            let max = max.map_or("u32::MAX".to_string(), |m| m.to_string());
            format!("repeat(i, {min}, {max}, |i| {body})")
        }
        Peg::Opt(x) => format!("{}.or(Some(i))", sub(x, consts)),
        Peg::Ahead(s, x) => {
            consts.push(format!("Set = {}", set_literal(*s)));
            let k = consts.len() - 1;
            format!("{}.filter(|r| LOOK_{k}.admits(r))", sub(x, consts))
        }
        Peg::Ahead2(s, x) => {
            let pairs: Vec<String> = s
                .grouped()
                .into_iter()
                .map(|(a, b)| format!("({}, {})", set_literal(a), set_literal(b)))
                .collect();
            consts.push(format!(
                "Set2 = Set2 {{ end: {}, pairs: &[{}] }}",
                s.end,
                pairs.join(", ")
            ));
            let k = consts.len() - 1;
            format!("{}.filter(|r| LOOK_{k}.admits(r))", sub(x, consts))
        }
    }
}

/// What every generated module starts with: the operators of the translation.
const PRELUDE: &str = r#"
/// The rest of the input after a match, or `None`.
type R<'a> = Option<&'a str>;

/// Characters that may follow a match: ASCII ones by bit, non-ASCII as one, and the
/// end of input.
#[derive(Clone, Copy)]
struct Set {
    ascii: u128,
    non_ascii: bool,
    end: bool,
}

impl Set {
    fn admits(&self, i: &str) -> bool {
        match i.as_bytes().first() {
            None => self.end,
            Some(&b) if b < 0x80 => self.ascii >> b & 1 != 0,
            Some(_) => self.non_ascii,
        }
    }
}

/// The same two characters deep: pairs of a first and a second character.
struct Set2 {
    end: bool,
    pairs: &'static [(Set, Set)],
}

impl Set2 {
    fn admits(&self, i: &str) -> bool {
        let Some(c) = i.chars().next() else {
            return self.end;
        };
        let rest = &i[c.len_utf8()..];
        self.pairs.iter().any(|(a, b)| a.admits(i) && b.admits(rest))
    }
}

/// A quoted string: ASCII letters in either case (RFC 5234 §2.3).
fn lit<'a>(i: &'a str, s: &str) -> R<'a> {
    let have = i.as_bytes().get(..s.len())?;
    have.eq_ignore_ascii_case(s.as_bytes()).then(|| &i[s.len()..])
}

/// A case-sensitive string (RFC 7405 `%s`, and `%x` sequences).
fn lit_cs<'a>(i: &'a str, s: &str) -> R<'a> {
    i.strip_prefix(s)
}

/// One character in `lo..=hi` (RFC 5234 §3.4).
fn range(i: &str, lo: u32, hi: u32) -> R<'_> {
    let c = i.chars().next()?;
    (lo..=hi).contains(&(c as u32)).then(|| &i[c.len_utf8()..])
}

/// `min*max` (RFC 5234 §3.6), greedy: the generator guards the element where
/// greedy could overshoot. An empty match ends the run (it would repeat forever).
fn repeat<'a>(i: &'a str, min: u32, max: u32, p: impl Fn(&'a str) -> R<'a>) -> R<'a> {
    let (mut rest, mut n) = (i, 0u32);
    while n < max {
        match p(rest) {
            Some(r) if r.len() == rest.len() => return Some(rest),
            Some(r) => {
                rest = r;
                n += 1;
            }
            None => break,
        }
    }
    (n >= min).then_some(rest)
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn grammar(text: &str) -> Grammar {
        Grammar::from_abnf(&[("t.abnf", text)]).unwrap()
    }

    #[test]
    fn left_recursion_is_refused() {
        let g = grammar("expr = expr \"+\" term / term\nterm = 1*DIGIT\n");
        let e = generate(&g, &Options::new("m")).unwrap_err();
        assert_eq!(
            e,
            GenerateError::LeftRecursion {
                cycle: vec!["expr".into(), "expr".into()]
            }
        );
        assert!(
            e.to_string().starts_with("left recursion: expr → expr"),
            "{e}"
        );
        // Through nullable prefixes and other rules.
        let g = grammar("a = [ \"x\" ] b\nb = *\"y\" a / \"z\"\n");
        let e = generate(&g, &Options::new("m")).unwrap_err();
        assert!(matches!(e, GenerateError::LeftRecursion { .. }), "{e}");
        // Right recursion is fine.
        let g = grammar("list = item [ \",\" list ]\nitem = 1*DIGIT\n");
        assert!(generate(&g, &Options::new("m")).is_ok());
    }

    #[test]
    fn ambiguity_beyond_the_lookahead_is_refused() {
        // After "p", one character ("x") or two ("xx") may follow `a` whichever
        // alternative it took: only the fourth ("y") tells.
        let g = grammar("r = a \"x\" \"x\"\na = \"p\" / \"p\" \"x\" \"x\" \"y\"\n");
        let e = generate(&g, &Options::new("m")).unwrap_err();
        assert!(
            matches!(e, GenerateError::NotExact { abnf: true, .. }),
            "{e}"
        );
        assert!(e.to_string().starts_with("not exact: "), "{e}");
    }

    #[test]
    fn undefined_and_clashing_names() {
        let e = generate(&grammar("a = b\n"), &Options::new("m")).unwrap_err();
        assert_eq!(
            e,
            GenerateError::Undefined {
                rule: "a".into(),
                name: "b".into()
            }
        );
        let g = Grammar::from_abnf(&[("t.abnf", ";@dialect rfc2396\na-b = \"x\"\na_b = \"y\"\n")])
            .unwrap();
        let e = generate(&g, &Options::new("m")).unwrap_err();
        assert!(matches!(e, GenerateError::NameClash { .. }), "{e}");
    }

    #[test]
    fn the_translation_is_the_engines() {
        // The built-in URI grammar, read as a user's grammar: exact, and its
        // translation agrees with the engine's combinators.
        let g =
            Grammar::from_abnf(&[("rfc3986.abnf", crate::model::builtin::files::RFC3986)]).unwrap();
        let code = generate(
            &g,
            &Options {
                cases: 50,
                ..Options::new("uri")
            },
        )
        .unwrap();
        assert!(code.contains("pub fn ipv6address(i: &str)"));
        assert!(!code.contains("pub fn r#type"));
        let g = grammar("type = \"t\"\nself = \"s\"\n");
        let code = generate(&g, &Options::new("k")).unwrap();
        assert!(code.contains("pub fn r#type(i: &str)") && code.contains("pub fn self_(i: &str)"));
    }

    /// `r0 = ["a"] r1`, ..., `rN = "b"`.
    fn chain_of_options(n: usize) -> Grammar {
        let mut text = String::new();
        for k in 0..n {
            text.push_str(&format!("r{k} = [\"a\"] r{}\n", k + 1));
        }
        text.push_str(&format!("r{n} = \"b\"\n"));
        grammar(&text)
    }

    #[test]
    fn a_chain_of_rules_is_analysed_in_a_few_passes() {
        // FIRST, nullability and FOLLOW went over the rules in the files' order
        // until nothing changed: a pass per rule of a chain, quadratic.
        let g = chain_of_options(2_000);
        super::super::lookahead::PASSES.with(|p| p.set(0));
        let code = generate(
            &g,
            &Options {
                cases: 0,
                ..Options::new("m")
            },
        )
        .unwrap();
        let passes = super::super::lookahead::PASSES.with(std::cell::Cell::get);
        assert!(passes <= 12, "{passes} passes");
        assert!(code.contains("pub fn r1999(i: &str)"));
    }

    #[test]
    fn a_check_past_its_budget_is_refused_before_it_runs() {
        // The check ran the oracle on 400 strings of each of 2,000 rules, each
        // string through the rules below it: hours.
        let g = chain_of_options(2_000);
        let e = generate(&g, &Options::new("m")).unwrap_err();
        assert!(
            matches!(&e, GenerateError::Budget { steps, .. } if *steps == CHECK_STEPS),
            "{e}"
        );
        assert!(e.to_string().starts_with(
            "checking the parsers against the ABNF would take more than 134217728 steps"
        ));
        // Within a budget raised for it, a short chain is checked and written.
        let g = chain_of_options(20);
        assert!(generate(&g, &Options::new("m")).is_ok());
        let tight = Options {
            steps: 1_000,
            ..Options::new("m")
        };
        assert!(matches!(
            generate(&g, &tight),
            Err(GenerateError::Budget { steps: 1_000, .. })
        ));
    }

    #[test]
    fn repetition_bounds_are_written_not_expanded() {
        // Checking the parsers must not draw strings of a billion characters.
        let g = grammar("r = 1000000000*1000000000\"a\" / \"b\"\nbig = 1000000000\"a\"\n");
        let code = generate(&g, &Options::new("m")).unwrap();
        assert!(
            code.contains("repeat(i, 1000000000, 1000000000, "),
            "{code}"
        );
    }
}
