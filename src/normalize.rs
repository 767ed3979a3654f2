//! The comparison ladder: normalization and equivalence of IRIs (RFC 3987 §5.3, the
//! IRI comparison draft §2-4).
//!
//! Each rung joins more IRIs than the one below and costs more:
//! - [`Level::Simple`]: code point equality (§5.3.1). Never maps to URIs first.
//! - [`Level::Syntax`] (§5.3.2): scheme and ASCII host in lowercase; percent-encodings
//!   aligned: every character gets the one form RFC 3987 §3.2 gives it (decoded where
//!   §3.2 decodes it in that component, `%HH` in uppercase elsewhere; computed as
//!   `to_iri(to_uri(x))`, which is the draft's "map both to URIs"); dot segments removed
//!   (RFC 3986 §5.2.4) from the path of an IRI or of a reference with an absolute path.
//!   No character normalization unless asked for: IRIs already in Unicode MUST NOT be
//!   normalized (§5.3.2.2).
//! - [`Level::Scheme`] (§5.3.3): syntax, plus the rules of the schemes in [`SCHEMES`]:
//!   default port removed (leading zeros ignored: a port is decimal), an empty path with an
//!   authority becomes `/`, and for DNS schemes the host compared through IDNA: its
//!   normal form is ToUnicode(ToASCII(host)) (UTS 46), kept as punycode only where a
//!   character of the Unicode form would stay encoded. For every scheme, an empty port
//!   (`:` alone) is removed (RFC 3986 §3.2.3). An empty query or fragment is
//!   never removed, and a missing component never equals an empty one.
//! - Protocol-based normalization (§5.3.4) needs the network; it is not a level here
//!   but a hook, [`ProtocolEquivalence`], that [`compare_with_protocol`] consults.
//!
//! [`CharNorm::Nfc`] and [`CharNorm::Nfkc`] are for text that came from a non-Unicode
//! encoding or from paper (§5.3.2.2). They are applied to each run of characters
//! between delimiters, and a delimiter that NFKC makes (U+FF0F FULLWIDTH SOLIDUS → `/`)
//! is percent-encoded, so the structure of the reference never changes.

use crate::grammar::{Uri, Variant};
use crate::map::{rebuild, to_iri, to_uri, Component, MapError, ToIri, ToUri};
use crate::reference::Reference;
use crate::resolve::remove_dot_segments;
pub use crate::schemes::{scheme_rules, SchemeRules, SCHEMES};
use std::fmt;
use std::fmt::Write as _;
use unicode_normalization::UnicodeNormalization;

/// A rung of the comparison ladder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Code point by code point (RFC 3987 §5.3.1).
    Simple,
    /// Syntax-based normalization (§5.3.2).
    Syntax,
    /// Scheme-based normalization (§5.3.3).
    Scheme,
}

/// Character normalization (RFC 3987 §5.3.2.2), off by default.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum CharNorm {
    /// None: the IRI's characters are compared as they are.
    #[default]
    None,
    /// Unicode Normalization Form C.
    Nfc,
    /// Unicode Normalization Form KC.
    Nfkc,
}

/// Options of [`normalize`] and [`compare`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Character normalization.
    pub chars: CharNorm,
    /// Compare without fragments (for retrieval decisions, comparison draft §2).
    pub ignore_fragment: bool,
}

/// Why a reference cannot be normalized at a level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NormalizeError {
    /// A conversion step failed (a defect, reported instead of a panic).
    Map(MapError),
    /// ToASCII (UTS 46) rejects the host of a DNS scheme, so its scheme-level form is
    /// not known.
    Idna {
        /// The host.
        host: String,
        /// Why.
        reason: String,
    },
}

impl fmt::Display for NormalizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NormalizeError::Map(e) => e.fmt(f),
            NormalizeError::Idna { host, reason } => write!(
                f,
                "the host {host:?} has no ToASCII form (UTS 46: {reason}), so its scheme-based \
                 normal form cannot be determined"
            ),
        }
    }
}

impl std::error::Error for NormalizeError {}

impl From<MapError> for NormalizeError {
    fn from(e: MapError) -> Self {
        NormalizeError::Map(e)
    }
}

/// Whether a character is a delimiter that character normalization must not create.
fn is_delimiter(c: char) -> bool {
    ":/?#[]@!$&'()*+,;=%".contains(c)
}

