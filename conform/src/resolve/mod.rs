//! `iri conform --resolve`: tests a program's reference resolution (RFC 3986 §5.2,
//! which RFC 3987 §6.5 applies to IRIs unchanged) against the library's, behind the
//! resolution exchange of `docs/conform-protocol.md`: each input is a JSON array
//! `[base, reference]`, each answer the target as a JSON string literal, or
//! `invalid`.
//!
//! The inputs ([`pairs`]) are RFC 3986 §5.4's examples against its base, then a few
//! edge references and each reference of the reference rule's inputs ([`crate::inputs`]: its covering suite,
//! near misses, drawn strings) against each of a few bases ([`BASES`]). The judge is
//! the library resolving in the grammar asked, strictly (§5.2.2). Each disagreement is
//! put at the step of §5.2.2–§5.2.4 where the program's target first parts from the
//! library's ([`step`]), shrunk (reference, then base) while it stays at that step,
//! and grouped by it.

mod step;

pub use step::{judge, library, merge, step, Kind, Step, Trace};

use crate::protocol::{input_line, string_literal};
use crate::subject::{Outcome, Program, Stop, Subject};
use crate::{Crash, Failures, Options, Unreadable, ASKS_PER_CRASH_MINIMIZED, CRASH_WAYS_MINIMIZED};
use iri_grammar::VariantName;
use iri_grammar_abnf::strings::diff::reference_rule;
use iri_grammar_abnf::strings::shrink::shrink;
use iri_grammar_abnf::Grammars;
use serde::Serialize;
use std::collections::HashMap;
use std::ffi::OsString;

/// The variable that tells the program which exchange is asked: `resolve` here;
/// `validate`, or the variable unset, for the validation of the protocol's first
/// version.
pub const MODE_VARIABLE: &str = "IRI_CONFORM_MODE";

/// The base of RFC 3986 §5.4's examples.
pub const RFC_BASE: &str = "http://a/b/c/d;p?q";

/// RFC 3986 §5.4.1's normal examples, then §5.4.2's abnormal ones: the references
/// resolved against [`RFC_BASE`] (the targets are the library's to give).
pub const RFC_REFERENCES: [&str; 42] = [
    // §5.4.1
    "g:h",
    "g",
    "./g",
    "g/",
    "/g",
    "//g",
    "?y",
    "g?y",
    "#s",
    "g#s",
    "g?y#s",
    ";x",
    "g;x",
    "g;x?y#s",
    "",
    ".",
    "./",
    "..",
    "../",
    "../g",
    "../..",
    "../../",
    "../../g",
    // §5.4.2
    "../../../g",
    "../../../../g",
    "/./g",
    "/../g",
    "g.",
    ".g",
    "g..",
    "..g",
    "./../g",
    "./g/.",
    "g/./h",
    "g/../h",
    "g;x=1/./y",
    "g;x=1/../y",
    "g?y/./x",
    "g?y/../x",
    "g#s/./x",
    "g#s/../x",
    "http:g",
];

/// References asked against each base before the reference rule's inputs: where
/// remove_dot_segments leaves a path that starts with `//` (the library writes
/// `/.//`), a first segment with a colon, percent-encoded dots (not dot segments,
/// §6.2.2.3), an empty authority, query and fragment.
pub const EDGE_REFERENCES: [&str; 8] = [
    ".//g", "/.//g", "..//g", "./g:h", "%2e%2e/g", "//", "?", "#",
];

/// The bases every reference is resolved against, one for each way §5.2.2–§5.2.3
/// read the base: RFC 3986 §5.4's; an authority with an empty path (§5.2.3's
/// first case) and with a trailing slash; dot segments and a query (kept as they
/// are by a reference with an empty path); an empty authority; no authority with
/// an absolute path, a rootless path (`a:b/c`) and an empty one; a fragment (§5.1:
/// ignored); a last segment that is a dot segment; an empty authority with an
/// empty segment.
pub const BASES: [&str; 12] = [
    RFC_BASE,
    "http://a",
    "http://a/b/c/",
    "http://a/b/./c/../d/?q",
    "http://a/b/c/..",
    "file:///b/c",
    "a:///b//c",
    "a:/b/c?q",
    "a:b/c",
    "a:b",
    "a:",
    "http://a/b?q#f",
];

