//! Where a program parts from the ABNF: the rule a developer would fix, found from
//! a minimized disagreement, the grammar's parse trees (with a node for every rule,
//! [`Oracle::tree_of_every_rule`]) and more questions to the program.
//!
//! - **It rejects a valid string.** The single edits of the string (a character
//!   deleted, made plain, or inserted) that keep it valid, keep every other
//!   character in the same rules by the same alternatives, and bring the program's
//!   agreement back: the deepest rule of the string's parse tree that holds them
//!   all. An edit that moves the parse to another alternative above (`//:80000` to
//!   `/:80000`) says nothing of the rule at fault and does not count. When no
//!   edit does, the deepest rule that holds more than half of the string. Then the
//!   rule is tried elsewhere: its text put where the same rule occurs under another
//!   parent, in the run's valid inputs; if the program takes it there, the fault is
//!   the parent's (a program refusing `~` in a host, not in a path, is named at
//!   `reg-name`, not `unreserved`).
//! - **It accepts an invalid string.** The valid strings one edit away (one
//!   character of each class of the grammar's alphabet deleted, replaced or
//!   inserted) name the deepest rule around their edit; the rule the oracle was in
//!   where it failed is named with the pieces it can begin with that end there (a
//!   lone `%`, a `pct-encoded`; not the first `#` of `##`, which begins none); and
//!   so is each rule that holds the valid text before the character the oracle
//!   failed at, with that text and the character (`//@::` fails at its second `:`,
//!   in the `authority` the oracle reads `//@:` with: `@::`). Each rule is tried
//!   with the invalid piece put where the rule occurs in the run's valid inputs: of
//!   those the program lets the piece through in, the one with the smallest piece,
//!   nearest the failure, deepest (`ht_p://h` accepted says `scheme` for `a_:`, not
//!   the path `a_:` would be). Where the oracle fails after a piece the rule cannot
//!   begin with, it read the piece as something else (`:` put for a `reg-name`
//!   before a port is the port's `:`): such a try counts for the rule only when no
//!   rule above it, holding its piece, is let through too (`@::` in an
//!   `authority`). A rule under another let through with the same piece at the same
//!   place, but less often, is not named: the piece is let through in it where the
//!   outer rule holds it (`#` put for an `unreserved` of a path begins a fragment);
//!   nor is one whose tries let through all lie in the outer rule, though it occurs
//!   elsewhere (`:` for an `unreserved` makes an invalid string only in a first
//!   segment). A piece that makes valid strings wherever its rule is put (`a:` for
//!   a first segment is a scheme) is tried as its edit: the character the
//!   neighbour took out put back at the same place of the rule elsewhere (`~x:`).
//!   A rule mended by an inserted character, let through where every rule inside
//!   it is refused, is not named when the program answers all their tries as a
//!   reader does that deletes one character around the piece: it reads the string
//!   another way (`//:a` as a path; `a` refused for a port after `[::1]`).
//! - **It gives a component that differs.** The rule of that component (`port`).
//!
//! Rules of RFC 5234's core (`ALPHA`, `DIGIT`) are named by the rule that uses them.

use crate::verdict::Kind;
use iri_grammar_abnf::oracle::explain::{OracleError, OracleNode, OracleTree};
use iri_grammar_abnf::oracle::Oracle;
use std::cmp::Reverse;
use std::collections::{BTreeSet, HashMap};
use tree::{
    byte_of, chain_to, chains, common_prefix, grown, node_at, path_at_point, path_holding, Edit,
};

