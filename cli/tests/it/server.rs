//! `iri serve` under attack: each test starts the server on a free loopback port, holds
//! a hostile connection open, and checks that an ordinary client is still answered
//! within a second and that the server's memory stays bounded. The limits are in
//! `cli/src/commands/serve/http.rs`; SECURITY.md lists them with these tests.

use crate::common;

use common::{http, serve, Killed};
use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

fn port_of(url: &str) -> u16 {
    url.trim_start_matches("http://127.0.0.1:")
        .trim_end_matches('/')
        .parse()
        .unwrap()
}

/// A connection that writes `request` and is then held open, unread.
fn hostile(port: u16, request: &[u8]) -> TcpStream {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.write_all(request).expect("send the hostile request");
    s
}

/// An ordinary request is answered, within a second, while the attack goes on.
fn still_answered(port: u16) {
    let t = Instant::now();
    let (status, body) = http(port, "GET", "/api/rules?grammar=uri", None);
    let took = t.elapsed();
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("URI-reference"));
    assert!(
        took < Duration::from_secs(1),
        "an ordinary request took {took:?} during the attack"
    );
}

/// The server's resident memory in MiB (Linux; `None` elsewhere).
fn resident_mib(server: &Killed) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.0.id())).ok()?;
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb / 1024)
}

fn bounded_memory(server: &Killed, mib: u64) {
    if let Some(m) = resident_mib(server) {
        assert!(m < mib, "the server holds {m} MiB (bound {mib})");
    }
}

/// Reads what the server sends on `s` until it closes (or `wait` passes): its status
/// line, if any, and whether it closed.
fn answer_of(s: &mut TcpStream, wait: Duration) -> (Option<String>, bool) {
    s.set_read_timeout(Some(wait)).unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = loop {
        match s.read(&mut buf) {
            Ok(0) => break true,
            Ok(n) => got.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break true,
            Err(_) => break false,
        }
    };
    let text = String::from_utf8_lossy(&got);
    (text.lines().next().map(str::to_string), closed)
}

#[test]
fn a_huge_content_length_is_refused_unread() {
    // Was: 200, then "memory allocation of 100000000000 bytes failed" and SIGABRT.
    let (server, url) = serve();
    let port = port_of(&url);
    for method in ["GET", "POST", "PUT"] {
        for host in [format!("127.0.0.1:{port}"), "evil.example".to_string()] {
            let mut s = hostile(
                port,
                format!(
                    "{method} / HTTP/1.1\r\nHost: {host}\r\nContent-Length: 100000000000\r\n\r\n"
                )
                .as_bytes(),
            );
            let (status, closed) = answer_of(&mut s, Duration::from_secs(5));
            assert_eq!(status.as_deref(), Some("HTTP/1.1 413 Payload Too Large"));
            assert!(closed, "the connection is closed after the 413");
        }
    }
    still_answered(port);
    bounded_memory(&server, 200);
}

#[test]
fn a_withheld_body_holds_no_one_up() {
    // Was: every other client waited until the body came (0 of 6 answered in 20 s).
    let (server, url) = serve();
    let port = port_of(&url);
    let _held = [
        hostile(
            port,
            format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 5000\r\n\r\nx")
                .as_bytes(),
        ),
        hostile(
            port,
            format!(
                "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab"
            )
            .as_bytes(),
        ),
        // A head that never ends.
        hostile(port, format!("GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n").as_bytes()),
    ];
    for _ in 0..6 {
        still_answered(port);
    }
    bounded_memory(&server, 200);
}

#[test]
fn unread_answers_hold_no_one_up() {
    // Was: two pipelined traces of 4,096 "/" (2.9 MB each), never read, stopped the
    // server answering anyone.
    let (server, url) = serve();
    let port = port_of(&url);
    let slashes = "%2F".repeat(4096);
    let one = format!(
        "GET /api/trace?grammar=iri&input={slashes} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
    );
    let mut held = Vec::new();
    // More unread large answers than the budget of unsent bytes holds (64 MiB).
    for _ in 0..30 {
        held.push(hostile(port, format!("{one}{one}").as_bytes()));
    }
    // Let the workers compute them: the budget fills.
    std::thread::sleep(Duration::from_secs(2));
    still_answered(port);
    // A large answer is now refused at once with 503, not queued behind the others.
    let t = Instant::now();
    let (status, _) = http(
        port,
        "GET",
        &format!("/api/trace?grammar=iri&input={slashes}"),
        None,
    );
    assert!(status == 503 || status == 200, "status {status}");
    // Queued behind the unread answers, it would never come (they are never read):
    // any bound tells the two apart. 10 s, not 2: a 200 computes a 2.9 MB trace,
    // which on two cores shared with a load of 8 can take more than 2 s.
    let took = t.elapsed();
    assert!(
        took < Duration::from_secs(10),
        "status {status} after {took:?}"
    );
    // 30 connections x 2 answers of 2.9 MB would be 174 MB held; the budget keeps it
    // to 64 MiB of answers.
    bounded_memory(&server, 200);
}

