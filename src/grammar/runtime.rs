//! The ABNF operators as nom parsers: what the generated combinators are made of.
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
use alloc::vec;
use alloc::vec::Vec;
/// What may come next (shared with the generator, which writes these constants).
pub use iri_grammar_contract::Set;
use nom::error::{ErrorKind, ParseError};
use nom::{Err, IResult};

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

impl Diag {
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
    fn merge(a: Option<Box<Diag>>, b: Option<Box<Diag>>) -> Option<Box<Diag>> {
        match (a, b) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) => {
                if a.rem < b.rem {
                    Some(a)
                } else if b.rem < a.rem {
                    Some(b)
                } else {
                    let (mut deep, shallow) = if a.rules.len() >= b.rules.len() {
                        (a, b)
                    } else {
                        (b, a)
                    };
                    for e in shallow.expected {
                        if !deep.expected.contains(&e) {
                            deep.expected.push(e);
                        }
                    }
                    Some(deep)
                }
            }
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

/// Validation: no output, no allocation.
#[derive(Debug)]
pub enum Check {}

impl Mode for Check {
    type Out = ();
    const EXPLAIN: bool = false;
    #[inline(always)]
    fn empty() {}
    #[inline(always)]
    fn join(_: (), _: ()) {}
    type Open = ();
    #[inline(always)]
    fn open(_: Rule) {}
    #[inline(always)]
    fn node(_: Rule, _: (), _: usize, _: usize, _: (), _: bool) {}
    #[inline(always)]
    fn fail(rem: usize, _: &[Expected]) -> Failure {
        Failure { rem, diag: None }
    }
    #[inline(always)]
    fn carry(_: (), _: Failure) {}
    #[inline(always)]
    fn fail_after(_: (), f: Failure) -> Failure {
        f
    }
    #[inline(always)]
    fn exit_failed(_: Rule, _: usize, f: Failure) -> Failure {
        f
    }
    type Mark = ();
    #[inline(always)]
    fn mark() {}
    #[inline(always)]
    fn rewind(_: ()) {}
    #[inline(always)]
    fn chose(_: u16, _: u16) {}
}

/// Parse trees. The nodes go into one arena, in pre-order: a rule's node is reserved
/// when its combinator starts ([`Mode::open`]) and written when it matches, after its
/// children. The output of a match is the range of the arena its nodes fill (whole
/// subtrees, in order), so joining two matches in sequence is joining two ranges, and
/// an attempt that fails is undone by cutting the arena back ([`Mode::rewind`]), its
/// reserved nodes with it. Character rules are folded into their parent.
#[cfg(feature = "std")]
#[derive(Debug)]
pub enum Tree {}

/// A range of the tree arena: `start..end`; [`Nodes::NONE`] for a match without
/// nodes (which needs no place in the arena).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Nodes {
    /// The first node.
    pub start: u32,
    /// After the last node.
    pub end: u32,
}

impl Nodes {
    /// No nodes.
    pub const NONE: Nodes = Nodes {
        start: u32::MAX,
        end: u32::MAX,
    };

    /// How many nodes.
    pub fn len(self) -> u32 {
        if self == Nodes::NONE {
            0
        } else {
            self.end - self.start
        }
    }

    /// Whether there are none.
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// The places of the arena they fill (`0..0` for none).
    pub fn range(self) -> core::ops::Range<usize> {
        if self == Nodes::NONE {
            0..0
        } else {
            self.start as usize..self.end as usize
        }
    }
}

/// The arena of [`Tree`] mode: the nodes written so far, and the alternative a
/// [`Choice`] just took (for the node of the rule it is the definition of).
///
/// A bounded arena ([`Tree::collect_at_most`]) holds at most `max` nodes and only
/// counts the ones after them (`beyond`): the places of the arena are those of the
/// nodes held followed by the nodes counted, so that marks, rewinds and ranges are
/// the same as if every node were held, and memory stays at `max` nodes whatever
/// the input.
#[cfg(feature = "std")]
#[derive(Debug)]
struct Arena {
    nodes: Vec<RawNode>,
    chosen: Option<(u16, u16)>,
    /// The most nodes held.
    max: u32,
    /// The nodes counted, not held, after the held ones.
    beyond: u32,
    /// The remaining length where the first node not held starts, once it matched.
    beyond_start_rem: Option<u32>,
}

#[cfg(feature = "std")]
impl Arena {
    /// How many places the arena has: the nodes held and the nodes counted after.
    #[inline(always)]
    fn places(&self) -> u32 {
        (self.nodes.len() as u32).wrapping_add(self.beyond)
    }

    /// Room for more nodes, never beyond `max`: a bounded arena is not doubled past
    /// its bound. False when `max` nodes are held (and no node is held beyond them).
    #[cold]
    fn grow(&mut self) -> bool {
        let len = self.nodes.len();
        if len >= self.max as usize {
            return false;
        }
        let more = len.max(4).min(self.max as usize - len);
        self.nodes.reserve_exact(more);
        true
    }
}

#[cfg(feature = "std")]
std::thread_local! {
    /// The arena of the [`Tree::collect`] running on this thread, or null.
    ///
    /// A `Cell` of a raw pointer and not a `RefCell<Arena>`: a thread-local without
    /// a destructor is reached without the lazy-registration check, and a pointer
    /// without a borrow flag; Tree mode touches its arena at every rule and every
    /// attempt, and those checks were a fifth of the cost of a tree.
    static CURRENT: core::cell::Cell<*mut Arena> = const { core::cell::Cell::new(core::ptr::null_mut()) };
}

