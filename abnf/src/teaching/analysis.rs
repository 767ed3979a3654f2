//! Small analyses of a rule table for people learning it: which characters can start
//! a rule (its FIRST set), whether it can match the empty string, which rules it uses
//! and which rules use it.
//!
//! FIRST sets are the classic LL(1) notion (Aho, Sethi, Ullman, "Compilers", §4.4):
//! the characters that can be the first of a string the rule matches. They are computed
//! over the rule table exactly as RFC 5234 defines the operators, as a least fixed
//! point, together with "nullable" (the rule can match nothing at all): a
//! concatenation (§3.1) starts with what its first element starts with, and with what
//! the second starts with when the first can be empty, and so on; an alternation (§3.2)
//! with what any alternative starts with; a repetition (§3.6) with what its element
//! starts with, and is nullable when it may repeat zero times. A quoted string that is
//! not `%s` (§2.3) starts with either case of its first letter.
//!
//! The generator of the combinators runs the same FIRST and nullable rules
//! (`element_first`) on sets of its own, exact for ASCII, and adds FOLLOW sets
//! (`codegen/lookahead.rs`); this module only reads the table.

use crate::model::table::{Expr, Table};
use crate::teaching::label::range_label;
use crate::{Element, Grammars, RuleDef, VariantName};

/// A set of Unicode code points, as sorted, disjoint, non-adjacent ranges.
///
/// ```
/// use iri_grammar_abnf::teaching::analysis::CharSet;
/// let mut s = CharSet::default();
/// s.insert(0x30, 0x35);
/// s.insert(0x36, 0x39);
/// s.insert(0x41, 0x41);
/// assert_eq!(s.ranges(), &[(0x30, 0x39), (0x41, 0x41)]);
/// assert!(s.contains('7') && !s.contains('B'));
/// assert_eq!(s.labels(), ["'0'–'9'", "'A'"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CharSet {
    ranges: Vec<(u32, u32)>,
}

impl CharSet {
    /// Adds the code points `lo..=hi`.
    pub fn insert(&mut self, lo: u32, hi: u32) {
        self.ranges.push((lo.min(hi), lo.max(hi)));
        self.normalize();
    }

    /// Adds every code point of `other`; whether anything was added.
    pub fn union(&mut self, other: &CharSet) -> bool {
        let before = self.ranges.clone();
        self.ranges.extend_from_slice(&other.ranges);
        self.normalize();
        self.ranges != before
    }

    /// Whether `c` is in the set.
    pub fn contains(&self, c: char) -> bool {
        let cp = c as u32;
        self.ranges.iter().any(|&(lo, hi)| lo <= cp && cp <= hi)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The ranges, ascending.
    pub fn ranges(&self) -> &[(u32, u32)] {
        &self.ranges
    }

    /// Each range as a person reads it (see [`crate::teaching::label`]): `'0'–'9'`, `'%'`,
    /// `U+00A0–U+D7FF`.
    pub fn labels(&self) -> Vec<String> {
        self.ranges
            .iter()
            .map(|&(lo, hi)| range_label(lo, hi))
            .collect()
    }

    /// Whether every code point of `self` is in `other`.
    pub fn is_subset(&self, other: &CharSet) -> bool {
        self.ranges
            .iter()
            .all(|&(lo, hi)| other.ranges.iter().any(|&(a, b)| a <= lo && hi <= b))
    }

    /// The code points of `self` that are not in `other`.
    fn minus(&self, other: &CharSet) -> CharSet {
        let mut out = Vec::new();
        for &(lo, hi) in &self.ranges {
            let mut from = lo;
            for &(a, b) in &other.ranges {
                if b < from || a > hi {
                    continue;
                }
                if a > from {
                    out.push((from, a - 1));
                }
                if b >= hi {
                    from = hi + 1;
                    break;
                }
                from = b + 1;
            }
            if from <= hi {
                out.push((from, hi));
            }
        }
        CharSet { ranges: out }
    }

    /// How many code points of `self` are not in `other`.
    fn count_outside(&self, other: &CharSet) -> u64 {
        let mut n = 0u64;
        for &(lo, hi) in &self.ranges {
            let mut inside = 0u64;
            for &(a, b) in &other.ranges {
                let (s, e) = (a.max(lo), b.min(hi));
                if s <= e {
                    inside += u64::from(e - s) + 1;
                }
            }
            n += u64::from(hi - lo) + 1 - inside;
        }
        n
    }

    fn normalize(&mut self) {
        self.ranges.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(self.ranges.len());
        for &(lo, hi) in &self.ranges {
            match out.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => out.push((lo, hi)),
            }
        }
        self.ranges = out;
    }
}

