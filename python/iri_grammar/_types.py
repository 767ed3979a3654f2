"""The shapes of the dicts that ``parse_tree`` and ``lint`` return, for type checkers
(they are plain dicts at run time)."""

from __future__ import annotations

from typing import List, Optional, TypedDict

__all__ = ["LintFinding", "ParseTree"]


class ParseTree(TypedDict):
    """A node of :func:`iri_grammar.parse_tree`: the rule it matched, its text, and
    where it starts and ends (character offsets into the input)."""

    rule: str
    text: str
    start: int
    end: int
    children: List[ParseTree]


class LintFinding(TypedDict):
    """A finding of :meth:`iri_grammar.IriRef.lint` (a prose rule of RFC 3987)."""

    code: str
    severity: str
    message: str
    section: str
    offset: int
    component: str
    character: Optional[str]
