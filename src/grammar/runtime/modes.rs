//! The four modes: [`Check`] (no output), [`Tree`] (rule nodes in an arena),
//! [`Trace`] (every step) and [`Explain`] (the farthest failure).

use super::*;

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
///
/// A failure is a [`Diag`] on the heap, and a match tries many alternatives that fail
/// short of the farthest failure: most of an explanation's cost was allocating and
/// merging them. Where the caller knows how far the farthest failure will be (the
/// automaton says where no match has the prefix: `Explain::within`), a failure
/// nearer the start than that carries no `Diag`. That cannot change the answer:
/// `Diag::merge` keeps the farther of two failures, so one nearer than the final
/// failure is dropped in every merge it takes part in, and dropping it earlier drops
/// only what would be dropped later. If the guess was wrong (no failure reached it),
/// the answer is no failure at all, and the caller explains again without a guess.
#[derive(Debug)]
pub enum Explain {}

#[cfg(feature = "std")]
std::thread_local! {
    /// The remaining length nearer the start than which [`Explain`] keeps no
    /// failure (`Explain::within`); `usize::MAX`, keep all.
    static FARTHEST: core::cell::Cell<usize> = const { core::cell::Cell::new(usize::MAX) };
}

#[cfg(feature = "std")]
impl Explain {
    /// Runs `f` with the failures nearer the start than remaining length `rem`
    /// left out of its explanation (see [`Explain`]): `rem` is where the caller
    /// expects the farthest failure.
    pub(crate) fn within<T>(rem: usize, f: impl FnOnce() -> T) -> T {
        /// Puts the earlier bound back, also when `f` panics.
        struct Restore(usize);
        impl Drop for Restore {
            fn drop(&mut self) {
                FARTHEST.with(|c| c.set(self.0));
            }
        }
        let _restore = Restore(FARTHEST.with(|c| c.replace(rem)));
        f()
    }
}

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
        // Nearer the start than the bound of `Explain::within`: left out.
        #[cfg(feature = "std")]
        if FARTHEST.with(|c| rem > c.get()) {
            return Failure { rem, diag: None };
        }
        Failure {
            rem,
            diag: Some(Diag::boxed(rem, expected)),
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
                // `DIGIT` failed on its one character: what was expected is a DIGIT
                // (in the room the failure already has).
                d.expected.clear();
                d.expected.push((Expected::Rule(rule), None));
            } else {
                d.leave(rule);
            }
        }
        f
    }
}
