//! `iri conform`: tests a URI or IRI parser, any language, against the ABNF of
//! RFC 3986, RFC 3987 or the LEIRI note, rule by rule, with minimal counterexamples.
//!
//! The parser runs as a program behind the line protocol of
//! `docs/conform-protocol.md` ([`protocol`], [`subject`]). It is asked about the
//! covering suite of the rule, near misses around every boundary, the corpus and
//! drawn strings ([`inputs`]); each answer is judged by the ABNF oracle and, for the
//! rules of references, by the components the library parses ([`verdict`]). Each
//! disagreement is shrunk ([`iri_grammar_abnf::strings::shrink`]) while it disagrees in the
//! same way, and grouped by the rule where the program parts from the grammar
//! ([`group`]). [`run`] does all of it and returns a [`Report`], which the command
//! line writes as text, JSON or HTML, and which serializes for whoever gathers the
//! reports of several programs.
//!
//! Layering: this crate depends on the runtime library (components), the ABNF
//! tooling (oracle, generator, explanations) and the coverage crate (covering
//! suites); the command line depends on it; nothing depends back.
#![warn(clippy::undocumented_unsafe_blocks)]

pub mod group;
pub mod inputs;
pub mod protocol;
// `iri conform --resolve`: the resolution exchange (RFC 3986 §5.2).
pub mod resolve;
pub mod subject;
pub mod verdict;

use group::{component_place, first_place, Place, Placer};
use iri_grammar::{Component, VariantName};
use iri_grammar_abnf::strings::counterexamples;
use iri_grammar_abnf::strings::diff::reference_rule;
use iri_grammar_abnf::strings::shrink::shrink;
use iri_grammar_abnf::teaching::documents::section_url;
use iri_grammar_abnf::Grammars;
use serde::Serialize;
use std::collections::HashMap;
use std::ffi::OsString;
use std::time::Duration;
use subject::{Outcome, Program, Stop, Subject};
use verdict::{Disagreement, Judge, Kind};

/// How a run goes.
#[derive(Debug, Clone)]
pub struct Options {
    /// The grammar the answers are judged by.
    pub grammar: VariantName,
    /// The rule asked (default: the grammar's reference rule).
    pub rule: Option<String>,
    /// How many inputs to ask before minimizing.
    pub budget: usize,
    /// The seed of the drawn inputs: the same seed asks the same inputs.
    pub seed: u64,
    /// How long an answer may take.
    pub timeout: Duration,
    /// Minimal examples shown per group.
    pub examples: usize,
    /// Inputs of corpus files, one a line.
    pub corpus: Vec<String>,
    /// Lines of the corpus files longer than [`inputs::MAX_INPUT`] that the caller
    /// skipped while reading them (never held), counted with those of `corpus`.
    pub corpus_skipped: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            grammar: VariantName::Iri,
            rule: None,
            budget: DEFAULT_BUDGET,
            seed: 0,
            timeout: Duration::from_secs(2),
            examples: 3,
            corpus: Vec::new(),
            corpus_skipped: 0,
        }
    }
}

/// The default budget: a few thousand inputs, which the oracle judges in a few
/// seconds and a program behind a pipe answers in about as long.
pub const DEFAULT_BUDGET: usize = 5000;

/// The largest budget: the inputs are made before the first is asked, and each
/// input asked and its answer are kept (it is never asked twice), so memory grows
/// with the budget.
pub const MAX_BUDGET: usize = 1_000_000;

/// How many answers not understood are kept with their input and line; the others
/// are counted ([`Report::unreadable_left_out`]).
pub const UNREADABLE_KEPT: usize = 20;

/// How many disagreements of one kind (and component) are minimized, spread over the
/// places where they first seem to part ([`group::first_place`]); the others are
/// counted.
const MINIMIZED_PER_KIND: usize = 12;

/// After this many hangs, or this many crashes, the run stops asking: each costs a
/// timeout or a start, and more of them say nothing new.
pub(crate) const HANGS_BEFORE_STOPPING: usize = 10;
pub(crate) const CRASHES_BEFORE_STOPPING: usize = 100;
/// The ways of exiting (status and last line of standard error) whose shortest
/// input is minimized, and the questions each minimization may ask: every one that
/// crashes starts the program again.
pub(crate) const CRASH_WAYS_MINIMIZED: usize = 5;
pub(crate) const ASKS_PER_CRASH_MINIMIZED: usize = 200;

