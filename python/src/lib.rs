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

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::grammar::{self, describe_char, Rule, Variant, VariantName};
use iri_grammar::normalize::{CharNorm, Comparison, Level, NormalizeOptions};
use iri_grammar::reference::BuildError;
use iri_grammar::{Iri, Leiri, MatchError, Reference, Uri};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyDict, PyList, PyString, PyTuple, PyType};

// ---------------------------------------------------------------------------
// Strings in

// `PyUnicode_AsUTF8AndSize` is in the limited API only from 3.10, so PyO3 offers
// `to_str` only there; with `abi3-py39` it would copy every string into a new
// `bytes` object. The function itself has been exported by every CPython 3 (and
// the stable ABI is CPython's alone), and it caches the UTF-8 in the string object:
// zero copies, which is most of a validation's cost for short strings.
extern "C" {
    fn PyUnicode_AsUTF8AndSize(
        unicode: *mut pyo3::ffi::PyObject,
        size: *mut pyo3::ffi::Py_ssize_t,
    ) -> *const std::os::raw::c_char;
}

/// A Python string as the engine reads it: UTF-8, with each lone surrogate replaced
/// by U+FFFF (see the module docs), and where the surrogates were.
struct Text<'a> {
    text: Cow<'a, str>,
    /// `(character offset, code point)` of each lone surrogate.
    surrogates: Vec<(usize, u32)>,
}

