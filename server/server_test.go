package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/vectorize"
)

var (
	fitOnce sync.Once
	fitted  *model.Fitted
	fitErr  error
)

func demoModel(t testing.TB) *model.Fitted {
	t.Helper()
	fitOnce.Do(func() {
		d, err := demo.Load()
		if err != nil {
			fitErr = err
			return
		}
		fitted, fitErr = model.Fit(context.Background(), model.Text(d.Corpus, new(vectorize.DefaultPipeline())), model.Options{Kind: model.KindTSNMF, Seed: 1, LabelsFromCorpus: true})
	})
	if fitErr != nil {
		t.Fatal(fitErr)
	}
	return fitted
}

func newTestServer(t *testing.T, o Options) *httptest.Server {
	t.Helper()
	s, err := New(demoModel(t), o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

func doJSON(t *testing.T, method, url, body string, v any) int {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, b)
		}
	}
	return resp.StatusCode
}

func TestEndpoints(t *testing.T) {
	var logs bytes.Buffer
	ts := newTestServer(t, Options{Logger: slog.New(slog.NewJSONHandler(&logs, nil))})
	var h map[string]string
	if code := doJSON(t, "GET", ts.URL+"/healthz", "", &h); code != 200 || h["status"] != "ok" {
		t.Errorf("healthz %d %v", code, h)
	}
	var m struct {
		Kind   string
		Topics int
		Labels []string
	}
	if code := doJSON(t, "GET", ts.URL+"/v1/model", "", &m); code != 200 || m.Kind != "tsnmf" || m.Topics != 8 || len(m.Labels) != 8 {
		t.Errorf("model %d %+v", code, m)
	}
	var tp struct{ Topics []model.Topic }
	if code := doJSON(t, "GET", ts.URL+"/v1/topics?n=3", "", &tp); code != 200 || len(tp.Topics) != 8 || len(tp.Topics[0].Words) != 3 {
		t.Errorf("topics %d %+v", code, tp)
	}
	var e map[string]string
	if code := doJSON(t, "GET", ts.URL+"/v1/topics?n=x", "", &e); code != 400 || e["error"] == "" {
		t.Errorf("bad n: %d %v", code, e)
	}
	var tr TransformResponse
	code := doJSON(t, "POST", ts.URL+"/v1/transform", `{"text": "The rocket reached orbit and the astronaut watched the planet through a telescope."}`, &tr)
	if code != 200 || len(tr.Documents) != 1 || tr.Documents[0].Top[0].Topic != "space" || tr.Documents[0].Labels[0] != "space" || tr.Terms == 0 {
		t.Errorf("transform %d %+v", code, tr)
	}
	code = doJSON(t, "POST", ts.URL+"/v1/transform", `{"documents": [{"id": "a", "text": "oven flour recipe"}, {"text": "zzz qqq"}]}`, &tr)
	if code != 200 || len(tr.Documents) != 2 || tr.Documents[0].ID != "a" || tr.Documents[1].ID != "2" || !tr.Documents[1].Empty || tr.Documents[0].Labels[0] != "cooking" {
		t.Errorf("documents %d %+v", code, tr)
	}
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(page), "<title>semitopic</title>") || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
		t.Errorf("index %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !strings.Contains(logs.String(), `"path":"/v1/transform"`) || !strings.Contains(logs.String(), `"status":200`) {
		t.Errorf("no structured request log: %s", logs.String())
	}
}

func TestBadRequests(t *testing.T) {
	ts := newTestServer(t, Options{MaxBodyBytes: 2000, MaxDocuments: 3})
	cases := []struct {
		method, path, body string
		code               int
	}{
		{"POST", "/v1/transform", `{"text": "a", "documents": [{"text": "b"}]}`, 400},
		{"POST", "/v1/transform", `{}`, 400},
		{"POST", "/v1/transform", `{"documents": []}`, 400},
		{"POST", "/v1/transform", `not json`, 400},
		{"POST", "/v1/transform", `{"txt": "typo"}`, 400},
		{"POST", "/v1/transform", `{"documents": [{"text":"a"},{"text":"b"},{"text":"c"},{"text":"d"}]}`, 413},
		{"POST", "/v1/transform", `{"text": "` + strings.Repeat("x", 3000) + `"}`, 413},
		{"GET", "/v1/transform", ``, 405},
		{"GET", "/v1/nothing", ``, 404},
	}
	for _, c := range cases {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.code {
			t.Errorf("%s %s %.40q: status %d, want %d (%s)", c.method, c.path, c.body, resp.StatusCode, c.code, b)
		}
		if c.code == 400 || c.code == 413 {
			var e map[string]string
			if json.Unmarshal(b, &e) != nil || e["error"] == "" {
				t.Errorf("%s: error body %s", c.body, b)
			}
		}
	}
}

func TestConcurrentTransforms(t *testing.T) {
	ts := newTestServer(t, Options{})
	texts := []string{"rocket orbit astronaut", "oven flour recipe garlic", "goal striker referee", "bank interest investor stock"}
	want := []string{"space", "cooking", "football", "finance"}
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for c := 0; c < 50; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			for r := 0; r < 4; r++ {
				k := (c + r) % len(texts)
				body := fmt.Sprintf(`{"text": %q}`, texts[k])
				resp, err := http.Post(ts.URL+"/v1/transform", "application/json", strings.NewReader(body))
				if err != nil {
					errs <- err
					return
				}
				var tr TransformResponse
				err = json.NewDecoder(resp.Body).Decode(&tr)
				resp.Body.Close()
				if err != nil || len(tr.Documents) != 1 || tr.Documents[0].Labels[0] != want[k] {
					errs <- fmt.Errorf("client %d: %v %+v", c, err, tr)
					return
				}
			}
		}(c)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestGracefulShutdown(t *testing.T) {
	s, err := New(demoModel(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A handler that holds a request open while the server shuts down.
	started := make(chan struct{})
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.Handle("/", s)
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		close(started)
		<-release
		io.WriteString(w, "done")
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- Serve(ctx, ln, mux, nil, 5*time.Second) }()
	got := make(chan string, 1)
	go func() {
		resp, err := http.Get("http://" + ln.Addr().String() + "/slow")
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got <- string(b)
	}()
	<-started
	cancel() // like SIGTERM
	time.Sleep(50 * time.Millisecond)
	close(release)
	if body := <-got; body != "done" {
		t.Errorf("request in flight got %q", body)
	}
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/healthz"); err == nil {
		t.Error("server still answers after shutdown")
	}
}

func TestNewRejectsMatrixModels(t *testing.T) {
	f := *demoModel(t)
	f.Vectorizer = nil
	if _, err := New(&f, Options{}); err == nil {
		t.Error("a model without a text pipeline was accepted")
	}
}
