package nmf

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
)

// Out-of-core training (FitBlocks, TSNMFBlocks, Trainer) runs the sparse
// engine's updates over a corpus read in blocks of documents. W stays in
// the blocks.Store, one vector per block and generation; H, its Gram matrix
// and the statistics of a pass (the H update's numerator Xᵀdiag(e)W, m × k)
// are all that stays in memory. Each iteration is one pass: a block's rows
// of W are updated from H, then the block's share of H's numerator is
// added, from the block's transpose, with the new rows. The iterates are
// those of Fit with the same configuration, up to the order of the sums
// over blocks.

// Trainer phases: the passes of an out-of-core fit.
const (
	phaseScan  = iota // sums and counts of X, labels per topic
	phaseInit         // W's start, H's starting sums, W's Gram and sums
	phaseStart        // Frobenius: the objective at the start
	phaseIter         // one iteration
	phaseFinal        // KL: the objective of the final state
	phaseDone
)

// Trainer is an out-of-core NMF or TS-NMF fit (a blocks.Trainer): see
// FitBlocks. Build one with NewTrainer or NewTSNMFTrainer, drive it with
// blocks.Run (or a distributed runner), then read Model, and each block's
// rows of W with W.
type Trainer struct {
	cfg   Config
	n, m  int
	kp    int
	sup   *labelSet // TS-NMF's labels, or nil
	hmask []float64 // HMask row-major (k × m), or nil
	h32   []float32 // a float32 copy of the state's Hᵀ for the W update's gathers, or nil
	tr    *tracker
	t0    time.Time
	s     trainerState
}

// labelSet is what TS-NMF adds to a Trainer: the label names, their
// topics, and the weighting.
type labelSet struct {
	Names     []string
	Weighting Weighting
	index     map[string]int
}

// trainerState is the Trainer's state between passes: everything a
// worker needs, and what a checkpoint keeps.
type trainerState struct {
	Phase int
	Gen   int // W's current generation: state "w<Gen>"

	Mean, Fill, XNorm2 float64
	NNZ                int     // X's stored entries (Config.Gathers decides by them)
	LabeledWeight      float64 // TS-NMF: a labeled document's error weight, 0 for none
	Labeled            int
	TopicDocs          []int    // labeled documents per topic
	Drawn              [][2]int // (topic, row) of each row averaged into H's start
	Rnd                []byte   // the stream after H's draws: W's draws follow

	Ht, GH, GW, CsW, RsH blocks.Floats // Hᵀ (m × kp), HHᵀ, Wᵀdiag(e)W, colsum(diag(e)W), rowsum(H)

	Hist      blocks.Floats
	Iters     int
	Converged bool
}

// wire is what MarshalBinary writes.
type wire struct {
	K, Loss, Init, AcolRows, MaxIter int
	Gathers                          int
	Seed                             uint64
	Tol                              float64
	N, M                             int
	HMask                            blocks.Floats
	Sup                              *labelSet
	S                                trainerState
}

var _ blocks.Trainer = (*Trainer)(nil)

// NewTrainer returns an out-of-core NMF fit of a docs × terms corpus with
// the configuration cfg. Out of core, the loss may be Frobenius or KL and
// the start InitRandomAcol (what InitAuto means here: NNDSVD would need an
// SVD of X, and InitRandom's normal draws cannot be split among blocks);
// HMask and exclusions (Seeds.Exclude) are allowed. Seed terms, W0, H0, WMask, RowWeights, Weights, Labels, fixed
// factors, coupled terms, Order, AddEpsilon and DataWeight are in-memory
// options and are refused with an error that names them. Gathers is as in
// memory for the W update (float32 rows of Hᵀ from AutoFloat32NNZ stored
// entries of the whole X with GathersAuto); H's numerator is a float64
// pass over each block.
func NewTrainer(docs, terms int, cfg Config) (*Trainer, error) {
	return newTrainer(docs, terms, cfg, nil)
}

