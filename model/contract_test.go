package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// The contract every kind keeps, run over Kinds() so that a kind added
// later is held to it without a line here: it fits with the supervision
// it declares (Takes), transforms to finite non-negative weights, predicts
// when it has labels, saves and loads to the same transform, fits the same
// model twice from one seed, stops on a cancelled context, refuses NaN and
// Inf, takes an empty document and a single one, transforms a subset of
// documents as the same rows of the whole, and, when it trains out of
// core, fits the model it fits in memory.

// contractCorpus is 48 documents over 24 terms from three planted topics
// (terms 8c…8c+7 belong to class c), with one empty document, and the
// classes as labels of every other document.
func contractCorpus() (x *sparse.CSR, vocab []string, classes []string) {
	classes = []string{"alpha", "beta", "gamma"}
	for j := 0; j < 24; j++ {
		vocab = append(vocab, fmt.Sprintf("w%c%c", 'a'+j/8, 'a'+j%8))
	}
	var ts []sparse.Triplet
	for i := 0; i < 48; i++ {
		if i == 7 {
			continue // an empty document
		}
		c := i % 3
		for q := 0; q < 5; q++ {
			j := 8*c + (i*3+q*5)%8
			ts = append(ts, sparse.Triplet{Row: i, Col: j, Val: float64(1 + (i+q)%3)})
		}
		// a word of another class now and then
		if i%4 == 0 {
			ts = append(ts, sparse.Triplet{Row: i, Col: 8*((c+1)%3) + i%8, Val: 1})
		}
	}
	x, err := sparse.FromTriplets(48, 24, ts)
	if err != nil {
		panic(err)
	}
	return x, vocab, classes
}

// contractLabels labels every other document with its class.
func contractLabels(n int, classes []string) [][]string {
	labels := make([][]string, n)
	for i := range labels {
		if i%2 == 0 {
			labels[i] = []string{classes[i%3]}
		}
	}
	return labels
}

// contractAnchors seeds each class's topic with two of its words and keeps
// one of another class's out of it.
func contractAnchors(vocab, classes []string) []Anchor {
	var out []Anchor
	for c, name := range classes {
		out = append(out, Anchor{Topic: name, Words: []string{vocab[8*c], vocab[8*c+1]}, Exclude: []string{vocab[8*((c+1)%3)+2]}})
	}
	return out
}

// contractOptions are a kind's options for the contract: three topics
// where it takes k, few iterations where it takes a limit, and the
// supervision it declares — labels when it learns from them, else seed
// words (with exclusions) when it takes them.
func contractOptions(t *testing.T, k Kind, labels [][]string, anchors []Anchor) Options {
	t.Helper()
	o := Options{Kind: k.Name(), Seed: 7}
	for _, p := range k.Params() {
		switch p.Name {
		case "topics":
			o.K = 3
		case "max-iter":
			o.MaxIter = 25
		}
	}
	switch {
	case k.Takes().Labels:
		o.Labels = labels
	case k.Takes().Seeds:
		o.Anchors = anchors
	}
	return o
}

// transformOf is a model's transform of x, failing the test on an error.
func transformOf(t *testing.T, m Model, x *sparse.CSR) *mat.Dense {
	t.Helper()
	w, err := m.Transform(t.Context(), x)
	if err != nil {
		t.Fatalf("transform: %v", err)
	}
	return w
}

// maxDiff is the largest absolute difference between a and b, +Inf when
// their shapes differ.
func maxDiff(a, b *mat.Dense) float64 {
	ar, ac := a.Dims()
	br, bc := b.Dims()
	if ar != br || ac != bc {
		return math.Inf(1)
	}
	d := 0.0
	for i := 0; i < ar; i++ {
		for j := 0; j < ac; j++ {
			d = max(d, math.Abs(a.At(i, j)-b.At(i, j)))
		}
	}
	return d
}

// withValue returns a copy of x with its first stored value replaced by v.
func withValue(x *sparse.CSR, v float64) *sparse.CSR {
	rows := make([]int, x.Rows)
	for i := range rows {
		rows[i] = i
	}
	y := x.SelectRows(rows)
	y.Data[0] = v
	return y
}

