//! Errors out: `IriError`, the class defined in Python, made from a `MatchError`,
//! and the `ValueError`s of a builder or an operation.

use std::borrow::Cow;

use iri_grammar::grammar::describe_char;
use iri_grammar::reference::BuildError;
use iri_grammar::MatchError;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyString, PyTuple, PyType};

use crate::text::Text;

/// `IriError`, the class defined in Python (`iri_grammar._errors`) and handed to the
/// extension once at import (a Python class is simplest to subclass, pickle and
/// document), with its `tp_new` (`BaseException`'s), called as a C function: called
/// through the attribute `__new__`, it cost a tuple with the class in it and a
/// wrapper that checks it, about 400 of the 4,600 instructions of an error raised
/// and caught.
static IRI_ERROR: PyOnceLock<(Py<PyType>, pyo3::ffi::newfunc)> = PyOnceLock::new();

/// Registers `IriError` (called by `iri_grammar/__init__.py`).
#[pyfunction]
pub(crate) fn _register(py: Python<'_>, iri_error: Bound<'_, PyType>) -> PyResult<()> {
    // SAFETY: `iri_error` is a live type object; PyType_GetSlot reads a slot of any
    // type from Python 3.10, the package's floor (abi3-py310).
    let slot = unsafe { pyo3::ffi::PyType_GetSlot(iri_error.as_type_ptr(), pyo3::ffi::Py_tp_new) };
    if slot.is_null() {
        return Err(PyTypeError::new_err("IriError has no tp_new"));
    }
    // SAFETY: the `Py_tp_new` slot holds a `newfunc`, and is not NULL.
    let new = unsafe { std::mem::transmute::<*mut std::ffi::c_void, pyo3::ffi::newfunc>(slot) };
    // The class tells the errors the extension raises by the type of their record.
    iri_error.setattr("_Record", py.get_type::<LazyError>())?;
    let _ = IRI_ERROR.set(py, (iri_error.unbind(), new));
    Ok(())
}

/// `IriError` for a match error of the text `t` (the replaced text), `headline`
/// replacing the one-line message when given (a builder's error names the
/// component).
///
/// The error is made without its fields: they are read from `e` when first asked
/// for ([`LazyError::fields`]). A `MatchError` is explained when first read, so a
/// string refused and the error caught, never read (`try: check(s) except
/// IriError: ...`, the way a program sorts strings), costs the match, the
/// exception and no explanation.
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
    let Some((class, new)) = IRI_ERROR.get(py) else {
        return Ok(PyValueError::new_err(
            headline.unwrap_or_else(|| e.to_string()),
        ));
    };
    let lazy = LazyError {
        error: e,
        headline,
        surrogates: t.surrogates.clone(),
    };
    let input = match original {
        Some(o) => o.clone(),
        None => PyString::new(py, &t.text).into_any(),
    };
    // `BaseException`'s `tp_new`: an instance without `__init__`, whose `args` are the
    // input and the record that its fields are read from (iri_grammar/_errors.py).
    // No attribute is set: the instance's `__dict__` is not made.
    let args = PyTuple::new(py, [input, Py::new(py, lazy)?.into_bound(py).into_any()])?;
    // SAFETY: `new` is the `tp_new` of `class`, called with that class, a tuple of
    // arguments and no keywords, as `type.__call__` calls it; it returns a new
    // reference, or NULL with an exception set, which `from_owned_ptr_or_err` takes.
    let instance = unsafe {
        Bound::from_owned_ptr_or_err(
            py,
            new(
                class.bind(py).as_type_ptr(),
                args.as_ptr(),
                std::ptr::null_mut(),
            ),
        )?
    };
    Ok(PyErr::from_value(instance))
}

/// An `IriError`'s fields and long form, read from its match error when first
/// asked for (most errors are caught and dropped).
#[pyclass(frozen, module = "iri_grammar", name = "_LazyError")]
pub(crate) struct LazyError {
    error: MatchError,
    /// The one-line message, where it is not the error's own.
    headline: Option<String>,
    /// `(character offset, code point)` of each lone surrogate of the text.
    surrogates: Vec<(usize, u32)>,
}

impl LazyError {
    /// The lone surrogate where the error is, if one is.
    fn surrogate(&self) -> Option<u32> {
        let offset = self.error.char_offset();
        // `surrogates` is in the order of the text: found by bisection.
        (self.surrogates)
            .binary_search_by_key(&offset, |&(at, _)| at)
            .ok()
            .map(|k| self.surrogates[k].1)
    }
}

#[pymethods]
impl LazyError {
    /// The fields of `IriError.__init__` but `input`: `message`, `offset`,
    /// `byte_offset`, `rule`, `start_rule`, `grammar`, `expected`, `found`.
    fn fields<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = &self.error;
        let surrogate = self.surrogate();
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
        let message = fix_surrogate(
            self.headline.clone().unwrap_or_else(|| e.to_string()),
            surrogate,
        );
        let fields = PyDict::new(py);
        fields.set_item("message", message)?;
        fields.set_item("offset", e.char_offset())?;
        fields.set_item("byte_offset", e.byte_offset())?;
        fields.set_item("rule", e.rule())?;
        fields.set_item("start_rule", e.start_rule())?;
        fields.set_item("grammar", e.grammar().as_str())?;
        fields.set_item("expected", expected)?;
        fields.set_item("found", found)?;
        Ok(fields)
    }

    /// What each rule expected there, and the rules around
    /// (`MatchError::message`).
    fn explanation(&self) -> String {
        fix_surrogate(self.error.message(), self.surrogate())
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
