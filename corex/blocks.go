package corex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Names of the document-side state that an out-of-core fit leaves in its
// blocks.Store. Once the fit is finished, block i's vectors hold the block's
// rows × K values, row-major, in the model's topic order: StoreP
// p(y_j = 1 | x), StoreLogP log p(y_j = 1 | x) and StoreLogZ the pointwise
// TC, what an in-memory fit keeps in Model.Train (and Model.Infer computes
// for any documents). LoadDocTopics reads them back.
const (
	StoreP    = "corex.p"
	StoreLogP = "corex.logp"
	StoreLogZ = "corex.logz"
)

var _ blocks.Trainer = (*Trainer)(nil)

// phase is the kind of pass a Trainer runs next.
type phase uint8

const (
	phaseScan   phase = iota // Fraction input: raw column sums, total, entries above 1
	phaseStart               // a restart's random start: co-counts Xᵀ·p and Σ p
	phaseIter                // one iteration's p(y|x), then the next one's co-counts
	phaseOutput              // the kept model's document topics saved per block
	phaseDone
)

// Trainer is CorEx fitted out of core, as a blocks.Trainer: the same
// iterations as Fit, with the documents read in blocks, one pass over them
// per iteration. Between passes it holds only topic-side state — α, τ, the
// marginals' co-counts Xᵀ·p(y|x), the log-likelihood ratios and the
// per-topic constants, O(K·terms) numbers for the current restart, a copy
// for its last complete iteration and one for the best restart so far.
//
// The passes and their statistics vectors, the sums over the blocks of
// what Map adds, in this order (V is the number of terms; co-counts are
// V × K, word-major). A statistic marked exact takes twice its length:
// each block adds it as two parts, all the hi parts then all the lo parts,
// rounded to fixed grids (a power of two over 2⁵² times a bound on the
// statistic's total, and that over 2³²) on which every sum of up to 2²¹
// blocks is exact, the value being hi + lo:
//
//   - scan, only for Fraction input, first: the column sums of the raw
//     input (V), its total (1), the number of entries above 1 (1) and the
//     number of documents (1), which give the background rates;
//   - start of each restart: the co-counts Xᵀ·p of the random start (exact,
//     2·V·K), Σ p (exact, 2·K) and the number of documents (1); on the
//     first restart also the column sums of the preprocessed input (exact,
//     2·V) and the number of documents each column is stored in (V);
//   - one per iteration: Σ log Z (exact, 2·K) and Σ p (exact, 2·K) over the
//     documents and the number of documents (1), then, unless the iteration is the restart's last allowed
//     (MaxIter), the next iteration's co-counts (exact, 2·V·K), with the
//     topics flipped as that iteration will flip them;
//   - output, last: the number of documents (1); each block's p(y|x),
//     log p(y|x) and pointwise TC under the kept model are saved in the
//     store (StoreP, StoreLogP, StoreLogZ);
//   - none once the fit is finished (StatsLen 0).
//
// Every sum but the scan's is thus the same whatever the order in which
// the blocks are summed (the scan's too when the counts are integers), so
// that a fit does not depend on how an engine combines the blocks. Every
// pass must map each block exactly once: Reduce checks the number of
// documents of every pass.
//
// p(y|x) is a function of the block and the topic-side state, so no
// document-side state needs to survive from one pass to the next: the
// store is written only by the output pass and never read, its vectors
// are the fit's result once Reduce has reported the fit finished, and a
// checkpoint (MarshalBinary) taken after any Reduce stays consistent with
// it.
//
// The iterates are those of Fit on the same matrix and Config: the random
// start of every document is the same draw (block i's are drawn from the
// generator's position at its first document, without drawing the earlier
// documents'), and only the order of the sums over documents differs, so
// that every value agrees to rounding. Restarts run one after another.
// Config.NumpyRandom is rejected: numpy's generator is one sequential
// stream for α, every document's start and the noise, so a block's start
// could not be drawn without drawing all earlier documents'.
// Config.Progress is called from Reduce, in the process that built the
// Trainer only (a Trainer rebuilt by UnmarshalBinary has none).
type Trainer struct {
	n, nv    int
	cfg      Config // resolved
	pairs    []AnchorWord
	warnings []string
	byWord   [][]anchorRef
	byTopic  [][]int

	phase         phase
	restart, iter int
	bg            []float64 // Fraction input's background rates, nil otherwise
	d             *data     // word statistics, nil before the first start pass ends

	cur        *fitState // the current restart
	last       *fitState // the current restart after its last complete iteration, nil before
	best       *fitState // the best finished restart
	bestSeed   uint64
	restartTCs []float64 // final TC of the finished restarts
	zUnit      []float64 // units of the sums of log Z in the current iteration
	final      *Model    // the kept model, from the output pass on
	start      time.Time // the current restart's start, for Progress
}

// NewTrainer returns a Trainer for a corpus of docs documents × terms
// terms, validating cfg as Fit does. Config.NumpyRandom is not supported
// out of core and is an error.
func NewTrainer(docs, terms int, cfg Config) (*Trainer, error) {
	if docs < 1 || terms < 1 {
		return nil, fmt.Errorf("corex: input matrix is %d×%d; want at least one document and one term", docs, terms)
	}
	cfg, err := cfg.resolved(terms)
	if err != nil {
		return nil, err
	}
	if cfg.P0 != nil {
		return nil, fmt.Errorf("corex: P0 and Alpha0 start Fit in memory; out of core a fit starts from its checkpoint")
	}
	if len(cfg.Hold) > 0 {
		return nil, fmt.Errorf("corex: Hold holds documents of a fit in memory (Fit); out of core no document stays in memory")
	}
	if cfg.NumpyRandom {
		return nil, errors.New("corex: Config.NumpyRandom is not supported out of core: numpy's generator draws α, every document's start and the noise from one sequential stream, so a block's start cannot be drawn without drawing every earlier document's; fit in memory (Fit) to follow corextopic's stream")
	}
	pairs, err := resolveAnchors(cfg, terms)
	if err != nil {
		return nil, err
	}
	t := &Trainer{n: docs, nv: terms, cfg: cfg, pairs: pairs}
	t.byWord, t.byTopic = anchorTable(pairs, terms, cfg.K)
	t.newRestart(0)
	if cfg.Input == Fraction {
		t.phase = phaseScan
	}
	return t, nil
}

