#!/usr/bin/env bash
# Builds the WebAssembly modules: js/engine (a cdylib) twice for the npm package,
# which ships both: its core, js/iri_grammar.wasm, and the full engine,
# js/iri_grammar_full.wasm (the glue loads it when a call needs it); and js/page,
# the teaching page's back end for the static playground (iri book --playground),
# copied to js/iri_grammar_page.wasm. All for wasm32-unknown-unknown in the `wasm`
# profile (Cargo.toml). One script for contributors and CI.
#
#   bash js/build.sh                 # IRI_JS_INSTALL=1 to let it apt-get what it needs
#
# Two routes, the first that works:
# 1. rustup's: `rustup target add wasm32-unknown-unknown` done, the prebuilt
#    standard library for the target is there: a plain `cargo build --target`.
# 2. Debian's, where rustup cannot download the target: the `rustc-web` compiler
#    and its `rust-web-src` sources (apt), the standard library built from those
#    sources (`-Zbuild-std`, which needs RUSTC_BOOTSTRAP=1 on a stable compiler;
#    the sources must be those of the compiler that builds them, so both come from
#    Debian), linked by the `rust-lld` of the rustup toolchain (or `rust-lld` /
#    `wasm-ld` on the PATH). Cargo itself is whichever is on the PATH: it only
#    drives rustc. The standard library's own dependencies (compiler_builtins, ...)
#    come from crates.io, as every other crate does.
# The packages are installed only when asked (IRI_JS_INSTALL=1), or under CI=true
# as root; otherwise the script says what to install and stops.
#
# The build has its own target directory (IRI_WASM_TARGET_DIR, default
# target-wasm/ at the root): Debian's compiler is another rustc than the host
# builds', and sharing target/ would rebuild each for the other.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
target=wasm32-unknown-unknown
export CARGO_TARGET_DIR="${IRI_WASM_TARGET_DIR:-$root/target-wasm}"
# The modules, one cargo run each (built together, they would share one set of
# the library's features, and the core would carry the full engine's): the
# package's core (js/engine without its `full` feature: no combinators, no
# explanations, IDNA or NFC tables), its full engine, the page's back end. Each is
# "package|cargo arguments|the artifact|the module written".
modules=(
    "iri-grammar-js|--no-default-features|iri_grammar_js|$here/iri_grammar.wasm"
    "iri-grammar-js||iri_grammar_js|$here/iri_grammar_full.wasm"
    "iri-grammar-page||iri_grammar_page|$here/iri_grammar_page.wasm"
)
args=(build --profile wasm --target "$target" --manifest-path "$root/Cargo.toml")

may_install() {
    [ "${IRI_JS_INSTALL:-}" = 1 ] || { [ "${CI:-}" = true ] && [ "$(id -u)" = 0 ]; }
}

if command -v rustup >/dev/null 2>&1 && rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    echo "build.sh: rustup's $target standard library" >&2
    cargo_wasm() { cargo "${args[@]}" "$@"; }
else
    # Debian's compiler and the sources of its standard library, of one version.
    if [ ! -x /usr/bin/rustc ] || [ ! -f /usr/lib/rustlib/src/rust/library/std/Cargo.toml ]; then
        if may_install; then
            echo "build.sh: installing rustc-web and rust-web-src (apt)" >&2
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq rustc-web rust-web-src >/dev/null
        else
            echo "build.sh: no standard library for $target. Either" >&2
            echo "  rustup target add $target" >&2
            echo "or (Debian 12 and later, no download from rustup needed)" >&2
            echo "  sudo apt-get install rustc-web rust-web-src" >&2
            echo "(or run again with IRI_JS_INSTALL=1 as root to let this script do it)" >&2
            exit 1
        fi
    fi
    version="$(/usr/bin/rustc --version | awk '{print $2}')"
    sources="$(readlink -f /usr/lib/rustlib/src/rust)"
    case "$sources" in
        *"-$version") ;;
        *) echo "build.sh: /usr/bin/rustc is $version but /usr/lib/rustlib/src/rust is $sources:" \
                "the standard library must be built by its own compiler (apt-get install" \
                "rustc-web rust-web-src, same version)" >&2
           exit 1 ;;
    esac
    linker=""
    if command -v rustc >/dev/null 2>&1; then
        candidate="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
        [ -x "$candidate" ] && linker="$candidate"
    fi
    [ -n "$linker" ] || linker="$(command -v rust-lld || command -v wasm-ld || true)"
    if [ -z "$linker" ]; then
        echo "build.sh: no WebAssembly linker: rust-lld (the rustup toolchain has it) or wasm-ld (apt-get install lld)" >&2
        exit 1
    fi
    echo "build.sh: Debian's rustc $version, the standard library built from $sources, linked by $linker" >&2
    # The standard library is built here, so it can be built to abort at once on a
    # panic (-Cpanic=immediate-abort, unstable): no message is formatted, so the
    # formatting machinery and the panic locations leave the module (a panic is a
    # trap either way; the glue starts a fresh instance, the page a fresh worker).
    # rustup's prebuilt library keeps them.
    cargo_wasm() {
        RUSTFLAGS="${RUSTFLAGS:-} -Zunstable-options -Cpanic=immediate-abort" \
        RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
            CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$linker" \
            cargo "${args[@]}" "$@" -Zbuild-std=std,panic_abort
    }
fi

# Binaryen's wasm-opt shrinks what rustc and the linker leave (-Oz: 14% of the
# package's module, 17% of the page's), as wasm-pack does. Debian's `binaryen`
# (apt), installed as the compiler is; without it the modules are built all the
# same, larger, and the script says so. The features are those rustc enables for
# wasm32-unknown-unknown: wasm-opt must neither refuse them nor add others.
if ! command -v wasm-opt >/dev/null 2>&1 && may_install && command -v apt-get >/dev/null 2>&1; then
    echo "build.sh: installing binaryen (apt) for wasm-opt" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binaryen >/dev/null
fi
shrink() {
    if command -v wasm-opt >/dev/null 2>&1; then
        wasm-opt -Oz --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
            --enable-nontrapping-float-to-int --enable-reference-types --enable-multivalue \
            "$1" -o "$2"
    else
        cp "$1" "$2"
    fi
}
if ! command -v wasm-opt >/dev/null 2>&1; then
    echo "build.sh: no wasm-opt: the modules are left as the linker wrote them, about" \
         "15% larger (apt-get install binaryen, or IRI_JS_INSTALL=1 as root)" >&2
fi
for module in "${modules[@]}"; do
    IFS='|' read -r crate features artifact written <<<"$module"
    # shellcheck disable=SC2086 # no features, or one word
    cargo_wasm -p "$crate" $features
    shrink "$CARGO_TARGET_DIR/$target/wasm/$artifact.wasm" "$written"
    echo "build.sh: $written: $(wc -c <"$written") bytes, $(gzip -9 -c "$written" | wc -c) gzipped" >&2
done