/// The UTF-8 of a `str`, or the error a `bytes` or other object deserves.
fn text_of<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Text<'a>> {
    let s = match obj.cast::<PyString>() {
        Ok(s) => s,
        Err(_) => return Err(not_a_str(obj)),
    };
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str`; the buffer belongs to it and lives as long as it,
    // which outlives 'a (the borrow of `obj`).
    let data = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if !data.is_null() {
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
fn not_a_str(obj: &Bound<'_, PyAny>) -> PyErr {
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

// ---------------------------------------------------------------------------
// Grammars and rules by name

/// The grammar named `name`: `uri` (RFC 3986), `iri` (RFC 3987), `leiri` (the W3C
/// note), `iri-2001` (draft-masinter-url-i18n-07), or another of the library's
/// spellings (`VariantName::SPELLINGS`: `rfc3986`, `rfc3987`, `iri2001`; any case,
/// `_` for `-`).
fn variant_named(name: &str) -> PyResult<VariantName> {
    name.parse()
        .map_err(|e| PyValueError::new_err(format!("unknown grammar {name:?}: {e}")))
}

/// The rule names of each grammar, lowercased (ABNF names are case-insensitive,
/// RFC 5234 §2.1), built once.
/// Each table also holds the names as the grammar spells them, so that the usual
/// spelling is found without lowercasing (an allocation per call).
fn rule_table(variant: VariantName) -> &'static HashMap<String, Rule> {
    static TABLES: OnceLock<[HashMap<String, Rule>; 4]> = OnceLock::new();
    let tables = TABLES.get_or_init(|| {
        VariantName::EVERY.map(|v| {
            Rule::of(v)
                .flat_map(|(name, rule)| {
                    [(name.to_string(), rule), (name.to_ascii_lowercase(), rule)]
                })
                .collect()
        })
    });
    &tables[VariantName::EVERY
        .iter()
        .position(|&v| v == variant)
        .unwrap_or(0)]
}

/// The rule `name` of `variant` (the underscore spelling of a hyphenated name
/// accepted, as Python identifiers have no `-`); `None` is the grammar's reference
/// rule (`IRI-reference`, `URI-reference`, `LEIRI-reference`).
fn rule_named(variant: VariantName, name: Option<&str>) -> PyResult<Rule> {
    let Some(name) = name else {
        return Ok(Rule::IriReference);
    };
    let table = rule_table(variant);
    if let Some(&rule) = table.get(name) {
        return Ok(rule);
    }
    let lower = name.to_ascii_lowercase();
    table
        .get(&lower)
        .or_else(|| table.get(&lower.replace('_', "-")))
        .copied()
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "no rule {name:?} in the {} grammar (see rules({:?}))",
                variant.as_str(),
                variant.as_str()
            ))
        })
}

fn matches(variant: VariantName, rule: Rule, text: &str) -> bool {
    grammar::matches_dyn(variant, rule, text)
}

fn check_dyn(variant: VariantName, rule: Rule, text: &str) -> Result<(), MatchError> {
    iri_grammar::with_variant!(variant, V => grammar::check::<V>(rule, text))
}

// ---------------------------------------------------------------------------
// Errors out

/// The exception classes, defined in Python (`iri_grammar._errors`) and handed to
/// the extension once at import: a Python class is simplest to subclass, pickle
/// and document.
static IRI_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// Registers `IriError` (called by `iri_grammar/__init__.py`).
#[pyfunction]
fn _register(py: Python<'_>, iri_error: Bound<'_, PyType>) -> PyResult<()> {
    let _ = IRI_ERROR.set(py, iri_error.unbind());
    Ok(())
}

/// `IriError` for a match error of the text `t` (the replaced text), `headline`
/// replacing the one-line message when given (a builder's error names the
/// component).
fn iri_error(
    py: Python<'_>,
    e: &MatchError,
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
    e: &MatchError,
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
    let fix = |s: String| -> String {
        match surrogate {
            Some(cp) => s.replace(
                &describe_char('\u{FFFF}'),
                &format!("U+{cp:04X} (lone surrogate)"),
            ),
            None => s,
        }
    };
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
    kwargs.set_item("explanation", fix(e.message()))?;
    // The caret line shows the input: a surrogate there is shown as U+FFFD, one
    // column like the surrogate, so that the caret stays under it. The line shows
    // each U+FFFF of the text as it is, in order, and nothing else as U+FFFF: the
    // k-th one in the line is the k-th in the text, a stand-in or a U+FFFF of the
    // input (which stays as it is).
    // Both walks go forward only (the surrogates are in the text's order), so the
    // line costs one pass over the text and one over the caret, however many
    // surrogates there are.
    let mut caret = e.caret();
    if !t.surrogates.is_empty() {
        let mut next = t.surrogates.iter().map(|&(at, _)| at).peekable();
        let stand_ins: Vec<bool> = t
            .text
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == '\u{FFFF}')
            .map(|(at, _)| {
                while next.next_if(|&s| s < at).is_some() {}
                next.next_if_eq(&at).is_some()
            })
            .collect();
        let mut k = 0;
        caret = caret
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
            .collect();
    }
    kwargs.set_item("caret", caret)?;
    let class = IRI_ERROR
        .get(py)
        .ok_or_else(|| PyValueError::new_err(message.clone()))?
        .bind(py);
    let instance = class.call((message,), Some(&kwargs))?;
    Ok(PyErr::from_value(instance))
}

fn build_error(py: Python<'_>, e: &BuildError) -> PyErr {
    let m = e.error();
    let t = Text {
        text: Cow::Borrowed(m.input()),
        surrogates: Vec::new(),
    };
    iri_error(py, m, &t, None, Some(e.to_string()))
}

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

// ---------------------------------------------------------------------------
// Validation

/// Whether all of `s` matches `rule` of `grammar` (RFC 3986 App. A, RFC 3987 §2.2).
#[pyfunction]
#[pyo3(signature = (s, rule = None, grammar = "iri"))]
fn is_valid(s: &Bound<'_, PyAny>, rule: Option<&str>, grammar: &str) -> PyResult<bool> {
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, rule)?;
    let t = text_of(s)?;
    Ok(matches(variant, rule, &t.text))
}

/// Returns `None` when `s` matches `rule` of `grammar`; raises `IriError` where and
/// why it does not.
#[pyfunction]
#[pyo3(signature = (s, rule = None, grammar = "iri"))]
fn check(py: Python<'_>, s: &Bound<'_, PyAny>, rule: Option<&str>, grammar: &str) -> PyResult<()> {
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, rule)?;
    let t = text_of(s)?;
    check_dyn(variant, rule, &t.text).map_err(|e| iri_error(py, &e, &t, Some(s), None))
}

/// The UTF-8 of one string of a batch, borrowed from the string object (alive as
/// long as the tuple that holds it, hence `'a`). A string with a lone surrogate is
/// `"\u{FFFF}"`: no rule of any grammar matches U+FFFF (see the module docs), so
/// that string, like the string itself, matches no rule and parses as no reference.
fn batch_item<'a>(item: Borrowed<'a, '_, PyAny>) -> PyResult<&'a str> {
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `item` is a live object; CPython checks that it is a `str` (else
    // TypeError, NULL), and the UTF-8 it caches lives as long as the string, which
    // the tuple borrowed for 'a keeps alive.
    let data = unsafe { PyUnicode_AsUTF8AndSize(item.as_ptr(), &mut size) };
    if !data.is_null() {
        let bytes = unsafe { std::slice::from_raw_parts(data.cast::<u8>(), size as usize) };
        // SAFETY: CPython returns valid UTF-8.
        return Ok(unsafe { std::str::from_utf8_unchecked(bytes) });
    }
    let _ = PyErr::take(item.py());
    if item.is_instance_of::<PyString>() {
        Ok("\u{FFFF}")
    } else {
        Err(not_a_str(&item))
    }
}

/// Runs `f` on the UTF-8 of every string of `strings` (any iterable of `str`). A
/// list or tuple is read by index, without the iterator protocol: a list is copied
/// into a tuple first (one C call), so that the strings stay alive, whatever other
/// threads do to the list, while `f` runs without the GIL.
fn with_batch<R>(
    strings: &Bound<'_, PyAny>,
    f: impl FnOnce(&[&str]) -> PyResult<R>,
) -> PyResult<R> {
    let tuple = if let Ok(t) = strings.cast::<PyTuple>() {
        t.clone()
    } else if let Ok(l) = strings.cast::<PyList>() {
        l.to_tuple()
    } else {
        let items: Vec<Bound<'_, PyAny>> = strings.try_iter()?.collect::<PyResult<_>>()?;
        PyTuple::new(strings.py(), items)?
    };
    let n = tuple.len();
    let mut slices: Vec<&str> = Vec::with_capacity(n);
    for i in 0..n {
        // SAFETY: `i` is below the length of the tuple, which cannot change.
        slices.push(batch_item(unsafe { tuple.get_borrowed_item_unchecked(i) })?);
    }
    f(&slices)
}

/// `is_valid` for every string of an iterable; the engine runs without the GIL.
#[pyfunction]
#[pyo3(signature = (strings, rule = None, grammar = "iri"))]
fn is_valid_many(
    py: Python<'_>,
    strings: &Bound<'_, PyAny>,
    rule: Option<&str>,
    grammar: &str,
) -> PyResult<Vec<bool>> {
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, rule)?;
    with_batch(strings, |slices| {
        Ok(py.detach(|| slices.iter().map(|s| matches(variant, rule, s)).collect()))
    })
}

