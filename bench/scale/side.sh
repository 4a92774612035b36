#!/usr/bin/env bash
# The 300,000-document side-by-side of docs/results/scale.md: on one
# synthetic NYTimes-sized corpus (300,000 × 100,000, 44.0M non-zeros, the
# corpus of docs/results/speed.md), a few iterations of
#   - NMF (k = 100, Frobenius): scikit-learn's multiplicative updates and
#     semitopic in memory from the same start (bench/sklearn/nmf_compare.py),
#     then semitopic out of core (bench/scale, its own random-acol start);
#   - CorEx (k = 50): corextopic (bench/corex/ref_fit.py) and semitopic in
#     memory and out of core (bench/scale), each from its own seeded start.
# For measurement only, on an otherwise idle machine.
#
#   COREX_REF=/dir/with/corextopic bench/scale/side.sh DATA_DIR [iterations]
set -euo pipefail
data=${1:?DATA_DIR}
iters=${2:-3}
cd "$(dirname "$0")/../.."
PY=/usr/bin/python3
mkdir -p "$data"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
go build -o "$data/semitopic" ./cmd/semitopic
go build -o "$data/scale" ./bench/scale
go build -o "$data/nmfcmp" ./bench/sklearn/nmfcmp
synth=(--preset nytimes --terms 100000 --zipf 1.18)
[ -f "$data/x.mtx" ] || "$data/semitopic" synth "${synth[@]}" --out "$data/x.mtx"
[ -d "$data/x.shards" ] || "$data/semitopic" synth "${synth[@]}" --format shards --out "$data/x.shards"
[ -f "$data/nmf/X.mtx" ] || "$data/nmfcmp" prepare -dir "$data/nmf" -mtx "$data/x.mtx" -k 100
echo "== NMF: scikit-learn and semitopic in memory, same start"
"$PY" bench/sklearn/nmf_compare.py --go-bin "$data/nmfcmp" --iter "$iters" --k 100 --loss frobenius "$data/nmf"
echo "== NMF: semitopic out of core"
"$data/scale" -shards "$data/x.shards" -kind nmf -mode ooc -k 100 -iters "$iters"
echo "== CorEx: semitopic in memory and out of core"
"$data/scale" -shards "$data/x.shards" -kind corex -mode mem -k 50 -iters "$iters"
"$data/scale" -shards "$data/x.shards" -kind corex -mode ooc -k 50 -iters "$iters"
if [ -n "${COREX_REF:-}" ] && PYTHONPATH="$COREX_REF" "$PY" -c 'import corextopic' 2>/dev/null; then
	echo "== CorEx: corextopic"
	PYTHONPATH="$COREX_REF" "$PY" bench/corex/ref_fit.py "$data/x.mtx" 50 1 "$iters"
else
	echo "== corextopic skipped: set COREX_REF to a directory holding corextopic"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
