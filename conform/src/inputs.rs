//! The inputs a program is asked about, in order, until the budget is spent:
//!
//! 1. the covering suite of the rule: strings that together reach every alternative
//!    reachable from it (`iri generate --cover`, [`iri_grammar_coverage::cover`]),
//!    one counterexample per place the rule can fail (`iri generate --cover
//!    --invalid`, [`counterexamples::places`]), and the covering suite drawn again
//!    with each bounded repetition at its most ([`Counts::Most`]);
//! 2. near misses of the covering strings, up to half of what is left of the
//!    budget: eight kinds, each given an even part and spread evenly over its list
//!    (what a kind does not use goes to the others):
//!    - the covering suite drawn with repetitions one past their most
//!      ([`Counts::OnePast`]);
//!    - each character beyond ASCII replaced by the ends of every class beyond
//!      ASCII (the first and last code point of each of the grammar's
//!      [`counterexamples::classes`], and those just outside: `ucschar`'s and
//!      `iprivate`'s ranges);
//!    - each character in an ASCII range of the rule holding it replaced by the
//!      range's ends and the code points just outside them (`%x30-35`: `/`, `0`,
//!      `5`, `6`), also where a rule takes an alternative that the covering strings
//!      take only elsewhere, put there (`"25" %x30-35` in a host's IPv4 address, put
//!      in an IP literal's: `alternatives_in_every_context`);
//!    - a line break, white space, a NUL or a byte order mark at either end
//!      (characters the grammar lumps with others and programs treat apart);
//!    - the character deleted, doubled, and replaced by its neighbours in code
//!      point order;
//!    - in each rule, the characters of a class the document names that shares
//!      some of what the rule takes there and not all (`_` of `unreserved` in a
//!      `scheme`), inserted and put in place of a character (`class_confusions`);
//!    - in each rule that holds one other and characters of its own, the inner
//!      rule's text put in its place (`//[::1]` → `//::1`: a program taking an
//!      IPv6 address without its brackets, `unwrapped`);
//!    - each single edit (a character deleted, replaced or inserted, one of each
//!      class of [`counterexamples::alphabet`]), of the shortest covering strings
//!      first.
//!
//!    The edits of a character's place (the range ends, its neighbours) are made
//!    at the first place of each context of the covering strings, not at every
//!    place (`first_places`).
//!
//! 3. the lines of the corpus files given (`--corpus`), up to a quarter of the budget;
//! 4. strings drawn from the grammar and near misses of them
//!    ([`Generator::generate`], [`Generator::mutate`]) for the rest.
//!
//! Every input is asked once. The same seed gives the same inputs.

use iri_grammar::{check, Rule, Variant, VariantName};
use iri_grammar_abnf::model::UnknownRule;
use iri_grammar_abnf::oracle::explain::{OracleNode, OracleTree};
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::counterexamples;
use iri_grammar_abnf::strings::generate::{Counts, Generator};
use iri_grammar_abnf::{Element, Grammars};
use iri_grammar_coverage::{cover, runtime_rule, Coverage};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

/// How many strings are drawn for each target of the cover set (as `iri generate`).
const ATTEMPTS: usize = 200;

/// The longest input asked, in bytes: the oracle is slow by design, and bounded
/// where users reach it (as `iri check --oracle` is). Longer corpus lines are skipped.
pub const MAX_INPUT: usize = 4096;

/// Where an input comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Source {
    /// The covering suite's valid strings.
    Cover,
    /// One counterexample per place the rule can fail.
    Counterexample,
    /// A single edit of a covering string.
    NearMiss,
    /// A line of a corpus file.
    Corpus,
    /// Drawn from the grammar, or a near miss of a drawn string.
    Random,
}

/// The inputs, in the order they are asked.
#[derive(Debug, Clone, Default)]
pub struct Inputs {
    /// Each input and where it comes from.
    pub list: Vec<(String, Source)>,
    /// Targets of the cover set no generated string reached.
    pub unreached: Vec<String>,
    /// Corpus lines left out for being longer than [`MAX_INPUT`].
    pub too_long: usize,
}

