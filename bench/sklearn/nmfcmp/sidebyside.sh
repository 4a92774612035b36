#!/bin/sh
# Old code against new, interleaved: nmfcmp built from two checkouts fits
# the same prepared folder in turn, ROUNDS times, and each run prints its
# fit time per iteration, objective and peak resident memory (GNU time's
# maximum resident set, reading included). The new binary runs once per
# -gathers precision named.
#
#   go build -C OLD_CHECKOUT -o /tmp/nmfcmp-old ./bench/sklearn/nmfcmp
#   go build -o /tmp/nmfcmp-new ./bench/sklearn/nmfcmp
#   go run ./bench/sklearn/nmfcmp prepare -dir DIR -mtx x.mtx
#   bench/sklearn/nmfcmp/sidebyside.sh /tmp/nmfcmp-old /tmp/nmfcmp-new DIR 5 3 "float64 float32"
set -eu
old=$1 new=$2 dir=$3 iter=${4:-5} rounds=${5:-3} gathers=${6:-"float64 float32"}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $iter iterations, k = 100"
r=1
while [ "$r" -le "$rounds" ]; do
	for v in old $gathers; do
		if [ "$v" = old ]; then
			out=$(/usr/bin/time -v "$old" fit -dir "$dir" -iter "$iter" -k 100 2>&1)
		else
			out=$(/usr/bin/time -v "$new" fit -dir "$dir" -iter "$iter" -k 100 -gathers "$v" 2>&1)
		fi
		echo "$out" | awk -v v="$v" -v r="$r" -v it="$iter" '
			/^semitopic:/ { obj = $3; secs = $(NF-1) }
			/Maximum resident/ { rss = $NF / 1024 }
			END { printf "round %d %-8s %.2f s per iteration, objective %s, peak RSS %.0f MB\n", r, v, secs / it, obj, rss }'
	done
	r=$((r + 1))
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
