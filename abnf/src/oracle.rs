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

use crate::{Element, Grammars, RuleDef, VariantName};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;
use std::sync::OnceLock;

/// A rule name that the grammar does not define (or a rule that refers to one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule {
    /// The name that could not be resolved.
    pub name: String,
    /// The grammar it was looked up in: `uri`, `iri`, `leiri`, `iri-2001`, or the
    /// name of a [`crate::Grammar`] read from files.
    pub grammar: String,
}

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no rule named {:?} in the {} grammar",
            self.name, self.grammar
        )
    }
}

impl std::error::Error for UnknownRule {}

/// The oracle's default work budget, in steps ([`Oracle::with_budget`]): each
/// element evaluated and each end position produced or taken from the memo is a
/// step, so time and the memo's size both grow at most in proportion. Every rule of
/// the built-in grammars needs less than a hundredth of it on any input of 4,096
/// bytes (`tests::builtin_grammars_stay_far_under_the_budget`); a user grammar can
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

/// An element with its rule references resolved to indices into the table.
#[derive(Debug, Clone)]
pub(crate) enum Expr {
    /// RFC 5234 §3.2.
    Alt(Vec<Expr>),
    /// RFC 5234 §3.1.
    Cat(Vec<Expr>),
    /// RFC 5234 §3.6, §3.7, §3.8.
    Rep {
        min: u32,
        max: Option<u32>,
        node: Box<Expr>,
    },
    /// A rule of the table, by index.
    Rule(usize),
    /// A reference to a name the table does not define: matches nothing, and makes
    /// every rule that reaches it an [`UnknownRule`].
    Missing(String),
    /// A quoted string (§2.3): its characters, and whether case matters.
    Chars(Vec<char>, bool),
    /// `%x41.42` (§2.3): exact code points.
    Seq(Vec<u32>),
    /// `%x41-5A` (§3.4): one code point in the range.
    Range(u32, u32),
    /// `<prose>` (§4): matches nothing.
    Prose,
}

/// One grammar's rule table, compiled: names resolved, rules indexed.
///
/// Shared by the [`Oracle`] and the string generator ([`super::generate`]).
#[derive(Debug, Clone)]
pub(crate) struct Table<'g> {
    /// The built-in grammar, if it is one.
    pub(crate) variant: Option<VariantName>,
    /// The grammar's name, for messages.
    pub(crate) name: String,
    pub(crate) rules: Vec<&'g RuleDef>,
    pub(crate) nodes: Vec<Expr>,
    /// Lower-cased name → index.
    index: HashMap<String, usize>,
    /// For each rule, the first undefined name reachable from its definition,
    /// found when the rule is first resolved: computing it for every rule up front
    /// walked what each rule reaches, quadratic in a chain of rules (32,000 rules
    /// took seconds to load).
    missing: Vec<OnceLock<Option<String>>>,
    /// The oracle's work budget, in steps ([`Oracle::with_budget`]).
    pub(crate) budget: u64,
}

impl<'g> Table<'g> {
    pub(crate) fn new(grammars: &'g Grammars, variant: VariantName) -> Table<'g> {
        Table::of(
            grammars.table(variant),
            Some(variant),
            variant.as_str().to_string(),
        )
    }

    /// The table of any list of rules (a [`crate::Grammar`]'s).
    pub(crate) fn of(
        rules: Vec<&'g RuleDef>,
        variant: Option<VariantName>,
        name: String,
    ) -> Table<'g> {
        let index: HashMap<String, usize> = rules
            .iter()
            .enumerate()
            .map(|(k, r)| (r.name.to_ascii_lowercase(), k))
            .collect();
        let mut table = Table {
            variant,
            name,
            rules,
            nodes: Vec::new(),
            index,
            missing: Vec::new(),
            budget: DEFAULT_BUDGET,
        };
        table.missing = (0..table.rules.len()).map(|_| OnceLock::new()).collect();
        table.nodes = table
            .rules
            .iter()
            .map(|r| table.compile(&r.definition))
            .collect();
        table
    }

    /// The index of the rule called `name`: names are case-insensitive (RFC 5234
    /// §2.1); under LEIRI, a name containing "LEIRI" that the table lacks is looked up
    /// with "LEIRI" replaced by "IRI" (the note renames `IRI` to `LEIRI`).
    pub(crate) fn lookup(&self, name: &str) -> Option<usize> {
        let lower = name.to_ascii_lowercase();
        if let Some(&k) = self.index.get(&lower) {
            return Some(k);
        }
        if self.variant == Some(VariantName::Leiri) {
            return self.index.get(&crate::leiri_to_iri_name(&lower)).copied();
        }
        None
    }

    /// The name of rule `k` as the grammar shows it: the LEIRI note's `LEIRI`,
    /// `LEIRI-reference`, `absolute-LEIRI` for RFC 3987's rules of those names.
    pub(crate) fn shown_name(&self, k: usize) -> String {
        let name = &self.rules[k].name;
        match self.variant {
            Some(VariantName::Leiri) => crate::name_in(name, VariantName::Leiri),
            _ => name.clone(),
        }
    }

    /// Resolves `name` to a rule whose definition only reaches defined rules.
    pub(crate) fn resolve(&self, name: &str) -> Result<usize, UnknownRule> {
        let unknown = |name: &str| UnknownRule {
            name: name.to_string(),
            grammar: self.name.clone(),
        };
        let k = self.lookup(name).ok_or_else(|| unknown(name))?;
        match self.missing_from(k) {
            Some(m) => Err(unknown(m)),
            None => Ok(k),
        }
    }

    pub(crate) fn compile(&self, e: &Element) -> Expr {
        match e {
            Element::Alternation(alts) => Expr::Alt(alts.iter().map(|a| self.compile(a)).collect()),
            Element::Concatenation(items) => {
                Expr::Cat(items.iter().map(|a| self.compile(a)).collect())
            }
            Element::Repetition {
                min, max, element, ..
            } => Expr::Rep {
                min: *min,
                max: *max,
                node: Box::new(self.compile(element)),
            },
            Element::Rule(name) => match self.lookup(name) {
                Some(k) => Expr::Rule(k),
                None => Expr::Missing(name.clone()),
            },
            Element::CharVal {
                text,
                case_sensitive,
            } => Expr::Chars(text.chars().collect(), *case_sensitive),
            Element::Range(lo, hi) => Expr::Range(*lo, *hi),
            Element::Sequence(cps) => Expr::Seq(cps.clone()),
            Element::Prose(_) => Expr::Prose,
        }
    }

    /// The first undefined name reachable from rule `k` (computed once).
    pub(crate) fn missing_from(&self, k: usize) -> &Option<String> {
        self.missing[k].get_or_init(|| self.first_missing(k))
    }