mod tree;

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

    fn rule(rule: &str) -> Place {
        Place {
            rule: rule.to_string(),
            alternative: None,
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

/// How many valid inputs the places of each rule are looked for in, and how many
/// places a rule is tried in.
const POOL: usize = 600;
const TRIED_PLACES: usize = 6;
/// How many places a rule is tried in to tell whether the program reads a string
/// one character away ([`Placer::read_one_away`]).
const WIDE_PLACES: usize = 18;

/// A place where a rule occurs in a valid input: its span and the rule around it.
#[derive(Debug, Clone)]
struct Occurrence {
    input: usize,
    start: usize,
    end: usize,
    parent: String,
    /// The rules from the root to the parent, separated by spaces.
    above: String,
}

/// What a try puts where a rule occurs.
#[derive(Debug, Clone, Copy)]
enum Put<'a> {
    /// A piece, for the rule's whole text.
    Piece(&'a str),
    /// A character, into the rule's text or for one of its characters: as far
    /// from its end as it was from the end of the piece it was taken from, where
    /// that is nearer than its start, else as far from its start.
    Back {
        ch: char,
        from_start: usize,
        from_end: usize,
        replacing: bool,
    },
}

impl Put<'_> {
    /// `base` with this put at the occurrence `start..end`, and where what was put
    /// is in it.
    fn onto(self, base: &str, start: usize, end: usize) -> Option<(String, usize, usize)> {
        match self {
            Put::Piece(text) => Some((
                format!("{}{text}{}", &base[..start], &base[end..]),
                start,
                start + text.len(),
            )),
            Put::Back {
                ch,
                from_start,
                from_end,
                replacing,
            } => {
                let text = &base[start..end];
                // Where the character goes in the rule's text, and how many bytes
                // of it it takes the place of.
                let (at, gone) = if replacing {
                    let (k, old) = if from_end < from_start {
                        let mut back = text.char_indices().rev();
                        back.find(|&(k, c)| text.len() - k - c.len_utf8() == from_end)?
                    } else {
                        text.char_indices().find(|&(k, _)| k == from_start)?
                    };
                    (start + k, old.len_utf8())
                } else if from_end < from_start {
                    (end.checked_sub(from_end)?, 0)
                } else {
                    (start + from_start, 0)
                };
                if at < start || at > end || !base.is_char_boundary(at) {
                    return None;
                }
                Some((
                    format!("{}{ch}{}", &base[..at], &base[at + gone..]),
                    at,
                    at + ch.len_utf8(),
                ))
            }
        }
    }
}

/// Finds the place of each minimized disagreement of one run: the oracle, the rule
/// asked, the grammar's alphabet, and valid inputs to try rules in.
pub struct Placer<'o, 'g> {
    oracle: &'o Oracle<'g>,
    rule: String,
    alphabet: Vec<char>,
    pool: &'o [&'o str],
    /// Where each rule occurs in the pool, built on first use.
    occurrences: Option<HashMap<String, Vec<Occurrence>>>,
}

