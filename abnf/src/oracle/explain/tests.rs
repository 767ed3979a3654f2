use super::OracleFailure;
use crate::oracle::{Oracle, Unanswered};
use crate::{Grammar, Grammars, VariantName};

#[test]
fn errors_read_like_the_combinators() {
    let g = Grammars::builtin();
    let uri = Oracle::new(&g, VariantName::Uri);
    let e = uri.explain("IPv4address", "1.2.3.256").unwrap();
    assert_eq!(e.char_offset, 8);
    assert_eq!(e.found, Some('6'));
    let e = uri.explain("URI", "http://a b").unwrap();
    assert_eq!((e.char_offset, e.found), (8, Some(' ')));
    assert!(e.to_string().contains("end of input"), "{e}");
    let e = uri.explain("dec-octet", "").unwrap();
    assert_eq!(
        e.to_string(),
        "at char 0 (end of input): dec-octet expects DIGIT, %x31-39, \"1\", \"2\" or \"25\""
    );
    let e = uri.explain("scheme", "1").unwrap();
    assert_eq!(
        e.to_string(),
        "at char 0 (U+0031 '1'): scheme expects ALPHA"
    );
}

#[test]
fn trees_take_the_first_alternative_and_the_longest_match() {
    let g = Grammars::builtin();
    let iri = Oracle::new(&g, VariantName::Iri);
    let t = iri.tree("ihost", "1.2.3.4").unwrap();
    assert_eq!(t.root.children[0].rule, "IPv4address");
    assert_eq!(t.root.alternative, Some((2, 3)));
    let t = iri.tree("ihost", "1.2.3.4.5").unwrap();
    assert_eq!(t.root.children[0].rule, "ireg-name");
    // The same tree as the combinators: tests/oracle_explains.rs.
    assert!(iri.tree("IRI", "a b").is_err());
}

