//! The functions as DataFusion scalar UDFs: name, signature, return type,
//! documentation (shown by `SHOW FUNCTIONS` and `information_schema`), and the row
//! loop of `crate::functions`.

use crate::functions::{self as f, Invoke};
use datafusion::arrow::datatypes::DataType;
use datafusion::common::types::{logical_boolean, logical_string};
use datafusion::common::Result;
use datafusion::logical_expr::{
    Coercion, ColumnarValue, DocSection, Documentation, ScalarFunctionArgs, ScalarUDF,
    ScalarUDFImpl, Signature, TypeSignature, TypeSignatureClass, Volatility,
};
use iri_grammar::Component;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

const SECTION: DocSection = DocSection {
    include: true,
    label: "IRI functions",
    description: Some(
        "IRIs (RFC 3987), URIs (RFC 3986) and LEIRIs (W3C note) from the iri-grammar crate. \
         NULL in, NULL out; an input that is no IRI reference gives NULL (iri_error says why).",
    ),
};

/// One IRI function. Equality and hashing are by name: two instances of the same
/// function are the same function (DataFusion compares UDFs when it deduplicates
/// expressions).
#[derive(Debug)]
pub struct IriFunction {
    name: &'static str,
    signature: Signature,
    returns: DataType,
    invoke: Invoke,
    doc: Documentation,
}

impl PartialEq for IriFunction {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}
impl Eq for IriFunction {}
impl Hash for IriFunction {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.name.hash(state)
    }
}

impl ScalarUDFImpl for IriFunction {
    fn name(&self) -> &str {
        self.name
    }

    fn signature(&self) -> &Signature {
        &self.signature
    }

    fn return_type(&self, _arg_types: &[DataType]) -> Result<DataType> {
        Ok(self.returns.clone())
    }

    /// NULL in any argument gives NULL (the functions are strict), which lets the
    /// optimizer treat `WHERE iri_host(s) = 'x'` as rejecting NULL `s`.
    fn is_strict(&self) -> bool {
        true
    }

    fn invoke_with_args(&self, args: ScalarFunctionArgs) -> Result<ColumnarValue> {
        let array = (self.invoke)(self.name, &args.args, args.number_rows)?;
        Ok(ColumnarValue::Array(array))
    }

    fn documentation(&self) -> Option<&Documentation> {
        Some(&self.doc)
    }
}

/// Argument shapes.
enum Args {
    /// `(s)`
    One,
    /// `(s [, grammar])` or `(s [, level])`: a second, optional string.
    OneAndString,
    /// `(s [, idna])`: a second, optional boolean.
    OneAndBool,
    /// `(a, b)`
    Two,
    /// `(a, b [, level])`
    TwoAndString,
}

fn string() -> Coercion {
    Coercion::new_exact(TypeSignatureClass::Native(logical_string()))
}

fn signature(args: Args) -> Signature {
    use TypeSignature::Coercible;
    // Coercible keeps the string layout (Utf8, LargeUtf8, Utf8View) as it is: each is
    // read in place, none is cast to another first.
    let one = Coercible(vec![string()]);
    let two = Coercible(vec![string(), string()]);
    let three = Coercible(vec![string(), string(), string()]);
    let variants = match args {
        Args::One => vec![one],
        Args::OneAndString => vec![one, two],
        Args::OneAndBool => vec![
            one,
            Coercible(vec![
                string(),
                Coercion::new_exact(TypeSignatureClass::Native(logical_boolean())),
            ]),
        ],
        Args::Two => vec![two],
        Args::TwoAndString => vec![two, three],
    };
    Signature::one_of(variants, Volatility::Immutable)
}

/// One function, all that is said of it: the UDF, its documentation, and its row of
/// the function tables of the crate's documentation and `docs/sql.md`.
struct Spec {
    name: &'static str,
    args: Args,
    returns: DataType,
    invoke: Invoke,
    description: &'static str,
    syntax: &'static str,
    /// A SQL statement and, after `--`, what it gives: strings quoted, values of a
    /// row separated by commas (the documentation test compares them).
    example: &'static str,
    arguments: &'static [(&'static str, &'static str)],
    /// What the tables say of the result after its type (`returns`).
    result: &'static str,
    /// The sections the function implements.
    document: &'static str,
}