    /// The first undefined name met in a depth-first walk from rule `start`, each
    /// rule entered once. The walk keeps its own stack: a chain of rules each
    /// referring to the next is as deep as it is long.
    fn first_missing(&self, start: usize) -> Option<String> {
        let mut seen = vec![false; self.rules.len()];
        seen[start] = true;
        let mut stack = vec![&self.nodes[start]];
        while let Some(node) = stack.pop() {
            match node {
                // Pushed last to first, so that the first is walked first.
                Expr::Alt(items) | Expr::Cat(items) => stack.extend(items.iter().rev()),
                Expr::Rep { node, .. } => stack.push(node),
                Expr::Rule(k) => {
                    if !seen[*k] {
                        seen[*k] = true;
                        stack.push(&self.nodes[*k]);
                    }
                }
                Expr::Missing(name) => return Some(name.clone()),
                Expr::Chars(..) | Expr::Seq(_) | Expr::Range(..) | Expr::Prose => {}
            }
        }
        None
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
}

/// A memo slot: the end set of one rule at one start position.
#[derive(Clone)]
enum Slot {
    Unknown,
    /// Being computed, at the given level of the slots under way (the first one
    /// computed is level 0, a slot computed during its pass level 1, …). Reaching
    /// it again means left recursion at this position (`expr = expr "+" term /
    /// term`; the built-in grammars have none). The slot then answers with the
    /// ends found so far, and [`Oracle::rule_ends`] computes again until they stop
    /// growing: the least fixed point, which is the language RFC 5234 defines, as
    /// the rule's derivations are finite.
    Busy(Rc<[usize]>, usize),
    /// Computed, and the lowest level whose ends so far the result used, directly
    /// or through other results ([`FINAL`] when none). A result that used a slot's
    /// ends so far is *tentative*: it is forgotten if those ends grow, and final
    /// once that slot is.
    Done(Rc<[usize]>, usize),
}

/// The level of a result that used no slot's ends so far: final.
const FINAL: usize = usize::MAX;

/// How deeply the oracle's evaluation may nest (calls of `eval` inside one another)
/// before a rule it has not computed yet is computed from the top instead
/// ([`Oracle::settle`]). Without it the evaluation recursed once per rule entered:
/// right recursion on the input (`r = "a" r / "b"` on 12,000 `a`s, comments nested
/// 12,000 deep) overflowed the stack (SECURITY.md, "User grammars"). The built-in grammars
/// nest about 60 deep on the longest references, so they never reach it; one rule's
/// definition adds at most three levels per group, and [`GROUP_DEPTH`] more for a
/// group whose ends are memoized ([`crate::reader::MAX_NESTING`]), so the evaluation
/// stays within 256 + 5 × 32 + 3 levels, which a debug build's
/// 2 MiB test thread holds with room to spare (the test `deep_right_recursion`
/// runs it on a 512 KiB thread).
pub(crate) const DEPTH: usize = 256;

/// What a memo slot holds the end set of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    /// A rule at a start position: slot `start × rules + rule`.
    Rule(usize),
    /// A group of a rule's definition (RFC 5234 §3.5; a repetition, §3.6, or an
    /// option, §3.8) at a start position, the group by the address of its node,
    /// which stays put while a match runs. Only groups inside a concatenation or a
    /// repetition: only they are evaluated more than once at one position. Without
    /// their ends remembered, each group nested in another evaluated its element again
    /// from every position the outer one reached: `1*(1*(1*(1*"a")))` took time
    /// growing as the input's length to the power of the depth.
    Group(usize, usize),
}

/// How much deeper the evaluation counts as nested ([`DEPTH`]) inside a group whose
/// ends are memoized ([`Key::Group`]): its slot is computed by two calls more than
/// an evaluation takes.
const GROUP_DEPTH: usize = 2;

/// The memo of one match: the end set of each rule at each start position, slot
/// `start × rules + rule`. A vector while rules × positions is small (the built-in
/// grammars on any input the CLI accepts), else a map of the slots computed: a
/// grammar of 32,000 rules on a 4 KiB input would have allocated 3 GB of slots.
/// Groups' slots are in a map of their own.
struct Memo {
    rules: Rules,
    groups: HashMap<(usize, usize), Slot>,
}

enum Rules {
    Dense(Vec<Slot>),
    Sparse(HashMap<usize, Slot>),
}

/// The most slots [`Memo::Dense`] holds (96 MiB of them).
const DENSE_SLOTS: usize = 1 << 22;

impl Memo {
    fn new(slots: usize) -> Memo {
        Memo {
            rules: if slots <= DENSE_SLOTS {
                Rules::Dense(vec![Slot::Unknown; slots])
            } else {
                Rules::Sparse(HashMap::new())
            },
            groups: HashMap::new(),
        }
    }

    fn get(&self, key: Key) -> Slot {
        let found = match (&self.rules, key) {
            (Rules::Dense(v), Key::Rule(slot)) => return v[slot].clone(),
            (Rules::Sparse(m), Key::Rule(slot)) => m.get(&slot),
            (_, Key::Group(node, start)) => self.groups.get(&(node, start)),
        };
        found.cloned().unwrap_or(Slot::Unknown)
    }

    fn set(&mut self, key: Key, value: Slot) {
        match (&mut self.rules, key) {
            (Rules::Dense(v), Key::Rule(slot)) => v[slot] = value,
            (Rules::Sparse(m), Key::Rule(slot)) => {
                m.insert(slot, value);
            }
            (_, Key::Group(node, start)) => {
                self.groups.insert((node, start), value);
            }
        }
    }
}

/// The state of one match: the input and the memo, and (when an error is being
/// explained) the trace of what failed where.
pub(crate) struct Run<'a> {
    pub(crate) input: &'a [char],
    rules: usize,
    memo: Memo,
    /// How many slots are being computed: the level of the next one.
    level: usize,
    /// The lowest level whose ends so far the evaluation under way has used
    /// ([`FINAL`] when none).
    low: usize,
    /// For each level, whether the ends so far of the slot computed there have
    /// been used since its current pass began: only then may another pass find
    /// more. Each slot's own flag, not a count of every recursion met: with a
    /// count, each left-recursive rule inside another (`e = "(" e ")" / e "+" e /
    /// "x"` on nested parentheses) made every slot around it compute again, and
    /// forget what was computed meanwhile, twice the work per level of nesting.
    used: Vec<bool>,
    /// The tentative results (slot, lowest level used), in the order they were
    /// finished; those after a slot's mark were finished during its pass.
    tentative: Vec<(Key, usize)>,
    /// Rule definitions evaluated: the work done, for the tests.
    pub(crate) passes: u64,
    /// Elements evaluated (calls of [`Oracle::eval`]), memo hits included: the
    /// work of the tree builder, for the tests.
    pub(crate) evals: u64,
    /// How deeply `eval` is nested now.
    depth: usize,
    /// The steps taken ([`DEFAULT_BUDGET`] says what a step is).
    pub(crate) steps: u64,
    /// The most steps allowed.
    budget: u64,
    /// The budget ran out: the evaluation under way is abandoned and nothing more
    /// is computed.
    pub(crate) exceeded: bool,
    /// A slot reached [`DEPTH`] deep that nothing has computed yet: the evaluation
    /// under way is abandoned, the slot is computed from the top, and the
    /// evaluation starts again ([`Oracle::settled_eval`]).
    needs: Option<usize>,
    pub(crate) trace: Option<crate::explain::Trace>,
}

/// A slot that [`Oracle::settle`] computes from the top: its ends so far, and where
/// its current pass started (as the loop of [`Oracle::rule_ends`] keeps them).
struct Frame {
    slot: usize,
    so_far: Rc<[usize]>,
    /// `run.tentative.len()` when its current pass began.
    mark: usize,
    /// The lowest level used since its current pass began (an abandoned pass's
    /// results are used by the pass that resumes it).
    low: usize,
}

