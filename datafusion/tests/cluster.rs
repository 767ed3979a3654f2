//! A real Ballista cluster: `iri-sql scheduler` and two `iri-sql executor`
//! processes on loopback ports, queries submitted with `iri-sql --scheduler` and with
//! [`iri_grammar_datafusion::ballista::remote`], answers compared with the embedded
//! engine's; then one executor is killed during a query.
//!
//! Bounded: every wait has a deadline, a watchdog thread ends the test (and the
//! processes) past [`WATCHDOG`], each process is killed when its guard drops (also on
//! a failed assertion) and, on Linux, when the test process dies (`PR_SET_PDEATHSIG`).
//!
//! A test binary of its own (`required-features = ["ballista"]`), not a module of
//! `tests/it/`: its watchdog aborts the process it runs in, which would take the
//! other tests' results with it, and its scheduler declares an executor lost after
//! 5 s without a heartbeat, a bound that the other tests' load on the same cores,
//! run beside it in one binary, would put at risk.

#[path = "it/common.rs"]
mod common;

use common::rows;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The whole test's bound: past it the watchdog kills every process and aborts.
const WATCHDOG: Duration = Duration::from_secs(420);
/// How long a process may take to start and register.
const START: Duration = Duration::from_secs(90);
/// How long a query may take.
const QUERY: Duration = Duration::from_secs(150);