/// A pair asked: the base and the reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Pair {
    /// The base.
    pub base: String,
    /// The reference.
    pub reference: String,
}

impl Pair {
    fn new(base: &str, reference: &str) -> Pair {
        Pair {
            base: base.to_string(),
            reference: reference.to_string(),
        }
    }

    /// The line the program reads: a JSON array of two string literals in ASCII.
    ///
    /// ```
    /// use iri_grammar_conform::resolve::Pair;
    /// let p = Pair { base: "http://a/b".into(), reference: "c\u{e9}".into() };
    /// assert_eq!(p.line(), r#"["http://a/b","c\u00e9"]"#);
    /// ```
    pub fn line(&self) -> String {
        format!(
            "[{},{}]",
            input_line(&self.base),
            input_line(&self.reference)
        )
    }

    /// The pair as the report shows it: a JSON array, letters beyond ASCII raw.
    pub fn shown(&self) -> String {
        let s = |t: &str| {
            string_literal(t, |c| {
                c.is_ascii_graphic() || c == ' ' || (!c.is_ascii() && c.is_alphabetic())
            })
        };
        format!("[{}, {}]", s(&self.base), s(&self.reference))
    }

    fn len(&self) -> usize {
        self.base.chars().count() + self.reference.chars().count()
    }
}

/// An answer of the resolution exchange: the target, or `None` for `invalid`.
pub type Target = Option<String>;

/// Reads an answer line: `invalid`, or a JSON string literal (the target).
///
/// # Errors
/// Why the line is neither.
///
/// ```
/// use iri_grammar_conform::resolve::read_target;
/// assert_eq!(read_target(r#""http://a/g""#), Ok(Some("http://a/g".to_string())));
/// assert_eq!(read_target("invalid"), Ok(None));
/// assert!(read_target("valid").is_err());
/// ```
pub fn read_target(line: &str) -> Result<Target, String> {
    if line == "invalid" {
        return Ok(None);
    }
    if !line.starts_with('"') {
        return Err("neither `invalid` nor a JSON string literal (the target)".to_string());
    }
    serde_json::from_str::<String>(line)
        .map(Some)
        .map_err(|e| format!("not a JSON string literal: {e}"))
}

/// The pairs asked, in order, at most `budget`: RFC 3986 §5.4's examples against
/// its base, then [`EDGE_REFERENCES`] and each input of the reference rule ([`crate::inputs`], drawn with
/// `seed`) against each of [`BASES`].
///
/// # Errors
/// When the grammar has no reference rule the generator knows.
pub fn pairs(
    grammars: &Grammars,
    variant: VariantName,
    seed: u64,
    budget: usize,
) -> Result<Vec<Pair>, Stop> {
    let mut out: Vec<Pair> = RFC_REFERENCES
        .iter()
        .map(|r| Pair::new(RFC_BASE, r))
        .collect();
    let references = crate::inputs::inputs(
        grammars,
        variant,
        reference_rule(variant),
        seed,
        budget.div_ceil(BASES.len()),
        &[],
    )
    .map_err(|e| Stop(e.to_string()))?;
    let mut seen: std::collections::HashSet<Pair> = out.iter().cloned().collect();
    let edges = EDGE_REFERENCES.iter().map(|r| (*r).to_string());
    for reference in edges.chain(references.list.into_iter().map(|(r, _)| r)) {
        for base in BASES {
            let p = Pair::new(base, &reference);
            if seen.insert(p.clone()) {
                out.push(p);
            }
        }
    }
    out.truncate(budget);
    Ok(out)
}

