"""Agreement of the Python API with the Rust library on the shared corpus
(``../shared/corpus/urls/*.txt`` beside the repository, or ``$IRI_CORPUS/urls``;
never copied into the project), and no crash on any ``str``.

On every line, in the URI and IRI grammars: ``is_valid`` (the compiled automaton),
``check`` (the combinators, raising or not), ``parse_many`` and the reference
class's constructor (``Reference::parse``) give the same verdict, and a parsed
reference gives the line back. With ``IRI_BIN`` naming the ``iri`` command of this
checkout (``cargo build --release -p iri-cli``; ``target/release/iri``), each
verdict and error offset is also compared with what the Rust library says through
it, line by line.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import iri_grammar as g

ROOT = Path(os.environ.get("IRI_CORPUS") or Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus")
URLS = ROOT / "urls"
LISTS = sorted(p for p in URLS.glob("*.txt") if not p.name.startswith("LICENSE")) if URLS.is_dir() else []
CLASSES = {"iri": g.IriRef, "uri": g.UriRef}

needs_corpus = pytest.mark.skipif(
    not LISTS, reason=f"no corpus at {URLS} (../shared/corpus/urls beside the repository, or set IRI_CORPUS)"
)


def lines_of(path: Path) -> list[str]:
    """The lines as the ``iri`` command reads them: a byte order mark opening the
    file left out (RFC 3629 §6), split at LF, a CR before the LF dropped, bytes that
    are not UTF-8 kept as lone surrogates (then invalid, as the command says of a
    line that is not UTF-8)."""
    text = path.read_bytes().decode("utf-8", "surrogateescape").removeprefix("\ufeff")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


@needs_corpus
@pytest.mark.parametrize("grammar", ["iri", "uri"])
@pytest.mark.parametrize("path", LISTS, ids=[p.name for p in LISTS])
def test_api_paths_agree(path, grammar):
    lines = lines_of(path)
    valid = g.is_valid_many(lines, grammar=grammar)
    parsed = g.parse_many(lines, grammar=grammar)
    cls = CLASSES[grammar]
    disagree = []
    for s, v, p in zip(lines, valid, parsed):
        one = g.is_valid(s, grammar=grammar)
        try:
            g.check(s, grammar=grammar)
            checked, offset = True, None
        except g.IriError as e:
            checked, offset = False, e.offset
        try:
            made = cls(s)
        except g.IriError as e:
            made = None
            if e.offset != offset:
                disagree.append((s, "constructor error offset", e.offset, offset))
        if not (one == v == checked == (p is not None) == (made is not None)):
            disagree.append((s, one, v, checked, p, made))
        elif p is not None and not (str(p) == s and p == made and type(p) is cls):
            disagree.append((s, "parsed", p, made))
    assert not disagree, f"{len(disagree)} of {len(lines)} lines disagree, e.g. {disagree[:5]}"


@needs_corpus
@pytest.mark.skipif(not os.environ.get("IRI_BIN"), reason="set IRI_BIN to the iri command of this checkout to compare with it")
@pytest.mark.parametrize("grammar", ["iri", "uri"])
@pytest.mark.parametrize("path", LISTS, ids=[p.name for p in LISTS])
def test_agrees_with_the_iri_command(path, grammar):
    with path.open("rb") as stdin:  # one input per line of standard input
        out = subprocess.run(
            [os.environ["IRI_BIN"], "--grammar", grammar, "--json", "check"],
            stdin=stdin, capture_output=True, check=False,
        )
    assert out.returncode in (0, 1), out.stderr
    records = [json.loads(line) for line in out.stdout.decode("utf-8").splitlines()]
    lines = lines_of(path)
    assert len(records) == len(lines)
    disagree = []
    for s, rec in zip(lines, records):
        try:
            g.check(s, grammar=grammar)
            ok, offset = True, None
        except g.IriError as e:
            ok, offset = False, e.offset
        if ok != rec["valid"]:
            disagree.append((s, ok, rec))
        elif not ok and rec["error"].get("kind") == "grammar" and rec["error"]["char_offset"] != offset:
            disagree.append((s, offset, rec["error"]["char_offset"]))
    assert not disagree, f"{len(disagree)} of {len(lines)} lines disagree, e.g. {disagree[:5]}"


# Any str: mixed ASCII, URI delimiters, non-ASCII, lone surrogates, controls.
ANY_STR = st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF))
NEAR = st.text(alphabet=st.sampled_from("aZ09:/?#[]@%2Fé\u00a0\ud800\udfff\x00\x7f\n -._~!$&'()*+,;=\u202e\ufffd"))


def answers_or_raises(f, *args, **kwargs):
    """Calls f; an answer or ValueError (IriError among them) is fine, anything
    else (TypeError, SystemError, a panic's PanicException) is not."""
    try:
        return f(*args, **kwargs)
    except ValueError:
        return None


@settings(max_examples=400, deadline=None)
@given(st.one_of(ANY_STR, NEAR, NEAR.map(lambda s: "http://" + s)), st.sampled_from(["iri", "uri", "leiri"]))
def test_no_str_crashes_any_public_function(s, grammar):
    cls = {"iri": g.IriRef, "uri": g.UriRef, "leiri": g.LeiriRef}[grammar]
    assert g.is_valid(s, grammar=grammar) in (True, False)
    answers_or_raises(g.check, s, grammar=grammar)
    assert len(g.is_valid_many([s, s], grammar=grammar)) == 2
    assert len(g.parse_many((s,), grammar=grammar)) == 1
    answers_or_raises(g.parse_tree, s, grammar=grammar)
    answers_or_raises(g.prepare, s)
    answers_or_raises(g.AbsoluteIri, s)
    base = cls("http://a/b/c")
    answers_or_raises(base.join, s)
    answers_or_raises(base.compare, s)
    answers_or_raises(base.relativize, s)
    r = answers_or_raises(cls, s)
    if r is not None:
        for f in (r.to_uri, r.to_iri, r.normalize, r.lint, r.query_pairs, r.without_fragment):
            answers_or_raises(f)
        answers_or_raises(r.to_uri, idna=True)
        answers_or_raises(r.normalize, "scheme", nfc="nfkc")
        answers_or_raises(r.resolve, base)
        answers_or_raises(lambda: r.port_number)
        answers_or_raises(cls.build, path=s, encode=True)