func newTrainer(docs, terms int, cfg Config, sup *labelSet) (*Trainer, error) {
	if docs < 1 || terms < 1 {
		return nil, fmt.Errorf("nmf: out of core: a %d×%d corpus is empty", docs, terms)
	}
	switch {
	case cfg.W0 != nil || cfg.H0 != nil || cfg.Init == InitCustom:
		return nil, fmt.Errorf("nmf: out of core: starting factors (W0, H0) are not supported; the start is drawn (init random-acol)")
	case cfg.WMask != nil:
		return nil, fmt.Errorf("nmf: out of core: WMask (documents × topics) is not supported; TS-NMF's label mask comes from the blocks' labels")
	case cfg.RowWeights != nil || cfg.Weights != nil:
		return nil, fmt.Errorf("nmf: out of core: RowWeights and Weights are not supported")
	case cfg.Labels != nil:
		return nil, fmt.Errorf("nmf: out of core: Labels are read from the blocks (TSNMFBlocks), not given")
	case cfg.FixW || cfg.FixH || cfg.Fixed != nil:
		return nil, fmt.Errorf("nmf: out of core: fixed factors are not supported (transform in memory, block by block)")
	case len(cfg.Coupled) > 0 || cfg.AddEpsilon != 0 || cfg.Order != WFirst || (cfg.DataWeight != 0 && cfg.DataWeight != 1):
		return nil, fmt.Errorf("nmf: out of core: coupled terms, AddEpsilon, Order and DataWeight are not supported")
	case len(cfg.Seeds.Seeds) > 0:
		return nil, fmt.Errorf("nmf: out of core: seed terms (Guided NMF) are not supported; exclusions are (Seeds.Exclude)")
	}
	var err error
	if cfg, err = checkSeeds(cfg, terms); err != nil {
		return nil, err
	}
	switch cfg.Init {
	case InitAuto:
		cfg.Init = InitRandomAcol
		if sup != nil {
			cfg.Init = InitLabelMean
		}
	case InitRandomAcol:
	case InitLabelMean:
		if sup == nil {
			return nil, fmt.Errorf("nmf: out of core: init label-mean needs labels (TSNMFBlocks)")
		}
	default:
		return nil, fmt.Errorf("nmf: out of core: init %v is not supported (use random-acol: NNDSVD needs an SVD of X, and random's normal draws cannot be split among blocks)", cfg.Init)
	}
	k := cfg.K
	// checkConfig validates the rest against the shape alone.
	checked, err := checkConfig(cfg, &data{n: docs, m: terms})
	if err != nil {
		return nil, err
	}
	t := &Trainer{cfg: checked, n: docs, m: terms, kp: kernels.Pad(k), sup: sup, t0: time.Now()}
	if cfg.HMask != nil {
		t.hmask = copyRaw(cfg.HMask)
	}
	t.tr = t.newTracker()
	return t, nil
}

func (t *Trainer) newTracker() *tracker {
	stop := t.cfg.Stop
	if stop == nil {
		stop = RelativeDecrease{t.cfg.Tol}
	}
	return &tracker{maxIter: t.cfg.MaxIter, stop: stop, report: t.cfg.Progress, t0: t.t0}
}

// wName is the store name of W's generation g.
func wName(g int) string { return fmt.Sprintf("w%d", g) }

// StatsLen returns the length of the current pass's statistics.
func (t *Trainer) StatsLen() int {
	k, kp, m := t.cfg.K, t.kp, t.m
	switch t.s.Phase {
	case phaseScan:
		return 5 + k
	case phaseInit:
		return k*m + kp + kp*kp
	case phaseStart, phaseFinal:
		return 1
	case phaseIter:
		if t.cfg.Loss == Frobenius {
			return m*kp + kp*kp
		}
		return m*kp + kp + 1
	}
	return 0
}

// topics returns document r's label topics (deduplicated, in order), or
// an error naming a label outside the label names.
func (t *Trainer) topics(b *blocks.Block, r int) ([]int, error) {
	if t.sup == nil || b.Labels == nil {
		return nil, nil
	}
	var out []int
	for _, l := range b.Labels[r] {
		q, ok := t.sup.index[l]
		if !ok {
			return nil, fmt.Errorf("nmf: document %d has the label %q, which is not among the %d label names", b.First+r, l, len(t.sup.Names))
		}
		dup := false
		for _, u := range out {
			dup = dup || u == q
		}
		if !dup {
			out = append(out, q)
		}
	}
	return out, nil
}

