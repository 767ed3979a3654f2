//! Test strings from the grammar: random strings that match a rule, and near misses.
//!
//! The [`Generator`] walks a rule's ABNF (RFC 5234) and makes a random choice at every
//! alternation (§3.2), repetition (§3.6, §3.7) and value range (§3.4), with a bias
//! toward the places where parsers go wrong: empty and maximal repetitions (`6( h16
//! ":" )`, `1*4HEXDIG` at four), the first and last code points of each range and their
//! neighbours, non-BMP characters and the characters only LEIRIs allow. Quoted strings
//! (§2.3) come out in random case, as they match either. Every string it generates
//! matches the rule ([`crate::oracle::Oracle`] agrees; the tests check it).
//!
//! [`Generator::mutate`] then makes near misses: one (sometimes two or three) inserted,
//! deleted, replaced or swapped characters, the new characters drawn mostly from those
//! just outside the grammar's ranges, the delimiters, and unusual code points.
//!
//! The random numbers come from a generator written out in `rng.rs`, so that a seed
//! gives the same strings on every platform.

mod lengths;
mod near;
mod rng;
mod shortest;
mod walk;

use crate::model::table::{Expr, Table};
use crate::model::UnknownRule;
use crate::{Grammars, VariantName};
use lengths::{fixed_point, height_of, length_of, why_empty};
use rng::{collect_edges, Rng, ALWAYS_INTERESTING};
use shortest::Shortest;
use std::fmt;
use walk::{Plan, Walk};

/// A grammar-driven generator of matching strings and near misses for one grammar.
///
/// ```
/// use iri_grammar_abnf::{strings::generate::Generator, oracle::Oracle, Grammars, VariantName};
/// let g = Grammars::builtin();
/// let mut gen = Generator::new(&g, VariantName::Iri, 42);
/// let oracle = Oracle::new(&g, VariantName::Iri);
/// for _ in 0..10 {
///     let s = gen.generate("IRI").unwrap();
///     assert!(oracle.matches("IRI", &s).unwrap(), "{s:?}");
///     let _near_miss = gen.mutate(&s);
/// }
/// assert!(gen.generate("no-such-rule").is_err());
/// ```
#[derive(Debug, Clone)]
pub struct Generator<'g> {
    table: Table<'g>,
    rng: Rng,
    /// Whether each rule has a string of at most [`MAX_LENGTH`] characters (prose
    /// matches nothing; `1000000000"a"` has none that short).
    generable: Vec<bool>,
    /// The length of each rule's shortest string (`u64::MAX`: none).
    shortest: Vec<u64>,
    /// The height of each rule's shortest derivation (`u32::MAX`: none), which a
    /// recursive grammar's walk follows when it gets deep.
    height: Vec<u32>,
    /// Characters for mutations: the grammar's range edges and their neighbours,
    /// plus [`ALWAYS_INTERESTING`]; sorted, so that the order never depends on hashing.
    interesting: Vec<char>,
    /// What the walk decides at each alternation and repetition of the table, found
    /// once ([`Plan`]).
    plan: Plan,
    /// The most steps one string may take ([`Generator::with_steps`]).
    steps: u64,
    /// The steps taken by the strings drawn so far ([`Generator::steps_taken`]).
    taken: u64,
    /// How repetition counts are drawn ([`Generator::with_counts`]).
    counts: Counts,
}

/// How a generator draws the count of a repetition (RFC 5234 §3.6, `min*max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Counts {
    /// Drawn in `min..=max`, the bounds more often than the rest.
    #[default]
    Drawn,
    /// The most a bounded repetition allows (`4` for `1*4HEXDIG`, `6` for
    /// `*6( h16 ":" )`): valid strings at the upper bound, where a program that
    /// stops one early refuses them. Unbounded repetitions are drawn.
    Most,
    /// One bounded repetition in four drawn one past its most (`5` for
    /// `1*4HEXDIG`), the others drawn: near misses where a program that stops one
    /// late accepts them.
    OnePast,
}