/// The rule names of a grammar, in the order of its ABNF.
#[pyfunction]
#[pyo3(signature = (grammar = "iri"))]
fn rules(grammar: &str) -> PyResult<Vec<&'static str>> {
    let variant = variant_named(grammar)?;
    Ok(Rule::of(variant).map(|(name, _)| name).collect())
}

// ---------------------------------------------------------------------------
// References

/// The level named `level` (`Level`'s `FromStr`: `simple`, `syntax`, `scheme`).
fn level_named(level: &str) -> PyResult<Level> {
    level
        .parse()
        .map_err(|e| PyValueError::new_err(format!("unknown level {level:?}: {e}")))
}

/// `nfc=`: a bool (`True` is NFC), or a name of `CharNorm`'s `FromStr` (`none`,
/// `nfc`, `nfkc`, the empty string for none).
fn char_norm(nfc: &Bound<'_, PyAny>) -> PyResult<CharNorm> {
    if let Ok(b) = nfc.extract::<bool>() {
        return Ok(if b { CharNorm::Nfc } else { CharNorm::None });
    }
    let name = nfc.extract::<String>()?;
    name.parse().map_err(|_| {
        PyValueError::new_err(format!(
            "unknown character normalization {:?}: expected True, False, 'nfc' or 'nfkc'",
            name.to_ascii_lowercase()
        ))
    })
}

/// Parses `s` as a reference of grammar `V`; `IriError` if it is none.
fn parse_ref<V: Variant>(py: Python<'_>, s: &Bound<'_, PyAny>) -> PyResult<Reference<'static, V>> {
    let t = text_of(s)?;
    Reference::<V>::parse(&t.text)
        .map(Reference::into_owned)
        .map_err(|e| iri_error(py, &e, &t, Some(s), None))
}

/// A reference of grammar `V` from a `str` or any reference object (by its text).
fn as_ref_of<V: Variant>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
) -> PyResult<Reference<'static, V>> {
    if obj.is_instance_of::<PyString>() {
        parse_ref::<V>(py, obj)
    } else if obj.hasattr("_iri_grammar_reference")? {
        let text = obj.str()?;
        parse_ref::<V>(py, text.as_any())
    } else {
        Err(not_a_str(obj))
    }
}

