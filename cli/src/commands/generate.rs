//! `iri generate`: strings that match a rule, drawn from the grammar; with
//! `--invalid`, near misses that must fail; with `--cover`, a small set that reaches
//! every alternative, or with both, one counterexample per place the grammar can
//! fail (see `iri_grammar_abnf::strings::counterexamples`).

use super::rule_arg;
use crate::coverage::{self, Coverage};
use crate::io::{ended_by, visible, Out, Outcome, RunError};
use crate::json::Object;
use crate::report::Problem;
use iri_grammar::{check, is_match, Rule, Variant};
use iri_grammar_abnf::strings::counterexamples::{self, near_miss};
use iri_grammar_abnf::{oracle::Oracle, strings::generate::Generator, Grammars};
use std::io::Write;

/// How many strings are drawn for each target of a cover set, and for each near miss.
const ATTEMPTS: usize = 200;

pub fn run<V: Variant>(
    json: bool,
    rule: &str,
    n: u64,
    seed: u64,
    invalid: bool,
    cover: bool,
    steps: u64,
) -> Outcome {
    let rule = rule_arg::<V>(Some(rule))?;
    let name = rule.name::<V>();
    let grammars = Grammars::builtin();
    let mut generator = Generator::new(&grammars, V::NAME, seed).with_steps(steps);
    let usage = |e: iri_grammar_abnf::strings::generate::DrawError| RunError::Usage(e.to_string());
    let mut out = Out::new();
    let mut ok = true;
    let written = if cover {
        let (strings, unreached) = cover_set::<V>(&grammars, rule, seed)?;
        for target in &unreached {
            ok = false;
            crate::io::tell(&format!(
                "iri: no generated string of {name} reaches {target}"
            ));
        }
        if invalid {
            let found = places::<V>(&grammars, rule, &strings)?;
            found.iter().try_for_each(|s| {
                write_must_fail(&mut out, s, json, |s| invalid_record::<V>(rule, s, None))
            })
        } else {
            write_all(
                &mut out,
                strings.iter().map(String::as_str),
                |s| {
                    Object::new()
                        .str("rule", name)
                        .str("generated", s)
                        .bool("valid", true)
                        .finish()
                },
                json,
            )
        }
    } else if invalid {
        // Each near miss is written as it is found: -n is not held in memory, and a
        // reader that closes the pipe (`| head`) ends the run at the next write.
        let oracle = Oracle::new(&grammars, V::NAME);
        let mut written = Ok(());
        for _ in 0..n {
            let mut found = None;
            for _ in 0..ATTEMPTS {
                // Text shows every near miss (`must_fail_text`): none is drawn again.
                if let Some(m) =
                    near_miss(&mut generator, &oracle, name, ATTEMPTS).map_err(usage)?
                {
                    found = Some(m);
                    break;
                }
            }
            let Some(m) = found else {
                return Err(RunError::Usage(format!(
                    "no near miss of {name} found: its one- and two-edit neighbours all match"
                )));
            };
            written = write_must_fail(&mut out, &m.text, json, |s| {
                invalid_record::<V>(rule, s, Some((&m.from, m.edits)))
            });
            if written.is_err() {
                break;
            }
        }
        written
    } else {
        let mut written = Ok(());
        for _ in 0..n {
            // LEIRIs may contain control characters (ucschar includes %x0-1F); one
            // string a line cannot carry a line break, and text output shows the others
            // escaped (io::Out), which would no longer be the string: text output
            // draws again. JSON carries them all.
            let mut s = String::new();
            for _ in 0..1000 {
                s = generator.generate(name).map_err(usage)?;
                if json || shown_raw(&s) {
                    break;
                }
            }
            written = write_one(&mut out, &s, json, |s| {
                Object::new().str("rule", name).str("generated", s).finish()
            });
            if written.is_err() {
                break;
            }
        }
        written
    };
    match written {
        Ok(()) => out.finish(ok),
        Err(e) => ended_by(e, ok),
    }
}

/// A cover set of `rule` (see `coverage::cover`), and the targets no
/// generated string reached (`rule alternative k`).
pub fn cover_set<V: Variant>(
    grammars: &Grammars,
    rule: Rule,
    seed: u64,
) -> Result<(Vec<String>, Vec<String>), RunError> {
    let name = rule.name::<V>();
    let cov = Coverage::new(grammars, V::NAME, name).map_err(|e| RunError::Usage(e.to_string()))?;
    let mut generator = Generator::new(grammars, V::NAME, seed);
    let set = coverage::cover(&cov, &mut generator, ATTEMPTS);
    let unreached = set.unreached_names();
    Ok((set.strings, unreached))
}