#[test]
fn other_parses_are_listed_up_to_the_limit() {
    let g = Grammar::from_abnf(&[(
        "forks.abnf",
        "list = *item\nitem = a / b / c\na = \"xx\"\nb = \"x\" %x78\nc = \"yy\"\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    let p = o.other_parses("list", "xxyyxx", 16).unwrap();
    // Each "xx" is an a and a b; the "yy" is only a c.
    assert_eq!(p.forks.len(), 2);
    assert!(!p.capped);
    assert_eq!(p.forks[1].chosen.start, 4);
    assert_eq!(p.forks[1].chosen.alternative, Some((1, 3)));
    assert_eq!(p.forks[1].others.len(), 1);
    assert_eq!(p.forks[1].others[0].alternative, Some((2, 3)));
    let many = "x".repeat(100);
    let p = o.other_parses("list", &many, 3).unwrap();
    assert_eq!(p.forks.len(), 3);
    assert!(p.capped);
    // The built-in grammars: ipath's alternatives overlap (RFC 3987 §2.2).
    let g = Grammars::builtin();
    let iri = Oracle::new(&g, VariantName::Iri);
    let p = iri.other_parses("ipath", "", 16).unwrap();
    let others: Vec<_> = p.forks[0].others.iter().map(|n| n.alternative).collect();
    assert_eq!(p.forks[0].chosen.alternative, Some((1, 5)));
    assert_eq!(others, [Some((5, 5))]);
    assert!(iri.other_parses("IRI", "a b", 16).is_err());
}

#[test]
fn recursive_grammars_have_trees() {
    let g = Grammar::from_abnf(&[(
        "list.abnf",
        "list = \"(\" [ item *( \",\" item ) ] \")\"\nitem = 1*DIGIT / list\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    let t = o.tree("list", "(1,(2,()))").unwrap();
    assert_eq!(t.root.children.len(), 2);
    assert_eq!(t.root.children[1].children[0].rule, "list");
    let e = o.explain("list", "(1,(2,)").unwrap();
    assert_eq!(e.char_offset, 6, "{e}");
}

#[test]
fn left_recursive_grammars_have_trees() {
    // The code generator refuses left recursion; the oracle serves it.
    let g = Grammar::from_abnf(&[(
        "expr.abnf",
        "expr = expr \"+\" term / term\nterm = 1*DIGIT\nloop = loop / \"x\"\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    assert!(o.matches("expr", "1+22+3").unwrap());
    assert!(!o.matches("expr", "1+").unwrap());
    let t = o.tree("expr", "1+2+3").unwrap();
    assert_eq!(t.root.alternative, Some((1, 2)));
    assert_eq!(t.root.children[0].rule, "expr");
    assert_eq!(t.root.children[0].end, 3, "left-associative: (1+2)+3");
    assert_eq!(o.explain("expr", "1+").unwrap().char_offset, 2);
    assert!(o.tree("loop", "x").is_ok());
}

#[test]
fn deep_trees_are_built_and_written_without_recursion() {
    crate::oracle::tests::bounds::on_a_small_stack(|| {
        let g = Grammar::from_abnf(&[(
            "deep.abnf",
            "r = \"a\" r / \"b\"\n\
             comment = \"(\" *( ctext / comment ) \")\"\n\
             ctext = %x21-27 / %x2A-7E\n\
             long = 3000\"a\"\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        let input = format!("{}b", "a".repeat(4000));
        let t = o.tree("r", &input).unwrap();
        assert_eq!(t.to_text().lines().count(), 4001);
        assert!(t
            .to_text()
            .ends_with(&format!("{}r 4000..4001 \"b\"\n", "  ".repeat(4000))));
        let nested = format!("{}{}", "(".repeat(2000), ")".repeat(2000));
        let t = o.tree("comment", &nested).unwrap();
        assert_eq!(t.path_at(1999).len(), 2000);
        let dot = t.to_dot();
        assert!(
            dot.contains("  n1998 -> n1999;\n"),
            "{}",
            &dot[dot.len() - 200..]
        );
        assert_eq!(dot.matches(" -> ").count(), 1999);
        // A long repetition is no deeper than a short one.
        let input = "a".repeat(3000);
        let t = o.tree("long", &input).unwrap();
        assert_eq!(
            t.to_text(),
            format!("long 0..3000 {:?}\n", "a".repeat(3000))
        );
    });
}

#[test]
fn trees_take_work_linear_in_the_input() {
    // Counted, not timed: the oracle's evaluations and the builder's steps on
    // an input and on one about four times as long. Asking the oracle whether
    // the rest of a repetition still matched after each of its pieces would make
    // these grow with the square of the length.
    let g = Grammars::builtin();
    let iri = Oracle::new(&g, VariantName::Iri);
    let shapes = [
        ("path", "http://h/", "a/"),
        ("segment", "http://h/", "a"),
        ("query", "http://h/p?", "a=b&"),
        ("percent-encoded", "http://h/", "%41"),
        ("host", "http://", "1.2.3."),
        ("IPv4 host", "http://1.2.3.4/", "a/"),
        ("non-ASCII", "http://例え.jp/", "résumé/"),
    ];
    for (shape, head, unit) in shapes {
        let work = |units: usize| {
            let input = format!("{head}{}", unit.repeat(units));
            let (_, tree) = iri.counted_tree("IRI-reference", &input).unwrap();
            let (_, parses) = iri
                .counted_other_parses("IRI-reference", &input, 12)
                .unwrap();
            (tree, parses)
        };
        let (short, long) = (work(128), work(512));
        assert!(
            long.0 < 6 * short.0 && long.1 < 6 * short.1,
            "{shape}: 128 units took {short:?}, 512 took {long:?}"
        );
    }
    // Recursion: comments nested as deep as the input is long.
    let g = Grammar::from_abnf(&[(
        "comment.abnf",
        "comment = \"(\" *( ctext / comment ) \")\"\nctext = %x21-27 / %x2A-7E\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    let work = |depth: usize| {
        let input = format!("{}{}", "(x".repeat(depth), ")".repeat(depth));
        o.counted_other_parses("comment", &input, 12).unwrap().1
    };
    let (short, long) = (work(128), work(512));
    assert!(long < 6 * short, "nested: {short} then {long}");
}

#[test]
fn empty_matches_are_not_counted_out() {
    let g = Grammar::from_abnf(&[(
        "empty.abnf",
        "few = 3e\nmany = 1000000000e\nnone = 1000000000\"\" \"a\"\ne = \"\"\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    assert_eq!(o.tree("few", "").unwrap().root.children.len(), 3);
    assert_eq!(o.tree("none", "a").unwrap().to_text(), "none 0..1 \"a\"\n");
    let e = o.tree("many", "").unwrap_err();
    assert_eq!(
        e.to_string(),
        "the tree of many would hold 1000000000 empty matches of one repetition, \
         beyond the limit of 4096"
    );
}

#[test]
fn explanations_and_trees_are_bounded_by_the_budget() {
    let g = Grammar::from_abnf(&[("e.abnf", "e = e e / \"a\"\nf = 1*\"a\"\n")]).unwrap();
    let small = Oracle::of(&g).with_budget(10_000);
    let input = "a".repeat(200);
    assert!(matches!(
        small.explain("e", &input),
        Err(Unanswered::Budget(_))
    ));
    assert!(matches!(
        small.check("e", &input),
        Err(Unanswered::Budget(_))
    ));
    assert!(matches!(
        small.tree("e", &input),
        Err(OracleFailure::Budget(_))
    ));
    assert!(matches!(
        small.other_parses("e", &input, 10),
        Err(OracleFailure::Budget(_))
    ));
}
