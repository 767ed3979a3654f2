//! How two grammars differ, shown by strings: strings one rule matches and the other
//! does not, found by drawing strings from each grammar and judging them with the
//! other's oracle, each made as small as it goes, and grouped by the rules where the
//! two grammars part (what `iri diff-grammars` prints, and what
//! `docs/grammar-history.md` is made of).
//!
//! **Finding.** From each side's rule, strings are drawn with [`Generator`] (every
//! alternative and repetition count, biased toward the edges), and near misses of
//! them ([`Generator::mutate`]: inserted, deleted, replaced characters, many of them
//! delimiters, controls and characters beyond ASCII) that the side still matches. A
//! string is a difference when the other side's oracle does not match it. Drawing
//! finds what the grammars *generate*; near misses find what only one of them lets
//! through (a space, a bracket). It is a search, not a proof: a difference it does
//! not find may exist (the test of `docs/grammar-history.md` pins the ones it does).
//!
//! **Minimizing.** Each difference is shrunk ([`crate::strings::shrink`]) while it stays the
//! same difference (the one side matches, the other does not, and they part at the
//! same rules): first by deleting characters, runs of them halving in length down to
//! one (delta debugging, Zeller and Hildebrandt 2002), then by replacing each
//! remaining character with a plainer one (`a`, `0`) where that keeps it, then by
//! deleting again. What is left is short and has only the characters that make the
//! difference. Keeping the place where they part keeps the groups apart: `a.1` (a
//! host whose last label starts with a digit, not a 2001 `hostname`) would otherwise
//! shrink to the empty host, another difference.
//!
//! **Grouping.** Where they part is read from both sides at the position where the
//! other side's oracle fails (its explanation, [`crate::oracle::explain`]): the innermost
//! rule of the matching side's tree around that position, and the rule that expected
//! something else on the other side. `a?[` is in the 2001 draft's `iquery` and not
//! in RFC 3987's `iquery`.

use crate::model::UnknownRule;
use crate::oracle::explain::OracleError;
use crate::oracle::explain::OracleFailure;
use crate::oracle::{BudgetExceeded, Oracle, Unanswered};
use crate::strings::generate::Generator;
use crate::strings::shrink::shrink;
use crate::{Grammar, Grammars, RuleDef, VariantName};
use std::cell::RefCell;

/// One side of a comparison: a rule of a grammar, its oracle and a generator.
#[derive(Debug)]
pub struct Language<'g> {
    /// How the grammar is named in output (`iri-2001`, a file name).
    pub grammar: String,
    /// The rule compared.
    pub rule: String,
    oracle: Oracle<'g>,
    generator: Generator<'g>,
    /// The first time the oracle spent its budget ([`Language::exceeded`]).
    spent: RefCell<Option<BudgetExceeded>>,
}

impl<'g> Language<'g> {
    /// A built-in grammar's rule (its reference rule if `rule` is `None`).
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar has no such rule.
    pub fn builtin(
        g: &'g Grammars,
        v: VariantName,
        rule: Option<&str>,
        seed: u64,
    ) -> Result<Language<'g>, UnknownRule> {
        let rule = rule.map_or_else(|| reference_rule(v).to_string(), str::to_string);
        let oracle = Oracle::new(g, v);
        oracle.knows(&rule)?;
        Ok(Language {
            grammar: v.as_str().to_string(),
            rule,
            oracle,
            generator: Generator::new(g, v, seed),
            spent: RefCell::new(None),
        })
    }

    /// A rule of a grammar read from files.
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar has no such rule.
    pub fn of(g: &'g Grammar, rule: &str, seed: u64) -> Result<Language<'g>, UnknownRule> {
        let oracle = Oracle::of(g);
        oracle.knows(rule)?;
        Ok(Language {
            grammar: g.name().to_string(),
            rule: rule.to_string(),
            oracle,
            generator: Generator::of(g, seed),
            spent: RefCell::new(None),
        })
    }

    /// The same side with the oracle's work budget set to `steps`
    /// ([`Oracle::with_budget`]).
    #[must_use]
    pub fn with_budget(mut self, steps: u64) -> Language<'g> {
        self.oracle = self.oracle.with_budget(steps);
        self
    }

    /// Whether the rule matches all of `s`. A string the oracle cannot judge within
    /// its budget counts as not matched, and the budget error is kept
    /// ([`Language::exceeded`]); [`differences`] stops at the first.
    pub fn matches(&self, s: &str) -> bool {
        match self.oracle.matches(&self.rule, s) {
            Ok(m) => m,
            Err(e) => {
                self.keep(e);
                false
            }
        }
    }

    /// Why the rule does not match `s`.
    pub fn explain(&self, s: &str) -> Option<OracleError> {
        self.oracle
            .explain(&self.rule, s)
            .map_err(|e| self.keep(e))
            .ok()
    }

    /// The first budget error of this side's oracle, if it spent its budget: what
    /// was found since is not to be trusted.
    pub fn exceeded(&self) -> Option<BudgetExceeded> {
        self.spent.borrow().clone()
    }

    fn keep(&self, e: Unanswered) {
        if let Unanswered::Budget(b) = e {
            self.spent.borrow_mut().get_or_insert(b);
        }
    }

    /// The definition of a rule of the grammar (to show beside a group).
    pub fn definition(&self, name: &str) -> Option<&'g RuleDef> {
        self.oracle.rule(name)
    }
}