const S: (&str, &str) = (
    "s",
    "The string to read as an IRI reference (Utf8, LargeUtf8 or Utf8View).",
);
const GRAMMAR: (&str, &str) = (
    "grammar",
    "Constant: 'iri' (RFC 3987, the default), 'uri' (RFC 3986) or 'leiri' (LEIRI note), \
     optionally with a rule of that grammar by its ABNF name: 'uri:absolute-URI', 'iri:IRI', 'iri:ihost'.",
);
const REF_GRAMMAR: (&str, &str) = (
    "grammar",
    "Constant: 'iri' (RFC 3987, the default), 'uri' (RFC 3986) or 'leiri' (LEIRI note).",
);
const LEVEL: (&str, &str) = (
    "level",
    "Constant: 'simple' (RFC 3987 §5.3.1), 'syntax' (§5.3.2, the default) or 'scheme' (§5.3.3).",
);
const IDNA: (&str, &str) = (
    "idna",
    "Constant boolean, default false: also convert DNS host names with IDNA (UTS 46).",
);

fn component(
    name: &'static str,
    invoke: Invoke,
    description: &'static str,
    example: &'static str,
    document: &'static str,
) -> Spec {
    Spec {
        name,
        args: Args::OneAndString,
        returns: DataType::Utf8View,
        invoke,
        description,
        syntax: "",
        example,
        arguments: &[S, REF_GRAMMAR],
        result: " (absent: NULL, empty: `''`)",
        document,
    }
}

