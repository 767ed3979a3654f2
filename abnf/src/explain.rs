//! What the oracle says beyond yes and no: why an input does not match (the farthest
//! point any reading of it reached, and what the grammar expected there) and the
//! parse tree of one that does. For grammars read from files ([`crate::Grammar`]),
//! which have no generated combinators, these are the errors and trees of the `iri`
//! command's `--abnf` mode; they read like the combinators' (`iri_grammar::MatchError`,
//! `iri_grammar::ParseTree`).
//!
//! **Errors.** The oracle reads every way at once (`crate::oracle`), so the farthest
//! position at which some terminal was tried is the end of the longest prefix of the
//! input that some string of the rule starts with: there the input stopped fitting
//! the grammar. What was expected there is every terminal tried there, grouped by the
//! rule that tried it; a rule that matches one character (`DIGIT`) and failed on it is
//! named instead of its characters, as the combinators' messages do.
//!
//! **Trees.** ABNF does not say which of several parses is *the* parse; the tree is
//! the one the generated combinators build where they are exact: the first
//! alternative that can match, and for concatenations and repetitions the longest
//! match of each element that lets the rest match (RFC 3986 §3.2.2's "first match
//! wins", read left to right). Rules that always match exactly one character are
//! folded into their parent, as `iri_grammar::tree` folds them.

use crate::oracle::{BudgetExceeded, Expr, Oracle, Run, Unanswered, UnknownRule};
use iri_grammar_contract::describe_char;
/// Trees as text and DOT, written as the combinators' are.
use iri_grammar_contract::tree as render;
use std::collections::BTreeSet;
use std::fmt;

/// One terminal tried where the input ended up failing.
#[derive(Debug, Clone)]
struct Expectation {
    /// The terminal, as ABNF.
    what: String,
    /// The rules being matched, innermost first, each with where it started.
    chain: Vec<(usize, usize)>,
}

/// The record of a run that explains a failure: the farthest position a terminal
/// was tried at, and the terminals tried there.
#[derive(Debug, Clone, Default)]
pub(crate) struct Trace {
    farthest: usize,
    expected: Vec<Expectation>,
    /// The rules being matched now, outermost first, with their starts.
    stack: Vec<(usize, usize)>,
}

impl Trace {
    pub(crate) fn enter(&mut self, rule: usize, start: usize) {
        self.stack.push((rule, start));
    }

    pub(crate) fn leave(&mut self) {
        self.stack.pop();
    }

    pub(crate) fn failed(&mut self, at: usize, node: &Expr) {
        if at < self.farthest {
            return;
        }
        if at > self.farthest {
            self.farthest = at;
            self.expected.clear();
        }
        let what = match node {
            Expr::Chars(cs, true) => format!("%s{:?}", cs.iter().collect::<String>()),
            Expr::Chars(cs, false) => format!("{:?}", cs.iter().collect::<String>()),
            Expr::Seq(cps) => format!(
                "%x{}",
                cps.iter()
                    .map(|c| format!("{c:X}"))
                    .collect::<Vec<_>>()
                    .join(".")
            ),
            Expr::Range(lo, hi) if lo == hi => format!("%x{lo:X}"),
            Expr::Range(lo, hi) => format!("%x{lo:X}-{hi:X}"),
            _ => "prose".to_string(),
        };
        let chain: Vec<(usize, usize)> = self.stack.iter().rev().copied().collect();
        if !self
            .expected
            .iter()
            .any(|e| e.what == what && e.chain.first() == chain.first())
        {
            self.expected.push(Expectation { what, chain });
        }
    }
}

/// Why an input does not match a rule, by the oracle: where, what was found, what the
/// grammar expected. Its [`Display`](fmt::Display) form reads like the combinators'
/// `MatchError`: `at char 3 (U+0078 'x'): version expects DIGIT or "."`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OracleError {
    /// The rule the whole input was matched against.
    pub start_rule: String,
    /// Byte offset of the failure.
    pub byte_offset: usize,
    /// Character offset of the failure.
    pub char_offset: usize,
    /// The character found there (`None`: the input ended).
    pub found: Option<char>,
    /// The innermost rule being matched there.
    pub rule: Option<String>,
    /// What would have been accepted there, grouped by the rule that expected it.
    pub expected_by: Vec<(String, Vec<String>)>,
    /// The rules enclosing `rule`, innermost first.
    pub within: Vec<String>,
}

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at char {}", self.char_offset)?;
        let found = match self.found {
            Some(c) => describe_char(c),
            None => "end of input".to_string(),
        };
        if self.byte_offset != self.char_offset {
            write!(f, " (byte {}, {found}): ", self.byte_offset)?;
        } else {
            write!(f, " ({found}): ")?;
        }
        if self.expected_by.is_empty() {
            write!(
                f,
                "{} expects something else",
                self.rule.as_deref().unwrap_or(&self.start_rule)
            )?;
        }
        for (k, (owner, items)) in self.expected_by.iter().enumerate() {
            if k > 0 {
                write!(f, "; ")?;
            }
            write!(f, "{owner} expects ")?;
            match items.len() {
                0 => write!(f, "something else")?,
                1 => write!(f, "{}", items[0])?,
                n => write!(f, "{} or {}", items[..n - 1].join(", "), items[n - 1])?,
            }
        }
        if !self.within.is_empty() {
            write!(f, ", in {}", self.within.join(" < "))?;
        }
        Ok(())
    }
}

