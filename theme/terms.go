package theme

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// Purity is the purity of a term in a topic, d / (d + dBackground), from
// its direct term scores in the topic and in the background topic of the
// same model; 0 when both are 0.
func Purity(d, dBackground float64) float64 {
	if d+dBackground == 0 {
		return 0
	}
	return d / (d + dBackground)
}

// PurityTermScore is d · Purity(d, dBackground).
func PurityTermScore(d, dBackground float64) float64 {
	return d * Purity(d, dBackground)
}

// ThemeTermScore is the Theme Term Score with purity ratio lambda:
// (1−λ)·d + λ·d·Purity(d, dBackground). λ = 0 gives the direct score,
// λ = 1 the Purity Term Score.
func ThemeTermScore(d, dBackground, lambda float64) float64 {
	return (1-lambda)*d + lambda*PurityTermScore(d, dBackground)
}

// DirectTermScores returns H with each row divided by its sum (a topic's
// distribution over terms); an all-zero row stays zero. It is an error if
// H is nil or empty, or has a negative or non-finite entry (named by row
// and column).
func DirectTermScores(h *mat.Dense) (*mat.Dense, error) {
	if h == nil || h.IsEmpty() {
		return nil, fmt.Errorf("theme: DirectTermScores: H is empty")
	}
	r, c := h.Dims()
	out := mat.NewDense(r, c, nil)
	for t := 0; t < r; t++ {
		src, dst := h.RawRowView(t), out.RawRowView(t)
		sum := 0.0
		for j, v := range src {
			if !(v >= 0) || math.IsInf(v, 1) {
				return nil, fmt.Errorf("theme: DirectTermScores: H[%d][%d] = %v, want a finite non-negative weight", t, j, v)
			}
			sum += v
		}
		if sum == 0 {
			continue
		}
		if math.IsInf(sum, 1) {
			return nil, fmt.Errorf("theme: DirectTermScores: row %d of H sums to %v", t, sum)
		}
		for j, v := range src {
			dst[j] = v / sum
		}
	}
	return out, nil
}

// check returns an error unless m's parts are laid out as Fit lays them
// out (the number of parts, each part's theme, topic count and background
// index, H of topics × Terms, W of that many columns), so that the
// methods that index them answer a hand-built or edited Model with an
// error rather than a panic.
func (m *Model) check() error {
	if m == nil {
		return fmt.Errorf("theme: model is nil")
	}
	k, s, nt := len(m.Themes), m.Subtopics, m.NewTopics
	switch {
	case k == 0:
		return fmt.Errorf("theme: model has no themes")
	case s < 1:
		return fmt.Errorf("theme: model has Subtopics = %d, want ≥ 1", s)
	case nt < 0:
		return fmt.Errorf("theme: model has NewTopics = %d, want ≥ 0", nt)
	case m.Mode != Combined && m.Mode != Separated:
		return fmt.Errorf("theme: model has unknown mode %v", m.Mode)
	}
	type shape struct{ theme, topics int }
	var want []shape
	if m.Mode == Combined {
		want = []shape{{AllThemes, k*s + nt + 1}}
	} else {
		for j := 0; j < k; j++ {
			want = append(want, shape{j, s + 1})
		}
		if nt > 0 {
			want = append(want, shape{NewTopicsTheme, nt + 1})
		}
	}
	if len(m.Parts) != len(want) {
		return fmt.Errorf("theme: %s model with %d themes and %d new topics has %d parts, want %d", m.Mode, k, nt, len(m.Parts), len(want))
	}
	for i, p := range m.Parts {
		if p == nil {
			return fmt.Errorf("theme: model part %d is nil", i)
		}
		if p.Theme != want[i].theme || len(p.Topics) != want[i].topics || p.Background != want[i].topics-1 {
			return fmt.Errorf("theme: model part %d has theme %d, %d topics and background %d, want %d, %d and %d",
				i, p.Theme, len(p.Topics), p.Background, want[i].theme, want[i].topics, want[i].topics-1)
		}
		if p.H == nil || p.H.IsEmpty() {
			return fmt.Errorf("theme: model part %d has no H", i)
		}
		if r, c := p.H.Dims(); r != want[i].topics || c != m.Terms {
			return fmt.Errorf("theme: model part %d has H of %d×%d, want %d×%d (topics × Terms)", i, r, c, want[i].topics, m.Terms)
		}
		if p.W != nil && !p.W.IsEmpty() {
			if _, c := p.W.Dims(); c != want[i].topics {
				return fmt.Errorf("theme: model part %d has W of %d columns for %d topics", i, c, want[i].topics)
			}
		}
	}
	return nil
}