impl Run<'_> {
    /// Takes `n` steps of the budget.
    fn charge(&mut self, n: usize) {
        self.steps = self.steps.saturating_add(n as u64);
        if self.steps > self.budget {
            self.exceeded = true;
        }
    }

    /// Whether the evaluation under way is abandoned: a rule must be computed from
    /// the top first, or the budget ran out.
    fn stopped(&self) -> bool {
        self.needs.is_some() || self.exceeded
    }

    /// The evaluation under way used the ends so far of the slot at `level`, or a
    /// result that did.
    fn depend(&mut self, level: usize) {
        if level != FINAL {
            self.low = self.low.min(level);
            self.used[level] = true;
        }
    }

    /// A pass of the slot at `level` begins, with `low` used so far.
    fn begin(&mut self, level: usize, low: usize) {
        if self.used.len() <= level {
            self.used.resize(level + 1, false);
        }
        self.low = low;
    }

    /// Forgets the tentative results finished since `mark`: they used ends so far
    /// that have grown, or a pass that was abandoned.
    fn forget(&mut self, mark: usize) {
        for (s, _) in self.tentative.drain(mark..) {
            self.memo.set(s, Slot::Unknown);
        }
    }

    fn relevel(&mut self, slot: Key, low: usize) {
        if let Slot::Done(ends, _) = self.memo.get(slot) {
            self.memo.set(slot, Slot::Done(ends, low));
        }
    }

    /// Stores `ends`, the settled result of `slot` at `level`, whose passes since
    /// `mark` used `self.low`. If that is below `level`, the result is tentative,
    /// and so is what was finished during its pass that used it. Otherwise it is
    /// final, and so is what was finished during its pass that used nothing below
    /// `level`.
    fn finish(&mut self, slot: Key, level: usize, ends: Rc<[usize]>, mark: usize) {
        let low = self.low;
        if low < level {
            for k in mark..self.tentative.len() {
                let (s, l) = self.tentative[k];
                if l >= level {
                    self.tentative[k].1 = low;
                    self.relevel(s, low);
                }
            }
            self.memo.set(slot, Slot::Done(ends, low));
            self.tentative.push((slot, low));
        } else {
            let mut kept = mark;
            for k in mark..self.tentative.len() {
                let (s, l) = self.tentative[k];
                if l >= level {
                    self.relevel(s, FINAL);
                } else {
                    self.tentative[kept] = (s, l);
                    kept += 1;
                }
            }
            self.tentative.truncate(kept);
            self.memo.set(slot, Slot::Done(ends, FINAL));
        }
    }
}