/// What a run found.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The program and its arguments.
    pub program: Vec<String>,
    /// The grammar (`uri`, `iri`, `leiri`, `iri-2001`).
    pub grammar: String,
    /// The rule asked.
    pub rule: String,
    /// The seed.
    pub seed: u64,
    /// The budget.
    pub budget: usize,
    /// The timeout, in milliseconds.
    pub timeout_ms: u64,
    /// Inputs asked before minimizing.
    pub inputs: usize,
    /// Inputs asked in all, minimizing and grouping included (each once).
    pub asked: usize,
    /// Inputs whose answer agreed.
    pub agreed: usize,
    /// Inputs whose answer disagreed, before minimizing.
    pub disagreements: usize,
    /// How many times the program was started.
    pub starts: usize,
    /// Why the run stopped before its budget was spent, if it did.
    pub stopped_early: Option<String>,
    /// Targets of the covering suite no generated string reached.
    pub unreached: Vec<String>,
    /// Corpus lines left out for their length.
    pub corpus_too_long: usize,
    /// The disagreements, grouped by where the program parts from the grammar.
    pub groups: Vec<Group>,
    /// Inputs the program did not answer in time.
    pub hangs: Vec<String>,
    /// Inputs the program exited on.
    pub crashes: Vec<Crash>,
    /// Answers that are none of the protocol's, the first [`UNREADABLE_KEPT`].
    pub unreadable: Vec<Unreadable>,
    /// Answers not understood beyond those kept, counted only.
    pub unreadable_left_out: usize,
}

impl Report {
    /// The report as one JSON object (`cli/schemas/conform.schema.json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report is plain data")
    }

    /// Whether the program agreed on every input, without a hang, a crash or an
    /// answer not understood (exit status 0).
    pub fn ok(&self) -> bool {
        self.groups.is_empty()
            && self.hangs.is_empty()
            && self.crashes.is_empty()
            && self.unreadable.is_empty()
            && self.unreadable_left_out == 0
    }

    /// How many answers were not understood, kept or counted.
    pub fn not_understood(&self) -> usize {
        self.unreadable.len() + self.unreadable_left_out
    }
}

/// Disagreements of one kind that part from the grammar at one rule.
#[derive(Debug, Clone, Serialize)]
pub struct Group {
    /// `accepts-invalid`, `rejects-valid` or `component`.
    pub kind: Kind,
    /// For `component`: which one (`scheme`, ..., `fragment`).
    pub component: Option<&'static str>,
    /// The rule where the program parts from the grammar.
    pub rule: String,
    /// The alternative of its definition (1-based) its first example takes, if it is
    /// an alternation.
    pub alternative: Option<usize>,
    /// How many alternatives the definition has.
    pub alternatives: Option<usize>,
    /// The rule's ABNF, as its document writes it.
    pub abnf: String,
    /// The document that defines the rule (`RFC 3986`).
    pub document: String,
    /// Its section (`3.2.2`), when the grammar file names it.
    pub section: Option<String>,
    /// A link to the section.
    pub section_url: Option<String>,
    /// Disagreements counted in the group before minimizing.
    pub count: usize,
    /// How many of them were minimized.
    pub minimized: usize,
    /// Minimal examples, shortest first.
    pub examples: Vec<Example>,
}

/// A minimal example of a group.
#[derive(Debug, Clone, Serialize)]
pub struct Example {
    /// The input.
    pub input: String,
    /// The input before minimizing.
    pub found: String,
    /// For a component: what the library parses (`null`: absent).
    pub expected: Option<String>,
    /// For a component: what the program gave (`null`: absent).
    pub got: Option<String>,
    /// For an accepted invalid string: the rules the program lets a piece of it
    /// through in ([`group::Placer::accepted_among`]), to merge its group into
    /// another's.
    #[serde(skip)]
    let_through: Vec<String>,
}

/// An input the program exited on.
#[derive(Debug, Clone, Serialize)]
pub struct Crash {
    /// The input.
    pub input: String,
    /// How it exited.
    pub status: String,
    /// The end of its standard error.
    pub stderr: String,
    /// For the shortest input of each way of exiting ([`Crash::way`]), the
    /// shortest string found that makes the program exit the same way, when it is
    /// shorter than the input.
    pub minimized: Option<String>,
}

