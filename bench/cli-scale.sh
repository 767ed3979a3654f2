#!/usr/bin/env bash
# How the `iri` command scales with `--jobs` (issue 40): best-of wall-clock time of
# a few commands over a big file of lines, for --jobs 1, 2, 4, ... up to the cores
# of the machine, beside `wc -l` (the floor: reading the file), printed as a
# markdown table with the machine, the commit and the load it ran under.
#
#   bench/cli-scale.sh                          # target/release/iri
#   bench/cli-scale.sh OLD/iri target/release/iri   # builds side by side, one run
#
# Environment:
#   INPUT   a file of lines (default: the URL lists of ../shared/corpus/urls/,
#           repeated into a temporary file of at least MB megabytes, removed after)
#   CORPUS  where the lists are (default ../shared/corpus/urls, beside the checkout)
#   MB      the size of that file (default 100)
#   RUNS    runs per cell, the best kept (default 3)
#   JOBS    the --jobs values (default: 1 2 4 ... and the number of cores)
#
# Beside each command's --jobs N, the same command run as N processes at once, each
# on its own Nth of the input: what this machine gives N independent workers, the
# ceiling of --jobs N here (the last column is --jobs N's speed-up over theirs; 1.00
# is the ceiling reached). Needs `split` (coreutils).
#
# Besides the wall clock, each row gives the CPU time (user + sys) of its fastest
# run at --jobs 1 and at the most jobs, per million lines: on a machine shared with
# other work the wall clock of several threads says little, but the CPU time a line
# costs must not grow with --jobs. Needs bash, awk, nproc, and a `time` keyword.
set -euo pipefail
cd "$(dirname "$0")/.."

source bench/iri-builds.sh "$@"
cores=$(nproc)
if [ -n "${JOBS:-}" ]; then
    read -r -a jobs <<<"$JOBS"
else
    jobs=()
    for ((j = 1; j <= cores; j *= 2)); do jobs+=("$j"); done
    if [ "${jobs[-1]}" -ne "$cores" ]; then jobs+=("$cores"); fi
fi
runs=${RUNS:-3}

input=${INPUT:-}
if [ -z "$input" ]; then
    corpus=${CORPUS:-../shared/corpus/urls}
    lists=()
    for l in "$corpus"/*.txt; do
        case $l in *LICENSE*) ;; *) if [ -f "$l" ]; then lists+=("$l"); fi ;; esac
    done
    if [ ${#lists[@]} -eq 0 ]; then
        echo "$0: no lists in $corpus (set CORPUS, or INPUT to a file of lines)" >&2
        exit 2
    fi
    input=$(mktemp /tmp/iri-cli-scale.XXXXXX)
    trap 'rm -f "$input"' EXIT
    want=$((${MB:-100} * 1000 * 1000))
    while [ "$(wc -c <"$input")" -lt "$want" ]; do
        cat "${lists[@]}" >>"$input"
    done
fi
lines=$(wc -l <"$input")
bytes=$(wc -c <"$input")

# best RUN CMD...: RUN (`whole` or `in_parts`) CMD on the input RUNS times; prints the
# best wall clock and the CPU time (user + sys) of that run, in seconds. The exit
# status is not looked at (check exits 1 when an input is invalid).
best() {
    local how=$1 best="" cpu="" t
    shift
    TIMEFORMAT='%R %U %S'
    for ((r = 0; r < runs; r++)); do
        t=$({ time "$how" "$@"; } 2>&1 || true)
        read -r real user sys <<<"$t"
        if [ -z "$best" ] || awk -v a="$real" -v b="$best" 'BEGIN { exit !(a < b) }'; then
            best=$real
            cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.3f", u + s }')
        fi
    done
    echo "$best $cpu"
}
# CMD on the whole input.
whole() { "$@" <"$input" >/dev/null 2>/dev/null; }
# `in_parts`: N processes of CMD at once (N, the most jobs), each on its own Nth of
# the input (whole lines): what the machine gives N independent workers, the
# ceiling of `--jobs N` (on a virtual machine whose cores share a physical one,
# well under N times one). CPU time is the processes' sum.
parts=()
split_input() {
    local n=${jobs[-1]}
    parts_dir=$(mktemp -d /tmp/iri-cli-scale-parts.XXXXXX)
    split -n "l/$n" -d "$input" "$parts_dir/part."
    parts=("$parts_dir"/part.*)
}
in_parts() {
    for p in "${parts[@]}"; do "$@" <"$p" >/dev/null 2>/dev/null & done
    wait
}
split_input
trap 'rm -rf "$parts_dir"; if [ -z "${INPUT:-}" ]; then rm -f "$input"; fi' EXIT

commands=("check --summary" "--json check" "parse" "--json parse" "normalize")

echo "### \`iri --jobs N\`: best of $runs, seconds"
echo
echo "$(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')," \
    "$cores cores ($(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo))," \
    "$lines lines ($bytes bytes); load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
header="| command | binary |"
rule="|---|---|"
for j in "${jobs[@]}"; do
    header+=" $j |"
    rule+="--:|"
done
header+=" jobs 1 ÷ \`wc -l\` | jobs ${jobs[-1]} ÷ jobs 1 (speed-up) | CPU s / M lines, jobs 1 | jobs ${jobs[-1]} |"
header+=" ${jobs[-1]} processes on 1/${jobs[-1]} each | their speed-up | jobs ${jobs[-1]} ÷ theirs |"
rule+="--:|--:|--:|--:|--:|--:|--:|"
echo "$header"
echo "$rule"

read -r floor _ < <(best whole wc -l)
row="| \`wc -l\` (the floor) | | $floor |"
for ((k = 1; k < ${#jobs[@]}; k++)); do row+=" |"; done
echo "$row 1.0 | | | | | | |"

for c in "${commands[@]}"; do
    for b in "${bins[@]}"; do
        row="| \`iri $c\` | \`$b\` |"
        first="" last="" cpu1="" cpun=""
        for j in "${jobs[@]}"; do
            # shellcheck disable=SC2086 # the command's words
            read -r t cpu < <(best whole "$b" $c --jobs "$j")
            row+=" $t |"
            if [ -z "$first" ]; then
                first=$t
                cpu1=$cpu
            fi
            last=$t
            cpun=$cpu
        done
        # shellcheck disable=SC2086 # the command's words
        read -r split _ < <(best in_parts "$b" $c --jobs 1)
        row+=$(awk -v f="$first" -v w="$floor" -v l="$last" -v c1="$cpu1" -v cn="$cpun" -v n="$lines" \
            -v p="$split" \
            'BEGIN { printf " %.1f | %.2f× | %.3f | %.3f | %s | %.2f× | %.2f |", f / w, f / l,
                     c1 / n * 1e6, cn / n * 1e6, p, f / p, (f / l) / (f / p) }')
        echo "$row"
    done
done
echo
echo "Load after: $(cut -d' ' -f1-3 /proc/loadavg)."
