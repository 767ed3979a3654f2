"""Format checks for the ``jsonschema`` package: ``iri``, ``iri-reference``, ``uri``
and ``uri-reference`` by the ABNF of RFC 3987 and RFC 3986 (JSON Schema 2020-12
Validation §7.3.5), without GPL code: jsonschema's ``format-nongpl`` extra has no
``iri`` check at all, and its ``format`` extra uses a regex that accepts a trailing
newline.

>>> from jsonschema import Draft202012Validator
>>> from iri_grammar.jsonschema import FORMAT_CHECKER
>>> v = Draft202012Validator({"format": "iri"}, format_checker=FORMAT_CHECKER)
>>> v.is_valid("http://ƒøø.ßår/?∂éœ=πîx#πîüx")
True
>>> v.is_valid("http://ƒøø.ßår/\\n")
False

``extend`` adds the four checks to a checker of your own (replacing any checks of
those names it had).

``jsonschema`` is an optional dependency: ``pip install iri-grammar[jsonschema]``.
"""

from __future__ import annotations

from typing import Callable

import jsonschema

from . import check
from ._errors import IriError

__all__ = ["FORMATS", "FORMAT_CHECKER", "extend"]

#: Each format with the rule and grammar that decide it.
FORMATS = {
    "iri": ("IRI", "iri"),
    "iri-reference": ("IRI-reference", "iri"),
    "uri": ("URI", "uri"),
    "uri-reference": ("URI-reference", "uri"),
}


def _checker(rule: str, grammar: str) -> Callable[[object], bool]:
    def check_format(instance: object) -> bool:
        # A format applies to strings only (JSON Schema Validation §7.1).
        if isinstance(instance, str):
            check(instance, rule, grammar)
        return True

    return check_format


def extend(checker: jsonschema.FormatChecker) -> jsonschema.FormatChecker:
    """Adds (or replaces) the checks of ``iri``, ``iri-reference``, ``uri`` and
    ``uri-reference`` in ``checker`` and returns it. A failing check raises
    :class:`~iri_grammar.IriError`, whose message jsonschema shows as the cause.
    """
    for name, (rule, grammar) in FORMATS.items():
        checker.checks(name, raises=IriError)(_checker(rule, grammar))
    return checker


#: A ``jsonschema.FormatChecker`` with every check jsonschema has plus these four.
FORMAT_CHECKER = extend(jsonschema.FormatChecker())
