#!/usr/bin/env bash
# The Python package's overhead over the Go fit on 20 Newsgroups, per kind,
# and the drop-in Corex on the corextopic notebook's fit beside Go's (see
# compare.py). Needs the shared corpora, Go with cgo, and Debian's python3
# with numpy, scipy and scikit-learn. For measurement only; never part of
# the tests.
#
#   bench/python/compare.sh [pairs]
set -euo pipefail
cd "$(dirname "$0")/../.."
pairs=${1:-5}
PY=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/pybench" ./bench/python
go build -o "$tmp/corexbench" ./bench/corex
go build -buildmode=c-shared -o "$tmp/libsemitopic.so" ./cmd/libsemitopic
"$tmp/pybench" -write "$tmp/20ng"
"$tmp/corexbench" -write "$tmp/20ng.mtx" >/dev/null
SEMITOPIC_LIB="$tmp/libsemitopic.so" PYTHONPATH=python "$PY" bench/python/compare.py "$tmp/pybench" "$tmp/20ng" "$pairs" "$tmp/corexbench" "$tmp/20ng.mtx"
