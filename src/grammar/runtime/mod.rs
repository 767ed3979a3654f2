//! The ABNF operators as nom parsers: what the generated combinators are made of.
//! This module holds what every parser shares (the failure, the nodes, the [`Mode`]
//! trait); `modes` the four modes, `operators` the ABNF constructs, `lookahead` the
//! tests of what may follow and the scans of character classes.
//!
//! Each ABNF construct of RFC 5234 has one parser type here: [`Lit`] (quoted
//! string, case-insensitive, §2.3), [`Range`] (`%x41-5A`, §3.4), [`Cat`]
//! (concatenation, §3.1), [`Alt`] (alternation, §3.2), [`Repeat`] and [`Opt`]
//! (repetition and `[ ]`, §3.6-3.8), plus those that make the ordered translation
//! exact and fast: [`Ahead`] (accept a match only if the next character can
//! follow it), [`Scan`] (a run of a character class, by table lookup) and
//! [`Delimited`] (`*( "/" isegment )` in one loop, for a rule that is such a run).
//!
//! Every parser is generic over a [`Mode`], which says what a successful match
//! produces: nothing ([`Check`], for validation: no allocation), rule nodes
//! ([`Tree`]), or the farthest failure seen on the way ([`Explain`], for error
//! messages). Check's and Explain's outputs are values, so backtracking simply drops
//! them; Tree's are ranges of an arena, which an attempt that fails is cut back from
//! ([`Mode::mark`] and [`Mode::rewind`], which the operators here call).
//!
//! Positions are kept as the length of the remaining input (`rem`), which nom's
//! `&str` slices give for free; the caller turns them into offsets.
//!
//! The generated combinators are ordinary nom parsers (`fn(&str) -> IResult<..>`),
//! so they compose with nom's own; the public face of this module is
//! [`crate::combinators`], which shows how. In [`Tree`] mode, a nom combinator that
//! backtracks (`alt`, `opt`, `many0`) does not cut the arena back: wrap what it tries
//! in a mark and a rewind, or only a successful match's range of the arena means
//! anything.

use super::automaton::{scan_table, skip_ascii, ScanTable};
use super::generated::Rule;
use super::Variant;
use alloc::boxed::Box;
use alloc::vec::Vec;
/// What may come next (shared with the generator, which writes these constants).
pub use iri_grammar_contract::Set;
use nom::error::{ErrorKind, ParseError};
use nom::{Err, IResult};

mod lookahead;
mod modes;
mod operators;

pub use lookahead::*;
pub use modes::*;
pub use operators::*;

/// The result of every combinator: the rest of the input and the mode's output.
pub type PResult<'a, M> = IResult<&'a str, <M as Mode>::Out, Failure>;

/// No upper bound on a repetition (`*` in ABNF).
pub const INF: u32 = u32::MAX;

