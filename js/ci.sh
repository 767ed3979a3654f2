#!/usr/bin/env bash
# CI of the npm package (js/): builds the WebAssembly module with the one build
# script (js/build.sh, which under CI=true as root installs Debian's rustc-web and
# rust-web-src where rustup has no wasm32 standard library), installs the pinned
# devDependencies from the registry (`npm ci`, package-lock.json), runs the tests
# (`npm test`: node --test test/), then packs the package and installs the
# tarball into an empty folder with no network, where a smoke test imports it
# (test/pack.sh). Exits nonzero on any failure.
#
#   bash js/ci.sh
#
# IRI_BIN, the `iri` command of this checkout (.ci/run passes the one its `cargo
# test` built), is what test/cli.test.js compares every answer with; without it
# the test looks for target/debug/iri and target/release/iri, and is skipped
# (saying so) when there is none.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
start=$(date +%s)

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ]; then
        # Debian's nodejs (18 in bookworm) has no npm of its own: the npm package
        # brings it.
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null
    else
        echo "ci.sh: node and npm are needed (Debian: apt-get install nodejs npm)" >&2
        exit 1
    fi
fi
node_major="$(node -p 'process.versions.node.split(".")[0]')"
if [ "$node_major" -lt 18 ]; then
    echo "ci.sh: node $(node --version) is older than the package's 18" >&2
    exit 1
fi

if [ -n "${IRI_BIN:-}" ]; then
    IRI_BIN="$(realpath "$IRI_BIN")"
    [ -x "$IRI_BIN" ] || { echo "ci.sh: IRI_BIN=$IRI_BIN is not an executable" >&2; exit 1; }
    export IRI_BIN
fi

bash "$here/build.sh"
echo "ci.sh: module built after $(( $(date +%s) - start )) s" >&2

cd "$here"
npm ci --no-audit --no-fund
npm test
bash test/pack.sh
echo "ci.sh: done in $(( $(date +%s) - start )) s" >&2
