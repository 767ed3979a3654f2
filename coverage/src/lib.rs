//! Rule coverage: which rules, and which alternatives of them, a set of inputs
//! reaches, and for each alternative none reaches, a generated input that does; and
//! [`cover`], a small set of strings of a rule that together reach every rule and
//! every alternative reachable from it (`iri generate --cover`, `iri suite`).
//!
//! It reads the trees of the runtime library and the rule table of the ABNF tooling,
//! so it is a crate of its own, which depends on both (the tooling does not depend on
//! the library it generates); the command line and the Python package use it.
//!
//! Coverage is measured on the parse the grammar takes: the tree of the generated
//! combinators (`iri_grammar::tree`), first match among the parses the ABNF allows,
//! as `iri tree` shows it. For a rule whose definition is an alternation the tree
//! says which alternative matched ([`iri_grammar::Node::alternative`]); an input
//! reaches an alternative if any node of its tree took it.
//!
//! What is not measured, and why:
//! - **rules folded into their parents** (those that always match one character:
//!   `ALPHA`, `DIGIT`, `HEXDIG`, `unreserved`, `ucschar`, `sub-delims`, `ipchar`, ...,
//!   `Rule::is_character_rule`): the tree has no node for them, so neither their
//!   use nor their alternatives can be read from it. They are listed as not measured.
//! - **options and repetitions** (`[ ":" port ]` taken or not, `*( "/" segment )`
//!   taken 0, 1 or more times): the tree records rule nodes only, not the literals or
//!   the folded characters that an iteration may consist of alone, so the number of
//!   iterations cannot be read from it exactly in general. Not measured.
//!
//! An example for an unreached alternative is drawn by
//! [`Generator::generate_through`] (a derivation of the start rule through that
//! alternative) and kept only if its tree takes that alternative; failing that, an
//! example of the rule alone is tried the same way.

use iri_grammar::tree::{tree_of, tree_of_at_most, ParseTree, TreeError};
use iri_grammar::{MatchError, Rule};
use iri_grammar_abnf::model::UnknownRule;
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::{Element, Grammars, RuleDef, VariantName};
use std::collections::{BTreeSet, HashMap};

/// The tree of `input` against `rule` in `variant`'s grammar.
pub fn tree_in(variant: VariantName, rule: Rule, input: &str) -> Result<ParseTree<'_>, MatchError> {
    iri_grammar::with_variant!(variant, V => tree_of::<V>(rule, input))
}

/// The most nodes the tree of one input added to a [`Coverage`] may have: as many as
/// `iri tree` builds by default (10,000,000: 200 MB, the tree of 10 MB of `/`). A
/// larger tree is not built but counted ([`Coverage::too_large`]), so that memory
/// stays bounded whatever the input's length.
pub const MAX_NODES: usize = 10_000_000;

/// The runtime's rule for a rule of the table (the table names LEIRI's rules as
/// RFC 3987 does).
pub fn runtime_rule(variant: VariantName, table_name: &str) -> Option<Rule> {
    Rule::named(variant, table_name)
        .or_else(|| Rule::named(variant, &iri_grammar_abnf::name_in(table_name, variant)))
}

/// The coverage of one rule reachable from the start rule.
#[derive(Debug, Clone)]
pub struct RuleCoverage<'g> {
    /// Its name in the grammar's own naming.
    pub name: String,
    /// Its definition.
    pub def: &'g RuleDef,
    /// The runtime's rule, if the combinators have it.
    pub rule: Option<Rule>,
    /// False for a rule the tree folds into its parent (not measured).
    pub measured: bool,
    /// How many inputs used it.
    pub inputs: usize,
    /// For an alternation: how many inputs took each alternative (else empty).
    pub alternatives: Vec<usize>,
    /// Inputs that used it with no alternative recorded (an alternation as the
    /// root the tree wraps).
    pub unknown_alternative: usize,
}

impl RuleCoverage<'_> {
    /// The alternatives of its definition, if it is an alternation.
    pub fn alternative_elements(&self) -> &[Element] {
        match &self.def.definition {
            Element::Alternation(alts) => alts,
            _ => &[],
        }
    }
}

