//! The command line's arguments (the contract is in the README, "The `iri` command").

use clap::builder::{EnumValueParser, PossibleValue, TypedValueParser};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use iri_grammar::normalize::{CharNorm, Level};
use iri_grammar::VariantName;
use iri_grammar_conform::{DEFAULT_BUDGET, MAX_BUDGET};
use std::ffi::OsStr;
use std::ffi::OsString;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// What `iri --version` says (`-V`: the version alone): the commit it is built from
/// (`cli/build.rs`) and the documents its grammars come from.
const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("IRI_COMMIT"),
    ")\ngrammars: RFC 3986 Appendix A (uri), RFC 3987 §2.2 (iri), the W3C LEIRI note §2 \
     (leiri), draft-masinter-url-i18n-07 §2.2 (iri-2001)"
);

#[derive(Parser, Debug)]
#[command(
    name = "iri",
    version,
    long_version = LONG_VERSION,
    about = "The ABNF of RFC 3986 (URI), RFC 3987 (IRI) and LEIRI, executable",
    after_help = "With no INPUT, inputs are read from standard input, one per line.\n\
                  Exit status: 0 all inputs succeeded, 1 some did not, 2 usage error,\n\
                  74 input or output error (other than a closed pipe, which ends quietly).\n\
                  The options above go before or after the command; a command refuses\n\
                  those it has no use for (`iri help COMMAND` lists its own)."
)]
pub struct Cli {
    /// The grammar of the input (default: iri).
    #[arg(long, global = true, value_parser = Named::<GrammarArg>::new())]
    pub grammar: Option<GrammarArg>,
    /// One JSON object per input (JSON Lines).
    #[arg(long, global = true)]
    pub json: bool,
    /// A grammar of your own, from ABNF files, instead of the built-in ones.
    #[arg(
        long,
        global = true,
        value_name = "FILE",
        long_help = ABNF_LONG_HELP
    )]
    pub abnf: Vec<PathBuf>,
    /// The ABNF oracle's work budget per input, in steps (default 100000000).
    #[arg(
        long,
        global = true,
        value_name = "STEPS",
        long_help = ORACLE_STEPS_LONG_HELP
    )]
    pub oracle_steps: Option<u64>,
    /// Start each output line with the input and a TAB, as `grep -H` does (never
    /// automatic: the output's shape does not depend on how many inputs there are).
    /// Control characters of the input are written \uXXXX. JSON records already
    /// start with "input".
    #[arg(short = 'H', long, global = true, help_heading = SCRIPTS)]
    pub with_input: bool,
    /// Give an input that does not match in full: everything each rule expected
    /// where the match stopped, with the rules around it, and what the blamed
    /// component may hold. Without it, one short line: where, the component and
    /// the innermost rule, and what would have done there. (JSON records carry
    /// both: "message" and the fields it is made of.)
    #[arg(long, global = true)]
    pub explain: bool,
    /// Print no results: the exit status says. Stops at the first input that fails
    /// (as `grep -q` stops at the first match), unless --summary is given, which is
    /// then all that is printed.
    #[arg(short, long, global = true, help_heading = SCRIPTS)]
    pub quiet: bool,
    /// The longest line of standard input that is read, in bytes, not counting its
    /// end (default: 64 MiB, at most 4 GiB - 1). A longer line ends the run with
    /// status 74 and a message that gives its line number and byte offset; the
    /// results of the lines before it are written.
    #[arg(
        long,
        global = true,
        value_name = "BYTES",
        value_parser = clap::value_parser!(u64).range(1..=u64::from(u32::MAX))
    )]
    pub max_line_bytes: Option<u64>,
    #[command(subcommand)]
    pub command: Command,
}

/// The heading of the options for scripts in the help.
const SCRIPTS: &str = "Output for scripts";

/// What `iri --help` says of `--abnf`; a command's help gives the first line only.
const ABNF_LONG_HELP: &str = "A grammar of your own instead of the built-in ones: ABNF files \
    (RFC 5234 with RFC 7405's %s and %i; RFC 5234's core rules are there when used), read \
    in order, a later file's rule replacing an earlier one's. Serves check, tree, generate \
    and grammar through the oracle; --rule names the rule. grammar --rust prints the nom \
    parsers of the standalone code generator, or why it refuses";

