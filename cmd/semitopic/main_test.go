package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
)

// run executes the CLI with args and returns stdout, stderr and the error.
func run(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb)
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

func TestDemo(t *testing.T) {
	report := filepath.Join(t.TempDir(), "demo-report.html")
	out, _, err := run(t, "demo", "--report", report)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"480 documents", "8 planted themes", "space", "rocket*", "computing", "wrote " + report} {
		if !strings.Contains(out, want) {
			t.Errorf("demo output lacks %q:\n%s", want, out)
		}
	}
	if b, err := os.ReadFile(report); err != nil || !strings.Contains(string(b), "<h1>semitopic demo</h1>") {
		t.Errorf("demo report: %v", err)
	}
}

func TestFormats(t *testing.T) {
	out, _, err := run(t, "formats")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range corpus.Formats() {
		if !strings.Contains(out, f.Name+"\n") {
			t.Errorf("formats output lacks %s", f.Name)
		}
	}
}

func writeJSONL(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "docs.jsonl")
	lines := []string{
		`{"id":"a","text":"Rockets and orbits of satellites","labels":["space"],"split":"train"}`,
		`{"id":"b","text":"Satellites in orbit around planets","labels":["space"],"split":"train"}`,
		`{"id":"c","text":"Bake the bread in the oven with flour","labels":["cooking"],"split":"test"}`,
		`{"id":"d","text":"An oven, flour and butter make pastry"}`,
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCorpusStats(t *testing.T) {
	p := writeJSONL(t)
	out, _, err := run(t, "corpus", "stats", "--format", "jsonl", p)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"documents   4 (train 2, test 1, no split 1)", "3 documents, 2 distinct labels", "space 2, cooking 1", "lemmas(n)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stats output lacks %q:\n%s", want, out)
		}
	}
	out, _, err = run(t, "corpus", "stats", "--format", "jsonl", "--json", "--subset", "train", "--weight", "tf", p)
	if err != nil {
		t.Fatal(err)
	}
	var st corpusStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	// "rocket orbit satellite", "satellite orbit around planet" ("around"
	// is not an NLTK stopword).
	if st.Documents != 2 || st.Tokens != 7 || st.Vocabulary != 5 {
		t.Errorf("stats %+v", st)
	}
}

func TestVectorizeRoundTrip(t *testing.T) {
	p := writeJSONL(t)
	dir := t.TempDir()
	x := filepath.Join(dir, "X.mtx")
	out, _, err := run(t, "vectorize", "--format", "jsonl", p, "--out", x, "--weight", "tf", "--ids", filepath.Join(dir, "ids.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "4 documents") {
		t.Errorf("vectorize output: %s", out)
	}
	labels, _ := os.ReadFile(filepath.Join(dir, "labels.txt"))
	if string(labels) != "space\nspace\ncooking\n\n" {
		t.Errorf("labels file %q", labels)
	}
	ids, _ := os.ReadFile(filepath.Join(dir, "ids.txt"))
	if string(ids) != "a\nb\nc\nd\n" {
		t.Errorf("ids file %q", ids)
	}
	// Read it back as an already-vectorized corpus.
	out, _, err = run(t, "corpus", "stats", "--format", "mtx", x, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var st corpusStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Documents != 4 || st.Labeled != 3 || st.Pipeline != "none (already vectorized)" {
		t.Errorf("mtx stats %+v", st)
	}
	// Pipeline flags make no sense on a matrix.
	if _, _, err := run(t, "corpus", "stats", "--format", "mtx", x, "--weight", "tf"); err == nil {
		t.Error("pipeline flag on mtx input accepted")
	}
}

func TestFlagErrors(t *testing.T) {
	p := writeJSONL(t)
	cases := map[string][]string{
		"--format is required":          {"corpus", "stats", p},
		"unknown":                       {"corpus", "stats", "--format", "pdf", p},
		"does not apply to the jsonl":   {"corpus", "stats", "--format", "jsonl", "--remove", "headers", p},
		"--tokens":                      {"corpus", "stats", "--format", "jsonl", "--tokens", "regex", p},
		"--ngrams":                      {"corpus", "stats", "--format", "jsonl", "--ngrams", "3-1", p},
		"--min-df":                      {"corpus", "stats", "--format", "jsonl", "--min-df", "-2", p},
		"--preset":                      {"corpus", "stats", "--format", "jsonl", "--preset", "nope", p},
		"--out or --shards is required": {"vectorize", "--format", "jsonl", p},
		"--subset":                      {"corpus", "stats", "--format", "jsonl", "--subset", "dev", p},
		"no such file":                  {"corpus", "stats", "--format", "jsonl", filepath.Join(t.TempDir(), "missing.jsonl")},
	}
	for want, args := range cases {
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want it to mention %q", args, err, want)
		}
	}
}

func TestCorpusStatsReal(t *testing.T) {
	p := datadir.Require(t, "brown/brown.zip")
	out, _, err := run(t, "corpus", "stats", "--format", "brown", p, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var st corpusStats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if st.Documents != 500 || len(st.Labels) != 15 || st.Labels[0].Label != "learned" || st.Labels[0].Documents != 80 {
		t.Errorf("brown stats: %d documents, labels %v", st.Documents, st.Labels)
	}
	if st.Tokens < 300000 || st.Vocabulary < 20000 {
		t.Errorf("brown: %d tokens, %d terms", st.Tokens, st.Vocabulary)
	}
}