/// What can start a rule: its FIRST set and whether it can match the empty string.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct First {
    /// The characters a non-empty match can start with.
    pub chars: CharSet,
    /// Whether the rule (or element) matches the empty string.
    pub nullable: bool,
}

/// The analyses of one grammar's rule table ([`Grammars::table`]).
///
/// ```
/// use iri_grammar_abnf::{teaching::analysis::Analysis, Grammars, VariantName};
/// let g = Grammars::builtin();
/// let uri = Analysis::new(&g, VariantName::Uri);
/// let f = uri.first("dec-octet").unwrap();
/// assert_eq!(f.chars.labels(), ["'0'–'9'"]);
/// assert!(!f.nullable);
/// assert!(uri.first("path-abempty").unwrap().nullable);
/// assert_eq!(uri.uses("IPv4address").unwrap(), ["dec-octet"]);
/// assert_eq!(uri.used_by("dec-octet").unwrap(), ["IPv4address"]);
/// // Either case of the "v" of IPvFuture (RFC 5234 §2.3).
/// assert_eq!(uri.first("IPvFuture").unwrap().chars.labels(), ["'V'", "'v'"]);
/// ```
#[derive(Debug, Clone)]
pub struct Analysis<'g> {
    table: Table<'g>,
    first: Vec<First>,
    uses: Vec<Vec<usize>>,
    used_by: Vec<Vec<usize>>,
}

impl<'g> Analysis<'g> {
    /// Analyses `grammars.table(variant)`.
    pub fn new(grammars: &'g Grammars, variant: VariantName) -> Analysis<'g> {
        Analysis::from_table(Table::new(grammars, variant))
    }

    /// Analyses a grammar read from ABNF files ([`crate::Grammar`]).
    pub fn of(grammar: &'g crate::Grammar) -> Analysis<'g> {
        Analysis::from_table(grammar.table())
    }

    fn from_table(table: Table<'g>) -> Analysis<'g> {
        let n = table.rules.len();
        // The least fixed point: start from "nothing, not nullable" and grow. Every
        // step only adds, and the sets are bounded, so it ends.
        let mut first = vec![First::default(); n];
        loop {
            let mut changed = false;
            for k in 0..n {
                let rule = |name: &str| {
                    let f = &first[table.lookup(name)?];
                    Some((f.chars.clone(), f.nullable))
                };
                let (chars, nullable) = element_first(&table.rules[k].definition, &rule);
                if nullable && !first[k].nullable {
                    first[k].nullable = true;
                    changed = true;
                }
                changed |= first[k].chars.union(&chars);
            }
            if !changed {
                break;
            }
        }
        let mut uses: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut used_by: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (k, node) in table.nodes.iter().enumerate() {
            refs(node, &mut uses[k]);
            for &u in &uses[k] {
                if !used_by[u].contains(&k) {
                    used_by[u].push(k);
                }
            }
        }
        Analysis {
            table,
            first,
            uses,
            used_by,
        }
    }

    /// The built-in grammar analysed (`None` for a [`crate::Grammar`]).
    pub fn variant(&self) -> Option<VariantName> {
        self.table.variant
    }

    /// The rules of the table, in table order.
    pub fn rules(&self) -> &[&'g RuleDef] {
        &self.table.rules
    }

    /// The rule called `name` (case-insensitive; under LEIRI, `LEIRI-reference` finds
    /// `IRI-reference`, as [`crate::oracle::Oracle::rule`] does).
    pub fn rule(&self, name: &str) -> Option<&'g RuleDef> {
        self.table.lookup(name).map(|k| self.table.rules[k])
    }

    /// The FIRST set of the rule called `name`.
    pub fn first(&self, name: &str) -> Option<&First> {
        self.table.lookup(name).map(|k| &self.first[k])
    }

    /// The names of the rules `name`'s definition refers to, in order of first mention,
    /// as the table names them.
    pub fn uses(&self, name: &str) -> Option<Vec<&'g str>> {
        let k = self.table.lookup(name)?;
        Some(self.names(&self.uses[k]))
    }

    /// The names of the rules whose definitions refer to `name`, in table order.
    pub fn used_by(&self, name: &str) -> Option<Vec<&'g str>> {
        let k = self.table.lookup(name)?;
        let mut v = self.used_by[k].clone();
        v.sort_unstable();
        Some(self.names(&v))
    }

