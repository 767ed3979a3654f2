//! The generator of `src/grammar/automata.rs`: the compiled grammar, one automaton
//! per grammar (see [`crate::codegen::automaton`]), written as tables the runtime walks.
//!
//! Which rules are compiled: the four reference rules (`URI-reference`, `URI`,
//! `absolute-URI`, `relative-ref` and their IRI and LEIRI names), which the typed
//! references and `is_match` of references use, and every other rule whose own
//! automaton is small ([`SMALL`] states or fewer). The rules left out are the ones
//! that contain a host: `IPv6address` alone takes 182 states, and every rule around
//! it repeats it in its own context (the file's header lists them with their sizes);
//! they stay on the combinators, which are allocation-free and fast enough for them.

use super::{enum_rules, grammar_index, CodegenError, SetRule};
use crate::codegen::automaton::{compile, Dfa};
use crate::{name_in, Grammars, VariantName};
use iri_grammar_contract::Part;
use std::fmt::Write as _;

/// The largest automaton of a rule compiled besides the reference rules.
pub const SMALL: usize = 64;

/// The reference rules, in RFC 3987's names.
const REFERENCE_RULES: [&str; 4] = ["IRI-reference", "IRI", "absolute-IRI", "irelative-ref"];

/// A byte table wider than this many bytes becomes a scan: a state that stays in
/// itself on many bytes (inside a path segment, a query) skips them with one table
/// lookup each instead of a transition each.
const SCAN_AT_LEAST: usize = 16;

const HEADER: &str = "\
// Generated from grammar/*.abnf by abnf/src/codegen/automata.rs. Do not edit.
// To regenerate: IRI_GRAMMAR_REGENERATE=1 cargo test -p iri-grammar --test it generated
";

/// Generates `src/grammar/automata.rs`.
pub fn generate_automata(g: &Grammars) -> Result<String, CodegenError> {
    let mut out = String::from(HEADER);
    out.push_str(
        "\n//! The compiled grammar: for each grammar, one deterministic automaton over\n\
         //! bytes that accepts exactly the language of each compiled rule (built from the\n\
         //! rule table by `abnf/src/codegen/automaton.rs`, minimized). `grammar/automaton/` walks it.\n\
         //! Tables, in a compact form that `Automaton::new` widens at compile time into\n\
         //! the one the walk reads: `classes` maps each byte to its class;\n\
         //! `next[state * class_count + class]` is the next state, written row by row\n\
         //! as the difference from an earlier row (`rows`, see `Rows`): its\n\
         //! number in the low\n\
         //! 11 bits (0 is dead), the number of its scan table in the high 4 (0: none),\n\
         //! and bit 11 set where the transition is calm: not to the dead state, nor into\n\
         //! another part of a reference that the components are read from\n\
         //! (`Part::is_recorded`); `info[number]` has\n\
         //! 0x80 if the input may end there, and in its low bits where in a reference a\n\
         //! state of `IRI-reference` is (RFC 3986 Appendix B, see `contract/src/split.rs`; 0\n\
         //! for the states of the other rules); `starts[rule]` is each rule's start state,\n\
         //! as in `next` (`u16::MAX`: not compiled, see the notes).\n\n\
         use super::automaton::{scan_table, Automaton, Rows, Tables};\n\n",
    );
    let rules = enum_rules(g)?;
    for v in VariantName::ALL {
        let (dfa, starts, left_out) = build(g, v, &rules)?;
        write_automaton(&dfa, &starts, rules.len(), &left_out, &mut out)?;
    }
    while out.ends_with("\n\n") {
        out.pop();
    }
    Ok(out)
}

/// The automaton of a grammar, the place in the generated `Rule` enum (`Rule::ALL`)
/// of the rule of each of its starts, and the rules left out with their sizes.
type Built = (Dfa, Vec<usize>, Vec<(String, usize)>);

