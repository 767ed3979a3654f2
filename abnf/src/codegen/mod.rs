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
//! table-driven `Scan`. The oracle (`abnf::oracle`) checks the result.

mod automata;

pub use automata::generate_automata;

use crate::{name_in, Element, Grammars, RuleDef, RuleList, VariantName};
use iri_grammar::combinators::Set;
use std::collections::{BTreeMap, BTreeSet};
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

/// The specification of a character class, from which the generator writes a
/// runtime `Class` constant: the language of an element that always matches exactly one
/// character (or one `pct-encoded` triplet), e.g. `*( iunreserved / pct-encoded / ":" )`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct ClassSpec {
    /// Code point ranges (ASCII and beyond), merged.
    ranges: Vec<(u32, u32)>,
    /// `pct-encoded` is a member.
    pct: bool,
    /// Variant rules that are members (indexes into the variant-rule list).
    variant: BTreeSet<usize>,
    /// What the error message says was expected, in ABNF terms.
    expected: Vec<String>,
}

impl ClassSpec {
    fn merge(mut self, o: ClassSpec) -> ClassSpec {
        self.ranges.extend(o.ranges);
        self.ranges.sort();
        let mut merged: Vec<(u32, u32)> = Vec::new();
        for (lo, hi) in self.ranges {
            match merged.last_mut() {
                Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
                _ => merged.push((lo, hi)),
            }
        }
        self.ranges = merged;
        self.pct |= o.pct;
        self.variant.extend(o.variant);
        for e in o.expected {
            if !self.expected.contains(&e) {
                self.expected.push(e);
            }
        }
        self
    }
}

/// One rule of the generated rule set, with its names in the three grammars.
#[derive(Debug, Clone)]
pub struct SetRule<'g> {
    /// The name in RFC 3987 (or in RFC 3986 / RFC 5234 for the rules it uses unchanged).
    pub name: &'g str,
    /// The definition the combinator is generated from.
    pub rule: &'g RuleDef,
    /// The name in RFC 3986, if the URI grammar has this rule.
    pub uri_name: Option<String>,
    /// The name in the LEIRI note.
    pub leiri_name: String,
    /// For a variant rule: its definition under Uri, Iri and Leiri (`None`: empty).
    pub variant_defs: Option<[Option<&'g RuleDef>; 3]>,
}

impl<'g> SetRule<'g> {
    /// A rule all three grammars share under one name (RFC 3986 rules that RFC 3987
    /// uses unchanged, core rules).
    fn unchanged(r: &'g RuleDef) -> SetRule<'g> {
        SetRule {
            name: &r.name,
            rule: r,
            uri_name: Some(r.name.clone()),
            leiri_name: r.name.clone(),
            variant_defs: None,
        }
    }
}

/// The generated rule set: RFC 3987 rules, the RFC 3986 rules they use unchanged, core rules.
#[derive(Debug, Clone)]
pub struct RuleSet<'g> {
    /// In generation order.
    pub rules: Vec<SetRule<'g>>,
}