/// What the grammar expected where a match failed, for error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expected {
    /// A rule.
    Rule(Rule),
    /// A quoted string (case-insensitive).
    Lit(&'static str),
    /// A code point range, `%xLO-HI`.
    Range(u32, u32),
    /// Other ABNF text.
    Abnf(&'static str),
    /// One of the characters (or the end) that may follow a match ([`Ahead`]).
    Follow(&'static Set),
    /// The end of the input.
    End,
}

/// The farthest failure of a match: where, what was expected, inside which rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diag {
    /// The remaining input length where it failed.
    pub rem: usize,
    /// The alternatives that would have gone on, each with the innermost rule that
    /// expected it (`None`: expected at the top, outside any rule).
    pub expected: Vec<(Expected, Option<Rule>)>,
    /// The rules being matched there, innermost first.
    pub rules: Vec<Rule>,
}

#[cfg(feature = "std")]
std::thread_local! {
    /// Failures a merge dropped, emptied, for [`Diag::boxed`] to fill again: an
    /// explanation makes and drops a few failures at its farthest place, and each
    /// is a box and two vectors, three allocations a failure without these. The
    /// boxes are kept, not their contents: the box is what a failure is made in.
    #[allow(clippy::vec_box)]
    static SPARE: core::cell::RefCell<Vec<Box<Diag>>> = const {
        core::cell::RefCell::new(Vec::new())
    };
}

impl Diag {
    /// How many dropped failures a thread keeps for the next ones.
    #[cfg(feature = "std")]
    const SPARES: usize = 32;

    /// A failure at `rem` where `expected` would have gone on, in the room of one
    /// dropped before ([`Diag::recycle`]) where there is one.
    pub(crate) fn boxed(rem: usize, expected: &[Expected]) -> Box<Diag> {
        #[cfg(feature = "std")]
        if let Some(mut d) = SPARE.try_with(|s| s.borrow_mut().pop()).ok().flatten() {
            d.rem = rem;
            d.expected.extend(expected.iter().map(|&e| (e, None)));
            return d;
        }
        // Room for what merges and the rules around usually add: a vector grown
        // item by item reallocates at 1, 2, 4 and 8, and most failures that reach
        // the explanation are left by four rules or more.
        let mut owned = Vec::with_capacity(expected.len() + 4);
        owned.extend(expected.iter().map(|&e| (e, None)));
        Box::new(Diag {
            rem,
            expected: owned,
            rules: Vec::with_capacity(8),
        })
    }

    /// A failure done with, emptied and kept for [`Diag::boxed`] (with `std`; else
    /// dropped).
    pub(crate) fn recycle(d: Box<Diag>) {
        #[cfg(feature = "std")]
        {
            let mut d = d;
            d.expected.clear();
            d.rules.clear();
            let _ = SPARE.try_with(|s| {
                let mut s = s.borrow_mut();
                if s.len() < Diag::SPARES {
                    s.push(d);
                }
            });
        }
        #[cfg(not(feature = "std"))]
        drop(d);
    }

    /// The failure leaves `rule`: expectations not yet owned by a rule are its own.
    fn leave(&mut self, rule: Rule) {
        for (_, owner) in self.expected.iter_mut() {
            if owner.is_none() {
                *owner = Some(rule);
            }
        }
        self.rules.push(rule);
    }

    /// Keeps the farther failure; at the same place, unites what was expected.
    /// Inlined where one side is none (most merges, where [`Explain`] keeps only
    /// the farthest failures), a call where both are failures.
    #[inline(always)]
    fn merge(a: Option<Box<Diag>>, b: Option<Box<Diag>>) -> Option<Box<Diag>> {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) => Some(Diag::merge_both(a, b)),
        }
    }

    /// [`Diag::merge`] of two failures.
    #[inline(never)]
    fn merge_both(a: Box<Diag>, b: Box<Diag>) -> Box<Diag> {
        if a.rem < b.rem {
            Diag::recycle(b);
            a
        } else if b.rem < a.rem {
            Diag::recycle(a);
            b
        } else {
            let (mut deep, mut shallow) = if a.rules.len() >= b.rules.len() {
                (a, b)
            } else {
                (b, a)
            };
            for e in shallow.expected.drain(..) {
                if !deep.expected.contains(&e) {
                    deep.expected.push(e);
                }
            }
            Diag::recycle(shallow);
            deep
        }
    }
}

/// The nom error type of the combinators. In [`Check`] and [`Tree`] mode it is
/// just a position; in [`Explain`] mode it carries a [`Diag`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The remaining input length where it failed.
    pub rem: usize,
    /// The explanation, in [`Explain`] mode.
    pub diag: Option<Box<Diag>>,
}

impl Failure {
    fn merge(a: Failure, b: Failure) -> Failure {
        Failure {
            rem: a.rem.min(b.rem),
            diag: Diag::merge(a.diag, b.diag),
        }
    }
}

impl<'a> ParseError<&'a str> for Failure {
    fn from_error_kind(input: &'a str, _kind: ErrorKind) -> Self {
        Failure {
            rem: input.len(),
            diag: None,
        }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
    fn or(self, other: Self) -> Self {
        Failure::merge(self, other)
    }
}

/// A node of a parse tree as [`Tree`] mode writes it into its arena, in pre-order
/// (a node before its children); positions are remaining lengths (see the module
/// doc), in 32 bits: trees are for inputs under 4 GiB (`tree_of` refuses longer ones),
/// and a node takes 20 bytes, not 32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawNode {
    /// The rule.
    pub rule: Rule,
    /// Remaining length at the start.
    pub start_rem: u32,
    /// Remaining length at the end.
    pub end_rem: u32,
    /// How many nodes its subtree has, itself included: the subtree is the `size`
    /// nodes of the arena that start with this one.
    pub size: u32,
    /// Which alternative of the rule's definition matched, 1-based, and of how many,
    /// when the definition is an alternation (`IPv6address`: 6 of 9).
    pub alternative: Option<(u16, u16)>,
}

