package metrics

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// agreementFixture is testdata/agreement.json, written by
// testdata/gen_agreement.py with scikit-learn 1.2.1.
type agreementFixture struct {
	Sklearn  string   `json:"sklearn"`
	Averages []string `json:"averages"`
	Cases    []struct {
		Name string    `json:"name"`
		True string    `json:"true"`
		Pred string    `json:"pred"`
		HJ   float64   `json:"h"`
		CJ   float64   `json:"c"`
		VJ   float64   `json:"v"`
		MI   *float64  `json:"mi"`
		EMI  *float64  `json:"emi"`
		NMI  []float64 `json:"nmi"`
		AMI  []float64 `json:"ami"`
	} `json:"cases"`
}

func parseLabels(t *testing.T, s string) []int {
	t.Helper()
	fields := strings.Fields(s)
	out := make([]int, len(fields))
	for i, f := range fields {
		v, err := strconv.Atoi(f)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = v
	}
	return out
}

func TestAgreementSklearn(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "agreement.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx agreementFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	avgs := []Average{AverageArithmetic, AverageMin, AverageGeometric, AverageMax}
	for i, name := range fx.Averages {
		if avgs[i].String() != name {
			t.Fatalf("average %d is %q in the fixture, %q here", i, name, avgs[i])
		}
	}
	const tol = 1e-9
	var worst float64
	worstWhat := ""
	illConditioned := 0
	check := func(tc string, what string, got, want float64) {
		t.Helper()
		d := math.Abs(got - want)
		if d > worst {
			worst, worstWhat = d, tc+" "+what
		}
		if !(d <= tol) {
			t.Errorf("%s: %s = %.17g, sklearn %.17g (diff %.3g)", tc, what, got, want, d)
		}
	}
	for _, tc := range fx.Cases {
		a, b := parseLabels(t, tc.True), parseLabels(t, tc.Pred)
		h, c, v, err := HomogeneityCompletenessV(a, b, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.Name, err)
		}
		check(tc.Name, "homogeneity", h, tc.HJ)
		check(tc.Name, "completeness", c, tc.CJ)
		check(tc.Name, "V", v, tc.VJ)
		ag, err := CompareLabelings(a, b)
		if err != nil {
			t.Fatalf("%s: %v", tc.Name, err)
		}
		check(tc.Name, "Agreement.Homogeneity", ag.Homogeneity, tc.HJ)
		check(tc.Name, "Agreement.Completeness", ag.Completeness, tc.CJ)
		check(tc.Name, "Agreement.VMeasure", ag.VMeasure, tc.VJ)
		check(tc.Name, "Agreement.NMI", ag.NMI, tc.NMI[0])
		if tc.EMI == nil || math.Abs((ag.EntropyTrue+ag.EntropyPred)/2-*tc.EMI) > 1e-12 {
			check(tc.Name, "Agreement.AMI", ag.AMI, tc.AMI[0])
		}
		if tc.MI != nil {
			mi, err := MutualInfo(a, b)
			if err != nil {
				t.Fatalf("%s: %v", tc.Name, err)
			}
			check(tc.Name, "MI", mi, *tc.MI)
			check(tc.Name, "Agreement.MI", ag.MI, *tc.MI)
			ct, _ := NewContingency(a, b)
			check(tc.Name, "EMI", ct.ExpectedMutualInfo(), *tc.EMI)
		} else if _, err := MutualInfo(a, b); err == nil {
			t.Errorf("%s: MI of empty labelings accepted", tc.Name)
		}
		for k, avg := range avgs {
			nmi, err := NormalizedMutualInfo(a, b, avg)
			if err != nil {
				t.Fatal(err)
			}
			check(tc.Name, "NMI "+avg.String(), nmi, tc.NMI[k])
			ami, err := AdjustedMutualInfo(a, b, avg)
			if err != nil {
				t.Fatal(err)
			}
			// When the normalizer equals the EMI in exact arithmetic (one
			// side all singletons, so every arrangement has the same MI),
			// AMI is 0/0 and both libraries return a ratio of rounding
			// errors that depends on the last bits of log, lgamma and exp.
			if tc.EMI != nil {
				norm, _ := avg.of(ag.EntropyTrue, ag.EntropyPred)
				if norm > 1e-12 && math.Abs(norm-*tc.EMI) <= 1e-12*norm {
					illConditioned++
					if ami != tc.AMI[k] {
						t.Logf("%s: AMI %s is 0/0 in exact arithmetic: sklearn %.17g, here %.17g", tc.Name, avg, tc.AMI[k], ami)
					}
					if math.IsNaN(ami) || math.IsInf(ami, 0) {
						t.Errorf("%s: AMI %s = %v", tc.Name, avg, ami)
					}
					continue
				}
			}
			check(tc.Name, "AMI "+avg.String(), ami, tc.AMI[k])
		}
	}
	t.Logf("scikit-learn %s: %d cases, largest difference %.3g (%s); %d AMI values 0/0 in exact arithmetic not compared",
		fx.Sklearn, len(fx.Cases), worst, worstWhat, illConditioned)
}

