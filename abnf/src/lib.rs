//! The ABNF model (RFC 5234): rules as data, read from the text in `grammar/`.
//!
//! This module is the bottom of the chain: it knows nothing about URIs. The
//! [`reader`] turns ABNF text into a [`RuleList`]; [`codegen`] turns the rule
//! table into the nom combinators of `src/grammar/generated.rs`; [`oracle`]
//! interprets the table directly, with the true ABNF semantics, as a reference
//! for the generated code. For people learning the grammars, [`analysis`] computes
//! FIRST sets and who uses whom, and [`railroad`] draws each rule as a railroad
//! diagram with terminals [`label`]led as the characters they stand for.
//!
//! Two default features can be turned off by a program that only reads grammars,
//! interprets them and draws strings from them (the Python package's `generate`):
//! `codegen` ([`codegen`] and [`automaton`], with regex-automata and regex-syntax)
//! and `railroad` ([`railroad`]).

pub mod analysis;
#[cfg(feature = "codegen")]
pub mod automaton;
#[cfg(feature = "codegen")]
pub mod codegen;
pub mod counterexamples;
pub mod diff;
pub mod documents;
pub mod explain;
pub mod generate;
pub mod grammar;
pub mod history;
pub mod label;
pub mod oracle;
#[cfg(feature = "railroad")]
pub mod railroad;
pub mod reader;
pub mod shrink;

use std::fmt;

pub use grammar::{Grammar, GrammarError};
pub use iri_grammar_contract::VariantName;
pub use reader::{read, ReadError};

/// The name a grammar gives to a rule of RFC 3987, by RFC 3987's naming convention
/// (§2.2): in a name containing "IRI", "IRI" becomes "URI" in RFC 3986 and "LEIRI" in
/// the LEIRI note; any other name loses its "i" prefix in RFC 3986 and stays in the
/// note. (The 2001 draft's grammar has rules of its own, not RFC 3987's renamed: the
/// name is returned unchanged.)
///
/// ```
/// use iri_grammar_abnf::{name_in, VariantName};
/// assert_eq!(name_in("ipath-abempty", VariantName::Uri), "path-abempty");
/// assert_eq!(name_in("IRI-reference", VariantName::Uri), "URI-reference");
/// assert_eq!(name_in("IRI-reference", VariantName::Leiri), "LEIRI-reference");
/// assert_eq!(name_in("ucschar", VariantName::Leiri), "ucschar");
/// ```
pub fn name_in(iri_name: &str, variant: VariantName) -> String {
    match variant {
        VariantName::Uri if iri_name.contains("IRI") => iri_name.replace("IRI", "URI"),
        VariantName::Uri => iri_name.strip_prefix('i').unwrap_or(iri_name).to_string(),
        VariantName::Iri => iri_name.to_string(),
        VariantName::Leiri if iri_name.contains("IRI") => iri_name.replace("IRI", "LEIRI"),
        VariantName::Leiri => iri_name.to_string(),
        // The 2001 draft is no renaming of RFC 3987: its rules are its own
        // (`Grammars::draft2001`), and a name is kept as it is.
        VariantName::Iri2001 => iri_name.to_string(),
    }
}

/// The RFC 3987 name of a name of the LEIRI note (`LEIRI-reference` →
/// `IRI-reference`, case-insensitive); the inverse of [`name_in`] for LEIRIs.
///
/// ```
/// assert_eq!(iri_grammar_abnf::leiri_to_iri_name("leiri-reference"), "iri-reference");
/// assert_eq!(iri_grammar_abnf::leiri_to_iri_name("ucschar"), "ucschar");
/// ```
pub fn leiri_to_iri_name(name: &str) -> String {
    match name.to_ascii_lowercase().find("leiri") {
        Some(k) => format!("{}{}", &name[..k], &name[k + 2..]),
        None => name.to_string(),
    }
}

