package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/workbench"
	"github.com/semitopic/semitopic/workbench/web"
)

// workbenchServer is semitopic workbench served in the test's process on
// loopback, as the command serves it: a session and its web server.
type workbenchServer struct {
	url  string
	sess *workbench.Session
	stop func()
}

// serveWorkbench opens (or resumes) the project in dir on c and serves it
// on a free loopback port until stop. Every answer with an error status
// fails the test: the page's flows must not meet one.
func serveWorkbench(t *testing.T, c *corpus.Corpus, dir string) *workbenchServer {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	sess, err := workbench.Open(ctx, workbench.Config{Corpus: c, Source: []string{"--format=jsonl", "demo.jsonl"},
		LabelsFromCorpus: true, Seed: 1, Project: dir})
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	logger := slog.New(&statusLog{t: t})
	h, err := web.New(sess, web.Options{Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- web.Serve(ctx, ln, h, logger, 5*time.Second) }()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serving the workbench: %v", err)
			}
			sess.Close()
		})
	}
	t.Cleanup(stop)
	return &workbenchServer{url: "http://" + ln.Addr().String() + "/", sess: sess, stop: stop}
}

// statusLog is a slog.Handler for the web server's request log that
// fails the test on an answer with an error status.
type statusLog struct {
	t     *testing.T
	attrs []slog.Attr
}

func (h *statusLog) Enabled(context.Context, slog.Level) bool { return true }

func (h *statusLog) Handle(_ context.Context, r slog.Record) error {
	var method, path string
	status := int64(0)
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "method":
			method = a.Value.String()
		case "path":
			path = a.Value.String()
		case "status":
			status = a.Value.Int64()
		}
		return true
	})
	if r.Level >= slog.LevelWarn || status >= 400 {
		h.t.Errorf("the workbench answered %s %s with %d: %s", method, path, status, r.Message)
	}
	return nil
}

func (h *statusLog) WithAttrs(as []slog.Attr) slog.Handler {
	return &statusLog{t: h.t, attrs: append(slices.Clone(h.attrs), as...)}
}

func (h *statusLog) WithGroup(string) slog.Handler { return h }