impl Crash {
    /// How it exited, as crashes are told apart: the status and the last line of
    /// standard error (a panic's message, an exception's).
    pub fn way(&self) -> (&str, &str) {
        crash_way(&self.status, &self.stderr)
    }
}

fn crash_way<'a>(status: &'a str, stderr: &'a str) -> (&'a str, &'a str) {
    (
        status,
        stderr.trim_end().lines().last().unwrap_or_default().trim(),
    )
}

/// An answer not understood.
#[derive(Debug, Clone, Serialize)]
pub struct Unreadable {
    /// The input.
    pub input: String,
    /// The line the program wrote (cut at 200 characters).
    pub line: String,
    /// What is wrong with it.
    pub why: String,
}

/// What came of the questions that got no answer, in validation and resolution
/// alike: each is kept with the line the program read.
#[derive(Debug, Default)]
pub(crate) struct Failures {
    pub(crate) hangs: Vec<String>,
    pub(crate) crashes: Vec<Crash>,
    pub(crate) unreadable: Vec<Unreadable>,
    pub(crate) unreadable_left_out: usize,
}

impl Failures {
    /// Keeps what came of `line` if it was no answer (the first [`UNREADABLE_KEPT`]
    /// answers not understood, the others counted).
    pub(crate) fn note<A>(&mut self, line: &str, o: &Outcome<A>) {
        match o {
            Outcome::Answer(_) => {}
            Outcome::NoAnswer => self.hangs.push(line.to_string()),
            Outcome::Crash { status, stderr } => self.crashes.push(Crash {
                input: line.to_string(),
                status: status.clone(),
                stderr: stderr.clone(),
                minimized: None,
            }),
            Outcome::NotUnderstood { .. } if self.unreadable.len() >= UNREADABLE_KEPT => {
                self.unreadable_left_out += 1;
            }
            Outcome::NotUnderstood { line: l, why } => self.unreadable.push(Unreadable {
                input: line.to_string(),
                line: l.clone(),
                why: why.clone(),
            }),
        }
    }

    /// Why the run should stop asking, past [`HANGS_BEFORE_STOPPING`] hangs or
    /// [`CRASHES_BEFORE_STOPPING`] crashes.
    pub(crate) fn too_many(&self) -> Option<String> {
        if self.hangs.len() >= HANGS_BEFORE_STOPPING {
            Some(format!("{} inputs went unanswered", self.hangs.len()))
        } else if self.crashes.len() >= CRASHES_BEFORE_STOPPING {
            Some(format!(
                "the program exited on {} inputs",
                self.crashes.len()
            ))
        } else {
            None
        }
    }
}

/// The program, its answers so far (it is never asked twice), and what came of the
/// inputs that were no answer.
struct Asker {
    subject: Subject,
    cache: HashMap<String, Outcome>,
    failures: Failures,
}

impl Asker {
    fn ask(&mut self, input: &str) -> Result<Outcome, Stop> {
        if let Some(o) = self.cache.get(input) {
            return Ok(o.clone());
        }
        let o = self.subject.ask(input)?;
        self.failures.note(input, &o);
        self.cache.insert(input.to_string(), o.clone());
        Ok(o)
    }

    /// What came of `input`, asked once (the cache), without counting a failure:
    /// the questions of a crash's minimization, which crash by design.
    fn ask_quietly(&mut self, input: &str) -> Result<Outcome, Stop> {
        if let Some(o) = self.cache.get(input) {
            return Ok(o.clone());
        }
        let o = self.subject.ask(input)?;
        self.cache.insert(input.to_string(), o.clone());
        Ok(o)
    }

