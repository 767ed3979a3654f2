//! Parse trees: which rule matched which part of the input, as text, JSON or DOT.
//!
//! Trees are built by the same generated combinators that validate, run in
//! [`Tree`](crate::combinators::Tree) mode. Rules that always match exactly one
//! character (`ALPHA`, `DIGIT`, `HEXDIG`, `unreserved`, `iunreserved`, `ucschar`,
//! `iprivate`, `sub-delims`, `gen-delims`, `reserved`, `ipchar`, ...) are folded into
//! their parent: they would add one node per character and say nothing the parent's
//! text does not. `pct-encoded` is kept, so percent-encodings stand out.

use crate::grammar::runtime::{self, RawNode};
use crate::grammar::{explain, full_match, MatchError, Rule, Variant, VariantName};
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;
/// Trees as text and DOT, written once for every tree of the project.
use iri_grammar_contract::tree as render;

/// A node of a [`ParseTree`]: a rule and the part of the input it matched.
///
/// ```
/// use iri_grammar::{parse_tree, Iri};
/// let t = parse_tree::<Iri>("IRI", "http://a/b?q").unwrap();
/// let root = t.root();
/// let names: Vec<_> = root.children().map(|n| n.rule()).collect();
/// assert_eq!(names, ["scheme", "ihier-part", "iquery"]);
/// let hier = root.children().nth(1).unwrap();
/// assert_eq!((hier.start(), hier.end(), hier.text()), (5, 10, "//a/b"));
/// ```
#[derive(Clone, Copy)]
pub struct Node<'t> {
    tree: &'t ParseTree<'t>,
    index: usize,
}

impl<'t> Node<'t> {
    fn entry(&self) -> &'t RawNode {
        &self.tree.nodes[self.index]
    }

    /// The rule's name in the grammar of the tree.
    pub fn rule(&self) -> &'static str {
        // Looked up here, not stored: most trees are walked for a few names.
        self.entry().rule.name_of(self.tree.variant)
    }

    /// The generated rule.
    pub fn id(&self) -> Rule {
        self.entry().rule
    }

    /// Byte offset where the match starts.
    pub fn start(&self) -> usize {
        self.tree.input.len() - self.entry().start_rem as usize
    }

    /// Byte offset where the match ends.
    pub fn end(&self) -> usize {
        self.tree.input.len() - self.entry().end_rem as usize
    }

    /// The byte range it matched.
    pub fn span(&self) -> Range<usize> {
        self.start()..self.end()
    }

    /// The text it matched.
    pub fn text(&self) -> &'t str {
        &self.tree.input[self.span()]
    }

    /// When the rule's definition is an alternation: which alternative matched
    /// (1-based), and of how many.
    ///
    /// ```
    /// use iri_grammar::{tree::tree_of, Iri, Rule};
    /// let t = tree_of::<Iri>(Rule::Ipv6address, "::ffff:1.2.3.4").unwrap();
    /// assert_eq!(t.root().alternative(), Some((6, 9)));
    /// ```
    pub fn alternative(&self) -> Option<(usize, usize)> {
        self.entry()
            .alternative
            .map(|(k, of)| (usize::from(k), usize::from(of)))
    }

    /// The rules matched inside, in order.
    pub fn children(&self) -> impl Iterator<Item = Node<'t>> + 't {
        let tree = self.tree;
        let end = self.index + self.entry().size as usize;
        let mut at = self.index + 1;
        core::iter::from_fn(move || {
            (at < end).then(|| {
                let n = Node { tree, index: at };
                at += tree.nodes[at].size as usize;
                n
            })
        })
    }
}

impl fmt::Debug for Node<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Node")
            .field("rule", &self.rule())
            .field("span", &self.span())
            .field("children", &self.children().collect::<Vec<_>>())
            .finish()
    }
}

