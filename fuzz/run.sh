#!/usr/bin/env bash
# Runs every fuzz target of iri-grammar for SECONDS_PER_TARGET seconds each (default
# 60), one after the other (one core), and prints a summary: CPU time, executions,
# coverage, peak memory and crashes per target. See FUZZING.md.
#
#   fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]
#   fuzz/run.sh 3600                 # the hour-long campaign, every target
#   fuzz/run.sh 120 resolve convert  # two targets
#
# Needs nightly Rust and cargo-fuzz (`cargo install --locked cargo-fuzz`). Seed corpora are
# built at run time from the public test data in ../shared/corpus beside the project
# (urls/*.txt, vectors/*.tsv; set IRI_CORPUS to use another copy) into fuzz/seeds/,
# which git ignores, as is fuzz/corpus/ where libFuzzer keeps what it finds (kept
# between runs, so that a later run starts where the last one stopped). Without the
# corpus the targets start from a few built-in seeds. Crashes go to
# fuzz/artifacts/TARGET/; logs to fuzz/logs/. Exit status 1 if any target crashed.
#
# Environment: CARGO_BUILD_JOBS is respected (the build is the heavy part);
# FUZZ_ARGS adds libFuzzer flags (e.g. FUZZ_ARGS="-jobs=2 -workers=2").
set -euo pipefail
cd "$(dirname "$0")"

seconds=${1:-60}
shift || true
corpus_src=${IRI_CORPUS:-../../shared/corpus}