/// The inputs for `rule` of `variant`: at most `budget`, drawn with `seed`, with the
/// lines of `corpus`.
///
/// # Errors
/// [`UnknownRule`] if the grammar, or the combinators, have no such rule.
pub fn inputs(
    grammars: &Grammars,
    variant: VariantName,
    rule: &str,
    seed: u64,
    budget: usize,
    corpus: &[String],
) -> Result<Inputs, UnknownRule> {
    let unknown = || UnknownRule {
        name: rule.to_string(),
        grammar: variant.as_str().to_string(),
    };
    let runtime = runtime_rule(variant, rule).ok_or_else(unknown)?;
    let oracle = Oracle::new(grammars, variant);
    let mut gen = Generator::new(grammars, variant, seed);
    let mut out = Inputs::default();
    let mut seen: HashSet<String> = HashSet::new();
    let mut add = |out: &mut Inputs, s: String, source: Source| {
        if out.list.len() < budget && s.len() <= MAX_INPUT && seen.insert(s.clone()) {
            out.list.push((s, source));
        }
    };

    // 1. The covering suite.
    let cov = Coverage::new(grammars, variant, rule)?;
    let set = cover(&cov, &mut gen, ATTEMPTS);
    out.unreached = set
        .unreached
        .iter()
        .map(|(r, alt)| match alt {
            Some(a) => format!("{r} alternative {a}"),
            None => r.clone(),
        })
        .collect();
    let alphabet = counterexamples::alphabet(grammars, variant);
    let places = counterexamples::places(&set.strings, &alphabet, &oracle, rule, |s| {
        place(variant, runtime, s)
    })?;
    for s in &set.strings {
        add(&mut out, s.clone(), Source::Cover);
    }
    for (_, s) in places {
        add(&mut out, s, Source::Counterexample);
    }
    // The cover set again with every bounded repetition at its most (`1*4HEXDIG`
    // as 4, `*6( h16 ":" )` as 6), valid strings a program stopping one early
    // refuses; and with repetitions one past their most, near misses a program
    // stopping one late accepts. Drawn by copies of the generator, so that the
    // strings drawn later are those of the seed as before.
    let most = cover(&cov, &mut gen.clone().with_counts(Counts::Most), ATTEMPTS).strings;
    for s in most {
        add(&mut out, s, Source::Cover);
    }
    let one_past = cover(
        &cov,
        &mut gen.clone().with_counts(Counts::OnePast),
        ATTEMPTS,
    )
    .strings;

    // 2. Near misses of the covering strings, of eight kinds, each given an even
    // part of the share (what a kind does not use goes to the others) and spread
    // evenly over its list, so that no kind crowds out another: repetitions one past
    // their most; the ends of the classes beyond ASCII; the ends of the ASCII
    // ranges, also in the contexts where the covering strings do not take an
    // alternative; a character at either end that the grammar treats like its class but
    // programs often do not; the character deleted, doubled, and replaced by its
    // code-point neighbours; the classes a rule may be confused with; a rule's text
    // without the delimiters of the rule around it; then every
    // single edit by one character of each class of the alphabet, of the shortest
    // covering strings first.
    let mut near_seen = HashSet::new();
    let ends = class_ends(&counterexamples::classes(grammars, variant));
    let ranges = ascii_ranges(grammars, variant);
    let mut by_length: Vec<&String> = set.strings.iter().collect();
    by_length.sort_by_key(|s| s.chars().count());
    // The edits at the places of a character are made at the first place of each
    // context (the rules holding the character, with their alternatives, and its
    // offset in the innermost: the third digit of a `"25" %x30-35` octet of an IPv6
    // address's `ls32`), not at every place: another place of the same context is
    // an edit the program treats alike.
    // The covering strings' parse trees, shortest first, for the kinds of near miss
    // that edit a character where it sits.
    let trees: Vec<OracleTree<'_>> = (by_length.iter())
        .filter_map(|s| oracle.tree(rule, s).ok())
        .collect();
    // Then valid strings where a rule takes an alternative the covering strings take
    // only elsewhere (a `"25" %x30-35` octet inside an IP literal), so that the
    // edits at a character's place reach it in every context.
    let transplanted = alternatives_in_every_context(&trees);
    let more_trees: Vec<OracleTree<'_>> = (transplanted.iter())
        .filter_map(|s| oracle.tree(rule, s).ok())
        .collect();
    let places = first_places(trees.iter().chain(&more_trees), |chain, offset| {
        let rules: Vec<(String, Option<(usize, usize)>)> = (chain.iter())
            .map(|n| (n.rule.clone(), n.alternative))
            .collect();
        (rules, offset)
    });
    // Only the range ends are made at the places these strings add; the other
    // edits of a place draw from the covering strings alone.
    let covering: HashSet<&str> = by_length.iter().map(|s| s.as_str()).collect();
    let covered: Vec<_> = (places.iter())
        .filter(|(s, _)| covering.contains(s))
        .cloned()
        .collect();
    let kinds: Vec<Vec<String>> = [
        one_past,
        (set.strings.iter())
            .flat_map(|s| class_end_edits(s, &ends))
            .collect(),
        (transplanted.iter().cloned())
            .chain(at_places(&places, |chars, p| {
                range_end_edits(chars, p, &ranges)
            }))
            .collect(),
        (set.strings.iter()).flat_map(|s| at_the_ends(s)).collect(),
        at_places(&covered, |chars, p| boundary_edits(chars, p.k)),
        class_confusions(&oracle, rule, &trees, &alphabet),
        unwrapped(&trees),
        (by_length.iter())
            .flat_map(|s| counterexamples::single_edits(s, &alphabet))
            .collect(),
    ]
    .into_iter()
    .map(|kind: Vec<String>| {
        kind.into_iter()
            .filter(|s| near_seen.insert(s.clone()))
            .collect()
    })
    .collect();
    let share = budget.saturating_sub(out.list.len()) / 2;
    for s in fair_shares(kinds, share) {
        add(&mut out, s, Source::NearMiss);
    }

    // 3. The corpus.
    let room = budget.saturating_sub(out.list.len());
    let mut taken = 0;
    for line in corpus {
        if line.len() > MAX_INPUT {
            out.too_long += 1;
            continue;
        }
        if taken < room / 2 {
            let before = out.list.len();
            add(&mut out, line.clone(), Source::Corpus);
            taken += out.list.len() - before;
        }
    }

    // 4. Drawn strings and near misses of them, until the budget is spent (or the
    // grammar has no new string to give: a rule with a small language).
    let mut misses = 0;
    while out.list.len() < budget && misses < 1000 {
        // The rule is known (the covering suite found it), and no rule of the
        // built-in grammars has an empty language or a string past the budget.
        let Ok(s) = gen.generate(rule) else { break };
        let m = gen.mutate(&s);
        let before = out.list.len();
        add(&mut out, s, Source::Random);
        add(&mut out, m, Source::Random);
        if out.list.len() == before {
            misses += 1;
        } else {
            misses = 0;
        }
    }
    Ok(out)
}

