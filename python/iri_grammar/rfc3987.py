"""A drop-in for the ``rfc3987`` package (GPL-3.0): ``match``, ``parse``,
``resolve`` and ``compose`` with its signatures, rule names (``IRI_reference``,
``absolute_URI``, ``ihost``, ...) and return shapes, answering by the ABNF of
RFC 3987 and RFC 3986 where that package's regular expressions do not: its ``$``
accepts a trailing newline, so ``match('http://example.org/\\n')`` succeeds there
and fails here. ``README.md``, "Migrating from rfc3987", lists each difference.

>>> from iri_grammar import rfc3987
>>> bool(rfc3987.match("http://ƒøø.ßår/"))
True
>>> rfc3987.match("http://ƒøø.ßår/\\n") is None
True
>>> rfc3987.parse("http://a/b?q#f", rule="IRI")
{'scheme': 'http', 'authority': 'a', 'path': '/b', 'query': 'q', 'fragment': 'f'}
>>> rfc3987.resolve("http://a/b/c/d;p?q", "../g")
'http://a/b/g'
>>> rfc3987.compose(scheme="http", authority="a", path="/b")
'http://a/b'
"""

from __future__ import annotations

import re
from typing import Dict, Optional, Tuple, Union

from . import IriError, IriRef, check, is_valid
from . import rules as _rules

__all__ = ["Match", "compose", "match", "parse", "resolve"]

# The rules of RFC 3987 first: names that only RFC 3986 has (`URI`, `path`,
# `host`, ...) are rules of the URI grammar.
_IRI_RULES = {name.lower() for name in _rules("iri")}
_URI_RULES = {name.lower() for name in _rules("uri")}
_CACHE: Dict[str, Tuple[str, str]] = {}

# The rules `parse` splits into components: the references and their parts.
_PARSED = {
    "iri_reference", "iri", "absolute_iri", "irelative_ref", "irelative_part",
    "uri_reference", "uri", "absolute_uri", "relative_ref", "relative_part",
}

# RFC 3986 Appendix B: the components of any string, without validation. DOTALL:
# a line break is a character of the path, query or fragment like any other.
_SPLIT = re.compile(r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.DOTALL)


def _rule(rule: str) -> Tuple[str, str]:
    """The ABNF name and grammar of an rfc3987 rule name."""
    found = _CACHE.get(rule)
    if found is None:
        name = rule.replace("_", "-")
        if name.lower() in _IRI_RULES:
            found = (name, "iri")
        elif name.lower() in _URI_RULES:
            found = (name, "uri")
        else:
            raise ValueError(f"unknown rule {rule!r}")
        _CACHE[rule] = found
    return found


def _split(string: str) -> Dict[str, Optional[str]]:
    m = _SPLIT.match(string)
    assert m is not None  # every group is optional: it matches any string
    scheme, authority, path, query, fragment = m.groups()
    return {"scheme": scheme, "authority": authority, "path": path, "query": query, "fragment": fragment}


class Match:
    """What :func:`match` returns for a string that matches: truthy, with the
    parts of ``re.Match`` that make sense for a whole-string match."""

    __slots__ = ("string", "rule")

    def __init__(self, string: str, rule: str) -> None:
        self.string = string
        self.rule = rule

    def __bool__(self) -> bool:
        return True

    def group(self, index: int = 0) -> str:
        if index != 0:
            raise IndexError("no such group")
        return self.string

    def span(self, index: int = 0) -> Tuple[int, int]:
        return (0, len(self.group(index)))

    def start(self, index: int = 0) -> int:
        return self.span(index)[0]

    def end(self, index: int = 0) -> int:
        return self.span(index)[1]

    def groupdict(self) -> Dict[str, Optional[str]]:
        return _split(self.string) if self.rule.lower() in _PARSED else {}

    def __repr__(self) -> str:
        return f"<iri_grammar.rfc3987.Match rule={self.rule!r} match={self.string!r}>"


def match(string: str, rule: str = "IRI_reference") -> Optional[Match]:
    """A truthy :class:`Match` if all of ``string`` matches ``rule`` (an rfc3987
    rule name: ``IRI_reference``, ``URI``, ``ihost``, ...), else ``None``."""
    name, grammar = _rule(rule)
    return Match(string, rule) if is_valid(string, name, grammar) else None


def parse(string: str, rule: Optional[str] = "IRI_reference") -> Dict[str, Optional[str]]:
    """The components of ``string`` (``scheme``, ``authority``, ``path``, ``query``,
    ``fragment``; ``None`` when absent) after checking that it matches ``rule``
    (``IriError``, a ``ValueError``, if not); with ``rule=None``, split by RFC 3986
    Appendix B without validation. Only the reference rules have components
    (``IRI_reference``, ``IRI``, ``absolute_IRI``, ``irelative_ref``,
    ``irelative_part`` and their URI forms); for others ``ValueError``.
    """
    if rule is None:
        return _split(string)
    if rule.lower() not in _PARSED:
        raise ValueError(rule)
    name, grammar = _rule(rule)
    check(string, name, grammar)
    return _split(string)


def resolve(
    base: str, uriref: str, strict: bool = True, return_parts: bool = False
) -> Union[str, Dict[str, Optional[str]]]:
    """Resolves ``uriref`` against ``base`` (RFC 3986 §5.2): ``base`` must be an
    ``IRI``, ``uriref`` an ``IRI_reference`` (``IriError`` if not). With
    ``strict=False``, a ``uriref`` with the base's scheme is read without it
    (§5.2.2, "for backward compatibility"). ``return_parts`` returns the
    components of the result as :func:`parse` does."""
    check(base, "IRI")
    check(uriref, "IRI-reference")
    reference = IriRef(uriref)
    if not strict and reference.scheme is not None and reference.scheme == IriRef(base).scheme:
        reference = IriRef(uriref[len(reference.scheme) + 1 :])
    result = str(reference.resolve(base))
    return _split(result) if return_parts else result


def compose(
    scheme: Optional[str] = None,
    authority: Optional[str] = None,
    path: Optional[str] = None,
    query: Optional[str] = None,
    fragment: Optional[str] = None,
    iauthority: Optional[str] = None,
    ipath: Optional[str] = None,
    iquery: Optional[str] = None,
    ifragment: Optional[str] = None,
    **kw: object,
) -> str:
    """The reference made of its components (RFC 3986 §5.3); the ``i`` names stand
    in for the plain ones that are ``None``. Other keywords (``host``, ``port``,
    ... as :func:`parse` of other rules might give) are ignored, as in rfc3987."""
    authority = iauthority if authority is None else authority
    path = ipath if path is None else path
    query = iquery if query is None else query
    fragment = ifragment if fragment is None else fragment
    result = ""
    if scheme is not None:
        result += scheme + ":"
    if authority is not None:
        result += "//" + authority
    result += path or ""
    if query is not None:
        result += "?" + query
    if fragment is not None:
        result += "#" + fragment
    return result


# `IriError` is what `parse` and `resolve` raise: a ValueError, as in rfc3987.
assert issubclass(IriError, ValueError)
