#!/usr/bin/env python3
"""The red-team run of the front ends: the attacks of SECURITY.md's "Front ends"
section, each bounded in time and memory, against loopback only, with a table of
what happened.

    cargo build --release -p iri-cli
    python3 redteam/run.py [--iri target/release/iri] [--quick]

Every attack runs against a process this script starts and ends; the server listens
on 127.0.0.1 on a free port. Nothing here reaches any other address. Each row says
what was done, what was measured, and whether the front end held (`held`) or not
(`FAILED`). The exit status is 1 when a row failed. Raw results of past runs are in
redteam/record/.
"""

import argparse
import os
import re
import resource
import select
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROWS = []


def row(item, attack, measured, held):
    ROWS.append((item, attack, measured, "held" if held else "FAILED"))
    print(f"  {item}: {'held' if held else 'FAILED'}: {measured}", file=sys.stderr, flush=True)


def run(cmd, stdin=b"", timeout=120, limit_as=None, repeat=1):
    """Runs cmd with stdin (`repeat` times over, written as the command reads it, so
    that an input of gigabytes is never held here; the writing stops when the
    command stops); returns (status, stdout, stderr, seconds, peak RSS MiB). A
    status of None means it was killed at the timeout."""
    def preexec():
        if limit_as:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))

    t = time.monotonic()
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=preexec)
    out, err = [], []
    readers = [threading.Thread(target=lambda s=s, b=b: b.append(s.read()))
               for s, b in ((p.stdout, out), (p.stderr, err))]
    for r in readers:
        r.start()

    def feed():
        try:
            for _ in range(repeat):
                p.stdin.write(stdin)
            p.stdin.close()
        except OSError:
            pass

    feeder = threading.Thread(target=feed)
    feeder.start()
    killed = False
    deadline = t + timeout
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            killed = True
            pid, status, usage = os.wait4(p.pid, 0)
            break
        time.sleep(0.02)
    for r in readers:
        r.join()
    feeder.join()
    code = None if killed else (os.waitstatus_to_exitcode(status))
    return code, out[0], err[0], time.monotonic() - t, usage.ru_maxrss // 1024


def hidden(text):
    """The characters a terminal must not be given raw, found in text."""
    return re.findall("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]",
                      text.decode("utf-8", "replace"))


# ---- the server -------------------------------------------------------------

def status(port, path, headers="", timeout=10.0):
    """The status of GET path on the server at port (with extra header lines, each
    ending in CRLF), the answer read to its end; None when none came in time."""
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        s.settimeout(timeout)
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  f"Connection: close\r\n{headers}\r\n".encode())
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
        s.close()
        return int(data.split(b" ", 2)[1])
    except (OSError, ValueError, IndexError):
        return None


class Server:
    def __init__(self, iri):
        self.p = subprocess.Popen([iri, "serve", "--port", "0"], stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        line = self.p.stdout.readline().decode()
        self.port = int(re.search(r"127\.0\.0\.1:(\d+)", line).group(1))

    def alive(self):
        return self.p.poll() is None

    def rss(self):
        try:
            with open(f"/proc/{self.p.pid}/status") as f:
                return int(re.search(r"VmRSS:\s+(\d+)", f.read()).group(1)) // 1024
        except OSError:
            return None

    def stop(self):
        self.p.kill()
        self.p.wait()

    def connect(self):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=5)
        return s

    def ordinary(self, timeout=1.0):
        """Seconds an ordinary request took, or None if it got no 200 in time."""
        t = time.monotonic()
        if status(self.port, "/api/rules?grammar=uri", timeout=timeout) == 200:
            took = time.monotonic() - t
            if took <= timeout:
                return took
        return None


def answered(server, n=6, timeout=1.0):
    """How many of n ordinary requests were answered within timeout each."""
    return sum(server.ordinary(timeout) is not None for _ in range(n))


