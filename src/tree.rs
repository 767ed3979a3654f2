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
use std::fmt;

/// A node: a rule and the part of the input it matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The rule's name in the grammar of the tree.
    pub rule: &'static str,
    /// The generated rule.
    pub id: Rule,
    /// Byte offset where the match starts.
    pub start: usize,
    /// Byte offset where the match ends.
    pub end: usize,
    /// The rules matched inside, in order.
    pub children: Vec<Node>,
}

/// The parse tree of an input matched against a rule.
///
/// ```
/// use iri_grammar::{parse_tree, Uri};
/// let t = parse_tree::<Uri>("URI", "http://a/b").unwrap();
/// assert_eq!(t.text(&t.root.children[1]), "//a/b");
/// assert_eq!(t.root.children[1].rule, "hier-part");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseTree<'a> {
    /// The grammar.
    pub variant: VariantName,
    /// The input.
    pub input: &'a str,
    /// The node of the rule asked for, covering the whole input.
    pub root: Node,
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

impl std::error::Error for TreeError {}

/// Matches all of `input` against the rule named `rule` in grammar `V` and returns its tree.
///
/// ```
/// use iri_grammar::{parse_tree, Leiri};
/// let t = parse_tree::<Leiri>("ipath", "/a b").unwrap();
/// assert_eq!(t.root.rule, "ipath");
/// assert_eq!(t.root.children[0].rule, "ipath-abempty");
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
/// assert_eq!(t.root.children.iter().map(|n| n.rule).collect::<Vec<_>>(), ["h16"]);
/// ```
pub fn tree_of<V: Variant>(rule: Rule, input: &str) -> Result<ParseTree<'_>, MatchError> {
    let raw = match full_match::<V, runtime::Tree>(rule, input) {
        Ok(raw) => raw,
        Err(_) => return Err(explain::<V>(rule, input)),
    };
    let len = input.len();
    let convert = |n: RawNode| convert::<V>(n, len);
    let mut nodes: Vec<Node> = raw.into_iter().map(convert).collect();
    // The root is the rule asked for, even a character rule (which folds away elsewhere).
    let root = if nodes.len() == 1 && nodes[0].id == rule {
        nodes.remove(0)
    } else {
        Node {
            rule: rule.name::<V>(),
            id: rule,
            start: 0,
            end: len,
            children: nodes,
        }
    };
    Ok(ParseTree {
        variant: V::NAME,
        input,
        root,
    })
}

fn convert<V: Variant>(n: RawNode, len: usize) -> Node {
    Node {
        rule: n.rule.name::<V>(),
        id: n.rule,
        start: len - n.start_rem,
        end: len - n.end_rem,
        children: n
            .children
            .into_iter()
            .map(|c| convert::<V>(c, len))
            .collect(),
    }
}

impl<'a> ParseTree<'a> {
    /// The text a node matched.
    pub fn text(&self, n: &Node) -> &'a str {
        &self.input[n.start..n.end]
    }

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
        fn walk(t: &ParseTree<'_>, n: &Node, depth: usize, out: &mut String) {
            use fmt::Write;
            let _ = writeln!(
                out,
                "{:indent$}{} {}..{} {:?}",
                "",
                n.rule,
                n.start,
                n.end,
                t.text(n),
                indent = depth * 2
            );
            for c in &n.children {
                walk(t, c, depth + 1, out);
            }
        }
        let mut out = String::new();
        walk(self, &self.root, 0, &mut out);
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
        fn walk(t: &ParseTree<'_>, n: &Node, next: &mut usize, out: &mut String) -> usize {
            use fmt::Write;
            let id = *next;
            *next += 1;
            let _ = writeln!(
                out,
                "  n{id} [label=\"{}\\n{}\"];",
                escape(n.rule),
                escape(&format!("{:?}", t.text(n)))
            );
            for c in &n.children {
                let child = walk(t, c, next, out);
                let _ = writeln!(out, "  n{id} -> n{child};");
            }
            id
        }
        let mut out =
            String::from("digraph parse_tree {\n  node [shape=box, fontname=\"monospace\"];\n");
        let mut next = 0;
        walk(self, &self.root, &mut next, &mut out);
        out.push_str("}\n");
        out
    }
}
