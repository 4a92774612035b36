package jsonapi

import (
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// NoNulls leaves out what would be null, at any depth, and keeps numbers
// as written.
func TestNoNulls(t *testing.T) {
	type inner struct {
		List []string `json:"list"`
		Ptr  *int     `json:"ptr"`
	}
	v := struct {
		A     []string `json:"a"`
		B     inner    `json:"b"`
		C     []*inner `json:"c"`
		Kept  []int    `json:"kept"`
		Empty []int    `json:"empty"`
		Big   int64    `json:"big"`
	}{C: []*inner{nil, {}}, Kept: []int{1}, Empty: []int{}, Big: 1 << 60}
	got, err := NoNulls(v)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	if string(b) != `{"b":{},"big":1152921504606846976,"c":[{}],"empty":[],"kept":[1]}` {
		t.Errorf("got %s", b)
	}
}

// Mux answers in JSON where the ServeMux would answer in text, runs
// Before first, and answers a panic 500.
func TestMux(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /a/{x}", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "a "+r.PathValue("x")) })
	mux.HandleFunc("GET /panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	writeError := func(w http.ResponseWriter, status int, msg string) {
		w.WriteHeader(status)
		io.WriteString(w, "error: "+msg)
	}
	m := &Mux{Mux: mux, Logger: slog.New(slog.NewJSONHandler(io.Discard, nil)), Endpoints: "GET /a/{x}", WriteError: writeError,
		Before: func(w http.ResponseWriter, r *http.Request) bool {
			if r.Header.Get("X-No") != "" {
				writeError(w, http.StatusForbidden, "no")
				return true
			}
			return false
		}}
	for _, c := range []struct {
		method, path, header string
		status               int
		body                 string
	}{
		{"GET", "/a/b", "", 200, "a b"},
		{"GET", "/nope", "", 404, "error: no endpoint GET /nope: the API has GET /a/{x}"},
		{"POST", "/a/b", "", 405, "error: method POST is not allowed on /a/b (allowed: GET, HEAD)"},
		{"GET", "/panic", "", 500, "error: internal error"},
		{"GET", "/a/b", "1", 403, "error: no"},
	} {
		req := httptest.NewRequest(c.method, c.path, nil)
		if c.header != "" {
			req.Header.Set("X-No", c.header)
		}
		rec := httptest.NewRecorder()
		m.ServeHTTP(rec, req)
		if rec.Code != c.status || rec.Body.String() != c.body {
			t.Errorf("%s %s: %d %q, want %d %q", c.method, c.path, rec.Code, rec.Body.String(), c.status, c.body)
		}
	}
}

// The decoding helpers name the field and the kind of value found.
func TestDecoding(t *testing.T) {
	if _, err := String(json.RawMessage(`[1]`), `"text"`); err == nil || err.Error() != `"text" must be a string, not a list` {
		t.Errorf("String: %v", err)
	}
	var br *BadRequest
	if err := Badf("x %d", 1); !errors.As(err, &br) || br.Msg != "x 1" {
		t.Errorf("Badf: %v", err)
	}
	if got := Position([]byte("{\n  \"a\": x}"), 9); got != "line 2, column 8" {
		t.Errorf("Position: %s", got)
	}
	if got := Short(json.RawMessage(strings.Repeat("é", 50))); got != strings.Repeat("é", 37)+"..." {
		t.Errorf("Short: %s", got)
	}
	if !IsNull(json.RawMessage(" null ")) || IsNull(json.RawMessage(`"null"`)) {
		t.Error("IsNull")
	}
	for v, want := range map[string]string{`{}`: "an object", `[]`: "a list", `"s"`: "a string", `true`: "true or false", `null`: "null", `1`: "a number", ``: "nothing"} {
		if got := Kind(json.RawMessage(v)); got != want {
			t.Errorf("Kind(%s) = %s, want %s", v, got, want)
		}
	}
}