// newRestart sets up restart r: its topic-side random start, and the start
// pass next.
func (t *Trainer) newRestart(r int) {
	t.restart, t.iter, t.phase = r, 0, phaseStart
	t.cur = newTopicState(t.nv, t.cfg.K, t.byWord, t.byTopic)
	t.cur.d = t.d
	t.cur.initTopics(t.seed(), false)
	t.last = nil
	t.start = time.Now()
}

// seed is the current restart's seed.
func (t *Trainer) seed() uint64 { return t.cfg.Seed + uint64(t.restart) }

// StatsLen returns the length of the current pass's statistics vector (see
// Trainer for the layout).
func (t *Trainer) StatsLen() int {
	k, nv := t.cfg.K, t.nv
	switch t.phase {
	case phaseScan:
		return nv + 3
	case phaseStart:
		n := 2*nv*k + 2*k + 1
		if t.d == nil {
			n += 3 * nv
		}
		return n
	case phaseIter:
		n := 4*k + 1
		if t.iter+1 < t.cfg.MaxIter {
			n += 2 * nv * k
		}
		return n
	case phaseOutput:
		return 1
	}
	return 0
}

// Map runs the current pass on block i: it adds the block's statistics
// into acc and, in the output pass, saves the block's topics in st. It
// does not change the Trainer.
func (t *Trainer) Map(ctx context.Context, i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if t.cur == nil && t.final == nil {
		return errors.New("corex: Map on a Trainer that NewTrainer or UnmarshalBinary did not make")
	}
	if want := t.StatsLen(); len(acc) != want {
		return fmt.Errorf("corex: block %d: statistics vector of %d values, want %d", i, len(acc), want)
	}
	if err := t.checkBlock(i, b); err != nil {
		return err
	}
	switch t.phase {
	case phaseScan:
		return t.mapScan(i, b, acc)
	case phaseStart:
		return t.mapStart(i, b, acc)
	case phaseIter:
		return t.mapIter(i, b, acc)
	case phaseOutput:
		return t.mapOutput(i, b, st, acc)
	}
	return fmt.Errorf("corex: block %d: the fit is finished, there is no pass to run", i)
}

// checkBlock checks block i's shape against the corpus.
func (t *Trainer) checkBlock(i int, b *blocks.Block) error {
	if b == nil || b.X == nil {
		return fmt.Errorf("corex: block %d has no matrix", i)
	}
	// The matrix itself is valid: every blocks.Source checks it.
	if b.X.Cols != t.nv {
		return fmt.Errorf("corex: block %d has %d columns, the corpus %d terms", i, b.X.Cols, t.nv)
	}
	if b.First < 0 || b.First+b.X.Rows > t.n {
		return fmt.Errorf("corex: block %d holds documents %d to %d, outside the corpus's %d", i, b.First, b.First+b.X.Rows-1, t.n)
	}
	return nil
}

// checkValues returns an error naming the first entry of block b that the
// input mode does not accept, with its row in the corpus.
func (t *Trainer) checkValues(i int, b *blocks.Block) error {
	x := b.X
	for p, v := range x.Data {
		bad := v < 0 || math.IsNaN(v) || math.IsInf(v, 0)
		if bad || (t.cfg.Input == Probabilities && v > 1) {
			want := "finite non-negative values"
			if !bad {
				want = "probabilities (input mode probabilities)"
			}
			return fmt.Errorf("corex: block %d: input (%d, %d) = %v; want %s", i, b.First+rowOf(x, p), x.Indices[p], v, want)
		}
	}
	return nil
}

// prep returns block i's matrix in the fit's input mode and whether only
// its pattern is to be read (every stored value taken as 1): b.X itself
// (which is only read) when the mode leaves its values as they are, and
// for binarized input when values is false (the products read the pattern
// only, so that a pass does not copy the block); else preprocess's copy.
func (t *Trainer) prep(i int, b *blocks.Block, values bool) (x *sparse.CSR, pattern bool, err error) {
	if t.cfg.Input == Fraction && t.bg == nil && b.X.Max() > 1 {
		return nil, false, fmt.Errorf("corex: block %d holds values above 1 that the first pass did not see: the source changed during the fit", i)
	}
	bin := t.cfg.Input == Binarize
	if bin && !values || t.cfg.Input != Binarize && t.bg == nil || bin && allOnes(b.X.Data) {
		if err := t.checkValues(i, b); err != nil {
			return nil, false, err
		}
		return b.X, bin || b.X.IsBinary(), nil
	}
	x, _, err = preprocess(b.X, t.cfg.Input, t.bg)
	if err != nil {
		return nil, false, fmt.Errorf("corex: block %d (first document %d): %w", i, b.First, err)
	}
	return x, x.IsBinary(), nil
}

func allOnes(a []float64) bool {
	for _, v := range a {
		if v != 1 {
			return false
		}
	}
	return true
}

// mapScan adds the raw column sums, total, number of entries above 1 and
// number of documents of block b.
func (t *Trainer) mapScan(i int, b *blocks.Block, acc []float64) error {
	if err := t.checkValues(i, b); err != nil {
		return err
	}
	nv, x := t.nv, b.X
	floats.Add(acc[:nv], colSums(x, false))
	total, above := 0.0, 0
	for _, v := range x.Data {
		total += v
		if v > 1 {
			above++
		}
	}
	acc[nv] += total
	acc[nv+1] += float64(above)
	acc[nv+2] += float64(x.Rows)
	return nil
}

