package server

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestTrailingDataIsAnError(t *testing.T) {
	ts := newTestServer(t, Options{})
	for _, body := range []string{
		`{"text": "stocks rose"} {"text": "again"}`,
		`{"text": "stocks rose"}garbage`,
		`{"text": "stocks rose"}]`,
	} {
		var e map[string]string
		if code := doJSON(t, "POST", ts.URL+"/v1/transform", body, &e); code != http.StatusBadRequest || !strings.Contains(e["error"], "after") {
			t.Errorf("%q: %d %v", body, code, e)
		}
	}
	var ok map[string]any
	if code := doJSON(t, "POST", ts.URL+"/v1/transform", "{\"text\": \"stocks rose\"}\n\n  ", &ok); code != http.StatusOK {
		t.Errorf("trailing white space: %d %v", code, ok)
	}
}

func TestNotFoundAndMethodAreJSON(t *testing.T) {
	ts := newTestServer(t, Options{})
	var e map[string]string
	if code := doJSON(t, "GET", ts.URL+"/v1/nothing", "", &e); code != http.StatusNotFound || !strings.Contains(e["error"], "/v1/nothing") {
		t.Errorf("404: %d %v", code, e)
	}
	e = nil
	req, _ := http.NewRequest("DELETE", ts.URL+"/v1/transform", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed || resp.Header.Get("Content-Type") != "application/json" || !strings.Contains(resp.Header.Get("Allow"), "POST") {
		t.Errorf("405: %d %q allow %q", resp.StatusCode, resp.Header.Get("Content-Type"), resp.Header.Get("Allow"))
	}
	if code := doJSON(t, "GET", ts.URL+"/v1/transform", "", &e); code != http.StatusMethodNotAllowed || !strings.Contains(e["error"], "not allowed") {
		t.Errorf("405 body: %d %v", code, e)
	}
}

// A body that arrives too slowly is a timeout, not invalid JSON.
func TestSlowBodyIsATimeout(t *testing.T) {
	ts := newTestServer(t, Options{BodyTimeout: 200 * time.Millisecond})
	conn, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"text": "stocks rose sharply"}`
	fmt.Fprintf(conn, "POST /v1/transform HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:5])
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	bufio.NewReader(resp.Body).WriteTo(&b)
	if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(b.String(), "not received within") {
		t.Errorf("%d %s", resp.StatusCode, b.String())
	}
}

// A document with no known term gets no label: "labels": [].
func TestEmptyDocumentNoLabel(t *testing.T) {
	ts := newTestServer(t, Options{})
	var res struct {
		Documents []map[string]any `json:"documents"`
	}
	if code := doJSON(t, "POST", ts.URL+"/v1/transform", `{"documents": [{"id": "a", "text": "zzzqx"}, {"id": "b", "text": "the market rallied as stocks and shares rose"}]}`, &res); code != 200 {
		t.Fatal(code)
	}
	empty := res.Documents[0]
	labels, ok := empty["labels"].([]any)
	if !ok || len(labels) != 0 || empty["empty"] != true {
		t.Errorf("empty document: %v", empty)
	}
	if l, _ := res.Documents[1]["labels"].([]any); len(l) != 1 {
		t.Errorf("known document: %v", res.Documents[1])
	}
}