/// At most `total` strings of `lists`: each list an even part (a list shorter than
/// its part gives all it has, and the rest goes to the others), taken evenly spread
/// over the list; in the order of the lists.
fn fair_shares(lists: Vec<Vec<String>>, total: usize) -> Vec<String> {
    let mut quota = vec![0; lists.len()];
    let mut left = total;
    loop {
        let open: Vec<usize> = (0..lists.len())
            .filter(|&k| quota[k] < lists[k].len())
            .collect();
        if open.is_empty() || left == 0 {
            break;
        }
        let part = (left / open.len()).max(1);
        for k in open {
            let more = part.min(lists[k].len() - quota[k]).min(left);
            quota[k] += more;
            left -= more;
        }
    }
    let mut out = Vec::new();
    for (list, q) in lists.into_iter().zip(quota) {
        let n = list.len();
        out.extend((0..q).map(|k| list[k * n / q].clone()));
    }
    out
}

/// Characters the grammar puts in one class with others (no rule of RFC 3986 or 3987
/// allows any of them, so [`counterexamples::alphabet`] tries one space for all the
/// controls), which programs treat apart: a regular expression's `$` matches before a
/// final line feed, readers split lines at CR and LF, trim white space or stop at a
/// NUL, and Unicode names other line breaks, spaces and a byte order mark.
const TREATED_APART: [char; 12] = [
    '\n', '\r', '\t', ' ', '\0', '\u{0B}', '\u{0C}', '\u{7F}', '\u{85}', '\u{A0}', '\u{2028}',
    '\u{FEFF}',
];