/// What `iri --help` says of `--oracle-steps`.
const ORACLE_STEPS_LONG_HELP: &str = "The ABNF oracle's work budget per input, in steps \
    (default 100000000, iri_grammar_abnf::oracle::DEFAULT_BUDGET): each element it evaluates \
    and each end position it produces or remembers is a step, so the bound does not depend on \
    the machine. The built-in grammars need less than a hundredth of the default on any input \
    of 4096 bytes; a grammar of your own may need more (`e = e e / \"a\"` is cubic in the \
    input's length). An input that needs more is not judged: the command says so and exits \
    with status 2. Serves check and tree (with --abnf, or check --oracle) and diff-grammars";

/// The options that go before or after the command (clap's `global`), by id, with
/// their spelling on the command line.
const GLOBALS: [(&str, &str); 8] = [
    ("grammar", "--grammar"),
    ("json", "--json"),
    ("abnf", "--abnf"),
    ("oracle_steps", "--oracle-steps"),
    ("with_input", "--with-input (-H)"),
    ("quiet", "--quiet (-q)"),
    ("max_line_bytes", "--max-line-bytes"),
    ("explain", "--explain"),
];

/// The global options a command uses, by id, and why it has no use for the others.
fn uses(command: &str) -> (&'static [&'static str], &'static str) {
    const PER_INPUT: &[&str] = &[
        "grammar",
        "json",
        "with_input",
        "quiet",
        "max_line_bytes",
        "explain",
    ];
    match command {
        "check" | "tree" => (
            &[
                "grammar",
                "json",
                "abnf",
                "oracle_steps",
                "with_input",
                "quiet",
                "max_line_bytes",
                "explain",
            ],
            "",
        ),
        "trace" | "parse" | "resolve" | "relativize" | "to-uri" | "to-iri" | "normalize"
        | "compare" | "lint" => (PER_INPUT, "--abnf serves check, tree, generate and grammar"),
        "prepare" => (
            &["json", "with_input", "quiet", "max_line_bytes"],
            "it prepares IRI references (the IRI processing draft), whatever the grammar",
        ),
        "grammar" | "generate" => (
            &["grammar", "json", "abnf"],
            "it prints no result per input",
        ),
        "coverage" => (
            &["grammar", "json", "max_line_bytes"],
            "it prints one report for all its inputs, on a built-in grammar",
        ),
        "diff-grammars" => (
            &["json", "oracle_steps"],
            "A and B name the grammars, and it prints groups of strings, not a result per input",
        ),
        "conform" => (
            &["grammar", "json"],
            "it asks a program about inputs it makes itself and prints one report",
        ),
        "book" => (&[], "it writes pages of all three grammars to --out"),
        "suite" => (&[], "it writes test files of all three grammars to --out"),
        "serve" => (&[], "the page chooses the grammar and shows the results"),
        _ => (&[], ""),
    }
}

/// The command line's definition: [`Cli`]'s, where each command's help leaves out
/// the global options it refuses and gives the first line of `--abnf`'s help only.
/// What `--json` prints for a command that prints one report rather than one
/// result per input.
fn json_help(command: &str) -> Option<&'static str> {
    match command {
        "conform" => Some(
            "The report as one JSON object for the whole run (cli/schemas/conform.schema.json).",
        ),
        _ => None,
    }
}

pub fn command() -> clap::Command {
    let cmd = Cli::command();
    let globals: Vec<clap::Arg> = cmd
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    // Each command gets its own copy of the global options (clap then propagates
    // none over it): the ones it uses with their first line of help, the others
    // hidden, refused by `parse`.
    cmd.mut_subcommands(|mut sub| {
        let (used, _) = uses(sub.get_name());
        let json = json_help(sub.get_name());
        for a in &globals {
            let id = a.get_id().as_str();
            sub = sub.arg(if used.contains(&id) {
                let a = a.clone().long_help(None);
                match (id, json) {
                    ("json", Some(help)) => a.help(help),
                    _ => a,
                }
            } else {
                a.clone().hide(true)
            });
        }
        sub
    })
}