fn specs() -> Vec<Spec> {
    vec![
        Spec {
            name: "iri_is_valid",
            args: Args::OneAndString,
            returns: DataType::Boolean,
            invoke: f::is_valid,
            description: "Whether s matches the grammar: IRI-reference of RFC 3987 §2.2 by default. \
                          NULL for NULL.",
            syntax: "iri_is_valid(s [, grammar])",
            example: "SELECT iri_is_valid('http://résumé.example.org/'), \
                      iri_is_valid('http://résumé.example.org/', 'uri'), \
                      iri_is_valid('a b', 'leiri'), iri_is_valid('/x', 'iri:IRI');\n\
                      -- true, false, true, false",
            arguments: &[S, GRAMMAR],
            result: "",
            document: "RFC 3987 §2.2, RFC 3986 App. A, LEIRI §2",
        },
        Spec {
            name: "iri_error",
            args: Args::OneAndString,
            returns: crate::error::data_type(),
            invoke: f::error,
            description: "Why s does not match the grammar, as a struct {message, rule, component, \
                          byte_offset, char_offset, found, expected, within}; NULL when it matches \
                          (or is NULL).",
            syntax: "iri_error(s [, grammar])",
            example: "SELECT iri_error('http://example.org/a b')['rule'];  -- 'isegment'",
            arguments: &[S, GRAMMAR],
            result: ", NULL if valid",
            document: "RFC 3987 §2.2, RFC 3986 App. A, LEIRI §2",
        },
        Spec {
            name: "iri_parse",
            args: Args::OneAndString,
            returns: DataType::Struct(f::parse_fields()),
            invoke: f::parse,
            description: "All components at once (RFC 3986 §3, RFC 3987 §2.2), as a struct {scheme, \
                          authority, userinfo, host, host_kind, port, path, query, fragment}; \
                          absent components are NULL, an empty one is ''. NULL for an invalid s.",
            syntax: "iri_parse(s [, grammar])",
            example: "SELECT iri_parse('http://a:8080/p?q#f')['port'];  -- '8080'",
            arguments: &[S, REF_GRAMMAR],
            result: "",
            document: "RFC 3986 §3",
        },
        component(
            "iri_scheme",
            |n, a, rows| f::component(n, a, rows, Component::Scheme),
            "The scheme (RFC 3986 §3.1), as written (not lowercased); NULL for a relative \
             reference or an invalid s.",
            "SELECT iri_scheme('HTTP://a/');  -- 'HTTP'",
            "RFC 3986 §3.1",
        ),
        component(
            "iri_authority",
            |n, a, rows| f::component(n, a, rows, Component::Authority),
            "The authority, userinfo@host:port (RFC 3986 §3.2); NULL without one.",
            "SELECT iri_authority('http://u@a:1/p');  -- 'u@a:1'",
            "RFC 3986 §3.2",
        ),
        component(
            "iri_userinfo",
            |n, a, rows| f::component(n, a, rows, Component::Userinfo),
            "The userinfo (RFC 3986 §3.2.1); NULL without one.",
            "SELECT iri_userinfo('ftp://anon@a/');  -- 'anon'",
            "RFC 3986 §3.2.1",
        ),
        component(
            "iri_host",
            |n, a, rows| f::component(n, a, rows, Component::Host),
            "The host as written (RFC 3986 §3.2.2, RFC 3987 ihost): brackets kept around an \
             IP literal, no case folding, no IDNA; NULL without an authority.",
            "SELECT iri_host('http://résumé.example.org:8080/');  -- 'résumé.example.org'",
            "RFC 3986 §3.2.2",
        ),
        component(
            "iri_port",
            |n, a, rows| f::component(n, a, rows, Component::Port),
            "The port as written (RFC 3986 §3.2.3: any digits, possibly none, so a string); \
             NULL without one.",
            "SELECT iri_port('http://a:8080/');  -- '8080'",
            "RFC 3986 §3.2.3",
        ),
        component(
            "iri_path",
            |n, a, rows| f::component(n, a, rows, Component::Path),
            "The path (RFC 3986 §3.3); never NULL for a valid s (it may be '').",
            "SELECT iri_path('http://a/b/c?q');  -- '/b/c'",
            "RFC 3986 §3.3",
        ),
        component(
            "iri_query",
            |n, a, rows| f::component(n, a, rows, Component::Query),
            "The query without '?' (RFC 3986 §3.4); '' for a bare '?', NULL without one.",
            "SELECT iri_query('http://a/?x=1');  -- 'x=1'",
            "RFC 3986 §3.4",
        ),
        component(
            "iri_fragment",
            |n, a, rows| f::component(n, a, rows, Component::Fragment),
            "The fragment without '#' (RFC 3986 §3.5); NULL without one.",
            "SELECT iri_fragment('http://a/#sec');  -- 'sec'",
            "RFC 3986 §3.5",
        ),
        Spec {
            name: "iri_host_kind",
            args: Args::OneAndString,
            returns: DataType::Utf8View,
            invoke: f::host_kind,
            description: "What the host is (RFC 3986 §3.2.2): 'reg-name', 'ipv4', 'ipv6' or 'ipvfuture'; \
                          NULL without a host.",
            syntax: "iri_host_kind(s [, grammar])",
            example: "SELECT iri_host_kind('http://[::1]/');  -- 'ipv6'",
            arguments: &[S, REF_GRAMMAR],
            result: ": `reg-name`, `ipv4`, `ipv6` or `ipvfuture`",
            document: "RFC 3986 §3.2.2",
        },
        Spec {
            name: "iri_resolve",
            args: Args::Two,
            returns: DataType::Utf8View,
            invoke: f::resolve,
            description: "The target of reference r against base (RFC 3986 §5.2, strict). NULL when \
                          either is invalid or the base has no scheme (§5.1).",
            syntax: "iri_resolve(base, r)",
            example: "SELECT iri_resolve('http://a/b/c/d;p?q', '../g');  -- 'http://a/b/g'",
            arguments: &[
                ("base", "An absolute IRI (a constant is parsed once per batch)."),
                ("r", "The reference to resolve."),
            ],
            result: "",
            document: "RFC 3986 §5.2",
        },
        Spec {
            name: "iri_relativize",
            args: Args::Two,
            returns: DataType::Utf8View,
            invoke: f::relativize,
            description: "The shortest reference that resolves (RFC 3986 §5.2) to target against base. \
                          NULL when either is invalid or relative, or none resolves back (dot segments).",
            syntax: "iri_relativize(base, target)",
            example: "SELECT iri_relativize('http://a/b/c/d;p?q', 'http://a/b/g');  -- '../g'",
            arguments: &[
                ("base", "An absolute IRI."),
                ("target", "An absolute IRI."),
            ],
            result: "",
            document: "RFC 3986 §5.2",
        },
        Spec {
            name: "iri_to_uri",
            args: Args::OneAndBool,
            returns: DataType::Utf8View,
            invoke: f::to_uri_fn,
            description: "The URI an IRI maps to (RFC 3987 §3.1): non-ASCII characters percent-encoded \
                          as UTF-8; with idna, DNS hosts as punycode. NULL where IDNA rejects the host.",
            syntax: "iri_to_uri(s [, idna])",
            example: "SELECT iri_to_uri('http://résumé.example.org/rosé', true);\n\
                      -- 'http://xn--rsum-bpad.example.org/ros%C3%A9'",
            arguments: &[S, IDNA],
            result: "",
            document: "RFC 3987 §3.1",
        },
        Spec {
            name: "iri_to_iri",
            args: Args::OneAndBool,
            returns: DataType::Utf8View,
            invoke: f::to_iri_fn,
            description: "The IRI a URI maps to (RFC 3987 §3.2): percent-encoded UTF-8 decoded where an \
                          IRI allows the character; with idna, xn-- labels of DNS hosts decoded.",
            syntax: "iri_to_iri(s [, idna])",
            example: "SELECT iri_to_iri('http://www.example.org/D%C3%BCrst');  -- 'http://www.example.org/Dürst'",
            arguments: &[S, IDNA],
            result: "",
            document: "RFC 3987 §3.2",
        },
        Spec {
            name: "iri_leiri_to_iri",
            args: Args::One,
            returns: DataType::Utf8View,
            invoke: f::leiri_to_iri_fn,
            description: "The IRI a LEIRI maps to (LEIRI note §3): what an IRI does not allow, percent-encoded. \
                          s is read in the LEIRI grammar.",
            syntax: "iri_leiri_to_iri(s)",
            example: "SELECT iri_leiri_to_iri('http://a/b c');  -- 'http://a/b%20c'",
            arguments: &[S],
            result: "",
            document: "LEIRI note §3",
        },
        Spec {
            name: "iri_normalize",
            args: Args::OneAndString,
            returns: DataType::Utf8View,
            invoke: f::normalize_fn,
            description: "The normal form of s (RFC 3987 §5.3): at 'syntax' case, percent-encodings and dot \
                          segments; at 'scheme' also default ports, empty paths and IDNA hosts. NULL where \
                          the host has no IDNA form (at 'scheme').",
            syntax: "iri_normalize(s [, level])",
            example: "SELECT iri_normalize('HTTP://www.Example.com:80', 'scheme');  -- 'http://www.example.com/'",
            arguments: &[S, LEVEL],
            result: "",
            document: "RFC 3987 §5.3",
        },
        Spec {
            name: "iri_compare",
            args: Args::TwoAndString,
            returns: DataType::Boolean,
            invoke: f::compare_fn,
            description: "Whether a and b are equivalent at the level (RFC 3987 §5.3): true, false, or NULL \
                          when it cannot be known (a relative reference, a host IDNA rejects, an invalid input).",
            syntax: "iri_compare(a, b [, level])",
            example: "SELECT iri_compare('http://example.com', 'http://example.com:80/', 'scheme');  -- true",
            arguments: &[("a", "An IRI."), ("b", "An IRI."), LEVEL],
            result: " (NULL: unknown)",
            document: "RFC 3987 §5.3, comparison draft §2",
        },
        Spec {
            name: "iri_lint",
            args: Args::OneAndString,
            returns: f::lint_type(),
            invoke: f::lint_fn,
            description: "The codes of what s does that the documents' prose advises against (RFC 3986, RFC 3987 \
                          §4 bidi, §6.1, §7.5; `iri lint --list` has the catalogue): an empty list when clean, \
                          NULL for an invalid s.",
            syntax: "iri_lint(s [, grammar])",
            example: "SELECT iri_lint('http://user:pw@example.org/a/../b');\n\
                      -- [password-in-userinfo, non-initial-dot-segment]",
            arguments: &[S, REF_GRAMMAR],
            result: " (codes)",
            document: "RFC 3987 §4, §6.1, §7.5",
        },
        Spec {
            name: "iri_prepare",
            args: Args::One,
            returns: DataType::Utf8View,
            invoke: f::prepare_fn,
            description: "An arbitrary string made an IRI reference (IRI processing draft §4–5): ASCII white \
                          space stripped, what the grammar does not allow percent-encoded, DNS hosts through \
                          IDNA. NULL where no IRI can be made.",
            syntax: "iri_prepare(s)",
            example: "SELECT iri_prepare(' http://résumé.example.org/my file ');\n\
                      -- 'http://xn--rsum-bpad.example.org/my%20file'",
            arguments: &[S],
            result: "",
            document: "IRI processing draft §4–5",
        },
    ]
}