/// NFC or NFKC of each run between delimiters; delimiters that normalization made are
/// percent-encoded.
fn normalize_chars(s: &str, form: CharNorm, out: &mut String) {
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        let normalized: String = match form {
            CharNorm::Nfc => run.nfc().collect(),
            CharNorm::Nfkc => run.nfkc().collect(),
            CharNorm::None => run.clone(),
        };
        for c in normalized.chars() {
            if is_delimiter(c) {
                let _ = write!(out, "%{:02X}", c as u32);
            } else {
                out.push(c);
            }
        }
        run.clear();
    };
    for c in s.chars() {
        if is_delimiter(c) {
            flush(&mut run, out);
            out.push(c);
        } else {
            run.push(c);
        }
    }
    flush(&mut run, out);
}

/// Appends `s` with the hex digits of every percent-encoding in uppercase and, if
/// `lowercase`, every other ASCII letter in lowercase.
fn push_cased(s: &str, lowercase: bool, out: &mut String) {
    let mut hex_left = 0;
    for c in s.chars() {
        if hex_left > 0 {
            out.push(c.to_ascii_uppercase());
            hex_left -= 1;
        } else {
            if c == '%' {
                hex_left = 2;
            }
            out.push(if lowercase { c.to_ascii_lowercase() } else { c });
        }
    }
}

/// The path with dot segments removed, keeping a path that would begin with "//" from
/// reading as an authority (as resolution does).
fn without_dots(path: &str, has_authority: bool) -> String {
    let p = remove_dot_segments(path);
    if !has_authority && p.starts_with("//") {
        format!("/.{p}")
    } else {
        p
    }
}

/// The normal form of `r` at `level`: an IRI (characters, not percent-encodings,
/// wherever RFC 3987 §3.2 allows), valid in `r`'s grammar (for a URI, the URI that
/// IRI maps to), and idempotent.
///
/// ```
/// use iri_grammar::{normalize::{normalize, Level, Options}, IriRef};
/// let r = IriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9").unwrap();
/// let n = normalize(&r, Level::Syntax, Options::default()).unwrap();
/// assert_eq!(n, "example://a/b/c/%7Bfoo%7D/rosé");
/// let r = IriRef::parse("HTTP://www.Example.com:80").unwrap();
/// assert_eq!(normalize(&r, Level::Scheme, Options::default()).unwrap(), "http://www.example.com/");
/// ```
pub fn normalize<V: Variant>(
    r: &Reference<'_, V>,
    level: Level,
    options: Options,
) -> Result<Reference<'static, V>, NormalizeError> {
    if level == Level::Simple {
        let text = r.as_str().to_string();
        return Reference::<V>::parse_owned(text)
            .map_err(|e| NormalizeError::Map(MapError::Output(e)));
    }
    // Percent-encodings aligned: each character in the one form §3.2 gives it.
    let aligned = if crate::map::aligned_already(r.as_str()) {
        // Its characters are all IRI characters: the same parse serves as an IRI.
        Reference::<crate::grammar::Iri>::from_parts(r.as_str().to_string(), *r.components())
    } else {
        to_iri(&to_uri(r, ToUri::default())?, ToIri::default())?
    };
    let rules = r
        .scheme()
        .and_then(scheme_rules)
        .filter(|_| level == Level::Scheme);
    let has_authority = aligned.authority().is_some();
    let dots = aligned.scheme().is_some() || aligned.path().starts_with('/');
    let mut idna_error = None;
    let text = rebuild(&aligned, |at, s, out| {
        // Case: scheme lowercase, ASCII letters of the host lowercase (RFC 3986
        // §6.2.2.1), the hex of every percent-encoding uppercase.
        let lowercase = matches!(at, Component::Scheme | Component::Host);
        let dotless;
        let s = if at == Component::Path && dots {
            dotless = without_dots(s, has_authority);
            dotless.as_str()
        } else {
            s
        };
        let chars =
            at != Component::Scheme && at != Component::Port && options.chars != CharNorm::None;
        let idna = at == Component::Host && rules.is_some_and(|r| r.dns_host) && !s.is_empty();
        if !chars && !idna {
            // The common case: straight into the output.
            push_cased(s, lowercase, out);
            return Ok(());
        }
        let mut piece = String::with_capacity(s.len());
        push_cased(s, lowercase, &mut piece);
        if chars {
            let mut n = String::with_capacity(piece.len());
            normalize_chars(&piece, options.chars, &mut n);
            piece = n;
        }
        if idna {
            match host_idna(&piece) {
                Ok(h) => piece = h,
                Err(reason) => {
                    idna_error = Some(NormalizeError::Idna {
                        host: piece.clone(),
                        reason,
                    });
                }
            }
        }
        push_cased(&piece, false, out);
        Ok(())
    })?;
    if let Some(e) = idna_error {
        return Err(e);
    }
    // Scheme rules on the assembled text: port and empty path.
    let mut text = text;
    if level == Level::Scheme {
        let parsed = Reference::<crate::grammar::Iri>::parse(&text)
            .map_err(|e| NormalizeError::Map(MapError::Output(e)))?;
        // The new port: `Some(None)` drops it, `Some(Some(p))` rewrites it.
        let new_port: Option<Option<String>> = match parsed.port() {
            None => None,
            // RFC 3986 §3.2.3: omit an empty port and its ":", whatever the scheme.
            Some("") => Some(None),
            // A port is decimal (§3.2.3): for a scheme with rules, leading zeros go and
            // the default port goes (§6.2.3).
            Some(p) => rules.and_then(|r| {
                let digits = match p.trim_start_matches('0') {
                    "" => "0",
                    d => d,
                };
                if Some(digits) == r.default_port {
                    Some(None)
                } else if digits != p {
                    Some(Some(digits.to_string()))
                } else {
                    None
                }
            }),
        };
        let root = rules.is_some_and(|r| r.empty_path_is_root)
            && parsed.authority().is_some()
            && parsed.path().is_empty();
        if new_port.is_some() || root {
            let offset = |s: &str| s.as_ptr() as usize - text.as_ptr() as usize;
            let path_start = offset(parsed.path());
            let authority_end = match (parsed.port(), &new_port) {
                (Some(p), Some(_)) => offset(p) - 1,
                _ => path_start,
            };
            let mut t = String::with_capacity(text.len() + 1);
            t.push_str(&text[..authority_end]);
            if let Some(Some(p)) = &new_port {
                t.push(':');
                t.push_str(p);
            }
            if root {
                t.push('/');
            }
            t.push_str(&text[path_start..]);
            text = t;
        }
    }
    // Character normalization or IDNA may have made characters §3.2 would keep
    // encoded: align once more (idempotence).
    let text = if (options.chars != CharNorm::None || rules.is_some())
        && !crate::map::aligned_already(&text)
    {
        let iri = Reference::<crate::grammar::Iri>::parse_owned(text)
            .map_err(|e| NormalizeError::Map(MapError::Output(e)))?;
        to_iri(&to_uri(&iri, ToUri::default())?, ToIri::default())?.to_string()
    } else {
        text
    };
    // A URI's normal form is the URI of that IRI.
    let text = if V::NAME == Uri::NAME {
        let iri = Reference::<crate::grammar::Iri>::parse_owned(text)
            .map_err(|e| NormalizeError::Map(MapError::Output(e)))?;
        to_uri(&iri, ToUri::default())?.to_string()
    } else {
        text
    };
    Reference::<V>::parse_owned(text).map_err(|e| NormalizeError::Map(MapError::Output(e)))
}

