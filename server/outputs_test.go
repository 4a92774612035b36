package server

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/model"
)

// nulls lists the paths of the null values in a decoded JSON value.
func nulls(v any, path string) []string {
	switch x := v.(type) {
	case nil:
		return []string{path}
	case map[string]any:
		var out []string
		for k, e := range x {
			out = append(out, nulls(e, path+"."+k)...)
		}
		return out
	case []any:
		var out []string
		for i, e := range x {
			out = append(out, nulls(e, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	return nil
}

// No response holds a null: a list is [] when empty, and a field with no
// value is left out. A page that reads "top" or "words" as a list must
// never meet null (the page said "Cannot read properties of null").
func TestNoNullInResponses(t *testing.T) {
	for _, ts := range []*httptest.Server{newTestServer(t, Options{}), emptyTopicsServer(t)} {
		for _, c := range []struct{ method, path, body string }{
			{"GET", "/healthz", ""},
			{"GET", "/v1/model", ""},
			{"GET", "/v1/topics", ""},
			{"GET", "/v1/topics?n=2", ""},
			{"POST", "/v1/transform", `{"text": "zzzqx wwvvb"}`},
			{"POST", "/v1/transform", `{"text": ""}`},
			{"POST", "/v1/transform", `{"documents": [{"id": "a", "text": "qqq"}, {"text": "the rocket reached orbit"}]}`},
			{"POST", "/v1/transform", `{"txt": 1}`},
			{"GET", "/nothing", ""},
		} {
			var v any
			doJSON(t, c.method, ts.URL+c.path, c.body, &v)
			if n := nulls(v, ""); len(n) > 0 {
				t.Errorf("%s %s %s: null at %v", c.method, c.path, c.body, n)
			}
		}
	}
	// The document with no known word: "top" is [] beside "labels": [].
	ts := newTestServer(t, Options{})
	var raw struct {
		Documents []map[string]json.RawMessage `json:"documents"`
	}
	doJSON(t, "POST", ts.URL+"/v1/transform", `{"text": "zzzqx wwvvb"}`, &raw)
	if d := raw.Documents[0]; string(d["top"]) != "[]" || string(d["labels"]) != "[]" || string(d["empty"]) != "true" {
		t.Errorf("document with no known word: top %s labels %s empty %s", d["top"], d["labels"], d["empty"])
	}
}

// goNames are what a message must not show: Go's type and package names
// and the json package's own prefix.
var goNames = regexp.MustCompile(`Go (struct|value)|server\.|main\.|\[\]|json:|transformRequest|requestDoc|of type`)

// Every error names the field or place at fault in the API's words, never
// a Go type.
func TestErrorsNameTheField(t *testing.T) {
	ts := newTestServer(t, Options{MaxBodyBytes: 2000, MaxDocuments: 3})
	for _, c := range []struct {
		body string
		code int
		want []string
	}{
		{`{"text": 3}`, 400, []string{`"text" must be a string, not a number`}},
		{`{"documents": [{"text": "a"}, {"text": 5}]}`, 400, []string{"documents[1].text must be a string, not a number"}},
		{`{"documents": [{"id": "a", "text": "a"}, {"id": true, "text": "b"}]}`, 400, []string{"documents[1].id must be a string", "not true or false"}},
		{`{"documents": [{"id": "a"}]}`, 400, []string{`documents[0] has no "text"`}},
		{`{"documents": [{"text": "a", "txt": "b"}]}`, 400, []string{`unknown field "txt" in documents[0]`, `"id", "text"`}},
		{`{"documents": {"text": "a"}}`, 400, []string{`"documents" must be a list`, "not an object"}},
		{`{"documents": ["a"]}`, 400, []string{"documents[0] must be a JSON object, not a string"}},
		{`{"txt": "typo"}`, 400, []string{`unknown field "txt" in the request`, `"text", "documents", "top"`}},
		{`{"top": "x", "text": "a"}`, 400, []string{`"top" must be a whole number`, `not "x"`}},
		{`{"top": 1.5, "text": "a"}`, 400, []string{`"top" must be a whole number`, "not 1.5"}},
		{`{"top": -2, "text": "a"}`, 400, []string{`"top" must be a whole number`, "not -2"}},
		{`[{"text": "a"}]`, 400, []string{"the body must be a JSON object, not a list"}},
		{`"a"`, 400, []string{"the body must be a JSON object, not a string"}},
		{"{\n  \"text\": oops}", 400, []string{"invalid JSON at line 2, column 11", "invalid character"}},
		{`{"text": "a"`, 400, []string{"invalid JSON", "ends before"}},
		{``, 400, []string{"empty body", `{"text": "..."}`}},
		{"{\"text\": \"a\"}\n{\"text\": \"b\"}", 400, []string{"data after the request object (at line 2, column 1)"}},
		{`{}`, 400, []string{"no documents"}},
		{`{"text": null, "documents": null}`, 400, []string{"no documents"}},
		{`{"text": "a", "documents": [{"text": "b"}]}`, 400, []string{"either"}},
		{`{"documents": [{"text":"a"},{"text":"b"},{"text":"c"},{"text":"d"}]}`, 413, []string{"4 documents, at most 3", "--max-documents"}},
		{`{"text": "` + strings.Repeat("x", 3000) + `"}`, 413, []string{"over 2000 bytes", "--max-body"}},
	} {
		var e map[string]string
		code := doJSON(t, "POST", ts.URL+"/v1/transform", c.body, &e)
		if code != c.code {
			t.Errorf("%.50q: status %d, want %d (%v)", c.body, code, c.code, e)
		}
		for _, w := range c.want {
			if !strings.Contains(e["error"], w) {
				t.Errorf("%.50q: error %q does not say %q", c.body, e["error"], w)
			}
		}
		if goNames.MatchString(e["error"]) {
			t.Errorf("%.50q: error %q shows Go's names", c.body, e["error"])
		}
	}
	// A number id is taken as written.
	var tr TransformResponse
	if code := doJSON(t, "POST", ts.URL+"/v1/transform", `{"documents": [{"id": 7, "text": "oven flour"}]}`, &tr); code != 200 || tr.Documents[0].ID != "7" {
		t.Errorf("number id: %d %+v", code, tr)
	}
	var e map[string]string
	if code := doJSON(t, "GET", ts.URL+"/v1/topics?n=lots", "", &e); code != 400 || !strings.Contains(e["error"], `n (words per topic)`) || !strings.Contains(e["error"], `"lots"`) {
		t.Errorf("bad n: %d %v", code, e)
	}
	for _, m := range []string{"PUT", "DELETE", "PATCH"} {
		e = nil
		if code := doJSON(t, m, ts.URL+"/v1/transform", "", &e); code != 405 || !strings.Contains(e["error"], "method "+m+" is not allowed on /v1/transform (allowed: POST") {
			t.Errorf("%s: %d %v", m, code, e)
		}
	}
}

// A supervised model's responses say what its scores are.
func TestScoreKindSaid(t *testing.T) {
	ts := newTestServer(t, Options{})
	var m struct {
		ScoreKind model.ScoreKind `json:"score_kind"`
	}
	if code := doJSON(t, "GET", ts.URL+"/v1/model", "", &m); code != 200 || m.ScoreKind.Name != "weight" || !strings.Contains(m.ScoreKind.Doc, "label's topic") {
		t.Errorf("model: %d %+v", code, m)
	}
	var tr TransformResponse
	if code := doJSON(t, "POST", ts.URL+"/v1/transform", `{"text": "oven flour"}`, &tr); code != 200 || tr.ScoreKind == nil || tr.ScoreKind.Name != "weight" {
		t.Errorf("transform: %d %+v", code, tr.ScoreKind)
	}
}

// hollow is a model whose topics 2 and 5 are empty: topic 2 has no share
// of the corpus and topic 5 no word.
type hollow struct{ model.Model }

func (h hollow) Topics(n int) ([]model.Topic, error) {
	ts, err := h.Model.Topics(n)
	if err != nil {
		return nil, err
	}
	for i := range ts {
		ts[i].Weight = 1 / float64(len(ts)-1)
	}
	ts[1].Name = "a-topic-with-a-very-long-name-that-goes-on-and-on-without-any-space-to-break-it"
	ts[2].Weight, ts[2].Empty = 0, true
	ts[5].Words, ts[5].Empty = nil, true
	return ts, nil
}

func emptyTopicsServer(t *testing.T) *httptest.Server {
	t.Helper()
	f := *demoModel(t)
	f.Model = hollow{f.Model}
	s, err := New(&f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// The topics list names the empty topics, for the page to leave out.
func TestEmptyTopicsNamed(t *testing.T) {
	ts := emptyTopicsServer(t)
	var tp struct {
		Topics []model.Topic `json:"topics"`
		Empty  []string      `json:"empty_topics"`
	}
	if code := doJSON(t, "GET", ts.URL+"/v1/topics?n=3", "", &tp); code != 200 || strings.Join(tp.Empty, ",") != "finance,medicine" || len(tp.Topics) != 8 {
		t.Errorf("topics: %d %v %d", code, tp.Empty, len(tp.Topics))
	}
	var m struct {
		Empty []string `json:"empty_topics"`
	}
	if doJSON(t, "GET", ts.URL+"/v1/model", "", &m); len(m.Empty) != 2 {
		t.Errorf("model: %v", m)
	}
	// The page leaves them out and says how many; it reads no field
	// without a guard.
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, w := range []string{"empty_topics", " empty topics", "list(d.top)", "list(topic.words)"} {
		if !strings.Contains(string(page), w) {
			t.Errorf("the page has no %q", w)
		}
	}
	if strings.Contains(string(page), "d.top.length") || strings.Contains(string(page), "topic.words.map") {
		t.Errorf("the page reads a list without a guard")
	}
}
