//! What the command line's tests share: `iri` run with arguments or with standard
//! input and its output read, a child process that dies with the test, `iri serve`
//! started on a free port, and a minimal HTTP/1.1 client for loopback servers
//! (`iri serve`, chromedriver).

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

/// Runs `iri` with `args` (standard input empty).
pub fn iri(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .output()
        .expect("run iri")
}

/// Runs `iri` with `args`, `stdin` on its standard input.
pub fn iri_stdin(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run iri");
    let mut input = child.stdin.take().unwrap();
    let stdin = stdin.to_vec();
    // Written from a thread: the child's output may fill its pipe before it has
    // read all of its input. It may stop reading early (-q): a broken pipe is fine.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// Runs `iri` with `args`, its standard input a regular file holding `stdin`
/// (which `iri` reads in blocks of its own choosing, and may read on several
/// threads), written under `name` in the temporary folder and removed after.
pub fn iri_file_stdin(args: &[&str], stdin: &[u8], name: &str) -> Output {
    let path = std::env::temp_dir().join(format!("iri-stdin-{name}-{}", std::process::id()));
    std::fs::write(&path, stdin).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(args)
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .expect("run iri");
    let _ = std::fs::remove_file(&path);
    out
}

/// The standard output, which is UTF-8.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// The standard error, invalid UTF-8 shown as U+FFFD.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A child process killed when the test ends, however it ends.
pub struct Killed(pub Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `iri serve --port 0` and returns it with the address it printed.
pub fn serve() -> (Killed, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_iri"))
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start iri serve");
    let stdout = child.stdout.take().unwrap();
    let child = Killed(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("iri serve printed its address: {line:?}"))
        .to_string();
    (child, url)
}

/// One HTTP/1.1 exchange with a loopback server; the status and the body.
/// `body` is sent as JSON.
pub fn http(port: u16, method: &str, path: &str, body: Option<&Value>) -> (u16, String) {
    http_as(&format!("127.0.0.1:{port}"), port, method, path, body)
}

/// [`http`] with the `Host` header given.
pub fn http_as(
    host: &str,
    port: u16,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    let payload = body.map(|b| b.to_string()).unwrap_or_default();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n{payload}",
        payload.len()
    )
    .unwrap();
    // Read the head, then the body by its Content-Length (chromedriver may keep the
    // connection open whatever the request says), by chunks, or to the end.
    let mut r = BufReader::new(s);
    let mut head = String::new();
    loop {
        let mut line = String::new();
        r.read_line(&mut line).expect("read response head");
        if line == "\r\n" || line.is_empty() {
            break;
        }
        head.push_str(&line);
    }
    let status: u16 = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .expect("status");
    let lower = head.to_ascii_lowercase();
    let length = lower
        .lines()
        .find_map(|l| l.strip_prefix("content-length:"))
        .and_then(|v| v.trim().parse::<usize>().ok());
    let mut body = Vec::new();
    if let Some(n) = length {
        body.resize(n, 0);
        r.read_exact(&mut body).expect("read response body");
    } else if lower.contains("transfer-encoding: chunked") {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.split(';').next().unwrap().trim(), 16).unwrap();
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        r.read_to_end(&mut body).expect("read response body");
    }
    (status, String::from_utf8(body).expect("UTF-8 body"))
}
