//! The comparison ladder: normalization and equivalence of IRIs (RFC 3987 §5.3, the
//! IRI comparison draft §2-4).
//!
//! Each rung joins more IRIs than the one below and costs more:
//! - [`Level::Simple`]: code point equality (§5.3.1). Never maps to URIs first.
//! - [`Level::Syntax`] (§5.3.2): scheme and US-ASCII only host in lowercase (§5.3.2.1:
//!   a host with characters beyond ASCII keeps the case of every letter, ASCII ones
//!   too; its case is the IDN mapping's, at the scheme level; a URI's host, under the
//!   URI grammar, is lowercase whatever it holds, RFC 3986 §6.2.2.1); percent-encodings
//!   aligned: every character gets the one form RFC 3987 §3.2 gives it (decoded where
//!   §3.2 decodes it in that component, `%HH` in uppercase elsewhere; computed as
//!   `to_iri(to_uri(x))`, which is the draft's "map both to URIs"); dot segments removed
//!   (RFC 3986 §5.2.4) from the path of an IRI or of a reference with an absolute path.
//!   No character normalization unless asked for: IRIs already in Unicode MUST NOT be
//!   normalized (§5.3.2.2).
//! - [`Level::Scheme`] (§5.3.3): syntax, plus the rules of the schemes in [`SCHEMES`](crate::schemes::SCHEMES):
//!   default port removed (leading zeros ignored: a port is decimal), an empty path with an
//!   authority becomes `/`, and for DNS schemes the host compared through IDNA: its
//!   normal form is ToUnicode(ToASCII(host)) (UTS 46), kept as punycode only where a
//!   character of the Unicode form would stay encoded. A DNS scheme's ASCII host that
//!   keeps percent-encoded ASCII (`local%0Ahost`) is no DNS name and keeps its
//!   syntax-based form: §6.2.3 of RFC 3986 has no IDNA step, and §5.3.3's IDN
//!   equivalence is for IDNs. For every scheme, an empty port
//!   (`:` alone) is removed (RFC 3986 §3.2.3). An empty query or fragment is
//!   never removed, and a missing component never equals an empty one.
//! - Protocol-based normalization (§5.3.4) needs the network; it is not a level here
//!   but a hook, [`ProtocolEquivalence`], that [`Reference::compare_with_protocol`] consults.
//!
//! [`CharNorm::Nfc`] and [`CharNorm::Nfkc`] are for text that came from a non-Unicode
//! encoding or from paper (§5.3.2.2). They are applied to each run of characters
//! between delimiters, and a delimiter that NFKC makes (U+FF0F FULLWIDTH SOLIDUS → `/`)
//! is percent-encoded, so the structure of the reference never changes.

use crate::chars::{may_decode, UNRESERVED_BYTES};
use crate::grammar::Variant;
use crate::grammar::VariantName;
use crate::idn::{self, IdnaError};
use crate::path::{has_dot_segment, remove_dot_segments_into};
use crate::pct;
use crate::reference::{Component, Recomposer, Reference};
use crate::schemes::{scheme_rules, SchemeRules};
use crate::writer::Treatment;
use alloc::borrow::Cow;
use alloc::format;
use alloc::string::{String, ToString};
use core::fmt;
#[cfg(feature = "nfc")]
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

impl Level {
    /// Every spelling [`str::parse`] accepts, with the level it names; matched
    /// as every name is (`iri_grammar_contract::by_spelling`: ASCII case aside).
    pub const SPELLINGS: [(&'static str, Level); 3] = [
        ("simple", Level::Simple),
        ("syntax", Level::Syntax),
        ("scheme", Level::Scheme),
    ];

    /// `simple`, `syntax` or `scheme`: the name of the subsection of RFC 3987 §5.3.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Simple => "simple",
            Level::Syntax => "syntax",
            Level::Scheme => "scheme",
        }
    }
}

/// A level by name ([`Level::SPELLINGS`]), as every front end reads it.
///
/// ```
/// use iri_grammar::normalize::Level;
/// assert_eq!("Scheme".parse(), Ok(Level::Scheme));
/// assert!("fast".parse::<Level>().is_err());
/// ```
impl core::str::FromStr for Level {
    type Err = ParseLevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        iri_grammar_contract::by_spelling(&Level::SPELLINGS, s).ok_or(ParseLevelError)
    }
}