/// The parse tree of an input matched against a rule: its nodes in one vector.
///
/// ```
/// use iri_grammar::{parse_tree, Uri};
/// let t = parse_tree::<Uri>("URI", "http://a/b").unwrap();
/// let hier = t.root().children().nth(1).unwrap();
/// assert_eq!((hier.rule(), hier.text()), ("hier-part", "//a/b"));
/// assert_eq!(t.nodes().count(), 8); // URI, scheme, hier-part, authority, host, ...
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTree<'a> {
    /// The grammar.
    pub variant: VariantName,
    /// The input.
    pub input: &'a str,
    /// The nodes in pre-order, each with the size of its subtree, positions as
    /// remaining lengths: the arena of `Tree` mode as the match left it.
    nodes: Vec<RawNode>,
}

impl<'a> ParseTree<'a> {
    /// The node of the rule asked for, covering the whole input.
    pub fn root(&self) -> Node<'_> {
        Node {
            tree: self,
            index: 0,
        }
    }

    /// Every node, in pre-order (a node before the nodes inside it).
    pub fn nodes(&self) -> impl Iterator<Item = Node<'_>> {
        (0..self.nodes.len()).map(|index| Node { tree: self, index })
    }
}

/// Why no tree could be built.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum TreeError {
    /// The grammar has no rule of that name.
    UnknownRule {
        /// The name asked for.
        name: String,
        /// The grammar.
        variant: VariantName,
    },
    /// The input does not match the rule.
    NoMatch(MatchError),
    /// The input matches, but its tree has more nodes than the bound given to
    /// [`tree_of_at_most`]; the tree was not built past the bound.
    TooManyNodes {
        /// The bound.
        max_nodes: usize,
        /// Where the first node beyond the bound starts: bytes from the start of
        /// the input.
        byte_offset: usize,
        /// The same in characters (code points).
        char_offset: usize,
    },
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::UnknownRule { name, variant } => {
                write!(
                    f,
                    "the {} grammar has no rule named {name:?}",
                    variant.as_str()
                )
            }
            TreeError::NoMatch(e) => e.fmt(f),
            TreeError::TooManyNodes {
                max_nodes,
                char_offset,
                ..
            } => write!(
                f,
                "the parse tree has more than {max_nodes} nodes (the bound was passed at \
                 char {char_offset})"
            ),
        }
    }
}

impl core::error::Error for TreeError {}

/// Matches all of `input` against the rule named `rule` in grammar `V` and returns its tree.
///
/// ```
/// use iri_grammar::{parse_tree, Leiri};
/// let t = parse_tree::<Leiri>("ipath", "/a b").unwrap();
/// assert_eq!(t.root().rule(), "ipath");
/// assert_eq!(t.root().children().next().unwrap().rule(), "ipath-abempty");
/// assert!(parse_tree::<Leiri>("no-such-rule", "x").is_err());
/// ```
pub fn parse_tree<'a, V: Variant>(rule: &str, input: &'a str) -> Result<ParseTree<'a>, TreeError> {
    let r = Rule::named_in::<V>(rule).ok_or_else(|| TreeError::UnknownRule {
        name: rule.to_string(),
        variant: V::NAME,
    })?;
    tree_of::<V>(r, input).map_err(TreeError::NoMatch)
}

/// [`parse_tree`] for a rule given as a [`Rule`].
///
/// ```
/// use iri_grammar::{tree::tree_of, Iri, Rule};
/// let t = tree_of::<Iri>(Rule::Ipv6address, "::1").unwrap();
/// assert_eq!(t.root().children().map(|n| n.rule()).collect::<Vec<_>>(), ["h16"]);
/// ```
pub fn tree_of<V: Variant>(rule: Rule, input: &str) -> Result<ParseTree<'_>, MatchError> {
    build::<V>(rule, input, u32::MAX).map_err(|e| match e {
        TreeError::NoMatch(e) => e,
        // Unbounded: a match whose nodes do not fit in u32 places is an input of
        // 4 GiB or more, which `build` refuses before matching.
        _ => MatchError::too_long::<V>(rule, input, "an input shorter than 4 GiB"),
    })
}