/// Runs `f` on the arena of the running [`Tree::collect`]; outside one, Tree mode
/// records nothing (its nodes could not be read) and `f` is not run.
#[cfg(feature = "std")]
#[inline(always)]
fn with_arena<R>(f: impl FnOnce(&mut Arena) -> R) -> Option<R> {
    let arena = CURRENT.with(core::cell::Cell::get);
    if arena.is_null() {
        return None;
    }
    // SAFETY: `CURRENT` is non-null only while a `Collecting` guard lives, and then
    // points at the arena of that `collect` call, which outlives the guard and is
    // reached only through this pointer until the guard is dropped. The closures
    // passed here are this module's and do not call back into Tree mode, so the
    // `&mut` is the only reference to the arena while it lives.
    Some(f(unsafe { &mut *arena }))
}

/// Points `CURRENT` at an arena while it lives, and back at the previous one (a
/// `collect` inside a `collect`, or null) when dropped, also when `f` panics.
#[cfg(feature = "std")]
struct Collecting {
    previous: *mut Arena,
}

#[cfg(feature = "std")]
impl Collecting {
    fn start(arena: *mut Arena) -> Collecting {
        Collecting {
            previous: CURRENT.with(|c| c.replace(arena)),
        }
    }
}

#[cfg(feature = "std")]
impl Drop for Collecting {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.previous));
    }
}

#[cfg(feature = "std")]
impl Tree {
    /// Runs `f` with an empty arena, then `read` with what `f` returned and the
    /// arena ([`Tree::collect_in`] for a caller that keeps the nodes).
    pub fn collect<R, S>(f: impl FnOnce() -> R, read: impl FnOnce(R, &[RawNode]) -> S) -> S {
        let (r, nodes) = Tree::collect_in(Vec::new(), f);
        read(r, &nodes)
    }

    /// Runs `f` with `nodes` (emptied) as the arena, and returns what `f` returned
    /// and the arena: for a caller that keeps the nodes (a [`crate::tree::ParseTree`]
    /// is its arena), with the capacity it expects. A node's positions are `u32`:
    /// the input must be shorter than 4 GiB (`tree_of` checks; this does not).
    // Inlined into `tree_of` by the hint: without it the compiler's choice turns on
    // changes elsewhere in the crate (an unrelated cold function can move it out of
    // line).
    #[inline]
    pub fn collect_in<R>(nodes: Vec<RawNode>, f: impl FnOnce() -> R) -> (R, Vec<RawNode>) {
        let (r, nodes, _) = Tree::collect_at_most(nodes, u32::MAX, f);
        (r, nodes)
    }

    /// [`Tree::collect_in`] holding at most `max` nodes: a match that has more is
    /// run to its end all the same (so that whether it matches is known), counting
    /// the nodes after the first `max` without holding them. Returns, besides what
    /// `f` returned and the arena, `None` when every node of the match is held, else
    /// the remaining length where the first node not held starts.
    #[inline]
    pub(crate) fn collect_at_most<R>(
        mut nodes: Vec<RawNode>,
        max: u32,
        f: impl FnOnce() -> R,
    ) -> (R, Vec<RawNode>, Option<u32>) {
        nodes.clear();
        // A reused arena larger than the bound would hold more than `max` nodes
        // before it is full ([`Tree::open`] tests only a full arena).
        if nodes.capacity() > max as usize {
            nodes = Vec::new();
        }
        let mut arena = Arena {
            nodes,
            chosen: None,
            max,
            beyond: 0,
            beyond_start_rem: None,
        };
        let r = {
            let _collecting = Collecting::start(&mut arena);
            f()
        };
        let beyond = (arena.beyond > 0).then(|| arena.beyond_start_rem.unwrap_or(0));
        (r, arena.nodes, beyond)
    }
}

