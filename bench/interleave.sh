#!/usr/bin/env bash
# Runs `iri-bench time TASK` of several harness binaries in turn, ROUNDS times, the
# order reversed every other round (A B C, C B A, ...), and prints per binary and list
# the median and the range of one column of the task's table (default: its last, a
# ratio), over the rounds.
#
# For comparing builds that a change, or only their placement, tells apart: each
# round is a new process for every binary, so that what the machine does meanwhile
# falls on all of them alike. bench/record/history.md, section "the last two time cells",
# built five binaries from one source with different function alignments:
#
#   for k in 4 5 6 7; do
#     RUSTFLAGS="-C llvm-args=-align-all-functions=$k" \
#       cargo build --profile profiling -p iri-grammar-bench --target-dir target/bench-a$k
#   done
#   bench/interleave.sh tree 8 target/bench-a*/profiling/iri-bench
#   COLUMN=-2 bench/interleave.sh validate-uri 4 target/bench-a*/profiling/iri-bench
#
# COLUMN counts from the end of a table row (-1: the last column, -2: the one
# before). Needs bash, awk and sort.
set -euo pipefail

if [ $# -lt 3 ]; then
    echo "usage: $0 TASK ROUNDS BINARY..." >&2
    exit 2
fi
task=$1
rounds=$2
shift 2
column=${COLUMN:--1}
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT

for ((r = 1; r <= rounds; r++)); do
    if ((r % 2)); then
        order=("$@")
    else
        order=()
        for ((k = $#; k >= 1; k--)); do order+=("${!k}"); done
    fi
    for bin in "${order[@]}"; do
        # The task's table rows: "| list (n) | ... | **ratio** |"; not the header.
        "$bin" time "$task" 2>/dev/null |
            awk -v bin="$bin" -v col="$column" -F'|' '
                /^\| [a-z0-9]/ && !/^\| list/ {
                    name = $2; sub(/^ +/, "", name); sub(/ \(.*/, "", name)
                    v = $(NF + col); gsub(/[ *]/, "", v)
                    print bin "\t" name "\t" v
                }' >>"$rows"
    done
done

# Median and range per binary and list, in the order first seen.
for bin in "$@"; do
    printf '%s\n' "$bin"
    awk -F'\t' -v bin="$bin" '$1 == bin { if (!($2 in seen)) { seen[$2] = 1; order[++n] = $2 } }
        END { for (i = 1; i <= n; i++) print order[i] }' "$rows" |
        while IFS= read -r list; do
            awk -F'\t' -v bin="$bin" -v list="$list" '$1 == bin && $2 == list { print $3 }' "$rows" |
                sort -g |
                awk -v list="$list" '{ v[NR] = $1 }
                    END {
                        m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                        printf "  %-28s %.3f [%s-%s] (%d runs)\n", list, m, v[1], v[NR], NR
                    }'
        done
done