// mapStart draws the random start of block b's documents, sets the
// anchored topics' from their anchors, and adds the co-counts, Σ p and the number of documents (and
// on the first restart the column sums and column counts).
func (t *Trainer) mapStart(i int, b *blocks.Block, acc []float64) error {
	if t.d == nil && t.phase == phaseStart && t.cfg.Input != Fraction { // the first pass (the scan checks Fraction input)
		if err := t.checkValues(i, b); err != nil {
			return err
		}
	}
	x, pattern, err := t.prep(i, b, len(t.pairs) > 0) // the anchors read the values
	if err != nil {
		return err
	}
	k, nv, rows := t.cfg.K, t.nv, x.Rows
	vk := nv * k
	off := 2*vk + 2*k
	acc[off] += float64(rows)
	if rows == 0 {
		return nil
	}
	unit := exactUnit(float64(t.n))
	p := mat.NewDense(rows, k, nil)
	raw := p.RawMatrix().Data
	seed := t.seed()
	parallel.For(rows, docChunk, func(lo, hi int) {
		next := startDraws(seed, uint64(b.First+lo)*uint64(k))
		for q := lo * k; q < hi*k; q++ {
			raw[q] = next()
		}
		mixAnchors(x, p, t.byTopic, lo, hi, false)
	})
	ps := make([]float64, k)
	for l := 0; l < rows; l++ {
		for j, v := range p.RawRowView(l) {
			ps[j] += v
		}
	}
	addExact(acc[2*vk:2*vk+k], acc[2*vk+k:off], ps, unit)
	if err := addTMul(acc[:vk], acc[vk:2*vk], x, pattern, p, unit); err != nil {
		return fmt.Errorf("corex: block %d: %w", i, err)
	}
	if t.d == nil {
		addExact(acc[off+1:off+1+nv], acc[off+1+nv:off+1+2*nv], colSums(x, pattern), unit)
		nnz := acc[off+1+2*nv : off+1+3*nv]
		for _, j := range x.Indices {
			nnz[j]++
		}
	}
	return nil
}

// colSums returns x's column sums (of its pattern: the number of entries
// per column, when pattern is true), summed in the order of the entries
// so that a block's sums do not depend on the number of cores of the
// machine that maps it (sparse's ColSums sums per core).
func colSums(x *sparse.CSR, pattern bool) []float64 {
	s := make([]float64, x.Cols)
	for p, j := range x.Indices {
		if pattern {
			s[j]++
		} else {
			s[j] += x.Data[p]
		}
	}
	return s
}

// addTMul adds xᵀ·p (terms × K, word-major) into hi and lo as addExact
// does, x read as its pattern when pattern is true. Patterns (and binary
// blocks) take sparse.TMulPattern, TMulDense's bits (a product by 1 is
// exact) without its per-entry tail when K is not a multiple of 4.
func addTMul(hi, lo []float64, x *sparse.CSR, pattern bool, p *mat.Dense, unit float64) error {
	_, k := p.Dims()
	pdy := mat.NewDense(x.Cols, k, nil)
	tmul := sparse.TMulDense
	if pattern {
		tmul = sparse.TMulPattern
	}
	if err := tmul(pdy, x, p); err != nil {
		return err
	}
	addExact(hi, lo, pdy.RawMatrix().Data, unit)
	return nil
}

// Sums that do not depend on the order of the blocks. Each statistic v of
// a block is added into the statistics vector as two numbers on fixed
// grids: hi, v rounded to a multiple of unit, and lo, v − hi (exact)
// rounded to a multiple of unit·2⁻³². unit is a power of two, 2⁻⁵² times
// a power of two at least a bound B on the sum of |v| over all blocks, so
// that every partial sum of the hi parts is a multiple of unit below 2⁵³
// units and every partial sum of the lo parts (for up to 2²¹ blocks) one
// of unit·2⁻³² below 2⁵³ of them: both are exact, and so the same in
// whatever order the blocks are summed. The statistic is hi + lo, to
// within unit·2⁻³³ ≈ B·2⁻⁸⁵ per block. A unit of 0 (no finite bound)
// adds v into hi as it is.

// exactUnit returns the unit of sums bounded by bound in magnitude, or 0
// when bound is not a positive finite number.
func exactUnit(bound float64) float64 {
	if !(bound > 0) || math.IsInf(bound, 0) {
		return 0
	}
	_, e := math.Frexp(bound) // bound ≤ 2^e
	return math.Ldexp(1, e-52)
}

// addExact adds each v[j] into hi[j] and lo[j] on the grids of unit.
func addExact(hi, lo, v []float64, unit float64) {
	if unit == 0 {
		floats.Add(hi, v)
		return
	}
	fine := unit * 0x1p-32
	for j, x := range v {
		h := math.Round(x/unit) * unit
		hi[j] += h
		lo[j] += math.Round((x-h)/fine) * fine
	}
}

// exactSum writes hi + lo into dst.
func exactSum(dst, hi, lo []float64) {
	for j := range dst {
		dst[j] = hi[j] + lo[j]
	}
}

// mapIter computes block b's p(y|x) and log Z for the current iteration
// and adds their sums, then the next iteration's co-counts.
func (t *Trainer) mapIter(i int, b *blocks.Block, acc []float64) error {
	x, pattern, err := t.prep(i, b, false)
	if err != nil {
		return err
	}
	s, k, rows := t.cur, t.cfg.K, x.Rows
	acc[4*k] += float64(rows)
	if rows == 0 {
		return nil
	}
	u := mat.NewDense(rows, 2*k, nil)
	if err := mul(u, x, s.info, pattern); err != nil {
		return fmt.Errorf("corex: block %d: %w", i, err)
	}
	p := mat.NewDense(rows, k, nil)
	sums := latent(u, k, s.logPY, s.c0, s.c1, p, nil, nil, nil) // only the sums of log Z
	part := make([]float64, 2*k)
	for c := 0; c < len(sums)/(2*k); c++ {
		floats.Add(part, sums[c*2*k:(c+1)*2*k])
	}
	for j, zu := range t.zUnit {
		addExact(acc[j:j+1], acc[k+j:k+j+1], part[j:j+1], zu)
	}
	unit := exactUnit(float64(t.n))
	addExact(acc[2*k:3*k], acc[3*k:4*k], part[k:], unit)
	if t.iter+1 >= t.cfg.MaxIter {
		return nil
	}
	// The next iteration flips the topics whose best word is negatively
	// related to them (from the third iteration on), then takes Xᵀ·p.
	if t.iter+1 > 1 && anyTrue(s.flip) {
		parallel.For(rows, docChunk, func(lo, hi int) {
			for l := lo; l < hi; l++ {
				row := p.RawRowView(l)
				for j, f := range s.flip {
					if f {
						row[j] = 1 - row[j]
					}
				}
			}
		})
	}
	vk, off := t.nv*k, 4*k+1
	if err := addTMul(acc[off:off+vk], acc[off+vk:], x, pattern, p, unit); err != nil {
		return fmt.Errorf("corex: block %d: %w", i, err)
	}
	return nil
}