// rowWeights returns the block's error weights e (nil: all 1).
func (t *Trainer) rowWeights(b *blocks.Block) []float64 {
	if t.s.LabeledWeight == 0 {
		return nil
	}
	e := make([]float64, b.X.Rows)
	for r := range e {
		e[r] = 1
		if b.Labels != nil && len(b.Labels[r]) > 0 {
			e[r] = t.s.LabeledWeight
		}
	}
	return e
}

// Map runs the current pass on block i.
func (t *Trainer) Map(ctx context.Context, i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	x := b.X
	if x == nil || x.Cols != t.m {
		return fmt.Errorf("nmf: block %d is not a matrix of %d columns", i, t.m)
	}
	if b.Labels != nil && len(b.Labels) != x.Rows {
		return fmt.Errorf("nmf: block %d has %d label lists for %d documents", i, len(b.Labels), x.Rows)
	}
	if len(acc) != t.StatsLen() {
		return fmt.Errorf("nmf: block %d: %d statistics, want %d", i, len(acc), t.StatsLen())
	}
	k, kp := t.cfg.K, t.kp
	switch t.s.Phase {
	case phaseScan:
		return t.mapScan(b, acc)
	case phaseInit:
		return t.mapInit(i, b, st, acc)
	}
	e := t.rowWeights(b)
	w, err := t.loadW(st, i, x.Rows)
	if err != nil {
		return err
	}
	perRow := 1
	if t.cfg.Loss == Frobenius {
		perRow = kp
	}
	prefix := rowPrefix(x, perRow)
	gd := guard{}
	switch t.s.Phase {
	case phaseStart:
		ws := newWorkspace(k, x.MaxRowNNZ())
		acc[0] += frobCross(ws, w, x, x.Data, t.s.Ht, e, prefix)
		return nil
	case phaseFinal:
		ws := newWorkspace(k, x.MaxRowNNZ())
		acc[0] += klObjectiveNZ(ws, w, x, t.s.Ht, e, prefix, gd)
		return nil
	}
	// An iteration: W's rows, then the block's share of H's numerator:
	// under the Frobenius loss a tiled pass over the block (no transpose,
	// sparse.TMulDenseAdd), under KL from its transpose, term by term;
	// with the error weights either way.
	num := acc[:t.m*kp]
	if t.cfg.Loss == Frobenius {
		ws := newWorkspace(k, x.MaxRowNNZ())
		frobStepG(ws, w, x, x.Data, t.s.Ht, t.h32, nil, t.s.GH, e, prefix, gd, nil)
		g := make([]float64, kp*kp)
		ws.gramTo(g)
		floats.Add(acc[t.m*kp:], g)
		// The error weights scale X's rows as the kernel goes (the bits of
		// the weighted copy in memory, without one per block and pass).
		if err := sparse.TMulDenseAdd(mat.NewDense(t.m, kp, num), x, e, mat.NewDense(x.Rows, kp, w)); err != nil {
			return fmt.Errorf("nmf: block %d: %w", i, err)
		}
		return t.saveW(st, 1-t.s.Gen, i, w)
	}
	xt := x.T()
	if e != nil {
		for p, r := range xt.Indices {
			xt.Data[p] *= e[r]
		}
	}
	ws := newWorkspace(k, max(x.MaxRowNNZ(), xt.MaxRowNNZ()))
	out := make([]float64, len(w))
	nz := klStep(ws, w, out, x, x.Data, t.s.Ht, t.s.RsH, minNormal, true, e, nil, e, prefix, gd, nil)
	w = out
	cs := acc[t.m*kp : t.m*kp+kp]
	for _, s := range ws.ws {
		floats.Add(cs, s.col)
	}
	acc[t.m*kp+kp] += nz
	// H's numerator with the new W and the current H, as klH.
	ht := t.s.Ht
	parallel.ForWeighted(rowPrefix(xt, 1), minWeight(kp), func(wi, lo, hi int) {
		s := ws.ws[wi]
		for j := lo; j < hi; j++ {
			p0, p1 := xt.Indptr[j], xt.Indptr[j+1]
			if p0 == p1 {
				continue
			}
			idx := xt.Indices[p0:p1]
			ratio := s.ratio[:p1-p0]
			kernels.DotsGather(ratio, ht[j*kp:(j+1)*kp], idx, w, kp)
			for q, d := range ratio {
				if x := xt.Data[p0+q]; x == 0 {
					ratio[q] = 0
				} else {
					ratio[q] = x / gd.div(d)
				}
			}
			kernels.GatherSum(num[j*kp:(j+1)*kp], ratio, idx, w, kp, true)
		}
	})
	return t.saveW(st, 1-t.s.Gen, i, w)
}

