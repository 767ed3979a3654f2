//! The engine that judges each input of `check` and `tree`: the generated
//! combinators of a built-in grammar, or the ABNF oracle, over a built-in grammar
//! (`check --oracle`) or over a grammar of one's own (`--abnf`). The commands are
//! written once, against [`Engine`].
//!
//! The oracle (`iri_grammar_abnf::oracle`) memoizes the end set of every rule at
//! every position: its time and memory grow with the input's length times the
//! number of rules. It is a reference for testing, not a validator for untrusted
//! input, so it judges lines of at most [`ORACLE_MAX_BYTES`]. A longer line is
//! `invalid:` with a message that names the limit and the way out.
//!
//! A grammar of one's own is untrusted input (SECURITY.md, "User grammars"): the
//! reader refuses groups nested past `reader::MAX_NESTING`, and the oracle and its
//! trees keep their own stacks however deep the input nests.

use super::Spent;
use crate::io::{line_end, Input, LineJudge, ValidLines};
use crate::report::Problem;
use iri_grammar::grammar::viable_prefix;
use iri_grammar::tree::{tree_of_at_most, ParseTree, TreeError};
use iri_grammar::{check, is_match, Rule, Variant, VariantName};
use iri_grammar_abnf::oracle::explain::{OracleFailure, OracleTree};
use iri_grammar_abnf::oracle::{Oracle, Unanswered};
use std::sync::Arc;

/// The longest input the oracle judges, in bytes: any address in use is shorter,
/// and the oracle's memory stays small (the module documentation says why it
/// grows). The help of `--oracle` and the README say this number.
pub const ORACLE_MAX_BYTES: usize = 4096;

/// What judges an input, and the rule it is judged against.
pub enum Engine<'g> {
    /// The generated combinators of a built-in grammar.
    Builtin { variant: VariantName, rule: Rule },
    /// The oracle over a built-in grammar (`check --oracle`). It only says yes or
    /// no: where a match fails is the combinators' explanation.
    BuiltinOracle {
        variant: VariantName,
        rule: Rule,
        oracle: Oracle<'g>,
    },
    /// The oracle over a grammar of one's own (`--abnf`), which explains its
    /// failures itself.
    User { rule: &'g str, oracle: Oracle<'g> },
}

impl Engine<'_> {
    /// The shortcut for the valid lines of standard input where the engine has one
    /// (see [`ValidLines`]): the built-in grammars' compiled automaton, whose yes
    /// needs no explanation; `record` is what text output writes for such a line.
    /// The oracle has none: it judges each line in full.
    pub fn valid_lines(&self, record: &'static str) -> Option<ValidLines> {
        let Engine::Builtin { variant, rule } = *self else {
            return None;
        };
        let lines: LineJudge = iri_grammar::with_variant!(variant, V => Arc::new(move |t: &[u8]| valid_lines::<V>(rule, t)));
        Some(ValidLines::new(lines, record))
    }

    /// Whether all of the input matches the rule, and if not, why.
    pub fn check(&self, input: &Input<'_>, spent: &Spent) -> Result<(), Problem> {
        let s = match &input.text {
            Ok(s) => *s,
            Err(e) => return Err(Problem::not_utf8(input, e)),
        };
        match self {
            Engine::Builtin { variant, rule } => {
                combinators(*variant, *rule, s).map_err(Problem::of_match)
            }
            Engine::BuiltinOracle { .. } if s.len() > ORACLE_MAX_BYTES => Err(Problem::other(
                "oracle-limit",
                format!(
                    "the input is {} bytes, beyond the oracle's limit of {ORACLE_MAX_BYTES} \
                         bytes (its memory grows with the input's length); check without \
                         --oracle: the generated combinators have no limit and run in linear time",
                    s.len()
                ),
            )),
            Engine::BuiltinOracle {
                variant,
                rule,
                oracle,
            } => {
                let name = rule.name_of(*variant);
                match oracle.matches(name, s) {
                    Ok(true) => Ok(()),
                    // The combinators agree with the oracle on every input the
                    // differential tests try: their explanation is the oracle's.
                    Ok(false) => Err(match combinators(*variant, *rule, s) {
                        Err(e) => {
                            let message = format!("the oracle finds no match of {name}; {e}");
                            Problem::of_match(e).with_message(message)
                        }
                        Ok(()) => Problem::other(
                            "grammar",
                            format!(
                                "the oracle finds no match of {name} (the combinators find one)"
                            ),
                        ),
                    }),
                    Err(Unanswered::Budget(e)) => Err(spent.problem(e)),
                    Err(e) => Err(Problem::other("grammar", e.to_string())),
                }
            }
            Engine::User { .. } if s.len() > ORACLE_MAX_BYTES => Err(beyond_the_limit(s)),
            Engine::User { rule, oracle } => match oracle.check(rule, s) {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(Problem::of_oracle(&e)),
                Err(Unanswered::Budget(e)) => Err(spent.problem(e)),
                Err(e) => Err(Problem::other("grammar", e.to_string())),
            },
        }
    }

    /// The parse tree of the input, or why it has none. `tree` has no `--oracle`: a
    /// built-in grammar's tree is the combinators'.
    pub fn tree<'i>(
        &self,
        input: &Input<'i>,
        max_nodes: usize,
        spent: &Spent,
    ) -> Result<Tree<'i>, NoTree> {
        let s = match &input.text {
            Ok(s) => *s,
            Err(e) => return Err(NoTree::Invalid(Problem::not_utf8(input, e))),
        };
        match self {
            Engine::Builtin { variant, rule } | Engine::BuiltinOracle { variant, rule, .. } => {
                let (variant, rule) = (*variant, *rule);
                match iri_grammar::with_variant!(variant, V => tree_of_at_most::<V>(rule, s, max_nodes))
                {
                    Ok(t) => Ok(Tree::Combinators(t)),
                    Err(TreeError::NoMatch(e)) => Err(NoTree::Invalid(Problem::of_match(e))),
                    Err(e) => Err(NoTree::TooManyNodes(e)),
                }
            }
            Engine::User { .. } if s.len() > ORACLE_MAX_BYTES => {
                Err(NoTree::Invalid(beyond_the_limit(s)))
            }
            Engine::User { rule, oracle } => oracle.tree(rule, s).map(Tree::Oracle).map_err(|e| {
                NoTree::Invalid(match e {
                    OracleFailure::NoMatch(e) => Problem::of_oracle(&e),
                    OracleFailure::Unknown(e) => Problem::other("grammar", e.to_string()),
                    e @ OracleFailure::TooManyEmptyMatches { .. } => {
                        Problem::other("oracle-limit", e.to_string())
                    }
                    OracleFailure::Budget(e) => spent.problem(e),
                })
            }),
        }
    }
}

