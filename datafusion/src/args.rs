//! Reading the arguments of a call: string columns of any of Arrow's three string
//! layouts, and the constant options (grammar, level, idna) that choose what the
//! function does.
//!
//! Policy (the same for every function, see the crate documentation):
//! - a NULL value gives NULL (the functions are strict);
//! - a value that is no IRI reference gives NULL, or, for `iri_error`, the error;
//! - an option that names nothing (`iri_is_valid(s, 'urn')`) or that is not a
//!   constant is an error of the query: it is a mistake in the SQL, not in the data.

use datafusion::arrow::array::{
    Array, ArrayRef, AsArray, LargeStringArray, StringArray, StringViewArray,
};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::{exec_err, Result, ScalarValue};
use datafusion::logical_expr::ColumnarValue;
use iri_grammar::grammar::Rule;
use iri_grammar::normalize::Level;
use iri_grammar::VariantName;

/// One string argument, row by row, whatever its layout. Rows of a constant argument
/// all read the same value.
pub(crate) enum Strs<'a> {
    Utf8(&'a StringArray),
    Large(&'a LargeStringArray),
    View(&'a StringViewArray),
    Scalar(Option<&'a str>),
}

impl<'a> Strs<'a> {
    pub(crate) fn new(name: &str, v: &'a ColumnarValue) -> Result<Self> {
        Ok(match v {
            ColumnarValue::Array(a) => Self::from_array(name, a)?,
            ColumnarValue::Scalar(s) => Strs::Scalar(scalar_str(name, s)?),
        })
    }

    pub(crate) fn from_array(name: &str, a: &'a ArrayRef) -> Result<Self> {
        Ok(match a.data_type() {
            DataType::Utf8 => Strs::Utf8(a.as_string::<i32>()),
            DataType::LargeUtf8 => Strs::Large(a.as_string::<i64>()),
            DataType::Utf8View => Strs::View(a.as_string_view()),
            DataType::Null => Strs::Scalar(None),
            other => return exec_err!("{name}: expected a string argument, got {other}"),
        })
    }

    /// The value of row `i`; `None` for NULL.
    #[inline]
    pub(crate) fn get(&self, i: usize) -> Option<&'a str> {
        match self {
            Strs::Utf8(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::Large(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::View(a) => a.is_valid(i).then(|| a.value(i)),
            Strs::Scalar(s) => *s,
        }
    }
}

fn scalar_str<'a>(name: &str, s: &'a ScalarValue) -> Result<Option<&'a str>> {
    match s {
        ScalarValue::Utf8(v) | ScalarValue::LargeUtf8(v) | ScalarValue::Utf8View(v) => {
            Ok(v.as_deref())
        }
        ScalarValue::Null => Ok(None),
        other => exec_err!(
            "{name}: expected a string argument, got {}",
            other.data_type()
        ),
    }
}

/// An option argument: it must be a constant (the same for every row), so that the
/// function is chosen once per batch and not once per row. `Ok(None)`: the constant is
/// NULL, and so is every result (strictness).
fn constant<'a>(name: &str, what: &str, v: &'a ColumnarValue) -> Result<Option<&'a ScalarValue>> {
    match v {
        ColumnarValue::Scalar(s) if s.is_null() => Ok(None),
        ColumnarValue::Scalar(s) => Ok(Some(s)),
        ColumnarValue::Array(_) => {
            exec_err!("{name}: the {what} must be a constant, not a column")
        }
    }
}

/// What an input is checked against: a grammar and one of its rules. `'iri'` (the
/// default), `'uri'` or `'leiri'` (or another spelling of `VariantName`'s `FromStr`,
/// such as `'rfc3986'`) mean that grammar's reference rule (`IRI-reference`,
/// `URI-reference`, `LEIRI-reference`); `'uri:absolute-URI'` names any rule of the
/// grammar by its name in its document (RFC 3986 Appendix A, RFC 3987 §2.2, LEIRI
/// note §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Grammar {
    pub(crate) variant: VariantName,
    pub(crate) rule: Rule,
}

impl Grammar {
    pub(crate) const DEFAULT: Grammar = Grammar {
        variant: VariantName::Iri,
        rule: Rule::IriReference,
    };

    pub(crate) fn parse(name: &str, text: &str) -> Result<Grammar> {
        let (variant, rule) = match text.split_once(':') {
            Some((v, r)) => (v.trim(), Some(r.trim())),
            None => (text.trim(), None),
        };
        // The library's spellings (`VariantName`'s `FromStr`), less the 2001 draft's
        // grammar, which has no references for the functions to read.
        let variant = match variant.parse::<VariantName>() {
            Ok(v) if v.has_references() => v,
            _ => {
                return exec_err!(
                    "{name}: unknown grammar {text:?}: expected 'iri', 'uri' or 'leiri', \
                     optionally with a rule: 'uri:absolute-URI'"
                )
            }
        };
        let rule = match rule {
            None => Rule::IriReference,
            Some(r) => match Rule::named(variant, r) {
                Some(rule) => rule,
                None => {
                    return exec_err!(
                        "{name}: the {} grammar has no rule named {r:?}",
                        variant.as_str()
                    )
                }
            },
        };
        Ok(Grammar { variant, rule })
    }

    /// Whether this is the reference rule, whose typed parse
    /// ([`iri_grammar::Reference`]) the component functions need.
    pub(crate) fn is_reference(self) -> bool {
        self.rule == Rule::IriReference
    }
}

/// The grammar argument at `index`, or the default when there is none.
/// `Ok(None)`: a NULL grammar.
pub(crate) fn grammar_arg(
    name: &str,
    args: &[ColumnarValue],
    index: usize,
) -> Result<Option<Grammar>> {
    let Some(v) = args.get(index) else {
        return Ok(Some(Grammar::DEFAULT));
    };
    match constant(name, "grammar", v)? {
        None => Ok(None),
        Some(s) => match scalar_str(name, s)? {
            Some(text) => Grammar::parse(name, text).map(Some),
            None => Ok(None),
        },
    }
}

/// The normalization level at `index` (`'simple'`, `'syntax'`, `'scheme'`; RFC 3987
/// §5.3.1–5.3.3), or `default`.
pub(crate) fn level_arg(
    name: &str,
    args: &[ColumnarValue],
    index: usize,
    default: Level,
) -> Result<Option<Level>> {
    let Some(v) = args.get(index) else {
        return Ok(Some(default));
    };
    let Some(s) = constant(name, "level", v)? else {
        return Ok(None);
    };
    let Some(text) = scalar_str(name, s)? else {
        return Ok(None);
    };
    match text.trim().parse::<Level>() {
        Ok(level) => Ok(Some(level)),
        Err(_) => {
            exec_err!("{name}: unknown level {text:?}: expected 'simple', 'syntax' or 'scheme'")
        }
    }
}

/// A boolean option at `index` (`idna`), or `false`.
pub(crate) fn bool_arg(name: &str, args: &[ColumnarValue], index: usize) -> Result<Option<bool>> {
    let Some(v) = args.get(index) else {
        return Ok(Some(false));
    };
    match constant(name, "idna flag", v)? {
        None => Ok(None),
        Some(ScalarValue::Boolean(b)) => Ok(*b),
        Some(other) => exec_err!(
            "{name}: the idna flag must be a boolean, got {}",
            other.data_type()
        ),
    }
}
