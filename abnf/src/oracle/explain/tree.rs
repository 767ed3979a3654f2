//! Parse trees by the oracle: the tree of an input that matches, written as the
//! combinators' trees are, and the places where the ABNF allows another parse.

use super::OracleFailure;
use crate::model::table::Expr;
use crate::oracle::Oracle;
/// Trees as text and DOT, written as the combinators' are.
use iri_grammar_contract::tree as render;
use std::fmt;

/// A node of an oracle parse tree: a rule and the bytes it matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleNode {
    /// The rule's name, as the grammar writes it.
    pub rule: String,
    /// Byte offset where the match starts.
    pub start: usize,
    /// Byte offset where it ends.
    pub end: usize,
    /// Which alternative of the rule's definition matched (1-based) and of how many,
    /// when the definition is an alternation.
    pub alternative: Option<(usize, usize)>,
    /// The rules inside it, in order.
    pub children: Vec<OracleNode>,
}

/// Drops the children with a stack of its own: a tree as deep as the input nests
/// would overflow the call stack if each node dropped its children in turn.
impl Drop for OracleNode {
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut n) = stack.pop() {
            stack.append(&mut n.children);
        }
    }
}

/// The parse tree of an input, by the oracle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleTree<'i> {
    /// The input.
    pub input: &'i str,
    /// The node of the rule asked for, covering the whole input.
    pub root: OracleNode,
}

impl OracleTree<'_> {
    /// One rule a line, indented by depth: `rule start..end "text"` (byte offsets),
    /// the format of `iri_grammar::ParseTree::to_text`.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = self.write_text(&mut out);
        out
    }

    /// [`to_text`](Self::to_text) written into `out` line by line.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn write_text<W: fmt::Write + ?Sized>(&self, out: &mut W) -> fmt::Result {
        render::write_text(
            out,
            &self.root,
            |n| n.children.iter(),
            |n, depth, out| {
                let text = &self.input[n.start..n.end];
                render::write_rule(out, depth, &n.rule, n.start, n.end, text)?;
                out.write_char('\n')
            },
        )
    }

    /// A Graphviz graph, as `iri_grammar::ParseTree::to_dot` draws one.
    pub fn to_dot(&self) -> String {
        let mut out = String::new();
        let _ = self.write_dot(&mut out, "parse_tree");
        out
    }

    /// [`to_dot`](Self::to_dot) written into `out`, the graph named `name` (a DOT
    /// identifier), as `iri_grammar::ParseTree::write_dot` writes one.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn write_dot<W: fmt::Write + ?Sized>(&self, out: &mut W, name: &str) -> fmt::Result {
        render::write_dot(
            out,
            name,
            &self.root,
            |n| n.children.iter(),
            |n| render::rule_label(&n.rule, &self.input[n.start..n.end]),
        )
    }

    /// The innermost node whose text contains byte `at` (or ends there, at the end
    /// of the input), with the names of those around it, outermost first.
    pub fn path_at(&self, at: usize) -> Vec<&OracleNode> {
        let mut path = vec![&self.root];
        loop {
            let n = path[path.len() - 1];
            let inside = n.children.iter().find(|c| {
                (c.start <= at && at < c.end)
                    || (at == self.input.len() && c.end == at && c.start < at)
            });
            match inside {
                Some(c) => path.push(c),
                None => return path,
            }
        }
    }
}

impl<'g> Oracle<'g> {
    /// The parse tree of `input` matched against `rule` (see the module
    /// documentation for which parse, when there are several).
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammar};
    /// let g = Grammar::from_abnf(&[("v.abnf", "v = num \".\" num\nnum = 1*DIGIT\n")]).unwrap();
    /// let t = Oracle::of(&g).tree("v", "10.2").unwrap();
    /// assert_eq!(t.to_text(), "v 0..4 \"10.2\"\n  num 0..2 \"10\"\n  num 3..4 \"2\"\n");
    /// ```
    ///
    /// # Errors
    /// [`OracleFailure::Unknown`] for an unknown rule, [`OracleFailure::NoMatch`] with
    /// the explanation for an input that does not match, [`OracleFailure::Budget`]
    /// when matching and building take more than the budget together
    /// ([`Oracle::with_budget`]).
    pub fn tree<'i>(&self, rule: &str, input: &'i str) -> Result<OracleTree<'i>, OracleFailure> {
        self.counted_tree(rule, input).map(|(tree, _)| tree)
    }

    /// [`Oracle::tree`] with a node for every rule, the rules of one character
    /// (`unreserved`, `sub-delims`, `ALPHA`, `ucschar`) included, which
    /// [`Oracle::tree`] folds into their parent to keep trees readable. For a tool
    /// that must name the rule a character belongs to: `iri conform` names
    /// `sub-delims` for a program that refuses `'`.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let t = Oracle::new(&g, VariantName::Uri).tree_of_every_rule("segment", "'").unwrap();
    /// assert_eq!(t.to_text(), "segment 0..1 \"'\"\n  pchar 0..1 \"'\"\n    sub-delims 0..1 \"'\"\n");
    /// ```
    ///
    /// # Errors
    /// As [`Oracle::tree`].
    pub fn tree_of_every_rule<'i>(
        &self,
        rule: &str,
        input: &'i str,
    ) -> Result<OracleTree<'i>, OracleFailure> {
        let k = self.table.resolve(rule)?;
        let chars: Vec<char> = input.chars().collect();
        let mut b = self.builder(k, rule, input, &chars)?;
        b.singles.iter_mut().for_each(|s| *s = false);
        let root = b.tree(k, 0, chars.len())?;
        Ok(OracleTree { input, root })
    }

    /// [`Oracle::tree`], and the work it took: the oracle's evaluations and the
    /// builder's steps (for the tests that hold the work linear in the input).
    pub(crate) fn counted_tree<'i>(
        &self,
        rule: &str,
        input: &'i str,
    ) -> Result<(OracleTree<'i>, u64), OracleFailure> {
        let k = self.table.resolve(rule)?;
        let chars: Vec<char> = input.chars().collect();
        let mut b = self.builder(k, rule, input, &chars)?;
        let root = b.tree(k, 0, chars.len())?;
        Ok((OracleTree { input, root }, b.work()))
    }
}

