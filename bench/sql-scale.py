#!/usr/bin/env python3
"""The SQL scale benchmark: iri-sql's functions against the built-ins a data engineer
writes instead, over a generated file of 10M+ rows (a list and the same rows as
Parquet), at 1, 2, 4, ... partitions up to the machine's cores; markdown on stdout.

    cargo build --release -p iri-grammar-datafusion
    python3 bench/sql-scale.py > bench/record/$(date -u +%Y-%m-%dT%H%M)-$(git rev-parse --short HEAD)-sql-scale.md

Environment: ROWS (default 10000000), PARTITIONS (default "1 2 4 ... cores"), REPEAT
(runs per cell, the best is kept; default 3), DATA (where the files are generated,
default /tmp/iri-sql-scale; never in the repository), IRI_SQL (default
target/release/iri-sql).

The rows are the lines of ../shared/corpus/urls/*.txt (crawled links, DBpedia IRIs),
repeated to ROWS lines. Each cell runs `iri-sql --partitions N` once per repeat: a
whole process, so it includes start-up (a few ms) and, for a list, reading the file
from the page cache. Every run of a query must print the same answer whatever the
partitions, or the script stops.

`--cluster` measures a Ballista cluster instead (`iri-sql scheduler`, two `iri-sql
executor`s on loopback ports, `iri-sql --scheduler`; build with `--features ballista`)
against the embedded engine: a trivial query, and `iri_is_valid` over 1M and 10M rows
(list and Parquet), the two taking turns; the processes are always stopped.

Built-ins: DataFusion's `regexp_like` with (a) the crude regex of an absolute URI and
(b) the exact regex of RFC 3986's URI-reference, built rule by rule from Appendix A
as the Python `rfc3986` package builds its regexes (`abnf_regexp.py`); the host by
`regexp_match` and by `split_part`. The second table gives, per row, the regexes'
CPU time over `iri_is_valid`'s, for the whole query and net of the scan that reads
the texts (each minus that of `sum(octet_length(iri))`, which makes every text and
looks at its length only: a list's `count(*)` only splits the lines, a Parquet
`count(*)` reads no string, and DataFusion answers a Parquet `count(iri)` from the
file's statistics). The third
counts the rows where each gives another answer than the function for the same rule.
"""

import os
import platform
import re
import resource
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent.parent / "shared" / "corpus" / "urls"
if not CORPUS.is_dir():
    CORPUS = ROOT / ".." / "shared" / "corpus" / "urls"
IRI_SQL = os.environ.get("IRI_SQL", str(ROOT / "target" / "release" / "iri-sql"))
ROWS = int(os.environ.get("ROWS", "10000000"))
REPEAT = int(os.environ.get("REPEAT", "3"))
DATA = Path(os.environ.get("DATA", "/tmp/iri-sql-scale"))
CORES = os.cpu_count() or 1


def partitions():
    if "PARTITIONS" in os.environ:
        return [int(p) for p in os.environ["PARTITIONS"].split()]
    out, p = [], 1
    while p < CORES:
        out.append(p)
        p *= 2
    return out + [CORES]


