package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
)

// What users read: predict's score columns and notes, what report's
// figures are computed on, and the training documents among them.
func TestBadInputOutputs(t *testing.T) {
	_, truth := writeDemoJSONL(t)
	dir := t.TempDir()
	// mtrain: fitted on the train split of truth.jsonl; mall: on all of
	// it, with the terms+topics readout (SVM margins).
	mtrain, mall := filepath.Join(dir, "mtrain.semitopic"), filepath.Join(dir, "mall.semitopic")
	for _, args := range [][]string{
		{"fit", "--kind", "tsnmf", "--format", "jsonl", truth, "--subset", "train", "--labels-from-corpus", "--seed", "1", "--out", mtrain},
		{"fit", "--kind", "tsnmf", "--format", "jsonl", truth, "--labels-from-corpus", "--readout", "terms+topics", "--seed", "1", "--out", mall},
	} {
		if _, _, err := run(t, args...); err != nil {
			t.Fatal(err)
		}
	}
	copyTruth := func(t *testing.T, d string) {
		b, err := os.ReadFile(truth)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "copy.jsonl"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	csvHeader := func(t *testing.T, path string) []string {
		t.Helper()
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		h, err := csv.NewReader(f).Read()
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	html := func(t *testing.T, path string) string {
		t.Helper()
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	unseen := `{"id": "a", "text": "the market rallied as stocks and shares rose", "labels": ["finance"]}
{"id": "b", "text": "the stars foretold the planets' alignment", "labels": ["astrology"]}
{"id": "c", "text": "the bank read the stars for its investors", "labels": ["finance", "astrology"]}
{"id": "d", "text": "a horoscope in the paper", "labels": ["astrology"]}
{"id": "e", "text": "the oven and the flour", "labels": ["baking"]}
{"id": "f", "text": "no label here"}
`
	runBadCases(t, []badCase{
		// predict's score columns say what the scores are.
		{name: "predict names SVM margins", args: []string{"predict", "--model", mall, "--format", "jsonl", truth, "--subset", "test", "--out", "$D/p.csv"},
			ok: true, want: []string{"the scores (margin:LABEL) are the margin (decision value) of a linear SVM"},
			check: func(t *testing.T, d, _, _ string) {
				h := csvHeader(t, filepath.Join(d, "p.csv"))
				if h[0] != "id" || h[1] != "predicted" || !strings.HasPrefix(h[2], "margin:") || len(h) != 2+8 {
					t.Errorf("header %v, want id, predicted, margin:LABEL…", h)
				}
			}},
		{name: "predict names topic weights", args: []string{"predict", "--model", mtrain, "--format", "jsonl", truth, "--subset", "test", "--out", "$D/p.tsv"},
			ok: true, want: []string{"the scores (weight:LABEL) are the document's weight on the label's topic"},
			check: func(t *testing.T, d, _, _ string) {
				b, _ := os.ReadFile(filepath.Join(d, "p.tsv"))
				if !strings.HasPrefix(string(b), "id\tpredicted\tweight:computing\t") {
					t.Errorf("header %.80q", b)
				}
			}},
		{name: "predict JSONL says the score kind", args: []string{"predict", "--model", mall, "--format", "jsonl", truth, "--subset", "test", "--out", "$D/p.jsonl"},
			ok: true, want: []string{"margin:LABEL"},
			check: func(t *testing.T, d, _, _ string) {
				b, _ := os.ReadFile(filepath.Join(d, "p.jsonl"))
				if !strings.Contains(strings.SplitN(string(b), "\n", 2)[0], `"score_kind":"margin"`) {
					t.Errorf("JSONL record %.200s", b)
				}
			}},
		// Labels the model never saw: counted, named, and how they count.
		{name: "predict with labels the model never saw", files: map[string]string{"new.jsonl": unseen},
			args: []string{"predict", "--model", mtrain, "--format", "jsonl", "$D/new.jsonl", "--out", "$D/p.csv"},
			ok:   true, want: []string{"on 5 labeled documents",
				`4 of the 5 labeled documents carry 2 labels the model was not fitted with: "astrology" (3 documents), "baking" (1 document)`,
				"the 3 with no label the model knows can never be predicted right and count as errors above",
				"on the other 2)", "1 also carries a label the model knows and is scored as usual"}},
		{name: "predict with known labels only says nothing of unseen labels", args: []string{"predict", "--model", mtrain, "--format", "jsonl", truth, "--subset", "test", "--out", "$D/p.csv"},
			ok: true, want: []string{"accuracy"},
			check: func(t *testing.T, _, stdout, stderr string) {
				if strings.Contains(stderr, "not fitted with") || strings.Contains(stderr, "training documents") {
					t.Errorf("a note on unseen labels or training documents for the test split: %s", stderr)
				}
			}},
		// predict's accuracy on the model's own training documents.
		{name: "predict on the training documents", args: []string{"predict", "--model", mall, "--format", "jsonl", truth, "--out", "$D/p.csv"},
			ok: true, want: []string{"note: These are training documents: the model was fitted on every document of " + truth, "the accuracy overstates"}},
		// report scores the test split unless told otherwise, and says
		// whether the documents were in the fit.
		{name: "report scores the test split", args: []string{"report", "--model", mtrain, "--format", "jsonl", truth, "--out", "$D/r.html"},
			ok: true, want: []string{"note: scoring the test split of " + truth + " only (96 documents); --subset all scores every document"},
			check: func(t *testing.T, d, _, _ string) {
				h := html(t, filepath.Join(d, "r.html"))
				for _, w := range []string{"<td>evaluated on</td><td>96 test-split documents of " + truth + " (only its test split, as no --subset was given",
					`<p class="muted">None of these documents was in the fit: the model was fitted on the train split of ` + truth + ".</p>"} {
					if !strings.Contains(h, w) {
						t.Errorf("report lacks %q", w)
					}
				}
			}},
		{name: "report --subset all includes the training documents", args: []string{"report", "--model", mtrain, "--format", "jsonl", truth, "--subset", "all", "--out", "$D/r.html"},
			ok: true, want: []string{"note: 384 of these 480 documents (the train split) are the model's training documents", "--subset test scores only the others"},
			check: func(t *testing.T, d, _, _ string) {
				if h := html(t, filepath.Join(d, "r.html")); !strings.Contains(h, `<p class="warn">384 of these 480 documents (the train split) are the model&#39;s training documents`) {
					t.Error("the report does not warn that it scores training documents")
				}
			}},
		{name: "report on a model fitted on every document", args: []string{"report", "--model", mall, "--format", "jsonl", truth, "--out", "$D/r.html"},
			ok: true, want: []string{"note: These are training documents: the model was fitted on every document of " + truth + " (no --subset)", "overstate"}},
		{name: "report on another file", setup: copyTruth, args: []string{"report", "--model", mtrain, "--format", "jsonl", "$D/copy.jsonl", "--out", "$D/r.html"},
			ok: true, want: []string{"scoring the test split of $D/copy.jsonl"},
			check: func(t *testing.T, d, _, _ string) {
				w := "The model was fitted on the train split of " + truth + "; these documents come from " + filepath.Join(d, "copy.jsonl") + ". If they include any of its training documents, the figures overstate"
				if h := html(t, filepath.Join(d, "r.html")); !strings.Contains(h, w) {
					t.Errorf("report lacks %q", w)
				}
			}},
		{name: "report --subset on a corpus without split", files: map[string]string{"new.jsonl": unseen},
			args: []string{"report", "--model", mtrain, "--format", "jsonl", "$D/new.jsonl", "--subset", "test", "--out", "$D/r.html"},
			want: []string{"--subset test", "$D/new.jsonl has no train/test split"}},
		{name: "report on a corpus without split scores all of it", files: map[string]string{"new.jsonl": unseen},
			args: []string{"report", "--model", mtrain, "--format", "jsonl", "$D/new.jsonl", "--out", "$D/r.html"},
			ok:   true, want: []string{"wrote $D/r.html"},
			check: func(t *testing.T, _, _, stderr string) {
				if strings.Contains(stderr, "test split") {
					t.Errorf("a test-split note for a corpus without split: %s", stderr)
				}
			}},
	})
}

// topics lists the topics that have words and a share, and one line for
// the empty ones; --json lists them all and names the empty ones.
func TestTopicsEmptyCollapsed(t *testing.T) {
	w := []model.Word{{Word: "rocket", Weight: 1}}
	f := &model.Fitted{Model: fixedTopics{topics: []model.Topic{
		{Name: "space", Weight: 0.6, Words: w},
		{Name: "topic-2", Weight: 0, Words: w, Empty: true},
		{Name: "a-long-topic-name", Weight: 0.4, Words: w},
		{Name: "topic-4", Weight: 0, Empty: true},
	}}, Vocab: []string{"rocket"}}
	var out bytes.Buffer
	if err := writeTopics(context.Background(), &out, f, 3, false); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{"4 topics (2 of them empty) over 1 terms", "space  (60.0% of the corpus)", "a-long-topic-name  (40.0%",
		"(2 empty topics, not listed: no training document uses them; topic-2, topic-4)\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("topics output lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "topic-2  (") || strings.Contains(s, "topic-4\n  ") {
		t.Errorf("an empty topic listed as a topic:\n%s", s)
	}
	out.Reset()
	if err := writeTopics(context.Background(), &out, f, 3, true); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"empty_topics": [
    "topic-2",
    "topic-4"
  ]`) {
		t.Errorf("--json does not name the empty topics:\n%s", out.String())
	}
}

// fixedTopics is a model of given topics; it transforms nothing.
type fixedTopics struct{ topics []model.Topic }

func (m fixedTopics) Kind() string                                               { return "nmf" }
func (m fixedTopics) NumTopics() int                                             { return len(m.topics) }
func (m fixedTopics) Topics(int) ([]model.Topic, error)                          { return m.topics, nil }
func (m fixedTopics) Transform(context.Context, *sparse.CSR) (*mat.Dense, error) { return nil, nil }
