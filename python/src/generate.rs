//! Generating strings of a rule (`generate`), drawn with `iri-grammar-abnf` as
//! `iri generate` draws them.

use std::sync::OnceLock;

use iri_grammar::grammar::{Rule, VariantName};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::names::{check_dyn, matches, rule_named, variant_named};

/// The most strings one call of `generate` returns. Each string of the built-in
/// grammars is at most a few hundred characters (the generator also stops
/// lengthening a string at `iri_grammar_abnf::strings::generate::MAX_LENGTH`, 65,536, and
/// draws a bounded repetition at most `MAX_EXTRA`, 64, beyond its minimum), so a
/// call holds at most some tens of megabytes; more strings are more calls, each
/// with its own seed.
pub(crate) const GENERATE_MAX: u64 = 100_000;

/// How many strings are drawn for each target of a cover set and for each near
/// miss (`iri generate`'s `ATTEMPTS`).
pub(crate) const ATTEMPTS: usize = 200;

/// The grammar files, read once (`Grammars::builtin` parses the ABNF text).
pub(crate) fn grammars() -> &'static iri_grammar_abnf::Grammars {
    static GRAMMARS: OnceLock<iri_grammar_abnf::Grammars> = OnceLock::new();
    GRAMMARS.get_or_init(iri_grammar_abnf::Grammars::builtin)
}

/// An `int` in `0..=max`: `TypeError` for another type, `ValueError` out of range
/// (a Python int has no bound; a negative or huge one is a mistake, not a wrap).
pub(crate) fn int_in(obj: &Bound<'_, PyAny>, name: &str, max: u64, why: &str) -> PyResult<u64> {
    if !obj.is_instance_of::<pyo3::types::PyInt>() {
        let type_name = obj
            .get_type()
            .name()
            .map(|n| n.to_string())
            .unwrap_or_default();
        return Err(PyTypeError::new_err(format!(
            "{name}: expected int, got {type_name}"
        )));
    }
    match obj.extract::<u64>() {
        Ok(v) if v <= max => Ok(v),
        _ => Err(PyValueError::new_err(format!(
            "{name} must be an int from 0 to {max}{why}, not {}",
            obj.repr().map(|r| r.to_string()).unwrap_or_default()
        ))),
    }
}

/// What `generate` draws.
#[derive(Clone, Copy)]
pub(crate) enum Draw {
    /// `n` strings that match the rule.
    Valid(usize),
    /// `n` near misses: one or two edits of a drawn string, rejected by the oracle.
    NearMisses(usize),
    /// A cover set; with `true`, one counterexample per place the rule can fail.
    Cover(bool),
}

/// Draws strings of `rule` of `variant` (see `generate`); runs without the GIL.
/// `Err` is a message for `ValueError`; the `Vec` beside the strings is the
/// targets a cover set left unreached.
pub(crate) fn draw(
    variant: VariantName,
    rule: Rule,
    seed: u64,
    what: Draw,
) -> Result<(Vec<String>, Vec<String>), String> {
    use iri_grammar_abnf::oracle::Oracle;
    use iri_grammar_abnf::strings::counterexamples::{self, near_miss};
    use iri_grammar_abnf::strings::generate::Generator;
    use iri_grammar_coverage::Coverage;
    let grammars = grammars();
    // The grammar's own name of the rule (`LEIRI-reference` in the LEIRI note), the
    // one the generator's rule table resolves.
    let name = rule.name_of(variant);
    let unknown = |e: iri_grammar_abnf::model::UnknownRule| e.to_string();
    let mut generator = Generator::new(grammars, variant, seed);
    match what {
        Draw::Valid(n) => {
            let strings = (0..n)
                .map(|_| generator.generate(name))
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            Ok((strings, Vec::new()))
        }
        Draw::NearMisses(n) => {
            let oracle = Oracle::new(grammars, variant);
            let mut strings = Vec::with_capacity(n);
            for _ in 0..n {
                match near_miss(&mut generator, &oracle, name, ATTEMPTS)
                    .map_err(|e| e.to_string())?
                {
                    Some(m) => strings.push(m.text),
                    None => {
                        return Err(format!(
                            "no near miss of {name} found in {ATTEMPTS} tries: its one- and \
                             two-edit neighbours all match"
                        ))
                    }
                }
            }
            Ok((strings, Vec::new()))
        }
        Draw::Cover(invalid) => {
            let cov = Coverage::new(grammars, variant, name).map_err(unknown)?;
            let set = iri_grammar_coverage::cover(&cov, &mut generator, ATTEMPTS);
            if set.strings.is_empty() && set.unreached.is_empty() {
                return Err(format!(
                    "{name} has no rule or alternative a cover set measures: the parse tree \
                     folds a rule of single characters into the rule that uses it; draw its \
                     strings with generate({name:?}, n)"
                ));
            }
            let unreached = set.unreached_names();
            if !invalid {
                return Ok((set.strings, unreached));
            }
            // A place is the innermost rule at the farthest failure and what was
            // expected there, as `iri generate --cover --invalid` counts them.
            let oracle = Oracle::new(grammars, variant);
            let alphabet = counterexamples::alphabet(grammars, variant);
            let found = counterexamples::places(&set.strings, &alphabet, &oracle, name, |s| {
                if matches(variant, rule, s) {
                    return None;
                }
                check_dyn(variant, rule, s).err().map(|e| {
                    let expected: Vec<String> =
                        e.expected().iter().map(|x| x.to_string()).collect();
                    (e.rule().map(str::to_string), expected)
                })
            })
            .map_err(unknown)?;
            Ok((found.into_iter().map(|(_, s)| s).collect(), unreached))
        }
    }
}

