#!/usr/bin/env bash
# Out of core against in memory, side by side: on one synthetic
# NYTimes-like corpus (DOCS documents, shards of at most 65,536), each
# kind's in-memory and out-of-core fits alternate for ROUNDS rounds, each
# in its own process (k = 50; NMF, TS-NMF and CorEx 3 iterations, LDA 2
# batch passes), and a Markdown table of seconds per iteration, their
# ratio and peak memory goes to stdout. For measurement only, on an
# otherwise idle machine.
#
#   bench/scale/ooc.sh DATA_DIR [DOCS [ROUNDS [KINDS...]]]
#
# DOCS defaults to 100000, ROUNDS to 2, KINDS to "nmf tsnmf corex lda".
set -euo pipefail
data=${1:?DATA_DIR}
docs=${2:-100000}
rounds=${3:-2}
shift $(($# < 3 ? $# : 3))
kinds=("$@")
[ ${#kinds[@]} -gt 0 ] || kinds=(nmf tsnmf corex lda)
cd "$(dirname "$0")/../.."
mkdir -p "$data"
go build -o "$data/semitopic" ./cmd/semitopic
go build -o "$data/scale" ./bench/scale
corpus=$data/ooc-$docs.shards
[ -d "$corpus" ] || "$data/semitopic" synth --preset nytimes --docs "$docs" --classes 20 \
	--format shards --out "$corpus" >&2
field() { sed -n "s/.*\"$1\":\([0-9.e+-]*\).*/\1/p"; }
echo "load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| kind | round | in memory: s/iteration | out of core: s/iteration | ratio | in memory: peak MiB | out of core: peak MiB |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
for kind in "${kinds[@]}"; do
	iters=3
	[ "$kind" = lda ] && iters=2
	for r in $(seq "$rounds"); do
		mem=$("$data/scale" -shards "$corpus" -kind "$kind" -mode mem -k 50 -iters "$iters")
		ooc=$("$data/scale" -shards "$corpus" -kind "$kind" -mode ooc -k 50 -iters "$iters")
		m=$(field seconds_per_iteration <<<"$mem")
		o=$(field seconds_per_iteration <<<"$ooc")
		printf '| %s | %d | %.3f | %.3f | %.2f× | %.0f | %.0f |\n' "$kind" "$r" "$m" "$o" \
			"$(awk -v o="$o" -v m="$m" 'BEGIN { print o / m }')" "$(field peak_mib <<<"$mem")" "$(field peak_mib <<<"$ooc")"
	done
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
