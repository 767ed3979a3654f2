//! The generated rule sets: which rules each writes (RFC 3987's, with the RFC 3986
//! and core rules it uses; the 2001 draft's), their names in each grammar of the
//! engine, and the Rust names the generated code gives them.

use super::CodegenError;
use crate::{name_in, Grammars, RuleDef, VariantName};

/// One rule of a generated rule set, with its names in the grammars of the engine.
#[derive(Debug, Clone)]
pub struct SetRule<'g> {
    /// The name in the rule set's own document: RFC 3987's (or RFC 3986's / RFC 5234's
    /// for the rules RFC 3987 uses unchanged), the 2001 draft's for its rule set.
    pub name: &'g str,
    /// The definition the combinator is generated from.
    pub rule: &'g RuleDef,
    /// The name in each grammar, in the order of [`VariantName::EVERY`] (`None`: not
    /// a rule of that grammar).
    pub names: [Option<String>; 4],
    /// For a variant rule: its definition under each grammar, in the order of
    /// [`VariantName::EVERY`] (`None`: empty).
    pub variant_defs: Option<[Option<&'g RuleDef>; 4]>,
    /// Written by another rule set and used from this one (the core rules the 2001
    /// draft uses are RFC 3987's rule set's combinators).
    pub shared: bool,
    /// The variant of the generated `Rule` enum: the rule set's prefix and the name
    /// ([`enum_name`]), e.g. `IpathAbempty`, `Iri2001IhierPart`.
    pub ident: String,
}

impl<'g> SetRule<'g> {
    /// A rule the three grammars of references share under one name (RFC 3986 rules
    /// that RFC 3987 uses unchanged, core rules); `in_2001`: the 2001 draft's grammar
    /// has it too (the core rules it does not redefine).
    fn unchanged(r: &'g RuleDef, in_2001: bool) -> SetRule<'g> {
        let n = Some(r.name.clone());
        SetRule {
            name: &r.name,
            rule: r,
            names: [n.clone(), n.clone(), n.clone(), n.filter(|_| in_2001)],
            variant_defs: None,
            shared: false,
            ident: enum_name(&r.name),
        }
    }

    /// The name in RFC 3986, if the URI grammar has this rule.
    pub fn uri_name(&self) -> Option<&str> {
        self.names[0].as_deref()
    }
}

/// A generated rule set: the rules one document defines, the rules of other
/// documents it uses, and where the generated code puts them.
#[derive(Debug, Clone)]
pub struct RuleSet<'g> {
    /// The module its combinators are written in, inside `generated.rs` (`None`: at
    /// the top), and the prefix of its `Rule` names.
    pub module: Option<&'static str>,
    /// What the rule set is, for the generated comments.
    pub about: &'static str,
    /// In generation order; shared rules (written by another set) included.
    pub rules: Vec<SetRule<'g>>,
}

