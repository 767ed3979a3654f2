//! The functions: each one a row loop over whole Arrow arrays, calling the library.
//!
//! Every function here is a plain `fn(name, args, rows) -> ArrayRef`; [`crate::udf`]
//! wraps each in a DataFusion `ScalarUDFImpl` with its signature and documentation.
//! Nothing here depends on a session, a planner or an executor, so the same
//! functions run embedded, in a DataFusion server or on Ballista executors.

use crate::args::{bool_arg, grammar_arg, level_arg, Grammar, Strs};
use crate::error::ErrorBuilder;
use crate::out::ViewWriter;
use datafusion::arrow::array::{
    new_null_array, Array, ArrayRef, BooleanArray, BooleanBuilder, ListBuilder, StringBuilder,
    StructArray,
};
use datafusion::arrow::buffer::{BooleanBuffer, NullBuffer};
use datafusion::arrow::datatypes::{DataType, Field, Fields};
use datafusion::common::{exec_err, Result};
use datafusion::logical_expr::ColumnarValue;
use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::grammar::{check, is_match, Rule, Variant};
use iri_grammar::lint::LintOptions;
use iri_grammar::normalize::{Comparison, Level, NormalizeOptions};
use iri_grammar::prepare::prepare;
use iri_grammar::{Component, Iri, IriRef, LeiriRef, Reference};
use std::sync::Arc;

/// The shape of every function: its SQL name (for messages), the evaluated
/// arguments, and the number of rows of the batch.
pub(crate) type Invoke = fn(&str, &[ColumnarValue], usize) -> Result<ArrayRef>;

/// Runs `$f::<V>(args...)` for the grammar named at run time: the grammar is chosen
/// once per batch, and each row loop is compiled for its grammar.
macro_rules! by_variant {
    ($variant:expr, $f:ident($($arg:expr),*)) => {
        // `Grammar::parse` (args.rs) names only the three grammars of references:
        // the 2001 draft's has no typed references for these functions to use.
        iri_grammar::with_variant!($variant, V => $f::<V>($($arg),*),
            Iri2001 => unreachable!("the grammar argument is uri, iri or leiri"))
    };
}

fn nulls(t: &DataType, rows: usize) -> Result<ArrayRef> {
    Ok(new_null_array(t, rows))
}

// ---------------------------------------------------------------- validation

/// `iri_is_valid(s [, grammar])`: whether `s` matches the grammar's rule (RFC 3987
/// §2.2 `IRI-reference` by default). Allocates nothing per row: the compiled grammar
/// walks the bytes, and the answers are packed eight to a byte as they come.
pub(crate) fn is_valid(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let Some(g) = grammar_arg(name, args, 1)? else {
        return nulls(&DataType::Boolean, rows);
    };
    Ok(Arc::new(by_variant!(g.variant, valid_rows(&s, g, rows))))
}

fn valid_rows<V: Variant>(s: &Strs, g: Grammar, rows: usize) -> BooleanArray {
    // One loop per string layout, so that the layout is not decided again for each
    // row; a NULL input is a NULL answer (the input's null buffer, shared), and its
    // slot is not walked.
    fn each<'a, V: Variant>(
        rule: Rule,
        rows: usize,
        nulls: Option<&NullBuffer>,
        value: impl Fn(usize) -> &'a str,
    ) -> BooleanArray {
        let answers = match nulls {
            Some(n) => BooleanBuffer::collect_bool(rows, |i| {
                n.is_valid(i) && is_match::<V>(rule, value(i))
            }),
            None => BooleanBuffer::collect_bool(rows, |i| is_match::<V>(rule, value(i))),
        };
        BooleanArray::new(answers, nulls.cloned())
    }
    match *s {
        Strs::Utf8(a) => each::<V>(g.rule, rows, a.nulls(), |i| a.value(i)),
        Strs::Large(a) => each::<V>(g.rule, rows, a.nulls(), |i| a.value(i)),
        Strs::View(a) => each::<V>(g.rule, rows, a.nulls(), |i| a.value(i)),
        Strs::Scalar(Some(text)) => BooleanArray::from(vec![is_match::<V>(g.rule, text); rows]),
        Strs::Scalar(None) => BooleanArray::new_null(rows),
    }
}