impl<'o, 'g> Placer<'o, 'g> {
    /// A placer for `rule`; `pool`: inputs the rules are tried in (the invalid ones
    /// are passed over), `alphabet` the grammar's
    /// ([`iri_grammar_abnf::strings::counterexamples::alphabet`]).
    pub fn new(oracle: &'o Oracle<'g>, rule: &str, alphabet: &[char], pool: &'o [&'o str]) -> Self {
        // In the order given: the run's inputs start with the cover set, which
        // reaches every alternative, so the first few hundred hold every rule.
        Placer {
            oracle,
            rule: rule.to_string(),
            alphabet: alphabet.to_vec(),
            pool,
            occurrences: None,
        }
    }

    /// Whether `name` is a rule of RFC 5234's core (`ALPHA`, `DIGIT`, `HEXDIG`).
    fn is_core(&self, name: &str) -> bool {
        self.oracle
            .rule(name)
            .is_some_and(|d| d.source.document.contains("5234"))
    }

    /// The path, up past rules of the core: they are named by the rule using them.
    fn past_core(&self, tree: &OracleTree<'_>, mut path: Vec<usize>) -> Vec<usize> {
        while !path.is_empty() && self.is_core(&node_at(tree, &path).rule) {
            path.pop();
        }
        path
    }

    /// Where each rule occurs in the first [`POOL`] valid inputs of the pool.
    fn occurrences(&mut self) -> &HashMap<String, Vec<Occurrence>> {
        if self.occurrences.is_none() {
            let mut map: HashMap<String, Vec<Occurrence>> = HashMap::new();
            let mut valid = 0;
            for (k, s) in self.pool.iter().enumerate() {
                if valid >= POOL {
                    break;
                }
                let Ok(t) = self.oracle.tree_of_every_rule(&self.rule, s) else {
                    continue;
                };
                valid += 1;
                let mut stack = vec![(&t.root, t.root.rule.clone())];
                while let Some((n, above)) = stack.pop() {
                    for c in &n.children {
                        map.entry(c.rule.clone()).or_default().push(Occurrence {
                            input: k,
                            start: c.start,
                            end: c.end,
                            parent: n.rule.clone(),
                            above: above.clone(),
                        });
                        stack.push((c, format!("{above} {}", c.rule)));
                    }
                }
            }
            self.occurrences = Some(map);
        }
        self.occurrences.as_ref().expect("built above")
    }

    /// `text` put in the places where `rule` occurs (under a parent other than
    /// `not_under`, if given), the parents taken in turn; those the oracle judges
    /// `valid`, at most [`TRIED_PLACES`].
    fn transplants(
        &mut self,
        rule: &str,
        not_under: Option<&str>,
        text: &str,
        valid: bool,
        fails_after: bool,
    ) -> Vec<String> {
        (self
            .transplants_read(rule, not_under, text, valid, fails_after, TRIED_PLACES)
            .into_iter())
        .map(|(t, ..)| t)
        .collect()
    }

    /// [`Placer::transplants`], each invalid one with whether the oracle could have
    /// read the piece in the rule (it fails within the piece, or the rule can begin
    /// with it), where the piece starts in it, and the rules above the place. Where
    /// it fails after a piece the rule cannot begin with, the oracle read the piece
    /// as something else (`:` put for a `reg-name` before a port is the port's `:`,
    /// and the second `:` fails).
    fn transplants_read(
        &mut self,
        rule: &str,
        not_under: Option<&str>,
        text: &str,
        valid: bool,
        fails_after: bool,
        places: usize,
    ) -> Vec<(String, bool, usize, String)> {
        self.tries_of(
            rule,
            not_under,
            Put::Piece(text),
            valid,
            fails_after,
            places,
        )
    }

    /// The strings made by putting `put` where `rule` occurs (see
    /// [`Placer::transplants_read`]).
    fn tries_of(
        &mut self,
        rule: &str,
        not_under: Option<&str>,
        put: Put<'_>,
        valid: bool,
        fails_after: bool,
        places: usize,
    ) -> Vec<(String, bool, usize, String)> {
        let begins = match put {
            Put::Piece(text) => !valid && self.begins(rule, text),
            Put::Back { .. } => false,
        };
        let found = self.occurrences().get(rule).cloned().unwrap_or_default();
        let mut by_parent: Vec<(String, Vec<Occurrence>)> = Vec::new();
        for o in found
            .into_iter()
            .filter(|o| not_under != Some(o.parent.as_str()))
        {
            match by_parent.iter_mut().find(|(p, _)| *p == o.parent) {
                Some((_, v)) => v.push(o),
                None => by_parent.push((o.parent.clone(), vec![o])),
            }
        }
        let mut out: Vec<(String, bool, usize, String)> = Vec::new();
        for depth in 0.. {
            let before = out.len();
            let mut any = false;
            for (_, v) in &by_parent {
                let Some(o) = v.get(depth) else { continue };
                any = true;
                let base = &self.pool[o.input];
                let Some((t, start, end)) = put.onto(base, o.start, o.end) else {
                    continue;
                };
                if out.len() >= places
                    || out.iter().any(|(u, ..)| *u == t)
                    || self.oracle.matches(&self.rule, &t).ok() != Some(valid)
                {
                    continue;
                }
                if valid {
                    out.push((t, true, start, o.above.clone()));
                    continue;
                }
                let at = self
                    .oracle
                    .explain(&self.rule, &t)
                    .ok()
                    .map(|e| e.byte_offset);
                if fails_after && at != Some(end) {
                    continue;
                }
                let read = begins || at.is_some_and(|at| at < end);
                out.push((t, read, start, o.above.clone()));
            }
            if !any || out.len() >= places || (depth > 50 && out.len() == before) {
                break;
            }
        }
        out
    }

    /// Whether `rule` occurs in the pool somewhere not under rule `outer`.
    fn occurs_outside(&mut self, rule: &str, outer: &str) -> bool {
        (self.occurrences().get(rule)).is_some_and(|found| {
            found
                .iter()
                .any(|p| !p.above.split(' ').any(|r| r == outer))
        })
    }

    /// The path, one step up when its rule is no fault of its own: the rule's text
    /// put where the rule occurs under other parents is taken by the program there.
    fn tried_elsewhere(
        &mut self,
        tree: &OracleTree<'_>,
        path: Vec<usize>,
        says_valid: &mut dyn FnMut(&str) -> Option<bool>,
    ) -> Vec<usize> {
        if path.is_empty() {
            return path;
        }
        let node = node_at(tree, &path);
        let parent = node_at(tree, &path[..path.len() - 1]).rule.clone();
        let text = &tree.input[node.start..node.end];
        let rule = node.rule.clone();
        let answers: Vec<bool> = self
            .transplants(&rule, Some(&parent), text, true, false)
            .iter()
            .filter_map(|t| says_valid(t))
            .collect();
        if !answers.is_empty() && 2 * answers.iter().filter(|&&v| v).count() > answers.len() {
            let mut up = path;
            up.pop();
            self.past_core(tree, up)
        } else {
            path
        }
    }

    /// The tree of every rule of `t`, an edit of the string being placed, where `t`
    /// matches the rule. Most edits are invalid: the match alone says so, where a
    /// tree of one would explain the failure first.
    fn tree_if_valid<'t>(&self, t: &'t str) -> Option<OracleTree<'t>> {
        if !self.oracle.matches(&self.rule, t).unwrap_or(false) {
            return None;
        }
        self.oracle.tree_of_every_rule(&self.rule, t).ok()
    }

    /// Where a valid string the program rejects parts from the grammar (see the
    /// module's documentation). `says_valid`: what the program says of a string
    /// (`None`: no answer).
    pub fn rejected(&mut self, s: &str, says_valid: &mut dyn FnMut(&str) -> Option<bool>) -> Place {
        let Ok(tree) = self.oracle.tree_of_every_rule(&self.rule, s) else {
            return Place::rule(&self.rule);
        };
        let chars: Vec<char> = s.chars().collect();
        let before = chains(&tree);
        let mut edits = Vec::new();
        for (p, &c) in chars.iter().enumerate() {
            edits.push(Edit::Delete(p));
            edits.extend(
                ['a', '0']
                    .into_iter()
                    .filter(|&r| r != c)
                    .map(|r| Edit::Replace(p, r)),
            );
        }
        for p in 0..=chars.len() {
            edits.extend(['a', '0'].map(|r| Edit::Insert(p, r)));
        }
        let mut marks: Vec<Vec<usize>> = Vec::new();
        for e in edits {
            let t = e.apply(&chars);
            let Some(after) = self.tree_if_valid(&t) else {
                continue;
            };
            let after_chains = chains(&after);
            let kept =
                (0..chars.len()).all(|q| e.moved(q).is_none_or(|m| before[q] == after_chains[m]));
            if !kept || says_valid(&t) != Some(true) {
                continue;
            }
            marks.push(match e {
                Edit::Delete(p) | Edit::Replace(p, _) => {
                    let b = byte_of(&chars, p);
                    path_holding(&tree, b, b + chars[p].len_utf8())
                }
                Edit::Insert(p, c) => grown(&tree, &after, byte_of(&chars, p), c.len_utf8()),
            });
        }
        let path = match marks.split_first() {
            Some((first, rest)) => rest.iter().fold(first.clone(), |a, m| common_prefix(&a, m)),
            None => {
                let mut path = Vec::new();
                let mut n = &tree.root;
                while let Some(k) = n
                    .children
                    .iter()
                    .position(|c| 2 * (c.end - c.start) > s.len())
                {
                    path.push(k);
                    n = &n.children[k];
                }
                path
            }
        };
        let path = self.past_core(&tree, path);
        let path = self.tried_elsewhere(&tree, path, says_valid);
        Place::of(node_at(&tree, &path))
    }

    /// Where an invalid string the program accepts parts from the grammar (see the
    /// module's documentation); the rule asked when no neighbour is valid.
    pub fn accepted(&mut self, s: &str, says_valid: &mut dyn FnMut(&str) -> Option<bool>) -> Place {
        self.accepted_among(s, says_valid).0
    }

    /// [`Placer::accepted`], and the rules the program lets a piece of the string
    /// through in when it is put elsewhere (more than half the tries): where two
    /// examples of one cause are placed apart, the place of one may be among those
    /// rules of the other, and the groups are merged.
    pub fn accepted_among(
        &mut self,
        s: &str,
        says_valid: &mut dyn FnMut(&str) -> Option<bool>,
    ) -> (Place, Vec<String>) {
        let failure = self.oracle.explain(&self.rule, s).ok();
        let mut candidates = self.neighbours(s, failure.as_ref().map_or(0, |e| e.char_offset));
        if let Some(e) = &failure {
            candidates.extend(self.where_it_failed(s, e));
            candidates.extend(self.around_the_failure(s, e));
        }
        if candidates.is_empty() {
            return (Place::rule(&self.rule), Vec::new());
        }
        // Each rule is tried with its piece elsewhere. Of the rules the program lets
        // the piece through in most often (more than half the tries, and two at
        // least), the place is the one with the shortest piece, then one whose
        // neighbour deletes or replaces a character rather than inserts one, then
        // the one nearest the failure, then the deepest, then the one taking it most
        // often; rules still tied are named by the rule holding them all. A larger
        // piece is let through for the same reason as a smaller one inside it (`a_:`
        // in a segment starts a reference whose scheme is `a_`), so the smallest
        // says most. An inserted character may split the piece into two of another
        // structure (`[::aaaaa]` mended as `[::a:aaaa]`, an `ls32`, as well as
        // `[::aaaa]`, an `h16`): the edit that takes back a character the program
        // let through says where it let it. Without such a rule, the rule most
        // neighbours name.
        let mut tried: Vec<Tried<'_>> = Vec::new();
        let mut seen: Vec<(&str, &str)> = Vec::new();
        for c in &candidates {
            let rule = c.place().rule.as_str();
            if seen.contains(&(rule, c.piece.as_str())) {
                continue;
            }
            seen.push((rule, c.piece.as_str()));
            let mut tries =
                self.transplants_read(rule, None, &c.piece, false, c.fails_after, TRIED_PLACES);
            // A piece that makes valid strings wherever the rule is put, or strings
            // the oracle reads it in another rule in (`a:` for a first segment
            // makes a scheme), is tried as its edit: the character its neighbour
            // took out put back at the same place of the rule elsewhere (`:` at
            // the end of another first segment, `~x:`). Not for the rule asked or
            // the one under it: they occur nowhere but in whole inputs.
            if tries.iter().filter(|(_, read, ..)| *read).count() < 2
                && c.piece.chars().count() > 1
                && c.chain.len() > 2
            {
                if let Some(back) = c.undone {
                    tries = self.tries_of(rule, None, back, false, false, TRIED_PLACES);
                }
            }
            let (answers, above): (Vec<(bool, bool)>, Vec<String>) = (tries.into_iter())
                .filter(|(t, ..)| t.as_str() != s)
                .filter_map(|(t, read, _, above)| says_valid(&t).map(|v| ((v, read), above)))
                .unzip();
            tried.push((c, answers, above));
        }
        let score = |answers: &mut dyn Iterator<Item = &(bool, bool)>| {
            let (n, yes) = answers.fold((0, 0), |(n, yes), a| (n + 1, yes + usize::from(a.0)));
            (n >= 2 && 2 * yes > n).then(|| yes as f64 / n as f64)
        };
        // A try where the oracle read the piece as something else counts for the
        // rule only when no rule above it, holding its piece, is let through: the
        // program may take the piece with what follows it as one (`:` for a
        // `reg-name` before a port's `:` makes `::`, let through as an `authority`'s
        // `@::`).
        let outer: Vec<&Candidate> = (tried.iter())
            .filter(|(_, answers, _)| score(&mut answers.iter()).is_some())
            .map(|(c, ..)| *c)
            .collect();
        let mut taken: Vec<(&Candidate, f64)> = Vec::new();
        for (c, answers, _) in &tried {
            let held = outer.iter().any(|o| holds(o, c));
            let own = score(&mut answers.iter().filter(|(_, read)| *read || !held));
            if let Some(v) = own {
                taken.push((c, v));
            }
        }
        // A rule under another let through with the same piece at the same place,
        // but less often, is not named: it lets the piece through where the outer
        // rule holds it (`#` for an `unreserved` of a path begins a fragment).
        // Nor is one that occurs outside the outer rule, but whose tries let
        // through all lie in it: they say nothing the outer rule's do not (`:` put
        // for an `unreserved` makes an invalid string only in a first segment).
        let all = taken.clone();
        let mut named_above: Vec<&Candidate> = Vec::new();
        for (c, v) in &all {
            let (_, answers, above) = (tried.iter())
                .find(|(d, ..)| std::ptr::eq(*d, *c))
                .expect("taken from the tried");
            let held = outer.iter().any(|o| holds(o, c));
            for (o, w) in &all {
                if !(holds(o, c) && o.start == c.start && o.piece == c.piece) {
                    continue;
                }
                let rule = o.place().rule.as_str();
                let under = |chain: &str| chain.split(' ').any(|r| r == rule);
                let only_under = (answers.iter().zip(above))
                    .filter(|((yes, read), _)| *yes && (*read || !held))
                    .all(|(_, chain)| under(chain));
                if w > v || (only_under && self.occurs_outside(&c.place().rule, rule)) {
                    named_above.push(c);
                    break;
                }
            }
        }
        taken.retain(|(c, _)| !named_above.iter().any(|a| std::ptr::eq(*a, *c)));
        // A neighbour with a character inserted may read the piece in another
        // structure than the program does (`//:a@` reads `:a` as a userinfo). Where
        // every rule inside such a candidate's rule, holding part of its piece, is
        // refused the piece, a larger piece around it is let through, and the
        // program answers the tries of all of them as a reader one character away
        // does ([`Placer::read_one_away`]), the program does not read the piece in
        // that rule: it reads the string another way.
        let all = taken.clone();
        let mut set_aside: Vec<&Candidate> = Vec::new();
        for (c, _) in all.iter().filter(|(c, _)| c.inserted) {
            let inside: Vec<&Candidate> = (tried.iter())
                .filter(|(d, answers, _)| answers.len() >= 2 && holds(c, d))
                .map(|(d, ..)| *d)
                .collect();
            if !inside.is_empty()
                && !(inside.iter()).any(|d| all.iter().any(|(e, _)| std::ptr::eq(*e, *d)))
                && (all.iter()).any(|(o, _)| holds(o, c) && o.piece.len() > c.piece.len())
                && self.read_one_away(s, c, &inside, says_valid)
            {
                set_aside.push(c);
            }
        }
        taken.retain(|(c, _)| !set_aside.iter().any(|a| std::ptr::eq(*a, *c)));
        let mut among: Vec<String> = Vec::new();
        for (c, _) in &taken {
            if !among.contains(&c.place().rule) {
                among.push(c.place().rule.clone());
            }
        }
        let key = |c: &Candidate| {
            (
                c.piece.chars().count(),
                c.inserted,
                c.distance,
                Reverse(c.chain.len()),
            )
        };
        if let Some(best) = taken.iter().map(|(c, _)| key(c)).min() {
            let tied: Vec<&(&Candidate, f64)> =
                taken.iter().filter(|(c, _)| key(c) == best).collect();
            let top = tied.iter().map(|(_, score)| *score).fold(0.0, f64::max);
            let chains = tied
                .iter()
                .filter(|(_, score)| *score == top)
                .map(|(c, _)| &c.chain);
            if let Some(p) = holding_them_all(chains) {
                return (p, among);
            }
        }
        let mut tally: Vec<(&Place, usize)> = Vec::new();
        for c in &candidates {
            match tally.iter_mut().find(|(q, _)| *q == c.place()) {
                Some((_, k)) => *k += 1,
                None => tally.push((c.place(), 1)),
            }
        }
        let most = tally.iter().map(|(_, k)| *k).max().unwrap_or(0);
        let place = (tally.into_iter())
            .find(|(_, k)| *k == most)
            .map_or_else(|| Place::rule(&self.rule), |(p, _)| p.clone());
        (place, among)
    }

    /// Whether the program reads `s` one character away from where candidate `c`
    /// reads it: it answers the tries of `c`'s piece, and of the pieces of the rules
    /// `inside` it, as a reader does that takes a string when deleting one
    /// character outside the piece makes it valid, a character whose deletion from
    /// `s` outside `c`'s piece makes `s` valid. A program reading `//` as the start
    /// of a path lets `:a` through wherever an `authority` is put, and `a` for a
    /// port only where deleting a `/` makes a path: not after `[::1]`. Each rule is
    /// tried in [`WIDE_PLACES`] places, and one of the inner tries at least must be
    /// let through and one refused.
    fn read_one_away(
        &mut self,
        s: &str,
        c: &Candidate,
        inside: &[&Candidate],
        says_valid: &mut dyn FnMut(&str) -> Option<bool>,
    ) -> bool {
        let (oracle, whole) = (self.oracle, self.rule.clone());
        let valid = |t: &str| oracle.matches(&whole, t).unwrap_or(false);
        let without =
            |t: &str, b: usize, ch: char| format!("{}{}", &t[..b], &t[b + ch.len_utf8()..]);
        let dropped: Vec<char> = (s.char_indices())
            .filter(|&(b, _)| b < c.start || b >= c.start + c.piece.len())
            .filter(|&(b, ch)| valid(&without(s, b, ch)))
            .map(|(_, ch)| ch)
            .collect();
        if dropped.is_empty() {
            return false;
        }
        let one_away = |t: &str, at: usize, piece: &str| {
            (t.char_indices())
                .filter(|&(b, ch)| (b < at || b >= at + piece.len()) && dropped.contains(&ch))
                .any(|(b, ch)| valid(&without(t, b, ch)))
        };
        let (mut taken, mut refused) = (false, false);
        for (k, d) in std::iter::once(&c).chain(inside).enumerate() {
            let rule = d.place().rule.clone();
            let tries =
                self.transplants_read(&rule, None, &d.piece, false, d.fails_after, WIDE_PLACES);
            for (t, read, at, _) in tries {
                if t == s || (k > 0 && !read) {
                    continue;
                }
                let Some(answer) = says_valid(&t) else {
                    continue;
                };
                if answer != one_away(&t, at, &d.piece) {
                    return false;
                }
                if k > 0 {
                    taken |= answer;
                    refused |= !answer;
                }
            }
        }
        taken && refused
    }

    /// The valid strings one edit from `s`, at the positions nearest `at` (where the
    /// oracle fails on it), each as the rule around its edit and the piece of `s`
    /// that rule spans with the edit undone.
    fn neighbours(&self, s: &str, at: usize) -> Vec<Candidate> {
        let chars: Vec<char> = s.chars().collect();
        let n = chars.len();
        let at = at.min(n);
        let mut out = Vec::new();
        // Every position of a short string; of a longer one, those near the failure.
        let reach = if n <= 24 { n } else { 4 };
        for distance in 0..=reach {
            let positions = [at.checked_sub(distance), at.checked_add(distance)];
            for p in positions.into_iter().flatten().filter(|&p| p <= n) {
                if distance == 0 && p != at {
                    continue;
                }
                let mut edits: Vec<Edit> =
                    self.alphabet.iter().map(|&c| Edit::Insert(p, c)).collect();
                if p < n {
                    edits.push(Edit::Delete(p));
                    edits.extend(
                        self.alphabet
                            .iter()
                            .filter(|&&c| c != chars[p])
                            .map(|&c| Edit::Replace(p, c)),
                    );
                }
                for e in edits {
                    let t = e.apply(&chars);
                    let Some(tree) = self.tree_if_valid(&t) else {
                        continue;
                    };
                    let tc: Vec<char> = t.chars().collect();
                    let path = match e {
                        Edit::Delete(q) => path_at_point(&tree, byte_of(&tc, q)),
                        Edit::Replace(q, c) | Edit::Insert(q, c) => {
                            let b = byte_of(&tc, q);
                            path_holding(&tree, b, b + c.len_utf8())
                        }
                    };
                    let path = self.past_core(&tree, path);
                    let node = node_at(&tree, &path);
                    // The node's span, in `s`: the edit undone.
                    let (start, end) = match e {
                        Edit::Delete(q) => (node.start, node.end + chars[q].len_utf8()),
                        Edit::Insert(_, c) => (
                            node.start,
                            node.end.saturating_sub(c.len_utf8()).max(node.start),
                        ),
                        Edit::Replace(q, c) => {
                            (node.start, node.end + chars[q].len_utf8() - c.len_utf8())
                        }
                    };
                    // An empty piece (a character inserted into an empty rule)
                    // holds nothing the program let through.
                    let Some(piece) = s.get(start..end).filter(|p| !p.is_empty()) else {
                        continue;
                    };
                    let undone = match e {
                        Edit::Delete(q) | Edit::Replace(q, _) => {
                            let at = byte_of(&chars, q);
                            let ch = chars[q];
                            Some(Put::Back {
                                ch,
                                from_start: at - start,
                                from_end: end - at - ch.len_utf8(),
                                replacing: matches!(e, Edit::Replace(..)),
                            })
                        }
                        Edit::Insert(..) => None,
                    };
                    out.push(Candidate {
                        chain: chain_to(&tree, &path),
                        piece: piece.to_string(),
                        start,
                        distance,
                        fails_after: false,
                        inserted: matches!(e, Edit::Insert(..)),
                        undone,
                    });
                }
            }
        }
        out
    }

    /// The rules the oracle was in where it failed on `s` (`e`), at a character,
    /// that hold the valid text before it (its parse tree's rules that end there),
    /// each with its text and that character: a program taking `::` as a host lets
    /// `@::` through in the `authority` the oracle reads `//@:` with.
    fn around_the_failure(&self, s: &str, e: &OracleError) -> Vec<Candidate> {
        let Some(found) = e.found else {
            return Vec::new();
        };
        let end = e.byte_offset.min(s.len());
        let Ok(tree) = self.oracle.tree_of_every_rule(&self.rule, &s[..end]) else {
            return Vec::new();
        };
        let within: Vec<&str> = e.rule.iter().chain(&e.within).map(String::as_str).collect();
        let mut out = Vec::new();
        let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
        while let Some(path) = stack.pop() {
            let n = node_at(&tree, &path);
            for (k, c) in n.children.iter().enumerate() {
                if c.end == end {
                    let mut p = path.clone();
                    p.push(k);
                    stack.push(p);
                }
            }
            if !path.is_empty() && !self.is_core(&n.rule) && within.contains(&n.rule.as_str()) {
                out.push(Candidate {
                    chain: chain_to(&tree, &path),
                    piece: s[n.start..end + found.len_utf8()].to_string(),
                    start: n.start,
                    distance: 0,
                    fails_after: false,
                    inserted: false,
                    undone: None,
                });
            }
        }
        out
    }

    /// Whether some string of `rule` begins with `piece`: the rule matches it, or
    /// fails on it only where it ends.
    fn begins(&self, rule: &str, piece: &str) -> bool {
        self.oracle.matches(rule, piece).unwrap_or(false)
            || (self.oracle.explain(rule, piece))
                .is_ok_and(|e| e.found.is_none() && e.byte_offset == piece.len())
    }

    /// The rule the oracle was in where it failed on `s` (`e`), with the pieces of
    /// `s` that end there: a program taking a lone `%` lets it through in
    /// `pct-encoded`, which no valid string one edit away holds (`%` needs two
    /// more). Only the pieces the rule can begin with, and tried only where the
    /// oracle fails just after the piece: the rule began with it (`/[` and `##` fail
    /// where a `pct-encoded` could begin, but none did: neither `/` nor `#` begins
    /// one).
    fn where_it_failed(&self, s: &str, e: &OracleError) -> Vec<Candidate> {
        let mut rules: Vec<&str> = e.rule.iter().chain(&e.within).map(String::as_str).collect();
        while rules.first().is_some_and(|r| self.is_core(r)) {
            rules.remove(0);
        }
        let chain: Vec<Place> = rules.iter().rev().map(|r| Place::rule(r)).collect();
        if chain.len() < 2 {
            return Vec::new();
        }
        let end = e.byte_offset.min(s.len());
        let rule = rules[0];
        (s[..end].char_indices().rev().take(8))
            .filter(|&(k, _)| self.begins(rule, &s[k..end]))
            .map(|(k, _)| Candidate {
                chain: chain.clone(),
                piece: s[k..end].to_string(),
                start: k,
                distance: 0,
                fails_after: true,
                inserted: false,
                undone: None,
            })
            .collect()
    }
}

