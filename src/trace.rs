//! Step-by-step traces of the generated combinators: each rule entered, matched or
//! failed, each alternative tried and given up (backtracking), each terminal that did
//! not match, and the lookahead decisions that make the ordered translation of ABNF
//! exact (`Ahead`: a match is kept only if what follows may follow it; `First`: an
//! alternative is skipped when the next character cannot start it; both operators of
//! the generated code, unstable, in the hidden `combinators::unstable`).
//!
//! The steps are recorded by the combinators themselves, run in
//! [`Trace`](crate::combinators::Trace) mode: the trace is what the parser does, not a
//! model of it. Other modes compile the recording away (see
//! [`Mode::TRACE`](crate::combinators::Mode::TRACE)).
//!
//! Alternation is ordered here (RFC 3987 §2.2 and RFC 3986 §3.2.2 rely on "first match
//! wins"; RFC 5234 §3.2 itself is unordered): each [`Event::Backtrack`] says why an
//! alternative failed, which is why a later one was taken.
//!
//! ```
//! use iri_grammar::{trace::{trace_of, Event}, Iri, Rule};
//! let t = trace_of::<Iri>(Rule::Ipv6address, "::ffff:1.2.3.4");
//! assert!(t.matched);
//! // Alternatives 1 to 5 of IPv6address were given up before 6 matched.
//! let given_up: Vec<u16> = t.steps.iter().filter_map(|s| match &s.event {
//!     Event::Backtrack { rule: "IPv6address", k, .. } => Some(*k),
//!     _ => None,
//! }).collect();
//! assert_eq!(given_up, [1, 2, 3, 4, 5]);
//! ```

use crate::grammar::runtime::{self, Expected, Set, Step};
use crate::grammar::{describe, describe_char, full_match, Expectation, Rule, Variant};
use crate::VariantName;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// What happened at one step; offsets are in bytes, as in [`crate::ParseTree`].
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// The rule's combinator is called.
    Enter {
        /// The rule, by its name in the trace's grammar.
        rule: &'static str,
    },
    /// The rule matched `start..end`.
    Match {
        /// The rule.
        rule: &'static str,
        /// Where it started.
        start: usize,
        /// Where it ended.
        end: usize,
    },
    /// The rule failed (it was entered at `start`).
    Fail {
        /// The rule.
        rule: &'static str,
        /// Where it started.
        start: usize,
    },
    /// The rule's alternation tries alternative `k` of `of`.
    Try {
        /// The rule whose definition is the alternation.
        rule: &'static str,
        /// Which, 1-based.
        k: u16,
        /// Of how many.
        of: u16,
    },
    /// Alternative `k` of `of` failed; the next starts again where it started.
    Backtrack {
        /// The rule whose definition is the alternation.
        rule: &'static str,
        /// Which, 1-based.
        k: u16,
        /// Of how many.
        of: u16,
        /// The farthest place the alternative got to before failing.
        failed_at: usize,
        /// Why it failed, in words: what was expected there, or the lookahead that
        /// refused it.
        why: String,
    },
    /// A terminal did not match here.
    Expected {
        /// What would have matched.
        expected: Vec<Expectation>,
    },
    /// A match ended here, and the next character (or the end) may follow it, or not;
    /// if not, the match is given up.
    Ahead {
        /// Whether it may follow.
        admitted: bool,
        /// What may follow, in words (`"#", "/", ":", "?" or the end`).
        follow: String,
    },
    /// The next character cannot start the alternative: it is skipped untried.
    Skip {
        /// What can start it, in words.
        first: String,
    },
    /// A terminal (quoted string or range of code points) matched `start..end`.
    Terminal {
        /// Where it started.
        start: usize,
        /// Where it ended.
        end: usize,
    },
    /// A run of characters of a class matched `start..end` (one table lookup a
    /// character, where the generator proved that taking as many as possible is exact).
    Scan {
        /// Where the run started.
        start: usize,
        /// Where it ended.
        end: usize,
        /// What the class stands for.
        class: Vec<Expectation>,
    },
}

/// One step: where it happened, how deep in the rules, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceStep {
    /// How many rules are being matched around it (the rule asked for is depth 0).
    pub depth: usize,
    /// The byte offset it happened at.
    pub at: usize,
    /// What happened.
    pub event: Event,
}

