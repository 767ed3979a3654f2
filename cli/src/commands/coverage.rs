//! `iri coverage`.
use crate::io::Outcome;
use iri_grammar::Variant;
pub fn run<V: Variant>(
    _json: bool,
    _rule: Option<&str>,
    _seed: u64,
    _inputs: &[String],
) -> Outcome {
    Ok(true)
}
