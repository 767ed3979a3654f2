#!/usr/bin/env bash
# CI of the Python package (python/): builds its wheel as a release does (maturin,
# from PyPI into a venv of its own), installs the wheel with the test extras
# (pytest, hypothesis, jsonschema, mypy from the package index) into a fresh venv,
# and runs the tests (python/tests) and the doctests of the installed package with
# a PATH that holds that venv alone: no cargo, no rustc, so the wheel is shown to
# need no compiler (release/smoke.sh checks that the sdist builds). Exits nonzero on
# any failure, and when pytest collects no tests (its exit status 5).
#
#   bash python/ci.sh            # PYTHON=python3.12 bash python/ci.sh for another
#
# IRI_WHEEL, a wheel built already (release/build.sh writes one into dist/), is
# tested instead of building one. A CARGO_TARGET_DIR in the environment is used, so
# that a warm build is reused. IRI_BIN, the `iri` command of this checkout (.ci/run
# passes the one its `cargo test` built), adds the comparison of every corpus
# verdict and error offset with it (tests/test_corpus.py); without it that test is
# skipped.
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

if [ -n "${IRI_WHEEL:-}" ]; then
    wheel="$(realpath "$IRI_WHEEL")"
else
    "$python" -m venv "$tmp/build"
    "$tmp/build/bin/python" -m pip install --quiet "maturin>=1.9,<2"
    "$tmp/build/bin/maturin" build --release --manifest-path "$here/Cargo.toml" --out "$tmp/dist"
    wheel="$(echo "$tmp"/dist/iri_grammar-*.whl)"
fi
echo "ci.sh: testing $(basename "$wheel"), $(wc -c <"$wheel") bytes" >&2

"$python" -m venv "$tmp/venv"
"$tmp/venv/bin/python" -m pip install --quiet --upgrade pip
"$tmp/venv/bin/python" -m pip install --quiet "$wheel[test]"

# Outside the source tree, so that `import iri_grammar` is the installed package
# (python/iri_grammar has no extension module); the venv alone on PATH.
cd "$tmp"
status=0
PATH="$tmp/venv/bin" "$tmp/venv/bin/python" -c '
import shutil
assert shutil.which("cargo") is None and shutil.which("rustc") is None, "a Rust toolchain is on PATH"
'
PATH="$tmp/venv/bin" "$tmp/venv/bin/python" -m pytest -c "$here/pyproject.toml" --rootdir "$here" \
    -p no:cacheprovider -q "$here/tests" --pyargs iri_grammar || status=$?
if [ "$status" -eq 5 ]; then
    echo "ci.sh: pytest collected no tests" >&2
    exit 1
fi
[ "$status" -eq 0 ] || exit "$status"