impl<'g> RuleSet<'g> {
    /// RFC 3987's rule set, serving the three grammars of references: RFC 3987 rules,
    /// the RFC 3986 rules they use unchanged, core rules.
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
                names: [
                    uri.map(|u| u.name.clone()),
                    Some(r.name.clone()),
                    Some(leiri_name),
                    None,
                ],
                variant_defs: is_variant.then(|| {
                    [
                        None,
                        Some(r),
                        Some(leiri_override(&r.name).unwrap_or(r)),
                        None,
                    ]
                }),
                shared: false,
                ident: enum_name(&r.name),
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
                rules.push(SetRule::unchanged(r, false));
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
            rules.extend(missing.into_iter().map(|r| SetRule::unchanged(r, false)));
        }
        // The core rules; the 2001 draft's grammar has those it does not redefine
        // (its `alpha` and `digit` are RFC 2396's, by the same case-insensitive names).
        rules.extend(
            g.core
                .rules
                .iter()
                .map(|r| SetRule::unchanged(r, g.draft2001.get(&r.name).is_none())),
        );
        for l in &g.leiri.rules {
            if !rules.iter().any(|r| r.name.eq_ignore_ascii_case(&l.name)) {
                return Err(CodegenError(format!(
                    "grammar/leiri.abnf: {} redefines no rule of RFC 3987",
                    l.name
                )));
            }
        }
        Ok(RuleSet {
            module: None,
            about:
                "RFC 3987 §2.2, the RFC 3986 rules it uses unchanged, and the RFC 5234 core rules",
            rules,
        })
    }

    /// The 2001 draft's rule set: its rules in the file's order, named as it names
    /// them, and the core rules it uses (shared with RFC 3987's rule set).
    pub fn draft2001(g: &'g Grammars) -> Result<RuleSet<'g>, CodegenError> {
        let mut rules: Vec<SetRule<'g>> = g
            .draft2001
            .rules
            .iter()
            .map(|r| SetRule {
                name: &r.name,
                rule: r,
                names: [None, None, None, Some(r.name.clone())],
                variant_defs: None,
                shared: false,
                ident: format!("Iri2001{}", enum_name(&r.name)),
            })
            .collect();
        let mut k = 0;
        while k < rules.len() {
            let mut refs = Vec::new();
            rules[k].rule.definition.rule_refs(&mut |n| refs.push(n));
            for n in refs {
                if rules.iter().any(|x| x.name.eq_ignore_ascii_case(n)) {
                    continue;
                }
                let Some(core) = g.core.get(n) else {
                    return Err(CodegenError(format!(
                        "grammar/{}: rule {} refers to {n}, which neither the file nor \
                         core.abnf defines",
                        g.draft2001.file, rules[k].name
                    )));
                };
                rules.push(SetRule {
                    shared: true,
                    ..SetRule::unchanged(core, true)
                });
            }
            k += 1;
        }
        Ok(RuleSet {
            module: Some("iri2001"),
            about: "draft-masinter-url-i18n-07 §2.2 (the 2001 IRI draft) with the RFC 2396 and RFC 2732 rules it reprints",
            rules,
        })
    }

    /// The rule named `name` in the rule set's naming (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&SetRule<'g>> {
        self.rules
            .iter()
            .find(|r| r.name.eq_ignore_ascii_case(name))
    }

    /// How code in this rule set calls the combinator of `r`: by its name, or through
    /// the parent module for a rule another set writes.
    pub(super) fn call(&self, r: &SetRule<'_>) -> String {
        match (self.module, r.shared) {
            (Some(_), true) => format!("super::{}", fn_name(r.name)),
            _ => fn_name(r.name),
        }
    }

    /// The path of the combinator of `r` from the top of `generated.rs`.
    pub(super) fn path(&self, r: &SetRule<'_>) -> String {
        match (self.module, r.shared) {
            (Some(m), false) => format!("{m}::{}", fn_name(r.name)),
            _ => fn_name(r.name),
        }
    }
}

/// The Rust function name of a rule: `ipath-abempty` → `ipath_abempty` (and RFC 2396's
/// `ihier_part` → `ihier_part`).
pub fn fn_name(rule: &str) -> String {
    rule.to_ascii_lowercase().replace('-', "_")
}

/// The variant of the generated `Rule` enum: `ipath-abempty` → `IpathAbempty`,
/// `ihier_part` → `IhierPart`.
pub fn enum_name(rule: &str) -> String {
    rule.split(['-', '_'])
        .map(|part| {
            let mut cs = part.chars();
            match cs.next() {
                Some(c) => c.to_ascii_uppercase().to_string() + &cs.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect()
}

/// The grammars of the engine as the generated code names them: value, type, document.
/// A [`SetRule`]'s `names` and `variant_defs` are indexed like this, the order of
/// [`VariantName::EVERY`].
pub(super) const VARIANTS: [(VariantName, &str, &str); 4] = [
    (VariantName::Uri, "Uri", "RFC 3986"),
    (VariantName::Iri, "Iri", "RFC 3987"),
    (VariantName::Leiri, "Leiri", "the LEIRI note"),
    (VariantName::Iri2001, "Iri2001", "the 2001 IRI draft"),
];

/// The rules of the generated `Rule` enum, in its order (`Rule::ALL`): the rules each
/// rule set writes, shared ones once.
pub(super) fn enum_rules(g: &Grammars) -> Result<Vec<SetRule<'_>>, CodegenError> {
    let sets = [RuleSet::new(g)?, RuleSet::draft2001(g)?];
    Ok(sets
        .into_iter()
        .flat_map(|s| s.rules.into_iter().filter(|r| !r.shared))
        .collect())
}

/// Where `v` is in [`VARIANTS`] (and in a [`SetRule`]'s `names`).
pub(super) fn grammar_index(v: VariantName) -> usize {
    VARIANTS
        .iter()
        .position(|&(x, _, _)| x == v)
        .expect("VARIANTS names every grammar")
}
