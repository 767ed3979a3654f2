//! Any grammar: ABNF files (RFC 5234 with RFC 7405's `%s` and `%i`, or a declared
//! dialect, see [`crate::model::reader`]) read into one rule table, which the oracle, the
//! string generator, the analyses and the code generator ([`crate::codegen::standalone`])
//! take as they take the built-in grammars.
//!
//! Files are layered in order, as the built-in grammars are (RFC 3987 on RFC 3986, the
//! LEIRI note on RFC 3987): a rule of a later file replaces a rule of the same
//! (case-insensitive) name of an earlier one; `=/` adds alternatives within a file.
//! The core rules of RFC 5234 Appendix B.1 (`ALPHA`, `DIGIT`, `HEXDIG`, `SP`, `CRLF`,
//! ...) are there when a file refers to them and does not define them.
//!
//! ```
//! use iri_grammar_abnf::{strings::generate::Generator, oracle::Oracle, Grammar};
//! let g = Grammar::from_abnf(&[(
//!     "version.abnf",
//!     "version = 1*DIGIT \".\" 1*DIGIT [ \"-\" 1*ALPHA ]\n",
//! )])
//! .unwrap();
//! let oracle = Oracle::of(&g);
//! assert!(oracle.matches("version", "1.25-beta").unwrap());
//! assert!(!oracle.matches("version", "1.").unwrap());
//! let s = Generator::of(&g, 7).generate("version").unwrap();
//! assert!(oracle.matches("version", &s).unwrap());
//! ```

use super::table::Table;
use crate::{read, Element, ReadError, RuleDef, RuleList};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::path::Path;

/// RFC 5234 Appendix B.1, complete.
pub const RFC5234_CORE: &str = include_str!("rfc5234-core.abnf");

/// Why a grammar could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GrammarError {
    /// A file could not be read.
    Io {
        /// The path.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// A file is not ABNF (where, and what was expected).
    Read(ReadError),
    /// No file, or no rule in any file.
    NoRules,
}

/// The longest grammar file read: 16 MiB, some thirty times the largest grammar
/// the project tests (32,000 rules), so that a file of any size (or `/dev/zero`)
/// given to `--abnf` is refused rather than held whole.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// A file's text, read up to [`MAX_FILE_BYTES`]: the message of why it cannot be.
fn read_bounded(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "longer than {MAX_FILE_BYTES} bytes, the longest grammar file read"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })
}

impl fmt::Display for GrammarError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GrammarError::Io { path, message } => write!(f, "{path}: {message}"),
            GrammarError::Read(e) => e.fmt(f),
            GrammarError::NoRules => f.write_str("the grammar has no rules"),
        }
    }
}

impl std::error::Error for GrammarError {}

impl From<ReadError> for GrammarError {
    fn from(e: ReadError) -> Self {
        GrammarError::Read(e)
    }
}

/// A grammar read from ABNF text: its rules, layered, with the core rules it uses.
#[derive(Debug, Clone)]
pub struct Grammar {
    name: String,
    rules: Vec<RuleDef>,
    /// Lower-cased name → index in `rules` (names are case-insensitive, RFC 5234
    /// §2.1): every look-up by name in constant time, so that layering, the core
    /// rules and [`Grammar::undefined`] are linear in the number of rules.
    index: HashMap<String, usize>,
}

impl Grammar {
    /// Reads ABNF texts, each given with the file name that its rules' sources and
    /// errors show.
    ///
    /// # Errors
    /// [`GrammarError::Read`] for text that is not ABNF, [`GrammarError::NoRules`] if
    /// there is no rule at all.
    pub fn from_abnf(files: &[(&str, &str)]) -> Result<Grammar, GrammarError> {
        let mut lists = files
            .iter()
            .map(|(name, text)| read(name, text))
            .collect::<Result<Vec<RuleList>, ReadError>>()?;
        for list in &mut lists {
            for r in &mut list.rules {
                r.source.path = Some(list.file.clone());
            }
        }
        Grammar::layered(lists)
    }

    /// Reads ABNF files; rules show the paths as given.
    ///
    /// # Errors
    /// [`GrammarError::Io`] for a file that cannot be read (or is not UTF-8, or is
    /// longer than [`MAX_FILE_BYTES`], which is read no further), and as
    /// [`Grammar::from_abnf`].
    pub fn read_files<P: AsRef<Path>>(paths: &[P]) -> Result<Grammar, GrammarError> {
        let mut lists = Vec::new();
        for p in paths {
            let p = p.as_ref();
            let shown = p.display().to_string();
            let text = read_bounded(p).map_err(|message| GrammarError::Io {
                path: shown.clone(),
                message,
            })?;
            let file = p
                .file_name()
                .map_or(shown.clone(), |f| f.to_string_lossy().into_owned());
            let mut list = read(&file, &text).map_err(|mut e| {
                e.file = shown.clone();
                e
            })?;
            for r in &mut list.rules {
                r.source.path = Some(shown.clone());
            }
            lists.push(list);
        }
        Grammar::layered(lists)
    }

