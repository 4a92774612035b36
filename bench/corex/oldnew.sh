#!/usr/bin/env bash
# Old code against new, side by side: the CorEx fits of bench/corex (20
# Newsgroups, k = 50, seed 1, at most ITERS iterations, semitopic's
# generator; then one fit on numpy's stream) and of bench/scale (a
# synthetic 100,000 × 100,000 corpus shaped like NYTimes, k = 50, in
# memory, seconds per iteration after the first), each built from git
# revision REV and from the working tree, run in turn PAIRS times, old
# first. It prints every run, the load average before and after, and the
# ratio new/old of the median times, wall clock and the processes' CPU
# time (user + system, reading included), the second less disturbed by
# other work on the machine. Both builds must give the same TC.
# For measurement only; never part of go test.
#
#   bench/corex/oldnew.sh REV [PAIRS] [ITERS] [DATA_DIR]
#
# DATA_DIR keeps the synthetic corpus between runs (default: a temporary
# folder, removed). Needs the shared corpora (../shared/data) and python3.
set -euo pipefail
rev=${1:?REV}
pairs=${2:-3}
iters=${3:-200}
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
data=${4:-$tmp}
mkdir -p "$tmp/old" "$data"
git archive "$rev" | tar -x -C "$tmp/old"
(cd "$tmp/old" && go build -o "$tmp/corex_old" ./bench/corex && go build -o "$tmp/scale_old" ./bench/scale)
go build -o "$tmp/corex_new" ./bench/corex
go build -o "$tmp/scale_new" ./bench/scale
go build -o "$tmp/semitopic" ./cmd/semitopic
"$tmp/corex_new" -write "$tmp/20ng.mtx"
syn="$data/syn100k.shards"
[ -d "$syn" ] || "$tmp/semitopic" synth --preset nytimes --docs 100000 --terms 100000 --zipf 1.18 --format shards --out "$syn"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
TIMEFORMAT=%U+%S
# cpu FILE CMD...: runs CMD with its output in FILE, its CPU seconds in FILE.cpu.
cpu() { local f=$1; shift; { time "$@" >"$f"; } 2>"$f.cpu"; python3 -c 'import sys; print(eval(open(sys.argv[1]).read().strip().splitlines()[-1]))' "$f.cpu" >"$f.cpu2"; mv "$f.cpu2" "$f.cpu"; }
# field FILE KEY: KEY of the JSON line of FILE.
field() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])[sys.argv[2]])' "$1" "$2"; }
for p in $(seq "$pairs"); do
	for v in old new; do
		cpu "$tmp/20ng.$v.$p" "$tmp/corex_$v" -mtx "$tmp/20ng.mtx" -runs 1 -iters "$iters"
		echo "20ng $v: TC $(field "$tmp/20ng.$v.$p" tc), $(field "$tmp/20ng.$v.$p" iterations) iterations, $(field "$tmp/20ng.$v.$p" median_seconds) s, process CPU $(cat "$tmp/20ng.$v.$p.cpu") s"
		cpu "$tmp/syn.$v.$p" "$tmp/scale_$v" -shards "$syn" -kind corex -mode mem -k 50 -iters 4
		echo "synthetic $v: $(field "$tmp/syn.$v.$p" seconds_per_iteration) s per iteration, process CPU $(cat "$tmp/syn.$v.$p.cpu") s"
	done
done
for v in old new; do
	"$tmp/corex_$v" -mtx "$tmp/20ng.mtx" -runs 1 -iters "$iters" -numpy >"$tmp/numpy.$v"
	echo "20ng numpy's stream $v: TC $(field "$tmp/numpy.$v" tc), $(field "$tmp/numpy.$v" iterations) iterations, $(field "$tmp/numpy.$v" median_seconds) s"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$tmp" "$pairs" <<'PY'
import json, statistics, sys
tmp, pairs = sys.argv[1], int(sys.argv[2])
def load(name):
    return json.loads(open(f"{tmp}/{name}").read().strip().splitlines()[-1])
def cpu(name):
    return float(open(f"{tmp}/{name}.cpu").read())
for label, pre, key in (("20 Newsgroups fit", "20ng", "median_seconds"), ("synthetic 100k, per iteration", "syn", "seconds_per_iteration")):
    for what, get in ((label + ", wall", lambda n: load(n)[key]), (pre + " process CPU", cpu)):
        med = {v: statistics.median(get(f"{pre}.{v}.{p}") for p in range(1, pairs + 1)) for v in ("old", "new")}
        ratios = [get(f"{pre}.new.{p}") / get(f"{pre}.old.{p}") for p in range(1, pairs + 1)]
        print(f"{what}: old {med['old']:.3f} s, new {med['new']:.3f} s (medians), new/old {med['new'] / med['old']:.3f}; per pair {', '.join(f'{r:.3f}' for r in ratios)}")
for pre in ("20ng", "numpy"):
    names = [f"{pre}.{v}.{p}" for v in ("old", "new") for p in range(1, pairs + 1)] if pre == "20ng" else ["numpy.old", "numpy.new"]
    tcs = {load(n)["tc"] for n in names}
    print(f"{pre}: {'the same TC in every run' if len(tcs) == 1 else 'TC differs: ' + str(sorted(tcs))}")
PY