impl std::error::Error for OracleError {}

/// Why the oracle gives no tree: an unknown rule, or an input that does not match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OracleFailure {
    /// The grammar has no such rule (or the rule reaches one it lacks).
    Unknown(UnknownRule),
    /// The input does not match.
    NoMatch(OracleError),
    /// The tree would repeat the empty match of a rule more than
    /// [`MAX_EMPTY_MATCHES`] times (`1000000000r` with `r = ""`).
    TooManyEmptyMatches {
        /// The rule whose definition has the repetition.
        rule: String,
        /// How many empty matches the repetition needs.
        count: u32,
        /// [`MAX_EMPTY_MATCHES`].
        limit: u32,
    },
    /// The oracle spent its work budget ([`Oracle::with_budget`]).
    Budget(BudgetExceeded),
}

impl fmt::Display for OracleFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OracleFailure::Unknown(e) => e.fmt(f),
            OracleFailure::NoMatch(e) => e.fmt(f),
            OracleFailure::Budget(e) => e.fmt(f),
            OracleFailure::TooManyEmptyMatches { rule, count, limit } => write!(
                f,
                "the tree of {rule} would hold {count} empty matches of one repetition, \
                 beyond the limit of {limit}"
            ),
        }
    }
}

impl std::error::Error for OracleFailure {}

impl From<UnknownRule> for OracleFailure {
    fn from(e: UnknownRule) -> Self {
        OracleFailure::Unknown(e)
    }
}

impl From<Unanswered> for OracleFailure {
    fn from(e: Unanswered) -> Self {
        match e {
            Unanswered::Unknown(e) => OracleFailure::Unknown(e),
            Unanswered::Budget(e) => OracleFailure::Budget(e),
        }
    }
}

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

/// Whether an element always matches exactly one character (or one percent
/// triplet, `pct-encoded`, which counts as one), given which rules do: the rules
/// parse trees fold into their parent (`iri_grammar::tree` does the same).
fn single(e: &Expr, singles: &[bool]) -> bool {
    match e {
        Expr::Range(..) => true,
        Expr::Chars(cs, _) => cs.len() == 1,
        Expr::Seq(cps) => cps.len() == 1,
        Expr::Alt(v) => !v.is_empty() && v.iter().all(|x| single(x, singles)),
        Expr::Rule(k) => singles[*k],
        _ => false,
    }
}

impl<'g> Oracle<'g> {
    /// Which rules always match exactly one character or a percent triplet (folded
    /// in trees, named in messages), by table index; a percent triplet itself
    /// (`"%" HEXDIG HEXDIG`: `pct-encoded`, RFC 2396's `escaped`) is not folded.
    fn character_rules(&self) -> Vec<bool> {
        let nodes = &self.table.nodes;
        let hexdig = |e: &Expr| matches!(e, Expr::Rule(h) if self.table.rules[*h].name.eq_ignore_ascii_case("HEXDIG"));
        let pct: Vec<bool> = nodes
            .iter()
            .map(|n| {
                matches!(n, Expr::Cat(v) if v.len() == 3
                && matches!(&v[0], Expr::Chars(c, _) if c[..] == ['%'])
                && hexdig(&v[1]) && hexdig(&v[2]))
            })
            .collect();
        let mut singles = pct.clone();
        loop {
            let mut changed = false;
            for k in 0..nodes.len() {
                if !singles[k] && single(&nodes[k], &singles) {
                    singles[k] = true;
                    changed = true;
                }
            }
            if !changed {
                for (s, p) in singles.iter_mut().zip(&pct) {
                    *s &= !p;
                }
                return singles;
            }
        }
    }

    /// Whether `input` matches `rule`, and if not, where and why.
    ///
    /// ```
    /// use iri_grammar_abnf::{oracle::Oracle, Grammar};
    /// let g = Grammar::from_abnf(&[("v.abnf", "version = 1*DIGIT \".\" 1*DIGIT\n")]).unwrap();
    /// let o = Oracle::of(&g);
    /// assert!(o.check("version", "1.2").unwrap().is_ok());
    /// let e = o.check("version", "1x2").unwrap().unwrap_err();
    /// assert_eq!(e.to_string(), "at char 1 (U+0078 'x'): version expects DIGIT or \".\"");
    /// ```
    ///
    /// # Errors
    /// [`Unanswered`], as for [`Oracle::matches`].
    pub fn check(&self, rule: &str, input: &str) -> Result<Result<(), OracleError>, Unanswered> {
        if self.matches(rule, input)? {
            return Ok(Ok(()));
        }
        Ok(Err(self.explain(rule, input)?))
    }

