#!/usr/bin/env bash
# Issue 30's table, every row that runs on this machine re-measured side by
# side in one run, one process per fit, each under GNU time (peak resident
# memory, reading included), then printed as the issue's table (reference,
# semitopic, ratio, goal):
#   - CorEx, 20 Newsgroups (11,314 × 19,038 binary), k = 50, seed 1, at
#     most COREX_ITERS iterations: corextopic (bench/corex/ref_fit.py) and
#     semitopic (bench/corex), whole fits on the same MatrixMarket file;
#   - CorEx on a synthetic NYTimes-like corpus of DOCS × TERMS, k = 50,
#     ITERS iterations, seconds per iteration: corextopic (ref_fit.py, the
#     fit's time over its iterations) and semitopic in memory (bench/scale,
#     after the first iteration), each from its own seeded start;
#   - NMF Frobenius on the same corpus, k = 100, ITERS iterations from the
#     same start: scikit-learn's multiplicative updates on one thread
#     (bench/sklearn/nmf_compare.py's worker) and semitopic with its
#     default gathers (bench/sklearn/nmfcmp -gathers auto), seconds per
#     iteration, objectives and peak memory;
#   - `semitopic fit --kind tsnmf` with the automatic configuration on
#     Reuters' training set (semitopic only: wall clock of the command).
# The rows measured on 16 cores in the issue print "not measured here".
# For measurement only, on an otherwise idle machine (the load average is
# printed before and after); never part of go test.
#
#   COREX_REF=/dir/with/corextopic bench/scale/table.sh DATA_DIR [DOCS] [TERMS] [ITERS] [COREX_ITERS]
#
# Defaults: 300000 100000 3 200, the issue's sizes. A quick check of the
# script: bench/scale/table.sh DATA_DIR 3000 2000 2 5. DATA_DIR keeps the
# synthetic corpora and the 20 Newsgroups matrix between runs, and every
# fit's output (NAME.out, NAME.time). COREX_REF is a directory holding
# corextopic (gregversteeg/corex_topic's corextopic/ or corextopic.py);
# without it the corextopic fits are skipped. Needs the shared corpora
# ($SEMITOPIC_DATA or ../shared/data) and Debian's python3 with
# scikit-learn, scipy and numpy, and GNU time (/usr/bin/time).
set -euo pipefail
data=${1:?DATA_DIR}
docs=${2:-300000}
terms=${3:-100000}
iters=${4:-3}
cxiters=${5:-200}
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
shared=${SEMITOPIC_DATA:-../shared/data}
mkdir -p "$data/bin"
data=$(cd "$data" && pwd)
bin=$data/bin
go build -o "$bin/semitopic" ./cmd/semitopic
go build -o "$bin/scale" ./bench/scale
go build -o "$bin/nmfcmp" ./bench/sklearn/nmfcmp
go build -o "$bin/corex" ./bench/corex
syn=$data/syn-$docs-$terms
synth=(--preset nytimes --docs "$docs" --terms "$terms" --zipf 1.18)
[ -f "$syn/x.mtx" ] || "$bin/semitopic" synth "${synth[@]}" --out "$syn/x.mtx"
[ -d "$syn/x.shards" ] || "$bin/semitopic" synth "${synth[@]}" --format shards --out "$syn/x.shards"
[ -f "$syn/nmf/X.mtx" ] || "$bin/nmfcmp" prepare -dir "$syn/nmf" -mtx "$syn/x.mtx" -k 100
[ -f "$data/20ng.mtx" ] || "$bin/corex" -write "$data/20ng.mtx"
ref=no
if [ -n "${COREX_REF:-}" ] && PYTHONPATH="$COREX_REF" "$PY" -c 'import corextopic' 2>/dev/null; then
	ref=yes
else
	echo "corextopic skipped: set COREX_REF to a directory holding corextopic" >&2
fi
reuters=$shared/reuters21578-nltk-apte/reuters.tar.gz
out=$data/run
rm -rf "$out"
mkdir -p "$out"
# timed NAME CMD...: runs CMD, its output in NAME.out and GNU time's report in NAME.time.
timed() {
	local name=$1
	shift
	echo "== $name" >&2
	/usr/bin/time -v -o "$out/$name.time" "$@" >"$out/$name.out" 2>&1 || {
		echo "$name failed:" >&2
		cat "$out/$name.out" >&2
		return 1
	}
}
cut -d' ' -f1-3 /proc/loadavg >"$out/load.before"
if [ "$ref" = yes ]; then
	timed cx20-ref env PYTHONPATH="$COREX_REF" "$PY" bench/corex/ref_fit.py "$data/20ng.mtx" 50 1 "$cxiters"
fi
timed cx20-ours "$bin/corex" -mtx "$data/20ng.mtx" -runs 1 -iters "$cxiters"
if [ "$ref" = yes ]; then
	timed cxsyn-ref env PYTHONPATH="$COREX_REF" "$PY" bench/corex/ref_fit.py "$syn/x.mtx" 50 1 "$iters"