    /// The shortest input of each way the program exited (the first
    /// [`CRASH_WAYS_MINIMIZED`] ways), shrunk while it exits that way, with at most
    /// [`ASKS_PER_CRASH_MINIMIZED`] questions each.
    fn minimize_crashes(&mut self) {
        let mut order: Vec<usize> = (0..self.failures.crashes.len()).collect();
        order.sort_by_key(|&k| {
            let input = &self.failures.crashes[k].input;
            (input.chars().count(), input.clone())
        });
        let mut ways: Vec<(String, String)> = Vec::new();
        for k in order {
            let (status, last) = self.failures.crashes[k].way();
            let way = (status.to_string(), last.to_string());
            if ways.contains(&way) || ways.len() >= CRASH_WAYS_MINIMIZED {
                continue;
            }
            ways.push(way.clone());
            let input = self.failures.crashes[k].input.clone();
            let mut asks = 0;
            let minimal = shrink_to_an_end(&input, |t| {
                if asks >= ASKS_PER_CRASH_MINIMIZED {
                    return false;
                }
                asks += 1;
                matches!(self.ask_quietly(t),
                    Ok(Outcome::Crash { status, stderr })
                        if crash_way(&status, &stderr) == (way.0.as_str(), way.1.as_str()))
            });
            if minimal.chars().count() < input.chars().count() {
                self.failures.crashes[k].minimized = Some(minimal);
            }
        }
    }

    /// How the program's answer for `input` disagrees (`Ok(None)`: it agrees;
    /// `Err(())`: no answer).
    fn disagreement(&mut self, judge: &Judge<'_>, input: &str) -> Result<Option<Disagreement>, ()> {
        // Past too many failures the program is asked nothing more (minimizing
        // would otherwise wait out a timeout per candidate).
        if self.too_many_failures().is_some() && !self.cache.contains_key(input) {
            return Err(());
        }
        match self.ask(input) {
            // An input the oracle cannot judge is no example of a disagreement.
            Ok(Outcome::Answer(a)) => judge.judge(input, &a).map_err(drop),
            _ => Err(()),
        }
    }

    /// What the program says of `input` (`None`: no answer, or asked nothing more
    /// past too many failures).
    fn says_valid(&mut self, input: &str) -> Option<bool> {
        if self.too_many_failures().is_some() && !self.cache.contains_key(input) {
            return None;
        }
        match self.ask(input) {
            Ok(Outcome::Answer(a)) => Some(a.valid),
            _ => None,
        }
    }

    fn too_many_failures(&self) -> Option<String> {
        self.failures.too_many()
    }
}

