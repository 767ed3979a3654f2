//! The ABNF model (RFC 5234): rules as data. [`reader`] reads ABNF text into a
//! [`RuleList`]; [`builtin`] holds the grammar files of `grammar/` and layers them
//! into each grammar's rule table; [`grammar`] reads a user's files into a
//! [`Grammar`](grammar::Grammar). The compiled table (`table`), with names resolved
//! to indices, is what the oracle, the string generator and the analyses walk.

pub mod builtin;
pub mod grammar;
pub mod reader;
pub(crate) mod table;

pub use table::UnknownRule;

use std::fmt;

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
    /// Where a file that is not one of `grammar/` was read from (a [`Grammar`](grammar::Grammar)'s).
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
