package metrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

type prfsFixture struct {
	K        int     `json:"k"`
	Accuracy float64 `json:"accuracy"`
	PerClass struct {
		Labels  []int     `json:"labels"`
		P       []float64 `json:"p"`
		R       []float64 `json:"r"`
		F       []float64 `json:"f"`
		Support []int     `json:"support"`
	} `json:"per_class"`
	Micro    []float64 `json:"micro"`
	Macro    []float64 `json:"macro"`
	Weighted []float64 `json:"weighted"`
}

// classificationFixture is testdata/classification.json, written by
// testdata/gen_classification.py with scikit-learn 1.2.1.
type classificationFixture struct {
	Sklearn string `json:"sklearn"`
	Single  []struct {
		prfsFixture
		True      []int   `json:"true"`
		Pred      []int   `json:"pred"`
		Confusion [][]int `json:"confusion"`
	} `json:"single"`
	Multi []struct {
		prfsFixture
		True [][]int `json:"true"`
		Pred [][]int `json:"pred"`
	} `json:"multi"`
}

func checkReport(t *testing.T, name string, r *ClassificationReport, want *prfsFixture) {
	t.Helper()
	const tol = 1e-12
	near := func(what string, got, w float64) {
		t.Helper()
		if math.Abs(got-w) > tol {
			t.Errorf("%s: %s = %.17g, sklearn %.17g", name, what, got, w)
		}
	}
	near("accuracy", r.Accuracy, want.Accuracy)
	if !slices.Equal(r.Averaged, want.PerClass.Labels) {
		t.Errorf("%s: averaged classes %v, sklearn labels %v", name, r.Averaged, want.PerClass.Labels)
	}
	for k, c := range want.PerClass.Labels {
		near("precision", r.PerClass[c].Precision, want.PerClass.P[k])
		near("recall", r.PerClass[c].Recall, want.PerClass.R[k])
		near("F1", r.PerClass[c].F1, want.PerClass.F[k])
		if r.Support[c] != want.PerClass.Support[k] {
			t.Errorf("%s: support[%d] = %d, sklearn %d", name, c, r.Support[c], want.PerClass.Support[k])
		}
	}
	for _, avg := range []struct {
		name string
		got  PRF
		want []float64
	}{{"micro", r.Micro, want.Micro}, {"macro", r.Macro, want.Macro}, {"weighted", r.Weighted, want.Weighted}} {
		near(avg.name+" precision", avg.got.Precision, avg.want[0])
		near(avg.name+" recall", avg.got.Recall, avg.want[1])
		near(avg.name+" F1", avg.got.F1, avg.want[2])
	}
}

func TestClassificationSklearn(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "classification.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx classificationFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	for i, tc := range fx.Single {
		r, err := Classification(tc.True, tc.Pred, tc.K)
		if err != nil {
			t.Fatal(err)
		}
		checkReport(t, "single "+string(rune('A'+i)), r, &tc.prfsFixture)
		acc, err := Accuracy(tc.True, tc.Pred)
		if err != nil || acc != r.Accuracy {
			t.Errorf("Accuracy = %v, %v; report %v", acc, err, r.Accuracy)
		}
		cm, err := ConfusionMatrix(tc.True, tc.Pred, tc.K)
		if err != nil {
			t.Fatal(err)
		}
		for a := range cm {
			if !slices.Equal(cm[a], tc.Confusion[a]) {
				t.Errorf("confusion row %d = %v, sklearn %v", a, cm[a], tc.Confusion[a])
			}
		}
	}
	for i, tc := range fx.Multi {
		r, err := MultiLabelClassification(tc.True, tc.Pred, tc.K)
		if err != nil {
			t.Fatal(err)
		}
		checkReport(t, "multi "+string(rune('A'+i)), r, &tc.prfsFixture)
	}
	t.Logf("scikit-learn %s: %d single-label and %d multi-label cases", fx.Sklearn, len(fx.Single), len(fx.Multi))
}