// loadW reads block i's rows of W (current generation), padded to kp
// columns.
func (t *Trainer) loadW(st blocks.Store, i, rows int) ([]float64, error) {
	k, kp := t.cfg.K, t.kp
	buf := make([]float64, rows*k)
	if err := st.Load(wName(t.s.Gen), i, buf); err != nil {
		return nil, fmt.Errorf("nmf: W of block %d: %w", i, err)
	}
	if k == kp {
		return buf, nil
	}
	w := make([]float64, rows*kp)
	for r := 0; r < rows; r++ {
		copy(w[r*kp:r*kp+k], buf[r*k:(r+1)*k])
	}
	return w, nil
}

// saveW saves block i's rows of W (padded to kp columns) as generation g,
// rows × K.
func (t *Trainer) saveW(st blocks.Store, g, i int, w []float64) error {
	k, kp := t.cfg.K, t.kp
	buf := w
	if k != kp {
		rows := len(w) / kp
		buf = make([]float64, rows*k)
		for r := 0; r < rows; r++ {
			copy(buf[r*k:(r+1)*k], w[r*kp:r*kp+k])
		}
	}
	if err := st.Save(wName(g), i, buf); err != nil {
		return fmt.Errorf("nmf: W of block %d: %w", i, err)
	}
	return nil
}

// mapScan checks the block's entries and adds Σx, Σ‖x‖² of labeled and
// unlabeled documents, the labeled count and the labeled documents per
// topic.
func (t *Trainer) mapScan(b *blocks.Block, acc []float64) error {
	x := b.X
	for r := 0; r < x.Rows; r++ {
		cols, vals := x.Row(r)
		s, s2 := 0.0, 0.0
		for q, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > maxEntry {
				return fmt.Errorf("nmf: X has the entry %g at row %d, column %d (want finite, non-negative and at most %g)", v, b.First+r, cols[q], maxEntry)
			}
			s += v
			s2 += v * v
		}
		acc[0] += s
		acc[4+t.cfg.K] += float64(len(vals))
		tops, err := t.topics(b, r)
		if err != nil {
			return err
		}
		if len(tops) > 0 {
			acc[1] += s2
			acc[3]++
			for _, q := range tops {
				acc[4+q]++
			}
		} else {
			acc[2] += s2
		}
	}
	return nil
}

// mapInit draws the block's rows of W (the stream after H's draws,
// advanced to the block's first entry), applies the label mask, saves
// them, and adds the rows that H's start averages, colsum(diag(e)W) and
// Wᵀdiag(e)W.
func (t *Trainer) mapInit(i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	x := b.X
	k, kp, m := t.cfg.K, t.kp, t.m
	var rnd rng.Compat
	if err := rnd.UnmarshalBinary(t.s.Rnd); err != nil {
		return err
	}
	rnd.Advance(uint64(b.First) * uint64(k))
	w := make([]float64, x.Rows*kp)
	for r := 0; r < x.Rows; r++ {
		tops, err := t.topics(b, r)
		if err != nil {
			return err
		}
		row := w[r*kp : r*kp+k]
		for q := range row {
			row[q] = rnd.Float64()
		}
		for q, v := range row {
			switch {
			case len(tops) > 0 && !slices.Contains(tops, q):
				row[q] = 0
			case v == 0 && t.s.Fill != 0:
				row[q] = t.s.Fill
			}
		}
		// H's starting sums: the drawn rows, and the labeled documents of
		// the topics that have some (label-mean).
		cols, vals := x.Row(r)
		doc := b.First + r
		for _, d := range t.s.Drawn {
			if d[1] == doc {
				h := acc[d[0]*m : (d[0]+1)*m]
				for q, j := range cols {
					h[j] += vals[q]
				}
			}
		}
		if t.cfg.Init == InitLabelMean {
			for _, q := range tops {
				h := acc[q*m : (q+1)*m]
				for p, j := range cols {
					h[j] += vals[p]
				}
			}
		}
	}
	e := t.rowWeights(b)
	cs := make([]float64, kp)
	colSums(cs, w, e, kp)
	floats.Add(acc[k*m:k*m+kp], cs)
	ws := newWorkspace(k, 0)
	g := make([]float64, kp*kp)
	gramOf(ws, g, w, e, uniformPrefix(x.Rows, kp))
	floats.Add(acc[k*m+kp:], g)
	return t.saveW(st, t.s.Gen, i, w)
}