def server_attacks(iri):
    # 1. A Content-Length of 100 GB on a request without a body.
    srv = Server(iri)
    s = srv.connect()
    s.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n"
              f"Content-Length: 100000000000\r\n\r\n".encode())
    try:
        s.settimeout(3)
        status = s.recv(200).split(b"\r\n")[0].decode(errors="replace")
    except OSError as e:
        status = f"no answer ({e.__class__.__name__})"
    time.sleep(0.5)
    ok = answered(srv)
    row("1", "GET with Content-Length: 100000000000, no body",
        f"answer {status!r}; server {'alive' if srv.alive() else 'DEAD'}; "
        f"{ok}/6 ordinary requests answered in 1 s; RSS {srv.rss()} MiB",
        srv.alive() and ok == 6)
    srv.stop()

    # 2. A withheld body, one byte a second.
    srv = Server(iri)
    held = srv.connect()
    held.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{srv.port}\r\n"
                 f"Content-Length: 5000\r\n\r\n".encode())
    ok = 0
    for _ in range(6):
        try:
            held.sendall(b"x")
        except OSError:
            pass
        ok += srv.ordinary(1.0) is not None
        time.sleep(0.2)
    row("2", "Content-Length: 5000, body withheld (a byte at a time), connection held",
        f"{ok}/6 ordinary requests answered in 1 s", ok == 6)
    srv.stop()

    # 3. Pipelined traces of 4,096 "/" whose answers are never read.
    srv = Server(iri)
    one = (f"GET /api/trace?grammar=iri&input={'%2F' * 4096} HTTP/1.1\r\n"
           f"Host: 127.0.0.1:{srv.port}\r\n\r\n").encode()
    conns = []
    for _ in range(30):
        c = srv.connect()
        c.sendall(one + one)
        conns.append(c)
    time.sleep(2)
    ok = answered(srv)
    row("3", "30 connections x 2 pipelined traces of 4,096 '/' (2.9 MB each), never read",
        f"{ok}/6 ordinary requests answered in 1 s; RSS {srv.rss()} MiB",
        ok == 6 and (srv.rss() or 0) < 300)
    for c in conns:
        c.close()
    srv.stop()

    # 4. A request head without a line end.
    srv = Server(iri)
    before = srv.rss() or 0
    c = srv.connect()
    c.settimeout(5)
    sent = 0
    chunk = b"a" * 65536
    try:
        c.sendall(b"GET /")
        while sent < 256 * 1024 * 1024:
            c.sendall(chunk)
            sent += len(chunk)
    except OSError:
        pass
    grown = (srv.rss() or 0) - before
    ok = answered(srv)
    row("4", "a request line of up to 256 MiB without a line end",
        f"server took {sent // 1024} KiB before closing; RSS +{grown} MiB; "
        f"{ok}/6 ordinary requests answered in 1 s",
        sent < 16 * 1024 * 1024 and grown < 64 and ok == 6)
    c.close()
    srv.stop()

    # 5. Another HTTP version.
    srv = Server(iri)
    c = srv.connect()
    c.settimeout(3)
    t = time.monotonic()
    c.sendall(f"GET / HTTP/2.0\r\nHost: 127.0.0.1:{srv.port}\r\n\r\n".encode())
    try:
        data = c.recv(200)
        what = data.split(b"\r\n")[0].decode(errors="replace") or "closed"
    except socket.timeout:
        what = "no answer in 3 s (hung)"
    except OSError as e:
        what = f"closed ({e.__class__.__name__})"
    took = time.monotonic() - t
    row("5", "GET / HTTP/2.0", f"{what!r} in {took:.2f} s", "hung" not in what)
    c.close()
    srv.stop()


# ---- the command line ---------------------------------------------------------

