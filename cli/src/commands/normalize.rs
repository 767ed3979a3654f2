//! `iri normalize`: the normal form of each input at a level (RFC 3987 §5.3).

use super::each_reference;
use crate::args::{CharNormArgs, NormalizeLevelArg};
use crate::io::{Outcome, Style};
use crate::report::Problem;
use iri_grammar::normalize::NormalizeOptions;
use iri_grammar::Variant;

pub fn run<V: Variant>(
    style: &Style,
    level: NormalizeLevelArg,
    chars: CharNormArgs,
    inputs: &[String],
) -> Outcome {
    let options = NormalizeOptions {
        chars: chars.char_norm(),
        ignore_fragment: false,
    };
    each_reference::<V, V>(style, inputs, "normalized", |r| {
        r.normalize_with(level.level(), options)
            .map_err(|e| Problem::other("idna", e.to_string()))
    })
}
