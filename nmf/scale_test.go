package nmf

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// runEngine runs the sparse engine on x with cfg for cfg.MaxIter
// iterations, with Xᵀ (transposed) or without it, and returns the factors
// and the objective history.
func runEngine(t *testing.T, x *sparse.CSR, cfg Config, transposed bool) (w, h *mat.Dense, hist []float64) {
	t.Helper()
	d, err := checkData(x)
	if err != nil {
		t.Fatal(err)
	}
	if cfg, err = checkConfig(cfg, d); err != nil {
		t.Fatal(err)
	}
	w0, h0, _, err := initFactors(context.Background(), d, func() linOp { return sparseOp{x, x.T()} }, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var xt *sparse.CSR
	if transposed {
		xt = x.T()
	}
	f := newSparseFit(cfg, x, xt, w0, h0)
	if (f.xe != nil) == transposed {
		t.Fatalf("transposed = %v, but the engine's scatter operand is %v", transposed, f.xe != nil)
	}
	tr := &tracker{maxIter: cfg.MaxIter}
	if err := f.run(context.Background(), tr); err != nil {
		t.Fatal(err)
	}
	w, h = f.factors()
	return w, h, tr.hist
}

// TestTransposeFreeFrobenius checks that the Frobenius engine without Xᵀ
// (the H update's numerator from sparse.TMulDense over X, as for large X)
// computes the fit that the engine with Xᵀ computes, to rounding: with
// masks, row weights, either order, and a fixed W.
func TestTransposeFreeFrobenius(t *testing.T) {
	for _, p := range problems() {
		if p.dense != nil {
			continue // the dense engine
		}
		cfgs := map[string]Config{
			"w-first": p.config(Frobenius, 30),
			"h-first": func() Config { c := p.config(Frobenius, 30); c.Order = HFirst; return c }(),
			"fix-w":   func() Config { c := p.config(Frobenius, 30); c.H0, c.FixW = nil, true; return c }(),
		}
		for name, cfg := range cfgs {
			name = p.name + "/" + name
			wa, ha, ja := runEngine(t, p.x, cfg, true)
			wb, hb, jb := runEngine(t, p.x, cfg, false)
			if len(ja) != 31 || len(jb) != 31 {
				t.Fatalf("%s: %d and %d objectives, want 31", name, len(ja), len(jb))
			}
			for i := range ja {
				if d := relDiff(ja[i], jb[i]); d > 1e-12 {
					t.Fatalf("%s: objective %d: %.15g with Xᵀ, %.15g without (rel %.2g)", name, i, ja[i], jb[i], d)
				}
			}
			if ja[30] >= ja[0] {
				t.Errorf("%s: no progress (%g → %g)", name, ja[0], ja[30])
			}
			if d := maxRelDiff(wa, wb); d > 1e-10 {
				t.Errorf("%s: W with and without Xᵀ differ by %.3g", name, d)
			}
			if d := maxRelDiff(ha, hb); d > 1e-10 {
				t.Errorf("%s: H with and without Xᵀ differ by %.3g", name, d)
			}
		}
	}
}

// TestFloat32Gathers fits scikit-learn's fixture and the random problems
// with float32 gathers, with and without Xᵀ: the objectives must follow
// the exact fit's to float32's precision, stay monotone, and differ from
// it (the float32 path ran); GathersAuto on these small matrices is the
// exact fit, bit for bit.
func TestFloat32Gathers(t *testing.T) {
	x := readFixture(t, "x.mtx")
	w0 := readFixture(t, "w0.mtx").ToDense()
	h0 := readFixture(t, "h0.mtx").ToDense()
	want := sklearnObjectives(t)["fro"]
	exact, err := Fit(context.Background(), x, Config{K: 4, W0: w0, H0: h0, MaxIter: 100, Tol: -1, Gathers: GathersFloat64})
	if err != nil {
		t.Fatal(err)
	}
	auto, err := Fit(context.Background(), x, Config{K: 4, W0: w0, H0: h0, MaxIter: 100, Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	for i := range exact.Objective {
		if exact.Objective[i] != auto.Objective[i] {
			t.Fatalf("GathersAuto on %d entries: objective %d is %.17g, the exact fit's %.17g", x.NNZ(), i, auto.Objective[i], exact.Objective[i])
		}
	}
	cfg := Config{K: 4, W0: w0, H0: h0, MaxIter: 100, Gathers: GathersFloat32}
	for _, transposed := range []bool{true, false} {
		_, _, hist := runEngine(t, x, cfg, transposed)
		checkMonotone(t, "float32", hist)
		differs, worst := false, 0.0
		for it, v := range want {
			d := relDiff(hist[it], v)
			worst = max(worst, d)
			if d > 1e-6 {
				t.Errorf("transposed=%v: objective after %d iterations %.15g, scikit-learn %.15g (rel %.2g)", transposed, it, hist[it], v, d)
			}
			differs = differs || (it > 0 && hist[it] != exact.Objective[it])
		}
		if !differs {
			t.Errorf("transposed=%v: float32 gathers gave the exact objectives", transposed)
		}
		t.Logf("transposed=%v: objectives within %.1e of scikit-learn's", transposed, worst)
	}
	for _, p := range problems() {
		if p.dense != nil {
			continue
		}
		cfg := p.config(Frobenius, 40)
		cfg.Gathers = GathersFloat64
		_, _, ja := runEngine(t, p.x, cfg, true)
		cfg.Gathers = GathersFloat32
		_, _, jb := runEngine(t, p.x, cfg, true)
		for i := range ja {
			if d := relDiff(ja[i], jb[i]); d > 1e-5 {
				t.Fatalf("%s: objective %d: %.15g exact, %.15g with float32 gathers (rel %.2g)", p.name, i, ja[i], jb[i], d)
			}
		}
	}
}

// TestParseGathers reads back every precision's name, in any case and
// with spaces, refuses others, and checks that out-of-core fits take
// every precision.
func TestParseGathers(t *testing.T) {
	for _, g := range []Gathers{GathersAuto, GathersFloat64, GathersFloat32} {
		for _, s := range []string{g.String(), " " + strings.ToUpper(g.String()) + " "} {
			if got, err := ParseGathers(s); err != nil || got != g {
				t.Errorf("ParseGathers(%q) = %v, %v; want %v", s, got, err, g)
			}
		}
	}
	if _, err := ParseGathers("float16"); err == nil || !strings.Contains(err.Error(), `"float16"`) {
		t.Errorf("ParseGathers(float16): %v, want an error naming it", err)
	}
	for _, g := range []Gathers{GathersFloat64, GathersFloat32} {
		if _, err := NewTrainer(10, 8, Config{K: 2, Gathers: g}); err != nil {
			t.Errorf("NewTrainer with %v gathers: %v", g, err)
		}
	}
}
