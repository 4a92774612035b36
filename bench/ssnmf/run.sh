#!/usr/bin/env bash
# SSNMF on the paper's 20 Newsgroups protocol: semitopic against the
# reference implementation (jamiehadd/ssnmf, dense NumPy), one fit per
# process, same split (seed 0), each model with the reference's chosen λ and
# tol (experiments/20news/exp_20news.py), rank 13, at most 50 iterations.
# Prints one JSON line per run and a table of medians: fit time, peak
# resident memory, iterations, test accuracy, clustering scores. With the
# reference, semitopic also fits from the reference's own starting factors
# (same iterations and, for the Frobenius models, the same accuracy; the
# I-divergence models draw the test documents' starting representation
# apart).
#
#   SSNMF_REF=/path/to/reference/src/ssnmf bench/ssnmf/run.sh [GO_RUNS] [REF_RUNS]
#
# With OUT=FILE the table is also written to FILE as Markdown, with the
# command, the load averages before and after, and the date.
#
# GO_RUNS (default 3) and REF_RUNS (default 1) are the initialisation seeds
# per model. Without SSNMF_REF only semitopic runs. Needs the shared corpora
# in ../shared/data and Debian's python3 with numpy and scipy. Both sides
# use every core (NumPy's BLAS threads, Go's goroutines); timings are only
# meaningful on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
GO_RUNS=${1:-3}
REF_RUNS=${2:-1}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average: $load_before"
go build -o "$tmp/ssnmfbench" ./bench/ssnmf
"$tmp/ssnmfbench" export -dir "$tmp/data" -seed 0
runs="$tmp/runs.jsonl"
# model λ tol: the reference's choices for 20 Newsgroups.
settings=("F,F 100 1e-4" "F,D 10 1e-4" "D,F 100 1e-3" "D,D 1000 1e-3")
for s in "${settings[@]}"; do
	read -r model lam tol <<<"$s"
	for ((seed = 0; seed < GO_RUNS; seed++)); do
		"$tmp/ssnmfbench" fit -dir "$tmp/data" -model "$model" -lambda "$lam" -tol "$tol" -seed "$seed" | tee -a "$runs"
		"$tmp/ssnmfbench" fit -dir "$tmp/data" -model "$model" -lambda "$lam" -tol "$tol" -seed "$seed" -masked | tee -a "$runs"
	done
	if [ -n "${SSNMF_REF:-}" ]; then
		for ((seed = 0; seed < REF_RUNS; seed++)); do
			init="$tmp/init-${model/,/}-$seed"
			SSNMF_DUMP_INIT="$init" "$PY" bench/ssnmf/ref_fit.py "$tmp/data" "$model" "$lam" "$tol" "$seed" | tee -a "$runs"
			# The same fit from the reference's own starting factors.
			"$tmp/ssnmfbench" fit -dir "$tmp/data" -model "$model" -lambda "$lam" -tol "$tol" -seed "$seed" -masked -init "$init" |
				sed 's/"impl":"semitopic"/"impl":"semitopic (masked, the reference'"'"'s start)"/' | tee -a "$runs"
		done
	fi
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
echo "load average: $load_after"
"$PY" - "$runs" <<'PYEOF' | tee "$tmp/table.md"

import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def key(r):
    impl = r["impl"]
    if impl == "semitopic" and "masked" in r:
        impl += " (masked like the reference)" if r.get("masked") else " (training documents only)"
    return r["model"], impl
groups = {}
for r in rows:
    groups.setdefault(key(r), []).append(r)
print()
print("| model | implementation | runs | fit s (median) | peak MB (median) | iterations | test accuracy % | P hard / soft |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
ref = {}
for (model, impl), rs in groups.items():
    if impl == "reference":
        ref[model] = (statistics.median(r["fit_s"] for r in rs), statistics.median(r["peak_mb"] for r in rs))
for (model, impl), rs in groups.items():
    fit = statistics.median(r["fit_s"] for r in rs)
    mem = statistics.median(r["peak_mb"] for r in rs)
    its = ", ".join(str(r["iters"]) for r in rs)
    acc = ", ".join(f"{100*r['acc']:.2f}" for r in rs)
    extra = ""
    if impl != "reference" and model in ref:
        extra = f" ({ref[model][0]/fit:.0f}× faster, {ref[model][1]/mem:.0f}× less memory)"
    ps = ", ".join(f"{r.get('p_hard', float('nan')):.3f} / {r.get('p_soft', float('nan')):.3f}" for r in rs)
    print(f"| {model} | {impl} | {len(rs)} | {fit:.3f}{extra} | {mem:.0f} | {its} | {acc} | {ps} |")
PYEOF
if [ -n "${OUT:-}" ]; then
	{
		echo "# SSNMF speed and memory against the reference implementation"
		echo
		echo "One fit per process on the SSNMF 20 Newsgroups split of seed 0 (7,180 training + validation documents × 5,000 terms, 1,800 test documents), rank 13, at most 50 iterations, each model with the reference's chosen λ and tol; the reference (jamiehadd/ssnmf SSNMF_N, dense NumPy) runs as its evaluation.py does, with the test documents masked into the fit. Fit time excludes reading the files; peak memory is the process's maximum resident set (getrusage), which includes them. Both sides use both cores. \"Masked like the reference\" fits our model the same way; \"the reference's start\" starts it from the reference's own random factors."
		echo
		echo "Load average before: $load_before; after: $load_after (timings are only comparable on an idle machine)."
		cat "$tmp/table.md"
		echo
		echo "Command: \`SSNMF_REF=/path/to/jamiehadd-ssnmf/src/ssnmf OUT=$OUT bench/ssnmf/run.sh $GO_RUNS $REF_RUNS\` ($(date -u +%Y-%m-%d))."
	} >"$OUT"
	echo "wrote $OUT"
fi