/// What a resolution run found.
#[derive(Debug, Clone, Serialize)]
pub struct ResolveReport {
    /// `resolve`.
    pub mode: &'static str,
    /// The program and its arguments.
    pub program: Vec<String>,
    /// The grammar.
    pub grammar: String,
    /// The seed.
    pub seed: u64,
    /// The budget.
    pub budget: usize,
    /// The timeout, in milliseconds.
    pub timeout_ms: u64,
    /// The bases every reference is resolved against.
    pub bases: Vec<&'static str>,
    /// Pairs asked before minimizing.
    pub inputs: usize,
    /// Pairs asked in all, minimizing included (each once).
    pub asked: usize,
    /// Pairs whose answer agreed.
    pub agreed: usize,
    /// Pairs whose answer disagreed, before minimizing.
    pub disagreements: usize,
    /// How many times the program was started.
    pub starts: usize,
    /// Why the run stopped before its budget was spent, if it did.
    pub stopped_early: Option<String>,
    /// The disagreements, grouped by kind and step.
    pub groups: Vec<ResolveGroup>,
    /// Pairs the program did not answer in time (as the program reads them).
    pub hangs: Vec<String>,
    /// Pairs the program exited on (`input`: the line it read; `minimized`: for the
    /// shortest of each way of exiting, the shortest pair found that exits so).
    pub crashes: Vec<Crash>,
    /// Answers that are none of the exchange's, the first [`crate::UNREADABLE_KEPT`].
    pub unreadable: Vec<Unreadable>,
    /// Answers not understood beyond those kept, counted only.
    pub unreadable_left_out: usize,
}

impl ResolveReport {
    /// The report as one JSON object (`cli/schemas/conform-resolve.schema.json`).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report is plain data")
    }

    /// Whether the program agreed on every pair, without a hang, a crash or an
    /// answer not understood (exit status 0).
    pub fn ok(&self) -> bool {
        self.groups.is_empty()
            && self.hangs.is_empty()
            && self.crashes.is_empty()
            && self.unreadable.is_empty()
            && self.unreadable_left_out == 0
    }
}

/// The disagreements of one kind at one step.
#[derive(Debug, Clone, Serialize)]
pub struct ResolveGroup {
    /// How the answers disagree.
    pub kind: Kind,
    /// Where: for `target`, the step where the program parts; for `refuses`, the
    /// branch of §5.2.2 the reference takes; for `resolves-invalid`, why the library
    /// refuses.
    pub step: Step,
    /// The step in a few words.
    pub title: &'static str,
    /// RFC 3986's section, if one.
    pub section: Option<&'static str>,
    /// A link to it.
    pub section_url: Option<String>,
    /// Disagreements counted in the group, before minimizing.
    pub count: usize,
    /// Minimal examples, shortest first.
    pub examples: Vec<ResolveExample>,
}

/// A minimal example of a group.
#[derive(Debug, Clone, Serialize)]
pub struct ResolveExample {
    /// The base.
    pub base: String,
    /// The reference.
    pub reference: String,
    /// The library's target (`null`: it refuses the pair).
    pub expected: Option<String>,
    /// The program's (`null`: `invalid`).
    pub got: Option<String>,
    /// The pair before minimizing.
    pub found: Pair,
}

/// A program none of whose first answers is understood is not speaking this
/// exchange (most likely a validation adapter, which answers `valid`): the run
/// stops (exit status 2) rather than report each answer.
const UNDERSTOOD_WITHIN: usize = 10;

/// Why the run stops when the program answers none of the exchange's lines.
fn not_this_exchange(program: &[OsString], unreadable: &[Unreadable]) -> String {
    let name = program
        .first()
        .map_or_else(String::new, |p| p.to_string_lossy().into_owned());
    let first = unreadable.first().map_or("", |u| u.line.as_str());
    let validation = first == "valid" || first == "invalid" || first.starts_with('{');
    format!(
        "{name} answered none of its first {UNDERSTOOD_WITHIN} pairs with a target or `invalid` \
         (its first answer: {first:?}){}; the resolution exchange is in \
         docs/conform-protocol.md",
        if validation {
            ": is it a validation adapter? One that resolves reads IRI_CONFORM_MODE=resolve \
             and [base, reference] pairs"
        } else {
            ""
        }
    )
}

/// How many disagreements of a group are minimized; the others are counted.
const MINIMIZED_PER_GROUP: usize = 6;
/// The program, its targets so far (a pair is never asked twice), and what came of
/// the pairs that got no answer (as validation's, its limits the same).
struct Asker {
    subject: Subject,
    cache: HashMap<Pair, Outcome<Target>>,
    failures: Failures,
}

impl Asker {
    fn ask(&mut self, pair: &Pair) -> Result<Outcome<Target>, Stop> {
        if let Some(o) = self.cache.get(pair) {
            return Ok(o.clone());
        }
        let line = pair.line();
        let o = self.subject.ask_line(&line, read_target)?;
        self.failures.note(&line, &o);
        self.cache.insert(pair.clone(), o.clone());
        Ok(o)
    }