#[cfg(feature = "std")]
impl Mode for Tree {
    type Out = Nodes;
    const EXPLAIN: bool = false;
    #[inline(always)]
    fn empty() -> Nodes {
        Nodes::NONE
    }
    #[inline(always)]
    fn join(a: Nodes, b: Nodes) -> Nodes {
        if a == Nodes::NONE {
            return b;
        }
        if b == Nodes::NONE {
            return a;
        }
        // Failed attempts are rewound, so `b` was written right after `a`.
        debug_assert_eq!(a.end, b.start);
        Nodes {
            start: a.start,
            end: b.end,
        }
    }
    /// The place of the rule's node; none for a character rule (folded).
    type Open = u32;
    #[inline]
    fn open(rule: Rule) -> u32 {
        if rule.is_character_rule() {
            return u32::MAX;
        }
        with_arena(|a| {
            // The arena's capacity never passes `max` (`grow`, `collect_at_most`), so
            // only a full arena can be at the bound, and one with room counts no
            // node beyond it: the common case tests what `push` tests anyway.
            if a.nodes.len() == a.nodes.capacity() && !a.grow() {
                // Nodes are counted, not held, once `max` are held.
                let at = a.places();
                a.beyond += 1;
                return at;
            }
            let at = a.nodes.len() as u32;
            // Written when the rule matches; cut with the attempt if it fails.
            // Its size is 1 meanwhile: were one ever left (a composition that does
            // not rewind), a walk of the tree would still move on.
            a.nodes.push(RawNode {
                rule,
                start_rem: 0,
                end_rem: 0,
                size: 1,
                alternative: None,
            });
            at
        })
        .unwrap_or(u32::MAX)
    }
    #[inline]
    fn node(
        rule: Rule,
        open: u32,
        start_rem: usize,
        end_rem: usize,
        inner: Nodes,
        alternation: bool,
    ) -> Nodes {
        with_arena(|a| {
            // Only an alternation chose (the others need not look); a character
            // rule's choice is taken too, since it is not its parent's.
            let alternative = if alternation { a.chosen.take() } else { None };
            if rule.is_character_rule() {
                return inner;
            }
            let end = a.places();
            // Failed attempts are rewound, so what follows the rule's node is the
            // match's inside.
            debug_assert!(inner == Nodes::NONE || (inner.start == open + 1 && inner.end == end));
            debug_assert!(
                start_rem <= u32::MAX as usize,
                "trees are for inputs under 4 GiB"
            );
            if open as usize >= a.nodes.len() {
                // Counted, not held: the first of those is where the bound was passed.
                if open as usize == a.nodes.len() {
                    a.beyond_start_rem = Some(start_rem as u32);
                }
                return Nodes { start: open, end };
            }
            // `open` wrote the rule.
            let node = &mut a.nodes[open as usize];
            node.start_rem = start_rem as u32;
            node.end_rem = end_rem as u32;
            node.size = end - open;
            node.alternative = alternative;
            Nodes { start: open, end }
        })
        .unwrap_or(Nodes::NONE)
    }
    fn fail(rem: usize, _: &[Expected]) -> Failure {
        Failure { rem, diag: None }
    }
    #[inline(always)]
    fn carry(out: Nodes, _: Failure) -> Nodes {
        out
    }
    fn fail_after(_: Nodes, f: Failure) -> Failure {
        f
    }
    fn exit_failed(_: Rule, _: usize, f: Failure) -> Failure {
        f
    }
    type Mark = u32;
    #[inline(always)]
    fn mark() -> u32 {
        with_arena(|a| a.places()).unwrap_or(0)
    }
    #[inline]
    fn rewind(mark: u32) {
        with_arena(|a| {
            // `chosen` may stay: it is read only by an alternation's node, right
            // after its own `Choice` wrote it.
            let held = a.nodes.len() as u32;
            if mark >= held {
                a.beyond = mark - held;
            } else {
                a.nodes.truncate(mark as usize);
                a.beyond = 0;
            }
        });
    }
    #[inline(always)]
    fn chose(k: u16, of: u16) {
        with_arena(|a| a.chosen = Some((k, of)));
    }
}

/// Step-by-step tracing: no output; every step of the combinators is recorded in a
/// thread-local list ([`Step`]), read with [`Trace::collect`]. Failures are noted as
/// [`Step::Expected`] where a terminal fails; the [`Ahead`] and [`First`] decisions
/// are steps of their own.
#[cfg(feature = "std")]
#[derive(Debug)]
pub enum Trace {}

/// At most this many steps are recorded: a trace is for reading, and an input long
/// enough to need more is cut (the trace says so).
#[cfg(feature = "std")]
pub const TRACE_LIMIT: usize = 200_000;

#[cfg(feature = "std")]
std::thread_local! {
    static STEPS: std::cell::RefCell<Vec<Step>> = const { std::cell::RefCell::new(Vec::new()) };
}

#[cfg(feature = "std")]
impl Trace {
    /// Runs `f` with an empty list of steps; returns what `f` returned, the steps,
    /// and whether there were more than [`TRACE_LIMIT`] (the rest are not kept).
    pub fn collect<R>(f: impl FnOnce() -> R) -> (R, Vec<Step>, bool) {
        STEPS.with(|s| s.borrow_mut().clear());
        let r = f();
        let steps = STEPS.with(|s| core::mem::take(&mut *s.borrow_mut()));
        let cut = steps.len() > TRACE_LIMIT;
        let mut steps = steps;
        steps.truncate(TRACE_LIMIT);
        (r, steps, cut)
    }
}

#[cfg(feature = "std")]
impl Mode for Trace {
    type Out = ();
    const EXPLAIN: bool = false;
    const TRACE: bool = true;
    fn step(s: Step) {
        STEPS.with(|steps| {
            let mut steps = steps.borrow_mut();
            // One past the limit tells `collect` that the trace was cut.
            if steps.len() <= TRACE_LIMIT {
                steps.push(s);
            }
        });
    }
    fn empty() {}
    fn join(_: (), _: ()) {}
    type Open = ();
    fn open(_: Rule) {}
    fn node(_: Rule, _: (), _: usize, _: usize, _: (), _: bool) {}
    fn fail(rem: usize, expected: &[Expected]) -> Failure {
        // An Ahead rejection is its own step (Step::Ahead); its FOLLOW set is not a
        // terminal that failed.
        if !expected.iter().any(|e| matches!(e, Expected::Follow(_))) {
            Trace::step(Step::Expected {
                rem,
                expected: expected.to_vec(),
            });
        }
        Failure { rem, diag: None }
    }
    fn carry(_: (), _: Failure) {}
    fn fail_after(_: (), f: Failure) -> Failure {
        f
    }
    fn exit_failed(_: Rule, _: usize, f: Failure) -> Failure {
        f
    }
    type Mark = ();
    fn mark() {}
    fn rewind(_: ()) {}
    fn chose(_: u16, _: u16) {}
}

/// Error explanation: the output is the farthest failure seen inside the match.
#[derive(Debug)]
pub enum Explain {}

