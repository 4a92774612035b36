package corex

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/supervision"
)

func TestStateRoundTrip(t *testing.T) {
	for _, in := range []Input{Binarize, Fraction} {
		x, vocab, _ := planted(200, 3, 6, 10, 9)
		if in == Fraction {
			for p := range x.Data {
				x.Data[p] = float64(1 + p%4)
			}
		}
		m, err := Fit(context.Background(), x, Config{K: 4, Seed: 3, Vocab: vocab, Input: in,
			Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 1, Term: 0, Strength: 3}}}})
		if err != nil {
			t.Fatal(err)
		}
		r, err := FromState(m.State(), vocab)
		if err != nil {
			t.Fatal(err)
		}
		want, err := m.Infer(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.Infer(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.P, want.P) || !mat.Equal(got.LogZ, want.LogZ) || !mat.Equal(got.LogP, want.LogP) {
			t.Fatalf("%v: rebuilt model transforms differently", in)
		}
		for j := 0; j < m.K; j++ {
			a, _ := m.TopWords(j, 5, ByMI)
			b, _ := r.TopWords(j, 5, ByMI)
			if len(a) != len(b) {
				t.Fatalf("topic %d: %d vs %d words", j, len(a), len(b))
			}
			for q := range a {
				if a[q] != b[q] {
					t.Fatalf("topic %d word %d: %+v vs %+v", j, q, a[q], b[q])
				}
			}
		}
		if r.TC != m.TC || len(r.Anchors) != 1 || r.Anchors[0].Strength != 3 {
			t.Errorf("scalars differ: TC %v/%v anchors %+v", r.TC, m.TC, r.Anchors)
		}
		if _, err := r.TopDocs(0, 3, ByLogP); err == nil {
			t.Error("TopDocs on a rebuilt model: no error")
		}
	}
}

func TestFromStateRejectsBadStates(t *testing.T) {
	x, vocab, _ := planted(100, 2, 5, 5, 1)
	m, err := Fit(context.Background(), x, Config{K: 2, Seed: 1, Vocab: vocab})
	if err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		edit func(s *State)
		want string
	}{
		"nil info":   {func(s *State) { s.Info = nil }, "info is missing"},
		"short tcs":  {func(s *State) { s.TCs = s.TCs[:1] }, "tcs"},
		"bad input":  {func(s *State) { s.Input = "magic" }, "magic"},
		"alpha dims": {func(s *State) { s.Alpha = mat.NewDense(1, 1, nil) }, "alpha"},
		"bad sign":   {func(s *State) { s.Sign.Set(0, 0, 0.5) }, "sign"},
		"anchor":     {func(s *State) { s.Anchors = []AnchorWord{{Topic: 7, Word: "w"}} }, "out of range"},
	} {
		s := m.State()
		tc.edit(s)
		if _, err := FromState(s, vocab); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %q", name, err, tc.want)
		}
	}
	if _, err := FromState(m.State(), vocab[:3]); err == nil {
		t.Error("short vocabulary accepted")
	}
}
