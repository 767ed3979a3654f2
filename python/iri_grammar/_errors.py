"""The exception raised where a string does not match a rule."""

from __future__ import annotations

from typing import Any, Dict, Generic, List, Optional, Tuple, TypeVar, overload

__all__ = ["IriError"]

# `BaseException.args`, which `IriError.args` reads and writes where it is set.
_ARGS: Any = BaseException.__dict__["args"]

T = TypeVar("T")


class _Field(Generic[T]):
    """A field of an `IriError`, read and written in its fields (`IriError._all`)."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc
        self.name = ""

    def __set_name__(self, owner: Any, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: Any = None) -> "_Field[T]": ...

    @overload
    def __get__(self, obj: "IriError", owner: Any = None) -> T: ...

    def __get__(self, obj: "Optional[IriError]", owner: Any = None) -> "T | _Field[T]":
        if obj is None:
            return self
        value: T = obj._all()[self.name]
        return value

    def __set__(self, obj: "IriError", value: T) -> None:
        obj._all()[self.name] = value


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

    # The fields: given to `__init__`, or read from the record of an error the
    # extension raised when first asked for. The extension makes its errors
    # without `__init__`, with `args` (input, record): most are caught and
    # dropped without being read, and working out their fields and long form is
    # most of their cost.
    _fields: Optional[Dict[str, Any]] = None
    # The record, once the fields are read from it; its type (`_register`).
    _lazy: Any = None
    _Record: Any = None
    # The long form's parts: given, or written by `_lazy` when first asked.
    _explanation: Optional[str] = None
    _caret: Optional[str] = None

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
    ) -> None:
        super().__init__(message)
        self._fields = {
            "input": input,
            "message": message,
            "offset": offset,
            "byte_offset": byte_offset,
            "rule": rule,
            "start_rule": start_rule,
            "grammar": grammar,
            "expected": expected,
            "found": found,
        }
        self._explanation = explanation
        self._caret = caret

    def _unread(self) -> Optional[Tuple[str, Any]]:
        """`(input, record)`, where the extension raised this error and its fields
        are not yet read."""
        if self._fields is not None:
            return None
        args = _ARGS.__get__(self)
        if len(args) == 2 and type(args[1]) is self._Record:
            return args  # type: ignore[no-any-return]
        return None

    def _all(self) -> Dict[str, Any]:
        fields = self._fields
        if fields is None:
            unread = self._unread()
            if unread is None:
                raise TypeError("an IriError made without its fields")
            input, self._lazy = unread
            fields = self._lazy.fields()
            fields["input"] = input
            # The message is the argument, as `__init__` makes it.
            _ARGS.__set__(self, (fields["message"],))
            self._fields = fields
        return fields

    @property
    def input(self) -> str:
        """The string that does not match."""
        unread = self._unread()
        if unread is not None:
            return unread[0]
        value: str = self._all()["input"]
        return value

    @input.setter
    def input(self, value: str) -> None:
        self._all()["input"] = value

    message: _Field[str] = _Field("The one-line message, ``str(e)``.")
    offset: _Field[int] = _Field("Where the longest match stopped, in characters (as Python indexes str).")
    byte_offset: _Field[int] = _Field("The same place in the string's UTF-8 encoding.")
    rule: _Field[Optional[str]] = _Field("The innermost rule being matched there (None: outside any rule).")
    start_rule: _Field[str] = _Field("The rule the whole string was matched against.")
    grammar: _Field[str] = _Field("The grammar: 'uri', 'iri', 'leiri' or 'iri-2001'.")
    expected: _Field[List[str]] = _Field("What would have done there (rule names, literals, ranges).")
    found: _Field[Optional[str]] = _Field("The character found there; None at the end of the string.")

    # Until its fields are read, an error the extension raised has the input and
    # its record for `args`: they read as the message, as `__init__` makes them.
    @property  # type: ignore[override]
    def args(self) -> Tuple[Any, ...]:
        if self._unread() is not None:
            return (self.message,)
        args: Tuple[Any, ...] = _ARGS.__get__(self)
        return args

    @args.setter
    def args(self, value: Tuple[Any, ...]) -> None:
        if self._unread() is not None:
            self._all()
        _ARGS.__set__(self, value)

    def __str__(self) -> str:
        if self._unread() is not None:
            return self.message
        return ValueError.__str__(self)

    def __repr__(self) -> str:
        if self._unread() is not None:
            return f"{type(self).__name__}({self.message!r})"
        return ValueError.__repr__(self)

    def _parts(self) -> "tuple[str, str]":
        self._all()
        if self._lazy is not None:
            if self._explanation is None:
                self._explanation = self._lazy.explanation()
            if self._caret is None:
                self._caret = self._lazy.caret()
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