/// `iri-sql --scheduler 127.0.0.1:PORT --format csv ARGS...` run in `dir`, within
/// [`QUERY`], which must succeed.
async fn iri_sql_csv(dir: &Path, scheduler_port: u16, args: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_iri-sql"));
    command
        .current_dir(dir)
        .args(["--scheduler", &format!("127.0.0.1:{scheduler_port}")])
        .args(["--format", "csv"])
        .args(args);
    let run = tokio::task::spawn_blocking(move || command.output().unwrap());
    let out = tokio::time::timeout(QUERY, run)
        .await
        .unwrap_or_else(|_| panic!("iri-sql {args:?}: no answer within {QUERY:?}"))
        .unwrap();
    assert!(
        out.status.success(),
        "iri-sql {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The process ids the watchdog kills when the test overruns.
type Pids = Arc<Mutex<Vec<u32>>>;

/// A process of the cluster, killed and reaped when dropped.
struct Process {
    name: String,
    child: Child,
    log: PathBuf,
}

impl Process {
    fn start(name: &str, args: &[String], dir: &Path, pids: &Pids) -> Process {
        let log = dir.join(format!("{name}.log"));
        let file = std::fs::File::create(&log).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_iri-sql"));
        command
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(file.try_clone().unwrap())
            .stderr(file);
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::process::CommandExt;
            // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
            unsafe {
                command.pre_exec(|| {
                    // Dies with the test process, however that ends.
                    if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                        return Err(std::io::Error::last_os_error());
                    }
                    Ok(())
                });
            }
        }
        let child = command.spawn().unwrap();
        pids.lock().unwrap().push(child.id());
        Process {
            name: name.to_string(),
            child,
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Panics, with the process's log, if it has exited.
    fn assert_running(&mut self) {
        if let Some(status) = self.child.try_wait().unwrap() {
            panic!("{} exited ({status}):\n{}", self.name, self.log());
        }
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A port that was free a moment ago (the OS's choice for port 0).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Whether the HTTP server on `port` answers `GET path` with status 200.
fn http_ok(port: u16, path: &str) -> bool {
    let Ok(mut s) = TcpStream::connect_timeout(
        &format!("127.0.0.1:{port}").parse().unwrap(),
        Duration::from_secs(2),
    ) else {
        return false;
    };
    let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
    if write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").is_err() {
        return false;
    }
    let mut response = String::new();
    let _ = s.read_to_string(&mut response);
    response.starts_with("HTTP/1.1 200") || response.starts_with("HTTP/1.0 200")
}

fn wait_until(what: &str, deadline: Duration, mut ready: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ready() {
        assert!(
            start.elapsed() < deadline,
            "{what}: not within {deadline:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

struct Executor {
    process: Process,
    health_port: u16,
}

fn start_executor(name: &str, scheduler_port: u16, dir: &Path, pids: &Pids) -> Executor {
    let work = dir.join(format!("{name}-work"));
    std::fs::create_dir_all(&work).unwrap();
    let health_port = free_port();
    let args: Vec<String> = [
        "executor",
        "--scheduler-host",
        "127.0.0.1",
        "--scheduler-port",
        &scheduler_port.to_string(),
        "--bind-host",
        "127.0.0.1",
        "--external-host",
        "127.0.0.1",
        "--bind-port",
        &free_port().to_string(),
        "--bind-grpc-port",
        &free_port().to_string(),
        "--bind-health-port",
        &health_port.to_string(),
        // One task slot each: a stage of several partitions needs both executors.
        "--vcores",
        "1",
        "--work-dir",
        work.to_str().unwrap(),
        "--scheduler-connect-timeout-seconds",
        "30",
        "--executor-heartbeat-interval-seconds",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    Executor {
        process: Process::start(name, &args, dir, pids),
        health_port,
    }
}

/// Links over a few hosts, with spellings that normalize alike and lines that are
/// no IRI, `n` rows.
fn links(n: usize) -> String {
    let mut s = String::from("link\n");
    for i in 0..n {
        let line = match i % 7 {
            0 => format!("http://example.org/a/{}", i % 50),
            1 => format!("HTTP://Example.ORG:80/a/{}", i % 50),
            2 => format!("https://résumé.example/{i}?q={}", i % 3),
            3 => format!("http://host{}.example.net/p%7e{}", i % 5, i % 11),
            4 => format!("http://example.org/a b{i}"),
            5 => format!("urn:isbn:{i}"),
            _ => format!("ftp://[2001:db8::{:x}]/f", i % 9),
        };
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// The lines of [`links`] as a list, as crawl dumps have them: a byte order mark,
/// some lines ended by CRLF, a line with a byte that is not UTF-8 and one cut inside
/// a UTF-8 sequence, an empty line, and no final newline.
fn list(n: usize) -> Vec<u8> {
    let mut bytes = "\u{FEFF}".as_bytes().to_vec();
    for (i, line) in links(n).lines().skip(1).enumerate() {
        match i % 1000 {
            500 => {
                bytes.extend_from_slice(line.as_bytes());
                bytes.extend_from_slice(b"/caf\xE9");
            }
            501 => {
                bytes.extend_from_slice(line.as_bytes());
                bytes.extend_from_slice(b"/\xC3");
            }
            502 => {}
            _ => bytes.extend_from_slice(line.as_bytes()),
        }
        if i + 1 < n {
            bytes.extend_from_slice(if i % 3 == 0 { b"\r\n" } else { b"\n" });
        }
    }
    bytes
}

/// The embedded engine and a cluster client with the same tables.
async fn register(ctx: &datafusion::prelude::SessionContext, dir: &Path) {
    // The list read by the crate's list reader on both, in ranges of 16 KiB: four
    // partitions, which the cluster's executors read by the list's absolute path.
    let list =
        iri_grammar_datafusion::tables::text_list_in_ranges(dir.join("list.txt"), 4, 1 << 14)
            .unwrap();
    ctx.register_table("list", list).unwrap();
    for (name, file) in [
        ("links", "links.csv"),
        ("labels", "labels.csv"),
        ("big", "big.csv"),
    ] {
        ctx.register_csv(name, dir.join(file).to_str().unwrap(), Default::default())
            .await
            .unwrap();
    }
    // Cut the CSV files into ranges of 64 KiB (the default is 10 MiB), and make
    // joins repartition both sides: each query then has stages of several
    // partitions and shuffles between them.
    for set in [
        "SET datafusion.optimizer.repartition_file_min_size = 65536",
        "SET datafusion.optimizer.hash_join_single_partition_threshold = 0",
        "SET datafusion.optimizer.hash_join_single_partition_threshold_rows = 0",
    ] {
        ctx.sql(set).await.unwrap().collect().await.unwrap();
    }
}

const GROUP_BY_HOST: &str = "SELECT iri_host(iri_normalize(link, 'scheme')) AS host, \
       count(*) AS n, count(*) FILTER (WHERE iri_is_valid(link)) AS valid, \
       min(iri_error(link)['rule']) AS rule \
     FROM links GROUP BY host ORDER BY host NULLS LAST";

const JOIN_ON_NORMALIZE: &str = "SELECT l.link, b.label FROM links l JOIN labels b \
       ON iri_normalize(l.link, 'scheme') = iri_normalize(b.url, 'scheme') \
     ORDER BY l.link, b.label";

/// A list's every row, with the columns a CSV reading of it would not have.
const LIST_ROWS: &str = "SELECT \"offset\", iri, utf8_error FROM list ORDER BY \"offset\"";

const LIST_GROUP_BY_HOST: &str = "SELECT iri_host(iri) AS host, count(*) AS n, \
       count(utf8_error) AS not_utf8, min(\"offset\") AS first \
     FROM list GROUP BY host ORDER BY host NULLS LAST";

const BIG: &str = "SELECT iri_host(iri_normalize(link, 'scheme')) AS host, count(*) AS n, \
       count(DISTINCT iri_to_uri(link)) AS uris \
     FROM big GROUP BY host ORDER BY host NULLS LAST";

/// Lines `Execute task` in an executor's log: tasks it ran.
fn tasks_run(e: &Executor) -> usize {
    e.process.log().matches("Execute task").count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scheduler_and_two_executors_answer_as_the_embedded_engine() {
    let dir = std::env::temp_dir().join(format!("iri-sql-cluster-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("links.csv"), links(20_000)).unwrap();
    std::fs::write(
        dir.join("labels.csv"),
        "url,label\nhttp://example.org/a/7,seven\nhttps://résumé.example/2?q=2,résumé\n\
         http://host3.example.net/p~3,tilde\nurn:isbn:5,book\n",
    )
    .unwrap();
    std::fs::write(dir.join("big.csv"), links(400_000)).unwrap();
    std::fs::write(dir.join("list.txt"), list(3_000)).unwrap();

    let pids: Pids = Arc::default();
    let watched = pids.clone();
    std::thread::spawn(move || {
        std::thread::sleep(WATCHDOG);
        for pid in watched.lock().unwrap().iter() {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        eprintln!("the cluster test ran past {WATCHDOG:?}: processes killed, aborting");
        std::process::abort();
    });

    let scheduler_port = free_port();
    let scheduler_args: Vec<String> = [
        "scheduler",
        "--bind-host",
        "127.0.0.1",
        "--external-host",
        "127.0.0.1",
        "--bind-port",
        &scheduler_port.to_string(),
        // Notice a lost executor within seconds, not the default three minutes.
        "--executor-timeout-seconds",
        "5",
        "--expire-dead-executor-interval-seconds",
        "1",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut scheduler = Process::start("scheduler", &scheduler_args, &dir, &pids);
    wait_until("the scheduler listens", START, || {
        scheduler.assert_running();
        TcpStream::connect(("127.0.0.1", scheduler_port)).is_ok()
    });
    let mut executors = [
        start_executor("executor-1", scheduler_port, &dir, &pids),
        start_executor("executor-2", scheduler_port, &dir, &pids),
    ];
    for e in &mut executors {
        // `/readyz` is 200 once the executor's heartbeat reached the scheduler.
        wait_until(&format!("{} registers", e.process.name), START, || {
            e.process.assert_running();
            http_ok(e.health_port, "/readyz")
        });
    }

    let local = iri_grammar_datafusion::session(Some(4));
    register(&local, &dir).await;
    let remote =
        iri_grammar_datafusion::ballista::remote(&format!("127.0.0.1:{scheduler_port}"), Some(4))
            .await
            .unwrap();
    register(&remote, &dir).await;

    // The list's rows as the embedded engine reads them: the lines that are not
    // UTF-8 kept, with the reason; no CR left of a CRLF.
    let want = rows(&local, LIST_ROWS).await;
    assert_eq!(want.len(), 3_000);
    let not_utf8: Vec<&Vec<String>> = want.iter().filter(|r| r[2] != "NULL").collect();
    assert_eq!(not_utf8.len(), 6, "{not_utf8:?}");
    assert!(not_utf8
        .iter()
        .all(|r| r[1] == "NULL" && r[2].starts_with("the line is not UTF-8")));
    assert!(want.iter().all(|r| !r[1].ends_with('\r')));
    let got = tokio::time::timeout(QUERY, rows(&remote, LIST_ROWS))
        .await
        .unwrap_or_else(|_| panic!("{LIST_ROWS}: no answer within {QUERY:?}"));
    assert_eq!(got, want, "{LIST_ROWS}");

    for sql in [GROUP_BY_HOST, JOIN_ON_NORMALIZE, LIST_GROUP_BY_HOST] {
        let want = rows(&local, sql).await;
        assert!(want.len() > 3, "{sql}: {want:?}");
        let before: Vec<usize> = executors.iter().map(tasks_run).collect();
        let got = tokio::time::timeout(QUERY, rows(&remote, sql))
            .await
            .unwrap_or_else(|_| panic!("{sql}: no answer within {QUERY:?}"));
        assert_eq!(got, want, "{sql}");
        // Both executors ran tasks of it.
        for (e, before) in executors.iter().zip(before) {
            assert!(
                tasks_run(e) > before,
                "{} ran no task of {sql}:\n{}",
                e.process.name,
                e.process.log()
            );
        }
    }

    // The command line: `iri-sql --scheduler HOST:PORT` with a file named by its
    // (relative) path, which the client sends the executors as an absolute one.
    let out = iri_sql_csv(
        &dir,
        scheduler_port,
        &[
            "SELECT iri_host(link) AS host, count(*) AS n FROM 'links.csv' \
             WHERE iri_is_valid(link) GROUP BY host ORDER BY host",
        ],
    )
    .await;
    let want = rows(
        &local,
        "SELECT iri_host(link) AS host, count(*) AS n FROM links \
         WHERE iri_is_valid(link) GROUP BY host ORDER BY host",
    )
    .await;
    let mut csv = String::from("host,n\n");
    for r in &want {
        // CSV writes NULL as an empty field.
        let host = if r[0] == "NULL" { "" } else { &r[0] };
        csv.push_str(&format!("{host},{}\n", r[1]));
    }
    assert_eq!(String::from_utf8(out.stdout).unwrap(), csv);

    // A list named by its (relative) path on the command line is a list there too:
    // `offset` and `utf8_error`, and the lines that are not UTF-8 do not stop it.
    let sql = "SELECT \"offset\", utf8_error FROM 'list.txt' \
               WHERE utf8_error IS NOT NULL ORDER BY \"offset\"";
    let out = iri_sql_csv(&dir, scheduler_port, &["--partitions", "4", sql]).await;
    let want = rows(
        &local,
        "SELECT \"offset\", utf8_error FROM list WHERE utf8_error IS NOT NULL \
         ORDER BY \"offset\"",
    )
    .await;
    let mut csv = String::from("offset,utf8_error\n");
    for r in &want {
        csv.push_str(&format!("{},{}\n", r[0], r[1]));
    }
    assert_eq!(String::from_utf8(out.stdout).unwrap(), csv);

    // Kill one executor while a query runs on both.
    let want = rows(&local, BIG).await;
    let before: Vec<usize> = executors.iter().map(tasks_run).collect();
    let query = tokio::spawn({
        let remote = remote.clone();
        async move {
            match remote.sql(BIG).await {
                Ok(df) => df.collect().await,
                Err(e) => Err(e),
            }
        }
    });
    wait_until("both executors run tasks of the query", QUERY, || {
        executors
            .iter()
            .zip(&before)
            .all(|(e, before)| tasks_run(e) > *before)
    });
    let killed_at = Instant::now();
    executors[1].process.kill();
    let outcome = tokio::time::timeout(QUERY, query)
        .await
        .unwrap_or_else(|_| panic!("no answer within {QUERY:?} of killing an executor"))
        .unwrap();
    let after = killed_at.elapsed();
    match outcome {
        Ok(batches) => {
            // Ballista ran the lost tasks again on the executor that is left.
            let got = common::batches_to_rows(&batches);
            assert_eq!(got, want, "the answer after an executor was killed");
            eprintln!("executor killed during the query: Ballista answered, right, in {after:?}");
        }
        Err(e) => {
            let message = e.to_string();
            assert!(!message.trim().is_empty());
            eprintln!("executor killed during the query: an error after {after:?}: {message}");
        }
    }
    // The executor that is left still answers.
    executors[0].process.assert_running();
    scheduler.assert_running();
    let got = tokio::time::timeout(QUERY, rows(&remote, GROUP_BY_HOST))
        .await
        .unwrap_or_else(|_| panic!("no answer within {QUERY:?} from the executor left"));
    assert_eq!(got, rows(&local, GROUP_BY_HOST).await);
    let _ = std::fs::remove_dir_all(&dir);
}
