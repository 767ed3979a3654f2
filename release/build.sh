#!/usr/bin/env bash
# Builds every artifact a user installs into one folder, with their SHA-256 sums:
#
#   the crates       iri-grammar-contract, iri-grammar, iri-grammar-abnf,
#                    iri-grammar-coverage, iri-grammar-teach, iri-grammar-conform,
#                    iri-cli, iri-grammar-datafusion (`cargo package`, each with
#                    the packaged versions of the ones before it)
#   Python           the abi3 wheel for this platform and the sdist (maturin)
#   JavaScript       the npm tarball, the WebAssembly modules inside (js/build.sh)
#   the binaries     iri and iri-sql for this host, stripped
#   SHA256SUMS       `sha256sum -c SHA256SUMS` checks them
#
#   bash release/build.sh               # into dist/
#   bash release/build.sh DIR
#
# Then `bash release/smoke.sh [DIR]` installs each in a clean place and runs it.
#
# Environment:
#   IRI_RELEASE_PROFILE   release (the default: what is published), or dev, which
#                         CI uses to check the packaging in the time it has: the
#                         binaries in the dev profile (the wheel is always built for
#                         release: CI runs the Python tests on it), and the crates
#                         without cargo's verification (which builds each from its
#                         package, DataFusion's from scratch: 9 minutes here, which
#                         CI does not have; release/smoke.sh builds iri-cli from
#                         the packages instead)
#   IRI_RELEASE_SQL_FEATURES  features of iri-sql's crate (e.g. `ballista`, as CI
#                         has it built already)
#   IRI_RELEASE_SKIP      words among crates, python, js, binaries: parts not built
#   IRI_RELEASE_ALLOW_DIRTY   package the crates from a tree with uncommitted changes
#
# What it needs: cargo; python3 with venv (maturin comes from PyPI into a venv of
# its own); node and npm, and what js/build.sh needs for WebAssembly; strip and
# sha256sum (binutils, coreutils). The crates need the crates.io index (cargo
# resolves their dependencies and checks their names against it); nothing is
# uploaded.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dist="$(realpath -m "${1:-$root/dist}")"
profile="${IRI_RELEASE_PROFILE:-release}"
skip=" ${IRI_RELEASE_SKIP:-} "
target_dir="${CARGO_TARGET_DIR:-$root/target}"
case "$profile" in
    release) out_dir=release; verify=() ;;
    dev) out_dir=debug; verify=(--no-verify) ;;
    *) echo "build.sh: IRI_RELEASE_PROFILE is release or dev, not $profile" >&2; exit 2 ;;
esac
wants() { [[ "$skip" != *" $1 "* ]]; }

rm -rf "$dist"
mkdir -p "$dist"
start=$(date +%s)
# The library's version, which every crate of the release shares (the first
# `version =` of the root manifest is its [package]'s).
version="$(awk -F'"' '/^version = / { print $2; exit }' "$root/Cargo.toml")"
host="$(rustc -vV | awk '/^host:/ { print $2 }')"

# The publishable crates, in the order of the dependency graph (the rest of the
# workspace says `publish = false`). `cargo publish --dry-run` packages them
# together, each verified against the packages of the ones before it, not their
# sources, checks them against the registry, and stops short of uploading; then
# `cargo package` writes the same packages where they can be copied from (seconds).
crates=(iri-grammar-contract iri-grammar iri-grammar-abnf iri-grammar-coverage
    iri-grammar-teach iri-grammar-conform iri-cli iri-grammar-datafusion)
if wants crates; then
    echo "build.sh: the crates" >&2
    args=()
    for c in "${crates[@]}"; do args+=(-p "$c"); done
    cargo publish --dry-run --manifest-path "$root/Cargo.toml" --locked "${verify[@]}" \
        ${IRI_RELEASE_ALLOW_DIRTY:+--allow-dirty} "${args[@]}"
    cargo package --quiet --manifest-path "$root/Cargo.toml" --locked --no-verify \
        ${IRI_RELEASE_ALLOW_DIRTY:+--allow-dirty} "${args[@]}"
    for c in "${crates[@]}"; do
        cp "$target_dir/package/$c-$version.crate" "$dist/"
    done
fi

if wants python; then
    echo "build.sh: the Python wheel and sdist" >&2
    venv="$(mktemp -d)"
    trap 'rm -rf "$venv"' EXIT
    python3 -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet "maturin>=1.9,<2"
    # maturin names the wheel's platform tag from this machine's glibc and checks
    # the module's symbols against it (manylinux), as auditwheel would.
    "$venv/bin/maturin" build --release --manifest-path "$root/python/Cargo.toml" --out "$dist"
    "$venv/bin/maturin" sdist --manifest-path "$root/python/Cargo.toml" --out "$dist"
fi

if wants js; then
    echo "build.sh: the npm tarball" >&2
    bash "$root/js/build.sh"
    (cd "$root/js" && npm pack --silent --pack-destination "$dist" >/dev/null)
fi

if wants binaries; then
    echo "build.sh: the binaries ($profile profile)" >&2
    cargo build --manifest-path "$root/Cargo.toml" --locked --profile "$profile" -p iri-cli
    cargo build --manifest-path "$root/Cargo.toml" --locked --profile "$profile" \
        -p iri-grammar-datafusion ${IRI_RELEASE_SQL_FEATURES:+--features "$IRI_RELEASE_SQL_FEATURES"}
    for bin in iri iri-sql; do
        strip -o "$dist/$bin-$version-$host" "$target_dir/$out_dir/$bin"
    done
fi

(cd "$dist" && sha256sum -- * >SHA256SUMS)
echo "build.sh: $dist, in $(( $(date +%s) - start )) s:" >&2
(cd "$dist" && ls -l -- * | awk '{ printf "  %10d  %s\n", $5, $9 }') >&2