impl<'g> Oracle<'g> {
    /// The oracle of one grammar: `grammars.table(variant)`, compiled.
    pub fn new(grammars: &'g Grammars, variant: VariantName) -> Oracle<'g> {
        Oracle {
            table: Table::new(grammars, variant),
        }
    }

    /// The oracle of a grammar read from ABNF files ([`crate::Grammar`]).
    pub fn of(grammar: &'g crate::Grammar) -> Oracle<'g> {
        Oracle {
            table: grammar.table(),
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
        self.table.budget = steps;
        self
    }

    /// The work budget, in steps ([`Oracle::with_budget`]).
    pub fn budget(&self) -> u64 {
        self.table.budget
    }

    /// The budget error of a run that spent its budget judging `rule`.
    pub(crate) fn exceeded(&self, rule: &str, run: &Run<'_>) -> BudgetExceeded {
        BudgetExceeded {
            rule: rule.to_string(),
            grammar: self.table.name.clone(),
            budget: self.table.budget,
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

    pub(crate) fn run<'a>(&self, input: &'a [char]) -> Run<'a> {
        let rules = self.table.rules.len();
        Run {
            input,
            rules,
            memo: Memo::new(rules.saturating_mul(input.len() + 1)),
            level: 0,
            low: FINAL,
            used: Vec::new(),
            tentative: Vec::new(),
            passes: 0,
            evals: 0,
            depth: 0,
            steps: 0,
            budget: self.table.budget,
            exceeded: false,
            needs: None,
            trace: None,
        }
    }

    /// As [`Oracle::eval`], from the top of an evaluation (nothing under way): when
    /// it reaches a rule it has not computed [`DEPTH`] deep, that rule is computed
    /// from the top first ([`Oracle::settle`]) and the evaluation starts again, with
    /// everything computed so far remembered. The stack holds at most [`DEPTH`]
    /// levels of evaluation, whatever the input and the grammar. When the budget
    /// runs out, it returns with `run.exceeded` set and what `out` holds is no
    /// answer.
    pub(crate) fn settled_eval(
        &self,
        node: &Expr,
        start: usize,
        run: &mut Run<'_>,
        out: &mut Vec<usize>,
    ) {
        debug_assert_eq!(run.depth, 0, "settled_eval starts an evaluation");
        loop {
            let before = out.len();
            self.eval_part(node, start, run, out);
            if run.exceeded {
                run.needs = None;
                return;
            }
            match run.needs.take() {
                None => return,
                Some(slot) => {
                    out.truncate(before);
                    self.settle(slot, run);
                }
            }
        }
    }

    /// The end set of rule `k` at `start`, from the top of an evaluation (see
    /// [`Oracle::settled_eval`]).
    pub(crate) fn settled_rule_ends(
        &self,
        k: usize,
        start: usize,
        run: &mut Run<'_>,
    ) -> Rc<[usize]> {
        let mut out = Vec::new();
        self.settled_eval(&Expr::Rule(k), start, run, &mut out);
        sort_dedup(&mut out);
        Rc::from(out)
    }

    /// Computes `slot` from the top: the loop of [`Oracle::rule_ends`], with an
    /// explicit stack of the slots under way. A pass that reaches a slot not yet
    /// computed [`DEPTH`] deep is abandoned and that slot pushed, to be computed
    /// first; the slots on the stack stay `Busy`, as they would be on the call
    /// stack, so that left recursion meets its ends so far, as it does there.
    /// Each slot pushed is one nothing computed yet and none below it on the stack
    /// (those are `Busy`), so the stack holds each slot at most once.
    fn settle(&self, slot: usize, run: &mut Run<'_>) {
        debug_assert_eq!(run.level, 0, "settle starts from the top");
        // Frame `i` is the slot at level `i`.
        let frame = |slot: usize, run: &mut Run<'_>, level: usize| {
            let so_far: Rc<[usize]> = Rc::from(Vec::new());
            run.memo
                .set(Key::Rule(slot), Slot::Busy(so_far.clone(), level));
            run.begin(level, FINAL);
            run.used[level] = false;
            Frame {
                slot,
                so_far,
                mark: run.tentative.len(),
                low: FINAL,
            }
        };
        let mut frames = vec![frame(slot, run, 0)];
        while let Some(f) = frames.last() {
            let level = frames.len() - 1;
            let (k, start) = (f.slot % run.rules, f.slot / run.rules);
            run.begin(level, f.low);
            run.level = level + 1;
            let ends = self.pass(k, start, run);
            run.level = level;
            let Some(f) = frames.last_mut() else { break };
            f.low = run.low;
            if run.exceeded {
                // Nothing more is computed: what is under way is left unknown.
                run.needs = None;
                for f in &frames {
                    run.memo.set(Key::Rule(f.slot), Slot::Unknown);
                }
                break;
            }
            if let Some(next) = run.needs.take() {
                let f = frame(next, run, level + 1);
                frames.push(f);
                continue;
            }
            if !run.used[level] || ends == f.so_far {
                run.finish(Key::Rule(f.slot), level, ends, f.mark);
                frames.pop();
            } else {
                // Grown: what was finished meanwhile may have used the old ends.
                run.forget(f.mark);
                run.memo
                    .set(Key::Rule(f.slot), Slot::Busy(ends.clone(), level));
                run.used[level] = false;
                f.so_far = ends;
                f.mark = run.tentative.len();
                f.low = FINAL;
            }
        }
        run.level = 0;
        run.low = FINAL;
    }

    /// One evaluation of rule `k`'s definition at `start`: its ends, sorted.
    fn pass(&self, k: usize, start: usize, run: &mut Run<'_>) -> Rc<[usize]> {
        let mut out = Vec::new();
        run.passes += 1;
        if let Some(t) = run.trace.as_mut() {
            t.enter(k, start);
        }
        self.eval(&self.table.nodes[k], start, run, &mut out);
        if let Some(t) = run.trace.as_mut() {
            t.leave();
        }
        sort_dedup(&mut out);
        Rc::from(out)
    }

    /// The end set of rule `k` at `start`, memoized. Without left recursion one
    /// evaluation; with it, evaluations from the ends found so far until they stop
    /// growing (ABNF has no negation, so each pass finds at least what the last one
    /// did, and there are at most as many ends as positions). [`DEPTH`] deep, a
    /// rule not computed yet abandons the evaluation under way (`run.needs`), which
    /// [`Oracle::settled_eval`] resumes after computing it from the top.
    pub(crate) fn rule_ends(&self, k: usize, start: usize, run: &mut Run<'_>) -> Rc<[usize]> {
        let slot = start * run.rules + k;
        self.slot_ends(Key::Rule(slot), &self.table.nodes[k], Some(k), start, run)
    }

    /// The end set of a group at `start`, memoized as a rule's is ([`Key::Group`]):
    /// a group is a rule without a name (RFC 5234 §3.5), so it is computed as
    /// [`Oracle::rule_ends`] computes one, left recursion through it included.
    fn group_ends(&self, node: &Expr, start: usize, run: &mut Run<'_>) -> Rc<[usize]> {
        let key = Key::Group(std::ptr::from_ref(node) as usize, start);
        self.slot_ends(key, node, None, start, run)
    }

    /// The end set of `node` at `start` under `key`: rule `rule`'s definition, or a
    /// group. See [`Oracle::rule_ends`].
    fn slot_ends(
        &self,
        key: Key,
        node: &Expr,
        rule: Option<usize>,
        start: usize,
        run: &mut Run<'_>,
    ) -> Rc<[usize]> {
        match run.memo.get(key) {
            Slot::Done(ends, low) => {
                run.depend(low);
                return ends;
            }
            Slot::Busy(so_far, level) => {
                run.depend(level);
                return so_far;
            }
            Slot::Unknown => {}
        }
        if run.stopped() {
            return Rc::from(Vec::new());
        }
        // Only a rule is computed from the top: a group's nesting is bounded by the
        // grammar's (`reader::MAX_NESTING`), and the rules inside it stop there.
        if let (Key::Rule(slot), true) = (key, run.depth >= DEPTH) {
            run.needs = Some(slot);
            return Rc::from(Vec::new());
        }
        let (level, outer_low) = (run.level, run.low);
        let mut so_far: Rc<[usize]> = Rc::from(Vec::new());
        loop {
            run.memo.set(key, Slot::Busy(so_far.clone(), level));
            let mark = run.tentative.len();
            run.begin(level, FINAL);
            run.used[level] = false;
            run.level = level + 1;
            let ends = match rule {
                Some(k) => self.pass(k, start, run),
                None => {
                    let mut out = Vec::new();
                    self.eval_inner(node, start, run, &mut out);
                    sort_dedup(&mut out);
                    Rc::from(out)
                }
            };
            run.level = level;
            if run.stopped() {
                // Abandoned: this slot is not computed, and what was finished
                // meanwhile may have used its ends so far.
                run.forget(mark);
                run.memo.set(key, Slot::Unknown);
                run.low = outer_low;
                return Rc::from(Vec::new());
            }
            // What is stored is charged: the memo grows no faster than the steps.
            run.charge(ends.len());
            if !run.used[level] || ends == so_far {
                let low = run.low;
                run.finish(key, level, ends.clone(), mark);
                // What is evaluating this slot used what it used below it.
                run.low = outer_low.min(if low < level { low } else { FINAL });
                return ends;
            }
            // Grown: what was finished meanwhile may have used the old ends.
            run.forget(mark);
            so_far = ends;
        }
    }

    /// Appends to `out` every position where a match of `node` starting at `start`
    /// can end (possibly with repeats; callers dedupe).
    pub(crate) fn eval(&self, node: &Expr, start: usize, run: &mut Run<'_>, out: &mut Vec<usize>) {
        self.eval_as(node, start, run, out, false);
    }

    /// As [`Oracle::eval`], for an item of a concatenation or the element of a
    /// repetition: a group there has its ends memoized ([`Key::Group`]).
    fn eval_part(&self, node: &Expr, start: usize, run: &mut Run<'_>, out: &mut Vec<usize>) {
        self.eval_as(node, start, run, out, true);
    }

    fn eval_as(
        &self,
        node: &Expr,
        start: usize,
        run: &mut Run<'_>,
        out: &mut Vec<usize>,
        memoized: bool,
    ) {
        if run.stopped() {
            // Abandoned (see `rule_ends`): nothing more is computed until it resumes.
            return;
        }
        let before = out.len();
        run.evals += 1;
        run.charge(1);
        run.depth += 1;
        match node {
            Expr::Alt(_) | Expr::Cat(_) | Expr::Rep { .. } if memoized => {
                // A group's slot is computed by calls of its own, on the stack:
                // they count as much as an evaluation's.
                run.depth += GROUP_DEPTH;
                let ends = self.group_ends(node, start, run);
                run.depth -= GROUP_DEPTH;
                run.charge(ends.len());
                out.extend_from_slice(&ends);
            }
            _ => self.eval_inner(node, start, run, out),
        }
        run.depth -= 1;
        // A terminal that failed here is what the input lacked (for explanations).
        if out.len() == before && run.trace.is_some() {
            if let Expr::Chars(..) | Expr::Seq(_) | Expr::Range(..) | Expr::Prose = node {
                if let Some(t) = run.trace.as_mut() {
                    t.failed(start, node);
                }
            }
        }
    }

    fn eval_inner(&self, node: &Expr, start: usize, run: &mut Run<'_>, out: &mut Vec<usize>) {
        let input = run.input;
        match node {
            // §3.2: unordered; the union of what each alternative allows.
            Expr::Alt(alts) => {
                for a in alts {
                    self.eval(a, start, run, out);
                }
            }
            // §3.1: each element from every place the previous one can end.
            Expr::Cat(items) => {
                let mut here = vec![start];
                let mut next = Vec::new();
                for item in items {
                    next.clear();
                    for &p in &here {
                        self.eval_part(item, p, run, &mut next);
                    }
                    sort_dedup(&mut next);
                    if next.is_empty() {
                        return;
                    }
                    std::mem::swap(&mut here, &mut next);
                }
                out.extend_from_slice(&here);
            }
            // §3.6/§3.7: every count from min to max; positions, not parses, are kept,
            // so the work per count is bounded by the input length.
            Expr::Rep { min, max, node } => self.repeat(*min, *max, node, start, run, out),
            Expr::Rule(k) => {
                let ends = self.rule_ends(*k, start, run);
                run.charge(ends.len());
                out.extend_from_slice(&ends);
            }
            Expr::Missing(_) | Expr::Prose => {}
            // §2.3: quoted strings are case-insensitive for ASCII letters (unless %s).
            Expr::Chars(text, case_sensitive) => {
                let end = start + text.len();
                if end <= input.len()
                    && input[start..end].iter().zip(text).all(|(a, b)| {
                        if *case_sensitive {
                            a == b
                        } else {
                            a.eq_ignore_ascii_case(b)
                        }
                    })
                {
                    out.push(end);
                }
            }
            Expr::Seq(cps) => {
                let end = start + cps.len();
                if end <= input.len()
                    && input[start..end]
                        .iter()
                        .zip(cps)
                        .all(|(a, b)| *a as u32 == *b)
                {
                    out.push(end);
                }
            }
            // §3.4: one code point in the range.
            Expr::Range(lo, hi) => {
                if let Some(&c) = input.get(start) {
                    if (*lo..=*hi).contains(&(c as u32)) {
                        out.push(start + 1);
                    }
                }
            }
        }
    }

    /// `min*max node` at `start` (RFC 5234 §3.6, §3.7).
    fn repeat(
        &self,
        min: u32,
        max: Option<u32>,
        node: &Expr,
        start: usize,
        run: &mut Run<'_>,
        out: &mut Vec<usize>,
    ) {
        // `level`: the positions reachable with exactly `count` matches.
        let mut level = vec![start];
        let mut count = 0u32;
        loop {
            if count >= min {
                if max.is_none() {
                    // Any number more: the closure of `level` under one more match.
                    // `seen[p - start]`, grown as far as the matches reach (never
                    // before `start`): a table as long as the input for each
                    // repetition evaluated was quadratic in a path of many
                    // segments.
                    let mut seen = Vec::new();
                    let mark = |p: usize, seen: &mut Vec<bool>| {
                        if seen.len() <= p - start {
                            seen.resize(p - start + 1, false);
                        }
                        !std::mem::replace(&mut seen[p - start], true)
                    };
                    let mut stack = level.clone();
                    for &p in &level {
                        mark(p, &mut seen);
                    }
                    let mut step = Vec::new();
                    while let Some(p) = stack.pop() {
                        out.push(p);
                        step.clear();
                        self.eval_part(node, p, run, &mut step);
                        for &e in &step {
                            if mark(e, &mut seen) {
                                stack.push(e);
                            }
                        }
                    }
                    return;
                }
                out.extend_from_slice(&level);
            }
            if Some(count) == max {
                return;
            }
            let mut next = Vec::new();
            for &p in &level {
                self.eval_part(node, p, run, &mut next);
            }
            sort_dedup(&mut next);
            if next.is_empty() {
                return;
            }
            count += 1;
            if next == level {
                // A fixed point (the element matched only the empty string): every
                // further count reaches the same positions. Past `min` they are
                // already in `out`; before it, they are what `min` matches reach,
                // found without counting up to it (`1000000000""` costs one step).
                if count <= min && max.is_none_or(|m| m >= min) {
                    out.extend_from_slice(&level);
                }
                return;
            }
            level = next;
        }
    }
}

fn sort_dedup(v: &mut Vec<usize>) {
    v.sort_unstable();
    v.dedup();
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn check(o: &Oracle<'_>, rule: &str, yes: &[&str], no: &[&str]) {
        for s in yes {
            assert!(
                o.matches(rule, s).unwrap(),
                "{rule} under {:?} should match {s:?}",
                o.variant()
            );
        }
        for s in no {
            assert!(
                !o.matches(rule, s).unwrap(),
                "{rule} under {:?} should not match {s:?}",
                o.variant()
            );
        }
    }

    #[test]
    fn dec_octet() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Uri);
        check(
            &o,
            "dec-octet",
            &[
                "0", "9", "10", "99", "100", "199", "200", "249", "250", "255",
            ],
            &["256", "05", "1000", "", "-1", "300", "a"],
        );
    }

