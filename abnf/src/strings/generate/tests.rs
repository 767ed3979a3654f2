use super::rng::Rng;
use super::*;
use crate::oracle::Oracle;
use crate::Element;

thread_local! {
    /// Elements whose shortest string was computed, on this thread.
    pub(super) static LOOKED_AT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[test]
fn empty_languages_are_said_not_drawn() {
    // Each made `generate` print empty strings, which `check` rejects.
    let g = crate::Grammar::from_abnf(&[(
        "empty.abnf",
        "prose = <anything>\n\
         surrogates = %xD800-DFFF\n\
         cycle = \"a\" cycle\n\
         mutual = \"(\" other / other\n\
         other = mutual \")\"\n\
         lead = \"x\" [ \"y\" ] prose\n\
         fine = prose / \"ok\"\n",
    )])
    .unwrap();
    let mut gen = Generator::of(&g, 1);
    for (rule, why) in [
        ("prose", "<anything> is prose, which matches no string"),
        (
            "surrogates",
            "%xD800-DFFF holds only surrogates (U+D800 to U+DFFF)",
        ),
        (
            "cycle",
            "every derivation of cycle needs cycle again (cycle → cycle)",
        ),
        (
            "mutual",
            "every derivation of mutual needs mutual again (mutual → other → mutual)",
        ),
        ("lead", "it needs lead → prose, where <anything> is prose"),
    ] {
        let e = gen.generate(rule).unwrap_err();
        assert!(matches!(e, DrawError::Empty { .. }), "{rule}: {e:?}");
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("the language of rule {rule} is empty: {why}")),
            "{text}"
        );
    }
    assert!(gen.generate("fine").unwrap().eq_ignore_ascii_case("ok"));
}

#[test]
fn a_wide_alternation_is_drawn_without_looking_at_each_alternative() {
    // Each alternation is decided once, when the generator is made: a draw that
    // looked at the shortest string of every alternative would take time
    // alternatives × strings.
    let n = 20_000;
    let alts: Vec<String> = (0..n).map(|k| format!("\"a{k}\"")).collect();
    let text = format!("r = {} / <none>\n", alts.join(" / "));
    let g = crate::Grammar::from_abnf(&[("wide.abnf", &text)]).unwrap();
    let oracle = Oracle::of(&g);
    let mut gen = Generator::of(&g, 1);
    LOOKED_AT.with(|l| l.set(0));
    let drawn: Vec<String> = (0..1_000).map(|_| gen.generate("r").unwrap()).collect();
    let looked = LOOKED_AT.with(std::cell::Cell::get);
    assert!(
        looked < 1_000,
        "{looked} elements looked at for 1,000 strings"
    );
    for s in &drawn[..20] {
        assert!(oracle.matches("r", s).unwrap(), "{s:?}");
    }
    let distinct: std::collections::BTreeSet<&String> = drawn.iter().collect();
    assert!(distinct.len() > 900, "{}", distinct.len());
}

#[test]
fn nested_repetitions_are_held_to_the_budget() {
    // 64^6 empty matches of `*"a"` to draw one string: no end in sight.
    let g = crate::Grammar::from_abnf(&[(
        "nested.abnf",
        "r = 64( 64( 64( 64( 64( 64( *\"a\" ) ) ) ) ) )\nsmall = 2( 3( *\"a\" ) )\n",
    )])
    .unwrap();
    let mut gen = Generator::of(&g, 1);
    let e = gen.generate("r").unwrap_err();
    assert_eq!(
        e,
        DrawError::Budget {
            rule: "r".into(),
            steps: MAX_STEPS
        }
    );
    assert!(gen.steps_taken() <= MAX_STEPS + 1);
    assert!(e.to_string().contains("budget of 16777216 steps"), "{e}");
    // A rule within it is drawn as before, and the steps are counted.
    let before = gen.steps_taken();
    assert!(Oracle::of(&g)
        .matches("small", &gen.generate("small").unwrap())
        .unwrap());
    assert!(gen.steps_taken() > before);
    let mut gen = Generator::of(&g, 1).with_steps(5);
    assert!(matches!(
        gen.generate("small"),
        Err(DrawError::Budget { steps: 5, .. })
    ));
}

