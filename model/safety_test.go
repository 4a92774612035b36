package model

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// A failed save leaves the file that was there byte-identical and no
// temporary file beside it; a model with a non-finite entry is never
// written.
func TestSaveFileFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "keep.semitopic")
	good := fitDemo(t, Options{Kind: KindNMF, K: 4, Seed: 1}, false)
	if err := SaveFile(path, good); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := fitDemo(t, Options{Kind: KindNMF, K: 4, Seed: 2}, false)
	bad.Model.(*NMF).H.Set(1, 2, math.NaN())
	err = SaveFile(path, bad)
	if err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Fatalf("saving a NaN model: err = %v", err)
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatalf("the old model file changed (%d bytes → %d)", len(before), len(after))
	}
	es, _ := os.ReadDir(dir)
	if len(es) != 1 {
		t.Errorf("folder holds %d entries, want only the model", len(es))
	}
}

// A file holding a non-finite matrix entry is corrupt.
func TestLoadRejectsNonFinite(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindNMF, K: 3, Seed: 1}, false)
	var buf bytes.Buffer
	if err := Save(&buf, f); err != nil {
		t.Fatal(err)
	}
	// Overwrite H's first entry with NaN and fix up the checksum: a file
	// that is intact but holds NaN.
	b := buf.Bytes()
	body := b[:len(b)-32]
	hAt := bytes.LastIndex(body, []byte("]}")) // end of the manifest's matrices list
	if hAt < 0 {
		t.Fatal("manifest end not found")
	}
	// Data starts after the manifest; the first matrix is H (sorted names).
	off := hAt + 2
	nan := math.Float64bits(math.NaN())
	for i := 0; i < 8; i++ {
		body[off+i] = byte(nan >> (8 * i))
	}
	sum := sha256Sum(body)
	copy(b[len(b)-32:], sum)
	if _, err := Load(bytes.NewReader(b)); err == nil || !strings.Contains(err.Error(), "non-finite") {
		t.Fatalf("err = %v", err)
	}
}

func TestFitRejectsBadOptions(t *testing.T) {
	c := demoCorpus(t)
	pl := vectorize.DefaultPipeline()
	n := 0
	for _, d := range c.Docs {
		if d.Text != "" {
			n++
		}
	}
	cases := map[string]struct {
		o      Options
		labels bool
		want   string
	}{
		"tol inf":        {Options{Kind: KindNMF, K: 3, Tol: math.Inf(1)}, false, "tol"},
		"tol nan":        {Options{Kind: KindNMF, K: 3, Tol: math.NaN()}, false, "tol"},
		"lambda inf":     {Options{Kind: KindSSNMF, Lambda: math.Inf(1)}, true, "lambda"},
		"nmf k > docs":   {Options{Kind: KindNMF, K: 500}, false, "documents"},
		"corex k > docs": {Options{Kind: KindCorEx, K: 500}, false, "documents"},
		"lda k > docs":   {Options{Kind: KindLDA, K: 500}, false, "documents"},
		"tsnmf k > docs": {Options{Kind: KindTSNMF, K: 500}, true, "documents"},
		"theme s > docs": {Options{Kind: KindTheme, Subtopics: 500}, true, "documents"},
	}
	for name, tc := range cases {
		o := tc.o
		o.LabelsFromCorpus = tc.labels
		_, err := fitCorpus(context.Background(), c, pl, o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one mentioning %q", name, err, tc.want)
		}
	}
}

// k more than the terms is an error that says so.
func TestFitKMoreThanTerms(t *testing.T) {
	x := sparse.FromDense(mat.NewDense(6, 3, []float64{1, 0, 2, 0, 1, 1, 3, 1, 0, 1, 1, 1, 0, 2, 1, 1, 0, 1}))
	_, _, err := fitMatrix(context.Background(), x, []string{"a", "b", "c"}, Options{Kind: KindNMF, K: 4})
	if err == nil || !strings.Contains(err.Error(), "terms") {
		t.Fatalf("err = %v", err)
	}
}

// Values that overflow during a fit stop it with an error naming where,
// for every kind, instead of producing (and saving) NaN.
func TestFitOverflowIsAnError(t *testing.T) {
	vocab := []string{"a", "b", "c", "d"}
	rows := [][]float64{{1e308, 1, 0, 2}, {1, 3, 1, 0}, {0, 2, 5, 1}, {1, 0, 1, 4}, {2, 1, 0, 1}, {1, 1, 1, 1}}
	x, _ := corpusMatrix(vocab, rows)
	labels := [][]string{{"p"}, {"q"}, nil, nil, {"p"}, nil}
	for _, tc := range []struct {
		o   Options
		sup Supervision
	}{
		{Options{Kind: KindNMF, K: 2}, Supervision{}},
		{Options{Kind: KindNMF, K: 2, Loss: "kl"}, Supervision{}},
		{Options{Kind: KindTSNMF}, Supervision{Labels: labels}},
		{Options{Kind: KindSSNMF}, Supervision{Labels: labels}},
		{Options{Kind: KindLDA, K: 2}, Supervision{}},
	} {
		o := tc.o
		o.Supervision = tc.sup
		m, _, err := fitMatrix(context.Background(), x, vocab, o)
		if err == nil {
			t.Errorf("%s %s: no error; topics %v", tc.o.Kind, tc.o.Loss, mustTopics(t, m, 2))
			continue
		}
		if !strings.Contains(err.Error(), "overflow") && !strings.Contains(err.Error(), "finite") {
			t.Errorf("%s %s: err = %v", tc.o.Kind, tc.o.Loss, err)
		}
	}
}

// A document with no term known to the model gets no label, from every
// kind that predicts labels.
func TestEmptyDocumentGetsNoLabel(t *testing.T) {
	docs := []corpus.Document{
		{ID: "known", Text: "the market rallied as stocks and shares rose in heavy trading"},
		{ID: "unknown", Text: "zzzyx qqqwv"},
		{ID: "blank", Text: ""},
	}
	for _, o := range []Options{
		{Kind: KindTSNMF, Seed: 1},
		{Kind: KindSSNMF, Seed: 1},
		{Kind: KindTheme, Seed: 1},
		{Kind: KindCorEx, Seed: 1},
	} {
		f := fitDemo(t, o, true)
		res, err := f.Vectorize(context.Background(), docs)
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.Model.(Predictor).Predict(context.Background(), res.X)
		if err != nil {
			t.Fatalf("%s: %v", o.Kind, err)
		}
		if len(p.Labels[0]) == 0 || p.Empty[0] {
			t.Errorf("%s: a document with known terms got no label", o.Kind)
		}
		for i := 1; i < 3; i++ {
			if len(p.Labels[i]) != 0 || !p.Empty[i] {
				t.Errorf("%s: document %q with no known term got labels %v", o.Kind, docs[i].ID, p.Labels[i])
			}
		}
		if p.NumEmpty() != 2 {
			t.Errorf("%s: NumEmpty = %d", o.Kind, p.NumEmpty())
		}
		w, err := f.Model.Transform(context.Background(), res.X)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(w, p.Weights) {
			t.Errorf("%s: Prediction.Weights differ from Transform", o.Kind)
		}
	}
}