    /// The FIRST set of the rule called `name` as a student reads it: the named
    /// character classes of the grammar that cover it exactly (`ALPHA`, `DIGIT`,
    /// `ucschar`, `sub-delims`), the characters left over as labels (`'%'`, see
    /// [`crate::teaching::label`]). `shown` says which rules may be named (a rule of the table
    /// that the grammar shown does not have, such as RFC 3986's `unreserved` in the
    /// IRI table, is not); the rule itself is never named, so `DIGIT` starts with
    /// `'0'–'9'`, not with `DIGIT`.
    ///
    /// A character class is a rule that always matches exactly one character
    /// (RFC 5234 Appendix B.1's `ALPHA`, `DIGIT`, `HEXDIG`; RFC 3986's `sub-delims`).
    /// The classes are chosen greedily, the one adding most characters first, and
    /// only classes wholly inside the set, so that the names say exactly which
    /// characters can start a match and no more; they come in that order, then the
    /// characters left over, ascending.
    ///
    /// ```
    /// use iri_grammar_abnf::{teaching::analysis::Analysis, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let iri = Analysis::new(&g, VariantName::Iri);
    /// let all = |_: &str| true;
    /// assert_eq!(iri.first_classes("ipchar", &all).unwrap(),
    ///            ["iunreserved", "sub-delims", "'%'", "':'", "'@'"]);
    /// assert_eq!(iri.first_classes("DIGIT", &all).unwrap(), ["'0'–'9'"]);
    /// assert_eq!(iri.first_classes("gen-delims", &all).unwrap(),
    ///            ["'#'", "'/'", "':'", "'?'", "'@'", "'['", "']'"]);
    /// ```
    pub fn first_classes(&self, name: &str, shown: &dyn Fn(&str) -> bool) -> Option<Vec<String>> {
        let k = self.table.lookup(name)?;
        let set = &self.first[k].chars;
        let classes = self.classes();
        // Candidates: named classes wholly inside the set.
        let mut candidates: Vec<(usize, &CharSet)> = classes
            .iter()
            .enumerate()
            .filter_map(|(r, c)| Some((r, c.as_ref()?)))
            .filter(|&(r, c)| {
                r != k && !c.is_empty() && c.is_subset(set) && shown(&self.table.rules[r].name)
            })
            .collect();
        let mut covered = CharSet::default();
        let mut chosen: Vec<String> = Vec::new();
        loop {
            // The class adding the most characters; ties go to the one met first in
            // the table, which is the grammar's own order.
            let best = candidates
                .iter()
                .enumerate()
                .map(|(i, (_, c))| (i, c.count_outside(&covered)))
                .filter(|&(_, gain)| gain > 0)
                .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)));
            let Some((i, _)) = best else { break };
            let (r, c) = candidates.remove(i);
            covered.union(c);
            chosen.push(self.table.rules[r].name.clone());
        }
        // Then what no class covers, range by range; a range of two or three
        // characters reads better as the characters ('?' '@', not '?'–'@').
        for &(lo, hi) in set.minus(&covered).ranges() {
            if hi - lo < 3 {
                chosen.extend((lo..=hi).map(crate::teaching::label::char_label));
            } else {
                chosen.push(crate::teaching::label::range_label(lo, hi));
            }
        }
        Some(chosen)
    }

    /// For each rule, its characters when it is a character class (always matches
    /// exactly one character), by a least fixed point over the table.
    fn classes(&self) -> Vec<Option<CharSet>> {
        let n = self.table.rules.len();
        let mut out: Vec<Option<CharSet>> = vec![None; n];
        loop {
            let mut changed = false;
            for k in 0..n {
                if out[k].is_none() {
                    if let Some(c) = class_of(&self.table.nodes[k], &out) {
                        out[k] = Some(c);
                        changed = true;
                    }
                }
            }
            if !changed {
                return out;
            }
        }
    }

    fn names(&self, ks: &[usize]) -> Vec<&'g str> {
        ks.iter()
            .map(|&k| self.table.rules[k].name.as_str())
            .collect()
    }
}