#[test]
fn the_built_in_grammars_draw_far_within_the_budget() {
    let g = Grammars::builtin();
    for v in VariantName::ALL {
        let mut gen = Generator::new(&g, v, 5);
        for rule in g.table(v) {
            for _ in 0..20 {
                let before = gen.steps_taken();
                gen.generate(&rule.name).unwrap();
                let took = gen.steps_taken() - before;
                assert!(took < MAX_STEPS / 1000, "{} {v:?}: {took}", rule.name);
            }
        }
    }
}

fn all_match(variant: VariantName, rule: &str, n: usize, seed: u64) {
    let g = Grammars::builtin();
    let oracle = Oracle::new(&g, variant);
    let mut gen = Generator::new(&g, variant, seed);
    for _ in 0..n {
        let s = gen.generate(rule).unwrap();
        assert!(
            oracle.matches(rule, &s).unwrap(),
            "{rule} under {variant:?} generated {s:?}, which the oracle rejects"
        );
    }
}

#[test]
fn the_shortest_string_through_an_alternative_matches_and_no_drawn_one_is_shorter() {
    let g = Grammars::builtin();
    for (variant, start) in [
        (VariantName::Uri, "URI-reference"),
        (VariantName::Iri, "IRI-reference"),
        (VariantName::Leiri, "LEIRI-reference"),
    ] {
        let oracle = Oracle::new(&g, variant);
        let mut gen = Generator::new(&g, variant, 3);
        let table = Table::new(&g, variant);
        let mut reached = 0;
        for (k, def) in table.rules.iter().enumerate() {
            let name = def.name.as_str();
            let alternatives = match &table.nodes[k] {
                Expr::Alt(alts) => alts.len(),
                _ => 1,
            };
            for a in 0..alternatives {
                // Each alternative of each rule alone, and from the start rule.
                let s = gen.shortest_through(name, name, a).unwrap().unwrap();
                assert!(oracle.matches(name, &s).unwrap(), "{name} {a}: {s:?}");
                let Some(s) = gen.shortest_through(start, name, a).unwrap() else {
                    continue;
                };
                reached += 1;
                assert!(oracle.matches(start, &s).unwrap(), "{name} {a}: {s:?}");
                let len = s.chars().count();
                // (A rule drawn through itself may take any alternative.)
                for _ in 0..if k == table.resolve(start).unwrap() {
                    0
                } else {
                    20
                } {
                    let t = gen.generate_through(start, name, a).unwrap().unwrap();
                    assert!(t.chars().count() >= len, "{name} {a}: {t:?} < {s:?}");
                }
            }
            assert_eq!(
                gen.shortest_through(name, name, alternatives).unwrap(),
                None
            );
        }
        assert!(reached > 80, "{variant:?}: {reached}");
    }
    // Through a rule deep inside another, in a recursive grammar too.
    let r = crate::Grammar::from_abnf(&[("r.abnf", "r = \"(\" r \")\" / s\ns = \"a\" / \"bb\"\n")])
        .unwrap();
    let gen = Generator::of(&r, 0);
    assert_eq!(
        gen.shortest_through("r", "s", 1).unwrap().as_deref(),
        Some("bb")
    );
    assert_eq!(
        gen.shortest_through("r", "r", 0).unwrap().as_deref(),
        Some("(a)")
    );
}

#[test]
fn generated_strings_match() {
    use VariantName::*;
    all_match(Iri, "IRI", 400, 1);
    all_match(Iri, "IPv6address", 400, 2);
    all_match(Iri, "dec-octet", 300, 3);
    all_match(Iri, "ipath", 400, 4);
    all_match(Iri, "iquery", 400, 5);
    all_match(Leiri, "LEIRI-reference", 400, 6);
    all_match(Uri, "URI", 400, 7);
}

#[test]
fn every_rule_of_every_grammar_generates() {
    let g = Grammars::builtin();
    for v in VariantName::ALL {
        let oracle = Oracle::new(&g, v);
        let mut gen = Generator::new(&g, v, 99);
        for rule in g.table(v) {
            assert!(gen.generable.iter().all(|&b| b), "{v:?}");
            for _ in 0..50 {
                let s = gen.generate(&rule.name).unwrap();
                assert!(
                    oracle.matches(&rule.name, &s).unwrap(),
                    "{} {v:?} {s:?}",
                    rule.name
                );
            }
        }
    }
}