/// The error of [`Level`]'s `FromStr`: the string names no level. Its message lists
/// the names; a front end adds the string it was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParseLevelError;

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected 'simple', 'syntax' or 'scheme' (RFC 3987 §5.3)")
    }
}

impl core::error::Error for ParseLevelError {}

impl CharNorm {
    /// Every spelling [`str::parse`] accepts, with the normalization it names: each
    /// one's [`as_str`](CharNorm::as_str), and the empty string for none (an option
    /// left empty); matched as every name is (`iri_grammar_contract::by_spelling`).
    pub const SPELLINGS: [(&'static str, CharNorm); 4] = [
        ("none", CharNorm::None),
        ("nfc", CharNorm::Nfc),
        ("nfkc", CharNorm::Nfkc),
        ("", CharNorm::None),
    ];

    /// `none`, `nfc` or `nfkc`.
    pub fn as_str(self) -> &'static str {
        match self {
            CharNorm::None => "none",
            CharNorm::Nfc => "nfc",
            CharNorm::Nfkc => "nfkc",
        }
    }
}

/// A character normalization by name ([`CharNorm::SPELLINGS`]), as every front end
/// reads it.
///
/// ```
/// use iri_grammar::normalize::CharNorm;
/// assert_eq!("NFKC".parse(), Ok(CharNorm::Nfkc));
/// assert_eq!("".parse(), Ok(CharNorm::None));
/// assert!("nfd".parse::<CharNorm>().is_err());
/// ```
impl core::str::FromStr for CharNorm {
    type Err = ParseCharNormError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        iri_grammar_contract::by_spelling(&CharNorm::SPELLINGS, s).ok_or(ParseCharNormError)
    }
}

/// The error of [`CharNorm`]'s `FromStr`: the string names no character
/// normalization. Its message lists the names; a front end adds the string it was
/// given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ParseCharNormError;

impl fmt::Display for ParseCharNormError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("expected 'none', 'nfc' or 'nfkc' (RFC 3987 §5.3.2.2)")
    }
}

impl core::error::Error for ParseCharNormError {}

#[cfg(test)]
mod spelling_tests {
    use super::*;

    #[test]
    fn every_level_and_char_norm_reads_back() {
        for level in [Level::Simple, Level::Syntax, Level::Scheme] {
            assert_eq!(level.as_str().parse(), Ok(level));
            assert_eq!(level.as_str().to_ascii_uppercase().parse(), Ok(level));
        }
        for chars in [CharNorm::None, CharNorm::Nfc, CharNorm::Nfkc] {
            assert_eq!(chars.as_str().parse(), Ok(chars));
            assert_eq!(chars.as_str().to_ascii_uppercase().parse(), Ok(chars));
        }
    }

    #[test]
    fn the_spelling_sets() {
        assert_eq!("SYNTAX".parse(), Ok(Level::Syntax));
        for s in ["", "fast", " syntax", "syntax-based", "5.3.2"] {
            assert_eq!(s.parse::<Level>(), Err(ParseLevelError), "{s:?}");
        }
        assert_eq!("".parse(), Ok(CharNorm::None));
        assert_eq!("Nfc".parse(), Ok(CharNorm::Nfc));
        for s in ["nfd", "nfkd", " nfc", "true", "nf-c"] {
            assert_eq!(s.parse::<CharNorm>(), Err(ParseCharNormError), "{s:?}");
        }
    }
}

/// Options of [`Reference::normalize_with`] and [`Reference::compare_with`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct NormalizeOptions {
    /// Character normalization.
    pub chars: CharNorm,
    /// Compare without fragments (for retrieval decisions, comparison draft §2).
    pub ignore_fragment: bool,
}

/// Why a reference cannot be normalized at a level.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum NormalizeError {
    /// IDNA (UTS 46) has no form for the host of a DNS scheme (it rejects it, or maps
    /// it to something that is not one host name), so its scheme-based normal form is
    /// not known.
    Idna(IdnaError),
    /// Character normalization was asked for ([`CharNorm::Nfc`], [`CharNorm::Nfkc`])
    /// and the library was built without its `nfc` feature.
    NfcUnavailable,
}