/// One class of reference objects per grammar: the same methods over
/// `Reference<V>`, so a macro writes them.
macro_rules! reference_class {
    ($cls:ident, $pyname:literal, $v:ty, $absolute:literal, $relcls:ident, $grammar:literal) => {
        #[pyclass(name = $pyname, module = "iri_grammar", frozen)]
        #[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $cls {
            r: Reference<'static, $v>,
        }

        impl $cls {
            /// Wraps a reference, refusing a relative one where the class is of
            /// absolute IRIs (RFC 3987 §2.2 `IRI`: a scheme is required).
            fn wrap(py: Python<'_>, r: Reference<'static, $v>) -> PyResult<Self> {
                if $absolute && !r.is_absolute() {
                    let t = Text { text: Cow::Borrowed(r.as_str()), surrogates: Vec::new() };
                    let e = check_dyn(<$v as Variant>::NAME, Rule::Iri, r.as_str())
                        .expect_err("a reference without a scheme is no IRI");
                    return Err(iri_error(py, &e, &t, None, None));
                }
                Ok($cls { r })
            }
        }

        #[pymethods]
        impl $cls {
            #[new]
            fn new(py: Python<'_>, s: &Bound<'_, PyAny>) -> PyResult<Self> {
                let r = parse_ref::<$v>(py, s)?;
                $cls::wrap(py, r)
            }

            /// Marks reference objects for the functions that take either a `str`
            /// or a reference.
            #[classattr]
            fn _iri_grammar_reference() -> bool {
                true
            }

            /// The grammar of the class: `iri`, `uri` or `leiri`.
            #[classattr]
            fn grammar() -> &'static str {
                $grammar
            }

            /// `==` and the order are those of the exact string (README: equivalence
            /// is `compare`), with a `str` or a reference of any class, as the Rust
            /// type's `PartialEq<str>`: `IriRef(s) == s` and `IriRef(s) == UriRef(s)`.
            /// Anything else is `NotImplemented`.
            fn __richcmp__(
                &self,
                py: Python<'_>,
                other: &Bound<'_, PyAny>,
                op: pyo3::basic::CompareOp,
            ) -> Py<PyAny> {
                match exact_text(other) {
                    Some(text) => {
                        let holds = op.matches(self.r.as_str().cmp(text.as_str()));
                        pyo3::types::PyBool::new(py, holds).to_owned().into_any().unbind()
                    }
                    None => py.NotImplemented(),
                }
            }

            /// The hash of the exact string, so that a reference and its `str` are one
            /// key of a dict or a set, as `==` says they are equal.
            fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
                PyString::new(py, self.r.as_str()).hash()
            }

            fn __str__(&self) -> &str {
                self.r.as_str()
            }

            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                let text = PyString::new(slf.py(), slf.get().r.as_str()).repr()?;
                Ok(format!("{}({})", $pyname, text))
            }

            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyType>, (String,))> {
                Ok((slf.get_type(), (slf.get().r.as_str().to_string(),)))
            }

            fn __copy__(slf: &Bound<'_, Self>) -> Py<Self> {
                slf.clone().unbind()
            }

            fn __deepcopy__(slf: &Bound<'_, Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
                slf.clone().unbind()
            }

            /// `scheme` (RFC 3986 §3.1), without the `:`; `None` for a relative reference.
            #[getter]
            fn scheme(&self) -> Option<&str> {
                self.r.scheme()
            }

            /// `iauthority` (§3.2), without the `//`; `None` when absent.
            #[getter]
            fn authority(&self) -> Option<&str> {
                self.r.authority()
            }

            /// `iuserinfo` (§3.2.1), without the `@`.
            #[getter]
            fn userinfo(&self) -> Option<&str> {
                self.r.userinfo()
            }

            /// `ihost` (§3.2.2) as written, brackets of an IP literal included.
            #[getter]
            fn host(&self) -> Option<&str> {
                self.r.host()
            }

            /// Which kind of host (§3.2.2): `reg-name`, `ipv4`, `ipv6` or `ipvfuture`.
            #[getter]
            fn host_kind(&self) -> Option<&'static str> {
                self.r.host_kind().map(|k| k.as_str())
            }

            /// `port` (§3.2.3) as written (it may be empty: `http://a:/`).
            #[getter]
            fn port(&self) -> Option<&str> {
                self.r.port()
            }

            /// The port as a number; `None` when absent or empty. `ValueError` when
            /// it is above 65535 (the ABNF allows any digits).
            #[getter]
            fn port_number(&self) -> PyResult<Option<u16>> {
                self.r.port_number().map_err(value_error)
            }

            /// `ipath` (§3.3), always present, maybe empty.
            #[getter]
            fn path(&self) -> &str {
                self.r.path()
            }

            /// `iquery` (§3.4), without the `?`.
            #[getter]
            fn query(&self) -> Option<&str> {
                self.r.query()
            }

            /// `ifragment` (§3.5), without the `#`.
            #[getter]
            fn fragment(&self) -> Option<&str> {
                self.r.fragment()
            }

            /// The path's segments (§3.3), as written; an absolute path's leading
            /// `/` starts no segment.
            #[getter]
            fn path_segments(&self) -> Vec<&str> {
                self.r.path_segments().collect()
            }

            /// Whether the reference has a scheme (RFC 3986 §4.3).
            #[getter]
            fn is_absolute(&self) -> bool {
                self.r.is_absolute()
            }

            /// The query's `name=value` pairs, split at `&` (empty pieces skipped),
            /// each at its first `=`; a value is `None` without `=`. RFC 3986 §3.4
            /// gives the query no structure: this is the HTML forms convention, minus
            /// `+` for a space. With `decode`, percent-encoded UTF-8 is decoded
            /// (octets that are not UTF-8 stay encoded).
            #[pyo3(signature = (decode = false))]
            fn query_pairs(&self, decode: bool) -> Vec<(String, Option<String>)> {
                self.r
                    .query_pairs()
                    .map(|p| {
                        if decode {
                            (p.decoded_name().into_owned(), p.decoded_value().map(Cow::into_owned))
                        } else {
                            (p.name().to_string(), p.value().map(str::to_string))
                        }
                    })
                    .collect()
            }

            /// This reference without its fragment.
            fn without_fragment(&self) -> Self {
                $cls { r: self.r.without_fragment().into_owned() }
            }

            /// Resolves this reference against `base` (RFC 3986 §5.2); `base` must be
            /// absolute.
            fn resolve(&self, py: Python<'_>, base: &Bound<'_, PyAny>) -> PyResult<$cls> {
                let base = as_ref_of::<$v>(py, base)?;
                let r = self.r.resolve(&base).map_err(value_error)?;
                Ok($cls { r })
            }

            /// Resolves `reference` against this reference, the base (RFC 3986 §5.2).
            fn join(&self, py: Python<'_>, reference: &Bound<'_, PyAny>) -> PyResult<Self> {
                let r = as_ref_of::<$v>(py, reference)?;
                let r = r.resolve(&self.r).map_err(value_error)?;
                $cls::wrap(py, r)
            }

            /// The shortest reference that resolves to this one against `base` (the
            /// inverse of `resolve`).
            fn relativize(&self, py: Python<'_>, base: &Bound<'_, PyAny>) -> PyResult<$relcls> {
                let base = as_ref_of::<$v>(py, base)?;
                let r = self.r.relativize(&base).map_err(value_error)?;
                Ok($relcls { r: r.into() })
            }

            /// The URI this reference maps to (RFC 3987 §3.1): non-ASCII characters
            /// percent-encoded as UTF-8; with `idna`, the labels of a DNS host
            /// converted by ToASCII instead.
            #[pyo3(signature = (idna = false))]
            fn to_uri(&self, idna: bool) -> PyResult<PyUriRef> {
                let r = self.r.to_uri_with(ToUri { idna }).map_err(value_error)?;
                Ok(PyUriRef { r })
            }

            /// The IRI this reference maps back to (RFC 3987 §3.2): percent-encoded
            /// UTF-8 decoded where the IRI grammar allows the character; with `idna`,
            /// `xn--` labels of a DNS host by ToUnicode.
            #[pyo3(signature = (idna = false))]
            fn to_iri(&self, idna: bool) -> PyResult<PyIriRef> {
                let r = self.r.to_iri_with(ToIri { idna }).map_err(value_error)?;
                Ok(PyIriRef { r })
            }

            /// The normal form at `level` (`simple`, `syntax` or `scheme`, RFC 3987
            /// §5.3); `nfc` (True, `"nfc"` or `"nfkc"`) adds character
            /// normalization (§5.3.2.2).
            #[pyo3(signature = (level = "syntax", nfc = None))]
            fn normalize(&self, py: Python<'_>, level: &str, nfc: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
                let chars = nfc.map(char_norm).transpose()?.unwrap_or_default();
                let options = NormalizeOptions { chars, ignore_fragment: false };
                let r = self.r.normalize_with(level_named(level)?, options).map_err(value_error)?;
                $cls::wrap(py, r)
            }

            /// Whether this reference and `other` identify the same resource at
            /// `level` (RFC 3987 §5.3): `True`, `False`, or `None` when it cannot
            /// be known (a relative reference, a host IDNA refuses).
            #[pyo3(signature = (other, level = "syntax"))]
            fn compare(&self, py: Python<'_>, other: &Bound<'_, PyAny>, level: &str) -> PyResult<Option<bool>> {
                let other = as_ref_of::<$v>(py, other)?;
                Ok(match self.r.compare(&other, level_named(level)?) {
                    Comparison::Equivalent => Some(true),
                    Comparison::Different => Some(false),
                    Comparison::Unknown(_) => None,
                })
            }

            /// The findings of the prose rules of RFC 3987 (bidi §4.2, NFC §5.3.2.2,
            /// §7.5 confusables, ...), as dicts: `code`, `severity`, `message`,
            /// `section`, `offset` (characters), `component`, `character`.
            fn lint<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyDict>>> {
                self.r
                    .lint()
                    .into_iter()
                    .map(|f| {
                        let d = PyDict::new(py);
                        d.set_item("code", f.code())?;
                        d.set_item("severity", f.severity().as_str())?;
                        d.set_item("message", f.message())?;
                        d.set_item("section", f.section())?;
                        d.set_item("offset", f.char_offset)?;
                        d.set_item("component", f.component.as_str())?;
                        d.set_item("character", f.character_label())?;
                        Ok(d)
                    })
                    .collect()
            }

            /// Builds a reference from components, each checked against its own
            /// rule (RFC 3986 §5.3 recomposition); `encode=True` percent-encodes what
            /// a component's rule does not allow.
            #[classmethod]
            #[pyo3(signature = (*, scheme = None, userinfo = None, host = None, port = None, path = String::new(), query = None, fragment = None, encode = false))]
            #[pyo3(text_signature = "(*, scheme=None, userinfo=None, host=None, port=None, path='', query=None, fragment=None, encode=False)")]
            #[allow(clippy::too_many_arguments)]
            fn build(
                _cls: &Bound<'_, PyType>,
                py: Python<'_>,
                scheme: Option<String>,
                userinfo: Option<String>,
                host: Option<String>,
                port: Option<&Bound<'_, PyAny>>,
                path: String,
                query: Option<String>,
                fragment: Option<String>,
                encode: bool,
            ) -> PyResult<Self> {
                let mut b = Reference::<$v>::builder()
                    .scheme(scheme.as_deref())
                    .userinfo(userinfo.as_deref())
                    .host(host.as_deref())
                    .path(&path)
                    .query(query.as_deref())
                    .fragment(fragment.as_deref())
                    .encode(encode);
                let port_text;
                if let Some(p) = port {
                    if let Ok(n) = p.extract::<u16>() {
                        b = b.port(n);
                    } else {
                        port_text = p.extract::<String>().map_err(|_| {
                            PyValueError::new_err("port: expected an int in 0..=65535 or a str of digits")
                        })?;
                        b = b.port_text(port_text.as_str());
                    }
                }
                let r = b.build().map_err(|e| build_error(py, &e))?;
                $cls::wrap(py, r)
            }
        }
    };
}

