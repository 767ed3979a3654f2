//! The built-in grammars: the files of `grammar/`, compiled into the crate, read and
//! layered as their documents layer them, and the names RFC 3987's rules take in
//! each grammar (RFC 3987 §2.2's naming convention).

use super::reader::read;
use super::{RuleDef, RuleList};
use iri_grammar_contract::VariantName;

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

/// The grammar files, compiled into the crate so that the rule table is always
/// the one the combinators were generated from.
pub mod files {
    /// `grammar/core.abnf`: the RFC 5234 core rules used.
    pub const CORE: &str = include_str!("../../grammar/core.abnf");
    /// `grammar/rfc3986.abnf`: RFC 3986 Appendix A.
    pub const RFC3986: &str = include_str!("../../grammar/rfc3986.abnf");
    /// `grammar/rfc3987.abnf`: RFC 3987 §2.2.
    pub const RFC3987: &str = include_str!("../../grammar/rfc3987.abnf");
    /// `grammar/leiri.abnf`: the LEIRI note §2 (`ucschar`).
    pub const LEIRI: &str = include_str!("../../grammar/leiri.abnf");
    /// `grammar/draft-masinter-url-i18n-07.abnf`: the 2001 IRI draft §2.2, with the
    /// RFC 2396 / RFC 2732 rules it reprints, in RFC 2396's notation.
    pub const DRAFT2001: &str = include_str!("../../grammar/draft-masinter-url-i18n-07.abnf");

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