impl Mode for Explain {
    type Out = Option<Box<Diag>>;
    const EXPLAIN: bool = true;
    fn empty() -> Self::Out {
        None
    }
    fn join(a: Self::Out, b: Self::Out) -> Self::Out {
        Diag::merge(a, b)
    }
    type Open = ();
    fn open(_: Rule) {}
    fn node(rule: Rule, _: (), _: usize, _: usize, mut inner: Self::Out, _: bool) -> Self::Out {
        if let Some(d) = inner.as_mut() {
            d.leave(rule);
        }
        inner
    }
    fn fail(rem: usize, expected: &[Expected]) -> Failure {
        Failure {
            rem,
            diag: Some(Box::new(Diag {
                rem,
                expected: expected.iter().map(|&e| (e, None)).collect(),
                rules: Vec::new(),
            })),
        }
    }
    fn carry(out: Self::Out, f: Failure) -> Self::Out {
        Diag::merge(out, f.diag)
    }
    fn fail_after(out: Self::Out, f: Failure) -> Failure {
        Failure {
            rem: f.rem,
            diag: Diag::merge(out, f.diag),
        }
    }
    type Mark = ();
    fn mark() {}
    fn rewind(_: ()) {}
    fn chose(_: u16, _: u16) {}
    fn exit_failed(rule: Rule, start_rem: usize, mut f: Failure) -> Failure {
        if let Some(d) = f.diag.as_mut() {
            if rule.is_character_rule() && d.rem == start_rem {
                // `DIGIT` failed on its one character: what was expected is a DIGIT.
                d.expected = vec![(Expected::Rule(rule), None)];
            } else {
                d.leave(rule);
            }
        }
        f
    }
}

/// A parser of the generated grammar, for variant `V` in mode `M`.
///
/// Functions `fn(&str) -> PResult<M>` (the generated combinators) are parsers,
/// and so they are also nom parsers: they can be used in any nom combinator.
pub trait Parse<'a, V: Variant, M: Mode> {
    /// Matches a prefix of `i`.
    fn parse(&self, i: &'a str) -> PResult<'a, M>;
    /// Whether this is a rule's alternation, a [`Choice`] (which tells
    /// [`Mode::chose`] the alternative that matched, for its rule's node).
    const IS_CHOICE: bool = false;
}

impl<'a, V: Variant, M: Mode, F> Parse<'a, V, M> for F
where
    F: Fn(&'a str) -> PResult<'a, M>,
{
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        self(i)
    }
}

#[inline(always)]
fn error<'a, M: Mode>(f: Failure) -> PResult<'a, M> {
    Err(Err::Error(f))
}

/// Runs a rule's body and marks the match (or the failure) as that rule's.
#[inline(always)]
pub fn rule<'a, V: Variant, M: Mode, P: Parse<'a, V, M>>(
    rule: Rule,
    i: &'a str,
    body: P,
) -> PResult<'a, M> {
    if M::TRACE {
        M::step(Step::Enter { rule, rem: i.len() });
    }
    let open = M::open(rule);
    match body.parse(i) {
        Ok((rest, out)) => {
            if M::TRACE {
                M::step(Step::Match {
                    rule,
                    start_rem: i.len(),
                    end_rem: rest.len(),
                });
            }
            Ok((
                rest,
                M::node(rule, open, i.len(), rest.len(), out, P::IS_CHOICE),
            ))
        }
        Err(Err::Error(f)) => {
            if M::TRACE {
                M::step(Step::Fail {
                    rule,
                    start_rem: i.len(),
                    rem: f.rem,
                });
            }
            error::<M>(M::exit_failed(rule, i.len(), f))
        }
        Err(e) => Err(e),
    }
}

/// `"abc"`: a quoted string, ASCII case-insensitive (RFC 5234 §2.3).
#[derive(Debug, Clone, Copy)]
pub struct Lit(pub &'static str);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Lit {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let want = self.0.as_bytes();
        // Without letters, case-insensitive is equal: a plain compare (the literals
        // are constants, so this test folds away).
        let letters = want.iter().any(u8::is_ascii_alphabetic);
        match i.as_bytes().get(..want.len()) {
            // A matched prefix equals an ASCII-only string, so it ends on a char boundary.
            Some(have)
                if (letters && have.eq_ignore_ascii_case(want)) || (!letters && have == want) =>
            {
                if M::TRACE {
                    M::step(Step::Terminal {
                        start_rem: i.len(),
                        end_rem: i.len() - want.len(),
                    });
                }
                Ok((&i[want.len()..], M::empty()))
            }
            _ => error::<M>(M::fail(i.len(), &[Expected::Lit(self.0)])),
        }
    }
}

/// `%s"abc"` or `%x0D.0A`: an exact string (RFC 7405, RFC 5234 §2.3).
#[derive(Debug, Clone, Copy)]
pub struct LitCs(pub &'static str);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for LitCs {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match i.strip_prefix(self.0) {
            Some(rest) => {
                if M::TRACE {
                    M::step(Step::Terminal {
                        start_rem: i.len(),
                        end_rem: rest.len(),
                    });
                }
                Ok((rest, M::empty()))
            }
            None => error::<M>(M::fail(i.len(), &[Expected::Lit(self.0)])),
        }
    }
}

/// `%xLO-HI`: one character in a range of code points (RFC 5234 §3.4).
#[derive(Debug, Clone, Copy)]
pub struct Range(pub u32, pub u32);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Range {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match i.chars().next() {
            Some(c) if (self.0..=self.1).contains(&(c as u32)) => {
                if M::TRACE {
                    M::step(Step::Terminal {
                        start_rem: i.len(),
                        end_rem: i.len() - c.len_utf8(),
                    });
                }
                Ok((&i[c.len_utf8()..], M::empty()))
            }
            _ => error::<M>(M::fail(i.len(), &[Expected::Range(self.0, self.1)])),
        }
    }
}