/// [`tree_of`] that holds at most `max_nodes` nodes while it builds: a tree of more
/// is refused with [`TreeError::TooManyNodes`], memory staying at `max_nodes` nodes
/// (20 bytes each) whatever the input. The match still runs to its end, so an input
/// that does not match is [`TreeError::NoMatch`] whatever the size of its tree, and
/// the time stays linear in the input, as [`tree_of`]'s does.
///
/// ```
/// use iri_grammar::{tree::{tree_of_at_most, TreeError}, Iri, Rule};
/// let t = tree_of_at_most::<Iri>(Rule::IriReference, "http://a/b/c", 100).unwrap();
/// assert_eq!(t.nodes().count(), 10); // IRI-reference, IRI, scheme, ..., isegment "c"
/// let e = tree_of_at_most::<Iri>(Rule::IriReference, "http://a/b/c", 9).unwrap_err();
/// // The tenth node, the segment "c", is one too many.
/// assert!(matches!(e, TreeError::TooManyNodes { max_nodes: 9, byte_offset: 11, .. }));
/// assert!(matches!(
///     tree_of_at_most::<Iri>(Rule::IriReference, "a b/c", 1),
///     Err(TreeError::NoMatch(_))
/// ));
/// ```
pub fn tree_of_at_most<V: Variant>(
    rule: Rule,
    input: &str,
    max_nodes: usize,
) -> Result<ParseTree<'_>, TreeError> {
    build::<V>(rule, input, u32::try_from(max_nodes).unwrap_or(u32::MAX))
}

/// The tree of `input` by `rule`, holding at most `max` nodes.
fn build<V: Variant>(rule: Rule, input: &str, max: u32) -> Result<ParseTree<'_>, TreeError> {
    // A tree's positions are u32.
    if input.len() >= MatchError::LONGEST {
        return Err(TreeError::NoMatch(MatchError::too_long::<V>(
            rule,
            input,
            "an input shorter than 4 GiB",
        )));
    }
    // Room for the nodes of most inputs, so that the arena rarely grows; at most
    // 1 KiB, which the allocator serves from its per-thread cache (a larger first
    // block would come from the shared heap, slower for every tree).
    let room = Vec::with_capacity((8 + input.len() / 4).min(32).min(max as usize));
    let (result, mut nodes, beyond) =
        runtime::Tree::collect_at_most(room, max, || full_match::<V, runtime::Tree>(rule, input));
    let Ok(top) = result else {
        return Err(TreeError::NoMatch(explain::<V>(rule, input)));
    };
    let too_many = |start_rem: usize| {
        let byte_offset = input.len() - start_rem;
        TreeError::TooManyNodes {
            max_nodes: max as usize,
            byte_offset,
            char_offset: input[..byte_offset].chars().count(),
        }
    };
    if let Some(start_rem) = beyond {
        return Err(too_many(start_rem as usize));
    }
    // The match's nodes are the whole arena (failed attempts were cut back), in
    // pre-order. The root is the rule asked for, even a character rule (which folds
    // away elsewhere): the match's one node, or a node put around its nodes.
    debug_assert!(top.is_empty() || (top.start == 0 && top.end as usize == nodes.len()));
    let top = top.range();
    nodes.truncate(top.end);
    if top.start != 0 {
        nodes.drain(..top.start);
    }
    let whole = nodes.len();
    let rooted = nodes
        .first()
        .is_some_and(|first| first.rule == rule && first.size as usize == whole);
    if !rooted {
        let root = RawNode {
            rule,
            start_rem: input.len() as u32,
            end_rem: 0,
            size: nodes.len() as u32 + 1,
            alternative: None,
        };
        if nodes.len() >= max as usize {
            // With the root before them, the last node held is the one too many
            // (the root itself when no node may be held).
            let start_rem = nodes.last().map_or(input.len(), |n| n.start_rem as usize);
            return Err(too_many(start_rem));
        }
        nodes.insert(0, root);
    }
    Ok(ParseTree {
        variant: V::NAME,
        input,
        nodes,
    })
}