/// The exact string of `other` when it is a `str` or a reference of any class (what
/// `==` compares), else `None`. A `str` with a lone surrogate is no reference's text.
fn exact_text(other: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(s) = other.cast::<PyString>() {
        return s.to_cow().ok().map(std::borrow::Cow::into_owned);
    }
    if let Ok(r) = other.cast::<PyIriRef>() {
        return Some(r.get().r.as_str().to_string());
    }
    if let Ok(r) = other.cast::<PyUriRef>() {
        return Some(r.get().r.as_str().to_string());
    }
    if let Ok(r) = other.cast::<PyLeiriRef>() {
        return Some(r.get().r.as_str().to_string());
    }
    if let Ok(r) = other.cast::<PyAbsoluteIri>() {
        return Some(r.get().r.as_str().to_string());
    }
    None
}

reference_class!(PyIriRef, "IriRef", Iri, false, PyIriRef, "iri");
reference_class!(PyUriRef, "UriRef", Uri, false, PyUriRef, "uri");
reference_class!(PyLeiriRef, "LeiriRef", Leiri, false, PyLeiriRef, "leiri");
reference_class!(PyAbsoluteIri, "AbsoluteIri", Iri, true, PyIriRef, "iri");

/// Parses every string of an iterable as a reference of `grammar` (without the GIL
/// while the engine runs): a list of reference objects, `None` for each that is no
/// reference.
#[pyfunction]
#[pyo3(signature = (strings, grammar = "iri"))]
fn parse_many<'py>(
    py: Python<'py>,
    strings: &Bound<'py, PyAny>,
    grammar: &str,
) -> PyResult<Bound<'py, PyList>> {
    fn run<'py, V: Variant, C: pyo3::PyClass + Into<pyo3::PyClassInitializer<C>>>(
        py: Python<'py>,
        slices: &[&str],
        wrap: fn(Reference<'static, V>) -> C,
    ) -> PyResult<Bound<'py, PyList>> {
        let parsed: Vec<Option<Reference<'static, V>>> = py.detach(|| {
            slices
                .iter()
                .map(|s| Reference::<V>::parse(s).ok().map(Reference::into_owned))
                .collect()
        });
        let objects = parsed
            .into_iter()
            .map(|r| match r {
                Some(r) => Ok(Bound::new(py, wrap(r))?.into_any()),
                None => Ok(py.None().into_bound(py)),
            })
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, objects)
    }
    let variant = variant_named(grammar)?;
    with_batch(strings, |slices| match variant {
        VariantName::Iri => run::<Iri, _>(py, slices, |r| PyIriRef { r }),
        VariantName::Uri => run::<Uri, _>(py, slices, |r| PyUriRef { r }),
        VariantName::Leiri => run::<Leiri, _>(py, slices, |r| PyLeiriRef { r }),
        VariantName::Iri2001 => Err(PyValueError::new_err(
            "the 2001 draft's grammar has rules, not reference objects: use is_valid_many",
        )),
    })
}

