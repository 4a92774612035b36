package model

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
)

// Seed words in the NMF family follow Guided NMF (Vendrow, Haddock,
// Rebrova & Needell, "On a Guided Nonnegative Matrix Factorization",
// ICASSP 2021): besides the data term D(X, W·H) the fit approximates a
// seed matrix Q (seeded topics × terms, each row holding a topic's seed
// words' strengths) by the topics, μ·D(Q, C·H). That term is the data
// term of pseudo-documents, Q's rows, with row weight μ and topic weights
// C, so the one nmf engine fits it on X with Q stacked under it
// (Config.RowWeights: the kind's weights for the documents, μ for the
// pseudo-documents) — exactly for the Frobenius loss, and as μ·D_KL for
// KL. Unlike the paper's free C, which only guides, a pseudo-document may
// use its own topic alone (its row of the W mask), so the seeded topic is
// the seed topic and carries its name.

// guide holds the pseudo-documents of a fit's seed words.
type guide struct {
	// q is seeded topics × terms: row r holds the strengths of the seed
	// words of topic topics[r]; mu[r] is its row weight.
	q      *sparse.CSR
	topics []int
	mu     []float64
}

// seeded reports whether any anchor has seed words.
func seeded(anchors []Anchor) bool {
	for _, a := range anchors {
		if len(a.Words) > 0 {
			return true
		}
	}
	return false
}

// anchorTopicNames names a model's k topics after the anchors: the topics
// with a seed word in the vocabulary first, in the anchors' order, then
// the others (exclusion words only, or no seed word known), then topic-N
// (the names are distinct). It is an error if the anchors name more than
// k topics. seededNames are the first group's names: the topics the seed
// words steer, which a model may predict.
func anchorTopicNames(kind string, anchors []Anchor, vocab []string, k int) (names, seededNames []string, err error) {
	col := termIndex(vocab)
	for _, a := range anchors {
		if anyTerm(col, a.Words) {
			seededNames = append(seededNames, a.Topic)
		}
	}
	names = append([]string(nil), seededNames...)
	for _, a := range anchors {
		if !anyTerm(col, a.Words) {
			names = append(names, a.Topic)
		}
	}
	if len(names) > k {
		return nil, nil, fmt.Errorf("model: the anchors name %d topics, more than this %s model's k = %d", len(names), kind, k)
	}
	// A free topic is topic-N, N its position from 1, unless the anchors
	// took that name: it then takes the first topic-N beyond k not taken.
	next := k
	for t := len(names); t < k; t++ {
		name := fmt.Sprintf("topic-%d", t+1)
		for slices.Contains(names, name) {
			next++
			name = fmt.Sprintf("topic-%d", next)
		}
		names = append(names, name)
	}
	return names, seededNames, nil
}