/// Runs `program` (a command and its arguments) through the inputs of `options`,
/// judges its answers, minimizes and groups the disagreements.
///
/// # Errors
/// [`Stop`] when the budget is over [`MAX_BUDGET`], the rule is unknown, the program
/// cannot be started, or it fails three times in a row before its first answer (exit
/// status 2).
pub fn run(options: &Options, program: &[OsString]) -> Result<Report, Stop> {
    if options.budget > MAX_BUDGET {
        return Err(Stop(format!(
            "a budget of {} inputs is more than the most, {MAX_BUDGET}",
            options.budget
        )));
    }
    let grammars = Grammars::builtin();
    let variant = options.grammar;
    let rule = options
        .rule
        .clone()
        .unwrap_or_else(|| reference_rule(variant).to_string());
    let judge = Judge::new(&grammars, variant, &rule).map_err(|e| Stop(e.to_string()))?;
    let inputs = inputs::inputs(
        &grammars,
        variant,
        &rule,
        options.seed,
        options.budget,
        &options.corpus,
    )
    .map_err(|e| Stop(e.to_string()))?;
    let mut asker = Asker {
        subject: Subject::new(
            Program {
                command: program.to_vec(),
                grammar: variant.as_str().to_string(),
                rule: rule.clone(),
            },
            options.timeout,
        ),
        cache: HashMap::new(),
        failures: Failures::default(),
    };

    // Ask every input.
    let (mut agreed, mut asked_inputs) = (0, 0);
    let mut raw: Vec<(String, Disagreement)> = Vec::new();
    let mut stopped_early = None;
    for (input, _) in &inputs.list {
        if let Some(why) = asker.too_many_failures() {
            stopped_early = Some(why);
            break;
        }
        asked_inputs += 1;
        if let Outcome::Answer(a) = asker.ask(input)? {
            match judge.judge(input, &a).map_err(|e| Stop(e.to_string()))? {
                None => agreed += 1,
                Some(d) => raw.push((input.clone(), d)),
            }
        }
    }

    // Minimize a few of each kind (and component), spread over where they first
    // seem to part, shortest first; group them.
    let mut kinds: Vec<(Way, Vec<Bucket<'_>>)> = Vec::new();
    for r in &raw {
        let first = first_place(judge.oracle(), &rule, &r.0, r.1.kind);
        let buckets = match kinds.iter_mut().find(|(w, _)| *w == r.1.way()) {
            Some((_, b)) => b,
            None => {
                kinds.push((r.1.way(), Vec::new()));
                &mut kinds.last_mut().expect("pushed").1
            }
        };
        match buckets.iter_mut().find(|b| b.first == first) {
            Some(b) => b.found.push(&r.0),
            None => buckets.push(Bucket {
                first,
                found: vec![&r.0],
                group: None,
            }),
        }
    }
    let alphabet = counterexamples::alphabet(&grammars, variant);
    let pool: Vec<&str> = inputs.list.iter().map(|(s, _)| s.as_str()).collect();
    let mut placer = Placer::new(judge.oracle(), &rule, &alphabet, &pool);
    let mut groups: Vec<Group> = Vec::new();
    for (way, mut buckets) in kinds {
        buckets.sort_by(|a, b| {
            b.found
                .len()
                .cmp(&a.found.len())
                .then(a.first.cmp(&b.first))
        });
        for b in &mut buckets {
            b.found.sort_by_key(|s| (s.chars().count(), s.to_string()));
        }
        // Round robin over the places: the shortest of each, then the next, ...
        let mut picks: Vec<(usize, &str)> = Vec::new();
        for depth in 0.. {
            let before = picks.len();
            for (k, b) in buckets.iter().enumerate() {
                if let Some(s) = b.found.get(depth) {
                    if picks.len() < MINIMIZED_PER_KIND {
                        picks.push((k, s));
                    }
                }
            }
            if picks.len() == before || picks.len() >= MINIMIZED_PER_KIND {
                break;
            }
        }
        let mut landed: Vec<usize> = Vec::new();
        // How many of each bucket's disagreements were minimized into a group.
        let mut minimized_from = vec![0; buckets.len()];
        for (bucket, found) in picks {
            if stopped_early.is_none() {
                stopped_early = asker.too_many_failures();
            }
            let first = &buckets[bucket].first;
            // The same way, and for an invalid string the same first place (as
            // diff-grammars keeps where two grammars part): `a b` would otherwise
            // shrink to another difference, ` `. Then without the place but with
            // the character the grammar fails at: where the same way of
            // disagreeing shrinks to one string from several places (a newline
            // after a path, a query, an authority: `$` in a regular expression),
            // they are one cause, grouped where that string parts; a second cause
            // (a leading zero beside an optional first slash) keeps its own.
            let minimal = if stopped_early.is_some() {
                found.to_string()
            } else {
                let at_first = shrink(found, |t| {
                    same_way(&mut asker, &judge, way, t)
                        && (way.0 != Kind::AcceptsInvalid
                            || first_place(judge.oracle(), &rule, t, way.0) == *first)
                });
                reduce(&mut asker, &judge, way, &at_first)
            };
            let mut says_valid = |t: &str| asker.says_valid(t);
            let mut let_through = Vec::new();
            let place = match (way.0, way.1) {
                (Kind::AcceptsInvalid, _) => {
                    let (place, among) = placer.accepted_among(&minimal, &mut says_valid);
                    let_through = among;
                    place
                }
                (Kind::Component, Some(component)) => component_place(component, variant),
                (Kind::RejectsValid | Kind::Component, _) => {
                    placer.rejected(&minimal, &mut says_valid)
                }
            };
            let Ok(Some(d)) = asker.disagreement(&judge, &minimal) else {
                continue;
            };
            let (expected, got) = match d.component {
                Some((_, e, g)) => (e, g),
                None => (None, None),
            };
            let example = Example {
                input: minimal,
                found: found.to_string(),
                expected,
                got,
                let_through,
            };
            let k = group_of(&mut groups, &judge, way, &place);
            groups[k].minimized += 1;
            groups[k].count += 1;
            minimized_from[bucket] += 1;
            landed.push(k);
            buckets[bucket].group.get_or_insert(k);
            note_alternative(&mut groups[k], &place);
            if !groups[k].examples.iter().any(|e| e.input == example.input) {
                groups[k].examples.push(example);
            }
        }
        // Each disagreement counts once: a minimized one in the group it went to,
        // the others of its place in the group its place's first minimized one went
        // to, and those of places none was minimized from in the group most of
        // their kind went to. So a group counts at least what it minimized.
        let most = most_common(&landed);
        for (b, done) in buckets.iter().zip(&minimized_from) {
            if let Some(k) = b.group.or(most) {
                groups[k].count += b.found.len() - done;
            }
        }
    }
    if stopped_early.is_none() {
        merge_causes(&mut groups, |way, s| reduce(&mut asker, &judge, way, s));
    }
    for g in &mut groups {
        g.examples.sort_by(|a, b| {
            let key = |s: &str| (s.chars().count(), unseen(s), s.to_string());
            key(&a.input).cmp(&key(&b.input))
        });
        g.examples.truncate(options.examples.max(1));
    }
    groups.sort_by(|a, b| (a.kind, a.component, &a.rule).cmp(&(b.kind, b.component, &b.rule)));

    asker.minimize_crashes();
    asker.subject.close();
    Ok(Report {
        program: program
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        grammar: variant.as_str().to_string(),
        rule,
        seed: options.seed,
        budget: options.budget,
        timeout_ms: u64::try_from(options.timeout.as_millis()).unwrap_or(u64::MAX),
        inputs: asked_inputs,
        asked: asker.cache.len(),
        agreed,
        disagreements: raw.len(),
        starts: asker.subject.starts,
        stopped_early,
        unreached: inputs.unreached,
        corpus_too_long: inputs.too_long + options.corpus_skipped,
        groups,
        hangs: asker.failures.hangs,
        crashes: asker.failures.crashes,
        unreadable: asker.failures.unreadable,
        unreadable_left_out: asker.failures.unreadable_left_out,
    })
}

/// `s` shrunk ([`shrink`]), then cut to the shortest piece of it that still
/// `keeps` (any piece when it is at most [`WHOLE_PIECES`] characters long, else a
/// prefix or a suffix), and shrunk again, until no piece keeps. Deletions remove one
/// run at a time, so `//[::]` + LF never loses its six-character head in one step,
/// nor `//[va."]` both its ends, while LF alone, or `"`, shows the same thing.
fn shrink_to_an_end(s: &str, mut keeps: impl FnMut(&str) -> bool) -> String {
    let mut m = shrink(s, &mut keeps);
    loop {
        let chars: Vec<char> = m.chars().collect();
        let n = chars.len();
        let piece = (1..n)
            .flat_map(|k| {
                let starts: Vec<usize> = if n <= WHOLE_PIECES {
                    (0..=n - k).rev().collect()
                } else {
                    vec![n - k, 0]
                };
                starts.into_iter().map(move |i| (i, k))
            })
            .map(|(i, k)| chars[i..i + k].iter().collect::<String>())
            .find(|t| keeps(t));
        match piece {
            Some(t) => m = shrink(&t, &mut keeps),
            None => return m,
        }
    }
}

/// The longest example every piece of which is tried ([`shrink_to_an_end`]): 276
/// pieces at most, each asked once.
const WHOLE_PIECES: usize = 24;

/// Whether the program disagrees on `t` in `way`.
fn same_way(asker: &mut Asker, judge: &Judge<'_>, way: Way, t: &str) -> bool {
    matches!(asker.disagreement(judge, t), Ok(Some(d)) if d.way() == way)
}

/// `s` shrunk while it disagrees in `way` wherever it parts, cut to its shortest
/// piece that does ([`shrink_to_an_end`]); for an invalid string, only while the
/// grammar fails at the same character (`found`: a line feed for `a` + LF and LF
/// alone; not for `//[::0.0.0.00]`, whose `0` is the cause, and `/[::]`).
fn reduce(asker: &mut Asker, judge: &Judge<'_>, way: Way, s: &str) -> String {
    let found = |t: &str| judge.oracle().explain(&judge.rule, t).ok().map(|e| e.found);
    let cause = found(s);
    shrink_to_an_end(s, |t| {
        same_way(asker, judge, way, t) && (way.0 != Kind::AcceptsInvalid || found(t) == cause)
    })
}

/// One group per cause: a group whose shortest example, reduced ([`reduce`]),
/// becomes an example of another group of that way is merged into it, its counts
/// and examples with it. `//[va."]`, placed in `IPvFuture`, reduces to `"`, the
/// example of the group in `segment-nz-nc`: one program taking `"` as a sub-delim,
/// not two causes. So is a group whose shortest example the program lets through
/// at the rule of a group with more disagreements, or of one whose example is not
/// let through at its rule: that group's cause explains both.
fn merge_causes(groups: &mut Vec<Group>, mut reduce: impl FnMut(Way, &str) -> String) {
    let way_of = |g: &Group| -> Way {
        let component = g
            .component
            .and_then(|c| protocol::COMPONENTS.into_iter().find(|k| k.as_str() == c));
        (g.kind, component)
    };
    let mut k = 0;
    while k < groups.len() {
        let way = way_of(&groups[k]);
        let Some(shortest) = shortest_of(&groups[k]) else {
            k += 1;
            continue;
        };
        let into = {
            let reduced = reduce(way, &shortest.input);
            (0..groups.len()).find(|&j| {
                j != k
                    && way_of(&groups[j]) == way
                    && groups[j].examples.iter().any(|e| e.input == reduced)
            })
        };
        // Else the group of most disagreements among those at a rule the program
        // lets this group's shortest example through in: `//@@`, placed in
        // `reg-name` (a `reg-name` taking `@` would let it through), is let
        // through in `relative-part` too, where `//:a` of a bigger group is (a
        // program taking `/` for `//`).
        // A smaller group too, where its own example is no longer than this one's
        // and not let through at this group's rule: its cause explains both
        // examples, this group's only one. `//@@` placed in `authority` joins
        // `//:a` in `relative-part`, which the program lets through in no
        // `authority`. (A program letting much through lets a longer example
        // through in many rules: a space taken anywhere is let through in the
        // `relative-part` of `//::`, a host taken bare, but is no example of it.)
        let into = into.or_else(|| {
            (0..groups.len())
                .filter(|&j| {
                    let explains = || {
                        shortest_of(&groups[j]).is_some_and(|e| {
                            e.input.chars().count() <= shortest.input.chars().count()
                                && !e.let_through.contains(&groups[k].rule)
                        })
                    };
                    j != k
                        && way_of(&groups[j]) == way
                        && shortest.let_through.contains(&groups[j].rule)
                        && (groups[j].count > groups[k].count || explains())
                })
                .max_by_key(|&j| groups[j].count)
        });
        match into {
            Some(j) => {
                let from = groups.remove(k);
                let j = if j > k { j - 1 } else { j };
                groups[j].count += from.count;
                groups[j].minimized += from.minimized;
                for e in from.examples {
                    if !groups[j].examples.iter().any(|x| x.input == e.input) {
                        groups[j].examples.push(e);
                    }
                }
                k = 0;
            }
            None => k += 1,
        }
    }
}

/// A group's shortest example (then first in order of characters).
fn shortest_of(g: &Group) -> Option<&Example> {
    (g.examples.iter()).min_by_key(|e| (e.input.chars().count(), e.input.as_str()))
}

/// How an answer disagrees: its kind, and for a component, which.
type Way = (Kind, Option<Component>);

/// The disagreements of one way that first seem to part at one place.
struct Bucket<'r> {
    first: String,
    found: Vec<&'r str>,
    /// The group its first minimized disagreement went to.
    group: Option<usize>,
}

