# Reads the tables bench/regenerate.sh pasted (cells "time · instructions") and prints
# the targets table: per target, the range of ours ÷ peer over the lists it names, in
# time and in instructions, and whether both are within the threshold. Run by
# bench/regenerate.sh, which holds the targets.
#
# Targets (one a line, fields split by "|", in the variable `targets`):
#   label | task | column | rows (regex on the list name) | kind | op | threshold
# kind: `ratio` (the column's ratio), `pair` (the column's "X invalid" ÷ "X valid"),
# `bytes` (the column's cost of the row whose name holds a length: time as bytes per
# ns, instructions per byte; the threshold in bytes per ns).
BEGIN { FS = "|" }
/^#### / { task = $0; sub(/^#### /, "", task); sub(/ .*/, "", task); next }
/^`iri-bench (time|ir) / { at[task] = at[task] (at[task] == "" ? "" : " ") $0; next }
/^\| list \(/ { for (i = 2; i < NF; i++) { h = $i; gsub(/^ +| +$/, "", h); col[task, h] = i } next }
/^\|---/ { next }
/^\| / {
    name = $2; gsub(/^ +| +$/, "", name); sub(/ \([0-9]+\)$/, "", name)
    n = ++rows[task]; rowname[task, n] = name
    for (i = 3; i < NF; i++) { c = $i; gsub(/[ *]/, "", c); split(c, p, "·"); t[task, n, i] = p[1]; r[task, n, i] = p[2] }
    next
}
function fmt(lo, hi, d) { return lo == hi ? sprintf("%." d "f", lo) : sprintf("%." d "f–%." d "f", lo, hi) }
function within(v, op, thr) { return op == "≤" ? v <= thr + 1e-9 : v >= thr - 1e-9 }
# The commit named after "`iri-bench WHAT TASK`" (and maybe "and `iri-bench ...`").
function commit(task, what,   s, p) {
    s = at[task]; p = index(s, "`iri-bench " what " " task "`"); if (!p) return "?"
    s = substr(s, p); if (!match(s, / at `[0-9a-f]+`/)) return "?"
    s = substr(s, RSTART + 5, RLENGTH - 6); return s
}
END {
    print "| work | target | time | instructions | met |"
    print "|---|--:|--:|--:|---|"
    nt = split(targets, lines, "\n")
    for (k = 1; k <= nt; k++) {
        if (lines[k] ~ /^ *$/) continue
        split(lines[k], f, "|"); for (j in f) gsub(/^ +| +$/, "", f[j])
        label = f[1]; tk = f[2]; cname = f[3]; rx = f[4]; kind = f[5]; op = f[6]; thr = f[7] + 0
        ci = col[tk, cname]
        tlo = ilo = 1e30; thi = ihi = -1e30; seen = 0
        for (n = 1; n <= rows[tk]; n++) {
            name = rowname[tk, n]
            if (name !~ rx) continue
            if (kind == "pair") {
                if (name !~ / invalid$/) continue
                v = name; sub(/ invalid$/, " valid", v)
                for (m = 1; m <= rows[tk]; m++) if (rowname[tk, m] == v) break
                if (m > rows[tk]) continue
                tv = t[tk, n, ci] / t[tk, m, ci]; iv = r[tk, n, ci] / r[tk, m, ci]
            } else if (kind == "bytes") {
                len = name; gsub(/[^0-9]/, "", len)
                tv = len / t[tk, n, ci]; iv = r[tk, n, ci] / len
            } else { tv = t[tk, n, ci] + 0; iv = r[tk, n, ci] + 0 }
            seen = 1
            if (tv < tlo) tlo = tv; if (tv > thi) thi = tv
            if (iv < ilo) ilo = iv; if (iv > ihi) ihi = iv
        }
        if (!seen || ci == "") { printf "| %s | %s %s | — | — | no table |\n", label, op, f[7]; continue }
        if (kind == "bytes") {
            ok = within(tlo, op, thr)
            printf "| %s | %s %s bytes/ns | %s bytes/ns (`%s`) | %s per byte (`%s`) | %s |\n",
                label, op, f[7], fmt(tlo, thi, 1), commit(tk, "time"), fmt(ilo, ihi, 2), commit(tk, "ir"),
                ok ? "met" : "not met"
            continue
        }
        worst_t = op == "≤" ? thi : tlo; worst_i = op == "≤" ? ihi : ilo
        ok = within(worst_t, op, thr) && within(worst_i, op, thr)
        printf "| %s | %s %s | %s (`%s`) | %s (`%s`) | %s |\n", label, op, f[7],
            fmt(tlo, thi, 2), commit(tk, "time"), fmt(ilo, ihi, 2), commit(tk, "ir"), ok ? "met" : "not met"
    }
}
