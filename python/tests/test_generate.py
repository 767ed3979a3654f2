"""generate(): strings drawn from the grammars for tests, as `iri generate` draws them."""

import threading
import time

import pytest

import iri_grammar as g
from iri_grammar import generate

GRAMMARS = ["iri", "uri", "leiri", "iri-2001"]


def test_deterministic_for_a_seed():
    a = generate("IRI-reference", 50, seed=7)
    assert len(a) == 50 and all(isinstance(s, str) for s in a)
    assert generate("IRI-reference", 50, seed=7) == a
    # A prefix of a longer draw: each string comes from the same stream.
    assert generate("IRI-reference", 10, seed=7) == a[:10]
    assert generate("IRI-reference", 50, seed=8) != a
    # The defaults: ten strings, seed 0.
    assert generate("IRI-reference") == generate("IRI-reference", 10, seed=0)
    assert generate("IRI", 20, seed=3, invalid=True) == generate("IRI", 20, seed=3, invalid=True)
    assert generate("IRI", seed=3, cover=True) == generate("IRI", seed=3, cover=True)


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_every_rule_gives_valid_strings(grammar):
    for rule in g.rules(grammar):
        strings = generate(rule, 100, seed=1, grammar=grammar)
        bad = [s for s in strings if not g.is_valid(s, rule, grammar)]
        assert not bad, (rule, bad[:3])


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_every_rule_gives_near_misses(grammar):
    for rule in g.rules(grammar):
        strings = generate(rule, 20, seed=1, grammar=grammar, invalid=True)
        assert len(strings) == 20
        good = [s for s in strings if g.is_valid(s, rule, grammar)]
        assert not good, (rule, good[:3])


@pytest.mark.parametrize("grammar", GRAMMARS)
def test_cover_sets(grammar):
    import warnings

    refused = []
    for rule in g.rules(grammar):
        with warnings.catch_warnings():
            # ipath's and path's: the first alternative that matches wins.
            warnings.simplefilter("ignore", UserWarning)
            try:
                strings = generate(rule, seed=1, grammar=grammar, cover=True)
            except ValueError as e:
                assert "folds a rule of single characters" in str(e)
                refused.append(rule)
                continue
        assert strings, rule
        assert all(g.is_valid(s, rule, grammar) for s in strings), rule
    # The rules of one character (HEXDIG, ucschar, sub-delims...) are covered by
    # their alternatives, each a string of one character; a rule refused is one
    # of those too.
    one_char = [r for r in ("HEXDIG", "sub-delims", "alphanum") if r in g.rules(grammar)]
    assert one_char
    for rule in one_char:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            strings = generate(rule, seed=1, grammar=grammar, cover=True)
        assert strings and {len(s) for s in strings} == {1}, (rule, strings)
    for rule in refused:
        assert {len(s) for s in generate(rule, 50, grammar=grammar)} == {1}, rule


def test_cover_reaches_every_alternative():
    # IRI-reference = IRI / irelative-ref (RFC 3987 §2.2): both, and every
    # alternative of ihier-part and irelative-part below them.
    strings = generate("IRI-reference", cover=True)
    assert any(g.is_valid(s, "IRI") for s in strings)
    assert any(not g.is_valid(s, "IRI") for s in strings)
    kinds = {g.IriRef(s).host_kind for s in strings}
    assert {"reg-name", "ipv4", "ipv6", "ipvfuture"} <= kinds


def test_cover_says_what_it_cannot_reach():
    # ipath = ipath-abempty / ipath-absolute / ...: ipath-abempty matches the
    # empty string and every absolute path first, so the parse never takes
    # ipath-absolute or ipath-empty.
    with pytest.warns(UserWarning, match="no generated string of ipath reaches .*ipath-empty"):
        strings = generate("ipath", cover=True)
    assert all(g.is_valid(s, "ipath") for s in strings)


def test_cover_invalid_fails_at_each_place():
    strings = generate("IPv4address", cover=True, invalid=True)
    assert strings and not any(g.is_valid(s, "IPv4address") for s in strings)
    places = set()
    for s in strings:
        with pytest.raises(g.IriError) as info:
            g.check(s, "IPv4address")
        places.add((info.value.rule, tuple(info.value.expected)))
    # One string per place: no two fail at the same rule expecting the same.
    assert len(places) == len(strings)


def test_rule_names():
    # The ABNF name in any case, the underscore spelling, each grammar's own name.
    assert generate("ipath_abempty", 5, seed=2) == generate("ipath-abempty", 5, seed=2)
    assert generate("IPV4ADDRESS", 5, seed=2) == generate("IPv4address", 5, seed=2)
    leiri = generate("LEIRI-reference", 20, grammar="leiri")
    assert all(g.is_valid(s, "LEIRI-reference", "leiri") for s in leiri)
    uri = generate("URI", 20, grammar="uri")
    assert all(g.is_valid(s, grammar="uri") and s.isascii() for s in uri)


@pytest.mark.parametrize("rule, grammar", [("no-such-rule", "iri"), ("IRI", "uri"), ("", "iri")])
def test_unknown_rules(rule, grammar):
    with pytest.raises(ValueError, match="no rule"):
        generate(rule, grammar=grammar)


def test_unknown_grammar():
    with pytest.raises(ValueError, match="unknown grammar"):
        generate("IRI", grammar="url")


def test_bounds():
    assert generate("IRI", 0) == []
    assert len(generate("iunreserved", 100_000, seed=1)) == 100_000
    for n in [100_001, -1, 2**64, 10**100]:
        with pytest.raises(ValueError, match="n must be an int from 0 to 100000"):
            generate("IRI", n)
    for seed in [-1, 2**64]:
        with pytest.raises(ValueError, match="seed must be an int from 0 to 18446744073709551615"):
            generate("IRI", 1, seed=seed)
    assert len(generate("IRI", 1, seed=2**64 - 1)) == 1
    for bad in ["3", 1.5, [1]]:
        with pytest.raises(TypeError, match="expected int"):
            generate("IRI", bad)
        with pytest.raises(TypeError, match="expected int"):
            generate("IRI", 1, seed=bad)


def test_lengths_are_bounded():
    # Repetitions are drawn short (abnf generate.rs: 0 to 3 beyond the minimum,
    # sometimes up to 12; bounded ones at most 64 beyond): the longest of 20,000
    # IRI references is a few hundred characters.
    strings = generate("IRI-reference", 20_000, seed=4)
    assert max(map(len, strings)) < 1_000
    # Every count of a bounded repetition is drawn, empty and maximal included.
    h16 = generate("h16", 2_000, seed=4)
    assert {len(s) for s in h16} == {1, 2, 3, 4}


def test_releases_the_gil():
    # As test_api.test_batch_releases_the_gil: a draw runs in a thread while this
    # one keeps running Python; were the GIL held, this thread would stall.
    took = []

    def draw():
        start = time.perf_counter()
        generate("IRI-reference", 100_000, seed=5)
        took.append(time.perf_counter() - start)

    t = threading.Thread(target=draw)
    t.start()
    last, longest = time.perf_counter(), 0.0
    while t.is_alive():
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    t.join()
    assert took[0] > 0.02, "the draw is too short to tell"
    assert longest < took[0] / 2


def test_docstrings_of_the_extension():
    # pytest --doctest-modules reads .py files only: the examples in the docstrings
    # of the extension's functions (src/lib.rs) are run here.
    import doctest

    import iri_grammar._iri_grammar as ext

    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    tests = [t for t in finder.find(ext, "iri_grammar._iri_grammar") if t.examples]
    assert any(t.name.endswith(".generate") for t in tests)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0