/// `<prose>`: text the grammar cannot express; it matches nothing (RFC 5234 §4).
#[derive(Debug, Clone, Copy)]
pub struct Prose(pub &'static str);

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Prose {
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        error::<M>(M::fail(i.len(), &[Expected::Abnf(self.0)]))
    }
}

/// Zero repetitions (`0<pchar>`): matches the empty string.
#[derive(Debug, Clone, Copy)]
pub struct Empty;

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Empty {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        Ok((i, M::empty()))
    }
}

/// `a b c`: concatenation (RFC 5234 §3.1), a tuple of parsers.
#[derive(Debug, Clone, Copy)]
pub struct Cat<T>(pub T);

/// `a / b / c`: alternation (RFC 5234 §3.2), tried in order: first match wins
/// (RFC 3987 §2.2); the generator adds [`Ahead`] where order alone would be wrong.
#[derive(Debug, Clone, Copy)]
pub struct Alt<T>(pub T);

macro_rules! tuples {
    ($($P:ident $p:ident),+) => {
        impl<'a, V: Variant, M: Mode, $($P: Parse<'a, V, M>),+> Parse<'a, V, M> for Cat<($($P,)+)> {
            #[inline(always)]
            fn parse(&self, i: &'a str) -> PResult<'a, M> {
                let ($($p,)+) = &self.0;
                let mut out = M::empty();
                let mut rest = i;
                $(
                    match $p.parse(rest) {
                        Ok((r, o)) => {
                            rest = r;
                            out = M::join(out, o);
                        }
                        Err(Err::Error(f)) => return error::<M>(M::fail_after(out, f)),
                        Err(e) => return Err(e),
                    }
                )+
                Ok((rest, out))
            }
        }

        impl<'a, V: Variant, M: Mode, $($P: Parse<'a, V, M>),+> Parse<'a, V, M> for Alt<($($P,)+)> {
            #[inline(always)]
            fn parse(&self, i: &'a str) -> PResult<'a, M> {
                let ($($p,)+) = &self.0;
                let mut failed: Option<Failure> = None;
                let mark = M::mark();
                $(
                    match $p.parse(i) {
                        Ok((r, o)) => {
                            let o = match failed {
                                Some(f) if M::EXPLAIN => M::carry(o, f),
                                _ => o,
                            };
                            return Ok((r, o));
                        }
                        Err(Err::Error(f)) => {
                            M::rewind(mark);
                            failed = Some(match failed {
                                Some(g) if M::EXPLAIN => Failure::merge(g, f),
                                // Only Explain mode reads failures; keep the cheapest one.
                                Some(g) => g,
                                None => f,
                            });
                        }
                        Err(e) => return Err(e),
                    }
                )+
                error::<M>(failed.unwrap_or(Failure { rem: i.len(), diag: None }))
            }
        }
    };
}

/// A rule's alternation (`a / b / c` at the top of its definition): an [`Alt`] that
/// also tells the mode which alternative matched, `base + k` of `of` (1-based), so
/// that a tree can say "alternative 6 of 9". A definition with more alternatives
/// than a tuple holds nests the rest in a last `Choice` with a higher `base`; the
/// outer one then leaves the telling to it (`tail`).
#[derive(Debug, Clone, Copy)]
pub struct Choice<T> {
    /// How many alternatives come before this tuple's first.
    pub base: u16,
    /// How many alternatives the definition has.
    pub of: u16,
    /// Whether the tuple's last element is a nested `Choice` of the rest.
    pub tail: bool,
    /// The alternatives.
    pub alternatives: T,
}

impl<T> Choice<T> {
    /// The `of` alternatives of a rule, in one tuple.
    pub const fn of(of: u16, alternatives: T) -> Choice<T> {
        Choice {
            base: 0,
            of,
            tail: false,
            alternatives,
        }
    }

    /// The alternatives from `base + 1` on, the last element of the tuple nesting
    /// the rest when `tail`.
    pub const fn from(base: u16, of: u16, tail: bool, alternatives: T) -> Choice<T> {
        Choice {
            base,
            of,
            tail,
            alternatives,
        }
    }
}

macro_rules! choices {
    ($n:expr; $($P:ident $p:ident $k:expr),+) => {
        impl<'a, V: Variant, M: Mode, $($P: Parse<'a, V, M>),+> Parse<'a, V, M> for Choice<($($P,)+)> {
            const IS_CHOICE: bool = true;
            #[inline(always)]
            fn parse(&self, i: &'a str) -> PResult<'a, M> {
                let ($($p,)+) = &self.alternatives;
                let mut failed: Option<Failure> = None;
                let mark = M::mark();
                $(
                    // A nested Choice of the rest (`tail`) tells its own steps.
                    let own = !(self.tail && $k == $n);
                    if M::TRACE && own {
                        M::step(Step::Try { k: self.base + $k, of: self.of, rem: i.len() });
                    }
                    match $p.parse(i) {
                        Ok((r, o)) => {
                            if own {
                                M::chose(self.base + $k, self.of);
                            }
                            let o = match failed {
                                Some(f) if M::EXPLAIN => M::carry(o, f),
                                _ => o,
                            };
                            return Ok((r, o));
                        }
                        Err(Err::Error(f)) => {
                            M::rewind(mark);
                            if M::TRACE && own {
                                M::step(Step::Backtrack { k: self.base + $k, of: self.of, rem: i.len() });
                            }
                            failed = Some(match failed {
                                Some(g) if M::EXPLAIN => Failure::merge(g, f),
                                Some(g) => g,
                                None => f,
                            });
                        }
                        Err(e) => return Err(e),
                    }
                )+
                error::<M>(failed.unwrap_or(Failure { rem: i.len(), diag: None }))
            }
        }
    };
}