impl ParseTree<'_> {
    /// One rule a line, indented by depth: `rule start..end "text"`.
    ///
    /// ```
    /// use iri_grammar::{parse_tree, Iri};
    /// let t = parse_tree::<Iri>("ihost", "1.2.3.4").unwrap();
    /// assert_eq!(t.to_text(), "ihost 0..7 \"1.2.3.4\"\n  IPv4address 0..7 \"1.2.3.4\"\n    \
    /// dec-octet 0..1 \"1\"\n    dec-octet 2..3 \"2\"\n    dec-octet 4..5 \"3\"\n    \
    /// dec-octet 6..7 \"4\"\n");
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = self.write_text(&mut out);
        out
    }

    /// [`to_text`](Self::to_text) written into `out` line by line as the tree is
    /// walked: a tree's text is many times its input (each line quotes its node's
    /// text), so a writer that lets lines go need not hold it whole.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn write_text<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        render::write_text(
            out,
            self.root(),
            |n| n.children(),
            |n, depth, out| {
                render::write_rule(out, depth, n.rule(), n.start(), n.end(), n.text())?;
                out.write_char('\n')
            },
        )
    }

    /// The tree as a Graphviz DOT graph, one box per node labelled with rule and text.
    ///
    /// ```
    /// use iri_grammar::{parse_tree, Uri};
    /// let dot = parse_tree::<Uri>("scheme", "http").unwrap().to_dot();
    /// assert!(dot.starts_with("digraph parse_tree {"));
    /// assert!(dot.contains(r#"n0 [label="scheme\n\"http\""]"#));
    /// ```
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        let _ = self.write_dot(&mut out, "parse_tree");
        out
    }

    /// [`to_dot`](Self::to_dot) written into `out` as the tree is walked, the graph
    /// named `name` (a DOT identifier: letters, digits and `_`).
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn write_dot<W: fmt::Write + ?Sized>(&self, out: &mut W, name: &str) -> fmt::Result {
        render::write_dot(
            out,
            name,
            self.root(),
            |n| n.children(),
            |n| render::rule_label(n.rule(), n.text()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combinators::Tree;
    use crate::grammar::generated::ipath_abempty;
    use crate::{Iri, Uri};

    fn names(t: &ParseTree<'_>) -> Vec<(&'static str, Range<usize>)> {
        t.nodes().map(|n| (n.rule(), n.span())).collect()
    }

    /// A tree built while another is being collected (a reader that parses again)
    /// leaves the outer arena as it was: each `collect` has its own.
    #[test]
    fn a_tree_inside_a_tree_keeps_both() {
        let alone = tree_of::<Iri>(Rule::IriReference, "http://a/b?c").unwrap();
        let (outer, inner) = runtime::Tree::collect(
            || {
                let outer = full_match::<Iri, Tree>(Rule::IpathAbempty, "/x/y").unwrap();
                let inner = tree_of::<Iri>(Rule::IriReference, "http://a/b?c").unwrap();
                (outer, inner)
            },
            |(outer, inner), arena| {
                let rules: Vec<_> = arena[outer.range()]
                    .iter()
                    .map(|n| (n.rule, n.size))
                    .collect();
                (rules, inner)
            },
        );
        assert_eq!(
            outer,
            [
                (Rule::IpathAbempty, 3),
                (Rule::Isegment, 1),
                (Rule::Isegment, 1)
            ]
        );
        assert_eq!(names(&inner), names(&alone));
    }

    /// Outside a `collect`, Tree mode has nowhere to write: it records nothing
    /// (its nodes could not be read) and matches as the other modes do.
    #[test]
    fn tree_mode_outside_collect_matches_and_records_nothing() {
        let (rest, nodes) = ipath_abempty::<Uri, Tree>("/a/b?q").unwrap();
        assert_eq!((rest, nodes), ("?q", runtime::Nodes::NONE));
        let t = tree_of::<Uri>(Rule::IpathAbempty, "/a/b").unwrap();
        assert_eq!(
            names(&t),
            [("path-abempty", 0..4), ("segment", 1..2), ("segment", 3..4)]
        );
    }

    /// `*( "/" isegment )` is written `Delimited` (one loop, no call of `isegment`
    /// per segment): in Check and Tree modes it matches what the repetition it wraps
    /// matches, with the same nodes, in every grammar, on paths with empty segments,
    /// percent-encodings good and bad, characters beyond ASCII and what ends a path.
    #[test]
    fn delimited_runs_are_their_repetition() {
        use crate::combinators::unstable::{rule, Cat, Lit, Parse, Repeat, INF};
        use crate::combinators::{Check, PResult};
        use crate::grammar::generated::isegment;
        use crate::{Leiri, Variant};
        const PIECES: [&str; 14] = [
            "/", "/", "a", "Zz9", "%41", "%4", "%zz", "%", "\u{e9}", "\u{202e}", ";", "?", "#", " ",
        ];
        fn repetition<V: Variant>(i: &str) -> PResult<'_, Tree> {
            let body = Repeat(0, INF, Cat((Lit("/"), isegment::<V, Tree>)));
            rule::<V, Tree, _>(Rule::IpathAbempty, i, body)
        }
        fn both<V: Variant>(s: &str) {
            let tree = |p: &dyn Fn(&str) -> PResult<'_, Tree>| {
                runtime::Tree::collect(
                    || p(s).map(|(rest, nodes)| (rest.len(), nodes)),
                    |r, arena| r.map(|(rest, nodes)| (rest, arena[nodes.range()].to_vec())),
                )
            };
            let delimited = tree(&ipath_abempty::<V, Tree>);
            assert!(delimited.is_ok(), "{s:?}");
            assert_eq!(delimited, tree(&repetition::<V>), "{s:?}");
            let generic = Repeat(0, INF, Cat((Lit("/"), isegment::<V, Check>)));
            assert_eq!(
                ipath_abempty::<V, Check>(s).map(|(rest, ())| rest),
                Parse::<V, Check>::parse(&generic, s).map(|(rest, ())| rest),
                "{s:?}"
            );
        }
        let mut next = crate::testing::numbers(0x2545_f491_4f6c_dd1d);
        for n in 0..20_000 {
            let s: String = (0..n % 9).map(|_| PIECES[next(PIECES.len())]).collect();
            both::<Uri>(&s);
            both::<Iri>(&s);
            both::<Leiri>(&s);
        }
    }

    /// A bound of `max` nodes gives the tree itself when it has at most `max` nodes,
    /// else `TooManyNodes` at the start of the node that comes `max`-th from 0 in
    /// pre-order (the first not held); an input that does not match is `NoMatch`
    /// whatever the bound. Over paths, hosts, percent-encodings and failed
    /// attempts (`IPv6address` tries its forms in order, `IRI-reference` its two
    /// alternatives), in every grammar, for every bound up to the tree's size.
    #[test]
    fn a_bound_gives_the_tree_or_the_first_node_beyond_it() {
        use crate::{Leiri, Variant};
        const PIECES: [&str; 14] = [
            "/", "//", "a", "http:", "%41", "%4", "[::1]", "1.2.3.4", "\u{e9}", "?", "#", " ", ":",
            "[v1.x]",
        ];
        fn each<V: Variant>(s: &str) {
            let whole = tree_of::<V>(Rule::IriReference, s);
            let count = whole.as_ref().map_or(0, |t| t.nodes().count());
            for max in 0..=count + 1 {
                let bounded = tree_of_at_most::<V>(Rule::IriReference, s, max);
                match (&whole, bounded) {
                    (Err(e), Err(TreeError::NoMatch(b))) => assert_eq!(e, &b, "{s:?}"),
                    (Ok(t), Ok(b)) => {
                        assert!(count <= max, "{s:?} {max}");
                        assert_eq!(names(t), names(&b), "{s:?} {max}");
                    }
                    (
                        Ok(t),
                        Err(TreeError::TooManyNodes {
                            max_nodes,
                            byte_offset,
                            char_offset,
                        }),
                    ) => {
                        assert!(count > max && max_nodes == max, "{s:?} {max}");
                        let first_beyond = t.nodes().nth(max).unwrap().start();
                        assert_eq!(byte_offset, first_beyond, "{s:?} {max}");
                        assert_eq!(char_offset, s[..byte_offset].chars().count());
                    }
                    (w, b) => panic!("{s:?} {max}: {:?} but {b:?}", w.as_ref().map(names)),
                }
            }
        }
        let mut next = crate::testing::numbers(0x9e37_79b9_7f4a_7c15);
        for n in 0..3_000 {
            let s: String = (0..n % 7).map(|_| PIECES[next(PIECES.len())]).collect();
            each::<Uri>(&s);
            each::<Iri>(&s);
            each::<Leiri>(&s);
        }
    }

    /// A bounded arena holds at most its bound, however many nodes the match has:
    /// a million empty segments (a million nodes, 20 MB) under a bound of 1,000
    /// leave an arena of at most 1,000 places; counting the others, the match ends
    /// as the unbounded one does.
    #[test]
    fn a_bound_holds_the_memory_of_the_arena() {
        let path = "/".repeat(1_000_000);
        let whole = tree_of::<Iri>(Rule::IriReference, &path).unwrap();
        let (result, nodes, beyond) = runtime::Tree::collect_at_most(Vec::new(), 1_000, || {
            full_match::<Iri, Tree>(Rule::IriReference, &path).map(|n| n.len() as usize)
        });
        assert_eq!(result, Ok(whole.nodes().count()));
        assert!(
            nodes.len() == 1_000 && nodes.capacity() <= 1_000,
            "{}",
            nodes.capacity()
        );
        let first_beyond = whole.nodes().nth(1_000).unwrap().start();
        assert_eq!(beyond, Some((path.len() - first_beyond) as u32));
        let e = tree_of_at_most::<Iri>(Rule::IriReference, &path, 1_000).unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "the parse tree has more than 1000 nodes (the bound was passed at char \
                 {first_beyond})"
            )
        );
    }

    /// Nodes come out in pre-order with their subtrees' sizes, also where failed
    /// alternatives wrote nodes first (`IPv6address` tries its forms in order) and
    /// the root is a rule the match has no node of (a character rule).
    #[test]
    fn pre_order_with_failed_attempts_and_folded_roots() {
        let t = tree_of::<Iri>(Rule::Ihost, "[::ffff:1.2.3.4]").unwrap();
        let got: Vec<_> = t.nodes().map(|n| (n.rule(), n.text())).collect();
        assert_eq!(
            got,
            [
                ("ihost", "[::ffff:1.2.3.4]"),
                ("IP-literal", "[::ffff:1.2.3.4]"),
                ("IPv6address", "::ffff:1.2.3.4"),
                ("h16", "ffff"),
                ("ls32", "1.2.3.4"),
                ("IPv4address", "1.2.3.4"),
                ("dec-octet", "1"),
                ("dec-octet", "2"),
                ("dec-octet", "3"),
                ("dec-octet", "4"),
            ]
        );
        assert_eq!(t.root().alternative(), Some((1, 3)));
        let v6 = t.nodes().nth(2).unwrap();
        assert_eq!(v6.alternative(), Some((6, 9)));
        assert_eq!(v6.children().count(), 2);
        let digit = tree_of::<Uri>(Rule::Digit, "7").unwrap();
        assert_eq!(names(&digit), [("DIGIT", 0..1)]);
        let pct = tree_of::<Uri>(Rule::Ipchar, "%41").unwrap();
        assert_eq!(names(&pct), [("pchar", 0..3), ("pct-encoded", 0..3)]);
    }
}