#[test]
fn an_endless_head_is_cut_off() {
    // Was: 268 MB without a line end grew the server by 266 MB per connection.
    let (server, url) = serve();
    let port = port_of(&url);
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_write_timeout(Some(Duration::from_secs(5))).unwrap();
    let chunk = vec![b'a'; 64 * 1024];
    let mut sent = 0usize;
    s.write_all(b"GET /").unwrap();
    // The server stops reading and closes once the head passes 64 KiB; writing then
    // fails (or blocks on a full socket buffer, which the write timeout ends).
    while sent < 64 * 1024 * 1024 {
        if s.write_all(&chunk).is_err() {
            break;
        }
        sent += chunk.len();
    }
    assert!(
        sent < 16 * 1024 * 1024,
        "the server read {sent} bytes of one request line"
    );
    let (status, closed) = answer_of(&mut s, Duration::from_secs(5));
    assert!(
        closed,
        "closed after a head beyond the limit (status {status:?})"
    );
    still_answered(port);
    bounded_memory(&server, 200);
}

#[test]
fn other_http_versions_are_answered_not_hung() {
    // Was: a request line ending HTTP/2.0 got no answer and the connection hung.
    let (_server, url) = serve();
    let port = port_of(&url);
    for version in ["HTTP/2.0", "HTTP/3.0", "HTTP/1.2", "HTTP/9"] {
        let t = Instant::now();
        let mut s = hostile(
            port,
            format!("GET / {version}\r\nHost: 127.0.0.1:{port}\r\n\r\n").as_bytes(),
        );
        let (status, closed) = answer_of(&mut s, Duration::from_secs(5));
        assert!(closed, "{version}: the connection is closed");
        assert!(
            t.elapsed() < Duration::from_secs(2),
            "{version}: {:?}",
            t.elapsed()
        );
        if let Some(status) = status {
            assert!(
                status.contains(" 505 ") || status.contains(" 400 "),
                "{version}: {status}"
            );
        }
    }
    still_answered(port);
}

#[test]
fn idle_connections_are_closed_and_hold_no_one_up() {
    // Held before and must keep holding: many idle connections; now each is also
    // closed after the idle timeout (10 s).
    let (server, url) = serve();
    let port = port_of(&url);
    let limit = open_files_limit().unwrap_or(1024);
    let n = 2000.min(limit.saturating_sub(64));
    let t = Instant::now();
    let mut idle: Vec<TcpStream> = (0..n)
        .map(|_| TcpStream::connect(("127.0.0.1", port)).unwrap())
        .collect();
    still_answered(port);
    bounded_memory(&server, 200);
    let (_, closed) = answer_of(&mut idle[0], Duration::from_secs(20));
    assert!(closed, "an idle connection is closed");
    let took = t.elapsed();
    assert!(
        took > Duration::from_secs(9) && took < Duration::from_secs(16),
        "closed {took:?} after it was opened"
    );
}

/// The soft limit of open files of this process (Linux).
fn open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}

#[test]
fn inputs_are_capped_at_4096_characters_and_the_longest_fits_the_head() {
    let (_server, url) = serve();
    let port = port_of(&url);
    // The longest input there is: 4,096 characters of four UTF-8 bytes, form-encoded
    // (48 KiB), within the 64 KiB head.
    let longest = "%F0%90%80%80".repeat(4096);
    for api in ["tree", "trace"] {
        let (status, body) = http(
            port,
            "GET",
            &format!("/api/{api}?grammar=leiri&rule=ucschar&input={longest}"),
            None,
        );
        assert_eq!(status, 200, "{api}: {body}");
        let (status, body) = http(
            port,
            "GET",
            &format!("/api/{api}?grammar=iri&input={}", "a".repeat(4097)),
            None,
        );
        assert_eq!(status, 413, "{api}");
        assert!(body.contains("more than 4096 characters"), "{body}");
    }
    still_answered(port);
}