/// A set FIRST sets are computed in: [`CharSet`] here (exact code points, for people),
/// the generator's `Set` in `codegen/lookahead.rs` (exact for ASCII, one member for
/// any character beyond, and the end of input). Both go through [`element_first`],
/// so the generator and this module agree on what starts an element.
pub(crate) trait FirstSet: Clone + Default {
    /// Adds the code points `lo..=hi` (a `%x` range, or a `%x` string's first value).
    fn add_range(&mut self, lo: u32, hi: u32);
    /// Adds `c`, the first character of a quoted string (RFC 5234 §2.3: either case
    /// unless `case_sensitive`, RFC 7405's `%s`).
    fn add_quoted(&mut self, c: char, case_sensitive: bool);
    /// Adds every member of `other`.
    fn add_set(&mut self, other: &Self);
}

impl FirstSet for CharSet {
    fn add_range(&mut self, lo: u32, hi: u32) {
        self.insert(lo, hi);
    }

    fn add_quoted(&mut self, c: char, case_sensitive: bool) {
        self.insert(c as u32, c as u32);
        if !case_sensitive {
            let (l, u) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
            self.insert(l as u32, l as u32);
            self.insert(u as u32, u as u32);
        }
    }

    fn add_set(&mut self, other: &Self) {
        self.union(other);
    }
}

/// What can start element `e` and whether it matches the empty string, given the
/// same of each rule it names (`rule`: `None` for an undefined name, which matches
/// nothing): the operators of RFC 5234 as the module documentation reads them. A
/// repetition that may not repeat at all (`max` 0) starts with nothing; it is
/// nullable when it may repeat zero times or its element is.
pub(crate) fn element_first<S: FirstSet>(
    e: &Element,
    rule: &dyn Fn(&str) -> Option<(S, bool)>,
) -> (S, bool) {
    let mut chars = S::default();
    let nullable = match e {
        Element::Alternation(items) => {
            let mut nullable = false;
            for item in items {
                let (f, n) = element_first(item, rule);
                chars.add_set(&f);
                nullable |= n;
            }
            nullable
        }
        Element::Concatenation(items) => {
            let mut nullable = true;
            for item in items {
                let (f, n) = element_first(item, rule);
                chars.add_set(&f);
                if !n {
                    nullable = false;
                    break;
                }
            }
            nullable
        }
        Element::Repetition {
            min, max, element, ..
        } => {
            let (f, n) = element_first(element, rule);
            if *max != Some(0) {
                chars = f;
            }
            *min == 0 || n
        }
        Element::Rule(name) => match rule(name) {
            Some((f, n)) => {
                chars = f;
                n
            }
            None => false,
        },
        Element::CharVal {
            text,
            case_sensitive,
        } => match text.chars().next() {
            Some(c) => {
                chars.add_quoted(c, *case_sensitive);
                false
            }
            None => true,
        },
        Element::Sequence(cps) => match cps.first() {
            Some(&c) => {
                chars.add_range(c, c);
                false
            }
            None => true,
        },
        Element::Range(lo, hi) => {
            chars.add_range(*lo, *hi);
            false
        }
        Element::Prose(_) => false,
    };
    (chars, nullable)
}

