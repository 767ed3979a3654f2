//! What the oracle says beyond yes and no: why an input does not match (the farthest
//! point any reading of it reached, and what the grammar expected there) and the
//! parse tree of one that does. For grammars read from files ([`crate::Grammar`]),
//! which have no generated combinators, these are the errors and trees of the `iri`
//! command's `--abnf` mode; they read like the combinators' (`iri_grammar::MatchError`,
//! `iri_grammar::ParseTree`).
//!
//! **Errors.** The oracle reads every way at once (`crate::oracle`), so the farthest
//! position at which some terminal was tried is the end of the longest prefix of the
//! input that some string of the rule starts with: there the input stopped fitting
//! the grammar. What was expected there is every terminal tried there, grouped by the
//! rule that tried it; a rule that matches one character (`DIGIT`) and failed on it is
//! named instead of its characters, as the combinators' messages do.
//!
//! **Trees.** ABNF does not say which of several parses is *the* parse; the tree is
//! the one the generated combinators build where they are exact: the first
//! alternative that can match, and for concatenations and repetitions the longest
//! match of each element that lets the rest match (RFC 3986 §3.2.2's "first match
//! wins", read left to right). Rules that always match exactly one character are
//! folded into their parent, as `iri_grammar::tree` folds them.

mod builder;
mod tree;

pub use builder::MAX_EMPTY_MATCHES;
pub use tree::{Fork, OracleNode, OracleTree, OtherParses};

use super::trace::Trace;
use crate::model::table::Expr;
use crate::model::UnknownRule;
use crate::oracle::{BudgetExceeded, Oracle, Unanswered};
use crate::RuleDef;
use iri_grammar_contract::describe_char;
use std::fmt;

/// Why an input does not match a rule, by the oracle: where, what was found, what the
/// grammar expected. Its [`Display`](fmt::Display) form reads like the combinators'
/// `MatchError`: `at char 3 (U+0078 'x'): version expects DIGIT or "."`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleError {
    /// The rule the whole input was matched against.
    pub start_rule: String,
    /// Byte offset of the failure.
    pub byte_offset: usize,
    /// Character offset of the failure.
    pub char_offset: usize,
    /// The character found there (`None`: the input ended).
    pub found: Option<char>,
    /// The innermost rule being matched there.
    pub rule: Option<String>,
    /// What would have been accepted there, grouped by the rule that expected it.
    pub expected_by: Vec<(String, Vec<String>)>,
    /// The rules enclosing `rule`, innermost first.
    pub within: Vec<String>,
}

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at char {}", self.char_offset)?;
        let found = match self.found {
            Some(c) => describe_char(c),
            None => "end of input".to_string(),
        };
        if self.byte_offset != self.char_offset {
            write!(f, " (byte {}, {found}): ", self.byte_offset)?;
        } else {
            write!(f, " ({found}): ")?;
        }
        if self.expected_by.is_empty() {
            write!(
                f,
                "{} expects something else",
                self.rule.as_deref().unwrap_or(&self.start_rule)
            )?;
        }
        for (k, (owner, items)) in self.expected_by.iter().enumerate() {
            if k > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{owner} expects ")?;
            match items.len() {
                0 => write!(f, "something else")?,
                1 => write!(f, "{}", items[0])?,
                n => write!(f, "{} or {}", items[..n - 1].join(", "), items[n - 1])?,
            }
        }
        if !self.within.is_empty() {
            write!(f, ", in {}", self.within.join(" < "))?;
        }
        Ok(())
    }
}

impl std::error::Error for OracleError {}

/// Why the oracle gives no tree: an unknown rule, or an input that does not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OracleFailure {
    /// The grammar has no such rule (or the rule reaches one it lacks).
    Unknown(UnknownRule),
    /// The input does not match.
    NoMatch(OracleError),
    /// The tree would repeat the empty match of a rule more than
    /// [`MAX_EMPTY_MATCHES`] times (`1000000000r` with `r = ""`).
    TooManyEmptyMatches {
        /// The rule whose definition has the repetition.
        rule: String,
        /// How many empty matches the repetition needs.
        count: u32,
        /// [`MAX_EMPTY_MATCHES`].
        limit: u32,
    },
    /// The oracle spent its work budget ([`Oracle::with_budget`]).
    Budget(BudgetExceeded),
}