    fn layered(lists: Vec<RuleList>) -> Result<Grammar, GrammarError> {
        let name = lists
            .iter()
            .map(|l| l.file.as_str())
            .collect::<Vec<_>>()
            .join("+");
        let mut rules: Vec<RuleDef> = Vec::new();
        let mut index: HashMap<String, usize> = HashMap::new();
        for list in lists {
            for rule in list.rules {
                match index.entry(rule.name.to_ascii_lowercase()) {
                    Entry::Occupied(slot) => rules[*slot.get()] = rule,
                    Entry::Vacant(slot) => {
                        slot.insert(rules.len());
                        rules.push(rule);
                    }
                }
            }
        }
        if rules.is_empty() {
            return Err(GrammarError::NoRules);
        }
        // The core rules referred to and not defined, and those they use.
        let core = read("rfc5234-core.abnf", RFC5234_CORE).expect("RFC 5234 B.1 reads");
        let mut k = 0;
        while k < rules.len() {
            let mut refs = Vec::new();
            rules[k]
                .definition
                .rule_refs(&mut |n| refs.push(n.to_ascii_lowercase()));
            for n in refs {
                if let (Entry::Vacant(slot), Some(c)) = (index.entry(n.clone()), core.get(&n)) {
                    slot.insert(rules.len());
                    rules.push(c.clone());
                }
            }
            k += 1;
        }
        Ok(Grammar { name, rules, index })
    }

    /// The grammar's name: its file names, joined with `+`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rules: the files' (layered), then the core rules they use.
    pub fn rules(&self) -> &[RuleDef] {
        &self.rules
    }

    /// The rule called `name` (case-insensitive).
    pub fn rule(&self, name: &str) -> Option<&RuleDef> {
        self.index
            .get(&name.to_ascii_lowercase())
            .map(|&k| &self.rules[k])
    }

    /// The names rules refer to that neither the files nor RFC 5234's core rules
    /// define, each once, in order of first mention. A rule that reaches one matches
    /// nothing the oracle can judge: it answers with [`crate::model::UnknownRule`].
    ///
    /// ```
    /// let g = iri_grammar_abnf::Grammar::from_abnf(&[("a.abnf", "a = b DIGIT c\nc = d\n")]).unwrap();
    /// assert_eq!(g.undefined(), ["b", "d"]);
    /// ```
    pub fn undefined(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut seen: HashSet<String> = HashSet::new();
        for r in &self.rules {
            r.definition.rule_refs(&mut |n| {
                let key = n.to_ascii_lowercase();
                if !self.index.contains_key(&key) && seen.insert(key) {
                    out.push(n.to_string());
                }
            });
        }
        out
    }

    /// Whether a rule's definition contains prose (`<...>`), which matches nothing.
    pub fn has_prose(&self, name: &str) -> bool {
        fn prose(e: &Element) -> bool {
            match e {
                Element::Prose(_) => true,
                Element::Alternation(v) | Element::Concatenation(v) => v.iter().any(prose),
                Element::Repetition { element, .. } => prose(element),
                _ => false,
            }
        }
        self.rule(name).is_some_and(|r| prose(&r.definition))
    }

    pub(crate) fn table(&self) -> Table<'_> {
        Table::of(self.rules.iter().collect(), None, self.name.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::oracle::Oracle;

    #[test]
    fn files_layer_and_core_rules_come_when_used() {
        let g = Grammar::from_abnf(&[
            ("base.abnf", "greeting = word SP word\nword = 1*ALPHA\n"),
            ("more.abnf", "word = 1*( ALPHA / DIGIT )\n"),
        ])
        .unwrap();
        assert_eq!(g.name(), "base.abnf+more.abnf");
        let names: Vec<&str> = g.rules().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["greeting", "word", "SP", "ALPHA", "DIGIT"]);
        assert_eq!(g.rule("word").unwrap().source.file, "more.abnf");
        let o = Oracle::of(&g);
        assert!(o.matches("greeting", "hello w0rld").unwrap());
        assert!(o.matches("GREETING", "a b").unwrap());
        let e = o.matches("nope", "").unwrap_err();
        assert_eq!(
            e.to_string(),
            "no rule named \"nope\" in the base.abnf+more.abnf grammar"
        );
    }

    #[test]
    fn errors() {
        let e = Grammar::from_abnf(&[("x.abnf", "a = (\n")]).unwrap_err();
        assert!(matches!(e, GrammarError::Read(_)), "{e}");
        assert_eq!(Grammar::from_abnf(&[]).unwrap_err(), GrammarError::NoRules);
        let e = Grammar::read_files(&["/no/such/file.abnf"]).unwrap_err();
        assert!(e.to_string().starts_with("/no/such/file.abnf: "), "{e}");
    }
}
