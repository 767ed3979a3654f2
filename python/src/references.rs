//! The reference classes (`IriRef`, `UriRef`, `LeiriRef`, `AbsoluteIri`), one
//! macro over `Reference<V>`, and `parse_many` and `prepare`, which make them.

use std::borrow::Cow;

use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::grammar::{Rule, Variant, VariantName};
use iri_grammar::normalize::{Comparison, NormalizeOptions};
use iri_grammar::{Iri, Leiri, Reference, Uri};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyType};

use crate::errors::{build_error, iri_error, value_error};
use crate::names::{char_norm, check_dyn, level_named, variant_named};
use crate::text::{not_a_str, text_of, Text};
use crate::validation::with_batch;

/// Parses `s` as a reference of grammar `V`; `IriError` if it is none.
pub(crate) fn parse_ref<V: Variant>(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
) -> PyResult<Reference<'static, V>> {
    let t = text_of(s)?;
    Reference::<V>::parse(&t.text)
        .map(Reference::into_owned)
        .map_err(|e| iri_error(py, e, &t, Some(s), None))
}

/// A reference of grammar `V` from a `str` or any reference object (by its text).
pub(crate) fn as_ref_of<V: Variant>(
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
                    return Err(iri_error(py, e, &t, None, None));
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
pub(crate) fn parse_many<'py>(
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
pub(crate) fn prepare(s: &Bound<'_, PyAny>) -> PyResult<PyIriRef> {
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
