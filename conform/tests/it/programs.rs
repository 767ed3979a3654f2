//! Programs that hang, crash or answer garbage are reported as such, the run goes on,
//! and nothing is left running. Each program is a small shell script (Unix only).

use iri_grammar_abnf::VariantName;
use iri_grammar_conform::subject::{Outcome, Program, Subject};
use iri_grammar_conform::{run, Options};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;

tests! {
    a_program_that_says_valid_to_everything_disagrees_on_the_invalid,
    a_crash_is_reported_and_the_program_started_again,
    a_hang_is_reported_and_nothing_is_left_running,
    garbage_is_not_understood_and_the_run_goes_on,
    a_program_that_never_answers_stops_the_run,
    a_line_without_end_is_bounded,
    more_answers_than_inputs_stop_the_run,
    a_banner_on_standard_output_stops_the_run_with_status_2,
    too_many_hangs_stop_the_run_early,
    huge_answers_are_kept_as_a_bounded_prefix,
    a_budget_above_the_maximum_is_refused,
    a_program_that_closes_its_output_is_a_crash_at_once,
    what_the_program_starts_in_another_session_is_ended_with_it,
    crashes_are_minimized_per_way_of_exiting,
}

/// A shell script in a fresh temporary folder; the folder is named by the test.
fn script(name: &str, body: &str) -> Vec<OsString> {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("iri-conform-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("program.sh");
    std::fs::write(&path, body).unwrap();
    vec!["sh".into(), path.into_os_string()]
}

fn options(budget: usize) -> Options {
    Options {
        grammar: VariantName::Uri,
        rule: Some("IPv4address".to_string()),
        budget,
        timeout: Duration::from_millis(300),
        ..Options::default()
    }
}

/// Whether a process whose command line holds `marker` is still running.
/// The program as a subject asked about `IPv4address` of RFC 3986, with `timeout`.
fn subject(program: Vec<OsString>, timeout: Duration) -> Subject {
    Subject::new(
        Program {
            command: program,
            grammar: "uri".to_string(),
            rule: "IPv4address".to_string(),
        },
        timeout,
    )
}

fn running(marker: &str) -> bool {
    std::fs::read_dir("/proc").is_ok_and(|d| {
        d.flatten().any(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
    })
}

fn a_program_that_says_valid_to_everything_disagrees_on_the_invalid() {
    let r = run(
        &options(300),
        &script("yes", "while read l; do echo valid; done\n"),
    )
    .unwrap();
    assert!(r
        .groups
        .iter()
        .all(|g| g.kind.as_str() == "accepts-invalid"));
    assert!(!r.groups.is_empty() && !r.ok());
    assert!(r.hangs.is_empty() && r.crashes.is_empty() && r.unreadable.is_empty());
    assert_eq!(r.starts, 1);
}

fn a_crash_is_reported_and_the_program_started_again() {
    let program = script(
        "crash",
        "n=0; while read l; do n=$((n+1)); if [ $n -gt 3 ]; then echo gone >&2; exit 7; fi; echo invalid; done\n",
    );
    let r = run(&options(20), &program).unwrap();
    assert!(!r.crashes.is_empty(), "{r:#?}");
    assert_eq!(r.crashes[0].status, "exit status 7");
    assert!(r.crashes[0].stderr.contains("gone"));
    assert!(r.starts > 1);
    assert!(!r.ok());
}

fn a_hang_is_reported_and_nothing_is_left_running() {
    // The sleeping child runs a copy of sleep(1) named by the test, to be found by
    // its name afterwards.
    let marker = format!("iri-conform-sleep-{}", std::process::id());
    let sleep = std::env::temp_dir().join(&marker);
    let found = ["/bin/sleep", "/usr/bin/sleep"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("sleep(1)");
    std::fs::copy(found, &sleep).unwrap();
    let program = script(
        "hang",
        &format!(
            "n=0; while read l; do n=$((n+1)); if [ $n -eq 2 ]; then {} 60; fi; echo invalid; done\n",
            sleep.display()
        ),
    );
    let mut subject = subject(program, Duration::from_millis(300));
    assert!(matches!(
        subject.ask("1.2.3.4").unwrap(),
        Outcome::Answer(_)
    ));
    assert_eq!(subject.ask("1.2.3.5").unwrap(), Outcome::NoAnswer);
    assert!(matches!(
        subject.ask("1.2.3.6").unwrap(),
        Outcome::Answer(_)
    ));
    assert_eq!(subject.starts, 2);
    subject.close();
    assert!(!running(&marker), "the sleeping child was left running");
    std::fs::remove_file(&sleep).unwrap();
}

fn garbage_is_not_understood_and_the_run_goes_on() {
    let r = run(
        &options(10),
        &script("garbage", "while read l; do echo 'yes!'; done\n"),
    )
    .unwrap();
    assert_eq!(r.unreadable.len(), r.inputs);
    assert!(r.unreadable[0].why.contains("neither"));
    assert_eq!(r.starts, 1);
}

fn a_program_that_never_answers_stops_the_run() {
    let e = match run(
        &options(10),
        &script("refuses", "echo 'no rule' >&2; exit 3\n"),
    ) {
        Err(e) => e,
        Ok(r) => panic!("{r:#?}"),
    };
    assert!(
        e.0.contains("failed 3 times") && e.0.contains("no rule"),
        "{e}"
    );
    let e = run(&options(10), &[OsString::from("/nonexistent/program")]).unwrap_err();
    assert!(e.0.contains("cannot start"), "{e}");
}

fn a_line_without_end_is_bounded() {
    // A program that writes 4 MiB without a line feed, then a valid answer line.
    let program = script(
        "long",
        "read l; head -c 4194304 /dev/zero | tr '\\0' x; echo; while read l; do echo invalid; done\n",
    );
    let mut subject = subject(program, Duration::from_secs(5));
    match subject.ask("a").unwrap() {
        Outcome::NotUnderstood { why, .. } => assert!(why.contains("longer than"), "{why}"),
        o => panic!("{o:?}"),
    }
    assert!(matches!(subject.ask("b").unwrap(), Outcome::Answer(_)));
}

fn more_answers_than_inputs_stop_the_run() {
    // `yes valid` answers before it is asked: its second line answers no input.
    let program = script("chatty", "read l; yes valid\n");
    let mut subject = subject(program, Duration::from_secs(5));
    assert!(matches!(
        subject.ask("1.2.3.4").unwrap(),
        Outcome::Answer(_)
    ));
    // A surplus line is seen once it has arrived before the next input is written:
    // `yes` fills the bounded queue of lines within a few questions, however slowly
    // this machine runs the reader thread (the first questions may take a surplus
    // line for their answer, as no program can tell). From then on no answer can be
    // trusted to be its input's: the run stops, rather than count disagreements.
    let mut asked = 0;
    loop {
        asked += 1;
        match subject.ask(&format!("1.2.3.{asked}")) {
            Err(stop) => {
                assert!(
                    stop.0.contains("wrote \"valid\" before it was asked"),
                    "{stop}"
                );
                assert!(stop.0.contains("more answers than inputs"), "{stop}");
                break;
            }
            Ok(Outcome::Answer(_)) if asked < 10_000 => {}
            o => panic!("after {asked} questions: {o:?}"),
        }
    }
}

fn a_banner_on_standard_output_stops_the_run_with_status_2() {
    // Was: the banner taken for the first input's answer, every answer after it for
    // the next input's, and 138-155 false disagreements.
    let banner =
        "echo 'adapter 1.0 (warning: deprecated API)'; while read l; do echo valid; done\n";
    let mut subject = subject(script("banner", banner), Duration::from_secs(5));
    match subject.ask("1.2.3.4") {
        Err(stop) => assert!(
            stop.0
                .contains("wrote \"adapter 1.0 (warning: deprecated API)\" and then \"valid\"")
                && stop.0.contains("write anything else to standard error"),
            "{stop}"
        ),
        o => panic!("{o:?}"),
    }
    // The whole run: no report, the reason.
    let e = run(&options(50), &script("banner-run", banner)).unwrap_err();
    assert!(
        e.to_string().contains("a line that answers no input"),
        "{e}"
    );
    // A program that answers garbage, one line per input, is not out of step.
    let r = run(
        &options(10),
        &script("garbage-2", "while read l; do echo 'yes!'; done\n"),
    );
    assert!(r.is_ok());
}

fn too_many_hangs_stop_the_run_early() {
    // It answers the first input of each start, then sleeps: ten starts, ten hangs.
    let program = script(
        "sleepy",
        "read l; echo invalid; while read l; do sleep 5; done\n",
    );
    let r = run(
        &Options {
            timeout: Duration::from_millis(50),
            ..options(40)
        },
        &program,
    )
    .unwrap();
    assert_eq!(r.hangs.len(), 10, "{r:#?}");
    assert!(r.stopped_early.as_deref().unwrap().contains("10 inputs"));
    assert_eq!((r.inputs, r.starts), (20, 10));
}

/// A copy of sleep(1) named `marker` in the temporary folder, to be found by its name.
fn named_sleep(marker: &str) -> PathBuf {
    let sleep = std::env::temp_dir().join(marker);
    let found = ["/bin/sleep", "/usr/bin/sleep"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("sleep(1)");
    std::fs::copy(found, &sleep).unwrap();
    sleep
}

fn huge_answers_are_kept_as_a_bounded_prefix() {
    // 300 answers of a megabyte each, none of them understood: what the report keeps
    // of them is bounded, not 300 MB.
    let program = script(
        "huge",
        "a=$(head -c 1000000 /dev/zero | tr '\\0' A)\nwhile read l; do printf '{\"valid\": \"%s\"}\\n' \"$a\"; done\n",
    );
    let r = run(&options(300), &program).unwrap();
    assert_eq!(r.inputs, 300);
    let kept = r.to_json().len();
    assert!(kept < 64 * 1024, "the report keeps {kept} bytes");
    // The first few are kept, the others counted.
    assert_eq!(r.not_understood(), 300);
    assert_eq!(r.unreadable.len(), iri_grammar_conform::UNREADABLE_KEPT);
    for u in &r.unreadable {
        assert!(u.why.chars().count() <= 300, "{}", u.why.len());
        assert!(
            u.why.contains("characters"),
            "the original length: {}",
            u.why
        );
    }
}

fn a_budget_above_the_maximum_is_refused() {
    // Inputs are made before the first is asked: a budget without bound would be
    // taken as it is.
    let e = run(
        &Options {
            budget: iri_grammar_conform::MAX_BUDGET + 1,
            ..options(0)
        },
        &script("unasked", "while read l; do echo valid; done\n"),
    )
    .unwrap_err();
    assert!(e.0.contains("more than the most"), "{e}");
}

fn a_program_that_closes_its_output_is_a_crash_at_once() {
    // Each start answers one input, then closes its output and keeps running: that is
    // the end of its answers. Each start left 1.5 s writes a line `late`; a machine
    // too busy to kill one in time may let a rare one through.
    let late = std::env::temp_dir().join(format!("iri-conform-late-{}", std::process::id()));
    let _ = std::fs::remove_file(&late);
    let program = script(
        "closes",
        &format!(
            "read l; echo invalid; read l; exec >&-; sleep 1.5; echo late >> {}; exec sleep 30\n",
            late.display()
        ),
    );
    let mut subject = subject(program, Duration::from_secs(5));
    for k in 0..20 {
        assert!(matches!(
            subject.ask(&format!("1.2.3.{k}")).unwrap(),
            Outcome::Answer(_)
        ));
        match subject.ask(&format!("1.2.4.{k}")).unwrap() {
            Outcome::Crash { status, .. } => {
                assert!(status.contains("closed its output"), "{status}");
            }
            o => panic!("{o:?}"),
        }
    }
    subject.close();
    assert_eq!(subject.starts, 20);
    let waited_for = std::fs::read_to_string(&late).map_or(0, |s| s.lines().count());
    assert!(
        waited_for <= 2,
        "{waited_for} of 20 programs that closed their output were waited for"
    );
}

fn what_the_program_starts_in_another_session_is_ended_with_it() {
    // Two children leave the program's process group with setsid(1): one while its
    // parent lives on, one whose parent (a subshell) exits at once.
    let marker = format!("iri-conform-setsid-{}", std::process::id());
    let sleep = named_sleep(&marker);
    let program = script(
        "setsid",
        &format!(
            "setsid {s} 600 </dev/null >/dev/null 2>&1 &\n(setsid {s} 601 </dev/null >/dev/null 2>&1 &)\nsleep 0.5\nwhile read l; do echo invalid; done\n",
            s = sleep.display()
        ),
    );
    let r = run(&options(5), &program).unwrap();
    assert_eq!(r.starts, 1);
    assert!(
        !running(&marker),
        "a child in another session was left running"
    );
    std::fs::remove_file(&sleep).unwrap();
}

fn crashes_are_minimized_per_way_of_exiting() {
    // A program that dies on every input with a tilde after a slash: its shortest
    // crash is shrunk to those two characters, while it keeps exiting the same way.
    // (Two: a one-character crash may be asked as it is, with nothing to shrink.)
    let program = script(
        "tilde",
        "while read l; do case \"$l\" in */*~*) echo 'panic: a tilde' >&2; exit 3;; \
         esac; echo valid; done\n",
    );
    let options = Options {
        grammar: VariantName::Uri,
        rule: Some("URI-reference".to_string()),
        budget: 300,
        timeout: Duration::from_secs(2),
        ..Options::default()
    };
    let r = run(&options, &program).unwrap();
    assert!(!r.crashes.is_empty());
    assert!(r
        .crashes
        .iter()
        .all(|c| c.way() == ("exit status 3", "panic: a tilde")));
    let shortest = r
        .crashes
        .iter()
        .map(|c| c.minimized.as_deref().unwrap_or(&c.input))
        .min_by_key(|s| s.chars().count())
        .unwrap();
    assert_eq!(shortest, "/~", "{:?}", r.crashes);
    // Only the shortest crash of the way is minimized, and the inputs asked while
    // minimizing are not counted as crashes of their own.
    assert_eq!(
        r.crashes.iter().filter(|c| c.minimized.is_some()).count(),
        1
    );
    assert!(r
        .crashes
        .iter()
        .all(|c| c.input.contains('~') && c.input.contains('/')));
}
