//! The prose rules on top of the grammar, as coded findings: bidi (RFC 3987 §4, via
//! [`crate::bidi`]), the limitations on characters (RFC 3987 §6.1, §7.5, §8), the
//! character groups of the LEIRI note (§5, "Characters allowed in LEIRIs but not in
//! IRIs"), and a few rules of RFC 3986 (§3.1 scheme case, §3.2.1 passwords, §3.3
//! dot segments).
//!
//! `check` judges the grammar alone; `lint` judges what the grammar cannot say. A
//! string with U+202E in its path matches `IRI-reference` and has an error-level
//! finding here:
//!
//! ```
//! use iri_grammar::grammar::{is_match, Iri, Rule};
//! use iri_grammar::lint::{LintOptions, Severity};
//! use iri_grammar::reference::IriRef;
//! let text = "http://a/\u{202E}";
//! assert!(is_match::<Iri>(Rule::IriReference, text));
//! let findings = IriRef::parse(text).unwrap().lint_with(&LintOptions::default());
//! assert_eq!(findings[0].code(), "bidi-formatting-character");
//! assert_eq!(findings[0].severity(), Severity::Error);
//! assert_eq!((findings[0].offset, findings[0].char_offset), (9, 9));
//! assert_eq!(findings[0].to_string(),
//!     "bidi-formatting-character 9 IRIs MUST NOT contain bidi formatting characters \
//!      (LRM, RLM, LRE, RLE, PDF, LRO, RLO) [path, char 9, U+202E RLO]");
//! ```
//!
//! The findings are data: [`CATALOGUE`] holds every code with its severity, its
//! source and a one-line message; `iri lint --list` prints it ([`catalogue_text`]). Severities: **error** for a MUST NOT, **warning** for a
//! SHOULD / SHOULD NOT or a "should be avoided" in a normative section (RFC 3987
//! §6.1, RFC 3986 §3.1, §3.2.1), and for the LEIRI groups (characters that stop a
//! LEIRI from being an IRI); **info** for advice in informative text (RFC 3987 §7.5,
//! RFC 3986 §3.3).
//!
//! Each character gets at most one character-level finding, the first that applies
//! in catalogue order (a U+FF0F FULLWIDTH SOLIDUS is a `lookalike-delimiter`, not
//! also a `fullwidth-halfwidth` and a `compatibility-character`). Component-level
//! findings (`bidi-*` rules of §4.2, `mixed-script`, `not-nfc`) are per component
//! as [`crate::bidi::parts`] splits them: userinfo, host label, path segment (and
//! extension), query name or value, fragment.
//!
//! ## jena-iri equivalents
//!
//! `BIDI_FORMATTING_CHARACTER` → `bidi-formatting-character` (and
//! `leiri-bidi-formatting`); `BAD_BIDI_SUBCOMPONENT` → `bidi-mixed-direction`,
//! `bidi-component-edge`; `WHITESPACE`, `UNICODE_WHITESPACE` → `leiri-space`,
//! `lookalike-delimiter`; `UNWISE_CHARACTER` → `leiri-unwise`; `CONTROL_CHARACTER`,
//! `UNICODE_CONTROL_CHARACTER` → `leiri-control`; `PRIVATE_USE_CHARACTER` →
//! `leiri-private-use`; `NOT_NFC` → `not-nfc`; `NOT_NFKC`, `COMPATIBILITY_CHARACTER`
//! → `compatibility-character`, `fullwidth-halfwidth`; `SCHEME_PREFERS_LOWERCASE` →
//! `scheme-uppercase`; `HAS_PASSWORD` → `password-in-userinfo`;
//! `NON_INITIAL_DOT_SEGMENT` → `non-initial-dot-segment`. The grammar itself
//! (`check`) covers `ILLEGAL_CHARACTER`, `NON_URI_CHARACTER`, `LONE_SURROGATE`,
//! `EMPTY_SCHEME`, `SCHEME_MUST_START_WITH_LETTER`, `ILLEGAL_PERCENT_ENCODING`,
//! `IP_V6_OR_FUTURE_ADDRESS_SYNTAX` and `IP_V4_OCTET_RANGE` (an out-of-range
//! "IPv4" is a valid `ireg-name`).