// Reduce ends the current pass with the summed statistics.
func (t *Trainer) Reduce(ctx context.Context, sum []float64) (bool, error) {
	if len(sum) != t.StatsLen() {
		return false, fmt.Errorf("nmf: %d summed statistics, want %d", len(sum), t.StatsLen())
	}
	k, kp, m, n := t.cfg.K, t.kp, t.m, t.n
	s := &t.s
	switch s.Phase {
	case phaseScan:
		if sum[0] == 0 {
			return false, fmt.Errorf("nmf: X is all zero")
		}
		s.Mean = sum[0] / (float64(n) * float64(m))
		s.Fill = Epsilon * math.Sqrt(s.Mean/float64(k))
		s.Labeled = int(sum[3])
		s.TopicDocs = make([]int, k)
		for q := range s.TopicDocs {
			s.TopicDocs[q] = int(sum[4+q])
		}
		s.XNorm2 = sum[1] + sum[2]
		s.NNZ = int(sum[4+k])
		if t.sup != nil && t.sup.Weighting == InverseSupervisionRate && s.Labeled > 0 && s.Labeled < n {
			s.LabeledWeight = float64(n) / float64(s.Labeled)
			s.XNorm2 = s.LabeledWeight*sum[1] + sum[2]
		}
		// H's random rows, topic by topic as initAcol draws them.
		rnd := newRand(t.cfg.Seed)
		s.Drawn = nil
		for q := 0; q < k; q++ {
			if t.cfg.Init == InitLabelMean && s.TopicDocs[q] > 0 {
				continue
			}
			for p := 0; p < t.cfg.AcolRows; p++ {
				s.Drawn = append(s.Drawn, [2]int{q, rnd.IntN(n)})
			}
		}
		var err error
		if s.Rnd, err = rnd.MarshalBinary(); err != nil {
			return false, err
		}
		s.Phase = phaseInit
	case phaseInit:
		h := sum[:k*m]
		for q := 0; q < k; q++ {
			c := t.cfg.AcolRows
			if t.cfg.Init == InitLabelMean && s.TopicDocs[q] > 0 {
				c = s.TopicDocs[q]
			}
			floats.Scale(1/float64(c), h[q*m:(q+1)*m])
		}
		var mask *mat.Dense
		if t.hmask != nil {
			mask = mat.NewDense(k, m, t.hmask)
		}
		prepareFactor(h, mask, s.Fill)
		s.Ht = make([]float64, m*kp)
		for q := 0; q < k; q++ {
			for j := 0; j < m; j++ {
				s.Ht[j*kp+q] = h[q*m+j]
			}
		}
		s.CsW = append([]float64(nil), sum[k*m:k*m+kp]...)
		s.GW = append([]float64(nil), sum[k*m+kp:]...)
		s.RsH = make([]float64, kp)
		colSums(s.RsH, s.Ht, nil, kp)
		s.GH = make([]float64, kp*kp)
		gramOf(newWorkspace(k, 0), s.GH, s.Ht, nil, uniformPrefix(m, kp))
		s.Phase = phaseStart
		if t.cfg.Loss == KullbackLeibler {
			s.Phase = phaseIter
		}
		t.tr.hist, t.tr.iters = nil, 0
	case phaseStart:
		obj := 0.5 * (s.XNorm2 - 2*sum[0] + floats.Dot(s.GW, s.GH))
		if t.tr.start(obj) {
			return true, t.finish()
		}
		s.Phase = phaseIter
		if t.tr.done() {
			return true, t.finish()
		}
	case phaseIter:
		num := sum[:m*kp]
		ws := newWorkspace(k, 0)
		if t.cfg.Loss == Frobenius {
			copy(s.GW, sum[m*kp:])
			cross := frobStep(ws, s.Ht, nil, nil, nil, num, s.GW, nil, uniformPrefix(m, kp), guard{}, nil)
			ws.gramTo(s.GH)
			s.Gen = 1 - s.Gen
			obj := 0.5 * (s.XNorm2 - 2*cross + floats.Dot(s.GW, s.GH))
			if t.tr.step(obj) || t.tr.done() {
				return true, t.finish()
			}
			break
		}
		csNew := sum[m*kp : m*kp+kp]
		obj := sum[m*kp+kp] + floats.Dot(s.CsW, s.RsH)
		if t.tr.observe(obj) {
			return true, t.finish() // the state observed: W's generation unchanged
		}
		if err := ctx.Err(); err != nil {
			return false, err // cancelled from Progress: keep the state reported
		}
		floor := guard{}.hFloor(KullbackLeibler)
		for j := 0; j < m; j++ {
			hj, nj := s.Ht[j*kp:(j+1)*kp], num[j*kp:(j+1)*kp]
			for q, a := range hj {
				v := 0.0
				if a != 0 {
					v = a * (nj[q] / guard{}.div(csNew[q]))
				}
				if v < floor {
					v = 0
				}
				hj[q] = v
			}
		}
		colSums(s.RsH, s.Ht, nil, kp)
		copy(s.CsW, csNew)
		s.Gen = 1 - s.Gen
		t.tr.advance()
		if t.tr.done() {
			s.Phase = phaseFinal
		}
	case phaseFinal:
		t.tr.observe(sum[0] + floats.Dot(s.CsW, s.RsH))
		return true, t.finish()
	default:
		return true, nil
	}
	t.refreshH32() // Hᵀ may have changed: the next pass gathers the new one
	return false, nil
}

