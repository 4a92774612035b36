package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/workbench"
)

// demoCorpus is 160 documents of the demo corpus, a third of them labeled.
func demoCorpus(t *testing.T) *corpus.Corpus {
	t.Helper()
	d, err := demo.Generate(demo.Options{Docs: 160})
	if err != nil {
		t.Fatal(err)
	}
	return d.Corpus
}

// openSession opens a tsnmf session on the demo corpus's labels in a new
// project folder, automatic refits off (POST /api/refit starts them)
// unless a pause before them is given.
func openSession(t *testing.T, debounce ...time.Duration) *workbench.Session {
	t.Helper()
	pause := time.Duration(-1)
	if len(debounce) > 0 {
		pause = debounce[0]
	}
	s, err := workbench.Open(context.Background(), workbench.Config{
		Corpus: demoCorpus(t), Source: []string{"--format=jsonl", "demo.jsonl"}, Kind: "tsnmf", LabelsFromCorpus: true,
		Seed: 1, MaxIter: 20, Project: t.TempDir(), Debounce: pause,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// serve serves sess with o on a test server.
func serve(t *testing.T, sess *workbench.Session, o Options) (*httptest.Server, *Server) {
	t.Helper()
	h, err := New(sess, o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		h.Close()
		ts.Close()
	})
	return ts, h
}

// call sends a request and returns the status and the body; body "" sends
// none, and a POST is JSON.
func call(t *testing.T, method, u, body string, header ...string) (int, http.Header, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, b
}

// getJSON gets a JSON answer with status 200 and no null in it, decoded
// into v.
func getJSON(t *testing.T, u string, v any) {
	t.Helper()
	code, h, b := call(t, http.MethodGet, u, "")
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, code, b)
	}
	if ct := h.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("GET %s: Content-Type %q", u, ct)
	}
	noNull(t, u, b)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("GET %s: %v in %s", u, err, b)
	}
}

// noNull fails when the JSON body holds a null anywhere.
func noNull(t *testing.T, what string, body []byte) {
	t.Helper()
	var x any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&x); err != nil {
		t.Fatalf("%s: %v in %s", what, err, body)
	}
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch x := x.(type) {
		case nil:
			t.Errorf("%s: null at %s", what, path)
		case map[string]any:
			for k, v := range x {
				walk(path+"."+k, v)
			}
		case []any:
			for i, v := range x {
				walk(fmt.Sprintf("%s[%d]", path, i), v)
			}
		}
	}
	walk("$", x)
}

