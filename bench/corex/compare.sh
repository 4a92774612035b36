#!/usr/bin/env bash
# The 50-topic CorEx fit on 20 Newsgroups (11,314 × 19,038 binary, 618,595
# non-zeros, seed 1, at most 200 iterations) in semitopic (all cores) and in
# the reference implementation (gregversteeg/corex_topic, numpy/scipy), on
# the same MatrixMarket input: TC, iterations, seconds and peak memory of
# each run. semitopic repeats seed 1; the reference runs seeds 1..runs (its
# TC for each seed, its time over them). For measurement only; never part
# of go test.
#
#   COREX_REF=/dir/with/corextopic bench/corex/compare.sh [runs]
#
# The reference is not in this repository: point COREX_REF at a directory
# holding corextopic.py or the corextopic package (without it only
# semitopic runs). Needs the shared corpora in ../shared/data and Debian's
# python3 with numpy and scipy. Timings mean something only on an otherwise
# idle machine: the load average is printed first.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=${1:-3}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
go build -o "$tmp/corexbench" ./bench/corex
"$tmp/corexbench" -write "$tmp/20ng.mtx"
echo "== semitopic, semitopic's generator"
"$tmp/corexbench" -mtx "$tmp/20ng.mtx" -runs "$runs"
echo "== semitopic, numpy's stream (Config.NumpyRandom)"
"$tmp/corexbench" -mtx "$tmp/20ng.mtx" -runs 1 -numpy
if [ -n "${COREX_REF:-}" ] && PYTHONPATH="$COREX_REF" "$PY" -c 'import corextopic' 2>/dev/null; then
	echo "== reference corextopic (seeds 1..$runs)"
	for r in $(seq "$runs"); do
		PYTHONPATH="$COREX_REF" "$PY" bench/corex/ref_fit.py "$tmp/20ng.mtx" 50 "$r"
	done
else
	echo "== reference skipped: set COREX_REF to a directory holding corextopic"
fi
