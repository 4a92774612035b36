#!/usr/bin/env bash
# Builds the Python package's wheel for this platform into python/dist (or
# the folder given): the shared library from cmd/libsemitopic (Go with cgo
# and a C compiler), then the wheel with Debian's python3-pip, -setuptools
# and -wheel, offline. Install it with
#   python3 -m pip install --no-index python/dist/semitopic-*.whl
# (in a venv made with --system-site-packages, numpy, scipy and
# scikit-learn come from the system).
set -euo pipefail
cd "$(dirname "$0")"
out=${1:-dist}
PY=${PYTHON:-/usr/bin/python3}
case "$(go env GOOS)" in
darwin) lib=libsemitopic.dylib ;;
windows) lib=libsemitopic.dll ;;
*) lib=libsemitopic.so ;;
esac
CGO_ENABLED=1 go build -trimpath -buildmode=c-shared -o "semitopic/$lib" ../cmd/libsemitopic
rm -f semitopic/libsemitopic.h
rm -rf build semitopic.egg-info
"$PY" -m pip wheel --no-deps --no-build-isolation --no-index -w "$out" .
rm -rf build semitopic.egg-info
ls "$out"/semitopic-*.whl
