//! The shortest string of a rule, and the shortest through one of its alternatives:
//! the cheapest derivation by length, then height, so that a walk ends even in a
//! recursive grammar.

use super::lengths::fixed_point;
use super::rng::pick_valid;
use super::MAX_LENGTH;
use crate::model::table::{Expr, Table};

/// The cost of a derivation: its string's length, then its height (rules nested),
/// compared in that order. Following the cheapest way down, each rule entered is
/// lower than the one before, so a walk ends even in a recursive grammar.
pub(super) type Cost = (u64, u32);

/// What no derivation has.
pub(super) const NONE: Cost = (u64::MAX, u32::MAX);

/// The shortest derivations of a table, and the shortest through one alternative
/// of one rule ([`Generator::shortest_through`]).
pub(super) struct Shortest<'a, 'g> {
    pub(super) table: &'a Table<'g>,
    /// Each rule's cheapest derivation.
    pub(super) rules: Vec<Cost>,
    /// Each rule's cheapest derivation through the target.
    pub(super) through: Vec<Cost>,
    /// The target: a rule, and the element of its alternative.
    pub(super) target: usize,
    pub(super) alternative: &'a Expr,
}

impl<'a, 'g> Shortest<'a, 'g> {
    pub(super) fn new(
        table: &'a Table<'g>,
        target: usize,
        alternative: usize,
    ) -> Option<Shortest<'a, 'g>> {
        let alternative = match &table.nodes[target] {
            Expr::Alt(alts) => alts.get(alternative)?,
            other if alternative == 0 => other,
            _ => return None,
        };
        let rules = fixed_point(
            table,
            NONE,
            |node, v| up(cost(node, v)),
            |new, old| new < old,
        );
        let target_node: *const Expr = &table.nodes[target];
        let direct = cost(alternative, &rules);
        let through = fixed_point(
            table,
            NONE,
            |node, w| {
                let via = cost_through(node, &rules, w);
                // The target itself: its alternative, or a way round through it.
                up(if std::ptr::eq(node, target_node) {
                    direct.min(via)
                } else {
                    via
                })
            },
            |new, old| new < old,
        );
        Some(Shortest {
            table,
            rules,
            through,
            target,
            alternative,
        })
    }

    /// The shortest string of rule `k` through the target, if there is one short
    /// enough.
    pub(super) fn string(&self, k: usize) -> Option<String> {
        if self.through[k].0 > MAX_LENGTH {
            return None;
        }
        let mut out = String::new();
        // What follows the way down, emitted once it is done (innermost first).
        let mut later: Vec<&Expr> = Vec::new();
        let mut node = &self.table.nodes[k];
        let mut rule = Some(k);
        loop {
            if let Some(r) = rule.take() {
                if r == self.target && up(cost(self.alternative, &self.rules)) == self.through[r] {
                    self.emit(self.alternative, &mut out);
                    break;
                }
                node = &self.table.nodes[r];
            }
            match node {
                Expr::Rule(r) => rule = Some(*r),
                Expr::Alt(alts) => {
                    node = alts
                        .iter()
                        .min_by_key(|a| cost_through(a, &self.rules, &self.through))?;
                }
                Expr::Cat(items) => {
                    let i = (0..items.len())
                        .min_by_key(|&i| cat_through(items, i, &self.rules, &self.through))?;
                    for item in &items[..i] {
                        self.emit(item, &mut out);
                    }
                    later.extend(items[i + 1..].iter().rev());
                    node = &items[i];
                }
                Expr::Rep {
                    min, node: item, ..
                } => {
                    // One match goes through; the rest of the minimum follow it.
                    later.extend(std::iter::repeat_n(&**item, (*min).max(1) as usize - 1));
                    node = item;
                }
                _ => return None,
            }
        }
        while let Some(n) = later.pop() {
            self.emit(n, &mut out);
        }
        Some(out)
    }