# RFC 3986 Appendix A, rule by rule (names as there, '-' as '_').
ALPHA = "[A-Za-z]"
HEXDIG = "[0-9A-Fa-f]"
PCT_ENCODED = f"%{HEXDIG}{HEXDIG}"
UNRESERVED = "A-Za-z0-9._~"  # inside a bracket expression, with "-" last
SUB_DELIMS = "!$&'()*+,;="  # inside a bracket expression
PCHAR = f"(?:[{UNRESERVED}{SUB_DELIMS}:@-]|{PCT_ENCODED})"
SCHEME = f"{ALPHA}[A-Za-z0-9+.-]*"
USERINFO = f"(?:[{UNRESERVED}{SUB_DELIMS}:-]|{PCT_ENCODED})*"
DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
IPV4ADDRESS = rf"{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}\.{DEC_OCTET}"
H16 = f"{HEXDIG}{{1,4}}"
LS32 = f"(?:{H16}:{H16}|{IPV4ADDRESS})"
IPV6ADDRESS = "(?:" + "|".join(
    [
        f"(?:{H16}:){{6}}{LS32}",
        f"::(?:{H16}:){{5}}{LS32}",
        f"(?:{H16})?::(?:{H16}:){{4}}{LS32}",
        f"(?:(?:{H16}:){{0,1}}{H16})?::(?:{H16}:){{3}}{LS32}",
        f"(?:(?:{H16}:){{0,2}}{H16})?::(?:{H16}:){{2}}{LS32}",
        f"(?:(?:{H16}:){{0,3}}{H16})?::{H16}:{LS32}",
        f"(?:(?:{H16}:){{0,4}}{H16})?::{LS32}",
        f"(?:(?:{H16}:){{0,5}}{H16})?::{H16}",
        f"(?:(?:{H16}:){{0,6}}{H16})?::",
    ]
) + ")"
IPVFUTURE = rf"v{HEXDIG}+\.[{UNRESERVED}{SUB_DELIMS}:-]+"
IP_LITERAL = rf"\[(?:{IPV6ADDRESS}|{IPVFUTURE})\]"
REG_NAME = f"(?:[{UNRESERVED}{SUB_DELIMS}-]|{PCT_ENCODED})*"
HOST = f"(?:{IP_LITERAL}|{IPV4ADDRESS}|{REG_NAME})"
PORT = "[0-9]*"
AUTHORITY = f"(?:{USERINFO}@)?{HOST}(?::{PORT})?"
SEGMENT = f"{PCHAR}*"
SEGMENT_NZ = f"{PCHAR}+"
SEGMENT_NZ_NC = f"(?:[{UNRESERVED}{SUB_DELIMS}@-]|{PCT_ENCODED})+"
PATH_ABEMPTY = f"(?:/{SEGMENT})*"
PATH_ABSOLUTE = f"/(?:{SEGMENT_NZ}(?:/{SEGMENT})*)?"
PATH_NOSCHEME = f"{SEGMENT_NZ_NC}(?:/{SEGMENT})*"
PATH_ROOTLESS = f"{SEGMENT_NZ}(?:/{SEGMENT})*"
PATH_EMPTY = ""
HIER_PART = f"(?://{AUTHORITY}{PATH_ABEMPTY}|{PATH_ABSOLUTE}|{PATH_ROOTLESS}|{PATH_EMPTY})"
QUERY = f"(?:{PCHAR}|[/?])*"
FRAGMENT = QUERY
URI = rf"{SCHEME}:{HIER_PART}(?:\?{QUERY})?(?:#{FRAGMENT})?"
RELATIVE_PART = f"(?://{AUTHORITY}{PATH_ABEMPTY}|{PATH_ABSOLUTE}|{PATH_NOSCHEME}|{PATH_EMPTY})"
RELATIVE_REF = rf"{RELATIVE_PART}(?:\?{QUERY})?(?:#{FRAGMENT})?"
URI_REFERENCE = f"^(?:{URI}|{RELATIVE_REF})$"

