//! Near misses that teach: strings a rule rejects that are one step outside one of
//! its own alternatives (a range's neighbours, a repetition once too often, an
//! element left out).

use super::lengths::length_of;
use super::walk::Walk;
use super::{Generator, DEEP, MAX_LENGTH};
use crate::model::table::Expr;
use crate::model::UnknownRule;

/// How many repetitions a near miss of a bounded repetition may spell out (`m + 1`
/// copies of an element repeated at most `m` times).
pub(super) const MAX_SPELLED: u32 = 16;

impl Generator<'_> {
    /// Up to `n` near misses of `rule` that teach: strings the rule rejects (by the
    /// oracle) that are one step outside one of its own alternatives. First the
    /// boundary values: a range's neighbours (`"25" %x30-35` gives `256`), a quoted
    /// string's last character moved on (`"2" %x30-34 DIGIT` gives `300`), a
    /// bounded repetition once too often (`"1" 2DIGIT` gives `1000`) or an
    /// element repeated once too few, in that order; then short structural misses
    /// of a drawn example: its beginning up to a rule (`1.2.3` of `IPv4address`),
    /// longest first, or one element left out. Misses made only of characters the
    /// rule's strings use come first: `256` teaches more than `25/`. Only printable ASCII is put at a boundary (U+F0000 next to a range
    /// teaches nothing a student can see).
    ///
    /// ```
    /// use iri_grammar_abnf::{strings::generate::Generator, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let mut gen = Generator::new(&g, VariantName::Uri, 1);
    /// assert_eq!(gen.near_misses("dec-octet", 3).unwrap(), ["256", "00", "300"]);
    /// let ipv4 = gen.near_misses("IPv4address", 1).unwrap();
    /// assert_eq!(ipv4[0].split('.').count(), 3, "{ipv4:?}"); // like 1.2.3
    /// ```
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar has no such rule or it refers to one it lacks.
    pub fn near_misses(&mut self, rule: &str, n: usize) -> Result<Vec<String>, UnknownRule> {
        let k = self.table.resolve(rule)?;
        if !self.generable[k] {
            return Ok(Vec::new());
        }
        let table = self.table.clone();
        let alts: Vec<&Expr> = match &table.nodes[k] {
            Expr::Alt(alts) => alts.iter().collect(),
            other => vec![other],
        };
        // Each boundary miss with its kind: past a range's end, before its start, a
        // quoted string moved on, a repetition too long, too short: the order in
        // which they teach, "256" before "25/".
        let mut boundary: Vec<(u8, String)> = Vec::new();
        let mut structural: Vec<String> = Vec::new();
        for alt in alts {
            let items: Vec<&Expr> = match alt {
                Expr::Cat(items) => items.iter().collect(),
                other => vec![other],
            };
            let Some(least): Option<Vec<String>> = items.iter().map(|i| self.least(i, 0)).collect()
            else {
                continue;
            };
            for (i, item) in items.iter().enumerate() {
                let mut with = |kind: u8, s: String| {
                    let mut parts = least.clone();
                    parts[i] = s;
                    boundary.push((kind, parts.concat()));
                };
                match item {
                    Expr::Range(lo, hi) => {
                        let outside = [(1, lo.checked_sub(1)), (0, hi.checked_add(1))];
                        for (kind, c) in outside {
                            if let Some(c) = c.filter(|c| (0x21..=0x7E).contains(c)) {
                                with(kind, char::from(c as u8).to_string());
                            }
                        }
                    }
                    Expr::Chars(cs, _) => {
                        let next = cs.last().and_then(|&c| match c {
                            '0'..='8' | 'a'..='y' | 'A'..='Y' => char::from_u32(c as u32 + 1),
                            _ => None,
                        });
                        if let Some(next) = next {
                            let mut text: String = cs[..cs.len() - 1].iter().collect();
                            text.push(next);
                            with(2, text);
                        }
                    }
                    Expr::Rep { min, max, node } => {
                        let Some(one) = self.least(node, 0).filter(|s| !s.is_empty()) else {
                            continue;
                        };
                        if let Some(m) = max.filter(|&m| m < MAX_SPELLED) {
                            with(3, one.repeat(m as usize + 1));
                        }
                        if *min > 0 {
                            with(4, one.repeat(*min as usize - 1));
                        }
                    }
                    _ => {}
                }
            }
            // A drawn example, element by element, for the structural misses.
            let drawn: Vec<String> = items
                .iter()
                .map(|item| {
                    let mut out = String::new();
                    let mut walk = Walk {
                        table: &table,
                        shortest: &self.shortest,
                        height: &self.height,
                        plan: &self.plan,
                        depth: 0,
                        steps: self.steps,
                        rng: &mut self.rng,
                        counts: self.counts,
                    };
                    // Past the budget, what was drawn is still a candidate: only
                    // the strings the oracle rejects are kept.
                    let _ = walk.node(item, &mut out);
                    out
                })
                .collect();
            if items.len() > 1 {
                for i in (1..items.len()).rev() {
                    if matches!(items[i - 1], Expr::Rule(_) | Expr::Rep { .. }) {
                        structural.push(drawn[..i].concat());
                    }
                }
                for i in 0..items.len() {
                    let mut parts = drawn.clone();
                    parts.remove(i);
                    structural.push(parts.concat());
                }
            }
        }
        let oracle = crate::oracle::Oracle::from_table(table);
        let alphabet = self.alphabet(k);
        let foreign = |s: &String| s.chars().any(|c| !alphabet.contains(c));
        boundary.sort_by_key(|(kind, s)| (foreign(s), *kind, s.chars().count()));
        // The structural misses keep their order (the longest beginning first), the
        // ones with characters the rule never uses last.
        structural.sort_by_key(foreign);
        let mut out: Vec<String> = Vec::new();
        for s in boundary.into_iter().map(|(_, s)| s).chain(structural) {
            if out.len() == n {
                break;
            }
            if !s.is_empty() && !out.contains(&s) && oracle.matches(rule, &s) == Ok(false) {
                out.push(s);
            }
        }
        Ok(out)
    }

    /// Every character a terminal reachable from rule `k` stands for: the
    /// characters the rule's strings can hold.
    pub(super) fn alphabet(&self, k: usize) -> crate::teaching::analysis::CharSet {
        let mut set = crate::teaching::analysis::CharSet::default();
        let mut seen = vec![false; self.table.rules.len()];
        seen[k] = true;
        let mut stack = vec![&self.table.nodes[k]];
        while let Some(node) = stack.pop() {
            match node {
                Expr::Alt(items) | Expr::Cat(items) => stack.extend(items),
                Expr::Rep { node, .. } => stack.push(node),
                Expr::Rule(r) if !seen[*r] => {
                    seen[*r] = true;
                    stack.push(&self.table.nodes[*r]);
                }
                Expr::Chars(cs, case_sensitive) => {
                    for &c in cs {
                        set.insert(c as u32, c as u32);
                        if !case_sensitive {
                            let (l, u) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
                            set.insert(l as u32, l as u32);
                            set.insert(u as u32, u as u32);
                        }
                    }
                }
                Expr::Seq(cps) => cps.iter().for_each(|&c| set.insert(c, c)),
                Expr::Range(lo, hi) => set.insert(*lo, *hi),
                _ => {}
            }
        }
        set
    }

    /// The least string of an element: the shortest alternative, the fewest
    /// repetitions, each range's first character; `None` when the element has no
    /// string or the rules nest past [`DEEP`] (a recursive grammar).
    pub(super) fn least(&self, node: &Expr, depth: u32) -> Option<String> {
        if depth > DEEP {
            return None;
        }
        Some(match node {
            Expr::Alt(alts) => {
                let best = alts.iter().min_by_key(|a| length_of(a, &self.shortest))?;
                self.least(best, depth)?
            }
            Expr::Cat(items) => {
                let mut out = String::new();
                for item in items {
                    out.push_str(&self.least(item, depth)?);
                }
                out
            }
            Expr::Rep { min, node, .. } => {
                let one = self.least(node, depth)?;
                if one.len() as u64 * u64::from(*min) > MAX_LENGTH {
                    return None;
                }
                one.repeat(*min as usize)
            }
            Expr::Rule(r) => {
                if self.shortest[*r] == u64::MAX {
                    return None;
                }
                self.least(&self.table.nodes[*r], depth + 1)?
            }
            Expr::Chars(cs, _) => cs.iter().collect(),
            Expr::Seq(cps) => cps.iter().filter_map(|&c| char::from_u32(c)).collect(),
            Expr::Range(lo, _) => char::from_u32(*lo)?.to_string(),
            Expr::Missing(_) | Expr::Prose => return None,
        })
    }
}
