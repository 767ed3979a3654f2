"""Records the answers of the `rfc3987` package (GPL-3.0; not in this repository)
that tests/test_rfc3987.py compares the drop-in with. Run it where rfc3987 is
installed (the bench venv, bench/README.md, has it), from the repository root:

    python/bench/.venv/bin/python python/bench/record_rfc3987.py > python/tests/data/rfc3987.json
"""

import json
from importlib.metadata import version

import rfc3987

STRINGS = [
    "http://user@résumé.example:8080/a/b?q=1#f",
    "http://a/b/c/d;p?q",
    "HTTP://EXAMPLE.org",
    "urn:isbn:0451450523",
    "mailto:a@b.c",
    "../g",
    "//g/x",
    "?y",
    "#s",
    "",
    "a b",
    "http://a/ b",
    "http://ƒøø.ßår/\n",
    "http://example.org/\n",
    "http://a/\r\n",
    "http://[::1]:80/",
    "http://[::1",
    "http://1.2.3.4/",
    "http://a:99999/",
    "http://%zz/",
    "http://a/%",
    "\\\\WINDOWS\\fileshare",
    "bar,baz:foo",
    "http://a/\ue000",
    "http://a/?\ue000",
    "http://a/\ufffd",
    "x:\u00a0",
    "a:b:c",
    "1a:b",
    "http://a/\x00",
    "http:g",
    "g;x=1/../y",
]
RULES = [
    "IRI_reference", "IRI", "absolute_IRI", "irelative_ref", "irelative_part",
    "URI_reference", "URI", "absolute_URI", "relative_ref", "relative_part",
]
MATCH_RULES = RULES + ["ihost", "host", "IPv6address", "IPv4address", "scheme", "port", "ipath", "path", "iquery", "ucschar", "iprivate", "pct_encoded"]
MATCH_STRINGS = STRINGS + ["1.2.3.4", "::1", "2001:db8::1\n", "80", "é", "\ue000", "%41", "x\n"]


def parse_or_error(s, rule):
    try:
        return rfc3987.parse(s, rule=rule)
    except ValueError:
        return "ValueError"


def resolve_or_error(base, ref, strict):
    try:
        return rfc3987.resolve(base, ref, strict=strict)
    except ValueError:
        return "ValueError"


BASES = ["http://a/b/c/d;p?q", "http://a/b/c/d;p?q\n", "a/b", "http://a", "foo:a/b"]
REFS = ["g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "", ".", "..",
        "../g", "../..", "../../g", "../../../g", "/./g", "g.", ".g", "g;x=1/../y",
        "http:g", "a b", "g\n", "//x/../y"]
COMPOSE = [
    {"scheme": "http", "authority": "a", "path": "/b", "query": "q", "fragment": "f"},
    {"path": "g", "query": ""},
    {"scheme": "x"},
    {"scheme": "http", "authority": "", "path": ""},
    {"path": "", "fragment": ""},
]

print(json.dumps({
    "version": version("rfc3987"),
    "match": {r: {s: rfc3987.match(s, r) is not None for s in MATCH_STRINGS} for r in MATCH_RULES},
    "match_span": {s: list(m.span()) for s in STRINGS if (m := rfc3987.match(s)) is not None},
    "parse": {r: {s: parse_or_error(s, r) for s in STRINGS} for r in RULES},
    "parse_none": {s: rfc3987.parse(s, rule=None) for s in STRINGS},
    "resolve": [[b, r, strict, resolve_or_error(b, r, strict)] for b in BASES for r in REFS for strict in (True, False)],
    "resolve_parts": [[b, r, rfc3987.resolve(b, r, return_parts=True)] for b in BASES[:1] for r in REFS[:12]],
    "compose": [[c, rfc3987.compose(**c)] for c in COMPOSE],
}, ensure_ascii=False, indent=1))