CRUDE = "^[A-Za-z][A-Za-z0-9+.-]*:[^[:space:]]*$"
HOST_REGEX = r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?(\[[^\]]*\]|[^:/?#]*)"


def sql_str(s):
    return "'" + s.replace("'", "''") + "'"


# (name, SQL expression counted over the table `t`): each query is
# `SELECT count(*) FILTER (WHERE expr)` for a predicate, `count(expr)` for a value.
WORK = [
    ("`count(*)` (scan only)", "count(*)"),
    ("`sum(octet_length(iri))` (scan with the texts)", "sum(octet_length(iri))"),
    ("`iri_is_valid(iri)` (RFC 3987 IRI-reference)", "count(*) FILTER (WHERE iri_is_valid(iri))"),
    ("`iri_is_valid(iri, 'uri')` (RFC 3986 URI-reference)", "count(*) FILTER (WHERE iri_is_valid(iri, 'uri'))"),
    ("(a) `regexp_like`, crude regex", f"count(*) FILTER (WHERE regexp_like(iri, {sql_str(CRUDE)}))"),
    ("(b) `regexp_like`, exact RFC 3986 regex", f"count(*) FILTER (WHERE regexp_like(iri, {sql_str(URI_REFERENCE)}))"),
    ("`iri_host(iri)`", "count(iri_host(iri))"),
    ("host by `regexp_match`", f"count(regexp_match(iri, {sql_str(HOST_REGEX)})[1])"),
    ("host by `split_part`", "count(nullif(split_part(split_part(iri, '/', 3), ':', 1), ''))"),
]

# (built-in, the iri_* call for the same rule): rows where they differ.
WRONG = [
    ("(a) crude regex", f"regexp_like(iri, {sql_str(CRUDE)})", "iri_is_valid(iri, 'uri:URI')"),
    ("(b) exact RFC 3986 regex", f"regexp_like(iri, {sql_str(URI_REFERENCE)})", "iri_is_valid(iri, 'uri')"),
    ("(a) crude regex, as an IRI check", f"regexp_like(iri, {sql_str(CRUDE)})", "iri_is_valid(iri, 'iri:IRI')"),
    ("host by `regexp_match`", f"nullif(regexp_match(iri, {sql_str(HOST_REGEX)})[1], '')",
     "nullif(iri_host(iri), '')"),
    ("host by `split_part`", "nullif(split_part(split_part(iri, '/', 3), ':', 1), '')",
     "nullif(iri_host(iri), '')"),
]


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args):
    """Runs iri-sql: (wall seconds, CPU seconds, stdout)."""
    cpu = cpu_of_children()
    t = time.perf_counter()
    p = subprocess.run([IRI_SQL, *args], capture_output=True, text=True)
    elapsed = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"iri-sql {' '.join(args)[:200]}: exit {p.returncode}: {p.stderr}")
    return elapsed, cpu_of_children() - cpu, p.stdout


def generate(rows=None):
    """The list and the Parquet file of `rows` rows (default ROWS), made once."""
    rows = rows or ROWS
    DATA.mkdir(parents=True, exist_ok=True)
    lst = DATA / f"links-{rows}.txt"
    parquet = DATA / f"links-{rows}.parquet"
    if not lst.exists():
        sources = sorted(CORPUS.glob("*.txt"))
        sources = [s for s in sources if not s.name.startswith("LICENSE")]
        if not sources:
            sys.exit(f"no corpus lists in {CORPUS}")
        lines = []
        for s in sources:
            lines += s.read_bytes().splitlines()
        part = lst.with_suffix(".part")
        with open(part, "wb") as out:
            n = 0
            while n < rows:
                take = lines[: rows - n]
                out.write(b"\n".join(take) + b"\n")
                n += len(take)
        part.rename(lst)
    if not parquet.exists():
        part = DATA / f"part-{rows}.parquet"
        run([
            "--partitions", "1",
            f"COPY (SELECT iri FROM {sql_str(str(lst))}) TO {sql_str(str(part))} "
            "STORED AS PARQUET OPTIONS (max_row_group_size 262144)",
        ])
        part.rename(parquet)
    return lst, parquet


def best(args):
    """The best wall time of REPEAT runs, the CPU time of that run, the answers."""
    runs, answers = [], set()
    for _ in range(REPEAT):
        t, cpu, out = run(args)
        runs.append((t, cpu))
        answers.add(out)
    t, cpu = min(runs)
    return t, cpu, answers