use crate::bidi::{self, BidiIssueKind, Part};
use crate::chars;
use crate::grammar::{MatchError, Variant, VariantName};
use crate::reference::{Component, Reference};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use core::ops::Range;
use unicode_normalization::{is_nfc, is_nfc_quick, IsNormalized, UnicodeNormalization};
use unicode_script::{Script, UnicodeScript};

/// How serious a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The document says MUST NOT: the reference does not conform.
    Error,
    /// The document says SHOULD / SHOULD NOT, or "should be avoided" in a
    /// normative section.
    Warning,
    /// Advice (informative sections).
    Info,
}

impl Severity {
    /// `error`, `warning` or `info`.
    ///
    /// ```
    /// assert_eq!(iri_grammar::lint::Severity::Warning.as_str(), "warning");
    /// ```
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One kind of finding: an entry of the [`CATALOGUE`].
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Stable kebab-case code, e.g. `bidi-formatting-character`.
    pub code: &'static str,
    /// How serious it is.
    pub severity: Severity,
    /// The source document: `RFC 3987`, `RFC 3986` or `LEIRI note`.
    pub document: &'static str,
    /// The section(s) of the document, e.g. `§4.1`.
    pub section: &'static str,
    /// The grammars whose references can get this finding.
    pub grammars: &'static [VariantName],
    /// What is wrong, in one line.
    pub message: &'static str,
}

impl Entry {
    /// Document and section: `RFC 3987 §4.1`.
    ///
    /// ```
    /// let e = iri_grammar::lint::entry("bidi-formatting-character").unwrap();
    /// assert_eq!(e.citation(), "RFC 3987 §4.1");
    /// ```
    pub fn citation(&self) -> String {
        format!("{} {}", self.document, self.section)
    }
}

const ALL: &[VariantName] = &VariantName::ALL;
const IRI: &[VariantName] = &[VariantName::Iri];
const UNICODE: &[VariantName] = &[VariantName::Iri, VariantName::Leiri];
const LEIRI: &[VariantName] = &[VariantName::Leiri];

const fn entry_of(
    code: &'static str,
    severity: Severity,
    document: &'static str,
    section: &'static str,
    grammars: &'static [VariantName],
    message: &'static str,
) -> Entry {
    Entry {
        code,
        severity,
        document,
        section,
        grammars,
        message,
    }
}

use Severity::{Error as E, Info as I, Warning as W};

