//! Where a program parts from the ABNF: the rule (and its alternative) of the parse
//! tree that holds the smallest difference between a minimized disagreement and an
//! input the program gets right.
//!
//! - **It accepts an invalid string.** The valid strings one edit away (one
//!   character of each class of the grammar's alphabet deleted, replaced or
//!   inserted), nearest to where the oracle fails on it, judged and parsed by the
//!   oracle alone: the deepest rule around the edit. The rule most of them name is
//!   where the program's language is larger than the grammar's: the program accepts
//!   `256.0.0.0`, and `255.0.0.0`, `25.0.0.0`, `206.0.0.0` are `dec-octet`s.
//! - **It rejects a valid string, or gives a component that differs.** The
//!   positions of the string where one character deleted or made plain (`a`, `0`)
//!   keeps it valid and brings the program's agreement back: the deepest rule of
//!   the string's parse tree whose span holds them all. When no single edit does,
//!   the deepest rule that holds more than half of the string.

use crate::verdict::Kind;
use iri_grammar_abnf::oracle::explain::{OracleNode, OracleTree};
use iri_grammar_abnf::oracle::Oracle;
use std::collections::BTreeSet;

/// A rule of the parse tree, and which alternative of its definition it took.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Place {
    /// The rule, as the grammar writes it.
    pub rule: String,
    /// Which alternative (1-based) and of how many, for an alternation.
    pub alternative: Option<(usize, usize)>,
}

impl Place {
    fn of(n: &OracleNode) -> Place {
        Place {
            rule: n.rule.clone(),
            alternative: n.alternative,
        }
    }
}

/// Where a disagreement first seems to part, from the oracle alone (cheap enough for
/// every disagreement found, before minimizing): for an invalid string, the rule the
/// oracle was in at its farthest failure and the rule around it (`dec-octet <
/// IPv4address`); for a valid one, the rules of its parse tree. Disagreements are
/// minimized a few from each such place, so that one cause found often does not hide
/// another found rarely.
pub fn first_place(oracle: &Oracle<'_>, rule: &str, s: &str, kind: Kind) -> String {
    if kind == Kind::AcceptsInvalid {
        return match oracle.explain(rule, s) {
            Ok(e) => format!(
                "{} < {}",
                e.rule.as_deref().unwrap_or(rule),
                e.within.first().map_or(rule, String::as_str)
            ),
            Err(_) => rule.to_string(),
        };
    }
    let Ok(tree) = oracle.tree(rule, s) else {
        return rule.to_string();
    };
    let mut rules = BTreeSet::new();
    let mut stack = vec![&tree.root];
    while let Some(n) = stack.pop() {
        rules.insert(n.rule.as_str());
        stack.extend(&n.children);
    }
    rules.into_iter().collect::<Vec<_>>().join(" ")
}

/// The deepest node of `tree` whose span holds every byte of `from..to`. For a
/// point (`from == to`: where a character was deleted), the deeper of the nodes
/// holding the character before it and the one after it: the deletion took a
/// character from between them, and the deeper one is the rule it shortened
/// (`//[::0.0.0.0]` is `//[::0.0.0.00]` with a `0` less at the end of a
/// `dec-octet`, not of the `IP-literal` whose `]` follows).
pub fn deepest_holding<'t>(tree: &'t OracleTree<'_>, from: usize, to: usize) -> &'t OracleNode {
    if from == to {
        let before = tree.input[..from]
            .chars()
            .next_back()
            .map(|c| from - c.len_utf8());
        let after = tree.input[from..]
            .chars()
            .next()
            .map(|c| from + c.len_utf8());
        let sides = [
            before.map(|b| holding(tree, b, from)),
            after.map(|a| holding(tree, from, a)),
        ];
        return match sides {
            [Some(b), Some(a)] => {
                if a.1 > b.1 {
                    a.0
                } else {
                    b.0
                }
            }
            [Some(one), None] | [None, Some(one)] => one.0,
            [None, None] => &tree.root,
        };
    }
    holding(tree, from, to).0
}

/// The deepest node holding `from..to` (not empty), and its depth.
fn holding<'t>(tree: &'t OracleTree<'_>, from: usize, to: usize) -> (&'t OracleNode, usize) {
    let mut n = &tree.root;
    let mut depth = 0;
    while let Some(c) = n.children.iter().find(|c| c.start <= from && to <= c.end) {
        n = c;
        depth += 1;
    }
    (n, depth)
}

