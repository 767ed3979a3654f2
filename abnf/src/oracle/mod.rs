//! The reference interpreter: the rule table read as RFC 5234 defines it, with no
//! parsing strategy of its own.
//!
//! The [`Oracle`] answers "does this whole string match rule R of grammar V?" by
//! computing, for every element, the *set* of positions where a match starting at a
//! given position can end. Nothing is ever chosen or committed to, so the answer is the
//! language of the ABNF, not the language of some ordered-choice reading of it:
//!
//! - alternation (RFC 5234 §3.2) is the union of the alternatives' end sets;
//! - concatenation (§3.1) composes end sets left to right;
//! - repetition `n*m` (§3.6, §3.7; `[ x ]` is `*1 x`, §3.8) is the set of positions
//!   reachable by n to m matches of the element, so a repetition "gives back"
//!   characters whenever that is what lets the rest match;
//! - a quoted string (§2.3) matches its characters, ASCII letters in either case unless
//!   written `%s"..."` (RFC 7405); `%x` values (§2.3) and ranges (§3.4) match code points;
//! - prose `<...>` (§4) matches nothing, so `0<pchar>` matches only the empty string.
//!
//! Terminals are Unicode code points: the input is read as a sequence of `char`s, as
//! RFC 3987 §2.2 requires. The end set of each rule at each start position is memoized,
//! and so is that of each group inside a concatenation or repetition, so a whole match
//! costs at most (rules and groups × positions) evaluations, each polynomial in the
//! input length: no exponential blow-up, whatever the input or the nesting. Some
//! grammars still take time cubic in the input's length (`e = e e / "a"`), so every
//! answer has a work budget, counted in steps ([`Oracle::with_budget`]).
//!
//! The oracle is deliberately simple and slow-ish; it exists so that the generated
//! combinators (`src/grammar/`) can be checked against it (`tests/differential.rs`).

pub mod explain;

mod eval;
mod run;
mod trace;

use crate::model::table::{Expr, Table};
use crate::model::UnknownRule;
use crate::{Element, Grammars, RuleDef, VariantName};
use eval::sort_dedup;
use run::Run;
use std::fmt;

/// The oracle's default work budget, in steps ([`Oracle::with_budget`]): each
/// element evaluated and each end position produced or taken from the memo is a
/// step, so time and the memo's size both grow at most in proportion. Every rule of
/// the built-in grammars needs less than a hundredth of it on any input of 4,096
/// bytes (`tests::bounds::steps_of_every_builtin_rule`); a user grammar can
/// need more than any budget (`e = e e / "a"` is cubic in the input's length).
pub const DEFAULT_BUDGET: u64 = 100_000_000;

/// The oracle spent its work budget before it could answer ([`Oracle::with_budget`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetExceeded {
    /// The rule being judged (the element, as ABNF, for [`Oracle::element_ends`]).
    pub rule: String,
    /// The grammar it belongs to.
    pub grammar: String,
    /// The budget, in steps.
    pub budget: u64,
    /// The length of the input, in characters.
    pub chars: usize,
}

impl fmt::Display for BudgetExceeded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the oracle spent its budget of {} steps judging {} of the {} grammar on an \
             input of {} characters, without an answer",
            self.budget, self.rule, self.grammar, self.chars
        )
    }
}

impl std::error::Error for BudgetExceeded {}

/// Why the oracle gives no answer: the rule is unknown, or judging it took more
/// than the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unanswered {
    /// The grammar has no such rule (or the rule reaches one it lacks).
    Unknown(UnknownRule),
    /// The work budget ran out.
    Budget(BudgetExceeded),
}