/// One element of an ABNF definition (RFC 5234 §2.3, §3, §4).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// `a / b / c`: matches if any alternative matches (§3.2). Unordered.
    Alternation(Vec<Element>),
    /// `a b c`: each element in turn (§3.1).
    Concatenation(Vec<Element>),
    /// `n*m element` (§3.6, §3.7); `[ x ]` (§3.8) is read as `0*1 x` but remembered
    /// as an option so that the generated code can say `[ ]`.
    Repetition {
        /// At least this many.
        min: u32,
        /// At most this many (`None`: no upper bound).
        max: Option<u32>,
        /// What is repeated.
        element: Box<Element>,
        /// Written as `[ ... ]` in the source.
        optional_syntax: bool,
    },
    /// A reference to another rule by name (names are case-insensitive, §2.1).
    Rule(String),
    /// `"abc"`: a literal string, case-insensitive unless written `%s"abc"` (§2.3, RFC 7405).
    CharVal {
        /// The characters between the quotes.
        text: String,
        /// True for `%s"..."`.
        case_sensitive: bool,
    },
    /// `%x41-5A`: one character in a range of code points (§3.4).
    Range(u32, u32),
    /// `%x0D.0A` or `%x41`: a fixed sequence of code points (§2.3).
    Sequence(Vec<u32>),
    /// `<prose>`: text the grammar cannot express (§4); matched by nothing.
    /// `0<pchar>` (RFC 3986's `path-empty`) is a repetition of zero of it: the empty string.
    Prose(String),
}

/// Where a rule was read from: file, document, section and line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// The file name under `grammar/`, e.g. `rfc3986.abnf`.
    pub file: String,
    /// The document the file transcribes, e.g. `RFC 3986`.
    pub document: String,
    /// The section that defines the rule (from the `;@ section` line before it).
    pub section: Option<String>,
    /// The 1-based line where the rule starts in the file.
    pub line: usize,
    /// Where a file that is not one of `grammar/` was read from (a [`Grammar`]'s).
    pub path: Option<String>,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.section {
            Some(s) if s.chars().next().is_some_and(|c| c.is_ascii_digit()) => {
                write!(f, "{} §{}", self.document, s)?
            }
            Some(s) => write!(f, "{} {}", self.document, s)?,
            None => write!(f, "{}", self.document)?,
        }
        match &self.path {
            Some(path) => write!(f, " ({path} line {})", self.line),
            None => write!(f, " (grammar/{} line {})", self.file, self.line),
        }
    }
}

/// A rule definition as read from a grammar file: its name, its definition and the
/// text it was read from (the runtime's `iri_grammar::Rule` is the generated enum).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleDef {
    /// The name as written at the definition, e.g. `ipath-abempty`.
    pub name: String,
    /// The definition (incremental `=/` alternatives already merged).
    pub definition: Element,
    /// The ABNF text of the definition, exactly as in the file (with comments).
    pub text: String,
    /// Where it comes from.
    pub source: Source,
}

impl RuleDef {
    /// The definition that error messages show beside the rule's name, when it is an
    /// alternation of rule names and quoted strings (`ipchar`'s): the generated
    /// `Rule::short_definition` and the oracle's explanations both read it here.
    pub fn short_definition(&self) -> Option<String> {
        match &self.definition {
            Element::Alternation(alts)
                if alts
                    .iter()
                    .all(|a| matches!(a, Element::Rule(_) | Element::CharVal { .. })) =>
            {
                Some(self.definition.to_string())
            }
            _ => None,
        }
    }
}

/// The rules of one grammar file, in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleList {
    /// The file name, e.g. `rfc3987.abnf`.
    pub file: String,
    /// The document the file transcribes (from its first comment line).
    pub document: String,
    /// The rules, in the order of the file.
    pub rules: Vec<RuleDef>,
}

impl RuleList {
    /// The rule named `name` (ABNF rule names are case-insensitive).
    pub fn get(&self, name: &str) -> Option<&RuleDef> {
        self.rules
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }
}

