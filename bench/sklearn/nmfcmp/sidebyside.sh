#!/bin/sh
# Old code against new, interleaved: nmfcmp built from two checkouts fits
# the same prepared folder in turn, ROUNDS times, each binary once per
# -gathers precision named, and each run prints its fit time per
# iteration (wall clock, and CPU time of all threads, steadier on a loaded
# machine), objective and peak resident memory (GNU time's maximum
# resident set, reading included).
#
#   go build -C OLD_CHECKOUT -o /tmp/nmfcmp-old ./bench/sklearn/nmfcmp
#   go build -o /tmp/nmfcmp-new ./bench/sklearn/nmfcmp
#   go run ./bench/sklearn/nmfcmp prepare -dir DIR -mtx x.mtx
#   bench/sklearn/nmfcmp/sidebyside.sh /tmp/nmfcmp-old /tmp/nmfcmp-new DIR 5 3 "float64 float32" 100
#
# An OLD binary from before -gathers existed takes the precision "none"
# (it is then run without the flag).
set -eu
old=$1 new=$2 dir=$3 iter=${4:-5} rounds=${5:-3} gathers=${6:-"float64 float32"} k=${7:-100}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $iter iterations, k = $k"
r=1
while [ "$r" -le "$rounds" ]; do
	for g in $gathers; do
		for v in old new; do
			bin=$old
			[ "$v" = new ] && bin=$new
			if [ "$g" = none ]; then
				out=$(/usr/bin/time -v "$bin" fit -dir "$dir" -iter "$iter" -k "$k" 2>&1)
			else
				out=$(/usr/bin/time -v "$bin" fit -dir "$dir" -iter "$iter" -k "$k" -gathers "$g" 2>&1)
			fi
			echo "$out" | awk -v v="$v $g" -v r="$r" -v it="$iter" '
				/^semitopic:/ { obj = $3; secs = $(NF-1) }
				/^fit CPU time/ { cpu = $4 }
				/Maximum resident/ { rss = $NF / 1024 }
				END { printf "round %d %-12s %.2f s per iteration (CPU %.2f s), objective %s, peak RSS %.0f MB\n", r, v, secs / it, cpu / it, obj, rss }'
		done
	done
	echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
	r=$((r + 1))
done