def cli_attacks(iri, quick):
    # 6. A caret beyond a format width.
    code, out, err, took, rss = run([iri, "check", "--caret"], ("a" * 65536 + " \n").encode())
    row("6", "check --caret on 65,536 'a' and a space",
        f"exit {code}; {err.decode(errors='replace').strip()[:60]!r}", code == 1)

    # 7. Control and bidi characters in text output.
    bad = []
    cases = [
        (["--grammar", "leiri", "resolve", "http://b/"], b"http://evil.example/\rhttp://bank.example/x\n"),
        (["--grammar", "leiri", "parse"], "http://a/\x1bc\x08\r\u202ex\n".encode()),
        (["--grammar", "leiri", "relativize", "http://a/"], "http://a/\x1bc\x08\r\n".encode()),
        (["parse"], "http://a/\u202ex\n".encode()),
    ]
    for args, stdin in cases:
        code, out, err, took, rss = run([iri] + args, stdin)
        found = hidden(out) + hidden(err)
        if found:
            bad.append(f"{' '.join(args)}: {len(found)}")
    row("7", "CR, BS, ESC c, U+202E through resolve, parse, relativize (text output)",
        "no raw control or bidi character written" if not bad else "raw: " + "; ".join(bad),
        not bad)

    # 8. generate -n 100,000,000: first line, and ending when the reader does.
    t = time.monotonic()
    p = subprocess.Popen([iri, "generate", "--rule", "IRI", "-n", "100000000"],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    # The first line, waited for at most 30 s (a generator that holds everything
    # writes nothing until it is done).
    first = b""
    if select.select([p.stdout], [], [], 30)[0]:
        first = p.stdout.readline()
    first_at = time.monotonic() - t
    p.stdout.close()
    try:
        p.wait(timeout=30)
        ended = f"ended {time.monotonic() - t:.2f} s after start, exit {p.returncode}"
        ok = True
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        ended = "still running 30 s after its reader closed (killed)"
        ok = False
    row("8", "generate --rule IRI -n 100000000 | head -1",
        (f"first line after {first_at:.2f} s" if first else "no line in 30 s") + f"; {ended}",
        ok and bool(first))
    code, out, err, took, rss = run([iri, "generate", "--rule", "IRI", "-n", "200000"],
                                    timeout=120)
    row("8", "generate --rule IRI -n 200000 > file (memory)",
        f"exit {code}; {took:.1f} s; peak RSS {rss} MiB", code == 0 and rss < 64)

    # 9. User grammars.
    with tempfile.TemporaryDirectory() as d:
        def grammar(name, text):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            return path

        nested = grammar("nested.abnf", "r = " + "(" * 8000 + '"a"' + ")" * 8000 + "\n")
        code, out, err, took, rss = run([iri, "--abnf", nested, "check", "--rule", "r", "a"], timeout=60)
        row("9", "--abnf with 8,000 nested groups, check",
            f"exit {code}; {err.decode(errors='replace').strip()[:90]!r}", code in (0, 1, 2))
        right = grammar("right.abnf", 'r = "a" r / "b"\n')
        code, out, err, took, rss = run([iri, "--abnf", right, "check", "--rule", "r"],
                                        ("a" * 12000 + "b\n").encode(), timeout=60)
        row("9", "--abnf r = \"a\" r / \"b\", check on 12,000 'a' and 'b'",
            f"exit {code}; {(out + err).decode(errors='replace').strip()[:90]!r}", code in (0, 1, 2))
        code, out, err, took, rss = run([iri, "--abnf", right, "tree", "--rule", "r"],
                                        ("a" * 12000 + "b\n").encode(), timeout=60)
        row("9", "the same, tree",
            f"exit {code}; {(out + err).decode(errors='replace').strip()[:90]!r}", code in (0, 1, 2))
        code, out, err, took, rss = run([iri, "--abnf", right, "check", "--rule", "r"],
                                        ("a" * 100000 + "b\n").encode(), timeout=60)
        row("9", "the same, check on 100,000 'a' (beyond the oracle's cap)",
            f"exit {code}; {took:.1f} s; {(out + err).decode(errors='replace').strip()[:90]!r}",
            code in (0, 1, 2) and took < 30)
        huge = grammar("huge.abnf", 'r = 1000000000*1000000000"a"\n')
        code, out, err, took, rss = run([iri, "--abnf", huge, "grammar", "--rust"], timeout=60,
                                        limit_as=4 << 30)
        row("9", "--abnf r = 1000000000*1000000000\"a\", grammar --rust",
            f"exit {code}; {took:.1f} s; peak RSS {rss} MiB", code in (0, 1, 2) and rss < 512)
        left = grammar("left.abnf", 'e = "(" e ")" / e "+" e / "x"\n'
                       'r = "a" r / s\ns = s "x" / "y"\n')
        for rule, text, what in [("e", "(" * 2000 + "x" + ")" * 2000, "2,000 parentheses"),
                                 ("r", "a" * 2000 + "y" + "x" * 2000, "2,000 'a', 'y', 2,000 'x'")]:
            code, out, err, took, rss = run([iri, "--abnf", left, "check", "--rule", rule],
                                            (text + "\n").encode(), timeout=60)
            row("9", f"--abnf left recursion inside recursion, rule {rule}, check on {what}",
                f"exit {code}; {took:.2f} s; {(out + err).decode(errors='replace').strip()[:40]!r}",
                code == 0 and took < 10)
        rules = 8000 if quick else 32000
        many = grammar("many.abnf", "".join(f'r{k} = "a" r{k + 1}\n' for k in range(rules)) +
                       f'r{rules} = "b"\n')
        code, out, err, took, rss = run([iri, "--abnf", many, "grammar"], timeout=120)
        row("9", f"--abnf of {rules:,} rules, grammar (load and list)",
            f"exit {code}; {took:.2f} s", code in (0, 1, 2) and took < 5)

    # 10. --jobs 65535.
    lines = 200_000 if quick else 1_000_000
    data = b"".join(b"http://a b/\n" if k % 7 == 0 else b"http://example.org/a/b?c#d\n"
                    for k in range(lines))
    code1, out1, _, took1, _ = run([iri, "check", "--summary"], data)
    code, out, err, took, rss = run([iri, "check", "--summary", "--jobs", "65535"], data, timeout=300)
    row("10", f"check --summary --jobs 65535 on {lines:,} lines",
        f"exit {code}; {took:.2f} s (default: {took1:.2f} s); same output: {out == out1}",
        code == code1 and out == out1 and took < 3 * took1 + 1)
    code, out, err, took, rss = run([iri, "check", "--summary", "--jobs", "65535"], data,
                                    timeout=300, limit_as=2 << 30)
    row("10", "the same under a 2 GiB address-space limit",
        f"exit {code}; {err.decode(errors='replace').strip()[:80]!r}", code == code1)


def hardening_cli(iri, quick):
    # 52.6: a line without end (/dev/zero) under a 4 GiB address-space limit.
    code, out, err, took, rss = run([iri, "check"], b"\0" * (1 << 20), timeout=120,
                                    limit_as=4 << 30, repeat=1024 if quick else 4096)
    row("52.6", f"check < {'1 GiB' if quick else '4 GiB'} of NUL bytes, no line end (as /dev/zero)",
        f"exit {code}; {took:.2f} s; peak RSS {rss} MiB; "
        f"{err.decode(errors='replace').strip()[:100]!r}",
        code == 74 and rss < 512 and b"longer than" in err)
    code, out, err, took, rss = run([iri, "tree", "--max-line-bytes", "1000000"],
                                    b"http://a/\n" + b"a" * (1 << 20), timeout=60, repeat=64)
    row("52.6", "tree --max-line-bytes 1000000 on a line and 64 MiB of 'a'",
        f"exit {code}; {took:.2f} s; first result written: {out.startswith(b'IRI-reference')}; "
        f"{err.decode(errors='replace').strip()[:80]!r}",
        code == 74 and out.startswith(b"IRI-reference"))

    # 52.10: folder names printed by book and suite.
    with tempfile.TemporaryDirectory() as d:
        folder = os.path.join(d, "b\x1b]0;PWN\x07\x1bc\u202e")
        bad = []
        for args in (["suite", "--rule", "port", "--out", folder],
                     ["book", "--examples", "1", "--out", folder]):
            code, out, err, took, rss = run([iri] + args, timeout=300)
            found = hidden(out) + hidden(err)
            if code != 0 or found:
                bad.append(f"{args[0]}: exit {code}, {len(found)} raw")
        row("52.10", "book --out and suite --out a folder named b ESC]0;PWN BEL ESC c U+202E",
            "no raw control or bidi character written" if not bad else "; ".join(bad), not bad)


def hardening_oracle(iri, quick):
    # 52.1, 52.2, 52.8: the oracle on user grammars. Each answers (exit 0 or 1) or
    # says that it spent its work budget (exit 2, naming the rule and the budget),
    # in bounded time and memory.
    with tempfile.TemporaryDirectory() as d:
        def grammar(name, text):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            return path

        def shown(code, out, err, took, rss):
            said = (err or out).decode(errors="replace").strip().splitlines()
            return f"exit {code}; {took:.2f} s; peak RSS {rss} MiB; {said[-1][:100] if said else ''!r}"

        deep = grammar("deep.abnf", 'r = 1*(1*(1*(1*(1*(1*(1*(1*"a")))))))\n')
        stars = grammar("stars.abnf", 'r = *( *( *( *"a" ) ) )\n')
        for path, n, what in [(deep, 30, '1*(...8 deep...1*"a"), check on 30 \'a\''),
                              (deep, 4096, '1*(...8 deep...1*"a"), check on 4,096 \'a\''),
                              (stars, 200, '*( *( *( *"a" ) ) ), check on 200 \'a\''),
                              (stars, 4096, '*( *( *( *"a" ) ) ), check on 4,096 \'a\'')]:
            r = run([iri, "--abnf", path, "check", "--rule", "r"], ("a" * n + "\n").encode(),
                    timeout=60, limit_as=4 << 30)
            row("52.1", f"--abnf {what}", shown(*r), r[0] in (0, 1, 2) and r[3] < 30)
        r = run([iri, "--abnf", deep, "tree", "--rule", "r"], ("a" * 30 + "\n").encode(),
                timeout=60, limit_as=4 << 30)
        row("52.1", "the 8-deep groups, tree on 30 'a'", shown(*r), r[0] in (0, 1, 2) and r[3] < 30)
        r = run([iri, "diff-grammars", deep, deep, "--rule-a", "r", "--rule-b", "r"],
                timeout=60, limit_as=4 << 30)
        row("52.1", "diff-grammars of the 8-deep groups with themselves", shown(*r),
            r[0] in (0, 1, 2) and r[3] < 60)

        ambiguous = grammar("ambiguous.abnf", 'e = e e / "a"\n')
        for n in ([800, 4096] if quick else [800, 1600, 4096]):
            r = run([iri, "--abnf", ambiguous, "check", "--rule", "e"], ("a" * n + "\n").encode(),
                    timeout=60, limit_as=4 << 30)
            row("52.2", f"--abnf e = e e / \"a\", check on {n:,} 'a'", shown(*r),
                r[0] in (0, 1, 2) and r[3] < 30)
        r = run([iri, "--abnf", ambiguous, "tree", "--rule", "e"], ("a" * 4096 + "\n").encode(),
                timeout=60, limit_as=4 << 30)
        row("52.2", "the same, tree on 4,096 'a'", shown(*r), r[0] in (0, 1, 2) and r[3] < 30)
        r = run([iri, "--abnf", ambiguous, "--oracle-steps", "18446744073709551615", "check",
                 "--rule", "e"], ("a" * 200 + "\n").encode(), timeout=60, limit_as=4 << 30)
        row("52.2", "the same, --oracle-steps 2^64-1, check on 200 'a'", shown(*r),
            r[0] == 0 and r[3] < 30)

        rules = 20000 if quick else 100000
        cycle = grammar("cycle.abnf", "".join(f'r{k} = r{(k + 1) % rules} "a" / "a"\n'
                                              for k in range(rules)))
        r = run([iri, "--abnf", cycle, "check", "--rule", "r0"], ("a" * 4096 + "\n").encode(),
                timeout=60, limit_as=4 << 30)
        row("52.8", f"--abnf {rules:,} mutually left-recursive rules, check on 4,096 'a'",
            shown(*r), r[0] in (0, 1, 2) and r[3] < 30 and r[4] < 1024)


def hardening_trees(iri, quick):
    # 52.8: a 100 MB line of "/" is 100 million nodes: the tree is refused as its
    # bound (--max-nodes, 10,000,000 by default) is passed, not built whole first.
    line = b"/" * 100_000_000 + b"\n"
    code, out, err, took, rss = run([iri, "tree", "--format", "json", "--max-line-bytes", "200000000"], line, timeout=60,
                                    limit_as=1 << 30)
    msg = err.decode(errors="replace").strip()
    row("52.8", "tree --format json on a 100 MB line of '/' under a 1 GiB address-space limit",
        f"exit {code}; {took:.1f} s; peak RSS {rss} MiB; {msg[:100]!r}",
        code == 2 and "--max-nodes" in msg and took < 60)

    # The Python package, with the interpreter running this script.
    def python(code_text, timeout=60, limit_as=None):
        return run([sys.executable, "-c", code_text], timeout=timeout, limit_as=limit_as)

    code, out, err, took, rss = python("import iri_grammar")
    if code != 0:
        for item, attack in [
            ("52.8", "Python parse_tree('/' * 10**8, max_nodes=10)"),
            ("52.3", "Python check, IriRef, AbsoluteIri, parse_tree, join on lone surrogates"),
        ]:
            row(item, attack, f"skipped: iri_grammar not importable by {sys.executable}", True)
        return
    code, out, err, took, rss = python(
        "import iri_grammar as g\n"
        "try:\n"
        "    g.parse_tree('/' * 10**8, max_nodes=10)\n"
        "except ValueError as e:\n"
        "    print(e)\n", limit_as=1 << 30)
    said = out.decode(errors="replace").strip()
    row("52.8", "Python parse_tree('/' * 10**8, max_nodes=10) under a 1 GiB limit",
        f"exit {code}; {took:.1f} s; peak RSS {rss} MiB; {said[:70]!r}",
        code == 0 and "max_nodes=10" in said)

    n = 100_000 if quick else 300_000
    code, out, err, took, rss = python(
        "import time, iri_grammar as g\n"
        f"s = '\\ud800' * {n}\n"
        "base = g.IriRef('http://a/')\n"
        "for name, f in [('check', g.check), ('IriRef', g.IriRef), ('AbsoluteIri', g.AbsoluteIri),\n"
        "                ('parse_tree', g.parse_tree), ('join', base.join)]:\n"
        "    t = time.process_time()\n"
        "    try:\n"
        "        f(s)\n"
        "    except ValueError:\n"
        "        pass\n"
        "    print(f'{name} {time.process_time() - t:.3f} s')\n", timeout=60)
    said = "; ".join(out.decode(errors="replace").strip().splitlines())
    row("52.3", f"Python check, IriRef, AbsoluteIri, parse_tree, join on {n:,} lone surrogates",
        f"exit {code}; {said}", code == 0 and took < 30)


def hardening_generator(iri, quick):
    """52.9: generation and code generation from a user grammar, bounded by counted
    steps; an empty language said, not drawn."""
    with tempfile.TemporaryDirectory() as d:
        def grammar(name, text):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            return path

        def said(err):
            return err.decode(errors="replace").strip().splitlines()[-1][:100] if err else ""

        for n in (500, 2000):
            chain = grammar(f"options{n}.abnf", "".join(f'r{k} = ["a"] r{k + 1}\n'
                                                        for k in range(n)) + f'r{n} = "b"\n')
            code, out, err, took, rss = run([iri, "--abnf", chain, "grammar", "--rust"],
                                            timeout=60)
            row("52.9", f"--abnf chain of {n:,} rules rK = [\"a\"] rK+1, grammar --rust",
                f"exit {code}; {took:.1f} s; {said(err)!r}", code in (0, 2) and took < 30)
        for n in (121, 131):
            double = grammar(f"double{n}.abnf", "".join(f"r{k} = r{k + 1} r{k + 1}\n"
                                                        for k in range(n)) + f'r{n} = "a"\n')
            code, out, err, took, rss = run([iri, "--abnf", double, "grammar", "--rust"],
                                            timeout=60)
            row("52.9", f"--abnf doubling chain of {n} rules rK = rK+1 rK+1, grammar --rust",
                f"exit {code}; {took:.1f} s; {said(err)!r}", code in (0, 2) and took < 30)
        wide = grammar("wide.abnf", "r = " + " / ".join(f'"a{k}"' for k in range(200000)) + "\n")
        code, out, err, took, rss = run([iri, "--abnf", wide, "generate", "--rule", "r",
                                         "-n", "100000"], timeout=60)
        lines = out.count(b"\n")
        row("52.9", "--abnf 200,000 alternatives, generate -n 100000",
            f"exit {code}; {took:.1f} s; {lines:,} lines", code == 0 and lines == 100000 and took < 30)
        nested = grammar("nested.abnf", 'r = 64( 64( 64( 64( 64( 64( *"a" ) ) ) ) ) )\n')
        code, out, err, took, rss = run([iri, "--abnf", nested, "generate", "--rule", "r"],
                                        timeout=60)
        row("52.9", "--abnf r = 64( 64( 64( 64( 64( 64( *\"a\" ) ) ) ) ) ), generate",
            f"exit {code}; {took:.1f} s; {said(err)!r}", code == 2 and took < 30)
        for name, text in [("prose", "r = <anything>\n"), ("surrogates", "r = %xD800-DFFF\n"),
                           ("cycle", 'r = "a" r\n')]:
            path = grammar(f"{name}.abnf", text)
            code, out, err, took, rss = run([iri, "--abnf", path, "generate", "--rule", "r",
                                             "-n", "3"], timeout=60)
            row("52.9", f"--abnf empty language ({name}: {text.strip()}), generate",
                f"exit {code}; {said(err)!r}",
                code == 2 and out == b"" and b"is empty" in err)


# ---- iri conform: what a program under test answers, and what it leaves ---------

def hardening_conform(iri, quick):
    """Issue 52, items 4 and 5: a program's answers are kept within a bound, the budget
    has a maximum, and nothing the program starts outlives the run or iri."""
    with tempfile.TemporaryDirectory() as d:
        def program(name, text):
            path = os.path.join(d, name)
            with open(path, "w") as f:
                f.write(text)
            return path

        def conform(budget, prog, extra=(), timeout=60):
            return run([iri, "--grammar", "uri", "conform", "--rule", "IPv4address",
                        "--timeout", "1s", "--budget", str(budget), *extra, "--", "sh", prog],
                       timeout=timeout, limit_as=4 << 30)

        # 4. Answers of a megabyte, none understood.
        huge = program("huge.sh", "a=$(head -c 1000000 /dev/zero | tr '\\0' A)\n"
                       "while read l; do printf '{\"valid\": \"%s\"}\\n' \"$a\"; done\n")
        code, out, err, took, rss = conform(300, huge, ["--json"])
        row("52.4", "300 answers of {\"valid\": \"A\"x10^6}, --json, 4 GiB address space",
            f"exit {code}; {took:.1f} s; peak RSS {rss} MiB; report {len(out):,} bytes",
            code == 1 and rss < 256 and len(out) < 1 << 20)
        budget = 1000 if quick else 3000
        code, out, err, took, rss = conform(budget, huge)
        row("52.4", f"the same at a budget of {budget:,}, text report",
            f"exit {code}; {took:.1f} s; peak RSS {rss} MiB; report {len(out):,} bytes",
            code == 1 and rss < 256 and len(out) < 1 << 20)
        for big in ["100000000", str(2**64 - 1)]:
            code, out, err, took, rss = run([iri, "conform", "--budget", big, "--", "true"],
                                            timeout=60, limit_as=4 << 30)
            row("52.4", f"conform --budget {big}",
                f"exit {code}; {took:.2f} s; {err.decode(errors='replace').strip()[:90]!r}",
                code == 2 and b"at most" in err)

        # 5. A program that closes its output and keeps running, restarted 100 times.
        closes = program("closes.sh", "read l; echo invalid; read l; exec >&-; exec sleep 600\n")
        code, out, err, took, rss = conform(400, closes, ["--json"])
        text = out.decode(errors="replace")
        crashes = text.count('"status":')
        row("52.5", "a program that answers once, closes its output and sleeps; 100 restarts",
            f"exit {code}; {took:.1f} s; {crashes} crashes reported"
            + ("; stopped early" if '"stopped_early":"' in text else ""),
            code == 1 and crashes == 100 and took < 60)

        def survivors(marker):
            p = subprocess.run(["pgrep", "-f", marker], capture_output=True)
            return [int(x) for x in p.stdout.split()]

        def bury(pids):
            for pid in pids:
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass

        # 5. Children that leave the program's session, one of them orphaned at once.
        marker = f"iri-redteam-setsid-{os.getpid()}"
        sleep = os.path.join(d, marker)
        with open("/bin/sleep", "rb") as src, open(sleep, "wb") as dst:
            dst.write(src.read())
        os.chmod(sleep, 0o755)
        escapes = program("escapes.sh", f"setsid {sleep} 600 </dev/null >/dev/null 2>&1 &\n"
                          f"(setsid {sleep} 601 </dev/null >/dev/null 2>&1 &)\n"
                          "sleep 0.5; while read l; do echo invalid; done\n")
        code, out, err, took, rss = conform(20, escapes)
        left = survivors(marker)
        row("52.5", "a program whose children call setsid(), one orphaned at once; the run ends",
            f"exit {code}; {took:.1f} s; {len(left)} of them left running", code == 1 and not left)
        bury(left)

        # 5. iri itself killed with SIGKILL while the program hangs.
        marker = f"iri-redteam-orphan-{os.getpid()}"
        sleep2 = os.path.join(d, marker)
        with open("/bin/sleep", "rb") as src, open(sleep2, "wb") as dst:
            dst.write(src.read())
        os.chmod(sleep2, 0o755)
        hangs = program("hangs.sh", f"exec {sleep2} 600\n")
        p = subprocess.Popen([iri, "--grammar", "uri", "conform", "--rule", "IPv4address",
                              "--timeout", "60s", "--", "sh", hangs],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not survivors(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        started = bool(survivors(marker))
        p.kill()
        p.wait()
        time.sleep(1)
        left = survivors(marker)
        row("52.5", "iri killed with SIGKILL while the program hangs",
            ("program started; " if started else "program never seen; ")
            + f"{len(left)} left running 1 s later", started and not left)
        bury(left)


def hardening_serve(iri, quick):
    """Issue 52, item 7: the page's heavy work, other sites' pages, idle sockets."""
    def limited_server(nofile):
        """iri serve under an open-files limit; the server and what it said on stderr."""
        def preexec():
            resource.setrlimit(resource.RLIMIT_NOFILE, nofile)
        p = subprocess.Popen([iri, "serve", "--port", "0"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, preexec_fn=preexec)
        port = int(re.search(r"127\.0\.0\.1:(\d+)", p.stdout.readline().decode()).group(1))
        ready, _, _ = select.select([p.stderr], [], [], 10)
        said = p.stderr.readline().decode(errors="replace").strip() if ready else ""
        return p, port, said

    # 16 clients of /api/parses at its cap while ordinary trees are asked for.
    srv = Server(iri)
    stop = threading.Event()
    heavy = [0, 0]
    path = f"/api/parses?grammar=iri&rule=IRI-reference&input={'a' * 1024}"

    def hammer():
        while not stop.is_set():
            heavy[0 if status(srv.port, path, timeout=30) == 200 else 1] += 1

    clients = [threading.Thread(target=hammer) for _ in range(16)]
    for c in clients:
        c.start()
    time.sleep(1)
    tree = f"/api/tree?grammar=iri&input=http://h/{'a/' * 100}"
    n, ok, slowest = 100, 0, 0.0
    for _ in range(n):
        t = time.monotonic()
        ok += status(srv.port, tree) == 200
        slowest = max(slowest, time.monotonic() - t)
    stop.set()
    for c in clients:
        c.join()
    row("52.7", "16 clients of /api/parses at its cap (1,024 characters) vs ordinary /api/tree",
        f"{ok}/{n} trees answered 200, slowest {slowest * 1000:.0f} ms; heavy: "
        f"{heavy[0]} answered, {heavy[1]} refused (503)",
        ok == n and slowest < 2)
    big = status(srv.port, f"/api/parses?grammar=iri&input={'a' * 4096}")
    row("52.7", "/api/parses of 4,096 characters (quadratic in the input)",
        f"status {big}", big == 413)
    # Requests sent by another site's page.
    got = [status(srv.port, "/api/tree?grammar=iri&input=a", h) for h in
           ("Origin: http://evil.example\r\n", "Sec-Fetch-Site: cross-site\r\n",
            "Sec-Fetch-Site: same-site\r\n")]
    own = status(srv.port, "/api/tree?grammar=iri&input=a",
                 f"Origin: http://127.0.0.1:{srv.port}\r\nSec-Fetch-Site: same-origin\r\n")
    row("52.7", "/api/tree with Origin: http://evil.example; Sec-Fetch-Site: cross-site; same-site",
        f"statuses {got}; the page's own origin: {own}", got == [403] * 3 and own == 200)
    srv.stop()

    # The descriptor limit the server reports, from a soft limit of 1,024.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    p, port, said = limited_server((min(1024, hard), hard))
    m = re.search(r"up to (\d+) connections", said)
    slots = int(m.group(1)) if m else None
    p.kill()
    p.wait()
    want = min(hard, 4096 + 64) - 64
    row("52.7", f"iri serve started with an open-files soft limit of 1,024 (hard {hard})",
        f"says {said!r}", slots == want)

    # 8,000 reconnecting idle sockets vs ordinary requests. The server gets 1,024
    # descriptors (960 slots); this script keeps at most 2,000 sockets of its own,
    # within its soft limit, raised if it must be.
    keep = 2000
    if soft != resource.RLIM_INFINITY and soft < keep + 100:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(keep + 100, hard), hard))
    keep = min(keep, resource.getrlimit(resource.RLIMIT_NOFILE)[0] - 100)
    p, port, said = limited_server((1024, 1024))
    total = 2000 if quick else 8000
    idle, opened, ok, asked = [], 0, 0, 0
    t = time.monotonic()
    while opened < total and time.monotonic() - t < 60:
        try:
            idle.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            opened += 1
        except OSError:
            pass
        if len(idle) > keep:
            idle.pop(0).close()
        if opened % 40 == 0:
            asked += 1
            ok += status(port, "/api/rules?grammar=uri", timeout=5) == 200
    for s in idle:
        s.close()
    p.kill()
    p.wait()
    row("52.7", f"{total:,} reconnecting idle sockets ({keep:,} held at once) vs ordinary "
        f"requests, server at 1,024 descriptors",
        f"{opened:,} opened; {ok}/{asked} ordinary requests answered 200 ({said})",
        asked > 0 and ok == asked)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iri", default="target/release/iri")
    ap.add_argument("--quick", action="store_true", help="smaller inputs (8k rules, 200k lines)")
    args = ap.parse_args()
    print(f"iri: {args.iri}", file=sys.stderr)
    server_attacks(args.iri)
    cli_attacks(args.iri, args.quick)
    hardening_serve(args.iri, args.quick)
    hardening_cli(args.iri, args.quick)
    hardening_oracle(args.iri, args.quick)
    hardening_trees(args.iri, args.quick)
    hardening_generator(args.iri, args.quick)
    hardening_conform(args.iri, args.quick)
    print("| item | attack | measured | result |")
    print("|---|---|---|---|")
    for r in ROWS:
        print("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
    return 1 if any(r[3] != "held" for r in ROWS) else 0


if __name__ == "__main__":
    sys.exit(main())
