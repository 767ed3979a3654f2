//! The random walk down a rule's definition, within the length and step budgets,
//! through a chosen alternative when asked.

use super::lengths::{can_generate, height_of, length_of};
use super::rng::{pick_valid, Rng};
use super::{reaches, Through, DEEP, MAX_EXTRA, MAX_LENGTH};
use crate::model::table::{Expr, Table};
use std::collections::HashMap;

/// One walk down a rule's definition, appending what it draws.
pub(super) struct Walk<'a, 'g> {
    pub(super) table: &'a Table<'g>,
    pub(super) shortest: &'a [u64],
    pub(super) height: &'a [u32],
    pub(super) plan: &'a Plan,
    /// Rules entered and not left: past [`DEEP`], the shortest way out is taken.
    pub(super) depth: u32,
    /// The steps this walk may still take.
    pub(super) steps: u64,
    pub(super) rng: &'a mut Rng,
    /// How repetition counts are drawn ([`super::Counts`]).
    pub(super) counts: super::Counts,
}

/// A walk took more steps than the generator's budget.
#[derive(Debug)]
pub(super) struct OverBudget;

/// What the walk decides at each alternation and repetition of a table, found once
/// when the generator is made: choosing among 200,000 alternatives looked at each
/// of them (its shortest string) every time the alternation was drawn. Keyed by
/// the element's address in the table the generator owns; an element of another
/// table (a copy) is decided as it is met.
#[derive(Debug, Clone, Default)]
pub(super) struct Plan {
    pub(super) alternations: HashMap<usize, Choice>,
    /// The length of the shortest string of each repetition's element.
    pub(super) repetitions: HashMap<usize, u64>,
}

/// An alternation's choices.
#[derive(Debug, Clone)]
pub(super) struct Choice {
    /// The alternatives with a string of at most [`MAX_LENGTH`] characters, by
    /// index (`None`: all of them).
    pub(super) generable: Option<Box<[u32]>>,
    /// The one of those whose shortest derivation is lowest (the first of equals):
    /// the way out of a recursive grammar.
    pub(super) way_out: Option<u32>,
}

impl Choice {
    pub(super) fn of(alts: &[Expr], shortest: &[u64], height: &[u32]) -> Choice {
        let generable: Vec<u32> = (0..alts.len() as u32)
            .filter(|&a| can_generate(&alts[a as usize], shortest))
            .collect();
        let way_out = generable
            .iter()
            .copied()
            .min_by_key(|&a| height_of(&alts[a as usize], height));
        Choice {
            generable: (generable.len() < alts.len()).then(|| generable.into_boxed_slice()),
            way_out,
        }
    }

    /// How many alternatives can be drawn.
    pub(super) fn len(&self, alts: &[Expr]) -> usize {
        self.generable.as_ref().map_or(alts.len(), |g| g.len())
    }

    /// The `i`th alternative that can be drawn.
    pub(super) fn get<'e>(&self, alts: &'e [Expr], i: usize) -> &'e Expr {
        match &self.generable {
            None => &alts[i],
            Some(g) => &alts[g[i] as usize],
        }
    }
}

impl Plan {
    pub(super) fn new(table: &Table<'_>, shortest: &[u64], height: &[u32]) -> Plan {
        let mut plan = Plan::default();
        let mut stack: Vec<&Expr> = table.nodes.iter().collect();
        while let Some(e) = stack.pop() {
            match e {
                Expr::Alt(alts) => {
                    plan.alternations
                        .insert(key(e), Choice::of(alts, shortest, height));
                    stack.extend(alts);
                }
                Expr::Cat(items) => stack.extend(items),
                Expr::Rep { node, .. } => {
                    plan.repetitions.insert(key(e), length_of(node, shortest));
                    stack.push(node);
                }
                _ => {}
            }
        }
        plan
    }
}

/// An element's key in a [`Plan`]: its address.
pub(super) fn key(e: &Expr) -> usize {
    std::ptr::from_ref(e) as usize
}