/// `s` with each character of [`TREATED_APART`] after it and before it.
fn at_the_ends(s: &str) -> impl Iterator<Item = String> + '_ {
    TREATED_APART
        .iter()
        .flat_map(move |c| [format!("{s}{c}"), format!("{c}{s}")])
}

/// The edits of the character at `k` of `chars` at the edges of what the grammar
/// allows: deleted, doubled, and replaced by the code points just below and just
/// above it (`255` → `254`, `256`: the ends of a range such as `%x30-35` are where
/// an implementation is off by one).
fn boundary_edits(chars: &[char], k: usize) -> Vec<String> {
    let c = chars[k];
    let mut deleted = chars.to_vec();
    deleted.remove(k);
    let mut out = vec![deleted.into_iter().collect(), edited(chars, k, c, true)];
    for r in [(c as u32).checked_sub(1), (c as u32).checked_add(1)] {
        if let Some(r) = r.and_then(char::from_u32) {
            out.push(edited(chars, k, r, false));
        }
    }
    out
}

/// The code points at the ends of the grammar's classes beyond ASCII
/// ([`counterexamples::classes`]: `ucschar`'s and `iprivate`'s ranges, and what lies
/// between them): the first and the last of each, and those just outside it.
fn class_ends(classes: &[(u32, u32)]) -> Vec<char> {
    let mut ends: Vec<char> = classes
        .iter()
        .filter(|&&(_, hi)| hi >= 0x80)
        .flat_map(|&(lo, hi)| [lo.checked_sub(1), Some(lo), Some(hi), hi.checked_add(1)])
        .flatten()
        .filter(|&c| c >= 0x80)
        .filter_map(char::from_u32)
        .collect();
    ends.sort_unstable();
    ends.dedup();
    ends
}

/// The edits of `s` at the ends of the classes beyond ASCII: each character beyond
/// ASCII replaced by each of `ends` ([`class_ends`]). A program whose range ends one
/// early or one late (`%xA0-D7FE`, `%xF900-FDD0`) parts from the grammar only
/// there; the code-point neighbours of a cover string's characters, and the one
/// character per class of the alphabet, rarely land on an end.
fn class_end_edits(s: &str, ends: &[char]) -> Vec<String> {
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    for (p, &c) in chars.iter().enumerate() {
        if c.is_ascii() {
            continue;
        }
        for &e in ends.iter().filter(|&&e| e != c) {
            let mut v = chars.clone();
            v[p] = e;
            out.push(v.into_iter().collect());
        }
    }
    out
}

/// For each rule (by its name in lowercase), the ranges of ASCII code points its
/// definition names and those of the rules it is made of (`dec-octet`: `%x30-35`,
/// `%x30-34`, `%x31-39` and `DIGIT`'s `%x30-39`; `scheme`: `ALPHA`'s and `DIGIT`'s).
fn ascii_ranges(grammars: &Grammars, variant: VariantName) -> HashMap<String, Vec<(u32, u32)>> {
    let table = grammars.table(variant);
    let definition = |name: &str| {
        (table.iter())
            .find(|r| r.name.eq_ignore_ascii_case(name))
            .map(|r| &r.definition)
    };
    fn walk<'g>(e: &'g Element, out: &mut Vec<(u32, u32)>, rules: &mut Vec<&'g str>) {
        match e {
            Element::Alternation(v) | Element::Concatenation(v) => {
                v.iter().for_each(|x| walk(x, out, rules))
            }
            Element::Repetition { element, .. } => walk(element, out, rules),
            Element::Range(lo, hi) if *hi < 0x80 && !out.contains(&(*lo, *hi)) => {
                out.push((*lo, *hi))
            }
            Element::Rule(name) => rules.push(name),
            _ => {}
        }
    }
    let mut by_rule = HashMap::new();
    for r in &table {
        let mut out = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        let mut rules = vec![r.name.as_str()];
        while let Some(name) = rules.pop() {
            if seen.insert(name.to_ascii_lowercase()) {
                if let Some(d) = definition(name) {
                    walk(d, &mut out, &mut rules);
                }
            }
        }
        by_rule.insert(r.name.to_ascii_lowercase(), out);
    }
    by_rule
}