// finish ends the fit, returning the tracker's error if the objective
// stopped being finite.
func (t *Trainer) finish() error {
	t.s.Phase = phaseDone
	t.s.Hist, t.s.Iters, t.s.Converged = t.tr.hist, t.tr.iters, t.tr.converged
	return t.tr.err
}

// Model returns the fitted H with the objective history; W stays in the
// store, read block by block with W. Before the start is drawn it is an
// error. Read before the fit has ended (after a cancellation), it is the
// model of the last completed pass, with the status progress.Cancelled.
func (t *Trainer) Model() (*Model, error) {
	if t.s.Ht == nil {
		return nil, fmt.Errorf("nmf: out of core: no pass has completed the start yet")
	}
	k, kp, m := t.cfg.K, t.kp, t.m
	h := mat.NewDense(k, m, nil)
	raw := h.RawMatrix()
	for j := 0; j < m; j++ {
		for q := 0; q < k; q++ {
			raw.Data[q*raw.Stride+j] = t.s.Ht[j*kp+q]
		}
	}
	return &Model{
		H:           h,
		Loss:        t.cfg.Loss,
		Objective:   append([]float64(nil), t.tr.hist...),
		Iterations:  t.tr.iters,
		Convergence: t.tr.convergence(t.s.Phase != phaseDone),
		Init:        t.cfg.Init,
		Elapsed:     time.Since(t.t0),
		Terms:       []float64{t.lastObjective()},
		WName:       wName(t.s.Gen),
	}, nil
}

func (t *Trainer) lastObjective() float64 {
	if len(t.tr.hist) == 0 {
		return math.NaN()
	}
	return t.tr.hist[len(t.tr.hist)-1]
}

// W returns block i's rows of the fitted W (rows × K) from the store.
func (t *Trainer) W(st blocks.Store, i, rows int) (*mat.Dense, error) {
	buf := make([]float64, rows*t.cfg.K)
	if err := st.Load(wName(t.s.Gen), i, buf); err != nil {
		return nil, fmt.Errorf("nmf: W of block %d: %w", i, err)
	}
	return mat.NewDense(rows, t.cfg.K, buf), nil
}

