"""A fuzz-style run of the Python API: random ``str`` (ASCII, URI delimiters,
non-ASCII of every plane, lone surrogates, controls, long strings, pieces of IRIs)
through ``is_valid``, ``check``, ``IriRef`` (and ``UriRef``, ``LeiriRef``),
``normalize``, ``to_uri``, ``resolve`` and ``parse_tree``, in the IRI, URI and
LEIRI grammars. Asserts, for every string:

* nothing raises but ``ValueError`` (``IriError`` included), and nothing crashes;
* ``is_valid`` (the compiled automaton), ``check`` (raising or not) and the
  constructor give the same verdict; an ``IriError``'s offset is a Python index
  into the string and ``found`` is the character there (``None`` at the end);
* a reference gives its string back; ``to_uri`` gives a valid URI reference;
  ``normalize`` gives a reference that normalizes to itself; ``resolve`` against
  an absolute base gives an absolute IRI; ``parse_tree``'s root spans the string.

  python bench/fuzz.py --count 1000000 --seed 1      # from python/, package installed

Prints a summary (strings, calls, CPU seconds, failures, the first failures) and
exits 1 on any failure. Deterministic for a given seed and count.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback

import iri_grammar as g

DELIMS = ":/?#[]@!$&'()*+,;=%-._~"
ASCII = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
PIECES = [
    "http://", "https://", "a:", "//", "/", "..", ".", "../", "./", "?", "#", "@", ":80",
    "[::1]", "[v1.x]", "[2001:db8::1]", "1.2.3.4", "%", "%2F", "%C3%A9", "%zz", "%E2%80",
    "xn--99zt52a", "résumé", "例え", "ﬁ", "\u212b", "\u202e", "\u200f", "\ufeff", "\ue000",
    "\U000f0000", "\U0001f600", "\ud800", "\udfff", "\x00", "\x7f", "\r\n", " ", "\t",
    "user:pw@", "q=1&x", "mailto:", "urn:isbn:", "file:///", "\ufffd", "\uffff",
]
BASES = [g.AbsoluteIri(b) for b in ("http://a/b/c/d;p?q", "a:", "file:///x/y", "http://例え.jp/a/")]


def char(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.40:
        return rng.choice(ASCII)
    if k < 0.65:
        return rng.choice(DELIMS)
    if k < 0.72:
        return chr(rng.randrange(0x00, 0x20))  # controls
    if k < 0.80:
        return chr(rng.randrange(0x80, 0x800))
    if k < 0.88:
        return chr(rng.choice([rng.randrange(0x800, 0xD800), rng.randrange(0xE000, 0x10000)]))
    if k < 0.93:
        return chr(rng.randrange(0x10000, 0x110000))
    return chr(rng.randrange(0xD800, 0xE000))  # lone surrogates


def text(rng: random.Random) -> str:
    k = rng.random()
    if k < 0.45:  # pieces of IRIs with random characters between
        parts = []
        for _ in range(rng.randrange(1, 9)):
            parts.append(rng.choice(PIECES) if rng.random() < 0.6 else "".join(char(rng) for _ in range(rng.randrange(0, 6))))
        return "".join(parts)
    if k < 0.90:  # random characters
        return "".join(char(rng) for _ in range(rng.randrange(0, 40)))
    if k < 0.99:  # an IRI-like head and a long tail
        tail = "".join(char(rng) for _ in range(rng.randrange(0, 20)))
        return rng.choice(PIECES) + rng.choice(ASCII) * rng.randrange(100, 5000) + tail
    return "http://a/" + "".join(char(rng) for _ in range(rng.randrange(1000, 20000)))  # long


class Failure(Exception):
    pass


def expect(cond: bool, what: str) -> None:
    if not cond:
        raise Failure(what)


def value_or_none(f, *args, **kwargs):
    try:
        return f(*args, **kwargs)
    except ValueError:
        return None


def one(s: str, rng: random.Random) -> int:
    """Runs the properties on s; returns the number of API calls made."""
    calls = 0
    for grammar, cls in (("iri", g.IriRef), ("uri", g.UriRef), ("leiri", g.LeiriRef)):
        ok = g.is_valid(s, grammar=grammar)
        try:
            g.check(s, grammar=grammar)
            checked = True
        except g.IriError as e:
            checked = False
            expect(0 <= e.offset <= len(s), f"offset {e.offset} outside the string")
            expect(e.found == (s[e.offset] if e.offset < len(s) else None), "found is not the char at offset")
        try:
            r = cls(s)
        except g.IriError:
            r = None
        calls += 3
        expect(ok == checked == (r is not None), f"{grammar}: is_valid {ok}, check {checked}, constructor {r is not None}")
        if r is None:
            continue
        expect(str(r) == s, "the reference does not give its string back")
        u = value_or_none(r.to_uri, idna=rng.random() < 0.3)
        calls += 1
        if u is not None:
            expect(g.is_valid(str(u), grammar="uri"), f"to_uri gave no URI: {str(u)!r}")
        level = rng.choice(("syntax", "scheme"))
        n = value_or_none(r.normalize, level, nfc=rng.choice((None, True, "nfkc")))
        calls += 1
        if n is not None and grammar != "leiri":
            again = value_or_none(n.normalize, level)
            calls += 1
            expect(again is None or str(again) == str(n) or level == "scheme", f"normalize is not idempotent: {str(n)!r} -> {str(again)!r}")
        if grammar == "iri":
            res = r.resolve(rng.choice(BASES))
            calls += 1
            expect(res.is_absolute and g.is_valid(str(res), "IRI"), f"resolve gave {str(res)!r}")
            tree = g.parse_tree(s)
            calls += 1
            expect((tree["start"], tree["end"]) == (0, len(s)), "the tree does not span the string")
    if rng.random() < 0.05:
        value_or_none(g.prepare, s)
        value_or_none(g.parse_tree, s, "IRI")
        calls += 2
    return calls


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=10_000, help="strings per is_valid_many/parse_many call")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    cpu0, wall0 = time.process_time(), time.perf_counter()
    failures: list[tuple[str, str]] = []
    valid = {"iri": 0, "uri": 0, "leiri": 0}
    calls = done = 0
    while done < args.count:
        batch = [text(rng) for _ in range(min(args.batch, args.count - done))]
        for grammar in valid:
            many = g.is_valid_many(batch, grammar=grammar)
            parsed = g.parse_many(batch, grammar=grammar)
            calls += 2
            valid[grammar] += sum(many)
            if [p is not None for p in parsed] != many:
                failures.append((repr(batch), f"{grammar}: parse_many and is_valid_many disagree"))
        for s in batch:
            try:
                calls += one(s, rng)
            except Failure as f:
                failures.append((repr(s), str(f)))
            except Exception:  # noqa: BLE001 - anything but ValueError is a finding
                failures.append((repr(s), traceback.format_exc(limit=2)))
        done += len(batch)
        if done % 100_000 == 0:
            print(f"{done:,} strings, {time.process_time() - cpu0:.0f} CPU s, {len(failures)} failures", flush=True)
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    print(f"iri_grammar fuzz: seed {args.seed}, {done:,} strings, {calls:,} API calls, "
          f"{cpu:.1f} CPU s ({wall:.1f} s wall), Python {sys.version.split()[0]}")
    print("valid: " + ", ".join(f"{k} {v:,}" for k, v in valid.items()))
    print(f"failures: {len(failures)}")
    for s, why in failures[:20]:
        print(f"  {s[:200]}: {why}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