    /// Why `input` does not match `rule` (call it for a non-match; for a match the
    /// "error" is at the end of the input).
    ///
    /// # Errors
    /// [`Unanswered`], as for [`Oracle::matches`].
    pub fn explain(&self, rule: &str, input: &str) -> Result<OracleError, Unanswered> {
        let k = self.table.resolve(rule)?;
        let chars: Vec<char> = input.chars().collect();
        let mut run = self.run(&chars);
        run.trace = Some(Trace::default());
        let ends = self.settled_rule_ends(k, 0, &mut run);
        if run.exceeded {
            return Err(self.exceeded(rule, &run).into());
        }
        let trace = run.trace.take().unwrap_or_default();
        // The longest match that did not take the whole input: the end of input
        // would have been needed there.
        let longest = ends.iter().copied().filter(|&e| e < chars.len()).max();
        let at = trace.farthest.max(longest.unwrap_or(0));
        let singles = self.character_rules();
        let name = |r: usize| self.table.shown_name(r);
        let mut groups: Vec<(String, Vec<String>)> = Vec::new();
        let mut push =
            |owner: String, what: String| match groups.iter_mut().find(|(o, _)| *o == owner) {
                Some((_, items)) if !items.contains(&what) => items.push(what),
                Some(_) => {}
                None => groups.push((owner, vec![what])),
            };
        let mut innermost: Vec<(usize, usize)> = Vec::new();
        if trace.farthest == at {
            for e in &trace.expected {
                // A character rule that failed on its one character is what was
                // expected, by the rule around it.
                let folded = e
                    .chain
                    .iter()
                    .take_while(|(r, s)| *s == at && singles[*r])
                    .count();
                let (what, chain) = if folded > 0 {
                    let (r, _) = e.chain[folded - 1];
                    let what = match self.table.rules[r].short_definition() {
                        Some(d) => format!("{} ({d})", name(r)),
                        None => name(r),
                    };
                    (what, &e.chain[folded..])
                } else {
                    (e.what.clone(), &e.chain[..])
                };
                let owner = chain.first().map_or(name(k), |&(r, _)| name(r));
                push(owner, what);
                if chain.len() > innermost.len() {
                    innermost = chain.to_vec();
                }
            }
        }
        if longest == Some(at) {
            push(name(k), "end of input".to_string());
        }
        // The end of input reads best last, in the whole rule's group.
        for (_, items) in groups.iter_mut() {
            if let Some(p) = items.iter().position(|e| e == "end of input") {
                let end = items.remove(p);
                items.push(end);
            }
        }
        let mut names: Vec<String> = innermost.iter().map(|&(r, _)| name(r)).collect();
        names.dedup();
        let byte_offset = chars[..at].iter().map(|c| c.len_utf8()).sum();
        Ok(OracleError {
            start_rule: name(k),
            byte_offset,
            char_offset: at,
            found: chars.get(at).copied(),
            rule: (!names.is_empty()).then(|| names.remove(0)),
            expected_by: groups,
            within: names,
        })
    }

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

    /// The tree builder of `input` as rule `k` (called `rule`), once the input is
    /// known to match it; the explanation of the failure otherwise.
    fn builder<'a>(
        &self,
        k: usize,
        rule: &str,
        input: &str,
        chars: &'a [char],
    ) -> Result<Builder<'_, 'g, 'a>, OracleFailure> {
        let mut offsets: Vec<usize> = input.char_indices().map(|(b, _)| b).collect();
        offsets.push(input.len());
        let mut run = self.run(chars);
        let ends = self.settled_rule_ends(k, 0, &mut run);
        if run.exceeded {
            return Err(OracleFailure::Budget(self.exceeded(rule, &run)));
        }
        if !ends.contains(&chars.len()) {
            return Err(OracleFailure::NoMatch(self.explain(rule, input)?));
        }
        Ok(Builder {
            oracle: self,
            rule: rule.to_string(),
            run,
            singles: self.character_rules(),
            offsets,
            building: Vec::new(),
            steps: 0,
        })
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

/// The most empty matches of one repetition a tree shows: `1000000000( "" r )` on
/// the empty input has a billion `r` nodes, which no tree should hold. A repetition
/// of non-empty matches has at most one node per character of the input.
pub const MAX_EMPTY_MATCHES: u32 = 4096;

