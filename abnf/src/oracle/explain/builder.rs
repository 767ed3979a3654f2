//! The tree builder: from the oracle's end sets, the parse the generated combinators
//! build where they are exact (the first alternative that can match, the longest
//! match of each element that lets the rest match), without recursion.

use super::tree::OracleNode;
use super::OracleFailure;
use crate::model::table::Expr;
use crate::oracle::run::Run;
use crate::oracle::Oracle;
use std::collections::BTreeSet;

impl<'g> Oracle<'g> {
    /// The tree builder of `input` as rule `k` (called `rule`), once the input is
    /// known to match it; the explanation of the failure otherwise.
    pub(super) fn builder<'a>(
        &self,
        k: usize,
        rule: &str,
        input: &str,
        chars: &'a [char],
    ) -> Result<Builder<'_, 'g, 'a>, OracleFailure> {
        let mut offsets: Vec<usize> = input.char_indices().map(|(b, _)| b).collect();
        offsets.push(input.len());
        let mut run = self.run(chars);
        let ends = self.settled_rule_ends(k, 0, &mut run);
        if run.exceeded {
            return Err(OracleFailure::Budget(self.exceeded(rule, &run)));
        }
        if !ends.contains(&chars.len()) {
            return Err(OracleFailure::NoMatch(self.explain(rule, input)?));
        }
        Ok(Builder {
            oracle: self,
            rule: rule.to_string(),
            run,
            singles: self.character_rules(),
            offsets,
            building: Vec::new(),
            steps: 0,
        })
    }
}

/// The most empty matches of one repetition a tree shows: `1000000000( "" r )` on
/// the empty input has a billion `r` nodes, which no tree should hold. A repetition
/// of non-empty matches has at most one node per character of the input.
pub const MAX_EMPTY_MATCHES: u32 = 4096;

/// What the tree builder does next. It keeps its own stack: a tree is as deep as
/// the input nests, which the call stack could not hold, and a concatenation or
/// repetition as long as the grammar or input.
pub(super) enum Task<'e> {
    /// The nodes of an element matching characters `from..to` (known to match).
    Derive(&'e Expr, usize, usize),
    /// The rule node opened last has all its children.
    Close,
}

/// A rule node being built.
pub(super) struct Open {
    rule: usize,
    from: usize,
    to: usize,
    alternative: Option<(usize, usize)>,
    children: Vec<OracleNode>,
    /// Whether it is in `building` (all but the root are).
    guarded: bool,
}

/// Builds one tree: each choice takes the first alternative, and the longest match,
/// that lets the rest match.
pub(super) struct Builder<'o, 'g, 'a> {
    pub(super) oracle: &'o Oracle<'g>,
    /// The rule of the whole tree, for messages.
    pub(super) rule: String,
    pub(super) run: Run<'a>,
    pub(super) singles: Vec<bool>,
    pub(super) offsets: Vec<usize>,
    /// The nodes being built, as (rule, from, to), outermost first: a rule that
    /// can derive itself over the same characters (`a = a / "x"`) is not built
    /// inside itself ([`Builder::under_way`]).
    pub(super) building: Vec<(usize, usize, usize)>,
    /// The builder's own work (tasks done, positions and ends looked at), besides
    /// the oracle's evaluations (`run.evals`): what the tests count.
    pub(super) steps: u64,
}

impl<'o> Builder<'o, '_, '_> {
    /// The work done so far: the oracle's evaluations, the builder's steps.
    pub(super) fn work(&self) -> u64 {
        self.run.evals + self.steps
    }

    /// The oracle's budget error, once it has run out: what the builder computed
    /// since is no tree.
    pub(super) fn spent(&mut self) -> Result<(), OracleFailure> {
        // The builder's own steps count too: as many as the ends it looks at.
        if self.run.exceeded || self.run.steps.saturating_add(self.steps) > self.oracle.budget() {
            self.run.exceeded = true;
            return Err(OracleFailure::Budget(
                self.oracle.exceeded(&self.rule, &self.run),
            ));
        }
        Ok(())
    }