impl fmt::Display for NormalizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NormalizeError::NfcUnavailable => f.write_str(
                "character normalization needs the nfc feature of iri-grammar, which is off",
            ),
            NormalizeError::Idna(e) => write!(
                f,
                "the host has no IDNA form ({e}), so its scheme-based normal form cannot be \
                 determined"
            ),
        }
    }
}

impl core::error::Error for NormalizeError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            NormalizeError::Idna(e) => Some(e),
            NormalizeError::NfcUnavailable => None,
        }
    }
}

/// [`Reference::normalize_with`].
fn normalize<V: Variant>(
    r: &Reference<'_, V>,
    level: Level,
    options: NormalizeOptions,
) -> Result<Reference<'static, V>, NormalizeError> {
    if level == Level::Simple {
        return Ok(r.clone().into_owned());
    }
    if cfg!(not(feature = "nfc")) && options.chars != CharNorm::None {
        return Err(NormalizeError::NfcUnavailable);
    }
    let rules = r
        .scheme()
        .and_then(scheme_rules)
        .filter(|_| level == Level::Scheme);
    let n = Normalizer {
        chars: options.chars,
        ascii_only: V::NAME == VariantName::Uri,
    };
    let mut b = Recomposer::with_capacity(r.as_str().len() + 8);
    if let Some(s) = r.scheme() {
        b.open(Component::Scheme);
        b.text().extend(s.chars().map(|c| c.to_ascii_lowercase()));
        b.close(Component::Scheme);
    }
    if r.authority().is_some() {
        b.open(Component::Authority);
        if let Some(u) = r.userinfo() {
            b.component(Component::Userinfo, |out| {
                n.write(u, Component::Userinfo, out)
            })?;
        }
        let host = r.host().unwrap_or("");
        let dns = rules.is_some_and(|s| s.dns_host);
        b.component(Component::Host, |out| n.write_host(host, dns, out))?;
        if let Some(port) = r.port() {
            if let Some(p) = normal_port(port, level, rules) {
                b.push(Component::Port, p);
            }
        }
        b.close(Component::Authority);
    }
    b.open(Component::Path);
    let start = b.as_str().len();
    n.write(r.path(), Component::Path, b.text())?;
    // Dot segments go from the path of an IRI, or of a relative reference whose path
    // is absolute (a relative path's leading ".." still means something).
    let path = &b.as_str()[start..];
    if (r.scheme().is_some() || path.starts_with('/')) && has_dot_segment(path) {
        let written = b.text().split_off(start);
        remove_dot_segments_into(["", &written], b.text());
    }
    if rules.is_some_and(|s| s.empty_path_is_root)
        && r.authority().is_some()
        && b.as_str().len() == start
    {
        b.text().push('/');
    }
    b.close(Component::Path);
    if let Some(q) = r.query() {
        b.component(Component::Query, |out| n.write(q, Component::Query, out))?;
    }
    if let Some(f) = r.fragment() {
        b.component(Component::Fragment, |out| {
            n.write(f, Component::Fragment, out)
        })?;
    }
    Ok(b.finish())
}