/// The grammar files, compiled into the crate so that the rule table is always
/// the one the combinators were generated from.
pub mod files {
    /// `grammar/core.abnf`: the RFC 5234 core rules used.
    pub const CORE: &str = include_str!("../grammar/core.abnf");
    /// `grammar/rfc3986.abnf`: RFC 3986 Appendix A.
    pub const RFC3986: &str = include_str!("../grammar/rfc3986.abnf");
    /// `grammar/rfc3987.abnf`: RFC 3987 §2.2.
    pub const RFC3987: &str = include_str!("../grammar/rfc3987.abnf");
    /// `grammar/leiri.abnf`: the LEIRI note §2 (`ucschar`).
    pub const LEIRI: &str = include_str!("../grammar/leiri.abnf");
    /// `grammar/draft-masinter-url-i18n-07.abnf`: the 2001 IRI draft §2.2, with the
    /// RFC 2396 / RFC 2732 rules it reprints, in RFC 2396's notation.
    pub const DRAFT2001: &str = include_str!("../grammar/draft-masinter-url-i18n-07.abnf");

    /// All files as (file name, text), in the order the grammars are layered (the
    /// 2001 draft's last: it layers on core.abnf only).
    pub const ALL: [(&str, &str); 5] = [
        ("core.abnf", CORE),
        ("rfc3986.abnf", RFC3986),
        ("rfc3987.abnf", RFC3987),
        ("leiri.abnf", LEIRI),
        ("draft-masinter-url-i18n-07.abnf", DRAFT2001),
    ];
}

/// The grammar files, read.
#[derive(Debug, Clone)]
pub struct Grammars {
    /// RFC 5234 Appendix B.1.
    pub core: RuleList,
    /// RFC 3986 Appendix A.
    pub rfc3986: RuleList,
    /// RFC 3987 §2.2.
    pub rfc3987: RuleList,
    /// LEIRI note §2.
    pub leiri: RuleList,
    /// The 2001 IRI draft §2.2 (draft-masinter-url-i18n-07), on RFC 2396 and RFC 2732.
    pub draft2001: RuleList,
}

impl Grammars {
    /// Reads the grammar files compiled into the crate.
    ///
    /// # Panics
    /// Only if the files shipped with the crate are not valid ABNF, which a test rules out.
    pub fn builtin() -> Grammars {
        let r = |name: &str, text: &str| {
            read(name, text).unwrap_or_else(|e| panic!("grammar/{name}: {e}"))
        };
        Grammars {
            core: r("core.abnf", files::CORE),
            rfc3986: r("rfc3986.abnf", files::RFC3986),
            rfc3987: r("rfc3987.abnf", files::RFC3987),
            leiri: r("leiri.abnf", files::LEIRI),
            draft2001: r("draft-masinter-url-i18n-07.abnf", files::DRAFT2001),
        }
    }

    /// The rule table of one grammar as its document defines it, by the
    /// documents' own layering:
    /// - `Uri`: core + RFC 3986;
    /// - `Iri`: core + RFC 3986 + RFC 3987 (a rule of RFC 3987 replaces none of
    ///   RFC 3986's: the names differ, so the RFC 3986 rules stay reachable by name);
    /// - `Leiri`: as `Iri`, with `leiri.abnf`'s rules replacing those of the same name.
    /// - `Iri2001`: core + the 2001 draft (whose `alpha` and `digit`, RFC 2396's,
    ///   replace the core rules of the same case-insensitive names).
    pub fn table(&self, variant: VariantName) -> Vec<&RuleDef> {
        let mut out: Vec<&RuleDef> = Vec::new();
        let layers = match variant {
            VariantName::Uri => vec![&self.core, &self.rfc3986],
            VariantName::Iri => vec![&self.core, &self.rfc3986, &self.rfc3987],
            VariantName::Leiri => vec![&self.core, &self.rfc3986, &self.rfc3987, &self.leiri],
            VariantName::Iri2001 => vec![&self.core, &self.draft2001],
        };
        for layer in layers {
            for rule in &layer.rules {
                match out
                    .iter_mut()
                    .find(|r| r.name.eq_ignore_ascii_case(&rule.name))
                {
                    Some(slot) => *slot = rule,
                    None => out.push(rule),
                }
            }
        }
        out
    }
}