/// A rule an accepted invalid string may part from the grammar in, and the piece of
/// the string to try it with ([`Placer::accepted`]).
#[derive(Debug)]
struct Candidate {
    /// The rules from the root to it.
    chain: Vec<Place>,
    /// The piece of the string it spans.
    piece: String,
    /// Where the piece starts in the string (a byte offset).
    start: usize,
    /// How far its edit is from where the oracle fails.
    distance: usize,
    /// Whether, where it is tried, the oracle must fail just after the piece.
    fails_after: bool,
    /// Whether its neighbour has a character inserted: one that splits the piece
    /// (`a:aaaa` for `aaaaa`) makes a structure the program did not read, where a
    /// character deleted or replaced undoes what it let through.
    inserted: bool,
    /// For a neighbour with a character deleted or replaced: that character put
    /// back, as far from the start or the end of the piece as it was.
    undone: Option<Put<'static>>,
}

impl Candidate {
    fn place(&self) -> &Place {
        self.chain.last().expect("the root at least")
    }
}

/// A candidate tried: its answers (let through, read in the rule) and the rules
/// above the place of each.
type Tried<'c> = (&'c Candidate, Vec<(bool, bool)>, Vec<String>);

/// Whether candidate `o` holds `c`: its rule is above `c`'s on `c`'s chain, and its
/// piece holds `c`'s, at the same place.
fn holds(o: &Candidate, c: &Candidate) -> bool {
    o.chain.len() < c.chain.len()
        && o.chain.iter().zip(&c.chain).all(|(a, b)| a.rule == b.rule)
        && o.start <= c.start
        && c.start + c.piece.len() <= o.start + o.piece.len()
}