/// The characters of an element that always matches exactly one character, given
/// the classes of the rules known so far; `None` otherwise.
fn class_of(e: &Expr, classes: &[Option<CharSet>]) -> Option<CharSet> {
    let mut out = CharSet::default();
    match e {
        Expr::Range(lo, hi) => out.insert(*lo, *hi),
        Expr::Seq(cps) if cps.len() == 1 => out.insert(cps[0], cps[0]),
        Expr::Chars(cs, case_sensitive) if cs.len() == 1 => {
            let c = cs[0];
            out.insert(c as u32, c as u32);
            if !case_sensitive {
                let (l, u) = (c.to_ascii_lowercase(), c.to_ascii_uppercase());
                out.insert(l as u32, l as u32);
                out.insert(u as u32, u as u32);
            }
        }
        Expr::Alt(items) if !items.is_empty() => {
            for item in items {
                out.union(&class_of(item, classes)?);
            }
        }
        Expr::Cat(items) if items.len() == 1 => return class_of(&items[0], classes),
        Expr::Rep {
            min: 1,
            max: Some(1),
            node,
        } => return class_of(node, classes),
        Expr::Rule(k) => return classes[*k].clone(),
        _ => return None,
    }
    Some(out)
}

/// The rules an element refers to, each once, in order of first mention.
fn refs(e: &Expr, out: &mut Vec<usize>) {
    match e {
        Expr::Alt(items) | Expr::Cat(items) => items.iter().for_each(|i| refs(i, out)),
        Expr::Rep { node, .. } => refs(node, out),
        Expr::Rule(k) if !out.contains(k) => out.push(*k),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sets_of_the_uri_grammar() {
        let g = Grammars::builtin();
        let a = Analysis::new(&g, VariantName::Uri);
        // scheme = ALPHA *( ... ): letters only.
        assert_eq!(
            a.first("scheme").unwrap().chars.labels(),
            ["'A'–'Z'", "'a'–'z'"]
        );
        // URI-reference can be empty (relative-ref with path-empty).
        assert!(a.first("URI-reference").unwrap().nullable);
        // IP-literal starts with "[" only.
        assert_eq!(a.first("IP-literal").unwrap().chars.labels(), ["'['"]);
        // h16 = 1*4HEXDIG: digits and either case of A-F.
        assert_eq!(
            a.first("h16").unwrap().chars.labels(),
            ["'0'–'9'", "'A'–'F'", "'a'–'f'"]
        );
        // path-empty = 0<pchar>: nothing but the empty string.
        let pe = a.first("path-empty").unwrap();
        assert!(pe.nullable && pe.chars.is_empty());
    }

    #[test]
    fn first_sets_reach_the_variant_classes() {
        let g = Grammars::builtin();
        let iri = Analysis::new(&g, VariantName::Iri);
        let leiri = Analysis::new(&g, VariantName::Leiri);
        assert!(iri.first("ireg-name").unwrap().chars.contains('é'));
        assert!(!iri.first("ireg-name").unwrap().chars.contains(' '));
        assert!(leiri.first("ireg-name").unwrap().chars.contains(' '));
        assert!(leiri.first("LEIRI").is_some());
    }

    #[test]
    fn uses_and_used_by_are_inverse() {
        let g = Grammars::builtin();
        for v in VariantName::ALL {
            let a = Analysis::new(&g, v);
            for r in a.rules() {
                for u in a.uses(&r.name).unwrap() {
                    assert!(a.used_by(u).unwrap().contains(&r.name.as_str()));
                }
            }
        }
    }
}