/// The edits at the ends of the ASCII ranges a character is in: the character at
/// place `p` of `chars` replaced by the first and last code points of each range of
/// the rule holding it ([`ascii_ranges`]) that holds it, and those just outside.
/// `0` of `250` becomes `6` (past `%x30-35`) as well as `/`, `9` and `:`: the
/// code-point neighbours of the character alone reach the end of its range only
/// when the character happens to be there. The ranges of other rules are left out:
/// `dec-octet`'s `%x30-34` says nothing of a digit in a port.
fn range_end_edits(
    chars: &[char],
    p: Place<'_>,
    ranges: &HashMap<String, Vec<(u32, u32)>>,
) -> Vec<String> {
    let k = p.k;
    let c = chars[k] as u32;
    let none = Vec::new();
    let ranges = ranges.get(&p.rule.to_ascii_lowercase()).unwrap_or(&none);
    let mut ends: Vec<u32> = ranges
        .iter()
        .filter(|&&(lo, hi)| (lo..=hi).contains(&c))
        .flat_map(|&(lo, hi)| [lo.saturating_sub(1), lo, hi, hi + 1])
        .filter(|&e| e != c && e < 0x80)
        .collect();
    ends.sort_unstable();
    ends.dedup();
    (ends.into_iter().filter_map(char::from_u32))
        .map(|e| edited(chars, k, e, false))
        .collect()
}

/// A character's place in a string: its index, and the innermost rule holding it
/// (one-character rules folded into their parent).
#[derive(Debug, Clone, Copy)]
struct Place<'t> {
    k: usize,
    rule: &'t str,
}

/// The places of the covering strings where a character sits in a context not met
/// before, the shortest strings first (their `trees`, parsed by the rule once for
/// every kind of near miss that needs them): each string, and the index
/// of each such character with the rules holding it, from the root, each with the
/// alternative it took ([`OracleNode`]'s `rule` and `alternative`), and the
/// character's offset in the innermost (one-character rules folded into their
/// parent). `context` makes the key of a place from that: two places of one key are
/// alike, and only the first is given.
fn first_places<'t, 's: 't, K: Eq + std::hash::Hash>(
    trees: impl IntoIterator<Item = &'t OracleTree<'s>>,
    mut context: impl FnMut(&[&OracleNode], usize) -> K,
) -> Vec<(&'s str, Vec<Place<'t>>)> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for tree in trees {
        let s = tree.input;
        let mut new = Vec::new();
        for (k, (b, c)) in s.char_indices().enumerate() {
            let mut chain = vec![&tree.root];
            while let Some(child) = (chain[chain.len() - 1].children.iter())
                .find(|child| child.start <= b && b + c.len_utf8() <= child.end)
            {
                chain.push(child);
            }
            let inner = chain[chain.len() - 1];
            let offset = s[inner.start..b].chars().count();
            if seen.insert(context(&chain, offset)) {
                new.push(Place {
                    k,
                    rule: &inner.rule,
                });
            }
        }
        if !new.is_empty() {
            out.push((s, new));
        }
    }
    out
}