func anyTrue(a []bool) bool {
	for _, v := range a {
		if v {
			return true
		}
	}
	return false
}

// mapOutput saves block b's topics under the kept model and adds its
// number of documents.
func (t *Trainer) mapOutput(i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	if st == nil {
		return fmt.Errorf("corex: block %d: nil store", i)
	}
	x, pattern, err := t.prep(i, b, false)
	if err != nil {
		return err
	}
	m, rows := t.final, x.Rows
	acc[0] += float64(rows)
	var vp, vlp, vlz []float64
	if rows > 0 {
		u := mat.NewDense(rows, 2*m.K, nil)
		if err := mul(u, x, m.info, pattern); err != nil {
			return fmt.Errorf("corex: block %d: %w", i, err)
		}
		p, logP, logZ := mat.NewDense(rows, m.K, nil), mat.NewDense(rows, m.K, nil), mat.NewDense(rows, m.K, nil)
		latent(u, m.K, m.logPY, m.c0, m.c1, p, logP, logZ, nil)
		vp, vlp, vlz = p.RawMatrix().Data, logP.RawMatrix().Data, logZ.RawMatrix().Data
	}
	for _, s := range []struct {
		name string
		v    []float64
	}{{StoreP, vp}, {StoreLogP, vlp}, {StoreLogZ, vlz}} {
		if s.v == nil {
			s.v = []float64{}
		}
		if err := st.Save(s.name, i, s.v); err != nil {
			return fmt.Errorf("corex: block %d: saving %s: %w", i, s.name, err)
		}
	}
	return nil
}

// Reduce ends the current pass with the summed statistics: it updates the
// topic-side state as Fit's iteration does and reports whether the fit is
// finished (after the output pass).
func (t *Trainer) Reduce(ctx context.Context, sum []float64) (done bool, err error) {
	if t.cur == nil && t.final == nil {
		return false, errors.New("corex: Reduce on a Trainer that NewTrainer or UnmarshalBinary did not make")
	}
	if want := t.StatsLen(); len(sum) != want {
		return false, fmt.Errorf("corex: statistics vector of %d values, want %d", len(sum), want)
	}
	k, nv := t.cfg.K, t.nv
	switch t.phase {
	case phaseScan:
		if err := t.checkDocs(sum[nv+2]); err != nil {
			return false, err
		}
		if sum[nv+1] > 0 { // as preprocess: rates only when some count exceeds 1
			total := sum[nv]
			t.bg = make([]float64, nv)
			for j, c := range sum[:nv] {
				if c > 0 {
					t.bg[j] = total / c
				}
			}
		}
		t.phase = phaseStart
		return false, nil
	case phaseStart:
		vk := nv * k
		off := 2*vk + 2*k
		if err := t.checkDocs(sum[off]); err != nil {
			return false, err
		}
		if t.d == nil {
			wc := make([]float64, nv)
			exactSum(wc, sum[off+1:off+1+nv], sum[off+1+nv:off+1+2*nv])
			t.d = wordData(t.n, wc, t.bg)
			nnz := make([]int, nv)
			for j, c := range sum[off+1+2*nv : off+1+3*nv] {
				nnz[j] = int(math.Round(c))
			}
			if w := degenerateCounts(nnz, t.n); w != "" {
				t.warnings = append(t.warnings, w)
			}
			t.cur.d = t.d
		}
		s := t.cur
		exactSum(s.psum, sum[2*vk:2*vk+k], sum[2*vk+k:off])
		t.nextIteration(0, sum[:vk], sum[vk:2*vk])
		return false, nil
	case phaseIter:
		return false, t.reduceIter(sum)
	case phaseOutput:
		if err := t.checkDocs(sum[0]); err != nil {
			return false, err
		}
		t.phase = phaseDone
		return true, nil
	}
	return true, nil
}

// checkDocs checks that a pass covered every document once.
func (t *Trainer) checkDocs(got float64) error {
	if got != float64(t.n) {
		return fmt.Errorf("corex: the pass covered %v documents, the corpus has %d: blocks are missing or repeated", got, t.n)
	}
	return nil
}

// nextIteration begins iteration iter of the current restart from Σ p
// (s.psum, before the flip) and the co-counts (the parts hi and lo of
// Xᵀ·p), as Fit's iteration does until its per-document pass.
func (t *Trainer) nextIteration(iter int, hi, lo []float64) {
	exactSum(t.cur.pdy.RawMatrix().Data, hi, lo)
	t.beginIteration(iter)
}

// beginIteration is nextIteration with the co-counts already in the
// current restart's pdy: what the rest of the current restart's state
// (its α, τ, flips, Σ p and TC per topic after the previous iteration)
// and the co-counts determine, which UnmarshalBinary recomputes.
func (t *Trainer) beginIteration(iter int) {
	s, n := t.cur, float64(t.n)
	if iter > 1 {
		for j, f := range s.flip {
			if f {
				s.psum[j] = n - s.psum[j]
			}
		}
	}
	for j := range s.logPY {
		s.logPY[j] = math.Log(s.psum[j] / n)
	}
	s.wordPass(iter, t.seed())
	t.iter, t.phase = iter, phaseIter
	t.setZUnit()
}

