"""The jsonschema format checks, through jsonschema's own validators."""

import pytest

jsonschema = pytest.importorskip("jsonschema")

from iri_grammar.jsonschema import FORMAT_CHECKER, extend  # noqa: E402

# From the JSON Schema Test Suite (draft2020-12/optional/format), and the cases
# where the `rfc3987` regex is wrong.
CASES = {
    "iri": [
        ("http://ƒøø.ßår/?∂éœ=πîx#πîüx", True),
        ("http://➡.ws/䨹", True),
        ("http://[2001:0db8:85a3:0000:0000:8a2e:0370:7334]", True),
        ("http://2001:0db8:85a3:0000:0000:8a2e:0370:7334", False),
        ("/abc", False),
        ("\\\\WINDOWS\\filëßåré", False),
        ("âππ", False),
        ("http://ƒøø.ßår/\n", False),
        ("http://ƒøø.ßår/\r\n", False),
        ("http://a/\ud800", False),
        (12, True),
        (None, True),
    ],
    "iri-reference": [
        ("http://ƒøø.ßår/?∂éœ=πîx#πîüx", True),
        ("//ƒøø.ßår/?∂éœ=πîx#πîüx", True),
        ("/âππ", True),
        ("âππ", True),
        ("#ƒrägmênt", True),
        ("#ƒräg\\mênt", False),
        ("\\\\WINDOWS\\filëßåré", False),
        ("âππ\n", False),
    ],
    "uri": [
        ("http://foo.bar/?baz=qux#quux", True),
        ("ldap://[2001:db8::7]/c=GB?objectClass?one", True),
        ("urn:oasis:names:specification:docbook:dtd:xml:4.1.2", True),
        ("http://ƒøø.ßår/?∂éœ=πîx#πîüx", False),
        ("//foo.bar/?baz=qux#quux", False),
        ("abc", False),
        ("http:// shouldfail.com", False),
        (":// should fail", False),
        ("bar,baz:foo", False),
        ("http://example.org/\n", False),
    ],
    "uri-reference": [
        ("http://foo.bar/?baz=qux#quux", True),
        ("//foo.bar/?baz=qux#quux", True),
        ("/abc", True),
        ("abc", True),
        ("#fragment", True),
        ("\\\\WINDOWS\\fileshare", False),
        ("#frag\\ment", False),
        ("abc\n", False),
    ],
}


@pytest.mark.parametrize(
    "fmt, instance, ok",
    [(f, i, ok) for f, cases in CASES.items() for i, ok in cases],
)
@pytest.mark.parametrize(
    "validator",
    ["Draft202012Validator", "Draft201909Validator", "Draft7Validator"],
)
def test_format(validator, fmt, instance, ok):
    cls = getattr(jsonschema, validator)
    v = cls({"format": fmt}, format_checker=FORMAT_CHECKER)
    assert v.is_valid(instance) is ok
    if not ok:
        (error,) = v.iter_errors(instance)
        assert error.validator == "format"
        assert "invalid" in str(error.cause)


def test_keeps_jsonschema_other_checks():
    v = jsonschema.Draft202012Validator({"format": "ipv4"}, format_checker=FORMAT_CHECKER)
    assert v.is_valid("1.2.3.4") and not v.is_valid("1.2.3.400")
    assert {"iri", "iri-reference", "uri", "uri-reference"} <= set(FORMAT_CHECKER.checkers)


def test_extend_own_checker():
    checker = extend(jsonschema.FormatChecker(formats=()))
    assert set(checker.checkers) == {"iri", "iri-reference", "uri", "uri-reference"}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate("a b", {"format": "iri-reference"}, format_checker=checker)
    jsonschema.validate(
        {"href": "https://例え.jp/"},
        {"properties": {"href": {"format": "iri"}}},
        format_checker=checker,
    )