def main():
    if not Path(IRI_SQL).exists():
        sys.exit(f"{IRI_SQL}: build it first: cargo build --release -p iri-grammar-datafusion")
    lst, parquet = generate()
    ps = partitions()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    cpu = platform.processor() or platform.machine()
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    print(f"# SQL scale: {ROWS:,} rows, {CORES} cores ({cpu})\n")
    print(f"Commit `{commit}`, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
          f"`bench/sql-scale.py` (best of {REPEAT}; seconds per query, the whole "
          f"`iri-sql` process; CPU: user + system seconds of that run, which the load "
          f"of other processes does not change). List: {lst.stat().st_size / 1e6:.0f} MB; Parquet: "
          f"{parquet.stat().st_size / 1e6:.0f} MB. Load average at the start: "
          f"{os.getloadavg()[0]:.2f}.\n")
    wc = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        subprocess.run(["wc", "-l", str(lst)], capture_output=True, check=True)
        wc.append(time.perf_counter() - start)
    wc = min(wc)
    print(f"`wc -l` of the list (the floor: reading the file): {wc:.3f} s\n")
    head = "| work | file | " + " | ".join(f"{p}" for p in ps) + \
        f" | scaling 1→{ps[-1]} | CPU s at 1 | CPU s at {ps[-1]} | CPU ns/row at 1 |"
    print(head)
    print("|---|---|" + "--:|" * len(ps) + "--:|--:|--:|--:|")
    per_row_of = {}
    for name, expr in WORK:
        for label, path in (("list", lst), ("Parquet", parquet)):
            sql = f"SELECT {expr} AS n FROM {sql_str(str(path))}"
            cells, cpus, answers = [], [], set()
            for p in ps:
                t, cpu, a = best(["--partitions", str(p), "--format", "csv", sql])
                cells.append(t)
                cpus.append(cpu)
                answers |= a
            if len(answers) != 1:
                sys.exit(f"{sql}: answers differ with the partitions: {answers}")
            scaling = cells[0] / cells[-1]
            per_row = cpus[0] / ROWS * 1e9
            per_row_of[(expr, label)] = per_row
            print(f"| {name} | {label} | " + " | ".join(f"{c:.3f}" for c in cells) +
                  f" | {scaling:.1f}× | {cpus[0]:.2f} | {cpus[-1]:.2f} | {per_row:.0f} |",
                  flush=True)
    print()
    print("Per row, CPU at 1 partition: the regexes' time over `iri_is_valid`'s, for the "
          "whole query and net of the scan that reads the texts (each minus "
          "`sum(octet_length(iri))`'s CPU ns/row):\n")
    print("| file | contender | whole query | net of the scan |")
    print("|---|---|--:|--:|")
    valid = {"(a)": WORK[2][1], "(b)": WORK[3][1]}
    for label in ("list", "Parquet"):
        scan = per_row_of[(WORK[1][1], label)]
        for contender, ours, theirs in (
            ("(a) crude regex ÷ `iri_is_valid(iri)`", valid["(a)"], WORK[4][1]),
            ("(b) exact RFC 3986 regex ÷ `iri_is_valid(iri, 'uri')`", valid["(b)"], WORK[5][1]),
        ):
            mine, other = per_row_of[(ours, label)], per_row_of[(theirs, label)]
            net = (other - scan) / (mine - scan) if mine > scan else float("nan")
            print(f"| {label} | {contender} | {other / mine:.1f}× | {net:.1f}× |")
    print()
    print(f"Rows where a built-in answers otherwise than the function for the same rule "
          f"(of {ROWS:,}; the list, `--partitions {ps[-1]}`):\n")
    print("| built-in | against | rows that differ | built-in true, function false | "
          "built-in false, function true |")
    print("|---|---|--:|--:|--:|")
    for name, builtin, exact in WRONG:
        if "iri_host" in exact:
            sql = (f"SELECT count(*) FILTER (WHERE b IS DISTINCT FROM e), "
                   f"count(*) FILTER (WHERE b IS NOT NULL AND (e IS NULL OR b <> e)), "
                   f"count(*) FILTER (WHERE e IS NOT NULL AND (b IS NULL OR b <> e)) "
                   f"FROM (SELECT {builtin} AS b, {exact} AS e FROM {sql_str(str(lst))})")
        else:
            sql = (f"SELECT count(*) FILTER (WHERE b IS DISTINCT FROM e), "
                   f"count(*) FILTER (WHERE b AND NOT e), count(*) FILTER (WHERE e AND NOT b) "
                   f"FROM (SELECT {builtin} AS b, {exact} AS e FROM {sql_str(str(lst))})")
        _, _, out = run(["--partitions", str(ps[-1]), "--format", "csv", sql])
        values = out.strip().splitlines()[-1].split(",")
        print(f"| {name} | `{exact}` | " + " | ".join(f"{int(v):,}" for v in values) + " |",
              flush=True)
    print()
    print(f"(b) is {len(URI_REFERENCE):,} characters. Hosts are compared as non-empty "
          "names: an empty host (`file:///x`) and none (`urn:x`) count as NULL on both "
          "sides, and a NULL and a name differ.")


