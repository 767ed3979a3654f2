#!/usr/bin/env bash
# Installs each artifact of `release/build.sh` in a clean place, the way its users
# install it, and runs it:
#
#   the binaries  copied alone into an empty folder: iri --version, a check, a
#                 parse; iri-sql a query
#   the wheel     `pip install` into a fresh venv, then run with a PATH that holds
#                 the venv alone: no cargo, no rustc (the wheel needs no compiler)
#   the sdist     `pip wheel` of it builds (this one needs the toolchain)
#   the tarball   `npm install` into an empty folder, offline
#   the crates    `cargo install` of iri-cli from its unpacked .crate, with the
#                 other crates of the release (unpacked too) standing in for
#                 crates.io; then that iri runs
#
#   bash release/smoke.sh [DIR]        # DIR: dist/ by default
#
# IRI_RELEASE_SKIP skips parts as for build.sh (crates, python, js, binaries);
# IRI_SMOKE_TARGET_DIR is where the sdist and `cargo install` build (default: a
# fresh folder; CI gives its warm target/, whose registry crates they then reuse).
# Exits nonzero at the first failure.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="$(realpath "${1:-$root/dist}")"
skip=" ${IRI_RELEASE_SKIP:-} "
wants() { [[ "$skip" != *" $1 "* ]]; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)

(cd "$dist" && sha256sum --quiet -c SHA256SUMS)
echo "smoke.sh: the checksums hold" >&2

one() {
    local found=("$dist"/$1)
    [ -e "${found[0]}" ] || { echo "smoke.sh: no $1 in $dist" >&2; exit 1; }
    [ "${#found[@]}" -eq 1 ] || { echo "smoke.sh: more than one $1 in $dist" >&2; exit 1; }
    echo "${found[0]}"
}

if wants binaries; then
    mkdir "$tmp/bin"
    cp "$(one 'iri-[0-9]*')" "$tmp/bin/iri"
    cp "$(one 'iri-sql-[0-9]*')" "$tmp/bin/iri-sql"
    (
        cd "$tmp/bin"
        ./iri --version | grep -q '^iri '
        [ "$(./iri check 'http://résumé.example/')" = valid ]
        if ./iri check --grammar uri 'http://résumé.example/' >/dev/null; then exit 1; fi
        ./iri --json parse 'http://u@a:8/p?q#f' | grep -q '"port":"8"'
        printf 'http://a/b\nhttp://a b/\n' >list.txt
        [ "$(./iri-sql --format csv "SELECT count(*) AS n FROM 'list.txt' WHERE iri_is_valid(iri)")" = "$(printf 'n\n1')" ]
    )
    echo "smoke.sh: the binaries run alone" >&2
fi

if wants python; then
    python3 -m venv "$tmp/venv"
    "$tmp/venv/bin/python" -m pip install --quiet "$(one 'iri_grammar-*.whl')"
    # Only the venv on PATH: no cargo, no rustc to be found.
    PATH="$tmp/venv/bin" "$tmp/venv/bin/python" - <<'PY'
import shutil
assert shutil.which("cargo") is None and shutil.which("rustc") is None, "a toolchain is reachable"
import iri_grammar
assert iri_grammar.is_valid("http://résumé.example/")
assert not iri_grammar.is_valid("http://résumé.example/", grammar="uri")
print("smoke.sh: the wheel works with no Rust toolchain on PATH")
PY
    python3 -m venv "$tmp/sdist"
    CARGO_TARGET_DIR="${IRI_SMOKE_TARGET_DIR:-$tmp/target}" \
        "$tmp/sdist/bin/python" -m pip wheel --quiet --no-deps --wheel-dir "$tmp/sdist-wheel" \
        "$(one 'iri_grammar-*.tar.gz')"
    echo "smoke.sh: the sdist builds a wheel" >&2
fi

if wants js; then
    mkdir "$tmp/app"
    (
        cd "$tmp/app"
        npm init -y >/dev/null
        npm install --offline --no-audit --no-fund "$(one 'iri-grammar-*.tgz')" >/dev/null
        node --input-type=module -e "
import assert from 'node:assert/strict';
import { isValid, parse } from 'iri-grammar';
import addIriFormats from 'iri-grammar/ajv';
assert.equal(isValid('http://résumé.example/'), true);
assert.equal(parse('http://a:8/').port, '8');
const formats = {};
addIriFormats({ formats: {}, addFormat(name, f) { formats[name] = f; } });
assert.equal(formats.uri.validate('http://é/'), false);
"
    )
    echo "smoke.sh: the npm tarball installs offline and works" >&2
fi

if wants crates; then
    mkdir "$tmp/crates"
    patches=()
    for crate in "$dist"/*.crate; do
        tar -xzf "$crate" -C "$tmp/crates"
        name="$(basename "$crate" .crate)"
        name="${name%-*}"
        patches+=(--config "patch.crates-io.$name.path=\"$tmp/crates/$(basename "$crate" .crate)\"")
    done
    cli="$(basename "$(one 'iri-cli-*.crate')" .crate)"
    # The debug profile: this checks the package, not the optimizer. The lock file
    # packaged with iri-cli pins its dependencies.
    CARGO_TARGET_DIR="${IRI_SMOKE_TARGET_DIR:-$tmp/target}" cargo install --quiet --debug --locked "${patches[@]}" \
        --path "$tmp/crates/$cli" --root "$tmp/cargo-root"
    [ "$("$tmp/cargo-root/bin/iri" check 'http://a/b')" = valid ]
    echo "smoke.sh: iri-cli installs from its .crate (the release's crates for crates.io)" >&2
fi

echo "smoke.sh: done in $(( $(date +%s) - start )) s" >&2