choices!(2; A a 1, B b 2);
choices!(3; A a 1, B b 2, C c 3);
choices!(4; A a 1, B b 2, C c 3, D d 4);
choices!(5; A a 1, B b 2, C c 3, D d 4, E e 5);
choices!(6; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6);
choices!(7; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7);
choices!(8; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8);
choices!(9; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9);
choices!(10; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9, J j 10);
choices!(11; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9, J j 10, K k 11);
choices!(12; A a 1, B b 2, C c 3, D d 4, E e 5, F f 6, G g 7, H h 8, I i_ 9, J j 10, K k 11, L l 12);

tuples!(A a, B b);
tuples!(A a, B b, C c);
tuples!(A a, B b, C c, D d);
tuples!(A a, B b, C c, D d, E e);
tuples!(A a, B b, C c, D d, E e, F f);
tuples!(A a, B b, C c, D d, E e, F f, G g);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_, J j);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_, J j, K k);
tuples!(A a, B b, C c, D d, E e, F f, G g, H h, I i_, J j, K k, L l);

/// `min*max element` (RFC 5234 §3.6): as many as possible, at least `min`.
#[derive(Debug, Clone, Copy)]
pub struct Repeat<P>(pub u32, pub u32, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Repeat<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let Repeat(min, max, p) = self;
        let mut out = M::empty();
        let mut rest = i;
        let mut n = 0;
        while n < *max {
            let mark = M::mark();
            match p.parse(rest) {
                Ok((r, o)) => {
                    out = M::join(out, o);
                    if r.len() == rest.len() {
                        // An empty match repeats forever: the remaining required
                        // repetitions all match here too.
                        break;
                    }
                    rest = r;
                    n += 1;
                }
                Err(Err::Error(f)) => {
                    M::rewind(mark);
                    if n >= *min {
                        return Ok((rest, M::carry(out, f)));
                    }
                    return error::<M>(M::fail_after(out, f));
                }
                Err(e) => return Err(e),
            }
        }
        Ok((rest, out))
    }
}

/// `*( "c" r )` where the definition of the rule `r` is a run of a class, `*class`
/// (`ipath-abempty = *( "/" isegment )`, `isegment = *ipchar`): the repetition `P`
/// (`Repeat(0, INF, Cat((Lit("c"), r)))`, which the generator writes inside) matched
/// in one loop, each `c` and the run after it without a call of `r`'s combinator, a
/// result through memory and a mark per repetition. The match and the nodes are
/// `P`'s: `r`'s node for each run (each run is matched by [`rule`], inlined), the
/// run's percent-encodings inside it. Explain and Trace modes run `P` itself, whose
/// failures and steps are those of the operators the ABNF is written with.
///
/// So a path's segments are built without the operators' per-character steps, which
/// is most of the tree of a long path (BENCHMARKS.md, `tree`).
#[derive(Debug, Clone, Copy)]
pub struct Delimited<P> {
    /// The one-byte literal before each run (not a letter, so that case does not
    /// matter).
    pub delimiter: u8,
    /// The rule whose definition is the run.
    pub rule: Rule,
    /// The run's class.
    pub class: &'static Class,
    /// The repetition as the ABNF writes it.
    pub repetition: P,
}

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Delimited<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        if M::EXPLAIN || M::TRACE {
            return self.repetition.parse(i);
        }
        debug_assert!(!self.delimiter.is_ascii_alphabetic());
        let run = Scan(self.class, 0, INF);
        let mut rest = i;
        let mut out = M::empty();
        while rest.as_bytes().first() == Some(&self.delimiter) {
            // An ASCII byte ends a character. A run of at least none does not fail;
            // were it to, so would `P`.
            let (end, node) = rule::<V, M, _>(self.rule, &rest[1..], run)?;
            out = M::join(out, node);
            rest = end;
        }
        Ok((rest, out))
    }
}

/// `[ element ]`: optional (RFC 5234 §3.8).
#[derive(Debug, Clone, Copy)]
pub struct Opt<P>(pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Opt<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let mark = M::mark();
        match self.0.parse(i) {
            Ok(ok) => Ok(ok),
            Err(Err::Error(f)) => {
                M::rewind(mark);
                Ok((i, M::carry(M::empty(), f)))
            }
            Err(e) => Err(e),
        }
    }
}

/// The scan table of a set of ASCII characters, by bit.
const fn ascii_table(ascii: u128) -> ScanTable {
    scan_table([ascii as u64, (ascii >> 64) as u64, 0, 0])
}

/// What may follow a match two characters deep: pairs of a first and a second
/// character (the second, or the first, may be the end of input). [`Ahead2`] tests it
/// where one character cannot tell the alternatives apart (RFC 2373's `hexpart =
/// hexseq | hexseq "::" [ hexseq ]`: after `1`, a `:` may follow the first
/// alternative, but `::` only continues the second).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Set2 {
    first: Set,
    pairs: &'static [(Set, Set)],
}