/// What a walk does next. The walk keeps its own stack: a chain of rules, each
/// taking the shortest way out once the walk is deep, is as deep as it is long.
pub(super) enum Step<'e> {
    /// Draw a string of the element.
    Node(&'e Expr),
    /// The matches of a repetition still to draw: `done` of `count` drawn.
    Repeat {
        node: &'e Expr,
        min: u32,
        done: u32,
        count: u32,
    },
    /// A rule's definition is drawn: the walk is one rule less deep.
    Leave,
}

impl<'a> Walk<'a, '_> {
    /// Whether to take the shortest way out: deep in a recursive grammar, or once
    /// the string is [`MAX_LENGTH`] long.
    pub(super) fn deep(&self, out: &str) -> bool {
        self.depth > DEEP || out.len() as u64 > MAX_LENGTH
    }

    /// Takes `n` steps of the budget.
    pub(super) fn spend(&mut self, n: u64) -> Result<(), OverBudget> {
        self.steps = self.steps.checked_sub(n).ok_or(OverBudget)?;
        Ok(())
    }

    pub(super) fn node(&mut self, node: &'a Expr, out: &mut String) -> Result<(), OverBudget> {
        let table = self.table;
        let mut steps = vec![Step::Node(node)];
        while let Some(step) = steps.pop() {
            self.spend(1)?;
            let node = match step {
                Step::Node(node) => node,
                Step::Leave => {
                    self.depth -= 1;
                    continue;
                }
                Step::Repeat {
                    node,
                    min,
                    done,
                    count,
                } => {
                    // Past the length limit, only what the minimum needs.
                    let count = if out.len() as u64 > MAX_LENGTH {
                        count.min(min.max(done))
                    } else {
                        count
                    };
                    if done < count {
                        steps.push(Step::Repeat {
                            node,
                            min,
                            done: done + 1,
                            count,
                        });
                        steps.push(Step::Node(node));
                    }
                    continue;
                }
            };
            match node {
                Expr::Alt(alts) => {
                    let found;
                    let choice = match self.plan.alternations.get(&key(node)) {
                        Some(c) => c,
                        None => {
                            found = Choice::of(alts, self.shortest, self.height);
                            &found
                        }
                    };
                    if self.deep(out) {
                        // A recursive grammar got deep, or the string long: the
                        // alternative that ends soonest.
                        if let Some(a) = choice.way_out {
                            steps.push(Step::Node(&alts[a as usize]));
                        }
                    } else {
                        let n = choice.len(alts);
                        if n > 0 {
                            let i = self.rng.below(n as u64) as usize;
                            steps.push(Step::Node(choice.get(alts, i)));
                        }
                    }
                }
                Expr::Cat(items) => steps.extend(items.iter().rev().map(Step::Node)),
                Expr::Rep {
                    min,
                    max,
                    node: item,
                } => {
                    let length = match self.plan.repetitions.get(&key(node)) {
                        Some(&l) => l,
                        None => length_of(item, self.shortest),
                    };
                    let node = item;
                    let mut count = if length > MAX_LENGTH {
                        0
                    } else if self.deep(out) {
                        *min
                    } else {
                        self.count(*min, *max)
                    };
                    if length == 0 {
                        // An element that can match the empty string makes up any
                        // minimum with empty matches: `4294967295*""` is drawn in
                        // at most MAX_EXTRA steps, not four billion.
                        count = count.min(MAX_EXTRA);
                    }
                    steps.push(Step::Repeat {
                        node,
                        min: *min,
                        done: 0,
                        count,
                    });
                }
                Expr::Rule(k) => {
                    self.depth += 1;
                    steps.push(Step::Leave);
                    steps.push(Step::Node(&table.nodes[*k]));
                }
                Expr::Missing(_) | Expr::Prose => {}
                Expr::Chars(text, case_sensitive) => {
                    self.spend(text.len() as u64)?;
                    for &c in text {
                        if !case_sensitive && c.is_ascii_alphabetic() && self.rng.chance(50) {
                            out.push(if c.is_ascii_uppercase() {
                                c.to_ascii_lowercase()
                            } else {
                                c.to_ascii_uppercase()
                            });
                        } else {
                            out.push(c);
                        }
                    }
                }
                Expr::Seq(cps) => {
                    self.spend(cps.len() as u64)?;
                    out.extend(cps.iter().filter_map(|&c| char::from_u32(c)));
                }
                Expr::Range(lo, hi) => {
                    let (lo, hi) = (*lo, (*hi).min(0x10_FFFF));
                    let c = match self.rng.below(10) {
                        0 => lo,
                        1 => hi,
                        2 => lo.saturating_add(1).min(hi),
                        3 => hi.saturating_sub(1).max(lo),
                        _ => self.rng.between(u64::from(lo), u64::from(hi)) as u32,
                    };
                    if let Some(ch) = pick_valid(lo, hi, c) {
                        out.push(ch);
                    }
                }
            }
        }
        Ok(())
    }

    /// As [`Walk::node`], going through `target` on the way (see
    /// [`Generator::generate_through`]); `depth` guards against a recursive grammar.
    pub(super) fn through(
        &mut self,
        node: &'a Expr,
        target: &Through<'_>,
        out: &mut String,
        depth: usize,
    ) -> Result<(), OverBudget> {
        if depth > 64 {
            return self.node(node, out);
        }
        let shortest = self.shortest;
        let leads = |n: &Expr| reaches(n, target.reach) && can_generate(n, shortest);
        match node {
            Expr::Rule(k) if *k == target.rule => {
                let table = self.table;
                match &table.nodes[*k] {
                    Expr::Alt(alts) => self.node(&alts[target.alternative], out),
                    other => self.node(other, out),
                }
            }
            Expr::Rule(k) => {
                self.spend(1)?;
                let table = self.table;
                self.through(&table.nodes[*k], target, out, depth + 1)
            }
            Expr::Alt(alts) => {
                self.spend(1)?;
                let choices: Vec<&Expr> = alts.iter().filter(|a| leads(a)).collect();
                match choices.is_empty() {
                    true => self.node(node, out),
                    false => {
                        let a = *self.rng.pick(&choices);
                        self.through(a, target, out, depth + 1)
                    }
                }
            }
            Expr::Cat(items) => {
                self.spend(items.len() as u64)?;
                let leading: Vec<usize> = (0..items.len()).filter(|&k| leads(&items[k])).collect();
                let chosen = if leading.is_empty() {
                    None
                } else {
                    Some(*self.rng.pick(&leading))
                };
                for (k, item) in items.iter().enumerate() {
                    if Some(k) == chosen {
                        self.through(item, target, out, depth + 1)?;
                    } else {
                        self.node(item, out)?;
                    }
                }
                Ok(())
            }
            Expr::Rep {
                min,
                max,
                node: item,
            } if leads(item) => {
                let count = self.count(*min, *max).max(1);
                let at = self.rng.below(u64::from(count)) as u32;
                self.spend(u64::from(count))?;
                for k in 0..count {
                    if k == at {
                        self.through(item, target, out, depth + 1)?;
                    } else {
                        self.node(item, out)?;
                    }
                }
                Ok(())
            }
            _ => self.node(node, out),
        }
    }

    /// A repetition count in `min..=max`, biased toward the bounds; unbounded ones
    /// usually 0-3 beyond `min`, sometimes 4-12.
    pub(super) fn count(&mut self, min: u32, max: Option<u32>) -> u32 {
        match (self.counts, max) {
            (super::Counts::Most, Some(max)) if max <= min.saturating_add(MAX_EXTRA) => return max,
            // One repetition in four of those with a bound, so that a string is
            // mostly valid around the one past its bound.
            (super::Counts::OnePast, Some(max))
                if max < min.saturating_add(MAX_EXTRA) && self.rng.below(4) == 0 =>
            {
                return max + 1
            }
            _ => {}
        }
        match max.map(|m| m.min(min.saturating_add(MAX_EXTRA))) {
            Some(max) if max <= min => min,
            Some(max) => match self.rng.below(10) {
                0 | 1 => min,
                2 | 3 => max,
                _ => self.rng.between(u64::from(min), u64::from(max)) as u32,
            },
            None => match self.rng.below(20) {
                0..=2 => min,
                3..=16 => min.saturating_add(self.rng.between(0, 3) as u32),
                _ => min.saturating_add(self.rng.between(4, 12) as u32),
            },
        }
    }
}