// settled waits until the session shows round of rounds, has fitted its
// current version and estimated the round's accuracy, and the page says
// so: its header names the round and "Up to date".
func (b *browser) settled(w *workbenchServer, round, rounds int) workbench.Status {
	b.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	var st workbench.Status
	for {
		st = w.sess.Status()
		if st.Round == round && st.Rounds == rounds && st.Fitted == st.Version && !st.Refitting && !st.Estimating {
			break
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("waited 30 s for round %d of %d, fitted and estimated: %+v", round, rounds, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
	topics := fmt.Sprintf("%d topics", st.K)
	if st.K == 1 {
		topics = "1 topic"
	}
	header := fmt.Sprintf("%s · %s · round %d of %d", st.Kind, topics, st.Round, st.Rounds)
	b.waitFor("the header to say "+header+" and Up to date",
		fmt.Sprintf(`document.getElementById("model").textContent === %q && /Up to date/.test(document.getElementById("fit").textContent) && !/estimating/.test(document.getElementById("fit").textContent)`, header))
	// The page loads the round's topics, view and panel after the status.
	b.waitFor("the round's view", `document.querySelector("#view h2") && document.querySelector("#panel h3") && !/loading…/.test(document.getElementById("view").textContent)`)
	time.Sleep(300 * time.Millisecond)
	return st
}

// clearInput empties a text field as a person does: select all (ctrl+a),
// then backspace.
func clearInput[S chromedp.Selectable](sel S) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(chromedp.Focus(sel), chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace))
}

// jsString quotes s for a JavaScript expression.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestWorkbenchInBrowser runs the workbench's main flows in headless
// Chromium as a person would, with the mouse and the keyboard, on the demo
// corpus: open; add a seed word and see what the refit changed; undo and
// redo with the keys; label three documents, and one more with the key l;
// export; search, move between topics, the vocabulary and a refit with the
// keys; reload and resume where it stopped; Tab through the page.
func TestWorkbenchInBrowser(t *testing.T) {
	b := newBrowser(t)
	start := time.Now()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "demo.workbench")
	w := serveWorkbench(t, d.Corpus, dir)

	// 1. Open: the topics listed, the first one in view.
	b.do("open", chromedp.Navigate(w.url))
	st := b.settled(w, 1, 1)
	b.waitFor("the topics listed", `document.querySelectorAll(".topic[data-topic]").length > 0 && document.querySelector("#view .card")`)
	listed := evalJS[int](b, `document.querySelectorAll(".topic[data-topic]").length`)
	nonEmpty := 0
	for _, tv := range w.sess.Topics(10) {
		if !tv.Empty {
			nonEmpty++
		}
	}
	if st.Round != 1 || listed != nonEmpty || listed == 0 {
		t.Fatalf("open: round %d, %d topics listed, want round 1 and the %d topics with words", st.Round, listed, nonEmpty)
	}
	b.screenshot("open")
	b.check("open")

	// 2. A seed word: the first topic's best word after its top 10 that
	// no other topic has among its top 30 words, typed into the topic's
	// seed form and submitted with Enter.
	topic := evalJS[string](b, `document.querySelector("#view h2").textContent`)
	var word string
	others := map[string]bool{}
	var mine []string
	for _, tv := range w.sess.Topics(30) {
		for _, wv := range tv.Words {
			if tv.Name == topic {
				mine = append(mine, wv.Word)
			} else {
				others[wv.Word] = true
			}
		}
	}
	for r := 11; r <= len(mine); r++ {
		if !others[mine[r-1]] {
			word = mine[r-1]
			break
		}
	}
	if word == "" {
		t.Fatalf("topic %q has no word of its own ranked 11 to 25 to seed it with: %q", topic, mine)
	}
	seedInput := chromedp.CSS(`input[aria-label="seed word"]`)
	b.do("add a seed word", chromedp.Click(seedInput), chromedp.SendKeys(seedInput, word), chromedp.KeyEvent("\r"))
	b.waitFor("the edit to be taken", `/refitting…|Round 2 is in/.test(document.getElementById("message").textContent)`)
	b.screenshot("seed-submitted")
	b.settled(w, 2, 2)
	var rank int
	for _, tv := range w.sess.Topics(10) {
		for _, s := range tv.Seeds {
			if tv.Name == topic && s.Term == word {
				rank = s.Rank
			}
		}
	}
	if rank < 1 {
		t.Fatalf("the seed word %q has no rank in %q", word, topic)
	}
	// The Changes panel says what the round changed and where the seed
	// word landed, as the engine's checks have it: among the top 10 (and
	// then among the words that entered them) or, in red, not; the
	// topic's seed chip gives the same rank. (Not every kind holds a
	// seed word in the top 10: the page says so.)
	change := fmt.Sprintf("seed word %q added to topic %q", word, topic)
	where := `p.includes("0 of 1 seed words in their topic's top 10") && document.querySelector("#panel .seedranks li.bad")`
	if rank <= 10 {
		where = fmt.Sprintf(`p.includes("1 of 1 seed words in their topic's top 10") && p.includes("+" + %s)`, jsString(word))
	} else {
		t.Logf("the seed word %q has rank %d in %q after the refit, not in its top 10", word, rank, topic)
	}
	b.waitFor("the Changes panel to show round 2 and the seed word's rank", fmt.Sprintf(`(() => {
		const p = document.getElementById("panel").textContent;
		return p.includes("Round 2 against round 1") && p.includes(%s) && p.includes(%s) && %s;
	})()`, jsString(change), jsString(fmt.Sprintf("★ %s in %s: rank %d", word, topic, rank)), where))
	b.waitFor("the seed chip with the rank", fmt.Sprintf(`Array.from(document.querySelectorAll(".seedtag")).some((e) => e.textContent.includes(%s))`,
		jsString(fmt.Sprintf("★ %s · #%d", word, rank))))
	b.screenshot("seed-changes")
	b.check("add a seed word")

	// 3. Undo with u, redo with shift+u: between rounds, no refit.
	b.do("undo", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("u"))
	b.waitFor("the undo", `/round 1 of 2/.test(document.getElementById("model").textContent)`)
	b.settled(w, 1, 2)
	b.waitFor("the seed word gone from the topic", `!document.querySelector(".seedtag") && /No seed words/.test(document.getElementById("view").textContent)`)
	b.screenshot("undo")
	b.check("undo")
	b.do("redo", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("U"))
	b.waitFor("the redo", `/round 2 of 2/.test(document.getElementById("model").textContent)`)
	b.settled(w, 2, 2)
	b.waitFor("the seed word back", fmt.Sprintf(`Array.from(document.querySelectorAll(".seedtag")).some((e) => e.textContent.includes(%s))`, jsString("★ "+word)))
	b.screenshot("redo")
	b.check("redo")

	// 4. Three of the topic's top documents without a label, chosen with
	// the keyboard (Space on their boxes) and labeled with the toolbar.
	label := ""
	for _, tv := range w.sess.Topics(10) {
		if tv.Name == topic {
			label = tv.Label
		}
	}
	if label == "" {
		t.Fatalf("topic %q serves no label", topic)
	}
	ids := evalJS[[]string](b, `Array.from(document.querySelectorAll("#view .card[data-id]")).filter((c) => !c.querySelector(".tag.label")).map((c) => c.getAttribute("data-id")).slice(0, 4)`)
	if len(ids) < 4 {
		t.Fatalf("the topic's top documents hold %d without a label, want 4", len(ids))
	}
	for _, id := range ids[:3] {
		box := chromedp.CSS(fmt.Sprintf(`.card[data-id=%s] input[type=checkbox]`, jsString(id)))
		b.do("select "+id, chromedp.Focus(box), chromedp.KeyEvent(" "))
	}
	b.waitFor("three selected", `/^3 selected$/.test(document.querySelector(".doctools .muted").textContent)`)
	labelInput := chromedp.CSS(`.doctools input[list=labellist]`)
	b.do("type the label", clearInput(labelInput), chromedp.SendKeys(labelInput, label))
	b.screenshot("three-selected")
	b.do("label", chromedp.Click(chromedp.CSS(`.doctools button`)))
	b.settled(w, 3, 3)
	labels := w.sess.State().Labels
	for _, id := range ids[:3] {
		if !slices.Equal(labels[id], []string{label}) {
			t.Errorf("document %s has labels %q, want [%s]", id, labels[id], label)
		}
	}
	b.waitFor("the Changes panel to name the labeled documents", fmt.Sprintf(`document.getElementById("panel").textContent.includes(%s)`,
		jsString(fmt.Sprintf("3 documents (%q, %q, %q) labeled %q", ids[0], ids[1], ids[2], label))))
	for _, id := range ids[:3] {
		b.waitFor(id+"'s label tag", fmt.Sprintf(`(() => { const c = document.querySelector(%s); return c && Array.from(c.querySelectorAll(".tag.label")).some((t) => t.textContent.startsWith(%s)); })()`,
			jsString(fmt.Sprintf(".card[data-id=%s]", jsString(id))), jsString(label)))
	}
	b.screenshot("labeled")
	b.check("label three documents")

	// 5. One more with the key l on the focused document.
	b.do("label with l", chromedp.Focus(chromedp.CSS(fmt.Sprintf(`.card[data-id=%s]`, jsString(ids[3])))), chromedp.KeyEvent("l"))
	b.waitFor("the label edit", `/round 4 of 4/.test(document.getElementById("model").textContent)`)
	b.settled(w, 4, 4)
	if got := w.sess.State().Labels[ids[3]]; !slices.Equal(got, []string{label}) {
		t.Fatalf("after l: %s labeled %q, want [%s]", ids[3], got, label)
	}
	b.screenshot("label-with-l")
	b.check("label with l")

	// 6. Export: every link of the panel answers, with what the engine
	// exports.
	b.do("export", chromedp.Click(chromedp.ID("tab-export")))
	b.waitFor("the export panel", `document.querySelectorAll("#panel a[download]").length === 5 && document.querySelector("#panel pre.cmd")`)
	type answer struct {
		Status int    `json:"status"`
		Type   string `json:"type"`
		Size   int    `json:"size"`
		Text   string `json:"text"`
	}
	answers := evalJS[map[string]answer](b, `(async () => {
		const out = {};
		for (const a of document.querySelectorAll("#panel a[download]")) {
			const r = await fetch(a.getAttribute("href"));
			const body = await r.text();
			out[a.getAttribute("download")] = {status: r.status, type: r.headers.get("Content-Type") || "", size: body.length, text: a.download.endsWith(".semitopic") ? "" : body};
		}
		return out;
	})()`)
	for what, file := range map[string]string{"anchors": "anchors.txt", "labels": "labels.csv", "command": "command.txt", "report": "report.html", "model": "model.semitopic"} {
		a, ok := answers[file]
		if !ok || a.Status != 200 || a.Size == 0 {
			t.Errorf("export %s: the link answers %+v", file, a)
			continue
		}
		if what == "model" {
			continue
		}
		var want bytes.Buffer
		if err := w.sess.Export(&want, what); err != nil {
			t.Fatal(err)
		}
		if what != "report" && a.Text != want.String() {
			t.Errorf("export %s: the link gives %q, the engine %q", file, a.Text, want.String())
		}
	}
	if a := answers["anchors.txt"].Text; !strings.Contains(a, topic+": ") || !strings.Contains(a, word) {
		t.Errorf("anchors.txt lacks the seed word %q of %s: %q", word, topic, a)
	}
	for _, id := range ids {
		if l := answers["labels.csv"].Text; !strings.Contains(l, id+","+label+"\n") {
			t.Errorf("labels.csv lacks %s,%s", id, label)
		}
	}
	if c := answers["command.txt"].Text; !strings.HasPrefix(c, "semitopic fit ") || !strings.Contains(c, "--anchors ") || !strings.Contains(c, "--labels-csv ") {
		t.Errorf("command.txt: %q", c)
	}
	if r := answers["report.html"]; !strings.Contains(r.Text, "<html") || !strings.HasPrefix(r.Type, "text/html") {
		t.Errorf("report.html: %s, %.100q", r.Type, r.Text)
	}
	b.screenshot("export")
	b.check("export")

	// 7. The other keys: / searches, j and k move between topics, v shows
	// the vocabulary, r refits.
	b.do("search key", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("/"))
	b.waitFor("the search box focused", `document.activeElement && document.activeElement.id === "q"`)
	// The protocol's key event types the "/" into the box it focused
	// (a real key press does not): clear it, then type the query.
	b.do("search", clearInput(chromedp.ID("q")), chromedp.SendKeys(chromedp.ID("q"), word), chromedp.KeyEvent("\r"))
	b.waitFor("the search's documents", fmt.Sprintf(`document.querySelector("#view h2").textContent === %s && document.querySelectorAll("#view .card mark").length > 0`, jsString("Search: "+word)))
	b.screenshot("search")
	b.check("search")
	b.do("topic key", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); location.hash = "#topic/" + encodeURIComponent(`+jsString(topic)+`)`))
	b.waitFor("the topic in view", fmt.Sprintf(`document.querySelector("#view h2").textContent === %s`, jsString(topic)))
	b.do("j", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("j"))
	b.waitFor("j to show the next topic", fmt.Sprintf(`location.hash.startsWith("#topic/") && decodeURIComponent(location.hash.slice(7)) !== %s && document.activeElement.matches(".topic[data-topic]")`, jsString(topic)))
	b.do("k", chromedp.KeyEvent("k"))
	b.waitFor("k to show the topic before", fmt.Sprintf(`decodeURIComponent(location.hash.slice(7)) === %s && document.querySelector("#view h2").textContent === %s`, jsString(topic), jsString(topic)))
	b.do("v", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("v"))
	b.waitFor("the vocabulary", `document.querySelectorAll("table.vocab tbody tr").length > 10`)
	b.screenshot("vocabulary")
	b.check("vocabulary")
	b.do("r", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`), chromedp.KeyEvent("r"))
	b.waitFor("the refit", `/round 5 of 5/.test(document.getElementById("model").textContent)`)
	b.settled(w, 5, 5)
	b.check("refit")

	// 8. Reload: the same round, the same view.
	b.do("back to the topic", chromedp.Evaluate[chromedp.Void](`location.hash = "#topic/" + encodeURIComponent(`+jsString(topic)+`)`))
	b.waitFor("the topic in view", fmt.Sprintf(`document.querySelector("#view h2").textContent === %s`, jsString(topic)))
	before := evalJS[string](b, `document.getElementById("model").textContent`)
	b.do("reload", chromedp.Reload())
	b.settled(w, 5, 5)
	if after := evalJS[string](b, `document.getElementById("model").textContent`); after != before {
		t.Errorf("after reload the header says %q, before %q", after, before)
	}
	b.waitFor("the topic in view again", fmt.Sprintf(`document.querySelector("#view h2").textContent === %s`, jsString(topic)))
	b.screenshot("reload")
	b.check("reload")

	// 9. Tab from the top of the page reaches every main action, each with
	// a visible focus ring.
	b.tabThrough(topic)
	b.check("keyboard")

	// 10. Resume: the workbench stops and starts again on its project
	// folder; the page shows the same round, seed word and labels.
	b.do("leave", chromedp.Navigate("about:blank"))
	w.stop()
	w = serveWorkbench(t, d.Corpus, dir)
	if st := w.sess.Status(); st.Round != 5 || st.Rounds != 5 {
		t.Fatalf("resumed at round %d of %d, want 5 of 5", st.Round, st.Rounds)
	}
	b.do("resume", chromedp.Navigate(w.url+"#topic/"+url.PathEscape(topic)))
	b.settled(w, 5, 5)
	if after := evalJS[string](b, `document.getElementById("model").textContent`); after != before {
		t.Errorf("resumed, the header says %q, before %q", after, before)
	}
	b.waitFor("the seed word and the labels after resuming", fmt.Sprintf(`Array.from(document.querySelectorAll(".seedtag")).some((e) => e.textContent.includes(%s)) && document.querySelectorAll("#view .card .tag.label").length >= 4`, jsString("★ "+word)))
	b.screenshot("resume")
	b.check("resume")
	t.Logf("%d screenshots in %s; %.1f s", b.shots, b.out, time.Since(start).Seconds())
}

