//! Strings a rule must accept and strings it must reject, for test suites.
//!
//! - [`cover`]: a small set of strings of a rule that together reach every rule and
//!   every alternative reachable from it, as [`crate::coverage`] measures (on the
//!   parse the combinators take).
//! - [`near_miss`]: a random string one or two edits away from a generated one that
//!   the oracle rejects.
//! - [`places`]: one counterexample per *place* the grammar can fail. A place is
//!   what the caller's `place` function says of a rejected string; the command line
//!   uses the innermost rule at the farthest failure and what was expected there
//!   (the key of `--summary`). Candidates are every single edit of the cover
//!   strings: each character deleted, each character replaced by, and each position
//!   given, one character of every class of [`alphabet`]; for each place the
//!   shortest candidate (then the first in code point order) is kept.

use crate::coverage::{tree_in, Coverage};
use crate::generate::Generator;
use crate::oracle::{Oracle, UnknownRule};
use crate::{Element, Grammars, VariantName};
use std::collections::{BTreeMap, BTreeSet};

/// One character of each class of code points the grammar cannot tell apart: the
/// code points between two consecutive boundaries of its ranges, quoted strings and
/// `%x` values behave alike in every rule, so one of each is enough to try every
/// behaviour. Quoted strings count in both cases. Surrogates, which no `char` holds,
/// are skipped.
pub fn alphabet(grammars: &Grammars, variant: VariantName) -> Vec<char> {
    let mut cuts: BTreeSet<u32> = BTreeSet::new();
    cuts.insert(0);
    fn point(c: u32, cuts: &mut BTreeSet<u32>) {
        cuts.insert(c);
        cuts.insert(c + 1);
    }
    fn walk(e: &Element, cuts: &mut BTreeSet<u32>) {
        match e {
            Element::Alternation(v) | Element::Concatenation(v) => {
                v.iter().for_each(|x| walk(x, cuts))
            }
            Element::Repetition { element, .. } => walk(element, cuts),
            Element::Range(lo, hi) => {
                cuts.insert(*lo);
                cuts.insert(hi + 1);
            }
            Element::Sequence(cps) => cps.iter().for_each(|&c| point(c, cuts)),
            Element::CharVal { text, .. } => {
                for c in text.chars() {
                    point(c.to_ascii_lowercase() as u32, cuts);
                    point(c.to_ascii_uppercase() as u32, cuts);
                }
            }
            Element::Rule(_) | Element::Prose(_) => {}
        }
    }
    for r in grammars.table(variant) {
        walk(&r.definition, &mut cuts);
    }
    let cuts: Vec<u32> = cuts.into_iter().filter(|&c| c <= 0x10_FFFF).collect();
    let mut out = Vec::new();
    for (k, &lo) in cuts.iter().enumerate() {
        let hi = cuts.get(k + 1).map_or(0x10_FFFF, |&n| n - 1);
        // A printable ASCII character if the class has one (a space first), as
        // counterexamples read better with them; else its first character.
        let readable = [0x20]
            .into_iter()
            .chain(0x21..0x7F)
            .find(|c| (lo..=hi).contains(c))
            .and_then(char::from_u32);
        if let Some(c) = readable.or_else(|| (lo..=hi).take(0x900).find_map(char::from_u32)) {
            out.push(c);
        }
    }
    out
}

/// Every string one edit away from `s`: each character deleted, replaced by each
/// character of `alphabet`, and each character of `alphabet` inserted at each
/// position (the end included). In a fixed order; may repeat a string.
pub fn single_edits<'a>(s: &'a str, alphabet: &'a [char]) -> impl Iterator<Item = String> + 'a {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    (0..=n).flat_map(move |p| {
        let chars = chars.clone();
        let delete = (p < n).then(|| {
            let mut v = chars.clone();
            v.remove(p);
            v.into_iter().collect::<String>()
        });
        let chars2 = chars.clone();
        let here = chars.get(p).copied();
        let replace = alphabet
            .iter()
            .filter(move |&&c| here.is_some_and(|h| h != c))
            .map(move |&c| {
                let mut v = chars2.clone();
                v[p] = c;
                v.into_iter().collect::<String>()
            });
        let insert = alphabet.iter().map(move |&c| {
            let mut v = chars.clone();
            v.insert(p, c);
            v.into_iter().collect::<String>()
        });
        delete.into_iter().chain(replace).chain(insert)
    })
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

/// A small set of strings of the start rule of `cov` that together reach every
/// measured rule and every alternative of them (greedy: for each target not yet
/// reached, a generated string that reaches it, then the fewest strings that reach
/// all the others do, most reaching first).
pub fn cover(cov: &Coverage<'_>, gen: &mut Generator<'_>, attempts: usize) -> Cover {
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

/// A near miss of a string of `rule`: one or two edits (as the generator makes
/// them) of a generated string, that the oracle rejects. Draws up to `attempts`.
pub fn near_miss(
    gen: &mut Generator<'_>,
    oracle: &Oracle<'_>,
    rule: &str,
    attempts: usize,
) -> Result<Option<NearMiss>, UnknownRule> {
    for k in 0..attempts {
        let from = gen.generate(rule)?;
        let edits = 1 + k % 2;
        let text = gen.mutate_by(&from, edits);
        if !oracle.matches(rule, &text)? {
            return Ok(Some(NearMiss { text, from, edits }));
        }
    }
    Ok(None)
}

/// A string that must fail, and the valid string it was made from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NearMiss {
    pub text: String,
    pub from: String,
    /// How many edits made it (1 or 2).
    pub edits: usize,
}

/// One counterexample per place: the single edits of `strings` that `place` says are
/// rejected (`Some(place)`), the shortest for each place (then the least in code
/// point order), confirmed by the oracle. Places in their order.
pub fn places<K: Ord + Clone>(
    strings: &[String],
    alphabet: &[char],
    oracle: &Oracle<'_>,
    rule: &str,
    place: impl Fn(&str) -> Option<K>,
) -> Result<Vec<(K, String)>, UnknownRule> {
    let mut best: BTreeMap<K, String> = BTreeMap::new();
    let mut tried: BTreeSet<String> = BTreeSet::new();
    for s in strings {
        for c in single_edits(s, alphabet) {
            if !tried.insert(c.clone()) {
                continue;
            }
            if let Some(k) = place(&c) {
                match best.get(&k) {
                    Some(b)
                        if (b.chars().count(), b.as_str()) <= (c.chars().count(), c.as_str()) => {}
                    _ => {
                        best.insert(k, c);
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    for (k, s) in best {
        if !oracle.matches(rule, &s)? {
            out.push((k, s));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alphabet_has_one_character_per_class() {
        let g = Grammars::builtin();
        let a = alphabet(&g, VariantName::Uri);
        // Digits are one class apart from the edges of the ranges that use them:
        // "0"-"5" (%x30-35), "6"-"9"...
        assert!(a.contains(&' ') && a.contains(&'0') && !a.contains(&'\0'));
        assert!(a.len() > 30 && a.len() < 200, "{}", a.len());
        let u = alphabet(&g, VariantName::Iri);
        assert!(u.contains(&'\u{A0}') && u.contains(&'\u{E000}'), "{u:?}");
    }

    #[test]
    fn single_edits_delete_replace_insert() {
        let e: Vec<String> = single_edits("ab", &['x']).collect();
        assert_eq!(e, ["b", "xb", "xab", "a", "ax", "axb", "abx"]);
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
}
