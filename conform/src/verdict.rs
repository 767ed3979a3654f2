//! What an answer should have been: whether the rule matches, by the ABNF oracle
//! (`iri_grammar_abnf::oracle`, the grammar read with exact ABNF semantics), and for
//! the rules of references, the components (RFC 3986 §3, RFC 3987 §2.2) the library
//! parses, compared key by key for the keys the program gave.

use crate::protocol::{Answer, COMPONENTS};
use iri_grammar::{Component, Reference, Variant, VariantName};
use iri_grammar_abnf::model::UnknownRule;
use iri_grammar_abnf::oracle::{BudgetExceeded, Oracle, Unanswered};
use iri_grammar_abnf::{name_in, Grammars};
use serde::Serialize;

/// The rules whose strings are references the library parses into components, in
/// RFC 3987's naming: each string of them is a string of `IRI-reference`, parsed as
/// that rule parses it.
const REFERENCE_RULES: [&str; 4] = ["IRI-reference", "IRI", "absolute-IRI", "irelative-ref"];

/// The judge of one rule of one grammar.
#[derive(Debug)]
pub struct Judge<'g> {
    oracle: Oracle<'g>,
    /// The grammar.
    pub variant: VariantName,
    /// The rule, in the grammar's naming.
    pub rule: String,
    /// Whether components are compared (a rule of references, in a grammar with
    /// typed references).
    pub components: bool,
}

/// What the answer should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expected {
    /// Whether the rule matches the input.
    pub valid: bool,
    /// The components, when compared and the input is valid.
    pub components: Option<Vec<(Component, Option<String>)>>,
}

/// How an answer disagrees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// The program says valid; the ABNF does not match.
    AcceptsInvalid,
    /// The program says invalid; the ABNF matches.
    RejectsValid,
    /// Both say valid; a component differs.
    Component,
}

impl Kind {
    /// `accepts-invalid`, `rejects-valid` or `component`.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::AcceptsInvalid => "accepts-invalid",
            Kind::RejectsValid => "rejects-valid",
            Kind::Component => "component",
        }
    }
}

/// An answer that differs from what it should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Disagreement {
    /// How.
    pub kind: Kind,
    /// For [`Kind::Component`]: the first component that differs (RFC 3986 §3
    /// order), what the library parses and what the program gave.
    pub component: Option<(Component, Option<String>, Option<String>)>,
}

impl Disagreement {
    /// The kind and, for a component, which: what minimizing keeps.
    pub fn way(&self) -> (Kind, Option<Component>) {
        (self.kind, self.component.as_ref().map(|c| c.0))
    }
}

impl<'g> Judge<'g> {
    /// The judge of `rule` (in `variant`'s naming).
    ///
    /// # Errors
    /// [`UnknownRule`] if the grammar has no such rule.
    pub fn new(
        grammars: &'g Grammars,
        variant: VariantName,
        rule: &str,
    ) -> Result<Judge<'g>, UnknownRule> {
        let oracle = Oracle::new(grammars, variant);
        oracle.knows(rule)?;
        let components = variant != VariantName::Iri2001
            && REFERENCE_RULES
                .iter()
                .any(|r| name_in(r, variant).eq_ignore_ascii_case(rule));
        Ok(Judge {
            oracle,
            variant,
            rule: rule.to_string(),
            components,
        })
    }

    /// The oracle of the grammar.
    pub fn oracle(&self) -> &Oracle<'g> {
        &self.oracle
    }

    /// What the answer for `input` should be.
    ///
    /// # Errors
    /// [`BudgetExceeded`] if the oracle cannot judge it within its work budget (an
    /// input it cannot judge is not an invalid one).
    pub fn expected(&self, input: &str) -> Result<Expected, BudgetExceeded> {
        let valid = match self.oracle.matches(&self.rule, input) {
            Ok(valid) => valid,
            Err(Unanswered::Budget(e)) => return Err(e),
            // The rule was resolved when the judge was made.
            Err(Unanswered::Unknown(_)) => false,
        };
        let components = (valid && self.components)
            .then(|| {
                iri_grammar::with_variant!(self.variant, V => components::<V>(input), Iri2001 => None)
            })
            .flatten();
        Ok(Expected { valid, components })
    }

    /// How `answer` disagrees with what the answer for `input` should be, if it does.
    ///
    /// # Errors
    /// As [`Judge::expected`].
    pub fn judge(
        &self,
        input: &str,
        answer: &Answer,
    ) -> Result<Option<Disagreement>, BudgetExceeded> {
        Ok(disagreement(&self.expected(input)?, answer))
    }
}

/// How `answer` disagrees with `expected`, if it does.
pub fn disagreement(expected: &Expected, answer: &Answer) -> Option<Disagreement> {
    match (expected.valid, answer.valid) {
        (false, true) => Some(Disagreement {
            kind: Kind::AcceptsInvalid,
            component: None,
        }),
        (true, false) => Some(Disagreement {
            kind: Kind::RejectsValid,
            component: None,
        }),
        (false, false) => None,
        (true, true) => {
            let ours = expected.components.as_ref()?;
            COMPONENTS.iter().find_map(|&part| {
                let theirs = answer.component(part)?;
                let mine = ours.iter().find(|(p, _)| *p == part).map(|(_, v)| v)?;
                (mine.as_deref() != theirs).then(|| Disagreement {
                    kind: Kind::Component,
                    component: Some((part, mine.clone(), theirs.map(str::to_string))),
                })
            })
        }
    }
}

/// The components of a reference, as the library parses it.
fn components<V: Variant>(input: &str) -> Option<Vec<(Component, Option<String>)>> {
    let r = Reference::<V>::parse(input).ok()?;
    Some(
        COMPONENTS
            .iter()
            .map(|&p| (p, r.get(p).map(str::to_string)))
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::read_answer;

    #[test]
    fn validity_and_components() {
        let g = Grammars::builtin();
        let j = Judge::new(&g, VariantName::Iri, "IRI-reference").unwrap();
        assert!(j.components);
        let ok = read_answer(r#"{"valid": true, "host": "a", "port": null, "query": ""}"#);
        assert_eq!(j.judge("http://a/?", &ok.unwrap()), Ok(None));
        let bad = read_answer(r#"{"valid": true, "host": "a", "query": null}"#).unwrap();
        let d = j.judge("http://a/?", &bad).unwrap().unwrap();
        assert_eq!(
            d.component,
            Some((Component::Query, Some(String::new()), None))
        );
        let d = j
            .judge("a b", &read_answer("valid").unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(d.kind, Kind::AcceptsInvalid);
        let d = j
            .judge("a", &read_answer("invalid").unwrap())
            .unwrap()
            .unwrap();
        assert_eq!(d.kind, Kind::RejectsValid);
        let v4 = Judge::new(&g, VariantName::Uri, "IPv4address").unwrap();
        assert!(!v4.components);
        assert!(Judge::new(&g, VariantName::Uri, "nope").is_err());
        assert!(
            Judge::new(&g, VariantName::Uri, "absolute-URI")
                .unwrap()
                .components
        );
    }
}