fn build(g: &Grammars, v: VariantName, rules: &[SetRule<'_>]) -> Result<Built, CodegenError> {
    let error = |e: crate::codegen::automaton::CompileError| CodegenError(format!("{v:?}: {e}"));
    let vi = grammar_index(v);
    let mut chosen: Vec<(usize, String)> = Vec::new();
    let mut left_out = Vec::new();
    for (index, rule) in rules.iter().enumerate() {
        let Some(name) = rule.names[vi].as_deref() else {
            continue;
        };
        if named(rules, vi, name) != Some(index) {
            continue; // served under another name (RFC 3986's unreserved)
        }
        // The rule table names LEIRI's rules as RFC 3987 does.
        let table_name = if v == VariantName::Leiri {
            rule.name
        } else {
            name
        };
        let is_reference = REFERENCE_RULES
            .iter()
            .any(|r| name_in(r, v).eq_ignore_ascii_case(name));
        if !is_reference {
            let alone = compile(g, v, &[table_name]).map_err(error)?;
            if alone.state_count() > SMALL {
                left_out.push((name.to_string(), alone.state_count()));
                continue;
            }
        }
        chosen.push((index, table_name.to_string()));
    }
    let names: Vec<&str> = chosen.iter().map(|(_, n)| n.as_str()).collect();
    // The typed references find their components in the walk that validates them.
    let reference = match v {
        VariantName::Leiri => "IRI-reference".to_string(),
        _ => name_in("IRI-reference", v),
    };
    let dfa = compile(g, v, &names)
        .and_then(|d| d.split_components(&reference))
        .map_err(error)?;
    Ok((dfa, chosen.into_iter().map(|(r, _)| r).collect(), left_out))
}

/// The place of the rule named `name` in `rules` (the generated `Rule::ALL`) in the
/// grammar of [`super::VARIANTS`]`[vi]`, as the runtime's `Rule::named` finds it:
/// ABNF names are case-insensitive, and where two rules have the name (RFC 3986's
/// `unreserved` is the URI name of `iunreserved` and a rule RFC 3987 uses unchanged)
/// the rule of that very name wins.
fn named(rules: &[SetRule<'_>], vi: usize, name: &str) -> Option<usize> {
    let mut found = None;
    for (index, r) in rules.iter().enumerate() {
        if r.names[vi]
            .as_deref()
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
        {
            if r.name.eq_ignore_ascii_case(name) {
                return Some(index);
            }
            found = found.or(Some(index));
        }
    }
    found
}

/// The tables of one automaton as a `static`.
/// `rules[k]` is the place in `Rule::ALL` of the rule of the automaton's `k`th start;
/// `rule_count`, the length of `Rule::ALL`.
fn write_automaton(
    dfa: &Dfa,
    rules: &[usize],
    rule_count: usize,
    left_out: &[(String, usize)],
    out: &mut String,
) -> Result<(), CodegenError> {
    let (vname, doc) = match dfa.variant {
        VariantName::Uri => ("URI", "RFC 3986"),
        VariantName::Iri => ("IRI", "RFC 3987"),
        VariantName::Leiri => ("LEIRI", "the LEIRI note"),
        // Not compiled: the 2001 draft's rules run on the combinators (see `generate_automata`).
        VariantName::Iri2001 => ("IRI2001", "the 2001 IRI draft"),
    };
    let states = dfa.state_count();
    let (scan_of, tables) = scan_tables(dfa)?;
    // A state as the walk sees it: its number, and its scan table's in the top 4 bits.
    let flagged = |s: u16| u32::from(s) | (scan_of[s as usize] as u32) << 12;
    // A transition as the walk sees it: the state it leads to, marked (bit 11) where
    // the walk has nothing to do but go on: not the dead end, nor an entry into a
    // part of a reference the components are worked out from (so that the split walk
    // writes down a part only where the mark is off). The dead end stays 0, the most
    // frequent entry.
    let class_count = dfa.class_count;
    let transition = |k: usize, t: u16| {
        let from = dfa.parts[k / class_count];
        let to = dfa.parts[usize::from(t)];
        let calm = t != 0 && (from == to || !Part::ALL[usize::from(to)].is_recorded());
        flagged(t) | u32::from(calm) << 11
    };
    let next: Vec<u16> = dfa
        .next
        .iter()
        .enumerate()
        .map(|(k, &t)| u16::try_from(transition(k, t)).expect("11 + 1 + 4 bits"))
        .collect();
    let rows = delta_rows(&next, class_count);
    // The start states first, as a constant of their own: which rules are compiled
    // is then known at compile time (`grammar::compiled`), so that a caller of a rule
    // that always is needs no fallback to the combinators.
    let mut starts = vec![u32::from(u16::MAX); rule_count];
    for (&rule, (_, s)) in rules.iter().zip(&dfa.starts) {
        starts[rule] = flagged(*s);
    }
    writeln!(
        out,
        "/// The start state of each rule of {doc} by `Rule as usize` (`u16::MAX`: not compiled)."
    )
    .unwrap();
    writeln!(out, "pub(crate) const {vname}_STARTS: &[u16] = &[").unwrap();
    let words: Vec<String> = starts.iter().map(|n| n.to_string()).collect();
    write_items(out, &words, 4);
    out.push_str("];\n\n");
    writeln!(
        out,
        "/// The rules of {doc}: {} rules, {states} states, {} byte classes ({} KB of\n\
         /// transitions as written, {} KB as walked). Left to the combinators: {}.",
        dfa.starts.len(),
        dfa.class_count,
        (rows.bases.len() * 2 + rows.changes.len() + rows.classes.len() + rows.states.len() * 2)
            / 1024,
        states * dfa.class_count * 4 / 1024,
        left_out
            .iter()
            .map(|(n, k)| format!("`{n}` ({k} states)"))
            .collect::<Vec<_>>()
            .join(", ")
    )
    .unwrap();
    writeln!(
        out,
        "pub(crate) static {vname}: Automaton<{}, {}> = Automaton::new(&Tables {{",
        dfa.class_count,
        dfa.next.len()
    )
    .unwrap();
    write_numbers(
        out,
        "classes",
        dfa.classes.iter().map(|&c| c as u32),
        "[",
        "]",
    );
    out.push_str("    rows: Rows {\n");
    for (name, list) in [
        (
            "bases",
            rows.bases.iter().map(|&n| u32::from(n)).collect::<Vec<_>>(),
        ),
        (
            "changes",
            rows.changes.iter().map(|&n| u32::from(n)).collect(),
        ),
        (
            "classes",
            rows.classes.iter().map(|&n| u32::from(n)).collect(),
        ),
        (
            "states",
            rows.states.iter().map(|&n| u32::from(n)).collect(),
        ),
    ] {
        // One level deeper than the other tables: inside `Rows { ... }`.
        let mut field = String::new();
        write_numbers(&mut field, name, list.into_iter(), "&[", "]");
        for line in field.lines() {
            writeln!(out, "    {line}").unwrap();
        }
    }
    out.push_str("    },\n");
    // Padded to the 2,048 states a state number can name.
    let info = (0..0x800).map(|s| match dfa.accept.get(s) {
        Some(&a) => u32::from(a) << 7 | u32::from(dfa.parts[s]),
        None => 0,
    });
    write_numbers(out, "info", info, "[", "]");
    out.push_str("    scan_tables: [\n        scan_table([0, 0, 0, 0]),\n");
    for t in &tables {
        out.push_str("        ");
        let bits: Vec<String> = (0..4)
            .map(|k| {
                let mut w = 0u64;
                for b in 0..64 {
                    if t[k * 64 + b] {
                        w |= 1 << b;
                    }
                }
                format!("0x{w:016X}")
            })
            .collect();
        writeln!(out, "scan_table([{}]),", bits.join(", ")).unwrap();
    }
    for _ in tables.len()..15 {
        out.push_str("        scan_table([0, 0, 0, 0]),\n");
    }
    out.push_str("    ],\n");
    // Indexed by the runtime's `Rule as usize` (the order of `Rule::ALL`).
    writeln!(out, "    starts: {vname}_STARTS,").unwrap();
    out.push_str("});\n\n");
    Ok(())
}

/// The transitions `next` (rows of `class_count`) as the runtime's `Rows`: each
/// row as the earlier row it differs least from (its number from 1; 0 is a row of
/// dead ends) and the entries that differ from it, each its class and the state it
/// leads to. Rows of one automaton are much alike (most bytes lead to the dead
/// state or to the same few states): a sixth of the plain table, and as it is
/// written (four lists, not one of mixed records) a third smaller again gzipped.
/// It is the size a WebAssembly module downloads (`js/`), where the tables are
/// widened on first use.
struct Rows {
    bases: Vec<u16>,
    changes: Vec<u8>,
    classes: Vec<u8>,
    states: Vec<u16>,
}

fn delta_rows(next: &[u16], class_count: usize) -> Rows {
    let rows: Vec<&[u16]> = next.chunks(class_count).collect();
    let differences = |a: &[u16], b: &[u16]| a.iter().zip(b).filter(|(x, y)| x != y).count();
    let mut out = Rows {
        bases: Vec::new(),
        changes: Vec::new(),
        classes: Vec::new(),
        states: Vec::new(),
    };
    for (r, row) in rows.iter().enumerate() {
        let mut base = 0;
        let mut fewest = row.iter().filter(|&&t| t != 0).count();
        for (q, earlier) in rows[..r].iter().enumerate() {
            let d = differences(row, earlier);
            if d < fewest {
                (base, fewest) = (q + 1, d);
            }
        }
        out.bases
            .push(u16::try_from(base).expect("at most 2,048 states"));
        out.changes
            .push(u8::try_from(fewest).expect("fewer than 256 classes"));
        for (class, &t) in row.iter().enumerate() {
            let was = if base == 0 { 0 } else { rows[base - 1][class] };
            if t != was {
                out.classes
                    .push(u8::try_from(class).expect("fewer than 256 classes"));
                out.states.push(t);
            }
        }
    }
    out
}

/// For each state, the number (from 1) of its scan table, or 0; and the tables: the
/// ASCII bytes on which the state stays in itself, when they are many. A state's number
/// and its table's share 16 bits with the calm mark of a transition: 11, 4 and 1.
fn scan_tables(dfa: &Dfa) -> Result<(Vec<usize>, Vec<[bool; 256]>), CodegenError> {
    if dfa.state_count() > 0x800 {
        return Err(CodegenError(format!(
            "{:?}: {} states, more than the 2,048 a state number can name",
            dfa.variant,
            dfa.state_count()
        )));
    }
    let mut tables: Vec<[bool; 256]> = Vec::new();
    let mut of = vec![0; dfa.state_count()];
    for (s, table_of) in of.iter_mut().enumerate().skip(1) {
        let mut t = [false; 256];
        // ASCII bytes only: the walk's skip decides a set of ASCII bytes many at a
        // time with two 16-entry lookups (`automaton::ScanTable`), and a byte beyond
        // ASCII is part of a character the state steps through.
        for (stays, &c) in t.iter_mut().zip(dfa.classes.iter()).take(0x80) {
            *stays = dfa.next[s * dfa.class_count + c as usize] as usize == s;
        }
        if t.iter().filter(|&&x| x).count() < SCAN_AT_LEAST {
            continue;
        }
        *table_of = match tables.iter().position(|x| *x == t) {
            Some(k) => k + 1,
            None => {
                tables.push(t);
                tables.len()
            }
        };
    }
    // Four bits name a table; 0 is none, and 15 marks the walk's dead state.
    if tables.len() > 14 {
        return Err(CodegenError(format!(
            "{:?}: {} scan tables, more than the 14 a state can name",
            dfa.variant,
            tables.len()
        )));
    }
    Ok((of, tables))
}

/// `name: [1,2,3,...],` (between `open` and `close`) wrapped at about 100 columns.
fn write_numbers(
    out: &mut String,
    name: &str,
    numbers: impl Iterator<Item = u32>,
    open: &str,
    close: &str,
) {
    let words: Vec<String> = numbers.map(|n| n.to_string()).collect();
    write_list(out, name, &words, open, close);
}

fn write_list(out: &mut String, name: &str, words: &[String], open: &str, close: &str) {
    writeln!(out, "    {name}: {open}").unwrap();
    write_items(out, words, 8);
    writeln!(out, "    {close},").unwrap();
}

/// `words`, each followed by a comma, in lines of at most 100 characters indented
/// by `indent` spaces.
fn write_items(out: &mut String, words: &[String], indent: usize) {
    let margin = " ".repeat(indent);
    let mut line = margin.clone();
    for w in words {
        let item = format!("{w},");
        if line.len() + item.len() > 100 {
            out.push_str(line.trim_end());
            out.push('\n');
            line = margin.clone();
        }
        line.push_str(&item);
    }
    if !line.trim().is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
}