// setZUnit sets the units of the sums of log Z over the documents (see
// addExact) for the current iteration's parameters: a document's log Z_j
// lies within log 2 of a0 = log(1 − p(y_j)) + c0_j + u0 or
// a1 = log p(y_j) + c1_j + u1, where u = x·info and x in [0, 1], so that
// |log Z_j| ≤ max(|log(1 − p(y_j))| + |c0_j| + Σ_i |info_i0j|, |log p(y_j)|
// + |c1_j| + Σ_i |info_i1j|) + 1 in every document.
func (t *Trainer) setZUnit() {
	s, k := t.cur, t.cfg.K
	if len(t.zUnit) != k {
		t.zUnit = make([]float64, k)
	}
	abs := make([]float64, 2*k)
	for i := 0; i < t.nv; i++ {
		for c, v := range s.info.RawRowView(i) {
			abs[c] += math.Abs(v)
		}
	}
	for j, l := range s.logPY {
		b0 := math.Abs(math.Log1p(-math.Exp(l))) + math.Abs(s.c0[j]) + abs[j]
		b1 := math.Abs(l) + math.Abs(s.c1[j]) + abs[k+j]
		t.zUnit[j] = exactUnit(float64(t.n) * (max(b0, b1) + 1))
	}
}

// reduceIter ends an iteration: TC, history, convergence, and either the
// next iteration or the end of the restart.
func (t *Trainer) reduceIter(sum []float64) error {
	s, k, n := t.cur, t.cfg.K, float64(t.n)
	if err := t.checkDocs(sum[4*k]); err != nil {
		return err
	}
	exactSum(s.tcs, sum[:k], sum[k:2*k])
	exactSum(s.psum, sum[2*k:3*k], sum[3*k:4*k])
	tc := 0.0
	for j := range s.tcs {
		s.tcs[j] /= n
		tc += s.tcs[j]
	}
	if math.IsNaN(tc) || math.IsInf(tc, 0) {
		return fmt.Errorf("corex: iteration %d: the total correlation is %v: the computation is no longer finite", t.iter+1, tc)
	}
	s.history = append(s.history, tc)
	s.iterations = t.iter + 1
	if t.cfg.Progress != nil {
		t.cfg.Progress(progress.Step{Run: t.restart, Runs: t.cfg.Restarts, Iter: t.iter + 1, Total: t.cfg.MaxIter, Objective: tc, Elapsed: time.Since(t.start)})
	}
	s.converged = converged(s.history, t.cfg.Tol)
	t.last = s.snapshot(t.last)
	if s.converged || t.iter+1 >= t.cfg.MaxIter {
		t.endRestart()
		return nil
	}
	vk, off := t.nv*k, 4*k+1
	t.nextIteration(t.iter+1, sum[off:off+vk], sum[off+vk:])
	return nil
}

// endRestart keeps the finished restart if it is the best so far, and
// starts the next restart or the output pass.
func (t *Trainer) endRestart() {
	s := t.last
	tc := s.history[len(s.history)-1]
	t.restartTCs = append(t.restartTCs, tc)
	if t.best == nil || tc > t.best.history[len(t.best.history)-1] {
		t.best, t.bestSeed = s, t.seed()
	}
	if t.restart+1 < t.cfg.Restarts {
		t.newRestart(t.restart + 1)
		return
	}
	t.cur, t.last = nil, nil
	t.final = t.buildModel(t.best, t.bestSeed, t.restartTCs)
	t.phase = phaseOutput
}

// snapshot copies what a Model is made of but the log-likelihood ratios
// — α, the co-counts, the per-topic values and the history — and what the
// next iteration starts from besides the co-counts — τ, the flips and
// Σ p — into dst (nil: new, without log-likelihood ratios; complete
// recomputes them), which it returns. dst's log-likelihood ratios, if
// any, are left as they are.
func (s *fitState) snapshot(dst *fitState) *fitState {
	if dst == nil {
		nv := len(s.tau)
		dst = &fitState{m: s.m, pdy: mat.NewDense(nv, s.m, nil),
			alpha: make([]float64, len(s.alpha)), logPY: make([]float64, s.m), tcs: make([]float64, s.m),
			c0: make([]float64, s.m), c1: make([]float64, s.m),
			tau: make([]float64, nv), flip: make([]bool, s.m), psum: make([]float64, s.m)}
	}
	dst.d, dst.anchors, dst.byTopic = s.d, s.anchors, s.byTopic
	dst.pdy.Copy(s.pdy)
	copy(dst.alpha, s.alpha)
	copy(dst.tau, s.tau)
	copy(dst.flip, s.flip)
	copy(dst.psum, s.psum)
	copy(dst.logPY, s.logPY)
	copy(dst.tcs, s.tcs)
	copy(dst.c0, s.c0)
	copy(dst.c1, s.c1)
	dst.history = append(dst.history[:0], s.history...)
	dst.iterations, dst.converged = s.iterations, s.converged
	return dst
}

// complete returns s with its log-likelihood ratios: s itself when it
// has them, else a copy with them recomputed from its co-counts, α and
// log p(y) as the word pass that made them computed them (which a pass
// without the update of α does: the tie-breaking noise, which it leaves
// out, changes only the flips). A snapshot (the last complete iteration,
// the best restart) leaves them out: they take as much memory as α and
// the co-counts together and are needed only for a Model.
func (t *Trainer) complete(s *fitState) *fitState {
	if s.info != nil {
		return s
	}
	c := newTopicState(t.nv, t.cfg.K, t.byWord, t.byTopic)
	s.snapshot(c)
	c.wordPass(0, t.cfg.Seed)
	return c
}

// buildModel is Fit's model of restart state s.
func (t *Trainer) buildModel(s *fitState, seed uint64, tcs []float64) *Model {
	m := t.complete(s).model(t.cfg, t.cfg.anchored(len(t.pairs)))
	m.Seed, m.RestartTCs = seed, append([]float64(nil), tcs...)
	m.Anchors, m.Warnings = append([]AnchorWord(nil), t.pairs...), append([]string(nil), t.warnings...)
	return m
}