/// What a successful match produces; see the module doc.
pub trait Mode {
    /// The output of a successful match.
    type Out;
    /// Whether failures carry a [`Diag`].
    const EXPLAIN: bool;
    /// The output of matching nothing.
    fn empty() -> Self::Out;
    /// The output of two matches in sequence.
    fn join(a: Self::Out, b: Self::Out) -> Self::Out;
    /// What a rule's combinator notes when it starts, for [`Mode::node`] (a mode
    /// that writes nothing ahead needs nothing: `()`).
    type Open: Copy;
    /// A rule's combinator starts ([`Tree`] reserves the rule's node here, so that
    /// its nodes come in pre-order).
    fn open(rule: Rule) -> Self::Open;
    /// The output of a rule, opened with `open`, that matched from `start_rem` to
    /// `end_rem` with `inner` inside; `alternation` when its definition is one
    /// ([`Choice`], which has just told [`Mode::chose`] the alternative that matched).
    fn node(
        rule: Rule,
        open: Self::Open,
        start_rem: usize,
        end_rem: usize,
        inner: Self::Out,
        alternation: bool,
    ) -> Self::Out;
    /// A failure at `rem`, where one of `expected` was needed.
    fn fail(rem: usize, expected: &[Expected]) -> Failure;
    /// A success that ended because of failure `f` (the reason a repetition stopped).
    fn carry(out: Self::Out, f: Failure) -> Self::Out;
    /// A failure `f` after partial success `out` (which may carry a farther failure).
    fn fail_after(out: Self::Out, f: Failure) -> Failure;
    /// A failure leaving `rule`, which was tried at `start_rem`.
    fn exit_failed(rule: Rule, start_rem: usize, f: Failure) -> Failure;
    /// Where the output stands before an attempt that may fail, to [`Mode::rewind`]
    /// to (a mode whose outputs are values needs nothing: `()`).
    type Mark: Copy;
    /// The mark before an attempt.
    fn mark() -> Self::Mark;
    /// An attempt failed: what it wrote since `mark` is dropped.
    fn rewind(mark: Self::Mark);
    /// The alternative `k` (1-based) of the `of` alternatives of the rule being
    /// matched has matched ([`Choice`]).
    fn chose(k: u16, of: u16);
    /// Whether the mode records every step of the combinators ([`Trace`]). The
    /// combinators call [`Mode::step`] only under `if M::TRACE`, a constant: in every
    /// other mode the calls are compiled away, so validation pays nothing for them.
    const TRACE: bool = false;
    /// Records a step (called only when [`Mode::TRACE`]).
    #[inline(always)]
    fn step(_: Step) {}
}

/// One step of the combinators, as [`Trace`] mode records it: what a debugger of the
/// generated parser would show. Positions are remaining lengths (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// A rule's combinator is called ([`rule`]).
    Enter {
        /// The rule.
        rule: Rule,
        /// Where.
        rem: usize,
    },
    /// The rule matched `start_rem..end_rem`.
    Match {
        /// The rule.
        rule: Rule,
        /// Where it started.
        start_rem: usize,
        /// Where it ended.
        end_rem: usize,
    },
    /// The rule failed; `rem` is where the failure it returns was noted.
    Fail {
        /// The rule.
        rule: Rule,
        /// Where it started.
        start_rem: usize,
        /// Where it failed.
        rem: usize,
    },
    /// A rule's alternation ([`Choice`]) tries alternative `k` of `of` (RFC 5234
    /// §3.2; the combinators try them in order).
    Try {
        /// Which, 1-based.
        k: u16,
        /// Of how many.
        of: u16,
        /// Where.
        rem: usize,
    },
    /// Alternative `k` of `of` failed: the next is tried from `rem` again.
    Backtrack {
        /// Which, 1-based.
        k: u16,
        /// Of how many.
        of: u16,
        /// Where the alternative started, and the next one starts.
        rem: usize,
    },
    /// A terminal (quoted string, range, class, end of input) did not match at `rem`.
    Expected {
        /// Where.
        rem: usize,
        /// What would have matched.
        expected: Vec<Expected>,
    },
    /// [`Ahead`]: a match ended at `rem`, and what comes next may follow it (the match
    /// is kept) or may not (it is given up, and the alternation goes on).
    Ahead {
        /// Where the match ended.
        rem: usize,
        /// What may follow it.
        follow: &'static Set,
        /// Whether the next character (or the end) is in `follow`.
        admitted: bool,
    },
    /// [`First`]: the next character cannot start the alternative, which is skipped.
    Skip {
        /// Where.
        rem: usize,
        /// What can start it.
        first: &'static Set,
    },
    /// A terminal (quoted string or range) matched `start_rem..end_rem`.
    Terminal {
        /// Where it started.
        start_rem: usize,
        /// Where it ended.
        end_rem: usize,
    },
    /// [`Scan`]: a run of characters of a class matched `start_rem..end_rem`.
    Scan {
        /// Where the run started.
        start_rem: usize,
        /// Where it ended.
        end_rem: usize,
        /// What the class stands for.
        class: &'static [Expected],
    },
}

/// A failed match, as every parser returns it.
#[inline(always)]
fn error<'a, M: Mode>(f: Failure) -> PResult<'a, M> {
    Err(Err::Error(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A failure made in the room of one dropped holds only what it is made with.
    #[test]
    fn a_failure_made_again_holds_nothing_of_the_one_before() {
        let mut d = Diag::boxed(7, &[Expected::End]);
        d.leave(Rule::Scheme);
        d.expected.push((Expected::Lit("::"), None));
        Diag::recycle(d);
        let again = Diag::boxed(3, &[Expected::Lit("/")]);
        assert_eq!(again.rem, 3);
        assert_eq!(again.expected, [(Expected::Lit("/"), None)]);
        assert!(again.rules.is_empty());
    }
}
