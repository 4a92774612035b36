package metrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// ariFixture is testdata/ari.json, written by testdata/gen_ari.py with
// scikit-learn 1.2.1.
type ariFixture struct {
	Sklearn string `json:"sklearn"`
	Cases   []struct {
		Name string `json:"name"`
		True string `json:"true"`
		Pred string `json:"pred"`
		Rule *struct {
			N    int      `json:"n"`
			True [4]int64 `json:"true"`
			Pred [4]int64 `json:"pred"`
		} `json:"rule"`
		ARI       float64 `json:"ari"`
		Overflows bool    `json:"tp_tn_overflows_int64"`
	} `json:"cases"`
}

// ruleLabels returns ((i·m + a) / d) mod k for i in 0..n-1 (gen_ari.py's
// rule for large labelings).
func ruleLabels(n int, r [4]int64) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = int((int64(i)*r[0] + r[1]) / r[2] % r[3])
	}
	return out
}

func TestAdjustedRandIndexSklearn(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "ari.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx ariFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	if fx.Sklearn != "1.2.1" || len(fx.Cases) < 20 {
		t.Fatalf("fixture from scikit-learn %q with %d cases", fx.Sklearn, len(fx.Cases))
	}
	const tol = 1e-12
	overflowing, worst := 0, 0.0
	for _, tc := range fx.Cases {
		var a, b []int
		if tc.Rule != nil {
			a, b = ruleLabels(tc.Rule.N, tc.Rule.True), ruleLabels(tc.Rule.N, tc.Rule.Pred)
			if tc.Overflows {
				overflowing++
			}
		} else {
			a, b = parseLabels(t, tc.True), parseLabels(t, tc.Pred)
		}
		got, err := AdjustedRandIndex(a, b)
		if err != nil {
			t.Fatalf("%s: %v", tc.Name, err)
		}
		worst = math.Max(worst, math.Abs(got-tc.ARI))
		if !(math.Abs(got-tc.ARI) <= tol) {
			t.Errorf("%s: ARI = %.17g, sklearn %.17g", tc.Name, got, tc.ARI)
		}
		ag, err := CompareLabelings(a, b)
		if err != nil {
			t.Fatalf("%s: %v", tc.Name, err)
		}
		if ag.ARI != got {
			t.Errorf("%s: Agreement.ARI = %.17g, AdjustedRandIndex %.17g", tc.Name, ag.ARI, got)
		}
	}
	if overflowing == 0 {
		t.Error("no fixture case has tp·tn beyond int64")
	}
	t.Logf("%d cases (%d with tp·tn beyond int64): largest |ARI − sklearn| = %.3g", len(fx.Cases), overflowing, worst)
}

func TestAdjustedRandIndexProperties(t *testing.T) {
	// Symmetric in its arguments and blind to label names.
	a := []int{0, 0, 0, 1, 1, 2, 2, 2, 2, 5}
	b := []int{1, 1, 0, 0, 2, 2, 2, 3, 3, 3}
	ab, err1 := AdjustedRandIndex(a, b)
	ba, err2 := AdjustedRandIndex(b, a)
	renamed := make([]int, len(b))
	for i, v := range b {
		renamed[i] = 40 - v
	}
	ar, err3 := AdjustedRandIndex(a, renamed)
	if err1 != nil || err2 != nil || err3 != nil || ab != ba || ab != ar {
		t.Errorf("ARI(a,b) = %v, ARI(b,a) = %v, renamed %v (%v %v %v)", ab, ba, ar, err1, err2, err3)
	}
	if _, err := AdjustedRandIndex([]int{0, 1}, []int{0}); err == nil || !strings.Contains(err.Error(), "2 and 1 documents") {
		t.Errorf("length mismatch: %v", err)
	}
	if _, err := AdjustedRandIndex([]int{0, -1}, []int{0, 0}); err == nil || !strings.Contains(err.Error(), "document 1 is -1") {
		t.Errorf("negative label: %v", err)
	}
	// The int64 guard of the pair counts, checked without allocating
	// billions of labels.
	if strconv.IntSize < 64 {
		return // so many documents cannot be counted in an int
	}
	var over int64 = maxPairDocuments + 1
	c := &Contingency{N: int(over)}
	if _, err := c.adjustedRand(); err == nil || !strings.Contains(err.Error(), "3037000500 documents") {
		t.Errorf("too many documents: %v", err)
	}
}