// focusStop is where one Tab press left the focus.
type focusStop struct {
	What    string `json:"what"`
	Visible bool   `json:"visible"`
	Outline string `json:"outline"`
}

// tabThrough presses Tab from the top of the page until the focus leaves
// it, and checks that the main actions were reached, each with a visible
// focus ring (an outline of 2 pixels or more).
func (b *browser) tabThrough(topic string) {
	b.t.Helper()
	b.do("to the top", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur(); window.scrollTo(0, 0); document.body.focus()`))
	var stops []focusStop
	shot := false
	for i := 0; i < 1000; i++ {
		b.do("tab", chromedp.KeyEvent("\t"))
		s := evalJS[focusStop](b, `(() => {
			const e = document.activeElement;
			if (!e || e === document.body) return {what: "", visible: false, outline: ""};
			const cs = getComputedStyle(e);
			const label = e.getAttribute("aria-label") || e.id || (e.textContent || "").trim().slice(0, 40);
			const what = e.tagName.toLowerCase() + (e.classList.length ? "." + Array.from(e.classList).join(".") : "") + (e.getAttribute("role") ? "[role=" + e.getAttribute("role") + "]" : "") + " " + label;
			const width = parseFloat(cs.outlineWidth) || 0;
			return {what, visible: e.matches(":focus-visible") && cs.outlineStyle !== "none" && width >= 2, outline: cs.outlineStyle + " " + cs.outlineWidth + " " + cs.outlineColor};
		})()`)
		if s.What == "" {
			break
		}
		stops = append(stops, s)
		if !s.Visible {
			b.t.Errorf("Tab %d: %s has focus with no visible ring (outline %s)", i+1, s.What, s.Outline)
		}
		if !shot && strings.HasPrefix(s.What, "input seed word") {
			b.screenshot("focus-seed-word")
			shot = true
		}
	}
	want := []string{"a.skip", "#undo", "#refit", "#q", "#newtopic", "button.topic",
		"Rename…", "Merge…", "Split…", "Delete…", "seed word", "Add seed", "word to exclude", "Exclude", "button seed ", "button exclude ", "button stopword ",
		"select all the documents listed", "label to give", "Label the selected documents", "div.card", "[role=tab]"}
	// The elements as listed: what a stop must hold (a class, an id, a
	// label or the text).
	for _, w := range want {
		found := false
		for _, s := range stops {
			if strings.Contains(s.What, w) || (strings.HasPrefix(w, "#") && strings.Contains(s.What, " "+w[1:])) {
				found = true
				break
			}
		}
		if !found {
			b.t.Errorf("Tab never reaches %q in the view of %s (%d stops)", w, topic, len(stops))
		}
	}
	if b.t.Failed() {
		for i, s := range stops {
			b.t.Logf("Tab %d: %s (%s)", i+1, s.What, s.Outline)
		}
	}
}
