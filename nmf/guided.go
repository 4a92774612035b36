package nmf

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// Guide holds the pseudo-documents of Guided NMF's seed terms (see the
// package documentation): one per seeded topic, holding the strengths of
// its seed terms, with its row weight μ. Fit and TSNMF build one from
// Config.Seeds; package ssnmf stacks one under its data the same way. A
// nil *Guide guides nothing: its methods return their inputs unchanged.
type Guide struct {
	// q is seeded topics × terms: row r holds the strengths of the seed
	// terms of topic topics[r]; mu[r] is its row weight.
	q      *sparse.CSR
	topics []int
	mu     []float64
}

// NewGuide returns the pseudo-documents of the seed terms of seeds (its
// exclusions are not the guide's concern) for the documents x in a fit of
// k topics: rowWeights are the documents' own weights e_i (nil: 1), loss
// the data term's, beta the seeds' weight β (Config.SeedWeight; 0 means
// 1). Each seeded topic's pseudo-document weighs μ = β·M(X)/(k·M(q))
// (see the package documentation), scaled by the odds of the share its
// seed terms hold in the documents that hold them. The notes say how
// the pseudo-documents were weighed. NewGuide returns a nil Guide when
// seeds has no seed term, and, with a note, when no document holds one:
// the seed terms then guide nothing. seeds must be valid for k topics
// over x's columns (supervision.Terms.Check).
func NewGuide(x *sparse.CSR, k int, seeds supervision.Terms, rowWeights []float64, loss Loss, beta float64) (*Guide, []string, error) {
	g, notes, err := newGuide(x, k, seeds, rowWeights, loss, beta)
	if err != nil || g == nil {
		return g, notes, err
	}
	g, note := g.weighByShare(x, rowWeights, loss)
	return g, append(notes, note), nil
}

// newGuide is NewGuide without the seed-share odds: μ = β·M(X)/(k·M(q)).
func newGuide(x *sparse.CSR, k int, seeds supervision.Terms, rowWeights []float64, loss Loss, beta float64) (*Guide, []string, error) {
	if len(seeds.Seeds) == 0 {
		return nil, nil, nil
	}
	if beta == 0 {
		beta = 1
	}
	g := &Guide{topics: seeds.SeededTopics()}
	row := make(map[int]int, len(g.topics))
	for r, t := range g.topics {
		row[t] = r
	}
	masses := make([]float64, len(g.topics))
	ts := make([]sparse.Triplet, 0, len(seeds.Seeds))
	for _, s := range seeds.Seeds {
		v := 1.0
		if s.Strength > 0 {
			v = s.Strength
		}
		r := row[s.Topic]
		ts = append(ts, sparse.Triplet{Row: r, Col: s.Term, Val: v})
		if loss == Frobenius {
			masses[r] += v * v
		} else {
			masses[r] += v
		}
	}
	q, err := sparse.FromTriplets(len(g.topics), x.Cols, ts)
	if err != nil {
		return nil, nil, fmt.Errorf("nmf: seed terms: %w", err)
	}
	g.q = q
	data := dataMass(x, rowWeights, loss)
	if data == 0 {
		return nil, nil, fmt.Errorf("nmf: the documents are all zero; seed terms need data to weigh against")
	}
	if math.IsInf(data, 0) || math.IsNaN(data) {
		return nil, nil, fmt.Errorf("nmf: the documents' entries are so large that their total (the mass the seed terms are weighed against) overflows the float64 range; rescale the data, for example with tf-idf or L2-normalised rows")
	}
	g.mu = make([]float64, len(g.topics))
	for r, m := range masses {
		mu := seedWeight(beta, data, m, k)
		if !(mu > 0) || math.IsInf(mu, 0) {
			return nil, nil, &SeedWeightError{Topic: g.topics[r], Weight: mu}
		}
		g.mu[r] = mu
	}
	note := fmt.Sprintf("guided NMF: %d seeded topics, each fitting a pseudo-document of its seed words with weight β·mass(X)/(K·mass(seeds)), β = %g", len(g.topics), beta)
	return g, []string{note}, nil
}

// SeedWeightError reports a topic whose seed terms get a weight μ the fit
// cannot use (zero, infinite or NaN): strengths and data at the edges of
// the float64 range.
type SeedWeightError struct {
	// Topic is the seeded topic and Weight its pseudo-document's μ.
	Topic  int
	Weight float64
}