impl fmt::Display for OracleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OracleFailure::Unknown(e) => e.fmt(f),
            OracleFailure::NoMatch(e) => e.fmt(f),
            OracleFailure::Budget(e) => e.fmt(f),
            OracleFailure::TooManyEmptyMatches { rule, count, limit } => write!(
                f,
                "the tree of {rule} would hold {count} empty matches of one repetition, \
                 beyond the limit of {limit}"
            ),
        }
    }
}

impl std::error::Error for OracleFailure {}

impl From<UnknownRule> for OracleFailure {
    fn from(e: UnknownRule) -> Self {
        OracleFailure::Unknown(e)
    }
}

impl From<Unanswered> for OracleFailure {
    fn from(e: Unanswered) -> Self {
        match e {
            Unanswered::Unknown(e) => OracleFailure::Unknown(e),
            Unanswered::Budget(e) => OracleFailure::Budget(e),
        }
    }
}

/// Whether an element always matches exactly one character (or one percent
/// triplet, `pct-encoded`, which counts as one), given which rules do: the rules
/// parse trees fold into their parent (`iri_grammar::tree` does the same).
fn single(e: &Expr, singles: &[bool]) -> bool {
    match e {
        Expr::Range(..) => true,
        Expr::Chars(cs, _) => cs.len() == 1,
        Expr::Seq(cps) => cps.len() == 1,
        Expr::Alt(v) => !v.is_empty() && v.iter().all(|x| single(x, singles)),
        Expr::Rule(k) => singles[*k],
        _ => false,
    }
}

impl<'g> Oracle<'g> {
    /// Which rules always match exactly one character or a percent triplet (folded
    /// in trees, named in messages), by table index; a percent triplet itself
    /// (`"%" HEXDIG HEXDIG`: `pct-encoded`, RFC 2396's `escaped`) is not folded.
    fn character_rules(&self) -> Vec<bool> {
        let nodes = &self.table.nodes;
        let hexdig = |e: &Expr| matches!(e, Expr::Rule(h) if self.table.rules[*h].name.eq_ignore_ascii_case("HEXDIG"));
        let pct: Vec<bool> = nodes
            .iter()
            .map(|n| {
                matches!(n, Expr::Cat(v) if v.len() == 3
                && matches!(&v[0], Expr::Chars(c, _) if c[..] == ['%'])
                && hexdig(&v[1]) && hexdig(&v[2]))
            })
            .collect();
        let mut singles = pct.clone();
        loop {
            let mut changed = false;
            for k in 0..nodes.len() {
                if !singles[k] && single(&nodes[k], &singles) {
                    singles[k] = true;
                    changed = true;
                }
            }
            if !changed {
                for (s, p) in singles.iter_mut().zip(&pct) {
                    *s &= !p;
                }
                return singles;
            }
        }
    }