impl<'g> RuleSet<'g> {
    /// Builds the rule set from the four grammar files.
    pub fn new(g: &'g Grammars) -> Result<RuleSet<'g>, CodegenError> {
        let mut rules: Vec<SetRule<'g>> = Vec::new();
        let leiri_override = |name: &str| g.leiri.get(name);
        for r in &g.rfc3987.rules {
            let uri = g.rfc3986.get(&name_in(&r.name, VariantName::Uri));
            let leiri_name = name_in(&r.name, VariantName::Leiri);
            let is_variant = uri.is_none() || leiri_override(&r.name).is_some();
            rules.push(SetRule {
                name: &r.name,
                rule: r,
                uri_name: uri.map(|u| u.name.clone()),
                leiri_name,
                variant_defs: is_variant
                    .then(|| [None, Some(r), Some(leiri_override(&r.name).unwrap_or(r))]),
            });
        }
        // RFC 3986 rules that RFC 3987 does not rename are used unchanged.
        for r in &g.rfc3986.rules {
            let renamed = g
                .rfc3987
                .rules
                .iter()
                .any(|i| name_in(&i.name, VariantName::Uri).eq_ignore_ascii_case(&r.name));
            if !renamed {
                rules.push(SetRule::unchanged(r));
            }
        }
        // A renamed RFC 3986 rule still used by one of the above (IPvFuture uses
        // `unreserved`, not `iunreserved`) is in the set under its own name.
        loop {
            let mut missing: Vec<&'g RuleDef> = Vec::new();
            for r in &rules {
                r.rule.definition.rule_refs(&mut |n| {
                    let known = rules.iter().any(|x| x.name.eq_ignore_ascii_case(n))
                        || missing.iter().any(|x| x.name.eq_ignore_ascii_case(n));
                    if !known {
                        if let Some(u) = g.rfc3986.get(n) {
                            missing.push(u);
                        }
                    }
                });
            }
            if missing.is_empty() {
                break;
            }
            rules.extend(missing.into_iter().map(SetRule::unchanged));
        }
        rules.extend(g.core.rules.iter().map(SetRule::unchanged));
        for l in &g.leiri.rules {
            if !rules.iter().any(|r| r.name.eq_ignore_ascii_case(&l.name)) {
                return Err(CodegenError(format!(
                    "grammar/leiri.abnf: {} redefines no rule of RFC 3987",
                    l.name
                )));
            }
        }
        Ok(RuleSet { rules })
    }

    /// The rule named `name` in the IRI naming (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&SetRule<'g>> {
        self.rules
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }
}

/// The Rust function name of a rule: `ipath-abempty` → `ipath_abempty`.
pub fn fn_name(rule: &str) -> String {
    rule.to_ascii_lowercase().replace('-', "_")
}

