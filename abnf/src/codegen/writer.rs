//! The code of one rule: its definition written as nom combinators, with the
//! lookahead guards, scans and delimited loops that make the ordered translation
//! exact (see the module above), and the constants of the sets they test.

use super::lookahead::{Analysis, ClassSpec};
use super::lookahead2::Look2;
use super::{fn_name, variant_index, CodegenError, RuleSet, SetRule};
use crate::{Element, RuleDef};
use iri_grammar_contract::Set;
use std::fmt::Write as _;

/// Escapes a string for a Rust string literal.
pub(super) fn rust_str(s: &str) -> String {
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
pub(super) fn ascii_builder(bits: u128) -> String {
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
pub(super) fn set_builder(s: Set, with_end: bool) -> String {
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
pub(super) fn expected_value(e: &str, set: &RuleSet<'_>) -> String {
    if let Some(r) = set.get(e) {
        format!("Expected::Rule(Rule::{})", r.ident)
    } else if let Some(text) = e.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
        format!("Expected::Lit({})", rust_str(text))
    } else {
        format!("Expected::Abnf({})", rust_str(e))
    }
}

/// The generator's state while writing one file.
pub(super) struct Writer<'a, 's, 'g> {
    pub(super) a: &'a Analysis<'s, 'g>,
    pub(super) set: &'s RuleSet<'g>,
    pub(super) variant_rules: Vec<&'s SetRule<'g>>,
    /// Constants written after the function being generated.
    pub(super) consts: Vec<String>,
    /// Classes already written, by content, with their constant names.
    pub(super) classes: Vec<(ClassSpec, String)>,
    /// Per-rule counter for constant names.
    pub(super) counter: usize,
    pub(super) current: String,
    /// The next alternation is the top of a rule's definition.
    pub(super) top: bool,
}

impl<'a, 's, 'g> Writer<'a, 's, 'g> {
    pub(super) fn variant_index(&self, name: &str) -> Option<usize> {
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

    pub(super) fn class_const(&mut self, c: &ClassSpec, e: &Element) -> String {
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
    pub(super) fn expr(
        &mut self,
        e: &Element,
        follow: Set,
        follow2: &Look2,
        indent: usize,
    ) -> String {
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
pub(super) fn doc_lines(r: &RuleDef) -> String {
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
pub(super) fn variant_ranges(
    a: &Analysis<'_, '_>,
    def: &RuleDef,
) -> Result<Vec<(u32, u32)>, CodegenError> {
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
