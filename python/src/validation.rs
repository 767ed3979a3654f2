//! Validation (RFC 3986 Appendix A, RFC 3987 §2.2): `is_valid`, `check`,
//! `is_valid_many`, `rules`, and parse trees (`parse_tree`).

use iri_grammar::grammar::Rule;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::errors::{iri_error, value_error};
use crate::generate::int_in;
use crate::names::{check_dyn, matches, rule_named, variant_named};
use crate::text::{not_a_str, text_of, PyUnicode_AsUTF8AndSize};

/// Whether all of `s` matches `rule` of `grammar` (RFC 3986 App. A, RFC 3987 §2.2).
#[pyfunction]
#[pyo3(signature = (s, rule = None, grammar = "iri"))]
pub(crate) fn is_valid(s: &Bound<'_, PyAny>, rule: Option<&str>, grammar: &str) -> PyResult<bool> {
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, rule)?;
    let t = text_of(s)?;
    Ok(matches(variant, rule, &t.text))
}

/// Returns `None` when `s` matches `rule` of `grammar`; raises `IriError` where and
/// why it does not.
#[pyfunction]
#[pyo3(signature = (s, rule = None, grammar = "iri"))]
pub(crate) fn check(
    py: Python<'_>,
    s: &Bound<'_, PyAny>,
    rule: Option<&str>,
    grammar: &str,
) -> PyResult<()> {
    let variant = variant_named(grammar)?;
    let rule = rule_named(variant, rule)?;
    let t = text_of(s)?;
    check_dyn(variant, rule, &t.text).map_err(|e| iri_error(py, e, &t, Some(s), None))
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
        // SAFETY: `data` is not NULL, so CPython wrote the UTF-8's length to `size`
        // and `data` points at that many initialized bytes, cached in the string and
        // unchanged while it lives, which the tuple borrowed for 'a keeps alive.
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
pub(crate) fn with_batch<R>(
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
pub(crate) fn is_valid_many(
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
pub(crate) fn rules(grammar: &str) -> PyResult<Vec<&'static str>> {
    let variant = variant_named(grammar)?;
    Ok(Rule::of(variant).map(|(name, _)| name).collect())
}

/// The most nodes `parse_tree` turns into dicts unless told otherwise. A node is a
/// dict of five entries, about 700 bytes of Python objects: 100,000 of them are some
/// 70 MB, a tree far beyond any address (a long IRI has a few hundred nodes), while
/// the tree of a megabyte of `/` (a million nodes) took 750 MB.
pub(crate) const TREE_MAX_NODES: u64 = 100_000;

/// `parse_tree`'s `max_nodes`: an int from 0 (as [`int_in`] reads it), or `None`
/// for no bound.
pub(crate) struct MaxNodes(Option<u64>);

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
pub(crate) fn parse_tree<'py>(
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
        TreeError::NoMatch(e) => iri_error(py, e, &t, Some(s), None),
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
