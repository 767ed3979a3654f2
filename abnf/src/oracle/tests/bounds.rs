//! The oracle's work, stack and memory stay bounded: polynomial on hostile shapes
//! and nested recursion, right recursion without overflow, every answer within the
//! budget.

use super::super::run::{Rules, Slot};
use crate::oracle::{Oracle, Unanswered, DEFAULT_BUDGET};
use crate::{Grammars, VariantName};

#[test]
fn long_inputs_stay_polynomial() {
    let g = Grammars::builtin();
    let o = Oracle::new(&g, VariantName::Iri);
    let path = "a/".repeat(300);
    assert!(o
        .matches("IRI-reference", &format!("http://x.y/{path}?{path}#{path}"))
        .unwrap());
    let colons = "1:".repeat(200);
    assert!(!o
        .matches("IRI-reference", &format!("//[{colons}]"))
        .unwrap());
    let dots = "1.".repeat(300);
    assert!(o
        .matches("IRI-reference", &format!("//{dots}1:80/"))
        .unwrap());
}

/// Runs `f` on a thread of 512 KiB, a quarter of the test harness's: an
/// evaluation that recursed once per rule entered would overflow it long before
/// these inputs end.
pub(crate) fn on_a_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(512 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deep_right_recursion() {
    on_a_small_stack(|| {
        let g = crate::Grammar::from_abnf(&[(
            "deep.abnf",
            "r = \"a\" r / \"b\"\n\
             comment = \"(\" *( ctext / comment ) \")\"\n\
             ctext = %x21-27 / %x2A-7E\n",
        )])
        .unwrap();
        let o = Oracle::of(&g);
        let a = "a".repeat(4000);
        assert!(o.matches("r", &format!("{a}b")).unwrap());
        assert!(!o.matches("r", &format!("{a}c")).unwrap());
        assert!(!o.matches("r", &a).unwrap());
        assert_eq!(o.ends("r", &format!("{a}bb"), 0).unwrap(), vec![4001]);
        let nested = format!("{}{}", "(".repeat(2000), ")".repeat(2000));
        assert!(o.matches("comment", &nested).unwrap());
        assert!(o
            .matches("comment", &format!("({nested}x{nested}y)"))
            .unwrap());
        assert!(!o.matches("comment", &nested[1..]).unwrap());
        let e = o.check("r", &format!("{a}c")).unwrap().unwrap_err();
        assert_eq!(e.char_offset, 4000, "{e}");
        assert_eq!(
            e.to_string(),
            "at char 4000 (U+0063 'c'): r expects \"a\" or \"b\""
        );
    });
}

/// The rule definitions `o` evaluates to match `input` against `rule`, and
/// whether it matches.
fn work(o: &Oracle<'_>, rule: &str, input: &str) -> (bool, u64) {
    let k = o.table.resolve(rule).unwrap();
    let chars: Vec<char> = input.chars().collect();
    let mut run = o.run(&chars);
    let ends = o.settled_rule_ends(k, 0, &mut run);
    assert!(run.tentative.is_empty(), "every result is final at the top");
    (ends.binary_search(&chars.len()).is_ok(), run.passes)
}

/// Left recursion inside recursion. Each left-recursive slot computes again
/// only when its own ends so far were used: if any recursion met made every
/// slot around it compute again, each level of nesting would double the work
/// (SECURITY.md, "User grammars").
#[test]
fn nested_left_recursion_stays_polynomial() {
    let g = crate::Grammar::from_abnf(&[(
        "nested-left.abnf",
        "e = \"(\" e \")\" / e \"+\" e / \"x\"\n\
         r = \"a\" r / s\n\
         s = s \"x\" / \"y\"\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    let nested = |n: usize| format!("{}x{}", "(".repeat(n), ")".repeat(n));
    let mut passes = Vec::new();
    for n in [16, 32, 64] {
        let (matched, p) = work(&o, "e", &nested(n));
        assert!(matched, "{n}");
        assert!(!work(&o, "e", &format!("{})", nested(n))).0, "{n}");
        passes.push(p);
    }
    // Doubling the input at most quadruples the work (it was 2^16 times).
    assert!(
        passes[1] <= 4 * passes[0] && passes[2] <= 4 * passes[1],
        "{passes:?}"
    );
    let mut passes = Vec::new();
    for n in [20, 40, 80] {
        let input = format!("{}y{}", "a".repeat(n), "x".repeat(n));
        let (matched, p) = work(&o, "r", &input);
        assert!(matched, "{n}");
        passes.push(p);
    }
    assert!(
        passes[1] <= 4 * passes[0] && passes[2] <= 4 * passes[1],
        "{passes:?}"
    );
}

/// The elements `o` evaluates to match `input` against `rule`, and whether it
/// matches.
fn evals(o: &Oracle<'_>, rule: &str, input: &str) -> (bool, u64) {
    let k = o.table.resolve(rule).unwrap();
    let chars: Vec<char> = input.chars().collect();
    let mut run = o.run(&chars);
    let ends = o.settled_rule_ends(k, 0, &mut run);
    (ends.binary_search(&chars.len()).is_ok(), run.evals)
}

/// Groups nested in groups. Each group's ends at each position are computed
/// once: if each were evaluated again from every position the one around it
/// reached, the work would grow as the input's length to the power of the depth
/// (SECURITY.md, "User grammars").
#[test]
fn nested_groups_stay_polynomial() {
    let g = crate::Grammar::from_abnf(&[(
        "nested-groups.abnf",
        "r = 1*(1*(1*(1*\"a\")))\n\
         s = *( *( *( *\"a\" ) ) )\n\
         t = 1*( \"a\" 1*( \"a\" / 1*( [\"a\"] \"a\" ) ) )\n\
         u = 1*(1*(1*(1*(1*(1*(1*(1*\"a\")))))))\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    for rule in ["r", "s", "t"] {
        let mut work = Vec::new();
        for n in [8, 16, 32] {
            let (matched, e) = evals(&o, rule, &"a".repeat(n));
            assert!(matched, "{rule} {n}");
            assert!(!evals(&o, rule, &format!("{}b", "a".repeat(n))).0);
            work.push(e);
        }
        // Doubling the input at most quadruples the evaluations, whatever the
        // depth (it was 2^4 times and more).
        assert!(
            work[1] <= 4 * work[0] + 64 && work[2] <= 4 * work[1] + 64,
            "{rule}: {work:?}"
        );
    }
    // Twice as deep, about twice the work.
    let (matched, deep) = evals(&o, "u", &"a".repeat(30));
    assert!(matched);
    assert!(deep <= 8 * 30 * 30, "{deep}");
}

/// Ambiguous recursion is cubic in the input's length however it is read: the
/// budget bounds it, with an error that names the rule and the budget.
#[test]
fn the_budget_bounds_ambiguous_recursion() {
    let g = crate::Grammar::from_abnf(&[("e.abnf", "e = e e / \"a\"\nf = 1*\"a\"\n")]).unwrap();
    let o = Oracle::of(&g);
    assert!(o.matches("e", &"a".repeat(40)).unwrap());
    let long = "a".repeat(4096);
    let spent = |r: Result<bool, Unanswered>| match r {
        Err(Unanswered::Budget(b)) => b,
        other => panic!("{other:?}"),
    };
    let b = spent(o.clone().with_budget(1_000_000).matches("e", &long));
    assert_eq!((b.rule.as_str(), b.budget, b.chars), ("e", 1_000_000, 4096));
    assert_eq!(
        b.to_string(),
        "the oracle spent its budget of 1000000 steps judging e of the e.abnf grammar \
         on an input of 4096 characters, without an answer"
    );
    // Every answer is bounded: ends here, explanations and trees in
    // `explain::tests::explanations_and_trees_are_bounded_by_the_budget`.
    let small = o.clone().with_budget(10_000);
    let input = "a".repeat(200);
    assert!(matches!(
        small.ends("e", &input, 0),
        Err(Unanswered::Budget(_))
    ));
    // A linear rule on the same input is far within it.
    assert!(o.clone().with_budget(100_000).matches("f", &long).unwrap());
    // It stops within a step of the budget and the ends of one slot.
    let o = o.with_budget(1_000_000);
    let k = o.table.resolve("e").unwrap();
    let chars: Vec<char> = long.chars().collect();
    let mut run = o.run(&chars);
    o.settled_rule_ends(k, 0, &mut run);
    assert!(run.exceeded);
    assert!(run.steps <= 1_000_000 + 2 * 4097, "{}", run.steps);
}

/// Mutual left recursion through many rules: each rule's ends grow one position
/// a pass, and the memo holds every rule's ends at every pass. What is stored is
/// charged to the budget, which stops it.
#[test]
fn the_budget_bounds_the_memo() {
    let n = 2000;
    let mut abnf = String::new();
    for k in 0..n {
        abnf.push_str(&format!("r{k} = r{} \"a\" / \"a\"\n", (k + 1) % n));
    }
    let g = crate::Grammar::from_abnf(&[("cycle.abnf", abnf.as_str())]).unwrap();
    let o = Oracle::of(&g).with_budget(2_000_000);
    assert!(o.matches("r0", "aaaa").unwrap());
    let long = "a".repeat(4096);
    let chars: Vec<char> = long.chars().collect();
    let mut run = o.run(&chars);
    o.settled_rule_ends(0, 0, &mut run);
    assert!(run.exceeded);
    let slots: Vec<&Slot> = match &run.memo.rules {
        Rules::Dense(v) => v.iter().collect(),
        Rules::Sparse(m) => m.values().collect(),
    };
    let held: usize = slots
        .into_iter()
        .map(|s| match s {
            Slot::Done(e, _) | Slot::Busy(e, _) => e.len(),
            Slot::Unknown => 0,
        })
        .sum();
    assert!(held as u64 <= 2_000_000, "{held}");
    assert!(matches!(o.matches("r0", &long), Err(Unanswered::Budget(_))));
}

/// Every string up to a length, over the alphabet.
fn strings(alphabet: &[char], max: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max {
        last = last
            .iter()
            .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
            .collect();
        all.extend(last.iter().cloned());
    }
    all
}

/// The languages of left- and mutually recursive rules, nested, against
/// recognizers written by hand, on every string up to a length: what the
/// dependency tracking keeps of a result must be what the least fixed point is.
#[test]
fn nested_left_recursion_means_its_language() {
    let g = crate::Grammar::from_abnf(&[(
        "languages.abnf",
        "e = \"(\" e \")\" / e \"+\" e / \"x\"\n\
         l = l l / \"(\" l \")\" / \"\"\n\
         a = b \"1\" / \"0\"\n\
         b = a \"2\" / c\n\
         c = c \"3\" / a\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    // e: "x", "(e)", e "+" e.
    fn e(s: &str) -> bool {
        s == "x"
            || (s.len() >= 2 && s.starts_with('(') && s.ends_with(')') && e(&s[1..s.len() - 1]))
            || s.char_indices()
                .any(|(i, c)| c == '+' && e(&s[..i]) && e(&s[i + 1..]))
    }
    // l: balanced parentheses.
    fn l(s: &str) -> bool {
        let mut open = 0i32;
        s.chars().all(|c| {
            open += if c == '(' { 1 } else { -1 };
            open >= 0
        }) && open == 0
    }
    // a = b "1" / "0", b = a "2" / c, c = c "3" / a: mutual left recursion,
    // recognized from the right end, as the definitions read.
    fn a(s: &str) -> bool {
        s == "0" || (s.ends_with('1') && b(&s[..s.len() - 1]))
    }
    fn b(s: &str) -> bool {
        (s.ends_with('2') && a(&s[..s.len() - 1])) || c(s)
    }
    fn c(s: &str) -> bool {
        (s.ends_with('3') && c(&s[..s.len() - 1])) || a(s)
    }
    for s in strings(&['(', ')', '+', 'x'], 7) {
        assert_eq!(o.matches("e", &s).unwrap(), e(&s), "e on {s:?}");
    }
    for s in strings(&['(', ')'], 12) {
        assert_eq!(o.matches("l", &s).unwrap(), l(&s), "l on {s:?}");
    }
    for s in strings(&['0', '1', '2', '3'], 7) {
        assert_eq!(o.matches("a", &s).unwrap(), a(&s), "a on {s:?}");
        assert_eq!(o.matches("b", &s).unwrap(), b(&s), "b on {s:?}");
    }
}

/// Inputs of `n` bytes in the shapes that make the built-in grammars work
/// hardest: long paths, hosts, IPv6 literals, queries, percent-encodings,
/// characters beyond ASCII, and a URL made long.
pub(crate) fn hostile_shapes(n: usize) -> Vec<(&'static str, String)> {
    let fill = |unit: &str, prefix: &str, suffix: &str| {
        let mut s = prefix.to_string();
        while s.len() + unit.len() + suffix.len() <= n {
            s.push_str(unit);
        }
        s + suffix
    };
    vec![
        ("path", fill("a/", "", "")),
        ("absolute path", fill("a/", "http://x.y/", "")),
        ("dots", fill("1.", "//", "")),
        ("IPv4 dots", fill("255.", "//", "")),
        ("colons", fill("1:", "//[", "]")),
        ("open colons", fill("1:", "//[", "")),
        ("bare colons", fill("1:", "", "")),
        ("double colons", fill("::", "//[", "]")),
        ("hex groups", fill("ffff:", "//[", "]")),
        ("IPvFuture", fill("a", "//[v1.", "]")),
        ("percent", fill("%41", "", "")),
        ("broken percent", fill("%4", "", "")),
        ("questions", fill("?", "", "")),
        ("hashes", fill("#", "", "")),
        ("slashes", fill("/", "", "")),
        ("letters", fill("a", "", "")),
        ("colons only", fill(":", "", "")),
        ("digits", fill("1", "", "")),
        ("port", fill("1", "//a:", "")),
        ("brackets", fill("[", "", "")),
        ("at signs", fill("@", "//", "")),
        ("userinfo", fill("a:", "//", "@x")),
        ("beyond ASCII", fill("é", "", "")),
        ("path beyond ASCII", fill("é/", "http://é.x/", "")),
        ("spaces", fill("a ", "", "")),
        ("scheme", fill("a+-.", "a", ":")),
        ("query", fill("k=v&", "http://example.com/p?", "#f")),
        ("sub-delims", fill("a/%41?:@!$&'()*+,;=", "//u@h:1/", "")),
        (
            "URL",
            fill(
                "seg-ment_01~/",
                "https://user:pw@www.example.com:8080/",
                "?q=1&r=2#frag",
            ),
        ),
    ]
}

/// The steps the oracle takes to match all of `input` against `rule`.
pub(crate) fn steps(o: &Oracle<'_>, rule: &str, input: &str) -> u64 {
    let k = o.table.resolve(rule).unwrap();
    let chars: Vec<char> = input.chars().collect();
    let mut run = o.run(&chars);
    o.settled_rule_ends(k, 0, &mut run);
    assert!(!run.exceeded, "{rule} on {input:?}");
    run.steps
}

/// The most steps any rule of each built-in grammar takes on the hostile shapes
/// of 4,096 bytes (the limit of `iri check --oracle`): what [`DEFAULT_BUDGET`]
/// is measured against. Every rule on every shape is slow in a debug build:
/// `cargo test -p iri-grammar-abnf --release -- --ignored --nocapture steps_of`.
#[test]
#[ignore = "slow in a debug build; prints the measure of DEFAULT_BUDGET"]
fn steps_of_every_builtin_rule() {
    let g = Grammars::builtin();
    let shapes = hostile_shapes(4096);
    for v in VariantName::EVERY {
        let o = Oracle::new(&g, v);
        let mut most = (0, "", "");
        for r in o.rules() {
            for (shape, s) in &shapes {
                let n = steps(&o, &r.name, s);
                if n > most.0 {
                    most = (n, r.name.as_str(), shape);
                }
            }
        }
        println!("{v:?}: at most {} steps ({} on {})", most.0, most.1, most.2);
        assert!(most.0 <= DEFAULT_BUDGET / 100, "{v:?}: {most:?}");
    }
}

#[test]
fn repetition_bounds_are_not_counted_out() {
    // `1000000000""` matched the empty string a billion times, one by one.
    let g = crate::Grammar::from_abnf(&[(
        "bounds.abnf",
        "r = 1000000000*1000000000\"\" \"a\"\n\
         s = 1000000000\"a\"\n\
         t = 4294967295*( \"\" / \"b\" ) 2\"c\"\n\
         u = 3000000000*2000000000\"\"\n",
    )])
    .unwrap();
    let o = Oracle::of(&g);
    assert!(o.matches("r", "a").unwrap());
    assert!(!o.matches("r", "").unwrap());
    assert!(!o.matches("s", "aaa").unwrap());
    assert!(o.matches("t", "bbcc").unwrap());
    assert!(o.matches("t", "cc").unwrap());
    assert!(
        !o.matches("u", "").unwrap(),
        "more than at most matches nothing"
    );
}
