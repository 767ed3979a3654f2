"""The rfc3987 drop-in against the recorded answers of the rfc3987 package
(tests/data/rfc3987.json, recorded by bench/record_rfc3987.py): the same
everywhere but at the differences listed in README.md, which are checked here."""

import json
from pathlib import Path

import pytest

import iri_grammar as g
from iri_grammar import rfc3987

DATA = json.loads((Path(__file__).parent / "data" / "rfc3987.json").read_text("utf-8"))

# Where rfc3987's regex is wrong, the ABNF's answer (README.md, "Migrating"):
# RFC 3986 §3 (`$` accepting a trailing line break, which is no character of any
# rule), RFC 3987 §2.2 (`iprivate` only in `iquery`).
def _differs(s, rule):
    name, grammar = rfc3987._rule(rule)
    if s.endswith("\n") and not g.is_valid(s, name, grammar):
        return "trailing newline (RFC 3986 §2, §3: no rule has a line break)"
    return None


def _cases(table):
    return [(rule, s, want) for rule, answers in DATA[table].items() for s, want in answers.items()]


@pytest.mark.parametrize("rule, s, want", _cases("match"))
def test_match(rule, s, want):
    got = rfc3987.match(s, rule)
    if want and _differs(s, rule):
        assert got is None
        return
    assert (got is not None) == want, (rule, s)
    if got:
        assert got.group() == s and got.span() == (0, len(s))


@pytest.mark.parametrize("rule, s, want", _cases("parse"))
def test_parse(rule, s, want):
    if want != "ValueError" and _differs(s, rule):
        with pytest.raises(ValueError):
            rfc3987.parse(s, rule)
        return
    if want == "ValueError":
        with pytest.raises(ValueError):
            rfc3987.parse(s, rule)
    else:
        assert rfc3987.parse(s, rule) == want
        assert rfc3987.match(s, rule).groupdict() == want


@pytest.mark.parametrize("s, want", sorted(DATA["parse_none"].items()))
def test_parse_without_validation(s, want):
    assert rfc3987.parse(s, rule=None) == want


@pytest.mark.parametrize("base, ref, strict, want", DATA["resolve"])
def test_resolve(base, ref, strict, want):
    if (base.endswith("\n") or ref.endswith("\n")) and want != "ValueError":
        with pytest.raises(ValueError):
            rfc3987.resolve(base, ref, strict=strict)
        return
    if want == "ValueError":
        with pytest.raises(ValueError):
            rfc3987.resolve(base, ref, strict=strict)
    else:
        assert rfc3987.resolve(base, ref, strict=strict) == want


@pytest.mark.parametrize("base, ref, want", DATA["resolve_parts"])
def test_resolve_parts(base, ref, want):
    assert rfc3987.resolve(base, ref, return_parts=True) == want


@pytest.mark.parametrize("parts, want", DATA["compose"])
def test_compose(parts, want):
    assert rfc3987.compose(**parts) == want


def test_compose_i_names():
    # rfc3987 ignores them (it returns 'http:'); RFC 3987 §2.2 names them.
    assert rfc3987.compose(scheme="http", iauthority="é", ipath="/p") == "http://é/p"


def test_the_trailing_newline():
    assert DATA["match"]["IRI_reference"]["http://ƒøø.ßår/\n"] is True
    assert rfc3987.match("http://ƒøø.ßår/\n") is None
    assert rfc3987.match("http://ƒøø.ßår/")


def test_unknown_rule():
    with pytest.raises(ValueError):
        rfc3987.match("a", "no_such_rule")
    with pytest.raises(ValueError):
        rfc3987.parse("a", "ihost")