/// The deepest place all `chains` share, by rule name: the same rule may have taken
/// different alternatives in different neighbours (then it has none).
fn holding_them_all<'c>(mut chains: impl Iterator<Item = &'c Vec<Place>>) -> Option<Place> {
    let mut common: Vec<Place> = chains.next()?.clone();
    for c in chains {
        let k = common
            .iter()
            .zip(c)
            .take_while(|(a, b)| a.rule == b.rule)
            .count();
        common.truncate(k);
        for (a, b) in common.iter_mut().zip(c) {
            if a.alternative != b.alternative {
                a.alternative = None;
            }
        }
    }
    common.pop()
}

/// The rule of a component, in `variant`'s names (`port`, `ihost`, `path`): where a
/// program that gives it differently parts from the grammar.
pub fn component_place(
    component: iri_grammar::Component,
    variant: iri_grammar_abnf::VariantName,
) -> Place {
    use iri_grammar::Component as C;
    let iri_name = match component {
        C::Scheme => "scheme",
        C::Authority => "iauthority",
        C::Userinfo => "iuserinfo",
        C::Host => "ihost",
        C::Port => "port",
        C::Path => "ipath",
        C::Query => "iquery",
        C::Fragment => "ifragment",
    };
    Place::rule(&iri_grammar_abnf::name_in(iri_name, variant))
}

#[cfg(test)]
mod tests;
