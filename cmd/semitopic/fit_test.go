package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/demo"
)

// writeDemoJSONL writes the demo corpus as JSON Lines (labels only on the
// labeled documents) and a copy with every document's planted themes.
func writeDemoJSONL(t *testing.T) (labeled, truth string) {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	labeled, truth = filepath.Join(dir, "demo.jsonl"), filepath.Join(dir, "truth.jsonl")
	var a, b strings.Builder
	for i, doc := range d.Corpus.Docs {
		rec := map[string]any{"id": doc.ID, "text": doc.Text, "split": doc.Split.String(), "labels": doc.Labels}
		js, _ := json.Marshal(rec)
		a.Write(append(js, '\n'))
		rec["labels"] = d.Truth[i]
		js, _ = json.Marshal(rec)
		b.Write(append(js, '\n'))
	}
	os.WriteFile(labeled, []byte(a.String()), 0o644)
	os.WriteFile(truth, []byte(b.String()), 0o644)
	return labeled, truth
}

func TestFitPredictTransformTopics(t *testing.T) {
	labeled, truth := writeDemoJSONL(t)
	dir := t.TempDir()
	m := filepath.Join(dir, "demo.semitopic")
	out, _, err := run(t, "fit", "--kind", "tsnmf", "--format", "jsonl", labeled, "--subset", "train", "--labels-from-corpus", "--seed", "1", "--out", m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "tsnmf model, 8 topics") || !strings.Contains(out, "saved "+m) {
		t.Errorf("fit output:\n%s", out)
	}
	// Predict the test documents and check against the planted themes.
	_, errOut, err := run(t, "predict", "--model", m, "--format", "jsonl", truth, "--subset", "test", "--out", filepath.Join(dir, "p.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "accuracy") || !strings.Contains(errOut, "on 96 labeled documents") {
		t.Errorf("predict stderr: %s", errOut)
	}
	var acc float64
	for _, f := range strings.Fields(errOut) {
		if strings.HasSuffix(f, "%") {
			json.Unmarshal([]byte(strings.TrimSuffix(f, "%")), &acc)
			break
		}
	}
	if acc < 90 {
		t.Errorf("accuracy %.1f%% on the demo test split, want ≥ 90%%", acc)
	}
	// Transform to CSV: a header of topic names, one row per document.
	csvPath := filepath.Join(dir, "dt.csv")
	if _, _, err := run(t, "transform", "--model", m, "--format", "jsonl", labeled, "--out", csvPath); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(csvPath)
	recs, err := csv.NewReader(f).ReadAll()
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 481 || recs[0][0] != "id" || recs[0][8] != "space" || len(recs[0]) != 1+8 {
		t.Errorf("transform CSV: %d rows, header %v", len(recs), recs[0])
	}
	// The CSV reads back in evaluate; topic names match the labels.
	labelsPath := filepath.Join(dir, "labels.txt")
	d, _ := demo.Load()
	var lines []string
	for _, tr := range d.Truth {
		lines = append(lines, strings.Join(tr, ","))
	}
	os.WriteFile(labelsPath, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	out, _, err = run(t, "evaluate", "--doc-topics", csvPath, "--labels", labelsPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "by topic name") {
		t.Errorf("evaluate of the transform output:\n%s", out)
	}
	// Topics as JSON.
	out, _, err = run(t, "topics", "--model", m, "--top", "3", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var tj struct {
		Kind   string
		Topics []struct {
			Name, Label string
			Words       []struct{ Word string }
		}
	}
	if err := json.Unmarshal([]byte(out), &tj); err != nil {
		t.Fatal(err)
	}
	if tj.Kind != "tsnmf" || len(tj.Topics) != 8 || tj.Topics[7].Name != "space" || len(tj.Topics[7].Words) != 3 {
		t.Errorf("topics JSON: %+v", tj)
	}
	// JSON Lines transform.
	jl := filepath.Join(dir, "dt.jsonl")
	if _, _, err := run(t, "transform", "--model", m, "--format", "jsonl", labeled, "--out", jl); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(jl)
	if !strings.Contains(strings.SplitN(string(b), "\n", 2)[0], `"labels":[`) {
		t.Errorf("jsonl line: %.200s", b)
	}
}

func TestFitUnsupervisedOnMatrix(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	x := filepath.Join(dir, "X.mtx")
	if _, _, err := run(t, "vectorize", "--format", "jsonl", labeled, "--weight", "tf", "--out", x); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"nmf", "lda"} {
		m := filepath.Join(dir, kind+".semitopic")
		out, _, err := run(t, "fit", "--kind", kind, "-k", "8", "--format", "mtx", x, "--out", m, "--max-iter", "20")
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out, kind+" model, 8 topics") {
			t.Errorf("%s fit output:\n%s", kind, out)
		}
		// A matrix model transforms a matrix, not text.
		if _, _, err := run(t, "transform", "--model", m, "--format", "mtx", x, "--out", filepath.Join(dir, kind+".csv")); err != nil {
			t.Errorf("%s transform of a matrix: %v", kind, err)
		}
		if _, _, err := run(t, "transform", "--model", m, "--format", "jsonl", labeled, "--out", filepath.Join(dir, "x.csv")); err == nil || !strings.Contains(err.Error(), "cannot read text") {
			t.Errorf("%s transform of text: %v", kind, err)
		}
		if _, _, err := run(t, "predict", "--model", m, "--format", "mtx", x); err == nil || !strings.Contains(err.Error(), "predicts no labels") {
			t.Errorf("%s predict: %v", kind, err)
		}
	}
}

func TestFitErrorsCLI(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	m := filepath.Join(t.TempDir(), "m.semitopic")
	cases := map[string][]string{
		"--out is required":     {"fit", "--kind", "nmf", "-k", "3", "--format", "jsonl", labeled},
		"--kind is required":    {"fit", "--format", "jsonl", labeled, "--out", m},
		"unknown kind":          {"fit", "--kind", "bert", "--format", "jsonl", labeled, "--out", m},
		"needs labeled":         {"fit", "--kind", "tsnmf", "--format", "jsonl", labeled, "--out", m},
		"does not apply to nmf": {"fit", "--kind", "nmf", "-k", "3", "--lambda", "2", "--format", "jsonl", labeled, "--out", m},
		"not a semitopic model": {"topics", "--model", labeled},
		"no such file":          {"anchors-missing", ""},
	}
	delete(cases, "no such file")
	for want, args := range cases {
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want %q", args, err, want)
		}
	}
}