func (e *SeedWeightError) Error() string {
	return fmt.Sprintf("nmf: topic %d: its seed terms' strengths and the documents' scale give its seed terms the weight %g, which the fit cannot use; use moderate strengths and rescale the data", e.Topic, e.Weight)
}

// seedWeight returns the row weight μ of a seed pseudo-document q (a
// topic's seed terms, each with strength 1 unless its Seed gives one) in
// a model of k topics: μ = β·M(X)/(k·M(q)), where β is Config.SeedWeight
// (0 means 1) and M the data term's mass — Σ_i e_i‖x_i‖² for the
// Frobenius loss, Σ_i e_i Σ_j x_ij for KL, e_i being the documents' own
// row weights (1 unless given). At β = 1 a pseudo-document then weighs in
// the objective what an average topic's share of the corpus weighs: a
// topic's seed terms count as much as the documents of a topic together,
// whatever the corpus's size, document lengths or term weighting, since
// both sides scale alike (the Frobenius loss quadratically, KL linearly).
// The rule comes from this balance, not from tuning on a data set.
func seedWeight(beta, data, seeds float64, k int) float64 {
	return beta * data / (float64(k) * seeds)
}

// dataMass returns Σ_i e_i‖x_i‖² (Frobenius) or Σ_i e_i Σ_j x_ij (KL),
// e nil meaning 1.
func dataMass(x *sparse.CSR, e []float64, loss Loss) float64 {
	total := 0.0
	for i := 0; i < x.Rows; i++ {
		_, vals := x.Row(i)
		s := 0.0
		for _, v := range vals {
			if loss == Frobenius {
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

// Topics returns each pseudo-document's topic, in the order of the rows
// that Stack puts under the documents (nil for a nil Guide).
func (g *Guide) Topics() []int {
	if g == nil {
		return nil
	}
	return slices.Clone(g.topics)
}

// rows returns the number of pseudo-documents (0 for a nil guide).
func (g *Guide) rows() int {
	if g == nil {
		return 0
	}
	return len(g.topics)
}

// Stack returns a fit's inputs with the pseudo-documents under the
// documents x: x stacked with the pseudo-documents, the row weights
// (rowWeights for the documents, nil meaning 1; μ for the
// pseudo-documents), and a W mask over k topics (wmask for the
// documents, nil meaning every topic allowed; its own topic alone for a
// pseudo-document, so that the seeded topic is the seed's topic).
func (g *Guide) Stack(x *sparse.CSR, rowWeights []float64, wmask *mat.Dense, k int) (*sparse.CSR, []float64, *mat.Dense, error) {
	if g == nil {
		return x, rowWeights, wmask, nil
	}
	xs, err := sparse.VStack(x, g.q)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("nmf: seed terms: %w", err)
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

// StackW returns the starting W of a fit whose documents start from w0
// (documents × k): w0's rows, then one row per pseudo-document, zero but
// at its own topic, where it holds the pseudo-document's best weight for
// that topic's starting row of h0 (k × terms; nil: 1): ⟨q, h⟩/‖h‖² under
// the Frobenius loss, Σq/Σh under KL, the value one multiplicative update
// of the row reaches from any positive start. It returns w0 itself for a
// nil Guide or a nil w0. It is how a seeded fit starts from given factors
// (a warm start from an earlier fit).
func (g *Guide) StackW(w0, h0 *mat.Dense, loss Loss) *mat.Dense {
	if g == nil || w0 == nil {
		return w0
	}
	n, k := w0.Dims()
	out := mat.NewDense(n+g.rows(), k, nil)
	out.Slice(0, n, 0, k).(*mat.Dense).Copy(w0)
	for r, t := range g.topics {
		v := 1.0
		if h0 != nil {
			cols, vals := g.q.Row(r)
			h := h0.RawRowView(t)
			num, den := 0.0, 0.0
			if loss == Frobenius {
				for p, c := range cols {
					num += vals[p] * h[c]
				}
				for _, x := range h {
					den += x * x
				}
			} else {
				for _, x := range vals {
					num += x
				}
				for _, x := range h {
					den += x
				}
			}
			if num > 0 && den > 0 && !math.IsInf(num/den, 0) {
				v = num / den
			}
		}
		out.Set(n+r, t, v)
	}
	return out
}

// labels returns the n documents' label lists (idx, nil meaning none)
// with each pseudo-document's appended: its topic (TS-NMF's labels are
// its first topics).
func (g *Guide) labels(idx [][]int, n int) [][]int {
	if g == nil {
		return idx
	}
	out := make([][]int, n, n+g.rows())
	copy(out, idx)
	for _, t := range g.topics {
		out = append(out, []int{t})
	}
	return out
}

// StartLabels returns, for the documents x and the pseudo-documents under
// them, the topics whose seeds each holds — a document every seeded
// topic one of whose seed terms it contains, a pseudo-document its own
// topic — for InitLabelMean: a seeded topic then starts as the mean of
// the documents with its seed terms, where the seeds pull it, rather than
// as whichever topic the unsupervised start put in its place, which weak
// seeds cannot move and strong ones empty of the documents (another topic
// then takes them).
func (g *Guide) StartLabels(x *sparse.CSR) [][]int {
	if g == nil {
		return nil
	}
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

// Strip returns a copy of W's rows of the documents, without the
// pseudo-documents' (w itself for a nil Guide or a nil w).
func (g *Guide) Strip(w *mat.Dense) *mat.Dense {
	if g == nil || w == nil {
		return w
	}
	r, k := w.Dims()
	return mat.DenseCopyOf(w.Slice(0, r-g.rows(), 0, k))
}

// seedShares returns, for each pseudo-document r, the share s_r that its
// seed terms hold of the mass of the documents holding at least one of
// them (masses as dataMass's: Σ e_i x_ij for KL, Σ e_i x_ij² for the
// Frobenius loss, e the documents' row weights, nil meaning 1), and -1 for
// a pseudo-document none of whose seed terms occurs in x.
func (g *Guide) seedShares(x *sparse.CSR, e []float64, loss Loss) []float64 {
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
				if loss == Frobenius {
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
// (seedWeight) by the odds s/(1−s) of the share s its seed terms hold in
// the documents that hold them (seedShares), capped at 1, and returns a
// note saying so. A pseudo-document none of whose seed terms occurs in
// the documents takes the smallest share of the others; when no document
// holds any seed term the guide is dropped (nil), with a note.
//
// Why: under the KL data term a pseudo-document of weight μ costs
// μ·M(q)·KL(q̂‖ĥ_t), q̂ and ĥ_t the seed terms' and the topic's term
// distributions, and the topic's documents cost about M_t·(−log(1−s_t))
// for the share s_t of the topic the seed terms take; the two balance at
// s_t/(1−s_t) ≈ μ·M(q)/M_t, which seedWeight's rule (μ·M(q) = β·M(X)/k ≈
// β·M_t) sets to β. At β = 1 the seed terms are asked to take half of
// their topic's mass: measured on BBC (3 seed words a class, SSNMF's
// tf-idf and KL loss), 98–100% of four seeded topics' mass went to their
// 3 seed words, the topics no longer described the documents, and B,
// fitted on those topics, read the classes out wrongly (accuracy 22–78%
// against 92–95% with the labels alone). Scaling by the odds of the
// share the data give the seed terms asks the topic to hold them at
// about β times the share they hold where they occur — a scale from the
// data, not tuned on a test split.
func (g *Guide) weighByShare(x *sparse.CSR, e []float64, loss Loss) (*Guide, string) {
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

// seededStartNote is the note of Fit's seeded start.
const seededStartNote = "seeded start: a seeded topic starts as the mean of the documents holding its seed words (label-mean), the others random-acol"

// checkSeeds validates cfg.Seeds and cfg.SeedWeight for m terms and
// returns cfg with the exclusions merged into HMask's zeros (a copy) and
// Seeds' exclusions cleared; the seed terms stay for the guide.
func checkSeeds(cfg Config, m int) (Config, error) {
	if v := cfg.SeedWeight; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return cfg, fmt.Errorf("nmf: SeedWeight = %v, want a finite number ≥ 0 (0 for 1)", v)
	}
	if cfg.Seeds.Empty() || cfg.K < 1 {
		return cfg, nil // checkConfig reports K
	}
	if err := cfg.Seeds.Check(cfg.K, m); err != nil {
		return cfg, fmt.Errorf("nmf: Seeds: %w", err)
	}
	if ex := cfg.Seeds.Mask(cfg.K, m); ex != nil {
		if cfg.HMask != nil {
			if err := checkMask("HMask", cfg.HMask, cfg.K, m); err != nil {
				return cfg, err
			}
			ex.MulElem(ex, cfg.HMask)
		}
		cfg.HMask = ex
	}
	cfg.Seeds.Exclude = nil
	return cfg, nil
}

// guided validates cfg.Seeds for Fit and, with seed terms, stacks their
// pseudo-documents under d: it returns the data and configuration to fit,
// the guide (nil without one) and its notes.
func guided(d *data, cfg Config) (*data, Config, *Guide, []string, error) {
	cfg, err := checkSeeds(cfg, d.m)
	if err != nil || len(cfg.Seeds.Seeds) == 0 || cfg.K < 1 {
		return d, cfg, nil, nil, err
	}
	switch {
	case cfg.FixW || cfg.FixH || cfg.Fixed != nil:
		return nil, cfg, nil, nil, fmt.Errorf("nmf: seed terms need both factors updated (FixW, FixH or a fixed H is set)")
	case cfg.W0 != nil && cfg.H0 == nil:
		return nil, cfg, nil, nil, fmt.Errorf("nmf: seed terms with W0 need H0 too: the pseudo-documents' rows of W start from H0")
	case cfg.Init == InitCustom && (cfg.W0 == nil || cfg.H0 == nil):
		return nil, cfg, nil, nil, fmt.Errorf("nmf: init custom needs both W0 and H0")
	case cfg.W0 != nil:
		if err := checkFactor("W0", cfg.W0, d.n, cfg.K); err != nil {
			return nil, cfg, nil, nil, err
		}
		if err := checkFactor("H0", cfg.H0, cfg.K, d.m); err != nil {
			return nil, cfg, nil, nil, err
		}
	case cfg.Weights != nil:
		return nil, cfg, nil, nil, fmt.Errorf("nmf: seed terms with dense entry Weights are not supported (use RowWeights)")
	case len(cfg.Coupled) > 0:
		return nil, cfg, nil, nil, fmt.Errorf("nmf: seed terms with coupled terms are not supported (ssnmf.Config.Seeds stacks the label term's rows too)")
	case cfg.RowWeights != nil && len(cfg.RowWeights) != d.n:
		return nil, cfg, nil, nil, fmt.Errorf("nmf: %d row weights for %d documents", len(cfg.RowWeights), d.n)
	case cfg.Labels != nil && len(cfg.Labels) != d.n:
		return nil, cfg, nil, nil, fmt.Errorf("nmf: %d label lists for %d documents", len(cfg.Labels), d.n)
	}
	if cfg.WMask != nil {
		if err := checkMask("WMask", cfg.WMask, d.n, cfg.K); err != nil {
			return nil, cfg, nil, nil, err
		}
	}
	x := d.sp
	if x == nil {
		x = sparse.FromDense(d.dense)
	}
	g, notes, err := NewGuide(x, cfg.K, cfg.Seeds, cfg.RowWeights, cfg.Loss, cfg.SeedWeight)
	if note := holdSeeds(&cfg); err == nil && note != "" {
		notes = append(notes, note)
	}
	cfg.Seeds.Seeds = nil
	if err != nil || g == nil {
		return d, cfg, nil, notes, err
	}
	xs, rw, wm, err := g.Stack(x, cfg.RowWeights, cfg.WMask, cfg.K)
	if err != nil {
		return nil, cfg, nil, nil, err
	}
	cfg.RowWeights, cfg.WMask = rw, wm
	cfg.W0 = g.StackW(cfg.W0, cfg.H0, cfg.Loss)
	switch {
	case cfg.W0 != nil:
		// The factors are given: no initialisation runs, but the
		// pseudo-documents' labels keep Labels' shape.
		cfg.Labels = g.labels(cfg.Labels, d.n)
	case cfg.Init == InitAuto:
		cfg.Init, cfg.Labels = InitLabelMean, g.StartLabels(x)
		notes = append(notes, seededStartNote)
	case cfg.Labels != nil:
		cfg.Labels = g.labels(cfg.Labels, d.n)
	}
	ds, err := checkData(xs)
	if err != nil {
		return nil, cfg, nil, nil, err
	}
	return ds, cfg, g, notes, nil
}

// finish makes a guided fit's result one of the documents: W without the
// pseudo-documents' rows, and the seeded topics.
func (g *Guide) finish(res *Model) {
	if g == nil || res == nil {
		return
	}
	res.W = g.Strip(res.W)
	res.Seeded = g.Topics()
}
