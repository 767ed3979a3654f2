#!/usr/bin/env bash
# CI of the Python package (python/): builds it from this checkout the way a user
# does (`pip install ./python[test]`, maturin as the PEP 517 backend, pip bringing
# maturin, pytest, hypothesis and jsonschema from the package index) in a fresh
# venv in a temporary directory, then runs the tests (python/tests) and the
# doctests of the installed package. Exits nonzero on any failure, and when
# pytest collects no tests (its exit status 5).
#
#   bash python/ci.sh            # PYTHON=python3.12 bash python/ci.sh for another
#
# A CARGO_TARGET_DIR in the environment is used, so that a warm build is reused.
# IRI_BIN, the `iri` command of this checkout (.ci/run passes the one its `cargo
# test` built), adds the comparison of every corpus verdict and error offset with
# it (tests/test_corpus.py); without it that test is skipped.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -n "${IRI_BIN:-}" ]; then
    # The tests run from a temporary directory: a relative path would name nothing.
    IRI_BIN="$(realpath "$IRI_BIN")"
    [ -x "$IRI_BIN" ] || { echo "ci.sh: IRI_BIN=$IRI_BIN is not an executable" >&2; exit 1; }
    export IRI_BIN
fi
python="${PYTHON:-python3}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$python" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --upgrade pip
"$tmp/venv/bin/python" -m pip install --quiet "$here[test]"

# Outside the source tree, so that `import iri_grammar` is the installed package
# (python/iri_grammar has no extension module).
cd "$tmp"
status=0
"$tmp/venv/bin/python" -m pytest -c "$here/pyproject.toml" --rootdir "$here" \
    -p no:cacheprovider -q "$here/tests" --pyargs iri_grammar || status=$?
if [ "$status" -eq 5 ]; then
    echo "ci.sh: pytest collected no tests" >&2
    exit 1
fi
exit "$status"
