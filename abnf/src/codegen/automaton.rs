//! The compiled grammar: every rule's language as one deterministic automaton over
//! bytes, exact by construction.
//!
//! The URI, IRI and LEIRI grammars have no recursion, so each rule's language is
//! regular. This module turns the rule table into `regex-syntax`'s high-level
//! intermediate representation (concatenation, alternation, repetition, classes of
//! code points, with every rule reference inlined), then lets `regex-automata` build
//! a Thompson NFA (code point classes become UTF-8 byte sequences) and a minimized
//! dense DFA with byte equivalence classes, one anchored start state per rule. ABNF
//! alternation is unordered and its repetitions give back: a DFA has no order and
//! never commits, so there is no PEG caveat to correct for.
//!
//! What it produces, [`Dfa`], is plain data: the byte classes, the transition
//! table, the accepting states and each rule's start state, renumbered so that the
//! dead state is 0. `codegen` writes it as tables the runtime walks; the runtime
//! never depends on `regex-automata`.

use crate::{Element, Grammars, RuleDef, VariantName};
use iri_grammar_contract::Part;
use regex_automata::dfa::{dense, Automaton, StartKind};
use regex_automata::nfa::thompson::{self, WhichCaptures};
use regex_automata::util::primitives::{PatternID, StateID};
use regex_automata::util::start;
use regex_automata::{Anchored, MatchKind};
use regex_syntax::hir::{Class, ClassUnicode, ClassUnicodeRange, Hir, Repetition};
use std::collections::{BTreeMap, VecDeque};
use std::fmt;

/// Why a grammar cannot be compiled into an automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileError(pub String);

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CompileError {}

/// A deterministic automaton over bytes for several rules of one grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dfa {
    /// The grammar.
    pub variant: VariantName,
    /// The byte equivalence class of each byte: bytes of one class are never told
    /// apart by any rule.
    pub classes: [u8; 256],
    /// How many classes.
    pub class_count: usize,
    /// `next[state * class_count + class]`: the state after reading a byte of
    /// `class` in `state`. State 0 is dead: it never accepts and never leaves.
    pub next: Vec<u16>,
    /// Whether the input may end in each state (the rule matched all of it).
    pub accept: Vec<bool>,
    /// Each rule (by its name in the rule table) and its start state.
    pub starts: Vec<(String, u16)>,
    /// The part of a reference each state is in ([`Part`] as a number), for the
    /// states of the rule that [`Dfa::split_components`] tagged; 0 elsewhere.
    pub parts: Vec<u8>,
}

impl Dfa {
    /// How many states, the dead one included.
    pub fn state_count(&self) -> usize {
        self.accept.len()
    }

    /// The state after reading `bytes` from `state`.
    pub fn walk(&self, mut state: u16, bytes: &[u8]) -> u16 {
        for &b in bytes {
            state =
                self.next[state as usize * self.class_count + self.classes[b as usize] as usize];
        }
        state
    }

