//! The generator: from the rule table to one nom combinator per rule.
//!
//! It writes `src/grammar/generated.rs`; the test `tests/generated.rs` regenerates
//! it and fails when the committed file is stale (run
//! `IRI_GRAMMAR_REGENERATE=1 cargo test --test generated` to rewrite it).
//!
//! # One rule set for three grammars
//! The combinators are those of RFC 3987 §2.2 plus the RFC 3986 rules it uses
//! unchanged, plus the RFC 5234 core rules. The RFC 3986 rules that RFC 3987
//! renames (`hier-part` → `ihier-part`, `URI` → `IRI`) are served by the renamed
//! combinators under the `Uri` variant; the rules RFC 3987 adds without an RFC 3986
//! counterpart (`ucschar`, `iprivate`) and the rules `leiri.abnf` redefines
//! (`ucschar`) are *variant rules*: character classes each variant defines for
//! itself (empty under `Uri`).
//!
//! # ABNF is not PEG
//! nom's choices commit to the first alternative that matches and its repetitions
//! never give back; ABNF alternation is unordered and its repetitions can give back.
//! The generator makes the ordered translation exact with one small mechanism,
//! lookahead: where an alternative, an option or a repetition could match in a way
//! that the rest of the grammar cannot continue, it is wrapped in `Ahead(SET, ..)`,
//! which accepts the match only when the next character is one that can follow it
//! (its FOLLOW set: what can come after it inside its rule, and after the rule
//! anywhere in the grammar, including the end of input). A choice point needs a
//! guard when its alternatives can start with the same character, when it can match
//! the empty string, or when a repetition's body can start with a character that
//! may also follow it. Runs of a character class with no such conflict become one
//! table-driven `Scan`, and a repetition of a one-byte delimiter and a rule that is
//! such a run (`*( "/" isegment )`) one `Delimited` loop, which gives the same match
//! and nodes without a call per run. The oracle (`abnf::oracle`) checks the result.

mod automata;
mod lookahead;
mod lookahead2;
mod rules;
pub mod standalone;

pub use automata::generate_automata;
pub use rules::{enum_name, fn_name, RuleSet, SetRule};

use crate::{Element, Grammars, RuleDef, VariantName};
use iri_grammar_contract::Set;
use lookahead::{is_percent_triplet, Analysis, ClassSpec};
use lookahead2::Look2;
use rules::{enum_rules, grammar_index, VARIANTS};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// An error in a grammar that the generator cannot turn into combinators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodegenError(pub String);

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodegenError {}

/// Escapes a string for a Rust string literal.
fn rust_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            _ => write!(out, "\\u{{{:x}}}", c as u32).unwrap(),
        }
    }
    out.push('"');
    out
}

/// Writes a set of ASCII characters as builder calls: ranges for runs, a string for the rest.
fn ascii_builder(bits: u128) -> String {
    let mut out = String::new();
    let mut singles = String::new();
    let mut c = 0u32;
    while c < 128 {
        if bits >> c & 1 == 0 {
            c += 1;
            continue;
        }
        let start = c;
        while c < 128 && bits >> c & 1 == 1 {
            c += 1;
        }
        let end = c - 1;
        let printable =
            |x: u32| (0x21..=0x7e).contains(&x) && x != b'"' as u32 && x != b'\\' as u32;
        if end - start >= 2 || !printable(start) || !printable(end) {
            if end - start >= 2 || start != end {
                write!(out, ".range(0x{start:02X}, 0x{end:02X})").unwrap();
            } else {
                write!(out, ".range(0x{start:02X}, 0x{start:02X})").unwrap();
            }
        } else {
            for x in start..=end {
                singles.push(char::from_u32(x).unwrap());
            }
        }
    }
    if !singles.is_empty() {
        out = format!(".chars({}){out}", rust_str(&singles));
    }
    out
}

/// A set as the builder calls that make it: `Set::new()` with its ASCII members, then
/// `.non_ascii()` and (when `with_end`) `.end_of_input()` if it has those members.
fn set_builder(s: Set, with_end: bool) -> String {
    let mut build = format!("Set::new(){}", ascii_builder(s.ascii_bits()));
    if s.has_non_ascii() {
        build.push_str(".non_ascii()");
    }
    if with_end && s.has_end() {
        build.push_str(".end_of_input()");
    }
    build
}

/// Writes an expectation of the error messages as a Rust `Expected` value.
fn expected_value(e: &str, set: &RuleSet<'_>) -> String {
    if let Some(r) = set.get(e) {
        format!("Expected::Rule(Rule::{})", r.ident)
    } else if let Some(text) = e.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        format!("Expected::Lit({})", rust_str(text))
    } else {
        format!("Expected::Abnf({})", rust_str(e))
    }
}

/// The generator's state while writing one file.
struct Writer<'a, 's, 'g> {
    a: &'a Analysis<'s, 'g>,
    set: &'s RuleSet<'g>,
    variant_rules: Vec<&'s SetRule<'g>>,
    /// Constants written after the function being generated.
    consts: Vec<String>,
    /// Classes already written, by content, with their constant names.
    classes: Vec<(ClassSpec, String)>,
    /// Per-rule counter for constant names.
    counter: usize,
    current: String,
    /// The next alternation is the top of a rule's definition.
    top: bool,
}