/// The coverage of a start rule by inputs added one by one.
#[derive(Debug, Clone)]
pub struct Coverage<'g> {
    /// The grammar.
    pub variant: VariantName,
    /// The start rule.
    pub start: Rule,
    /// The start rule's name in the grammar's own naming.
    pub start_name: String,
    /// Every rule reachable from the start rule (itself included), in the order of
    /// a breadth-first walk of the definitions from it.
    pub rules: Vec<RuleCoverage<'g>>,
    /// Inputs added.
    pub inputs: usize,
    /// Inputs that matched the start rule (the others are not measured).
    pub matched: usize,
    /// Inputs that match but whose trees have more than [`MAX_NODES`] nodes: not
    /// built, so not measured (and not in `matched`).
    pub too_large: usize,
    slot: HashMap<Rule, usize>,
    /// Per input: rules seen (slot), alternatives seen (slot, 0-based).
    seen_rules: Vec<bool>,
    seen_alts: Vec<(usize, usize)>,
}

impl<'g> Coverage<'g> {
    /// The coverage of `rule` (in `variant`'s naming) by no input yet.
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar or the combinators have no such rule.
    pub fn new(
        grammars: &'g Grammars,
        variant: VariantName,
        rule: &str,
    ) -> Result<Coverage<'g>, UnknownRule> {
        let unknown = |name: &str| UnknownRule {
            name: name.to_string(),
            grammar: variant.as_str().to_string(),
        };
        let start = Rule::named(variant, rule).ok_or_else(|| unknown(rule))?;
        let table = grammars.table(variant);
        let lookup = |name: &str| -> Option<&'g RuleDef> {
            table
                .iter()
                .find(|d| d.name.eq_ignore_ascii_case(name))
                .or_else(|| {
                    let iri = iri_grammar_abnf::leiri_to_iri_name(name);
                    table.iter().find(|d| d.name.eq_ignore_ascii_case(&iri))
                })
                .copied()
        };
        let first = lookup(rule).ok_or_else(|| unknown(rule))?;
        // Breadth-first from the start rule.
        let mut order: Vec<&'g RuleDef> = vec![first];
        let mut k = 0;
        while k < order.len() {
            let mut refs = Vec::new();
            order[k]
                .definition
                .rule_refs(&mut |n| refs.push(n.to_string()));
            for n in refs {
                let def = lookup(&n).ok_or_else(|| unknown(&n))?;
                if !order.iter().any(|d| std::ptr::eq(*d, def)) {
                    order.push(def);
                }
            }
            k += 1;
        }
        let mut slot = HashMap::new();
        let rules: Vec<RuleCoverage<'g>> = order
            .into_iter()
            .enumerate()
            .map(|(k, def)| {
                let r = runtime_rule(variant, &def.name);
                if let Some(r) = r {
                    slot.entry(r).or_insert(k);
                }
                let alternatives = match &def.definition {
                    Element::Alternation(alts) => vec![0; alts.len()],
                    _ => Vec::new(),
                };
                RuleCoverage {
                    name: r
                        .and_then(|r| r.name_in(variant))
                        .map_or_else(|| def.name.clone(), str::to_string),
                    def,
                    rule: r,
                    measured: r.is_some_and(|r| !r.is_character_rule()),
                    inputs: 0,
                    alternatives,
                    unknown_alternative: 0,
                }
            })
            .collect();
        let n = rules.len();
        Ok(Coverage {
            variant,
            start,
            start_name: start.name_in(variant).unwrap_or(rule).to_string(),
            rules,
            inputs: 0,
            matched: 0,
            too_large: 0,
            slot,
            seen_rules: vec![false; n],
            seen_alts: Vec::new(),
        })
    }

    /// Adds an input: true if it matched the start rule and was measured (its
    /// tree has at most [`MAX_NODES`] nodes; a larger one is counted in
    /// [`Coverage::too_large`]).
    pub fn add(&mut self, input: &str) -> bool {
        self.inputs += 1;
        let tree = iri_grammar::with_variant!(self.variant, V => {
            tree_of_at_most::<V>(self.start, input, MAX_NODES)
        });
        match tree {
            Ok(t) => {
                self.matched += 1;
                self.count(&t);
                true
            }
            Err(TreeError::TooManyNodes { .. }) => {
                self.too_large += 1;
                false
            }
            Err(_) => false,
        }
    }

    /// The rule slots and alternatives (0-based) a tree reaches, each once.
    pub fn reached(&self, t: &ParseTree<'_>) -> (Vec<usize>, Vec<(usize, usize)>) {
        let mut rules = Vec::new();
        let mut alts = Vec::new();
        for node in t.nodes() {
            let Some(&k) = self.slot.get(&node.id()) else {
                continue;
            };
            if !rules.contains(&k) {
                rules.push(k);
            }
            if let Some((a, of)) = node.alternative() {
                if of == self.rules[k].alternatives.len() && a >= 1 && !alts.contains(&(k, a - 1)) {
                    alts.push((k, a - 1));
                }
            }
        }
        (rules, alts)
    }

    fn count(&mut self, t: &ParseTree<'_>) {
        self.seen_rules.iter_mut().for_each(|b| *b = false);
        self.seen_alts.clear();
        for node in t.nodes() {
            let Some(&k) = self.slot.get(&node.id()) else {
                continue;
            };
            if !self.seen_rules[k] {
                self.seen_rules[k] = true;
                self.rules[k].inputs += 1;
                if !self.rules[k].alternatives.is_empty() && node.alternative().is_none() {
                    self.rules[k].unknown_alternative += 1;
                }
            }
            if let Some((a, of)) = node.alternative() {
                // The combinators are generated from the same table: the counts agree
                // (a test checks it); a disagreement would leave the alternative out.
                if of == self.rules[k].alternatives.len()
                    && a >= 1
                    && !self.seen_alts.contains(&(k, a - 1))
                {
                    self.seen_alts.push((k, a - 1));
                    self.rules[k].alternatives[a - 1] += 1;
                }
            }
        }
    }

    /// The alternatives no input reached, of the measured rules: (rule slot,
    /// alternative, 0-based).
    pub fn unreached(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (k, r) in self.rules.iter().enumerate() {
            if r.measured {
                for (a, &n) in r.alternatives.iter().enumerate() {
                    if n == 0 {
                        out.push((k, a));
                    }
                }
            }
        }
        out
    }

    /// Every alternative of the measured rules: (rule slot, alternative, 0-based).
    pub fn all_alternatives(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (k, r) in self.rules.iter().enumerate() {
            if r.measured {
                for a in 0..r.alternatives.len() {
                    out.push((k, a));
                }
            }
        }
        out
    }

    /// Whether the tree of `s` as a string of `start` takes alternative `alt`
    /// (0-based; `None`: the rule itself) of the rule in `slot`.
    fn takes(&self, slot: usize, alt: Option<usize>, start: Rule, s: &str) -> bool {
        let Some(rule) = self.rules[slot].rule else {
            return false;
        };
        tree_in(self.variant, start, s).is_ok_and(|t| {
            t.nodes().any(|n| {
                n.id() == rule
                    && match alt {
                        Some(alt) => n.alternative().is_some_and(|(a, _)| a == alt + 1),
                        None => true,
                    }
            })
        })
    }

    /// Where an example of the rule in `slot` is looked for: strings of the start
    /// rule, then of that rule alone.
    fn contexts(&self, slot: usize) -> Option<[(Rule, &str, bool); 2]> {
        let target = &self.rules[slot];
        Some([
            (self.start, self.start_name.as_str(), true),
            (target.rule?, target.name.as_str(), false),
        ])
    }

    /// A generated input that reaches alternative `alt` (0-based; `None`: the rule
    /// itself, for a rule that is not an alternation) of the rule in `slot`: a
    /// string of the start rule whose tree takes it, or failing that, a string of
    /// that rule alone whose tree takes it. Tries `attempts` strings of each kind.
    pub fn example(
        &self,
        gen: &mut Generator<'_>,
        slot: usize,
        alt: Option<usize>,
        attempts: usize,
    ) -> Option<Example> {
        let through = &self.rules[slot].def.name;
        for (start, start_name, in_context) in self.contexts(slot)? {
            for _ in 0..attempts {
                let Ok(Some(s)) = gen.generate_through(start_name, through, alt.unwrap_or(0))
                else {
                    break;
                };
                if self.takes(slot, alt, start, &s) {
                    return Some(Example {
                        text: s,
                        rule: start_name.to_string(),
                        in_context,
                    });
                }
            }
        }
        None
    }

    /// As [`Coverage::example`], the shortest: first the shortest string whose
    /// derivation goes through the alternative ([`Generator::shortest_through`]),
    /// which when the tree takes it is a shortest string that reaches it (a tree is
    /// a derivation); otherwise (the first match goes another way) the shortest of
    /// the `attempts` drawn strings whose tree takes it.
    pub fn shortest_example(
        &self,
        gen: &mut Generator<'_>,
        slot: usize,
        alt: Option<usize>,
        attempts: usize,
    ) -> Option<Example> {
        let through = &self.rules[slot].def.name;
        let alt_index = alt.unwrap_or(0);
        for (start, start_name, in_context) in self.contexts(slot)? {
            let example = |text: String| Example {
                text,
                rule: start_name.to_string(),
                in_context,
            };
            if let Ok(Some(s)) = gen.shortest_through(start_name, through, alt_index) {
                if self.takes(slot, alt, start, &s) {
                    return Some(example(s));
                }
            }
            let mut best: Option<String> = None;
            for _ in 0..attempts {
                let Ok(Some(s)) = gen.generate_through(start_name, through, alt_index) else {
                    break;
                };
                let shorter = best
                    .as_ref()
                    .is_none_or(|b| s.chars().count() < b.chars().count());
                if shorter && self.takes(slot, alt, start, &s) {
                    best = Some(s);
                }
            }
            if let Some(s) = best {
                return Some(example(s));
            }
        }
        None
    }
}