/// The variant of the generated `Rule` enum: `ipath-abempty` → `IpathAbempty`.
pub fn enum_name(rule: &str) -> String {
    rule.split('-')
        .map(|part| {
            let mut cs = part.chars();
            match cs.next() {
                Some(c) => c.to_ascii_uppercase().to_string() + &cs.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

/// The analysis of the rule set: nullability, FIRST and FOLLOW sets, classes.
struct Analysis<'s, 'g> {
    set: &'s RuleSet<'g>,
    core: &'g RuleList,
    nullable: BTreeMap<String, bool>,
    first: BTreeMap<String, Set>,
    follow: BTreeMap<String, Set>,
}

impl<'s, 'g> Analysis<'s, 'g> {
    fn new(set: &'s RuleSet<'g>, core: &'g RuleList) -> Result<Self, CodegenError> {
        let mut a = Analysis {
            set,
            core,
            nullable: BTreeMap::new(),
            first: BTreeMap::new(),
            follow: BTreeMap::new(),
        };
        for r in &set.rules {
            for def in a.definitions(r) {
                a.check_refs(&r.rule.name, &def.definition)?;
            }
        }
        // The grammars are not recursive, but iterate to a fixpoint anyway: it is
        // the textbook definition and costs nothing at this size.
        loop {
            let mut changed = false;
            for r in &set.rules {
                let key = r.name.to_ascii_lowercase();
                let defs = a.definitions(r);
                let n = defs.iter().any(|d| a.nullable_of(&d.definition));
                let f = defs
                    .iter()
                    .fold(Set::new(), |acc, d| acc.union(a.first_of(&d.definition)));
                if a.nullable.get(&key) != Some(&n) {
                    a.nullable.insert(key.clone(), n);
                    changed = true;
                }
                if a.first.get(&key) != Some(&f) {
                    a.first.insert(key, f);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // FOLLOW: any rule can be matched on its own, so the end of input follows each.
        for r in &set.rules {
            a.follow
                .insert(r.name.to_ascii_lowercase(), Set::new().end_of_input());
        }
        loop {
            let before = a.follow.clone();
            for r in &set.rules {
                let f = a.follow[&r.name.to_ascii_lowercase()];
                for d in a.definitions(r) {
                    a.propagate_follow(&d.definition, f);
                }
            }
            if a.follow == before {
                break;
            }
        }
        Ok(a)
    }

    /// Every definition of a rule: one, or one per variant for a variant rule.
    fn definitions(&self, r: &SetRule<'g>) -> Vec<&'g RuleDef> {
        match &r.variant_defs {
            None => vec![r.rule],
            Some(defs) => {
                let mut out: Vec<&'g RuleDef> = Vec::new();
                for d in defs.iter().flatten() {
                    if !out.iter().any(|o| std::ptr::eq(*o, *d)) {
                        out.push(d);
                    }
                }
                out
            }
        }
    }

    /// The rule a name refers to; core rules used by `leiri.abnf` resolve too.
    fn lookup(&self, name: &str) -> Option<&'s SetRule<'g>> {
        self.set.get(name)
    }

    fn check_refs(&self, in_rule: &str, e: &Element) -> Result<(), CodegenError> {
        match e {
            Element::Rule(n) => {
                if self.lookup(n).is_none() && self.core.get(n).is_none() {
                    return Err(CodegenError(format!(
                        "rule {in_rule} refers to {n}, which no grammar file defines"
                    )));
                }
                Ok(())
            }
            Element::Alternation(v) | Element::Concatenation(v) => {
                v.iter().try_for_each(|x| self.check_refs(in_rule, x))
            }
            Element::Repetition { element, .. } => self.check_refs(in_rule, element),
            _ => Ok(()),
        }
    }

    fn nullable_of(&self, e: &Element) -> bool {
        match e {
            Element::Alternation(v) => v.iter().any(|x| self.nullable_of(x)),
            Element::Concatenation(v) => v.iter().all(|x| self.nullable_of(x)),
            Element::Repetition { min, element, .. } => *min == 0 || self.nullable_of(element),
            Element::Rule(n) => self
                .nullable
                .get(&n.to_ascii_lowercase())
                .copied()
                .unwrap_or(false),
            Element::CharVal { text, .. } => text.is_empty(),
            Element::Sequence(s) => s.is_empty(),
            Element::Range(..) | Element::Prose(_) => false,
        }
    }

    fn first_of(&self, e: &Element) -> Set {
        let mut s = Set::new();
        match e {
            Element::Alternation(v) => {
                for x in v {
                    s = s.union(self.first_of(x));
                }
            }
            Element::Concatenation(v) => {
                for x in v {
                    s = s.union(self.first_of(x));
                    if !self.nullable_of(x) {
                        break;
                    }
                }
            }
            Element::Repetition { max, element, .. } => {
                if *max != Some(0) {
                    s = self.first_of(element);
                }
            }
            Element::Rule(n) => {
                s = self
                    .first
                    .get(&n.to_ascii_lowercase())
                    .copied()
                    .unwrap_or_default()
            }
            Element::CharVal { text, .. } => {
                if let Some(c) = text.chars().next() {
                    s = s.char_either_case(c);
                }
            }
            Element::Sequence(cs) => {
                if let Some(&c) = cs.first() {
                    s = s.code_points(c, c);
                }
            }
            Element::Range(lo, hi) => s = s.code_points(*lo, *hi),
            Element::Prose(_) => {}
        }
        s
    }

    /// FIRST of a sequence of elements, plus `after` if they can all be empty.
    fn first_of_seq(&self, items: &[Element], after: Set) -> Set {
        let mut s = Set::new();
        for x in items {
            s = s.union(self.first_of(x));
            if !self.nullable_of(x) {
                return s;
            }
        }
        s.union(after)
    }

    /// What may follow one iteration of a repetition: another iteration (unless
    /// at most one is allowed) or what follows the repetition.
    fn after_iteration(&self, element: &Element, max: Option<u32>, follow: Set) -> Set {
        if max.is_some_and(|m| m <= 1) {
            follow
        } else {
            self.first_of(element).union(follow)
        }
    }

    fn propagate_follow(&mut self, e: &Element, follow: Set) {
        match e {
            Element::Alternation(v) => {
                for x in v {
                    self.propagate_follow(x, follow);
                }
            }
            Element::Concatenation(v) => {
                for (k, x) in v.iter().enumerate() {
                    let f = self.first_of_seq(&v[k + 1..], follow);
                    self.propagate_follow(x, f);
                }
            }
            Element::Repetition { element, max, .. } => {
                let f = self.after_iteration(element, *max, follow);
                self.propagate_follow(element, f);
            }
            Element::Rule(n) => {
                let key = n.to_ascii_lowercase();
                if let Some(old) = self.follow.get(&key).copied() {
                    self.follow.insert(key, old.union(follow));
                }
            }
            _ => {}
        }
    }

    /// The class of an element that always matches one character or one
    /// `pct-encoded`, or `None`. `variant_index` numbers the variant rules.
    fn class_of(
        &self,
        e: &Element,
        variant_index: &dyn Fn(&str) -> Option<usize>,
    ) -> Option<ClassSpec> {
        match e {
            Element::Range(lo, hi) => Some(ClassSpec {
                ranges: vec![(*lo, *hi)],
                expected: vec![e.to_string()],
                ..ClassSpec::default()
            }),
            Element::Sequence(cs) if cs.len() == 1 => Some(ClassSpec {
                ranges: vec![(cs[0], cs[0])],
                expected: vec![e.to_string()],
                ..ClassSpec::default()
            }),
            Element::CharVal {
                text,
                case_sensitive,
            } if text.chars().count() == 1 => {
                let c = text.chars().next()? as u32;
                let mut ranges = vec![(c, c)];
                if !case_sensitive {
                    let ch = char::from_u32(c)?;
                    for other in [ch.to_ascii_lowercase(), ch.to_ascii_uppercase()] {
                        ranges.push((other as u32, other as u32));
                    }
                }
                Some(
                    ClassSpec {
                        expected: vec![e.to_string()],
                        ..ClassSpec::default()
                    }
                    .merge(ClassSpec {
                        ranges,
                        ..ClassSpec::default()
                    }),
                )
            }
            Element::Alternation(v) => {
                let mut c = ClassSpec::default();
                for x in v {
                    c = c.merge(self.class_of(x, variant_index)?);
                }
                Some(c)
            }
            Element::Rule(n) => {
                let r = self.lookup(n)?;
                let mut c = if let Some(k) = variant_index(r.name) {
                    ClassSpec {
                        variant: [k].into_iter().collect(),
                        ..ClassSpec::default()
                    }
                } else if r.name.eq_ignore_ascii_case("pct-encoded") {
                    // The one member of these classes longer than a character; the
                    // scanner knows its shape, "%" HEXDIG HEXDIG (RFC 3986 §2.1).
                    ClassSpec {
                        pct: true,
                        ..ClassSpec::default()
                    }
                } else {
                    self.class_of(&r.rule.definition, variant_index)?
                };
                c.expected = vec![r.name.to_string()];
                Some(c)
            }
            _ => None,
        }
    }

    /// The next-character set of a class, for the conflict test.
    fn class_first(&self, c: &ClassSpec, variant_rules: &[&SetRule<'g>]) -> Set {
        let mut s = Set::new();
        for &(lo, hi) in &c.ranges {
            s = s.code_points(lo, hi);
        }
        if c.pct {
            s = s.code_points(b'%' as u32, b'%' as u32);
        }
        for &k in &c.variant {
            s = s.union(self.first[&variant_rules[k].name.to_ascii_lowercase()]);
        }
        s
    }
}

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

/// Writes an expectation of the error messages as a Rust `Expected` value.
fn expected_value(e: &str, set: &RuleSet<'_>) -> String {
    if let Some(r) = set.get(e) {
        format!("Expected::Rule(Rule::{})", enum_name(r.name))
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

    fn next_set_const(&mut self, s: Set, about: &str) -> String {
        let name = format!("{}_AHEAD_{}", self.current.to_uppercase(), self.counter);
        self.counter += 1;
        let mut build = format!("Set::new(){}", ascii_builder(s.ascii_bits()));
        if s.has_non_ascii() {
            build.push_str(".non_ascii()");
        }
        if s.has_end() {
            build.push_str(".end_of_input()");
        }
        self.consts.push(format!(
            "/// What may follow `{about}` in `{}`.\nconst {name}: Set = {build};\n",
            self.current_rule_name(),
        ));
        name
    }

    fn first_set_const(&mut self, s: Set, about: &str) -> String {
        let name = format!("{}_FIRST_{}", self.current.to_uppercase(), self.counter);
        self.counter += 1;
        let mut build = format!("Set::new(){}", ascii_builder(s.ascii_bits()));
        if s.has_non_ascii() {
            build.push_str(".non_ascii()");
        }
        self.consts.push(format!(
            "/// What can start `{about}` in `{}`.\nconst {name}: Set = {build};\n",
            self.current_rule_name(),
        ));
        name
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
        if c.pct {
            build.push_str(".pct_encoded()");
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

    /// Writes the combinator expression of `e`, given what may follow it.
    fn expr(&mut self, e: &Element, follow: Set, indent: usize) -> String {
        let pad = "    ".repeat(indent);
        match e {
            Element::Rule(n) => format!("{}::<V, M>", fn_name(n)),
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
                        self.expr(x, f, indent + 1)
                    })
                    .collect();
                Self::tuple("Cat", parts, &pad)
            }
            Element::Alternation(alts) => self.alternation(alts, follow, indent),
            Element::Repetition {
                min,
                max,
                element,
                optional_syntax,
            } => self.repetition(e, (*min, *max), element, *optional_syntax, follow, indent),
        }
    }

    /// `Alt((..))`: each alternative guarded with `Ahead` where a later one could
    /// start with the same character (or it can be empty), and dispatched on its
    /// FIRST set where that saves a call. The alternation at the top of a rule's
    /// definition is a `Choice`, which tells trees which alternative matched.
    fn alternation(&mut self, alts: &[Element], follow: Set, indent: usize) -> String {
        let top = std::mem::take(&mut self.top);
        let parts: Vec<String> = alts
            .iter()
            .enumerate()
            .map(|(k, x)| {
                let inner = self.expr(x, follow, indent + 1);
                let later = alts[k + 1..]
                    .iter()
                    .fold(Set::new(), |s, y| s.union(self.a.first_of(y)));
                let overlaps = self.a.first_of(x).intersects(later);
                let last = k + 1 == alts.len();
                let inner = if !last && (overlaps || self.a.nullable_of(x)) {
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
        follow: Set,
        indent: usize,
    ) -> String {
        if max == Some(0) {
            return "Empty".to_string();
        }
        let max_s = match max {
            Some(m) => m.to_string(),
            None => "INF".to_string(),
        };
        if let Some(c) = self.class(element) {
            let cf = self.a.class_first(&c, &self.variant_rules);
            if !cf.intersects(follow) {
                let name = self.class_const(&c, element);
                return format!("Scan(&{name}, {min}, {max_s})");
            }
        }
        let body_first = self.a.first_of(element);
        let inner_follow = self.a.after_iteration(element, max, follow);
        let inner = self.expr(element, inner_follow, indent);
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
            format!("Repeat({min}, {max_s}, {inner})")
        }
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

/// The grammars and what the generator knows of them: the rule set, its analysis,
/// the variant rules, and the three grammars' names with their documents.
struct Context<'s, 'g> {
    g: &'g Grammars,
    set: &'s RuleSet<'g>,
    a: &'s Analysis<'s, 'g>,
    variant_rules: Vec<&'s SetRule<'g>>,
}

/// The three grammars as the generated code names them: value, type, document.
const VARIANTS: [(VariantName, &str, &str); 3] = [
    (VariantName::Uri, "Uri", "RFC 3986"),
    (VariantName::Iri, "Iri", "RFC 3987"),
    (VariantName::Leiri, "Leiri", "the LEIRI note"),
];

/// Generates `src/grammar/generated.rs` from the grammar files.
pub fn generate(g: &Grammars) -> Result<String, CodegenError> {
    with_context(g, generate_in)?
}

/// Runs `f` with the rule set of `g` and its analysis.
fn with_context<T>(g: &Grammars, f: impl FnOnce(&Context<'_, '_>) -> T) -> Result<T, CodegenError> {
    let set = RuleSet::new(g)?;
    let a = Analysis::new(&set, &g.core)?;
    let cx = Context {
        g,
        set: &set,
        a: &a,
        variant_rules: set
            .rules
            .iter()
            .filter(|r| r.variant_defs.is_some())
            .collect(),
    };
    Ok(f(&cx))
}

fn generate_in(cx: &Context<'_, '_>) -> Result<String, CodegenError> {
    let mut out = String::new();
    out.push_str(HEADER);
    out.push_str(
        "\n//! The combinators generated from `grammar/`: one per rule of RFC 3987 §2.2,\n\
         //! of the RFC 3986 rules it uses unchanged, and of the RFC 5234 core rules.\n\
         //! Each carries its ABNF and its source; see `abnf/src/codegen/mod.rs` for how\n\
         //! ABNF becomes nom combinators, and `runtime.rs` for the combinators used.\n\n\
         use super::runtime::*;\n\
         use super::{Variant, VariantName, Uri, Iri, Leiri};\n\n",
    );
    write_rule_enum(cx, &mut out);
    write_dispatch(cx, &mut out);
    write_variant_rules(cx, &mut out)?;
    out.push_str("// The combinators, one per rule, in the order of the grammar files.\n\n");
    for (_, code) in combinators(cx) {
        out.push_str(&code);
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    Ok(out)
}

/// The `Rule` enum and its tables: names in the three grammars, ABNF text, source,
/// short definitions for error messages, character rules.
fn write_rule_enum(cx: &Context<'_, '_>, out: &mut String) {
    let set = cx.set;
    out.push_str(
        "/// A rule of the generated rule set (named as in RFC 3987; see [`Rule::name_in`]).\n\
         #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum Rule {\n",
    );
    for r in &set.rules {
        writeln!(out, "    /// `{}`: {}.", r.name, r.rule.source).unwrap();
        writeln!(out, "    {},", enum_name(r.name)).unwrap();
    }
    out.push_str("}\n\nimpl Rule {\n    /// Every rule, in the order of the grammar files.\n");
    out.push_str("    pub const ALL: &'static [Rule] = &[\n");
    for r in &set.rules {
        writeln!(out, "        Rule::{},", enum_name(r.name)).unwrap();
    }
    out.push_str("    ];\n\n");
    write_rule_tables(cx, out);
    out.push_str(
        "    /// The name of the rule in a variant's grammar, or `None` if that grammar lacks it.\n\
         pub const fn name_in(self, variant: VariantName) -> Option<&'static str> {\n\
         match variant {\n\
         VariantName::Uri => self.uri_name(),\n\
         VariantName::Iri => Some(self.iri_name()),\n\
         VariantName::Leiri => Some(self.leiri_name()),\n\
         }\n\
         }\n\n\
         /// The short definition of [`Rule::short_definition_iri`] in a variant's grammar.\n\
         pub const fn short_definition(self, variant: VariantName) -> Option<&'static str> {\n\
         match variant {\n\
         VariantName::Uri => self.short_definition_uri(),\n\
         VariantName::Iri => self.short_definition_iri(),\n\
         VariantName::Leiri => self.short_definition_leiri(),\n\
         }\n\
         }\n\
         }\n\n",
    );
}

/// The tables of the `Rule` enum, one `const fn` each: names in the three grammars,
/// ABNF text, source, whether it is a character rule, short definitions.
fn write_rule_tables(cx: &Context<'_, '_>, out: &mut String) {
    let set = cx.set;
    let table = |out: &mut String,
                 doc: &str,
                 fname: &str,
                 ret: &str,
                 f: &dyn Fn(&SetRule<'_>) -> String| {
        writeln!(out, "    /// {doc}").unwrap();
        writeln!(out, "    pub const fn {fname}(self) -> {ret} {{").unwrap();
        out.push_str("        match self {\n");
        for r in &set.rules {
            writeln!(out, "            Rule::{} => {},", enum_name(r.name), f(r)).unwrap();
        }
        out.push_str("        }\n    }\n\n");
    };
    let some_str = |v: Option<String>| match v {
        Some(n) => format!("Some({})", rust_str(&n)),
        None => "None".into(),
    };
    table(
        out,
        "The name in RFC 3987 (or in RFC 3986 / RFC 5234 for rules RFC 3987 uses unchanged).",
        "iri_name",
        "&'static str",
        &|r| rust_str(r.name),
    );
    table(
        out,
        "The name in RFC 3986, or `None` if the URI grammar has no such rule.",
        "uri_name",
        "Option<&'static str>",
        &|r| some_str(r.uri_name.clone()),
    );
    table(
        out,
        "The name in the LEIRI note (`IRI` becomes `LEIRI`).",
        "leiri_name",
        "&'static str",
        &|r| rust_str(&r.leiri_name),
    );
    table(
        out,
        "The ABNF text of the rule, as in its grammar file.",
        "abnf",
        "&'static str",
        &|r| rust_str(&r.rule.text),
    );
    table(
        out,
        "Where the rule is defined: document, section, file and line.",
        "source",
        "&'static str",
        &|r| rust_str(&r.rule.source.to_string()),
    );
    let is_character_rule = |r: &SetRule<'_>| {
        let is_class =
            cx.a.class_of(&Element::Rule(r.name.to_string()), &|n| {
                variant_index(&cx.variant_rules, n)
            })
            .is_some();
        is_class && !r.name.eq_ignore_ascii_case("pct-encoded")
    };
    table(out, "True for a rule that always matches exactly one character or one `pct-encoded`: parse trees fold it into its parent.", "is_character_rule", "bool", &|r| is_character_rule(r).to_string());
    for (variant, vname, doc) in VARIANTS {
        let fname = format!("short_definition_{}", vname.to_ascii_lowercase());
        let about = format!("The definition error messages show beside a character rule in {doc}, when it is a short list of alternatives (rules and quoted strings).");
        table(out, &about, &fname, "Option<&'static str>", &|r| {
            some_str(short_definition(cx.g, variant, r).filter(|_| is_character_rule(r)))
        });
    }
}

/// The definition of `r` in `variant`'s grammar when it is an alternation of rule
/// names and quoted strings (`ipchar`'s), as error messages show it beside the name.
fn short_definition(g: &Grammars, variant: VariantName, r: &SetRule<'_>) -> Option<String> {
    // The tables name rules as RFC 3986 does under Uri, as RFC 3987 does otherwise
    // (the LEIRI note renames no character rule).
    let name = match variant {
        VariantName::Uri => r.uri_name.clone()?,
        VariantName::Iri | VariantName::Leiri => r.name.to_string(),
    };
    let table = g.table(variant);
    let def = table.iter().find(|d| d.name.eq_ignore_ascii_case(&name))?;
    match &def.definition {
        Element::Alternation(alts)
            if alts
                .iter()
                .all(|a| matches!(a, Element::Rule(_) | Element::CharVal { .. })) =>
        {
            Some(def.definition.to_string())
        }
        _ => None,
    }
}

/// `parse_rule`: the combinator of a rule chosen at run time.
fn write_dispatch(cx: &Context<'_, '_>, out: &mut String) {
    out.push_str(
        "/// Runs the combinator of `rule`: the rule chosen at run time, e.g. by name.\n\
         pub fn parse_rule<'a, V: Variant, M: Mode>(rule: Rule, i: &'a str) -> PResult<'a, M> {\n    \
         match rule {\n",
    );
    for r in &cx.set.rules {
        writeln!(
            out,
            "        Rule::{} => {}::<V, M>(i),",
            enum_name(r.name),
            fn_name(r.name)
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
    let ranges = variant_ranges(cx.a, def)?;
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

/// The combinator of each rule, with its doc comment and the constants it uses, in
/// generation order. A constant shared by several rules is written with the first.
fn combinators<'g>(cx: &Context<'_, 'g>) -> Vec<(&'g str, String)> {
    let mut w = Writer {
        a: cx.a,
        set: cx.set,
        variant_rules: cx.variant_rules.clone(),
        consts: Vec::new(),
        classes: Vec::new(),
        counter: 0,
        current: String::new(),
        top: false,
    };
    let mut all = Vec::new();
    for r in &cx.set.rules {
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
            let follow = cx.a.follow[&r.name.to_ascii_lowercase()];
            w.top = matches!(r.rule.definition, Element::Alternation(_));
            w.expr(&r.rule.definition, follow, 1)
        };
        writeln!(
            out,
            "    rule::<V, M, _>(Rule::{}, i, {body})\n}}\n",
            enum_name(r.name)
        )
        .unwrap();
        for c in w.consts.drain(..) {
            out.push_str(&c);
            out.push('\n');
        }
        all.push((r.name, out));
    }
    all
}

/// The generated source of one rule's combinator (and the constants first written
/// with it), for `iri grammar NAME --rust`: exactly what `generated.rs` holds for
/// that rule. `name` is in the IRI naming.
pub fn rule_source(g: &Grammars, name: &str) -> Option<String> {
    with_context(g, |cx| {
        combinators(cx)
            .into_iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, code)| code.trim_end().to_string())
    })
    .ok()?
}