    fn too_many_failures(&self) -> Option<String> {
        self.failures.too_many()
    }

    /// The shortest pair of each way the program exited (its status and the last
    /// line of its standard error; the first [`CRASH_WAYS_MINIMIZED`]), shrunk —
    /// the reference, then the base — while it exits that way, with at most
    /// [`ASKS_PER_CRASH_MINIMIZED`] questions each (each one a start).
    fn minimize_crashes(&mut self) {
        let mut order: Vec<usize> = (0..self.failures.crashes.len()).collect();
        order.sort_by_key(|&k| {
            (
                self.failures.crashes[k].input.len(),
                self.failures.crashes[k].input.clone(),
            )
        });
        let mut ways: Vec<(String, String)> = Vec::new();
        for k in order {
            let (status, last) = self.failures.crashes[k].way();
            let way = (status.to_string(), last.to_string());
            if ways.contains(&way) || ways.len() >= CRASH_WAYS_MINIMIZED {
                continue;
            }
            ways.push(way.clone());
            let Ok((base, reference)) =
                serde_json::from_str::<(String, String)>(&self.failures.crashes[k].input)
            else {
                continue;
            };
            let mut asks = 0;
            let mut exits = |asker: &mut Asker, p: &Pair| {
                if asks >= ASKS_PER_CRASH_MINIMIZED {
                    return false;
                }
                asks += 1;
                let known = asker.cache.get(p).cloned();
                let o = match known {
                    Some(o) => o,
                    None => match asker.subject.ask_line(&p.line(), read_target) {
                        Ok(o) => {
                            asker.cache.insert(p.clone(), o.clone());
                            o
                        }
                        Err(_) => return false,
                    },
                };
                match o {
                    Outcome::Crash { status, stderr } => {
                        let c = Crash {
                            input: String::new(),
                            status,
                            stderr,
                            minimized: None,
                        };
                        c.way() == (way.0.as_str(), way.1.as_str())
                    }
                    _ => false,
                }
            };
            let r = shrink(&reference, |t| exits(self, &Pair::new(&base, t)));
            let b = shrink(&base, |t| exits(self, &Pair::new(t, &r)));
            let m = Pair::new(&b, &r);
            if m.len() < Pair::new(&base, &reference).len() {
                self.failures.crashes[k].minimized = Some(m.line());
            }
        }
    }

    /// The way `pair` disagrees, if it does and the program answered.
    fn way(&mut self, variant: VariantName, pair: &Pair) -> Option<(Kind, Step)> {
        if self.too_many_failures().is_some() && !self.cache.contains_key(pair) {
            return None;
        }
        match self.ask(pair) {
            Ok(Outcome::Answer(a)) => judge(variant, pair, &a),
            _ => None,
        }
    }
}

/// Checks that `options` make sense for a resolution run: no `--rule` (the pairs
/// are references of the grammar's reference rule), no corpus, a grammar with
/// typed references.
///
/// # Errors
/// Why not, for the user.
pub fn check_options(options: &Options) -> Result<(), Stop> {
    if let Some(rule) = &options.rule {
        return Err(Stop(format!(
            "--resolve asks for the resolution of references, not for the rule {rule}: \
             leave out --rule"
        )));
    }
    if !options.corpus.is_empty() || options.corpus_skipped > 0 {
        return Err(Stop(
            "--resolve makes its own pairs of base and reference: leave out --corpus".to_string(),
        ));
    }
    if options.grammar == VariantName::Iri2001 {
        return Err(Stop(
            "--resolve needs a grammar with references the library resolves (uri, iri, \
             leiri); iri-2001 has rules only"
                .to_string(),
        ));
    }
    if options.budget > crate::MAX_BUDGET {
        return Err(Stop(format!(
            "a budget of {} inputs is more than the most, {}",
            options.budget,
            crate::MAX_BUDGET
        )));
    }
    Ok(())
}