// Model returns the fitted model: once the fit is finished, the model Fit
// returns for the same matrix and Config (to rounding); during the fit
// (after a cancellation), the best of the restarts so far, the current one
// as its last complete iteration left it, as Fit does, with the status
// progress.Cancelled — an error when no iteration is complete. The model
// has no training documents: Train is nil (TopDocs reports an error); read the documents' topics from the
// store with LoadDocTopics once the fit is finished, or compute them for
// any block with Model.Infer, which gives the same values.
func (t *Trainer) Model() (*Model, error) {
	best, seed, tcs := t.best, t.bestSeed, append([]float64(nil), t.restartTCs...)
	if s := t.last; s != nil {
		tc := s.history[len(s.history)-1]
		tcs = append(tcs, tc)
		if best == nil || tc > best.history[len(best.history)-1] {
			best, seed = s, t.seed()
		}
	}
	if best == nil {
		return nil, errors.New("corex: no iteration of the fit is complete")
	}
	m := t.buildModel(best, seed, tcs)
	if t.phase < phaseOutput {
		m.Convergence.Status = progress.Cancelled
	}
	return m, nil
}

// FitBlocks fits CorEx out of core: the documents × terms matrix is read
// from src block by block, one pass per iteration, and the documents'
// topics are left in st (StoreP, StoreLogP, StoreLogZ; see
// LoadDocTopics). The model is Fit's on the same matrix and Config, to
// rounding, without training documents (Model.Train is nil). When ctx is
// done, FitBlocks returns the model of the last complete iteration (the
// best restart so far, as Fit) together with ctx's error (only the error
// when no iteration was complete); st then holds no usable topics. When
// st keeps checkpoints (blocks.Checkpointer, as shard.Store), the fit
// saves one after every pass and resumes from the one it finds, which
// must be of the same fit (a finished fit's gives its model at once).
// Config.NumpyRandom is not supported (see Trainer).
func FitBlocks(ctx context.Context, src blocks.Source, st blocks.Store, cfg Config) (*Model, error) {
	if src == nil || st == nil {
		return nil, errors.New("corex: FitBlocks needs a source and a store")
	}
	docs, terms := src.Dims()
	t, err := NewTrainer(docs, terms, cfg)
	if err != nil {
		return nil, err
	}
	if _, err := blocks.Resume(st, t); err != nil {
		return nil, err
	}
	err = blocks.Run(ctx, src, st, t)
	cancelled := err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
	if err != nil && !cancelled {
		return nil, err
	}
	if err == nil && t.phase == phaseDone {
		// The kept model, which the output pass used: building it again
		// (Model) would hold a second copy of its arrays.
		return t.final, nil
	}
	m, merr := t.Model()
	if merr != nil {
		if cancelled {
			return nil, err
		}
		return nil, merr
	}
	if err := ctx.Err(); err != nil {
		m.Convergence.Status = progress.Cancelled
		return m, err
	}
	return m, nil
}

// LoadDocTopics reads block i's topics, rows documents × k topics, from a
// store that a finished out-of-core fit wrote (StoreP, StoreLogP,
// StoreLogZ).
func LoadDocTopics(st blocks.Store, i, rows, k int) (*DocTopics, error) {
	if rows < 0 || k < 1 {
		return nil, fmt.Errorf("corex: topics of %d documents × %d topics", rows, k)
	}
	if rows == 0 {
		return &DocTopics{P: &mat.Dense{}, LogP: &mat.Dense{}, LogZ: &mat.Dense{}}, nil
	}
	var out [3]*mat.Dense
	for n, name := range []string{StoreP, StoreLogP, StoreLogZ} {
		v := make([]float64, rows*k)
		if err := st.Load(name, i, v); err != nil {
			return nil, fmt.Errorf("corex: topics of block %d: %w", i, err)
		}
		out[n] = mat.NewDense(rows, k, v)
	}
	return &DocTopics{P: out[0], LogP: out[1], LogZ: out[2]}, nil
}

// startDraws returns the draws of rng.New(seed, 0, saltP), the stream of
// Fit's random start, from draw skip on, in O(log skip) steps: rng.New's
// generator is the PCG of rng.NewCompat with the same seeds, which can
// jump ahead; Source.Float64 is the top 53 bits of an output.
func startDraws(seed, skip uint64) func() float64 {
	g := rng.NewCompat(seed, 0^saltP)
	g.Advance(skip)
	return func() float64 { return float64(g.Uint64()>>11) / (1 << 53) }
}

// trainerVersion is the version of the MarshalBinary encoding: 2 may
// encode the current restart as its successor (wireTrainer.Next); 1,
// which it still reads, always encodes it whole.
const trainerVersion = 2

// wireTrainer is a Trainer as MarshalBinary encodes it (with
// encoding/gob).
type wireTrainer struct {
	Version     int
	Docs, Terms int
	K, MaxIter  int
	Tol         float64
	Seed        uint64
	Restarts    int
	Input       Input
	Vocab       []string
	Beta        float64
	KeepOrder   bool
	Pairs       []AnchorWord
	Warnings    []string
	Phase       uint8
	Restart     int
	Iter        int
	Background  blocks.Floats
	Counts      blocks.Floats // clipped word counts, nil before the first start pass ends
	Cur         *wireState
	Last, Best  *wireState
	// Next, instead of Cur in an iteration after the first, holds the
	// current restart's co-counts; the rest of its state is the
	// iteration's start from Last (which then carries Tau, Flip and
	// Psum), recomputed by UnmarshalBinary. A checkpoint thus holds
	// one restart's large arrays once and the co-counts, not twice.
	Next       blocks.Floats
	BestSeed   uint64
	RestartTCs []float64
}

// wireState is a restart's topic-side state; Info (recomputed for the
// others: complete) only for the current restart, and Tau and Flip only
// for it or, with Psum, for the last iteration when wireTrainer.Next is
// set.
type wireState struct {
	Alpha, Tau, Info, Pdy blocks.Floats
	C0, C1, LogPY, TCs    []float64
	Psum                  []float64
	History               []float64
	Flip                  []bool
	Iterations            int
	Converged             bool
}