/// Every finding `lint` can report: the one table the docs and `iri lint --list`
/// print. Findings at the same offset come in this order.
///
/// ```
/// use iri_grammar::lint::CATALOGUE;
/// assert!(CATALOGUE.iter().any(|e| e.code == "bidi-formatting-character"));
/// ```
pub static CATALOGUE: &[Entry] = &[
    // RFC 3987 §4: bidi.
    entry_of("bidi-formatting-character", E, "RFC 3987", "§4.1", IRI,
        "IRIs MUST NOT contain bidi formatting characters (LRM, RLM, LRE, RLE, PDF, LRO, RLO)"),
    entry_of("bidi-formatting-character-encoded", W, "RFC 3987", "§4.1, §3.2", ALL,
        "percent-encoded bidi formatting character: it must stay encoded (§3.2 step 4), never be decoded for display"),
    entry_of("bidi-control-character", W, "RFC 3987", "§4.1", UNICODE,
        "bidi control newer than RFC 3987 (ALM, LRI, RLI, FSI, PDI): invisible and reorders the display, like those §4.1 forbids"),
    entry_of("bidi-mixed-direction", W, "RFC 3987", "§4.2", UNICODE,
        "a component SHOULD NOT use both right-to-left and left-to-right characters"),
    entry_of("bidi-component-edge", W, "RFC 3987", "§4.2", UNICODE,
        "a component using right-to-left characters SHOULD start and end with right-to-left characters"),
    // The LEIRI note's groups of characters allowed in LEIRIs but not in IRIs.
    entry_of("leiri-space", W, "LEIRI note", "§5", LEIRI,
        "space: formats use it as a delimiter and display may add or drop it; not allowed in IRIs"),
    entry_of("leiri-delimiter", W, "LEIRI note", "§5", LEIRI,
        "delimiter (< > \"): used around IRIs in plain text, so the LEIRI may be cut at the wrong place; not allowed in IRIs"),
    entry_of("leiri-unwise", W, "LEIRI note", "§5", LEIRI,
        "unwise character ({ } | \\ ^ `): shown differently on some systems (U+005C as a yen sign); not allowed in IRIs"),
    entry_of("leiri-control", W, "LEIRI note", "§5", LEIRI,
        "control character (C0, DEL, C1): cannot be transmitted or displayed reliably; not allowed in IRIs"),
    entry_of("leiri-bidi-formatting", W, "LEIRI note", "§5", LEIRI,
        "bidi formatting character: the displayed LEIRI cannot be read back unambiguously; not allowed in IRIs (RFC 3987 §4.1)"),
    entry_of("leiri-special", W, "LEIRI note", "§5", LEIRI,
        "special (U+FFF0-FFFD): for byte order, annotation or replacement, confusing in an identifier; not allowed in IRIs"),
    entry_of("leiri-private-use", W, "LEIRI note", "§5", LEIRI,
        "private use character outside the query: meaning by private agreement only, not interoperable; IRIs allow it only in the query"),
    entry_of("leiri-tag", W, "LEIRI note", "§5", LEIRI,
        "tag character (U+E0000-E0FFF): language tags cannot be input or recognized reliably in identifiers; not allowed in IRIs"),
    entry_of("leiri-non-character", W, "LEIRI note", "§5", LEIRI,
        "non-character (U+FDD0-FDEF, U+nFFFE-nFFFF): for internal use, not for interchange; not allowed in IRIs"),
    // RFC 3987 §6.1, §7.5: characters to avoid.
    entry_of("lookalike-delimiter", W, "RFC 3987", "§6.1", UNICODE,
        "look-alike of a space or a delimiter (e.g. U+2215 DIVISION SLASH for \"/\"): should be avoided"),
    entry_of("fullwidth-halfwidth", W, "RFC 3987", "§6.1, §7.2", UNICODE,
        "full-width or half-width form (e.g. U+FF41 for \"a\", half-width Katakana): a look-alike, should be avoided"),
    entry_of("compatibility-character", I, "RFC 3987", "§7.5", UNICODE,
        "compatibility character, not in NFKC (e.g. the U+FB01 \"fi\" ligature): new names should be in NFKC"),
    entry_of("not-nfc", I, "RFC 3987", "§7.5, §8", UNICODE,
        "text not in NFC: new names should be in NFKC (hence NFC), and unnormalized names invite spoofing"),
    entry_of("mixed-script", I, "RFC 3987", "§7.5", UNICODE,
        "a component mixes scripts (e.g. Latin and Cyrillic): keep it to characters one language uses together"),
    // RFC 3986.
    entry_of("scheme-uppercase", W, "RFC 3986", "§3.1", ALL,
        "scheme with uppercase letters: schemes are case-insensitive and should be produced in lowercase"),
    entry_of("password-in-userinfo", W, "RFC 3986", "§3.2.1, §7.5", ALL,
        "userinfo of the form user:password: deprecated, the password is in clear text (RFC 3987 §8)"),
    entry_of("non-initial-dot-segment", I, "RFC 3986", "§3.3", ALL,
        "dot segment (\".\" or \"..\") not at the start of a relative path: dot segments are meant only there"),
];

/// The catalogue entry of `code`.
///
/// ```
/// use iri_grammar::lint::{entry, Severity};
/// assert_eq!(entry("password-in-userinfo").unwrap().severity, Severity::Warning);
/// assert!(entry("no-such-code").is_none());
/// ```
pub fn entry(code: &str) -> Option<&'static Entry> {
    CATALOGUE.iter().find(|e| e.code == code)
}