/// The rule of a grammar's references, by its own name.
pub fn reference_rule(v: VariantName) -> &'static str {
    match v {
        VariantName::Uri => "URI-reference",
        VariantName::Iri | VariantName::Iri2001 => "IRI-reference",
        VariantName::Leiri => "LEIRI-reference",
    }
}

/// Strings one side matches and the other does not, that part at the same rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The side that matches them (0: the first, 1: the second).
    pub only_in: usize,
    /// The innermost rule of the matching side around where they part.
    pub rule: String,
    /// The rule of the other side that expected something else there.
    pub other_rule: String,
    /// The examples, minimized, shortest first (at most [`Options::examples`]).
    pub examples: Vec<String>,
    /// The other side's message for the first example.
    pub error: String,
    /// How many of the strings drawn fell in this group before minimizing.
    pub found: usize,
}

/// How hard to look.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Strings drawn from each side.
    pub samples: usize,
    /// Strings minimized per group (the rest only counted).
    pub minimize: usize,
    /// Examples kept per group.
    pub examples: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            samples: 2000,
            minimize: 4,
            examples: 3,
        }
    }
}

/// The differences between the two sides, both ways: groups of strings only the
/// first matches, then only the second, each sorted by its rules. It stops when
/// either side's oracle spends its budget ([`Language::exceeded`] says so; what it
/// found is then not to be trusted).
pub fn differences(sides: &mut [Language<'_>; 2], options: &Options) -> Vec<Group> {
    let mut groups = Vec::new();
    for only_in in 0..2 {
        groups.extend(one_way(sides, only_in, options));
    }
    groups
}

fn spent(sides: &[Language<'_>; 2]) -> bool {
    sides.iter().any(|s| s.spent.borrow().is_some())
}

fn one_way(sides: &mut [Language<'_>; 2], only_in: usize, options: &Options) -> Vec<Group> {
    let other = 1 - only_in;
    // Raw differences, by the rules where they part.
    let mut raw: Vec<((String, String), Vec<String>, usize)> = Vec::new();
    for k in 0..options.samples {
        if spent(sides) {
            return Vec::new();
        }
        let s = sides[only_in]
            .generator
            .generate(&sides[only_in].rule.clone())
            .unwrap_or_default();
        let mut candidates = vec![s.clone()];
        if k % 2 == 1 {
            candidates.push(sides[only_in].generator.mutate(&s));
            candidates.push(sides[only_in].generator.mutate(&s));
        }
        for c in candidates {
            if !sides[only_in].matches(&c) || sides[other].matches(&c) {
                continue;
            }
            let key = parting(sides, only_in, &c);
            match raw.iter_mut().find(|(k, _, _)| *k == key) {
                Some((_, v, n)) => {
                    *n += 1;
                    if v.len() < options.minimize && !v.contains(&c) {
                        v.push(c);
                    }
                }
                None => raw.push((key, vec![c], 1)),
            }
        }
    }
    // Minimize each within its group.
    let mut groups: Vec<Group> = Vec::new();
    for ((rule, other_rule), strings, found) in raw {
        let key = (rule.clone(), other_rule.clone());
        let mut examples: Vec<String> = Vec::new();
        for s in &strings {
            if spent(sides) {
                return Vec::new();
            }
            let m = minimize(sides, only_in, s, &key);
            if !examples.contains(&m) {
                examples.push(m);
            }
        }
        groups.push(Group {
            only_in,
            rule,
            other_rule,
            examples,
            error: String::new(),
            found,
        });
    }
    for g in &mut groups {
        // Shortest first, and among equals the ones a reader can see first (a space
        // before a NUL).
        let unseen = |s: &str| {
            s.chars()
                .filter(|c| !c.is_ascii_graphic() && *c != ' ')
                .count()
        };
        g.examples.sort_by(|a, b| {
            (a.chars().count(), unseen(a), a).cmp(&(b.chars().count(), unseen(b), b))
        });
        g.examples.truncate(options.examples);
        g.error = sides[other]
            .explain(&g.examples[0])
            .map_or_else(String::new, |e| e.to_string());
    }
    groups.sort_by(|a, b| (&a.rule, &a.other_rule).cmp(&(&b.rule, &b.other_rule)));
    groups
}

/// An example as a reader should see it: quoted, with every character that does not
/// show as itself written `\u{..}` (controls, unassigned and private-use code
/// points, non-characters, U+FFFD, which would pass for a decoding error), letters
/// of any script kept as they are.
pub fn shown(s: &str) -> String {
    let mut out = String::from('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' ' => out.push(' '),
            c if c.is_ascii_graphic() || (!c.is_ascii() && c.is_alphabetic()) => out.push(c),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// Whether two rules of two grammars are the same rule by name: equal but for case,
/// RFC 2396's `_` for `-`, and RFC 3987's `i` prefix (`ireg_name`, `ireg-name`,
/// `reg-name`).
fn counterparts(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.to_ascii_lowercase().replace('_', "-");
    let (a, b) = (norm(a), norm(b));
    let bare = |s: &str| {
        s.strip_prefix('i')
            .map(str::to_string)
            .unwrap_or(s.to_string())
    };
    a == b || bare(&a) == b || a == bare(&b) || bare(&a) == bare(&b)
}

/// Where a string one side matches and the other does not parts them, read at the
/// point where the other side's oracle fails (the farthest it got):
///
/// - on the matching side, the innermost rule of its tree that holds the character
///   there, or that ends just before it, whichever is deeper. The character the
///   other side stops at is often the first one *after* the difference: in `//:a#`
///   RFC 3987 stops at `#`, but what it could not take is the 2001 `ireg_name` `:a`
///   that ends there. A percent-encoding (`pct-encoded`, `escaped`) is passed over
///   for the rule around it: every grammar here has them alike.
/// - on the other side, the rule of the same name if it expected something there
///   (`iquery` and `iquery`), else the rule the failure is inside (the oracle's
///   innermost enclosing rule: `iuserinfo` in `//:a#`), not the rule that only
///   failed on its first character (`pct-encoded`, which every rule with `%` tries).
pub fn parting(sides: &[Language<'_>; 2], only_in: usize, s: &str) -> (String, String) {
    let other = &sides[1 - only_in];
    let e = other.explain(s);
    let at = e.as_ref().map_or(0, |e| e.byte_offset);
    let side = &sides[only_in];
    let rule = match side.oracle.tree(&side.rule, s) {
        Ok(t) => {
            // A percent-encoding is never where two of these grammars part (all
            // have it); the rule around it is.
            let percent = |n: &crate::oracle::explain::OracleNode| {
                n.end - n.start == 3 && s.as_bytes()[n.start] == b'%'
            };
            let mut holding = t.path_at(at);
            while holding.len() > 1 && percent(holding[holding.len() - 1]) {
                holding.pop();
            }
            let mut before = at.checked_sub(1).map_or_else(Vec::new, |b| t.path_at(b));
            while before.len() > 1
                && (before[before.len() - 1].end != at || percent(before[before.len() - 1]))
            {
                before.pop();
            }
            let path = if before.len() > holding.len() && before[before.len() - 1].end == at {
                before
            } else {
                holding
            };
            path.last()
                .map_or_else(|| side.rule.clone(), |n| n.rule.clone())
        }
        Err(e) => {
            if let OracleFailure::Budget(b) = e {
                side.keep(Unanswered::Budget(b));
            }
            side.rule.clone()
        }
    };
    let other_rule = e
        .as_ref()
        .and_then(|e| {
            let named = e
                .expected_by
                .iter()
                .map(|(r, _)| r)
                .chain(&e.rule)
                .chain(&e.within)
                .find(|r| counterparts(r, &rule));
            named
                .or_else(|| e.within.first())
                .or(e.rule.as_ref())
                .or_else(|| e.expected_by.first().map(|(r, _)| r))
                .cloned()
        })
        .unwrap_or_else(|| other.rule.clone());
    (rule, other_rule)
}

/// `s`, made as small and plain as it goes ([`shrink`]) while one side matches it,
/// the other does not, and they part at the rules `key` ([`parting`]).
pub fn minimize(
    sides: &[Language<'_>; 2],
    only_in: usize,
    s: &str,
    key: &(String, String),
) -> String {
    shrink(s, |t| {
        !spent(sides)
            && sides[only_in].matches(t)
            && !sides[1 - only_in].matches(t)
            && parting(sides, only_in, t) == *key
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_draft_and_rfc_3987_part_at_the_query() {
        let g = Grammars::builtin();
        let mut sides = [
            Language::builtin(&g, VariantName::Iri2001, None, 1).unwrap(),
            Language::builtin(&g, VariantName::Iri, None, 1).unwrap(),
        ];
        let key = parting(&sides, 0, "http://a/b;p?[x]");
        assert_eq!(key, ("iquery".to_string(), "iquery".to_string()));
        let m = minimize(&sides, 0, "http://a/b;p?[x]", &key);
        assert_eq!(
            m, "a?[",
            "the shortest: a relative path, a query, a bracket"
        );
        let found = differences(
            &mut sides,
            &Options {
                samples: 300,
                ..Options::default()
            },
        );
        assert!(
            found.iter().any(|g| g.only_in == 0 && g.rule == "iquery"),
            "{found:#?}"
        );
        assert!(found.iter().any(|g| g.only_in == 1), "{found:#?}");
        for grp in &found {
            for e in &grp.examples {
                assert!(sides[grp.only_in].matches(e) && !sides[1 - grp.only_in].matches(e));
            }
        }
    }
}