impl Set2 {
    /// `first`: every character that may come first (with the end of input if nothing
    /// may follow); `pairs`: the first and second characters of what may follow.
    pub const fn new(first: Set, pairs: &'static [(Set, Set)]) -> Set2 {
        Set2 { first, pairs }
    }

    /// Whether the input at `i` starts with one of the pairs (or ends, if allowed).
    #[inline]
    pub fn admits(&self, i: &str) -> bool {
        let Some(c) = i.chars().next() else {
            return self.first.admits(i);
        };
        let rest = &i[c.len_utf8()..];
        self.pairs
            .iter()
            .any(|(a, b)| a.admits(i) && b.admits(rest))
    }
}

/// [`Ahead`] with a two-character lookahead ([`Set2`]).
#[derive(Debug, Clone, Copy)]
pub struct Ahead2<P>(pub &'static Set2, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Ahead2<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match self.1.parse(i) {
            Ok((rest, out)) if self.0.admits(rest) => Ok((rest, out)),
            Ok((rest, out)) => error::<M>(M::fail_after(out, self.0.refusal::<M>(rest))),
            Err(e) => Err(e),
        }
    }
}

impl Set2 {
    /// Where and why `rest` is not admitted. When its first character may follow,
    /// the match goes on past it and stops at the second, which none of the pairs
    /// that start with the first admits: the failure is there (`hexseq` in `[1:2]H`
    /// is followed by `]`, and it is the `H` after it that nothing may follow), as
    /// the ABNF's farthest failure is. The sets are what may follow anywhere in the
    /// grammar, not here: where the first character may only follow elsewhere, the
    /// failure is placed one character past the ABNF's (the 2001 draft's
    /// `IPv6prefix = hexpart "/" ..` lets a `/` pass after `hexseq` in a host;
    /// `tests/it/oracle_explains.rs`).
    #[cold]
    fn refusal<M: Mode>(&'static self, rest: &str) -> Failure {
        let first = rest.chars().next().filter(|_| self.first.admits(rest));
        let Some(c) = first else {
            return M::fail(rest.len(), &[Expected::Follow(&self.first)]);
        };
        let after = &rest[c.len_utf8()..];
        if !M::EXPLAIN {
            return M::fail(after.len(), &[]);
        }
        let seconds: Vec<Expected> = self
            .pairs
            .iter()
            .filter(|(a, _)| a.admits(rest))
            .map(|(_, b)| Expected::Follow(b))
            .collect();
        M::fail(after.len(), &seconds)
    }
}

/// Accepts the match of `P` only if what follows it is in the set: the lookahead
/// that makes an ordered choice accept exactly the ABNF language (see
/// `abnf/src/codegen/mod.rs`).
#[derive(Debug, Clone, Copy)]
pub struct Ahead<P>(pub &'static Set, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for Ahead<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        match self.1.parse(i) {
            Ok((rest, out)) if self.0.admits(rest) => {
                if M::TRACE {
                    M::step(Step::Ahead {
                        rem: rest.len(),
                        follow: self.0,
                        admitted: true,
                    });
                }
                Ok((rest, out))
            }
            Ok((rest, out)) => {
                if M::TRACE {
                    M::step(Step::Ahead {
                        rem: rest.len(),
                        follow: self.0,
                        admitted: false,
                    });
                }
                error::<M>(M::fail_after(
                    out,
                    M::fail(rest.len(), &[Expected::Follow(self.0)]),
                ))
            }
            Err(e) => Err(e),
        }
    }
}

/// Tries `P` only if the next character can start it (its FIRST set): a one-byte
/// test instead of a call that would fail. Explain mode always tries `P`, to collect
/// what it expected.
#[derive(Debug, Clone, Copy)]
pub struct First<P>(pub &'static Set, pub P);

impl<'a, V: Variant, M: Mode, P: Parse<'a, V, M>> Parse<'a, V, M> for First<P> {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        if !M::EXPLAIN && !self.0.admits(i) {
            if M::TRACE {
                M::step(Step::Skip {
                    rem: i.len(),
                    first: self.0,
                });
            }
            return error::<M>(Failure {
                rem: i.len(),
                diag: None,
            });
        }
        self.1.parse(i)
    }
}

/// A character class: ASCII characters by bit, ranges beyond ASCII, `pct-encoded`,
/// and variant rules (`ucschar`, `iprivate`), with what to name when it fails.
#[derive(Debug, Clone, Copy)]
pub struct Class {
    ascii: u128,
    /// The same ASCII members as a scan table (no byte >= 0x80 in it): the run of
    /// members is skipped sixteen bytes at a time where the processor can.
    table: ScanTable,
    beyond: &'static [(u32, u32)],
    pct: bool,
    /// The rule of its percent triplets, for trees: `pct-encoded`, or the 2001
    /// draft's `escaped`.
    pct_rule: Rule,
    variant: u32,
    expected: &'static [Expected],
}