impl fmt::Display for Unanswered {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unanswered::Unknown(e) => e.fmt(f),
            Unanswered::Budget(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Unanswered {}

impl From<UnknownRule> for Unanswered {
    fn from(e: UnknownRule) -> Self {
        Unanswered::Unknown(e)
    }
}

impl From<BudgetExceeded> for Unanswered {
    fn from(e: BudgetExceeded) -> Self {
        Unanswered::Budget(e)
    }
}

/// The reference interpreter for one grammar (RFC 3986, RFC 3987 or LEIRI).
///
/// ```
/// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName};
/// let g = Grammars::builtin();
/// let iri = Oracle::new(&g, VariantName::Iri);
/// assert!(iri.matches("IRI", "http://résumé.example.org/").unwrap());
/// // IPv4address matches a prefix of this host; reg-name matches all of it.
/// assert!(iri.matches("ihost", "1.2.3.4.5").unwrap());
/// assert!(!iri.matches("IPv4address", "1.2.3.4.5").unwrap());
/// assert!(iri.matches("no-such-rule", "").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Oracle<'g> {
    pub(crate) table: Table<'g>,
    /// The work budget of each answer, in steps ([`Oracle::with_budget`]).
    budget: u64,
}

impl<'g> Oracle<'g> {
    /// The oracle of one grammar: `grammars.table(variant)`, compiled.
    pub fn new(grammars: &'g Grammars, variant: VariantName) -> Oracle<'g> {
        Oracle::from_table(Table::new(grammars, variant))
    }

    /// The oracle of a grammar read from ABNF files ([`crate::Grammar`]).
    pub fn of(grammar: &'g crate::Grammar) -> Oracle<'g> {
        Oracle::from_table(grammar.table())
    }

    /// The oracle of a compiled table, with the default budget.
    pub(crate) fn from_table(table: Table<'g>) -> Oracle<'g> {
        Oracle {
            table,
            budget: DEFAULT_BUDGET,
        }
    }

    /// The oracle with a work budget of `steps` ([`DEFAULT_BUDGET`] says what a
    /// step is; it is the default). Each answer (a match, its ends, an explanation,
    /// a tree) may take that many; past it, the answer is [`BudgetExceeded`]. The
    /// count, not the time, is what is bounded, so that an answer does not depend on
    /// the machine.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::{Oracle, Unanswered}, Grammar};
    /// let g = Grammar::from_abnf(&[("e.abnf", "e = e e / \"a\"\n")]).unwrap();
    /// let o = Oracle::of(&g);
    /// assert!(o.matches("e", &"a".repeat(50)).unwrap());
    /// let Err(Unanswered::Budget(b)) = o.with_budget(1000).matches("e", &"a".repeat(50)) else {
    ///     unreachable!()
    /// };
    /// assert_eq!((b.rule.as_str(), b.budget), ("e", 1000));
    /// ```
    #[must_use]
    pub fn with_budget(mut self, steps: u64) -> Oracle<'g> {
        self.budget = steps;
        self
    }

    /// The work budget, in steps ([`Oracle::with_budget`]).
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// The budget error of a run that spent its budget judging `rule`.
    pub(crate) fn exceeded(&self, rule: &str, run: &Run<'_>) -> BudgetExceeded {
        BudgetExceeded {
            rule: rule.to_string(),
            grammar: self.table.name.clone(),
            budget: self.budget,
            chars: run.input.len(),
        }
    }

    /// The built-in grammar this oracle judges by (`None` for a [`crate::Grammar`]).
    pub fn variant(&self) -> Option<VariantName> {
        self.table.variant
    }

    /// The name of the grammar: `uri`, `iri`, `leiri`, `iri-2001`, or a
    /// [`crate::Grammar`]'s.
    pub fn grammar_name(&self) -> &str {
        &self.table.name
    }

    /// The rules of the grammar, in table order (see [`Grammars::table`]).
    pub fn rules(&self) -> &[&'g RuleDef] {
        &self.table.rules
    }

    /// The rule called `name`: case-insensitive (RFC 5234 §2.1); under LEIRI,
    /// `LEIRI`, `LEIRI-reference` and `absolute-LEIRI` name the IRI rules.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let leiri = Oracle::new(&g, VariantName::Leiri);
    /// assert_eq!(leiri.rule("leiri-REFERENCE").unwrap().name, "IRI-reference");
    /// assert!(Oracle::new(&g, VariantName::Uri).rule("ucschar").is_none());
    /// ```
    pub fn rule(&self, name: &str) -> Option<&'g RuleDef> {
        self.table.lookup(name).map(|k| self.table.rules[k])
    }

    /// Whether the whole of `input` matches `rule`.
    ///
    /// # Errors
    /// [`Unanswered::Unknown`] if the grammar has no such rule, or the rule refers
    /// to one it does not have; [`Unanswered::Budget`] if judging takes more than
    /// the budget ([`Oracle::with_budget`]).
    pub fn matches(&self, rule: &str, input: &str) -> Result<bool, Unanswered> {
        let k = self.table.resolve(rule)?;
        let chars: Vec<char> = input.chars().collect();
        let mut run = self.run(&chars);
        let ends = self.settled_rule_ends(k, 0, &mut run);
        if run.exceeded {
            return Err(self.exceeded(rule, &run).into());
        }
        Ok(ends.binary_search(&chars.len()).is_ok())
    }

    /// Whether the grammar has rule `rule`, and every rule it refers to.
    ///
    /// # Errors
    /// [`UnknownRule`] naming the first it lacks.
    pub fn knows(&self, rule: &str) -> Result<(), UnknownRule> {
        self.table.resolve(rule).map(drop)
    }

    /// Every byte offset where a match of `rule` starting at byte offset `start` of
    /// `input` can end, ascending. `input[start..end]` matches the rule for each `end`.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let uri = Oracle::new(&g, VariantName::Uri);
    /// assert_eq!(uri.ends("dec-octet", "x255", 1).unwrap(), vec![2, 3, 4]);
    /// ```
    ///
    /// # Errors
    /// [`Unanswered`], as for [`Oracle::matches`].
    ///
    /// # Panics
    /// If `start` is not a character boundary of `input` (as slicing would).
    pub fn ends(&self, rule: &str, input: &str, start: usize) -> Result<Vec<usize>, Unanswered> {
        let k = self.table.resolve(rule)?;
        self.ends_of(&Expr::Rule(k), rule, input, start)
    }

    /// Whether the whole of `input` matches an ABNF element (for instance one
    /// alternative of a rule), read against this grammar's rules.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName, Element};
    /// let g = Grammars::builtin();
    /// let uri = Oracle::new(&g, VariantName::Uri);
    /// let Element::Alternation(alts) = &uri.rule("dec-octet").unwrap().definition else {
    ///     unreachable!()
    /// };
    /// assert!(uri.matches_element(&alts[4], "255").unwrap()); // "25" %x30-35
    /// assert!(!uri.matches_element(&alts[0], "255").unwrap()); // DIGIT
    /// ```
    ///
    /// # Errors
    /// [`Unanswered::Unknown`] if the element refers to a rule the grammar lacks;
    /// [`Unanswered::Budget`] as for [`Oracle::matches`].
    pub fn matches_element(&self, element: &Element, input: &str) -> Result<bool, Unanswered> {
        let ends = self.element_ends(element, input, 0)?;
        Ok(ends.last() == Some(&input.len()))
    }

    /// As [`Oracle::ends`], for an ABNF element instead of a rule.
    ///
    /// # Errors
    /// [`Unanswered`], as for [`Oracle::matches_element`].
    ///
    /// # Panics
    /// If `start` is not a character boundary of `input`.
    pub fn element_ends(
        &self,
        element: &Element,
        input: &str,
        start: usize,
    ) -> Result<Vec<usize>, Unanswered> {
        let node = self.table.compile(element);
        // Check the element's references the way `resolve` checks a rule's.
        let mut seen = vec![false; self.table.rules.len()];
        if let Some(name) = self.missing_in(&node, &mut seen) {
            return Err(UnknownRule {
                name,
                grammar: self.table.name.clone(),
            }
            .into());
        }
        self.ends_of(&node, &element.to_string(), input, start)
    }

    fn missing_in(&self, node: &Expr, seen: &mut [bool]) -> Option<String> {
        match node {
            Expr::Alt(items) | Expr::Cat(items) => {
                items.iter().find_map(|n| self.missing_in(n, seen))
            }
            Expr::Rep { node, .. } => self.missing_in(node, seen),
            Expr::Rule(k) => {
                if seen[*k] {
                    return None;
                }
                seen[*k] = true;
                self.table.missing_from(*k).clone()
            }
            Expr::Missing(name) => Some(name.clone()),
            _ => None,
        }
    }

    /// The ends of `node` (`rule`, for messages) at byte `start` of `input`.
    fn ends_of(
        &self,
        node: &Expr,
        rule: &str,
        input: &str,
        start: usize,
    ) -> Result<Vec<usize>, Unanswered> {
        assert!(
            input.is_char_boundary(start),
            "start {start} is not a character boundary of the input"
        );
        // Byte offset of each character position (and of the end).
        let mut offsets: Vec<usize> = input.char_indices().map(|(b, _)| b).collect();
        offsets.push(input.len());
        let chars: Vec<char> = input.chars().collect();
        let first = offsets.partition_point(|&b| b < start);
        let mut run = self.run(&chars);
        let mut out = Vec::new();
        self.settled_eval(node, first, &mut run, &mut out);
        if run.exceeded {
            return Err(self.exceeded(rule, &run).into());
        }
        sort_dedup(&mut out);
        Ok(out.into_iter().map(|p| offsets[p]).collect())
    }
}

#[cfg(test)]
pub(crate) mod tests;
