//! What each input came to ([`Judgement`], [`Cause`]), and the counts of `--summary`
//! ([`Tally`]), written after the results as text or as one JSON object.

use super::visible::{ended_by, Out};
use super::{Outcome, Style, Verdict};
use crate::json::{self, Object};
use iri_grammar::grammar::Expectation;
use std::borrow::Cow;
use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::fmt::Write as _;
use std::hash::{Hash, Hasher};
use std::io::Write;

/// What one input came to: its verdict, and when it did not succeed, its cause, as
/// the summary counts it.
pub struct Judgement {
    pub verdict: Verdict,
    /// The summary's key for an input that did not succeed.
    pub cause: Option<Cause>,
}

impl Judgement {
    pub fn success() -> Judgement {
        Judgement {
            verdict: Verdict::Success,
            cause: None,
        }
    }

    /// A failure; its cause is not counted where it is `None`
    /// ([`super::Sink::failed`]).
    pub(super) fn failed(cause: Option<Cause>) -> Judgement {
        Judgement {
            verdict: Verdict::Failed,
            cause,
        }
    }
}

/// Why an input did not succeed, as `--summary` groups the inputs: the component a
/// reference is blamed in and what it may hold, else the grammar's farthest failure
/// (the component being read, the innermost rule, and everything expected there,
/// each once), or a reason without a place in the grammar (`not-utf8`, `idna`, a
/// lint code, ...).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cause {
    /// `port`, `port`, `a port holds digits only (RFC 3986 §3.2.3)`.
    Blame {
        component: &'static str,
        rule: &'static str,
        reason: Cow<'static, str>,
    },
    /// Names and items borrowed where the library gives them for good, so that
    /// counting an input allocates no more than it must.
    Grammar {
        component: Option<&'static str>,
        rule: Option<Cow<'static, str>>,
        expected: Vec<Item>,
    },
    Reason(String),
}

/// One thing a rule expected, as `--summary` counts it: the library's value, written
/// as text only when the summary is, or the text an oracle gave.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item {
    Expectation(Expectation),
    Text(String),
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Item::Expectation(x) => x.fmt(f),
            Item::Text(s) => f.write_str(s),
        }
    }
}

/// By what tells items apart cheaply (a rule by its name, not its definition):
/// equal items hash alike, and counting an input reads no long text.
impl Hash for Item {
    fn hash<H: Hasher>(&self, h: &mut H) {
        match self {
            Item::Expectation(x) => match *x {
                Expectation::Rule { name, .. } => (0u8, name).hash(h),
                Expectation::Literal(s) => (1u8, s).hash(h),
                Expectation::Range { first, last } => (2u8, first, last).hash(h),
                _ => 3u8.hash(h),
            },
            Item::Text(s) => (4u8, s).hash(h),
        }
    }
}

/// In the order of their text (the summary's order among causes counted alike).
impl Ord for Item {
    fn cmp(&self, other: &Item) -> Ordering {
        self.to_string().cmp(&other.to_string())
    }
}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Item) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// The counts of `--summary`.
#[derive(Default)]
pub(super) struct Tally {
    inputs: usize,
    success: usize,
    unknown: usize,
    failed: usize,
    /// Counted only where a summary is asked for ([`Tally::counting_causes`]).
    causes: HashMap<Cause, usize, foldhash::fast::RandomState>,
    counts_causes: bool,
    /// The run's verdict: the worst of its inputs'.
    verdict: Option<Verdict>,
}

impl Tally {
    /// A tally that counts the inputs by cause (`--summary`) or only by verdict.
    pub(super) fn counting_causes(counts: bool) -> Tally {
        Tally {
            counts_causes: counts,
            ..Tally::default()
        }
    }

    /// How many inputs were counted.
    pub(super) fn inputs(&self) -> usize {
        self.inputs
    }

    pub(super) fn add(&mut self, j: Judgement) {
        self.inputs += 1;
        match j.verdict {
            Verdict::Success => self.success += 1,
            Verdict::Unknown => self.unknown += 1,
            Verdict::Failed => self.failed += 1,
        }
        if let Some(c) = j.cause.filter(|_| self.counts_causes) {
            *self.causes.entry(c).or_insert(0) += 1;
        }
        self.verdict = Some(self.verdict.map_or(j.verdict, |v| v.and(j.verdict)));
    }

