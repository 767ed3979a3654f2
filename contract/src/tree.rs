//! Parse trees as text and as Graphviz DOT, written alike from the combinators' trees
//! (`iri-grammar`'s `ParseTree`), the oracle's (`iri-grammar-abnf`'s `OracleTree`) and
//! the command line's trees with literal leaves: the tests compare the first two to
//! the letter, so the format is written once, here.
//!
//! The walks keep their own stack, not the call stack: a tree may be as deep as its
//! input is long. Children come as iterators, never collected: one node may have as
//! many children as its input has characters.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use core::fmt::{self, Write};

/// A tree as text, one node a line in preorder: `line(node, depth, out)` writes each
/// line, its newline included (a rule's with [`write_rule`]).
///
/// ```
/// use iri_grammar_contract::tree::{text, write_rule};
/// // A node is (rule, start, end, children).
/// type N = (&'static str, usize, usize, &'static [usize]);
/// const NODES: [N; 3] = [("a", 0, 2, &[1, 2]), ("b", 0, 1, &[]), ("c", 1, 2, &[])];
/// let out = text(0, |k| NODES[k].3.iter().copied(), |k, depth, out| {
///     let (rule, start, end, _) = NODES[k];
///     let _ = write_rule(out, depth, rule, start, end, &"xy"[start..end]);
///     out.push('\n');
/// });
/// assert_eq!(out, "a 0..2 \"xy\"\n  b 0..1 \"x\"\n  c 1..2 \"y\"\n");
/// ```
pub fn text<N: Copy, I: Iterator<Item = N>>(
    root: N,
    children: impl Fn(N) -> I,
    mut line: impl FnMut(N, usize, &mut String),
) -> String {
    let mut out = String::new();
    let _ = write_text(&mut out, root, children, |n, depth, out| {
        line(n, depth, out);
        Ok(())
    });
    out
}

/// [`text`] written into `out` as it is walked, line after line, so that a writer
/// can let the lines go before the tree is done (a tree's text is many times its
/// input). Stops at the first error `line` or `out` returns.
pub fn write_text<O: Write + ?Sized, N: Copy, I: Iterator<Item = N>>(
    out: &mut O,
    root: N,
    children: impl Fn(N) -> I,
    mut line: impl FnMut(N, usize, &mut O) -> fmt::Result,
) -> fmt::Result {
    line(root, 0, out)?;
    let mut stack = vec![children(root)];
    while let Some(siblings) = stack.last_mut() {
        match siblings.next() {
            Some(c) => {
                line(c, stack.len(), out)?;
                stack.push(children(c));
            }
            None => {
                stack.pop();
            }
        }
    }
    Ok(())
}

/// A rule node's line, without its newline: `rule start..end "text"` (byte offsets,
/// the text as Rust's `Debug` quotes it), indented two spaces a level.
pub fn write_rule<O: Write + ?Sized>(
    out: &mut O,
    depth: usize,
    rule: &str,
    start: usize,
    end: usize,
    text: &str,
) -> fmt::Result {
    write!(
        out,
        "{:indent$}{rule} {start}..{end} {text:?}",
        "",
        indent = depth * 2
    )
}

/// A tree as a Graphviz graph named `parse_tree`: nodes numbered `n0`, `n1`, ... in
/// preorder, each with the attributes `attributes(node)` gives (a rule's are
/// [`rule_label`]), and an edge from a node to each child, written when the child's
/// subtree is done.
///
/// ```
/// use iri_grammar_contract::tree::{dot, rule_label};
/// let out = dot(0usize, |k| (k == 0).then_some(1).into_iter(), |k| {
///     rule_label(["a", "b"][k], "x")
/// });
/// assert_eq!(
///     out,
///     "digraph parse_tree {\n  node [shape=box, fontname=\"monospace\"];\n  \
///      n0 [label=\"a\\n\\\"x\\\"\"];\n  n1 [label=\"b\\n\\\"x\\\"\"];\n  n0 -> n1;\n}\n"
/// );
/// ```
pub fn dot<N: Copy, I: Iterator<Item = N>>(
    root: N,
    children: impl Fn(N) -> I,
    attributes: impl FnMut(N) -> String,
) -> String {
    let mut out = String::new();
    let _ = write_dot(&mut out, "parse_tree", root, children, attributes);
    out
}

/// [`dot`] written into `out` as it is walked, the graph named `name` (an identifier:
/// letters, digits and `_`, not checked), so that a writer can let the lines go
/// before the tree is done.
pub fn write_dot<O: Write + ?Sized, N: Copy, I: Iterator<Item = N>>(
    out: &mut O,
    name: &str,
    root: N,
    children: impl Fn(N) -> I,
    mut attributes: impl FnMut(N) -> String,
) -> fmt::Result {
    writeln!(
        out,
        "digraph {name} {{\n  node [shape=box, fontname=\"monospace\"];"
    )?;
    let mut next = 0usize;
    let mut enter = |n: N, out: &mut O| {
        let id = next;
        next += 1;
        writeln!(out, "  n{id} [{}];", attributes(n)).map(|()| id)
    };
    let root_id = enter(root, out)?;
    let mut stack = vec![(root_id, children(root))];
    while let Some((_, siblings)) = stack.last_mut() {
        match siblings.next() {
            Some(c) => {
                let id = enter(c, out)?;
                stack.push((id, children(c)));
            }
            None => {
                let Some((id, _)) = stack.pop() else {
                    break;
                };
                if let Some(&(parent, _)) = stack.last() {
                    writeln!(out, "  n{parent} -> n{id};")?;
                }
            }
        }
    }
    out.write_str("}\n")
}

/// A rule node's attributes: its name over its quoted text, in a box.
pub fn rule_label(rule: &str, text: &str) -> String {
    format!(
        "label=\"{}\\n{}\"",
        dot_escape(rule),
        dot_escape(&format!("{text:?}"))
    )
}

/// `s` inside a DOT string: `\` and `"` escaped.
pub fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
