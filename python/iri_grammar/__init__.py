"""Exact URI, IRI and LEIRI validation and processing, by the ABNF of the RFCs.

The grammars of RFC 3986 (URI), RFC 3987 (IRI), the W3C LEIRI note and the 2001
IRI draft, made executable by the Rust library ``iri-grammar``: every rule by its
ABNF name, errors that say where and why, and reference objects with their
components, resolution (RFC 3986 §5), conversion (RFC 3987 §3) and normalization
(RFC 3987 §5.3).

>>> import iri_grammar
>>> iri_grammar.is_valid("http://résumé.example/")
True
>>> iri_grammar.is_valid("http://résumé.example/", grammar="uri")
False
>>> iri_grammar.is_valid("http://ƒøø.ßår/\\n")
False
>>> iri_grammar.is_valid("2001:db8::1", "IPv6address")
True
>>> r = iri_grammar.IriRef("http://user@résumé.example:8080/a/b?q=1#f")
>>> (r.scheme, r.userinfo, r.host, r.port_number, r.path, r.query, r.fragment)
('http', 'user', 'résumé.example', 8080, '/a/b', 'q=1', 'f')
>>> str(r.join("../c"))
'http://user@résumé.example:8080/c'
>>> str(r.to_uri())
'http://user@r%C3%A9sum%C3%A9.example:8080/a/b?q=1#f'
>>> iri_grammar.generate("IPv4address", 3, seed=7)
['219.250.1.194', '111.9.211.1', '109.255.189.251']
"""

from __future__ import annotations

from ._errors import IriError
from ._iri_grammar import (
    AbsoluteIri,
    IriRef,
    LeiriRef,
    UriRef,
    _register,
    check,
    generate,
    is_valid,
    is_valid_many,
    parse_many,
    parse_tree,
    prepare,
    rules,
)
from ._types import LintFinding, ParseTree

_register(IriError)

__all__ = [
    "AbsoluteIri",
    "IriError",
    "IriRef",
    "LeiriRef",
    "LintFinding",
    "ParseTree",
    "UriRef",
    "check",
    "generate",
    "is_valid",
    "is_valid_many",
    "parse_many",
    "parse_tree",
    "prepare",
    "rules",
]
