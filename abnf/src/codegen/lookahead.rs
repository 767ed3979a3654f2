//! The generator's analysis of a rule set: which rules can match the empty string,
//! their FIRST and FOLLOW sets (one character deep; `lookahead2` adds two), where a
//! choice needs a lookahead guard, and which elements are character classes that run
//! as one table-driven `Scan`. The writer (`mod.rs`) asks it; it writes nothing.

use super::lookahead2::{self, First2, Look2};
use super::{CodegenError, RuleSet, SetRule};
use crate::teaching::analysis::{element_first, FirstSet};
use crate::{Element, RuleDef, RuleList};
use iri_grammar_contract::Set;
use std::collections::{BTreeMap, BTreeSet, HashMap};

#[cfg(test)]
thread_local! {
    /// Passes over the rules the fixpoints took, on this thread (tests count them).
    pub(super) static PASSES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts a pass over the rules (in tests).
fn count_pass() {
    #[cfg(test)]
    PASSES.with(|p| p.set(p.get() + 1));
}

/// The specification of a character class, from which the generator writes a
/// runtime `Class` constant: the language of an element that always matches exactly one
/// character (or one `pct-encoded` triplet), e.g. `*( iunreserved / pct-encoded / ":" )`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(super) struct ClassSpec {
    /// Code point ranges (ASCII and beyond), merged.
    pub(super) ranges: Vec<(u32, u32)>,
    /// `pct-encoded` (or a rule of its shape, named by its `Rule` ident) is a member.
    pub(super) pct: Option<String>,
    /// Variant rules that are members (indexes into the variant-rule list).
    pub(super) variant: BTreeSet<usize>,
    /// What the error message says was expected, in ABNF terms.
    pub(super) expected: Vec<String>,
}

impl ClassSpec {
    pub(super) fn merge(mut self, o: ClassSpec) -> ClassSpec {
        self.ranges.extend(o.ranges);
        self.ranges.sort();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (lo, hi) in self.ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        self.ranges = merged;
        self.pct = self.pct.or(o.pct);
        self.variant.extend(o.variant);
        for e in o.expected {
            if !self.expected.contains(&e) {
                self.expected.push(e);
            }
        }
        self
    }
}

/// The analysis of the rule set: nullability, FIRST and FOLLOW sets, classes.
pub(super) struct Analysis<'s, 'g> {
    pub(super) set: &'s RuleSet<'g>,
    pub(super) core: &'g RuleList,
    pub(super) nullable: BTreeMap<String, bool>,
    pub(super) first: BTreeMap<String, Set>,
    pub(super) follow: BTreeMap<String, Set>,
    /// FIRST₂ and FOLLOW₂ (`lookahead2`), for the choices one character cannot settle.
    first2: BTreeMap<String, First2>,
    pub(super) follow2: BTreeMap<String, Look2>,
    /// Each rule's index in the set by its lower-cased name (the first of a name
    /// given twice, as [`RuleSet::get`] finds it).
    index: HashMap<String, usize>,
    /// The rules in an order where a rule comes after the rules it refers to,
    /// cycles aside (a depth-first post-order): FIRST and nullability read the
    /// rules a definition names, so in this order a pass over a grammar without
    /// recursion finds them all; in the order of the files, a chain of rules each
    /// naming the next would take a pass per rule.
    order: Vec<usize>,
}