// newGuide builds the pseudo-documents of the anchors' seed words for a
// model of k topics named names over vocab (nil when no anchor has a seed
// word in the vocabulary). rowWeights are the documents' own weights e_i
// (nil: 1), loss the data term's, beta Options.Beta. Seed words missing
// from the vocabulary are reported in the notes; an anchor naming no topic
// of names is an error listing them.
func newGuide(kind string, anchors []Anchor, names, vocab []string, x *sparse.CSR, rowWeights []float64, loss nmf.Loss, beta float64) (*guide, []string, error) {
	if !seeded(anchors) {
		return nil, nil, nil
	}
	if beta == 0 {
		beta = 1
	}
	topic := make(map[string]int, len(names))
	for t, n := range names {
		topic[n] = t
	}
	col := termIndex(vocab)
	g := &guide{}
	var notes []string
	var ts []sparse.Triplet
	var masses []float64
	for _, a := range anchors {
		if len(a.Words) == 0 {
			continue
		}
		t, ok := topic[a.Topic]
		if !ok {
			return nil, nil, fmt.Errorf("model: the anchors name the topic %q; this %s model's topics are %s", a.Topic, kind, strings.Join(names, ", "))
		}
		if len(a.Beta) != 0 && len(a.Beta) != len(a.Words) {
			return nil, nil, fmt.Errorf("model: anchor %q has %d strengths for %d words", a.Topic, len(a.Beta), len(a.Words))
		}
		var missing []string
		mass := 0.0
		r := len(g.topics)
		for i, w := range a.Words {
			j, ok := col[w]
			if !ok {
				missing = append(missing, w)
				continue
			}
			s := 1.0
			if len(a.Beta) > 0 && a.Beta[i] > 0 {
				s = a.Beta[i]
			}
			ts = append(ts, sparse.Triplet{Row: r, Col: j, Val: s})
			if loss == nmf.Frobenius {
				mass += s * s
			} else {
				mass += s
			}
		}
		if len(missing) == len(a.Words) {
			notes = append(notes, fmt.Sprintf("topic %q: none of its seed words (%s) is in the vocabulary; it is not seeded", a.Topic, strings.Join(missing, ", ")))
			continue
		}
		if len(missing) > 0 {
			notes = append(notes, fmt.Sprintf("topic %q: the seed words %s are not in the vocabulary", a.Topic, strings.Join(missing, ", ")))
		}
		g.topics = append(g.topics, t)
		masses = append(masses, mass)
	}
	if len(g.topics) == 0 {
		return nil, notes, nil
	}
	q, err := sparse.FromTriplets(len(g.topics), x.Cols, ts)
	if err != nil {
		return nil, nil, fmt.Errorf("model: seed words: %w", err)
	}
	g.q = q
	data := dataMass(x, rowWeights, loss)
	if data == 0 {
		return nil, nil, fmt.Errorf("model: the documents are all zero; seed words need data to weigh against")
	}
	if math.IsInf(data, 0) || math.IsNaN(data) {
		return nil, nil, fmt.Errorf("model: the documents' entries are so large that their total (the mass the seed words are weighed against) overflows the float64 range; rescale the data, for example with tf-idf or L2-normalised rows")
	}
	for r, m := range masses {
		mu := seedWeight(beta, data, m, len(names))
		if !(mu > 0) || math.IsInf(mu, 0) {
			// The strengths are bounded (checkAnchors), so only data at
			// the edge of the float64 range get here; the message speaks
			// of the seed words, never of the pseudo-document's row.
			return nil, nil, fmt.Errorf("model: topic %q: its seed words' strengths and the documents' scale give its seed words the weight %g, which the fit cannot use; keep strengths between %g and %g and rescale the data", names[g.topics[r]], mu, MinStrength, MaxStrength)
		}
		g.mu = append(g.mu, mu)
	}
	notes = append(notes, fmt.Sprintf("guided NMF: %d seeded topics, each fitting a pseudo-document of its seed words with weight β·mass(X)/(K·mass(seeds)), β = %g", len(g.topics), beta))
	return g, notes, nil
}

// seedGuide is the guide every kind fits: newGuide's, its
// pseudo-documents weighed by the seed words' share (weighByShare), so
// that no seeded topic is made of its seed words alone.
func seedGuide(kind string, anchors []Anchor, names, vocab []string, x *sparse.CSR, rowWeights []float64, loss nmf.Loss, beta float64) (*guide, []string, error) {
	g, notes, err := newGuide(kind, anchors, names, vocab, x, rowWeights, loss, beta)
	if err != nil || g == nil {
		return g, notes, err
	}
	g, note := g.weighByShare(x, rowWeights, loss)
	if note != "" {
		notes = append(notes, note)
	}
	return g, notes, nil
}

// seedWeight returns the row weight μ of a seed pseudo-document q (a
// topic's seed words, each with strength 1 unless the anchors file gives
// one) in a model of k topics: μ = β·M(X)/(k·M(q)), where β is
// Options.Beta (0 means 1) and M the data term's mass — Σ_i e_i‖x_i‖² for
// the Frobenius loss, Σ_i e_i Σ_j x_ij for KL, e_i being the documents'
// own row weights (1 unless the kind weighs them). At β = 1 a
// pseudo-document then weighs in the objective what an average topic's
// share of the corpus weighs: a topic's seed words count as much as the
// documents of a topic together, whatever the corpus's size, document
// lengths or term weighting, since both sides scale alike (the Frobenius
// loss quadratically, KL linearly). The rule comes from this balance, not
// from tuning on a data set.
func seedWeight(beta, data, seeds float64, k int) float64 {
	return beta * data / (float64(k) * seeds)
}