fn index_of(code: &str) -> usize {
    CATALOGUE
        .iter()
        .position(|e| e.code == code)
        .unwrap_or_else(|| panic!("{code} is not in the catalogue"))
}

/// What to check beyond the defaults.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LintOptions {
    /// Also look inside percent-encodings: UTF-8 `%HH` sequences that decode to a
    /// bidi formatting character give `bidi-formatting-character-encoded`. Off by
    /// default: RFC 3987 §3.2 step 4 itself produces such encodings.
    pub check_percent_encoded: bool,
    /// Split path segments at `.` into extensions for the component rules (RFC
    /// 3987 §4.2 allows it; without it, example 4 of §4.4 breaks rule 1). On by
    /// default.
    pub split_extensions: bool,
}

impl Default for LintOptions {
    /// `check_percent_encoded: false`, `split_extensions: true`.
    fn default() -> Self {
        LintOptions {
            check_percent_encoded: false,
            split_extensions: true,
        }
    }
}

/// One finding in one reference.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The catalogue entry: code, severity, source, message.
    pub entry: &'static Entry,
    /// Byte offset in the reference's text.
    pub offset: usize,
    /// Character offset in the reference's text.
    pub char_offset: usize,
    /// The component it was found in.
    pub component: Component,
    /// Byte range of the component (or of the label, segment extension, query name
    /// or value that was checked) in the reference's text.
    pub component_range: Range<usize>,
    /// The character concerned, when the finding is about one.
    pub character: Option<char>,
}

impl Finding {
    /// The catalogue code.
    pub fn code(&self) -> &'static str {
        self.entry.code
    }

    /// The severity.
    pub fn severity(&self) -> Severity {
        self.entry.severity
    }

    /// The one-line message.
    pub fn message(&self) -> &'static str {
        self.entry.message
    }

    /// The source: `RFC 3987 §4.1`.
    pub fn section(&self) -> String {
        self.entry.citation()
    }

    /// The character concerned as `U+202E`, with the name of a §4.1 formatting
    /// character: `U+202E RLO`.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let f = &IriRef::parse("http://a/\u{202E}").unwrap().lint()[0];
    /// assert_eq!(f.character_label().as_deref(), Some("U+202E RLO"));
    /// ```
    pub fn character_label(&self) -> Option<String> {
        self.character.map(|c| match chars::formatting_name(c) {
            Some(name) => format!("U+{:04X} {name}", c as u32),
            None => format!("U+{:04X}", c as u32),
        })
    }
}

impl fmt::Display for Finding {
    /// `CODE offset message [component, char N, U+XXXX]`, the offset in bytes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} [{}, char {}",
            self.code(),
            self.offset,
            self.message(),
            self.component,
            self.char_offset
        )?;
        if let Some(c) = self.character_label() {
            write!(f, ", {c}")?;
        }
        f.write_str("]")
    }
}

/// A finding before its character offset is known.
struct Raw {
    offset: usize,
    index: usize,
    component: Component,
    range: Range<usize>,
    character: Option<char>,
}

/// [`Reference::lint_with`].
fn lint<V: Variant>(r: &Reference<'_, V>, options: &LintOptions) -> Vec<Finding> {
    let mut raw = Findings(Vec::new());
    rfc3986_advice(r, &mut raw);
    let leiri = V::NAME == VariantName::Leiri;
    for part in bidi::parts(r, options.split_extensions) {
        part_findings(r.as_str(), part, leiri, options, &mut raw);
    }
    raw.finish(r.as_str())
}

