package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a buffer written by a command running in another
// goroutine and read by the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var addressLine = regexp.MustCompile(`semitopic workbench: (http://[^\s/]+/)(\?token=([0-9a-f]+))?`)

// startWorkbench runs semitopic workbench with args until the test stops
// it; it returns the page's address, the token, stderr and the function
// that stops the command and returns its error.
func startWorkbench(t *testing.T, args ...string) (addr, token string, stderr *lockedBuffer, stop func() error) {
	t.Helper()
	var out lockedBuffer
	stderr = &lockedBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	root := newRoot(&out, stderr)
	root.SetArgs(append([]string{"workbench"}, args...))
	done := make(chan error, 1)
	go func() { done <- root.ExecuteContext(ctx) }()
	stop = func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(30 * time.Second):
			t.Fatal("semitopic workbench does not stop")
			return nil
		}
	}
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m := addressLine.FindStringSubmatch(out.String()); m != nil {
			return m[1], m[3], stderr, stop
		}
		select {
		case err := <-done:
			t.Fatalf("semitopic workbench ended: %v\n%s", err, stderr)
		case <-time.After(20 * time.Millisecond):
		}
	}
	stop()
	t.Fatalf("no address printed; stdout %q, stderr %s", out.String(), stderr)
	return
}

func getStatus(t *testing.T, addr, token string) (int, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", addr+"api/status", nil)
	if token != "" {
		req.Header.Set("X-Semitopic-Token", token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var st map[string]any
	json.NewDecoder(resp.Body).Decode(&st)
	return resp.StatusCode, st
}

func TestWorkbenchServesAndResumes(t *testing.T) {
	data, _ := writeDemoJSONL(t)
	project := filepath.Join(t.TempDir(), "demo.workbench")
	addr, token, stderr, stop := startWorkbench(t, "--format", "jsonl", data, "--labels-from-corpus", "--max-iter", "10",
		"--project", project, "--addr", "127.0.0.1:0", "--min-df", "2")
	if token != "" {
		t.Errorf("a token on loopback: %q", token)
	}
	code, st := getStatus(t, addr, "")
	if code != 200 || st["kind"] != "tsnmf" || st["round"] != 1.0 {
		t.Errorf("status: %d %v", code, st)
	}
	// The exported command names the corpus and the pipeline given.
	resp, err := http.Get(addr + "api/export/command")
	if err != nil {
		t.Fatal(err)
	}
	var cmdline bytes.Buffer
	cmdline.ReadFrom(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"--format=jsonl", data, "--preset=default", "--min-df=2"} {
		if !strings.Contains(cmdline.String(), want) {
			t.Errorf("the exported command %q lacks %q", cmdline.String(), want)
		}
	}
	if err := stop(); err != nil {
		t.Fatalf("stop: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr.String(), `"msg":"stopped"`) {
		t.Errorf("no clean shutdown in %s", stderr)
	}
	if _, err := os.Stat(filepath.Join(project, "project.json")); err != nil {
		t.Fatal(err)
	}

	// --project alone resumes, reading the corpus again from the project;
	// settings given beside it are said not to apply.
	addr, _, stderr, stop = startWorkbench(t, "--project", project, "--kind", "nmf")
	if code, st := getStatus(t, addr, ""); code != 200 || st["kind"] != "tsnmf" || st["round"] != 1.0 {
		t.Errorf("resumed status: %d %v", code, st)
	}
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr.String(), "resuming the project") || !strings.Contains(stderr.String(), "--kind not used") {
		t.Errorf("stderr of a resume: %s", stderr)
	}
}

func TestWorkbenchToken(t *testing.T) {
	data, _ := writeDemoJSONL(t)
	token := "0123456789abcdef0123"
	addr, got, _, stop := startWorkbench(t, "--format", "jsonl", data, "--max-iter", "5", "-k", "3",
		"--project", filepath.Join(t.TempDir(), "p"), "--token", token)
	defer stop()
	if got != token {
		t.Errorf("printed token %q, want %q", got, token)
	}
	if code, _ := getStatus(t, addr, ""); code != http.StatusUnauthorized {
		t.Errorf("no token: %d", code)
	}
	if code, st := getStatus(t, addr, token); code != 200 || st["kind"] != "nmf" || st["k"] != 3.0 {
		t.Errorf("with the token: %d %v", code, st)
	}
}

func TestWorkbenchTokenRule(t *testing.T) {
	for _, c := range []struct {
		addr, token string
		want        string // "" none, "new" a random one, else the token
		err         string
	}{
		{"127.0.0.1:0", "", "", ""},
		{"localhost:8080", "", "", ""},
		{"0.0.0.0:8080", "", "new", ""},
		{":8080", "", "new", ""},
		{"192.168.1.2:80", "0123456789abcdef", "0123456789abcdef", ""},
		{"127.0.0.1:0", "short", "", "--token: want at least 16 characters"},
	} {
		got, err := workbenchToken(c.addr, c.token)
		switch {
		case c.err != "":
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s %q: error %v, want %q", c.addr, c.token, err, c.err)
			}
		case c.want == "new":
			if err != nil || len(got) != 32 {
				t.Errorf("%s: token %q %v", c.addr, got, err)
			}
		case got != c.want || err != nil:
			t.Errorf("%s %q: %q %v", c.addr, c.token, got, err)
		}
	}
	for path, want := range map[string]string{
		"data/20news-bydate.tar.gz": filepath.Join("data", "20news-bydate.workbench"),
		"docs.csv":                  "docs.workbench",
		"corpus/":                   "corpus.workbench",
	} {
		if got := defaultProject(path); got != want {
			t.Errorf("defaultProject(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestWorkbenchErrors(t *testing.T) {
	data, _ := writeDemoJSONL(t)
	empty := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "give the corpus (--format F PATH), or --project DIR to resume a project"},
		{[]string{"--format", "jsonl", "-", "--project", empty}, "not standard input"},
		{[]string{"--format", "jsonl", data, "--kind", "bert", "--project", empty}, `--kind: unknown kind "bert"`},
		{[]string{"--format", "jsonl", data, "-k", "0", "--project", empty}, "--topics 0: want a number ≥ 1"},
		{[]string{"--project", empty}, "holds no project: give the corpus too"},
		{[]string{"--format", "jsonl", data, "--project", empty, "--token", "abc"}, "--token: want at least 16 characters"},
		{[]string{"--format", "jsonl", data, "--project", empty, "--addr", "127.0.0.1:99999"}, "--addr 127.0.0.1:99999"},
		{[]string{"--format", "jsonl", data, "--project", filepath.Dir(data)}, "--project"},
	} {
		_, _, err := run(t, append([]string{"workbench"}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("workbench %v: %v, want %q", c.args, err, c.want)
		}
	}
}