/// What the tree builder does next. It keeps its own stack: a tree is as deep as
/// the input nests (12,000 nested comments overflowed the call stack when it
/// recursed), and a concatenation or repetition as long as the grammar or input.
enum Task<'e> {
    /// The nodes of an element matching characters `from..to` (known to match).
    Derive(&'e Expr, usize, usize),
    /// The rule node opened last has all its children.
    Close,
}

/// A rule node being built.
struct Open {
    rule: usize,
    from: usize,
    to: usize,
    alternative: Option<(usize, usize)>,
    children: Vec<OracleNode>,
    /// Whether it is in `building` (all but the root are).
    guarded: bool,
}

/// Builds one tree: each choice takes the first alternative, and the longest match,
/// that lets the rest match.
struct Builder<'o, 'g, 'a> {
    oracle: &'o Oracle<'g>,
    /// The rule of the whole tree, for messages.
    rule: String,
    run: Run<'a>,
    singles: Vec<bool>,
    offsets: Vec<usize>,
    /// The nodes being built, as (rule, from, to), outermost first: a rule that
    /// can derive itself over the same characters (`a = a / "x"`) is not built
    /// inside itself ([`Builder::under_way`]).
    building: Vec<(usize, usize, usize)>,
    /// The builder's own work (tasks done, positions and ends looked at), besides
    /// the oracle's evaluations (`run.evals`): what the tests count.
    steps: u64,
}

impl<'o> Builder<'o, '_, '_> {
    /// The work done so far: the oracle's evaluations, the builder's steps.
    fn work(&self) -> u64 {
        self.run.evals + self.steps
    }

    /// The oracle's budget error, once it has run out: what the builder computed
    /// since is no tree.
    fn spent(&mut self) -> Result<(), OracleFailure> {
        // The builder's own steps count too: as many as the ends it looks at.
        if self.run.exceeded || self.run.steps.saturating_add(self.steps) > self.oracle.budget() {
            self.run.exceeded = true;
            return Err(OracleFailure::Budget(
                self.oracle.exceeded(&self.rule, &self.run),
            ));
        }
        Ok(())
    }

    fn ends(&mut self, e: &Expr, at: usize) -> Vec<usize> {
        let mut out = Vec::new();
        self.oracle.settled_eval(e, at, &mut self.run, &mut out);
        out.sort_unstable();
        out.dedup();
        out
    }

    fn can(&mut self, e: &Expr, from: usize, to: usize) -> bool {
        self.ends(e, from).binary_search(&to).is_ok()
    }

    /// Whether rule `k` is being built over `from..to`. The nodes under way
    /// nest, each inside the one before, so only the last ones over the very
    /// same characters are looked at: looking through all of them, as many as
    /// the tree is deep, for each rule node made input that nests (comments)
    /// quadratic.
    fn under_way(&self, k: usize, from: usize, to: usize) -> bool {
        self.building
            .iter()
            .rev()
            .take_while(|&&(_, f, t)| (f, t) == (from, to))
            .any(|&(r, _, _)| r == k)
    }

    /// The node of rule `k` matching the characters `from..to`.
    fn tree(&mut self, k: usize, from: usize, to: usize) -> Result<OracleNode, OracleFailure> {
        let mut tasks: Vec<Task<'o>> = Vec::new();
        let mut open: Vec<Open> = Vec::new();
        self.open(k, from, to, false, &mut open, &mut tasks);
        self.finish(&mut open, &mut tasks)
    }

    /// Does the tasks until the outermost open node closes, and returns it.
    fn finish(
        &mut self,
        open: &mut Vec<Open>,
        tasks: &mut Vec<Task<'o>>,
    ) -> Result<OracleNode, OracleFailure> {
        while let Some(task) = tasks.pop() {
            self.steps += 1;
            self.spent()?;
            match task {
                Task::Derive(e, from, to) => self.derive(e, from, to, open, tasks)?,
                Task::Close => {
                    let o = open.pop().expect("each Close has its node open");
                    if o.guarded {
                        self.building.pop();
                    }
                    let mut node = OracleNode {
                        rule: self.oracle.table.shown_name(o.rule),
                        start: self.offsets[o.from],
                        end: self.offsets[o.to],
                        alternative: o.alternative,
                        children: o.children,
                    };
                    match open.last_mut() {
                        None => return Ok(node),
                        // Folded: what it holds (a pct-encoded in an ipchar) stays.
                        Some(parent) if self.singles[o.rule] => {
                            parent.children.append(&mut node.children)
                        }
                        Some(parent) => parent.children.push(node),
                    }
                }
            }
        }
        unreachable!("the root's Close returns the tree")
    }