impl<V: Variant> Reference<'_, V> {
    /// The findings with the default options; [`Reference::lint_with`] takes the options.
    ///
    /// ```
    /// use iri_grammar::IriRef;
    /// let r = IriRef::parse("http://user:secret@example.org/").unwrap();
    /// let codes: Vec<_> = r.lint().iter().map(|f| f.code()).collect();
    /// assert_eq!(codes, ["password-in-userinfo"]);
    /// ```
    pub fn lint(&self) -> Vec<Finding> {
        lint(self, &LintOptions::default())
    }

    /// Checks the reference against every rule of the [`CATALOGUE`] that applies to its grammar;
    /// the findings in text order (then catalogue order). Linear in the length of the
    /// reference.
    ///
    /// ```
    /// use iri_grammar::lint::LintOptions;
    /// use iri_grammar::reference::{IriRef, LeiriRef};
    /// let clean = IriRef::parse("http://résumé.example.org/ros%C3%A9?q#f").unwrap();
    /// assert!(clean.lint_with(&LintOptions::default()).is_empty());
    /// let r = IriRef::parse("http://user:pw@example.org/a/../\u{FB01}le").unwrap();
    /// let codes: Vec<_> = r.lint_with(&LintOptions::default()).iter().map(|f| f.code()).collect();
    /// assert_eq!(codes, ["password-in-userinfo", "non-initial-dot-segment", "compatibility-character"]);
    /// let l = LeiriRef::parse("file:///my files/a<b>").unwrap();
    /// let codes: Vec<_> = l.lint_with(&LintOptions::default()).iter().map(|f| f.code()).collect();
    /// assert_eq!(codes, ["leiri-space", "leiri-delimiter", "leiri-delimiter"]);
    /// ```
    pub fn lint_with(&self, options: &LintOptions) -> Vec<Finding> {
        lint(self, options)
    }
}

/// The findings of one reference before their character offsets are known.
struct Findings(Vec<Raw>);

impl Findings {
    fn add(
        &mut self,
        code: &str,
        offset: usize,
        component: Component,
        range: Range<usize>,
        character: Option<char>,
    ) {
        self.0.push(Raw {
            offset,
            index: index_of(code),
            component,
            range,
            character,
        })
    }

    /// In text order (then catalogue order), with character offsets.
    fn finish(mut self, text: &str) -> Vec<Finding> {
        self.0.sort_by_key(|f| (f.offset, f.index));
        let mut chars = 0;
        let mut counted = 0;
        self.0
            .into_iter()
            .map(|f| {
                chars += text[counted..f.offset].chars().count();
                counted = f.offset;
                Finding {
                    entry: &CATALOGUE[f.index],
                    offset: f.offset,
                    char_offset: chars,
                    component: f.component,
                    component_range: f.range,
                    character: f.character,
                }
            })
            .collect()
    }
}

/// The advice of RFC 3986: lowercase schemes (§3.1), no `user:password` (§3.2.1),
/// dot segments only at the start of a relative-path reference (§3.3).
fn rfc3986_advice<V: Variant>(r: &Reference<'_, V>, raw: &mut Findings) {
    let text = r.as_str();
    if let Some(s) = r.scheme() {
        if let Some((i, c)) = s.char_indices().find(|(_, c)| c.is_ascii_uppercase()) {
            raw.add(
                "scheme-uppercase",
                i,
                Component::Scheme,
                0..s.len(),
                Some(c),
            );
        }
    }
    if let Some(range) = r.span(Component::Userinfo) {
        if let Some(i) = text[range.clone()].find(':') {
            let at = range.start + i;
            raw.add(
                "password-in-userinfo",
                at,
                Component::Userinfo,
                range,
                Some(':'),
            );
        }
    }
    let mut leading = r.scheme().is_none() && r.authority().is_none() && !r.path().starts_with('/');
    for segment in r.path_segment_spans() {
        let dot = matches!(&text[segment.clone()], "." | "..");
        if dot && !leading {
            raw.add(
                "non-initial-dot-segment",
                segment.start,
                Component::Path,
                segment,
                None,
            );
        }
        leading &= dot;
    }
}