/// Parses a command line: clap's errors, and a global option given to a command
/// that has no use for it (`iri book --json`), or `--quiet` beside an option that
/// prints (`iri -q check -H`, which clap cannot see across the two sides of the
/// command).
pub fn parse<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let mut cmd = command();
    let matches = cmd.try_get_matches_from_mut(args)?;
    if let Some((name, sub)) = matches.subcommand() {
        let given = |id: &str| {
            sub.try_get_raw(id).ok().flatten().is_some()
                && sub.value_source(id) == Some(clap::parser::ValueSource::CommandLine)
        };
        let (used, why) = uses(name);
        let mut refuse = |message: String| {
            let sub = cmd.find_subcommand_mut(name).expect("the matched command");
            Err(sub.error(clap::error::ErrorKind::ArgumentConflict, message))
        };
        for (id, flag) in GLOBALS {
            if !used.contains(&id) && given(id) {
                return refuse(format!("{name} does not use {flag}: {why}"));
            }
        }
        if given("quiet") {
            for (id, flag) in [
                ("with_input", "--with-input (-H)"),
                ("valid_only", "--valid-only"),
                ("invalid_only", "--invalid-only"),
            ] {
                if given(id) {
                    return refuse(format!(
                        "--quiet (-q) prints nothing: it cannot be used with {flag}"
                    ));
                }
            }
        }
        if given("abnf") && given("grammar") {
            return refuse("--abnf gives the grammar: it cannot be used with --grammar".into());
        }
    }
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut cmd))
}

impl Cli {
    /// The grammar named by `--grammar`, by default RFC 3987's.
    pub fn grammar(&self) -> GrammarArg {
        self.grammar.unwrap_or(GrammarArg::Iri)
    }

    /// The oracle's work budget, `--oracle-steps`, by default the oracle's own.
    pub fn oracle_budget(&self) -> u64 {
        self.oracle_steps
            .unwrap_or(iri_grammar_abnf::oracle::DEFAULT_BUDGET)
    }
}

/// A percentage, 0 to 100, for `coverage --fail-under`.
fn percent(s: &str) -> Result<f64, String> {
    match s.trim_end_matches('%').parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        _ => Err(format!("{s:?} is not a percentage from 0 to 100")),
    }
}

/// A name read by the library's `FromStr`, the spelling set every front end shares
/// (`VariantName::SPELLINGS`, `Level::SPELLINGS`: any ASCII case, the aliases
/// `rfc3986`, `rfc3987`, `iri2001`). `E` is what `--help` lists, the canonical names;
/// a name the library does not know is refused by clap's parser of `E`, with its
/// message and its suggestion of a similar name.
#[derive(Clone)]
pub struct Named<E>(PhantomData<E>);

impl<E> Named<E> {
    pub fn new() -> Self {
        Named(PhantomData)
    }
}

/// A command-line value that the library names: the value `--help` lists for each
/// of the library's values (a command may offer fewer: `normalize --level` has no
/// `simple`).
pub trait NamedByTheLibrary: ValueEnum + Clone + Send + Sync + 'static {
    /// The library's type, which reads names (`FromStr`).
    type Library: FromStr + PartialEq;

    /// The library's value this one stands for.
    fn library(&self) -> Self::Library;

    /// The value the library reads `name` as, if this command offers it.
    fn read(name: &str) -> Option<Self> {
        let wanted: Self::Library = name.parse().ok()?;
        Self::value_variants()
            .iter()
            .find(|v| v.library() == wanted)
            .cloned()
    }
}

impl<E: NamedByTheLibrary> TypedValueParser for Named<E> {
    type Value = E;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<E, clap::Error> {
        match value.to_str().and_then(E::read) {
            Some(e) => Ok(e),
            None => EnumValueParser::<E>::new().parse_ref(cmd, arg, value),
        }
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            E::value_variants()
                .iter()
                .filter_map(ValueEnum::to_possible_value),
        ))
    }
}

