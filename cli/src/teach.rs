//! What the teaching views (`iri book`, `iri serve`, `iri grammar --svg`) show of a
//! rule, gathered in one place so that the book and the server say the same things.
//!
//! Each grammar is shown in its own document's names (`path-abempty` under URI,
//! `ipath-abempty` under IRI, `LEIRI-reference` under LEIRI), while the rule table
//! (`iri_grammar_abnf::Grammars::table`) names rules as the grammar files write them
//! (the LEIRI note reuses RFC 3987's text, so its table says `IRI-reference`).
//! [`Lesson::shown`] turns a table name into the grammar's own.

use iri_grammar::{Rule, VariantName};
use iri_grammar_abnf::analysis::Analysis;
use iri_grammar_abnf::generate::Generator;
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::railroad::{self, Refer};
use iri_grammar_abnf::{codegen, documents, name_in, Grammars, RuleDef, Source};
use std::cell::RefCell;
use std::collections::HashMap;

/// One grammar, ready to be shown rule by rule.
pub struct Lesson<'g> {
    pub grammars: &'g Grammars,
    pub variant: VariantName,
    pub analysis: Analysis<'g>,
    pub oracle: Oracle<'g>,
    /// Generated combinators by rule: `codegen::rule_source` generates the whole file
    /// each time, so each is asked for once.
    rust: RefCell<HashMap<Rule, Option<String>>>,
}

/// What is shown of one rule.
pub struct Facts<'g> {
    /// The generated rule.
    pub rule: Rule,
    /// Its name in the grammar shown.
    pub name: &'static str,
    /// Its definition as the grammar's document writes it.
    pub def: &'g RuleDef,
    /// Remarks (a rule matched under another rule's name).
    pub notes: Vec<String>,
}

impl<'g> Lesson<'g> {
    pub fn new(grammars: &'g Grammars, variant: VariantName) -> Lesson<'g> {
        Lesson {
            grammars,
            variant,
            analysis: Analysis::new(grammars, variant),
            oracle: Oracle::new(grammars, variant),
            rust: RefCell::new(HashMap::new()),
        }
    }

    /// The rules of the grammar, in the order `iri grammar` lists them.
    pub fn rules(&self) -> Vec<Facts<'g>> {
        Rule::of(self.variant)
            .filter_map(|(_, r)| self.facts(r))
            .collect()
    }

