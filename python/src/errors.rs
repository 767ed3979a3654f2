//! Errors out: `IriError`, the class defined in Python, made from a `MatchError`,
//! and the `ValueError`s of a builder or an operation.

use std::borrow::Cow;

use iri_grammar::grammar::describe_char;
use iri_grammar::reference::BuildError;
use iri_grammar::MatchError;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyType};

use crate::text::Text;

/// The exception classes, defined in Python (`iri_grammar._errors`) and handed to
/// the extension once at import: a Python class is simplest to subclass, pickle
/// and document.
pub(crate) static IRI_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Registers `IriError` (called by `iri_grammar/__init__.py`).
#[pyfunction]
pub(crate) fn _register(py: Python<'_>, iri_error: Bound<'_, PyType>) -> PyResult<()> {
    let _ = IRI_ERROR.set(py, iri_error.unbind());
    Ok(())
}

/// `IriError` for a match error of the text `t` (the replaced text), `headline`
/// replacing the one-line message when given (a builder's error names the
/// component).
pub(crate) fn iri_error(
    py: Python<'_>,
    e: MatchError,
    t: &Text<'_>,
    original: Option<&Bound<'_, PyAny>>,
    headline: Option<String>,
) -> PyErr {
    match make_iri_error(py, e, t, original, headline) {
        Ok(err) => err,
        Err(err) => err,
    }
}

fn make_iri_error(
    py: Python<'_>,
    e: MatchError,
    t: &Text<'_>,
    original: Option<&Bound<'_, PyAny>>,
    headline: Option<String>,
) -> PyResult<PyErr> {
    let offset = e.char_offset();
    // A surrogate stood where U+FFFF is: report the surrogate.
    // `surrogates` is in the order of the text: found by bisection.
    let surrogate = t
        .surrogates
        .binary_search_by_key(&offset, |&(at, _)| at)
        .ok()
        .map(|k| t.surrogates[k].1);
    let fix = |s: String| fix_surrogate(s, surrogate);
    let found: Option<Py<PyAny>> = match (surrogate, e.found()) {
        // No Rust `char` is a surrogate: Python's `chr` makes it.
        (Some(cp), _) => Some(
            py.import("builtins")?
                .getattr("chr")?
                .call1((cp,))?
                .unbind(),
        ),
        (None, Some(c)) => Some(
            PyString::new(py, c.encode_utf8(&mut [0; 4]))
                .into_any()
                .unbind(),
        ),
        (None, None) => None,
    };
    let expected: Vec<String> = e.expected().iter().map(|x| x.to_string()).collect();
    let message = fix(headline.unwrap_or_else(|| e.to_string()));
    let kwargs = PyDict::new(py);
    match original {
        Some(o) => kwargs.set_item("input", o)?,
        None => kwargs.set_item("input", t.text.as_ref())?,
    }
    kwargs.set_item("offset", offset)?;
    kwargs.set_item("byte_offset", e.byte_offset())?;
    kwargs.set_item("rule", e.rule())?;
    kwargs.set_item("start_rule", e.start_rule())?;
    kwargs.set_item("grammar", e.grammar().as_str())?;
    kwargs.set_item("expected", expected)?;
    kwargs.set_item("found", found)?;
    // The long message and the caret line are written when `explain()` asks.
    let parts = Explained {
        error: e,
        surrogate,
        surrogates: t.surrogates.clone(),
    };
    kwargs.set_item("explained", Py::new(py, parts)?)?;
    let class = IRI_ERROR
        .get(py)
        .ok_or_else(|| PyValueError::new_err(message.clone()))?
        .bind(py);
    let instance = class.call((message,), Some(&kwargs))?;
    Ok(PyErr::from_value(instance))
}

/// A message with the U+FFFF that stood for a lone surrogate described as that
/// surrogate (`surrogate`, where the error is).
fn fix_surrogate(s: String, surrogate: Option<u32>) -> String {
    match surrogate {
        Some(cp) => s.replace(
            &describe_char('\u{FFFF}'),
            &format!("U+{cp:04X} (lone surrogate)"),
        ),
        None => s,
    }
}

/// What `IriError.explain()` adds to the message, written only when asked: most
/// errors are caught and dropped, or read for their offset, and writing these
/// took most of an error's cost.
#[pyclass(frozen, module = "iri_grammar")]
pub(crate) struct Explained {
    error: MatchError,
    /// The lone surrogate where the error is, if one is.
    surrogate: Option<u32>,
    /// `(character offset, code point)` of each lone surrogate of the text.
    surrogates: Vec<(usize, u32)>,
}

#[pymethods]
impl Explained {
    /// What each rule expected there, and the rules around
    /// (`MatchError::message`).
    fn explanation(&self) -> String {
        fix_surrogate(self.error.message(), self.surrogate)
    }

    /// The input, with a caret under the failure.
    fn caret(&self) -> String {
        // The caret line shows the input: a surrogate there is shown as U+FFFD, one
        // column like the surrogate, so that the caret stays under it. The line shows
        // each U+FFFF of the text as it is, in order, and nothing else as U+FFFF: the
        // k-th one in the line is the k-th in the text, a stand-in or a U+FFFF of the
        // input (which stays as it is).
        // Both walks go forward only (the surrogates are in the text's order), so the
        // line costs one pass over the text and one over the caret, however many
        // surrogates there are.
        let caret = self.error.caret();
        if self.surrogates.is_empty() {
            return caret;
        }
        let mut next = self.surrogates.iter().map(|&(at, _)| at).peekable();
        let stand_ins: Vec<bool> = self
            .error
            .input()
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == '\u{FFFF}')
            .map(|(at, _)| {
                while next.next_if(|&s| s < at).is_some() {}
                next.next_if_eq(&at).is_some()
            })
            .collect();
        let mut k = 0;
        caret
            .chars()
            .map(|c| {
                if c != '\u{FFFF}' {
                    return c;
                }
                k += 1;
                if stand_ins.get(k - 1).copied().unwrap_or(false) {
                    '\u{FFFD}'
                } else {
                    c
                }
            })
            .collect()
    }
}

pub(crate) fn build_error(py: Python<'_>, e: &BuildError) -> PyErr {
    let m = e.error();
    let t = Text {
        text: Cow::Borrowed(m.input()),
        surrogates: Vec::new(),
    };
    iri_error(py, m.clone(), &t, None, Some(e.to_string()))
}

pub(crate) fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}