    /// The node of rule `k` over `from..to` by its alternative `alt` (0-based,
    /// known to match there), the rest built as [`Builder::tree`] builds.
    fn tree_by(
        &mut self,
        k: usize,
        alt: usize,
        from: usize,
        to: usize,
    ) -> Result<OracleNode, OracleFailure> {
        let oracle: &'o Oracle<'_> = self.oracle;
        let Expr::Alt(alts) = &oracle.table.nodes[k] else {
            return self.tree(k, from, to);
        };
        let mut tasks: Vec<Task<'o>> = vec![Task::Close, Task::Derive(&alts[alt], from, to)];
        let mut open = vec![Open {
            rule: k,
            from,
            to,
            alternative: Some((alt + 1, alts.len())),
            children: Vec::new(),
            guarded: false,
        }];
        self.finish(&mut open, &mut tasks)
    }

    /// Opens the node of rule `k` over `from..to`: its alternative, and the tasks
    /// that derive its children and close it.
    fn open(
        &mut self,
        k: usize,
        from: usize,
        to: usize,
        guarded: bool,
        open: &mut Vec<Open>,
        tasks: &mut Vec<Task<'o>>,
    ) {
        let oracle: &'o Oracle<'_> = self.oracle;
        tasks.push(Task::Close);
        let alternative = match &oracle.table.nodes[k] {
            Expr::Alt(alts) => {
                let n = alts.iter().position(|a| self.can(a, from, to)).unwrap_or(0);
                tasks.push(Task::Derive(&alts[n], from, to));
                Some((n + 1, alts.len()))
            }
            other => {
                tasks.push(Task::Derive(other, from, to));
                None
            }
        };
        open.push(Open {
            rule: k,
            from,
            to,
            alternative,
            children: Vec::new(),
            guarded,
        });
    }

