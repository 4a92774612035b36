package corex

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// refCase is one fit of the reference implementation recorded by
// testdata/make_fixture.py.
type refCase struct {
	Name     string      `json:"name"`
	K        int         `json:"k"`
	MaxIter  int         `json:"max_iter"`
	Count    string      `json:"count"`
	Anchors  []any       `json:"anchors"`
	Strength float64     `json:"strength"`
	X        [][]float64 `json:"X"`
	Seed     uint64      `json:"seed"`
	History  []float64   `json:"history"`
	TCs      []float64   `json:"tcs"`
	MIs      []float64   `json:"mis"`   // k × terms
	Alpha    []float64   `json:"alpha"` // k × terms
	Sign     []float64   `json:"sign"`  // k × terms
	P        []float64   `json:"p"`     // docs × k
	LogZ     []float64   `json:"log_z"` // docs × k
}

func loadReference(t *testing.T) []refCase {
	t.Helper()
	b, err := os.ReadFile("testdata/reference_fixture.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []refCase
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// config turns the case into a Config: anchors are listed per topic in
// order, as a word or a list of words.
func (c refCase) config() Config {
	nv := len(c.X[0])
	vocab := make([]string, nv)
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
	}
	cfg := Config{K: c.K, MaxIter: c.MaxIter, Vocab: vocab, Beta: c.Strength, Seed: c.Seed, NumpyRandom: true}
	if c.Count == "fraction" {
		cfg.Input = Fraction
	}
	for j, a := range c.Anchors {
		var ws []string
		switch a := a.(type) {
		case string:
			ws = []string{a}
		case []any:
			for _, w := range a {
				ws = append(ws, w.(string))
			}
		}
		for _, w := range ws {
			cfg.Seeds.Seeds = append(cfg.Seeds.Seeds, supervision.Seed{Topic: j, Term: slices.Index(vocab, w)})
		}
	}
	return cfg
}

func closeTo(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(b))
}

// TestMatchesReference fits with numpy's random stream (the reference's
// start and tie-breaking noise) and checks every iteration's TC and the
// final model against the reference's.
func TestMatchesReference(t *testing.T) {
	for _, c := range loadReference(t) {
		t.Run(c.Name, func(t *testing.T) {
			x := sparse.FromDense(mat.NewDense(len(c.X), len(c.X[0]), flatten(c.X)))
			cfg := c.config()
			m, err := Fit(context.Background(), x, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.History) != len(c.History) {
				t.Fatalf("%d iterations, reference %d", len(m.History), len(c.History))
			}
			for i, h := range c.History {
				if !closeTo(m.History[i], h, 1e-8) {
					t.Fatalf("iteration %d: TC %.12f, reference %.12f", i+1, m.History[i], h)
				}
			}
			const tol = 1e-7
			for j, v := range c.TCs {
				if !closeTo(m.TCs[j], v, tol) {
					t.Errorf("TC of topic %d: %g, reference %g", j, m.TCs[j], v)
				}
			}
			mi, alpha := m.MI(), m.Alpha()
			for k := range c.MIs {
				j, i := k/m.Terms, k%m.Terms
				if !closeTo(mi.At(j, i), c.MIs[k], tol) {
					t.Errorf("MI(%d, %d) = %g, reference %g", j, i, mi.At(j, i), c.MIs[k])
				}
				if !closeTo(alpha.At(j, i), c.Alpha[k], 1e-6) {
					t.Errorf("α(%d, %d) = %g, reference %g", j, i, alpha.At(j, i), c.Alpha[k])
				}
				if float64(m.Sign(j, i)) != c.Sign[k] {
					t.Errorf("sign(%d, %d) = %d, reference %g", j, i, m.Sign(j, i), c.Sign[k])
				}
			}
			p, lz := m.Train.P.RawMatrix().Data, m.Train.LogZ.RawMatrix().Data
			for k := range c.P {
				if !closeTo(p[k], c.P[k], tol) || !closeTo(lz[k], c.LogZ[k], tol) {
					t.Fatalf("document %d, topic %d: p %g log Z %g, reference %g %g", k/m.K, k%m.K, p[k], lz[k], c.P[k], c.LogZ[k])
				}
			}
		})
	}
}

func flatten(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}