#[test]
fn same_seed_same_strings() {
    let g = Grammars::builtin();
    let draw = |seed: u64| {
        let mut gen = Generator::new(&g, VariantName::Leiri, seed);
        (0..200)
            .map(|_| {
                let s = gen.generate("LEIRI-reference").unwrap();
                let m = gen.mutate(&s);
                (s, m)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(draw(7), draw(7));
    assert_ne!(draw(7), draw(8));
    // Pinned: a change here changes every seeded test in the crate.
    let mut gen = Generator::new(&g, VariantName::Uri, 0);
    let first: Vec<String> = (0..3).map(|_| gen.generate("dec-octet").unwrap()).collect();
    let again: Vec<String> = {
        let mut gen = Generator::new(&g, VariantName::Uri, 0);
        (0..3).map(|_| gen.generate("dec-octet").unwrap()).collect()
    };
    assert_eq!(first, again);
    // The first splitmix64 output for seed 0 is the published one.
    assert_eq!(Rng::new(0).s[0], 0xE220_A839_7B1D_CDAF);
}

#[test]
fn ipv6_alternatives_all_drawn() {
    let g = Grammars::builtin();
    let oracle = Oracle::new(&g, VariantName::Uri);
    let Element::Alternation(alts) = &oracle.rule("IPv6address").unwrap().definition else {
        panic!("IPv6address is an alternation");
    };
    assert_eq!(alts.len(), 9);
    let mut gen = Generator::new(&g, VariantName::Uri, 11);
    // For each alternative, how many strings match it and no other.
    let mut only = [0usize; 9];
    for _ in 0..2000 {
        let s = gen.generate("IPv6address").unwrap();
        let hits: Vec<usize> = (0..9)
            .filter(|&k| oracle.matches_element(&alts[k], &s).unwrap())
            .collect();
        assert!(!hits.is_empty(), "{s:?}");
        if let [k] = hits[..] {
            only[k] += 1;
        }
    }
    assert!(only.iter().all(|&n| n > 0), "{only:?}");
}

#[test]
fn boundaries_are_drawn() {
    let g = Grammars::builtin();
    let mut gen = Generator::new(&g, VariantName::Uri, 5);
    let h16: Vec<String> = (0..300).map(|_| gen.generate("h16").unwrap()).collect();
    assert!(h16.iter().any(|s| s.len() == 4));
    assert!(h16.iter().any(|s| s.len() == 1));
    assert!(h16
        .iter()
        .any(|s| s.chars().any(|c| c.is_ascii_lowercase())));
    assert!(h16
        .iter()
        .any(|s| s.chars().any(|c| c.is_ascii_uppercase())));
    let octets: Vec<String> = (0..3000)
        .map(|_| gen.generate("dec-octet").unwrap())
        .collect();
    for edge in [
        "0", "9", "10", "99", "100", "199", "200", "249", "250", "255",
    ] {
        assert!(octets.iter().any(|s| s == edge), "{edge} never drawn");
    }
    let segs: Vec<String> = (0..500).map(|_| gen.generate("segment").unwrap()).collect();
    assert!(segs.iter().any(|s| s.is_empty()));
    assert!(segs.iter().any(|s| s.chars().count() >= 8));
    assert!(segs.iter().all(|s| s.chars().count() <= 3 * 12));

    let mut gen = Generator::new(&g, VariantName::Leiri, 5);
    let u: Vec<char> = (0..2000)
        .flat_map(|_| gen.generate("ucschar").unwrap().chars().collect::<Vec<_>>())
        .collect();
    for c in [
        ' ',
        '<',
        '"',
        '\\',
        '\u{0}',
        '\u{1F}',
        '\u{7F}',
        '\u{D7FF}',
        '\u{E000}',
        '\u{10FFFF}',
    ] {
        assert!(u.contains(&c), "{c:?} never drawn");
    }
    assert!(u.iter().any(|&c| c as u32 > 0xFFFF));
}

#[test]
fn mutations_are_near_misses() {
    let g = Grammars::builtin();
    let oracle = Oracle::new(&g, VariantName::Iri);
    let mut gen = Generator::new(&g, VariantName::Iri, 3);
    let mut rejected = 0;
    for _ in 0..1000 {
        let s = gen.generate("IRI").unwrap();
        let m = gen.mutate(&s);
        let d = s.chars().count().abs_diff(m.chars().count());
        assert!(d <= 12, "{s:?} -> {m:?}");
        if !oracle.matches("IRI", &m).unwrap() {
            rejected += 1;
        }
    }
    assert!(rejected > 200, "{rejected}");
    assert!(rejected < 950, "{rejected}");
    assert!(!gen.mutate("").is_empty());
    // Edges of the grammar's ranges are among the candidates.
    for c in [
        '\u{9F}', '\u{A0}', '\u{D7FF}', '\u{E000}', '\u{F8FF}', '\u{F900}', '\u{FDCF}', '\u{FDD0}',
        '/', '0', '\u{2F}', '\u{3A}',
    ] {
        assert!(gen.interesting.contains(&c), "{c:?}");
    }
}

#[test]
fn repetition_bounds_cost_nothing() {
    // `1000000000*1000000000"a"` drew a billion characters.
    let g = crate::Grammar::from_abnf(&[(
        "bounds.abnf",
        "big = 1000000000*1000000000\"a\"\n\
         wide = *1000000000\"a\" 4294967295*\"\"\n\
         nest = *1000( *1000( *1000( *1000\"a\" ) ) )\n\
         pick = 1000000000\"a\" / \"b\"\n",
    )])
    .unwrap();
    let oracle = Oracle::of(&g);
    let mut gen = Generator::of(&g, 9);
    assert_eq!(gen.shortest("big").unwrap(), Some(1_000_000_000));
    assert_eq!(gen.generate("big").unwrap(), "");
    assert_eq!(gen.shortest("pick").unwrap(), Some(1));
    for _ in 0..50 {
        let s = gen.generate("wide").unwrap();
        assert!(s.len() <= MAX_EXTRA as usize, "{}", s.len());
        assert!(oracle.matches("wide", &s).unwrap(), "{s:?}");
        assert!(gen.generate("pick").unwrap().eq_ignore_ascii_case("b"));
    }
    for _ in 0..5 {
        let s = gen.generate("nest").unwrap();
        assert!(s.len() as u64 <= 2 * MAX_LENGTH, "{}", s.len());
    }
}

#[test]
fn a_chain_of_rules_is_walked_without_recursion() {
    // Each rule refers to the next: the walk is as deep as the chain is long,
    // on a test harness's thread.
    let n = 20_000;
    let mut text = String::new();
    for k in 0..n {
        text.push_str(&format!("r{k} = \"a\" r{}\n", k + 1));
    }
    text.push_str(&format!("r{n} = \"b\"\n"));
    let g = crate::Grammar::from_abnf(&[("chain.abnf", &text)]).unwrap();
    let mut gen = Generator::of(&g, 1);
    let s = gen.generate("r0").unwrap();
    assert_eq!(s.len(), n + 1);
    assert!(s.to_ascii_lowercase().ends_with("aab"));
    assert_eq!(gen.shortest("r0").unwrap(), Some(n as u64 + 1));
}

#[test]
fn counts_at_the_most_and_one_past_it() {
    let g = crate::Grammar::from_abnf(&[("h.abnf", "h = 1*4%x61 \".\" *%x62\n")]).unwrap();
    let oracle = Oracle::of(&g);
    let mut most = Generator::of(&g, 3).with_counts(Counts::Most);
    for _ in 0..20 {
        let s = most.generate("h").unwrap();
        assert!(s.starts_with("aaaa."), "{s:?}");
        assert!(oracle.matches("h", &s).unwrap(), "{s:?}");
    }
    // One bounded repetition in four is one past: `aaaaa.` sometimes, else drawn.
    let mut past = Generator::of(&g, 3).with_counts(Counts::OnePast);
    let drawn: Vec<String> = (0..80).map(|_| past.generate("h").unwrap()).collect();
    assert!(drawn.iter().any(|s| s.starts_with("aaaaa.")), "{drawn:?}");
    assert!(
        drawn.iter().any(|s| oracle.matches("h", s).unwrap()),
        "{drawn:?}"
    );
    assert!(drawn.iter().all(|s| !s.starts_with("aaaaaa")), "{drawn:?}");
}
