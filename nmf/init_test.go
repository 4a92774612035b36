package nmf

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestInitRandomScaling checks scikit-learn's scaling: entries are
// |N(0,1)|·√(mean(X)/k), whose mean is √(2/π)·√(mean(X)/k).
func TestInitRandomScaling(t *testing.T) {
	x := randomSparse(300, 200, 0.05, 3)
	k := 10
	d, _ := checkData(x)
	w, h := initRandom(d, k, newRand(1))
	s := math.Sqrt(x.Sum() / (300 * 200) / float64(k))
	for _, f := range [][]float64{w, h} {
		mean := 0.0
		for _, v := range f {
			if v < 0 {
				t.Fatalf("negative entry %g", v)
			}
			mean += v
		}
		mean /= float64(len(f))
		if want := s * math.Sqrt(2/math.Pi); math.Abs(mean-want) > 0.03*want {
			t.Errorf("mean entry %g, want %g", mean, want)
		}
	}
	// Through Fit, with zero iterations' worth of change: Objective[0] is at
	// the starting point, which must equal the seeded draw.
	res, err := Fit(context.Background(), x, Config{K: k, Init: InitRandom, Seed: 1, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	want := denseObjective(x.ToDense(), mat.NewDense(300, k, w), mat.NewDense(k, 200, h), Frobenius, nil)
	if d := relDiff(res.Objective[0], want); d > 1e-12 {
		t.Errorf("Fit's starting point is not the documented draw: %g vs %g", res.Objective[0], want)
	}
}

// TestInitAcolAndLabelMean checks that Acol rows are means of document
// rows, and the label-mean initialisation.
func TestInitAcolAndLabelMean(t *testing.T) {
	x := randomSparse(20, 15, 0.3, 4)
	xd := x.ToDense()
	d, _ := checkData(x)
	k := 4
	// With one document per topic, each row of H is a row of X.
	h := initAcol(d, k, 1, nil, newRand(2))
	for tp := 0; tp < k; tp++ {
		found := false
		for i := 0; i < 20 && !found; i++ {
			found = floatsEqual(h[tp*15:(tp+1)*15], xd.RawRowView(i))
		}
		if !found {
			t.Errorf("topic %d is not a row of X", tp)
		}
	}
	// Label means: topics 0 and 2 have labeled documents.
	labels := make([][]int, 20)
	labels[1] = []int{0}
	labels[4] = []int{0, 2}
	labels[7] = []int{2, 2}
	h = initAcol(d, k, 20, labels, newRand(2))
	want0 := make([]float64, 15)
	want2 := make([]float64, 15)
	for j := 0; j < 15; j++ {
		want0[j] = (xd.At(1, j) + xd.At(4, j)) / 2
		want2[j] = (xd.At(4, j) + xd.At(7, j)) / 2
	}
	if !floatsClose(h[0:15], want0) || !floatsClose(h[30:45], want2) {
		t.Errorf("label means wrong:\n%v\n%v", h[0:15], want0)
	}
	// Without labels the label-mean method draws what Acol draws.
	a := initAcol(d, k, 20, nil, newRand(9))
	b := initAcol(d, k, 20, make([][]int, 20), newRand(9))
	if !floatsEqual(a, b) {
		t.Errorf("label-mean without labels differs from Acol")
	}
	// W is Uniform[0,1).
	res, err := Fit(context.Background(), x, Config{K: k, Init: InitRandomAcol, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	_ = res
	w := uniform(200, newRand(1))
	for _, v := range w {
		if v < 0 || v >= 1 {
			t.Fatalf("uniform draw %g", v)
		}
	}
}

func floatsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func floatsClose(a, b []float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-12*(1+math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestInitZeroFill checks the documented handling of zeros: allowed exact
// zeros of updated factors become Epsilon·√(mean(X)/k), forbidden entries
// become zero, and a fixed factor is left exactly as given.
func TestInitZeroFill(t *testing.T) {
	x := randomSparse(12, 9, 0.4, 5)
	k := 3
	d, _ := checkData(x)
	fill := Epsilon * math.Sqrt(d.mean()/float64(k))
	w0 := randomFactor(12, k, 0, 1)
	w0.Set(0, 0, 0)
	w0.Set(1, 1, 0)
	h0 := randomFactor(k, 9, 0, 2)
	h0.Set(2, 3, 0)
	wmask := mat.NewDense(12, k, nil)
	for i := 0; i < 12; i++ {
		for j := 0; j < k; j++ {
			wmask.Set(i, j, 1)
		}
	}
	wmask.Set(1, 1, 0) // forbidden and zero
	wmask.Set(2, 2, 0) // forbidden, non-zero in W0
	w, h, _, err := initFactors(context.Background(), d, nil, Config{K: k, W0: w0, H0: h0, WMask: wmask})
	if err != nil {
		t.Fatal(err)
	}
	if w[0] != fill || w[1*k+1] != 0 || w[2*k+2] != 0 || h[2*9+3] != fill {
		t.Errorf("zero fill: w00=%g w11=%g w22=%g h23=%g, want %g 0 0 %g", w[0], w[1*k+1], w[2*k+2], h[2*9+3], fill, fill)
	}
	if w0.At(0, 0) != 0 || w0.At(2, 2) == 0 {
		t.Errorf("the caller's W0 was modified")
	}
	// Fixed H keeps its zero; no allowed entry of the updated W is zero.
	op := func() linOp { return sparseOp{x, x.T()} }
	_, h, _, err = initFactors(context.Background(), d, op, Config{K: k, Init: InitNNDSVD, H0: h0, FixH: true})
	if err != nil {
		t.Fatal(err)
	}
	if h[2*9+3] != 0 {
		t.Errorf("fixed H0's zero was filled")
	}
	for _, init := range []Init{InitRandom, InitRandomAcol, InitNNDSVD, InitNNDSVDa, InitNNDSVDar} {
		cfg, err := checkConfig(Config{K: k, Init: init, WMask: wmask}, d)
		if err != nil {
			t.Fatal(err)
		}
		w, h, _, err := initFactors(context.Background(), d, op, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for i, v := range w {
			if allowed := wmask.RawMatrix().Data[i] != 0; allowed != (v > 0) {
				t.Errorf("%v: W entry %d = %g (allowed %v)", init, i, v, allowed)
			}
		}
		for i, v := range h {
			if !(v > 0) {
				t.Errorf("%v: H entry %d = %g", init, i, v)
			}
		}
	}
}