/// The status of a GET of `path` sent with `headers` (`Name: value` lines), within
/// `wait`; `None` if no status came.
fn status_of(port: u16, path: &str, headers: &str, wait: Duration) -> Option<u16> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_write_timeout(Some(wait)).ok()?;
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{headers}\r\n"
    )
    .ok()?;
    let (status, _) = answer_of(&mut s, wait);
    status?.split(' ').nth(1)?.parse().ok()
}

#[test]
fn heavy_requests_do_not_starve_trees() {
    // Was: 16 clients of /api/parses at the input cap filled the one queue (2
    // workers, 8 waiting), and ordinary trees got 503 (174 of 176).
    let (_server, url) = serve();
    let port = port_of(&url);
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let heavy_path = format!(
        "/api/parses?grammar=iri&rule=IRI-reference&input={}",
        "a".repeat(1024)
    );
    let clients: Vec<_> = (0..16)
        .map(|_| {
            let stop = stop.clone();
            let path = heavy_path.clone();
            std::thread::spawn(move || {
                let mut answered = 0;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    if status_of(port, &path, "", Duration::from_secs(60)) == Some(200) {
                        answered += 1;
                    }
                }
                answered
            })
        })
        .collect();
    // Let the heavy requests fill what they can.
    std::thread::sleep(Duration::from_millis(500));
    let tree = format!("/api/tree?grammar=iri&input=http://h/{}", "a/".repeat(100));
    let mut ok = 0;
    let mut slowest = Duration::ZERO;
    for _ in 0..40 {
        let t = Instant::now();
        let status = status_of(port, &tree, "", Duration::from_secs(10));
        slowest = slowest.max(t.elapsed());
        ok += usize::from(status == Some(200));
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let heavy: usize = clients.into_iter().map(|c| c.join().unwrap()).sum();
    assert_eq!(ok, 40, "trees answered 200 during the flood");
    // Generous: a tree waits behind trees only, never behind a comparison.
    assert!(slowest < Duration::from_secs(2), "a tree took {slowest:?}");
    assert!(
        heavy > 0,
        "the heavy requests are served too, in their lane"
    );
}

#[test]
fn longer_inputs_are_not_compared() {
    // The comparison of parses is quadratic in the input: it takes inputs of up to
    // 1,024 characters (was 4,096), refused at once beyond.
    let (_server, url) = serve();
    let port = port_of(&url);
    for (n, want) in [(1024, 200), (1025, 413), (4096, 413)] {
        let (status, body) = http(
            port,
            "GET",
            &format!("/api/parses?grammar=iri&rule=ipath&input={}", "a".repeat(n)),
            None,
        );
        assert_eq!(status, want, "{n}: {body}");
        if want == 413 {
            assert!(
                body.contains("more than 1024 characters are not compared"),
                "{body}"
            );
        }
    }
    still_answered(port);
}

#[test]
fn requests_sent_by_another_sites_page_are_refused() {
    // Was: any page the student visited could have the browser send these (and
    // keep the workers busy); the answers it cannot read, the work it can cause.
    let (_server, url) = serve();
    let port = port_of(&url);
    let path = "/api/tree?grammar=iri&input=a";
    let wait = Duration::from_secs(5);
    for refused in [
        "Origin: http://evil.example\r\n".to_string(),
        "Origin: null\r\n".to_string(),
        format!("Origin: http://127.0.0.1:{}\r\n", port.wrapping_add(1)),
        "Sec-Fetch-Site: cross-site\r\n".to_string(),
        "Sec-Fetch-Site: same-site\r\n".to_string(),
        format!("Origin: http://127.0.0.1:{port}\r\nSec-Fetch-Site: cross-site\r\n"),
    ] {
        assert_eq!(
            status_of(port, path, &refused, wait),
            Some(403),
            "{refused}"
        );
        assert_eq!(status_of(port, "/", &refused, wait), Some(403), "{refused}");
    }
    for allowed in [
        String::new(),
        format!("Origin: http://127.0.0.1:{port}\r\n"),
        format!("Origin: http://localhost:{port}\r\n"),
        "Sec-Fetch-Site: same-origin\r\n".to_string(),
        "Sec-Fetch-Site: none\r\n".to_string(),
    ] {
        assert_eq!(
            status_of(port, path, &allowed, wait),
            Some(200),
            "{allowed}"
        );
    }
    let (status, body) = {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        write!(
            s,
            "GET / HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://evil.example\r\n\
             Connection: close\r\n\r\n"
        )
        .unwrap();
        let mut text = String::new();
        s.read_to_string(&mut text).unwrap();
        (text.lines().next().unwrap_or("").to_string(), text)
    };
    assert!(status.contains(" 403 "), "{status}");
    assert!(body.contains("another site's page"), "{body}");
}