func TestKindContract(t *testing.T) {
	x, vocab, classes := contractCorpus()
	labels := contractLabels(x.Rows, classes)
	anchors := contractAnchors(vocab, classes)
	ctx := t.Context()
	for _, name := range Kinds() {
		k, err := KindOf(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			o := contractOptions(t, k, labels, anchors)
			f, err := Fit(ctx, Matrix(x, vocab), o)
			if err != nil {
				t.Fatalf("fit: %v", err)
			}
			m := f.Model
			if m.Kind() != name {
				t.Errorf("a %s fit gave a %s model", name, m.Kind())
			}
			kt := m.NumTopics()
			topics := mustTopics(t, m, 5)
			if len(topics) != kt || kt == 0 {
				t.Fatalf("%d topics described of %d", len(topics), kt)
			}
			seen := map[string]bool{}
			for _, tp := range topics {
				if tp.Name == "" || seen[tp.Name] {
					t.Errorf("topic name %q empty or repeated", tp.Name)
				}
				seen[tp.Name] = true
			}

			// Transform: finite, non-negative weights, one row per document.
			w := transformOf(t, m, x)
			if r, c := w.Dims(); r != x.Rows || c != kt {
				t.Fatalf("transform is %d×%d, want %d×%d", r, c, x.Rows, kt)
			}
			for _, v := range w.RawMatrix().Data {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("transform holds %v", v)
				}
			}

			// Training: the fit's own weights where the kind keeps them
			// (then a TS-NMF or labeled LDA document keeps its label),
			// else Transform's; the same shape either way.
			tr, inSample, err := f.Training(ctx, x)
			if err != nil {
				t.Fatalf("training: %v", err)
			}
			if r, c := tr.Weights.Dims(); r != x.Rows || c != kt {
				t.Fatalf("training weights are %d×%d, want %d×%d", r, c, x.Rows, kt)
			}
			if inSample != (f.DocTopics != nil) || (f.DocTopics != nil) != slices.Contains([]string{KindNMF, KindTSNMF, KindSSNMF, KindLDA}, name) {
				t.Errorf("in sample %v with DocTopics %v", inSample, f.DocTopics != nil)
			}
			if _, ok := AsPredictor(m); ok != (tr.Labels != nil) {
				t.Errorf("training labels %v for a model that predicts (%v)", tr.Labels != nil, ok)
			}
			if name == KindTSNMF || name == KindLDA {
				for i, ls := range labels {
					if len(ls) > 0 && !slices.Equal(tr.Labels[i], ls) {
						t.Errorf("labeled document %d (%v) read as %v in sample", i, ls, tr.Labels[i])
					}
				}
			}
			// The kinds that hold labels on request (Options.HoldLabels)
			// read every labeled document holding a term with its labels,
			// also two whose words are another class's (which a fit
			// without the hold reads by their words: for ssnmf with a
			// light label term).
			if _, ok := paramNamed(k.Params(), "hold-labels"); ok && o.Labels != nil {
				oh := o
				oh.HoldLabels = true
				labels := slices.Clone(labels)
				labels[0], labels[10] = []string{classes[1]}, []string{classes[2]}
				oh.Labels = labels
				if name == KindSSNMF {
					oh.Lambda = 0.5
				}
				fh, err := Fit(ctx, Matrix(x, vocab), oh)
				if err != nil {
					t.Fatalf("fit holding labels: %v", err)
				}
				th, _, err := fh.Training(ctx, x)
				if err != nil {
					t.Fatalf("training, labels held: %v", err)
				}
				for i, ls := range labels {
					if len(ls) > 0 && x.Indptr[i+1] > x.Indptr[i] && !slices.Equal(th.Labels[i], ls) {
						t.Errorf("labels held: labeled document %d (%v) read as %v in sample", i, ls, th.Labels[i])
					}
				}
			}

			// Predict, for a model with labels: one score per label, labels
			// among its own, none for the empty document.
			if p, ok := AsPredictor(m); ok {
				pr, err := p.Predict(ctx, x)
				if err != nil {
					t.Fatalf("predict: %v", err)
				}
				if r, c := pr.Scores.Dims(); r != x.Rows || c != len(p.Labels()) {
					t.Errorf("scores %d×%d for %d documents and %d labels", r, c, x.Rows, len(p.Labels()))
				}
				for i, ls := range pr.Labels {
					for _, l := range ls {
						if !slices.Contains(p.Labels(), l) {
							t.Errorf("document %d predicted %q, not a label of the model (%v)", i, l, p.Labels())
						}
					}
				}
				if !pr.Empty[7] || len(pr.Labels[7]) != 0 {
					t.Errorf("the empty document: empty %v, labels %v", pr.Empty[7], pr.Labels[7])
				}
				right, labeled, _, err := pr.Accuracy(labels)
				if err != nil {
					t.Fatal(err)
				}
				if float64(right) <= float64(labeled)/3 {
					t.Errorf("%d of %d labeled training documents predicted right: no better than chance", right, labeled)
				}
			} else if k.Takes().Labels && o.Labels != nil {
				t.Errorf("a %s model fitted with labels predicts none", name)
			}

			// Save and load: the same transform, the same topics.
			var file bytes.Buffer
			if err := Save(&file, f); err != nil {
				t.Fatalf("save: %v", err)
			}
			g, err := Load(&file)
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			if d := maxDiff(w, transformOf(t, g.Model, x)); d != 0 {
				t.Errorf("the loaded model transforms differently (max difference %g)", d)
			}
			if got := mustTopics(t, g.Model, 5); !sameJSON(got, topics) {
				t.Errorf("the loaded model's topics differ:\n%v\n%v", got, topics)
			}

			// Determinism: the same seed, the same model.
			f2, err := Fit(ctx, Matrix(x, vocab), o)
			if err != nil {
				t.Fatal(err)
			}
			if d := maxDiff(w, transformOf(t, f2.Model, x)); d != 0 {
				t.Errorf("two fits from one seed differ (max difference %g)", d)
			}

			// A subset of documents, and one document, transform as the
			// same rows of the whole.
			rows := []int{5, 7, 30, 2}
			sub := transformOf(t, m, x.SelectRows(rows))
			for r, i := range rows {
				for j := 0; j < kt; j++ {
					if d := math.Abs(sub.At(r, j) - w.At(i, j)); d > 1e-9 {
						t.Fatalf("document %d transformed in a subset differs from the whole's row by %g", i, d)
					}
				}
			}
			one := transformOf(t, m, x.SelectRows([]int{30}))
			if d := maxDiff(one, mat.NewDense(1, kt, w.RawRowView(30))); d > 1e-9 {
				t.Errorf("one document transformed alone differs from its row by %g", d)
			}

			// NaN and Inf are refused, in the fit and in the transform.
			for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				bad := withValue(x, v)
				if _, err := Fit(ctx, Matrix(bad, vocab), o); err == nil {
					t.Errorf("fit on a matrix holding %v: no error", v)
				}
				if _, err := m.Transform(ctx, bad); err == nil {
					t.Errorf("transform of a matrix holding %v: no error", v)
				}
			}

			// A cancelled context stops the fit with its error.
			cctx, cancel := context.WithCancel(ctx)
			cancel()
			if _, err := Fit(cctx, Matrix(x, vocab), o); !errors.Is(err, context.Canceled) {
				t.Errorf("fit with a cancelled context: %v", err)
			}
		})
	}
}

