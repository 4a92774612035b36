package nmf

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// tsProblem returns 60 documents over 40 terms, 20 of them labeled with
// one or two of three labels.
func tsProblem() (x Matrix, labels [][]int, names []string) {
	xs := randomSparse(60, 40, 0.2, 31)
	labels = make([][]int, 60)
	for i := 0; i < 60; i += 3 {
		labels[i] = []int{(i / 3) % 3}
		if i%9 == 0 {
			labels[i] = append(labels[i], (i/3+1)%3)
		}
	}
	// Keep the labels of documents 0, 3, …, 57 (20 documents).
	return xs, labels, []string{"alpha", "beta", "gamma"}
}

func TestTSNMFSupervision(t *testing.T) {
	x, labels, names := tsProblem()
	vocab := make([]string, 40)
	for j := range vocab {
		vocab[j] = fmt.Sprintf("w%02d", j)
	}
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		res, err := TSNMF(context.Background(), x, TSNMFConfig{
			Config:     Config{K: 5, Loss: loss, Labels: labels, MaxIter: 80, Tol: -1},
			LabelNames: names, Vocab: vocab, TopN: 4,
		})
		if err != nil {
			t.Fatal(err)
		}
		if res.Labeled != 20 {
			t.Errorf("labeled = %d", res.Labeled)
		}
		wantNames := []string{"alpha", "beta", "gamma", "topic-3", "topic-4"}
		for tp, n := range wantNames {
			if res.TopicNames[tp] != n || res.Supervised[tp] != (tp < 3) {
				t.Errorf("topic %d: %q supervised=%v", tp, res.TopicNames[tp], res.Supervised[tp])
			}
		}
		if len(res.Notes) == 0 || !strings.Contains(res.Notes[0], "topics 3 to 4 (2 of 5) are unsupervised") {
			t.Errorf("notes: %q", res.Notes)
		}
		// E: labeled documents weigh n / labeled = 3.
		for i, e := range res.DocWeights {
			want := 1.0
			if len(labels[i]) > 0 {
				want = 3
			}
			if e != want {
				t.Fatalf("document %d weight %g, want %g", i, e, want)
			}
		}
		// L: a labeled document uses only its labels' topics.
		for i, ls := range labels {
			for tp := 0; tp < 5; tp++ {
				v := res.W.At(i, tp)
				allowed := len(ls) == 0
				for _, l := range ls {
					allowed = allowed || l == tp
				}
				if !allowed && v != 0 {
					t.Fatalf("%v: document %d, forbidden topic %d has weight %g", loss, i, tp, v)
				}
			}
		}
		checkMonotone(t, "tsnmf "+loss.String(), res.Objective)
		want := denseObjective(x.(interface{ ToDense() *mat.Dense }).ToDense(), res.W, res.H, loss,
			func(i, _ int) float64 { return res.DocWeights[i] })
		if d := relDiff(res.FinalObjective(), want); d > 1e-10 {
			t.Errorf("%v: objective %g, weighted dense reference %g", loss, res.FinalObjective(), want)
		}
		if len(res.TopTerms) != 5 || len(res.TopTerms[0]) != 4 {
			t.Errorf("top terms: %v", res.TopTerms)
		}
		// Transform with labels keeps the restriction.
		w, err := res.TransformLabeled(context.Background(), x, labels)
		if err != nil {
			t.Fatal(err)
		}
		for i, ls := range labels {
			if len(ls) == 1 {
				for tp := 0; tp < 5; tp++ {
					if tp != ls[0] && w.At(i, tp) != 0 {
						t.Fatalf("transform: document %d topic %d = %g", i, tp, w.At(i, tp))
					}
				}
			}
		}
	}
}