fi
timed cxsyn-ours "$bin/scale" -shards "$syn/x.shards" -kind corex -mode mem -k 50 -iters "$iters"
timed nmf-ref "$PY" bench/sklearn/nmf_compare.py --iter "$iters" --k 100 --sklearn-only "$syn/nmf" frobenius
timed nmf-ours "$bin/nmfcmp" fit -dir "$syn/nmf" -iter "$iters" -k 100 -gathers auto
if [ -f "$reuters" ]; then
	timed auto-ours "$bin/semitopic" fit --kind tsnmf --format reuters-nltk "$reuters" --subset train --labels-from-corpus --out "$out/reuters.semitopic"
else
	echo "automatic configuration skipped: $reuters not found" >&2
fi
cut -d' ' -f1-3 /proc/loadavg >"$out/load.after"
"$PY" - "$out" "$docs" "$terms" "$iters" "$cxiters" "$(nproc)" <<'PY'
import json, os, re, sys

out, docs, terms, iters, cxiters, cores = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])


def text(name, ext):
    p = os.path.join(out, name + "." + ext)
    return open(p).read() if os.path.exists(p) else None


def last_json(name):
    t = text(name, "out")
    if t is None:
        return None
    for line in reversed(t.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise SystemExit(f"{name}.out: no JSON line")


def peak_mb(name):
    t = text(name, "time")
    m = t and re.search(r"Maximum resident set size \(kbytes\): (\d+)", t)
    return int(m.group(1)) / 1024 if m else None


def wall(name):
    t = text(name, "time")
    m = t and re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", t)
    if not m:
        return None
    s = 0.0
    for part in m.group(1).split(":"):
        s = s * 60 + float(part)
    return s


def nmf(name):
    t = text(name, "out")
    if t is None:
        return None
    m = re.search(r"objective (\S+) \(start \S+\) after (\d+) iterations in (\S+) s", t)
    if not m:
        raise SystemExit(f"{name}.out: no objective line")
    return float(m.group(1)), float(m.group(3)) / int(m.group(2))


def secs(v):
    return "–" if v is None else f"{v:.2f} s"


def ratio(a, b):
    return "–" if a is None or b is None else f"{b / a:.3f}"


rows = []
notrun = "not run (COREX_REF)"
r, o = last_json("cx20-ref"), last_json("cx20-ours")
rows.append((f"CorEx 20 Newsgroups, k = 50, {cores} cores, whole fit (at most {cxiters} iterations)",
             f"corextopic {secs(r['seconds'])} ({r['iterations']} it., TC {r['tc']:.3f})" if r else notrun,
             f"{secs(o['median_seconds'])} ({o['iterations']} it., TC {o['tc']:.3f})",
             ratio(r and r["seconds"], o["median_seconds"]), "≤ 0.10"))
r, o = last_json("cxsyn-ref"), last_json("cxsyn-ours")
rows.append((f"CorEx {docs:,} × {terms:,} synthetic, k = 50, per iteration ({iters} iterations), {cores} cores",
             f"corextopic {secs(r['seconds_per_iteration'])}" if r else notrun,
             secs(o["seconds_per_iteration"]), ratio(r and r["seconds_per_iteration"], o["seconds_per_iteration"]), "≤ 0.15"))
rows.append(("same, 16 cores (numpy free to use them)", "not measured here", "not measured here", "–", "≤ 0.04"))
r, o = nmf("nmf-ref"), nmf("nmf-ours")
rel = abs(o[0] - r[0]) / abs(r[0])
rows.append((f"NMF Frobenius {docs:,} × {terms:,}, k = 100, per iteration ({iters} iterations), {cores} cores",
             f"scikit-learn {secs(r[1])}", f"{secs(o[1])} (objective {rel:.1e} from scikit-learn's)", ratio(r[1], o[1]), "≤ 0.20"))
rows.append(("same, 16 cores (BLAS free to use them)", "not measured here", "not measured here", "–", "≤ 0.08"))
pr, po = peak_mb("nmf-ref"), peak_mb("nmf-ours")
rows.append((f"peak memory, NMF {docs:,} in memory", f"scikit-learn {pr:.0f} MB", f"{po:.0f} MB", ratio(pr, po), "≤ 1.0"))
rows.append((f"NMF out of core / in memory, {docs:,}, 16 cores", "–", "not measured here", "–", "≤ 1.3×"))
w = wall("auto-ours")
rows.append((f"`fit --kind tsnmf` with automatic configuration, Reuters, {cores} cores", "–",
             "not run (no Reuters corpus)" if w is None else f"{w:.1f} s", "–", "≤ 10 s"))
print("| workload | reference | semitopic | ratio | goal |")
print("| --- | --- | --- | --- | --- |")
for row in rows:
    print("| " + " | ".join(row) + " |")
print()
print("Peak memory (GNU time, MB): " + ", ".join(
    f"{n} {peak_mb(n):.0f}" for n in ("cx20-ref", "cx20-ours", "cxsyn-ref", "cxsyn-ours", "nmf-ref", "nmf-ours", "auto-ours")
    if peak_mb(n) is not None))
print("Wall clock of each process (s, reading included): " + ", ".join(
    f"{n} {wall(n):.1f}" for n in ("cx20-ref", "cx20-ours", "cxsyn-ref", "cxsyn-ours", "nmf-ref", "nmf-ours", "auto-ours")
    if wall(n) is not None))
print(f"Load average before: {open(os.path.join(out, 'load.before')).read().strip()}; after: {open(os.path.join(out, 'load.after')).read().strip()}; {cores} cores")
PY