/// Where an invalid string the program accepts parts from the grammar: among its
/// valid neighbours whose edit is nearest to where the oracle fails on it (the
/// farthest it got), the rule most of them hold the edit in (see the module's
/// documentation); the rule asked when no neighbour is valid. The edit nearest the
/// failure is the one that mends what the program let through: `//@:a` fails at the
/// `a` of the port, and `//@:0` mends it in `port`, while `/x@:a`, a path, mends it
/// elsewhere. `alphabet` is the grammar's
/// ([`iri_grammar_abnf::strings::counterexamples::alphabet`]).
pub fn accepted_place(oracle: &Oracle<'_>, alphabet: &[char], rule: &str, s: &str) -> Place {
    let n = s.chars().count();
    let at = oracle.explain(rule, s).map_or(0, |e| e.char_offset).min(n);
    for distance in 0..=n {
        let mut tally: Vec<(Place, usize)> = Vec::new();
        let positions = [at.checked_sub(distance), at.checked_add(distance)];
        for p in positions.into_iter().flatten().filter(|&p| p <= n) {
            if distance == 0 && p != at {
                continue;
            }
            for (neighbour, from, to) in edits_at(s, p, alphabet) {
                let Ok(tree) = oracle.tree(rule, &neighbour) else {
                    continue;
                };
                let place = Place::of(deepest_holding(&tree, from, to));
                match tally.iter_mut().find(|(q, _)| *q == place) {
                    Some((_, k)) => *k += 1,
                    None => tally.push((place, 1)),
                }
            }
        }
        let best = tally.iter().map(|(_, k)| *k).max().unwrap_or(0);
        if let Some((place, _)) = tally.into_iter().find(|(_, k)| *k == best) {
            return place;
        }
    }
    Place {
        rule: rule.to_string(),
        alternative: None,
    }
}

/// The single edits of `s` at character position `p`, each with the byte span of
/// the edit in the edited string (deletion: the empty span where the character was).
fn edits_at(s: &str, p: usize, alphabet: &[char]) -> Vec<(String, usize, usize)> {
    let chars: Vec<char> = s.chars().collect();
    let byte = |v: &[char], k: usize| v[..k].iter().map(|c| c.len_utf8()).sum::<usize>();
    let mut out = Vec::new();
    if p < chars.len() {
        let mut v = chars.clone();
        v.remove(p);
        let at = byte(&v, p);
        out.push((v.iter().collect(), at, at));
        for &c in alphabet.iter().filter(|&&c| c != chars[p]) {
            let mut v = chars.clone();
            v[p] = c;
            let at = byte(&v, p);
            out.push((v.iter().collect(), at, at + c.len_utf8()));
        }
    }
    for &c in alphabet {
        let mut v = chars.clone();
        v.insert(p, c);
        let at = byte(&v, p);
        out.push((v.iter().collect(), at, at + c.len_utf8()));
    }
    out
}

/// Where a valid string the program gets wrong parts from the grammar, given
/// `agrees`, whether the program gets a valid neighbour right (see the module's
/// documentation).
pub fn rejected_place(
    oracle: &Oracle<'_>,
    rule: &str,
    s: &str,
    mut agrees: impl FnMut(&str) -> bool,
) -> Place {
    let Ok(tree) = oracle.tree(rule, s) else {
        return Place {
            rule: rule.to_string(),
            alternative: None,
        };
    };
    let mut span: Option<(usize, usize)> = None;
    for (at, c) in s.char_indices() {
        let rest = &s[at + c.len_utf8()..];
        let edits = [
            format!("{}{rest}", &s[..at]),
            format!("{}a{rest}", &s[..at]),
            format!("{}0{rest}", &s[..at]),
        ];
        let critical = edits
            .iter()
            .any(|t| t != s && oracle.matches(rule, t).unwrap_or(false) && agrees(t));
        if critical {
            let end = at + c.len_utf8();
            span = Some(span.map_or((at, end), |(a, b)| (a.min(at), b.max(end))));
        }
    }
    let node = match span {
        Some((from, to)) => deepest_holding(&tree, from, to),
        None => {
            let mut n = &tree.root;
            while let Some(c) = n.children.iter().find(|c| 2 * (c.end - c.start) > s.len()) {
                n = c;
            }
            n
        }
    };
    Place::of(node)
}

#[cfg(test)]
mod tests {
    use super::*;
    use iri_grammar_abnf::{strings::counterexamples, Grammars, VariantName};

    #[test]
    fn a_larger_dec_octet_is_found_in_dec_octet() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Iri);
        let a = counterexamples::alphabet(&g, VariantName::Iri);
        for s in ["256.0.0.0", "0.0.0.256"] {
            assert_eq!(
                accepted_place(&o, &a, "IPv4address", s).rule,
                "dec-octet",
                "{s}"
            );
        }
        assert_eq!(
            accepted_place(&o, &a, "IRI-reference", "//[::256.0.0.0]").rule,
            "dec-octet"
        );
        // A leading zero, at the end of an IP literal or inside it: the valid
        // neighbour deletes a character of the last dec-octet, not of the `]` after.
        for s in ["//[::0.0.0.00]", "//[::0.00.0.0]", "//[::00.0.0.0]"] {
            assert_eq!(
                accepted_place(&o, &a, "IRI-reference", s).rule,
                "dec-octet",
                "{s}"
            );
        }
    }

    #[test]
    fn a_rejected_string_is_found_where_the_edits_bring_agreement() {
        let g = Grammars::builtin();
        let o = Oracle::new(&g, VariantName::Uri);
        // A program that rejects a port of more than 4 digits: deleting any digit of
        // the port brings agreement back.
        let p = rejected_place(&o, "URI-reference", "//a:00000", |t| {
            t.rsplit(':').next().is_some_and(|p| p.len() < 5)
        });
        assert_eq!(p.rule, "port");
        let p = rejected_place(&o, "URI-reference", "a:b", |_| false);
        assert_eq!(p.rule, "URI");
    }
}