impl<'s, 'g> Analysis<'s, 'g> {
    pub(super) fn new(set: &'s RuleSet<'g>, core: &'g RuleList) -> Result<Self, CodegenError> {
        let mut a = Analysis {
            set,
            core,
            nullable: BTreeMap::new(),
            first: BTreeMap::new(),
            follow: BTreeMap::new(),
            first2: BTreeMap::new(),
            follow2: BTreeMap::new(),
            index: HashMap::new(),
            order: Vec::new(),
        };
        for (k, r) in set.rules.iter().enumerate() {
            a.index.entry(r.name.to_ascii_lowercase()).or_insert(k);
        }
        a.order = a.post_order();
        for r in &set.rules {
            for def in a.definitions(r) {
                a.check_refs(&r.rule.name, &def.definition)?;
            }
        }
        // The grammars are not recursive, but iterate to a fixpoint anyway: it is
        // the textbook definition and costs nothing at this size. Nullability first,
        // as FIRST of a concatenation reads it.
        a.until_stable(
            |a| &mut a.nullable,
            |a, r| {
                a.definitions(r)
                    .iter()
                    .any(|d| a.nullable_of(&d.definition))
            },
        );
        a.until_stable(
            |a| &mut a.first,
            |a, r| {
                a.definitions(r)
                    .iter()
                    .fold(Set::new(), |acc, d| acc.union(a.first_of(&d.definition)))
            },
        );
        // FOLLOW: any rule can be matched on its own, so the end of input follows each.
        for r in &set.rules {
            a.follow
                .insert(r.name.to_ascii_lowercase(), Set::new().end_of_input());
        }
        let order = a.order.clone();
        loop {
            let before = a.follow.clone();
            count_pass();
            // FOLLOW flows from a rule to the rules it names: users first.
            for &k in order.iter().rev() {
                let r = &set.rules[k];
                let f = a.follow[&r.name.to_ascii_lowercase()];
                for d in a.definitions(r) {
                    a.propagate_follow(&d.definition, f);
                }
            }
            if a.follow == before {
                break;
            }
        }
        // The same two characters deep.
        a.until_stable(
            |a| &mut a.first2,
            |a, r| {
                a.definitions(r)
                    .iter()
                    .fold(None, |acc: Option<First2>, d| {
                        let x = a.first2_of(&d.definition);
                        Some(acc.map_or(x.clone(), |acc| acc.or(&x)))
                    })
                    .unwrap_or_default()
            },
        );
        for r in &set.rules {
            a.follow2
                .insert(r.name.to_ascii_lowercase(), Look2::end_of_input());
        }
        loop {
            let before = a.follow2.clone();
            count_pass();
            for &k in order.iter().rev() {
                let r = &set.rules[k];
                let f = a.follow2[&r.name.to_ascii_lowercase()].clone();
                for d in a.definitions(r) {
                    a.propagate_follow2(&d.definition, &f);
                }
            }
            if a.follow2 == before {
                break;
            }
        }
        Ok(a)
    }