/// A parse tree, as the engine that built it writes it.
pub enum Tree<'i> {
    /// The combinators' tree of a built-in grammar.
    Combinators(ParseTree<'i>),
    /// The oracle's tree of a grammar of one's own.
    Oracle(OracleTree<'i>),
}

/// Why an input has no tree.
pub enum NoTree {
    /// The input does not match, or could not be judged: an `invalid:` record.
    Invalid(Problem),
    /// The input matches, but its tree has more nodes than `--max-nodes`.
    TooManyNodes(TreeError),
}

/// Whether the line at the start of `bytes` (up to LF, CR LF or the end) matches
/// `rule`: where the next line starts if it does ([`ValidLines`]). Under RFC 3986
/// and RFC 3987, whose rules take no control character, one walk of the compiled
/// grammar finds the line's end and judges the line, UTF-8 included
/// ([`viable_prefix`]); else the line's end is found first, and the line checked as
/// UTF-8.
fn valid_line<V: Variant>(rule: Rule, bytes: &[u8]) -> Option<usize> {
    if matches!(V::NAME, VariantName::Uri | VariantName::Iri) {
        if let Some(p) = viable_prefix::<V>(rule, bytes) {
            return match &bytes[p.len..] {
                _ if !p.is_match => None,
                [] => Some(p.len),
                [b'\n', ..] => Some(p.len + 1),
                [b'\r', b'\n', ..] => Some(p.len + 2),
                _ => None,
            };
        }
    }
    let (end, next) = line_end(bytes);
    let line = std::str::from_utf8(&bytes[..end]).ok()?;
    is_match::<V>(rule, line).then_some(next)
}

/// The valid lines at the start of `bytes`, one after the other ([`valid_line`]):
/// how many bytes they take and how many they are.
fn valid_lines<V: Variant>(rule: Rule, bytes: &[u8]) -> (usize, usize) {
    let (mut at, mut n) = (0, 0);
    while at < bytes.len() {
        match valid_line::<V>(rule, &bytes[at..]) {
            // A line is never empty with its end, but a judge that took nothing
            // would take it again for ever.
            Some(len) if len > 0 => {
                at += len;
                n += 1;
            }
            _ => break,
        }
    }
    (at, n)
}

/// The generated combinators of `variant` on `rule`.
fn combinators(variant: VariantName, rule: Rule, s: &str) -> Result<(), iri_grammar::MatchError> {
    iri_grammar::with_variant!(variant, V => check::<V>(rule, s))
}

/// The problem of an input longer than the oracle judges, with a grammar of one's
/// own.
fn beyond_the_limit(s: &str) -> Problem {
    Problem::other(
        "oracle-limit",
        format!(
            "the input is {} bytes, beyond the oracle's limit of {ORACLE_MAX_BYTES} bytes \
             (its memory grows with the input's length); with --abnf the oracle judges \
             every input: `grammar --rust` makes parsers of the grammar that have no limit",
            s.len()
        ),
    )
}
