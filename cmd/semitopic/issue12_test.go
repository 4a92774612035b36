package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runIn executes the CLI with stdin as standard input.
func runIn(t *testing.T, stdin string, args ...string) (string, string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	root := newRoot(&out, &errb)
	root.SetIn(strings.NewReader(stdin))
	root.SetArgs(args)
	err := root.ExecuteContext(context.Background())
	return out.String(), errb.String(), err
}

// fitGood fits a small TS-NMF model to path.
func fitGood(t *testing.T, labeled, path string) {
	t.Helper()
	if _, _, err := run(t, "fit", "--kind", "tsnmf", "--format", "jsonl", labeled, "--labels-from-corpus", "--seed", "1", "--out", path); err != nil {
		t.Fatal(err)
	}
}

func sameFile(t *testing.T, path string, want []byte) {
	t.Helper()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s changed: %d bytes, was %d", path, len(got), len(want))
	}
}

func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	es, _ := os.ReadDir(dir)
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("folder holds %v, want %v", got, want)
	}
}

// A failed fit leaves the model that was at --out byte-identical, and no
// temporary file.
func TestFailedFitKeepsModel(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	keep := filepath.Join(dir, "keep.semitopic")
	fitGood(t, labeled, keep)
	before, _ := os.ReadFile(keep)
	// The reproducers: --tol Inf, and an mtx holding 1e308.
	_, _, err := run(t, "fit", "--kind", "nmf", "-k", "3", "--tol", "Inf", "--format", "jsonl", labeled, "--out", keep)
	if err == nil || !strings.Contains(err.Error(), "--tol") {
		t.Errorf("--tol Inf: err = %v", err)
	}
	mtx := filepath.Join(dir, "big.mtx")
	os.WriteFile(mtx, []byte("%%MatrixMarket matrix coordinate real general\n4 3 6\n1 1 1e308\n1 2 1\n2 2 3\n3 3 2\n4 1 1\n4 3 5\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte("a\nb\nc\n"), 0o644)
	for _, kind := range []string{"lda", "nmf"} {
		_, _, err := run(t, "fit", "--kind", kind, "-k", "2", "--format", "mtx", mtx, "--out", keep)
		if err == nil {
			t.Errorf("%s on 1e308: no error", kind)
		}
	}
	sameFile(t, keep, before)
	onlyFiles(t, dir, "big.mtx", "keep.semitopic", "vocab.txt")
}

// Output paths and option values are checked before the corpus is read.
func TestChecksBeforeWork(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.semitopic")
	fitGood(t, labeled, m)
	missing := filepath.Join(dir, "no-such.jsonl") // reading it would fail: the checks must come first
	cases := map[string][]string{
		"unknown extension": {"transform", "--model", m, "--format", "jsonl", missing, "--out", filepath.Join(dir, "w.xlsx")},
		"does not exist":    {"predict", "--model", m, "--format", "jsonl", missing, "--out", filepath.Join(dir, "nope", "p.csv")},
		".semitopic":        {"fit", "--kind", "nmf", "-k", "3", "--format", "jsonl", missing, "--out", filepath.Join(dir, "m.csv")},
		"--tol":             {"fit", "--kind", "nmf", "-k", "3", "--tol", "NaN", "--format", "jsonl", missing, "--out", m},
		"--lambda":          {"fit", "--kind", "ssnmf", "--lambda", "-Inf", "--format", "jsonl", missing, "--out", m},
		"--top: 0":          {"fit", "--kind", "nmf", "-k", "3", "--top", "0", "--format", "jsonl", missing, "--out", m},
		"--top: -2":         {"topics", "--model", m, "--top", "-2"},
		".html":             {"report", "--model", m, "--out", filepath.Join(dir, "r.pdf")},
		"report --top":      {"report", "--model", m, "--top", "0", "--out", filepath.Join(dir, "r.html")},
		".mtx":              {"vectorize", "--format", "jsonl", missing, "--out", filepath.Join(dir, "x.txt")},
		"unknown kind":      {"fit", "--kind", "bert", "--format", "jsonl", missing, "--out", m},
	}
	for want, args := range cases {
		_, _, err := run(t, args...)
		if err == nil {
			t.Errorf("%v: no error", args)
			continue
		}
		if strings.Contains(err.Error(), "no-such.jsonl") || !strings.Contains(err.Error(), strings.TrimPrefix(want, "report ")) {
			t.Errorf("%v: err = %v, want one about %q before reading", args, err, want)
		}
	}
	// k beyond the documents is an error that says so.
	_, _, err := run(t, "fit", "--kind", "nmf", "-k", "5000", "--format", "jsonl", labeled, "--out", m)
	if err == nil || !strings.Contains(err.Error(), "documents") {
		t.Errorf("k = 5000: err = %v", err)
	}
}

// fit --model still works, with a note; both names is an error.
func TestFitKindFlag(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	m := filepath.Join(t.TempDir(), "m.semitopic")
	_, errOut, err := run(t, "fit", "--model", "nmf", "-k", "3", "--format", "jsonl", labeled, "--out", m)
	if err != nil || !strings.Contains(errOut, "--kind") {
		t.Errorf("--model: err %v, stderr %q", err, errOut)
	}
	if _, _, err := run(t, "fit", "--model", "nmf", "--kind", "nmf", "-k", "3", "--format", "jsonl", labeled, "--out", m); err == nil {
		t.Error("--model and --kind: no error")
	}
	for _, args := range [][]string{{"topics", "--model", m, "--n", "3"}, {"report", "--model", m, "--words", "3", "--out", filepath.Join(t.TempDir(), "r.html")}} {
		if _, errOut, err := run(t, args...); err != nil || !strings.Contains(errOut, "--top") {
			t.Errorf("%v: err %v, stderr %q", args, err, errOut)
		}
	}
}

// A document with no known term gets an empty prediction, a note, and
// counts as an error in the accuracy.
func TestPredictEmptyDocument(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.semitopic")
	fitGood(t, labeled, m)
	in := filepath.Join(dir, "in.jsonl")
	os.WriteFile(in, []byte(`{"id": "known", "text": "markets stocks shares trading rallied", "labels": ["finance"]}
{"id": "unknown", "text": "qqqzx wwvvb", "labels": ["finance"]}
`), 0o644)
	out := filepath.Join(dir, "p.csv")
	_, errOut, err := run(t, "predict", "--model", m, "--format", "jsonl", in, "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(out)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if recs[1][1] == "" || recs[2][0] != "unknown" || recs[2][1] != "" {
		t.Errorf("predictions %v", recs)
	}
	if !strings.Contains(errOut, "1 of the 2 documents have no term known") || !strings.Contains(errOut, "count as errors") {
		t.Errorf("stderr %q", errOut)
	}
	jl := filepath.Join(dir, "p.jsonl")
	if _, _, err := run(t, "transform", "--model", m, "--format", "jsonl", in, "--out", jl); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(jl)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	var rec map[string]any
	json.Unmarshal([]byte(lines[1]), &rec)
	if l, ok := rec["labels"].([]any); !ok || len(l) != 0 {
		t.Errorf("JSONL record %s", lines[1])
	}
}

// Standard input is read for every format where it makes sense.
func TestStdin(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	b, _ := os.ReadFile(labeled)
	dir := t.TempDir()
	m := filepath.Join(dir, "m.semitopic")
	if _, _, err := runIn(t, string(b), "fit", "--kind", "tsnmf", "--format", "jsonl", "-", "--labels-from-corpus", "--out", m); err != nil {
		t.Fatal(err)
	}
	out, _, err := runIn(t, "id,text\nd1,markets stocks shares\n", "transform", "--model", m, "--format", "csv", "-", "--out", "-")
	if err != nil || !strings.HasPrefix(out, "id,") || !strings.Contains(out, "d1,") {
		t.Errorf("transform from stdin: %v %q", err, out)
	}
	if _, _, err := runIn(t, "x", "corpus", "stats", "--format", "dir", "-"); err == nil || !strings.Contains(err.Error(), "archive") {
		t.Errorf("dir from a non-archive stream: %v", err)
	}
}

// vectorize creates its output folder, writes atomically, and can break
// ties as scikit-learn does.
func TestVectorizeOutputs(t *testing.T) {
	src := writeJSONL(t)
	dir := filepath.Join(t.TempDir(), "new", "folder")
	out := filepath.Join(dir, "x.mtx")
	if _, _, err := run(t, "vectorize", "--format", "jsonl", src, "--out", out, "--sklearn-ties", "--max-features", "3"); err != nil {
		t.Fatal(err)
	}
	onlyFiles(t, dir, "labels.txt", "vocab.txt", "x.mtx")
	before, _ := os.ReadFile(out)
	// A failure (a label that cannot be written) leaves every old file.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte(`{"text": "alpha beta gamma", "labels": ["a,b"]}`+"\n"), 0o644)
	if _, _, err := run(t, "vectorize", "--format", "jsonl", bad, "--out", out); err == nil {
		t.Fatal("a label with a comma: no error")
	}
	sameFile(t, out, before)
	onlyFiles(t, dir, "labels.txt", "vocab.txt", "x.mtx")
}

// fit says how many documents the pipeline dropped and why; SSNMF's text
// output shows the class each topic serves.
func TestFitSaysWhatItDropped(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	out, _, err := run(t, "fit", "--kind", "ssnmf", "--format", "jsonl", labeled, "--labels-from-corpus", "--min-chars", "300",
		"--out", filepath.Join(dir, "m.semitopic"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "dropped") || !strings.Contains(out, "fewer than 300 characters") {
		t.Errorf("fit output does not say what was dropped:\n%s", out)
	}
	if !strings.Contains(out, "→ ") {
		t.Errorf("fit output does not show the class of SSNMF topics:\n%s", out)
	}
	top, _, err := run(t, "topics", "--model", filepath.Join(dir, "m.semitopic"))
	if err != nil || !strings.Contains(top, "→ class") {
		t.Errorf("topics: %v\n%s", err, top)
	}
}