    #[test]
    fn ipv6address() {
        let g = Grammars::builtin();
        for v in VariantName::ALL {
            let o = Oracle::new(&g, v);
            check(
                &o,
                "IPv6address",
                &[
                    "::",
                    "::1",
                    "1::",
                    "a::b",
                    "1:2:3:4:5:6:7:8",
                    "1:2:3:4:5:6:1.2.3.4",
                    "::ffff:1.2.3.4",
                    "1:2:3:4:5:6:7::",
                    "1::2:3:4:5:6:7",
                    "FFFF:ffff::",
                ],
                &[
                    "1:2:3:4:5:6:7:8:9",
                    "1::2::3",
                    "1:2:3:4:5:6:7:1.2.3.4",
                    ":",
                    ":::",
                    "12345::",
                    "1:2:3:4:5:6:7:8::",
                    "::1.2.3.256",
                ],
            );
        }
    }

    #[test]
    fn host_gives_back_to_reg_name() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Iri);
        check(&o, "IRI", &["http://1.2.3.4.5/", "http://1.2.3.4/"], &[]);
        check(
            &o,
            "ihost",
            &["1.2.3.4.5", "1.2.3.4", "[::1]"],
            &["[::1", "a b"],
        );
        assert_eq!(o.ends("IPv4address", "1.2.3.4.5", 0).unwrap(), vec![7]);
    }

    #[test]
    fn ucschar_by_variant() {
        let g = Grammars::builtin();
        let leiri = Oracle::new(&g, VariantName::Leiri);
        let iri = Oracle::new(&g, VariantName::Iri);
        check(
            &leiri,
            "ucschar",
            &[" ", "<", "\"", "\u{0}", "\u{10FFFF}", "\u{E000}"],
            &["a", "%", ""],
        );
        check(
            &iri,
            "ucschar",
            &["\u{A0}", "\u{10000}", "é"],
            &[" ", "<", "\u{E000}", "\u{FFFE}"],
        );
        assert!(Oracle::new(&g, VariantName::Uri)
            .matches("ucschar", " ")
            .is_err());
    }

    #[test]
    fn path_empty_is_only_the_empty_string() {
        let g = Grammars::builtin();
        let uri = Oracle::new(&g, VariantName::Uri);
        check(&uri, "path-empty", &[""], &["a", "/", " "]);
        let iri = Oracle::new(&g, VariantName::Iri);
        check(&iri, "ipath-empty", &[""], &["a", "é"]);
    }

    #[test]
    fn uri_and_iri_references() {
        let g = Grammars::builtin();
        let uri = Oracle::new(&g, VariantName::Uri);
        let iri = Oracle::new(&g, VariantName::Iri);
        check(
            &uri,
            "URI-reference",
            &["http://resume/", "../a?b#c", ""],
            &["http://résumé/"],
        );
        check(
            &iri,
            "IRI-reference",
            &["http://résumé/", "http://résumé/"],
            &["http://a b/"],
        );
        assert!(iri.matches("URI-reference", "http://resume/").unwrap());
        assert!(uri.matches("IRI-reference", "x").is_err());
    }

    #[test]
    fn leiri_names_resolve() {
        let g = Grammars::builtin();
        let leiri = Oracle::new(&g, VariantName::Leiri);
        check(
            &leiri,
            "LEIRI-reference",
            &["http://a b/<c>", "x y", ""],
            &["http://a b/%zz", "#a#"],
        );
        check(
            &leiri,
            "LEIRI",
            &["file:///C:/My Documents/"],
            &["My Documents"],
        );
        check(&leiri, "absolute-LEIRI", &["a:b c?d"], &["a:b#c"]);
        assert_eq!(leiri.rule("LEIRI").unwrap().name, "IRI");
        let iri = Oracle::new(&g, VariantName::Iri);
        assert!(iri.rule("LEIRI").is_none());
        assert!(iri.matches("LEIRI-reference", "").is_err());
    }

    #[test]
    fn names_are_case_insensitive() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Iri);
        assert!(o.matches("ipv6ADDRESS", "::").unwrap());
        assert!(o.matches("HexDig", "f").unwrap());
        assert!(o.matches("IPvFuture", "V1.x").unwrap());
        let Err(Unanswered::Unknown(err)) = o.matches("nope", "") else {
            panic!("nope is no rule")
        };
        assert_eq!(err.name, "nope");
        assert!(err.to_string().contains("iri grammar"));
    }

    #[test]
    fn ends_report_byte_offsets() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Iri);
        // "é" is two bytes; isegment ends at 0 (empty), after "é" (2), and after "éa" (3).
        assert_eq!(o.ends("isegment", "éa/b", 0).unwrap(), vec![0, 2, 3]);
        assert_eq!(o.ends("isegment", "éa/b", 4).unwrap(), vec![4, 5]);
    }

    #[test]
    fn repetition_bounds_and_give_back() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Uri);
        check(&o, "h16", &["0", "ffff", "AbC"], &["", "fffff", "g"]);
        // `*( "/" segment )` ends after any slash-led prefix.
        assert_eq!(
            o.ends("path-abempty", "/a//b", 0).unwrap(),
            vec![0, 1, 2, 3, 4, 5]
        );
        // 6( h16 ":" ) is exactly six.
        let e = crate::read("t", "x = 6( h16 \":\" )\n")
            .unwrap()
            .rules
            .remove(0);
        assert!(o.matches_element(&e.definition, "1:2:3:4:5:6:").unwrap());
        assert!(!o.matches_element(&e.definition, "1:2:3:4:5:").unwrap());
        assert!(!o.matches_element(&e.definition, "1:2:3:4:5:6:7:").unwrap());
        // Element referring to an unknown rule.
        let bad = crate::read("t", "x = nope\n").unwrap().rules.remove(0);
        assert!(o.matches_element(&bad.definition, "").is_err());
        // Repetition of something that matches the empty string terminates.
        let empty = crate::read("t", "x = 3*path-empty 2*5( [\"a\"] ) *( *\"b\" )\n")
            .unwrap()
            .rules
            .remove(0);
        assert!(o.matches_element(&empty.definition, "aabbb").unwrap());
        assert!(o.matches_element(&empty.definition, "").unwrap());
        assert!(!o.matches_element(&empty.definition, "aaaaaa").unwrap());
    }

    #[test]
    fn case_sensitivity_of_strings() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Uri);
        let e = crate::read("t", "x = %s\"aB\" \"cD\"\n")
            .unwrap()
            .rules
            .remove(0);
        assert!(o.matches_element(&e.definition, "aBcd").unwrap());
        assert!(o.matches_element(&e.definition, "aBCD").unwrap());
        assert!(!o.matches_element(&e.definition, "abcd").unwrap());
    }

    #[test]
    fn long_inputs_stay_polynomial() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Iri);
        let path = "a/".repeat(300);
        assert!(o
            .matches("IRI-reference", &format!("http://x.y/{path}?{path}#{path}"))
            .unwrap());
        let colons = "1:".repeat(200);
        assert!(!o
            .matches("IRI-reference", &format!("//[{colons}]"))
            .unwrap());
        let dots = "1.".repeat(300);
        assert!(o
            .matches("IRI-reference", &format!("//{dots}1:80/"))
            .unwrap());
    }

    /// Runs `f` on a thread of 512 KiB, a quarter of the test harness's: what
    /// recursed once per rule entered overflowed it long before these inputs end.
    pub(crate) fn on_a_small_stack(f: impl FnOnce() + Send + 'static) {
        std::thread::Builder::new()
            .stack_size(512 * 1024)
            .spawn(f)
            .unwrap()
            .join()
            .unwrap();
    }

    #[test]
    fn deep_right_recursion() {
        on_a_small_stack(|| {
            let g = crate::Grammar::from_abnf(&[(
                "deep.abnf",
                "r = \"a\" r / \"b\"\n\
                 comment = \"(\" *( ctext / comment ) \")\"\n\
                 ctext = %x21-27 / %x2A-7E\n",
            )])
            .unwrap();
            let o = Oracle::of(&g);
            let a = "a".repeat(4000);
            assert!(o.matches("r", &format!("{a}b")).unwrap());
            assert!(!o.matches("r", &format!("{a}c")).unwrap());
            assert!(!o.matches("r", &a).unwrap());
            assert_eq!(o.ends("r", &format!("{a}bb"), 0).unwrap(), vec![4001]);
            let nested = format!("{}{}", "(".repeat(2000), ")".repeat(2000));
            assert!(o.matches("comment", &nested).unwrap());
            assert!(o
                .matches("comment", &format!("({nested}x{nested}y)"))
                .unwrap());
            assert!(!o.matches("comment", &nested[1..]).unwrap());
            let e = o.check("r", &format!("{a}c")).unwrap().unwrap_err();
            assert_eq!(e.char_offset, 4000, "{e}");
            assert_eq!(
                e.to_string(),
                "at char 4000 (U+0063 'c'): r expects \"a\" or \"b\""
            );
        });
    }

    /// The rule definitions `o` evaluates to match `input` against `rule`, and
    /// whether it matches.
    fn work(o: &Oracle<'_>, rule: &str, input: &str) -> (bool, u64) {
        let k = o.table.resolve(rule).unwrap();
        let chars: Vec<char> = input.chars().collect();
        let mut run = o.run(&chars);
        let ends = o.settled_rule_ends(k, 0, &mut run);
        assert!(run.tentative.is_empty(), "every result is final at the top");
        (ends.binary_search(&chars.len()).is_ok(), run.passes)
    }

    /// Left recursion inside recursion. Each left-recursive slot computes again
    /// only when its own ends so far were used: when any recursion met made every
    /// slot around it compute again, each level of nesting doubled the work (26
    /// parentheses took over a minute, SECURITY.md, "User grammars").
    #[test]
    fn nested_left_recursion_stays_polynomial() {
        let g = crate::Grammar::from_abnf(&[(
            "nested-left.abnf",
            "e = \"(\" e \")\" / e \"+\" e / \"x\"\n\
             r = \"a\" r / s\n\
             s = s \"x\" / \"y\"\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        let nested = |n: usize| format!("{}x{}", "(".repeat(n), ")".repeat(n));
        let mut passes = Vec::new();
        for n in [16, 32, 64] {
            let (matched, p) = work(&o, "e", &nested(n));
            assert!(matched, "{n}");
            assert!(!work(&o, "e", &format!("{})", nested(n))).0, "{n}");
            passes.push(p);
        }
        // Doubling the input at most quadruples the work (it was 2^16 times).
        assert!(
            passes[1] <= 4 * passes[0] && passes[2] <= 4 * passes[1],
            "{passes:?}"
        );
        let mut passes = Vec::new();
        for n in [20, 40, 80] {
            let input = format!("{}y{}", "a".repeat(n), "x".repeat(n));
            let (matched, p) = work(&o, "r", &input);
            assert!(matched, "{n}");
            passes.push(p);
        }
        assert!(
            passes[1] <= 4 * passes[0] && passes[2] <= 4 * passes[1],
            "{passes:?}"
        );
    }

    /// The elements `o` evaluates to match `input` against `rule`, and whether it
    /// matches.
    fn evals(o: &Oracle<'_>, rule: &str, input: &str) -> (bool, u64) {
        let k = o.table.resolve(rule).unwrap();
        let chars: Vec<char> = input.chars().collect();
        let mut run = o.run(&chars);
        let ends = o.settled_rule_ends(k, 0, &mut run);
        (ends.binary_search(&chars.len()).is_ok(), run.evals)
    }

    /// Groups nested in groups. Each group's ends at each position are computed
    /// once: when each was evaluated again from every position the one around it
    /// reached, the work grew as the input's length to the power of the depth
    /// (`1*(1*(1*(1*(1*(1*(1*(1*"a")))))))` on 30 `a`s took 24 s, SECURITY.md,
    /// "User grammars").
    #[test]
    fn nested_groups_stay_polynomial() {
        let g = crate::Grammar::from_abnf(&[(
            "nested-groups.abnf",
            "r = 1*(1*(1*(1*\"a\")))\n\
             s = *( *( *( *\"a\" ) ) )\n\
             t = 1*( \"a\" 1*( \"a\" / 1*( [\"a\"] \"a\" ) ) )\n\
             u = 1*(1*(1*(1*(1*(1*(1*(1*\"a\")))))))\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        for rule in ["r", "s", "t"] {
            let mut work = Vec::new();
            for n in [8, 16, 32] {
                let (matched, e) = evals(&o, rule, &"a".repeat(n));
                assert!(matched, "{rule} {n}");
                assert!(!evals(&o, rule, &format!("{}b", "a".repeat(n))).0);
                work.push(e);
            }
            // Doubling the input at most quadruples the evaluations, whatever the
            // depth (it was 2^4 times and more).
            assert!(
                work[1] <= 4 * work[0] + 64 && work[2] <= 4 * work[1] + 64,
                "{rule}: {work:?}"
            );
        }
        // Twice as deep, about twice the work.
        let (matched, deep) = evals(&o, "u", &"a".repeat(30));
        assert!(matched);
        assert!(deep <= 8 * 30 * 30, "{deep}");
    }

    /// Ambiguous recursion is cubic in the input's length however it is read: the
    /// budget bounds it, with an error that names the rule and the budget.
    #[test]
    fn the_budget_bounds_ambiguous_recursion() {
        let g = crate::Grammar::from_abnf(&[("e.abnf", "e = e e / \"a\"\nf = 1*\"a\"\n")]).unwrap();
        let o = Oracle::of(&g);
        assert!(o.matches("e", &"a".repeat(40)).unwrap());
        let long = "a".repeat(4096);
        let spent = |r: Result<bool, Unanswered>| match r {
            Err(Unanswered::Budget(b)) => b,
            other => panic!("{other:?}"),
        };
        let b = spent(o.clone().with_budget(1_000_000).matches("e", &long));
        assert_eq!((b.rule.as_str(), b.budget, b.chars), ("e", 1_000_000, 4096));
        assert_eq!(
            b.to_string(),
            "the oracle spent its budget of 1000000 steps judging e of the e.abnf grammar \
             on an input of 4096 characters, without an answer"
        );
        // Every answer is bounded: ends, explanations, trees, other parses.
        let small = o.clone().with_budget(10_000);
        let input = "a".repeat(200);
        assert!(matches!(
            small.ends("e", &input, 0),
            Err(Unanswered::Budget(_))
        ));
        assert!(matches!(
            small.explain("e", &input),
            Err(Unanswered::Budget(_))
        ));
        assert!(matches!(
            small.check("e", &input),
            Err(Unanswered::Budget(_))
        ));
        assert!(matches!(
            small.tree("e", &input),
            Err(crate::explain::OracleFailure::Budget(_))
        ));
        assert!(matches!(
            small.other_parses("e", &input, 10),
            Err(crate::explain::OracleFailure::Budget(_))
        ));
        // A linear rule on the same input is far within it.
        assert!(o.clone().with_budget(100_000).matches("f", &long).unwrap());
        // It stops within a step of the budget and the ends of one slot.
        let o = o.with_budget(1_000_000);
        let k = o.table.resolve("e").unwrap();
        let chars: Vec<char> = long.chars().collect();
        let mut run = o.run(&chars);
        o.settled_rule_ends(k, 0, &mut run);
        assert!(run.exceeded);
        assert!(run.steps <= 1_000_000 + 2 * 4097, "{}", run.steps);
    }

    /// Mutual left recursion through many rules: each rule's ends grow one position
    /// a pass, and the memo held every rule's ends at every pass (100,000 rules on
    /// 4 KiB held 3.2 GB). What is stored is charged to the budget, which stops it.
    #[test]
    fn the_budget_bounds_the_memo() {
        let n = 2000;
        let mut abnf = String::new();
        for k in 0..n {
            abnf.push_str(&format!("r{k} = r{} \"a\" / \"a\"\n", (k + 1) % n));
        }
        let g = crate::Grammar::from_abnf(&[("cycle.abnf", abnf.as_str())]).unwrap();
        let o = Oracle::of(&g).with_budget(2_000_000);
        assert!(o.matches("r0", "aaaa").unwrap());
        let long = "a".repeat(4096);
        let chars: Vec<char> = long.chars().collect();
        let mut run = o.run(&chars);
        o.settled_rule_ends(0, 0, &mut run);
        assert!(run.exceeded);
        let slots: Vec<&Slot> = match &run.memo.rules {
            Rules::Dense(v) => v.iter().collect(),
            Rules::Sparse(m) => m.values().collect(),
        };
        let held: usize = slots
            .into_iter()
            .map(|s| match s {
                Slot::Done(e, _) | Slot::Busy(e, _) => e.len(),
                Slot::Unknown => 0,
            })
            .sum();
        assert!(held as u64 <= 2_000_000, "{held}");
        assert!(matches!(o.matches("r0", &long), Err(Unanswered::Budget(_))));
    }

    /// Every string up to a length, over the alphabet.
    fn strings(alphabet: &[char], max: usize) -> Vec<String> {
        let mut all = vec![String::new()];
        let mut last = vec![String::new()];
        for _ in 0..max {
            last = last
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            all.extend(last.iter().cloned());
        }
        all
    }

    /// The languages of left- and mutually recursive rules, nested, against
    /// recognizers written by hand, on every string up to a length: what the
    /// dependency tracking keeps of a result must be what the least fixed point is.
    #[test]
    fn nested_left_recursion_means_its_language() {
        let g = crate::Grammar::from_abnf(&[(
            "languages.abnf",
            "e = \"(\" e \")\" / e \"+\" e / \"x\"\n\
             l = l l / \"(\" l \")\" / \"\"\n\
             a = b \"1\" / \"0\"\n\
             b = a \"2\" / c\n\
             c = c \"3\" / a\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        // e: "x", "(e)", e "+" e.
        fn e(s: &str) -> bool {
            s == "x"
                || (s.len() >= 2 && s.starts_with('(') && s.ends_with(')') && e(&s[1..s.len() - 1]))
                || s.char_indices()
                    .any(|(i, c)| c == '+' && e(&s[..i]) && e(&s[i + 1..]))
        }
        // l: balanced parentheses.
        fn l(s: &str) -> bool {
            let mut open = 0i32;
            s.chars().all(|c| {
                open += if c == '(' { 1 } else { -1 };
                open >= 0
            }) && open == 0
        }
        // a = b "1" / "0", b = a "2" / c, c = c "3" / a: mutual left recursion,
        // recognized from the right end, as the definitions read.
        fn a(s: &str) -> bool {
            s == "0" || (s.ends_with('1') && b(&s[..s.len() - 1]))
        }
        fn b(s: &str) -> bool {
            (s.ends_with('2') && a(&s[..s.len() - 1])) || c(s)
        }
        fn c(s: &str) -> bool {
            (s.ends_with('3') && c(&s[..s.len() - 1])) || a(s)
        }
        for s in strings(&['(', ')', '+', 'x'], 7) {
            assert_eq!(o.matches("e", &s).unwrap(), e(&s), "e on {s:?}");
        }
        for s in strings(&['(', ')'], 12) {
            assert_eq!(o.matches("l", &s).unwrap(), l(&s), "l on {s:?}");
        }
        for s in strings(&['0', '1', '2', '3'], 7) {
            assert_eq!(o.matches("a", &s).unwrap(), a(&s), "a on {s:?}");
            assert_eq!(o.matches("b", &s).unwrap(), b(&s), "b on {s:?}");
        }
    }

    /// Inputs of `n` bytes in the shapes that make the built-in grammars work
    /// hardest: long paths, hosts, IPv6 literals, queries, percent-encodings,
    /// characters beyond ASCII, and a URL made long.
    pub(crate) fn hostile_shapes(n: usize) -> Vec<(&'static str, String)> {
        let fill = |unit: &str, prefix: &str, suffix: &str| {
            let mut s = prefix.to_string();
            while s.len() + unit.len() + suffix.len() <= n {
                s.push_str(unit);
            }
            s + suffix
        };
        vec![
            ("path", fill("a/", "", "")),
            ("absolute path", fill("a/", "http://x.y/", "")),
            ("dots", fill("1.", "//", "")),
            ("IPv4 dots", fill("255.", "//", "")),
            ("colons", fill("1:", "//[", "]")),
            ("open colons", fill("1:", "//[", "")),
            ("bare colons", fill("1:", "", "")),
            ("double colons", fill("::", "//[", "]")),
            ("hex groups", fill("ffff:", "//[", "]")),
            ("IPvFuture", fill("a", "//[v1.", "]")),
            ("percent", fill("%41", "", "")),
            ("broken percent", fill("%4", "", "")),
            ("questions", fill("?", "", "")),
            ("hashes", fill("#", "", "")),
            ("slashes", fill("/", "", "")),
            ("letters", fill("a", "", "")),
            ("colons only", fill(":", "", "")),
            ("digits", fill("1", "", "")),
            ("port", fill("1", "//a:", "")),
            ("brackets", fill("[", "", "")),
            ("at signs", fill("@", "//", "")),
            ("userinfo", fill("a:", "//", "@x")),
            ("beyond ASCII", fill("é", "", "")),
            ("path beyond ASCII", fill("é/", "http://é.x/", "")),
            ("spaces", fill("a ", "", "")),
            ("scheme", fill("a+-.", "a", ":")),
            ("query", fill("k=v&", "http://example.com/p?", "#f")),
            ("sub-delims", fill("a/%41?:@!$&'()*+,;=", "//u@h:1/", "")),
            (
                "URL",
                fill(
                    "seg-ment_01~/",
                    "https://user:pw@www.example.com:8080/",
                    "?q=1&r=2#frag",
                ),
            ),
        ]
    }

    /// The steps the oracle takes to match all of `input` against `rule`.
    pub(crate) fn steps(o: &Oracle<'_>, rule: &str, input: &str) -> u64 {
        let k = o.table.resolve(rule).unwrap();
        let chars: Vec<char> = input.chars().collect();
        let mut run = o.run(&chars);
        o.settled_rule_ends(k, 0, &mut run);
        assert!(!run.exceeded, "{rule} on {input:?}");
        run.steps
    }

    /// The most steps any rule of each built-in grammar takes on the hostile shapes
    /// of 4,096 bytes (the limit of `iri check --oracle`): what [`DEFAULT_BUDGET`]
    /// is measured against. Every rule on every shape is slow in a debug build:
    /// `cargo test -p iri-grammar-abnf --release -- --ignored --nocapture steps_of`.
    #[test]
    #[ignore = "slow in a debug build; prints the measure of DEFAULT_BUDGET"]
    fn steps_of_every_builtin_rule() {
        let g = Grammars::builtin();
        let shapes = hostile_shapes(4096);
        for v in VariantName::EVERY {
            let o = Oracle::new(&g, v);
            let mut most = (0, "", "");
            for r in o.rules() {
                for (shape, s) in &shapes {
                    let n = steps(&o, &r.name, s);
                    if n > most.0 {
                        most = (n, r.name.as_str(), shape);
                    }
                }
            }
            println!("{v:?}: at most {} steps ({} on {})", most.0, most.1, most.2);
            assert!(most.0 <= DEFAULT_BUDGET / 100, "{v:?}: {most:?}");
        }
    }

    #[test]
    fn repetition_bounds_are_not_counted_out() {
        // `1000000000""` matched the empty string a billion times, one by one.
        let g = crate::Grammar::from_abnf(&[(
            "bounds.abnf",
            "r = 1000000000*1000000000\"\" \"a\"\n\
             s = 1000000000\"a\"\n\
             t = 4294967295*( \"\" / \"b\" ) 2\"c\"\n\
             u = 3000000000*2000000000\"\"\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        assert!(o.matches("r", "a").unwrap());
        assert!(!o.matches("r", "").unwrap());
        assert!(!o.matches("s", "aaa").unwrap());
        assert!(o.matches("t", "bbcc").unwrap());
        assert!(o.matches("t", "cc").unwrap());
        assert!(
            !o.matches("u", "").unwrap(),
            "more than at most matches nothing"
        );
    }
}