func TestFitThemeAndCorExFromTheCLI(t *testing.T) {
	labeled, _ := writeDemoJSONL(t)
	dir := t.TempDir()
	// A theme model: topics prints the purity views of every theme.
	tm := filepath.Join(dir, "theme.semitopic")
	// (--mode fixes separated training: the search would keep Combined,
	// which has fewer topics, when it is about as accurate.)
	if _, _, err := run(t, "fit", "--kind", "theme", "--format", "jsonl", labeled, "--labels-from-corpus", "--subtopics", "2", "--mode", "separated", "--seed", "1", "--out", tm); err != nil {
		t.Fatal(err)
	}
	out, _, err := run(t, "topics", "--model", tm, "--top", "5")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mode separated, 2 subtopics per theme", "== space", "λ=0", "λ=1", "subtopic 2", "max", "sum", "background"} {
		if !strings.Contains(out, want) {
			t.Errorf("theme topics lack %q:\n%s", want, out)
		}
	}
	js, _, err := run(t, "topics", "--model", tm, "--json")
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		Topics      []map[string]any `json:"topics"`
		Description struct {
			Themes []map[string]any `json:"themes"`
		} `json:"description"`
	}
	if err := json.Unmarshal([]byte(js), &parsed); err != nil {
		t.Fatal(err)
	}
	if len(parsed.Topics) != 8*3 || len(parsed.Description.Themes) != 8 {
		t.Errorf("theme JSON: %d topics, %d themes", len(parsed.Topics), len(parsed.Description.Themes))
	}
	// CorEx with an anchors file, per-word strength and a word the corpus
	// lacks (a warning, not an error).
	anchors := filepath.Join(dir, "anchors.txt")
	os.WriteFile(anchors, []byte("# demo anchors\nspace: rocket:4, orbit, astronaut\ncooking: recipe, oven, nosuchword\n"), 0o644)
	cm := filepath.Join(dir, "corex.semitopic")
	out, _, err = run(t, "fit", "--kind", "corex", "--format", "jsonl", labeled, "--anchors", anchors, "-k", "8", "--beta", "2", "--seed", "1", "--out", cm)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "nosuchword") {
		t.Errorf("missing anchor not reported:\n%s", out)
	}
	out, _, err = run(t, "topics", "--model", cm, "--top", "6")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "space  ") && !strings.Contains(out, "space\n") {
		t.Errorf("corex topics:\n%s", out)
	}
	if !strings.Contains(out, "rocket") || !strings.Contains(out, "score") {
		t.Errorf("corex topics lack the anchor or the TC score:\n%s", out)
	}
}