/// One place of a parse tree where the ABNF allows another parse: a rule whose
/// definition is an alternation (RFC 5234 §3.2), which took one alternative over
/// some characters while later alternatives match the very same characters. ABNF
/// alternation is unordered, so each is a parse of the input; the tree (and the
/// generated combinators, "first match wins", as RFC 3986 §3.2.2 and RFC 3987 §2.2
/// ask of `IPv4address` against `reg-name`) keeps the first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fork {
    /// The node of the tree where the parses part.
    pub chosen: OracleNode,
    /// The same rule over the same characters by each later alternative that also
    /// matches them, in order; each node's `alternative` says which. Below the
    /// fork, each is built as the tree is (first alternative, longest match).
    pub others: Vec<OracleNode>,
}

/// The parse tree of an input and the places where the ABNF allows other parses
/// ([`Oracle::other_parses`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherParses<'i> {
    /// The tree, as [`Oracle::tree`] builds it.
    pub tree: OracleTree<'i>,
    /// The forks, in the tree's order (preorder: outer rules first).
    pub forks: Vec<Fork>,
    /// Whether there were more forks than the limit asked for: the rest are not
    /// listed.
    pub capped: bool,
}

impl<'g> Oracle<'g> {
    /// The tree of `input` as `rule`, and at each of its rule nodes whose
    /// definition is an alternation, the later alternatives that match the same
    /// characters (the earlier ones cannot: the tree takes the first that does).
    /// At most `limit` forks are listed (`capped` says when there were more); the
    /// work is one check per later alternative of each node of the tree, on the
    /// memo the tree was built with, and one subtree per fork listed.
    ///
    /// Only the alternatives of the rules that have nodes in the tree are compared:
    /// a tree with no fork can still have another derivation inside a group of a
    /// definition (`*( a / b )`), by another split of a concatenation, or inside a
    /// rule of one character, which trees fold into their parent (`iunreserved`).
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammars, VariantName};
    /// let g = Grammars::builtin();
    /// let uri = Oracle::new(&g, VariantName::Uri);
    /// let p = uri.other_parses("host", "1.2.3.4", 16).unwrap();
    /// assert_eq!(p.forks.len(), 1);
    /// let fork = &p.forks[0];
    /// assert_eq!((fork.chosen.rule.as_str(), fork.chosen.alternative), ("host", Some((2, 3))));
    /// assert_eq!(fork.chosen.children[0].rule, "IPv4address");
    /// assert_eq!(fork.others[0].alternative, Some((3, 3)));
    /// assert_eq!(fork.others[0].children[0].rule, "reg-name");
    /// ```
    ///
    /// # Errors
    /// As [`Oracle::tree`].
    pub fn other_parses<'i>(
        &self,
        rule: &str,
        input: &'i str,
        limit: usize,
    ) -> Result<OtherParses<'i>, OracleFailure> {
        self.counted_other_parses(rule, input, limit)
            .map(|(parses, _)| parses)
    }

    /// [`Oracle::other_parses`], and the work it took (as
    /// [`Oracle::counted_tree`]).
    pub(crate) fn counted_other_parses<'i>(
        &self,
        rule: &str,
        input: &'i str,
        limit: usize,
    ) -> Result<(OtherParses<'i>, u64), OracleFailure> {
        let k = self.table.resolve(rule)?;
        let chars: Vec<char> = input.chars().collect();
        let mut b = self.builder(k, rule, input, &chars)?;
        let root = b.tree(k, 0, chars.len())?;
        let char_at = |byte: usize, offsets: &[usize]| offsets.partition_point(|&o| o < byte);
        let mut forks = Vec::new();
        let mut capped = false;
        // Its own stack, as the tree may be as deep as the input nests.
        let mut stack = vec![&root];
        'walk: while let Some(n) = stack.pop() {
            stack.extend(n.children.iter().rev());
            let (Some((taken, count)), Some(r)) = (n.alternative, self.table.lookup(&n.rule))
            else {
                continue;
            };
            let Expr::Alt(alts) = &self.table.nodes[r] else {
                continue;
            };
            let (from, to) = (char_at(n.start, &b.offsets), char_at(n.end, &b.offsets));
            let mut others = Vec::new();
            for (j, alt) in alts.iter().enumerate().skip(taken) {
                if !b.can(alt, from, to) {
                    continue;
                }
                if forks.len() == limit {
                    capped = true;
                    break 'walk;
                }
                b.building.clear();
                let mut node = b.tree_by(r, j, from, to)?;
                node.alternative = Some((j + 1, count));
                others.push(node);
            }
            if !others.is_empty() {
                forks.push(Fork {
                    chosen: n.clone(),
                    others,
                });
            }
        }
        b.spent()?;
        let work = b.work();
        Ok((
            OtherParses {
                tree: OracleTree { input, root },
                forks,
                capped,
            },
            work,
        ))
    }
}
