"""Reference objects: components, identity, resolution, conversion, normalization."""

import copy
import pickle

import pytest

import iri_grammar as g


def test_components():
    r = g.IriRef("http://user@résumé.example:8080/a/b%20c?q=1&x#top")
    assert r.scheme == "http"
    assert r.authority == "user@résumé.example:8080"
    assert r.userinfo == "user"
    assert r.host == "résumé.example"
    assert r.host_kind == "reg-name"
    assert r.port == "8080" and r.port_number == 8080
    assert r.path == "/a/b%20c"
    assert r.path_segments == ["a", "b%20c"]
    assert r.query == "q=1&x"
    assert r.fragment == "top"
    assert r.is_absolute


def test_absent_is_none_empty_is_empty():
    r = g.IriRef("../g")
    assert (r.scheme, r.authority, r.host, r.port, r.query, r.fragment) == (None,) * 6
    assert r.path == "../g" and not r.is_absolute
    e = g.IriRef("http://:?#")
    assert (e.host, e.port, e.port_number, e.query, e.fragment) == ("", "", None, "", "")
    assert g.IriRef("http://[::1]/").host_kind == "ipv6"
    assert g.IriRef("http://1.2.3.4/").host_kind == "ipv4"
    assert g.IriRef("http://[v1.x]/").host_kind == "ipvfuture"


def test_port_out_of_range():
    r = g.IriRef("http://a:99999/")
    assert r.port == "99999"
    with pytest.raises(ValueError):
        r.port_number


def test_invalid_raises():
    with pytest.raises(g.IriError) as info:
        g.IriRef("http://a/b c")
    assert info.value.offset == 10
    with pytest.raises(g.IriError):
        g.UriRef("http://é/")
    assert str(g.LeiriRef("http://a/b c")) == "http://a/b c"
    with pytest.raises(g.IriError) as info:
        g.AbsoluteIri("../g")
    assert info.value.start_rule == "IRI"


def test_str_eq_hash_pickle():
    a, b = g.IriRef("http://a/"), g.IriRef("http://a/")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a != g.IriRef("HTTP://a/")  # exact strings: comparison is compare()
    assert str(a) == "http://a/" and repr(a) == "IriRef('http://a/')"
    for r in (a, g.UriRef("x:y"), g.LeiriRef("a b"), g.AbsoluteIri("x:y")):
        again = pickle.loads(pickle.dumps(r))
        assert again == r and type(again) is type(r)
        assert copy.deepcopy(r) == r
    assert sorted([g.IriRef("b"), g.IriRef("a")]) == [g.IriRef("a"), g.IriRef("b")]


RFC3986_5_4 = {
    "g:h": "g:h",
    "g": "http://a/b/c/g",
    "./g": "http://a/b/c/g",
    "g/": "http://a/b/c/g/",
    "/g": "http://a/g",
    "//g": "http://g",
    "?y": "http://a/b/c/d;p?y",
    "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s",
    "": "http://a/b/c/d;p?q",
    "../..": "http://a/",
    "../../../g": "http://a/g",
    "/./g": "http://a/g",
    "g;x=1/../y": "http://a/b/c/y",
}


@pytest.mark.parametrize("ref, target", sorted(RFC3986_5_4.items()))
def test_resolve_rfc3986_examples(ref, target):
    base = g.AbsoluteIri("http://a/b/c/d;p?q")
    assert str(base.join(ref)) == target
    assert isinstance(base.join(ref), g.AbsoluteIri)
    assert str(g.IriRef(ref).resolve("http://a/b/c/d;p?q")) == target
    assert str(g.IriRef(ref).resolve(base)) == target


def test_resolve_needs_absolute_base():
    with pytest.raises(ValueError):
        g.IriRef("g").resolve("../base")


def test_relativize():
    base = "http://a/b/c/d;p?q"
    assert str(g.IriRef("http://a/b/c/g").relativize(base)) == "g"
    assert str(g.AbsoluteIri("http://a/x").relativize(base)) == "/x"
    assert isinstance(g.AbsoluteIri("http://a/x").relativize(base), g.IriRef)


