# Sourced by the scripts that measure builds of `iri` side by side (cli-scale.sh,
# error-cost.sh): `source bench/iri-builds.sh "$@"` sets `bins` to the executables
# given, target/release/iri if none, and exits with status 2 where one is not an
# executable.
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
    bins=(target/release/iri)
fi
for b in "${bins[@]}"; do
    if [ ! -x "$b" ]; then
        echo "$0: $b is not an executable (cargo build --release -p iri-cli)" >&2
        exit 2
    fi
done