/// Runs `program` through the pairs of `options` (resolution exchange), judges its
/// targets against the library's, minimizes and groups the disagreements by step.
///
/// # Errors
/// [`Stop`] when the options make no sense for resolution ([`check_options`]), the
/// program cannot be started, or fails three times in a row before its first
/// answer, or writes a line that answers no input (exit status 2).
pub fn run(options: &Options, program: &[OsString]) -> Result<ResolveReport, Stop> {
    check_options(options)?;
    let variant = options.grammar;
    let grammars = Grammars::builtin();
    let pairs = pairs(&grammars, variant, options.seed, options.budget)?;
    let mut asker = Asker {
        subject: Subject::new(
            Program {
                command: program.to_vec(),
                grammar: variant.as_str().to_string(),
                rule: reference_rule(variant).to_string(),
            },
            options.timeout,
        )
        .with_env(MODE_VARIABLE, "resolve"),
        cache: HashMap::new(),
        failures: Failures::default(),
    };

    let (mut agreed, mut asked) = (0, 0);
    let mut raw: Vec<(Pair, (Kind, Step))> = Vec::new();
    let mut stopped_early = None;
    for pair in &pairs {
        if let Some(why) = asker.too_many_failures() {
            stopped_early = Some(why);
            break;
        }
        asked += 1;
        if asked > UNDERSTOOD_WITHIN
            && asker.failures.unreadable.len() + asker.failures.unreadable_left_out >= asked - 1
        {
            return Err(Stop(not_this_exchange(program, &asker.failures.unreadable)));
        }
        if let Outcome::Answer(a) = asker.ask(pair)? {
            match judge(variant, pair, &a) {
                None => agreed += 1,
                Some(way) => raw.push((pair.clone(), way)),
            }
        }
    }

    // Group by way, then shrink the shortest few of each: the reference, then the
    // base, then the reference again, each while the pair disagrees the same way.
    let mut ways: Vec<((Kind, Step), Vec<&Pair>)> = Vec::new();
    for (p, way) in &raw {
        match ways.iter_mut().find(|(w, _)| w == way) {
            Some((_, list)) => list.push(p),
            None => ways.push((*way, vec![p])),
        }
    }
    let mut groups = Vec::new();
    for (way, mut found) in ways {
        found.sort_by_key(|p| (p.len(), p.base.clone(), p.reference.clone()));
        let mut examples: Vec<ResolveExample> = Vec::new();
        for p in found.iter().take(MINIMIZED_PER_GROUP) {
            if stopped_early.is_none() {
                stopped_early = asker.too_many_failures();
            }
            let mut m = (*p).clone();
            if stopped_early.is_none() {
                for part in [0, 1, 0] {
                    let keeps = |asker: &mut Asker, t: &Pair| asker.way(variant, t) == Some(way);
                    m = if part == 0 {
                        let base = m.base.clone();
                        let r = shrink(&m.reference, |t| keeps(&mut asker, &Pair::new(&base, t)));
                        Pair::new(&base, &r)
                    } else {
                        let reference = m.reference.clone();
                        let b = shrink(&m.base, |t| keeps(&mut asker, &Pair::new(t, &reference)));
                        Pair::new(&b, &reference)
                    };
                }
            }
            let got = match asker.cache.get(&m) {
                Some(Outcome::Answer(a)) => a.clone(),
                _ => continue,
            };
            if examples
                .iter()
                .any(|e| e.base == m.base && e.reference == m.reference)
            {
                continue;
            }
            let expected = library(variant, &m).and_then(Result::ok).map(|t| t.target);
            examples.push(ResolveExample {
                base: m.base.clone(),
                reference: m.reference.clone(),
                expected,
                got,
                found: (*p).clone(),
            });
        }
        examples.sort_by_key(|e| {
            let n = e.base.chars().count() + e.reference.chars().count();
            (n, e.base.clone(), e.reference.clone())
        });
        examples.truncate(options.examples.max(1));
        let section = way.1.section();
        groups.push(ResolveGroup {
            kind: way.0,
            step: way.1,
            title: way.1.title(),
            section,
            section_url: section.map(section_url),
            count: found.len(),
            examples,
        });
    }
    groups.sort_by_key(|g| (g.kind, g.step));

    asker.minimize_crashes();
    asker.subject.close();
    Ok(ResolveReport {
        mode: "resolve",
        program: program
            .iter()
            .map(|a| a.to_string_lossy().into_owned())
            .collect(),
        grammar: variant.as_str().to_string(),
        seed: options.seed,
        budget: options.budget,
        timeout_ms: u64::try_from(options.timeout.as_millis()).unwrap_or(u64::MAX),
        bases: BASES.to_vec(),
        inputs: asked,
        asked: asker.cache.len(),
        agreed,
        disagreements: raw.len(),
        starts: asker.subject.starts,
        stopped_early,
        groups,
        hangs: asker.failures.hangs,
        crashes: asker.failures.crashes,
        unreadable: asker.failures.unreadable,
        unreadable_left_out: asker.failures.unreadable_left_out,
    })
}