/// The findings in one part of a reference as [`bidi::parts`] splits it: one
/// character-level code per character (§6.1, LEIRI groups), encoded bidi formatting
/// characters if asked, the component rules of RFC 3987 §4.2, and the advice of
/// §7.5 (NFC, mixed scripts).
fn part_findings(text: &str, part: Part, leiri: bool, options: &LintOptions, raw: &mut Findings) {
    let Part { component, range } = part;
    let piece = &text[range.clone()];
    let in_query = component == Component::Query;
    for (i, c) in piece.char_indices() {
        if let Some(code) = character_code(c, leiri, in_query) {
            raw.add(code, range.start + i, component, range.clone(), Some(c));
        }
    }
    if options.check_percent_encoded {
        for (r, c) in bidi::percent_decoded(piece) {
            if chars::is_formatting_character(c) {
                let at = range.start + r.start;
                raw.add(
                    "bidi-formatting-character-encoded",
                    at,
                    component,
                    range.clone(),
                    Some(c),
                );
            }
        }
    }
    for issue in bidi::check_component(piece) {
        let code = match issue.kind {
            BidiIssueKind::Mixed => "bidi-mixed-direction",
            BidiIssueKind::StartNotRtl | BidiIssueKind::EndNotRtl => "bidi-component-edge",
        };
        let offset = range.start + issue.offset;
        raw.add(
            code,
            offset,
            component,
            range.clone(),
            text[offset..].chars().next(),
        );
    }
    if let Some(i) = first_not_nfc(piece) {
        let c = piece[i..].chars().next();
        raw.add("not-nfc", range.start + i, component, range.clone(), c);
    }
    if let Some(i) = mixed_script_at(piece) {
        let c = piece[i..].chars().next();
        raw.add("mixed-script", range.start + i, component, range.clone(), c);
    }
}

/// Parses `text` in the grammar `variant` names and lints it: for callers that
/// choose the grammar at run time (the `iri` command line).
///
/// ```
/// use iri_grammar::{lint::{lint_text, LintOptions}, VariantName};
/// let found = lint_text(VariantName::Leiri, "a b", &LintOptions::default()).unwrap();
/// assert_eq!(found[0].code(), "leiri-space");
/// assert!(lint_text(VariantName::Iri, "a b", &LintOptions::default()).is_err());
/// ```
pub fn lint_text(
    variant: VariantName,
    text: &str,
    options: &LintOptions,
) -> Result<Vec<Finding>, MatchError> {
    // The 2001 draft has no typed references and no prose rules this crate checks
    // (its one MUST NOT on characters, §3.1, is in the grammar's `ichar`): the text
    // is checked against its grammar, and a match has no findings.
    let draft = || {
        crate::grammar::check::<crate::grammar::Iri2001>(
            crate::grammar::Rule::Iri2001IriReference,
            text,
        )
        .map(|()| Vec::new())
    };
    crate::with_variant!(variant, V => Ok(lint(&Reference::<V>::parse(text)?, options)),
        Iri2001 => draft())
}

/// Whether any finding is an error (the `iri lint` exit status).
///
/// ```
/// use iri_grammar::{lint::{has_errors, lint_text, LintOptions}, VariantName};
/// let o = LintOptions::default();
/// assert!(has_errors(&lint_text(VariantName::Iri, "a/\u{200F}", &o).unwrap()));
/// assert!(!has_errors(&lint_text(VariantName::Iri, "HTTP://a", &o).unwrap()));
/// ```
pub fn has_errors(findings: &[Finding]) -> bool {
    findings.iter().any(|f| f.severity() == Severity::Error)
}

