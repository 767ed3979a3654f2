//! Two characters of lookahead: FIRST₂ and FOLLOW₂ (Aho, Sethi, Ullman, "Compilers",
//! §4.4, with k = 2), for the choices one character cannot settle.
//!
//! The generator's guard, `Ahead(FOLLOW, ..)`, accepts a match when the character
//! after it may follow it. That is exact unless an alternative matches a prefix of
//! what a later one matches and the character after that prefix may also follow the
//! whole choice: RFC 2373's `hexpart = hexseq | hexseq "::" [ hexseq ] | ...`, which
//! the 2001 IRI draft copies through RFC 2732. On `1::2`, `hexseq` matches `1`, and `:`
//! may follow a `hexpart` (in `IPv6address = hexpart [ ":" IPv4address ]`), so the
//! first alternative would be taken and the address lost. Two characters tell them
//! apart: `::` never follows a `hexpart`. For those alternatives the generator writes
//! `Ahead2(FOLLOW₂, ..)` (`codegen::Writer::alternation`).
//!
//! Characters are the generator's [`Set`] classes: each ASCII character on its own,
//! all of non-ASCII as one symbol, and the end of input; so a two-character set is a
//! map from the first symbol to the [`Set`] of second ones.

use crate::Element;
use iri_grammar_contract::Set;
use std::collections::BTreeMap;

/// The symbol of non-ASCII characters (ASCII characters are their own byte).
const NON_ASCII: u8 = 128;

/// Pairs of symbols: the first (0-127 ASCII, 128 non-ASCII) and the set of second ones.
pub(super) type Pairs = BTreeMap<u8, Set>;

/// The symbols of the characters of a set (its end of input left out).
fn symbols(s: Set) -> impl Iterator<Item = u8> {
    let bits = s.ascii_bits();
    (0u8..128)
        .filter(move |&b| bits >> b & 1 != 0)
        .chain(s.has_non_ascii().then_some(NON_ASCII))
}

/// The set of one symbol.
fn symbol_set(sym: u8) -> Set {
    if sym == NON_ASCII {
        Set::new().non_ascii()
    } else {
        Set::new().code_points(u32::from(sym), u32::from(sym))
    }
}

fn add_pairs(to: &mut Pairs, firsts: Set, seconds: Set) {
    if seconds == Set::new() {
        return;
    }
    for f in symbols(firsts) {
        let e = to.entry(f).or_default();
        *e = e.union(seconds);
    }
}

fn union_pairs(to: &mut Pairs, from: &Pairs) {
    for (&f, &s) in from {
        let e = to.entry(f).or_default();
        *e = e.union(s);
    }
}

/// The first symbols of some pairs, as a set.
fn firsts(p: &Pairs) -> Set {
    p.keys().fold(Set::new(), |s, &f| s.union(symbol_set(f)))
}

/// What an element's language starts with, two characters deep: whether it has the
/// empty string, its strings of one character, and the first two characters of the
/// longer ones.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct First2 {
    pub nullable: bool,
    pub one: Set,
    pub two: Pairs,
}

impl First2 {
    /// The language of the empty string.
    pub fn empty() -> First2 {
        First2 {
            nullable: true,
            ..First2::default()
        }
    }

    /// The first characters of its non-empty strings.
    fn first1(&self) -> Set {
        self.one.union(firsts(&self.two))
    }

    /// `self` then `next`, cut to two characters.
    pub fn then(&self, next: &First2) -> First2 {
        let mut two = self.two.clone();
        add_pairs(&mut two, self.one, next.first1());
        let mut one = Set::new();
        if next.nullable {
            one = one.union(self.one);
        }
        if self.nullable {
            one = one.union(next.one);
            union_pairs(&mut two, &next.two);
        }
        First2 {
            nullable: self.nullable && next.nullable,
            one,
            two,
        }
    }

    /// The union of two languages.
    pub fn or(&self, other: &First2) -> First2 {
        let mut two = self.two.clone();
        union_pairs(&mut two, &other.two);
        First2 {
            nullable: self.nullable || other.nullable,
            one: self.one.union(other.one),
            two,
        }
    }

