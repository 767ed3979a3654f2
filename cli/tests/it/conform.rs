//! `iri conform`: the text report, the HTML page and the exit statuses, against
//! small shell scripts (Unix only). The engine's own tests (conform/tests/) run the
//! planted bug and the hangs; the JSON report is checked against its schema in
//! cli/tests/it/schemas.rs.
#![cfg(unix)]

use quick_xml::events::Event;
use quick_xml::Reader;
use std::path::PathBuf;
use std::process::{Command, Output};

fn dir() -> PathBuf {
    let d = std::env::temp_dir().join(format!("iri-cli-conform-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A shell script of `body`, by name.
fn script(name: &str, body: &str) -> String {
    let path = dir().join(format!("{name}.sh"));
    std::fs::write(&path, body).unwrap();
    path.to_str().unwrap().to_string()
}

fn iri(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .output()
        .expect("run iri")
}

/// `iri --grammar uri conform --rule IPv4address --timeout 1s`, `extra` (200 inputs
/// unless it says `--budget`), then `-- program`.
fn conform(extra: &[&str], program: &[&str]) -> Output {
    let mut args = vec![
        "--grammar",
        "uri",
        "conform",
        "--rule",
        "IPv4address",
        "--timeout",
        "1s",
    ];
    if !extra.contains(&"--budget") {
        args.extend(["--budget", "200"]);
    }
    args.extend_from_slice(extra);
    args.push("--");
    args.extend_from_slice(program);
    iri(&args)
}

#[test]
fn the_text_report_groups_and_exits_1() {
    let yes = script("yes", "while read l; do echo valid; done\n");
    let o = conform(&[], &["sh", &yes]);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8(o.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("(uri IPv4address, seed 0): 200 inputs asked")
            && first.contains("0 hangs, 0 crashes, 0 answers not understood"),
        "{text}"
    );
    assert!(text.contains("\naccepts-invalid in "), "{text}");
    assert!(
        text.contains("    IPv4address   = dec-octet"),
        "the ABNF: {text}"
    );
    assert!(
        text.contains("RFC 3986 §3.2.2: https://www.rfc-editor.org/rfc/rfc3986.html#section-3.2.2"),
        "{text}"
    );
    // The same seed, the same report.
    let again = conform(&[], &["sh", &yes]);
    assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
}

#[test]
fn crashes_and_garbage_are_reported_with_their_input() {
    let crash = script(
        "crash",
        "n=0; while read l; do n=$((n+1)); if [ $n -gt 3 ]; then echo 'bad \x1b[31m' >&2; exit 9; fi; echo invalid; done\n",
    );
    let o = conform(&["--budget", "8"], &["sh", &crash]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let text = String::from_utf8(o.stdout).unwrap();
    // One line for the way it exits, with the inputs it exited on.
    assert_eq!(text.matches("exited on ").count(), 1, "{text}");
    // The program's standard error is shown escaped, as every string of the report.
    assert!(
        text.contains("(exit status 9; \"bad \\u001b[31m\"): \""),
        "{text}"
    );
    let garbage = script("garbage", "while read l; do echo VALID; done\n");
    let text = String::from_utf8(conform(&["--budget", "3"], &["sh", &garbage]).stdout).unwrap();
    assert!(
        text.contains("answer not understood for \"") && text.contains(": \"VALID\""),
        "{text}"
    );
}

#[test]
fn crashes_are_one_line_per_way_of_exiting_with_the_shortest_input_that_does() {
    // Was: one line per input, a hundred of them, each as long as it was drawn. A
    // tilde after a slash: a lone `~` may be asked as it is, with nothing to shrink.
    let tilde = script(
        "tilde",
        "while read l; do case \"$l\" in */*~*) echo 'panic: a tilde' >&2; exit 3;; esac; \
         echo valid; done\n",
    );
    let o = iri(&[
        "--grammar",
        "uri",
        "conform",
        "--budget",
        "300",
        "--timeout",
        "2s",
        "--",
        "sh",
        &tilde,
    ]);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("exited on "))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    assert!(
        lines[0].contains("inputs (exit status 3; \"panic: a tilde\"): \"")
            && lines[0].ends_with("; shortest that exits so: \"/~\""),
        "{text}"
    );
}

#[test]
fn examples_are_json_string_literals_in_the_text_and_on_the_page() {
    let yes = script("yes-literal", "while read l; do echo valid; done\n");
    let page = dir().join("literal.html");
    let o = conform(&["--html", page.to_str().unwrap()], &["sh", &yes]);
    let text = String::from_utf8(o.stdout).unwrap();
    // The empty string, accepted though no IPv4address, shown as the protocol
    // writes it, and every example line reads back as one JSON string.
    assert!(text.contains("\n  \"\"\n"), "{text}");
    for line in text.lines().filter(|l| l.starts_with("  \"")) {
        let example: serde_json::Value = serde_json::from_str(line.trim()).unwrap();
        assert!(example.is_string(), "{line}");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("<li>&quot;&quot;</li>"), "{html}");
}

#[test]
fn the_help_says_json_prints_one_report() {
    let help = String::from_utf8(iri(&["conform", "--help"]).stdout).unwrap();
    assert!(help.contains("one JSON object for the whole run"), "{help}");
    assert!(!help.contains("per input (JSON Lines)"), "{help}");
}

#[test]
fn a_budget_of_zero_is_refused() {
    let yes = script("yes-zero", "while read l; do echo valid; done\n");
    let o = conform(&["--budget", "0"], &["sh", &yes]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8(o.stderr).unwrap();
    assert!(e.contains("--budget") && e.contains("at least 1"), "{e}");
}

#[test]
fn a_program_that_cannot_answer_is_a_usage_error() {
    let o = conform(&[], &["/nonexistent/program"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("cannot start /nonexistent/program"));
    let refuses = script("refuses", "echo 'no such rule' >&2; exit 3\n");
    let o = conform(&[], &["sh", &refuses]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        e.contains("failed 3 times") && e.contains("no such rule"),
        "{e}"
    );
    // Usage: no program, an unknown rule, a bad timeout, a global option it refuses.
    for args in [
        &["conform"][..],
        &["conform", "--rule", "nope", "--", "sh", &refuses],
        &["conform", "--timeout", "soon", "--", "true"],
        &["conform", "-H", "--", "true"],
    ] {
        let o = iri(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn the_html_page_is_well_formed_and_shows_the_groups() {
    let yes = script("yes-html", "while read l; do echo valid; done\n");
    let page = dir().join("report.html");
    let o = conform(&["--html", page.to_str().unwrap()], &["sh", &yes]);
    assert_eq!(o.status.code(), Some(1));
    let html = std::fs::read_to_string(&page).unwrap();
    let mut r = Reader::from_str(&html);
    r.config_mut().check_end_names = true;
    let mut sections = 0;
    loop {
        match r.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) => {
                if e.name().as_ref() == b"section" {
                    sections += 1;
                }
                for a in e.attributes() {
                    assert_ne!(a.unwrap().key.as_ref(), b"src", "a resource from elsewhere");
                }
            }
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", r.buffer_position()),
        }
    }
    assert!(sections >= 1, "{html}");
    assert!(html.contains("class=\"group\"") && html.contains("IPv4address"));
    assert!(!html.contains("<script") && !html.contains("<link"));
}

#[test]
fn an_interrupt_ends_the_program_under_test_too() {
    // The program runs in a process group of its own, which a Ctrl-C at a terminal
    // does not reach: `iri` kills it before it dies of the signal. This one writes its
    // pid, then hangs without answering.
    let pid_file = dir().join("hung.pid");
    let _ = std::fs::remove_file(&pid_file);
    let hung = script(
        "hung",
        &format!("echo $$ > {}\nexec sleep 600\n", pid_file.display()),
    );
    let mut run = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["--grammar", "uri", "conform", "--rule", "IPv4address"])
        .args(["--timeout", "60s", "--", "sh", &hung])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("run iri");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the program never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    assert!(alive(pid));
    let sent = Command::new("kill")
        .args(["-INT", &run.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    // Waited for with the deadline: where SIGINT is ignored (a test run started in
    // the background by a non-interactive shell inherits it so), `iri` would not
    // die of it, and an unbounded wait would hang the whole run.
    let status = loop {
        if let Some(status) = run.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() >= deadline {
            let _ = run.kill();
            let _ = run.wait();
            panic!("iri did not end on SIGINT (is SIGINT ignored where the tests run?)");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(2), "{status:?}");
    while alive(pid) {
        assert!(
            std::time::Instant::now() < deadline,
            "the program outlived iri"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn huge_answers_make_a_bounded_report() {
    // 100 answers of a megabyte each, none understood: 100 MB of report before,
    // over a thousand times the bound.
    let huge = script(
        "huge",
        "a=$(head -c 1000000 /dev/zero | tr '\\0' A)\nwhile read l; do printf '{\"valid\": \"%s\"}\\n' \"$a\"; done\n",
    );
    let o = conform(&["--budget", "100", "--json"], &["sh", &huge]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.len() < 64 * 1024, "{} bytes", o.stdout.len());
    let o = conform(&["--budget", "100"], &["sh", &huge]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.len() < 64 * 1024, "{} bytes", text.len());
    assert!(text.contains("100 answers not understood"), "{text}");
}

#[test]
fn a_budget_above_its_maximum_is_refused() {
    // dec-octet has 256 strings: inputs run out long before any budget.
    for budget in ["18446744073709551615", "100000000"] {
        let o = iri(&[
            "--grammar",
            "uri",
            "conform",
            "--rule",
            "dec-octet",
            "--budget",
            budget,
            "--",
            "/nonexistent/program",
        ]);
        assert_eq!(o.status.code(), Some(2));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("--budget") && e.contains("at most"), "{e}");
    }
}

#[test]
fn standard_error_shows_its_bidi_controls_in_the_page() {
    // U+202E RIGHT-TO-LEFT OVERRIDE and U+2066 LEFT-TO-RIGHT ISOLATE in what the
    // program writes before it exits.
    let crash = script(
        "bidi",
        "n=0; while read l; do n=$((n+1)); if [ $n -gt 2 ]; then printf 'bad \\342\\200\\256gpj.exe \\342\\201\\246x\\n' >&2; exit 9; fi; echo invalid; done\n",
    );
    let page = dir().join("bidi.html");
    let o = conform(
        &["--budget", "8", "--html", page.to_str().unwrap()],
        &["sh", &crash],
    );
    assert_eq!(o.status.code(), Some(1));
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("Exited"), "{html}");
    assert!(
        !html.contains('\u{202E}') && !html.contains('\u{2066}'),
        "a bidi control in the page"
    );
    assert!(html.contains("U+202E") && html.contains("U+2066"), "{html}");
}

#[test]
fn the_program_dies_with_iri_even_when_iri_is_killed() {
    // SIGKILL leaves iri no time to kill anything: the program is given a signal for
    // its parent's death (Linux). It writes its pid, then hangs without answering.
    if !cfg!(target_os = "linux") {
        return;
    }
    let pid_file = dir().join("orphan.pid");
    let _ = std::fs::remove_file(&pid_file);
    let hung = script(
        "orphan",
        &format!("echo $$ > {}\nexec sleep 600\n", pid_file.display()),
    );
    let mut run = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["--grammar", "uri", "conform", "--rule", "IPv4address"])
        .args(["--timeout", "60s", "--", "sh", &hung])
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("run iri");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
        {
            break pid;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the program never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    run.kill().unwrap();
    run.wait().unwrap();
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            !stat
                .rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while alive(pid) {
        assert!(
            std::time::Instant::now() < deadline,
            "the program outlived iri killed by SIGKILL"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[test]
fn a_corpus_file_of_any_size_is_read_in_bounded_memory() {
    // Was: each --corpus file was read whole into memory (a file without line
    // ends, or of gigabytes, went to the allocator's limit), though at most a
    // quarter of the budget is taken from it, in lines of at most 4,096 bytes.
    // Now a longer line is counted and skipped as it is read.
    let path = dir().join("corpus-without-end.txt");
    {
        use std::io::Write;
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        f.write_all(b"1.2.3.4\r\n").unwrap();
        let block = vec![b'a'; 1 << 20];
        for _ in 0..600 {
            f.write_all(&block).unwrap();
        }
        f.write_all(b"\n10.0.0.1").unwrap();
    }
    let yes = script("yes-corpus", "while read l; do echo valid; done\n");
    let o = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 524288 && exec {} --json --grammar uri conform --rule IPv4address \
             --timeout 1s --budget 200 --corpus {} -- sh {yes}",
            env!("CARGO_BIN_EXE_iri"),
            path.display()
        ))
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(report["corpus_too_long"], 1, "{report}");
}

// `iri conform --resolve`: the resolution exchange.

/// `iri --grammar uri conform --resolve --budget 150 --timeout 1s`, `extra`, then
/// `-- sh script` (the URI grammar's inputs are the quicker to make in a debug build).
fn resolve(extra: &[&str], script: &str) -> Output {
    let mut args = vec![
        "--grammar",
        "uri",
        "conform",
        "--resolve",
        "--budget",
        "150",
        "--timeout",
        "1s",
    ];
    args.extend_from_slice(extra);
    args.extend(["--", "sh", script]);
    iri(&args)
}

#[test]
fn resolution_is_reported_by_step_and_exits_1() {
    // Every target is the base itself: right for an empty reference, wrong at
    // every step else.
    let base = script(
        "resolve-base",
        "while read l; do echo \"$l\" | sed 's/^\\[\\(\"[^\"]*\"\\),.*/\\1/'; done\n",
    );
    let o = resolve(&["--examples", "1"], &base);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let text = String::from_utf8(o.stdout).unwrap();
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("(uri resolution, seed 0): 150 pairs asked"),
        "{first}"
    );
    // RFC 3986 §5.4.1's "g" against its base: the reference's path is merged.
    assert!(text.contains("target at §5.2.3 merge"), "{text}");
    assert!(text.contains("RFC 3986 §5.2.3: https://www.rfc-editor.org/rfc/rfc3986#section-5.2.3"));
    assert!(text.contains("the library's"), "{text}");
}

#[test]
fn resolution_as_json_says_its_mode_and_groups() {
    let none = script("resolve-none", "while read l; do echo invalid; done\n");
    let o = iri(&[
        "--json",
        "--grammar",
        "uri",
        "conform",
        "--resolve",
        "--budget",
        "60",
        "--",
        "sh",
        &none,
    ]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["mode"], "resolve");
    assert_eq!(v["inputs"], 60);
    let groups = v["groups"].as_array().unwrap();
    assert!(groups.iter().all(|g| g["kind"] == "refuses"), "{groups:?}");
    // Minimized: one character of path against a base of two.
    let relative = groups
        .iter()
        .find(|g| g["step"] == "relative-path")
        .unwrap();
    let e = &relative["examples"][0];
    assert_eq!(e["base"].as_str().unwrap().len(), 2, "{e}");
    assert_eq!(e["reference"].as_str().unwrap().len(), 1, "{e}");
    assert_eq!(e["got"], serde_json::Value::Null);
}

#[test]
fn resolution_refuses_options_that_mean_nothing_for_it() {
    let none = script("resolve-none-2", "while read l; do echo invalid; done\n");
    for (extra, says) in [
        (&["--rule", "IRI"][..], "--rule"),
        (&["--corpus", "/dev/null"][..], "--corpus"),
    ] {
        let o = resolve(extra, &none);
        assert_eq!(o.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8(o.stderr).unwrap();
        assert!(err.contains(says) && !err.contains("panicked"), "{err}");
    }
    let o = iri(&[
        "--grammar",
        "iri-2001",
        "conform",
        "--resolve",
        "--",
        "sh",
        &none,
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr).unwrap().contains("iri-2001"));
}

#[test]
fn a_validation_adapter_asked_to_resolve_stops_with_2() {
    let yes = script("resolve-valid", "while read l; do echo valid; done\n");
    let o = resolve(&[], &yes);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8(o.stderr).unwrap();
    assert!(err.contains("is it a validation adapter?"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let garbage = script("resolve-garbage", "while read l; do echo '[1]'; done\n");
    let o = resolve(&[], &garbage);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8(o.stderr)
        .unwrap()
        .contains("its first answer: \"[1]\""));
}

#[test]
fn a_resolver_that_exits_is_minimized_to_the_pair_that_makes_it() {
    let percent = script(
        "resolve-percent",
        "while read l; do case \"$l\" in *%*) echo boom >&2; exit 3;; esac; echo invalid; done\n",
    );
    let o = resolve(&[], &percent);
    assert_eq!(o.status.code(), Some(1));
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(
        text.contains("shortest that exits so (exit status 3; \"boom\"): [\"\",\"%\"]"),
        "{text}"
    );
}

#[test]
fn the_resolution_page_is_well_formed() {
    let none = script("resolve-html", "while read l; do echo invalid; done\n");
    let page = dir().join("resolve.html");
    let o = resolve(&["--html", page.to_str().unwrap()], &none);
    assert_eq!(o.status.code(), Some(1));
    let html = std::fs::read_to_string(&page).unwrap();
    let mut r = Reader::from_str(&html);
    r.config_mut().check_end_names = true;
    let mut sections = 0;
    loop {
        match r.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Start(e)) if e.name().as_ref() == b"section" => sections += 1,
            Ok(_) => {}
            Err(e) => panic!("not well-formed at {}: {e}", r.buffer_position()),
        }
    }
    assert!(sections >= 4, "{html}");
    assert!(html.contains("refuses at §5.2.2 a relative path"), "{html}");
    assert!(
        html.contains("the program&#x27;s invalid") || html.contains("the program's invalid"),
        "{html}"
    );
}