/// The catalogue as text for `iri lint --list`: one entry a line, `code`,
/// `severity`, citation and message in columns.
///
/// ```
/// let text = iri_grammar::lint::catalogue_text();
/// assert_eq!(text.lines().count(), iri_grammar::lint::CATALOGUE.len());
/// assert!(text.lines().next().unwrap().starts_with("bidi-formatting-character "));
/// ```
pub fn catalogue_text() -> String {
    let code_w = CATALOGUE.iter().map(|e| e.code.len()).max().unwrap_or(0);
    let cite_w = CATALOGUE
        .iter()
        .map(|e| e.citation().chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for e in CATALOGUE {
        let cite = e.citation();
        let pad = cite_w - cite.chars().count();
        out.push_str(&format!(
            "{:code_w$}  {:7}  {cite}{:pad$}  {}\n",
            e.code,
            e.severity.as_str(),
            "",
            e.message
        ));
    }
    out
}

/// The character-level code for `c`, if any: the first that applies in catalogue
/// order.
fn character_code(c: char, leiri: bool, in_query: bool) -> Option<&'static str> {
    if chars::is_formatting_character(c) {
        return Some(if leiri {
            "leiri-bidi-formatting"
        } else {
            "bidi-formatting-character"
        });
    }
    if chars::is_later_control(c) {
        return Some("bidi-control-character");
    }
    if leiri {
        if let Some(code) = leiri_group(c, in_query) {
            return Some(code);
        }
    }
    if c.is_ascii() {
        None
    } else if is_lookalike(c) {
        Some("lookalike-delimiter")
    } else if is_fullwidth_or_halfwidth(c) {
        Some("fullwidth-halfwidth")
    } else if is_compatibility(c) {
        Some("compatibility-character")
    } else {
        None
    }
}

/// The LEIRI note's group of `c` (characters allowed in LEIRIs but not in IRIs);
/// private use characters count only outside the query, where IRIs have them too.
fn leiri_group(c: char, in_query: bool) -> Option<&'static str> {
    let code = match c {
        ' ' => "leiri-space",
        '<' | '>' | '"' => "leiri-delimiter",
        '{' | '}' | '|' | '\\' | '^' | '`' => "leiri-unwise",
        '\0'..='\u{1F}' | '\u{7F}'..='\u{9F}' => "leiri-control",
        '\u{FFF0}'..='\u{FFFD}' => "leiri-special",
        '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..='\u{FFFFD}' | '\u{100000}'..='\u{10FFFD}'
            if !in_query =>
        {
            "leiri-private-use"
        }
        '\u{E0000}'..='\u{E0FFF}' => "leiri-tag",
        '\u{FDD0}'..='\u{FDEF}' => "leiri-non-character",
        _ if c as u32 & 0xFFFE == 0xFFFE => "leiri-non-character",
        _ => return None,
    };
    Some(code)
}

/// The characters RFC 3987 §6.1 calls "space", "delims" and "unwise" (RFC 2396's
/// names), with the reserved characters (look-alikes of `/`, `.`, `:`, `@` are the
/// ones that spoof structure).
const STRUCTURAL: &str = " <>#%\"{}|\\^[]`:/?@!$&'()*+,;=.";

/// Look-alikes of structural characters that no compatibility mapping reveals
/// (from Unicode's confusables): slashes, full stops, colons, invisible spaces.
const LOOKALIKES: &[char] = &[
    '\u{02D0}', // MODIFIER LETTER TRIANGULAR COLON
    '\u{0589}', // ARMENIAN FULL STOP
    '\u{05C3}', // HEBREW PUNCTUATION SOF PASUQ
    '\u{200B}', // ZERO WIDTH SPACE
    '\u{2044}', // FRACTION SLASH
    '\u{2060}', // WORD JOINER
    '\u{2215}', // DIVISION SLASH
    '\u{2216}', // SET MINUS
    '\u{2236}', // RATIO
    '\u{29F5}', // REVERSE SOLIDUS OPERATOR
    '\u{29F8}', // BIG SOLIDUS
    '\u{29F9}', // BIG REVERSE SOLIDUS
    '\u{3002}', // IDEOGRAPHIC FULL STOP
    '\u{A789}', // MODIFIER LETTER COLON
    '\u{FEFF}', // ZERO WIDTH NO-BREAK SPACE
    '\u{FF61}', // HALFWIDTH IDEOGRAPHIC FULL STOP
];

/// RFC 3987 §6.1 b: a non-ASCII look-alike of a space or a delimiter: a Unicode
/// `White_Space` character, one whose NFKC form holds a structural character
/// (U+FF0F FULLWIDTH SOLIDUS, U+2024 ONE DOT LEADER, U+2100 ACCOUNT OF), or one of
/// [`LOOKALIKES`].
fn is_lookalike(c: char) -> bool {
    c.is_whitespace()
        || LOOKALIKES.contains(&c)
        || core::iter::once(c).nfkc().any(|d| STRUCTURAL.contains(d))
}

