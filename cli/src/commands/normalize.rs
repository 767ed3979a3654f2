//! `iri normalize`: the normal form of each input at a level (RFC 3987 §5.3).

use super::each_reference;
use crate::args::{CharNormArgs, LevelArg};
use crate::io::{Failure, Outcome};
use iri_grammar::normalize::{normalize, NormalizeOptions};
use iri_grammar::Variant;

pub fn run<V: Variant>(
    json: bool,
    level: LevelArg,
    chars: CharNormArgs,
    inputs: &[String],
) -> Outcome {
    if level == LevelArg::Simple {
        return Err(Failure::Usage(
            "normalize takes --level syntax or scheme (simple comparison has no normal form)"
                .into(),
        ));
    }
    let options = NormalizeOptions {
        chars: chars.char_norm(),
        ignore_fragment: false,
    };
    each_reference::<V, V>(json, inputs, "normalized", |r| {
        normalize(&r, level.level(), options).map_err(|e| e.to_string())
    })
}