def test_conversions():
    r = g.IriRef("http://résumé.example/ros\u00e9?q=ü")
    u = r.to_uri()
    assert isinstance(u, g.UriRef)
    assert str(u) == "http://r%C3%A9sum%C3%A9.example/ros%C3%A9?q=%C3%BC"
    assert str(r.to_uri(idna=True)).startswith("http://xn--rsum-bpad.example/")
    back = g.UriRef("http://xn--99zt52a.example.org/D%C3%BCrst").to_iri(idna=True)
    assert isinstance(back, g.IriRef) and str(back) == "http://納豆.example.org/Dürst"
    assert str(g.LeiriRef("http://a/b c").to_iri()) == "http://a/b%20c"


def test_normalize_and_compare():
    r = g.IriRef("eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9")
    assert str(r.normalize()) == "example://a/b/c/%7Bfoo%7D/rosé"
    a, b = g.IriRef("http://example.com"), g.IriRef("http://example.com:80/")
    assert str(b.normalize("scheme")) == "http://example.com/"
    assert a.compare(b, level="scheme") is True
    assert a.compare(b, level="syntax") is False
    assert a.compare("http://example.com", level="simple") is True
    assert g.IriRef("g").compare("g") is None  # relative: unknown
    assert str(g.IriRef("http://a/\u212b").normalize(nfc=True)) == "http://a/\u00c5"
    with pytest.raises(ValueError):
        r.normalize("fancy")


def test_lint():
    findings = g.IriRef("http://a/\u202eb").lint()
    assert findings and all(
        set(f) == {"code", "severity", "message", "section", "offset", "component", "character"}
        for f in findings
    )
    assert any("RFC 3987" in f["section"] for f in findings)
    assert g.IriRef("http://example.org/").lint() == []


def test_query_pairs_and_without_fragment():
    r = g.IriRef("http://a/?q=r%C3%A9sum%C3%A9&flag&&x=1=2#f")
    assert r.query_pairs() == [("q", "r%C3%A9sum%C3%A9"), ("flag", None), ("x", "1=2")]
    assert r.query_pairs(decode=True)[0] == ("q", "résumé")
    assert str(r.without_fragment()) == "http://a/?q=r%C3%A9sum%C3%A9&flag&&x=1=2"
    assert g.IriRef("a").query_pairs() == []


def test_build():
    r = g.IriRef.build(scheme="https", host="résumé.example", port=8443, path="/a/b", query="q=1", fragment="top")
    assert str(r) == "https://résumé.example:8443/a/b?q=1#top"
    assert str(g.IriRef.build(scheme="http", host="a", path="/a b", encode=True)) == "http://a/a%20b"
    assert str(g.UriRef.build(scheme="http", host="a", path="/é", encode=True)) == "http://a/%C3%A9"
    assert str(g.IriRef.build(path="g")) == "g"
    with pytest.raises(g.IriError, match="path"):
        g.IriRef.build(scheme="http", host="a", path="/a b")
    with pytest.raises(g.IriError):
        g.AbsoluteIri.build(path="g")
    with pytest.raises(TypeError):
        g.IriRef.build("http")


def test_equality_order_and_hash_are_the_exact_strings():
    s = "http://a/b"
    assert g.IriRef(s) == s and s == g.IriRef(s)
    assert hash(g.IriRef(s)) == hash(s)
    assert g.IriRef(s) == g.UriRef(s) == g.LeiriRef(s) == g.AbsoluteIri(s)
    assert hash(g.UriRef(s)) == hash(g.AbsoluteIri(s)) == hash(s)
    assert len({g.IriRef(s), s, g.UriRef(s)}) == 1
    assert {s: 1}[g.IriRef(s)] == 1
    # Exact strings: equivalence is compare().
    assert g.IriRef(s) != "HTTP://a/b" and g.IriRef(s) != g.IriRef("http://a/%62")
    assert g.IriRef(s).compare("HTTP://a/b")
    assert g.IriRef(s) != 1 and not (g.IriRef(s) == None)  # noqa: E711
    assert sorted([g.IriRef("b"), g.IriRef("a")]) == ["a", "b"]
    assert g.IriRef("a") < "b" and "a" < g.IriRef("b")
    with pytest.raises(TypeError):
        g.IriRef("a") < 1


def test_join_takes_self_as_the_base_and_relativize_its_argument():
    # As pathlib: base / x (joinpath) and target.relative_to(base); so the two undo
    # each other: base.join(t.relativize(base)) == t.
    base = g.IriRef("http://a/b/c/d;p?q")
    t = g.IriRef("http://a/b/x/y?z")
    rel = t.relativize(base)
    assert str(rel) == "../x/y?z"
    assert base.join(rel) == t
    assert t.relativize(base).resolve(base) == t
