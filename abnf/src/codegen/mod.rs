//! The generator: from the rule table to one nom combinator per rule.
//!
//! It writes `src/grammar/generated.rs`; the test `tests/it/generated.rs` regenerates
//! it and fails when the committed file is stale (run
//! `IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar --test it generated` to rewrite it).
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
pub mod automaton;
mod lookahead;
mod lookahead2;
mod rules;
pub mod standalone;
mod writer;

pub use automata::generate_automata;
pub use rules::{enum_name, fn_name, RuleSet, SetRule};

use crate::{Element, Grammars, RuleDef, VariantName};
use lookahead::{is_percent_triplet, Analysis, ClassSpec};
use rules::{enum_rules, grammar_index, VARIANTS};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use writer::{doc_lines, rust_str, variant_ranges, Writer};

/// An error in a grammar that the generator cannot turn into combinators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CodegenError(pub String);

impl std::fmt::Display for CodegenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for CodegenError {}

const HEADER: &str = "\
// Generated from grammar/*.abnf by abnf/src/codegen/mod.rs. Do not edit.
// To regenerate: IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar --test it generated
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
         //! ABNF becomes nom combinators, and `runtime/` for the combinators used.\n\n\
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
