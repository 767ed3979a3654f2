//! Options by name: grammars, levels and character normalizations in the library's
//! spellings (their `FromStr`), and rules by their ABNF names.

use std::collections::HashMap;
use std::sync::OnceLock;

use iri_grammar::grammar::{self, Rule, VariantName};
use iri_grammar::normalize::{CharNorm, Level};
use iri_grammar::MatchError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// The grammar named `name`: `uri` (RFC 3986), `iri` (RFC 3987), `leiri` (the W3C
/// note), `iri-2001` (draft-masinter-url-i18n-07), or another of the library's
/// spellings (`VariantName::SPELLINGS`: `rfc3986`, `rfc3987`, `iri2001`; any case,
/// `_` for `-`).
pub(crate) fn variant_named(name: &str) -> PyResult<VariantName> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("unknown grammar {name:?}: {e}")))
}

/// The rule names of each grammar, lowercased (ABNF names are case-insensitive,
/// RFC 5234 §2.1), built once.
/// Each table also holds the names as the grammar spells them, so that the usual
/// spelling is found without lowercasing (an allocation per call).
fn rule_table(variant: VariantName) -> &'static HashMap<String, Rule> {
    static TABLES: OnceLock<[HashMap<String, Rule>; 4]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        VariantName::EVERY.map(|v| {
            Rule::of(v)
                .flat_map(|(name, rule)| {
                    [(name.to_string(), rule), (name.to_ascii_lowercase(), rule)]
                })
                .collect()
        })
    });
    &tables[VariantName::EVERY
        .iter()
        .position(|&v| v == variant)
        .unwrap_or(0)]
}

/// The rule `name` of `variant` (the underscore spelling of a hyphenated name
/// accepted, as Python identifiers have no `-`); `None` is the grammar's reference
/// rule (`IRI-reference`, `URI-reference`, `LEIRI-reference`).
pub(crate) fn rule_named(variant: VariantName, name: Option<&str>) -> PyResult<Rule> {
    let Some(name) = name else {
        return Ok(Rule::IriReference);
    };
    let table = rule_table(variant);
    if let Some(&rule) = table.get(name) {
        return Ok(rule);
    }
    let lower = name.to_ascii_lowercase();
    table
        .get(&lower)
        .or_else(|| table.get(&lower.replace('_', "-")))
        .copied()
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "no rule {name:?} in the {} grammar (see rules({:?}))",
                variant.as_str(),
                variant.as_str()
            ))
        })
}

pub(crate) fn matches(variant: VariantName, rule: Rule, text: &str) -> bool {
    grammar::matches_dyn(variant, rule, text)
}

pub(crate) fn check_dyn(variant: VariantName, rule: Rule, text: &str) -> Result<(), MatchError> {
    iri_grammar::with_variant!(variant, V => grammar::check::<V>(rule, text))
}

/// The level named `level` (`Level`'s `FromStr`: `simple`, `syntax`, `scheme`).
pub(crate) fn level_named(level: &str) -> PyResult<Level> {
    level
        .parse()
        .map_err(|e| PyValueError::new_err(format!("unknown level {level:?}: {e}")))
}

/// `nfc=`: a bool (`True` is NFC), or a name of `CharNorm`'s `FromStr` (`none`,
/// `nfc`, `nfkc`, the empty string for none).
pub(crate) fn char_norm(nfc: &Bound<'_, PyAny>) -> PyResult<CharNorm> {
    if let Ok(b) = nfc.extract::<bool>() {
        return Ok(if b { CharNorm::Nfc } else { CharNorm::None });
    }
    let name = nfc.extract::<String>()?;
    name.parse().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown character normalization {:?}: expected True, False, 'nfc' or 'nfkc'",
            name.to_ascii_lowercase()
        ))
    })
}
