//! `iri resolve` and `iri relativize` (RFC 3986 §5.2 and its inverse).

use super::each_reference;
use crate::io::{Outcome, RunError, Style};
use crate::report::Problem;
use iri_grammar::{Reference, Variant};

pub fn resolve<V: Variant>(style: &Style, base: &str, references: &[String]) -> Outcome {
    let base = parse_base::<V>(base)?;
    each_reference::<V, V>(style, references, "target", |r| {
        r.resolve(&base)
            .map_err(|e| Problem::other("resolution", e.to_string()))
    })
}

pub fn relativize<V: Variant>(style: &Style, base: &str, targets: &[String]) -> Outcome {
    let base = parse_base::<V>(base)?;
    each_reference::<V, V>(style, targets, "reference", |t| {
        t.relativize(&base)
            .map_err(|e| Problem::other("resolution", e.to_string()))
    })
}

/// The base: a usage error if it is not a reference of the grammar or has no scheme.
fn parse_base<V: Variant>(base: &str) -> Result<Reference<'static, V>, RunError> {
    let r = Reference::<V>::parse_owned(base.to_string())
        .map_err(|e| RunError::Usage(format!("the base {base:?} is invalid: {}", e.message())))?;
    if r.scheme().is_none() {
        return Err(RunError::Usage(format!(
            "the base {base:?} has no scheme; RFC 3986 §5.1 needs an absolute IRI"
        )));
    }
    Ok(r)
}
