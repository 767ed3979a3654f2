"""The validation API, errors, and bad input."""

import pickle
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import iri_grammar as g


def test_done_when():
    assert g.is_valid("http://résumé.example/") is True


@pytest.mark.parametrize(
    "s, rule, grammar, ok",
    [
        ("http://résumé.example/", None, "iri", True),
        ("http://résumé.example/", None, "uri", False),
        ("http://r%C3%A9sum%C3%A9.example/", None, "uri", True),
        ("http://a/ b", None, "iri", False),
        ("http://a/ b", None, "leiri", True),
        ("http://ƒøø.ßår/\n", None, "iri", False),
        ("http://ƒøø.ßår/", "IRI", "iri", True),
        ("../g", "IRI", "iri", False),
        ("../g", "irelative-ref", "iri", True),
        ("../g", "irelative_ref", "iri", True),
        ("../g", "IRELATIVE-REF", "iri", True),
        ("2001:db8::1", "IPv6address", "uri", True),
        ("256", "dec-octet", "uri", False),
        ("/a/b", "path-abempty", "uri", True),
        ("http://a/b;p?[x]", "IRI-reference", "iri-2001", True),
        ("http://a/b;p?[x]", None, "iri", False),
        ("", None, "iri", True),
    ],
)
def test_is_valid(s, rule, grammar, ok):
    assert g.is_valid(s, rule, grammar) is ok
    if ok:
        assert g.check(s, rule, grammar) is None
    else:
        with pytest.raises(g.IriError):
            g.check(s, rule, grammar)


def test_unknown_rule_and_grammar():
    with pytest.raises(ValueError, match="no rule"):
        g.is_valid("a", "ipath-abempty", "uri")
    with pytest.raises(ValueError, match="unknown grammar"):
        g.is_valid("a", grammar="url")
    assert "path-abempty" in g.rules("uri")
    assert "ipath-abempty" in g.rules("iri")


def test_error_fields():
    with pytest.raises(g.IriError) as info:
        g.check("http://納豆.example/a b")
    e = info.value
    assert isinstance(e, ValueError)
    assert e.offset == 19
    assert "http://納豆.example/a b"[e.offset] == " "
    assert e.byte_offset == len("http://納豆.example/a".encode())
    assert e.found == " " and e.rule == "isegment"
    assert e.start_rule == "IRI-reference" and e.grammar == "iri"
    assert any("ipchar" in x for x in e.expected)
    assert str(e) == "invalid IRI-reference: unexpected U+0020 SPACE at char 19, in isegment"
    long = e.explain()
    assert long.startswith(str(e)) and long.rstrip().endswith("^")
    # the caret is under the failure: 2 spaces of indent, wide characters take 2 columns
    caret_line = long.splitlines()[-1]
    assert caret_line.index("^") == 2 + 19 + 2
    again = pickle.loads(pickle.dumps(e))
    assert (again.offset, again.found, str(again)) == (e.offset, e.found, str(e))


def test_an_error_made_by_hand_explains_without_its_long_form():
    e = g.IriError(
        "invalid IRI: unexpected end of input at char 0",
        input="", offset=0, byte_offset=0, rule=None, start_rule="IRI",
        grammar="iri", expected=["scheme"], found=None,
    )
    assert e.explain() == f"{e}\n\n"
    assert pickle.loads(pickle.dumps(e)).explain() == e.explain()


def test_an_error_pickled_before_it_is_explained_explains_alike():
    # The long form is written when first asked: a pickle writes it then.
    with pytest.raises(g.IriError) as info:
        g.check("http://a/b c", "IRI")
    again = pickle.loads(pickle.dumps(info.value))
    assert again.explain() == info.value.explain()
    assert again.explain().splitlines()[-1].endswith("^")


def test_an_error_caught_unread_is_not_worked_out_and_reads_as_one_made_whole():
    # Raised without its fields, which are worked out when first read: a program
    # that catches the error to sort strings pays for no explanation.
    def caught(s):
        try:
            g.check(s)
        except g.IriError as e:
            return e
        raise AssertionError(s)

    e = caught("http://a/b c")
    assert e._fields is None
    assert e.input == "http://a/b c" and e._fields is None
    assert e.args == (str(e),) and repr(e) == f"IriError({str(e)!r})"
    whole = g.IriError(
        e.message, input=e.input, offset=e.offset, byte_offset=e.byte_offset,
        rule=e.rule, start_rule=e.start_rule, grammar=e.grammar,
        expected=e.expected, found=e.found,
    )
    assert (whole.args, str(whole), repr(whole)) == (e.args, str(e), repr(e))
    # Its fields and arguments may be set, as those of any exception.
    e.offset = 3
    e.args = ("changed",)
    assert (e.offset, str(e), e.args) == (3, "changed", ("changed",))
    assert caught("http://a/b c").offset == 10