CLUSTER_ROWS = [1_000_000, 10_000_000]


def free_port():
    with socket.socket() as so:
        so.bind(("127.0.0.1", 0))
        return so.getsockname()[1]


def http_ok(port, path):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as so:
            so.settimeout(2)
            so.sendall(f"GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".encode())
            return so.recv(64).startswith((b"HTTP/1.1 200", b"HTTP/1.0 200"))
    except OSError:
        return False


def wait_until(what, ready, processes, seconds=120):
    deadline = time.monotonic() + seconds
    while not ready():
        for name, p, log in processes:
            if p.poll() is not None:
                sys.exit(f"{name} exited ({p.returncode}) before {what}: see {log}")
        if time.monotonic() > deadline:
            sys.exit(f"{what}: not within {seconds} s")
        time.sleep(0.2)


def start_cluster(work, processes):
    """One scheduler and two executors of this iri-sql on loopback ports, each
    executor with one task slot (so a query of 2 partitions uses both); returns the
    scheduler's HOST:PORT once both executors have registered."""
    def start(name, args):
        log = work / f"{name}.log"
        p = subprocess.Popen([IRI_SQL, *args], stdout=open(log, "wb"), stderr=subprocess.STDOUT,
                             stdin=subprocess.DEVNULL, start_new_session=True)
        processes.append((name, p, log))
        return p

    port = free_port()
    start("scheduler", ["scheduler", "--bind-host", "127.0.0.1", "--external-host",
                        "127.0.0.1", "--bind-port", str(port)])

    def listens():
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            return False

    wait_until("the scheduler listens", listens, processes)
    for k in (1, 2):
        health = free_port()
        (work / f"executor-{k}").mkdir(exist_ok=True)
        start(f"executor-{k}", [
            "executor", "--scheduler-host", "127.0.0.1", "--scheduler-port", str(port),
            "--bind-host", "127.0.0.1", "--external-host", "127.0.0.1",
            "--bind-port", str(free_port()), "--bind-grpc-port", str(free_port()),
            "--bind-health-port", str(health), "--vcores", "1",
            "--work-dir", str(work / f"executor-{k}"),
        ])
        wait_until(f"executor-{k} registers", lambda: http_ok(health, "/readyz"), processes)
    return f"127.0.0.1:{port}"


