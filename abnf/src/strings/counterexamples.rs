//! Strings a rule must accept and strings it must reject, for test suites.
//!
//! - [`near_miss`]: a random string one or two edits away from a generated one that
//!   the oracle rejects.
//! - [`places`]: one counterexample per *place* the grammar can fail. A place is
//!   what the caller's `place` function says of a rejected string; the command line
//!   uses the innermost rule at the farthest failure and what was expected there
//!   (the key of `--summary`). Candidates are every single edit of the cover
//!   strings: each character deleted, each character replaced by, and each position
//!   given, one character of every class of [`alphabet`]; for each place the
//!   shortest candidate (then the first in code point order) is kept.

use crate::model::UnknownRule;
use crate::oracle::{Oracle, Unanswered};
use crate::strings::generate::{DrawError, Generator};
use crate::{Element, Grammars, VariantName};
use std::collections::{BTreeMap, BTreeSet};

/// The classes of code points the grammar cannot tell apart, in order, as inclusive
/// ranges covering U+0000–U+10FFFF: the code points between two consecutive
/// boundaries of its ranges, quoted strings and `%x` values behave alike in every
/// rule. Quoted strings count in both cases.
pub fn classes(grammars: &Grammars, variant: VariantName) -> Vec<(u32, u32)> {
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
    cuts.iter()
        .enumerate()
        .map(|(k, &lo)| (lo, cuts.get(k + 1).map_or(0x10_FFFF, |&n| n - 1)))
        .collect()
}

/// One character of each of the grammar's [`classes`]: one of each is enough to try
/// every behaviour. Surrogates, which no `char` holds, are skipped.
pub fn alphabet(grammars: &Grammars, variant: VariantName) -> Vec<char> {
    let mut out = Vec::new();
    for (lo, hi) in classes(grammars, variant) {
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

/// A near miss of a string of `rule`: one or two edits (as the generator makes
/// them) of a generated string, that the oracle rejects. Draws up to `attempts`.
///
/// # Errors
/// [`DrawError`] as [`Generator::generate`] gives it: an unknown rule, an empty
/// language, a string past the generator's budget.
pub fn near_miss(
    gen: &mut Generator<'_>,
    oracle: &Oracle<'_>,
    rule: &str,
    attempts: usize,
) -> Result<Option<NearMiss>, DrawError> {
    for k in 0..attempts {
        let from = gen.generate(rule)?;
        let edits = 1 + k % 2;
        let text = gen.mutate_by(&from, edits);
        if rejects(oracle, rule, &text)? {
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
        if rejects(oracle, rule, &s)? {
            out.push((k, s));
        }
    }
    Ok(out)
}

/// Whether the oracle rejects `s`: a string it cannot judge within its budget is
/// not known to be rejected, so it is no counterexample.
fn rejects(oracle: &Oracle<'_>, rule: &str, s: &str) -> Result<bool, UnknownRule> {
    match oracle.matches(rule, s) {
        Ok(m) => Ok(!m),
        Err(Unanswered::Budget(_)) => Ok(false),
        Err(Unanswered::Unknown(e)) => Err(e),
    }
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
}