    /// The rule the grammar calls `name` (case-insensitive).
    pub fn named(&self, name: &str) -> Option<Facts<'g>> {
        self.facts(Rule::named(self.variant, name)?)
    }

    fn facts(&self, rule: Rule) -> Option<Facts<'g>> {
        let name = rule.name_in(self.variant)?;
        // The definition as the variant's own document writes it (RFC 3986's text
        // under URI); under LEIRI, names with "LEIRI" are RFC 3987's text.
        let def = self
            .analysis
            .rule(name)
            .or_else(|| self.analysis.rule(rule.iri_name()))?;
        let mut notes = Vec::new();
        if !name.eq_ignore_ascii_case(rule.iri_name()) {
            // One set of combinators serves the three grammars (README, "How it is
            // built"): the code shown is RFC 3987's rule, run with this grammar's
            // character classes.
            notes.push(match self.variant {
                VariantName::Leiri => format!(
                    "The LEIRI note takes this rule from RFC 3987, where it is {}, with \
                     IRI renamed LEIRI.",
                    rule.iri_name()
                ),
                _ => format!(
                    "Matched by the combinator generated from RFC 3987's {}, run with \
                     the URI grammar's character classes (ucschar and iprivate are empty).",
                    rule.iri_name()
                ),
            });
        }
        Some(Facts {
            rule,
            name,
            def,
            notes,
        })
    }

    /// A table name as the grammar shown calls it (`IRI` → `LEIRI` under LEIRI).
    pub fn shown(&self, table_name: &str) -> String {
        match self.variant {
            VariantName::Leiri => name_in(table_name, VariantName::Leiri),
            _ => table_name.to_string(),
        }
    }

    /// Whether the grammar has a rule of that (shown) name, so a page can link to it.
    pub fn has(&self, shown: &str) -> bool {
        Rule::named(self.variant, shown).is_some()
    }

    /// The rules a rule's definition refers to, as the grammar names them.
    pub fn uses(&self, f: &Facts<'_>) -> Vec<String> {
        let names = self.analysis.uses(&f.def.name).unwrap_or_default();
        names.into_iter().map(|n| self.shown(n)).collect()
    }

    /// The rules of the grammar whose definitions refer to it. RFC 3986 rules that
    /// RFC 3987 replaces stay in the IRI table (see `Grammars::table`) but are not
    /// rules of the IRI grammar, so they are left out.
    pub fn used_by(&self, f: &Facts<'_>) -> Vec<String> {
        let names = self.analysis.used_by(&f.def.name).unwrap_or_default();
        names
            .into_iter()
            .map(|n| self.shown(n))
            .filter(|n| self.has(n))
            .collect()
    }

    /// The FIRST set as labels, and whether the rule matches the empty string.
    pub fn first(&self, f: &Facts<'_>) -> (Vec<String>, bool) {
        match self.analysis.first(&f.def.name) {
            Some(first) => (first.chars.labels(), first.nullable),
            None => (Vec::new(), false),
        }
    }

    /// The railroad diagram, rule boxes linked by `href` (`None`: no links).
    pub fn svg(&self, f: &Facts<'_>, href: &dyn Fn(&str) -> Option<String>) -> String {
        struct Links<'a, 'g> {
            lesson: &'a Lesson<'g>,
            href: &'a dyn Fn(&str) -> Option<String>,
        }
        impl Refer for Links<'_, '_> {
            fn name(&self, name: &str) -> String {
                self.lesson.shown(name)
            }
            fn href(&self, name: &str) -> Option<String> {
                let shown = self.lesson.shown(name);
                if self.lesson.has(&shown) {
                    (self.href)(&shown)
                } else {
                    None
                }
            }
        }
        railroad::svg(f.def, &Links { lesson: self, href })
    }

    /// The combinator generated from the rule (`src/grammar/generated.rs`).
    pub fn rust(&self, f: &Facts<'_>) -> Option<String> {
        let key = f.rule;
        self.rust
            .borrow_mut()
            .entry(key)
            .or_insert_with(|| codegen::rule_source(self.grammars, key))
            .clone()
    }

    /// Where the rule is defined, and a link to that section.
    pub fn source(&self, f: &Facts<'g>) -> (&'g Source, Option<String>) {
        (&f.def.source, documents::section_url(&f.def.source))
    }

    /// `n` distinct strings the rule matches, and up to `n` near misses of them that it
    /// rejects (by the oracle, the ABNF's own judgement), from a fixed seed so that
    /// the pages are the same on every run.
    pub fn examples(&self, f: &Facts<'_>, n: usize, seed: u64) -> (Vec<String>, Vec<String>) {
        let mut gen = Generator::new(self.grammars, self.variant, seed);
        let mut good: Vec<String> = Vec::new();
        let mut bad: Vec<String> = Vec::new();
        // Bounded tries: a rule with few strings (`DQUOTE`) has fewer than n.
        for _ in 0..20 * n {
            if good.len() >= n {
                break;
            }
            let Ok(s) = gen.generate(f.name) else { break };
            if !good.contains(&s) {
                good.push(s);
            }
        }
        for _ in 0..20 * n {
            if bad.len() >= n || good.is_empty() {
                break;
            }
            let from = good[bad.len() % good.len()].clone();
            let m = gen.mutate(&from);
            if !bad.contains(&m) && self.oracle.matches(f.name, &m) == Ok(false) {
                bad.push(m);
            }
        }
        (good, bad)
    }
}
