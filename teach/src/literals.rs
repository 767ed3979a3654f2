//! Parse trees with the literals as leaves, derived from the library's trees without
//! asking more of them.
//!
//! The library's [`Node`]s are rules only: `scheme 0..4 "http"` has no child for the
//! letters, and `IRI 0..43` has no child for its `":"`. A student reading a tree
//! wants to see every character land somewhere, as in a textbook derivation whose
//! leaves spell the sentence. The literal leaves of a node are the parts of its text
//! that none of its children covers: the gaps between children, and the whole text of
//! a node without children (a character rule folded into its parent, see
//! `src/tree.rs`, leaves its characters to the parent's literal). Read left to right,
//! the leaves of the whole tree spell the input exactly (a test checks it).

use crate::json::{self, Object};
use iri_grammar::tree::{Node, ParseTree};
use iri_grammar_contract::tree as render;
use std::fmt::{self, Write};

/// Where a tree's JSON is written: text, which the writer may hand on after each
/// node ([`TreeOut::spill`]). The command line's record of an input does so, to keep
/// a tree of a huge input from being held whole; a `String` keeps everything.
pub trait TreeOut {
    /// The text written so far (what [`TreeOut::spill`] has not handed on).
    fn text(&mut self) -> &mut String;
    /// A moment where what was written so far may go out.
    fn spill(&mut self) {}
}

impl TreeOut for String {
    fn text(&mut self) -> &mut String {
        self
    }
}

/// One child of a node in a tree with literals: a rule, or a run of literal text.
#[derive(Debug, Clone, Copy)]
pub enum Item<'n> {
    /// A rule node.
    Rule(Node<'n>),
    /// Text of the parent that no child rule covers, as byte offsets `start..end`.
    Literal { start: usize, end: usize },
}

/// The children of `n` with its literal runs between them, in input order. An
/// iterator, not a vector: a path of half a million segments is one node with as many
/// children, and a vector of them took 25 MB, twice that with the literals between.
pub fn items(n: Node<'_>) -> impl Iterator<Item = Item<'_>> {
    let mut at = n.start();
    let end = n.end();
    let mut children = n.children();
    // A child that follows the literal just given.
    let mut next: Option<Node<'_>> = None;
    std::iter::from_fn(move || {
        let c = match next.take().or_else(|| children.next()) {
            Some(c) if c.start() > at => {
                let literal = Item::Literal {
                    start: at,
                    end: c.start(),
                };
                at = c.start();
                next = Some(c);
                return Some(literal);
            }
            Some(c) => c,
            None if end > at => {
                let literal = Item::Literal { start: at, end };
                at = end;
                return Some(literal);
            }
            None => return None,
        };
        at = at.max(c.end());
        Some(Item::Rule(c))
    })
}

/// The literal leaves of the whole tree, left to right, as byte ranges.
#[cfg(test)]
pub fn leaves(n: Node<'_>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    fn walk(n: Node<'_>, out: &mut Vec<(usize, usize)>) {
        for item in items(n) {
            match item {
                Item::Rule(c) => walk(c, out),
                Item::Literal { start, end } => out.push((start, end)),
            }
        }
    }
    walk(n, &mut out);
    out
}

/// The tree as text into `out`, one rule or literal a line, indented by depth, written
/// line by line as the tree is walked. Rules read as the library writes them (`rule
/// start..end "text"`), then, for a rule defined as an alternation, the alternative
/// it took (`(alternative 6 of 9)`: a student sees which line of the definition
/// matched); a literal is its text in quotes, then its byte offsets, so a line that
/// starts with a quote is a leaf.
pub fn write_text<W: fmt::Write + ?Sized>(t: &ParseTree<'_>, out: &mut W) -> fmt::Result {
    render::write_text(
        out,
        Item::Rule(t.root()),
        children,
        |item, depth, out| match item {
            Item::Rule(n) => {
                render::write_rule(out, depth, n.rule(), n.start(), n.end(), n.text())?;
                match n.alternative() {
                    Some((k, of)) => writeln!(out, " (alternative {k} of {of})"),
                    None => out.write_char('\n'),
                }
            }
            Item::Literal { start, end } => writeln!(
                out,
                "{:indent$}{:?} {start}..{end}",
                "",
                &t.input[start..end],
                indent = depth * 2
            ),
        },
    )
}

/// The tree as Graphviz DOT: rules in boxes, literals as plain text below them, the
/// graph named `name`, written into `out` as the tree is walked.
pub fn write_dot<W: fmt::Write + ?Sized>(
    t: &ParseTree<'_>,
    out: &mut W,
    name: &str,
) -> fmt::Result {
    render::write_dot(
        out,
        name,
        Item::Rule(t.root()),
        children,
        |item| match item {
            Item::Rule(n) => render::rule_label(n.rule(), n.text()),
            Item::Literal { start, end } => format!(
                "shape=plaintext, label=\"{}\"",
                render::dot_escape(&format!("{:?}", &t.input[start..end]))
            ),
        },
    )
}