/// An arbitrary string made an IRI reference (IRI processing draft §4–5): white
/// space trimmed, characters no rule allows percent-encoded, the host by IDNA.
#[pyfunction]
fn prepare(s: &Bound<'_, PyAny>) -> PyResult<PyIriRef> {
    let t = text_of(s)?;
    // Preparing percent-encodes characters as UTF-8, which has no lone surrogate.
    if let Some(&(at, cp)) = t.surrogates.first() {
        return Err(PyValueError::new_err(format!(
            "U+{cp:04X} at char {at} is a lone surrogate, which has no UTF-8 encoding"
        )));
    }
    let r = iri_grammar::prepare::prepare(&t.text).map_err(value_error)?;
    Ok(PyIriRef { r })
}

/// The most nodes `parse_tree` turns into dicts unless told otherwise. A node is a
/// dict of five entries, about 700 bytes of Python objects: 100,000 of them are some
/// 70 MB, a tree far beyond any address (a long IRI has a few hundred nodes), while
/// the tree of a megabyte of `/` (a million nodes) took 750 MB.
const TREE_MAX_NODES: u64 = 100_000;

/// `parse_tree`'s `max_nodes`: an int from 0 (as [`int_in`] reads it), or `None`
/// for no bound.
struct MaxNodes(Option<u64>);

