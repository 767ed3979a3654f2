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
use alloc::{format, vec};
use core::fmt;
use core::ops::Range;

/// A node as the tree stores it: the tree keeps all its nodes in one vector, in
/// pre-order (a node, then its subtrees), each with the size of its subtree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    rule: &'static str,
    id: Rule,
    start: u32,
    end: u32,
    /// Nodes in the subtree, this one included.
    size: u32,
    alternative: Option<(u16, u16)>,
}

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
    entries: &'t [Entry],
    input: &'t str,
    index: usize,
}

impl<'t> Node<'t> {
    fn entry(&self) -> &'t Entry {
        &self.entries[self.index]
    }

    /// The rule's name in the grammar of the tree.
    pub fn rule(&self) -> &'static str {
        self.entry().rule
    }

    /// The generated rule.
    pub fn id(&self) -> Rule {
        self.entry().id
    }

    /// Byte offset where the match starts.
    pub fn start(&self) -> usize {
        self.entry().start as usize
    }

    /// Byte offset where the match ends.
    pub fn end(&self) -> usize {
        self.entry().end as usize
    }

    /// The byte range it matched.
    pub fn span(&self) -> Range<usize> {
        self.start()..self.end()
    }

    /// The text it matched.
    pub fn text(&self) -> &'t str {
        &self.input[self.span()]
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
        let (entries, input) = (self.entries, self.input);
        let end = self.index + self.entry().size as usize;
        let mut at = self.index + 1;
        core::iter::from_fn(move || {
            (at < end).then(|| {
                let n = Node {
                    entries,
                    input,
                    index: at,
                };
                at += entries[at].size as usize;
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
    entries: Vec<Entry>,
}

impl<'a> ParseTree<'a> {
    /// The node of the rule asked for, covering the whole input.
    pub fn root(&self) -> Node<'_> {
        Node {
            entries: &self.entries,
            input: self.input,
            index: 0,
        }
    }

    /// Every node, in pre-order (a node before the nodes inside it).
    pub fn nodes(&self) -> impl Iterator<Item = Node<'_>> {
        (0..self.entries.len()).map(|index| Node {
            entries: &self.entries,
            input: self.input,
            index,
        })
    }
}

/// Why no tree could be built.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    let entries = runtime::Tree::collect(
        || full_match::<V, runtime::Tree>(rule, input),
        |result, arena| {
            result.ok().map(|top| {
                let top = if top.is_empty() {
                    &[][..]
                } else {
                    &arena[top.start as usize..top.end as usize]
                };
                entries::<V>(rule, input.len(), top)
            })
        },
    );
    match entries {
        Some(entries) => Ok(ParseTree {
            variant: V::NAME,
            input,
            entries,
        }),
        None => Err(explain::<V>(rule, input)),
    }
}

/// The entries of a tree in pre-order from the nodes of a match (whole subtrees in
/// post-order, as the arena holds them). The root is the rule asked for, even a
/// character rule (which folds away elsewhere): the match's one node, or a node made
/// around the match's nodes.
fn entries<V: Variant>(rule: Rule, len: usize, top: &[RawNode]) -> Vec<Entry> {
    let root = Entry {
        rule: rule.name::<V>(),
        id: rule,
        start: 0,
        end: len as u32,
        size: top.len() as u32 + 1,
        alternative: None,
    };
    let wrapped =
        !matches!(top.last(), Some(last) if last.rule == rule && last.size as usize == top.len());
    let mut out = vec![root; top.len() + usize::from(wrapped)];
    let first = usize::from(wrapped);
    fill::<V>(top, len, &mut out[first..]);
    out
}

/// Writes the subtrees of `post` (whole subtrees in post-order) into `out` (as
/// many entries) in pre-order. A subtree's root is its last node in post-order and
/// its first in pre-order; its children's subtrees, found from the end by their
/// sizes, fill the rest of its range from the back.
fn fill<V: Variant>(post: &[RawNode], len: usize, out: &mut [Entry]) {
    let mut end = post.len();
    while end > 0 {
        let n = &post[end - 1];
        let size = n.size as usize;
        let (start, root) = (end - size, end - 1);
        out[start] = Entry {
            rule: n.rule.name::<V>(),
            id: n.rule,
            start: (len - n.start_rem) as u32,
            end: (len - n.end_rem) as u32,
            size: n.size,
            alternative: n.alternative,
        };
        fill::<V>(&post[start..root], len, &mut out[start + 1..end]);
        end = start;
    }
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
        fn walk(n: Node<'_>, depth: usize, out: &mut String) {
            use fmt::Write;
            let _ = writeln!(
                out,
                "{:indent$}{} {}..{} {:?}",
                "",
                n.rule(),
                n.start(),
                n.end(),
                n.text(),
                indent = depth * 2
            );
            for c in n.children() {
                walk(c, depth + 1, out);
            }
        }
        let mut out = String::new();
        walk(self.root(), 0, &mut out);
        out
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
        fn escape(s: &str) -> String {
            s.replace('\\', "\\\\").replace('"', "\\\"")
        }
        fn walk(n: Node<'_>, next: &mut usize, out: &mut String) -> usize {
            use fmt::Write;
            let id = *next;
            *next += 1;
            let _ = writeln!(
                out,
                "  n{id} [label=\"{}\\n{}\"];",
                escape(n.rule()),
                escape(&format!("{:?}", n.text()))
            );
            for c in n.children() {
                let child = walk(c, next, out);
                let _ = writeln!(out, "  n{id} -> n{child};");
            }
            id
        }
        let mut out =
            String::from("digraph parse_tree {\n  node [shape=box, fontname=\"monospace\"];\n");
        let mut next = 0;
        walk(self.root(), &mut next, &mut out);
        out.push_str("}\n");
        out
    }
}