def test_error_at_end():
    with pytest.raises(g.IriError) as info:
        g.check("http://[::1", "IRI")
    assert info.value.found is None
    assert info.value.offset == len("http://[::1")


def test_offsets_are_python_indexes_outside_the_bmp():
    s = "http://a/😀😀 x"
    with pytest.raises(g.IriError) as info:
        g.check(s)
    assert s[info.value.offset] == " "
    assert info.value.byte_offset == len(s[: info.value.offset].encode())


def test_surrogates():
    for s in ["\ud800", "http://a/\udfff", "http://a/b\ud800c", "\udc80" * 3]:
        assert g.is_valid(s) is False
        assert g.is_valid(s, grammar="leiri") is False
        with pytest.raises(g.IriError) as info:
            g.check(s)
        e = info.value
        assert s[e.offset] == e.found
        assert 0xD800 <= ord(e.found) <= 0xDFFF
        assert "lone surrogate" in str(e)
        assert e.input == s
    assert g.is_valid_many(["a", "\ud800", "b"]) == [True, False, True]
    # The caret line shows a surrogate as U+FFFD, one column, the caret under it;
    # a U+FFFF of the input (no rule allows it either) is shown as it is.
    for s, at in [("a\u00ad\ud800", 2), ("http://a/\ud800\uffff", 9), ("\uffff\ud800\uffff", 0)]:
        with pytest.raises(g.IriError) as info:
            g.check(s, "iquery")
        e = info.value
        line, caret = e.explain().splitlines()[-2:]
        assert line == "  " + s.replace("\u00ad", "⟨U+00AD⟩").replace("\ud800", "\ufffd")
        assert e.offset == at and caret == " " * (len(line) - len(s) + at) + "^", (line, caret)
    assert g.parse_many(["\ud800"]) == [None]
    with pytest.raises(ValueError, match="surrogate"):
        g.prepare("http://a/\ud800")


def _cpu_seconds(f, s, repeat=3):
    """The least CPU time of `repeat` calls of f(s), each expected to raise."""
    import time

    best = None
    for _ in range(repeat):
        start = time.process_time()
        with pytest.raises(ValueError):
            f(s)
        took = time.process_time() - start
        best = took if best is None else min(best, took)
    return best


@pytest.mark.parametrize(
    "what, f",
    [
        ("check", g.check),
        ("IriRef", g.IriRef),
        ("AbsoluteIri", g.AbsoluteIri),
        ("parse_tree", g.parse_tree),
        ("join", g.IriRef("http://a/").join),
    ],
)
def test_lone_surrogates_cost_linear_time_on_every_error_path(what, f):
    # Each error maps the stand-ins of the surrogates back in its caret line: once
    # a lookup over every surrogate for each U+FFFF of the text, n^2 (300,000
    # surrogates: 168 s). CPU time of n and 8n surrogates: 8 times as much when
    # linear, 64 when quadratic; the fixed cost of an error only lowers the ratio.
    n = 5_000
    small = _cpu_seconds(f, "\ud800" * n)
    large = _cpu_seconds(f, "\ud800" * (8 * n))
    assert large <= 24 * max(small, 1e-4), (what, small, large)


def test_nul_and_controls():
    assert not g.is_valid("http://a/\x00")
    with pytest.raises(g.IriError) as info:
        g.check("http://a/\x00b")
    assert info.value.offset == 9 and info.value.found == "\x00"


def test_megabyte_strings():
    big = "http://a/" + "a" * 2_000_000
    assert g.is_valid(big)
    bad = big + " "
    assert not g.is_valid(bad)
    with pytest.raises(g.IriError) as info:
        g.check(bad)
    assert info.value.offset == len(big)


@pytest.mark.parametrize("value", [b"http://a/", bytearray(b"x"), memoryview(b"x")])
def test_bytes_say_decode(value):
    with pytest.raises(TypeError, match="decode"):
        g.is_valid(value)
    with pytest.raises(TypeError, match="decode"):
        g.check(value)
    with pytest.raises(TypeError, match="decode"):
        g.IriRef(value)
    with pytest.raises(TypeError, match="decode"):
        g.is_valid_many([value])


@pytest.mark.parametrize("value", [None, 1, 1.5, object()])
def test_other_types(value):
    with pytest.raises(TypeError):
        g.is_valid(value)


def test_str_subclass():
    class S(str):
        pass

    assert g.is_valid(S("http://a/"))