/// Valid strings in which a rule, where it sits in a covering string, takes an
/// alternative of its definition that the covering strings take only elsewhere:
/// the rule's text there replaced by the shortest text of that alternative found in
/// any of them (a string of one rule put in the place of another string of it
/// stays valid). The covering strings reach every alternative once, not in every
/// context: `dec-octet`'s `"25" %x30-35` may be met in a host's IPv4 address and
/// never inside an IP literal, where `256` is what a program gets wrong. One string
/// for each context (the rules from the root, with their alternatives) and
/// alternative not met before.
fn alternatives_in_every_context(trees: &[OracleTree<'_>]) -> Vec<String> {
    type Chain = Vec<(String, Option<(usize, usize)>)>;
    // Each node with the chain of rules above it, the tree's string beside it; the
    // contexts met (each node's chain with the node itself).
    let mut nodes: Vec<(&str, &OracleNode, Chain)> = Vec::new();
    let mut seen: HashSet<Chain> = HashSet::new();
    for tree in trees {
        let mut stack = vec![(&tree.root, Chain::new())];
        while let Some((n, above)) = stack.pop() {
            let mut chain = above.clone();
            chain.push((n.rule.clone(), n.alternative));
            stack.extend(n.children.iter().rev().map(|c| (c, chain.clone())));
            seen.insert(chain);
            nodes.push((tree.input, n, above));
        }
    }
    let mut shortest: HashMap<(&str, (usize, usize)), &str> = HashMap::new();
    for (s, n, _) in &nodes {
        if let Some(alt) = n.alternative {
            let text = &s[n.start..n.end];
            let best = shortest.entry((n.rule.as_str(), alt)).or_insert(text);
            if text.chars().count() < best.chars().count() {
                *best = text;
            }
        }
    }
    let mut out = Vec::new();
    for (s, n, above) in &nodes {
        let Some((_, of)) = n.alternative else {
            continue;
        };
        for k in 1..=of {
            let Some(text) = shortest.get(&(n.rule.as_str(), (k, of))) else {
                continue;
            };
            let mut chain = above.clone();
            chain.push((n.rule.clone(), Some((k, of))));
            if seen.insert(chain) {
                out.push(format!("{}{text}{}", &s[..n.start], &s[n.end..]));
            }
        }
    }
    out
}

/// The edits `edit` makes at each of `places`.
fn at_places(
    places: &[(&str, Vec<Place<'_>>)],
    edit: impl Fn(&[char], Place<'_>) -> Vec<String>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (s, at) in places {
        let chars: Vec<char> = s.chars().collect();
        for &p in at {
            out.extend(edit(&chars, p));
        }
    }
    out
}

/// `chars` with `c` inserted at `k` or put in the place of the character there.
fn edited(chars: &[char], k: usize, c: char, insert: bool) -> String {
    let mut v = chars.to_vec();
    if insert {
        v.insert(k, c);
    } else {
        v[k] = c;
    }
    v.into_iter().collect()
}

/// Near misses where a program confuses two classes of characters the document names
/// (a scheme taking what `unreserved` takes, a host what `pchar` takes). For the
/// first character of each rule ([`first_places`], keyed by the innermost rule: a
/// rule treats its characters alike wherever they are), which characters of the
/// alphabet the rule takes just after it (the string stays valid with one inserted);
/// then each character of a class that shares some of those and not all
/// ([`Oracle::character_classes`]), which the rule does not take, inserted there and
/// put in the character's place.
fn class_confusions(
    oracle: &Oracle<'_>,
    rule: &str,
    trees: &[OracleTree<'_>],
    alphabet: &[char],
) -> Vec<String> {
    // Which characters of the alphabet each class holds.
    let classes: Vec<Vec<bool>> = (oracle.character_classes().iter())
        .map(|class| {
            (alphabet.iter())
                .map(|c| oracle.matches(&class.name, &c.to_string()) == Ok(true))
                .collect()
        })
        .collect();
    let mut out = Vec::new();
    let places = first_places(trees, |chain, _| chain[chain.len() - 1].rule.clone());
    for (s, at) in places {
        let chars: Vec<char> = s.chars().collect();
        for Place { k, .. } in at {
            let taken: Vec<bool> = (alphabet.iter())
                .map(|&a| oracle.matches(rule, &edited(&chars, k + 1, a, true)) == Ok(true))
                .collect();
            let confused = |a: usize| {
                !taken[a]
                    && (classes.iter())
                        .any(|class| class[a] && (0..alphabet.len()).any(|x| class[x] && taken[x]))
            };
            let chosen = alphabet.iter().enumerate().filter(|&(a, _)| confused(a));
            for c in chosen.map(|(_, &c)| c) {
                out.push(edited(&chars, k + 1, c, true));
                out.push(edited(&chars, k, c, false));
            }
        }
    }
    out
}

/// Near misses where a program takes a rule without the delimiters the grammar puts
/// around it: in each rule that holds one other and characters of its own (`[` and
/// `]` of an `IP-literal` around an `IPv6address`), the rule's text put in its place
/// (`//[::1]` → `//::1`, a bare IPv6 address as a host). The first of each pair of
/// rules (with their alternatives), the shortest strings first.
fn unwrapped(trees: &[OracleTree<'_>]) -> Vec<String> {
    type Key = (
        String,
        Option<(usize, usize)>,
        String,
        Option<(usize, usize)>,
    );
    let mut seen: HashSet<Key> = HashSet::new();
    let mut out = Vec::new();
    for tree in trees {
        let s = tree.input;
        let mut stack = vec![&tree.root];
        while let Some(n) = stack.pop() {
            stack.extend(&n.children);
            let [c] = n.children.as_slice() else {
                continue;
            };
            if c.end - c.start == n.end - n.start {
                continue;
            }
            let key = (n.rule.clone(), n.alternative, c.rule.clone(), c.alternative);
            if seen.insert(key) {
                out.push(format!(
                    "{}{}{}",
                    &s[..n.start],
                    &s[c.start..c.end],
                    &s[n.end..]
                ));
            }
        }
    }
    out
}

/// Where the combinators fail on `s`, as `iri generate --cover --invalid` keys its
/// counterexamples (the innermost rule and what was expected at the farthest failure).
fn place(variant: VariantName, rule: Rule, s: &str) -> Option<(Option<String>, Vec<String>)> {
    fn at<V: Variant>(rule: Rule, s: &str) -> Option<(Option<String>, Vec<String>)> {
        check::<V>(rule, s).err().map(|e| {
            let expected = e.expected().iter().map(ToString::to_string).collect();
            (e.rule().map(str::to_string), expected)
        })
    }
    iri_grammar::with_variant!(variant, V => at::<V>(rule, s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn class_confusions_put_in_a_rule_what_a_class_beside_it_holds() {
        let g = Grammars::builtin();
        let oracle = Oracle::new(&g, VariantName::Uri);
        let alphabet = counterexamples::alphabet(&g, VariantName::Uri);
        let tree = |s| oracle.tree("URI-reference", s).unwrap();
        let out = class_confusions(&oracle, "URI-reference", &[tree("a:")], &alphabet);
        // A scheme takes ALPHA, DIGIT, "+", "-" and ".": `unreserved`'s "_" and "~"
        // and the other `sub-delims` are what a program may take with them; a
        // letter, which the scheme takes, and a space, of no class, are not tried.
        for s in ["a_:", "_:", "a~:", "a!:", "a=:"] {
            assert!(out.iter().any(|o| o == s), "{s} in {out:?}");
        }
        assert!(
            !out.iter().any(|o| o.contains('b') || o.contains(' ')),
            "{out:?}"
        );
        for s in &out {
            assert_eq!(oracle.matches("URI-reference", s), Ok(false), "{s}");
        }
        // One place a rule: `ab:` adds no scheme place to `a:`'s.
        let both = class_confusions(
            &oracle,
            "URI-reference",
            &[tree("a:"), tree("ab:")],
            &alphabet,
        );
        assert_eq!(both, out);
    }

    #[test]
    fn unwrapped_puts_a_rule_in_the_place_of_the_rule_around_it() {
        let g = Grammars::builtin();
        let oracle = Oracle::new(&g, VariantName::Uri);
        let trees: Vec<OracleTree<'_>> = ["//[::1]/a", "//[::2]"]
            .into_iter()
            .map(|s| oracle.tree("URI-reference", s).unwrap())
            .collect();
        let out = unwrapped(&trees);
        // The brackets of the first IP literal dropped: its `IPv6address` as a host.
        assert!(out.iter().any(|o| o == "//::1/a"), "{out:?}");
        // One string a pair of rules and alternatives: the second adds none.
        assert!(!out.iter().any(|o| o == "//::2"), "{out:?}");
    }

    #[test]
    fn alternatives_in_every_context_take_a_rule_met_elsewhere_into_each_place() {
        let g = Grammars::builtin();
        let oracle = Oracle::new(&g, VariantName::Uri);
        let inputs = ["//1.2.3.250", "//[::10.0.0.0]"];
        let trees: Vec<OracleTree<'_>> = (inputs.iter())
            .map(|s| oracle.tree("URI-reference", s).unwrap())
            .collect();
        let out = alternatives_in_every_context(&trees);
        // The host's `"25" %x30-35` octet in the IP literal, at its first octet (the
        // four octets of an IPv4 address are one context), and the IP literal's
        // `%x31-39 DIGIT` octet in the host.
        for s in ["//[::250.0.0.0]", "//10.2.3.250"] {
            assert!(out.iter().any(|o| o == s), "{s} in {out:?}");
        }
        assert!(!out.iter().any(|o| o == "//[::0.250.0.0]"), "{out:?}");
        for s in &out {
            assert_eq!(oracle.matches("URI-reference", s), Ok(true), "{s}");
        }
    }

    #[test]
    fn range_ends_are_those_of_the_rule_holding_the_character() {
        let g = Grammars::builtin();
        let ranges = ascii_ranges(&g, VariantName::Uri);
        // `dec-octet`'s own ranges and `DIGIT`'s, which it is made of.
        for r in [(0x30, 0x35), (0x30, 0x34), (0x31, 0x39), (0x30, 0x39)] {
            assert!(ranges["dec-octet"].contains(&r), "{r:?}");
        }
        assert_eq!(ranges["port"], [(0x30, 0x39)]);
        // A digit of a port is not pushed past `%x30-35`; one of an octet is.
        let chars: Vec<char> = "//a:250".chars().collect();
        let port = range_end_edits(&chars, Place { k: 6, rule: "port" }, &ranges);
        assert!(!port.iter().any(|s| s == "//a:256"), "{port:?}");
        let chars: Vec<char> = "//1.1.1.250".chars().collect();
        let p = Place {
            k: 10,
            rule: "dec-octet",
        };
        assert!(range_end_edits(&chars, p, &ranges)
            .iter()
            .any(|s| s == "//1.1.1.256"));
    }

    #[test]
    fn every_source_within_the_budget_and_the_same_for_a_seed() {
        let g = Grammars::builtin();
        let corpus = vec!["1.2.3.4".to_string(), "x".repeat(MAX_INPUT + 1)];
        let a = inputs(&g, VariantName::Uri, "IPv4address", 7, 600, &corpus).unwrap();
        assert!(
            a.list.len() <= 600 && a.list.len() > 300,
            "{}",
            a.list.len()
        );
        assert_eq!(a.too_long, 1);
        for s in [
            Source::Cover,
            Source::Counterexample,
            Source::NearMiss,
            Source::Random,
        ] {
            assert!(a.list.iter().any(|(_, k)| *k == s), "{s:?}");
        }
        let unique: HashSet<&String> = a.list.iter().map(|(s, _)| s).collect();
        assert_eq!(unique.len(), a.list.len());
        let b = inputs(&g, VariantName::Uri, "IPv4address", 7, 600, &corpus).unwrap();
        assert_eq!(a.list, b.list);
        assert!(inputs(&g, VariantName::Uri, "nope", 7, 10, &[]).is_err());
    }
}
