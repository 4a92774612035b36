package theme

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// expectError fails unless err is non-nil and its message holds every
// part of want.
func expectError(t *testing.T, what string, err error, want ...string) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error", what)
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not mention %q", what, err, w)
		}
	}
}

// noPanic runs f and turns a panic into a test failure.
func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s panics: %v", what, r)
		}
	}()
	f()
}

func TestBCoolBadArguments(t *testing.T) {
	x, labels := synthetic(3, 6, 1)
	n, _ := x.Dims()
	longer := append(append([][]int(nil), labels...), []int{0})
	outOfRange := append([][]int(nil), labels...)
	outOfRange[4] = []int{7}
	cases := []struct {
		name          string
		x             *sparse.CSR
		labels        [][]int
		themes, s, nt int
		want          []string
	}{
		{"label out of range", x, outOfRange, 3, 2, 0, []string{"document 4", "theme 7"}},
		{"negative label", x, [][]int{{-1}}, 3, 2, 0, []string{"theme lists"}},
		{"zero themes", x, labels, 0, 2, 0, []string{"numThemes = 0"}},
		{"zero subtopics", x, labels, 3, 0, 0, []string{"s = 0"}},
		{"negative new topics", x, labels, 3, 2, -1, []string{"newTopics = -1"}},
		{"labels longer than X", x, longer, 3, 2, 0, []string{"19 theme lists for 18 documents"}},
		{"labels shorter than X", x, labels[:n-1], 3, 2, 0, []string{"17 theme lists for 18 documents"}},
		{"nil X", nil, labels, 3, 2, 0, []string{"X is nil"}},
		{"malformed X", &sparse.CSR{Rows: 2, Cols: 3, Indptr: []int{0}}, [][]int{{0}, {0}}, 1, 1, 0, []string{"Indptr"}},
		{"empty X", &sparse.CSR{Rows: 0, Cols: 3, Indptr: []int{0}}, nil, 1, 1, 0, []string{"no rows"}},
	}
	for _, c := range cases {
		noPanic(t, c.name, func() {
			g, err := BCool(c.x, c.labels, c.themes, c.s, c.nt, 1)
			if g != nil {
				t.Errorf("%s: groups %v returned with the error", c.name, g)
			}
			expectError(t, c.name, err, c.want...)
		})
	}
}

func TestDirectTermScoresBadH(t *testing.T) {
	noPanic(t, "DirectTermScores(nil)", func() {
		_, err := DirectTermScores(nil)
		expectError(t, "nil H", err, "H is empty")
		_, err = DirectTermScores(&mat.Dense{})
		expectError(t, "empty H", err, "H is empty")
	})
	for _, v := range []float64{-1, math.NaN(), math.Inf(1)} {
		h := mat.NewDense(2, 3, []float64{1, 2, 3, 0, v, 1})
		_, err := DirectTermScores(h)
		expectError(t, "bad entry", err, "H[1][1]")
	}
	h := mat.NewDense(1, 2, []float64{math.MaxFloat64, math.MaxFloat64})
	_, err := DirectTermScores(h)
	expectError(t, "overflowing row", err, "row 0")
	d, err := DirectTermScores(mat.NewDense(2, 2, []float64{1, 3, 0, 0}))
	if err != nil || !mat.Equal(d, mat.NewDense(2, 2, []float64{0.25, 0.75, 0, 0})) {
		t.Errorf("DirectTermScores = %v, %v", mat.Formatted(d), err)
	}
}

// TestModelMethodsOnBadModel checks that the exported methods reading a
// model's parts answer a hand-built or damaged Model with an error.
func TestModelMethodsOnBadModel(t *testing.T) {
	x, labels := synthetic(2, 6, 3)
	good, err := Fit(ctx, x, Config{Themes: themeNames(2), Labels: labels, Mode: Combined, Subtopics: 2, Seed: 1, MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	_, terms := x.Dims()
	vocab := make([]string, terms)
	for j := range vocab {
		vocab[j] = "w"
	}
	damage := map[string]func(m *Model){
		"no parts":        func(m *Model) { m.Parts = nil },
		"nil part":        func(m *Model) { m.Parts[0] = nil },
		"nil H":           func(m *Model) { m.Parts[0].H = nil },
		"short H":         func(m *Model) { m.Parts[0].H = mat.NewDense(2, terms, nil) },
		"too many themes": func(m *Model) { m.Themes = append(m.Themes, "extra") },
		"zero subtopics":  func(m *Model) { m.Subtopics = 0 },
		"negative H": func(m *Model) {
			h := mat.DenseCopyOf(m.Parts[0].H)
			h.Set(0, 0, -1)
			m.Parts[0].H = h
		},
	}
	for name, f := range damage {
		p := *good.Parts[0]
		m := *good
		m.Themes = append([]string(nil), good.Themes...)
		m.Parts = []*Part{&p}
		f(&m)
		noPanic(t, name, func() {
			_, err := m.ThemeTermScores(0, 0.5)
			expectError(t, name+": ThemeTermScores", err)
			_, err = m.Interpret(vocab, InterpretOptions{})
			expectError(t, name+": Interpret", err)
			_, err = m.DocumentTermScores(x, nil, 0, 0, 0.5)
			expectError(t, name+": DocumentTermScores", err)
			if name != "negative H" {
				_, err = m.TrainingScores()
				expectError(t, name+": TrainingScores", err)
			}
		})
	}
	var nilModel *Model
	noPanic(t, "nil model", func() {
		_, err := nilModel.Interpret(nil, InterpretOptions{})
		expectError(t, "nil model", err, "nil")
	})
	// DocumentTermScores with a nil document-topic matrix or a damaged X.
	noPanic(t, "nil ws entry", func() {
		_, err := good.DocumentTermScores(x, []*mat.Dense{nil}, 0, 0, 0.5)
		expectError(t, "nil ws entry", err, "matrix 0 is empty")
		bad := *x
		bad.Indptr = x.Indptr[:2]
		_, err = good.DocumentTermScores(&bad, nil, 0, 0, 0.5)
		expectError(t, "short Indptr", err, "malformed")
	})
}