// dataMass returns Σ_i e_i‖x_i‖² (Frobenius) or Σ_i e_i Σ_j x_ij (KL),
// e nil meaning 1.
func dataMass(x *sparse.CSR, e []float64, loss nmf.Loss) float64 {
	total := 0.0
	for i := 0; i < x.Rows; i++ {
		_, vals := x.Row(i)
		s := 0.0
		for _, v := range vals {
			if loss == nmf.Frobenius {
				s += v * v
			} else {
				s += v
			}
		}
		if e != nil {
			s *= e[i]
		}
		total += s
	}
	return total
}

// rows returns the number of pseudo-documents (0 for a nil guide).
func (g *guide) rows() int {
	if g == nil {
		return 0
	}
	return len(g.topics)
}

// stack returns the fit's inputs with the pseudo-documents under the
// documents: X stacked with Q, the row weights (rowWeights for the
// documents, nil meaning 1; μ for the pseudo-documents), and a W mask over
// k topics (wmask for the documents, nil meaning every topic allowed;
// its own topic alone for a pseudo-document). A nil guide returns its
// inputs unchanged.
func (g *guide) stack(x *sparse.CSR, rowWeights []float64, wmask *mat.Dense, k int) (*sparse.CSR, []float64, *mat.Dense, error) {
	if g == nil {
		return x, rowWeights, wmask, nil
	}
	xs, err := sparse.VStack(x, g.q)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("model: seed words: %w", err)
	}
	n, s := x.Rows, g.rows()
	rw := make([]float64, 0, n+s)
	if rowWeights == nil {
		for i := 0; i < n; i++ {
			rw = append(rw, 1)
		}
	} else {
		rw = append(rw, rowWeights...)
	}
	rw = append(rw, g.mu...)
	wm := mat.NewDense(n+s, k, nil)
	if wmask == nil {
		for q := 0; q < n*k; q++ {
			wm.RawMatrix().Data[q] = 1
		}
	} else {
		wm.Slice(0, n, 0, k).(*mat.Dense).Copy(wmask)
	}
	for r, t := range g.topics {
		wm.Set(n+r, t, 1)
	}
	return xs, rw, wm, nil
}

// labels returns the documents' label lists with each pseudo-document's
// appended: its topic (TS-NMF's labels are its first topics).
func (g *guide) labels(idx [][]int) [][]int {
	if g == nil {
		return idx
	}
	out := append([][]int(nil), idx...)
	for _, t := range g.topics {
		out = append(out, []int{t})
	}
	return out
}

// startLabels returns, for the stacked rows, the topics whose seeds each
// holds — a document every seeded topic one of whose seed words it
// contains, a pseudo-document its own topic — for nmf.InitLabelMean: a
// seeded topic then starts as the mean of the documents with its seed
// words, where the seeds pull it, rather than as whichever topic the
// unsupervised start put in its place, which weak seeds cannot move and
// strong ones empty of the documents (another topic then takes them).
func (g *guide) startLabels(x *sparse.CSR) [][]int {
	byCol := map[int32][]int{}
	for r, t := range g.topics {
		cols, _ := g.q.Row(r)
		for _, c := range cols {
			byCol[c] = append(byCol[c], t)
		}
	}
	out := make([][]int, x.Rows, x.Rows+g.rows())
	for i := range out {
		cols, _ := x.Row(i)
		for _, c := range cols {
			for _, t := range byCol[c] {
				if !slices.Contains(out[i], t) {
					out[i] = append(out[i], t)
				}
			}
		}
	}
	for _, t := range g.topics {
		out = append(out, []int{t})
	}
	return out
}

// strip returns W's rows of the n documents, without the pseudo-documents'.
func (g *guide) strip(w *mat.Dense) *mat.Dense {
	if g == nil || w == nil {
		return w
	}
	r, k := w.Dims()
	return w.Slice(0, r-g.rows(), 0, k).(*mat.Dense)
}