/// The group of a kind at a place, made if new; its index.
fn group_of(groups: &mut Vec<Group>, judge: &Judge<'_>, way: Way, place: &Place) -> usize {
    let component = way.1.map(Component::as_str);
    if let Some(k) = groups
        .iter()
        .position(|g| g.kind == way.0 && g.component == component && g.rule == place.rule)
    {
        return k;
    }
    let def = judge.oracle().rule(&place.rule);
    groups.push(Group {
        kind: way.0,
        component,
        rule: place.rule.clone(),
        alternative: None,
        alternatives: place.alternative.map(|(_, n)| n),
        abnf: def.map_or_else(String::new, |d| d.text.clone()),
        document: def.map_or_else(String::new, |d| d.source.document.clone()),
        section: def.and_then(|d| d.source.section.clone()),
        section_url: def.and_then(|d| section_url(&d.source)),
        count: 0,
        minimized: 0,
        examples: Vec::new(),
    });
    groups.len() - 1
}

/// Keeps the first alternative the group's examples took.
fn note_alternative(g: &mut Group, place: &Place) {
    if g.alternative.is_none() {
        g.alternative = place.alternative.map(|(a, _)| a);
    }
}

fn most_common(v: &[usize]) -> Option<usize> {
    let mut best: Option<(usize, usize)> = None;
    for &k in v {
        let n = v.iter().filter(|&&x| x == k).count();
        if best.is_none_or(|(_, m)| n > m) {
            best = Some((k, n));
        }
    }
    best.map(|(k, _)| k)
}