def stop_cluster(processes):
    for _, p, _ in processes:
        if p.poll() is None:
            p.terminate()
    for name, p, _ in processes:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def cluster_main():
    """`--cluster`: a trivial query (the cost of a query) and `iri_is_valid` over
    1M and 10M rows (the cost of a row), on a cluster of one scheduler and two
    executors on loopback against the embedded engine at 2 partitions, the two
    taking turns run by run."""
    if not Path(IRI_SQL).exists():
        sys.exit(f"{IRI_SQL}: build it first: "
                 "cargo build --release -p iri-grammar-datafusion --features ballista")
    files = {rows: generate(rows) for rows in CLUSTER_ROWS}
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    work = DATA / f"cluster-{os.getpid()}"
    work.mkdir(parents=True, exist_ok=True)
    processes = []
    try:
        scheduler = start_cluster(work, processes)
        engines = [("embedded", ["--partitions", "2"]),
                   ("cluster", ["--scheduler", scheduler, "--partitions", "2"])]
        queries = [("trivial: `SELECT 1`", None, "SELECT 1 AS n")]
        for rows in CLUSTER_ROWS:
            for label, path in (("list", files[rows][0]), ("Parquet", files[rows][1])):
                queries.append((f"`count(*) FILTER (WHERE iri_is_valid(iri))`, {rows:,} rows",
                                (rows, label),
                                "SELECT count(*) FILTER (WHERE iri_is_valid(iri)) AS n "
                                f"FROM {sql_str(str(path))}"))
        load = os.getloadavg()[0]
        results = {}
        for name, key, sql in queries:
            times = {e: [] for e, _ in engines}
            answers = set()
            for _ in range(REPEAT):
                for engine, args in engines:
                    t, _, out = run([*args, "--format", "csv", sql])
                    times[engine].append(t)
                    answers.add(out)
            if len(answers) != 1:
                sys.exit(f"{sql}: the cluster and the embedded engine differ: {answers}")
            # Keyed by the query's place: a list and a Parquet file share a name.
            results[len(results)] = (name, key, {e: min(v) for e, v in times.items()})
    finally:
        stop_cluster(processes)
    print(f"# SQL on a Ballista cluster: 1 scheduler + 2 executors on loopback, "
          f"{CORES} cores\n")
    print(f"Commit `{commit}`, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, "
          f"`bench/sql-scale.py --cluster` (best of {REPEAT}, the engines taking turns; "
          f"seconds of the whole `iri-sql` client process: the work is in the cluster's "
          f"processes, so wall time, not CPU). Embedded: `iri-sql --partitions 2`; "
          f"cluster: `iri-sql --scheduler HOST:PORT --partitions 2`, each executor "
          f"`--vcores 1`. A list is read by the list reader on both (on the cluster, its "
          f"table and scans sent by the crate's codecs: docs/sql.md). Load average at "
          f"the start: {load:.2f}.\n")
    print("| query | file | embedded s | cluster s | cluster − embedded s |")
    print("|---|---|--:|--:|--:|")
    for name, key, t in results.values():
        label = key[1] if key else "—"
        print(f"| {name} | {label} | {t['embedded']:.3f} | {t['cluster']:.3f} | "
              f"{t['cluster'] - t['embedded']:+.3f} |")
    print()
    small, big = CLUSTER_ROWS
    print(f"Per row, from the difference between {big:,} and {small:,} rows "
          "(start-up and per-query costs cancel):\n")
    print("| file | embedded ns/row | cluster ns/row | cluster ÷ embedded |")
    print("|---|--:|--:|--:|")
    for label in ("list", "Parquet"):
        row = {}
        for _, key, t in results.values():
            if key and key[1] == label:
                row[key[0]] = t
        per = {e: (row[big][e] - row[small][e]) / (big - small) * 1e9
               for e in ("embedded", "cluster")}
        print(f"| {label} | {per['embedded']:.0f} | {per['cluster']:.0f} | "
              f"{per['cluster'] / per['embedded']:.2f}× |")
    trivial = results[0][2]
    print(f"\nPer query: `SELECT 1` takes {trivial['cluster'] - trivial['embedded']:+.3f} s "
          "more on the cluster than embedded (the client's connection, the scheduler's "
          "planning, a task on an executor, the result fetched over Flight).")



if __name__ == "__main__":
    if sys.argv[1:] == ["--cluster"]:
        cluster_main()
        sys.exit(0)
    if sys.argv[1:]:
        sys.exit("usage: bench/sql-scale.py [--cluster]")
    # The exact regex must be a regex Python agrees with too (a check of the build).
    assert re.fullmatch(URI_REFERENCE[1:-1], "http://[::1]:80/a?b#c")
    assert not re.fullmatch(URI_REFERENCE[1:-1], "http://a b/")
    main()