// seedShares returns, for each pseudo-document r, the share s_r that its
// seed words hold of the mass of the documents holding at least one of
// them (masses as dataMass's: Σ e_i x_ij for KL, Σ e_i x_ij² for the
// Frobenius loss, e the documents' row weights, nil meaning 1), and -1 for
// a pseudo-document none of whose seed words occurs in x.
func (g *guide) seedShares(x *sparse.CSR, e []float64, loss nmf.Loss) []float64 {
	out := make([]float64, g.rows())
	for r := range g.topics {
		cols, _ := g.q.Row(r)
		seedCol := make(map[int32]bool, len(cols))
		for _, c := range cols {
			seedCol[c] = true
		}
		seeds, total := 0.0, 0.0
		for i := 0; i < x.Rows; i++ {
			cs, vs := x.Row(i)
			rowSeeds, rowTotal := 0.0, 0.0
			for p, c := range cs {
				v := vs[p]
				if loss == nmf.Frobenius {
					v *= v
				}
				rowTotal += v
				if seedCol[c] {
					rowSeeds += v
				}
			}
			if rowSeeds == 0 {
				continue
			}
			w := 1.0
			if e != nil {
				w = e[i]
			}
			seeds += w * rowSeeds
			total += w * rowTotal
		}
		out[r] = -1
		if seeds > 0 {
			out[r] = seeds / total
		}
	}
	return out
}

// weighByShare scales each pseudo-document's weight μ = β·M(X)/(k·M(q))
// (seedWeight) by the odds s/(1−s) of the share s its seed words hold in
// the documents that hold them (seedShares), capped at 1, and returns a
// note saying so. A pseudo-document none of whose seed words occurs in
// the documents takes the smallest share of the others; when no document
// holds any seed word the guide is dropped (nil), with a note.
//
// Why: under the KL data term a pseudo-document of weight μ costs
// μ·M(q)·KL(q̂‖ĥ_t), q̂ and ĥ_t the seed words' and the topic's word
// distributions, and the topic's documents cost about M_t·(−log(1−s_t))
// for the share s_t of the topic the seed words take; the two balance at
// s_t/(1−s_t) ≈ μ·M(q)/M_t, which seedWeight's rule (μ·M(q) = β·M(X)/k ≈
// β·M_t) sets to β. At β = 1 the seed words are asked to take half of
// their topic's mass: measured on BBC (3 seed words a class, SSNMF's
// tf-idf and KL loss), 98–100% of four seeded topics' mass went to their
// 3 seed words, the topics no longer described the documents, and B,
// fitted on those topics, read the classes out wrongly (accuracy 22–78%
// against 92–95% with the labels alone). Scaling by the odds of the
// share the data give the seed words asks the topic to hold them at
// about β times the share they hold where they occur — a scale from the
// data, not tuned on a test split.
func (g *guide) weighByShare(x *sparse.CSR, e []float64, loss nmf.Loss) (*guide, string) {
	if g == nil {
		return nil, ""
	}
	shares := g.seedShares(x, e, loss)
	least := math.Inf(1)
	for _, s := range shares {
		if s > 0 {
			least = min(least, s)
		}
	}
	if math.IsInf(least, 1) {
		return nil, "guided NMF: no document holds a seed word, so the seed words do not guide the topics"
	}
	for r, s := range shares {
		if s < 0 {
			s = least
		}
		odds := 1.0
		if s < 0.5 {
			odds = s / (1 - s)
		}
		g.mu[r] *= odds
	}
	return g, "the pseudo-documents' weights are scaled by the odds s/(1−s) of the share s their seed words hold in the documents holding them (at most 1), so that a seeded topic holds its seed words at about β times that share rather than at half its mass"
}

// unseededNames returns names with each topic that the anchors seed, but
// none of whose seed words is in the vocabulary, renamed to say that it
// is not steered — unless the topic is also a label's (labels), which
// steers it. It leaves names itself as it is.
func unseededNames(names []string, anchors []Anchor, labels, vocab []string) []string {
	col := termIndex(vocab)
	lost := map[string]bool{}
	for _, a := range anchors {
		if len(a.Words) == 0 || slices.Contains(labels, a.Topic) {
			continue
		}
		lost[a.Topic] = !anyTerm(col, a.Words)
	}
	out := slices.Clone(names)
	for t, n := range out {
		if lost[n] {
			out[t] = n + unseededSuffix
		}
	}
	return out
}