/// The trace of matching an input against a rule.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Trace<'a> {
    /// The grammar.
    pub variant: VariantName,
    /// The rule asked for.
    pub rule: &'static str,
    /// The input.
    pub input: &'a str,
    /// The steps, in order.
    pub steps: Vec<TraceStep>,
    /// Whether all of the input matched the rule.
    pub matched: bool,
    /// Whether the trace was cut after [`TRACE_LIMIT`](crate::combinators::TRACE_LIMIT)
    /// steps.
    pub cut: bool,
}

/// The trace of matching all of `input` against `rule` in grammar `V`.
///
/// ```
/// use iri_grammar::{trace::{trace_of, Event}, Uri, Rule};
/// let t = trace_of::<Uri>(Rule::DecOctet, "25");
/// assert_eq!(t.steps[0].event, Event::Enter { rule: "dec-octet" });
/// assert!(matches!(t.steps.last().unwrap().event, Event::Match { rule: "dec-octet", start: 0, end: 2 }));
/// ```
pub fn trace_of<V: Variant>(rule: Rule, input: &str) -> Trace<'_> {
    let (result, raw, cut) =
        runtime::Trace::collect(|| full_match::<V, runtime::Trace>(rule, input));
    Trace {
        variant: V::NAME,
        rule: rule.name::<V>(),
        input,
        steps: steps::<V>(input, &raw),
        matched: result.is_ok(),
        cut,
    }
}

/// `"#", "/", ":", "?" or the end of the input`: a set of characters in words.
fn set_in_words(s: &Set) -> String {
    let (ascii, non_ascii, end) = s.members();
    // Runs of three or more consecutive characters as ranges: "0"–"9", not ten.
    let mut parts: Vec<String> = Vec::new();
    let mut k = 0;
    while k < ascii.len() {
        let mut j = k;
        while j + 1 < ascii.len() && ascii[j + 1] as u32 == ascii[j] as u32 + 1 {
            j += 1;
        }
        if j >= k + 2 {
            parts.push(format!(
                "{}–{}",
                char_in_words(ascii[k]),
                char_in_words(ascii[j])
            ));
            k = j + 1;
        } else {
            parts.push(char_in_words(ascii[k]));
            k += 1;
        }
    }
    if non_ascii {
        parts.push(String::from("any character beyond ASCII"));
    }
    if end {
        parts.push(String::from("the end of the input"));
    }
    match parts.len() {
        0 => String::from("nothing"),
        1 => parts.remove(0),
        n => {
            let last = parts.remove(n - 1);
            format!("{} or {last}", parts.join(", "))
        }
    }
}

/// `"/"` for a visible ASCII character, `U+0020 SPACE` otherwise.
fn char_in_words(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("{c:?}").replace('\'', "\"")
    } else {
        describe_char(c)
    }
}

/// The next character of `input` at byte `at` in words, or "the end of the input".
fn next_in_words(input: &str, at: usize) -> String {
    match input[at..].chars().next() {
        Some(c) => char_in_words(c),
        None => String::from("the end of the input"),
    }
}

fn expectations<V: Variant>(e: &[Expected]) -> Vec<Expectation> {
    e.iter().filter_map(|x| describe::<V>(x)).collect()
}