func toWire(s *fitState, current bool) *wireState {
	if s == nil {
		return nil
	}
	w := &wireState{Alpha: s.alpha, Pdy: s.pdy.RawMatrix().Data,
		C0: s.c0, C1: s.c1, LogPY: s.logPY, TCs: s.tcs, History: s.history, Iterations: s.iterations, Converged: s.converged}
	if current {
		w.Tau, w.Flip, w.Info = s.tau, s.flip, s.info.RawMatrix().Data
	}
	return w
}

// MarshalBinary encodes the Trainer's state (everything but
// Config.Progress), for UnmarshalBinary on another machine.
func (t *Trainer) MarshalBinary() ([]byte, error) {
	if t.cur == nil && t.final == nil {
		return nil, errors.New("corex: MarshalBinary of a Trainer that NewTrainer or UnmarshalBinary did not make")
	}
	c := t.cfg
	w := wireTrainer{Version: trainerVersion, Docs: t.n, Terms: t.nv,
		K: c.K, MaxIter: c.MaxIter, Tol: c.Tol, Seed: c.Seed, Restarts: c.Restarts, Input: c.Input, Vocab: c.Vocab, Beta: c.Beta,
		KeepOrder: c.KeepOrder, Pairs: t.pairs, Warnings: t.warnings, Phase: uint8(t.phase), Restart: t.restart, Iter: t.iter, Background: t.bg,
		Cur: toWire(t.cur, true), Last: toWire(t.last, false), Best: toWire(t.best, false), BestSeed: t.bestSeed, RestartTCs: t.restartTCs}
	if t.d != nil {
		w.Counts = t.d.wc
	}
	if t.phase == phaseIter && t.cur != nil && t.last != nil {
		// The current restart is the iteration begun from last with
		// its co-counts (reduceIter): encode those only.
		w.Cur, w.Next = nil, t.cur.pdy.RawMatrix().Data
		w.Last.Tau, w.Last.Flip, w.Last.Psum = t.last.tau, t.last.flip, t.last.psum
	}
	b, err := blocks.MarshalState(&w, w.arrays())
	if err != nil {
		return nil, fmt.Errorf("corex: encoding the trainer: %w", err)
	}
	return b, nil
}

// arrays lists the state's large arrays, which blocks.MarshalState writes
// outside the gob stream.
func (w *wireTrainer) arrays() []*blocks.Floats {
	out := []*blocks.Floats{&w.Background, &w.Counts, &w.Next}
	for _, s := range []*wireState{w.Cur, w.Last, w.Best} {
		if s != nil {
			out = append(out, &s.Alpha, &s.Tau, &s.Info, &s.Pdy)
		}
	}
	return out
}

// UnmarshalBinary restores the Trainer that MarshalBinary encoded,
// checking every dimension: on a zero Trainer (a worker's), which then
// has no Config.Progress, or on one that NewTrainer built for the same
// fit (a resumed fit: the same corpus shape and Config, Progress aside),
// which keeps its Progress.
func (t *Trainer) UnmarshalBinary(b []byte) error {
	var w wireTrainer
	if err := blocks.UnmarshalState(b, &w, w.arrays); err != nil {
		return fmt.Errorf("corex: decoding the trainer: %w", err)
	}
	nt, err := w.trainer()
	if err != nil {
		return fmt.Errorf("corex: decoding the trainer: %w", err)
	}
	if t.cur != nil || t.final != nil {
		if !t.sameFit(nt) {
			c := t.cfg
			return fmt.Errorf("corex: the saved trainer (%d×%d, K=%d, seed %d, %d restarts, MaxIter %d, input %s) is not this fit's (%d×%d, K=%d, seed %d, %d restarts, MaxIter %d, input %s), or their Tol, Beta, vocabulary or anchors differ",
				w.Docs, w.Terms, w.K, w.Seed, w.Restarts, w.MaxIter, w.Input, t.n, t.nv, c.K, c.Seed, c.Restarts, c.MaxIter, c.Input)
		}
		nt.cfg.Progress = t.cfg.Progress
	}
	*t = *nt
	return nil
}

// sameFit reports whether u is a state of t's fit.
func (t *Trainer) sameFit(u *Trainer) bool {
	a, b := t.cfg, u.cfg
	return t.n == u.n && t.nv == u.nv && a.K == b.K && a.MaxIter == b.MaxIter && a.Tol == b.Tol && a.Seed == b.Seed &&
		a.Restarts == b.Restarts && a.Input == b.Input && a.Beta == b.Beta && a.KeepOrder == b.KeepOrder && slices.Equal(a.Vocab, b.Vocab) &&
		slices.Equal(t.pairs, u.pairs)
}

