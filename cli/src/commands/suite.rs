//! `iri suite`: a test suite for a rule in the corpus's TSV format, one file per
//! grammar. The strings are those of `generate --cover` (valid in the grammar they
//! were generated for) and `generate --cover --invalid` (one counterexample per place
//! it can fail) of each grammar that has the rule; every string is judged in every
//! grammar by the ABNF oracle, and the combinators must agree.

use super::generate::{cover_set, places};
use crate::io::{Outcome, RunError, Verdict};
use iri_grammar::grammar::matches_dyn;
use iri_grammar::{with_variant, Rule, Variant, VariantName};
use iri_grammar_abnf::{oracle::Oracle, Grammars};
use std::fmt::Write as _;
use std::path::Path;

/// A string of the suite and where it comes from.
struct Case {
    text: String,
    /// The grammar it was generated for.
    from: VariantName,
    /// `cover` (a valid string there) or `counterexample` (an invalid one).
    kind: &'static str,
    /// Its place among the strings of that grammar and kind, from 1.
    n: usize,
}

pub fn run(rule: &str, out: &Path, seed: u64) -> Outcome {
    let r = [VariantName::Iri, VariantName::Uri, VariantName::Leiri]
        .into_iter()
        .find_map(|v| Rule::named(v, rule))
        .ok_or_else(|| {
            RunError::Usage(format!(
                "no grammar has a rule named {rule:?}; `iri --grammar G grammar` lists them"
            ))
        })?;
    let grammars = Grammars::builtin();
    let mut cases: Vec<Case> = Vec::new();
    for v in VariantName::ALL {
        if r.name_in(v).is_none() {
            continue;
        }
        // The corpus's format names the three grammars of RFC 3987's rule set.
        let (valid, invalid) =
            with_variant!(v, V => strings::<V>(&grammars, r, seed)?, Iri2001 => continue);
        for (kind, list) in [("cover", valid), ("counterexample", invalid)] {
            for (k, text) in list.into_iter().enumerate() {
                // The corpus writes U+0000-U+001F, U+007F-U+009F as \uXXXX and escapes
                // nothing else: a string holding "\u" and four hex digits could not be
                // read back, so it is left out.
                if !has_escape_lookalike(&text) && !cases.iter().any(|c| c.text == text) {
                    cases.push(Case {
                        text,
                        from: v,
                        kind,
                        n: k + 1,
                    });
                }
            }
        }
    }
    std::fs::create_dir_all(out)
        .map_err(|e| RunError::Io(format!("creating {}: {e}", out.display())))?;
    for v in VariantName::ALL {
        let Some(name) = r.name_in(v) else { continue };
        let oracle = Oracle::new(&grammars, v);
        let mut tsv = String::from("#input\tvalidity\tvariant\tsource\n");
        for c in &cases {
            let valid = oracle
                .matches(name, &c.text)
                .map_err(|e| RunError::Usage(e.to_string()))?;
            if valid != matches_dyn(v, r, &c.text) {
                return Err(RunError::Io(format!(
                    "the oracle and the combinators disagree on {:?} ({name}, {}): a bug to report",
                    c.text,
                    v.as_str()
                )));
            }
            let _ = writeln!(
                tsv,
                "{}\t{}\t{}\tiri-grammar:iri suite --rule {name} --seed {seed}#{}-{}-{};rule={name};from={}",
                escape(&c.text),
                if valid { "valid" } else { "invalid" },
                v.as_str(),
                c.from.as_str(),
                c.kind,
                c.n,
                c.from.as_str(),
            );
        }
        let path = out.join(format!("validity-{}-{name}.tsv", v.as_str()));
        std::fs::write(&path, tsv)
            .map_err(|e| RunError::Io(format!("writing {}: {e}", path.display())))?;
        crate::io::tell(&format!("{}: {} cases", path.display(), cases.len()));
    }
    Ok(Verdict::Success)
}

/// The cover strings and the counterexamples of `r` in `V`.
fn strings<V: Variant>(
    grammars: &Grammars,
    r: Rule,
    seed: u64,
) -> Result<(Vec<String>, Vec<String>), RunError> {
    let (valid, unreached) = cover_set::<V>(grammars, r, seed)?;
    for t in unreached {
        crate::io::tell(&format!(
            "iri: no generated string of {} reaches {t} ({})",
            r.name::<V>(),
            V::NAME.as_str()
        ));
    }
    let invalid = places::<V>(grammars, r, &valid)?;
    Ok((valid, invalid))
}

/// The corpus's escaping: U+0000-U+001F, U+007F and U+0080-U+009F as `\uXXXX`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}') {
            let _ = write!(out, "\\u{:04X}", c as u32);
        } else {
            out.push(c);
        }
    }
    out
}

/// Whether `s` holds `\u` and four upper-case hex digits, which the corpus reads as
/// an escape.
fn has_escape_lookalike(s: &str) -> bool {
    s.match_indices("\\u").any(|(k, _)| {
        let rest = &s.as_bytes()[k + 2..];
        rest.len() >= 4
            && rest[..4]
                .iter()
                .all(|b| b.is_ascii_digit() || (b'A'..=b'F').contains(b))
    })
}