/// `iri serve --port 0` under `ulimit` `limits` (a shell's), with the address it
/// printed and the first line of its standard error.
fn serve_limited(limits: &str) -> (Killed, u16, String) {
    use std::io::BufRead;
    use std::process::{Command, Stdio};
    let mut child = Command::new("sh")
        .args([
            "-c",
            &format!("ulimit {limits} && exec \"$0\" serve --port 0"),
            env!("CARGO_BIN_EXE_iri"),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start iri serve");
    let stdout = child.stdout.take().unwrap();
    let stderr = child.stderr.take().unwrap();
    let child = Killed(child);
    let mut line = String::new();
    std::io::BufReader::new(stdout)
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("iri serve printed its address: {line:?}"))
        .to_string();
    // Read aside, so that a server that says nothing does not hang the test.
    let (tell, told) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut said = String::new();
        let _ = std::io::BufReader::new(stderr).read_line(&mut said);
        let _ = tell.send(said);
    });
    let said = told
        .recv_timeout(Duration::from_secs(10))
        .unwrap_or_default();
    (child, port_of(&url), said)
}

/// The number of connections `iri serve` says it takes at once.
fn slots_said(said: &str) -> Option<usize> {
    said.split("up to ")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

#[test]
fn reconnecting_idle_sockets_do_not_lock_out_a_request() {
    // Was: connection slots went first come, first served, and at the descriptor
    // limit the server stopped accepting: 8,000 reconnecting idle sockets made 182
    // of 217 ordinary requests fail. Here 160 descriptors: 96 connection slots.
    let (_server, port, said) = serve_limited("-n 160");
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let opened = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let flood = {
        let (stop, opened) = (stop.clone(), opened.clone());
        std::thread::spawn(move || {
            // Three times the slots, held idle; then the oldest is dropped and a new
            // one opened, without end.
            let mut idle = std::collections::VecDeque::new();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if let Ok(s) = TcpStream::connect(("127.0.0.1", port)) {
                    idle.push_back(s);
                    opened.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                if idle.len() > 300 {
                    idle.pop_front();
                }
            }
        })
    };
    let t = Instant::now();
    while opened.load(std::sync::atomic::Ordering::Relaxed) < 300 {
        assert!(t.elapsed() < Duration::from_secs(30), "300 sockets opened");
        std::thread::sleep(Duration::from_millis(50));
    }
    let (mut ok, mut failed) = (0, 0);
    // Three failures are enough to tell: each waits its 5 s.
    while ok + failed < 20 && failed < 3 {
        match status_of(port, "/api/rules?grammar=uri", "", Duration::from_secs(5)) {
            Some(200) => ok += 1,
            _ => failed += 1,
        }
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    flood.join().unwrap();
    let opened = opened.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(
        ok, 20,
        "ordinary requests answered among {opened} idle sockets"
    );
    assert_eq!(slots_said(&said), Some(96), "{said}");
}

#[test]
fn the_soft_limit_of_open_files_is_raised_for_the_connections() {
    // Was: never raised, so at a soft limit of 1,024 the 4,096 connections of
    // SECURITY.md were never reached (and accepting failed past it).
    let Some(hard) = hard_open_files_limit() else {
        return;
    };
    let (_server, port, said) = serve_limited("-Sn 256");
    let want = hard.min(4096 + 64) - 64;
    assert_eq!(slots_said(&said), Some(want), "{said}");
    still_answered(port);
}

/// The hard limit of open files of this process (Linux).
fn hard_open_files_limit() -> Option<usize> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(4)?.parse().ok()
}