impl<'g> Generator<'g> {
    /// A generator for `grammars.table(variant)`; the same seed gives the same strings.
    pub fn new(grammars: &'g Grammars, variant: VariantName, seed: u64) -> Generator<'g> {
        Generator::from_table(Table::new(grammars, variant), seed)
    }

    fn from_table(table: Table<'g>, seed: u64) -> Generator<'g> {
        // The length of each rule's shortest string, and whether it is short enough.
        let shortest = fixed_point(&table, u64::MAX, length_of, |new, old| new < old);
        let generable: Vec<bool> = shortest.iter().map(|&l| l <= MAX_LENGTH).collect();
        // The shortest derivation's height.
        let height = fixed_point(
            &table,
            u32::MAX,
            |node, v| height_of(node, v).saturating_add(1),
            |new, old| new < old,
        );
        let mut interesting: Vec<char> = ALWAYS_INTERESTING.to_vec();
        for node in &table.nodes {
            collect_edges(node, &mut interesting);
        }
        interesting.sort_unstable();
        interesting.dedup();
        let plan = Plan::new(&table, &shortest, &height);
        Generator {
            table,
            rng: Rng::new(seed),
            generable,
            shortest,
            height,
            interesting,
            plan,
            steps: MAX_STEPS,
            taken: 0,
            counts: Counts::Drawn,
        }
    }

    /// The steps [`Generator::generate`] has taken so far, over every string drawn
    /// (one past the budget included): what drawing cost, for a caller with a
    /// budget of its own.
    pub fn steps_taken(&self) -> u64 {
        self.taken
    }

    /// The same generator with a budget of `steps` steps for each string drawn
    /// (default [`MAX_STEPS`]): past it, [`Generator::generate`] says so
    /// ([`DrawError::Budget`]) instead of going on.
    ///
    /// ```
    /// use iri_grammar_abnf::{strings::generate::{DrawError, Generator}, Grammar};
    /// let g = Grammar::from_abnf(&[("r.abnf", "r = 64( 64( 64( 64( *\"a\" ) ) ) )\n")]).unwrap();
    /// let mut gen = Generator::of(&g, 1).with_steps(10_000);
    /// assert!(matches!(gen.generate("r"), Err(DrawError::Budget { steps: 10_000, .. })));
    /// ```
    #[must_use]
    pub fn with_steps(mut self, steps: u64) -> Generator<'g> {
        self.steps = steps;
        self
    }

    /// The generator drawing repetition counts as `counts` says ([`Counts`]).
    #[must_use]
    pub fn with_counts(mut self, counts: Counts) -> Generator<'g> {
        self.counts = counts;
        self
    }