// TestAgreementByHand checks the measures on labelings small enough to work
// out on paper.
func TestAgreementByHand(t *testing.T) {
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %.15g, want %.15g", what, got, want)
		}
	}
	// true = [0 0 1 1], pred = [0 0 0 1]. Contingency (rows true, cols pred):
	//   [[2 0]
	//    [1 1]]  a = (2, 2), b = (3, 1), N = 4.
	// H(true) = log 2. H(pred) = -(3/4)log(3/4) - (1/4)log(1/4).
	// MI = (2/4)log(4·2/(2·3)) + (1/4)log(4·1/(2·3)) + (1/4)log(4·1/(2·1))
	//    = (1/2)log(4/3) + (1/4)log(2/3) + (1/4)log 2 = 0.215761554338836.
	ct, err := NewContingency([]int{0, 0, 1, 1}, []int{0, 0, 0, 1})
	if err != nil {
		t.Fatal(err)
	}
	dense := ct.Dense()
	if dense[0][0] != 2 || dense[0][1] != 0 || dense[1][0] != 1 || dense[1][1] != 1 {
		t.Fatalf("contingency %v", dense)
	}
	mi := 0.5*math.Log(4.0/3) + 0.25*math.Log(2.0/3) + 0.25*math.Log(2)
	near("MI", ct.MutualInfo(), mi)
	hPred := -0.75*math.Log(0.75) - 0.25*math.Log(0.25)
	h, c, v, _ := HomogeneityCompletenessV([]int{0, 0, 1, 1}, []int{0, 0, 0, 1}, 1)
	near("homogeneity", h, mi/math.Log(2))
	near("completeness", c, mi/hPred)
	near("V", v, 2*h*c/(h+c))
	// EMI: with a = (2,2), b = (3,1), N = 4 the overlaps are
	// n_00 ∈ {1,2}: P(1) = C(2,1)C(2,2)/C(4,3) = 2/4, P(2) = C(2,2)C(2,1)/4 = 2/4;
	// n_01 ∈ {1}: P(1) = C(2,1)C(2,0)/C(4,1) = 2/4; same for row 1.
	// term(nij) = (nij/4) log(4 nij/(a b)):
	// n_00: (1/4)log(4/6)·1/2 + (2/4)log(8/6)·1/2; n_01: (1/4)log(4/2)·1/2; ×2 rows.
	emi := 2 * (0.125*math.Log(4.0/6) + 0.25*math.Log(8.0/6) + 0.125*math.Log(2))
	near("EMI", ct.ExpectedMutualInfo(), emi)
	a, _ := AdjustedMutualInfo([]int{0, 0, 1, 1}, []int{0, 0, 0, 1}, AverageArithmetic)
	near("AMI", a, (mi-emi)/((math.Log(2)+hPred)/2-emi))
	// emi = 2(0.125·log(2/3) + 0.25·log(4/3) + 0.125·log 2) = MI exactly,
	// so this split is no better than chance: AMI = 0.
	near("AMI is chance level", a, 0)

	// Entropy: labels {5,5,9} → p = (2/3, 1/3).
	e, err := Entropy([]int{5, 5, 9})
	if err != nil {
		t.Fatal(err)
	}
	near("entropy", e, -(2.0/3)*math.Log(2.0/3)-(1.0/3)*math.Log(1.0/3))
	if e, _ := Entropy(nil); e != 0 {
		t.Errorf("entropy of nothing = %v", e)
	}
	if e, _ := Entropy([]int{4, 4}); e != 0 {
		t.Errorf("entropy of one cluster = %v", e)
	}
	// One cluster against all singletons: MI = 0, homogeneity 1 on the
	// side with zero entropy, NMI = AMI = 0.
	h, c, v, _ = HomogeneityCompletenessV([]int{0, 0, 0}, []int{0, 1, 2}, 1)
	if h != 1 || c != 0 || v != 0 {
		t.Errorf("one cluster vs singletons: h, c, v = %v %v %v", h, c, v)
	}
	if n, _ := NormalizedMutualInfo([]int{0, 0, 0}, []int{0, 1, 2}, AverageMin); n != 0 {
		t.Errorf("NMI(min) one cluster vs singletons = %v", n)
	}
	// Identical labelings: everything is 1.
	ag, _ := CompareLabelings([]int{3, 1, 3, 2, 2}, []int{0, 9, 0, 4, 4})
	if ag.Homogeneity != 1 || ag.Completeness != 1 || ag.VMeasure != 1 || ag.NMI != 1 || math.Abs(ag.AMI-1) > 1e-12 {
		t.Errorf("identical labelings: %+v", ag)
	}
	// V with beta = 2: (1+2)hc/(2h+c).
	h, c, v, _ = HomogeneityCompletenessV([]int{0, 0, 1, 1}, []int{0, 0, 0, 1}, 2)
	near("V beta=2", v, 3*h*c/(2*h+c))
}

