//! The exports of both modules of the package beyond the automata: rules by name,
//! components, resolution, conversions, normalization and comparison. A string
//! that does not match is refused with `{"error": ...}`; the core module
//! (`js/iri_grammar.wasm`) says only which input (`{"error": {"input": k}}`: the
//! glue finds where with the automaton, and asks the full module why), the full one
//! (`js/iri_grammar_full.wasm`, feature `full`) writes the whole error
//! (`full::error_json`).

use std::cell::RefCell;
use std::fmt::Write as _;
use std::ops::Range;

use iri_grammar::convert::{ToIri, ToUri};
use iri_grammar::grammar::{describe_char, Rule};
use iri_grammar::normalize::{CharNorm, Comparison, Level, NormalizeOptions};
use iri_grammar::{with_variant, MatchError, Reference, VariantName};

use crate::{variant, OUTPUT};

// ---------------------------------------------------------------------------
// Buffers

thread_local! {
    /// What JavaScript writes: the UTF-8 of the strings of one call.
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// The address of an input buffer of at least `len` bytes (the memory may grow, so
/// JavaScript takes its views again afterwards); 0 when the memory cannot grow that
/// far, which the glue reports as a `RangeError`.
#[no_mangle]
pub extern "C" fn iri_input(len: u32) -> usize {
    INPUT.with_borrow_mut(|buf| {
        let want = len as usize;
        if buf.len() < want && buf.try_reserve_exact(want - buf.len()).is_err() {
            return 0;
        }
        buf.resize(want.max(buf.len()), 0);
        buf.as_mut_ptr() as usize
    })
}

/// Runs `f` on the input bytes `range` as text. The glue writes UTF-8 (TextEncoder,
/// or its own loop over ASCII); anything else is read lossily rather than trusted.
pub(crate) fn with_input<R>(range: Range<usize>, f: impl FnOnce(&str) -> R) -> R {
    INPUT.with_borrow(|buf| {
        let bytes = &buf[range.start.min(buf.len())..range.end.min(buf.len())];
        match std::str::from_utf8(bytes) {
            Ok(s) => f(s),
            Err(_) => f(&String::from_utf8_lossy(bytes)),
        }
    })
}

/// Replaces the output with `text`; returns its length.
pub(crate) fn answer(text: String) -> u32 {
    let len = text.len() as u32;
    OUTPUT.with_borrow_mut(|out| *out = text.into_bytes());
    len
}

// ---------------------------------------------------------------------------
// Grammars and rules by number

/// The number of the rule of grammar `g` whose name is the `len` input bytes (ABNF
/// names are case-insensitive, RFC 5234 §2.1; `_` is taken for `-`, the spelling
/// of identifiers), or -1 when the grammar has no such rule.
#[no_mangle]
pub extern "C" fn iri_rule(g: u32, len: u32) -> i32 {
    let v = variant(g);
    with_input(0..len as usize, |name| {
        Rule::named(v, name)
            .or_else(|| Rule::named(v, &name.replace('_', "-")))
            .and_then(|r| Rule::ALL.iter().position(|&x| x == r))
            .map_or(-1, |i| i as i32)
    })
}

/// The name of rule number `r` in grammar `g` (the reference rule for `u32::MAX`),
/// as text in the output; returns its length (0: no such rule in the grammar).
#[no_mangle]
pub extern "C" fn iri_rule_name(g: u32, r: u32) -> u32 {
    let v = variant(g);
    let rule = match Rule::ALL.get(r as usize) {
        Some(&rule) => rule,
        None => Rule::IriReference,
    };
    answer(rule.name_in(v).unwrap_or_default().to_owned())
}

/// How the messages name code point `c` (`U+0020 SPACE`, `U+0061 'a'`), as text in
/// the output; returns its length.
#[no_mangle]
pub extern "C" fn iri_describe_char(c: u32) -> u32 {
    answer(char::from_u32(c).map(describe_char).unwrap_or_default())
}

/// The rule names of grammar `g`, in the order of its ABNF: a JSON array.
#[no_mangle]
pub extern "C" fn iri_rules(g: u32) -> u32 {
    let mut json = Json::default();
    json.open('[');
    for (name, _) in Rule::of(variant(g)) {
        json.item();
        json.string(name);
    }
    json.close(']');
    answer(json.0)
}

// ---------------------------------------------------------------------------
// References

/// The level of normalization by number: 0 simple (RFC 3987 §5.3.1), 1 syntax
/// (§5.3.2), 2 scheme (§5.3.3).
fn level(l: u32) -> Level {
    match l {
        0 => Level::Simple,
        2 => Level::Scheme,
        _ => Level::Syntax,
    }
}

/// Character normalization by number (§5.3.2.2): 0 none, 1 NFC, 2 NFKC.
fn char_norm(c: u32) -> CharNorm {
    match c {
        1 => CharNorm::Nfc,
        2 => CharNorm::Nfkc,
        _ => CharNorm::None,
    }
}

/// What a reference export writes: `{"value": ...}`, `{"error": {...}}` for a
/// string that does not match, `{"fail": "..."}` for anything else that refuses
/// (a relative base, a host IDNA refuses).
enum Outcome {
    Value(Json),
    Fail(String),
}

fn run(outcome: Result<Outcome, String>) -> u32 {
    let json = match outcome {
        Ok(Outcome::Value(v)) => format!("{{\"value\":{}}}", v.0),
        Ok(Outcome::Fail(message)) => {
            let mut j = Json::default();
            j.string(&message);
            format!("{{\"fail\":{}}}", j.0)
        }
        Err(error) => format!("{{\"error\":{error}}}"),
    };
    answer(json)
}

/// A JSON string value.
fn string_value(s: &str) -> Outcome {
    let mut j = Json::default();
    j.string(s);
    Outcome::Value(j)
}

/// The error object of input number `which` of a call, `text`, which does not
/// match: the whole error in the full module, only the input's number in the core.
fn refused(e: &MatchError, text: &str, which: u32) -> String {
    #[cfg(feature = "full")]
    return crate::full::error_json(e, text, which);
    #[cfg(not(feature = "full"))]
    {
        let _ = (e, text);
        format!("{{\"input\":{which}}}")
    }
}

/// Parses the input bytes `range` as a reference of grammar `V` (the input's number
/// `which` in the call, for the error), or the error as JSON.
macro_rules! parse_input {
    ($V:ty, $range:expr, $which:expr, |$r:ident| $body:expr) => {
        with_input($range, |text| match Reference::<$V>::parse(text) {
            Ok($r) => $body,
            Err(e) => Err(refused(&e, text, $which)),
        })
    };
}

/// The grammar `g` if it has typed references (not the 2001 draft), else a fail.
fn reference_grammar(g: u32) -> Result<VariantName, u32> {
    let v = variant(g);
    if v == VariantName::Iri2001 {
        return Err(run(Ok(Outcome::Fail(
            "the iri-2001 grammar has rules but no references: use 'uri', 'iri' or 'leiri'".into(),
        ))));
    }
    Ok(v)
}

/// The components of the `len` input bytes as a reference of grammar `g` (RFC 3986
/// §3): scheme, authority, userinfo, host, hostKind, port, path, query, fragment,
/// `null` when absent.
#[no_mangle]
pub extern "C" fn iri_parse(g: u32, len: u32) -> u32 {
    let v = match reference_grammar(g) {
        Ok(v) => v,
        Err(n) => return n,
    };
    let outcome = with_variant!(v, V => parse_input!(V, 0..len as usize, 0, |r| {
        let mut j = Json::default();
        j.open('{');
        j.field("scheme", r.scheme());
        j.field("authority", r.authority());
        j.field("userinfo", r.userinfo());
        j.field("host", r.host());
        j.field("hostKind", r.host_kind().map(|k| k.as_str()));
        j.field("port", r.port());
        j.field("path", Some(r.path()));
        j.field("query", r.query());
        j.field("fragment", r.fragment());
        j.close('}');
        Ok(Outcome::Value(j))
    }), Iri2001 => unreachable!("refused above"));
    run(outcome)
}

/// Resolves the reference in input bytes `a..a+b` against the base in `0..a` (RFC
/// 3986 §5.2), both of grammar `g`.
#[no_mangle]
pub extern "C" fn iri_resolve(g: u32, a: u32, b: u32) -> u32 {
    let v = match reference_grammar(g) {
        Ok(v) => v,
        Err(n) => return n,
    };
    let (a, b) = (a as usize, b as usize);
    let outcome = with_variant!(v, V => parse_input!(V, 0..a, 0, |base| {
        parse_input!(V, a..a + b, 1, |r| Ok(match r.resolve(&base) {
            Ok(t) => string_value(t.as_str()),
            Err(e) => Outcome::Fail(e.to_string()),
        }))
    }), Iri2001 => unreachable!("refused above"));
    run(outcome)
}

/// The URI the input maps to (RFC 3987 §3.1; LEIRI note §3), the input a reference
/// of grammar `g`; `idna` converts a DNS host's labels with ToASCII.
#[no_mangle]
pub extern "C" fn iri_to_uri(g: u32, len: u32, idna: u32) -> u32 {
    let v = match reference_grammar(g) {
        Ok(v) => v,
        Err(n) => return n,
    };
    let options = ToUri { idna: idna != 0 };
    let outcome = with_variant!(v, V => parse_input!(V, 0..len as usize, 0, |r| {
        Ok(match r.to_uri_with(options) {
            Ok(t) => string_value(t.as_str()),
            Err(e) => Outcome::Fail(e.to_string()),
        })
    }), Iri2001 => unreachable!("refused above"));
    run(outcome)
}

/// The IRI a URI (or LEIRI) maps back to (RFC 3987 §3.2); `idna` converts `xn--`
/// labels with ToUnicode.
#[no_mangle]
pub extern "C" fn iri_to_iri(g: u32, len: u32, idna: u32) -> u32 {
    let v = match reference_grammar(g) {
        Ok(v) => v,
        Err(n) => return n,
    };
    let options = ToIri { idna: idna != 0 };
    let outcome = with_variant!(v, V => parse_input!(V, 0..len as usize, 0, |r| {
        Ok(match r.to_iri_with(options) {
            Ok(t) => string_value(t.as_str()),
            Err(e) => Outcome::Fail(e.to_string()),
        })
    }), Iri2001 => unreachable!("refused above"));
    run(outcome)
}

/// The normal form of the input at level `l` (see `level`) with character
/// normalization `c` (see `char_norm`): RFC 3987 §5.3.
#[no_mangle]
pub extern "C" fn iri_normalize(g: u32, len: u32, l: u32, c: u32) -> u32 {
    let v = match reference_grammar(g) {
        Ok(v) => v,
        Err(n) => return n,
    };
    let options = NormalizeOptions {
        chars: char_norm(c),
        ignore_fragment: false,
    };
    let outcome = with_variant!(v, V => parse_input!(V, 0..len as usize, 0, |r| {
        Ok(match r.normalize_with(level(l), options) {
            Ok(t) => string_value(t.as_str()),
            Err(e) => Outcome::Fail(e.to_string()),
        })
    }), Iri2001 => unreachable!("refused above"));
    run(outcome)
}

/// Whether the references in input bytes `0..a` and `a..a+b` identify the same
/// resource at level `l` (RFC 3987 §5.3): `true`, `false`, or `null` when it cannot
/// be known (a relative reference, a host IDNA refuses).
#[no_mangle]
pub extern "C" fn iri_compare(g: u32, a: u32, b: u32, l: u32, c: u32) -> u32 {
    let v = match reference_grammar(g) {
        Ok(v) => v,
        Err(n) => return n,
    };
    let (a, b) = (a as usize, b as usize);
    let options = NormalizeOptions {
        chars: char_norm(c),
        ignore_fragment: false,
    };
    let outcome = with_variant!(v, V => parse_input!(V, 0..a, 0, |x| {
        parse_input!(V, a..a + b, 1, |y| {
            let answer = x.compare_with(&y, level(l), options);
            Ok(Outcome::Value(Json(match answer {
                Comparison::Equivalent => "true",
                Comparison::Different => "false",
                Comparison::Unknown(_) => "null",
            }.into())))
        })
    }), Iri2001 => unreachable!("refused above"));
    run(outcome)
}

// ---------------------------------------------------------------------------
// JSON out

/// A JSON text written by hand: a few objects of strings and numbers do not need a
/// serializer (serde_json would add to the module what it saves in code).
#[derive(Default)]
pub(crate) struct Json(pub(crate) String);

impl Json {
    pub(crate) fn open(&mut self, c: char) {
        self.0.push(c);
    }

    pub(crate) fn close(&mut self, c: char) {
        self.0.push(c);
    }

    /// A comma before every item but the first of its array or object.
    pub(crate) fn item(&mut self) {
        if !matches!(self.0.chars().last(), Some('[' | '{') | None) {
            self.0.push(',');
        }
    }

    pub(crate) fn key(&mut self, k: &str) {
        self.item();
        self.string(k);
        self.0.push(':');
    }

    pub(crate) fn field(&mut self, k: &str, v: Option<&str>) {
        self.key(k);
        match v {
            Some(s) => self.string(s),
            None => self.0.push_str("null"),
        }
    }

    #[cfg_attr(not(feature = "full"), allow(dead_code))]
    pub(crate) fn number(&mut self, k: &str, n: usize) {
        self.key(k);
        let _ = write!(self.0, "{n}");
    }

    /// A JSON string (RFC 8259 §7): `"` and `\` escaped, control characters as
    /// `\u00XX`; everything else as it is (the text is UTF-8 already).
    pub(crate) fn string(&mut self, s: &str) {
        self.0.push('"');
        for c in s.chars() {
            match c {
                '"' => self.0.push_str("\\\""),
                '\\' => self.0.push_str("\\\\"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(self.0, "\\u{:04x}", c as u32);
                }
                c => self.0.push(c),
            }
        }
        self.0.push('"');
    }
}