    /// A generator for a grammar read from ABNF files ([`crate::Grammar`]).
    pub fn of(grammar: &'g crate::Grammar, seed: u64) -> Generator<'g> {
        Generator::from_table(grammar.table(), seed)
    }

    /// The built-in grammar this generator draws from (`None` for a [`crate::Grammar`]).
    pub fn variant(&self) -> Option<VariantName> {
        self.table.variant
    }

    /// A random string that matches `rule` (names as for
    /// [`Oracle::rule`](crate::oracle::Oracle::rule), so `LEIRI-reference` under LEIRI).
    ///
    /// Over many calls every alternative and every repetition count up to the bound
    /// (or [`MAX_EXTRA`] beyond the minimum) is drawn; unbounded repetitions are
    /// usually short (0 to 3 beyond the minimum) and sometimes up to 12. Once the
    /// string is [`MAX_LENGTH`] characters long, the rest is drawn as short as the
    /// grammar allows. A rule whose shortest string is longer than [`MAX_LENGTH`]
    /// ([`Generator::shortest`] says) yields the empty string.
    ///
    /// ```
    /// use iri_grammar_abnf::{strings::generate::{DrawError, Generator}, Grammar};
    /// let g = Grammar::from_abnf(&[("e.abnf", "r = \"a\" r\ns = <anything>\n")]).unwrap();
    /// let mut gen = Generator::of(&g, 1);
    /// let e = gen.generate("r").unwrap_err();
    /// assert!(matches!(e, DrawError::Empty { .. }));
    /// assert!(e.to_string().starts_with("the language of rule r is empty: "), "{e}");
    /// ```
    ///
    /// # Errors
    /// [`DrawError::Unknown`] if the grammar has no such rule or it refers to one it
    /// lacks; [`DrawError::Empty`] if the rule's language is empty (no derivation of
    /// it ends: prose, a range of surrogates only, a cycle without a base case; no
    /// rule of the built-in grammars is such); [`DrawError::Budget`] if the string
    /// took more than the generator's steps ([`Generator::with_steps`]).
    pub fn generate(&mut self, rule: &str) -> Result<String, DrawError> {
        let k = self.table.resolve(rule)?;
        if self.shortest[k] == u64::MAX {
            return Err(DrawError::Empty {
                rule: self.table.shown_name(k),
                why: why_empty(&self.table, k, &self.shortest),
            });
        }
        let mut out = String::new();
        if self.generable[k] {
            let table = &self.table;
            let mut walk = Walk {
                table,
                shortest: &self.shortest,
                height: &self.height,
                plan: &self.plan,
                depth: 0,
                steps: self.steps,
                rng: &mut self.rng,
                counts: self.counts,
            };
            let walked = walk.node(&table.nodes[k], &mut out);
            let left = walk.steps;
            self.taken = self.taken.saturating_add(self.steps - left);
            if walked.is_err() {
                return Err(DrawError::Budget {
                    rule: self.table.shown_name(k),
                    steps: self.steps,
                });
            }
        }
        Ok(out)
    }

    /// The length in characters of the shortest string of `rule` (`None`: it has
    /// none), found without drawing one: repetition bounds are multiplied, never
    /// counted out.
    ///
    /// ```
    /// use iri_grammar_abnf::{strings::generate::{Generator, MAX_LENGTH}, Grammar};
    /// let g = Grammar::from_abnf(&[("r.abnf", "r = 1000000000*1000000000\"a\" / 2( \"b\" r )\n")])
    ///     .unwrap();
    /// let mut gen = Generator::of(&g, 1);
    /// assert_eq!(gen.shortest("r").unwrap(), Some(1_000_000_000));
    /// assert!(gen.shortest("r").unwrap() > Some(MAX_LENGTH));
    /// assert_eq!(gen.generate("r").unwrap(), "");
    /// ```
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar has no such rule or it refers to one it lacks.
    pub fn shortest(&self, rule: &str) -> Result<Option<u64>, UnknownRule> {
        let k = self.table.resolve(rule)?;
        Ok(Some(self.shortest[k]).filter(|&l| l != u64::MAX))
    }

    /// A random string that matches `rule` and whose derivation goes through
    /// alternative `alternative` (0-based) of the rule `through`: at every choice on
    /// the way (alternation, repetition, which item of a concatenation leads there),
    /// one that can reach `through` is taken; everything else is drawn as
    /// [`Generator::generate`] draws it. `None` if `through` cannot be reached from
    /// `rule`, or `alternative` is not one of its alternatives.
    ///
    /// The derivation is one of the ABNF's; whether the parse the combinators take
    /// (first match) goes the same way is for the caller to check with a tree.
    ///
    /// ```
    /// use iri_grammar_abnf::{strings::generate::Generator, oracle::Oracle, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let mut gen = Generator::new(&g, VariantName::Uri, 1);
    /// let s = gen.generate_through("URI", "IPv6address", 5).unwrap().unwrap();
    /// assert!(Oracle::new(&g, VariantName::Uri).matches("URI", &s).unwrap());
    /// assert!(s.contains("::"), "{s}");
    /// assert_eq!(gen.generate_through("IPv6address", "URI", 0).unwrap(), None);
    /// // Through a rule's own alternative: HEXDIG = DIGIT / "A" / "B" / ... / "F".
    /// for _ in 0..20 {
    ///     let b = gen.generate_through("HEXDIG", "HEXDIG", 2).unwrap().unwrap();
    ///     assert!(b.eq_ignore_ascii_case("B"), "{b}");
    /// }
    /// ```
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar lacks `rule` or `through`.
    pub fn generate_through(
        &mut self,
        rule: &str,
        through: &str,
        alternative: usize,
    ) -> Result<Option<String>, UnknownRule> {
        let k = self.table.resolve(rule)?;
        let t = self.table.resolve(through)?;
        let alternatives = match &self.table.nodes[t] {
            Expr::Alt(alts) => alts.len(),
            _ => 1,
        };
        if alternative >= alternatives {
            return Ok(None);
        }
        // reach[r]: rule r is `through` or refers to it, directly or not.
        let n = self.table.rules.len();
        let mut reach = vec![false; n];
        reach[t] = true;
        loop {
            let mut changed = false;
            for r in 0..n {
                if !reach[r] && self.generable[r] && reaches(&self.table.nodes[r], &reach) {
                    reach[r] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        if !reach[k] {
            return Ok(None);
        }
        let table = &self.table;
        let mut walk = Walk {
            table,
            shortest: &self.shortest,
            height: &self.height,
            plan: &self.plan,
            depth: 0,
            steps: self.steps,
            rng: &mut self.rng,
            counts: self.counts,
        };
        let mut out = String::new();
        // The rule is the one to go through (a cover of `HEXDIG` by its own
        // alternatives): the alternative itself. Walked from the rule's definition,
        // the choice would be drawn at random, as nothing below it leads to it.
        if k == t {
            let chosen = match &table.nodes[t] {
                Expr::Alt(alts) => &alts[alternative],
                other => other,
            };
            return Ok(walk.node(chosen, &mut out).ok().map(|()| out));
        }
        let target = Through {
            rule: t,
            alternative,
            reach: &reach,
        };
        Ok(walk
            .through(&table.nodes[k], &target, &mut out, 0)
            .ok()
            .map(|()| out))
    }

    /// The shortest string of `rule` whose derivation goes through alternative
    /// `alternative` (0-based) of the rule `through`, made without drawing: at every
    /// choice the way that costs fewest characters (the first of equals), every
    /// range its first character, every quoted string as written. Its length is the
    /// least any such derivation has, so no string whose tree takes that
    /// alternative is shorter. `None` if `through` cannot be reached from `rule`,
    /// `alternative` is not one of its alternatives, or the shortest such string is
    /// longer than [`MAX_LENGTH`].
    ///
    /// Whether the parse the combinators take (first match) goes the same way is
    /// for the caller to check with a tree, as for
    /// [`Generator::generate_through`].
    ///
    /// ```
    /// use iri_grammar_abnf::{strings::generate::Generator, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let gen = Generator::new(&g, VariantName::Uri, 0);
    /// assert_eq!(gen.shortest_through("dec-octet", "dec-octet", 3).unwrap().as_deref(), Some("200"));
    /// assert_eq!(gen.shortest_through("URI-reference", "IPv6address", 8).unwrap().as_deref(), Some("//[::]"));
    /// assert_eq!(gen.shortest_through("IPv6address", "URI", 0).unwrap(), None);
    /// ```
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar lacks `rule` or `through`.
    pub fn shortest_through(
        &self,
        rule: &str,
        through: &str,
        alternative: usize,
    ) -> Result<Option<String>, UnknownRule> {
        let k = self.table.resolve(rule)?;
        let t = self.table.resolve(through)?;
        Ok(Shortest::new(&self.table, t, alternative).and_then(|s| s.string(k)))
    }

    /// A near miss of `s` made of exactly `edits` edits (each as [`Generator::mutate`]
    /// makes them); not guaranteed to fail.
    pub fn mutate_by(&mut self, s: &str, edits: usize) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        for _ in 0..edits {
            self.edit(&mut chars);
        }
        chars.into_iter().collect()
    }

    /// A near miss of `s`: usually one edit (insert, delete, replace or swap one
    /// character; sometimes duplicate or drop a short run), sometimes two or three.
    /// New characters are mostly "interesting" ones: those just inside and just outside
    /// the grammar's ranges, delimiters, space, controls, non-ASCII, non-BMP, private
    /// use, bidi controls; otherwise a character of `s` or a random one.
    ///
    /// The result may still match the rule `s` came from; it is a test case, not a
    /// guaranteed failure.
    pub fn mutate(&mut self, s: &str) -> String {
        let mut chars: Vec<char> = s.chars().collect();
        let edits = match self.rng.below(10) {
            0 => 3,
            1 | 2 => 2,
            _ => 1,
        };
        for _ in 0..edits {
            self.edit(&mut chars);
        }
        chars.into_iter().collect()
    }

    fn edit(&mut self, chars: &mut Vec<char>) {
        let len = chars.len() as u64;
        let op = if len == 0 { 0 } else { self.rng.below(100) };
        match op {
            // Insert.
            0..=29 => {
                let at = self.rng.below(len + 1) as usize;
                let c = self.new_char(chars);
                chars.insert(at, c);
            }
            // Delete.
            30..=51 => {
                chars.remove(self.rng.below(len) as usize);
            }
            // Replace.
            52..=81 => {
                let at = self.rng.below(len) as usize;
                chars[at] = self.new_char(chars);
            }
            // Swap two neighbours (or a character with itself when there is one).
            82..=91 => {
                let at = self.rng.below(len) as usize;
                let other = (at + 1).min(chars.len() - 1);
                chars.swap(at, other);
            }
            // Duplicate a short run in place ("1.2.3.4" → "1.2.3.3.4").
            92..=96 => {
                let at = self.rng.below(len) as usize;
                let end = (at + 1 + self.rng.below(4) as usize).min(chars.len());
                let run: Vec<char> = chars[at..end].to_vec();
                let mut tail = chars.split_off(end);
                chars.extend(run);
                chars.append(&mut tail);
            }
            // Drop a short run.
            _ => {
                let at = self.rng.below(len) as usize;
                let end = (at + 1 + self.rng.below(4) as usize).min(chars.len());
                chars.drain(at..end);
            }
        }
    }

    fn new_char(&mut self, current: &[char]) -> char {
        match self.rng.below(100) {
            0..=59 => *self.rng.pick(&self.interesting),
            60..=74 if !current.is_empty() => *self.rng.pick(current),
            60..=89 => char::from(self.rng.between(0x20, 0x7E) as u8),
            _ => loop {
                if let Some(c) = char::from_u32(self.rng.below(0x11_0000) as u32) {
                    break c;
                }
            },
        }
    }
}

/// Whether `node` can lead to a rule marked in `reach`.
fn reaches(node: &Expr, reach: &[bool]) -> bool {
    match node {
        Expr::Alt(items) | Expr::Cat(items) => items.iter().any(|n| reaches(n, reach)),
        Expr::Rep { max, node, .. } => *max != Some(0) && reaches(node, reach),
        Expr::Rule(k) => reach[*k],
        _ => false,
    }
}

/// Where [`Generator::generate_through`] must go: a rule, one of its alternatives,
/// and the rules that lead there.
struct Through<'r> {
    rule: usize,
    alternative: usize,
    reach: &'r [bool],
}

/// How deep the walk goes before it takes the shortest way out: far beyond the
/// built-in grammars (about 12 rules deep), so that only recursion reaches it.
const DEEP: u32 = 40;

/// The longest string the generator draws, in characters: a rule whose shortest
/// string is longer yields none, and once a string is this long the rest of it is
/// drawn as short as the grammar allows. A grammar is untrusted input (SECURITY.md
/// item 9): `1000000000*1000000000"a"` would otherwise draw a billion characters.
/// The built-in grammars' strings are a few hundred characters at most.
pub const MAX_LENGTH: u64 = 1 << 16;

/// How far beyond its minimum a bounded repetition count is drawn: `*1000000000"a"`
/// draws 0 to 64 of them, not up to a billion. The built-in grammars' bounds are
/// at most 6 beyond their minimum, which this leaves as they were.
pub const MAX_EXTRA: u32 = 64;

/// How many steps one string may take by default ([`Generator::with_steps`]): a
/// step is an element drawn or a character written. A string of the built-in
/// grammars takes at most a few thousand; a grammar is untrusted input, and
/// `r = 64( 64( 64( 64( 64( 64( *"a" ) ) ) ) ) )` would take 64^6 steps to draw
/// the empty string.
pub const MAX_STEPS: u64 = 1 << 24;

/// Why [`Generator::generate`] draws no string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DrawError {
    /// The grammar has no such rule, or the rule refers to one it lacks.
    Unknown(UnknownRule),
    /// The rule's language is empty: no derivation of it ends.
    Empty {
        /// The rule asked for.
        rule: String,
        /// Why, in the grammar's words: the element that has no string, and the
        /// rules that lead to it.
        why: String,
    },
    /// Drawing a string took more than the generator's budget.
    Budget {
        /// The rule asked for.
        rule: String,
        /// The budget, in steps ([`Generator::with_steps`]).
        steps: u64,
    },
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::Unknown(e) => e.fmt(f),
            DrawError::Empty { rule, why } => {
                write!(f, "the language of rule {rule} is empty: {why}")
            }
            DrawError::Budget { rule, steps } => write!(
                f,
                "drawing a string of rule {rule} took more than the generator's budget of \
                 {steps} steps (an element drawn or a character written is a step)"
            ),
        }
    }
}

impl std::error::Error for DrawError {}

impl From<UnknownRule> for DrawError {
    fn from(e: UnknownRule) -> DrawError {
        DrawError::Unknown(e)
    }
}

#[cfg(test)]
mod tests;