/// Strings drawn from the grammar, for tests: `n` random strings that match `rule`
/// of `grammar` (any rule by its ABNF name, the underscore spelling accepted), the
/// same for the same `seed` on every platform. It is the generator of `iri
/// generate`: each alternation (RFC 5234 §3.2), repetition (§3.6) and value range
/// (§3.4) drawn, with a bias toward their edges (empty and maximal repetitions,
/// the first and last code points of ranges). `n` is at most 100,000; a bounded
/// repetition is drawn at most 64 beyond its minimum, an unbounded one usually 0
/// to 3 beyond and sometimes up to 12, and a string stops growing at 65,536 characters
/// (the built-in grammars' are a few hundred at most).
///
/// `invalid=True`: near misses instead, one or two edits of a drawn string that
/// the rule rejects (the ABNF interpreter of the `iri-grammar-abnf` crate says so).
/// `cover=True`: instead of `n` strings, a small set that together reach every
/// alternative reachable from the rule, on the parse the grammar takes (a
/// `UserWarning` names those no string reaches: the first alternative that
/// matches wins, so `ipath`'s `ipath-empty` is never reached; a rule of single
/// characters, such as `HEXDIG`, has nothing to cover: `ValueError`); with
/// `invalid=True`, one string per place the rule can fail (the innermost rule
/// and what was expected there). The GIL is released while strings are drawn.
///
/// >>> from iri_grammar import generate, is_valid
/// >>> strings = generate("IRI", 5, seed=1)
/// >>> all(is_valid(s, "IRI") for s in strings), strings == generate("IRI", 5, seed=1)
/// (True, True)
/// >>> generate("dec_octet", 4, seed=2, grammar="uri")
/// ['1', '212', '238', '249']
/// >>> [is_valid(s, "IPv4address") for s in generate("IPv4address", 3, invalid=True)]
/// [False, False, False]
#[pyfunction]
#[pyo3(signature = (rule, n = None, seed = None, grammar = "iri", *, invalid = false, cover = false))]
#[pyo3(text_signature = "(rule, n=10, seed=0, grammar='iri', *, invalid=False, cover=False)")]
pub(crate) fn generate(
    py: Python<'_>,
    rule: &str,
    n: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    grammar: &str,
    invalid: bool,
    cover: bool,
) -> PyResult<Vec<String>> {
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, Some(rule))?;
    let n = match n {
        Some(n) => int_in(
            n,
            "n",
            GENERATE_MAX,
            " (call again with another seed for more)",
        )?,
        None => 10,
    } as usize;
    let seed = match seed {
        Some(s) => int_in(s, "seed", u64::MAX, "")?,
        None => 0,
    };
    let what = match (cover, invalid) {
        (true, invalid) => Draw::Cover(invalid),
        (false, true) => Draw::NearMisses(n),
        (false, false) => Draw::Valid(n),
    };
    let (strings, unreached) = py
        .detach(|| draw(variant, rule, seed, what))
        .map_err(PyValueError::new_err)?;
    if !unreached.is_empty() {
        let message = format!(
            "no generated string of {} reaches {}",
            rule.name_of(variant),
            unreached.join(", ")
        );
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        PyErr::warn(py, &category, &std::ffi::CString::new(message)?, 1)?;
    }
    Ok(strings)
}
