//! The state of one match: the memo of end sets, the levels of the slots being
//! computed (left recursion, RFC 5234 leaves its meaning to the language it
//! defines: the least fixed point), the budget spent and the trace of a failure.

use super::trace::Trace;
use std::collections::HashMap;
use std::rc::Rc;

/// A memo slot: the end set of one rule at one start position.
#[derive(Clone)]
pub(super) enum Slot {
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
pub(super) const FINAL: usize = usize::MAX;

/// How deeply the oracle's evaluation may nest (calls of `eval` inside one another)
/// before a rule it has not computed yet is computed from the top instead
/// ([`Oracle::settle`]), so that right recursion on the input (`r = "a" r / "b"`,
/// comments nested as deep as the input is long) cannot overflow the stack
/// (SECURITY.md, "User grammars"). The built-in grammars never reach it; one rule's
/// definition adds at most three levels per group, and [`GROUP_DEPTH`] more for a
/// group whose ends are memoized ([`crate::model::reader::MAX_NESTING`]), so the evaluation
/// stays within 256 + 5 × 32 + 3 levels, which a test thread holds with room to
/// spare (the test `deep_right_recursion` runs it on a quarter of one).
pub(crate) const DEPTH: usize = 256;

/// What a memo slot holds the end set of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Key {
    /// A rule at a start position: slot `start × rules + rule`.
    Rule(usize),
    /// A group of a rule's definition (RFC 5234 §3.5; a repetition, §3.6, or an
    /// option, §3.8) at a start position, the group by the address of its node,
    /// which stays put while a match runs. Only groups inside a concatenation or a
    /// repetition: only they are evaluated more than once at one position. Their ends
    /// are remembered so that a group nested in another does not evaluate its element
    /// again from every position the outer one reached (`1*(1*(1*(1*"a")))` would take
    /// time growing as the input's length to the power of the depth).
    Group(usize, usize),
}

/// How much deeper the evaluation counts as nested ([`DEPTH`]) inside a group whose
/// ends are memoized ([`Key::Group`]): its slot is computed by two calls more than
/// an evaluation takes.
pub(super) const GROUP_DEPTH: usize = 2;

/// The memo of one match: the end set of each rule at each start position, slot
/// `start × rules + rule`. A vector while rules × positions is small (the built-in
/// grammars on any input the CLI accepts), else a map of the slots computed, so
/// that a grammar of many rules does not allocate a slot for each at each position.
/// Groups' slots are in a map of their own.
pub(super) struct Memo {
    pub(super) rules: Rules,
    pub(super) groups: HashMap<(usize, usize), Slot>,
}

pub(super) enum Rules {
    Dense(Vec<Slot>),
    Sparse(HashMap<usize, Slot>),
}

/// The most slots [`Memo::Dense`] holds: beyond, the map of the slots computed.
pub(super) const DENSE_SLOTS: usize = 1 << 22;

impl Memo {
    pub(super) fn new(slots: usize) -> Memo {
        Memo {
            rules: if slots <= DENSE_SLOTS {
                Rules::Dense(vec![Slot::Unknown; slots])
            } else {
                Rules::Sparse(HashMap::new())
            },
            groups: HashMap::new(),
        }
    }

    pub(super) fn get(&self, key: Key) -> Slot {
        let found = match (&self.rules, key) {
            (Rules::Dense(v), Key::Rule(slot)) => return v[slot].clone(),
            (Rules::Sparse(m), Key::Rule(slot)) => m.get(&slot),
            (_, Key::Group(node, start)) => self.groups.get(&(node, start)),
        };
        found.cloned().unwrap_or(Slot::Unknown)
    }