/// A link to a section of RFC 3986.
fn section_url(section: &str) -> String {
    format!("https://www.rfc-editor.org/rfc/rfc3986#section-{section}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use iri_grammar::resolve::remove_dot_segments;

    fn pair(base: &str, reference: &str) -> Pair {
        Pair::new(base, reference)
    }

    fn way(base: &str, reference: &str, got: Option<&str>) -> Option<(Kind, Step)> {
        judge(
            VariantName::Iri,
            &pair(base, reference),
            &got.map(str::to_string),
        )
    }

    #[test]
    fn the_merge_is_the_librarys() {
        // The trace's merge, run through remove_dot_segments, is the library's path
        // for every relative-path example of RFC 3986 §5.4.
        for r in RFC_REFERENCES {
            let p = pair(RFC_BASE, r);
            let t = library(VariantName::Iri, &p).unwrap().unwrap();
            if t.branch == Step::RelativePath {
                let path = remove_dot_segments(&t.path_before);
                assert!(
                    t.target.starts_with(&format!("http://a{path}")),
                    "{r}: {t:?}"
                );
            }
        }
    }

    #[test]
    fn each_deviation_is_put_at_its_step() {
        let b = RFC_BASE;
        assert_eq!(way(b, "g", Some("http://a/b/c/g")), None);
        assert_eq!(
            way(b, "../g", Some("http://a/b/c/../g")),
            Some((Kind::Target, Step::RemoveDotSegments))
        );
        assert_eq!(
            way(b, "g", Some("http://a/b/c/d;pg")),
            Some((Kind::Target, Step::Merge))
        );
        assert_eq!(
            way(b, "g", Some("http://a/b/c/g?q")),
            Some((Kind::Target, Step::QueryInheritance))
        );
        assert_eq!(
            way(b, "http:g", Some("http://a/b/c/g")),
            Some((Kind::Target, Step::NonStrict))
        );
        assert_eq!(
            way("http://a", "", Some("http://a/")),
            Some((Kind::Target, Step::Normalizes))
        );
        assert_eq!(
            way("a:", "%2e", Some("a:")),
            Some((Kind::Target, Step::RemoveDotSegments))
        );
        assert_eq!(
            way("a:///", "%2e%2e", Some("a:////%2e%2e")),
            Some((Kind::Target, Step::RemoveDotSegments))
        );
        assert_eq!(
            way("a:", "A:", Some("a:")),
            Some((Kind::Target, Step::Normalizes))
        );
        assert_eq!(
            way(b, "g", Some("HTTP://a/b/c/g")),
            Some((Kind::Target, Step::Normalizes))
        );
        assert_eq!(
            way("http://a/./b", "", Some("http://a/b")),
            Some((Kind::Target, Step::EmptyPath))
        );
        assert_eq!(
            way(b, "//g", Some("http://a/g")),
            Some((Kind::Target, Step::ReferenceAuthority))
        );
        assert_eq!(
            way(b, "#s", Some("http://a/b/c/d;p?q#s#s")).map(|w| w.0),
            Some(Kind::Target)
        );
        assert_eq!(way(b, "g", None), Some((Kind::Refuses, Step::RelativePath)));
        assert_eq!(
            way("a", "g", Some("a/g")),
            Some((Kind::ResolvesInvalid, Step::BaseRelative))
        );
        assert_eq!(
            way(b, "a b", Some("http://a/b/c/a b")),
            Some((Kind::ResolvesInvalid, Step::ReferenceInvalid))
        );
        assert_eq!(way(b, "a b", None), None);
    }

    #[test]
    fn answers_are_read() {
        assert_eq!(read_target(r#""a\u00e9""#), Ok(Some("a\u{e9}".to_string())));
        for bad in ["", "valid", "\"a", "{\"target\": 1}", "http://a"] {
            assert!(read_target(bad).is_err(), "{bad}");
        }
    }
}