// TestClassificationByHand works a small case out on paper.
func TestClassificationByHand(t *testing.T) {
	// 3 classes; document 5 is unlabeled, document 4 abstains.
	//   true: 0 0 1 1 2 -1 2
	//   pred: 0 1 1 1 -1 0 0
	// Evaluated: 6 documents, correct: d0, d2, d3 → accuracy 3/6.
	// class 0: TP 1, predicted 2 (d0, d6), true 2 → P 1/2, R 1/2, F 1/2
	// class 1: TP 2, predicted 3 (d1..d3), true 2 → P 2/3, R 1, F 0.8
	// class 2: TP 0, predicted 0, true 2 → P 0 (0/0), R 0, F 0
	// micro: TP 3, predicted 5 (abstention not counted), true 6
	//        → P 3/5, R 1/2, F 2·0.6·0.5/1.1 = 6/11
	// macro: P (1/2+2/3+0)/3 = 7/18, R (1/2+1+0)/3 = 1/2, F (1/2+0.8)/3 = 13/30
	// weighted (supports 2, 2, 2): equal to macro here.
	yTrue := []int{0, 0, 1, 1, 2, -1, 2}
	yPred := []int{0, 1, 1, 1, -1, 0, 0}
	r, err := Classification(yTrue, yPred, 3)
	if err != nil {
		t.Fatal(err)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-15 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	near("accuracy", r.Accuracy, 0.5)
	near("P0", r.PerClass[0].Precision, 0.5)
	near("P1", r.PerClass[1].Precision, 2.0/3)
	near("R1", r.PerClass[1].Recall, 1)
	near("F1 1", r.PerClass[1].F1, 0.8)
	near("P2", r.PerClass[2].Precision, 0)
	near("micro P", r.Micro.Precision, 0.6)
	near("micro R", r.Micro.Recall, 0.5)
	near("micro F", r.Micro.F1, 6.0/11)
	near("macro P", r.Macro.Precision, 7.0/18)
	near("macro F", r.Macro.F1, 13.0/30)
	near("weighted F", r.Weighted.F1, 13.0/30)
	if r.Documents != 6 || r.Abstained != 1 {
		t.Errorf("documents %d, abstained %d", r.Documents, r.Abstained)
	}
	cm, _ := ConfusionMatrix(yTrue, yPred, 3)
	want := [][]int{{1, 1, 0}, {0, 2, 0}, {1, 0, 0}}
	for i := range want {
		if !slices.Equal(cm[i], want[i]) {
			t.Errorf("confusion %v, want %v", cm, want)
		}
	}

	// Multi-label: 3 classes; document 2 unlabeled.
	//   d0: true {0,1} pred {0}    d1: true {2} pred {2}
	//   d2: true {}    pred {1}    d3: true {1} pred {0,1}
	// subset accuracy: d1 only → 1/3.
	// class 0: TP 1 (d0), predicted 2 (d0,d3), true 1 → P 1/2, R 1
	// class 1: TP 1 (d3), predicted 1 (d3; d2 is left out), true 2 → P 1, R 1/2
	// class 2: TP 1, predicted 1, true 1 → 1, 1
	// micro: TP 3, predicted 4, true 4 → P = R = F = 3/4.
	mr, err := MultiLabelClassification(
		[][]int{{0, 1}, {2}, nil, {1}},
		[][]int{{0}, {2}, {1}, {0, 1}}, 3)
	if err != nil {
		t.Fatal(err)
	}
	near("subset accuracy", mr.Accuracy, 1.0/3)
	near("ml P0", mr.PerClass[0].Precision, 0.5)
	near("ml R1", mr.PerClass[1].Recall, 0.5)
	near("ml micro F", mr.Micro.F1, 0.75)
}

func TestClassificationErrors(t *testing.T) {
	if _, err := Classification([]int{0, 1}, []int{0}, 2); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := Classification([]int{0, 2}, []int{0, 1}, 2); err == nil {
		t.Error("label out of range accepted")
	}
	if _, err := Classification([]int{-1, -1}, []int{0, 1}, 2); err == nil {
		t.Error("no labeled documents accepted")
	}
	if _, err := Classification([]int{0}, []int{-2}, 2); err == nil {
		t.Error("prediction -2 accepted")
	}
	if _, err := MultiLabelClassification([][]int{{0, 0}}, [][]int{{0}}, 2); err == nil {
		t.Error("repeated label accepted")
	}
	if _, err := MultiLabelClassification([][]int{{0}}, [][]int{{5}}, 2); err == nil {
		t.Error("predicted label out of range accepted")
	}
	if _, err := Accuracy([]int{-1}, []int{0}); err == nil {
		t.Error("accuracy of nothing accepted")
	}
	if _, err := ConfusionMatrix([]int{0}, []int{0}, 0); err == nil {
		t.Error("zero classes accepted")
	}
}

func TestLabelSets(t *testing.T) {
	got := LabelSets([]int{2, -1, 0})
	if len(got) != 3 || !slices.Equal(got[0], []int{2}) || got[1] != nil || !slices.Equal(got[2], []int{0}) {
		t.Errorf("LabelSets = %v", got)
	}
}