/// `iri_error(s [, grammar])`: why `s` does not match, as a struct; NULL when it does.
pub(crate) fn error(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let Some(g) = grammar_arg(name, args, 1)? else {
        return nulls(&crate::error::data_type(), rows);
    };
    let mut out = ErrorBuilder::new(rows);
    by_variant!(g.variant, error_rows(&s, g, rows, &mut out));
    Ok(Arc::new(out.finish()))
}

fn error_rows<V: Variant>(s: &Strs, g: Grammar, rows: usize, out: &mut ErrorBuilder) {
    for i in 0..rows {
        // `check` validates without allocating; only a failure is explained.
        match s.get(i).map(|text| check::<V>(g.rule, text)) {
            Some(Err(e)) => out.error(&e),
            Some(Ok(())) | None => out.none(),
        }
    }
}

// ---------------------------------------------------------------- components

/// The grammar argument of a component function: a grammar's reference rule only,
/// since the components are those of a reference (RFC 3986 §3).
fn reference_grammar(name: &str, args: &[ColumnarValue], index: usize) -> Result<Option<Grammar>> {
    match grammar_arg(name, args, index)? {
        Some(g) if !g.is_reference() => {
            exec_err!("{name}: components are those of a reference: give 'iri', 'uri' or 'leiri' without a rule")
        }
        g => Ok(g),
    }
}

/// One component (RFC 3986 §3.1–3.5, RFC 3987 §2.2), as a view into the input: no
/// byte is copied.
pub(crate) fn component(
    name: &str,
    args: &[ColumnarValue],
    rows: usize,
    part: Component,
) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let Some(g) = reference_grammar(name, args, 1)? else {
        return nulls(&DataType::Utf8View, rows);
    };
    let mut out = ViewWriter::new(&s, rows);
    by_variant!(g.variant, component_rows(&s, part, rows, &mut out));
    Ok(Arc::new(out.finish()))
}

fn component_rows<V: Variant>(s: &Strs, part: Component, rows: usize, out: &mut ViewWriter) {
    for i in 0..rows {
        match s.get(i).map(Reference::<V>::parse) {
            Some(Ok(r)) => out.option(r.get(part)),
            _ => out.null(),
        }
    }
}

/// `iri_host_kind(s)`: `reg-name`, `ipv4`, `ipv6` or `ipvfuture` (RFC 3986 §3.2.2);
/// NULL without a host.
pub(crate) fn host_kind(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let Some(g) = reference_grammar(name, args, 1)? else {
        return nulls(&DataType::Utf8View, rows);
    };
    let mut out = ViewWriter::new(&Strs::Scalar(None), rows);
    by_variant!(g.variant, host_kind_rows(&s, rows, &mut out));
    Ok(Arc::new(out.finish()))
}

fn host_kind_rows<V: Variant>(s: &Strs, rows: usize, out: &mut ViewWriter) {
    for i in 0..rows {
        match s.get(i).map(Reference::<V>::parse) {
            // The names are at most 9 bytes: inline in the view, no buffer at all.
            Some(Ok(r)) => match r.host_kind() {
                Some(k) => out.value(k.as_str()),
                None => out.null(),
            },
            _ => out.null(),
        }
    }
}

/// The fields of `iri_parse`'s struct, in the order of RFC 3986 §3.
pub(crate) const PARSE_FIELDS: [(&str, Option<Component>); 9] = [
    ("scheme", Some(Component::Scheme)),
    ("authority", Some(Component::Authority)),
    ("userinfo", Some(Component::Userinfo)),
    ("host", Some(Component::Host)),
    ("host_kind", None),
    ("port", Some(Component::Port)),
    ("path", Some(Component::Path)),
    ("query", Some(Component::Query)),
    ("fragment", Some(Component::Fragment)),
];

pub(crate) fn parse_fields() -> Fields {
    PARSE_FIELDS
        .iter()
        .map(|(n, _)| Field::new(*n, DataType::Utf8View, true))
        .collect()
}

/// `iri_parse(s [, grammar])`: every component at once, one parse per row; NULL for
/// an invalid input. Each field is a view into the input, like the one-component
/// functions.
pub(crate) fn parse(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let Some(g) = reference_grammar(name, args, 1)? else {
        return nulls(&DataType::Struct(parse_fields()), rows);
    };
    let mut outs: Vec<ViewWriter> = PARSE_FIELDS
        .iter()
        .map(|_| ViewWriter::new(&s, rows))
        .collect();
    let mut valid = Vec::with_capacity(rows);
    by_variant!(g.variant, parse_rows(&s, rows, &mut outs, &mut valid));
    let columns: Vec<ArrayRef> = outs
        .into_iter()
        .map(|w| Arc::new(w.finish()) as ArrayRef)
        .collect();
    Ok(Arc::new(StructArray::new(
        parse_fields(),
        columns,
        Some(NullBuffer::from(valid)),
    )))
}