// trainer rebuilds the Trainer, checking the encoding.
func (w *wireTrainer) trainer() (*Trainer, error) {
	if w.Version != trainerVersion && w.Version != 1 {
		return nil, fmt.Errorf("encoding version %d, want %d", w.Version, trainerVersion)
	}
	cfg := Config{K: w.K, MaxIter: w.MaxIter, Tol: w.Tol, Seed: w.Seed, Restarts: w.Restarts, Input: w.Input, Vocab: w.Vocab, Beta: w.Beta, KeepOrder: w.KeepOrder}
	if w.Docs < 1 || w.Terms < 1 || w.K < 1 || w.MaxIter < 1 || w.Restarts < 1 || w.Tol == 0 || w.Beta == 0 {
		return nil, fmt.Errorf("%d documents, %d terms, K %d, MaxIter %d, %d restarts, Tol %v, Beta %v: not a resolved configuration", w.Docs, w.Terms, w.K, w.MaxIter, w.Restarts, w.Tol, w.Beta)
	}
	cfg, err := cfg.resolved(w.Terms)
	if err != nil {
		return nil, err
	}
	k, nv := w.K, w.Terms
	for _, p := range w.Pairs {
		if p.Topic < 0 || p.Topic >= k || p.Index < 0 || p.Index >= nv || !(p.Strength >= 0) || math.IsInf(p.Strength, 0) {
			return nil, fmt.Errorf("anchor %q (topic %d, column %d, strength %v) out of range", p.Word, p.Topic, p.Index, p.Strength)
		}
	}
	t := &Trainer{n: w.Docs, nv: nv, cfg: cfg, pairs: w.Pairs, warnings: w.Warnings, phase: phase(w.Phase),
		restart: w.Restart, iter: w.Iter, bestSeed: w.BestSeed, restartTCs: w.RestartTCs, start: time.Now()}
	t.byWord, t.byTopic = anchorTable(w.Pairs, nv, k)
	if t.phase > phaseDone || w.Restart < 0 || w.Restart >= cfg.Restarts || w.Iter < 0 || w.Iter >= cfg.MaxIter {
		return nil, fmt.Errorf("phase %d, restart %d, iteration %d out of range", w.Phase, w.Restart, w.Iter)
	}
	if w.Background != nil && (len(w.Background) != nv || cfg.Input != Fraction) {
		return nil, fmt.Errorf("%d background rates for %d terms (input %s)", len(w.Background), nv, cfg.Input)
	}
	t.bg = w.Background
	if w.Counts != nil {
		if len(w.Counts) != nv {
			return nil, fmt.Errorf("%d word counts for %d terms", len(w.Counts), nv)
		}
		t.d = wordData(w.Docs, w.Counts, t.bg)
	}
	if len(w.RestartTCs) != w.Restart && !(t.phase >= phaseOutput && len(w.RestartTCs) == w.Restart+1) {
		return nil, fmt.Errorf("%d restart TCs at restart %d", len(w.RestartTCs), w.Restart)
	}
	state := func(ws *wireState, current bool) (*fitState, error) {
		s := newTopicState(nv, k, t.byWord, t.byTopic)
		s.d = t.d
		for _, f := range []struct {
			name string
			dst  []float64
			src  []float64
		}{{"alpha", s.alpha, ws.Alpha}, {"info", s.info.RawMatrix().Data, ws.Info}, {"pdy", s.pdy.RawMatrix().Data, ws.Pdy},
			{"c0", s.c0, ws.C0}, {"c1", s.c1, ws.C1}, {"logPY", s.logPY, ws.LogPY}, {"tcs", s.tcs, ws.TCs}} {
			if f.name == "info" && !current {
				continue // recomputed (complete); version 1 encoded it
			}
			if len(f.src) != len(f.dst) {
				return nil, fmt.Errorf("state %s has %d values, want %d", f.name, len(f.src), len(f.dst))
			}
			copy(f.dst, f.src)
		}
		if !current {
			s.info = nil
		}
		if current {
			if len(ws.Tau) != nv || len(ws.Flip) != k {
				return nil, fmt.Errorf("state has %d temperatures and %d flips for %d terms and %d topics", len(ws.Tau), len(ws.Flip), nv, k)
			}
			copy(s.tau, ws.Tau)
			copy(s.flip, ws.Flip)
		} else if len(ws.History) == 0 {
			return nil, errors.New("a finished iteration without history")
		}
		if ws.Iterations != len(ws.History) {
			return nil, fmt.Errorf("state has %d iterations and a history of %d", ws.Iterations, len(ws.History))
		}
		s.history, s.iterations, s.converged = ws.History, ws.Iterations, ws.Converged
		return s, nil
	}
	if w.Cur != nil {
		if t.cur, err = state(w.Cur, true); err != nil {
			return nil, err
		}
	}
	if w.Last != nil {
		if t.last, err = state(w.Last, false); err != nil {
			return nil, err
		}
	}
	if w.Best != nil {
		if t.best, err = state(w.Best, false); err != nil {
			return nil, err
		}
	}
	if w.Next != nil {
		if err := t.successor(w); err != nil {
			return nil, err
		}
	}
	switch {
	case t.phase < phaseOutput && t.cur == nil:
		return nil, fmt.Errorf("phase %d without the current restart", t.phase)
	case t.phase == phaseIter && t.d == nil:
		return nil, errors.New("an iteration without word counts")
	case t.phase >= phaseOutput && t.best == nil:
		return nil, errors.New("a finished fit without its model")
	case t.phase >= phaseOutput && t.d == nil:
		return nil, errors.New("a finished fit without word counts")
	case t.d == nil && (t.last != nil || t.best != nil || w.Restart > 0):
		return nil, errors.New("iterations without word counts")
	}
	if t.phase == phaseIter && w.Next == nil {
		t.setZUnit()
	}
	if t.phase >= phaseOutput {
		t.final = t.buildModel(t.best, t.bestSeed, t.restartTCs)
	}
	return t, nil
}

// successor rebuilds the current restart that w encodes as Next (see
// wireTrainer): the iteration w.Iter begun from t.last, as reduceIter
// began it.
func (t *Trainer) successor(w *wireTrainer) error {
	k, nv := w.K, w.Terms
	l, ws := t.last, w.Last
	switch {
	case w.Version < 2 || w.Cur != nil || t.phase != phaseIter || l == nil:
		return fmt.Errorf("co-counts of the next iteration in phase %d (version %d, with the current restart: %t, with the last iteration: %t)", w.Phase, w.Version, w.Cur != nil, l != nil)
	case t.d == nil:
		return errors.New("an iteration without word counts")
	case len(w.Next) != nv*k:
		return fmt.Errorf("%d co-counts of the next iteration, want %d", len(w.Next), nv*k)
	case len(ws.Tau) != nv || len(ws.Flip) != k || len(ws.Psum) != k:
		return fmt.Errorf("the last iteration has %d temperatures, %d flips and %d sums of p for %d terms and %d topics", len(ws.Tau), len(ws.Flip), len(ws.Psum), nv, k)
	case l.iterations != w.Iter:
		return fmt.Errorf("the last iteration is iteration %d, the next iteration %d", l.iterations, w.Iter+1)
	}
	copy(l.tau, ws.Tau)
	copy(l.flip, ws.Flip)
	copy(l.psum, ws.Psum)
	s := newTopicState(nv, k, t.byWord, t.byTopic)
	l.snapshot(s)
	s.d = t.d
	copy(s.pdy.RawMatrix().Data, w.Next)
	t.cur = s
	t.beginIteration(w.Iter)
	return nil
}