    /// Runs RFC 3986 Appendix B's automaton ([`Part`]) in step with the rule `name`
    /// (a reference rule): its states are replaced by pairs of a state and a part,
    /// so that each state knows where in the reference it is, and a walk finds the
    /// components as it validates. The byte classes are refined so that the
    /// delimiters Appendix B tells apart are classes of their own.
    pub fn split_components(self, name: &str) -> Result<Dfa, CompileError> {
        let k = self
            .starts
            .iter()
            .position(|(n, _)| n.eq_ignore_ascii_case(name))
            .ok_or_else(|| CompileError(format!("no rule {name} to split")))?;
        // New classes: (old class, delimiter or not) pairs.
        let kind = |b: u8| {
            Part::DELIMITERS
                .iter()
                .position(|&d| d == b)
                .map_or(0, |p| p + 1)
        };
        let mut pairs: Vec<(u8, usize)> = Vec::new();
        let mut classes = [0u8; 256];
        for b in 0..=255u8 {
            let pair = (self.classes[b as usize], kind(b));
            let c = match pairs.iter().position(|p| *p == pair) {
                Some(c) => c,
                None => {
                    pairs.push(pair);
                    pairs.len() - 1
                }
            };
            classes[b as usize] =
                u8::try_from(c).map_err(|_| CompileError("more than 256 classes".into()))?;
        }
        let n = pairs.len();
        let representative: Vec<u8> = (0..n)
            .map(|c| {
                (0..=255u8)
                    .find(|&b| classes[b as usize] as usize == c)
                    .unwrap_or(0)
            })
            .collect();
        let old = |s: usize, c: usize| self.next[s * self.class_count + pairs[c].0 as usize];
        // The old states keep their numbers (their rows widened); the pairs follow.
        let mut next = Vec::with_capacity(self.state_count() * n * 2);
        for s in 0..self.state_count() {
            next.extend((0..n).map(|c| old(s, c)));
        }
        let mut accept = self.accept.clone();
        let mut parts = vec![Part::Outside as u8; self.state_count()];
        let mut ids: BTreeMap<(u16, Part), u16> = BTreeMap::new();
        let mut queue = VecDeque::new();
        let mut add = |v: u16,
                       p: Part,
                       next: &mut Vec<u16>,
                       accept: &mut Vec<bool>,
                       parts: &mut Vec<u8>,
                       queue: &mut VecDeque<(u16, Part, u16)>|
         -> Result<u16, CompileError> {
            if v == 0 {
                return Ok(0);
            }
            if let Some(&id) = ids.get(&(v, p)) {
                return Ok(id);
            }
            let id = u16::try_from(accept.len())
                .map_err(|_| CompileError("more than 65,535 states".into()))?;
            ids.insert((v, p), id);
            accept.push(self.accept[v as usize]);
            parts.push(p as u8);
            next.extend(std::iter::repeat_n(0, n));
            queue.push_back((v, p, id));
            Ok(id)
        };
        let start = add(
            self.starts[k].1,
            Part::Start,
            &mut next,
            &mut accept,
            &mut parts,
            &mut queue,
        )?;
        while let Some((v, p, id)) = queue.pop_front() {
            let id = id as usize;
            for c in 0..n {
                let b = representative[c];
                let to = add(
                    old(v as usize, c),
                    p.next(b),
                    &mut next,
                    &mut accept,
                    &mut parts,
                    &mut queue,
                )?;
                next[id * n + c] = to;
            }
        }
        let mut starts = self.starts.clone();
        starts[k].1 = start;
        Ok(Dfa {
            variant: self.variant,
            classes,
            class_count: n,
            next,
            accept,
            starts,
            parts,
        }
        .merge_equivalent())
    }

    /// The same automaton with equivalent states merged: states that accept alike,
    /// are in the same part of a reference, and on every class go to states that
    /// are themselves merged (Moore's partition refinement, from the partition by
    /// acceptance and part), renumbered as `Dfa::reachable` numbers them.
    ///
    /// `regex-automata`'s minimized DFA reports a match one byte late, so its states
    /// also remember whether the input could have ended one byte earlier: the state
    /// after `%2C` in a path is not the state after `a`, though the two accept the
    /// same rest of the input (the one before `%` could have ended there, the one
    /// before `C` could not). Here a state accepts or not at the end of the input,
    /// and the copies are one state: fewer states, and a walk that comes back from
    /// a `%HH` to the state it left, where it skips again at once.
    pub fn merge_equivalent(self) -> Dfa {
        let n = self.class_count;
        let count = self.state_count();
        // Each round splits the blocks by a state's acceptance, part, block and its
        // successors' blocks; from one block, the first round is the partition by
        // acceptance and part. Block numbers go by first appearance of their key,
        // so that state 0 (dead) is in block 0.
        let mut block = vec![0u32; count];
        let mut blocks = 1;
        loop {
            let mut keys: BTreeMap<Vec<u32>, u32> = BTreeMap::new();
            let refined: Vec<u32> = (0..count)
                .map(|s| {
                    let mut key = vec![
                        u32::from(self.accept[s]),
                        u32::from(self.parts[s]),
                        block[s],
                    ];
                    key.extend((0..n).map(|c| block[usize::from(self.next[s * n + c])]));
                    let next_id = keys.len() as u32;
                    *keys.entry(key).or_insert(next_id)
                })
                .collect();
            block = refined;
            if keys.len() == blocks {
                break;
            }
            blocks = keys.len();
        }
        // Each block as its first state; the dead state (0) is alone in block 0 or
        // with states that are dead too.
        let mut first = vec![u16::MAX; blocks];
        for s in (0..count).rev() {
            first[block[s] as usize] = s as u16;
        }
        debug_assert_eq!(block[0], 0);
        let into = |s: u16| first[block[usize::from(s)] as usize];
        let next = self.next.iter().map(|&t| into(t)).collect();
        let starts = self
            .starts
            .iter()
            .map(|(name, s)| (name.clone(), into(*s)))
            .collect();
        // The states that are not their block's first are no longer reached.
        Dfa {
            next,
            starts,
            ..self
        }
        .reachable()
    }