    /// `min*max` of this language. Two characters deep, `x^n` is `x^3`'s for n ≥ 3.
    pub fn repeat(&self, min: u32, max: Option<u32>) -> First2 {
        let mut powers = vec![First2::empty()];
        for n in 1..=3 {
            let p = powers[n - 1].then(self);
            powers.push(p);
        }
        // n from min to max, where every n ≥ 3 counts as 3.
        let hi = max.map_or(min.max(3), |m| m.min(min.max(3)));
        let mut out: Option<First2> = None;
        for n in min..=hi {
            let p = &powers[n.min(3) as usize];
            out = Some(match out {
                None => p.clone(),
                Some(o) => o.or(p),
            });
        }
        out.unwrap_or_default()
    }

    /// A quoted string or `%x` sequence: its first two characters (both cases of
    /// ASCII letters unless case-sensitive).
    pub fn chars(cs: &[u32], case_insensitive: bool) -> First2 {
        let set = |c: u32| match char::from_u32(c) {
            Some(ch) if case_insensitive && ch.is_ascii() => Set::new().char_either_case(ch),
            _ => Set::new().code_points(c, c),
        };
        match cs {
            [] => First2::empty(),
            [a] => First2 {
                one: set(*a),
                ..First2::default()
            },
            [a, b, ..] => {
                let mut two = Pairs::new();
                add_pairs(&mut two, set(*a), set(*b));
                First2 {
                    two,
                    ..First2::default()
                }
            }
        }
    }

    /// One character of a range.
    pub fn range(lo: u32, hi: u32) -> First2 {
        First2 {
            one: Set::new().code_points(lo, hi),
            ..First2::default()
        }
    }
}

/// What may come after a point, two symbols deep, with the end of input a symbol.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Look2 {
    /// The input may end there.
    pub end: bool,
    /// A first character and what may come after it (a character or the end).
    pub pairs: Pairs,
}

impl Look2 {
    /// Only the end of input.
    pub fn end_of_input() -> Look2 {
        Look2 {
            end: true,
            pairs: Pairs::new(),
        }
    }

    /// The first symbols (with the end of input).
    pub fn first(&self) -> Set {
        let s = firsts(&self.pairs);
        if self.end {
            s.end_of_input()
        } else {
            s
        }
    }

    /// A language `x` followed by this, cut to two symbols.
    pub fn after(x: &First2, then: &Look2) -> Look2 {
        let mut pairs = x.two.clone();
        add_pairs(&mut pairs, x.one, then.first());
        if x.nullable {
            union_pairs(&mut pairs, &then.pairs);
        }
        Look2 {
            end: x.nullable && then.end,
            pairs,
        }
    }

    /// Adds `other`; whether anything was added.
    pub fn absorb(&mut self, other: &Look2) -> bool {
        let before = self.clone();
        self.end |= other.end;
        union_pairs(&mut self.pairs, &other.pairs);
        *self != before
    }

    /// The pairs grouped by their second set, for the generated `Set2`: (firsts,
    /// seconds), in a fixed order.
    pub fn grouped(&self) -> Vec<(Set, Set)> {
        let mut by_second: Vec<(Set, Set)> = Vec::new();
        for (&f, &s) in &self.pairs {
            match by_second.iter_mut().find(|(_, x)| *x == s) {
                Some((firsts, _)) => *firsts = firsts.union(symbol_set(f)),
                None => by_second.push((symbol_set(f), s)),
            }
        }
        by_second
    }
}

/// The elements of an alternative read as a sequence (a concatenation's items, or the
/// alternative alone).
pub(super) fn items(e: &Element) -> &[Element] {
    match e {
        Element::Concatenation(v) => v,
        other => std::slice::from_ref(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn concatenation_and_repetition() {
        let a = First2::chars(&[u32::from(b'a')], false);
        let b = First2::chars(&[u32::from(b'b')], false);
        let ab = a.then(&b);
        assert!(!ab.nullable);
        assert_eq!(ab.one, Set::new());
        assert_eq!(ab.two[&b'a'], Set::new().chars("b"));
        let many = a.repeat(0, None);
        assert!(many.nullable);
        assert_eq!(many.one, Set::new().chars("a"));
        assert_eq!(many.two[&b'a'], Set::new().chars("a"));
        let follow = Look2::after(&many, &Look2::end_of_input());
        assert!(follow.end);
        assert_eq!(follow.pairs[&b'a'], Set::new().chars("a").end_of_input());
        let six = a.repeat(6, Some(6));
        assert!(!six.nullable && six.one == Set::new());
        let opt = a.repeat(0, Some(1));
        assert!(opt.nullable && opt.two.is_empty());
    }
}
