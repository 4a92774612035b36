package theme

import (
	"fmt"
	"sort"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
)

// BCoolGroups is the outcome of the bCool selection: which documents'
// rows of X are averaged into each starting row of H.
type BCoolGroups struct {
	// Subtopics[j][q] lists the documents of theme j's subtopic q.
	Subtopics [][][]int
	// New[q] lists the documents of new topic q.
	New [][]int
	// Background lists the documents of the background row (a document
	// appears once per theme whose quarter it is in).
	Background []int
	// Fallback[j] reports whether theme j had fewer than s labeled
	// documents and got random groups.
	Fallback []bool
}

// startRows holds the bCool groups and the background row; it is read
// concurrently by the Separated fits.
type startRows struct {
	g  *BCoolGroups
	bg []float64 // background row
}

// BCool returns the bCool document groups for X (documents × terms) with
// the given theme lists, one per row of X (nil or empty: unlabeled),
// numThemes themes, s subtopics and newTopics new topics (see the package
// documentation). The same seed gives the same groups.
//
// It is an error if X is nil, has no rows or is malformed, if labels does
// not hold one list per row of X, if a theme index is out of [0,
// numThemes) or listed twice for a document, or if numThemes < 1, s < 1
// or newTopics < 0.
func BCool(x *sparse.CSR, labels [][]int, numThemes, s, newTopics int, seed uint64) (*BCoolGroups, error) {
	if x == nil {
		return nil, fmt.Errorf("theme: BCool: X is nil")
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("theme: BCool: X: %w", err)
	}
	n, _ := x.Dims()
	switch {
	case n == 0:
		return nil, fmt.Errorf("theme: BCool: X has no rows")
	case numThemes < 1:
		return nil, fmt.Errorf("theme: BCool: numThemes = %d, want ≥ 1", numThemes)
	case s < 1:
		return nil, fmt.Errorf("theme: BCool: s = %d subtopics, want ≥ 1", s)
	case newTopics < 0:
		return nil, fmt.Errorf("theme: BCool: newTopics = %d, want ≥ 0", newTopics)
	}
	if _, err := checkLabels(labels, n, numThemes); err != nil {
		return nil, fmt.Errorf("theme: BCool: labels: %w", err)
	}
	return bcoolGroups(x, labels, numThemes, s, newTopics, seed, false), nil
}

// bcoolGroups is BCool on arguments already checked (by BCool or Fit);
// everyTheme is Config.BackgroundEveryTheme.
func bcoolGroups(x *sparse.CSR, labels [][]int, numThemes, s, newTopics int, seed uint64, everyTheme bool) *BCoolGroups {
	n, _ := x.Dims()
	density := make([]int, n)
	for i := range density {
		density[i] = x.Indptr[i+1] - x.Indptr[i]
	}
	byTheme := make([][]int, numThemes)
	var unlabeled []int
	for i, ls := range labels {
		if len(ls) == 0 {
			unlabeled = append(unlabeled, i)
		}
		for _, j := range ls {
			byTheme[j] = append(byTheme[j], i)
		}
	}
	r := rng.New(seed, 0, 0x62436f6f6c) // "bCool"
	g := &BCoolGroups{Subtopics: make([][][]int, numThemes), Fallback: make([]bool, numThemes)}
	// Fallback group size: the reference draws n/K/2/3+1 documents per
	// group (3 being its number of subtopics); dividing in steps gives
	// ⌊n/(2·K·s)⌋ without overflowing the product.
	p := n/2/numThemes/s + 1
	draw := func(from []int) []int {
		out := make([]int, p)
		for a := range out {
			out[a] = from[r.Intn(len(from))]
		}
		return out
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	for j, docs := range byTheme {
		if len(docs) < s {
			g.Fallback[j] = true
			for q := 0; q < s; q++ {
				g.Subtopics[j] = append(g.Subtopics[j], draw(all))
			}
			continue
		}
		sorted := append([]int(nil), docs...)
		sort.SliceStable(sorted, func(a, b int) bool { return density[sorted[a]] > density[sorted[b]] })
		if len(sorted) >= 2*s {
			sorted = sorted[:len(sorted)/2]
		}
		g.Subtopics[j] = partitionByDensity(sorted, density, s)
		q := len(sorted) / 4
		if everyTheme {
			q = max(1, q)
		}
		g.Background = append(g.Background, sorted[:q]...)
	}
	if newTopics > 0 {
		from := unlabeled
		if len(from) == 0 {
			from = all
		}
		for q := 0; q < newTopics; q++ {
			g.New = append(g.New, draw(from))
		}
	}
	return g
}

// bCool returns the start rows of the bCool initialisation; Fit has
// checked its arguments.
func bCool(x *sparse.CSR, labels [][]int, numThemes, s, newTopics int, seed uint64, everyTheme bool) *startRows {
	g := bcoolGroups(x, labels, numThemes, s, newTopics, seed, everyTheme)
	return &startRows{g: g, bg: meanRow(x, g.Background)}
}

// partitionByDensity splits docs (sorted densest first) into s contiguous
// non-empty groups whose total densities are near-equal: the boundary
// before group q is placed where the running total comes closest to q/s of
// the whole. len(docs) ≥ s.
func partitionByDensity(docs []int, density []int, s int) [][]int {
	total := 0
	prefix := make([]int, len(docs)+1)
	for a, d := range docs {
		prefix[a+1] = prefix[a] + density[d]
		total += density[d]
	}
	groups := make([][]int, 0, s)
	start := 0
	for q := 1; q < s; q++ {
		target := float64(total) * float64(q) / float64(s)
		// The boundary b leaves at least one document in this group and
		// one in each of the s−q groups after it.
		lo, hi := start+1, len(docs)-(s-q)
		best := lo
		for b := lo; b <= hi; b++ {
			if abs(float64(prefix[b])-target) < abs(float64(prefix[best])-target) {
				best = b
			}
		}
		groups = append(groups, docs[start:best])
		start = best
	}
	return append(groups, docs[start:])
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// meanRow returns the mean of the rows docs of x (a document listed twice
// counts twice), or the mean of all rows when docs is empty.
func meanRow(x *sparse.CSR, docs []int) []float64 {
	n, m := x.Dims()
	out := make([]float64, m)
	if len(docs) == 0 {
		for i := 0; i < n; i++ {
			cols, vals := x.Row(i)
			for a, c := range cols {
				out[c] += vals[a]
			}
		}
		for j := range out {
			out[j] /= float64(n)
		}
		return out
	}
	for _, i := range docs {
		cols, vals := x.Row(i)
		for a, c := range cols {
			out[c] += vals[a]
		}
	}
	for j := range out {
		out[j] /= float64(len(docs))
	}
	return out
}

// forPart builds the starting H of part p.
func (s *startRows) forPart(m *Model, p *Part, x *sparse.CSR) *mat.Dense {
	_, terms := x.Dims()
	h := mat.NewDense(len(p.Topics), terms, nil)
	for t, tp := range p.Topics {
		var row []float64
		switch tp.Kind {
		case Subtopic:
			row = meanRow(x, s.g.Subtopics[tp.Theme][tp.Index])
		case NewTopic:
			row = meanRow(x, s.g.New[tp.Index])
		case Background:
			row = s.bg
		}
		h.SetRow(t, row)
	}
	return h
}
