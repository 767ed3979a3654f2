"""The exception raised where a string does not match a rule."""

from __future__ import annotations

from typing import Any, Dict, List, Optional

__all__ = ["IriError"]


class IriError(ValueError):
    """A string does not match a rule of the grammar.

    ``str(e)`` is the one-line message; :meth:`explain` adds what each rule
    expected there and the input with a caret under the failure.

    >>> import iri_grammar
    >>> try:
    ...     iri_grammar.check("http://example.org/a b")
    ... except iri_grammar.IriError as e:
    ...     print(e)
    ...     print((e.offset, e.found, e.rule))
    invalid IRI-reference: unexpected U+0020 SPACE at char 20, in isegment
    (20, ' ', 'isegment')
    """

    def __init__(
        self,
        message: str,
        *,
        input: str,
        offset: int,
        byte_offset: int,
        rule: Optional[str],
        start_rule: str,
        grammar: str,
        expected: List[str],
        found: Optional[str],
        explanation: Optional[str] = None,
        caret: Optional[str] = None,
        explained: Any = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        #: The string that does not match.
        self.input = input
        #: Where the longest match stopped, in characters (as Python indexes str).
        self.offset = offset
        #: The same place in the string's UTF-8 encoding.
        self.byte_offset = byte_offset
        #: The innermost rule being matched there (None: outside any rule).
        self.rule = rule
        #: The rule the whole string was matched against.
        self.start_rule = start_rule
        #: The grammar: 'uri', 'iri', 'leiri' or 'iri-2001'.
        self.grammar = grammar
        #: What would have done there (rule names, literals, ranges).
        self.expected = expected
        #: The character found there; None at the end of the string.
        self.found = found
        # The long form's parts: given, or written by `explained` (the extension's)
        # when first asked, as most errors are caught without being explained.
        self._explanation = explanation
        self._caret = caret
        self._explained = explained

    def _parts(self) -> "tuple[str, str]":
        if self._explained is not None:
            if self._explanation is None:
                self._explanation = self._explained.explanation()
            if self._caret is None:
                self._caret = self._explained.caret()
            self._explained = None
        # An error made by hand may give neither.
        return self._explanation or "", self._caret or ""

    def explain(self) -> str:
        """The long form: the message, what each rule expected, and a caret.

        >>> import iri_grammar
        >>> try:
        ...     iri_grammar.check("http://a/b c", "IRI")
        ... except iri_grammar.IriError as e:
        ...     print(e.explain().splitlines()[-1])
                    ^
        """
        explanation, caret = self._parts()
        return f"{self.message}\n{explanation}\n{caret}"

    def __reduce__(self) -> Any:
        explanation, caret = self._parts()
        return (
            _rebuild,
            (
                self.message,
                {
                    "input": self.input,
                    "offset": self.offset,
                    "byte_offset": self.byte_offset,
                    "rule": self.rule,
                    "start_rule": self.start_rule,
                    "grammar": self.grammar,
                    "expected": self.expected,
                    "found": self.found,
                    "explanation": explanation,
                    "caret": caret,
                },
            ),
        )


def _rebuild(message: str, fields: Dict[str, Any]) -> IriError:
    return IriError(message, **fields)