    /// Derives `e` over `from..to` (known to match): opens a rule's node, or pushes
    /// the tasks of the parts, last first so that they are done in order.
    fn derive(
        &mut self,
        e: &'o Expr,
        from: usize,
        to: usize,
        open: &mut Vec<Open>,
        tasks: &mut Vec<Task<'o>>,
    ) -> Result<(), OracleFailure> {
        match e {
            Expr::Rule(k) if !self.under_way(*k, from, to) => {
                self.building.push((*k, from, to));
                self.open(*k, from, to, true, open, tasks);
            }
            Expr::Alt(alts) => {
                if let Some(a) = alts.iter().find(|a| self.can(a, from, to)) {
                    tasks.push(Task::Derive(a, from, to));
                }
            }
            Expr::Cat(items) => {
                let at = self.splits(items, from, to);
                for (k, item) in items.iter().enumerate().rev() {
                    tasks.push(Task::Derive(item, at[k], at[k + 1]));
                }
            }
            Expr::Rep { min, max, node } => {
                let (pieces, end, empties) = self.pieces(*min, *max, node, from, to);
                // Only empty matches are left to make up the minimum; they have
                // nodes only if the element refers to a rule.
                if empties > 0 && refers(node) {
                    if empties > MAX_EMPTY_MATCHES {
                        return Err(OracleFailure::TooManyEmptyMatches {
                            rule: open
                                .last()
                                .map_or_else(String::new, |o| self.oracle.table.shown_name(o.rule)),
                            count: empties,
                            limit: MAX_EMPTY_MATCHES,
                        });
                    }
                    for _ in 0..empties {
                        tasks.push(Task::Derive(node, end, end));
                    }
                }
                for &(a, b) in pieces.iter().rev() {
                    tasks.push(Task::Derive(node, a, b));
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Where each item of a concatenation starts, and the last ends (`to`): each
    /// takes its longest match that lets the rest match. The positions each prefix
    /// reaches, then those of them from which the rest reaches `to`, then the
    /// choices: three passes over the items, where trying each item's ends against
    /// the whole rest was quadratic in the items. Each item's ends at each position
    /// are evaluated once, in the first pass: an item that is a group (`*( "/"
    /// segment )`) is not memoized by the oracle, and evaluating it again in each
    /// pass walked its whole match again.
    fn splits(&mut self, items: &[Expr], from: usize, to: usize) -> Vec<usize> {
        // reach[k]: where the first k items can end; ends[k][i]: where item k
        // ends from reach[k][i], up to `to`.
        let mut reach: Vec<Vec<usize>> = vec![vec![from]];
        let mut ends: Vec<Vec<Vec<usize>>> = Vec::with_capacity(items.len());
        for item in items {
            let mut next = Vec::new();
            let mut here = Vec::new();
            for &p in &reach[reach.len() - 1] {
                let mut e = self.ends(item, p);
                e.retain(|&e| e <= to);
                next.extend_from_slice(&e);
                here.push(e);
            }
            next.sort_unstable();
            next.dedup();
            reach.push(next);
            ends.push(here);
        }
        let n = items.len();
        let mut good: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        good[n] = vec![to];
        for k in (0..n).rev() {
            let here = reach[k]
                .iter()
                .zip(&ends[k])
                .filter(|(_, e)| e.iter().any(|e| good[k + 1].binary_search(e).is_ok()))
                .map(|(&p, _)| p)
                .collect();
            good[k] = here;
        }
        let mut at = vec![from];
        for k in 0..n {
            let p = at[k];
            let m = reach[k]
                .binary_search(&p)
                .ok()
                .and_then(|i| {
                    ends[k][i]
                        .iter()
                        .rev()
                        .find(|e| good[k + 1].binary_search(e).is_ok())
                })
                .copied()
                .unwrap_or(p);
            at.push(m);
        }
        at
    }

    /// The non-empty matches of `min*max node` over `from..to`, each the longest that
    /// lets the rest match; where they end, and how many empty matches are left to
    /// make up the minimum.
    #[allow(clippy::type_complexity)]
    fn pieces(
        &mut self,
        min: u32,
        max: Option<u32>,
        node: &Expr,
        from: usize,
        to: usize,
    ) -> (Vec<(usize, usize)>, usize, u32) {
        match max {
            None => self.open_pieces(min, node, from, to),
            Some(max) => self.bounded_pieces(min, max, node, from, to),
        }
    }

    /// [`Builder::pieces`] of `min*node` (no maximum, RFC 5234 §3.6), in time
    /// linear in the matches of `node` inside `from..to`. The positions matches
    /// reach from `from`, forward; then, backward, the most matches (up to `min`)
    /// that lead from each of them to `to`; then the pieces, each the longest
    /// match after which the rest can still make up the minimum. Asking the oracle
    /// whether the rest of the repetition reaches `to` after each piece walked the
    /// rest of the input again: quadratic in a long path, query or host (the tree
    /// of a path of 4,095 characters took 0.4 s).
    fn open_pieces(
        &mut self,
        min: u32,
        node: &Expr,
        from: usize,
        to: usize,
    ) -> (Vec<(usize, usize)>, usize, u32) {
        // The positions matches reach from `from`, ascending (a match never ends
        // before it starts, so the least pending one is never reached again),
        // and where the matches from each end, up to `to`. Only these positions:
        // a repetition as long as the input around one as long (nested comments)
        // would make a table of every position quadratic.
        let (mut reach, mut ends) = (Vec::new(), Vec::new());
        let mut pending = BTreeSet::from([from]);
        while let Some(q) = pending.pop_first() {
            let mut e = self.ends(node, q);
            e.retain(|&e| e <= to);
            pending.extend(e.iter().copied().filter(|&m| m > q));
            self.steps += 1 + e.len() as u64;
            reach.push(q);
            ends.push(e);
        }
        let index = |p: usize| reach.binary_search(&p).expect("ends are reached");
        // most[i]: the most matches, counted up to `min`, that lead from reach[i]
        // to `to`; `None` when none do. An empty match where the way goes on can
        // be repeated as often as needed.
        let mut most: Vec<Option<u32>> = vec![None; reach.len()];
        for i in (0..reach.len()).rev() {
            let q = reach[i];
            let mut best = (q == to).then_some(0);
            for &m in ends[i].iter().filter(|&&m| m > q) {
                if let Some(b) = most[index(m)] {
                    let b = b.saturating_add(1).min(min);
                    best = Some(best.map_or(b, |x: u32| x.max(b)));
                }
            }
            if best.is_some() && ends[i].first() == Some(&q) {
                best = Some(min);
            }
            most[i] = best;
        }
        let mut pieces = Vec::new();
        let (mut at, mut min) = (from, min);
        loop {
            if at == to && min == 0 {
                return (pieces, at, 0);
            }
            let rest = min.saturating_sub(1);
            let next = ends[index(at)]
                .iter()
                .rev()
                .find(|&&m| m > at && most[index(m)].is_some_and(|b| b >= rest));
            match next {
                Some(&m) => {
                    pieces.push((at, m));
                    min = rest;
                    at = m;
                }
                None => return (pieces, at, min),
            }
        }
    }

    /// [`Builder::pieces`] of `min*max node`: after each piece, whether the rest
    /// (`(min - 1)*(max - 1) node`) reaches `to`, by the oracle. At most `max`
    /// pieces, each asking about at most `max` matches: the bounded repetitions of
    /// the grammars are short (`1*4HEXDIG`, `*3DIGIT`, `[ x ]`).
    #[allow(clippy::type_complexity)]
    fn bounded_pieces(
        &mut self,
        mut min: u32,
        mut max: u32,
        node: &Expr,
        mut from: usize,
        to: usize,
    ) -> (Vec<(usize, usize)>, usize, u32) {
        let mut pieces = Vec::new();
        loop {
            if from == to && min == 0 {
                return (pieces, from, 0);
            }
            if max != 0 {
                let rest = Expr::Rep {
                    min: min.saturating_sub(1),
                    max: Some(max - 1),
                    node: Box::new(node.clone()),
                };
                let mut ends = self.ends(node, from);
                ends.retain(|&m| m <= to && m > from);
                let mut found = None;
                for &m in ends.iter().rev() {
                    if self.can(&rest, m, to) {
                        found = Some(m);
                        break;
                    }
                }
                if let Some(m) = found {
                    pieces.push((from, m));
                    min = min.saturating_sub(1);
                    max -= 1;
                    from = m;
                    continue;
                }
            }
            return (pieces, from, min);
        }
    }
}

/// Whether an element refers to a rule (only then does a match of it have nodes).
fn refers(e: &Expr) -> bool {
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match e {
            Expr::Rule(_) | Expr::Missing(_) => return true,
            Expr::Alt(items) | Expr::Cat(items) => stack.extend(items),
            Expr::Rep { node, .. } => stack.push(node),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::oracle::Oracle;
    use crate::{Grammar, Grammars, VariantName};

    #[test]
    fn errors_read_like_the_combinators() {
        let g = Grammars::builtin();
        let uri = Oracle::new(&g, VariantName::Uri);
        let e = uri.explain("IPv4address", "1.2.3.256").unwrap();
        assert_eq!(e.char_offset, 8);
        assert_eq!(e.found, Some('6'));
        let e = uri.explain("URI", "http://a b").unwrap();
        assert_eq!((e.char_offset, e.found), (8, Some(' ')));
        assert!(e.to_string().contains("end of input"), "{e}");
        let e = uri.explain("dec-octet", "").unwrap();
        assert_eq!(
            e.to_string(),
            "at char 0 (end of input): dec-octet expects DIGIT, %x31-39, \"1\", \"2\" or \"25\""
        );
        let e = uri.explain("scheme", "1").unwrap();
        assert_eq!(
            e.to_string(),
            "at char 0 (U+0031 '1'): scheme expects ALPHA"
        );
    }

    #[test]
    fn trees_take_the_first_alternative_and_the_longest_match() {
        let g = Grammars::builtin();
        let iri = Oracle::new(&g, VariantName::Iri);
        let t = iri.tree("ihost", "1.2.3.4").unwrap();
        assert_eq!(t.root.children[0].rule, "IPv4address");
        assert_eq!(t.root.alternative, Some((2, 3)));
        let t = iri.tree("ihost", "1.2.3.4.5").unwrap();
        assert_eq!(t.root.children[0].rule, "ireg-name");
        // The same tree as the combinators: tests/oracle_explains.rs.
        assert!(iri.tree("IRI", "a b").is_err());
    }

    #[test]
    fn other_parses_are_listed_up_to_the_limit() {
        let g = Grammar::from_abnf(&[(
            "forks.abnf",
            "list = *item\nitem = a / b / c\na = \"xx\"\nb = \"x\" %x78\nc = \"yy\"\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        let p = o.other_parses("list", "xxyyxx", 16).unwrap();
        // Each "xx" is an a and a b; the "yy" is only a c.
        assert_eq!(p.forks.len(), 2);
        assert!(!p.capped);
        assert_eq!(p.forks[1].chosen.start, 4);
        assert_eq!(p.forks[1].chosen.alternative, Some((1, 3)));
        assert_eq!(p.forks[1].others.len(), 1);
        assert_eq!(p.forks[1].others[0].alternative, Some((2, 3)));
        let many = "x".repeat(100);
        let p = o.other_parses("list", &many, 3).unwrap();
        assert_eq!(p.forks.len(), 3);
        assert!(p.capped);
        // The built-in grammars: ipath's alternatives overlap (RFC 3987 §2.2).
        let g = Grammars::builtin();
        let iri = Oracle::new(&g, VariantName::Iri);
        let p = iri.other_parses("ipath", "", 16).unwrap();
        let others: Vec<_> = p.forks[0].others.iter().map(|n| n.alternative).collect();
        assert_eq!(p.forks[0].chosen.alternative, Some((1, 5)));
        assert_eq!(others, [Some((5, 5))]);
        assert!(iri.other_parses("IRI", "a b", 16).is_err());
    }

    #[test]
    fn recursive_grammars_have_trees() {
        let g = Grammar::from_abnf(&[(
            "list.abnf",
            "list = \"(\" [ item *( \",\" item ) ] \")\"\nitem = 1*DIGIT / list\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        let t = o.tree("list", "(1,(2,()))").unwrap();
        assert_eq!(t.root.children.len(), 2);
        assert_eq!(t.root.children[1].children[0].rule, "list");
        let e = o.explain("list", "(1,(2,)").unwrap();
        assert_eq!(e.char_offset, 6, "{e}");
    }

    #[test]
    fn left_recursive_grammars_have_trees() {
        // The code generator refuses left recursion; the oracle serves it.
        let g = Grammar::from_abnf(&[(
            "expr.abnf",
            "expr = expr \"+\" term / term\nterm = 1*DIGIT\nloop = loop / \"x\"\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        assert!(o.matches("expr", "1+22+3").unwrap());
        assert!(!o.matches("expr", "1+").unwrap());
        let t = o.tree("expr", "1+2+3").unwrap();
        assert_eq!(t.root.alternative, Some((1, 2)));
        assert_eq!(t.root.children[0].rule, "expr");
        assert_eq!(t.root.children[0].end, 3, "left-associative: (1+2)+3");
        assert_eq!(o.explain("expr", "1+").unwrap().char_offset, 2);
        assert!(o.tree("loop", "x").is_ok());
    }

    #[test]
    fn deep_trees_are_built_and_written_without_recursion() {
        crate::oracle::tests::on_a_small_stack(|| {
            let g = Grammar::from_abnf(&[(
                "deep.abnf",
                "r = \"a\" r / \"b\"\n\
                 comment = \"(\" *( ctext / comment ) \")\"\n\
                 ctext = %x21-27 / %x2A-7E\n\
                 long = 3000\"a\"\n",
            )])
            .unwrap();
            let o = Oracle::of(&g);
            let input = format!("{}b", "a".repeat(4000));
            let t = o.tree("r", &input).unwrap();
            assert_eq!(t.to_text().lines().count(), 4001);
            assert!(t
                .to_text()
                .ends_with(&format!("{}r 4000..4001 \"b\"\n", "  ".repeat(4000))));
            let nested = format!("{}{}", "(".repeat(2000), ")".repeat(2000));
            let t = o.tree("comment", &nested).unwrap();
            assert_eq!(t.path_at(1999).len(), 2000);
            let dot = t.to_dot();
            assert!(
                dot.contains("  n1998 -> n1999;\n"),
                "{}",
                &dot[dot.len() - 200..]
            );
            assert_eq!(dot.matches(" -> ").count(), 1999);
            // A long repetition is no deeper than a short one.
            let input = "a".repeat(3000);
            let t = o.tree("long", &input).unwrap();
            assert_eq!(
                t.to_text(),
                format!("long 0..3000 {:?}\n", "a".repeat(3000))
            );
        });
    }

    #[test]
    fn trees_take_work_linear_in_the_input() {
        // Counted, not timed: the oracle's evaluations and the builder's steps on
        // an input and on one about four times as long. Asking the oracle whether
        // the rest of a repetition still matched after each of its pieces made
        // these grow fourteenfold (a path of 4,095 characters took 0.4 s).
        let g = Grammars::builtin();
        let iri = Oracle::new(&g, VariantName::Iri);
        let shapes = [
            ("path", "http://h/", "a/"),
            ("segment", "http://h/", "a"),
            ("query", "http://h/p?", "a=b&"),
            ("percent-encoded", "http://h/", "%41"),
            ("host", "http://", "1.2.3."),
            ("IPv4 host", "http://1.2.3.4/", "a/"),
            ("non-ASCII", "http://例え.jp/", "résumé/"),
        ];
        for (shape, head, unit) in shapes {
            let work = |units: usize| {
                let input = format!("{head}{}", unit.repeat(units));
                let (_, tree) = iri.counted_tree("IRI-reference", &input).unwrap();
                let (_, parses) = iri
                    .counted_other_parses("IRI-reference", &input, 12)
                    .unwrap();
                (tree, parses)
            };
            let (short, long) = (work(128), work(512));
            assert!(
                long.0 < 6 * short.0 && long.1 < 6 * short.1,
                "{shape}: 128 units took {short:?}, 512 took {long:?}"
            );
        }
        // Recursion: comments nested as deep as the input is long.
        let g = Grammar::from_abnf(&[(
            "comment.abnf",
            "comment = \"(\" *( ctext / comment ) \")\"\nctext = %x21-27 / %x2A-7E\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        let work = |depth: usize| {
            let input = format!("{}{}", "(x".repeat(depth), ")".repeat(depth));
            o.counted_other_parses("comment", &input, 12).unwrap().1
        };
        let (short, long) = (work(128), work(512));
        assert!(long < 6 * short, "nested: {short} then {long}");
    }

    #[test]
    fn empty_matches_are_not_counted_out() {
        let g = Grammar::from_abnf(&[(
            "empty.abnf",
            "few = 3e\nmany = 1000000000e\nnone = 1000000000\"\" \"a\"\ne = \"\"\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        assert_eq!(o.tree("few", "").unwrap().root.children.len(), 3);
        assert_eq!(o.tree("none", "a").unwrap().to_text(), "none 0..1 \"a\"\n");
        let e = o.tree("many", "").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the tree of many would hold 1000000000 empty matches of one repetition, \
             beyond the limit of 4096"
        );
    }
}
