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

Built-ins: DataFusion's `regexp_like` with (a) the crude regex of an absolute URI and
(b) the exact regex of RFC 3986's URI-reference, built rule by rule from Appendix A
as the Python `rfc3986` package builds its regexes (`abnf_regexp.py`); the host by
`regexp_match` and by `split_part`. The second table gives, per row, the regexes'
CPU time over `iri_is_valid`'s, for the whole query and net of the scan that reads
the texts (each minus `count(iri)`'s; a list's `count(*)` only splits the lines, and
a Parquet `count(*)` reads no string). The third
counts the rows where each gives another answer than the function for the same rule.
"""

import os
import platform
import re
import resource
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
    ("`count(iri)` (scan with the texts)", "count(iri)"),
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
          "`count(iri)`'s CPU ns/row):\n")
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


if __name__ == "__main__":
    # The exact regex must be a regex Python agrees with too (a check of the build).
    assert re.fullmatch(URI_REFERENCE[1:-1], "http://[::1]:80/a?b#c")
    assert not re.fullmatch(URI_REFERENCE[1:-1], "http://a b/")
    main()