/// The children of a rule with the literals between them; a literal has none.
fn children(item: Item<'_>) -> impl Iterator<Item = Item<'_>> {
    match item {
        Item::Rule(n) => Some(items(n)),
        Item::Literal { .. } => None,
    }
    .into_iter()
    .flatten()
}

/// Byte offset → character offset, for pages that index the input by code point
/// (JavaScript's `Array.from(text)`).
pub struct CharIndex {
    /// Byte offset of each character, then the input's length.
    starts: Vec<usize>,
}

impl CharIndex {
    pub fn new(input: &str) -> CharIndex {
        let mut starts: Vec<usize> = input.char_indices().map(|(k, _)| k).collect();
        starts.push(input.len());
        CharIndex { starts }
    }

    /// The character offset of a byte offset on a character boundary.
    pub fn chars(&self, byte: usize) -> usize {
        self.starts.partition_point(|&s| s < byte)
    }
}

/// A node's fields and children as JSON, literals included when `literals`:
/// `"rule","text","start","end"` (byte offsets) and, with `chars`, `"from","to"`
/// (character offsets); a literal child is `{"literal":..,"start":..,"end":..}`.
pub fn node_json(
    t: &ParseTree<'_>,
    n: Node<'_>,
    literals: bool,
    chars: Option<&CharIndex>,
    out: &mut impl TreeOut,
) {
    out.text().push('{');
    node_members(t, n, literals, chars, out);
}

/// [`node_json`] without its opening brace: for an object that begins with fields of
/// its own (`tree`'s record puts the input's first). Written straight into `out`,
/// which may let it go out after each node ([`TreeOut::spill`]); not built aside, where
/// each node above a long path kept a copy of its text (the whole input, or nearly)
/// until its children were written.
pub fn node_members(
    t: &ParseTree<'_>,
    n: Node<'_>,
    literals: bool,
    chars: Option<&CharIndex>,
    out: &mut impl TreeOut,
) {
    let o = out.text();
    o.push_str("\"rule\":");
    json::string(n.rule(), o);
    o.push_str(",\"text\":");
    json::string(n.text(), o);
    let _ = write!(o, ",\"start\":{},\"end\":{}", n.start(), n.end());
    if let Some((k, of)) = n.alternative() {
        let _ = write!(o, ",\"alternative\":{k},\"of\":{of}");
    }
    if let Some(ci) = chars {
        let _ = write!(
            o,
            ",\"from\":{},\"to\":{}",
            ci.chars(n.start()),
            ci.chars(n.end())
        );
    }
    o.push_str(",\"children\":[");
    out.spill();
    // Walked, not collected: a path's node can have half a million children.
    let (mut with_literals, mut rules);
    let kids: &mut dyn Iterator<Item = Item<'_>> = if literals {
        with_literals = items(n);
        &mut with_literals
    } else {
        rules = n.children().map(Item::Rule);
        &mut rules
    };
    for (k, item) in kids.enumerate() {
        if k > 0 {
            out.text().push(',');
        }
        match item {
            Item::Rule(c) => node_json(t, c, literals, chars, out),
            Item::Literal { start, end } => {
                let mut o = Object::new()
                    .str("literal", &t.input[start..end])
                    .num("start", start)
                    .num("end", end);
                if let Some(ci) = chars {
                    o = o.num("from", ci.chars(start)).num("to", ci.chars(end));
                }
                out.text().push_str(&o.finish());
            }
        }
    }
    out.text().push_str("]}");
    out.spill();
}

#[cfg(test)]
mod tests {
    use super::*;
    use iri_grammar::{parse_tree, Iri, Leiri, Uri};

    fn spelled(t: &ParseTree<'_>) -> String {
        leaves(t.root())
            .into_iter()
            .map(|(s, e)| &t.input[s..e])
            .collect()
    }

    #[test]
    fn leaves_spell_the_input() {
        for input in [
            "http://résumé.example.org/ros%C3%A9?q=1#f",
            "",
            "a:",
            "//[::1]:80/a/./b?#",
            "mailto:user@example.org",
            "../g;x?y#s",
        ] {
            let t = parse_tree::<Iri>("IRI-reference", input).unwrap();
            assert_eq!(spelled(&t), input);
        }
        let t = parse_tree::<Uri>("IPv6address", "1:2:3:4:5:6:1.2.3.4").unwrap();
        assert_eq!(spelled(&t), "1:2:3:4:5:6:1.2.3.4");
        let t = parse_tree::<Leiri>("LEIRI", "http://a/ b<c>").unwrap();
        assert_eq!(spelled(&t), "http://a/ b<c>");
    }

    #[test]
    fn literals_are_the_gaps_between_children() {
        let t = parse_tree::<Uri>("URI", "http://a").unwrap();
        let mut text = String::new();
        write_text(&t, &mut text).unwrap();
        assert!(text.contains("\n    \"http\" 0..4\n"), "{text}");
        assert!(text.contains("\n  \":\" 4..5\n"), "{text}");
        // hier-part = "//" authority path-abempty / path-absolute / ...: the first.
        assert!(
            text.contains("\n  hier-part 5..8 \"//a\" (alternative 1 of 4)\n"),
            "{text}"
        );
        assert!(text.contains("\n    \"//\" 5..7\n"), "{text}");
    }

    #[test]
    fn char_index_counts_code_points() {
        let ci = CharIndex::new("aé納b");
        assert_eq!([0, 1, 3, 6, 7].map(|b| ci.chars(b)), [0, 1, 2, 3, 4]);
    }
}
