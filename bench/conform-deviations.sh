#!/usr/bin/env bash
# Runs the planted-deviation benchmark of `iri conform` (conform/tests/it/deviations.rs:
# deviations planted one at a time in an exact validator, each run at the default
# budget in several seeds) in release, and keeps its table in
# bench/record/DATE-COMMIT-conform.md, which bench/regenerate.sh pastes into
# BENCHMARKS.md (## Conformance).
#
#   bench/conform-deviations.sh            # 5 seeds (~6 min on 2 cores)
#   IRI_CONFORM_SEEDS=1 bench/conform-deviations.sh
#
# The test fails (and so does this script, after writing the record) when a deviation
# misses the target.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

seeds=${IRI_CONFORM_SEEDS:-5}
commit=$(git rev-parse --short=7 HEAD)
when=$(date -u +%Y-%m-%dT%H%M)
record="bench/record/$when-$commit-conform.md"
table=$(mktemp)
trap 'rm -f "$table"' EXIT

start=$(date +%s)
status=0
IRI_CONFORM_SEEDS=$seeds IRI_CONFORM_TABLE=$table \
    cargo test --release -p iri-grammar-conform --test it -- --ignored deviations || status=$?
took=$(( $(date +%s) - start ))
{
    echo "#### conform — planted deviations"
    echo
    echo "\`bench/conform-deviations.sh\` at \`$commit\` on $(date -u '+%Y-%m-%d %H:%M') UTC: each deviation run through \`iri conform\` at the default budget (5,000 inputs) in seeds 0–$((seeds - 1)), $took s on $(nproc) cores (the release build included)."
    echo
    cat "$table"
} >"$record"
echo "wrote $record"
exit "$status"