    /// `n` inputs that succeeded, counted at once ([`super::ValidLines`]).
    pub(super) fn add_successes(&mut self, n: usize) {
        if n > 0 {
            self.inputs += n;
            self.success += n;
            self.verdict = Some(
                self.verdict
                    .map_or(Verdict::Success, |v| v.and(Verdict::Success)),
            );
        }
    }

    pub(super) fn merge(&mut self, other: Tally) {
        self.inputs += other.inputs;
        self.success += other.success;
        self.unknown += other.unknown;
        self.failed += other.failed;
        for (w, n) in other.causes {
            *self.causes.entry(w).or_insert(0) += n;
        }
        if let Some(v) = other.verdict {
            self.verdict = Some(self.verdict.map_or(v, |w| w.and(v)));
        }
    }

    pub(super) fn verdict(&self) -> Verdict {
        self.verdict.unwrap_or(Verdict::Success)
    }
}

/// Writes the summary if asked for, flushes, and gives the run's status.
pub(super) fn finish(mut out: Out, style: &Style, tally: &Tally) -> Outcome {
    let status = tally.verdict();
    if style.summary {
        let text = if style.json {
            summary_json(tally)
        } else {
            summary_text(tally)
        };
        if let Err(e) = out.write_all(text.as_bytes()) {
            return ended_by(e, status);
        }
    }
    match out.w.flush() {
        Ok(()) => Ok(status),
        Err(e) => ended_by(e, status),
    }
}

/// The reasons counted, most frequent first (then in a fixed order).
fn reasons(tally: &Tally) -> Vec<(&Cause, usize)> {
    let mut v: Vec<(&Cause, usize)> = tally.causes.iter().map(|(w, n)| (w, *n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    v
}

/// The closing block of `--summary`: a line of counts, then one line per reason.
fn summary_text(tally: &Tally) -> String {
    let mut s = format!(
        "summary: {} inputs, {} valid, {} invalid",
        tally.inputs, tally.success, tally.failed
    );
    if tally.unknown > 0 {
        let _ = write!(s, ", {} unknown", tally.unknown);
    }
    s.push('\n');
    for (cause, n) in reasons(tally) {
        match cause {
            Cause::Grammar {
                component,
                rule,
                expected,
            } => {
                let _ = write!(s, "{n:>8}  ");
                if let Some(c) = component {
                    let _ = write!(s, "{c}, ");
                }
                let _ = write!(s, "in {}: expected ", rule.as_deref().unwrap_or("(top)"));
                let n = expected.len();
                if n == 0 {
                    s.push_str("something else");
                }
                for (k, item) in expected.iter().enumerate() {
                    let between = match k {
                        0 => "",
                        k if k + 1 == n => " or ",
                        _ => ", ",
                    };
                    let _ = write!(s, "{between}{item}");
                }
                s.push('\n');
            }
            Cause::Blame {
                component, reason, ..
            } => {
                let _ = writeln!(s, "{n:>8}  {component}: {reason}");
            }
            Cause::Reason(r) => {
                let _ = writeln!(s, "{n:>8}  {r}");
            }
        }
    }
    s
}

/// The summary as one JSON object: `{"summary": {"inputs", "valid", "invalid",
/// "unknown", "failures": [{"count", "component", "rule", "expected", "reason"}]}}`.
fn summary_json(tally: &Tally) -> String {
    let failures = json::array(reasons(tally).into_iter().map(|(cause, n)| {
        let o = Object::new().num("count", n);
        match cause {
            Cause::Grammar {
                component,
                rule,
                expected,
            } => o
                .opt_str("component", *component)
                .opt_str("rule", rule.as_deref())
                .strs(
                    "expected",
                    expected
                        .iter()
                        .map(Item::to_string)
                        .collect::<Vec<_>>()
                        .iter()
                        .map(String::as_str),
                )
                .null("reason"),
            Cause::Blame {
                component,
                rule,
                reason,
            } => o
                .str("component", component)
                .str("rule", rule)
                .strs("expected", std::iter::empty())
                .str("reason", reason),
            Cause::Reason(r) => o
                .null("component")
                .null("rule")
                .strs("expected", std::iter::empty())
                .str("reason", r),
        }
        .finish()
    }));
    let inner = Object::new()
        .num("inputs", tally.inputs)
        .num("valid", tally.success)
        .num("invalid", tally.failed)
        .num("unknown", tally.unknown)
        .raw("failures", &failures)
        .finish();
    let mut s = Object::new().raw("summary", &inner).finish();
    s.push('\n');
    s
}