// TestTSNMFEqualsNMF: with L all ones and no weights, TS-NMF is plain NMF,
// bit for bit.
func TestTSNMFEqualsNMF(t *testing.T) {
	x, labels, names := tsProblem()
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		// No labels: TS-NMF's default init (label means) without labels is
		// random Acol.
		a, err := TSNMF(context.Background(), x, TSNMFConfig{Config: Config{K: 4, Loss: loss, Seed: 3, MaxIter: 30}, LabelNames: names})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Fit(context.Background(), x, Config{K: 4, Loss: loss, Seed: 3, Init: InitRandomAcol, MaxIter: 30})
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(a.W, b.W) || !mat.Equal(a.H, b.H) || !floatsEqual(a.Objective, b.Objective) {
			t.Errorf("%v: TS-NMF without labels differs from NMF", loss)
		}
		// Every document labeled with every topic: L is all ones, and with
		// no weighting TS-NMF is NMF with the same initialisation.
		all := make([][]int, len(labels))
		for i := range all {
			all[i] = []int{0, 1, 2}
		}
		a, err = TSNMF(context.Background(), x, TSNMFConfig{Config: Config{K: 3, Loss: loss, Init: InitRandom, Seed: 3, Labels: all, MaxIter: 30}, LabelNames: names, Weighting: NoWeighting})
		if err != nil {
			t.Fatal(err)
		}
		b, err = Fit(context.Background(), x, Config{K: 3, Loss: loss, Seed: 3, Init: InitRandom, MaxIter: 30})
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(a.W, b.W) || !mat.Equal(a.H, b.H) || !floatsEqual(a.Objective, b.Objective) {
			t.Errorf("%v: TS-NMF with L all ones differs from NMF", loss)
		}
	}
}

func TestTSNMFErrorsAndWeighting(t *testing.T) {
	x, labels, names := tsProblem()
	bad := []struct {
		cfg  TSNMFConfig
		want string
	}{
		{TSNMFConfig{Config: Config{K: 2, Labels: labels}, LabelNames: names}, "K = 2 is smaller than the number of labels 3"},
		{TSNMFConfig{Config: Config{K: 3, Labels: [][]int{{0}}}}, "1 label lists for 60 documents"},
		{TSNMFConfig{Config: Config{K: 3, Labels: append([][]int{{5}}, make([][]int, 59)...)}, LabelNames: names}, "document 0 has label 5"},
		{TSNMFConfig{Config: Config{K: 3, WMask: mat.NewDense(60, 3, nil)}}, "leave them unset"},
		{TSNMFConfig{Config: Config{K: 3}, Weighting: CustomWeighting}, "0 document weights"},
	}
	for _, c := range bad {
		if _, err := TSNMF(context.Background(), x, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err = %v, want %q", err, c.want)
		}
	}
	// Label names may be omitted: labels are counted from the indices.
	res, err := TSNMF(context.Background(), x, TSNMFConfig{Config: Config{K: 3, Labels: labels, MaxIter: 5}})
	if err != nil || res.TopicNames[2] != "label-2" {
		t.Errorf("unnamed labels: %v, %v", err, res)
	}
	// Custom and no weighting.
	e := randomWeights(60, 1)
	res, err = TSNMF(context.Background(), x, TSNMFConfig{Config: Config{K: 3, Labels: labels, MaxIter: 5}, Weighting: CustomWeighting, DocWeights: e})
	if err != nil || !floatsEqual(res.DocWeights, e) {
		t.Errorf("custom weights: %v", err)
	}
	res, err = TSNMF(context.Background(), x, TSNMFConfig{Config: Config{K: 3, Labels: labels, MaxIter: 5}, Weighting: NoWeighting})
	if err != nil || res.DocWeights != nil {
		t.Errorf("no weighting: %v %v", err, res.DocWeights)
	}
}

func TestTopTerms(t *testing.T) {
	h := mat.NewDense(2, 4, []float64{
		0.1, 0.5, 0, 0.5,
		0, 0, 0, 2,
	})
	got, err := TopTerms(h, []string{"a", "b", "c", "d"}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[[b d a] [d]]" {
		t.Errorf("TopTerms = %v", got)
	}
	if _, err := TopTerms(h, []string{"a"}, 3); err == nil {
		t.Errorf("short vocabulary accepted")
	}
}