/// A generated input that reaches an alternative.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Example {
    /// The input.
    pub text: String,
    /// The rule it matches: the start rule, or the alternative's own rule when no
    /// string of the start rule was found that reaches it.
    pub rule: String,
    /// True if it is a string of the start rule.
    pub in_context: bool,
}

/// A cover set: strings of the start rule, and what they leave unreached.
#[derive(Debug, Clone, Default)]
pub struct Cover {
    /// The strings, each reaching something the ones before it do not.
    pub strings: Vec<String>,
    /// Targets no generated string of the start rule reached: (rule name,
    /// alternative, 1-based, or none for a rule that is not an alternation).
    pub unreached: Vec<(String, Option<usize>)>,
}

impl Cover {
    /// The unreached targets as `iri generate --cover` and the Python package name
    /// them: `rule`, or `rule alternative N`.
    pub fn unreached_names(&self) -> Vec<String> {
        self.unreached
            .iter()
            .map(|(r, alt)| match alt {
                Some(a) => format!("{r} alternative {a}"),
                None => r.clone(),
            })
            .collect()
    }
}

/// A small set of strings of the start rule of `cov` that together reach every
/// measured rule and every alternative of them (greedy: for each target not yet
/// reached, a generated string that reaches it, then the fewest strings that reach
/// all the others do, most reaching first).
pub fn cover(cov: &Coverage<'_>, gen: &mut Generator<'_>, attempts: usize) -> Cover {
    if cov.rules.first().is_some_and(|r| !r.measured) {
        return cover_character_rule(cov, gen, attempts);
    }
    // Targets: (slot, alternative) for alternations, (slot, None) for other rules.
    let mut targets: Vec<(usize, Option<usize>)> = Vec::new();
    for (k, r) in cov.rules.iter().enumerate() {
        if !r.measured {
            continue;
        }
        if r.alternatives.is_empty() {
            targets.push((k, None));
        } else {
            targets.extend((0..r.alternatives.len()).map(|a| (k, Some(a))));
        }
    }
    type Targets = BTreeSet<(usize, Option<usize>)>;
    let reached_by = |s: &str| -> Targets {
        let mut out = BTreeSet::new();
        if let Ok(t) = tree_in(cov.variant, cov.start, s) {
            let (rules, alts) = cov.reached(&t);
            for k in rules {
                if cov.rules[k].alternatives.is_empty() {
                    out.insert((k, None));
                }
            }
            out.extend(alts.into_iter().map(|(k, a)| (k, Some(a))));
        }
        out
    };
    let mut candidates: Vec<(String, Targets)> = Vec::new();
    let mut reached = Targets::new();
    let mut unreached = Vec::new();
    for &(slot, alt) in &targets {
        if reached.contains(&(slot, alt)) {
            continue;
        }
        let found = cov
            .example(gen, slot, alt, attempts)
            .filter(|e| e.in_context);
        match found {
            Some(e) => {
                let got = reached_by(&e.text);
                reached.extend(got.iter().copied());
                candidates.push((e.text, got));
            }
            None => unreached.push((cov.rules[slot].name.clone(), alt.map(|a| a + 1))),
        }
    }
    // Greedy set cover over the candidates.
    let mut left = reached;
    let mut strings = Vec::new();
    while !left.is_empty() {
        let best = candidates
            .iter()
            .enumerate()
            .max_by_key(|(k, (s, got))| {
                (
                    got.intersection(&left).count(),
                    std::cmp::Reverse(s.len()),
                    std::cmp::Reverse(*k),
                )
            })
            .map(|(k, _)| k);
        let Some(k) = best else { break };
        let (s, got) = candidates.swap_remove(k);
        if got.intersection(&left).count() == 0 {
            break;
        }
        left.retain(|t| !got.contains(t));
        strings.push(s);
    }
    Cover { strings, unreached }
}