impl<'a, 's, 'g> Writer<'a, 's, 'g> {
    fn variant_index(&self, name: &str) -> Option<usize> {
        variant_index(&self.variant_rules, name)
    }

    fn class(&self, e: &Element) -> Option<ClassSpec> {
        self.a.class_of(e, &|n| self.variant_index(n))
    }

    /// The next constant's name: the rule's, its kind (`AHEAD`, `FIRST`), a number.
    fn const_name(&mut self, kind: &str) -> String {
        let name = format!("{}_{kind}_{}", self.current.to_uppercase(), self.counter);
        self.counter += 1;
        name
    }

    /// A `Set` constant named by `kind`, documented as `what` in the current rule.
    fn set_const(&mut self, kind: &str, build: String, what: &str) -> String {
        let name = self.const_name(kind);
        self.consts.push(format!(
            "/// {what} in `{}`.\nconst {name}: Set = {build};\n",
            self.current_rule_name(),
        ));
        name
    }

    fn next_set_const(&mut self, s: Set, about: &str) -> String {
        let what = format!("What may follow `{about}`");
        self.set_const("AHEAD", set_builder(s, true), &what)
    }

    /// A `Set2` constant: what may follow `about`, two characters deep.
    fn next_set2_const(&mut self, s: &Look2, about: &str) -> String {
        let name = self.const_name("AHEAD");
        let set = |x: Set| set_builder(x, true);
        let pairs: Vec<String> = s
            .grouped()
            .into_iter()
            .map(|(a, b)| format!("    ({}, {}),\n", set(a), set(b)))
            .collect();
        self.consts.push(format!(
            "/// What may follow `{about}` in `{}`, two characters deep: one character\n\
             /// cannot tell it from a longer alternative.\n\
             const {name}: Set2 = Set2::new({}, &[\n{}]);\n",
            self.current_rule_name(),
            set(s.first()),
            pairs.concat()
        ));
        name
    }

    fn first_set_const(&mut self, s: Set, about: &str) -> String {
        let what = format!("What can start `{about}`");
        self.set_const("FIRST", set_builder(s, false), &what)
    }

    fn current_rule_name(&self) -> String {
        self.set
            .rules
            .iter()
            .find(|r| fn_name(r.name) == self.current)
            .map(|r| r.name.to_string())
            .unwrap_or_default()
    }

    fn class_const(&mut self, c: &ClassSpec, e: &Element) -> String {
        if let Some((_, name)) = self.classes.iter().find(|(k, _)| k == c) {
            return name.clone();
        }
        let name = match e {
            Element::Rule(n) => format!("{}_CHARS", fn_name(n).to_uppercase()),
            _ => {
                self.counter += 1;
                format!("{}_CHARS_{}", self.current.to_uppercase(), self.counter - 1)
            }
        };
        let mut ascii = 0u128;
        let mut beyond = Vec::new();
        for &(lo, hi) in &c.ranges {
            for x in lo..=hi.min(127) {
                ascii |= 1 << x;
            }
            if hi >= 128 {
                beyond.push((lo.max(128), hi));
            }
        }
        let mut build = format!("Class::new(){}", ascii_builder(ascii));
        if !beyond.is_empty() {
            let list: Vec<String> = beyond
                .iter()
                .map(|(lo, hi)| format!("(0x{lo:X}, 0x{hi:X})"))
                .collect();
            write!(build, ".beyond_ascii(&[{}])", list.join(", ")).unwrap();
        }
        match c.pct.as_deref() {
            Some("PctEncoded") => build.push_str(".pct_encoded()"),
            Some(ident) => write!(build, ".pct_encoded_as(Rule::{ident})").unwrap(),
            None => {}
        }
        for &k in &c.variant {
            write!(
                build,
                ".variant_rule({})",
                fn_name(self.variant_rules[k].name).to_uppercase()
            )
            .unwrap();
        }
        let expected: Vec<String> = c
            .expected
            .iter()
            .map(|x| expected_value(x, self.set))
            .collect();
        write!(build, "\n    .expecting(&[{}])", expected.join(", ")).unwrap();
        self.consts.push(format!(
            "/// The characters of `{e}`.\nconst {name}: Class = {build};\n"
        ));
        self.classes.push((c.clone(), name.clone()));
        name
    }

