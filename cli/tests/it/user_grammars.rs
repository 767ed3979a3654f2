//! `--abnf` with a grammar that is untrusted input (SECURITY.md, item 9): each
//! command answers with a message and exit status 1 or 2, never a crash, whatever
//! the grammar's nesting, recursion, repetition bounds or size.

use crate::common;

use common::{iri, stderr, stdout};

use std::path::PathBuf;
use std::process::Output;
use std::time::{Duration, Instant};

/// Writes `text` to a file of its own under the target directory, and returns its
/// path.
fn grammar_file(name: &str, text: &str) -> String {
    let dir: PathBuf = [env!("CARGO_TARGET_TMPDIR"), "user_grammars"]
        .iter()
        .collect();
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// `iri --abnf FILE args...` on a grammar written to `name`.
fn with_grammar(name: &str, text: &str, args: &[&str]) -> Output {
    let path = grammar_file(name, text);
    let mut all = vec!["--abnf", &path];
    all.extend_from_slice(args);
    iri(&all)
}

#[test]
fn groups_nested_8000_deep_are_refused_in_every_command() {
    let depth = 8_000;
    let text = format!("r = {}\"a\"{}\n", "(".repeat(depth), ")".repeat(depth));
    for args in [
        &["grammar"][..],
        &["grammar", "--rust"],
        &["check", "--rule", "r", "a"],
        &["tree", "--rule", "r", "a"],
        &["generate", "--rule", "r"],
    ] {
        let o = with_grammar("nested.abnf", &text, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(
                "nested.abnf:1:37: expected groups and options nested at most 32 deep \
                 (rule r opens one 33 deep here), found '('"
            ),
            "{args:?}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn a_chain_of_32000_rules_loads_in_linear_time() {
    // Reading, layering and resolving were quadratic in the number of rules: 32,000
    // took 9.8 s in a release build (minutes in a debug one); now 0.06 s.
    let n = 32_000;
    let mut text = String::new();
    for k in 0..n {
        text.push_str(&format!("r{k} = \"a\" r{}\n", k + 1));
    }
    text.push_str(&format!("r{n} = \"b\"\n"));
    let started = Instant::now();
    let o = with_grammar(
        "chain.abnf",
        &text,
        &["check", "--rule", "r31990", "aaaaaaaaaab"],
    );
    let took = started.elapsed();
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "valid\n"),
        "{}",
        stderr(&o)
    );
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn right_recursion_4000_deep_is_judged_without_overflow() {
    // `r = "a" r / "b"` entered one rule a character, one call deeper each: 4,000
    // overflowed a debug build's stack (12,000 a release build's).
    let a = "a".repeat(4000);
    let text = "r = \"a\" r / \"b\"\n";
    let o = with_grammar(
        "right.abnf",
        text,
        &["check", "--rule", "r", &format!("{a}b")],
    );
    assert_eq!(
        (o.status.code(), stdout(&o).as_str()),
        (Some(0), "valid\n"),
        "{}",
        stderr(&o)
    );
    let o = with_grammar(
        "right.abnf",
        text,
        &["check", "--rule", "r", &format!("{a}c")],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "invalid: at char 4000 (U+0063 'c'), in r: expected \"a\" or \"b\"\n"
    );
    let o = with_grammar(
        "right.abnf",
        text,
        &["tree", "--rule", "r", &format!("{a}b")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 4001);
}

#[test]
fn comments_nested_2000_deep_have_trees() {
    let text = "comment = \"(\" *( ctext / comment ) \")\"\nctext = %x21-27 / %x2A-7E\n";
    let nested = format!("{}{}", "(".repeat(2000), ")".repeat(2000));
    let check = ["check", "--rule", "comment", nested.as_str()];
    let o = with_grammar("comment.abnf", text, &check);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    for format in ["text", "json", "dot"] {
        let args = [
            "tree",
            "--rule",
            "comment",
            "--format",
            format,
            nested.as_str(),
        ];
        let o = with_grammar("comment.abnf", text, &args);
        assert_eq!(o.status.code(), Some(0), "{format}: {}", stderr(&o));
        let out = stdout(&o);
        match format {
            "text" => assert_eq!(out.lines().count(), 2000),
            "json" => assert!(out.ends_with(&format!("{}\n", "]}".repeat(2000))), "{out}"),
            _ => assert_eq!(out.matches(" -> ").count(), 1999),
        }
    }
}

#[test]
fn inputs_are_held_to_the_oracles_limit() {
    // As `check --oracle` holds them for the built-in grammars: the oracle's memory
    // grows with the input's length.
    let text = "r = *\"a\"\n";
    let long = "a".repeat(4097);
    for command in ["check", "tree"] {
        let o = with_grammar("limit.abnf", text, &[command, "--rule", "r", &long]);
        assert_eq!(o.status.code(), Some(1), "{command}: {}", stderr(&o));
        assert!(
            stdout(&o).starts_with(
                "invalid: the input is 4097 bytes, beyond the oracle's limit of 4096 bytes"
            ),
            "{command}: {}",
            stdout(&o)
        );
    }
    let o = with_grammar("limit.abnf", text, &["check", "--rule", "r", &long[1..]]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
}

#[test]
fn repetition_bounds_cost_nothing() {
    // `grammar --rust` took 18.2 GB and 61 s on this rule (its output is 2.8 KB):
    // checking the parsers drew strings a billion characters long.
    let text = "r = 1000000000*1000000000\"a\"\n";
    let started = Instant::now();
    let o = with_grammar("bounds.abnf", text, &["grammar", "--rust"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("repeat(i, 1000000000, 1000000000, "));
    let o = with_grammar("bounds.abnf", text, &["check", "--rule", "r", "aaa"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let o = with_grammar("bounds.abnf", text, &["generate", "--rule", "r"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "iri: the shortest string of r has 1000000000 characters, beyond the generator's \
         limit of 65536\n"
    );
    let o = with_grammar(
        "empty.abnf",
        "r = 1000000000e\ne = \"\"\n",
        &["tree", "--rule", "r", ""],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(
            "the tree of r would hold 1000000000 empty matches of one repetition, beyond \
             the limit of 4096"
        ),
        "{}",
        stdout(&o)
    );
    assert!(started.elapsed() < Duration::from_secs(20));
}

#[test]
fn the_oracles_budget_ends_work_without_end() {
    // Ambiguous recursion is cubic in the input's length (4,096 `a`s took 20
    // minutes): past its budget the oracle gives up on the input, which is shown as
    // not judged, and the command ends with status 2, naming the rule, the budget
    // and the flag that raises it.
    let text = "e = e e / \"a\"\n";
    let a = "a".repeat(300);
    let said = |o: &Output| {
        stderr(o).contains(
            "iri: the oracle spent its budget of 100000 steps judging e of the \
             budget.abnf grammar on an input of 300 characters, without an answer; give \
             it more with --oracle-steps (e.g. --oracle-steps 1000000)",
        )
    };
    for command in ["check", "tree"] {
        let args = [command, "--oracle-steps", "100000", "--rule", "e", "a", &a];
        let o = with_grammar("budget.abnf", text, &args);
        assert_eq!(o.status.code(), Some(2), "{command}: {}", stderr(&o));
        assert!(said(&o), "{command}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("not judged: the oracle spent its budget"),
            "{command}: {out}"
        );
        // The other input was judged.
        assert!(
            out.starts_with(if command == "check" {
                "valid\n"
            } else {
                "e 0..1"
            }),
            "{command}: {out}"
        );
        // The flag raises it.
        let args = [command, "--oracle-steps", "100000000", "--rule", "e", &a];
        let o = with_grammar("budget.abnf", text, &args);
        assert_eq!(o.status.code(), Some(0), "{command}: {}", stderr(&o));
    }
    let path = grammar_file("budget.abnf", text);
    let o = iri(&[
        "diff-grammars",
        "--oracle-steps",
        "100",
        &path,
        &path,
        "--rule-a",
        "e",
        "--rule-b",
        "e",
        "-n",
        "20",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the oracle spent its budget of 100 steps judging e"),
        "{}",
        stderr(&o)
    );
    // The built-in grammars' oracle has the same budget.
    let o = iri(&[
        "check",
        "--oracle",
        "--oracle-steps",
        "10",
        "http://example.com/",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the oracle spent its budget of 10 steps judging IRI-reference"),
        "{}",
        stderr(&o)
    );
    let o = iri(&["check", "--oracle-steps", "10", "http://example.com/"]);
    assert_eq!(o.status.code(), Some(0), "without --oracle: {}", stderr(&o));
}

#[test]
fn nested_groups_are_judged_in_polynomial_time() {
    // Each group's ends at each position were computed again from every position the
    // group around it reached: 23.8 s on 30 `a`s for the first, 15.7 s on 200 for
    // the second, over 120 s for diff-grammars of the first (release builds).
    let deep = "r = 1*(1*(1*(1*(1*(1*(1*(1*\"a\")))))))\n";
    let stars = "r = *( *( *( *\"a\" ) ) )\n";
    let a30 = "a".repeat(30);
    let o = with_grammar("deep.abnf", deep, &["check", "--rule", "r", &a30]);
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    let o = with_grammar("deep.abnf", deep, &["tree", "--rule", "r", &a30]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = with_grammar(
        "stars.abnf",
        stars,
        &["check", "--rule", "r", &"a".repeat(200)],
    );
    assert_eq!((o.status.code(), stdout(&o).as_str()), (Some(0), "valid\n"));
    let path = grammar_file("deep.abnf", deep);
    let o = iri(&[
        "diff-grammars",
        &path,
        &path,
        "--rule-a",
        "r",
        "--rule-b",
        "r",
        "-n",
        "20",
    ]);
    // The generator draws strings of thousands of `a`s from it (14,505 characters
    // first), on which the work is quadratic times the depth: the budget ends it.
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("the oracle spent its budget of 100000000 steps judging r"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn empty_languages_are_refused_with_the_reason() {
    // Each printed empty strings with exit 0, which check then rejected.
    for (name, text, why) in [
        (
            "prose.abnf",
            "r = <anything>\n",
            "<anything> is prose, which matches no string",
        ),
        (
            "surrogates.abnf",
            "r = %xD800-DFFF\n",
            "%xD800-DFFF holds only surrogates",
        ),
        (
            "cycle.abnf",
            "r = \"a\" r\n",
            "every derivation of r needs r again (r → r)",
        ),
    ] {
        let o = with_grammar(name, text, &["generate", "--rule", "r", "-n", "3"]);
        assert_eq!(o.status.code(), Some(2), "{name}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{name}");
        assert!(
            stderr(&o).contains(&format!("the language of rule r is empty: {why}")),
            "{name}: {}",
            stderr(&o)
        );
    }
}

#[test]
fn generation_is_held_to_its_budget() {
    let text = "r = 64( 64( 64( 64( 64( 64( *\"a\" ) ) ) ) ) )\n";
    let o = with_grammar("budget.abnf", text, &["generate", "--rule", "r"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "drawing a string of rule r took more than the generator's budget of 16777216 \
             steps"
        ) && stderr(&o).contains("--generate-steps raises it"),
        "{}",
        stderr(&o)
    );
    let o = with_grammar(
        "budget.abnf",
        "r = 2( *\"a\" )\n",
        &["generate", "--rule", "r", "--generate-steps", "2"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("budget of 2 steps"), "{}", stderr(&o));
}

#[test]
fn code_generation_past_its_budget_is_refused_with_the_flag_named() {
    // A chain of 2,000 optional rules, `rK = ["a"] rK+1`: the check of the
    // generated parsers ran the oracle for hours.
    let n = 2_000;
    let mut text: String = (0..n)
        .map(|k| format!("r{k} = [\"a\"] r{}\n", k + 1))
        .collect();
    text.push_str(&format!("r{n} = \"b\"\n"));
    let o = with_grammar("options.abnf", &text, &["grammar", "--rust"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(
            "the code generator refuses options.abnf: checking the parsers against the \
             ABNF would take more than 134217728 steps of the oracle"
        ) && stderr(&o).contains("--generate-steps raises the budget"),
        "{}",
        stderr(&o)
    );
    // A small grammar is within it; a budget too small for it is said.
    let small = "r = [\"a\"] s\ns = \"b\"\n";
    let o = with_grammar("small.abnf", small, &["grammar", "--rust"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = with_grammar(
        "small.abnf",
        small,
        &["grammar", "--rust", "--generate-steps", "10"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("more than 10 steps"), "{}", stderr(&o));
}

#[test]
fn a_grammar_file_is_read_no_further_than_its_limit() {
    // Was: an --abnf file was read whole, so `--abnf /dev/zero` grew without end.
    if !std::path::Path::new("/dev/zero").exists() {
        return;
    }
    let o = iri(&["--abnf", "/dev/zero", "grammar"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("/dev/zero: longer than 16777216 bytes, the longest grammar file read"),
        "{}",
        stderr(&o)
    );
}