impl Element {
    /// Calls `f` with the name of each rule the element refers to, in order.
    ///
    /// ```
    /// let rules = iri_grammar_abnf::read("x.abnf", "a = b *( c / \"d\" )\n").unwrap();
    /// let mut names = Vec::new();
    /// rules.rules[0].definition.rule_refs(&mut |n| names.push(n.to_string()));
    /// assert_eq!(names, ["b", "c"]);
    /// ```
    pub fn rule_refs<'e>(&'e self, f: &mut dyn FnMut(&'e str)) {
        match self {
            Element::Rule(n) => f(n),
            Element::Alternation(v) | Element::Concatenation(v) => {
                v.iter().for_each(|x| x.rule_refs(f))
            }
            Element::Repetition { element, .. } => element.rule_refs(f),
            _ => {}
        }
    }
}

impl fmt::Display for Element {
    /// Writes the element back as ABNF (normalized spacing, `%x` in upper case),
    /// with parentheses only where ABNF needs them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_in(self, f, &Ctx::Top)
    }
}

/// Where an element is written: what decides whether it needs parentheses.
#[derive(PartialEq)]
enum Ctx {
    Top,
    InAlternation,
    InConcatenation,
    InRepetition,
}

/// Elements separated by `sep`, in parentheses if `parens`.
fn list(
    items: &[Element],
    sep: &str,
    inner: Ctx,
    parens: bool,
    f: &mut fmt::Formatter<'_>,
) -> fmt::Result {
    if parens {
        write!(f, "( ")?;
    }
    for (k, a) in items.iter().enumerate() {
        if k > 0 {
            write!(f, "{sep}")?;
        }
        write_in(a, f, &inner)?;
    }
    if parens {
        write!(f, " )")?;
    }
    Ok(())
}

/// One element in context `ctx`.
fn write_in(e: &Element, f: &mut fmt::Formatter<'_>, ctx: &Ctx) -> fmt::Result {
    match e {
        Element::Alternation(alts) => list(
            alts,
            " / ",
            Ctx::InAlternation,
            matches!(ctx, Ctx::InConcatenation | Ctx::InRepetition),
            f,
        ),
        Element::Concatenation(items) => list(
            items,
            " ",
            Ctx::InConcatenation,
            *ctx == Ctx::InRepetition,
            f,
        ),
        Element::Repetition {
            min,
            max,
            element,
            optional_syntax,
        } => {
            if *optional_syntax {
                write!(f, "[ ")?;
                write_in(element, f, &Ctx::Top)?;
                return write!(f, " ]");
            }
            match (min, max) {
                (n, Some(m)) if n == m => write!(f, "{n}")?,
                (0, None) => write!(f, "*")?,
                (n, None) => write!(f, "{n}*")?,
                (0, Some(m)) => write!(f, "*{m}")?,
                (n, Some(m)) => write!(f, "{n}*{m}")?,
            }
            write_in(element, f, &Ctx::InRepetition)
        }
        Element::Rule(name) => write!(f, "{name}"),
        Element::CharVal {
            text,
            case_sensitive,
        } => {
            if *case_sensitive {
                write!(f, "%s")?;
            }
            write!(f, "\"{text}\"")
        }
        Element::Range(lo, hi) => write!(f, "%x{lo:X}-{hi:X}"),
        Element::Sequence(cs) => {
            write!(f, "%x")?;
            for (k, c) in cs.iter().enumerate() {
                if k > 0 {
                    write!(f, ".")?;
                }
                write!(f, "{c:X}")?;
            }
            Ok(())
        }
        Element::Prose(p) => write!(f, "<{p}>"),
    }
}