    /// Writes the combinator expression of `e`, given what may follow it (one and two
    /// characters deep).
    fn expr(&mut self, e: &Element, follow: Set, follow2: &Look2, indent: usize) -> String {
        let pad = "    ".repeat(indent);
        match e {
            Element::Rule(n) => match self.set.get(n) {
                Some(r) => format!("{}::<V, M>", self.set.call(r)),
                None => format!("{}::<V, M>", fn_name(n)),
            },
            Element::CharVal {
                text,
                case_sensitive: false,
            } => format!("Lit({})", rust_str(text)),
            Element::CharVal {
                text,
                case_sensitive: true,
            } => format!("LitCs({})", rust_str(text)),
            Element::Range(lo, hi) => format!("Range(0x{lo:X}, 0x{hi:X})"),
            Element::Sequence(cs) => {
                let s: String = cs.iter().filter_map(|&c| char::from_u32(c)).collect();
                format!("LitCs({})", rust_str(&s))
            }
            Element::Prose(p) => format!("Prose({})", rust_str(p)),
            Element::Concatenation(items) => {
                let parts: Vec<String> = items
                    .iter()
                    .enumerate()
                    .map(|(k, x)| {
                        let f = self.a.first_of_seq(&items[k + 1..], follow);
                        let f2 = Look2::after(&self.a.first2_seq(&items[k + 1..]), follow2);
                        self.expr(x, f, &f2, indent + 1)
                    })
                    .collect();
                Self::tuple("Cat", parts, &pad)
            }
            Element::Alternation(alts) => self.alternation(alts, follow, follow2, indent),
            Element::Repetition {
                min,
                max,
                element,
                optional_syntax,
            } => self.repetition(
                e,
                (*min, *max),
                element,
                *optional_syntax,
                (follow, follow2),
                indent,
            ),
        }
    }

    /// `Alt((..))`: each alternative guarded with `Ahead` where a later one could
    /// start with the same character (or it can be empty), with `Ahead2` where a
    /// later one extends it and one character cannot tell them apart
    /// (`Analysis::prefix_conflict`), and dispatched on its FIRST set where that saves
    /// a call. The alternation at the top of a rule's definition is a `Choice`, which
    /// tells trees which alternative matched.
    fn alternation(
        &mut self,
        alts: &[Element],
        follow: Set,
        follow2: &Look2,
        indent: usize,
    ) -> String {
        let top = std::mem::take(&mut self.top);
        let parts: Vec<String> = alts
            .iter()
            .enumerate()
            .map(|(k, x)| {
                let inner = self.expr(x, follow, follow2, indent + 1);
                let later = alts[k + 1..]
                    .iter()
                    .fold(Set::new(), |s, y| s.union(self.a.first_of(y)));
                let overlaps = self.a.first_of(x).intersects(later);
                let last = k + 1 == alts.len();
                let inner = if !last && self.a.prefix_conflict(alts, k, follow) {
                    let s = self.next_set2_const(follow2, &format!("{x}"));
                    format!("Ahead2(&{s}, {inner})")
                } else if !last && (overlaps || self.a.nullable_of(x)) {
                    let s = self.next_set_const(follow, &format!("{x}"));
                    format!("Ahead(&{s}, {inner})")
                } else {
                    inner
                };
                // FIRST-set dispatch: skip an alternative that cannot start with the
                // next character (an alternative that can match the empty string can
                // start with anything; a terminal tests its character itself).
                let terminal = matches!(
                    x,
                    Element::CharVal { .. } | Element::Range(..) | Element::Sequence(_)
                );
                if self.a.nullable_of(x) || terminal {
                    inner
                } else {
                    let s = self.first_set_const(self.a.first_of(x), &format!("{x}"));
                    format!("First(&{s}, {inner})")
                }
            })
            .collect();
        let pad = "    ".repeat(indent);
        if top {
            Self::choice(0, parts.len(), parts, &pad)
        } else {
            Self::tuple("Alt", parts, &pad)
        }
    }

    /// `Choice::of(n, (..))` of alternatives `base + 1..`; a tuple holds 12, so more
    /// nest their rest in a last element.
    fn choice(base: usize, of: usize, mut parts: Vec<String>, pad: &str) -> String {
        let tail = parts.len() > 12;
        if tail {
            let rest = parts.split_off(11);
            parts.push(Self::choice(base + 11, of, rest, &format!("{pad}    ")));
        }
        let open = if base == 0 && !tail {
            format!("Choice::of({of}, (")
        } else {
            format!("Choice::from({base}, {of}, {tail}, (")
        };
        Self::tuple_of(&open, parts, pad)
    }

    /// `Repeat(min, max, ..)` or `Opt(..)`, or a `Scan` of a character class when
    /// nothing that may follow the run can start with a member of the class.
    fn repetition(
        &mut self,
        e: &Element,
        (min, max): (u32, Option<u32>),
        element: &Element,
        optional_syntax: bool,
        (follow, follow2): (Set, &Look2),
        indent: usize,
    ) -> String {
        if max == Some(0) {
            return "Empty".to_string();
        }
        let max_s = match max {
            Some(m) => m.to_string(),
            None => "INF".to_string(),
        };
        if let Some(c) = self.scan_class(element, follow) {
            let name = self.class_const(&c, element);
            return format!("Scan(&{name}, {min}, {max_s})");
        }
        let body_first = self.a.first_of(element);
        let inner_follow = self.a.after_iteration(element, max, follow);
        let inner_follow2 = self.a.after_iteration2(element, max, follow2);
        let inner = self.expr(element, inner_follow, &inner_follow2, indent);
        let needs_guard =
            Some(min) != max && (body_first.intersects(follow) || self.a.nullable_of(element));
        let inner = if needs_guard {
            let s = self.next_set_const(inner_follow, &format!("{e}"));
            format!("Ahead(&{s}, {inner})")
        } else {
            inner
        };
        if optional_syntax {
            format!("Opt({inner})")
        } else {
            let repeat = format!("Repeat({min}, {max_s}, {inner})");
            match (min, max, needs_guard) {
                (0, None, false) => self.delimited(element, &repeat, indent).unwrap_or(repeat),
                _ => repeat,
            }
        }
    }