    pub(super) fn ends(&mut self, e: &Expr, at: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.oracle.settled_eval(e, at, &mut self.run, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    pub(super) fn can(&mut self, e: &Expr, from: usize, to: usize) -> bool {
        self.ends(e, from).binary_search(&to).is_ok()
    }

    /// Whether rule `k` is being built over `from..to`. The nodes under way
    /// nest, each inside the one before, so only the last ones over the very
    /// same characters are looked at: looking through all of them, as many as
    /// the tree is deep, for each rule node made input that nests (comments)
    /// quadratic.
    pub(super) fn under_way(&self, k: usize, from: usize, to: usize) -> bool {
        self.building
            .iter()
            .rev()
            .take_while(|&&(_, f, t)| (f, t) == (from, to))
            .any(|&(r, _, _)| r == k)
    }

    /// The node of rule `k` matching the characters `from..to`.
    pub(super) fn tree(
        &mut self,
        k: usize,
        from: usize,
        to: usize,
    ) -> Result<OracleNode, OracleFailure> {
        let mut tasks: Vec<Task<'o>> = Vec::new();
        let mut open: Vec<Open> = Vec::new();
        self.open(k, from, to, false, &mut open, &mut tasks);
        self.finish(&mut open, &mut tasks)
    }

    /// Does the tasks until the outermost open node closes, and returns it.
    pub(super) fn finish(
        &mut self,
        open: &mut Vec<Open>,
        tasks: &mut Vec<Task<'o>>,
    ) -> Result<OracleNode, OracleFailure> {
        while let Some(task) = tasks.pop() {
            self.steps += 1;
            self.spent()?;
            match task {
                Task::Derive(e, from, to) => self.derive(e, from, to, open, tasks)?,
                Task::Close => {
                    let o = open.pop().expect("each Close has its node open");
                    if o.guarded {
                        self.building.pop();
                    }
                    let mut node = OracleNode {
                        rule: self.oracle.table.shown_name(o.rule),
                        start: self.offsets[o.from],
                        end: self.offsets[o.to],
                        alternative: o.alternative,
                        children: o.children,
                    };
                    match open.last_mut() {
                        None => return Ok(node),
                        // Folded: what it holds (a pct-encoded in an ipchar) stays.
                        Some(parent) if self.singles[o.rule] => {
                            parent.children.append(&mut node.children)
                        }
                        Some(parent) => parent.children.push(node),
                    }
                }
            }
        }
        unreachable!("the root's Close returns the tree")
    }

    /// The node of rule `k` over `from..to` by its alternative `alt` (0-based,
    /// known to match there), the rest built as [`Builder::tree`] builds.
    pub(super) fn tree_by(
        &mut self,
        k: usize,
        alt: usize,
        from: usize,
        to: usize,
    ) -> Result<OracleNode, OracleFailure> {
        let oracle: &'o Oracle<'_> = self.oracle;
        let Expr::Alt(alts) = &oracle.table.nodes[k] else {
            return self.tree(k, from, to);
        };
        let mut tasks: Vec<Task<'o>> = vec![Task::Close, Task::Derive(&alts[alt], from, to)];
        let mut open = vec![Open {
            rule: k,
            from,
            to,
            alternative: Some((alt + 1, alts.len())),
            children: Vec::new(),
            guarded: false,
        }];
        self.finish(&mut open, &mut tasks)
    }

    /// Opens the node of rule `k` over `from..to`: its alternative, and the tasks
    /// that derive its children and close it.
    pub(super) fn open(
        &mut self,
        k: usize,
        from: usize,
        to: usize,
        guarded: bool,
        open: &mut Vec<Open>,
        tasks: &mut Vec<Task<'o>>,
    ) {
        let oracle: &'o Oracle<'_> = self.oracle;
        tasks.push(Task::Close);
        let alternative = match &oracle.table.nodes[k] {
            Expr::Alt(alts) => {
                let n = alts.iter().position(|a| self.can(a, from, to)).unwrap_or(0);
                tasks.push(Task::Derive(&alts[n], from, to));
                Some((n + 1, alts.len()))
            }
            other => {
                tasks.push(Task::Derive(other, from, to));
                None
            }
        };
        open.push(Open {
            rule: k,
            from,
            to,
            alternative,
            children: Vec::new(),
            guarded,
        });
    }

    /// Derives `e` over `from..to` (known to match): opens a rule's node, or pushes
    /// the tasks of the parts, last first so that they are done in order.
    pub(super) fn derive(
        &mut self,
        e: &'o Expr,
        from: usize,
        to: usize,
        open: &mut Vec<Open>,
        tasks: &mut Vec<Task<'o>>,
    ) -> Result<(), OracleFailure> {
        match e {
            Expr::Rule(k) if !self.under_way(*k, from, to) => {
                self.building.push((*k, from, to));
                self.open(*k, from, to, true, open, tasks);
            }
            Expr::Alt(alts) => {
                if let Some(a) = alts.iter().find(|a| self.can(a, from, to)) {
                    tasks.push(Task::Derive(a, from, to));
                }
            }
            Expr::Cat(items) => {
                let at = self.splits(items, from, to);
                for (k, item) in items.iter().enumerate().rev() {
                    tasks.push(Task::Derive(item, at[k], at[k + 1]));
                }
            }
            Expr::Rep { min, max, node } => {
                let (pieces, end, empties) = self.pieces(*min, *max, node, from, to);
                // Only empty matches are left to make up the minimum; they have
                // nodes only if the element refers to a rule.
                if empties > 0 && refers(node) {
                    if empties > MAX_EMPTY_MATCHES {
                        return Err(OracleFailure::TooManyEmptyMatches {
                            rule: open
                                .last()
                                .map_or_else(String::new, |o| self.oracle.table.shown_name(o.rule)),
                            count: empties,
                            limit: MAX_EMPTY_MATCHES,
                        });
                    }
                    for _ in 0..empties {
                        tasks.push(Task::Derive(node, end, end));
                    }
                }
                for &(a, b) in pieces.iter().rev() {
                    tasks.push(Task::Derive(node, a, b));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Where each item of a concatenation starts, and the last ends (`to`): each
    /// takes its longest match that lets the rest match. The positions each prefix
    /// reaches, then those of them from which the rest reaches `to`, then the
    /// choices: three passes over the items, where trying each item's ends against
    /// the whole rest would be quadratic in the items. Each item's ends at each position
    /// are evaluated once, in the first pass: an item that is a group (`*( "/"
    /// segment )`) is not memoized by the oracle, and evaluating it again in each
    /// pass walked its whole match again.
    pub(super) fn splits(&mut self, items: &[Expr], from: usize, to: usize) -> Vec<usize> {
        // reach[k]: where the first k items can end; ends[k][i]: where item k
        // ends from reach[k][i], up to `to`.
        let mut reach: Vec<Vec<usize>> = vec![vec![from]];
        let mut ends: Vec<Vec<Vec<usize>>> = Vec::with_capacity(items.len());
        for item in items {
            let mut next = Vec::new();
            let mut here = Vec::new();
            for &p in &reach[reach.len() - 1] {
                let mut e = self.ends(item, p);
                e.retain(|&e| e <= to);
                next.extend_from_slice(&e);
                here.push(e);
            }
            next.sort_unstable();
            next.dedup();
            reach.push(next);
            ends.push(here);
        }
        let n = items.len();
        let mut good: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        good[n] = vec![to];
        for k in (0..n).rev() {
            let here = reach[k]
                .iter()
                .zip(&ends[k])
                .filter(|(_, e)| e.iter().any(|e| good[k + 1].binary_search(e).is_ok()))
                .map(|(&p, _)| p)
                .collect();
            good[k] = here;
        }
        let mut at = vec![from];
        for k in 0..n {
            let p = at[k];
            let m = reach[k]
                .binary_search(&p)
                .ok()
                .and_then(|i| {
                    ends[k][i]
                        .iter()
                        .rev()
                        .find(|e| good[k + 1].binary_search(e).is_ok())
                })
                .copied()
                .unwrap_or(p);
            at.push(m);
        }
        at
    }

    /// The non-empty matches of `min*max node` over `from..to`, each the longest that
    /// lets the rest match; where they end, and how many empty matches are left to
    /// make up the minimum.
    #[allow(clippy::type_complexity)]
    pub(super) fn pieces(
        &mut self,
        min: u32,
        max: Option<u32>,
        node: &Expr,
        from: usize,
        to: usize,
    ) -> (Vec<(usize, usize)>, usize, u32) {
        match max {
            None => self.open_pieces(min, node, from, to),
            Some(max) => self.bounded_pieces(min, max, node, from, to),
        }
    }

    /// [`Builder::pieces`] of `min*node` (no maximum, RFC 5234 §3.6), in time
    /// linear in the matches of `node` inside `from..to`. The positions matches
    /// reach from `from`, forward; then, backward, the most matches (up to `min`)
    /// that lead from each of them to `to`; then the pieces, each the longest
    /// match after which the rest can still make up the minimum, rather than asking
    /// the oracle whether the rest reaches `to` after each piece, which would walk
    /// the rest of the input again: quadratic in a long path, query or host.
    pub(super) fn open_pieces(
        &mut self,
        min: u32,
        node: &Expr,
        from: usize,
        to: usize,
    ) -> (Vec<(usize, usize)>, usize, u32) {
        // The positions matches reach from `from`, ascending (a match never ends
        // before it starts, so the least pending one is never reached again),
        // and where the matches from each end, up to `to`. Only these positions:
        // a repetition as long as the input around one as long (nested comments)
        // would make a table of every position quadratic.
        let (mut reach, mut ends) = (Vec::new(), Vec::new());
        let mut pending = BTreeSet::from([from]);
        while let Some(q) = pending.pop_first() {
            let mut e = self.ends(node, q);
            e.retain(|&e| e <= to);
            pending.extend(e.iter().copied().filter(|&m| m > q));
            self.steps += 1 + e.len() as u64;
            reach.push(q);
            ends.push(e);
        }
        let index = |p: usize| reach.binary_search(&p).expect("ends are reached");
        // most[i]: the most matches, counted up to `min`, that lead from reach[i]
        // to `to`; `None` when none do. An empty match where the way goes on can
        // be repeated as often as needed.
        let mut most: Vec<Option<u32>> = vec![None; reach.len()];
        for i in (0..reach.len()).rev() {
            let q = reach[i];
            let mut best = (q == to).then_some(0);
            for &m in ends[i].iter().filter(|&&m| m > q) {
                if let Some(b) = most[index(m)] {
                    let b = b.saturating_add(1).min(min);
                    best = Some(best.map_or(b, |x: u32| x.max(b)));
                }
            }
            if best.is_some() && ends[i].first() == Some(&q) {
                best = Some(min);
            }
            most[i] = best;
        }
        let mut pieces = Vec::new();
        let (mut at, mut min) = (from, min);
        loop {
            if at == to && min == 0 {
                return (pieces, at, 0);
            }
            let rest = min.saturating_sub(1);
            let next = ends[index(at)]
                .iter()
                .rev()
                .find(|&&m| m > at && most[index(m)].is_some_and(|b| b >= rest));
            match next {
                Some(&m) => {
                    pieces.push((at, m));
                    min = rest;
                    at = m;
                }
                None => return (pieces, at, min),
            }
        }
    }

    /// [`Builder::pieces`] of `min*max node`: after each piece, whether the rest
    /// (`(min - 1)*(max - 1) node`) reaches `to`, by the oracle. At most `max`
    /// pieces, each asking about at most `max` matches: the bounded repetitions of
    /// the grammars are short (`1*4HEXDIG`, `*3DIGIT`, `[ x ]`).
    #[allow(clippy::type_complexity)]
    pub(super) fn bounded_pieces(
        &mut self,
        mut min: u32,
        mut max: u32,
        node: &Expr,
        mut from: usize,
        to: usize,
    ) -> (Vec<(usize, usize)>, usize, u32) {
        let mut pieces = Vec::new();
        loop {
            if from == to && min == 0 {
                return (pieces, from, 0);
            }
            if max != 0 {
                let rest = Expr::Rep {
                    min: min.saturating_sub(1),
                    max: Some(max - 1),
                    node: Box::new(node.clone()),
                };
                let mut ends = self.ends(node, from);
                ends.retain(|&m| m <= to && m > from);
                let mut found = None;
                for &m in ends.iter().rev() {
                    if self.can(&rest, m, to) {
                        found = Some(m);
                        break;
                    }
                }
                if let Some(m) = found {
                    pieces.push((from, m));
                    min = min.saturating_sub(1);
                    max -= 1;
                    from = m;
                    continue;
                }
            }
            return (pieces, from, min);
        }
    }
}

/// Whether an element refers to a rule (only then does a match of it have nodes).
pub(super) fn refers(e: &Expr) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Rule(_) | Expr::Missing(_) => return true,
            Expr::Alt(items) | Expr::Cat(items) => stack.extend(items),
            Expr::Rep { node, .. } => stack.push(node),
            _ => {}
        }
    }
    false
}