    /// The rules that always match exactly one character, or a percent triplet as
    /// one (`ALPHA`, `unreserved`, `sub-delims`, `ucschar`, `pchar`): the classes of
    /// characters the document names, in table order. A program that confuses two of them (a scheme that takes what
    /// `unreserved` takes) parts from the grammar at the characters of one that the
    /// other lacks.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let o = Oracle::new(&g, VariantName::Uri);
    /// let names: Vec<&str> = o.character_classes().iter().map(|r| r.name.as_str()).collect();
    /// assert!(names.contains(&"unreserved") && names.contains(&"sub-delims"));
    /// assert!(names.contains(&"pchar"));
    /// assert!(!names.contains(&"pct-encoded") && !names.contains(&"segment"));
    /// ```
    pub fn character_classes(&self) -> Vec<&'g RuleDef> {
        let singles = self.character_rules();
        (self.table.rules.iter().zip(singles))
            .filter(|(_, single)| *single)
            .map(|(r, _)| *r)
            .collect()
    }

    /// Whether `input` matches `rule`, and if not, where and why.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammar};
    /// let g = Grammar::from_abnf(&[("v.abnf", "version = 1*DIGIT \".\" 1*DIGIT\n")]).unwrap();
    /// let o = Oracle::of(&g);
    /// assert!(o.check("version", "1.2").unwrap().is_ok());
    /// let e = o.check("version", "1x2").unwrap().unwrap_err();
    /// assert_eq!(e.to_string(), "at char 1 (U+0078 'x'): version expects DIGIT or \".\"");
    /// ```
    ///
    /// # Errors
    /// [`Unanswered`], as for [`Oracle::matches`].
    pub fn check(&self, rule: &str, input: &str) -> Result<Result<(), OracleError>, Unanswered> {
        if self.matches(rule, input)? {
            return Ok(Ok(()));
        }
        Ok(Err(self.explain(rule, input)?))
    }

    /// Why `input` does not match `rule` (call it for a non-match; for a match the
    /// "error" is at the end of the input).
    ///
    /// # Errors
    /// [`Unanswered`], as for [`Oracle::matches`].
    pub fn explain(&self, rule: &str, input: &str) -> Result<OracleError, Unanswered> {
        let k = self.table.resolve(rule)?;
        let chars: Vec<char> = input.chars().collect();
        let mut run = self.run(&chars);
        run.trace = Some(Trace::default());
        let ends = self.settled_rule_ends(k, 0, &mut run);
        if run.exceeded {
            return Err(self.exceeded(rule, &run).into());
        }
        let trace = run.trace.take().unwrap_or_default();
        // The longest match that did not take the whole input: the end of input
        // would have been needed there.
        let longest = ends.iter().copied().filter(|&e| e < chars.len()).max();
        let at = trace.farthest.max(longest.unwrap_or(0));
        let singles = self.character_rules();
        let name = |r: usize| self.table.shown_name(r);
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        let mut push =
            |owner: String, what: String| match groups.iter_mut().find(|(o, _)| *o == owner) {
                Some((_, items)) if !items.contains(&what) => items.push(what),
                Some(_) => {}
                None => groups.push((owner, vec![what])),
            };
        let mut innermost: Vec<(usize, usize)> = Vec::new();
        if trace.farthest == at {
            for e in &trace.expected {
                // A character rule that failed on its one character is what was
                // expected, by the rule around it.
                let folded = e
                    .chain
                    .iter()
                    .take_while(|(r, s)| *s == at && singles[*r])
                    .count();
                let (what, chain) = if folded > 0 {
                    let (r, _) = e.chain[folded - 1];
                    let what = match self.table.rules[r].short_definition() {
                        Some(d) => format!("{} ({d})", name(r)),
                        None => name(r),
                    };
                    (what, &e.chain[folded..])
                } else {
                    (e.what.clone(), &e.chain[..])
                };
                let owner = chain.first().map_or(name(k), |&(r, _)| name(r));
                push(owner, what);
                if chain.len() > innermost.len() {
                    innermost = chain.to_vec();
                }
            }
        }
        if longest == Some(at) {
            push(name(k), "end of input".to_string());
        }
        // The end of input reads best last, in the whole rule's group.
        for (_, items) in groups.iter_mut() {
            if let Some(p) = items.iter().position(|e| e == "end of input") {
                let end = items.remove(p);
                items.push(end);
            }
        }
        let mut names: Vec<String> = innermost.iter().map(|&(r, _)| name(r)).collect();
        names.dedup();
        let byte_offset = chars[..at].iter().map(|c| c.len_utf8()).sum();
        Ok(OracleError {
            start_rule: name(k),
            byte_offset,
            char_offset: at,
            found: chars.get(at).copied(),
            rule: (!names.is_empty()).then(|| names.remove(0)),
            expected_by: groups,
            within: names,
        })
    }
}

#[cfg(test)]
mod tests;
