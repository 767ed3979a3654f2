//! Strings in: a Python `str` as the engine reads it, UTF-8 with each lone
//! surrogate carried as U+FFFF (the crate's documentation says why).

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

// `PyUnicode_AsUTF8AndSize` is in the limited API only from 3.10, so PyO3 offers
// `to_str` only there; with `abi3-py39` it would copy every string into a new
// `bytes` object. The function itself has been exported by every CPython 3 (and
// the stable ABI is CPython's alone), and it caches the UTF-8 in the string object:
// zero copies, which is most of a validation's cost for short strings.
extern "C" {
    pub(crate) fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// A Python string as the engine reads it: UTF-8, with each lone surrogate replaced
/// by U+FFFF (see the crate's documentation), and where the surrogates were.
pub(crate) struct Text<'a> {
    pub(crate) text: Cow<'a, str>,
    /// `(character offset, code point)` of each lone surrogate.
    pub(crate) surrogates: Vec<(usize, u32)>,
}

/// The UTF-8 of a `str`, or the error a `bytes` or other object deserves.
pub(crate) fn text_of<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Text<'a>> {
    let s = match obj.cast::<PyString>() {
        Ok(s) => s,
        Err(_) => return Err(not_a_str(obj)),
    };
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str`; the buffer belongs to it and lives as long as it,
    // which outlives 'a (the borrow of `obj`).
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if !data.is_null() {
        // SAFETY: `data` is not NULL, so CPython wrote the UTF-8's length to `size`
        // and `data` points at that many initialized bytes, owned by `s` and left
        // unchanged while it lives (a `str` is immutable), which outlives 'a.
        let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) };
        // SAFETY: CPython returns valid UTF-8 (it fails on surrogates instead).
        let text = unsafe { std::str::from_utf8_unchecked(bytes) };
        return Ok(Text {
            text: Cow::Borrowed(text),
            surrogates: Vec::new(),
        });
    }
    // Lone surrogates: CPython raised UnicodeEncodeError; take it back and read
    // the string with `surrogatepass`, which writes a surrogate as ED A0..BF xx.
    let _ = PyErr::take(obj.py());
    let encoded = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
    let bytes = encoded.cast::<PyBytes>()?.as_bytes();
    Ok(without_surrogates(bytes))
}

/// Reads WTF-8 (UTF-8 that may encode surrogates) as UTF-8 with U+FFFF for each.
fn without_surrogates(bytes: &[u8]) -> Text<'static> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut surrogates = Vec::new();
    let mut chars = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let len = match b {
            0x00..=0x7F => 1,
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            _ => 4,
        };
        if b == 0xED && i + 2 < bytes.len() && bytes[i + 1] >= 0xA0 {
            let cp =
                0xD000 | (u32::from(bytes[i + 1] & 0x3F) << 6) | u32::from(bytes[i + 2] & 0x3F);
            surrogates.push((chars, cp));
            out.extend_from_slice("\u{FFFF}".as_bytes());
        } else {
            out.extend_from_slice(&bytes[i..(i + len).min(bytes.len())]);
        }
        chars += 1;
        i += len;
    }
    // Python's encoder wrote valid UTF-8 for everything but the surrogates, which
    // are replaced by valid sequences: the lossy conversion never replaces anything.
    let text = String::from_utf8_lossy(&out).into_owned();
    Text {
        text: Cow::Owned(text),
        surrogates,
    }
}

/// `TypeError` for anything but `str`; for `bytes`, how to get a `str`.
pub(crate) fn not_a_str(obj: &Bound<'_, PyAny>) -> PyErr {
    let type_name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    if obj.is_instance_of::<PyBytes>() || type_name == "bytearray" || type_name == "memoryview" {
        PyTypeError::new_err(format!(
            "expected str, got {type_name}: decode it first (IRIs are text; e.g. \
             data.decode('utf-8'))"
        ))
    } else {
        PyTypeError::new_err(format!("expected str, got {type_name}"))
    }
}