/// One counterexample per place `rule` can fail (innermost rule and expectation at
/// the farthest failure, as `--summary` counts them), from single edits of
/// `strings`; each rejected by the combinators and the oracle.
pub fn places<V: Variant>(
    grammars: &Grammars,
    rule: Rule,
    strings: &[String],
) -> Result<Vec<String>, RunError> {
    let oracle = Oracle::new(grammars, V::NAME);
    let alphabet = counterexamples::alphabet(grammars, V::NAME);
    let found = counterexamples::places(strings, &alphabet, &oracle, rule.name::<V>(), |s| {
        if is_match::<V>(rule, s) {
            return None;
        }
        check::<V>(rule, s).err().map(|e| {
            let p = Problem::of_match(e);
            let expected: Vec<String> = p.expected().into_iter().map(|x| x.into_owned()).collect();
            (p.rule().map(str::to_string), expected)
        })
    })
    .map_err(|e| RunError::Usage(e.to_string()))?;
    Ok(found.into_iter().map(|(_, s)| s).collect())
}

/// Writes each string on a line (text; strings it cannot show as they are are left
/// out), or its JSON record.
fn write_all<'s>(
    out: &mut Out,
    strings: impl Iterator<Item = &'s str>,
    mut record: impl FnMut(&str) -> String,
    json: bool,
) -> std::io::Result<()> {
    for s in strings {
        write_one(out, s, json, &mut record)?;
    }
    Ok(())
}

/// Writes a string on a line (text; one that text output cannot show as it is, with
/// a line break or another control character, is left out), or its JSON record.
fn write_one(
    out: &mut Out,
    s: &str,
    json: bool,
    record: impl FnOnce(&str) -> String,
) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", record(s))
    } else if shown_raw(s) {
        writeln!(out, "{s}")
    } else {
        Ok(())
    }
}

/// Writes a string that must fail on a line: as it is, or as a JSON string when
/// that could not be told apart ([`must_fail_text`]); or its JSON record.
fn write_must_fail(
    out: &mut Out,
    s: &str,
    json: bool,
    record: impl FnOnce(&str) -> String,
) -> std::io::Result<()> {
    if json {
        writeln!(out, "{}", record(s))
    } else {
        writeln!(out, "{}", must_fail_text(s))
    }
}

/// How text output shows a string that must fail. Near misses are made of the
/// characters that are hard to see: the empty string, a space at the end, a
/// control. So a string goes as it is unless it could not be told apart from
/// another or from nothing: empty, white space at either end, a character that
/// text output writes `\uXXXX` (a control, a bidi formatting character), or a `"`
/// first. Those go as a JSON string, in double quotes with JSON's escapes: `""`,
/// `"http://a/ "`, and a line that starts with `"` is always one.
fn must_fail_text(s: &str) -> std::borrow::Cow<'_, str> {
    let plain = !s.is_empty()
        && !s.starts_with(char::is_whitespace)
        && !s.ends_with(char::is_whitespace)
        && !s.starts_with('"')
        && !s.contains('\n')
        && matches!(visible(s), std::borrow::Cow::Borrowed(_));
    if plain {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut quoted = String::with_capacity(s.len() + 2);
    crate::json::string(s, &mut quoted);
    std::borrow::Cow::Owned(quoted)
}

/// The record of a string that must fail: `rule`, `generated`, `valid` (false),
/// `from` and `edits` for a near miss (null for a counterexample of --cover), and
/// `error`, where the match fails and what was expected there.
fn invalid_record<V: Variant>(rule: Rule, s: &str, from: Option<(&str, usize)>) -> String {
    let o = Object::new()
        .str("rule", rule.name::<V>())
        .str("generated", s)
        .bool("valid", false);
    let o = match from {
        Some((f, e)) => o.str("from", f).num("edits", e),
        None => o.null("from").null("edits"),
    };
    let error = match check::<V>(rule, s) {
        Err(e) => Problem::of_match(e),
        // The oracle rejects it and the combinators accept it: a disagreement the
        // differential tests would catch; say so rather than invent a place.
        Ok(()) => Problem::other(
            "grammar",
            "the oracle rejects it; the combinators accept it".into(),
        ),
    };
    o.raw("error", &error.json()).finish()
}

/// Whether text output writes `s` as it is: no line break (one string a line), and
/// nothing that [`visible`] escapes.
fn shown_raw(s: &str) -> bool {
    !s.contains('\n') && matches!(visible(s), std::borrow::Cow::Borrowed(_))
}