// Every kind that trains out of core fits there the model it fits in
// memory, with the supervision it takes out of core.
func TestKindContractOutOfCore(t *testing.T) {
	x, vocab, classes := contractCorpus()
	labels := contractLabels(x.Rows, classes)
	anchors := contractAnchors(vocab, classes)
	// The shards, with the labels file.
	dir := filepath.Join(t.TempDir(), "c.shards")
	wr, err := shard.Create(dir, len(vocab), shard.Options{RowsPerShard: 13, Vocab: vocab, Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		if err := wr.Add(slices.Clone(cols), slices.Clone(vals), labels[i]); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := wr.Close(); err != nil {
		t.Fatal(err)
	}
	src, err := shard.OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range OutOfCoreKinds() {
		k, err := KindOf(name)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(name, func(t *testing.T) {
			mem := contractOptions(t, k, labels, anchors)
			ooc := mem
			switch {
			case mem.Labels != nil && name == KindTSNMF:
				// Out of core, the labels are the corpus's labels file.
				ooc.Labels, ooc.LabelsFromCorpus = nil, true
			case mem.Labels != nil:
				// The kinds that take no labels out of core take seed
				// words there: fit both ways with seed words.
				mem.Labels, mem.Anchors = nil, anchors
				ooc = mem
			}
			if name == KindNMF || name == KindTSNMF {
				// Seed words are fitted in memory only in the NMF family:
				// keep the exclusions.
				var ex []Anchor
				for _, a := range mem.Anchors {
					ex = append(ex, Anchor{Topic: a.Topic, Exclude: a.Exclude})
				}
				mem.Anchors, ooc.Anchors = ex, ex
				// Out of core, NMF starts from random-acol.
				mem.Init, ooc.Init = "random-acol", "random-acol"
			}
			fm, err := Fit(t.Context(), Matrix(x, vocab), mem)
			if err != nil {
				t.Fatalf("in memory: %v", err)
			}
			fo, err := Fit(t.Context(), Shards(src, filepath.Join(t.TempDir(), "state")), ooc)
			if err != nil {
				t.Fatalf("out of core: %v", err)
			}
			wm, wo := transformOf(t, fm.Model, x), transformOf(t, fo.Model, x)
			scale := 0.0
			for _, v := range wm.RawMatrix().Data {
				scale = max(scale, math.Abs(v))
			}
			if d := maxDiff(wm, wo); !(d <= 1e-9*max(scale, 1)) {
				t.Errorf("out of core the model transforms differently from in memory (max difference %g, scale %g)", d, scale)
			}
			tm, to := mustTopics(t, fm.Model, 5), mustTopics(t, fo.Model, 5)
			for i := range tm {
				if tm[i].Name != to[i].Name || !strings.EqualFold(tm[i].Words[0].Word, to[i].Words[0].Word) {
					t.Errorf("topic %d: %s %v in memory, %s %v out of core", i, tm[i].Name, tm[i].Words, to[i].Name, to[i].Words)
				}
			}
		})
	}
}

// sameJSON says whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	x, errx := json.Marshal(a)
	y, erry := json.Marshal(b)
	return errx == nil && erry == nil && bytes.Equal(x, y)
}
