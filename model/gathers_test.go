package model

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestGathersReachesTheEngine fits nmf and tsnmf with each gathers
// precision: float32 rows must move the objective off the float64 one
// (so the option reached nmf.Config.Gathers; auto is float64 at this
// size), and an unknown precision is refused naming the option. Out of
// core, float32 is refused.
func TestGathersReachesTheEngine(t *testing.T) {
	vocab := []string{"a", "b", "c", "d", "e", "f"}
	rows := [][]float64{
		{3, 1, 0, 0, 2, 0}, {2, 4, 0, 1, 0, 0}, {0, 0, 5, 2, 0, 1}, {0, 1, 3, 4, 0, 0},
		{1, 0, 0, 0, 3, 2}, {0, 0, 1, 0, 2, 4}, {4, 2, 1, 0, 0, 0}, {0, 1, 0, 3, 1, 0},
	}
	x, err := corpusMatrix(vocab, rows)
	if err != nil {
		t.Fatal(err)
	}
	labels := [][]string{{"x"}, nil, {"y"}, nil, {"z"}, nil, nil, nil}
	for _, kind := range []string{KindNMF, KindTSNMF} {
		obj := map[string]float64{}
		for _, g := range []string{"", "auto", "float64", "float32"} {
			o := Options{Kind: kind, K: 3, Seed: 1, MaxIter: 30, Tol: 1e-12, Gathers: g}
			if kind == KindTSNMF {
				o.Supervision.Labels = labels
			}
			_, info, err := fitMatrix(t.Context(), x, vocab, o)
			if err != nil {
				t.Fatalf("%s gathers %q: %v", kind, g, err)
			}
			obj[g] = info.Objective
		}
		if obj[""] != obj["float64"] || obj["auto"] != obj["float64"] {
			t.Errorf("%s: objectives unset %v, auto %v, float64 %v: want one", kind, obj[""], obj["auto"], obj["float64"])
		}
		if obj["float32"] == obj["float64"] {
			t.Errorf("%s: float32 gathers gave float64's objective %v: the option did not reach the fit", kind, obj["float64"])
		}
		o := Options{Kind: kind, K: 3, Gathers: "float16"}
		if kind == KindTSNMF {
			o.Supervision.Labels = labels
		}
		_, _, err := fitMatrix(t.Context(), x, vocab, o)
		if err == nil || !strings.Contains(err.Error(), "gathers") {
			t.Errorf("%s: gathers float16: %v, want an error naming the option", kind, err)
		}
	}
	// Out of core the option reaches the blocks' W update too.
	src := smallShards(t)
	ooc := map[string]float64{}
	for _, g := range []string{"float64", "float32"} {
		state := filepath.Join(t.TempDir(), g+".state")
		f, err := fitOutOfCore(context.Background(), src, state, Options{Kind: KindNMF, K: 3, Seed: 1, MaxIter: 10, Gathers: g})
		if err != nil {
			t.Fatalf("out of core, %s gathers: %v", g, err)
		}
		ooc[g] = f.Info.Objective
	}
	if ooc["float32"] == ooc["float64"] || math.Abs(ooc["float32"]-ooc["float64"]) > 1e-5*ooc["float64"] {
		t.Errorf("out of core: objectives float32 %v, float64 %v: want them apart, by rounding only", ooc["float32"], ooc["float64"])
	}
}
