//! One grammar's rule table compiled for the walks over it (the oracle's, the string
//! generator's, the analyses'): each rule's definition with its references resolved
//! to the indices of the rules they name (RFC 5234 §2.1: case-insensitively).

use super::builtin::Grammars;
use super::{Element, RuleDef};
use iri_grammar_contract::VariantName;
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// A rule name that the grammar does not define (or a rule that refers to one).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownRule {
    /// The name that could not be resolved.
    pub name: String,
    /// The grammar it was looked up in: `uri`, `iri`, `leiri`, `iri-2001`, or the
    /// name of a [`crate::Grammar`] read from files.
    pub grammar: String,
}

impl fmt::Display for UnknownRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "no rule named {:?} in the {} grammar",
            self.name, self.grammar
        )
    }
}

impl std::error::Error for UnknownRule {}

/// An element with its rule references resolved to indices into the table.
#[derive(Debug, Clone)]
pub(crate) enum Expr {
    /// RFC 5234 §3.2.
    Alt(Vec<Expr>),
    /// RFC 5234 §3.1.
    Cat(Vec<Expr>),
    /// RFC 5234 §3.6, §3.7, §3.8.
    Rep {
        min: u32,
        max: Option<u32>,
        node: Box<Expr>,
    },
    /// A rule of the table, by index.
    Rule(usize),
    /// A reference to a name the table does not define: matches nothing, and makes
    /// every rule that reaches it an [`UnknownRule`].
    Missing(String),
    /// A quoted string (§2.3): its characters, and whether case matters.
    Chars(Vec<char>, bool),
    /// `%x41.42` (§2.3): exact code points.
    Seq(Vec<u32>),
    /// `%x41-5A` (§3.4): one code point in the range.
    Range(u32, u32),
    /// `<prose>` (§4): matches nothing.
    Prose,
}

/// One grammar's rule table, compiled: names resolved, rules indexed.
///
/// Shared by the oracle, the string generator and the analyses.
#[derive(Debug, Clone)]
pub(crate) struct Table<'g> {
    /// The built-in grammar, if it is one.
    pub(crate) variant: Option<VariantName>,
    /// The grammar's name, for messages.
    pub(crate) name: String,
    pub(crate) rules: Vec<&'g RuleDef>,
    pub(crate) nodes: Vec<Expr>,
    /// Lower-cased name → index.
    index: HashMap<String, usize>,
    /// For each rule, the first undefined name reachable from its definition,
    /// found when the rule is first resolved: computing it for every rule up front
    /// would walk what each rule reaches, quadratic in a chain of rules.
    missing: Vec<OnceLock<Option<String>>>,
}

impl<'g> Table<'g> {
    pub(crate) fn new(grammars: &'g Grammars, variant: VariantName) -> Table<'g> {
        Table::of(
            grammars.table(variant),
            Some(variant),
            variant.as_str().to_string(),
        )
    }

    /// The table of any list of rules (a [`crate::Grammar`]'s).
    pub(crate) fn of(
        rules: Vec<&'g RuleDef>,
        variant: Option<VariantName>,
        name: String,
    ) -> Table<'g> {
        let index: HashMap<String, usize> = rules
            .iter()
            .enumerate()
            .map(|(k, r)| (r.name.to_ascii_lowercase(), k))
            .collect();
        let mut table = Table {
            variant,
            name,
            rules,
            nodes: Vec::new(),
            index,
            missing: Vec::new(),
        };
        table.missing = (0..table.rules.len()).map(|_| OnceLock::new()).collect();
        table.nodes = table
            .rules
            .iter()
            .map(|r| table.compile(&r.definition))
            .collect();
        table
    }

    /// The index of the rule called `name`: names are case-insensitive (RFC 5234
    /// §2.1); under LEIRI, a name containing "LEIRI" that the table lacks is looked up
    /// with "LEIRI" replaced by "IRI" (the note renames `IRI` to `LEIRI`).
    pub(crate) fn lookup(&self, name: &str) -> Option<usize> {
        let lower = name.to_ascii_lowercase();
        if let Some(&k) = self.index.get(&lower) {
            return Some(k);
        }
        if self.variant == Some(VariantName::Leiri) {
            return self
                .index
                .get(&super::builtin::leiri_to_iri_name(&lower))
                .copied();
        }
        None
    }

    /// The name of rule `k` as the grammar shows it: the LEIRI note's `LEIRI`,
    /// `LEIRI-reference`, `absolute-LEIRI` for RFC 3987's rules of those names.
    pub(crate) fn shown_name(&self, k: usize) -> String {
        let name = &self.rules[k].name;
        match self.variant {
            Some(VariantName::Leiri) => super::builtin::name_in(name, VariantName::Leiri),
            _ => name.clone(),
        }
    }

    /// Resolves `name` to a rule whose definition only reaches defined rules.
    pub(crate) fn resolve(&self, name: &str) -> Result<usize, UnknownRule> {
        let unknown = |name: &str| UnknownRule {
            name: name.to_string(),
            grammar: self.name.clone(),
        };
        let k = self.lookup(name).ok_or_else(|| unknown(name))?;
        match self.missing_from(k) {
            Some(m) => Err(unknown(m)),
            None => Ok(k),
        }
    }

    pub(crate) fn compile(&self, e: &Element) -> Expr {
        match e {
            Element::Alternation(alts) => Expr::Alt(alts.iter().map(|a| self.compile(a)).collect()),
            Element::Concatenation(items) => {
                Expr::Cat(items.iter().map(|a| self.compile(a)).collect())
            }
            Element::Repetition {
                min, max, element, ..
            } => Expr::Rep {
                min: *min,
                max: *max,
                node: Box::new(self.compile(element)),
            },
            Element::Rule(name) => match self.lookup(name) {
                Some(k) => Expr::Rule(k),
                None => Expr::Missing(name.clone()),
            },
            Element::CharVal {
                text,
                case_sensitive,
            } => Expr::Chars(text.chars().collect(), *case_sensitive),
            Element::Range(lo, hi) => Expr::Range(*lo, *hi),
            Element::Sequence(cps) => Expr::Seq(cps.clone()),
            Element::Prose(_) => Expr::Prose,
        }
    }

    /// The first undefined name reachable from rule `k` (computed once).
    pub(crate) fn missing_from(&self, k: usize) -> &Option<String> {
        self.missing[k].get_or_init(|| self.first_missing(k))
    }

    /// The first undefined name met in a depth-first walk from rule `start`, each
    /// rule entered once. The walk keeps its own stack: a chain of rules each
    /// referring to the next is as deep as it is long.
    fn first_missing(&self, start: usize) -> Option<String> {
        let mut seen = vec![false; self.rules.len()];
        seen[start] = true;
        let mut stack = vec![&self.nodes[start]];
        while let Some(node) = stack.pop() {
            match node {
                // Pushed last to first, so that the first is walked first.
                Expr::Alt(items) | Expr::Cat(items) => stack.extend(items.iter().rev()),
                Expr::Rep { node, .. } => stack.push(node),
                Expr::Rule(k) => {
                    if !seen[*k] {
                        seen[*k] = true;
                        stack.push(&self.nodes[*k]);
                    }
                }
                Expr::Missing(name) => return Some(name.clone()),
                Expr::Chars(..) | Expr::Seq(_) | Expr::Range(..) | Expr::Prose => {}
            }
        }
        None
    }
}