// ThemeTerms are the term scores of one theme at one purity ratio.
type ThemeTerms struct {
	// Theme is the theme's index, or NewTopicsTheme for the new topics.
	Theme int
	// Lambda is the purity ratio.
	Lambda float64
	// Subtopics[q][j] is the Theme Term Score of term j in subtopic q.
	Subtopics [][]float64
	// Max and Sum aggregate the subtopics' scores of each term.
	Max, Sum []float64
	// Background[j] is term j's direct score in the background topic of
	// the theme's model.
	Background []float64
}

func checkLambda(lambda float64) error {
	if math.IsNaN(lambda) || lambda < 0 || lambda > 1 {
		return fmt.Errorf("theme: purity ratio %v is not in [0, 1]", lambda)
	}
	return nil
}

// ThemeTermScores returns theme j's term scores at purity ratio lambda
// (thesis ch. 6). j = NewTopicsTheme scores the new topics. It is an
// error if m's parts are not laid out as Fit lays them out (a hand-built
// or edited Model) or an H has a negative or non-finite weight.
func (m *Model) ThemeTermScores(j int, lambda float64) (*ThemeTerms, error) {
	if err := checkLambda(lambda); err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	var p *Part
	var cols []int
	switch {
	case j >= 0 && j < len(m.Themes):
		p, cols = m.subtopicColumns(j)
	case j == NewTopicsTheme && m.NewTopics > 0:
		p, cols = m.newTopicColumns()
	default:
		return nil, fmt.Errorf("theme: no theme %d (have %d themes, %d new topics)", j, len(m.Themes), m.NewTopics)
	}
	d, err := DirectTermScores(p.H)
	if err != nil {
		return nil, fmt.Errorf("theme: scoring the terms of theme %d: %w", j, err)
	}
	bg := d.RawRowView(p.Background)
	out := &ThemeTerms{Theme: j, Lambda: lambda, Max: make([]float64, m.Terms), Sum: make([]float64, m.Terms),
		Background: append([]float64(nil), bg...)}
	for _, c := range cols {
		row := d.RawRowView(c)
		sc := make([]float64, m.Terms)
		for t, v := range row {
			sc[t] = ThemeTermScore(v, bg[t], lambda)
			out.Sum[t] += sc[t]
			if sc[t] > out.Max[t] {
				out.Max[t] = sc[t]
			}
		}
		out.Subtopics = append(out.Subtopics, sc)
	}
	return out, nil
}

// DocTerms are the term scores of one document for one theme.
type DocTerms struct {
	// Terms are the document's terms (column indices of X with a non-zero
	// count), in column order.
	Terms []int
	// Subtopics[q][a] is the score of term Terms[a] in subtopic q; Max and
	// Sum aggregate over the subtopics.
	Subtopics [][]float64
	Max, Sum  []float64
}