    /// The class of `element` when a repetition of it is written as a `Scan`: it is a
    /// character class and nothing in `follow` (what may come after the repetition)
    /// starts with a member, so that the greedy run is the ABNF's.
    fn scan_class(&self, element: &Element, follow: Set) -> Option<ClassSpec> {
        let c = self.class(element)?;
        let first = self.a.class_first(&c, &self.variant_rules);
        (!first.intersects(follow)).then_some(c)
    }

    /// `Delimited { .. }` around `repeat`, the unguarded `*( "c" r )` of `element`,
    /// where `c` is one byte (not a letter) and `r`'s definition a run of a class,
    /// written as a `Scan` (`*( "/" isegment )`): the runtime then matches each `c`
    /// and its run in one loop, with `r`'s nodes. `None` for any other repetition.
    fn delimited(&mut self, element: &Element, repeat: &str, indent: usize) -> Option<String> {
        let Element::Concatenation(items) = element else {
            return None;
        };
        let [Element::CharVal { text, .. }, Element::Rule(n)] = items.as_slice() else {
            return None;
        };
        let &[c] = text.as_bytes() else {
            return None;
        };
        if !c.is_ascii() || c.is_ascii_alphabetic() {
            return None;
        }
        let r = self.set.get(n)?;
        if r.shared || r.variant_defs.is_some() {
            return None;
        }
        // `r`'s definition is written `Scan(&class, 0, INF)` (`repetition` above).
        let Element::Repetition {
            min: 0,
            max: None,
            element: run,
            optional_syntax: false,
        } = &r.rule.definition
        else {
            return None;
        };
        let class = self.scan_class(run, self.a.follow[&r.name.to_ascii_lowercase()])?;
        let name = self.class_const(&class, run);
        let pad = "    ".repeat(indent);
        Some(format!(
            "Delimited {{\n\
             {pad}    delimiter: b{:?},\n\
             {pad}    rule: Rule::{},\n\
             {pad}    class: &{name},\n\
             {pad}    repetition: {repeat},\n\
             {pad}}}",
            char::from(c),
            r.ident
        ))
    }

    /// `Cat((a, b, c))` on one line when short, one element a line otherwise;
    /// tuples longer than 12 (the runtime's limit) nest.
    fn tuple(kind: &str, mut parts: Vec<String>, pad: &str) -> String {
        if parts.len() == 1 {
            return parts.pop().unwrap();
        }
        if parts.len() > 12 {
            let rest = parts.split_off(11);
            parts.push(Self::tuple(kind, rest, &format!("{pad}    ")));
        }
        Self::tuple_of(&format!("{kind}(("), parts, pad)
    }

    /// `open` `a, b, c` `))` on one line when short, one element a line otherwise.
    fn tuple_of(open: &str, parts: Vec<String>, pad: &str) -> String {
        let one_line = format!("{open}{}))", parts.join(", "));
        if one_line.len() + pad.len() <= 90 && !one_line.contains('\n') {
            return one_line;
        }
        let mut s = format!("{open}\n");
        for p in parts {
            writeln!(s, "{pad}    {p},").unwrap();
        }
        write!(s, "{pad}))").unwrap();
        s
    }
}

/// The doc comment lines of a rule: its ABNF text and where it comes from.
fn doc_lines(r: &RuleDef) -> String {
    let mut s = String::from("/// ```abnf\n");
    for line in r.text.lines() {
        writeln!(s, "/// {line}").unwrap();
    }
    writeln!(s, "/// ```").unwrap();
    writeln!(s, "///").unwrap();
    writeln!(s, "/// {}", r.source).unwrap();
    s
}

/// The code point ranges of a variant rule's definition under one variant.
fn variant_ranges(a: &Analysis<'_, '_>, def: &RuleDef) -> Result<Vec<(u32, u32)>, CodegenError> {
    // The variant rules are classes of plain characters; resolve them without
    // treating the variant rule itself as a variant member.
    fn ranges_of(
        a: &Analysis<'_, '_>,
        e: &Element,
        out: &mut Vec<(u32, u32)>,
    ) -> Result<(), CodegenError> {
        match e {
            Element::Range(lo, hi) => out.push((*lo, *hi)),
            Element::Sequence(cs) if cs.len() == 1 => out.push((cs[0], cs[0])),
            Element::CharVal {
                text,
                case_sensitive,
            } if text.chars().count() == 1 => {
                let c = text.chars().next().unwrap();
                out.push((c as u32, c as u32));
                if !case_sensitive {
                    out.push((c.to_ascii_lowercase() as u32, c.to_ascii_lowercase() as u32));
                    out.push((c.to_ascii_uppercase() as u32, c.to_ascii_uppercase() as u32));
                }
            }
            Element::Alternation(v) => {
                for x in v {
                    ranges_of(a, x, out)?;
                }
            }
            Element::Rule(n) => {
                let r = a
                    .lookup(n)
                    .map(|r| r.rule)
                    .or_else(|| a.core.get(n))
                    .ok_or_else(|| CodegenError(format!("unknown rule {n}")))?;
                ranges_of(a, &r.definition, out)?;
            }
            other => {
                return Err(CodegenError(format!(
                    "a variant rule must be a class of single characters, not `{other}`"
                )))
            }
        }
        Ok(())
    }
    let mut out = Vec::new();
    ranges_of(a, &def.definition, &mut out)?;
    let merged = ClassSpec {
        ranges: Vec::new(),
        ..ClassSpec::default()
    }
    .merge(ClassSpec {
        ranges: out,
        ..ClassSpec::default()
    });
    Ok(merged.ranges)
}