/// `"/", "?" or end of input`.
pub(crate) fn list_in_words(e: &[Expectation]) -> String {
    let parts: Vec<String> = e.iter().map(|x| format!("{x}")).collect();
    match parts.split_last() {
        None => String::from("nothing"),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// The runtime's steps as [`TraceStep`]s: offsets, depths, rule names, and for each
/// alternative given up, why.
fn steps<V: Variant>(input: &str, raw: &[Step]) -> Vec<TraceStep> {
    let len = input.len();
    let mut out: Vec<TraceStep> = Vec::with_capacity(raw.len());
    // The rules being matched, innermost last: the rule a Try belongs to.
    let mut open: Vec<Rule> = Vec::new();
    // The last Try of each (depth, alternative, offset): where a Backtrack's attempt began.
    let mut tries: BTreeMap<(usize, u16, usize), usize> = BTreeMap::new();
    for s in raw {
        let depth = open.len();
        let (depth, at, event) = match s {
            Step::Enter { rule, rem } => {
                open.push(*rule);
                (
                    depth,
                    len - rem,
                    Event::Enter {
                        rule: rule.name::<V>(),
                    },
                )
            }
            Step::Match {
                rule,
                start_rem,
                end_rem,
            } => {
                open.pop();
                (
                    open.len(),
                    len - end_rem,
                    Event::Match {
                        rule: rule.name::<V>(),
                        start: len - start_rem,
                        end: len - end_rem,
                    },
                )
            }
            Step::Fail {
                rule, start_rem, ..
            } => {
                open.pop();
                (
                    open.len(),
                    len - start_rem,
                    Event::Fail {
                        rule: rule.name::<V>(),
                        start: len - start_rem,
                    },
                )
            }
            Step::Try { k, of, rem } => {
                tries.insert((depth, *k, len - rem), out.len());
                (
                    depth,
                    len - rem,
                    Event::Try {
                        rule: open.last().map_or("", |r| r.name::<V>()),
                        k: *k,
                        of: *of,
                    },
                )
            }
            Step::Backtrack { k, of, rem } => {
                let at = len - rem;
                let from = tries.get(&(depth, *k, at)).copied().unwrap_or(out.len());
                let (failed_at, why) = why_failed(input, &out[from..], at);
                (
                    depth,
                    at,
                    Event::Backtrack {
                        rule: open.last().map_or("", |r| r.name::<V>()),
                        k: *k,
                        of: *of,
                        failed_at,
                        why,
                    },
                )
            }
            Step::Expected { rem, expected } => (
                depth,
                len - rem,
                Event::Expected {
                    expected: expectations::<V>(expected),
                },
            ),
            Step::Ahead {
                rem,
                follow,
                admitted,
            } => (
                depth,
                len - rem,
                Event::Ahead {
                    admitted: *admitted,
                    follow: set_in_words(follow),
                },
            ),
            Step::Skip { rem, first } => (
                depth,
                len - rem,
                Event::Skip {
                    first: set_in_words(first),
                },
            ),
            Step::Terminal { start_rem, end_rem } => (
                depth,
                len - end_rem,
                Event::Terminal {
                    start: len - start_rem,
                    end: len - end_rem,
                },
            ),
            Step::Scan {
                start_rem,
                end_rem,
                class,
            } => (
                depth,
                len - end_rem,
                Event::Scan {
                    start: len - start_rem,
                    end: len - end_rem,
                    class: expectations::<V>(class),
                },
            ),
        };
        out.push(TraceStep { depth, at, event });
    }
    out
}

/// Why an attempt that began at `start` failed, from its steps: the farthest place it
/// got to, and what stopped it there (the terminals expected, a lookahead that refused
/// the match, or a first character that cannot start it).
fn why_failed(input: &str, attempt: &[TraceStep], start: usize) -> (usize, String) {
    let failing = |s: &&TraceStep| {
        matches!(
            s.event,
            Event::Expected { .. }
                | Event::Ahead {
                    admitted: false,
                    ..
                }
                | Event::Skip { .. }
        )
    };
    let far = attempt
        .iter()
        .filter(failing)
        .map(|s| s.at)
        .max()
        .unwrap_or(start);
    let mut expected: Vec<Expectation> = Vec::new();
    let mut refused: Option<&str> = None;
    let mut skipped = false;
    for s in attempt.iter().filter(failing).filter(|s| s.at == far) {
        match &s.event {
            Event::Expected { expected: e } => {
                for x in e {
                    if !expected.contains(x) {
                        expected.push(*x);
                    }
                }
            }
            Event::Ahead { follow, .. } => refused = Some(follow),
            _ => skipped = true,
        }
    }
    let next = next_in_words(input, far);
    let why = if let Some(follow) = refused {
        // The lookahead is the reason even where a terminal also failed there: the
        // match was whole, only what follows it was wrong.
        format!("it matched up to {far}, but {next} may not follow it (only {follow})")
    } else if !expected.is_empty() {
        format!(
            "at {far}, {next} where {} was expected",
            list_in_words(&expected)
        )
    } else if skipped {
        format!("{next} cannot start it")
    } else {
        String::from("it failed")
    };
    (far, why)
}

impl Trace<'_> {
    /// One step a line, numbered from 1: the byte offset, then the step indented by
    /// depth (`enter`, `match`, `fail`, `try`, `backtrack`, `expected`, `ahead`,
    /// `skip`, `scan`).
    ///
    /// ```
    /// use iri_grammar::{trace::trace_of, Uri, Rule};
    /// let text = trace_of::<Uri>(Rule::DecOctet, "7").to_text();
    /// assert!(text.starts_with("    1     0  enter dec-octet\n    2     0    try alternative 1 of 5\n"));
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (n, s) in self.steps.iter().enumerate() {
            out.push_str(&format!(
                "{:>5} {:>5}  {:indent$}{}\n",
                n + 1,
                s.at,
                "",
                s.describe(self.input),
                indent = 2 * s.depth
            ));
        }
        if self.cut {
            out.push_str("(cut: more steps than a trace keeps)\n");
        }
        out
    }

    /// For the node of `rule` that matched `start..end` (the last such match of the
    /// trace, the one a tree keeps): the alternatives of its definition given up
    /// before the one it took, each with its number, where it failed and why.
    ///
    /// ```
    /// use iri_grammar::{trace::trace_of, Iri, Rule};
    /// let t = trace_of::<Iri>(Rule::Ihost, "1.2.3.4x");
    /// // IPv4address matched "1.2.3.4", but "x" may not follow it: ireg-name won.
    /// let before = t.alternatives_before("ihost", 0, 8);
    /// assert_eq!(before.len(), 2);
    /// assert!(before[1].2.contains("\"x\" may not follow it"), "{}", before[1].2);
    /// ```
    pub fn alternatives_before(
        &self,
        rule: &str,
        start: usize,
        end: usize,
    ) -> Vec<(u16, usize, String)> {
        let Some(m) = self.steps.iter().rposition(|s| {
            matches!(&s.event, Event::Match { rule: r, start: a, end: b }
                if *r == rule && *a == start && *b == end)
        }) else {
            return Vec::new();
        };
        let depth = self.steps[m].depth;
        let Some(e) = self.steps[..m].iter().rposition(|s| {
            s.depth == depth && matches!(&s.event, Event::Enter { rule: r } if *r == rule)
        }) else {
            return Vec::new();
        };
        self.steps[e..m]
            .iter()
            .filter(|s| s.depth == depth + 1)
            .filter_map(|s| match &s.event {
                Event::Backtrack {
                    k, failed_at, why, ..
                } => Some((*k, *failed_at, why.clone())),
                _ => None,
            })
            .collect()
    }
}