impl<'a, 'py> FromPyObject<'a, 'py> for MaxNodes {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        if obj.is_none() {
            return Ok(MaxNodes(None));
        }
        int_in(&obj, "max_nodes", u64::MAX, " or None").map(|n| MaxNodes(Some(n)))
    }
}

/// The parse tree of `s` by `rule` of `grammar`, as nested dicts: `rule`, `text`,
/// `start` and `end` (character offsets) and `children`. A tree of more than
/// `max_nodes` nodes is refused with `ValueError`, the tree not built past the
/// bound and no dict made (`max_nodes=None` lifts the bound).
#[pyfunction]
#[pyo3(signature = (s, rule = None, grammar = "iri", *, max_nodes = MaxNodes(Some(TREE_MAX_NODES))))]
#[pyo3(text_signature = "(s, rule=None, grammar='iri', *, max_nodes=100000)")]
fn parse_tree<'py>(
    py: Python<'py>,
    s: &Bound<'py, PyAny>,
    rule: Option<&str>,
    grammar: &str,
    max_nodes: MaxNodes,
) -> PyResult<Bound<'py, PyDict>> {
    use iri_grammar::tree::{tree_of, tree_of_at_most, Node, ParseTree, TreeError};
    fn dict<'py>(py: Python<'py>, node: Node<'_>, chars: &[usize]) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("rule", node.rule())?;
        d.set_item("text", node.text())?;
        d.set_item("start", chars[node.start()])?;
        d.set_item("end", chars[node.end()])?;
        let children = node
            .children()
            .map(|c| dict(py, c, chars))
            .collect::<PyResult<Vec<_>>>()?;
        d.set_item("children", children)?;
        Ok(d)
    }
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, rule)?;
    let t = text_of(s)?;
    let text: &str = &t.text;
    // The bound holds while the tree is built: the library holds at most `max`
    // nodes (20 bytes each), whatever the input.
    let tree: Result<ParseTree<'_>, TreeError> = match max_nodes {
        MaxNodes(Some(max)) => {
            let max = usize::try_from(max).unwrap_or(usize::MAX);
            iri_grammar::with_variant!(variant, V => tree_of_at_most::<V>(rule, text, max))
        }
        MaxNodes(None) => iri_grammar::with_variant!(variant, V => tree_of::<V>(rule, text))
            .map_err(TreeError::NoMatch),
    };
    let tree = tree.map_err(|e| match e {
        TreeError::NoMatch(e) => iri_error(py, &e, &t, Some(s), None),
        TreeError::TooManyNodes {
            max_nodes,
            char_offset,
            ..
        } => PyValueError::new_err(format!(
            "the parse tree of this input has more than max_nodes={max_nodes} nodes (the \
             bound was passed at char {char_offset}; a node is a dict of about 700 bytes); \
             pass a larger max_nodes, or max_nodes=None for no bound"
        )),
        other => value_error(other),
    })?;
    // Byte offset -> character offset, for every byte boundary.
    let mut chars = vec![0; text.len() + 1];
    let mut n = 0;
    for (i, _) in text.char_indices() {
        // Node boundaries are character boundaries: the bytes inside a character
        // are never looked up.
        chars[i] = n;
        n += 1;
    }
    chars[text.len()] = n;
    dict(py, tree.root(), &chars)
}