// MarshalBinary returns the Trainer's configuration and state (without
// Stop and Progress, which only the driver uses).
func (t *Trainer) MarshalBinary() ([]byte, error) {
	t.s.Hist, t.s.Iters, t.s.Converged = t.tr.hist, t.tr.iters, t.tr.converged
	c := t.cfg
	w := wire{K: c.K, Loss: int(c.Loss), Init: int(c.Init), AcolRows: c.AcolRows, MaxIter: c.MaxIter, Gathers: int(c.Gathers),
		Seed: c.Seed, Tol: c.Tol, N: t.n, M: t.m, HMask: t.hmask, Sup: t.sup, S: t.s}
	b, err := blocks.MarshalState(&w, w.arrays())
	if err != nil {
		return nil, fmt.Errorf("nmf: encoding the trainer: %w", err)
	}
	return b, nil
}

// arrays lists the state's large arrays, which blocks.MarshalState writes
// outside the gob stream.
func (w *wire) arrays() []*blocks.Floats {
	return []*blocks.Floats{&w.HMask, &w.S.Ht, &w.S.GH, &w.S.GW, &w.S.CsW, &w.S.RsH}
}

// UnmarshalBinary restores a Trainer from MarshalBinary: on a zero
// Trainer (a worker's), or on one built with the same configuration (a
// resumed fit), which keeps its Stop and Progress.
func (t *Trainer) UnmarshalBinary(b []byte) error {
	var w wire
	if err := blocks.UnmarshalState(b, &w, w.arrays); err != nil {
		return fmt.Errorf("nmf: decoding the trainer: %w", err)
	}
	if t.tr != nil && !t.sameFit(&w) {
		return fmt.Errorf("nmf: the saved trainer (K=%d, %d×%d, loss %v, init %v, seed %d) is not this fit's (K=%d, %d×%d, loss %v, init %v, seed %d), or their HMask or labels differ",
			w.K, w.N, w.M, Loss(w.Loss), Init(w.Init), w.Seed, t.cfg.K, t.n, t.m, t.cfg.Loss, t.cfg.Init, t.cfg.Seed)
	}
	if t.tr == nil {
		t.cfg = Config{K: w.K, Loss: Loss(w.Loss), Init: Init(w.Init), AcolRows: w.AcolRows, MaxIter: w.MaxIter, Seed: w.Seed, Tol: w.Tol, Gathers: Gathers(w.Gathers)}
		t.n, t.m, t.kp, t.t0 = w.N, w.M, kernels.Pad(w.K), time.Now()
		t.tr = t.newTracker()
	}
	t.hmask, t.sup, t.s = w.HMask, w.Sup, w.S
	if t.sup != nil {
		t.sup.index = labelIndex(t.sup.Names)
	}
	t.tr.hist, t.tr.iters, t.tr.converged = t.s.Hist, t.s.Iters, t.s.Converged
	t.refreshH32()
	return nil
}

// refreshH32 makes t.h32 the float32 copy of the state's Hᵀ that the W
// update gathers when Config.Gathers asks for float32 rows at X's size
// (Frobenius loss only, as in memory), or nil. Reduce calls it whenever
// Hᵀ changes, UnmarshalBinary once the state is read.
func (t *Trainer) refreshH32() {
	if t.cfg.Loss != Frobenius || len(t.s.Ht) == 0 || !t.cfg.Gathers.float32For(t.s.NNZ) {
		t.h32 = nil
		return
	}
	if len(t.h32) != len(t.s.Ht) {
		t.h32 = make([]float32, len(t.s.Ht))
	}
	kernels.ToFloat32(t.h32, t.s.Ht)
}

// sameFit reports whether a saved trainer is a state of this fit: the
// same corpus shape and configuration, MaxIter and Tol aside.
func (t *Trainer) sameFit(w *wire) bool {
	c := t.cfg
	if c.K != w.K || int(c.Loss) != w.Loss || int(c.Init) != w.Init || c.AcolRows != w.AcolRows || c.Seed != w.Seed ||
		t.n != w.N || t.m != w.M || !slices.Equal(t.hmask, w.HMask) || (t.sup == nil) != (w.Sup == nil) {
		return false
	}
	return t.sup == nil || (t.sup.Weighting == w.Sup.Weighting && slices.Equal(t.sup.Names, w.Sup.Names))
}

func labelIndex(names []string) map[string]int {
	idx := make(map[string]int, len(names))
	for q, l := range names {
		idx[l] = q
	}
	return idx
}