    /// The same automaton without the states no start reaches, renumbered in
    /// breadth-first order after the dead state 0.
    fn reachable(self) -> Dfa {
        let n = self.class_count;
        let mut ids: BTreeMap<u16, u16> = BTreeMap::from([(0, 0)]);
        let mut order: Vec<u16> = vec![0];
        let mut queue: VecDeque<u16> = VecDeque::new();
        let visit = |s: u16,
                     ids: &mut BTreeMap<u16, u16>,
                     order: &mut Vec<u16>,
                     queue: &mut VecDeque<u16>|
         -> u16 {
            *ids.entry(s).or_insert_with(|| {
                order.push(s);
                queue.push_back(s);
                (order.len() - 1) as u16
            })
        };
        let starts: Vec<(String, u16)> = self
            .starts
            .iter()
            .map(|(name, s)| (name.clone(), visit(*s, &mut ids, &mut order, &mut queue)))
            .collect();
        while let Some(s) = queue.pop_front() {
            for c in 0..n {
                visit(
                    self.next[s as usize * n + c],
                    &mut ids,
                    &mut order,
                    &mut queue,
                );
            }
        }
        let mut next = Vec::with_capacity(order.len() * n);
        for &s in &order {
            next.extend((0..n).map(|c| ids[&self.next[s as usize * n + c]]));
        }
        Dfa {
            variant: self.variant,
            classes: self.classes,
            class_count: n,
            next,
            accept: order.iter().map(|&s| self.accept[s as usize]).collect(),
            parts: order.iter().map(|&s| self.parts[s as usize]).collect(),
            starts,
        }
    }

    /// Whether all of `input` matches the rule `name` (a reference check for tests).
    pub fn matches(&self, name: &str, input: &str) -> Option<bool> {
        let (_, start) = self
            .starts
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))?;
        Some(self.accept[self.walk(*start, input.as_bytes()) as usize])
    }
}

/// Compiles the rules `names` of `variant`'s rule table into one automaton.
pub fn compile(
    grammars: &Grammars,
    variant: VariantName,
    names: &[&str],
) -> Result<Dfa, CompileError> {
    let table = grammars.table(variant);
    let mut lowering = Lowering {
        table: &table,
        done: BTreeMap::new(),
        active: Vec::new(),
    };
    let hirs = names
        .iter()
        .map(|n| lowering.rule(n))
        .collect::<Result<Vec<Hir>, CompileError>>()?;
    let nfa = thompson::Compiler::new()
        .configure(
            thompson::Config::new()
                .which_captures(WhichCaptures::None)
                .shrink(true),
        )
        .build_many_from_hir(&hirs)
        .map_err(|e| CompileError(format!("NFA: {e}")))?;
    let dfa = dense::Builder::new()
        .configure(
            dense::Config::new()
                .minimize(true)
                .byte_classes(true)
                .start_kind(StartKind::Anchored)
                .starts_for_each_pattern(true)
                .match_kind(MatchKind::All)
                .accelerate(false),
        )
        .build_from_nfa(&nfa)
        .map_err(|e| CompileError(format!("DFA: {e}")))?;
    renumber(&dfa, variant, names)
}