// ---------------------------------------------------------------------------
// Generating strings

/// The most strings one call of `generate` returns. Each string of the built-in
/// grammars is at most a few hundred characters (the generator also stops
/// lengthening a string at `iri_grammar_abnf::generate::MAX_LENGTH`, 65,536, and
/// draws a bounded repetition at most `MAX_EXTRA`, 64, beyond its minimum), so a
/// call holds at most some tens of megabytes; more strings are more calls, each
/// with its own seed.
const GENERATE_MAX: u64 = 100_000;

/// How many strings are drawn for each target of a cover set and for each near
/// miss (`iri generate`'s `ATTEMPTS`).
const ATTEMPTS: usize = 200;

/// The grammar files, read once (`Grammars::builtin` parses the ABNF text).
fn grammars() -> &'static iri_grammar_abnf::Grammars {
    static GRAMMARS: OnceLock<iri_grammar_abnf::Grammars> = OnceLock::new();
    GRAMMARS.get_or_init(iri_grammar_abnf::Grammars::builtin)
}

/// An `int` in `0..=max`: `TypeError` for another type, `ValueError` out of range
/// (a Python int has no bound; a negative or huge one is a mistake, not a wrap).
fn int_in(obj: &Bound<'_, PyAny>, name: &str, max: u64, why: &str) -> PyResult<u64> {
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
enum Draw {
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
fn draw(
    variant: VariantName,
    rule: Rule,
    seed: u64,
    what: Draw,
) -> Result<(Vec<String>, Vec<String>), String> {
    use iri_grammar_abnf::counterexamples::{self, near_miss};
    use iri_grammar_abnf::generate::Generator;
    use iri_grammar_abnf::oracle::Oracle;
    use iri_grammar_coverage::Coverage;
    let grammars = grammars();
    // The grammar's own name of the rule (`LEIRI-reference` in the LEIRI note), the
    // one the generator's rule table resolves.
    let name = rule.name_of(variant);
    let unknown = |e: iri_grammar_abnf::oracle::UnknownRule| e.to_string();
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
fn generate(
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

/// The extension module `iri_grammar._iri_grammar`.
#[pymodule]
fn _iri_grammar(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_register, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_function(wrap_pyfunction!(is_valid_many, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(prepare, m)?)?;
    m.add_function(wrap_pyfunction!(parse_tree, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_class::<PyIriRef>()?;
    m.add_class::<PyUriRef>()?;
    m.add_class::<PyLeiriRef>()?;
    m.add_class::<PyAbsoluteIri>()?;
    Ok(())
}