func TestAgreementErrors(t *testing.T) {
	if _, err := NewContingency([]int{0, 1}, []int{0}); err == nil {
		t.Error("length mismatch accepted")
	}
	if _, err := CompareLabelings([]int{0, -1}, []int{0, 1}); err == nil {
		t.Error("negative label accepted")
	}
	if _, err := NormalizedMutualInfo([]int{0}, []int{0}, Average(9)); err == nil {
		t.Error("unknown average accepted")
	}
	if _, _, _, err := HomogeneityCompletenessV([]int{0}, []int{0}, 0); err == nil {
		t.Error("beta 0 accepted")
	}
	if _, err := Entropy([]int{-2}); err == nil {
		t.Error("negative label accepted by Entropy")
	}
}

// TestExpectedMutualInfoLarge checks that EMI stays finite and sensible for
// large N, where the factorials overflow without log-gamma: for two random
// labelings EMI ≈ (R-1)(C-1)/(2N) (the chi-square approximation).
func TestExpectedMutualInfoLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	n := 200000
	a, b := make([]int, n), make([]int, n)
	for i := range a {
		a[i], b[i] = rng.IntN(5), rng.IntN(4)
	}
	ct, err := NewContingency(a, b)
	if err != nil {
		t.Fatal(err)
	}
	emi := ct.ExpectedMutualInfo()
	approx := float64(4*3) / (2 * float64(n))
	if math.IsNaN(emi) || math.Abs(emi-approx) > 0.05*approx {
		t.Fatalf("EMI = %v, chi-square approximation %v", emi, approx)
	}
}

func BenchmarkCompareLabelings(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{2000, 20000} {
		x, y := make([]int, n), make([]int, n)
		for i := range x {
			x[i], y[i] = rng.IntN(20), rng.IntN(50)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := CompareLabelings(x, y); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
