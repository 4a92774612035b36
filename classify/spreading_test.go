package classify

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"reflect"
	"testing"

	"github.com/semitopic/semitopic/sparse"
)

type spreadingCase struct {
	Name          string
	K             int
	Alpha         float64
	Rows, Cols    int
	Indptr        []int
	Indices       []int32
	Data          []float64
	QIndptr       []int     `json:"q_indptr"`
	QIndices      []int32   `json:"q_indices"`
	QData         []float64 `json:"q_data"`
	Y             []int
	GraphIndptr   []int   `json:"graph_indptr"`
	GraphIndices  []int32 `json:"graph_indices"`
	Classes       []int
	Distributions [][]float64
	Transduction  []int
	NIter         int          `json:"n_iter"`
	PredictProba  [][]*float64 `json:"predict_proba"`
	Predict       []int
}

// LabelSpreading equals scikit-learn 1.2.1's LabelSpreading(kernel="knn")
// (testdata/make_labelspreading.py): the graph, the label distributions to
// 1e-12, the transduction, the iterations, and the predictions for new
// documents.
func TestLabelSpreadingMatchesScikitLearn(t *testing.T) {
	b, err := os.ReadFile("testdata/labelspreading.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []spreadingCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, c := range cases {
		x, err := sparse.NewCSR(c.Rows, c.Cols, c.Indptr, c.Indices, c.Data)
		if err != nil {
			t.Fatal(err)
		}
		q, err := sparse.NewCSR(len(c.QIndptr)-1, c.Cols, c.QIndptr, c.QIndices, c.QData)
		if err != nil {
			t.Fatal(err)
		}
		g, err := KNNGraph(ctx, x, c.K)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g.Indptr, c.GraphIndptr) || !reflect.DeepEqual(g.Indices, c.GraphIndices) {
			t.Errorf("%s k=%d: the neighbour graph differs from scikit-learn's", c.Name, c.K)
		}
		ls := &LabelSpreading{Neighbors: c.K, Alpha: c.Alpha}
		if err := ls.Fit(ctx, x, c.Y); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ls.Classes(), c.Classes) || !reflect.DeepEqual(ls.Transduction(), c.Transduction) || ls.Iterations() != c.NIter {
			t.Errorf("%s k=%d: classes %v transduction/iterations differ (%d vs %d)", c.Name, c.K, ls.Classes(), ls.Iterations(), c.NIter)
		}
		d := ls.LabelDistributions()
		worst := 0.0
		for i, row := range c.Distributions {
			for j, v := range row {
				worst = math.Max(worst, math.Abs(d.At(i, j)-v))
			}
		}
		if worst > 1e-12 {
			t.Errorf("%s k=%d: label distributions differ by %g", c.Name, c.K, worst)
		}
		p, err := ls.PredictProba(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		for i, row := range c.PredictProba {
			for j, v := range row {
				want := 0.0
				if v != nil {
					want = *v
				}
				if math.Abs(p.At(i, j)-want) > 1e-12 {
					t.Errorf("%s k=%d: predict_proba[%d][%d] = %v, want %v", c.Name, c.K, i, j, p.At(i, j), want)
				}
			}
		}
		pred, err := ls.Predict(ctx, q)
		if err != nil || !reflect.DeepEqual(pred, c.Predict) {
			t.Errorf("%s k=%d: predict %v, want %v (%v)", c.Name, c.K, pred, c.Predict, err)
		}
	}
}

func TestLabelSpreadingErrors(t *testing.T) {
	ctx := context.Background()
	x, _ := sparse.NewCSR(3, 2, []int{0, 1, 2, 3}, []int32{0, 1, 0}, []float64{1, 2, 3})
	for _, tc := range []struct {
		ls *LabelSpreading
		y  []int
	}{
		{&LabelSpreading{}, []int{-1, -1, -1}},
		{&LabelSpreading{}, []int{0, 1}},
		{&LabelSpreading{}, []int{0, -2, 1}},
		{&LabelSpreading{Alpha: 1.5}, []int{0, 1, -1}},
		{&LabelSpreading{Neighbors: -1}, []int{0, 1, -1}},
	} {
		if err := tc.ls.Fit(ctx, x, tc.y); err == nil {
			t.Errorf("%+v %v: no error", tc.ls, tc.y)
		}
	}
	ls := &LabelSpreading{}
	g, _ := KNNGraph(ctx, x, 2)
	if err := ls.FitGraph(ctx, g, []int{0, 1, -1}); err != nil {
		t.Fatal(err)
	}
	if _, err := ls.Predict(ctx, x); err == nil {
		t.Error("Predict after FitGraph: no error")
	}
}
