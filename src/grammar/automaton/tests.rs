//! The compiled grammar's tables are closed, and the walk tables decide as the walk.

use super::*;
use crate::grammar::automata::{IRI, LEIRI, URI};
use crate::grammar::split::Part;

fn closed<const N: usize, const T: usize>(a: &Automaton<N, T>) {
    assert_eq!(T % N, 0);
    assert!(a.classes.iter().all(|&c| usize::from(c) < N));
    // What a state says of itself (all but the calm mark of a transition), the
    // same wherever it is named: by row.
    let mut said: Vec<Option<State>> = vec![None; T / N];
    let starts = a.starts.iter().filter(|&&s| s != State::MAX);
    for &s in a.transitions().iter().chain(starts) {
        let row = (s & ROW) as usize;
        assert!(row % N == 0 && row < T, "state {s:#x}: row {row} of {T}");
        assert_eq!(s >> 30, 0, "state {s:#x}: no bit above the scan table's");
        let own = s & !CALM;
        let k = row / N;
        assert!(said[k].is_none_or(|x| x == own), "state {s:#x} differs");
        said[k] = Some(own);
        // A state's scan table is its own: it stays in itself on the table's
        // bytes, all ASCII.
        let table = a.scan_table_of(s);
        assert!(table.bytes[0x80..].iter().all(|&x| !x), "{s:#x}");
        for b in 0..=255u8 {
            if table.bytes[usize::from(b)] {
                assert_eq!(
                    a.step(a.transitions(), s, b) & ROW,
                    s & ROW,
                    "scan of {s:#x} on {b}"
                );
            }
        }
        // Their low halves are the walk's, in each lane.
        let scan = ((s >> SCAN_SHIFT) & 15) as usize;
        assert_eq!(a.low_halves[scan].0[..16], table.low_halves);
        assert_eq!(a.low_halves[scan].0[16..], table.low_halves);
    }
    assert!(
        a.scan_tables[0].bytes.iter().all(|&x| !x),
        "table 0 is the empty table"
    );
    // The mark of calm, on exactly the transitions the split walk need not stop at:
    // those that stay in their part or enter one the components are not read from.
    let part = |s: State| (s >> PART_SHIFT) & 15;
    for (k, &t) in a.transitions().iter().enumerate() {
        let from = k / N;
        if t & ROW == 0 {
            assert_eq!(t, DEAD, "transition {k}: the dead state is one value");
        } else if let Some(f) = said[from] {
            let recorded = Part::ALL[part(t) as usize].is_recorded();
            let calm = part(f) == part(t) || !recorded;
            assert_eq!(t & CALM != 0, calm, "transition {k} to {t:#x}");
        }
    }
    for &s in a.starts.iter().filter(|&&s| s != State::MAX) {
        assert_eq!(s & CALM, 0, "a start is no transition");
    }
}

/// The walk [`WalkTables`] describes, as a walk outside the crate follows it
/// (the npm package's), byte by byte with no skip.
fn walk_outside(t: &WalkTables, rule: usize, bytes: &[u8]) -> bool {
    let mut state = t.starts[rule];
    for &b in bytes {
        state = t.next[(state & WalkTables::ROW) as usize + usize::from(t.classes[usize::from(b)])];
    }
    state & WalkTables::ACCEPTS != 0
}

/// The tables given out for walks outside the crate decide what the walk here
/// decides, on every compiled rule; a scan table's bytes keep a state in itself.
#[test]
fn walk_tables_decide_as_the_walk() {
    use crate::grammar::walk_tables;
    use crate::VariantName;
    let inputs = [
        "",
        "a",
        "http://a/b?c#d",
        "http://[::1]:80/x",
        "//u@h:1/p",
        "a b",
        "%4",
        "%41",
        "http://\u{e9}.example/\u{fc}",
        "a:\u{1F600}",
        "\u{FFFF}",
        "http://a/\u{FFFD}",
        "10.0.0.1",
        "1234:5678::9",
        "-._~",
        "a:b:c",
        "?q",
        "#f",
        "http://a/%zz",
    ];
    for variant in [VariantName::Uri, VariantName::Iri, VariantName::Leiri] {
        let t = walk_tables(variant).expect("a compiled grammar");
        assert_eq!(t.next.len() % t.class_count, 0);
        for rule in 0..RULES {
            for input in inputs {
                let here = match variant {
                    VariantName::Uri => URI.start(rule).map(|s| URI.accepts(s, input.as_bytes())),
                    VariantName::Iri => IRI.start(rule).map(|s| IRI.accepts(s, input.as_bytes())),
                    _ => LEIRI
                        .start(rule)
                        .map(|s| LEIRI.accepts(s, input.as_bytes())),
                };
                match here {
                    Some(v) => assert_eq!(
                        walk_outside(&t, rule, input.as_bytes()),
                        v,
                        "{variant:?} {rule} {input:?}"
                    ),
                    None => assert_eq!(t.starts[rule], u32::MAX),
                }
            }
        }
    }
    assert!(walk_tables(VariantName::Iri2001).is_none());
}

/// The safety argument of `run` and `split`: every state in the tables numbers a
/// row of `next`, and every class a column.
#[test]
fn tables_are_closed() {
    closed(&URI);
    closed(&IRI);
    closed(&LEIRI);
}