impl<V: Variant> Reference<'_, V> {
    /// The syntax-based normal form (RFC 3987 §5.3.2), the common case: scheme and
    /// US-ASCII host in lowercase, percent-encodings aligned, dot segments removed,
    /// no character normalization. It needs no IDNA and no option, so it cannot fail;
    /// [`Reference::normalize_with`] takes the level (scheme-based, §5.3.3) and the
    /// options.
    ///
    /// ```
    /// use iri_grammar::{normalize::{Level, NormalizeOptions}, IriRef};
    /// let r = IriRef::parse("HTTP://Example.COM:80/a/./b/../%7e%41").unwrap();
    /// assert_eq!(r.normalize(), "http://example.com:80/a/~A");
    /// let scheme = r.normalize_with(Level::Scheme, NormalizeOptions::default()).unwrap();
    /// assert_eq!(scheme, "http://example.com/a/~A");
    /// ```
    pub fn normalize(&self) -> Reference<'static, V> {
        match normalize(self, Level::Syntax, NormalizeOptions::default()) {
            Ok(n) => n,
            // Only the scheme level's IDNA step and character normalization (an
            // option) can fail; neither runs here.
            Err(e) => unreachable!("syntax-based normalization without options: {e}"),
        }
    }

    /// The normal form of `r` at `level`: an IRI (characters, not percent-encodings,
    /// wherever RFC 3987 §3.2 allows), valid in `r`'s grammar (for a URI, the URI that
    /// IRI maps to), and idempotent: `normalize(normalize(x)) == normalize(x)`.
    ///
    /// Each component is written once, in this order of steps: percent-encodings aligned
    /// (so that the characters are known), character normalization if asked, case, dot
    /// segments, then the scheme's rules. Character normalization comes before case
    /// (U+212A KELVIN SIGN is `K` after NFC, then `k` in a host) and before dot segments
    /// (NFKC makes `..` of U+FF0E U+FF0E); a character it makes that would change the
    /// structure (`/` from U+FF0F) is percent-encoded.
    ///
    /// ```
    /// use iri_grammar::{normalize::{Level, NormalizeOptions}, IriRef};
    /// let r = IriRef::parse("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9").unwrap();
    /// let n = r.normalize_with(Level::Syntax, NormalizeOptions::default()).unwrap();
    /// assert_eq!(n, "example://a/b/c/%7Bfoo%7D/rosé");
    /// let r = IriRef::parse("HTTP://www.Example.com:80").unwrap();
    /// assert_eq!(r.normalize_with(Level::Scheme, NormalizeOptions::default()).unwrap(), "http://www.example.com/");
    /// ```
    pub fn normalize_with(
        &self,
        level: Level,
        options: NormalizeOptions,
    ) -> Result<Reference<'static, V>, NormalizeError> {
        normalize(self, level, options)
    }

    /// Whether `self` and `other` are equivalent at `level`, with the default
    /// options; [`Reference::compare_with`] takes the options.
    ///
    /// ```
    /// use iri_grammar::{normalize::{Comparison, Level}, IriRef};
    /// let a = IriRef::parse("http://example.com/%7Euser").unwrap();
    /// let b = IriRef::parse("HTTP://EXAMPLE.com:80/~user").unwrap();
    /// assert_eq!(a.compare(&b, Level::Syntax), Comparison::Different);
    /// assert_eq!(a.compare(&b, Level::Scheme), Comparison::Equivalent);
    /// ```
    pub fn compare(&self, other: &Reference<'_, V>, level: Level) -> Comparison {
        compare(self, other, level, NormalizeOptions::default())
    }

    /// Compares two IRIs at a level: the rest first, then the fragments (unless
    /// [`NormalizeOptions::ignore_fragment`]). Relative references must be resolved against a base
    /// first ([`Reference::compare_resolved`]); given here, the answer is [`Comparison::Unknown`].
    ///
    /// ```
    /// use iri_grammar::{normalize::{Comparison, Level, NormalizeOptions}, IriRef};
    /// let a = IriRef::parse("http://example.com").unwrap();
    /// let b = IriRef::parse("http://example.com:80/").unwrap();
    /// assert_eq!(a.compare_with(&b, Level::Scheme, NormalizeOptions::default()), Comparison::Equivalent);
    /// assert_eq!(a.compare_with(&b, Level::Syntax, NormalizeOptions::default()), Comparison::Different);
    /// ```
    pub fn compare_with(
        &self,
        other: &Reference<'_, V>,
        level: Level,
        options: NormalizeOptions,
    ) -> Comparison {
        compare(self, other, level, options)
    }

    /// Resolves both references against `base` (RFC 3986 §5.2), then compares them.
    ///
    /// ```
    /// use iri_grammar::{normalize::{Comparison, Level, NormalizeOptions}, IriRef};
    /// let base = IriRef::parse("http://a/b/c").unwrap();
    /// let a = IriRef::parse("../x").unwrap();
    /// let b = IriRef::parse("/x").unwrap();
    /// assert_eq!(a.compare_resolved(&b, &base, Level::Syntax, NormalizeOptions::default()), Comparison::Equivalent);
    /// ```
    pub fn compare_resolved(
        &self,
        other: &Reference<'_, V>,
        base: &Reference<'_, V>,
        level: Level,
        options: NormalizeOptions,
    ) -> Comparison {
        match (self.resolve(base), other.resolve(base)) {
            (Ok(x), Ok(y)) => compare(&x, &y, level, options),
            (Err(e), _) | (_, Err(e)) => Comparison::Unknown(e.to_string()),
        }
    }

    /// [`Reference::compare_with`] at the scheme level, then, if the IRIs are still different, the
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
    /// assert_eq!(a.compare_with_protocol(&b, NormalizeOptions::default(), &CaseInsensitivePaths),
    ///            Comparison::Equivalent);
    /// ```
    pub fn compare_with_protocol(
        &self,
        other: &Reference<'_, V>,
        options: NormalizeOptions,
        protocol: &dyn ProtocolEquivalence,
    ) -> Comparison {
        match compare(self, other, Level::Scheme, options) {
            Comparison::Different => {
                let (na, nb) = match (
                    normalize(self, Level::Scheme, options),
                    normalize(other, Level::Scheme, options),
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
}

/// The port at the scheme level, or `None` to leave it out (with its `:`). RFC 3986
/// §3.2.3: an empty port goes whatever the scheme; for a scheme with rules a port is
/// decimal, so leading zeros go, and the default port goes (§6.2.3).
fn normal_port<'p>(port: &'p str, level: Level, rules: Option<&SchemeRules>) -> Option<&'p str> {
    if level != Level::Scheme {
        return Some(port);
    }
    if port.is_empty() {
        return None;
    }
    let Some(rules) = rules else {
        return Some(port);
    };
    let digits = match port.trim_start_matches('0') {
        "" => &port[port.len() - 1..],
        d => d,
    };
    (Some(digits) != rules.default_port).then_some(digits)
}

/// The steps of normalization that work character by character.
struct Normalizer {
    chars: CharNorm,
    /// The result is a URI: characters beyond ASCII end up percent-encoded.
    ascii_only: bool,
}

impl Normalizer {
    /// Writes component `at`: aligned, then character-normalized if asked.
    fn write(&self, s: &str, at: Component, out: &mut String) -> Result<(), NormalizeError> {
        self.write_cased(s, at, false, out);
        Ok(())
    }

    fn write_cased(&self, s: &str, at: Component, lowercase: bool, out: &mut String) {
        if self.chars == CharNorm::None {
            Treatment::aligned(at, lowercase, self.ascii_only).write(s, at, out);
            return;
        }
        let mut aligned = String::with_capacity(s.len());
        Treatment::aligned(at, false, false).write(s, at, &mut aligned);
        self.normalize_runs(&aligned, at, lowercase, out);
    }

    /// The host: aligned, character-normalized if asked, ASCII letters lowercase if
    /// the host is US-ASCII only; for a DNS scheme at the scheme level, its IDNA form
    /// (see [`idn::comparison_form`]).
    fn write_host(&self, host: &str, dns: bool, out: &mut String) -> Result<(), NormalizeError> {
        if !dns || host.is_empty() || host.starts_with('[') {
            self.write_syntax_host(host, out);
            return Ok(());
        }
        // Written where it belongs; most hosts are their own comparison form (ASCII,
        // lowercase, no ACE label) and stay there, with no copy made.
        let start = out.len();
        Normalizer {
            chars: self.chars,
            ascii_only: false,
        }
        .write_cased(host, Component::Host, true, out);
        let h = &out[start..];
        if crate::grammar::is_compiled_match!(
            crate::grammar::Iri,
            crate::grammar::Rule::Ipv4address,
            h
        ) {
            return Ok(());
        }
        let form = match idn::comparison_form(h, |c| may_decode(c, Component::Host)) {
            // Borrowed from `h` and as long: `h` itself, which is then ASCII (only an
            // ASCII host is its own form), so `ascii_only` has nothing to encode.
            Ok(Cow::Borrowed(same)) if same.len() == h.len() => return Ok(()),
            form => form.map(Cow::into_owned),
        };
        out.truncate(start);
        let form = form.map_err(NormalizeError::Idna)?;
        if self.ascii_only {
            pct::encode_unless(&form, |c| c.is_ascii(), out);
        } else {
            out.push_str(&form);
        }
        Ok(())
    }

    /// The host at the syntax level, case-insensitive as the grammar's document says.
    /// A URI's host is lowercase whatever it holds (RFC 3986 §6.2.2.1: "the scheme and
    /// host are case-insensitive"), outside its percent-encodings, whose hex digits are
    /// uppercase. An IRI's or a LEIRI's is lowercase only if it is US-ASCII (RFC 3987
    /// §5.3.2.1 and the comparison draft §4.2.1: "the scheme and US-ASCII only host"),
    /// judged by the characters its percent-encodings stand for: a host beyond ASCII
    /// keeps the case of all its letters, ASCII ones too (`RÉSUMÉ.example`), since its
    /// case equivalence is the IDN mapping of the scheme level (§5.3.3).
    fn write_syntax_host(&self, host: &str, out: &mut String) {
        let start = out.len();
        if self.chars == CharNorm::None {
            // One pass writes a URI's host, and the usual IRI host (US-ASCII with no
            // percent-encoding), in lowercase; another host is written again as it
            // is if the writer met a percent-encoding or a character beyond ASCII.
            let lowercase = Treatment::aligned(Component::Host, true, self.ascii_only);
            if !lowercase.write_noting(host, Component::Host, out) || self.ascii_only {
                return;
            }
            out.truncate(start);
        } else if self.ascii_only || (host.is_ascii() && !host.contains('%')) {
            self.write_cased(host, Component::Host, true, out);
            return;
        }
        self.write_cased(host, Component::Host, false, out);
        if pct::decode(&out[start..]).is_ascii() {
            let written = out.split_off(start);
            pct::push_lowercase_outside_triplets(&written, out);
        }
    }

    /// NFC or NFKC of each run of characters between delimiters (ASCII characters
    /// that are not unreserved, and percent-encodings, which are never touched). A
    /// character normalization makes that may not appear decoded in the component (a
    /// delimiter such as `/` from U+FF0F, a space from U+2000) is percent-encoded,
    /// so the structure of the reference never changes.
    fn normalize_runs(&self, aligned: &str, at: Component, lowercase: bool, out: &mut String) {
        let emit = |c: char, out: &mut String| {
            if !may_decode(c, at) {
                pct::encode_char(c, out);
            } else if c.is_ascii() {
                out.push(if lowercase { c.to_ascii_lowercase() } else { c });
            } else if self.ascii_only {
                pct::encode_char(c, out);
            } else {
                out.push(c);
            }
        };
        let bytes = aligned.as_bytes();
        let in_run = |b: u8| b >= 0x80 || UNRESERVED_BYTES[usize::from(b)];
        let mut k = 0;
        while k < bytes.len() {
            if !in_run(bytes[k]) {
                // A delimiter or a percent-encoding: copied, case aside.
                let n = if bytes[k] == b'%' { 3 } else { 1 };
                let piece = &aligned[k..k + n];
                if lowercase && n == 1 {
                    out.push(char::from(bytes[k].to_ascii_lowercase()));
                } else {
                    out.push_str(piece);
                }
                k += n;
                continue;
            }
            let end = bytes[k..]
                .iter()
                .position(|&b| !in_run(b))
                .map_or(bytes.len(), |p| k + p);
            let run = &aligned[k..end];
            match self.chars {
                #[cfg(feature = "nfc")]
                CharNorm::Nfc => run.nfc().for_each(|c| emit(c, out)),
                #[cfg(feature = "nfc")]
                CharNorm::Nfkc => run.nfkc().for_each(|c| emit(c, out)),
                // Refused in `normalize` before anything is written.
                #[cfg(not(feature = "nfc"))]
                CharNorm::Nfc | CharNorm::Nfkc => run.chars().for_each(|c| emit(c, out)),
                CharNorm::None => run.chars().for_each(|c| emit(c, out)),
            }
            k = end;
        }
    }
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

/// [`Reference::compare_with`].
fn compare<V: Variant>(
    a: &Reference<'_, V>,
    b: &Reference<'_, V>,
    level: Level,
    options: NormalizeOptions,
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

/// Protocol-based equivalence (RFC 3987 §5.3.4): knowledge this library cannot have
/// offline, e.g. that a server redirects one IRI to another or treats paths
/// case-insensitively. Implement it to extend the ladder.
pub trait ProtocolEquivalence {
    /// `Some(true)`: the protocol makes them equivalent; `Some(false)`: different;
    /// `None`: the protocol cannot tell.
    fn equivalent(&self, a: &str, b: &str) -> Option<bool>;
}