impl Class {
    /// The empty class.
    pub const fn new() -> Class {
        Class {
            ascii: 0,
            table: ascii_table(0),
            beyond: &[],
            pct: false,
            pct_rule: Rule::PctEncoded,
            variant: 0,
            expected: &[],
        }
    }
    /// Adds ASCII characters.
    pub const fn chars(mut self, s: &str) -> Class {
        self.ascii |= Set::new().chars(s).ascii_bits();
        self.table = ascii_table(self.ascii);
        self
    }
    /// Adds the ASCII range `lo..=hi`.
    pub const fn range(mut self, lo: u8, hi: u8) -> Class {
        self.ascii |= Set::new().range(lo, hi).ascii_bits();
        self.table = ascii_table(self.ascii);
        self
    }
    /// Adds code point ranges beyond ASCII.
    pub const fn beyond_ascii(mut self, ranges: &'static [(u32, u32)]) -> Class {
        self.beyond = ranges;
        self
    }
    /// Adds `pct-encoded` (`"%" HEXDIG HEXDIG`, RFC 3986 §2.1).
    pub const fn pct_encoded(mut self) -> Class {
        self.pct = true;
        self
    }
    /// Adds a rule of the shape of `pct-encoded` under another name (RFC 2396's
    /// `escaped`, in the 2001 draft's rule set), which trees show.
    pub const fn pct_encoded_as(mut self, rule: Rule) -> Class {
        self.pct = true;
        self.pct_rule = rule;
        self
    }
    /// Adds a variant rule, by its bit.
    pub const fn variant_rule(mut self, bit: u32) -> Class {
        self.variant |= bit;
        self
    }
    /// Names what the class stands for in error messages.
    pub const fn expecting(mut self, expected: &'static [Expected]) -> Class {
        self.expected = expected;
        self
    }
}

impl Default for Class {
    fn default() -> Self {
        Class::new()
    }
}

/// `min*max class`: a run of characters of a class, scanned with table lookups
/// (ASCII; sixteen bytes at a time where the processor can) and range tests
/// (beyond), not one combinator call per character.
/// Used where the generator proved that greedy is exact (nothing that may follow
/// the run can start with a member of the class).
#[derive(Debug, Clone, Copy)]
pub struct Scan(pub &'static Class, pub u32, pub u32);

#[inline(always)]
fn is_hex(b: Option<&u8>) -> bool {
    b.is_some_and(|b| b.is_ascii_hexdigit())
}

impl<'a, V: Variant, M: Mode> Parse<'a, V, M> for Scan {
    #[inline(always)]
    fn parse(&self, i: &'a str) -> PResult<'a, M> {
        let Scan(class, min, max) = *self;
        // ASCII members: the class's byte table, plus the variant's ASCII characters
        // (only LEIRI's ucschar has any; for the other variants `extra` folds to 0).
        let extra = V::variant_ascii(class.variant);
        let table = &class.table.bytes;
        let is_member = |b: u8| table[b as usize] || (b < 0x80 && extra >> b & 1 != 0);
        let bytes = i.as_bytes();
        let mut pos = 0;
        let mut n: u32 = 0;
        let mut out = M::empty();
        // Set in Explain mode when a "%" is not followed by two hex digits.
        let mut bad_pct: Option<Failure> = None;
        // An unbounded run with at most one required (every one the generator
        // writes) needs no count: it has one member iff it moved.
        let uncounted = max == INF && min <= 1;
        while uncounted || n < max {
            if max == INF {
                // An unbounded run: skip plain ASCII members without counting each.
                let start = pos;
                pos = if extra == 0 {
                    skip_ascii(&class.table, bytes, pos)
                } else {
                    let rest = &bytes[pos..];
                    pos + rest
                        .iter()
                        .position(|&b| !is_member(b))
                        .unwrap_or(rest.len())
                };
                if !uncounted {
                    n = n.saturating_add(u32::try_from(pos - start).unwrap_or(u32::MAX));
                }
            }
            let Some(&b) = bytes.get(pos) else { break };
            if b < 0x80 {
                if is_member(b) {
                    pos += 1;
                } else if b == b'%' && class.pct {
                    if is_hex(bytes.get(pos + 1)) && is_hex(bytes.get(pos + 2)) {
                        let open = M::open(class.pct_rule);
                        let pct = M::node(
                            class.pct_rule,
                            open,
                            i.len() - pos,
                            i.len() - pos - 3,
                            M::empty(),
                            false,
                        );
                        out = M::join(out, pct);
                        pos += 3;
                    } else {
                        if M::EXPLAIN {
                            let at = if is_hex(bytes.get(pos + 1)) {
                                pos + 2
                            } else {
                                pos + 1
                            };
                            let f = M::fail(i.len() - at, &[Expected::Rule(Rule::Hexdig)]);
                            bad_pct = Some(M::exit_failed(class.pct_rule, i.len() - pos, f));
                        }
                        break;
                    }
                } else {
                    break;
                }
            } else {
                // Not ASCII: decode one character (the input is a &str, so it is valid UTF-8).
                let c = i[pos..].chars().next().unwrap_or('\0');
                let cp = c as u32;
                let member = (class.variant != 0 && V::variant_char(class.variant, c))
                    || class.beyond.iter().any(|&(lo, hi)| lo <= cp && cp <= hi);
                if !member {
                    break;
                }
                pos += c.len_utf8();
            }
            if !uncounted {
                n += 1;
            }
        }
        let too_few = if uncounted {
            min == 1 && pos == 0
        } else {
            n < min
        };
        if too_few {
            let mut f = M::fail(i.len() - pos, class.expected);
            if let Some(b) = bad_pct {
                f = Failure::merge(f, b);
            }
            return error::<M>(M::fail_after(out, f));
        }
        if M::EXPLAIN && n < max {
            out = M::carry(out, M::fail(i.len() - pos, class.expected));
            if let Some(b) = bad_pct {
                out = M::carry(out, b);
            }
        }
        if M::TRACE {
            M::step(Step::Scan {
                start_rem: i.len(),
                end_rem: i.len() - pos,
                class: class.expected,
            });
        }
        Ok((&i[pos..], out))
    }
}