    pub(super) fn set(&mut self, key: Key, value: Slot) {
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
    pub(super) rules: usize,
    pub(super) memo: Memo,
    /// How many slots are being computed: the level of the next one.
    pub(super) level: usize,
    /// The lowest level whose ends so far the evaluation under way has used
    /// ([`FINAL`] when none).
    pub(super) low: usize,
    /// For each level, whether the ends so far of the slot computed there have
    /// been used since its current pass began: only then may another pass find
    /// more. Each slot's own flag, not a count of every recursion met: with a
    /// count, each left-recursive rule inside another (`e = "(" e ")" / e "+" e /
    /// "x"` on nested parentheses) made every slot around it compute again, and
    /// forget what was computed meanwhile, twice the work per level of nesting.
    pub(super) used: Vec<bool>,
    /// The tentative results (slot, lowest level used), in the order they were
    /// finished; those after a slot's mark were finished during its pass.
    pub(super) tentative: Vec<(Key, usize)>,
    /// Rule definitions evaluated: the work done, for the tests.
    pub(crate) passes: u64,
    /// Elements evaluated (calls of [`Oracle::eval`]), memo hits included: the
    /// work of the tree builder, for the tests.
    pub(crate) evals: u64,
    /// How deeply `eval` is nested now.
    pub(super) depth: usize,
    /// The steps taken ([`DEFAULT_BUDGET`] says what a step is).
    pub(crate) steps: u64,
    /// The most steps allowed.
    pub(super) budget: u64,
    /// The budget ran out: the evaluation under way is abandoned and nothing more
    /// is computed.
    pub(crate) exceeded: bool,
    /// A slot reached [`DEPTH`] deep that nothing has computed yet: the evaluation
    /// under way is abandoned, the slot is computed from the top, and the
    /// evaluation starts again ([`Oracle::settled_eval`]).
    pub(super) needs: Option<usize>,
    pub(crate) trace: Option<Trace>,
}

/// A slot that [`Oracle::settle`] computes from the top: its ends so far, and where
/// its current pass started (as the loop of [`Oracle::rule_ends`] keeps them).
pub(super) struct Frame {
    pub(super) slot: usize,
    pub(super) so_far: Rc<[usize]>,
    /// `run.tentative.len()` when its current pass began.
    pub(super) mark: usize,
    /// The lowest level used since its current pass began (an abandoned pass's
    /// results are used by the pass that resumes it).
    pub(super) low: usize,
}

impl Run<'_> {
    /// Takes `n` steps of the budget.
    pub(super) fn charge(&mut self, n: usize) {
        self.steps = self.steps.saturating_add(n as u64);
        if self.steps > self.budget {
            self.exceeded = true;
        }
    }

    /// Whether the evaluation under way is abandoned: a rule must be computed from
    /// the top first, or the budget ran out.
    pub(super) fn stopped(&self) -> bool {
        self.needs.is_some() || self.exceeded
    }

    /// The evaluation under way used the ends so far of the slot at `level`, or a
    /// result that did.
    pub(super) fn depend(&mut self, level: usize) {
        if level != FINAL {
            self.low = self.low.min(level);
            self.used[level] = true;
        }
    }

    /// A pass of the slot at `level` begins, with `low` used so far.
    pub(super) fn begin(&mut self, level: usize, low: usize) {
        if self.used.len() <= level {
            self.used.resize(level + 1, false);
        }
        self.low = low;
    }

    /// Forgets the tentative results finished since `mark`: they used ends so far
    /// that have grown, or a pass that was abandoned.
    pub(super) fn forget(&mut self, mark: usize) {
        for (s, _) in self.tentative.drain(mark..) {
            self.memo.set(s, Slot::Unknown);
        }
    }

    pub(super) fn relevel(&mut self, slot: Key, low: usize) {
        if let Slot::Done(ends, _) = self.memo.get(slot) {
            self.memo.set(slot, Slot::Done(ends, low));
        }
    }

    /// Stores `ends`, the settled result of `slot` at `level`, whose passes since
    /// `mark` used `self.low`. If that is below `level`, the result is tentative,
    /// and so is what was finished during its pass that used it. Otherwise it is
    /// final, and so is what was finished during its pass that used nothing below
    /// `level`.
    pub(super) fn finish(&mut self, slot: Key, level: usize, ends: Rc<[usize]>, mark: usize) {
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