/// RFC 3987 §6.1 b: a full-width or half-width form (block U+FF00-FFEF, the
/// characters with a compatibility mapping).
fn is_fullwidth_or_halfwidth(c: char) -> bool {
    matches!(c, '\u{FF01}'..='\u{FFEE}') && is_compatibility(c)
}

/// RFC 3987 §7.5: a compatibility character: NFKC changes it beyond what NFC does.
fn is_compatibility(c: char) -> bool {
    !core::iter::once(c).nfkc().eq(core::iter::once(c).nfc())
}

/// Byte offset of the first run of characters that NFC would change: a run starts
/// at a character with combining class 0 that cannot compose with the character
/// before it (NFC_Quick_Check Yes or No, not Maybe) and holds the characters after
/// it that can.
fn first_not_nfc(s: &str) -> Option<usize> {
    if is_nfc_quick(s.chars()) == IsNormalized::Yes || is_nfc(s) {
        return None;
    }
    let boundary = |c: char| {
        unicode_normalization::char::canonical_combining_class(c) == 0
            && is_nfc_quick(core::iter::once(c)) != IsNormalized::Maybe
    };
    let mut start = 0;
    for (i, c) in s.char_indices().skip(1) {
        if boundary(c) {
            if !is_nfc(&s[start..i]) {
                return Some(start);
            }
            start = i;
        }
    }
    Some(start).filter(|&st| !is_nfc(&s[st..])).or(Some(0))
}

/// Byte offset of the first character whose script no earlier character of `s`
/// shares (RFC 3987 §7.5), following UTS #39's single-script test: Common and
/// Inherited characters count for every script, Script_Extensions are used, and
/// Han goes with Hiragana and Katakana (Japanese), with Hangul (Korean) and with
/// Bopomofo (Chinese), languages that mix these scripts.
fn mixed_script_at(s: &str) -> Option<usize> {
    const JAPANESE: u8 = 1;
    const KOREAN: u8 = 2;
    const CHINESE: u8 = 4;
    let mut seen: Option<(unicode_script::ScriptExtension, u8)> = None;
    for (i, c) in s.char_indices() {
        let ext = c.script_extension();
        if ext.is_common() || ext.is_inherited() || ext.is_empty() {
            continue;
        }
        let writing = ext.iter().fold(0, |m, script| {
            m | match script {
                Script::Han => JAPANESE | KOREAN | CHINESE,
                Script::Hiragana | Script::Katakana => JAPANESE,
                Script::Hangul => KOREAN,
                Script::Bopomofo => CHINESE,
                _ => 0,
            }
        });
        match &mut seen {
            None => seen = Some((ext, writing)),
            Some((scripts, systems)) => {
                let (both, common) = (scripts.intersection(ext), *systems & writing);
                if both.is_empty() && common == 0 {
                    return Some(i);
                }
                *scripts = both;
                *systems = common;
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_kebab_case() {
        for (i, e) in CATALOGUE.iter().enumerate() {
            assert_eq!(index_of(e.code), i, "{} twice", e.code);
            assert!(e.code.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
            assert!(!e.message.contains('\n'));
        }
    }

    #[test]
    fn not_nfc_points_at_the_run() {
        assert_eq!(first_not_nfc("abe\u{301}"), Some(2));
        assert_eq!(first_not_nfc("ab\u{00E9}"), None);
        assert_eq!(first_not_nfc("a\u{212B}"), Some(1)); // ANGSTROM SIGN
    }

    #[test]
    fn japanese_is_one_writing_system() {
        assert_eq!(mixed_script_at("日本語テキストです"), None);
        assert_eq!(mixed_script_at("한국어漢字"), None);
        assert_eq!(mixed_script_at("ひらがなハングル한"), Some(24));
        assert_eq!(mixed_script_at("paypаl"), Some(4)); // Cyrillic а
    }
}
