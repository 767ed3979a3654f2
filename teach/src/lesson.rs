//! What the teaching views (`iri book`, `iri serve`, `iri grammar --svg`) show of a
//! rule, gathered in one place so that the book and the server say the same things.
//!
//! Each grammar is shown in its own document's names (`path-abempty` under URI,
//! `ipath-abempty` under IRI, `LEIRI-reference` under LEIRI), while the rule table
//! (`iri_grammar_abnf::Grammars::table`) names rules as the grammar files write them
//! (the LEIRI note reuses RFC 3987's text, so its table says `IRI-reference`).
//! [`Lesson::shown`] turns a table name into the grammar's own.

use iri_grammar::{Rule, VariantName};
use iri_grammar_abnf::oracle::Oracle;
use iri_grammar_abnf::strings::generate::Generator;
use iri_grammar_abnf::teaching::analysis::Analysis;
use iri_grammar_abnf::teaching::railroad::{self, Refer};
use iri_grammar_abnf::{codegen, name_in, teaching::documents, Grammars, RuleDef, Source};
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
    /// Remarks on the rule as its document has it (a LEIRI rule taken from RFC 3987).
    pub notes: Vec<String>,
    /// A remark on the generated code (a URI rule matched by the combinator of
    /// RFC 3987's rule), shown with the code only.
    pub code_note: Option<String>,
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
        let mut code_note = None;
        if !name.eq_ignore_ascii_case(rule.iri_name()) {
            match self.variant {
                // A fact of the documents: the note reuses RFC 3987's rule.
                VariantName::Leiri => notes.push(format!(
                    "The LEIRI note takes this rule from RFC 3987, where it is {}, with \
                     IRI renamed LEIRI.",
                    rule.iri_name()
                )),
                // A fact of this implementation, not of RFC 3986: said beside the
                // generated code, where it explains the code's name, and not among
                // what the grammar says. One set of combinators serves the three
                // grammars (README, "How it is built").
                _ => {
                    code_note = Some(format!(
                        "Matched by the combinator generated from RFC 3987's {}, run with \
                         the URI grammar's character classes (ucschar and iprivate are \
                         empty).",
                        rule.iri_name()
                    ))
                }
            }
        }
        Some(Facts {
            rule,
            name,
            def,
            notes,
            code_note,
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

    /// The FIRST set as a student reads it (the grammar's character classes that
    /// cover it, `ALPHA`, `DIGIT`, `ucschar`, then the characters left over, `'%'`:
    /// `Analysis::first_classes`), and whether the rule matches the empty string.
    pub fn first(&self, f: &Facts<'_>) -> (Vec<String>, bool) {
        let shown = |n: &str| self.has(&self.shown(n));
        match (
            self.analysis.first(&f.def.name),
            self.analysis.first_classes(&f.def.name, &shown),
        ) {
            (Some(first), Some(classes)) => (
                classes.iter().map(|n| self.shown_class(n)).collect(),
                first.nullable,
            ),
            _ => (Vec::new(), false),
        }
    }

    /// A FIRST-set entry as the grammar shown names it: a rule's name in its own
    /// words, a character label as it is.
    fn shown_class(&self, entry: &str) -> String {
        if self.analysis.rule(entry).is_some() {
            self.shown(entry)
        } else {
            entry.to_string()
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
            .or_insert_with(|| codegen::rule_source(self.grammars, &format!("{key:?}")))
            .clone()
    }

    /// Where the rule is defined, and a link to that section.
    pub fn source(&self, f: &Facts<'g>) -> (&'g Source, Option<String>) {
        (&f.def.source, documents::section_url(&f.def.source))
    }

    /// `n` distinct strings the rule matches, and up to `n` near misses that it
    /// rejects (by the oracle, the ABNF's own judgement), from a fixed seed so that
    /// the pages are the same on every run. The near misses are first those that
    /// teach (`Generator::near_misses`: `256` for `dec-octet`, `1.2.3` for
    /// `IPv4address`), then random edits of the examples that put in no character a
    /// reader cannot see or that the examples do not use.
    pub fn examples(&self, f: &Facts<'_>, n: usize, seed: u64) -> (Vec<String>, Vec<String>) {
        let mut gen = Generator::new(self.grammars, self.variant, seed);
        let mut good: Vec<String> = Vec::new();
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
        let mut bad: Vec<String> = gen.near_misses(f.name, n).unwrap_or_default();
        let seen: Vec<char> = good.iter().flat_map(|s| s.chars()).collect();
        let readable = |s: &str| s.chars().all(|c| c.is_ascii_graphic() || seen.contains(&c));
        for _ in 0..20 * n {
            if bad.len() >= n || good.is_empty() {
                break;
            }
            let from = good[bad.len() % good.len()].clone();
            let m = gen.mutate(&from);
            if !bad.contains(&m) && readable(&m) && self.oracle.matches(f.name, &m) == Ok(false) {
                bad.push(m);
            }
        }
        (good, bad)
    }
}