// errorOf returns the "error" of a JSON error answer, checking that it is
// in plain words: no Go type or package names.
func errorOf(t *testing.T, what string, body []byte) string {
	t.Helper()
	var e struct {
		Error string `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error == "" {
		t.Fatalf("%s: no JSON error in %s", what, body)
	}
	for _, bad := range []string{"json:", "unmarshal", "Go value", "Go struct", "float64", "[]string", "workbench:", "web.", "*"} {
		if strings.Contains(e.Error, bad) {
			t.Errorf("%s: the error %q is not in plain words (%q)", what, e.Error, bad)
		}
	}
	return e.Error
}

func TestRoutes(t *testing.T) {
	sess := openSession(t)
	ts, _ := serve(t, sess, Options{})

	// The page and its files.
	for _, f := range []struct{ path, ctype, holds string }{
		{"/", "text/html; charset=utf-8", `src="app.js"`},
		{"/app.js", "text/javascript; charset=utf-8", "/api/edit"},
		{"/app.css", "text/css; charset=utf-8", "focus-visible"},
	} {
		code, h, b := call(t, "GET", ts.URL+f.path, "")
		if code != 200 || h.Get("Content-Type") != f.ctype || !bytes.Contains(b, []byte(f.holds)) {
			t.Errorf("GET %s: %d %q, %d bytes", f.path, code, h.Get("Content-Type"), len(b))
		}
		if !strings.Contains(h.Get("Content-Security-Policy"), "default-src 'none'") || h.Get("X-Frame-Options") != "DENY" {
			t.Errorf("GET %s: security headers %v", f.path, h)
		}
	}

	var st workbench.Status
	getJSON(t, ts.URL+"/api/status", &st)
	if st.Round != 1 || st.Kind != "tsnmf" || st.K < 2 {
		t.Fatalf("status %+v", st)
	}
	var state stateView
	getJSON(t, ts.URL+"/api/state", &state)
	if state.Kind != "tsnmf" || state.Labeled == 0 || len(state.Labels) == 0 || len(state.Kinds) == 0 || len(state.Ops) != len(workbench.Ops()) {
		t.Errorf("state %+v", state)
	}
	var topics struct {
		Round  int
		Topics []workbench.TopicView
	}
	getJSON(t, ts.URL+"/api/topics?n=5", &topics)
	if topics.Round != 1 || len(topics.Topics) != st.K || len(topics.Topics[0].Words) != 5 {
		t.Fatalf("topics %+v", topics)
	}
	topic, word := topics.Topics[0].Name, topics.Topics[0].Words[0].Word
	var docs struct {
		Topic string
		Docs  []workbench.DocView
	}
	getJSON(t, ts.URL+"/api/topics/"+url.PathEscape(topic)+"/docs?n=3", &docs)
	if docs.Topic != topic || len(docs.Docs) != 3 || docs.Docs[0].ID == "" {
		t.Fatalf("topic docs %+v", docs)
	}
	var found struct {
		Q    string
		Docs []workbench.DocView
		Note string
	}
	getJSON(t, ts.URL+"/api/search?n=4&q="+url.QueryEscape(word), &found)
	if found.Q != word || len(found.Docs) == 0 || found.Note != "" {
		t.Errorf("search %q: %+v", word, found)
	}
	// A word the pipeline reads as no term finds nothing, and says why.
	found.Docs, found.Note = nil, ""
	getJSON(t, ts.URL+"/api/search?q=zzzqxw", &found)
	if len(found.Docs) != 0 || !strings.Contains(found.Note, "zzzqxw") {
		t.Errorf("search for no term: %+v", found)
	}
	id := docs.Docs[0].ID
	var doc workbench.DocView
	getJSON(t, ts.URL+"/api/docs/"+url.PathEscape(id), &doc)
	if doc.ID != id || doc.Text == "" || len(doc.Mixture) == 0 {
		t.Errorf("document %s: %+v", id, doc)
	}
	var vocab struct {
		Prefix string
		Terms  []workbench.TermView
	}
	getJSON(t, ts.URL+"/api/vocab?n=7&prefix="+url.QueryEscape(word[:1]), &vocab)
	if len(vocab.Terms) == 0 || len(vocab.Terms) > 7 || !strings.HasPrefix(vocab.Terms[0].Term, word[:1]) || vocab.Terms[0].DF == 0 {
		t.Errorf("vocab: %+v", vocab)
	}
	var rounds struct{ Rounds []workbench.RoundSummary }
	getJSON(t, ts.URL+"/api/rounds", &rounds)
	if len(rounds.Rounds) != 1 || !rounds.Rounds[0].Current {
		t.Errorf("rounds %+v", rounds)
	}
	for _, n := range []string{"0", "1"} {
		var d workbench.Diff
		getJSON(t, ts.URL+"/api/rounds/"+n+"/diff", &d)
		if d.Round != 1 {
			t.Errorf("diff %s: %+v", n, d)
		}
	}
	var sg map[string]json.RawMessage
	getJSON(t, ts.URL+"/api/suggest", &sg)
	for _, k := range []string{"label", "separate", "junk"} {
		if v, ok := sg[k]; !ok || v[0] != '[' {
			t.Errorf("suggest: %s is %s, not a list", k, v)
		}
	}
	var w waitAnswer
	getJSON(t, ts.URL+"/api/wait?version=0", &w)
	if w.Round.Number != 1 || w.Status.Fitted != 0 {
		t.Errorf("wait: %+v", w)
	}

	// Exports: downloads, whole.
	for _, what := range workbench.Exports() {
		code, h, b := call(t, "GET", ts.URL+"/api/export/"+what, "")
		if code != 200 || len(b) == 0 || !strings.Contains(h.Get("Content-Disposition"), workbench.ExportName(what)) {
			t.Errorf("export %s: %d %v %d bytes", what, code, h, len(b))
		}
	}
	_, _, cmd := call(t, "GET", ts.URL+"/api/export/command", "")
	if !strings.Contains(string(cmd), "fit") || !strings.Contains(string(cmd), "--kind tsnmf") {
		t.Errorf("command: %s", cmd)
	}
}

// post sends a JSON body and decodes the answer; it returns the status.
func post(t *testing.T, u, body string, v any, header ...string) int {
	t.Helper()
	code, _, b := call(t, http.MethodPost, u, body, header...)
	noNull(t, u, b)
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("POST %s: %v in %s", u, err, b)
		}
	}
	return code
}

// waitFor waits over HTTP until version is fitted.
func waitFor(t *testing.T, ts *httptest.Server, version int) waitAnswer {
	t.Helper()
	var w waitAnswer
	getJSON(t, fmt.Sprintf("%s/api/wait?version=%d&timeout=50s", ts.URL, version), &w)
	return w
}

func TestEditRefitUndoRedo(t *testing.T) {
	sess := openSession(t)
	ts, _ := serve(t, sess, Options{})
	var topics struct{ Topics []workbench.TopicView }
	getJSON(t, ts.URL+"/api/topics", &topics)
	a, b := topics.Topics[0], topics.Topics[1]
	word := b.Words[0].Word // a word of another topic, seeded into a

	var ans actionAnswer
	body := fmt.Sprintf(`{"base": 0, "edit": {"op": "add-seed", "topic": %q, "word": %q, "strength": 3}}`, a.Name, word)
	if code := post(t, ts.URL+"/api/edit", body, &ans); code != 200 || ans.Version != 1 || ans.Status.Version != 1 || ans.Status.Fitted != 0 {
		t.Fatalf("edit: %d %+v", code, ans)
	}
	// Automatic refits are off: the edit waits for /api/refit.
	if code := post(t, ts.URL+"/api/refit", `{"base": 1}`, &ans); code != 200 || ans.Version != 1 {
		t.Fatalf("refit: %d %+v", code, ans)
	}
	if w := waitFor(t, ts, 1); w.Round.Number != 2 || w.Status.Round != 2 {
		t.Fatalf("after the refit: %+v", w)
	}
	var d workbench.Diff
	getJSON(t, ts.URL+"/api/rounds/2/diff", &d)
	if d.Previous != 1 || len(d.Changes) == 0 || len(d.Checks.Seeds) != 1 || d.Checks.Seeds[0].Word != word {
		t.Errorf("diff of round 2: %+v", d)
	}
	var state stateView
	getJSON(t, ts.URL+"/api/state", &state)
	if len(state.Anchors) != 1 || state.Anchors[0].Topic != a.Name || state.Anchors[0].Seeds[0] != (seedWord{word, 3}) {
		t.Errorf("state after add-seed: %+v", state.Anchors)
	}

	// A second tab still at version 0 is told what it missed.
	var conflict struct {
		Error         string
		Base, Current int
		Missed        []string
	}
	body = fmt.Sprintf(`{"base": 0, "edit": {"op": "add-exclude", "topic": %q, "word": %q}}`, a.Name, word)
	code, _, raw := call(t, http.MethodPost, ts.URL+"/api/edit", body)
	if code != http.StatusConflict {
		t.Fatalf("stale edit: %d %s", code, raw)
	}
	msg := errorOf(t, "conflict", raw)
	json.Unmarshal(raw, &conflict)
	if conflict.Base != 0 || conflict.Current != 1 || len(conflict.Missed) != 1 || !strings.Contains(conflict.Missed[0], word) || !strings.Contains(msg, "version 1") {
		t.Errorf("conflict: %s", raw)
	}
	for _, p := range []string{"/api/undo", "/api/redo", "/api/refit"} {
		if code := post(t, ts.URL+p, `{"base": 0}`, nil); code != http.StatusConflict {
			t.Errorf("stale %s: %d", p, code)
		}
	}

	// Undo and redo move between the rounds without refitting.
	if code := post(t, ts.URL+"/api/undo", `{"base": 1}`, &ans); code != 200 || ans.Status.Round != 1 || !ans.Status.CanRedo || ans.Status.Refitting {
		t.Fatalf("undo: %d %+v", code, ans)
	}
	if code := post(t, ts.URL+"/api/redo", fmt.Sprintf(`{"base": %d}`, ans.Version), &ans); code != 200 || ans.Status.Round != 2 || ans.Status.CanRedo {
		t.Fatalf("redo: %d %+v", code, ans)
	}
	// Nothing to redo is an error in words.
	code, _, raw = call(t, http.MethodPost, ts.URL+"/api/redo", fmt.Sprintf(`{"base": %d}`, ans.Version))
	if code != http.StatusUnprocessableEntity || !strings.Contains(errorOf(t, "redo", raw), "redo") {
		t.Errorf("redo with nothing to redo: %d %s", code, raw)
	}

	// Label a selection of documents: the topic's top documents.
	var docs struct{ Docs []workbench.DocView }
	getJSON(t, ts.URL+"/api/topics/"+url.PathEscape(b.Name)+"/docs?n=3", &docs)
	ids, _ := json.Marshal([]string{docs.Docs[0].ID, docs.Docs[1].ID, docs.Docs[2].ID})
	v := ans.Version
	body = fmt.Sprintf(`{"base": %d, "edit": {"op": "label", "docs": %s, "label": %q}}`, v, ids, a.Name)
	if code := post(t, ts.URL+"/api/edit", body, &ans); code != 200 || ans.Version != v+1 {
		t.Fatalf("label: %d %+v", code, ans)
	}
	post(t, ts.URL+"/api/refit", fmt.Sprintf(`{"base": %d}`, ans.Version), nil)
	waitFor(t, ts, ans.Version)
	var doc workbench.DocView
	getJSON(t, ts.URL+"/api/docs/"+url.PathEscape(docs.Docs[0].ID), &doc)
	if len(doc.Labels) != 1 || doc.Labels[0] != a.Name {
		t.Errorf("labeled document: %+v", doc.Labels)
	}
	var rounds struct{ Rounds []workbench.RoundSummary }
	getJSON(t, ts.URL+"/api/rounds", &rounds)
	if len(rounds.Rounds) != 3 {
		t.Errorf("%d rounds, want 3", len(rounds.Rounds))
	}

	// An edit the session refuses names what is wrong, in words.
	body = fmt.Sprintf(`{"base": %d, "edit": {"op": "add-seed", "topic": "no-such-topic", "word": "x"}}`, ans.Version)
	code, _, raw = call(t, http.MethodPost, ts.URL+"/api/edit", body)
	if code != http.StatusUnprocessableEntity || !strings.Contains(errorOf(t, "unknown topic", raw), "no-such-topic") {
		t.Errorf("unknown topic: %d %s", code, raw)
	}
}

func TestBadBodies(t *testing.T) {
	sess := openSession(t)
	ts, _ := serve(t, sess, Options{MaxBodyBytes: 4096})
	edit := func(e string) string { return `{"base": 0, "edit": ` + e + `}` }
	for _, c := range []struct {
		path, body string
		code       int
		says       string
	}{
		{"/api/edit", "", 400, "empty body"},
		{"/api/edit", "{", 400, "invalid JSON"},
		{"/api/edit", `{"base": 0,}`, 400, "invalid JSON at line 1, column 12"},
		{"/api/edit", `[]`, 400, "the body must be a JSON object, not a list"},
		{"/api/edit", `{"base": 0}{}`, 400, "data after the request object"},
		{"/api/edit", `{"edit": {"op": "set-k", "k": 3}}`, 400, `the body has no "base"`},
		{"/api/edit", `{"base": "0", "edit": {}}`, 400, `"base" must be a whole number ≥ 0, not a string`},
		{"/api/edit", `{"base": -1, "edit": {}}`, 400, `"base" must be a whole number ≥ 0, not -1`},
		{"/api/edit", `{"base": 1.5, "edit": {}}`, 400, `"base" must be a whole number ≥ 0, not 1.5`},
		{"/api/edit", `{"base": 0, "edit": {}, "extra": 1}`, 400, `unknown field "extra" in the body`},
		{"/api/edit", `{"base": 0}`, 400, `the body has no "edit"`},
		{"/api/edit", `{"base": 0, "edit": []}`, 400, `"edit" must be a JSON object, not a list`},
		{"/api/edit", edit(`{}`), 400, `"edit" has no "op"`},
		{"/api/edit", edit(`{"op": 3}`), 400, "edit.op must be a string, not a number"},
		{"/api/edit", edit(`{"op": "fly"}`), 400, `unknown edit "fly": the edits are add-seed,`},
		{"/api/edit", edit(`{"op": "add-seed", "topic": "a"}`), 400, `add-seed needs edit.word (it reads "topic", "word", "strength")`},
		{"/api/edit", edit(`{"op": "add-seed", "topic": "a", "word": "b", "docs": ["x"]}`), 400, "edit.docs does not apply to add-seed"},
		{"/api/edit", edit(`{"op": "add-seed", "topic": "a", "word": " "}`), 400, "edit.word is empty"},
		{"/api/edit", edit(`{"op": "add-seed", "topic": "a", "word": "b", "strength": -1}`), 400, "edit.strength must be a number from 1e-06 to 1e+06"},
		{"/api/edit", edit(`{"op": "add-seed", "topic": "a", "word": "b", "strength": "3"}`), 400, "edit.strength must be a number"},
		{"/api/edit", edit(`{"op": "set-k", "k": 0}`), 400, "edit.k must be a whole number ≥ 1, not 0"},
		{"/api/edit", edit(`{"op": "set-k", "k": "4"}`), 400, "edit.k must be a whole number ≥ 1, not a string"},
		{"/api/edit", edit(`{"op": "split", "topic": "a", "name": "b", "groups": [["x"]]}`), 400, "edit.groups must be a list of two lists of seed words, one per new topic, not a list of 1"},
		{"/api/edit", edit(`{"op": "split", "topic": "a", "name": "b", "groups": [["x"], []]}`), 400, "edit.groups[1] is empty"},
		{"/api/edit", edit(`{"op": "label", "docs": [1], "label": "x"}`), 400, "edit.docs[0] must be a string, not a number"},
		{"/api/edit", edit(`{"op": "label", "docs": "d1", "label": "x"}`), 400, "edit.docs must be a list of strings, not a string"},
		{"/api/edit", edit(`{"op": "create-topic", "name": "x", "words": []}`), 400, "edit.words is empty"},
		{"/api/edit", edit(`{"op": "unlabel", "docs": ["` + strings.Repeat("d", 5000) + `"]}`), 413, "request body over 4096 bytes"},
		{"/api/undo", `{}`, 400, `the body has no "base"`},
		{"/api/redo", `{"base": 0, "edit": {}}`, 400, `unknown field "edit" in the body: it has "base"`},
		{"/api/refit", `{"base": null}`, 400, `the body has no "base"`},
	} {
		code, _, b := call(t, http.MethodPost, ts.URL+c.path, c.body)
		if code != c.code {
			t.Errorf("POST %s %.60s: status %d, want %d (%s)", c.path, c.body, code, c.code, b)
			continue
		}
		if msg := errorOf(t, c.body, b); !strings.Contains(msg, c.says) {
			t.Errorf("POST %s %.60s: %q does not say %q", c.path, c.body, msg, c.says)
		}
	}
	// Null fields are as good as absent; every op is known to the decoder.
	for _, op := range workbench.Ops() {
		if _, ok := opFields[op]; !ok {
			t.Errorf("the decoder does not know the edit %q", op)
		}
	}
	base, e, err := decodeEdit([]byte(`{"base": 2, "edit": {"op": "split", "topic": "a", "name": "b", "groups": [["x", "y"], ["z"]], "word": null}}`))
	if err != nil || base != 2 || e.Op != "split" || e.Topic != "a" || e.Name != "b" || len(e.Groups[0]) != 2 || e.Groups[1][0] != "z" {
		t.Errorf("split: %d %+v %v", base, e, err)
	}
}

func TestQueryErrors(t *testing.T) {
	// Edits wait a minute for their refit.
	sess := openSession(t, time.Minute)
	ts, _ := serve(t, sess, Options{})
	var topics struct{ Topics []workbench.TopicView }
	getJSON(t, ts.URL+"/api/topics", &topics)
	for _, c := range []struct {
		path string
		code int
		says string
	}{
		{"/api/topics?n=0", 400, "the query parameter n (top words per topic) must be a whole number from 1 to 1000, not \"0\""},
		{"/api/topics?n=1001", 400, "from 1 to 1000"},
		{"/api/topics?n=ten", 400, `not "ten"`},
		{"/api/topics?n=1&n=2", 400, "the query parameter n is given 2 times"},
		{"/api/topics?words=3", 400, `unknown query parameter "words": /api/topics takes n`},
		{"/api/status?x=1&y=2", 400, `unknown query parameters "x", "y": /api/status takes no query parameter`},
		{"/api/search", 400, "the query parameter q (the word or phrase to search for) is empty"},
		{"/api/search?q=" + strings.Repeat("a", MaxQuery+1), 400, "the query parameter q is 1001 bytes long, at most 1000"},
		{"/api/vocab?prefix=" + strings.Repeat("a", MaxQuery+1), 400, "the query parameter prefix is 1001 bytes long"},
		{"/api/search?q=" + strings.Repeat("a", MaxQueryString), 414, "query string of"},
		{"/api/rounds/x/diff", 400, `the round in /api/rounds/{n}/diff must be a whole number ≥ 1 (0: the current round), not "x"`},
		{"/api/rounds/99/diff", 404, "99"},
		{"/api/docs/no-such-doc", 404, "no-such-doc"},
		{"/api/topics/no-such-topic/docs", 404, "no-such-topic"},
		{"/api/export/everything", 404, `nothing to export called "everything": the export gives model, anchors, labels, report, command`},
		{"/api/wait", 400, "the query parameter version"},
		{"/api/wait?version=-1", 400, "whole number ≥ 0"},
		{"/api/wait?version=0&timeout=2m", 400, "the query parameter timeout must be a duration such as 30s, above 0 and at most 50s"},
		{"/api/wait?version=5", 422, "version 5 does not exist"},
		{"/api/nothing", 404, "no endpoint GET /api/nothing: the API has GET /api/status"},
		{"/nothing", 404, "no endpoint GET /nothing"},
	} {
		code, _, b := call(t, http.MethodGet, ts.URL+c.path, "")
		if code != c.code {
			t.Errorf("GET %.80s: status %d, want %d (%s)", c.path, code, c.code, b)
			continue
		}
		if msg := errorOf(t, c.path, b); !strings.Contains(msg, c.says) {
			t.Errorf("GET %.80s: %q does not say %q", c.path, msg, c.says)
		}
	}
	// A version that waits for its refit.
	post(t, ts.URL+"/api/edit", fmt.Sprintf(`{"base": 0, "edit": {"op": "rename", "topic": %q, "name": "x"}}`, topics.Topics[0].Name), nil)
	code, _, b := call(t, http.MethodGet, ts.URL+"/api/wait?version=1&timeout=20ms", "")
	if code != 503 || !strings.Contains(errorOf(t, "wait", b), "version 1 is not fitted yet after 20ms: wait again") {
		t.Errorf("wait for an unfitted version: %d %s", code, b)
	}
	code, h, b := call(t, http.MethodPost, ts.URL+"/api/status", `{}`)
	if code != 405 || h.Get("Allow") == "" || !strings.Contains(errorOf(t, "405", b), "method POST is not allowed on /api/status") {
		t.Errorf("POST /api/status: %d %v %s", code, h, b)
	}
	code, _, b = call(t, http.MethodGet, ts.URL+"/api/edit", "")
	if code != 405 || !strings.Contains(errorOf(t, "405", b), "allowed: POST") {
		t.Errorf("GET /api/edit: %d %s", code, b)
	}
}

func TestToken(t *testing.T) {
	sess := openSession(t)
	token, err := NewToken()
	if err != nil || len(token) != 32 {
		t.Fatalf("token %q %v", token, err)
	}
	if other, _ := NewToken(); other == token {
		t.Fatal("two tokens alike")
	}
	ts, _ := serve(t, sess, Options{Token: token})
	// The page itself needs no token (it holds no data); the API does.
	if code, _, _ := call(t, "GET", ts.URL+"/", ""); code != 200 {
		t.Errorf("the page without a token: %d", code)
	}
	code, _, b := call(t, "GET", ts.URL+"/api/status", "")
	if code != 401 || !strings.Contains(errorOf(t, "no token", b), "needs its token") {
		t.Errorf("no token: %d %s", code, b)
	}
	code, _, b = call(t, "GET", ts.URL+"/api/status", "", TokenHeader, token+"x")
	if code != 401 || !strings.Contains(errorOf(t, "wrong token", b), "wrong token") {
		t.Errorf("wrong token: %d %s", code, b)
	}
	code, _, b = call(t, "POST", ts.URL+"/api/refit", `{"base": 0}`)
	if code != 401 {
		t.Errorf("POST without token: %d %s", code, b)
	}
	if code, _, b := call(t, "GET", ts.URL+"/api/status", "", TokenHeader, token); code != 200 {
		t.Errorf("right token: %d %s", code, b)
	}
	// With a token the Host header may name the machine any way.
	if code, _, b := call(t, "GET", ts.URL+"/api/status", "", TokenHeader, token, "Host", "workstation.example:8080"); code != 200 {
		t.Errorf("another host name with the token: %d %s", code, b)
	}
	// And the origin is still checked.
	if code, _, b := call(t, "POST", ts.URL+"/api/refit", `{"base": 0}`, TokenHeader, token, "Origin", "http://evil.example"); code != 403 {
		t.Errorf("cross-origin POST with the token: %d %s", code, b)
	}
}

func TestHostAndOrigin(t *testing.T) {
	sess := openSession(t)
	ts, _ := serve(t, sess, Options{Hosts: []string{"wb.example"}})
	host := strings.TrimPrefix(ts.URL, "http://")
	_, port, _ := net.SplitHostPort(host)
	for _, c := range []struct {
		host string
		code int
	}{
		{host, 200},
		{"localhost:" + port, 200},
		{"LOCALHOST.:" + port, 200},
		{"127.0.0.1", 200},
		{"[::1]:" + port, 200},
		{"wb.example:" + port, 200},
		{"evil.example:" + port, 403},
		{"127.0.0.1.evil.example", 403},
		{"10.0.0.1:" + port, 403},
	} {
		code, _, b := call(t, "GET", ts.URL+"/api/status", "", "Host", c.host)
		if code != c.code {
			t.Errorf("Host %s: %d, want %d (%s)", c.host, code, c.code, b)
		}
		if c.code == 403 && !strings.Contains(errorOf(t, c.host, b), "refused") {
			t.Errorf("Host %s: %s", c.host, b)
		}
	}
	// A rebinding page cannot load the page either.
	if code, _, _ := call(t, "GET", ts.URL+"/", "", "Host", "evil.example"); code != 403 {
		t.Errorf("the page for another host: %d", code)
	}
	for _, c := range []struct {
		header []string
		code   int
		says   string
	}{
		{[]string{"Origin", "http://" + host}, 200, ""},
		{[]string{"Origin", "http://evil.example"}, 403, `request from the origin "http://evil.example" refused`},
		{[]string{"Origin", "null"}, 403, "refused"},
		{[]string{"Origin", "http://" + host, "Sec-Fetch-Site", "same-origin"}, 200, ""},
		{[]string{"Sec-Fetch-Site", "cross-site"}, 403, "request from another site refused"},
		{[]string{"Sec-Fetch-Site", "same-site"}, 403, "request from another site refused"},
		{[]string{"Content-Type", "text/plain"}, 415, "the body must be JSON sent with Content-Type: application/json, not text/plain"},
		{[]string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "application/json"},
	} {
		code, _, b := call(t, "POST", ts.URL+"/api/refit", `{"base": 0}`, c.header...)
		if code != c.code {
			t.Errorf("POST with %v: %d, want %d (%s)", c.header, code, c.code, b)
			continue
		}
		if c.says != "" && !strings.Contains(errorOf(t, "origin", b), c.says) {
			t.Errorf("POST with %v: %s does not say %q", c.header, b, c.says)
		}
	}
}

func TestLoopback(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:0": true, "localhost:8080": true, "[::1]:80": true, "127.0.0.2:1": true,
		"0.0.0.0:8080": false, ":8080": false, "192.168.1.4:80": false, "example.com:80": false, "[::]:80": false,
	} {
		if got := IsLoopback(addr); got != want {
			t.Errorf("IsLoopback(%q) = %v", addr, got)
		}
	}
}

// readEvent reads one Server-Sent Event: its name and data.
func readEvent(r *bufio.Reader) (string, string, error) {
	var name, data string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return name, data, err
		}
		line = strings.TrimRight(line, "\n")
		switch {
		case line == "" && name != "":
			return name, data, nil
		case strings.HasPrefix(line, "event: "):
			name = line[len("event: "):]
		case strings.HasPrefix(line, "data: "):
			data += line[len("data: "):]
		}
	}
}

func TestEvents(t *testing.T) {
	sess := openSession(t)
	ts, h := serve(t, sess, Options{EventInterval: 10 * time.Millisecond})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", ts.URL+"/api/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	rd := bufio.NewReader(resp.Body)
	name, data, err := readEvent(rd)
	if err != nil || name != "status" {
		t.Fatalf("first event %q %q %v", name, data, err)
	}
	noNull(t, "event", []byte(data))
	var st workbench.Status
	if err := json.Unmarshal([]byte(data), &st); err != nil || st.Round != 1 {
		t.Fatalf("status event %s: %v", data, err)
	}
	// An edit is a new event.
	var topics struct{ Topics []workbench.TopicView }
	getJSON(t, ts.URL+"/api/topics", &topics)
	post(t, ts.URL+"/api/edit", fmt.Sprintf(`{"base": 0, "edit": {"op": "rename", "topic": %q, "name": "renamed"}}`, topics.Topics[0].Name), nil)
	// (Events of other changes, such as the accuracy estimate's end, may
	// come first.)
	for !strings.Contains(data, `"version":1`) {
		if _, data, err = readEvent(rd); err != nil {
			t.Fatalf("no event after an edit: %v", err)
		}
	}
	// Close ends the stream, so that a shutdown need not wait for it.
	done := make(chan error, 1)
	go func() {
		_, err := io.Copy(io.Discard, rd)
		done <- err
	}()
	h.Close()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("the event stream outlives Close")
	}
}

func TestServeShutsDownWithStreamsOpen(t *testing.T) {
	sess := openSession(t, time.Minute)
	h, err := New(sess, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, h, nil, 5*time.Second) }()
	resp, err := http.Get("http://" + ln.Addr().String() + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, _, err := readEvent(bufio.NewReader(resp.Body)); err != nil {
		t.Fatal(err)
	}
	// A wait for an edit whose refit waits a minute.
	if _, err := sess.Apply(0, workbench.Edit{Op: workbench.OpAddStopword, Word: sess.Topics(1)[0].Words[0].Word}); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Add(1)
	waitCode := 0
	go func() {
		defer wg.Done()
		r, err := http.Get("http://" + ln.Addr().String() + "/api/wait?version=1&timeout=40s")
		if err == nil {
			waitCode = r.StatusCode
			r.Body.Close()
		}
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(4 * time.Second):
		t.Fatal("Serve waits for the event stream to end")
	}
	wg.Wait()
	if waitCode != http.StatusServiceUnavailable {
		t.Errorf("a wait at shutdown: %d", waitCode)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("shutdown took %v", d)
	}
}

func TestNew(t *testing.T) {
	if _, err := New(nil, Options{}); err == nil {
		t.Error("New(nil) works")
	}
}

// The page loads nothing from elsewhere: no address outside its server.
func TestPageIsSelfContained(t *testing.T) {
	for _, name := range []string{"index.html", "app.js", "app.css"} {
		b, err := assets.ReadFile("assets/" + name)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"http://", "https://", "//cdn", "@import", "eval(", "innerHTML"} {
			if bytes.Contains(b, []byte(bad)) {
				t.Errorf("%s holds %q", name, bad)
			}
		}
	}
}

func TestEncodeDropsNulls(t *testing.T) {
	type inner struct {
		List []string          `json:"list"`
		Map  map[string]string `json:"map"`
		Ptr  *int              `json:"ptr"`
	}
	b, err := encode(struct {
		A []inner `json:"a"`
		B []any   `json:"b"`
		C inner   `json:"c"`
		N float64 `json:"n"`
	}{A: []inner{{}}, B: []any{nil, 1, nil}, N: 1e300})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":[{}],"b":[1],"c":{},"n":1e+300}`; string(b) != want {
		t.Errorf("encode = %s, want %s", b, want)
	}
}