/// Reads the states of `dfa` reachable from the rules' start states, numbered in
/// breadth-first order after the dead state 0.
fn renumber(
    dfa: &dense::DFA<Vec<u32>>,
    variant: VariantName,
    names: &[&str],
) -> Result<Dfa, CompileError> {
    let byte_classes = dfa.byte_classes();
    // The end-of-input class is the last; bytes use the others.
    let class_count = byte_classes.alphabet_len() - 1;
    let mut classes = [0u8; 256];
    for b in 0..=255u8 {
        classes[b as usize] = byte_classes.get(b);
    }
    let mut representative = vec![0u8; class_count];
    for b in (0..=255u8).rev() {
        representative[classes[b as usize] as usize] = b;
    }
    let mut ids: BTreeMap<StateID, u16> = BTreeMap::new();
    let mut order: Vec<StateID> = Vec::new();
    let mut queue = VecDeque::new();
    let mut starts = Vec::new();
    let number = |sid: StateID,
                  ids: &mut BTreeMap<StateID, u16>,
                  order: &mut Vec<StateID>,
                  queue: &mut VecDeque<StateID>|
     -> Result<u16, CompileError> {
        if dfa.is_dead_state(sid) {
            return Ok(0);
        }
        if let Some(&k) = ids.get(&sid) {
            return Ok(k);
        }
        let k = u16::try_from(order.len() + 1)
            .map_err(|_| CompileError("more than 65,535 states".to_string()))?;
        ids.insert(sid, k);
        order.push(sid);
        queue.push_back(sid);
        Ok(k)
    };
    for (p, name) in names.iter().enumerate() {
        let config = start::Config::new().anchored(Anchored::Pattern(PatternID::must(p)));
        let sid = dfa
            .start_state(&config)
            .map_err(|e| CompileError(format!("start state of {name}: {e}")))?;
        let k = number(sid, &mut ids, &mut order, &mut queue)?;
        starts.push((name.to_string(), k));
    }
    let mut next_of: Vec<Vec<u16>> = Vec::new();
    while let Some(sid) = queue.pop_front() {
        let mut row = Vec::with_capacity(class_count);
        for &b in &representative {
            let to = dfa.next_state(sid, b);
            row.push(number(to, &mut ids, &mut order, &mut queue)?);
        }
        next_of.push(row);
    }
    let mut next = vec![0u16; class_count]; // the dead state's row
    for row in &next_of {
        next.extend_from_slice(row);
    }
    let mut accept = vec![false];
    for &sid in &order {
        accept.push(dfa.is_match_state(dfa.next_eoi_state(sid)));
    }
    let parts = vec![Part::Outside as u8; accept.len()];
    Ok(Dfa {
        variant,
        classes,
        class_count,
        next,
        accept,
        starts,
        parts,
    }
    .merge_equivalent())
}

/// Rule definitions to `Hir`, each rule once.
struct Lowering<'t, 'g> {
    table: &'t [&'g RuleDef],
    done: BTreeMap<String, Hir>,
    /// The rules being lowered, to report recursion.
    active: Vec<String>,
}

impl Lowering<'_, '_> {
    fn rule(&mut self, name: &str) -> Result<Hir, CompileError> {
        let key = name.to_ascii_lowercase();
        if let Some(h) = self.done.get(&key) {
            return Ok(h.clone());
        }
        if self.active.contains(&key) {
            return Err(CompileError(format!(
                "{name} is recursive ({} → {name}): its language may not be regular, so it has no automaton",
                self.active.join(" → ")
            )));
        }
        let def = self
            .table
            .iter()
            .find(|d| d.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| CompileError(format!("no rule named {name}")))?;
        self.active.push(key.clone());
        let h = self.element(&def.definition)?;
        self.active.pop();
        self.done.insert(key, h.clone());
        Ok(h)
    }