/// The scheme-level form of a DNS host: ToUnicode(ToASCII(host)), or the ASCII form
/// when a character of the Unicode form would stay percent-encoded.
fn host_idna(host: &str) -> Result<String, String> {
    if host.starts_with('[')
        || crate::grammar::is_match::<crate::grammar::Iri>(crate::grammar::Rule::Ipv4address, host)
    {
        return Ok(host.to_string());
    }
    // Percent-encodings left in an aligned host are not UTF-8 characters of an ireg-name.
    if host.contains('%') {
        return Err("the host has percent-encoded octets that are no characters".to_string());
    }
    let ascii = idna::domain_to_ascii(host).map_err(|e| format!("{e:?}"))?;
    let (unicode, result) = idna::domain_to_unicode(&ascii);
    if result.is_err() {
        return Ok(ascii);
    }
    let displayable = unicode.chars().all(|c| {
        c.is_ascii()
            || (crate::map::iri_allows(c, Component::Host)
                && !crate::map::BIDI_FORMATTING.contains(&c))
    });
    Ok(if displayable { unicode } else { ascii })
}

/// The answer of a comparison (comparison draft §2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Comparison {
    /// The two identify the same resource at this level.
    Equivalent,
    /// They are different at this level (a higher level may still join them).
    Different,
    /// Equivalence cannot be determined, and why (a relative reference without a base,
    /// an IDN that fails ToASCII).
    Unknown(String),
}

