"""Validation speed and agreement of iri_grammar and the Python packages it may
replace, on every list of the shared corpus (../shared/corpus/urls, next to the
repository). Run by run.sh, which installs the other packages in a venv of its own.

Per call: one call per string, the way a program validates. Batch:
``is_valid_many`` on the whole list. Agreement: the share of strings on which a
package says what the ABNF says (IRI-reference, RFC 3987 §2.2, for the rfc3987
packages; URI-reference, RFC 3986 §4.1, for the rfc3986 ones).

Errors: ``check()`` on the valid strings of every list, on the same strings made
invalid (" x" appended: an ``IriError`` raised and caught for each), and with every
tenth made invalid, in CPU time per call; beside them, raising and catching a
``ValueError`` in Python, what any error costs there.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

import iri_grammar
import rfc3986
import rfc3986_validator
import rfc3987
import rfc3987_syntax2

# $IRI_CORPUS names the corpus where it is not next to the repository (a git
# worktree elsewhere), as for tests/test_corpus.py.
CORPUS = Path(os.environ.get("IRI_CORPUS") or Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus") / "urls"


def lists(quick: bool):
    for path in sorted(CORPUS.glob("*.txt")):
        if path.name.startswith("LICENSE"):
            continue
        lines = path.read_text("utf-8", errors="surrogateescape").splitlines()
        yield path.name, lines[: max(1, len(lines) // 10)] if quick else lines


ROUNDS = 5


def timed(f, strings):
    """One run of f over strings: seconds, and f's answers."""
    start = time.perf_counter()
    answers = f(strings)
    return time.perf_counter() - start, answers


def per_call(check):
    return lambda strings: [bool(check(s)) for s in strings]


def rfc3986_valid(s):
    try:
        return rfc3986.uri_reference(s).is_valid()
    except Exception:  # it raises on some inputs rather than answer
        return False


CONTENDERS = [
    # name, grammar it claims, per-call function, how many strings (None: all)
    ("iri_grammar", "iri", per_call(iri_grammar.is_valid), None),
    ("iri_grammar batch", "iri", lambda ss: iri_grammar.is_valid_many(ss), None),
    ("rfc3987 (regex)", "iri", per_call(lambda s: rfc3987.match(s, "IRI_reference")), None),
    ("rfc3987-syntax2 (Lark)", "iri", per_call(rfc3987_syntax2.is_valid_syntax_iri_reference), 50),
    ("iri_grammar uri", "uri", per_call(lambda s: iri_grammar.is_valid(s, grammar="uri")), None),
    ("iri_grammar uri batch", "uri", lambda ss: iri_grammar.is_valid_many(ss, grammar="uri"), None),
    ("rfc3986-validator", "uri", per_call(lambda s: rfc3986_validator.validate_rfc3986(s, "URI_reference")), None),
    ("rfc3986", "uri", per_call(rfc3986_valid), 3000),
]


def visible(text: str) -> str:
    """`text` for a markdown table: characters a reader would not see (controls,
    format characters such as U+FEFF, separators but the space) as \\uXXXX, and `|`
    escaped."""

    def shown(c: str) -> str:
        hidden = unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp")
        if hidden or (unicodedata.category(c) == "Zs" and c != " "):
            # As JSON writes it: beyond U+FFFF, the UTF-16 surrogate pair.
            n = ord(c)
            if n > 0xFFFF:
                n -= 0x10000
                return f"\\u{0xD800 + (n >> 10):04X}\\u{0xDC00 + (n & 0x3FF):04X}"
            return f"\\u{n:04X}"
        return c

    return "".join(shown(c) for c in text).replace("|", "\\|")


def import_time(module: str, runs: int = 7) -> float:
    """The median wall time of importing `module` in a fresh interpreter, less that
    of an interpreter that imports nothing, in ms."""

    def run(code):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - start

    base = statistics.median(run("pass") for _ in range(runs))
    return max(0.0, statistics.median(run(f"import {module}") for _ in range(runs)) - base) * 1e3