# Every target, as Cargo.toml lists them (cargo fuzz list).
all_targets=(parse grammar_oracle tree_explain resolve convert normalize lint prepare cli_lines)
if [ $# -gt 0 ]; then
    targets=("$@")
else
    targets=("${all_targets[@]}")
fi

# Seeds: a sample of each URL list (every STEP-th line, about 300 a list), the
# first columns of the vectors, and for the pair targets pairs joined by the byte
# 0xFF (the separator of fuzz/src/lib.rs).
build_seeds() {
    rm -rf seeds
    mkdir -p seeds
    local singles=seeds/_singles pairs=seeds/_pairs
    mkdir -p "$singles" "$pairs"
    # Built-in seeds, so that the targets start somewhere without the corpus.
    local k=0
    for s in 'http://a/b/c/d;p?q' 'HTTP://résumé.Example.org:080/%7euser/./a/../b?q=%C3%A9#f' \
        '//[v7.x]:1/%2E%2E/g' 'a:b' '../../g;x?y#s' 'http://u@[::ffff:1.2.3.4]/' \
        $'http://a/\u202e/\ufe6b' 'file:///C:/x y'; do
        printf '%s' "$s" >"$singles/builtin$k"
        k=$((k + 1))
    done
    printf 'http://a/b/c/d;p?q\xff../g' >"$pairs/builtin0"
    printf 'f:/a\xff.//g' >"$pairs/builtin1"
    printf 'foo:a/b\xff../c' >"$pairs/builtin2"
    if [ ! -d "$corpus_src/urls" ]; then
        echo "run.sh: $corpus_src not found: built-in seeds only" >&2
    else
        local f n step
        for f in "$corpus_src"/urls/*.txt; do
            case "$f" in *LICENSE*) continue ;; esac
            n=$(wc -l <"$f")
            step=$((n / 300 + 1))
            # Single lines, and pairs of neighbouring lines (a base and a reference).
            LC_ALL=C awk -v step="$step" -v dir="$singles" -v pdir="$pairs" -v tag="$(basename "$f" .txt)" '
                NR % step == 0 { sub(/\r$/, ""); sub(/^\xef\xbb\xbf/, "");
                    printf "%s", $0 > (dir "/" tag NR); close(dir "/" tag NR);
                    if (prev != "") { printf "%s\xff%s", prev, $0 > (pdir "/" tag NR); close(pdir "/" tag NR) }
                    prev = $0 }' "$f"
        done
        for f in "$corpus_src"/vectors/*.tsv; do
            # Columns 1-2 (input and, for resolve-*, normalize-*, the reference or
            # expected result), as they are (the \uXXXX escapes stay text).
            LC_ALL=C awk -F'\t' -v dir="$singles" -v pdir="$pairs" -v tag="$(basename "$f" .tsv)" '
                /^#/ { next }
                { printf "%s", $1 > (dir "/" tag NR); close(dir "/" tag NR);
                  printf "%s\xff%s", $1, $2 > (pdir "/" tag NR); close(pdir "/" tag NR) }' "$f"
        done
    fi
    for t in "${all_targets[@]}"; do
        mkdir -p "seeds/$t"
        case "$t" in
        resolve | normalize) cp "$pairs"/* "seeds/$t/" ;;
        cli_lines)
            # Standard input of twenty lines each.
            local batch=0 line=0 file
            for file in "$singles"/*; do
                cat "$file" >>"seeds/$t/lines$batch"
                echo >>"seeds/$t/lines$batch"
                line=$((line + 1))
                if [ $line -eq 20 ]; then
                    line=0
                    batch=$((batch + 1))
                fi
            done
            ;;
        *) cp "$singles"/* "seeds/$t/" ;;
        esac
    done
    rm -rf "$singles" "$pairs"
}

# What the run needs, before tens of thousands of seed files are written for nothing.
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "run.sh: cargo-fuzz on a nightly toolchain is needed: rustup toolchain install nightly;" \
        "cargo install --locked cargo-fuzz (FUZZING.md)" >&2
    exit 2
fi

build_seeds
echo "seeds: $(find seeds -type f | wc -l) files for ${#all_targets[@]} targets"

cargo +nightly fuzz build

# A statistic of libFuzzer's final report (-print_final_stats=1), or nothing.
final_stat() {
    { grep -o "stat::$1: *[0-9]*" "$2" || true; } | grep -o '[0-9]*$' | tail -1 || true
}

mkdir -p logs
summary=logs/summary.txt
printf '%-15s %8s %8s %12s %8s %8s %8s %s\n' target wall_s cpu_s executions exec/s cov rss_mb crashes >"$summary"
status=0
for t in "${targets[@]}"; do
    mkdir -p "corpus/$t" "artifacts/$t"
    before=$(find "artifacts/$t" -type f | wc -l)
    log="logs/$t.log"
    echo "== $t: ${seconds} s"
    start=$(date +%s)
    # shellcheck disable=SC2086
    /usr/bin/time -f '%U %S' -o "logs/$t.time" \
        cargo +nightly fuzz run "$t" "corpus/$t" "seeds/$t" -- \
        -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=2048 -timeout=10 \
        -print_final_stats=1 ${FUZZ_ARGS:-} >"$log" 2>&1 || true
    wall=$(($(date +%s) - start))
    cpu=$(tail -1 "logs/$t.time" | awk '{ printf "%.0f", $1 + $2 }')
    execs=$(final_stat number_of_executed_units "$log")
    rate=$(final_stat average_exec_per_sec "$log")
    rss=$(final_stat peak_rss_mb "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*' || true)
    crashes=$(($(find "artifacts/$t" -type f | wc -l) - before))
    if grep -q 'ERROR: libFuzzer\|panicked at\|==ERROR: AddressSanitizer' "$log"; then
        crashes=$((crashes > 0 ? crashes : 1))
    fi
    [ "$crashes" -gt 0 ] && status=1
    printf '%-15s %8s %8s %12s %8s %8s %8s %s\n' "$t" "$wall" "$cpu" "${execs:-?}" "${rate:-?}" \
        "${cov:-?}" "${rss:-?}" "$crashes" | tee -a "$summary"
    if [ "$crashes" -gt 0 ]; then
        grep -m1 -A3 'panicked at\|ERROR:' "$log" || true
        ls -t "artifacts/$t" | head -3
    fi
done
echo
cat "$summary"
exit $status
