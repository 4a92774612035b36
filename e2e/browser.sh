#!/usr/bin/env bash
# Checks the HTML pages in a real browser: renders the demo report and the
# server's web page in headless Chromium, saves PNG screenshots, and fails
# on any console message (errors, failed loads, uncaught exceptions); then
# runs the workbench's main flows in the browser (go test ./e2e with
# SEMITOPIC_BROWSER=1), failing if that test skips.
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

# serve MODEL NAME URL_SUFFIX...: serves MODEL and screenshots its page at
# each URL suffix into NAME-1.png, NAME-2.png... (the rendered DOM into
# NAME-1.html...), failing when the page lists no topic or shows an error;
# checks a clean shutdown.
serve() {
	local model=$1 name=$2 log="$out/$2.serve.log" n=0
	shift 2
	"$bin" serve --model "$model" --addr "127.0.0.1:0" 2>"$log" &
	pid=$!
	trap 'kill $pid 2>/dev/null || true' EXIT
	local addr=""
	for _ in $(seq 100); do
		addr=$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$log")
		[ -n "$addr" ] && break
		sleep 0.1
	done
	[ -n "$addr" ] || { echo "e2e: FAIL: the server did not start"; cat "$log"; exit 1; }
	for suffix in "$@"; do
		n=$((n + 1))
		render "http://$addr/$suffix" "$out/$name-$n.png"
		# The page shows its own errors in red (class "err"), which no
		# console message reports: read the rendered DOM for them.
		rm -rf "$out/profile"
		timeout 120 chromium --headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$out/profile" --virtual-time-budget=5000 --dump-dom "http://$addr/$suffix" >"$out/$name-$n.html" 2>/dev/null || true
		grep -q '<div id="topics"><div class="topic">' "$out/$name-$n.html" || { echo "e2e: FAIL: no topic listed at /$suffix"; exit 1; }
		if grep -o '<p class="err">[^<]*' "$out/$name-$n.html"; then
			echo "e2e: FAIL: the page shows an error at /$suffix"; exit 1
		fi
	done
	kill -TERM $pid
	wait $pid
	grep -q '"msg":"stopped"' "$log" || { echo "e2e: FAIL: the server did not shut down cleanly"; cat "$log"; exit 1; }
}

# 2. The server's page, with the page's script fetching the model and
# topics, then a document (?text=) with known words and one without any.
serve "$out/models/tsnmf.semitopic" server-page "" "?text=The+rocket+reached+orbit" "?text=zzzqx+wwvvb"

# 3. A model with a very long topic name and empty topics (a 12-topic
# TS-NMF on three labeled themes): its report on the corpus's test split,
# and its server page.
long="space-exploration-astronomy-rockets-satellites-telescopes-and-the-distant-planets-of-the-outer-solar-system"
themes=("$long" cooking finance)
words=("rocket orbit astronaut telescope planet satellite launch galaxy comet nebula"
	"recipe oven flour simmer garlic butter sauce dough pastry kitchen"
	"bank interest investor stock bond equity dividend inflation market shares")
{
	echo "id,text,label,split"
	for i in $(seq 0 59); do
		t=$((i % 3))
		read -ra ws <<<"${words[$t]}"
		text=""
		for j in $(seq 0 7); do text="$text ${ws[$(((i * 7 + j * 3) % 10))]}"; done
		split=train
		[ $((i % 5)) -eq 0 ] && split=test
		echo "d$i,$text,${themes[$t]},$split"
	done
} >"$out/long.csv"
"$bin" fit --kind tsnmf -k 12 --format csv "$out/long.csv" --subset train --labels-from-corpus --seed 1 --out "$out/long.semitopic" >/dev/null
"$bin" report --model "$out/long.semitopic" --format csv "$out/long.csv" --out "$out/long-report.html" >/dev/null 2>&1
grep -q "empty topics" "$out/long-report.html" || { echo "e2e: FAIL: the long-name report does not count its empty topics"; exit 1; }
render "file://$out/long-report.html" "$out/long-report.png"
serve "$out/long.semitopic" long-server "?text=rocket+orbit+galaxy+and+the+oven" "?text=zzzqx+wwvvb"
# 4. The workbench's main flows, as a person uses them, driven over the
# DevTools protocol (e2e/workbench_test.go): it must run here, not skip.
mkdir -p "$out/workbench"
SEMITOPIC_BROWSER=1 SEMITOPIC_BROWSER_OUT="$out/workbench" go test -count=1 -v -run 'InBrowser' ./e2e/ >"$out/workbench.log" 2>&1 || {
	echo "e2e: FAIL: the workbench in the browser"; cat "$out/workbench.log"; exit 1
}
if grep -q -- '--- SKIP' "$out/workbench.log" || ! grep -q -- '--- PASS: TestWorkbenchInBrowser' "$out/workbench.log"; then
	echo "e2e: FAIL: the workbench's browser test did not run"; cat "$out/workbench.log"; exit 1
fi
echo "e2e: ok: the workbench's main flows in the browser ($(ls "$out/workbench" | wc -l) screenshots in $out/workbench)"
echo "e2e: all pages rendered without console messages (screenshots in $out)"