/// The cover set of a character rule (`ucschar`, `unreserved`, `HEXDIG`): its
/// tree is one leaf, so no alternative can be read from it; instead one string
/// drawn through each alternative of its definition (one string when it is not an
/// alternation), each a string of the rule.
fn cover_character_rule(cov: &Coverage<'_>, gen: &mut Generator<'_>, attempts: usize) -> Cover {
    let Some(start) = cov.rules.first() else {
        return Cover::default();
    };
    let name = start.def.name.as_str();
    let is_alternation = !start.alternatives.is_empty();
    let mut strings: Vec<String> = Vec::new();
    let mut unreached = Vec::new();
    for alt in 0..start.alternatives.len().max(1) {
        let found = (0..attempts).find_map(|_| {
            gen.generate_through(name, name, alt)
                .ok()
                .flatten()
                .filter(|s| tree_in(cov.variant, cov.start, s).is_ok())
        });
        match found {
            Some(s) if !strings.contains(&s) => strings.push(s),
            Some(_) => {}
            None => unreached.push((start.name.clone(), is_alternation.then_some(alt + 1))),
        }
    }
    Cover { strings, unreached }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_alternatives_from_the_tree() {
        let g = Grammars::builtin();
        let mut c = Coverage::new(&g, VariantName::Uri, "IPv6address").unwrap();
        assert!(c.add("::ffff:1.2.3.4"));
        assert!(!c.add("1::2::3"));
        assert_eq!((c.inputs, c.matched), (2, 1));
        assert_eq!(c.rules[0].name, "IPv6address");
        assert_eq!(c.rules[0].alternatives[5], 1);
        assert_eq!(c.rules[0].alternatives.iter().sum::<usize>(), 1);
        let unreached = c.unreached();
        assert!(unreached.contains(&(0, 0)) && !unreached.contains(&(0, 5)));
    }

    #[test]
    fn the_table_and_the_combinators_count_alternatives_alike() {
        // For every alternation reachable from each reference rule, a generated
        // example takes the alternative asked for: the counts agree, and the
        // generator reaches them.
        let g = Grammars::builtin();
        for v in VariantName::ALL {
            let start = iri_grammar_abnf::name_in("IRI-reference", v);
            let c = Coverage::new(&g, v, &start).unwrap();
            let mut gen = Generator::new(&g, v, 1);
            for (slot, alt) in c.all_alternatives() {
                let e = c.example(&mut gen, slot, Some(alt), 100);
                assert!(
                    e.is_some(),
                    "{v:?} {} alternative {}",
                    c.rules[slot].name,
                    alt + 1
                );
            }
        }
    }

    #[test]
    fn a_cover_reaches_every_alternative() {
        let g = Grammars::builtin();
        let cov = Coverage::new(&g, VariantName::Uri, "IPv6address").unwrap();
        let mut gen = Generator::new(&g, VariantName::Uri, 0);
        let c = cover(&cov, &mut gen, 200);
        assert!(c.unreached.is_empty(), "{:?}", c.unreached);
        let mut check = Coverage::new(&g, VariantName::Uri, "IPv6address").unwrap();
        for s in &c.strings {
            assert!(check.add(s));
        }
        assert!(check.unreached().is_empty());
        assert!(c.strings.len() <= 12, "{:?}", c.strings);
    }

    #[test]
    fn a_character_rule_has_a_cover_of_each_alternative() {
        // One string per alternative, whatever the seed: the alternatives of these
        // rules hold no character in common. (The draw once ignored the
        // alternative asked for, and HEXDIG's seven gave four to six strings.)
        let g = Grammars::builtin();
        for (variant, rule, alternatives) in [
            (VariantName::Iri, "ucschar", 17),
            (VariantName::Iri, "iprivate", 3),
            (VariantName::Uri, "unreserved", 6),
            (VariantName::Uri, "HEXDIG", 7),
            (VariantName::Uri, "sub-delims", 11),
        ] {
            let cov = Coverage::new(&g, variant, rule).unwrap();
            assert_eq!(cov.rules[0].alternatives.len(), alternatives, "{rule}");
            for seed in 0..5 {
                let mut gen = Generator::new(&g, variant, seed);
                let c = cover(&cov, &mut gen, 200);
                assert!(c.unreached.is_empty(), "{rule}: {:?}", c.unreached);
                assert_eq!(
                    c.strings.len(),
                    alternatives,
                    "{rule} {seed}: {:?}",
                    c.strings
                );
                for s in &c.strings {
                    assert!(tree_in(variant, cov.start, s).is_ok(), "{rule}: {s:?}");
                }
            }
        }
    }
}
