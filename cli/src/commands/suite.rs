//! `iri suite`.
use crate::io::Outcome;
use std::path::Path;
pub fn run(_rule: &str, _out: &Path, _seed: u64) -> Outcome {
    Ok(true)
}
