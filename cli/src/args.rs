//! The command line's arguments (the contract is in the README, "The `iri` command").

use clap::{Parser, Subcommand, ValueEnum};
use iri_grammar::normalize::{CharNorm, Level};
use iri_grammar::VariantName;
use std::path::PathBuf;

#[derive(Parser, Debug)]
#[command(
    name = "iri",
    version,
    about = "The ABNF of RFC 3986 (URI), RFC 3987 (IRI) and LEIRI, executable",
    after_help = "With no INPUT, inputs are read from standard input, one per line.\n\
                  Exit status: 0 all inputs succeeded, 1 some did not, 2 usage error,\n\
                  74 input or output error (other than a closed pipe, which ends quietly)."
)]
pub struct Cli {
    /// The grammar of the input.
    #[arg(long, value_enum, default_value_t = GrammarArg::Iri, global = true)]
    pub grammar: GrammarArg,
    /// One JSON object per input (JSON Lines).
    #[arg(long, global = true)]
    pub json: bool,
    /// A grammar of your own instead of the built-in ones: ABNF files (RFC 5234 with
    /// RFC 7405's %s and %i; RFC 5234's core rules are there when used), read in
    /// order, a later file's rule replacing an earlier one's. Serves check, tree,
    /// generate and grammar through the oracle; --rule names the rule. grammar --rust
    /// prints the nom parsers of the standalone code generator, or why it refuses.
    #[arg(long, global = true, value_name = "FILE", conflicts_with = "grammar")]
    pub abnf: Vec<PathBuf>,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum GrammarArg {
    /// RFC 3986.
    Uri,
    /// RFC 3987.
    Iri,
    /// The W3C LEIRI note.
    Leiri,
    /// The 2001 IRI draft (draft-masinter-url-i18n-07): rules only, no references.
    #[value(name = "iri-2001")]
    Iri2001,
}

impl GrammarArg {
    pub fn variant(self) -> VariantName {
        match self {
            GrammarArg::Uri => VariantName::Uri,
            GrammarArg::Iri => VariantName::Iri,
            GrammarArg::Leiri => VariantName::Leiri,
            GrammarArg::Iri2001 => VariantName::Iri2001,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelArg {
    /// Code point equality (RFC 3987 §5.3.1).
    Simple,
    /// Syntax-based (§5.3.2).
    Syntax,
    /// Scheme-based (§5.3.3).
    Scheme,
}

impl LevelArg {
    pub fn level(self) -> Level {
        match self {
            LevelArg::Simple => Level::Simple,
            LevelArg::Syntax => Level::Syntax,
            LevelArg::Scheme => Level::Scheme,
        }
    }
}

/// Character normalization flags, shared by `normalize` and `compare`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct CharNormArgs {
    /// Unicode NFC first (for text that came from a non-Unicode encoding).
    #[arg(long, conflicts_with = "nfkc")]
    pub nfc: bool,
    /// Unicode NFKC first (for text that came from paper).
    #[arg(long)]
    pub nfkc: bool,
}

impl CharNormArgs {
    pub fn char_norm(self) -> CharNorm {
        match (self.nfc, self.nfkc) {
            (true, _) => CharNorm::Nfc,
            (_, true) => CharNorm::Nfkc,
            _ => CharNorm::None,
        }
    }
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Dot,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Does each input match the rule? Prints `valid` or `invalid: ` and why.
    Check {
        /// The rule, in the grammar's own naming (default: URI-reference,
        /// IRI-reference or LEIRI-reference).
        #[arg(long)]
        rule: Option<String>,
        /// Answer with the ABNF oracle (an interpreter with exact ABNF semantics)
        /// instead of the generated combinators.
        #[arg(long)]
        oracle: bool,
        /// Under an invalid input's message, show the input with a caret under the
        /// character where the match failed (columns count from 1).
        #[arg(long)]
        caret: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The parse tree of each input: one rule a line, indented.
    Tree {
        /// The rule, in the grammar's own naming (default: the reference rule).
        #[arg(long)]
        rule: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Show the literals as leaves: the text of each rule that none of its
        /// children covers, so that the leaves spell the input.
        #[arg(long)]
        literals: bool,
        /// Under an invalid input's message, show the input with a caret under the
        /// character where the match failed (columns count from 1).
        #[arg(long)]
        caret: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The ABNF of a rule with its source, or the names of all rules.
    Grammar {
        /// The rule, in the grammar's own naming.
        name: Option<String>,
        /// Also print the generated combinator.
        #[arg(long)]
        rust: bool,
        /// Print the rule's railroad diagram as an SVG document instead.
        #[arg(long, requires = "name", conflicts_with_all = ["rust"])]
        svg: bool,
    },
    /// Write a static site that teaches the three grammars: one page per rule and
    /// grammar (ABNF, section, railroad diagram, FIRST set, uses and used-by, examples,
    /// near misses, generated combinator) and an index per grammar. --grammar is not
    /// used: the book has all three.
    Book {
        /// The folder to write (created if absent; existing pages are overwritten).
        #[arg(long)]
        out: PathBuf,
        /// How many examples and near misses per rule.
        #[arg(long, default_value_t = 8)]
        examples: usize,
        /// The seed of the examples: the same seed gives the same book.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// Serve a page on 127.0.0.1 to explore the grammars: type an input, choose a
    /// grammar and a rule, and see its tree as you type. Stops with Ctrl-C.
    Serve {
        /// The port on 127.0.0.1 (0: any free port; the address is printed).
        #[arg(long, default_value_t = 3986)]
        port: u16,
        /// Open the page in the default browser.
        #[arg(long)]
        open: bool,
    },
    /// The components of each input (absent ones are left out; --json: null).
    Parse {
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Resolves each reference against BASE (RFC 3986 §5.2, strict).
    Resolve {
        /// The base: an absolute IRI of the grammar.
        base: String,
        /// References (default: lines of standard input).
        references: Vec<String>,
    },
    /// The shortest reference that resolves to each TARGET against BASE.
    Relativize {
        /// The base: an absolute IRI of the grammar.
        base: String,
        /// Targets (default: lines of standard input).
        targets: Vec<String>,
    },
    /// IRI → URI (RFC 3987 §3.1); with --grammar leiri, from a LEIRI.
    ToUri {
        /// Convert non-ASCII labels of DNS hosts with ToASCII (UTS 46).
        #[arg(long)]
        idna: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// URI → IRI (RFC 3987 §3.2); with --grammar leiri, LEIRI → IRI (LEIRI note §3).
    ToIri {
        /// Convert xn-- labels of DNS hosts with ToUnicode.
        #[arg(long)]
        idna: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Prepares arbitrary strings as IRI references (IRI processing draft §4-5).
    Prepare {
        /// Several references per input, separated by spaces (printed space-separated).
        #[arg(long)]
        multi: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The normal form of each input (RFC 3987 §5.3; levels: syntax, the default, and
    /// scheme; `simple` comparison has no normal form other than the input).
    Normalize {
        /// syntax or scheme.
        #[arg(long, value_enum, default_value_t = LevelArg::Syntax)]
        level: LevelArg,
        #[command(flatten)]
        chars: CharNormArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Are A and B equivalent? Prints equivalent, different or unknown (exit 0, 1, 1).
    /// With no A and B, each line of standard input holds A TAB B.
    Compare {
        /// simple, syntax or scheme.
        #[arg(long, value_enum, default_value_t = LevelArg::Syntax)]
        level: LevelArg,
        #[command(flatten)]
        chars: CharNormArgs,
        /// Compare without fragments.
        #[arg(long)]
        ignore_fragment: bool,
        /// A and B.
        pair: Vec<String>,
    },
    /// The prose rules on top of the grammar (RFC 3987 §4, §6.1, §7.5; the LEIRI note):
    /// one finding a line, `CODE offset message`; nothing for a clean input. Exit 1 if
    /// any finding is an error.
    Lint {
        /// Print each input's display form for a bidi context (RFC 3987 §4.1, §7.6).
        #[arg(long)]
        display: bool,
        /// Print the catalogue of findings.
        #[arg(long)]
        list: bool,
        /// Also look inside percent-encodings for bidi formatting characters.
        #[arg(long)]
        percent_encoded: bool,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Strings that match a rule, generated from the grammar (text output leaves out
    /// strings with line breaks, which LEIRIs may contain; --json keeps them).
    Generate {
        /// The rule, in the grammar's own naming.
        #[arg(long)]
        rule: String,
        /// How many strings.
        #[arg(short = 'n', default_value_t = 10)]
        n: u64,
        /// The seed: the same seed gives the same strings.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// How two grammars differ, shown by strings: strings in one language and not the
    /// other, found by generating from each and judging with the other's oracle,
    /// minimized, grouped by the rules where the grammars part. Exit status 1 when
    /// differences are found (as diff(1)). --grammar and --abnf are not used: A and
    /// B name the grammars.
    DiffGrammars(crate::commands::diff::DiffArgs),
}