fn parse_rows<V: Variant>(s: &Strs, rows: usize, outs: &mut [ViewWriter], valid: &mut Vec<bool>) {
    for i in 0..rows {
        match s.get(i).map(Reference::<V>::parse) {
            Some(Ok(r)) => {
                for ((_, part), out) in PARSE_FIELDS.iter().zip(outs.iter_mut()) {
                    match part {
                        Some(p) => out.option(r.get(*p)),
                        None => match r.host_kind() {
                            Some(k) => out.value(k.as_str()),
                            None => out.null(),
                        },
                    }
                }
                valid.push(true);
            }
            _ => {
                outs.iter_mut().for_each(ViewWriter::null);
                valid.push(false);
            }
        }
    }
}

// ---------------------------------------------------------------- resolution

/// Parses each distinct text once when the same text comes row after row: a base
/// given as a constant is parsed once per batch, not once per row.
struct Parsed<'a, V: Variant> {
    text: Option<&'a str>,
    parsed: Option<Reference<'a, V>>,
}

impl<'a, V: Variant> Parsed<'a, V> {
    fn new() -> Self {
        Parsed {
            text: None,
            parsed: None,
        }
    }

    fn get(&mut self, text: &'a str) -> Option<&Reference<'a, V>> {
        // Same address and length: the same string (a constant argument).
        if !self.text.is_some_and(|t| std::ptr::eq(t, text)) {
            self.text = Some(text);
            self.parsed = Reference::parse(text).ok();
        }
        self.parsed.as_ref()
    }
}

/// `iri_resolve(base, ref)` (RFC 3986 §5.2, strict) and `iri_relativize(base,
/// target)` (its inverse: the shortest reference that resolves back). NULL where
/// either is invalid, the base has no scheme, or no reference resolves back.
fn two_refs(
    name: &str,
    args: &[ColumnarValue],
    rows: usize,
    op: fn(&IriRef, &IriRef) -> Option<String>,
) -> Result<ArrayRef> {
    let base = Strs::new(name, &args[0])?;
    let r = Strs::new(name, &args[1])?;
    let mut out = ViewWriter::new(&r, rows);
    let mut bases = Parsed::<Iri>::new();
    let mut refs = Parsed::<Iri>::new();
    for i in 0..rows {
        let (Some(b), Some(t)) = (base.get(i), r.get(i)) else {
            out.null();
            continue;
        };
        match (bases.get(b), refs.get(t)) {
            (Some(b), Some(rr)) => match op(b, rr) {
                Some(result) => out.computed(&result, t),
                None => out.null(),
            },
            _ => out.null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

pub(crate) fn resolve(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    two_refs(name, args, rows, |base, r| {
        r.resolve(base).ok().map(String::from)
    })
}

pub(crate) fn relativize(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    two_refs(name, args, rows, |base, target| {
        target.relativize(base).ok().map(String::from)
    })
}

// ---------------------------------------------------------------- conversions

/// A function of one IRI reference (RFC 3987 grammar) to a new string; NULL where the
/// input is invalid or the operation fails.
fn map_iri(
    name: &str,
    args: &[ColumnarValue],
    rows: usize,
    f: impl Fn(&IriRef) -> Option<String>,
) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let mut out = ViewWriter::new(&s, rows);
    for i in 0..rows {
        let Some(text) = s.get(i) else {
            out.null();
            continue;
        };
        match IriRef::parse(text).ok().and_then(|r| f(&r)) {
            Some(result) => out.computed(&result, text),
            None => out.null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

/// `iri_to_uri(s [, idna])`: RFC 3987 §3.1.
pub(crate) fn to_uri_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let Some(idna) = bool_arg(name, args, 1)? else {
        return nulls(&DataType::Utf8View, rows);
    };
    map_iri(name, args, rows, |r| {
        r.to_uri_with(ToUri { idna }).ok().map(String::from)
    })
}

/// `iri_to_iri(s [, idna])`: RFC 3987 §3.2.
pub(crate) fn to_iri_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let Some(idna) = bool_arg(name, args, 1)? else {
        return nulls(&DataType::Utf8View, rows);
    };
    map_iri(name, args, rows, |r| {
        r.to_iri_with(ToIri { idna }).ok().map(String::from)
    })
}

/// `iri_leiri_to_iri(s)`: the LEIRI note §3; the input is read in the LEIRI grammar.
pub(crate) fn leiri_to_iri_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let mut out = ViewWriter::new(&s, rows);
    for i in 0..rows {
        let Some(text) = s.get(i) else {
            out.null();
            continue;
        };
        match LeiriRef::parse(text)
            .ok()
            .and_then(|r| r.leiri_to_iri().ok())
        {
            Some(result) => out.computed(result.as_str(), text),
            None => out.null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

// ---------------------------------------------------------------- normalization

/// `iri_normalize(s [, level])`: RFC 3987 §5.3.2 (`'syntax'`, the default) or §5.3.3
/// (`'scheme'`); `'simple'` is the identity (§5.3.1).
pub(crate) fn normalize_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let Some(level) = level_arg(name, args, 1, Level::Syntax)? else {
        return nulls(&DataType::Utf8View, rows);
    };
    map_iri(name, args, rows, |r| {
        r.normalize_with(level, NormalizeOptions::default())
            .ok()
            .map(String::from)
    })
}

/// `iri_compare(a, b [, level])`: true (equivalent), false (different) or NULL
/// (unknown: a relative reference, a host IDNA rejects; or an invalid input). The
/// comparison draft's three answers are SQL's three truth values.
pub(crate) fn compare_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let a = Strs::new(name, &args[0])?;
    let b = Strs::new(name, &args[1])?;
    let Some(level) = level_arg(name, args, 2, Level::Syntax)? else {
        return nulls(&DataType::Boolean, rows);
    };
    let mut out = BooleanBuilder::with_capacity(rows);
    let mut left = Parsed::<Iri>::new();
    let mut right = Parsed::<Iri>::new();
    for i in 0..rows {
        let (Some(x), Some(y)) = (a.get(i), b.get(i)) else {
            out.append_null();
            continue;
        };
        match (left.get(x), right.get(y)) {
            (Some(x), Some(y)) => match x.compare_with(y, level, NormalizeOptions::default()) {
                Comparison::Equivalent => out.append_value(true),
                Comparison::Different => out.append_value(false),
                Comparison::Unknown(_) => out.append_null(),
            },
            _ => out.append_null(),
        }
    }
    Ok(Arc::new(out.finish()))
}

// ---------------------------------------------------------------- lint, prepare

pub(crate) fn lint_type() -> DataType {
    DataType::List(Arc::new(Field::new_list_field(DataType::Utf8, true)))
}

/// `iri_lint(s [, grammar])`: the codes of the findings (RFC 3986 and 3987 prose rules,
/// RFC 3987 §4 bidi, §6.1 and §7.5), an empty list for a clean IRI, NULL for an
/// invalid one.
pub(crate) fn lint_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let Some(g) = reference_grammar(name, args, 1)? else {
        return nulls(&lint_type(), rows);
    };
    let mut out = ListBuilder::new(StringBuilder::new());
    let options = LintOptions::default();
    by_variant!(g.variant, lint_rows(&s, rows, &options, &mut out));
    Ok(Arc::new(out.finish()))
}

fn lint_rows<V: Variant>(
    s: &Strs,
    rows: usize,
    options: &LintOptions,
    out: &mut ListBuilder<StringBuilder>,
) {
    for i in 0..rows {
        match s.get(i).map(Reference::<V>::parse) {
            Some(Ok(r)) => {
                for f in r.lint_with(options) {
                    out.values().append_value(f.code());
                }
                out.append(true);
            }
            _ => out.append(false),
        }
    }
}

/// `iri_prepare(s)`: an arbitrary string made an IRI reference (the IRI processing
/// draft §4–5): white space stripped, what the grammar does not allow
/// percent-encoded, DNS hosts through IDNA. NULL where none can be made.
pub(crate) fn prepare_fn(name: &str, args: &[ColumnarValue], rows: usize) -> Result<ArrayRef> {
    let s = Strs::new(name, &args[0])?;
    let mut out = ViewWriter::new(&s, rows);
    for i in 0..rows {
        let Some(text) = s.get(i) else {
            out.null();
            continue;
        };
        match prepare(text) {
            Ok(r) => out.computed(r.as_str(), text),
            Err(_) => out.null(),
        }
    }
    Ok(Arc::new(out.finish()))
}
