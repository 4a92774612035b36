#!/usr/bin/env bash
# Runs the grid of docs/results/scale.md: every kind, in memory and out of
# core, on synthetic NYTimes-like corpora of 20k to 3M documents, each fit in
# its own process, appending one JSON line per fit to OUT. A fit already in
# OUT is not run again, so the script can be stopped and started. Then
#   go run ./bench/scale -report OUT > docs/results/scale.md
# writes the report (and its chart beside it).
#
#   bench/scale/run.sh DATA_DIR OUT.jsonl
#
# DATA_DIR receives the corpora (about 13 GB) and the fits' state.
set -euo pipefail
data=${1:?DATA_DIR}
out=${2:?OUT.jsonl}
cd "$(dirname "$0")/../.."
mkdir -p "$data"
go build -o "$data/semitopic" ./cmd/semitopic
go build -o "$data/scale" ./bench/scale
touch "$out"

corpus() { # corpus N: the synthetic NYTimes-like corpus of N documents
	local dir=$data/ny-$1.shards
	[ -d "$dir" ] || "$data/semitopic" synth --preset nytimes --docs "$1" --classes 20 --format shards --out "$dir" >&2
	echo "$dir"
}

fit() { # fit KIND MODE N ITERS
	local key="\"kind\":\"$1\",\"mode\":\"$2\",\"docs\":$3,"
	if grep -qF "$key" "$out"; then
		return
	fi
	echo "== $1 $2 $3 documents" >&2
	local dir
	dir=$(corpus "$3")
	# A fit that fails is recorded with its exit status (137: killed, by
	# the kernel when memory runs out).
	local line rc=0
	line=$("$data/scale" -shards "$dir" -kind "$1" -mode "$2" -k 50 -iters "$4") || rc=$?
	if [ "$rc" -ne 0 ]; then
		line="{\"kind\":\"$1\",\"mode\":\"$2\",\"docs\":$3,\"failed\":true,\"exit\":$rc}"
	fi
	echo "$line" | tee -a "$out" >&2
}

for n in 20000 100000 300000 1000000 3000000; do
	for mode in ooc mem; do
		fit nmf $mode $n 3
		fit tsnmf $mode $n 3
	done
done
for n in 20000 100000 300000 1000000; do
	for mode in ooc mem; do
		fit corex $mode $n 3
	done
done
for n in 20000 100000 300000; do
	for mode in ooc mem; do
		fit lda $mode $n 2
	done
done
# The largest corpus: PubMed's shape, out of core.
pubmed=$data/pubmed.shards
[ -d "$pubmed" ] || "$data/semitopic" synth --preset pubmed --classes 20 --format shards --out "$pubmed" >&2
if ! grep -qF '"docs":8200000,' "$out"; then
	"$data/scale" -shards "$pubmed" -kind nmf -mode ooc -k 50 -iters 3 | tee -a "$out" >&2
fi
