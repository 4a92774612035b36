package lda

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mathext"
)

// digammaRef holds ψ(x) to 30 digits (mpmath), printed by
// testdata/digamma_values.py.
var digammaRef = []struct{ x, want float64 }{
	{1e-300, -1.0e+300},
	{1e-12, -1000000000000.57721566489988793},
	{1e-7, -10000000.5772155004081381963518},
	{1e-6, -1000000.57721401996866806820091},
	{1.0000001e-6, -1000000.47721402996850257503474},
	{1e-5, -100000.577199215681068986345242},
	{0.001, -1000.57557193181030047147261447},
	{0.05, -20.4978449912998703710628792529},
	{0.1, -10.423754940411076795168216219},
	{0.3333333333333333, -3.13203378002080665951632325519},
	{0.5, -1.963510026021423479440976333},
	{1, -0.577215664901532860606512090082},
	{1.4616321449683622, -1.36695954957225169116593261903e-16},
	{1.5, 0.0364899739785765205590236670012},
	{2, 0.422784335098467139393487909918},
	{2.5, 0.703156640645243187225690333668},
	{3.7, 1.16715353936151138587386396615},
	{5.999999, 1.70611748710882834074340201973},
	{6, 1.70611766843180047272682124325},
	{6.5, 1.79291133039993294191544502342},
	{8.999999, 2.14064136044358840584478296829},
	{9, 2.14064147795560999653634505277},
	{9.5, 2.19773787640294953316733039296},
	{10, 2.25175258906672110764745616389},
	{10.000001, 2.25175269423305126441610353524},
	{12.3, 2.468398400301138230169345715},
	{50, 3.90198967342789219695395970288},
	{100, 4.60016185273808740019860558558},
	{1234.5, 7.118016231827997843305218449},
	{1e5, 11.5129204649618950867567072734},
	{1e8, 18.4206807389523654638105983041},
	{1e15, 34.5387763949106847602698718203},
	{1e300, 690.775527898213705205397436405},
}

func TestDigammaAccuracy(t *testing.T) {
	for _, c := range digammaRef {
		got := digamma(c.x)
		tol := 1.2e-15 * math.Max(1, math.Abs(c.want))
		if err := math.Abs(got - c.want); err > tol {
			t.Errorf("digamma(%v) = %.17g, want %.17g (error %.2g > %.2g)", c.x, got, c.want, err, tol)
		}
	}
}

func TestDigammaSpecialValues(t *testing.T) {
	if v := digamma(0); !math.IsInf(v, -1) {
		t.Errorf("digamma(0) = %v, want -Inf", v)
	}
	for _, x := range []float64{-1, -0.5, math.NaN(), math.Inf(-1)} {
		if v := digamma(x); !math.IsNaN(v) {
			t.Errorf("digamma(%v) = %v, want NaN", x, v)
		}
	}
	if v := digamma(math.Inf(1)); !math.IsInf(v, 1) {
		t.Errorf("digamma(+Inf) = %v, want +Inf", v)
	}
	// Closed forms: ψ(1) = -γ, ψ(1/2) = -γ - 2 log 2, ψ(n+1) = ψ(n) + 1/n.
	if got, want := digamma(1), -eulerGamma; math.Abs(got-want) > 1e-16 {
		t.Errorf("digamma(1) = %.17g, want %.17g", got, want)
	}
	if got, want := digamma(0.5), -eulerGamma-2*math.Ln2; math.Abs(got-want) > 1e-15 {
		t.Errorf("digamma(0.5) = %.17g, want %.17g", got, want)
	}
}

// TestDigammaAgainstGonum compares with gonum's mathext.Digamma, which is
// accurate to about 1e-10, over the range the model uses.
func TestDigammaAgainstGonum(t *testing.T) {
	for x := 1e-5; x < 1e7; x *= 1.07 {
		got, want := digamma(x), mathext.Digamma(x)
		if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("digamma(%v) = %.17g, gonum says %.17g", x, got, want)
		}
	}
}

func TestDigammaRecurrence(t *testing.T) {
	// ψ(x+1) - ψ(x) = 1/x, across the switch to the asymptotic series.
	for x := 0.01; x < 30; x += 0.137 {
		if d := digamma(x+1) - digamma(x) - 1/x; math.Abs(d) > 2e-15*math.Max(1, 1/x) {
			t.Fatalf("ψ(%v+1) - ψ(%v) - 1/x = %.3g", x, x, d)
		}
	}
}

func BenchmarkDigamma(b *testing.B) {
	xs := []float64{0.05, 0.3, 1.7, 4.2, 9.9, 25, 3000}
	var s float64
	for i := 0; i < b.N; i++ {
		s += digamma(xs[i%len(xs)])
	}
	_ = s
}