const HEADER: &str = "\
// Generated from grammar/*.abnf by abnf/src/codegen/mod.rs. Do not edit.
// To regenerate: IRI_GRAMMAR_REGENERATE=1 cargo test --test generated
";

/// The grammars and what the generator knows of them: the rule sets, their analyses,
/// the variant rules (of all sets; their bits are numbered across them).
struct Context<'s, 'g> {
    g: &'g Grammars,
    sets: &'s [RuleSet<'g>],
    analyses: &'s [Analysis<'s, 'g>],
    variant_rules: Vec<&'s SetRule<'g>>,
}

impl<'s, 'g> Context<'s, 'g> {
    /// Every rule the generated code writes, with its set and analysis: shared rules
    /// once, in the set that writes them.
    fn written(
        &self,
    ) -> impl Iterator<Item = (&'s RuleSet<'g>, &'s Analysis<'s, 'g>, &'s SetRule<'g>)> + '_ {
        self.sets.iter().zip(self.analyses).flat_map(|(set, a)| {
            set.rules
                .iter()
                .filter(|r| !r.shared)
                .map(move |r| (set, a, r))
        })
    }
}

/// Generates `src/grammar/generated.rs` from the grammar files.
pub fn generate(g: &Grammars) -> Result<String, CodegenError> {
    with_context(g, generate_in)?
}

/// Runs `f` with the rule sets of `g` and their analyses.
fn with_context<T>(g: &Grammars, f: impl FnOnce(&Context<'_, '_>) -> T) -> Result<T, CodegenError> {
    let sets = [RuleSet::new(g)?, RuleSet::draft2001(g)?];
    let analyses = sets
        .iter()
        .map(|set| Analysis::new(set, &g.core))
        .collect::<Result<Vec<_>, _>>()?;
    let cx = Context {
        g,
        sets: &sets,
        analyses: &analyses,
        variant_rules: sets
            .iter()
            .flat_map(|s| s.rules.iter().filter(|r| r.variant_defs.is_some()))
            .collect(),
    };
    Ok(f(&cx))
}

fn generate_in(cx: &Context<'_, '_>) -> Result<String, CodegenError> {
    let mut out = String::new();
    out.push_str(HEADER);
    out.push_str(
        "\n//! The combinators generated from `grammar/`, in two rule sets: one per rule of\n\
         //! RFC 3987 §2.2, of the RFC 3986 rules it uses unchanged and of the RFC 5234 core\n\
         //! rules (the grammars of references: URI, IRI, LEIRI); and in the module\n\
         //! `iri2001`, one per rule of the 2001 IRI draft. One `Rule` enum names them all.\n\
         //! Each carries its ABNF and its source; see `abnf/src/codegen/mod.rs` for how\n\
         //! ABNF becomes nom combinators, and `runtime.rs` for the combinators used.\n\n\
         use super::runtime::*;\n\
         use super::{Variant, VariantName, Uri, Iri, Leiri, Iri2001};\n\n",
    );
    write_rule_enum(cx, &mut out);
    write_dispatch(cx, &mut out);
    write_variant_rules(cx, &mut out)?;
    for (k, (set, code)) in combinators(cx).into_iter().enumerate() {
        match set.module {
            None => {
                out.push_str(
                    "// The combinators, one per rule, in the order of the grammar files.\n\n",
                );
                for (_, c) in code {
                    out.push_str(&c);
                }
            }
            Some(m) => {
                let _ = k;
                writeln!(
                    out,
                    "/// The combinators of {}: a rule set of its own, named as the\n\
                     /// document names its rules.\n\
                     pub mod {m} {{\n\
                     use super::super::runtime::*;\n\
                     use super::{{Rule, Variant}};\n",
                    set.about
                )
                .unwrap();
                for (_, c) in code {
                    out.push_str(&c);
                }
                while out.ends_with("\n\n") {
                    out.pop();
                }
                out.push_str("}\n\n");
            }
        }
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    Ok(out)
}

/// The `Rule` enum and its tables: names in the grammars, ABNF text, source,
/// short definitions for error messages, character rules.
fn write_rule_enum(cx: &Context<'_, '_>, out: &mut String) {
    out.push_str(
        "/// A rule of a generated rule set: RFC 3987's (named as in RFC 3987), then the 2001\n\
         /// draft's (named `Iri2001` and the draft's name); see [`Rule::name_in`].\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum Rule {\n",
    );
    for (_, _, r) in cx.written() {
        writeln!(out, "    /// `{}`: {}.", r.name, r.rule.source).unwrap();
        writeln!(out, "    {},", r.ident).unwrap();
    }
    out.push_str("}\n\nimpl Rule {\n    /// Every rule, in the order of the grammar files.\n");
    out.push_str("    pub const ALL: &'static [Rule] = &[\n");
    for (_, _, r) in cx.written() {
        writeln!(out, "        Rule::{},", r.ident).unwrap();
    }
    out.push_str("    ];\n\n");
    write_rule_tables(cx, out);
    // A table for a grammar known at run time: the table of each, by VARIANTS.
    let by_variant = |out: &mut String, name: &str, tables: [&str; 4]| {
        writeln!(
            out,
            "pub const fn {name}(self, variant: VariantName) -> Option<&'static str> {{\n\
             match variant {{"
        )
        .unwrap();
        for ((_, ty, _), table) in VARIANTS.iter().zip(tables) {
            writeln!(out, "VariantName::{ty} => self.{table}(),").unwrap();
        }
        out.push_str("}\n}\n");
    };
    out.push_str(
        "    /// The name of the rule in a variant's grammar, or `None` if that grammar lacks it.\n",
    );
    by_variant(
        out,
        "name_in",
        ["uri_name", "rfc3987_name", "leiri_name", "iri2001_name"],
    );
    out.push_str(
        "\n/// The short definition of [`Rule::short_definition_iri`] in a variant's grammar.\n",
    );
    by_variant(
        out,
        "short_definition",
        [
            "short_definition_uri",
            "short_definition_iri",
            "short_definition_leiri",
            "short_definition_iri2001",
        ],
    );
    out.push_str("}\n\n");
}

/// The tables of the `Rule` enum, one `const fn` each: names in the grammars,
/// ABNF text, source, whether it is a character rule, short definitions.
fn write_rule_tables(cx: &Context<'_, '_>, out: &mut String) {
    let table =
        |out: &mut String,
         doc: &str,
         public: bool,
         fname: &str,
         ret: &str,
         f: &dyn Fn(&RuleSet<'_>, &Analysis<'_, '_>, &SetRule<'_>) -> String| {
            writeln!(out, "    /// {doc}").unwrap();
            // Inlined where the rule is a constant (a combinator asking about its
            // own rule, as Tree mode does at every match), the match folds away.
            out.push_str("    #[inline]\n");
            let vis = if public { "pub " } else { "" };
            writeln!(out, "    {vis}const fn {fname}(self) -> {ret} {{").unwrap();
            out.push_str("        match self {\n");
            for (set, a, r) in cx.written() {
                writeln!(out, "            Rule::{} => {},", r.ident, f(set, a, r)).unwrap();
            }
            out.push_str("        }\n    }\n\n");
        };
    let some_str = |v: Option<&str>| match v {
        Some(n) => format!("Some({})", rust_str(n)),
        None => "None".into(),
    };
    table(
        out,
        "The rule's own name: RFC 3987's (or RFC 3986's / RFC 5234's for the rules RFC 3987 uses unchanged), the 2001 draft's for its rules.",
        true,
        "iri_name",
        "&'static str",
        &|_, _, r| rust_str(r.name),
    );
    table(
        out,
        "The name in RFC 3986, or `None` if the URI grammar has no such rule.",
        true,
        "uri_name",
        "Option<&'static str>",
        &|_, _, r| some_str(r.names[0].as_deref()),
    );
    table(
        out,
        "The name in RFC 3987, or `None` for the rules of another rule set.",
        false,
        "rfc3987_name",
        "Option<&'static str>",
        &|_, _, r| some_str(r.names[1].as_deref()),
    );
    table(
        out,
        "The name in the LEIRI note (`IRI` becomes `LEIRI`), or `None` for the rules of another rule set.",
        true,
        "leiri_name",
        "Option<&'static str>",
        &|_, _, r| some_str(r.names[2].as_deref()),
    );
    table(
        out,
        "The name in the 2001 IRI draft, or `None` if its grammar has no such rule.",
        true,
        "iri2001_name",
        "Option<&'static str>",
        &|_, _, r| some_str(r.names[3].as_deref()),
    );
    table(
        out,
        "The ABNF text of the rule, as in its grammar file.",
        true,
        "abnf",
        "&'static str",
        &|_, _, r| rust_str(&r.rule.text),
    );
    table(
        out,
        "Where the rule is defined: document, section, file and line.",
        true,
        "source",
        "&'static str",
        &|_, _, r| rust_str(&r.rule.source.to_string()),
    );
    let is_character_rule = |a: &Analysis<'_, '_>, r: &SetRule<'_>| {
        let is_class = a
            .class_of(&Element::Rule(r.name.to_string()), &|n| {
                variant_index(&cx.variant_rules, n)
            })
            .is_some();
        // pct-encoded (RFC 2396's escaped) is three characters, kept in trees.
        is_class && !is_percent_triplet(&r.rule.definition)
    };
    table(out, "True for a rule that always matches exactly one character or one `pct-encoded`: parse trees fold it into its parent.", true, "is_character_rule", "bool", &|_, a, r| is_character_rule(a, r).to_string());
    for (k, (variant, vname, doc)) in VARIANTS.into_iter().enumerate() {
        let fname = format!("short_definition_{}", vname.to_ascii_lowercase());
        let about = format!("The definition error messages show beside a character rule in {doc}, when it is a short list of alternatives (rules and quoted strings).");
        table(
            out,
            &about,
            true,
            &fname,
            "Option<&'static str>",
            &|_, a, r| {
                let name = r.names[k].as_deref();
                some_str(
                    name.and_then(|n| short_definition(cx.g, variant, n))
                        .filter(|_| is_character_rule(a, r))
                        .as_deref(),
                )
            },
        );
    }
}

/// The definition of the rule `name` in `variant`'s grammar when it is an alternation
/// of rule names and quoted strings (`ipchar`'s), as error messages show it beside
/// the name.
fn short_definition(g: &Grammars, variant: VariantName, name: &str) -> Option<String> {
    // Under LEIRI, the rules renamed LEIRI are no character rules: the table's names do.
    let table = g.table(variant);
    table
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))?
        .short_definition()
}

