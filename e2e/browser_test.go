package e2e

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The environment the browser tests read.
const (
	// browserEnv must be 1 for the tests to run.
	browserEnv = "SEMITOPIC_BROWSER"
	// chromiumEnv names the browser binary (default: chromium on PATH).
	chromiumEnv = "SEMITOPIC_CHROMIUM"
	// outEnv names the folder of the screenshots (default: the test's
	// temporary folder).
	outEnv = "SEMITOPIC_BROWSER_OUT"
)

// Viewport is the size of the browser's window: the page must be readable
// at it.
const (
	viewportWidth  = 1280
	viewportHeight = 800
)

// chromium returns the browser binary, skipping the test when the
// environment does not ask for browser tests or no browser is installed.
func chromium(t *testing.T) string {
	t.Helper()
	if os.Getenv(browserEnv) != "1" {
		t.Skipf("browser test: set %s=1 to run it in headless Chromium (e2e/browser.sh installs Debian's chromium and does)", browserEnv)
	}
	if p := os.Getenv(chromiumEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			t.Skipf("browser test: %s=%s: %v", chromiumEnv, p, err)
		}
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	t.Skipf("browser test: no Chromium on PATH (chromium, chromium-browser, google-chrome): install Debian's chromium (apt-get install chromium) or name one in %s", chromiumEnv)
	return ""
}

// browser is one headless Chromium tab. It records every console message,
// uncaught exception, browser log entry, failed request and answer with
// an error status the page meets: a test fails on any (check).
type browser struct {
	t   *testing.T
	ctx context.Context
	// out is the folder of the screenshots, shots their count.
	out   string
	shots int

	mu       sync.Mutex
	problems []string
	reported int
	urls     map[network.RequestID]string
}

// newBrowser starts Chromium with a window of the viewport's size; the
// test's end stops it.
func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromium(t)
	out := os.Getenv(outEnv)
	if out == "" {
		out = t.TempDir()
	} else if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatalf("%s: %v", outEnv, err)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		// The sandbox needs privileges a CI container lacks; the pages
		// are the project's own, on loopback.
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(viewportWidth, viewportHeight),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	b := &browser{t: t, out: out, urls: map[network.RequestID]string{}}
	ctx, cancel := chromedp.NewContext(actx, chromedp.WithListener(b.listen),
		chromedp.WithErrorf(func(format string, args ...any) { t.Logf("chromedp: "+format, args...) }))
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	b.ctx = ctx
	// The first action starts the browser, bound to ctx (no deadline).
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(viewportWidth, viewportHeight)); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	t.Logf("browser %s; screenshots in %s", exe, out)
	return b
}

// listen records the events that are problems of the page.
func (b *browser) listen(ev any) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch e := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		var args []string
		for _, a := range e.Args {
			if len(a.Value) > 0 {
				args = append(args, string(a.Value))
			} else {
				args = append(args, a.Description)
			}
		}
		b.problems = append(b.problems, fmt.Sprintf("console.%s: %s", e.Type, strings.Join(args, " ")))
	case *runtime.EventExceptionThrown:
		d := e.ExceptionDetails
		msg := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			msg += " " + d.Exception.Description
		}
		b.problems = append(b.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, msg))
	case *log.EventEntryAdded:
		b.problems = append(b.problems, fmt.Sprintf("browser log (%s, %s): %s %s", e.Entry.Source, e.Entry.Level, e.Entry.Text, e.Entry.URL))
	case *network.EventRequestWillBeSent:
		b.urls[e.RequestID] = e.Request.URL
	case *network.EventLoadingFailed:
		// A navigation or reload cancels the event stream: not a failure.
		if !e.Canceled {
			b.problems = append(b.problems, fmt.Sprintf("request failed: %s: %s", b.urls[e.RequestID], e.ErrorText))
		}
	case *network.EventResponseReceived:
		if e.Response.Status >= 400 {
			b.problems = append(b.problems, fmt.Sprintf("answer %d %s: %s", e.Response.Status, e.Response.StatusText, e.Response.URL))
		}
	}
}

// check fails the test at step when the page met problems since the
// last check, or shows an error of its own.
func (b *browser) check(step string) {
	b.t.Helper()
	b.mu.Lock()
	fresh := b.problems[b.reported:]
	b.reported = len(b.problems)
	b.mu.Unlock()
	for _, p := range fresh {
		b.t.Errorf("%s: %s", step, p)
	}
	// The page says its own errors in the message line and the alert bar.
	shown := evalJS[string](b, `(() => {
		const m = document.getElementById("message"), a = document.getElementById("alert");
		if (a && !a.hidden) return "alert: " + a.textContent;
		if (m && m.classList.contains("err")) return "message: " + m.textContent;
		return "";
	})()`)
	if shown != "" {
		b.t.Errorf("%s: the page shows an error: %s", step, shown)
	}
	// Readable at 1280×800: nothing wider than the window.
	if w := evalJS[int](b, `document.documentElement.scrollWidth`); w > viewportWidth {
		b.t.Errorf("%s: the page is %d pixels wide, wider than the %d of the window", step, w, viewportWidth)
	}
	if len(fresh) > 0 || shown != "" {
		b.screenshot("failed-" + step)
		b.t.FailNow()
	}
}

// do runs actions, failing the test at step on an error.
func (b *browser) do(step string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.screenshot("failed-" + step)
		b.t.Fatalf("%s: %v", step, err)
	}
}

// evalJS evaluates a JavaScript expression in the page (awaiting a promise
// it gives) and returns its value.
func evalJS[T any](b *browser, expr string) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("evaluating %.200s: %v", expr, err)
	}
	return v
}

// waitFor waits until the JavaScript condition cond holds in the page,
// failing the test with what when it does not within the timeout.
func (b *browser) waitFor(what, cond string) {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool]("!!("+cond+")", chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return
		}
		var ex *chromedp.ExceptionError
		if err != nil && !errors.As(err, &ex) {
			b.t.Fatalf("waiting for %s: %v", what, err)
		}
		if time.Now().After(deadline) {
			b.screenshot("failed-wait")
			b.t.Fatalf("waited 30 s for %s (%s); the page shows: %.600s", what, cond, evalJS[string](b, `document.body.innerText`))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// screenshot writes the viewport as NN-name.png in the output folder.
func (b *browser) screenshot(name string) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	b.shots++
	p := filepath.Join(b.out, fmt.Sprintf("%02d-%s.png", b.shots, name))
	if err := os.WriteFile(p, png, 0o644); err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
	}
}