impl TraceStep {
    /// The step in words, as `iri trace` prints it.
    pub fn describe(&self, input: &str) -> String {
        match &self.event {
            Event::Enter { rule } => format!("enter {rule}"),
            Event::Match { rule, start, end } => {
                format!("match {rule} {start}..{end} {:?}", &input[*start..*end])
            }
            Event::Fail { rule, start } => format!("fail {rule} (entered at {start})"),
            Event::Try { k, of, .. } => format!("try alternative {k} of {of}"),
            Event::Backtrack {
                k,
                of,
                failed_at,
                why,
                ..
            } => format!("backtrack: alternative {k} of {of} failed (got to {failed_at}: {why})"),
            Event::Expected { expected } => format!(
                "expected {}, found {}",
                list_in_words(expected),
                next_in_words(input, self.at)
            ),
            Event::Ahead {
                admitted: true,
                follow,
            } => format!(
                "ahead: {} may follow (one of {follow}): keep the match",
                next_in_words(input, self.at)
            ),
            Event::Ahead {
                admitted: false,
                follow,
            } => format!(
                "ahead: {} may not follow (only {follow}): give the match up",
                next_in_words(input, self.at)
            ),
            Event::Skip { first } => format!(
                "first: {} cannot start the alternative (only {first}): skip it",
                next_in_words(input, self.at)
            ),
            Event::Terminal { start, end } => {
                format!("terminal {start}..{end} {:?}", &input[*start..*end])
            }
            Event::Scan { start, end, class } => format!(
                "scan {start}..{end} {:?} ({})",
                &input[*start..*end],
                list_in_words(class)
            ),
        }
    }
}