    /// Recomputes `value` of every rule into the map `field` picks (by lower-cased
    /// name), in rule order, until a pass changes nothing: a least fixpoint, each
    /// value read as soon as it is written.
    fn until_stable<T: PartialEq>(
        &mut self,
        field: fn(&mut Self) -> &mut BTreeMap<String, T>,
        value: impl Fn(&Self, &SetRule<'g>) -> T,
    ) {
        let set = self.set;
        let order = std::mem::take(&mut self.order);
        loop {
            let mut changed = false;
            count_pass();
            for &k in &order {
                let r = &set.rules[k];
                let v = value(self, r);
                let key = r.name.to_ascii_lowercase();
                let map = field(self);
                if map.get(&key) != Some(&v) {
                    map.insert(key, v);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        self.order = order;
    }

    /// The rules, each after the rules its definitions name (a depth-first
    /// post-order from each rule in turn, on a stack of its own: a chain of rules
    /// is as deep as it is long).
    fn post_order(&self) -> Vec<usize> {
        let n = self.set.rules.len();
        let mut done = vec![false; n];
        let mut order = Vec::with_capacity(n);
        for start in 0..n {
            if done[start] {
                continue;
            }
            done[start] = true;
            // Each rule on the stack with the rules it names, and how many of them
            // are taken.
            let mut stack: Vec<(usize, Vec<usize>, usize)> = vec![(start, self.named(start), 0)];
            while let Some((k, named, next)) = stack.last_mut() {
                match named.get(*next) {
                    Some(&j) => {
                        *next += 1;
                        if !done[j] {
                            done[j] = true;
                            let names = self.named(j);
                            stack.push((j, names, 0));
                        }
                    }
                    None => {
                        order.push(*k);
                        stack.pop();
                    }
                }
            }
        }
        order
    }

    /// The rules of the set that rule `k`'s definitions name, by index.
    fn named(&self, k: usize) -> Vec<usize> {
        let mut out = Vec::new();
        for d in self.definitions(&self.set.rules[k]) {
            d.definition.rule_refs(&mut |name| {
                if let Some(&j) = self.index.get(&name.to_ascii_lowercase()) {
                    out.push(j);
                }
            });
        }
        out
    }

    /// FIRST₂ of an element (`lookahead2`).
    fn first2_of(&self, e: &Element) -> First2 {
        match e {
            Element::Alternation(v) => v
                .iter()
                .map(|x| self.first2_of(x))
                .reduce(|a, b| a.or(&b))
                .unwrap_or_default(),
            Element::Concatenation(v) => self.first2_seq(v),
            Element::Repetition {
                min, max, element, ..
            } => self.first2_of(element).repeat(*min, *max),
            Element::Rule(n) => self
                .first2
                .get(&n.to_ascii_lowercase())
                .cloned()
                .unwrap_or_default(),
            Element::CharVal {
                text,
                case_sensitive,
            } => {
                let cs: Vec<u32> = text.chars().map(u32::from).collect();
                First2::chars(&cs, !case_sensitive)
            }
            Element::Sequence(cs) => First2::chars(cs, false),
            Element::Range(lo, hi) => First2::range(*lo, *hi),
            Element::Prose(_) => First2::default(),
        }
    }

    /// FIRST₂ of a sequence of elements.
    pub(super) fn first2_seq(&self, items: &[Element]) -> First2 {
        items
            .iter()
            .fold(First2::empty(), |acc, x| acc.then(&self.first2_of(x)))
    }

    /// What may follow one iteration of a repetition, two characters deep.
    pub(super) fn after_iteration2(
        &self,
        element: &Element,
        max: Option<u32>,
        follow: &Look2,
    ) -> Look2 {
        let more = self
            .first2_of(element)
            .repeat(0, max.map(|m| m.saturating_sub(1)));
        Look2::after(&more, follow)
    }

    fn propagate_follow2(&mut self, e: &Element, follow: &Look2) {
        match e {
            Element::Alternation(v) => {
                for x in v {
                    self.propagate_follow2(x, follow);
                }
            }
            Element::Concatenation(v) => {
                for (k, x) in v.iter().enumerate() {
                    let f = Look2::after(&self.first2_seq(&v[k + 1..]), follow);
                    self.propagate_follow2(x, &f);
                }
            }
            Element::Repetition { element, max, .. } => {
                let f = self.after_iteration2(element, *max, follow);
                self.propagate_follow2(element, &f);
            }
            Element::Rule(n) => {
                if let Some(old) = self.follow2.get_mut(&n.to_ascii_lowercase()) {
                    old.absorb(follow);
                }
            }
            _ => {}
        }
    }

    /// Whether alternative `k` of `alts` needs two characters of lookahead: a later
    /// alternative starts with the same elements (`A | A B`) and can go on, after
    /// them, with a character that may also follow the whole choice (`lookahead2`).
    pub(super) fn prefix_conflict(&self, alts: &[Element], k: usize, follow: Set) -> bool {
        let head = lookahead2::items(&alts[k]);
        alts[k + 1..].iter().any(|j| {
            let items = lookahead2::items(j);
            items.len() > head.len()
                && items[..head.len()] == *head
                && self
                    .first_of_seq(&items[head.len()..], Set::new())
                    .intersects(follow)
        })
    }

    /// Every definition of a rule: one, or one per variant for a variant rule.
    pub(super) fn definitions(&self, r: &SetRule<'g>) -> Vec<&'g RuleDef> {
        match &r.variant_defs {
            None => vec![r.rule],
            Some(defs) => {
                let mut out: Vec<&'g RuleDef> = Vec::new();
                for d in defs.iter().flatten() {
                    if !out.iter().any(|o| std::ptr::eq(*o, *d)) {
                        out.push(d);
                    }
                }
                out
            }
        }
    }

    /// The rule a name refers to; core rules used by `leiri.abnf` resolve too.
    pub(super) fn lookup(&self, name: &str) -> Option<&'s SetRule<'g>> {
        let set = self.set;
        self.index
            .get(&name.to_ascii_lowercase())
            .map(|&k| &set.rules[k])
    }

    fn check_refs(&self, in_rule: &str, e: &Element) -> Result<(), CodegenError> {
        match e {
            Element::Rule(n) => {
                if self.lookup(n).is_none() && self.core.get(n).is_none() {
                    return Err(CodegenError(format!(
                        "rule {in_rule} refers to {n}, which no grammar file defines"
                    )));
                }
                Ok(())
            }
            Element::Alternation(v) | Element::Concatenation(v) => {
                v.iter().try_for_each(|x| self.check_refs(in_rule, x))
            }
            Element::Repetition { element, .. } => self.check_refs(in_rule, element),
            _ => Ok(()),
        }
    }

    /// Whether `e` can match the empty string ([`element_first`], the one FIRST and
    /// nullable analysis of the crate).
    pub(super) fn nullable_of(&self, e: &Element) -> bool {
        element_first(e, &|n| self.rule_first(n)).1
    }

    /// What can start `e` ([`element_first`]).
    pub(super) fn first_of(&self, e: &Element) -> Set {
        element_first(e, &|n| self.rule_first(n)).0
    }

    /// The FIRST set and nullability of the rule `n` so far (nothing, not nullable,
    /// before the fixpoint reaches it).
    fn rule_first(&self, n: &str) -> Option<(Set, bool)> {
        let key = n.to_ascii_lowercase();
        Some((
            self.first.get(&key).copied().unwrap_or_default(),
            self.nullable.get(&key).copied().unwrap_or(false),
        ))
    }

    /// FIRST of a sequence of elements, plus `after` if they can all be empty.
    pub(super) fn first_of_seq(&self, items: &[Element], after: Set) -> Set {
        let mut s = Set::new();
        for x in items {
            s = s.union(self.first_of(x));
            if !self.nullable_of(x) {
                return s;
            }
        }
        s.union(after)
    }

    /// What may follow one iteration of a repetition: another iteration (unless
    /// at most one is allowed) or what follows the repetition.
    pub(super) fn after_iteration(&self, element: &Element, max: Option<u32>, follow: Set) -> Set {
        if max.is_some_and(|m| m <= 1) {
            follow
        } else {
            self.first_of(element).union(follow)
        }
    }

    fn propagate_follow(&mut self, e: &Element, follow: Set) {
        match e {
            Element::Alternation(v) => {
                for x in v {
                    self.propagate_follow(x, follow);
                }
            }
            Element::Concatenation(v) => {
                for (k, x) in v.iter().enumerate() {
                    let f = self.first_of_seq(&v[k + 1..], follow);
                    self.propagate_follow(x, f);
                }
            }
            Element::Repetition { element, max, .. } => {
                let f = self.after_iteration(element, *max, follow);
                self.propagate_follow(element, f);
            }
            Element::Rule(n) => {
                let key = n.to_ascii_lowercase();
                if let Some(old) = self.follow.get(&key).copied() {
                    self.follow.insert(key, old.union(follow));
                }
            }
            _ => {}
        }
    }

    /// The class of an element that always matches one character or one
    /// `pct-encoded`, or `None`. `variant_index` numbers the variant rules.
    pub(super) fn class_of(
        &self,
        e: &Element,
        variant_index: &dyn Fn(&str) -> Option<usize>,
    ) -> Option<ClassSpec> {
        match e {
            Element::Range(lo, hi) => Some(ClassSpec {
                ranges: vec![(*lo, *hi)],
                expected: vec![e.to_string()],
                ..ClassSpec::default()
            }),
            Element::Sequence(cs) if cs.len() == 1 => Some(ClassSpec {
                ranges: vec![(cs[0], cs[0])],
                expected: vec![e.to_string()],
                ..ClassSpec::default()
            }),
            Element::CharVal {
                text,
                case_sensitive,
            } if text.chars().count() == 1 => {
                let c = text.chars().next()? as u32;
                let mut ranges = vec![(c, c)];
                if !case_sensitive {
                    let ch = char::from_u32(c)?;
                    for other in [ch.to_ascii_lowercase(), ch.to_ascii_uppercase()] {
                        ranges.push((other as u32, other as u32));
                    }
                }
                Some(
                    ClassSpec {
                        expected: vec![e.to_string()],
                        ..ClassSpec::default()
                    }
                    .merge(ClassSpec {
                        ranges,
                        ..ClassSpec::default()
                    }),
                )
            }
            Element::Alternation(v) => {
                let mut c = ClassSpec::default();
                for x in v {
                    c = c.merge(self.class_of(x, variant_index)?);
                }
                Some(c)
            }
            Element::Rule(n) => {
                let r = self.lookup(n)?;
                let mut c = if let Some(k) = variant_index(r.name) {
                    ClassSpec {
                        variant: [k].into_iter().collect(),
                        ..ClassSpec::default()
                    }
                } else if is_percent_triplet(&r.rule.definition) {
                    // The one member of these classes longer than a character; the
                    // scanner knows its shape, "%" HEXDIG HEXDIG (RFC 3986 §2.1's
                    // pct-encoded, RFC 2396 §2.4.1's escaped).
                    ClassSpec {
                        pct: Some(r.ident.clone()),
                        ..ClassSpec::default()
                    }
                } else {
                    self.class_of(&r.rule.definition, variant_index)?
                };
                c.expected = vec![r.name.to_string()];
                Some(c)
            }
            _ => None,
        }
    }

    /// The next-character set of a class, for the conflict test.
    pub(super) fn class_first(&self, c: &ClassSpec, variant_rules: &[&SetRule<'g>]) -> Set {
        let mut s = Set::new();
        for &(lo, hi) in &c.ranges {
            s = s.code_points(lo, hi);
        }
        if c.pct.is_some() {
            s = s.code_points(b'%' as u32, b'%' as u32);
        }
        for &k in &c.variant {
            s = s.union(self.first[&variant_rules[k].name.to_ascii_lowercase()]);
        }
        s
    }
}

/// Whether a definition is `"%" HEXDIG HEXDIG`: RFC 3986's `pct-encoded`, RFC 2396's
/// `escaped` (which the 2001 draft writes with HEXDIG for RFC 2396's `hex`).
pub(super) fn is_percent_triplet(e: &Element) -> bool {
    let Element::Concatenation(items) = e else {
        return false;
    };
    let hexdig = |x: &Element| matches!(x, Element::Rule(n) if n.eq_ignore_ascii_case("HEXDIG"));
    matches!(
        items.as_slice(),
        [Element::CharVal { text, .. }, a, b] if text == "%" && hexdig(a) && hexdig(b)
    )
}

/// The generator's sets in the one FIRST analysis ([`element_first`]): a code point
/// range counts its ASCII part exactly and "any non-ASCII character" beyond it. A
/// quoted string's first letter counts in both cases even under `%s` (a superset of
/// RFC 7405's reading, as the generator has always computed it; the built-in grammars
/// have no `%s`).
impl FirstSet for Set {
    fn add_range(&mut self, lo: u32, hi: u32) {
        *self = self.code_points(lo, hi);
    }

    fn add_quoted(&mut self, c: char, _case_sensitive: bool) {
        *self = self.char_either_case(c);
    }

    fn add_set(&mut self, other: &Self) {
        *self = self.union(*other);
    }
}
