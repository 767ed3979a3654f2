"""Typed use of the public API, checked by ``mypy --strict`` in test_typing.py (the
stubs in iri_grammar/_iri_grammar.pyi). Importing it runs nothing but definitions."""

from __future__ import annotations

from typing import TYPE_CHECKING, List, Optional, Tuple, Union

import iri_grammar as g
from iri_grammar import rfc3987

if TYPE_CHECKING:
    from typing_extensions import assert_type


def validation(strings: List[str]) -> None:
    assert_type(g.is_valid("http://a/"), bool)
    assert_type(g.is_valid("1.2.3.4", "IPv4address", grammar="uri"), bool)
    assert_type(g.check("http://a/", rule=None, grammar="iri"), None)
    assert_type(g.is_valid_many(strings), List[bool])
    assert_type(g.is_valid_many(iter(strings), "IRI", "iri"), List[bool])
    assert_type(g.rules("uri"), List[str])
    assert_type(g.generate("IRI", 3, seed=1, grammar="iri", invalid=True), List[str])
    parsed = g.parse_many(strings, grammar="uri")
    for p in parsed:
        if p is not None:
            assert_type(p.path, str)


def errors() -> None:
    try:
        g.check("a b")
    except g.IriError as e:
        assert_type(e.offset, int)
        assert_type(e.found, Optional[str])
        assert_type(e.rule, Optional[str])
        assert_type(e.expected, List[str])
        assert_type(e.explain(), str)


def references() -> None:
    r = g.IriRef("http://user@résumé.example:8080/a/b?q=1#f")
    assert_type(r.scheme, Optional[str])
    assert_type(r.path, str)
    assert_type(r.port_number, Optional[int])
    assert_type(r.path_segments, List[str])
    assert_type(r.query_pairs(decode=True), List[Tuple[str, Optional[str]]])
    assert_type(r.join("../c"), g.IriRef)
    assert_type(r.resolve(g.AbsoluteIri("http://a/")), g.IriRef)
    assert_type(g.AbsoluteIri("http://a/").relativize("http://a/b"), g.IriRef)
    assert_type(r.to_uri(idna=True), g.UriRef)
    assert_type(g.UriRef("x:y").to_iri(), g.IriRef)
    assert_type(r.normalize("scheme", nfc=True), g.IriRef)
    assert_type(r.compare(r, level="syntax"), Optional[bool])
    assert_type(g.IriRef.build(scheme="https", host="a", port=443), g.IriRef)
    assert_type(g.AbsoluteIri.build(scheme="a", path="b"), g.AbsoluteIri)
    assert_type(g.LeiriRef("a b").without_fragment(), g.LeiriRef)
    assert_type(g.prepare(" a "), g.IriRef)
    assert_type(str(r), str)
    assert_type(r == r, bool)
    assert_type(sorted([r, r]), List[g.IriRef])
    for finding in r.lint():
        assert_type(finding["offset"], int)
        assert_type(finding["character"], Optional[str])


def trees() -> int:
    tree = g.parse_tree("http://a/", "IRI")
    assert_type(tree, g.ParseTree)
    assert_type(tree["children"], List[g.ParseTree])
    return sum(child["end"] - child["start"] for child in tree["children"])


def drop_in() -> None:
    m = rfc3987.match("http://a/", "IRI")
    if m:
        assert_type(m.group(), str)
    assert_type(rfc3987.parse("http://a/"), dict[str, Optional[str]])
    assert_type(rfc3987.resolve("http://a/", "b"), Union[str, dict[str, Optional[str]]])
    assert_type(rfc3987.compose(scheme="http", path="/"), str)
