#!/usr/bin/env bash
# What an invalid input costs beside a valid one (issue 48): `iri check --summary
# --jobs 1` over the same corpus lines all valid, all made invalid (` x` appended:
# the same lines two bytes longer, each explained where it fails, at its end), and
# with every tenth and every second line made invalid; and over near misses of the
# grammar (`iri generate --invalid`, failing anywhere in the string), all of them
# and every second line of the corpus list replaced by one. For each build given, side by
# side: instructions per line (callgrind; they do not move from run to run) and the
# best-of CPU time per line (user + sys, on a shared machine the steadier measure),
# each also as a multiple of the all-valid list's. The targets: an invalid line at
# most 5× a valid one, a list with 10 % invalid lines at most 1.5× the CPU of the
# same list all valid.
#
#   bench/error-cost.sh                              # target/release/iri
#   bench/error-cost.sh OLD/iri target/release/iri   # builds side by side, one run
#   RECORD=1 bench/error-cost.sh ...                 # also bench/record/DATE-COMMIT-errors.md
#
# Environment:
#   CORPUS  the URL lists (default ../shared/corpus/urls, beside the checkout)
#   LINES   lines per list under callgrind (default 20000)
#   COPIES  the lists repeated this many times for the CPU time (default 10)
#   RUNS    timed runs per cell, the best kept (default 3)
# Needs bash, awk, valgrind.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"

source bench/iri-builds.sh "$@"
command -v valgrind >/dev/null || { echo "$0: needs valgrind" >&2; exit 2; }
corpus=${CORPUS:-../shared/corpus/urls}
lines=${LINES:-20000}
copies=${COPIES:-10}
runs=${RUNS:-3}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
lists=()
for l in "$corpus"/*.txt; do
    case $l in *LICENSE*) ;; *) if [ -f "$l" ]; then lists+=("$l"); fi ;; esac
done
if [ ${#lists[@]} -eq 0 ]; then
    echo "$0: no lists in $corpus (set CORPUS)" >&2
    exit 2
fi
# The valid lines only, so that "all valid" is: the first build decides.
cat "${lists[@]}" | "${bins[0]}" check --valid-only --jobs 1 | head -n "$lines" >"$work/valid" || true
n=$(wc -l <"$work/valid")
# Every k-th line made invalid (k = 1: all of them).
make() { awk -v k="$1" '{ print (NR % k == 0) ? $0 " x" : $0 }' "$work/valid" >"$work/$2"; }
make 1 invalid
make 2 half
make 10 tenth
# Near misses of IRI-reference, as many as the valid lines; and every second valid
# line replaced by one.
"${bins[0]}" generate --rule IRI-reference --invalid -n "$n" --seed 1 >"$work/generated"
paste -d '\n' "$work/valid" "$work/generated" | awk 'NR % 4 == 1 || NR % 4 == 0' >"$work/generated-half"
names=(valid tenth half invalid generated-half generated)
declare -A label=([valid]="all valid" [tenth]="10 % invalid" [half]="50 % invalid" [invalid]="all invalid (\` x\` appended)"
    [generated-half]="50 % near misses (\`generate --invalid\`)" [generated]="all near misses (\`generate --invalid\`)")
for l in "${names[@]}"; do
    for ((c = 0; c < copies; c++)); do cat "$work/$l"; done >"$work/$l.big"
done

# Instructions per line of `check --summary --jobs 1` (startup included, over n
# lines). `check` exits 1 when a line is invalid.
ir() {
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$1" check --summary --jobs 1 \
        <"$work/$2" || true; } 2>&1 >/dev/null | awk -v n="$n" '/Collected/ { printf "%.0f", $NF / n }'
}
# The best-of CPU time (user + sys) per line, in ns, over the repeated list.
cpu() {
    local best="" t
    for ((r = 0; r < runs; r++)); do
        t=$( { TIMEFORMAT='%3U %3S'; time "$1" check --summary --jobs 1 <"$work/$2.big" >/dev/null || true; } 2>&1 | tail -n 1 |
            awk -v n="$((n * copies))" '{ printf "%.0f", ($1 + $2) * 1e9 / n }')
        if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
    done
    echo "$best"
}

commit=$(git rev-parse --short=7 HEAD)
table=$work/table
{
    echo "#### errors — what an invalid line costs"
    echo
    echo "\`bench/error-cost.sh\` at \`$commit\` on $(date -u '+%Y-%m-%d %H:%M') UTC, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg): \`iri check --summary --jobs 1\` over $n valid corpus lines, the same lines made invalid, and as many near misses of \`IRI-reference\`; instructions per line by callgrind over the $n, CPU time per line best of $runs over $copies copies."
    echo
    echo "| list | build | instructions / line | × all valid | CPU ns / line | × all valid |"
    echo "|---|---|--:|--:|--:|--:|"
    for b in "${bins[@]}"; do
        # A build by the commit it names (`iri --version`), else by its path.
        build=$("$b" --version | sed -n 's/.*(commit \([0-9a-f]\{7\}\).*/\1/p')
        build=${build:-$b}
        declare -A i=() t=()
        for l in "${names[@]}"; do
            i[$l]=$(ir "$b" "$l")
            t[$l]=$(cpu "$b" "$l")
        done
        for l in "${names[@]}"; do
            awk -v l="${label[$l]}" -v b="$build" -v i="${i[$l]}" -v i0="${i[valid]}" -v t="${t[$l]}" -v t0="${t[valid]}" \
                'BEGIN { printf "| %s | `%s` | %d | %.2f | %d | %.2f |\n", l, b, i, i / i0, t, t / t0 }'
        done
    done
    echo
    echo "Targets (issue 48): all invalid ≤ 5× all valid; 10 % invalid ≤ 1.5× all valid (CPU)."
} >"$table"
cat "$table"
if [ "${RECORD:-0}" = 1 ]; then
    record="bench/record/$(date -u +%Y-%m-%dT%H%M)-$commit-errors.md"
    cp "$table" "$record"
    echo "wrote $record" >&2
fi