/// `parse_rule`: the combinator of a rule chosen at run time.
fn write_dispatch(cx: &Context<'_, '_>, out: &mut String) {
    out.push_str(
        "/// Runs the combinator of `rule`: the rule chosen at run time, e.g. by name.\n\
         pub fn parse_rule<'a, V: Variant, M: Mode>(rule: Rule, i: &'a str) -> PResult<'a, M> {\n    \
         match rule {\n",
    );
    for (set, _, r) in cx.written() {
        writeln!(
            out,
            "        Rule::{} => {}::<V, M>(i),",
            r.ident,
            set.path(r)
        )
        .unwrap();
    }
    out.push_str("    }\n}\n\n");
}

/// The name of the predicate of a variant rule as one grammar file defines it:
/// `rfc3987_ucschar`.
fn predicate_name(def: &RuleDef, rule: &str) -> String {
    format!(
        "{}_{}",
        def.source.file.trim_end_matches(".abnf").replace('-', "_"),
        fn_name(rule)
    )
}

/// The variant rules: their bits, one predicate per definition, and the `Variant`
/// implementations that pick the definitions of each grammar.
fn write_variant_rules(cx: &Context<'_, '_>, out: &mut String) -> Result<(), CodegenError> {
    out.push_str("// Variant rules: the character classes each variant defines for itself.\n\n");
    for (k, r) in cx.variant_rules.iter().enumerate() {
        writeln!(
            out,
            "/// The bit of the variant rule `{}` in a [`Class`].",
            r.name
        )
        .unwrap();
        writeln!(
            out,
            "pub const {}: u32 = 1 << {k};\n",
            fn_name(r.name).to_uppercase()
        )
        .unwrap();
    }
    // One predicate per distinct definition, in name order.
    let mut predicates: BTreeMap<String, &RuleDef> = BTreeMap::new();
    for r in &cx.variant_rules {
        for def in r.variant_defs.as_ref().into_iter().flatten().flatten() {
            predicates.entry(predicate_name(def, r.name)).or_insert(def);
        }
    }
    for (pname, def) in &predicates {
        write_predicate(cx, pname, def, out)?;
    }
    for (vk, (vn, vname, doc)) in VARIANTS.iter().enumerate() {
        let mut chars = Vec::new();
        let mut ascii = Vec::new();
        for r in &cx.variant_rules {
            if let Some(def) = r.variant_defs.as_ref().and_then(|d| d[vk]) {
                let (pname, bit) = (predicate_name(def, r.name), fn_name(r.name).to_uppercase());
                chars.push(format!("(rules & {bit} != 0 && {pname}(c))"));
                ascii.push(format!(
                    "(if rules & {bit} != 0 {{ {}_ASCII }} else {{ 0 }})",
                    pname.to_uppercase()
                ));
            }
        }
        let or_none = |terms: Vec<String>, unused: &str, none: &str, sep: &str| {
            if terms.is_empty() {
                format!("let _ = {unused};\n        {none}")
            } else {
                terms.join(sep)
            }
        };
        writeln!(
            out,
            "/// The variant rules as {doc} defines them.\n\
             impl Variant for {vname} {{\n    \
             const NAME: VariantName = VariantName::{vn:?};\n\n    \
             #[inline]\n    \
             fn variant_char(rules: u32, c: char) -> bool {{\n        {}\n    }}\n\n    \
             #[inline]\n    \
             fn variant_ascii(rules: u32) -> u128 {{\n        {}\n    }}\n}}\n",
            or_none(chars, "(rules, c)", "false", "\n            || "),
            or_none(ascii, "rules", "0", "\n            | "),
        )
        .unwrap();
    }
    Ok(())
}

