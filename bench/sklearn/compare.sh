#!/usr/bin/env bash
# Side by side with scikit-learn: the same computations on the same input
# (exported as MatrixMarket) in scikit-learn and in semitopic, printing both
# results and their ratio. For measurement only; never part of go test.
#
#   bench/sklearn/compare.sh [metrics] [lda] [classify] [nmf]   (default: all)
#
# Needs the shared corpora in ../shared/data and Debian's python3-sklearn,
# which it installs with apt when missing. scikit-learn runs on one BLAS
# thread (the maintainers' reference figures are one-core); semitopic uses
# every core. Timings are only meaningful on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

PY=/usr/bin/python3
if ! "$PY" -c 'import sklearn, scipy' 2>/dev/null; then
	echo "installing python3-sklearn (apt)" >&2
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq python3-sklearn >/dev/null
fi
export OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 MKL_NUM_THREADS=1

parts=("$@")
[ ${#parts[@]} -gt 0 ] || parts=(metrics lda classify nmf)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

for part in "${parts[@]}"; do
	case "$part" in
	metrics)
		echo "== clustering agreement: homogeneity, completeness, V, NMI, AMI, ARI (must agree to 1e-9)"
		"$PY" bench/sklearn/metrics_compare.py --out "$tmp/labelings.json"
		;;
	lda)
		echo "== LDA on 20 Newsgroups train: 20 topics, batch, 20 passes, seed 0"
		echo "-- semitopic (all cores; also writes the matrix for scikit-learn)"
		go run ./bench/sklearn/ldacmp -write "$tmp/20ng.mtx" -seed 0
		echo "-- scikit-learn (one core)"
		"$PY" bench/sklearn/lda_compare.py "$tmp/20ng.mtx" --seed 0
		;;
	classify)
		echo "== classifiers on the SSNMF 20 Newsgroups split (seed 1)"
		echo "-- semitopic"
		go run ./bench/sklearn/classifycmp -seed 1 -out "$tmp/classify"
		echo "-- scikit-learn"
		"$PY" bench/sklearn/classify_compare.py "$tmp/classify"
		;;
	nmf)
		echo "== NMF multiplicative updates on Reuters tf-idf, k = 90, 200 iterations, tol 0, same start"
		go run ./bench/sklearn/nmfcmp prepare -dir "$tmp/nmf2000" -vocab 2000
		go run ./bench/sklearn/nmfcmp prepare -dir "$tmp/nmf15902" -vocab 15902
		"$PY" bench/sklearn/nmf_compare.py "$tmp/nmf2000" "$tmp/nmf15902"
		;;
	*)
		echo "unknown part $part (want metrics, lda, classify, nmf)" >&2
		exit 2
		;;
	esac
done