    /// Appends the shortest string of `node`.
    pub(super) fn emit(&self, node: &Expr, out: &mut String) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            match n {
                Expr::Alt(alts) => {
                    if let Some(a) = alts.iter().min_by_key(|a| cost(a, &self.rules)) {
                        stack.push(a);
                    }
                }
                Expr::Cat(items) => stack.extend(items.iter().rev()),
                // Matches of the empty string add nothing, however many.
                Expr::Rep { min, node, .. } if cost(node, &self.rules).0 > 0 => {
                    stack.extend(std::iter::repeat_n(&**node, *min as usize));
                }
                Expr::Rep { .. } | Expr::Missing(_) | Expr::Prose => {}
                Expr::Rule(r) => stack.push(&self.table.nodes[*r]),
                Expr::Chars(text, _) => out.extend(text),
                Expr::Seq(cps) => out.extend(cps.iter().filter_map(|&c| char::from_u32(c))),
                Expr::Range(lo, hi) => out.extend(pick_valid(*lo, *hi, *lo)),
            }
        }
    }
}

/// A rule's cost from its definition's: one level higher.
pub(super) fn up((len, height): Cost) -> Cost {
    if len == u64::MAX {
        NONE
    } else {
        (len, height.saturating_add(1))
    }
}

/// The cost of the cheapest derivation of `node`, given the rules'.
pub(super) fn cost(node: &Expr, rules: &[Cost]) -> Cost {
    match node {
        Expr::Alt(alts) => alts.iter().map(|a| cost(a, rules)).min().unwrap_or(NONE),
        Expr::Cat(items) => items
            .iter()
            .fold((0, 0), |acc, a| both(acc, cost(a, rules))),
        Expr::Rep { min: 0, .. } => (0, 0),
        Expr::Rep { min, max, .. } if max.is_some_and(|m| m < *min) => NONE,
        Expr::Rep { min, node, .. } => times(cost(node, rules), *min),
        Expr::Rule(k) => rules[*k],
        Expr::Missing(_) | Expr::Prose => NONE,
        Expr::Chars(text, _) => (text.len() as u64, 0),
        Expr::Seq(cps) if cps.iter().all(|&c| char::from_u32(c).is_some()) => (cps.len() as u64, 0),
        Expr::Range(lo, hi) if pick_valid(*lo, *hi, *lo).is_some() => (1, 0),
        Expr::Seq(_) | Expr::Range(..) => NONE,
    }
}

/// The cost of the cheapest derivation of `node` through the target, given the
/// rules' cheapest (`rules`) and cheapest through it (`through`).
pub(super) fn cost_through(node: &Expr, rules: &[Cost], through: &[Cost]) -> Cost {
    match node {
        Expr::Alt(alts) => alts
            .iter()
            .map(|a| cost_through(a, rules, through))
            .min()
            .unwrap_or(NONE),
        Expr::Cat(items) => (0..items.len())
            .map(|i| cat_through(items, i, rules, through))
            .min()
            .unwrap_or(NONE),
        Expr::Rep { max: Some(0), .. } => NONE,
        Expr::Rep { min, max, .. } if max.is_some_and(|m| m < *min) => NONE,
        Expr::Rep { min, node, .. } => both(
            cost_through(node, rules, through),
            times(cost(node, rules), (*min).max(1) - 1),
        ),
        Expr::Rule(k) => through[*k],
        _ => NONE,
    }
}

/// The cost of a concatenation whose item `i` goes through the target.
pub(super) fn cat_through(items: &[Expr], i: usize, rules: &[Cost], through: &[Cost]) -> Cost {
    items.iter().enumerate().fold((0, 0), |acc, (j, item)| {
        both(
            acc,
            if j == i {
                cost_through(item, rules, through)
            } else {
                cost(item, rules)
            },
        )
    })
}

/// Two derivations side by side: lengths add, the height is the higher.
pub(super) fn both(a: Cost, b: Cost) -> Cost {
    if a == NONE || b == NONE {
        NONE
    } else {
        (a.0.saturating_add(b.0), a.1.max(b.1))
    }
}

/// `n` derivations of cost `c` side by side.
pub(super) fn times(c: Cost, n: u32) -> Cost {
    match n {
        0 => (0, 0),
        _ if c == NONE => NONE,
        _ => (c.0.saturating_mul(u64::from(n)), c.1),
    }
}