    fn element(&mut self, e: &Element) -> Result<Hir, CompileError> {
        Ok(match e {
            Element::Alternation(alts) => Hir::alternation(
                alts.iter()
                    .map(|a| self.element(a))
                    .collect::<Result<_, _>>()?,
            ),
            Element::Concatenation(items) => Hir::concat(
                items
                    .iter()
                    .map(|a| self.element(a))
                    .collect::<Result<_, _>>()?,
            ),
            Element::Repetition {
                min, max, element, ..
            } => Hir::repetition(Repetition {
                min: *min,
                max: *max,
                greedy: true,
                sub: Box::new(self.element(element)?),
            }),
            Element::Rule(name) => self.rule(name)?,
            Element::CharVal {
                text,
                case_sensitive,
            } => Hir::concat(
                text.chars()
                    .map(|c| {
                        if !case_sensitive && c.is_ascii_alphabetic() {
                            class(&[
                                (c.to_ascii_lowercase() as u32, c.to_ascii_lowercase() as u32),
                                (c.to_ascii_uppercase() as u32, c.to_ascii_uppercase() as u32),
                            ])
                        } else {
                            class(&[(c as u32, c as u32)])
                        }
                    })
                    .collect(),
            ),
            Element::Range(lo, hi) => class(&[(*lo, *hi)]),
            Element::Sequence(cs) => Hir::concat(cs.iter().map(|&c| class(&[(c, c)])).collect()),
            // Prose matches nothing (RFC 5234 §4); `0<pchar>` is a repetition of zero.
            Element::Prose(_) => Hir::fail(),
        })
    }
}

/// A class of code points; surrogate code points, which are no characters, are left out.
fn class(ranges: &[(u32, u32)]) -> Hir {
    let mut out = Vec::new();
    for &(lo, hi) in ranges {
        for (a, b) in [(lo, hi.min(0xD7FF)), (lo.max(0xE000), hi.min(0x10FFFF))] {
            if a <= b {
                if let (Some(a), Some(b)) = (char::from_u32(a), char::from_u32(b)) {
                    out.push(ClassUnicodeRange::new(a, b));
                }
            }
        }
    }
    Hir::class(Class::Unicode(ClassUnicode::new(out)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Oracle;

    /// Small rules against the oracle (the differential test in `tests/` does every
    /// compiled rule of every grammar on generated strings).
    #[test]
    fn small_rules_agree_with_the_oracle() {
        let g = Grammars::builtin();
        for v in VariantName::ALL {
            let names = ["dec-octet", "IPv4address", "h16", "port", "scheme"];
            let dfa = compile(&g, v, &names).unwrap();
            let oracle = Oracle::new(&g, v);
            for name in names {
                for input in [
                    "0", "255", "256", "1.2.3.4", "01.2.3.4", "ffff", "a+b", "", "é",
                ] {
                    let want = oracle.matches(name, input).unwrap();
                    assert_eq!(
                        dfa.matches(name, input),
                        Some(want),
                        "{v:?} {name} {input:?}"
                    );
                }
            }
        }
    }

    /// No two states are equivalent, and in particular a `%HH` takes the walk back
    /// to the state it left, where it skips again: what `merge_equivalent` is for.
    #[test]
    fn equivalent_states_are_one() {
        let g = Grammars::builtin();
        for v in [VariantName::Uri, VariantName::Iri, VariantName::Leiri] {
            let name = if v == VariantName::Uri {
                "URI-reference"
            } else {
                "IRI-reference"
            };
            let dfa = compile(&g, v, &[name, "segment", "query"])
                .and_then(|d| d.split_components(name))
                .unwrap();
            let count = dfa.state_count();
            assert_eq!(dfa.clone().merge_equivalent().state_count(), count, "{v:?}");
            let start = dfa.starts[0].1;
            for (a, b) in [
                ("s:/p/a", "s:/p/a%2C"),
                ("s://h/p?a", "s://h/p?a%2C"),
                ("//u@h/ab#a", "//u@h/ab#a%7e"),
            ] {
                assert_eq!(
                    dfa.walk(start, a.as_bytes()),
                    dfa.walk(start, b.as_bytes()),
                    "{v:?} {b}"
                );
            }
        }
    }

    #[test]
    fn recursion_is_an_error() {
        let g = Grammars {
            rfc3986: crate::read("t.abnf", "; T\nx = \"(\" x \")\" / \"a\"\n").unwrap(),
            ..Grammars::builtin()
        };
        let e = compile(&g, VariantName::Uri, &["x"]).unwrap_err();
        assert!(e.0.contains("recursive"), "{e}");
    }
}