// DocumentTermScores scores the terms of document i of X for theme j at
// purity ratio lambda (thesis Eq. 6.10–6.14; calculate_doc_term_scores):
// with the document's weights w (one row per part of ws: the parts' W for
// training documents, or TransformParts' output for new ones) normalised
// to sum to 1 over the part's topics, and each topic's direct term scores
// d (row-normalised H), a term of the document scores e = w̃_t·d_t in topic
// t and e_bg = w̃_bg·d_bg in the background, and the Theme Term Score is
// (1−λ)·e + λ·e·e/(e + e_bg). Terms absent from the document score 0 and
// are left out. ws nil means the training W. It is an error if m's parts
// are not laid out as Fit lays them out, or if X, ws or the indices do
// not fit the model.
func (m *Model) DocumentTermScores(x *sparse.CSR, ws []*mat.Dense, i, j int, lambda float64) (*DocTerms, error) {
	if err := checkLambda(lambda); err != nil {
		return nil, err
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	if x == nil {
		return nil, fmt.Errorf("theme: X is nil")
	}
	n, terms := x.Dims()
	if terms != m.Terms {
		return nil, fmt.Errorf("theme: X has %d columns, the model %d terms", terms, m.Terms)
	}
	if i < 0 || i >= n {
		return nil, fmt.Errorf("theme: document %d out of range [0,%d)", i, n)
	}
	if ws == nil {
		for _, p := range m.Parts {
			ws = append(ws, p.W)
		}
	}
	if len(ws) != len(m.Parts) {
		return nil, fmt.Errorf("theme: %d document-topic matrices for %d model parts", len(ws), len(m.Parts))
	}
	var p *Part
	var cols []int
	switch {
	case j >= 0 && j < len(m.Themes):
		p, cols = m.subtopicColumns(j)
	case j == NewTopicsTheme && m.NewTopics > 0:
		p, cols = m.newTopicColumns()
	default:
		return nil, fmt.Errorf("theme: no theme %d", j)
	}
	var w []float64
	for pi, q := range m.Parts {
		if q == p {
			if ws[pi] == nil || ws[pi].IsEmpty() {
				return nil, fmt.Errorf("theme: document-topic matrix %d is empty", pi)
			}
			r, c := ws[pi].Dims()
			if r != n || c != len(p.Topics) {
				return nil, fmt.Errorf("theme: document-topic matrix %d is %d×%d, want %d×%d", pi, r, c, n, len(p.Topics))
			}
			w = ws[pi].RawRowView(i)
		}
	}
	wsum := 0.0
	for _, v := range w {
		wsum += v
	}
	norm := func(t int) float64 {
		if wsum == 0 {
			return 0
		}
		return w[t] / wsum
	}
	d, err := DirectTermScores(p.H)
	if err != nil {
		return nil, fmt.Errorf("theme: scoring the terms of document %d: %w", i, err)
	}
	// Check only the row read, so that scoring every document stays
	// linear in the size of X.
	if len(x.Indptr) != n+1 || x.Indptr[i] < 0 || x.Indptr[i] > x.Indptr[i+1] || x.Indptr[i+1] > len(x.Indices) || len(x.Indices) != len(x.Data) {
		return nil, fmt.Errorf("theme: X is malformed at row %d (see sparse.CSR.Validate)", i)
	}
	idx, _ := x.Row(i)
	for _, c := range idx {
		if c < 0 || int(c) >= terms {
			return nil, fmt.Errorf("theme: X row %d: column %d out of range [0,%d)", i, c, terms)
		}
	}
	out := &DocTerms{Terms: make([]int, len(idx)), Max: make([]float64, len(idx)), Sum: make([]float64, len(idx))}
	for a, c := range idx {
		out.Terms[a] = int(c)
	}
	bgw := norm(p.Background)
	bg := d.RawRowView(p.Background)
	for _, c := range cols {
		wt := norm(c)
		row := d.RawRowView(c)
		sc := make([]float64, len(idx))
		for a, t := range idx {
			sc[a] = ThemeTermScore(wt*row[t], bgw*bg[t], lambda)
			out.Sum[a] += sc[a]
			if sc[a] > out.Max[a] {
				out.Max[a] = sc[a]
			}
		}
		out.Subtopics = append(out.Subtopics, sc)
	}
	return out, nil
}