/// No rule of RFC 3986 or RFC 3987 takes a control character (§2 of each): from
/// every state of their automata, a line feed and a carriage return lead to the dead
/// state. `viable_prefix` relies on it to find a line's end in the walk that judges
/// the line (`iri check`); the LEIRI note's `ucschar` takes controls.
#[test]
fn line_ends_stop_every_walk_of_uri_and_iri() {
    fn stops<const N: usize, const T: usize>(a: &Automaton<N, T>) {
        let starts = a.starts.iter().filter(|&&s| s != State::MAX);
        for &s in a.transitions().iter().chain(starts) {
            for b in [b'\n', b'\r'] {
                assert_eq!(a.step(a.transitions(), s, b), DEAD, "{s:#x} on {b}");
            }
        }
    }
    stops(&URI);
    stops(&IRI);
}

/// Where a UTF-8 decoder is after a byte (RFC 3629 §4's table): at a character's
/// boundary (0), or waiting for the continuation bytes of one, or refused (`None`).
fn utf8_step(at: u8, b: u8) -> Option<u8> {
    // 0: boundary; 1, 2, 3: that many continuation bytes 80–BF to come; 4: after
    // E0 (A0–BF, then one); 5: after ED (80–9F, then one); 6: after F0 (90–BF, then
    // two); 7: after F1–F3 (80–BF, then two); 8: after F4 (80–8F, then two).
    let cont = |lo: u8, hi: u8, then: u8| (lo..=hi).contains(&b).then_some(then);
    match at {
        0 => match b {
            0x00..=0x7F => Some(0),
            0xC2..=0xDF => Some(1),
            0xE0 => Some(4),
            0xE1..=0xEC | 0xEE..=0xEF => Some(2),
            0xED => Some(5),
            0xF0 => Some(6),
            0xF1..=0xF3 => Some(7),
            0xF4 => Some(8),
            _ => None,
        },
        1 => cont(0x80, 0xBF, 0),
        2 => cont(0x80, 0xBF, 1),
        3 | 7 => cont(0x80, 0xBF, 2),
        4 => cont(0xA0, 0xBF, 1),
        5 => cont(0x80, 0x9F, 1),
        6 => cont(0x90, 0xBF, 2),
        8 => cont(0x80, 0x8F, 2),
        _ => None,
    }
}

/// The grammars' characters are Unicode scalar values, and their automata read
/// them as UTF-8: every byte string a walk reads without dying is the start of
/// UTF-8 text, and every match ends at a character's boundary. Shown on the product
/// of each automaton with a UTF-8 decoder, from every start. `iri check` relies on
/// it to judge a line's bytes before, or instead of, checking them as UTF-8
/// (`viable_prefix` on bytes).
#[test]
fn every_walk_reads_utf8() {
    fn reads_utf8<const N: usize, const T: usize>(a: &Automaton<N, T>) {
        use std::collections::HashSet;
        let next = a.transitions();
        let mut seen: HashSet<(State, u8)> = HashSet::new();
        let mut todo: Vec<(State, u8)> = (a.starts.iter())
            .filter(|&&s| s != State::MAX)
            .map(|&s| (s & !CALM, 0))
            .collect();
        while let Some((s, at)) = todo.pop() {
            if !seen.insert((s, at)) {
                continue;
            }
            if s & ACCEPTS != 0 {
                assert_eq!(at, 0, "state {s:#x} accepts within a character");
            }
            for b in 0..=255u8 {
                let n = a.step(next, s, b) & !CALM;
                if n == DEAD {
                    continue;
                }
                let Some(then) = utf8_step(at, b) else {
                    panic!("state {s:#x} takes byte {b:#04x} where UTF-8 does not");
                };
                todo.push((n, then));
            }
        }
        assert!(seen.len() > 10);
    }
    reads_utf8(&URI);
    reads_utf8(&IRI);
    reads_utf8(&LEIRI);
}

/// The stop of a walk is where the walk says no, and the bytes before it are a
/// match exactly when the walk over them says yes.
#[test]
fn a_walk_stops_where_the_run_is_refused() {
    let inputs = [
        "",
        "a",
        "a:",
        "http://a/b c",
        "http://a/b\nc",
        "//[::1]x",
        "%",
        "%4",
        "%41",
        "a\u{e9}b",
        "a\u{a0}b",
        "\u{feff}a",
        "http://[v1.x]:80/?#",
        "a:b?c#d e",
        "0123456789abcdef0123456789abcdef/ ",
    ]
    .map(String::from)
    .into_iter()
    .chain([
        format!("http://a/{}", "x".repeat(100)),
        format!("a:{} ", "/b".repeat(40)),
    ])
    .collect::<Vec<_>>();
    let rules = [
        crate::grammar::Rule::IriReference,
        crate::grammar::Rule::Iri,
    ];
    walked(&URI, &inputs, &rules);
    walked(&IRI, &inputs, &rules);
    walked(&LEIRI, &inputs, &rules);

    fn walked<const N: usize, const T: usize>(
        a: &Automaton<N, T>,
        inputs: &[String],
        rules: &[crate::grammar::Rule],
    ) {
        for &rule in rules {
            let Some(start) = a.start(rule as usize) else {
                continue;
            };
            for s in inputs {
                let b = s.as_bytes();
                let (len, is_match) = a.stop(start, b);
                match a.run(start, b) {
                    Ok(()) => assert_eq!((len, is_match), (b.len(), true), "{s:?}"),
                    Err(Rejected::End) => assert_eq!((len, is_match), (b.len(), false), "{s:?}"),
                    Err(Rejected::At(i)) => {
                        assert_eq!(len, i, "{s:?}");
                        assert_eq!(is_match, a.accepts(start, &b[..i]), "{s:?}");
                    }
                }
            }
        }
    }
}