/// The predicate of one definition of a variant rule, and its ASCII members.
fn write_predicate(
    cx: &Context<'_, '_>,
    pname: &str,
    def: &RuleDef,
    out: &mut String,
) -> Result<(), CodegenError> {
    // The variant rules are RFC 3987's rule set's (the first).
    let ranges = variant_ranges(&cx.analyses[0], def)?;
    out.push_str("/// ```abnf\n");
    for line in def.text.lines() {
        writeln!(out, "/// {line}").unwrap();
    }
    writeln!(out, "/// ```\n///\n/// {}", def.source).unwrap();
    writeln!(out, "pub fn {pname}(c: char) -> bool {{").unwrap();
    out.push_str("    matches!(\n        c as u32,\n");
    for (k, &(lo, hi)) in ranges.iter().enumerate() {
        let sep = if k == 0 { "        " } else { "        | " };
        if lo == hi {
            writeln!(out, "{sep}0x{lo:X}").unwrap();
        } else {
            writeln!(out, "{sep}0x{lo:X}..=0x{hi:X}").unwrap();
        }
    }
    out.push_str("    )\n}\n\n");
    let mut ascii = 0u128;
    for &(lo, hi) in &ranges {
        for x in lo..=hi.min(127) {
            ascii |= 1 << x;
        }
    }
    writeln!(out, "/// The ASCII characters of [`{pname}`].").unwrap();
    writeln!(
        out,
        "const {}_ASCII: u128 = 0x{ascii:X};\n",
        pname.to_uppercase()
    )
    .unwrap();
    Ok(())
}

