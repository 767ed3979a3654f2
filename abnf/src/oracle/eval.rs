//! The evaluation: the end set of each element at each start position, memoized per
//! rule and per group, left recursion grown to its fixed point.

use super::run::{Frame, Key, Memo, Run, Slot, DEPTH, FINAL, GROUP_DEPTH};
use super::Oracle;
use crate::model::table::Expr;
use std::rc::Rc;

impl<'g> Oracle<'g> {
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
            budget: self.budget,
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
        // grammar's (`model::reader::MAX_NESTING`), and the rules inside it stop there.
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
                    // repetition evaluated would be quadratic in a path of many
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

pub(super) fn sort_dedup(v: &mut Vec<usize>) {
    v.sort_unstable();
    v.dedup();
}
