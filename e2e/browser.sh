#!/usr/bin/env bash
# Checks the HTML pages in a real browser: renders the demo report and the
# server's web page in headless Chromium, saves PNG screenshots, and fails
# on any console message (errors, failed loads, uncaught exceptions).
#
#   e2e/browser.sh [OUT_DIR]
#
# Installs Debian's chromium with apt when missing; when it cannot be
# installed (no apt, no network, no root), it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")/.."

out=${1:-$(mktemp -d)}
mkdir -p "$out"
if ! command -v chromium >/dev/null 2>&1; then
	SUDO=""
	[ "$(id -u)" -eq 0 ] || SUDO=sudo
	if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null; } 2>/dev/null; then
		echo "e2e: chromium is not installed and cannot be installed here; skipping the browser check"
		exit 0
	fi
fi

bin="$out/semitopic"
go build -o "$bin" ./cmd/semitopic

# render URL PNG: screenshot URL into PNG; fail on console messages.
render() {
	local url=$1 png=$2 log="$2.log"
	rm -rf "$out/profile"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$out/profile" --enable-logging=stderr --v=0 \
		--window-size=1280,2400 --virtual-time-budget=5000 --screenshot="$png" "$url" 2>"$log" || true
	if [ ! -s "$png" ]; then
		echo "e2e: FAIL: no screenshot of $url (see $log)"; cat "$log"; return 1
	fi
	if grep -E 'CONSOLE|Uncaught|Failed to load' "$log"; then
		echo "e2e: FAIL: console messages while rendering $url"; return 1
	fi
	echo "e2e: ok: $url -> $png ($(stat -c %s "$png") bytes)"
}

# 1. The demo report (and the models it fitted).
"$bin" demo --report "$out/demo-report.html" --save "$out/models" >/dev/null
render "file://$out/demo-report.html" "$out/demo-report.png"

# 2. The server's page, with the page's script fetching the model and topics.
"$bin" serve --model "$out/models/tsnmf.semitopic" --addr "127.0.0.1:0" 2>"$out/serve.log" &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
addr=""
for _ in $(seq 100); do
	addr=$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$out/serve.log")
	[ -n "$addr" ] && break
	sleep 0.1
done
[ -n "$addr" ] || { echo "e2e: FAIL: the server did not start"; cat "$out/serve.log"; exit 1; }
render "http://$addr/" "$out/server-page.png"
kill -TERM $pid
wait $pid
grep -q '"msg":"stopped"' "$out/serve.log" || { echo "e2e: FAIL: the server did not shut down cleanly"; cat "$out/serve.log"; exit 1; }
echo "e2e: all pages rendered without console messages (screenshots in $out)"