def errors(quick: bool):
    """What an invalid string costs ``check()`` beside a valid one (see the module doc)."""
    valid = [s for _, strings in lists(quick) for s in strings if iri_grammar.is_valid(s)]
    made = {
        "valid": valid,
        "every tenth invalid": [s + " x" if k % 10 == 9 else s for k, s in enumerate(valid)],
        "all invalid": [s + " x" for s in valid],
    }
    check = iri_grammar.check

    def checked(strings):
        for s in strings:
            try:
                check(s)
            except iri_grammar.IriError:
                pass

    def raised(strings):
        for s in strings:
            try:
                raise ValueError(s)
            except ValueError:
                pass

    best = {}
    for _ in range(ROUNDS):
        for name, strings in made.items():
            start = time.process_time()
            checked(strings)
            took = time.process_time() - start
            best[name] = min(best.get(name, float("inf")), took * 1e9 / len(strings))
        start = time.process_time()
        raised(valid)
        took = time.process_time() - start
        best["floor"] = min(best.get("floor", float("inf")), took * 1e9 / len(valid))
    print(f"\n| check() on {len(valid):,} valid strings of the lists | CPU ns per call | × valid |")
    print("|---|---:|---:|")
    for name in made:
        print(f"| {name} | {best[name]:,.0f} | {best[name] / best['valid']:.1f}× |")
    print(f"| (floor) `raise ValueError(s)` caught, in Python | {best['floor']:,.0f} | "
          f"{best['floor'] / best['valid']:.1f}× |")


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="a tenth of each list")
    args = ap.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"no corpus at {CORPUS} (set IRI_CORPUS to the directory that holds urls/)")
    totals = {name: [0.0, 0, 0] for name, *_ in CONTENDERS}  # ns, strings, agreeing
    # The first three strings each contender judges otherwise than the ABNF.
    examples = {name: [] for name, *_ in CONTENDERS}
    print(f"Python {sys.version.split()[0]}, iri_grammar vs rfc3987 1.3.8, "
          "rfc3987-syntax2 1.3.3, rfc3986-validator 0.1.1, rfc3986 2.0.0\n")
    print("| list | strings | " + " | ".join(n for n, *_ in CONTENDERS) + " |")
    print("|---|---:|" + "---:|" * len(CONTENDERS))
    for name, strings in lists(args.quick):
        truth = {
            "iri": iri_grammar.is_valid_many(strings),
            "uri": iri_grammar.is_valid_many(strings, grammar="uri"),
        }
        # The contenders take turns, round after round, and each keeps its best
        # round: a machine whose load moves then moves every contender alike.
        # The samples of the slow ones are timed once.
        best = {}
        answers = {}
        for round in range(ROUNDS):
            for cname, grammar, f, limit in CONTENDERS:
                if limit is not None and round > 0:
                    continue
                sample = strings if limit is None else strings[:limit]
                took, answers[cname] = timed(f, sample)
                best[cname] = min(best.get(cname, float("inf")), took)
        cells = []
        for cname, grammar, f, limit in CONTENDERS:
            sample = strings if limit is None else strings[:limit]
            ns = best[cname] * 1e9 / max(1, len(sample))
            agree = sum(a == t for a, t in zip(answers[cname], truth[grammar]))
            for s, a, t in zip(sample, answers[cname], truth[grammar]):
                if a != t and len(examples[cname]) < 3:
                    examples[cname].append((name, s, t))
            t = totals[cname]
            t[0] += ns * len(sample)
            t[1] += len(sample)
            t[2] += agree
            cells.append(f"{ns:,.0f} ns")
        print(f"| {name} | {len(strings):,} | " + " | ".join(cells) + " |")

    print("\n| package | grammar | ns per string | speed-up of iri_grammar | agreement with the ABNF |")
    print("|---|---|---:|---:|---:|")
    ours = {"iri": totals["iri_grammar"], "uri": totals["iri_grammar uri"]}
    for cname, grammar, *_ in CONTENDERS:
        ns, n, agree = totals[cname]
        mean = ns / n
        speedup = mean / (ours[grammar][0] / ours[grammar][1])
        print(f"| {cname} | {grammar} | {mean:,.0f} | {speedup:,.1f}× | {agree / n:.2%} ({n - agree:,} differ) |")
    print("\n| package | list | string (JSON) | the ABNF says |\n|---|---|---|---|")
    for cname, *_ in CONTENDERS:
        for name, s, t in examples[cname]:
            shown = visible(json.dumps(s if len(s) <= 80 else s[:77] + "...", ensure_ascii=False))
            print(f"| {cname} | {name} | `{shown}` | {'valid' if t else 'invalid'} |")
    if not any(examples.values()):
        print("| (none) | | | |")
    print("\n(batch rows: ns per string of is_valid_many; speed-up against per-call iri_grammar."
          " The rfc3987-syntax2 row is measured on the first 50 strings of each list,"
          " rfc3986 on the first 3,000.)")
    errors(args.quick)
    print("\n| import | ms |\n|---|---:|")
    for module in ("iri_grammar", "rfc3987", "rfc3986_validator", "rfc3986", "rfc3987_syntax2"):
        print(f"| {module} | {import_time(module):.1f} |")


if __name__ == "__main__":
    main()