impl NamedByTheLibrary for GrammarArg {
    type Library = VariantName;
    fn library(&self) -> VariantName {
        self.variant()
    }
}

impl NamedByTheLibrary for LevelArg {
    type Library = Level;
    fn library(&self) -> Level {
        self.level()
    }
}

impl NamedByTheLibrary for NormalizeLevelArg {
    type Library = Level;
    fn library(&self) -> Level {
        self.level()
    }
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

/// The levels that have a normal form (`simple` comparison has none but the input).
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum NormalizeLevelArg {
    /// Syntax-based (§5.3.2).
    Syntax,
    /// Scheme-based (§5.3.3).
    Scheme,
}

impl NormalizeLevelArg {
    pub fn level(self) -> Level {
        match self {
            NormalizeLevelArg::Syntax => Level::Syntax,
            NormalizeLevelArg::Scheme => Level::Scheme,
        }
    }
}

/// What every command that prints a result per input offers scripts (with the
/// global `-H` and `-q`, [`Cli::with_input`] and [`Cli::quiet`]).
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Output for scripts")]
pub struct ScriptArgs {
    /// Keep only the inputs that failed (invalid, different, unknown, not converted,
    /// an error-level lint finding), each printed itself, as grep does (with -H, the
    /// input and its result); the exit status is unchanged. Kept inputs go out byte
    /// for byte, but to a terminal, which is shown controls as \uXXXX; --json gives
    /// the exact bytes of any line.
    #[arg(long, conflicts_with = "valid_only")]
    pub invalid_only: bool,
    /// Keep only the inputs that succeeded (as --invalid-only keeps the others):
    /// check and compare print each input itself, the other commands their results.
    #[arg(long)]
    pub valid_only: bool,
    /// After the results, a closing block (with --json, one JSON object
    /// {"summary": ...}) with the counts of inputs, valid and invalid, and for the
    /// invalid ones the count per component, innermost rule and everything expected
    /// at the farthest failure.
    #[arg(long)]
    pub summary: bool,
    /// Threads that process the lines of standard input (default, and at most: the
    /// number of cores); the results keep the input order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    pub jobs: Option<u16>,
}

/// The most nodes a tree may have unless `--max-nodes` says otherwise: 200 MB of
/// arena (20 bytes a node), the tree of a line of 10 MB of `/` (a segment each),
/// far beyond any address, while a line of any length stays within it.
pub const MAX_NODES: usize = 10_000_000;

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
        /// instead of the generated combinators. The oracle judges inputs of at most
        /// 4096 bytes (its memory grows with the input); a longer one is `invalid:`
        /// with a message saying so: check those without --oracle.
        #[arg(long)]
        oracle: bool,
        /// Under an invalid input's message, show the input with a caret under the
        /// character where the match failed (columns count from 1).
        #[arg(long)]
        caret: bool,
        #[command(flatten)]
        script: ScriptArgs,
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
        /// The most nodes a tree may have. A tree is held whole while it is built,
        /// 20 bytes a node, before it is written: the default, 10,000,000 (200 MB),
        /// is the tree of a line of 10 MB of `/`, each `/` a segment. A line whose
        /// tree has more gets an error record saying where the bound was passed (its
        /// tree is not built past it) and the run exits with status 2.
        #[arg(long, value_name = "N", default_value_t = MAX_NODES)]
        max_nodes: usize,
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The steps of the combinators on each input, numbered: rules entered, matched
    /// and failed, alternatives tried and given up (and why), and the lookahead
    /// decisions.
    Trace {
        /// The rule, in the grammar's own naming (default: the reference rule).
        #[arg(long)]
        rule: Option<String>,
        #[command(flatten)]
        script: ScriptArgs,
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
        /// With --abnf and --rust: the budget of the check of the parsers against
        /// the ABNF, in steps of the oracle (a rule at a position of a drawn string);
        /// past it the grammar is refused before the check runs.
        #[arg(long, value_name = "STEPS", requires = "rust", default_value_t = iri_grammar_abnf::codegen::standalone::CHECK_STEPS)]
        generate_steps: u64,
    },
    /// Write a static site that teaches the three grammars: one page per rule and
    /// grammar (ABNF, section, railroad diagram, FIRST set, uses and used-by, examples,
    /// near misses, generated combinator) and an index per grammar, for all three
    /// grammars.
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
        /// Also write the teaching page as a static playground (DIR/play/), which runs
        /// in the browser with no server: PAGE_WASM is its engine, the module
        /// `js/build.sh` writes (js/iri_grammar_page.wasm), copied in. Rule pages
        /// then link to it. Any static file server can serve DIR.
        #[arg(long, value_name = "PAGE_WASM")]
        playground: Option<PathBuf>,
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
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Resolves each reference against BASE (RFC 3986 §5.2, strict).
    Resolve {
        /// The base: an absolute IRI of the grammar.
        base: String,
        #[command(flatten)]
        script: ScriptArgs,
        /// References (default: lines of standard input).
        references: Vec<String>,
    },
    /// The shortest reference that resolves to each TARGET against BASE.
    Relativize {
        /// The base: an absolute IRI of the grammar.
        base: String,
        #[command(flatten)]
        script: ScriptArgs,
        /// Targets (default: lines of standard input).
        targets: Vec<String>,
    },
    /// IRI → URI (RFC 3987 §3.1); with --grammar leiri, from a LEIRI.
    ToUri {
        /// Convert non-ASCII labels of DNS hosts with ToASCII (UTS 46).
        #[arg(long)]
        idna: bool,
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// URI → IRI (RFC 3987 §3.2); with --grammar leiri, LEIRI → IRI (LEIRI note §3).
    ToIri {
        /// Convert xn-- labels of DNS hosts with ToUnicode.
        #[arg(long)]
        idna: bool,
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Prepares arbitrary strings as IRI references (IRI processing draft §4-5).
    Prepare {
        /// Several references per input, separated by spaces (printed space-separated).
        #[arg(long)]
        multi: bool,
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// The normal form of each input (RFC 3987 §5.3), at level syntax (the default)
    /// or scheme.
    Normalize {
        /// The level of the normal form.
        #[arg(long, default_value = "syntax", value_parser = Named::<NormalizeLevelArg>::new())]
        level: NormalizeLevelArg,
        #[command(flatten)]
        chars: CharNormArgs,
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Are A and B equivalent? Prints equivalent, different or unknown (exit 0, 1, 3:
    /// with several pairs, 1 if any is different, else 3 if any is unknown).
    /// With no A and B, each line of standard input holds A TAB B.
    Compare {
        /// simple, syntax or scheme.
        #[arg(long, default_value = "syntax", value_parser = Named::<LevelArg>::new())]
        level: LevelArg,
        #[command(flatten)]
        chars: CharNormArgs,
        /// Compare without fragments.
        #[arg(long)]
        ignore_fragment: bool,
        #[command(flatten)]
        script: ScriptArgs,
        /// A and B.
        pair: Vec<String>,
    },
    /// The prose rules on top of the grammar (RFC 3987 §4, §6.1, §7.5; the LEIRI note):
    /// one finding a line, `SEVERITY CODE at char N: message [component, character]`
    /// (offsets in characters from 0, as check's; --json adds byte offsets); nothing
    /// for a clean input. Exit 1 if any finding is an error.
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
        /// Under each finding, show the input with a caret under the character it
        /// is about (columns count from 1): the findings of several inputs each
        /// with their input (-H puts the input before each finding instead).
        #[arg(long)]
        caret: bool,
        #[command(flatten)]
        script: ScriptArgs,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Strings that match a rule, generated from the grammar (text output leaves out
    /// strings with control characters, which LEIRIs may contain and text shows
    /// escaped; --json keeps them).
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
        /// Strings that must fail: near misses (one or two edits of a generated
        /// string) that the ABNF oracle confirms do not match the rule; --json adds
        /// where the match fails and what was expected there. Text writes a string
        /// that could not be told apart as it is (empty, white space at either end,
        /// controls, a `"` first) as a JSON string: `""`, `"25 "`.
        #[arg(long)]
        invalid: bool,
        /// A small set of strings that together reach every alternative reachable
        /// from the rule (coverage 100 % as `iri coverage` measures it); with
        /// --invalid, one counterexample per place the grammar can fail (innermost
        /// rule and expectation at the farthest failure). -n is not used.
        #[arg(long)]
        cover: bool,
        /// The budget of each string drawn, in steps (an element drawn or a
        /// character written); past it, generate stops with an error naming the rule.
        #[arg(long, value_name = "STEPS", default_value_t = iri_grammar_abnf::strings::generate::MAX_STEPS)]
        generate_steps: u64,
    },
    /// Which rules and alternatives the inputs reach, from the rule down, on the parse
    /// the grammar takes (first match, as `tree` shows); the alternatives no input
    /// reached, each with the shortest example that reaches it.
    Coverage {
        /// The rule, in the grammar's own naming (default: the reference rule).
        #[arg(long)]
        rule: Option<String>,
        /// The seed of the generated examples.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Exit with status 1 when the inputs reach less than PERCENT of the
        /// alternatives (0 to 100), so that a test suite's coverage can gate CI.
        #[arg(long, value_name = "PERCENT", value_parser = percent)]
        fail_under: Option<f64>,
        /// Inputs (default: lines of standard input).
        inputs: Vec<String>,
    },
    /// Write a test suite for a rule in the corpus's TSV format (`input TAB
    /// valid|invalid TAB grammar TAB source`), one file per grammar (uri, iri, leiri):
    /// the strings of `generate --cover` and `generate --cover --invalid` of all
    /// three grammars, each judged in each grammar.
    Suite {
        /// The rule, in any grammar's naming (RFC 3987's, RFC 3986's or the LEIRI
        /// note's): each grammar takes its own name for it.
        #[arg(long)]
        rule: String,
        /// The folder to write (created if absent).
        #[arg(long)]
        out: PathBuf,
        /// The seed of the generated strings.
        #[arg(long, default_value_t = 0)]
        seed: u64,
    },
    /// How two grammars differ, shown by strings: strings in one language and not the
    /// other, found by generating from each and judging with the other's oracle,
    /// minimized, grouped by the rules where the grammars part. Exit status 1 when
    /// differences are found (as diff(1)). A and B name the grammars.
    DiffGrammars(DiffArgs),
    /// Test a URI or IRI parser against the ABNF: start COMMAND (after `--`), ask it
    /// about the covering suite of the rule, near misses, the corpus and drawn strings
    /// over the line protocol of docs/conform-protocol.md, and report where it parts
    /// from the grammar: each disagreement minimized, grouped by the rule where it
    /// parts, with the rule's ABNF and section. Exit status 1 on any disagreement,
    /// hang, crash or answer not understood; 2 if the program cannot be started or
    /// writes a line that answers no input (a banner on standard output).
    Conform(ConformArgs),
}

/// The arguments of `iri diff-grammars`.
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// The first grammar: uri, iri, leiri, iri-2001, or an ABNF file.
    pub a: String,
    /// The second grammar.
    pub b: String,
    /// The rule of A (default: its reference rule, e.g. IRI-reference).
    #[arg(long)]
    pub rule_a: Option<String>,
    /// The rule of B.
    #[arg(long)]
    pub rule_b: Option<String>,
    /// How many strings to draw from each grammar.
    #[arg(short = 'n', default_value_t = 2000)]
    pub n: usize,
    /// Examples shown per group.
    #[arg(long, default_value_t = 3)]
    pub examples: usize,
    /// The seed: the same seed finds the same differences.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// The arguments of `iri conform`.
#[derive(clap::Args, Debug)]
pub struct ConformArgs {
    /// The rule asked, in the grammar's own naming (default: its reference rule,
    /// e.g. IRI-reference).
    #[arg(long)]
    pub rule: Option<String>,
    /// How many inputs to ask before minimizing (at most 1,000,000).
    #[arg(long, default_value_t = DEFAULT_BUDGET, value_parser = budget)]
    pub budget: usize,
    /// The seed: the same seed asks the same inputs.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// How long an answer may take: `2s`, `500ms` or seconds (the first answer
    /// after each start may take five times as long).
    #[arg(long, default_value = "2s", value_parser = duration)]
    pub timeout: Duration,
    /// Minimal examples shown per group.
    #[arg(long, default_value_t = 3)]
    pub examples: usize,
    /// A file of inputs to ask too, one a line (may be repeated).
    #[arg(long, value_name = "FILE")]
    pub corpus: Vec<PathBuf>,
    /// A file of inputs to ask too, one JSON string literal a line, as the report
    /// writes its examples ("a b", "\n", "\u0000"): examples with a line break or
    /// another control character fed back as they were found (may be repeated).
    #[arg(long, value_name = "FILE")]
    pub corpus_json: Vec<PathBuf>,
    /// Also write the report as a self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    pub html: Option<PathBuf>,
    /// Test the program's reference resolution (RFC 3986 §5.2) instead: it reads
    /// `[base, reference]` pairs and answers the target or `invalid`
    /// (IRI_CONFORM_MODE=resolve); the disagreements are grouped by the step of
    /// §5.2.2–§5.2.4 where it parts. Not with --rule, --corpus or --corpus-json.
    #[arg(long)]
    pub resolve: bool,
    /// The program under test and its arguments, after `--`.
    #[arg(last = true, required = true, value_name = "COMMAND")]
    pub program: Vec<OsString>,
}

/// A number of inputs, up to [`MAX_BUDGET`].
fn budget(s: &str) -> Result<usize, String> {
    match s.parse::<u128>() {
        Ok(0) => Err("at least 1 input: with none there is nothing to ask".to_string()),
        Ok(n) if n <= MAX_BUDGET as u128 => Ok(n as usize),
        Ok(_) => Err(format!(
            "at most {MAX_BUDGET} inputs (they are made before the first is asked)"
        )),
        Err(_) => Err(format!("{s:?} is not a number of inputs")),
    }
}

/// `2s`, `500ms`, `1.5` (seconds).
fn duration(s: &str) -> Result<Duration, String> {
    let (number, scale) = if let Some(ms) = s.strip_suffix("ms") {
        (ms, 0.001)
    } else {
        (s.strip_suffix('s').unwrap_or(s), 1.0)
    };
    match number.parse::<f64>() {
        Ok(n) if n > 0.0 && n * scale <= 3600.0 => Ok(Duration::from_secs_f64(n * scale)),
        _ => Err(format!(
            "{s:?} is not a duration of up to an hour: write 2s, 500ms or 1.5"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(duration("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(duration("1.5"), Ok(Duration::from_millis(1500)));
        for bad in ["", "0", "-1s", "x", "2h", "7200"] {
            assert!(duration(bad).is_err(), "{bad}");
        }
    }

    /// The names `--help` lists are the library's own, and every spelling the
    /// library reads (Python's and SQL's too) names the same grammar or level here.
    #[test]
    fn names_are_the_library_s() {
        for g in GrammarArg::value_variants() {
            let shown = g.to_possible_value().unwrap();
            assert_eq!(shown.get_name(), g.variant().as_str());
        }
        for (spelling, variant) in VariantName::SPELLINGS {
            for written in [spelling.to_string(), spelling.to_ascii_uppercase()] {
                let cli = parse(["iri", "--grammar", &written, "check", "a:b"]).unwrap();
                assert_eq!(cli.grammar().variant(), variant, "{written}");
            }
        }
        for (spelling, level) in Level::SPELLINGS {
            assert_eq!(LevelArg::read(spelling).map(LevelArg::level), Some(level));
            let shown = LevelArg::read(spelling)
                .unwrap()
                .to_possible_value()
                .unwrap();
            assert_eq!(shown.get_name(), level.as_str());
        }
        assert!(parse(["iri", "--grammar", "url", "check", "a:b"]).is_err());
    }
}