fn variant_index(variant_rules: &[&SetRule<'_>], name: &str) -> Option<usize> {
    variant_rules
        .iter()
        .position(|r| r.name.eq_ignore_ascii_case(name))
}

/// The combinators of each rule set: each rule's, with its doc comment and the
/// constants it uses, in generation order, by the rule's `Rule` name. A constant
/// shared by several rules of a set is written with the first.
type SetCode<'s, 'g> = (&'s RuleSet<'g>, Vec<(String, String)>);

fn combinators<'s, 'g>(cx: &Context<'s, 'g>) -> Vec<SetCode<'s, 'g>> {
    cx.sets
        .iter()
        .zip(cx.analyses)
        .map(|(set, a)| (set, set_combinators(cx, set, a)))
        .collect()
}

fn set_combinators<'s, 'g>(
    cx: &Context<'s, 'g>,
    set: &'s RuleSet<'g>,
    a: &'s Analysis<'s, 'g>,
) -> Vec<(String, String)> {
    let mut w = Writer {
        a,
        set,
        variant_rules: cx.variant_rules.clone(),
        consts: Vec::new(),
        classes: Vec::new(),
        counter: 0,
        current: String::new(),
        top: false,
    };
    let mut all = Vec::new();
    for r in set.rules.iter().filter(|r| !r.shared) {
        w.current = fn_name(r.name);
        w.counter = 0;
        let mut out = doc_lines(r.rule);
        if let Some(defs) = &r.variant_defs {
            let per: Vec<String> = VARIANTS
                .iter()
                .zip(defs.iter())
                .map(|((_, vname, _), d)| match d {
                    None => format!("empty under `{vname}`"),
                    Some(d) => format!("`{vname}` uses {}", d.source),
                })
                .collect();
            writeln!(out, "///\n/// A variant rule: {}.", per.join("; ")).unwrap();
        }
        writeln!(
            out,
            "pub fn {}<'a, V: Variant, M: Mode>(i: &'a str) -> PResult<'a, M> {{",
            fn_name(r.name)
        )
        .unwrap();
        let body = if r.variant_defs.is_some() {
            let c = ClassSpec {
                variant: [w.variant_index(r.name).unwrap_or(0)].into_iter().collect(),
                expected: vec![r.name.to_string()],
                ..ClassSpec::default()
            };
            let name = w.class_const(&c, &Element::Rule(r.name.to_string()));
            format!("Scan(&{name}, 1, 1)")
        } else {
            let key = r.name.to_ascii_lowercase();
            w.top = matches!(r.rule.definition, Element::Alternation(_));
            w.expr(&r.rule.definition, a.follow[&key], &a.follow2[&key], 1)
        };
        writeln!(
            out,
            "    rule::<V, M, _>(Rule::{}, i, {body})\n}}\n",
            r.ident
        )
        .unwrap();
        for c in w.consts.drain(..) {
            out.push_str(&c);
            out.push('\n');
        }
        all.push((r.ident.clone(), out));
    }
    all
}

/// The generated source of one rule's combinator (and the constants first written
/// with it), for `iri grammar NAME --rust`: exactly what `generated.rs` holds for
/// that rule. `ident` is the rule's variant of the generated `Rule` enum, as its
/// `Debug` writes it (`DecOctet`, `Iri2001IhierPart`).
///
/// ```
/// use iri_grammar_abnf::{codegen::rule_source, Grammars};
/// let g = Grammars::builtin();
/// assert!(rule_source(&g, "DecOctet").unwrap().contains("pub fn dec_octet"));
/// assert!(rule_source(&g, "Iri2001IhierPart").unwrap().contains("pub fn ihier_part"));
/// assert_eq!(rule_source(&g, "NoSuchRule"), None);
/// ```
pub fn rule_source(g: &Grammars, ident: &str) -> Option<String> {
    with_context(g, |cx| {
        combinators(cx)
            .into_iter()
            .flat_map(|(_, code)| code)
            .find(|(n, _)| *n == ident)
            .map(|(_, code)| code.trim_end().to_string())
    })
    .ok()?
}