/// How many characters of `s` a reader cannot see (to show those with fewer first).
fn unseen(s: &str) -> usize {
    s.chars()
        .filter(|c| !c.is_ascii_graphic() && *c != ' ')
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(rule: &str, count: usize, example: &str, let_through: &[&str]) -> Group {
        Group {
            kind: Kind::AcceptsInvalid,
            component: None,
            rule: rule.to_string(),
            alternative: None,
            alternatives: None,
            abnf: String::new(),
            document: String::new(),
            section: None,
            section_url: None,
            count,
            minimized: 1,
            examples: vec![Example {
                input: example.to_string(),
                found: example.to_string(),
                expected: None,
                got: None,
                let_through: let_through.iter().map(|r| r.to_string()).collect(),
            }],
        }
    }

    #[test]
    fn a_group_let_through_where_a_bigger_one_is_joins_it() {
        // A program taking `/` for `//`: `//@@` is placed in `reg-name`, but the
        // program lets it through in `relative-part` too, where `//:a` is.
        let mut groups = vec![
            group(
                "reg-name",
                6,
                "//@@",
                &["reg-name", "relative-part", "host"],
            ),
            group(
                "relative-part",
                131,
                "//:a",
                &["relative-part", "hier-part"],
            ),
        ];
        merge_causes(&mut groups, |_, s| s.to_string());
        assert_eq!(groups.len(), 1);
        assert_eq!(
            (groups[0].rule.as_str(), groups[0].count),
            ("relative-part", 137)
        );
        assert_eq!(groups[0].examples.len(), 2);
        // Two causes stay apart: neither is let through where the other is placed.
        let mut groups = vec![
            group(
                "dec-octet",
                40,
                "//[::0.0.0.00]",
                &["dec-octet", "IPv4address"],
            ),
            group("relative-part", 131, "//:a", &["relative-part"]),
        ];
        merge_causes(&mut groups, |_, s| s.to_string());
        assert_eq!(groups.len(), 2);
    }

    #[test]
    fn a_group_joins_a_smaller_one_whose_cause_explains_both() {
        // A program reading `//` as the start of a path: `//@@`, placed in
        // `authority`, is let through in `relative-part`, where `//:a` is placed;
        // `//:a` is let through in no `authority`. The cause of the smaller group
        // explains both examples.
        let mut groups = vec![
            group(
                "authority",
                83,
                "//@@",
                &["host", "authority", "relative-part"],
            ),
            group(
                "relative-part",
                27,
                "//:a",
                &["relative-part", "path-absolute"],
            ),
        ];
        merge_causes(&mut groups, |_, s| s.to_string());
        assert_eq!(groups.len(), 1);
        assert_eq!(
            (groups[0].rule.as_str(), groups[0].count),
            ("relative-part", 110)
        );
        // Not a longer example's group: a program taking a space anywhere lets
        // ` ` through in the `relative-part` of `//::` (a host taken bare).
        let mut groups = vec![
            group(
                "segment-nz-nc",
                1043,
                " ",
                &["segment-nz-nc", "relative-part"],
            ),
            group("relative-part", 52, "//::", &["relative-part", "authority"]),
        ];
        merge_causes(&mut groups, |_, s| s.to_string());
        assert_eq!(groups.len(), 2);
        // Where each is let through at the other's rule, the bigger one stays.
        let mut groups = vec![
            group("authority", 83, "//@@", &["authority", "relative-part"]),
            group("relative-part", 27, "//:a", &["relative-part", "authority"]),
        ];
        merge_causes(&mut groups, |_, s| s.to_string());
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].rule, "authority");
    }
}
