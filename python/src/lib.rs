//! The Python extension module `iri_grammar._iri_grammar`: the engine of
//! `iri-grammar` for CPython through PyO3, built for the stable ABI (PEP 384,
//! `abi3-py39`) so that one wheel serves every CPython from 3.9 on.
//!
//! The pure-Python package `iri_grammar` (next to this crate) re-exports what is here
//! and adds what is better written in Python: the exception class, the `rfc3987`
//! drop-in and the `jsonschema` format checks. Everything here takes any `str`:
//! Python strings may hold lone surrogates (U+D800–U+DFFF), which no Rust `str` can;
//! they are carried as U+FFFF, a code point that no rule of any of the four grammars
//! allows (RFC 3987 §2.2 `ucschar` and `iprivate`, the LEIRI note's `ucschar`, the
//! 2001 draft's `ichar` all stop at U+FFFD), so every answer stays exact and every
//! character offset is the one Python indexes by.

#![warn(clippy::undocumented_unsafe_blocks)]

mod errors;
mod generate;
mod names;
mod references;
mod text;
mod validation;

use pyo3::prelude::*;

/// The extension module `iri_grammar._iri_grammar`.
#[pymodule]
fn _iri_grammar(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(errors::_register, m)?)?;
    m.add_function(wrap_pyfunction!(validation::is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(validation::check, m)?)?;
    m.add_function(wrap_pyfunction!(validation::is_valid_many, m)?)?;
    m.add_function(wrap_pyfunction!(references::parse_many, m)?)?;
    m.add_function(wrap_pyfunction!(validation::rules, m)?)?;
    m.add_function(wrap_pyfunction!(references::prepare, m)?)?;
    m.add_function(wrap_pyfunction!(validation::parse_tree, m)?)?;
    m.add_function(wrap_pyfunction!(generate::generate, m)?)?;
    m.add_class::<references::PyIriRef>()?;
    m.add_class::<references::PyUriRef>()?;
    m.add_class::<references::PyLeiriRef>()?;
    m.add_class::<references::PyAbsoluteIri>()?;
    Ok(())
}