def test_batch():
    strings = ["http://a/", "a b", "", "http://résumé.example/", "\n"]
    assert g.is_valid_many(strings) == [g.is_valid(s) for s in strings]
    assert g.is_valid_many(iter(strings), grammar="uri") == [
        g.is_valid(s, grammar="uri") for s in strings
    ]
    assert g.is_valid_many(["1.2.3.4"], "IPv4address", "uri") == [True]
    assert g.is_valid_many(tuple(strings)) == g.is_valid_many(strings)
    assert g.is_valid_many(s for s in strings) == g.is_valid_many(strings)
    assert g.is_valid_many([]) == [] and g.parse_many(()) == []
    assert g.parse_many(tuple(strings)) == g.parse_many(strings)
    with pytest.raises(TypeError, match="expected str, got int"):
        g.is_valid_many(("a", 1))
    with pytest.raises(TypeError):
        g.is_valid_many(1)
    parsed = g.parse_many(strings)
    assert [p is not None for p in parsed] == g.is_valid_many(strings)
    assert isinstance(parsed[0], g.IriRef)
    assert isinstance(g.parse_many(["a"], grammar="uri")[0], g.UriRef)
    assert isinstance(g.parse_many(["a b"], grammar="leiri")[0], g.LeiriRef)


def test_batch_releases_the_gil():
    # A batch runs in a thread while this one keeps running Python: were the GIL
    # held for the whole batch, this thread would stall for as long as it runs.
    import threading
    import time

    strings = ["http://example.org/" + "a" * 2_000_000] * 400
    took = []

    def batch():
        start = time.perf_counter()
        g.is_valid_many(strings)
        took.append(time.perf_counter() - start)

    t = threading.Thread(target=batch)
    t.start()
    last, longest = time.perf_counter(), 0.0
    while t.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    t.join()
    assert took[0] > 0.02, "the batch is too short to tell"
    assert longest < took[0] / 2


def test_parse_tree():
    tree = g.parse_tree("http://é/", "IRI")
    assert tree["rule"] == "IRI" and tree["start"] == 0 and tree["end"] == 9
    host = tree["children"][1]["children"][0]["children"][0]
    assert host["rule"] == "ihost" and host["text"] == "é"
    assert (host["start"], host["end"]) == (7, 8)
    with pytest.raises(g.IriError):
        g.parse_tree("a b")


def test_parse_tree_is_bounded():
    # A megabyte of "/" is a million nodes, 750 MB of dicts: refused before any
    # dict is made, with where the bound was passed; the bound is the caller's to
    # move.
    with pytest.raises(
        ValueError, match=r"has more than max_nodes=100000 nodes \(the bound was passed at char 100001;"
    ):
        g.parse_tree("http://a" + "/" * 1_000_000)
    small = "http://a" + "/" * 10
    nodes = 0
    stack = [g.parse_tree(small)]
    while stack:
        node = stack.pop()
        nodes += 1
        stack.extend(node["children"])
    assert g.parse_tree(small, max_nodes=nodes)["end"] == len(small)
    with pytest.raises(ValueError, match=f"has more than max_nodes={nodes - 1} nodes"):
        g.parse_tree(small, max_nodes=nodes - 1)
    # An input that does not match is an IriError whatever the bound.
    with pytest.raises(g.IriError):
        g.parse_tree("/" * 1000 + " ", max_nodes=10)
    assert g.parse_tree(small, max_nodes=None)["end"] == len(small)
    with pytest.raises(ValueError, match="max_nodes must be an int from 0"):
        g.parse_tree(small, max_nodes=-1)
    with pytest.raises(TypeError, match="max_nodes: expected int, got str"):
        g.parse_tree(small, max_nodes="10")


def test_parse_tree_bound_holds_while_the_tree_is_built():
    # 30 million "/" are 30 million nodes, 600 MB for the library alone: under a
    # 512 MiB address-space limit, max_nodes=10 must be refused by counting, not
    # after building them (which aborted the process).
    import subprocess
    import textwrap

    code = textwrap.dedent(
        """
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))
        import iri_grammar as g
        try:
            g.parse_tree("/" * 30_000_000, max_nodes=10)
        except ValueError as e:
            print(e)
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert "more than max_nodes=10 nodes" in done.stdout


def test_prepare():
    assert str(g.prepare("  http://a/b c  ")) == "http://a/b%20c"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.characters(codec=None, min_codepoint=0, max_codepoint=0x10FFFF)))
def test_any_str_answers(s):
    ok = g.is_valid(s)
    assert ok in (True, False)
    try:
        g.check(s)
        assert ok
    except g.IriError as e:
        assert not ok
        assert 0 <= e.offset <= len(s)
        assert e.found == (s[e.offset] if e.offset < len(s) else None)
        if e.offset < len(s):
            assert e.byte_offset == len(s[: e.offset].encode("utf-8", "surrogatepass"))
    for grammar in ("uri", "leiri", "iri-2001"):
        assert g.is_valid(s, grammar=grammar) in (True, False)
    r = g.parse_many([s])[0]
    assert (r is not None) == ok
    if r is not None:
        assert str(r) == s


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab:/?#[]@%2F.é \ud800\x00-_~!$&'()*+,;=1")))
def test_near_iris_answer(s):
    for text in (s, "http://" + s, "a:" + s):
        ok = g.is_valid(text)
        try:
            g.check(text)
        except g.IriError:
            assert not ok
        else:
            assert ok