// FitBlocks fits NMF out of core: src's blocks are read one at a time
// (the next one while the current one is processed), W's rows stay in st
// (the model's WName names them: block i's rows × K), and memory holds H
// and the statistics of a pass, O(K·terms), besides two blocks. The
// iterates are Fit's with the same configuration up to the order of the
// sums over blocks; see NewTrainer for the options. If ctx is cancelled,
// FitBlocks returns the model of the last completed pass together with
// ctx.Err(). When st keeps checkpoints (blocks.Checkpointer, as
// shard.Store), the fit saves one after every pass and resumes from the
// one it finds, which must be of the same fit.
func FitBlocks(ctx context.Context, src blocks.Source, st blocks.Store, cfg Config) (*Model, error) {
	n, m := src.Dims()
	t, err := NewTrainer(n, m, cfg)
	if err != nil {
		return nil, err
	}
	return runTrainer(ctx, src, st, t)
}

// runTrainer drives t over src, from st's checkpoint when it keeps one,
// and returns its model.
func runTrainer(ctx context.Context, src blocks.Source, st blocks.Store, t *Trainer) (*Model, error) {
	if _, err := blocks.Resume(st, t); err != nil {
		return nil, err
	}
	err := blocks.Run(ctx, src, st, t)
	res, merr := t.Model()
	if merr != nil {
		if err == nil {
			err = merr
		}
		return nil, err
	}
	return res, err
}

// NewTSNMFTrainer returns an out-of-core TS-NMF fit of a docs × terms
// corpus: the blocks' labels (strings) are the supervision, label
// cfg.LabelNames[t] being topic t; a label outside LabelNames is an error
// naming the document. cfg.Labels and CustomWeighting (a weight per
// document) are in-memory options and are refused; the rest is as
// NewTrainer, with InitAuto meaning InitLabelMean, as TSNMF.
func NewTSNMFTrainer(docs, terms int, cfg TSNMFConfig) (*Trainer, error) {
	if len(cfg.LabelNames) == 0 {
		return nil, fmt.Errorf("nmf: TS-NMF out of core needs LabelNames: the blocks' labels are matched against them")
	}
	if cfg.K < len(cfg.LabelNames) {
		return nil, fmt.Errorf("nmf: TSNMF: K = %d is smaller than the number of labels %d", cfg.K, len(cfg.LabelNames))
	}
	switch cfg.Weighting {
	case InverseSupervisionRate, NoWeighting:
	case CustomWeighting:
		return nil, fmt.Errorf("nmf: TS-NMF out of core: custom document weights are not supported")
	default:
		return nil, fmt.Errorf("nmf: TSNMF: unknown weighting %d", cfg.Weighting)
	}
	if cfg.Vocab != nil && len(cfg.Vocab) != terms {
		return nil, fmt.Errorf("nmf: TSNMF: vocabulary of %d terms for %d columns", len(cfg.Vocab), terms)
	}
	idx := labelIndex(cfg.LabelNames)
	if len(idx) != len(cfg.LabelNames) {
		return nil, fmt.Errorf("nmf: TSNMF: the label names repeat a name")
	}
	sup := &labelSet{Names: append([]string(nil), cfg.LabelNames...), Weighting: cfg.Weighting, index: idx}
	return newTrainer(docs, terms, cfg.Config, sup)
}

// TSNMFBlocks fits TS-NMF out of core, as FitBlocks fits NMF: the labels
// come with the blocks (see NewTSNMFTrainer). The model's DocWeights is
// nil; its notes state the weighting.
func TSNMFBlocks(ctx context.Context, src blocks.Source, st blocks.Store, cfg TSNMFConfig) (*TSNMFModel, error) {
	n, m := src.Dims()
	t, err := NewTSNMFTrainer(n, m, cfg)
	if err != nil {
		return nil, err
	}
	res, err := runTrainer(ctx, src, st, t)
	if res == nil {
		return nil, err
	}
	var notes []string
	if t.s.LabeledWeight != 0 {
		notes = append(notes, inverseRateNote(t.s.Labeled, n))
	}
	return tsnmfModel(res, cfg, len(cfg.LabelNames), t.s.Labeled, n, notes), err
}