/// How a call is written: `iri_host(s [, grammar])`.
fn syntax(s: &Spec) -> String {
    if s.syntax.is_empty() {
        format!("{}(s [, grammar])", s.name)
    } else {
        s.syntax.to_string()
    }
}

/// A result type as the tables name it.
fn returns(t: &DataType) -> String {
    match t {
        DataType::Boolean => "boolean".to_string(),
        DataType::Struct(fields) => {
            let names: Vec<&str> = fields.iter().map(|f| f.name().as_str()).collect();
            format!("struct {{{}}}", names.join(", "))
        }
        DataType::List(_) => "list of strings".to_string(),
        _ => "string".to_string(),
    }
}

/// The functions as a Markdown table (call, result, the documents' sections), one
/// row a function: the table of the crate's documentation and of `docs/sql.md`,
/// which a test keeps equal to it.
pub fn markdown_table() -> String {
    let mut out = String::from("| function | returns | document |\n|---|---|---|\n");
    for s in specs() {
        out.push_str(&format!(
            "| `{}` | {}{} | {} |\n",
            syntax(&s),
            returns(&s.returns),
            s.result,
            s.document
        ));
    }
    out
}

/// Every IRI function, as DataFusion UDFs.
pub fn udfs() -> Vec<Arc<ScalarUDF>> {
    specs()
        .into_iter()
        .map(|s| {
            let mut doc = Documentation::builder(SECTION, s.description, syntax(&s))
                .with_sql_example(format!("```sql\n{}\n```", s.example));
            for (arg, text) in s.arguments {
                doc = doc.with_argument(*arg, *text);
            }
            Arc::new(ScalarUDF::new_from_impl(IriFunction {
                name: s.name,
                signature: signature(s.args),
                returns: s.returns,
                invoke: s.invoke,
                doc: doc.build(),
            }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The first and last line around the table in each document that shows it.
    const BEGIN: &str = "<!-- The function table, generated from datafusion/src/udf.rs; \
                         IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar-datafusion --lib \
                         rewrites it. -->";
    const END: &str = "<!-- End of the function table. -->";

    /// The crate's documentation and `docs/sql.md` show [`super::markdown_table`] as it is;
    /// `IRI_GRAMMAR_REGENERATE=1` rewrites them where they do not.
    #[test]
    fn function_tables_are_fresh() {
        let mut stale = Vec::new();
        for (file, prefix) in [("src/lib.rs", "//! "), ("../docs/sql.md", "")] {
            let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
            let text = std::fs::read_to_string(&path).unwrap();
            let fresh = with_table(&text, prefix).unwrap_or_else(|| {
                panic!("{file}: no lines {BEGIN:?} and {END:?} around the function table")
            });
            if fresh == text {
                continue;
            }
            if std::env::var_os("IRI_GRAMMAR_REGENERATE").is_some() {
                std::fs::write(&path, fresh).unwrap();
            } else {
                stale.push(file);
            }
        }
        assert!(
            stale.is_empty(),
            "the function table of {stale:?} is not that of udf.rs's specs(). Regenerate it \
             with:\n\n    IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar-datafusion --lib\n"
        );
    }

    /// `text` with the lines between [`BEGIN`] and [`END`] (each after `prefix`)
    /// replaced by the table; `None` without them.
    fn with_table(text: &str, prefix: &str) -> Option<String> {
        let begin = format!("{prefix}{BEGIN}\n");
        let end = format!("{prefix}{END}\n");
        let start = text.find(&begin)? + begin.len();
        let stop = start + text[start..].find(&end)?;
        let table: String = super::markdown_table()
            .lines()
            .map(|l| format!("{prefix}{l}\n"))
            .collect();
        Some(format!("{}{table}{}", &text[..start], &text[stop..]))
    }
}