/// Compares two IRIs at a level: the rest first, then the fragments (unless
/// [`Options::ignore_fragment`]). Relative references must be resolved against a base
/// first ([`compare_resolved`]); given here, the answer is [`Comparison::Unknown`].
///
/// ```
/// use iri_grammar::{normalize::{compare, Comparison, Level, Options}, IriRef};
/// let a = IriRef::parse("http://example.com").unwrap();
/// let b = IriRef::parse("http://example.com:80/").unwrap();
/// assert_eq!(compare(&a, &b, Level::Scheme, Options::default()), Comparison::Equivalent);
/// assert_eq!(compare(&a, &b, Level::Syntax, Options::default()), Comparison::Different);
/// ```
pub fn compare<V: Variant>(
    a: &Reference<'_, V>,
    b: &Reference<'_, V>,
    level: Level,
    options: Options,
) -> Comparison {
    if level == Level::Simple {
        let equal = if options.ignore_fragment {
            without_fragment(a.as_str()) == without_fragment(b.as_str())
        } else {
            a.as_str() == b.as_str()
        };
        return if equal {
            Comparison::Equivalent
        } else {
            Comparison::Different
        };
    }
    for r in [a, b] {
        if r.is_relative() {
            return Comparison::Unknown(format!(
                "{:?} is a relative reference: resolve it against a base first",
                r.as_str()
            ));
        }
    }
    let (na, nb) = match (normalize(a, level, options), normalize(b, level, options)) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => return Comparison::Unknown(e.to_string()),
    };
    let equal = without_fragment(na.as_str()) == without_fragment(nb.as_str())
        && (options.ignore_fragment || na.fragment() == nb.fragment());
    if equal {
        Comparison::Equivalent
    } else {
        Comparison::Different
    }
}

fn without_fragment(s: &str) -> &str {
    s.split_once('#').map_or(s, |(before, _)| before)
}

/// Resolves both references against `base` (RFC 3986 §5.2), then compares them.
///
/// ```
/// use iri_grammar::{normalize::{compare_resolved, Comparison, Level, Options}, IriRef};
/// let base = IriRef::parse("http://a/b/c").unwrap();
/// let a = IriRef::parse("../x").unwrap();
/// let b = IriRef::parse("/x").unwrap();
/// assert_eq!(compare_resolved(&a, &b, &base, Level::Syntax, Options::default()), Comparison::Equivalent);
/// ```
pub fn compare_resolved<V: Variant>(
    a: &Reference<'_, V>,
    b: &Reference<'_, V>,
    base: &Reference<'_, V>,
    level: Level,
    options: Options,
) -> Comparison {
    match (a.resolve(base), b.resolve(base)) {
        (Ok(x), Ok(y)) => compare(&x, &y, level, options),
        (Err(e), _) | (_, Err(e)) => Comparison::Unknown(e.to_string()),
    }
}

/// Protocol-based equivalence (RFC 3987 §5.3.4): knowledge this library cannot have
/// offline, e.g. that a server redirects one IRI to another or treats paths
/// case-insensitively. Implement it to extend the ladder.
pub trait ProtocolEquivalence {
    /// `Some(true)`: the protocol makes them equivalent; `Some(false)`: different;
    /// `None`: the protocol cannot tell.
    fn equivalent(&self, a: &str, b: &str) -> Option<bool>;
}

/// [`compare`] at the scheme level, then, if the IRIs are still different, the
/// protocol's answer.
///
/// ```
/// use iri_grammar::{normalize::*, IriRef};
/// struct CaseInsensitivePaths;
/// impl ProtocolEquivalence for CaseInsensitivePaths {
///     fn equivalent(&self, a: &str, b: &str) -> Option<bool> {
///         Some(a.eq_ignore_ascii_case(b))
///     }
/// }
/// let a = IriRef::parse("http://a/X").unwrap();
/// let b = IriRef::parse("http://a/x").unwrap();
/// assert_eq!(compare_with_protocol(&a, &b, Options::default(), &CaseInsensitivePaths),
///            Comparison::Equivalent);
/// ```
pub fn compare_with_protocol<V: Variant>(
    a: &Reference<'_, V>,
    b: &Reference<'_, V>,
    options: Options,
    protocol: &dyn ProtocolEquivalence,
) -> Comparison {
    match compare(a, b, Level::Scheme, options) {
        Comparison::Different => {
            let (na, nb) = match (
                normalize(a, Level::Scheme, options),
                normalize(b, Level::Scheme, options),
            ) {
                (Ok(x), Ok(y)) => (x, y),
                _ => return Comparison::Different,
            };
            match protocol.equivalent(na.as_str(), nb.as_str()) {
                Some(true) => Comparison::Equivalent,
                Some(false) => Comparison::Different,
                None => Comparison::Unknown("the protocol cannot tell".to_string()),
            }
        }
        other => other,
    }
}
