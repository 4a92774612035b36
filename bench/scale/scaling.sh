#!/usr/bin/env bash
# The scaling table of docs/results/speed.md: NMF, TS-NMF, CorEx and LDA,
# in memory and out of core, on one synthetic NYTimes-like corpus, at 1, 2,
# 4, 8 and 16 cores (GOMAXPROCS, which is also the worker count of the
# parallel loops), each fit in its own process, then the Markdown table of
# seconds per iteration and parallel efficiency on stdout. Core counts above
# the machine's are skipped (a dash in the table).
#
#   bench/scale/scaling.sh DATA_DIR [DOCS [CORES...]]
#
# DOCS defaults to 20000 (4 shards of DOCS/4 documents: out of core then
# reads several), CORES to "1 2 4 8 16". The fits' JSON lines go to
# DATA_DIR/scaling-DOCS.jsonl, replaced at every run. k = 50; NMF, TS-NMF
# and CorEx run 3 iterations, LDA 2 batch passes, as in scale.md.
set -euo pipefail
data=${1:?DATA_DIR}
docs=${2:-20000}
shift $(($# < 2 ? $# : 2))
cores=("$@")
[ ${#cores[@]} -gt 0 ] || cores=(1 2 4 8 16)
cd "$(dirname "$0")/../.."
mkdir -p "$data"
go build -o "$data/semitopic" ./cmd/semitopic
go build -o "$data/scale" ./bench/scale
corpus=$data/scaling-$docs.shards
[ -d "$corpus" ] || "$data/semitopic" synth --preset nytimes --docs "$docs" --classes 20 \
	--format shards --rows-per-shard $(((docs + 3) / 4)) --out "$corpus" >&2
out=$data/scaling-$docs.jsonl
: >"$out"
ncpu=$(getconf _NPROCESSORS_ONLN)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for kind in nmf tsnmf corex lda; do
	iters=3
	[ "$kind" = lda ] && iters=2
	for mode in mem ooc; do
		# The core counts side by side, so that they see the same load.
		for c in "${cores[@]}"; do
			if [ "$c" -gt "$ncpu" ]; then
				continue
			fi
			GOMAXPROCS=$c "$data/scale" -shards "$corpus" -kind "$kind" -mode "$mode" -k 50 -iters "$iters" | tee -a "$out" >&2
		done
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$data/scale" -scaling "$out"
