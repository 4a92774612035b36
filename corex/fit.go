package corex

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/npyrand"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Salts separating the random streams of one seed.
const (
	saltAlpha = 0xc0e7a1fa
	saltP     = 0xc0e7b0b0
	saltNoise = 0xc0e7d1ce
)

// Chunk sizes of the per-word and per-document passes: fixed, so that the
// random streams and the order of every sum do not depend on the number of
// cores.
const (
	wordChunk = 256
	docChunk  = 256
)

// Clipping bounds of the reference code.
const (
	pClip     = 1e-6 // p(y|x) in [1e-6, 1-1e-6]
	countClip = 0.01 // counts in [0.01, n-0.01]
	tieNoise  = 1e-10
	tauStart  = 20.0 // initial per-word softmax temperature
	tauGrowth = 1.3
	splitSum  = 1.1 // α summed over informative topics above which τ grows
)

// data is the preprocessed input and its per-word statistics.
type data struct {
	x       *sparse.CSR
	xt      *sparse.CSR // xᵀ for Xᵀ·p by gathers, nil when scatter is set
	n, nv   int
	logN    float64
	wc      []float64 // word counts clipped to [0.01, n-0.01]
	lp0     []float64 // log p(x_i = 0)
	pxFrac  []float64 // log p(x_i=0) − log p(x_i=1)
	hx      []float64 // binary entropy of x_i, bits
	bg      []float64 // background rates of Fraction input, nil otherwise
	binary  bool      // every stored value of x is 1 (see mul)
	scatter bool      // Xᵀ·p by TMulPattern over x (see tmul)
}

// scatterBytes is the size of the n × K factor p from which, for binary
// input, Xᵀ·p is scattered over X rather than gathered over Xᵀ (see
// data.tmul): the last-level cache of the development machine (32 MiB).
// Below it the gathered rows of p stay cached and gathers are faster
// (on 20 Newsgroups, 11,314 × 50, 0.01–0.05 s against 0.04–0.09 s per
// product: `go run ./bench/products -mtx X.mtx -k 50 -only 'ones(X)'`);
// above it every gathered row comes from memory, and the scatter, whose
// rows of the result follow the terms' Zipf law, is faster (docs/results/speed.md).
const scatterBytes = 32 << 20

// preprocess applies the input mode and returns x with values in [0, 1]
// (sharing nothing with the argument) and, for Fraction input, the
// background rates used.
func preprocess(x *sparse.CSR, in Input, bg []float64) (*sparse.CSR, []float64, error) {
	for p, v := range x.Data {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			i := rowOf(x, p)
			return nil, nil, fmt.Errorf("corex: input (%d, %d) = %v; want finite non-negative values", i, x.Indices[p], v)
		}
	}
	switch in {
	case Binarize:
		return x.Binarized(), nil, nil
	case Probabilities:
		for p, v := range x.Data {
			if v > 1 {
				return nil, nil, fmt.Errorf("corex: input (%d, %d) = %v is not a probability (input mode probabilities)", rowOf(x, p), x.Indices[p], v)
			}
		}
		return x.Clone(), nil, nil
	}
	// Fraction.
	out := x.Clone()
	if x.Max() <= 1 && bg == nil {
		return out, nil, nil
	}
	if bg == nil {
		colSums := x.ColSums()
		total := x.Sum()
		bg = make([]float64, x.Cols)
		for j, c := range colSums {
			if c > 0 {
				bg[j] = total / c
			}
		}
	}
	for i := 0; i < out.Rows; i++ {
		lo, hi := out.Indptr[i], out.Indptr[i+1]
		length := 0.0
		for p := lo; p < hi; p++ {
			length += out.Data[p]
		}
		length = max(length, 1)
		for p := lo; p < hi; p++ {
			out.Data[p] = min(max(out.Data[p]*bg[out.Indices[p]]/length, 0), 1)
		}
	}
	return out, bg, nil
}

// rowOf returns the row holding stored entry p.
func rowOf(x *sparse.CSR, p int) int {
	return sort.Search(x.Rows, func(i int) bool { return x.Indptr[i+1] > p })
}

// newData computes the word statistics of preprocessed input.
// k is the number of topics, which decides how Xᵀ·p is computed (tmul).
func newData(x *sparse.CSR, bg []float64, k int) *data {
	d := wordData(x.Rows, x.ColSums(), bg)
	d.x = x
	d.binary = x.IsBinary()
	d.scatter = d.binary && x.Rows*kernels.Pad(k)*8 >= scatterBytes
	if !d.scatter {
		d.xt = x.T()
	}
	return d
}

// mul computes dst = a·b: by sparse.MulPattern when a is binary (the
// default input mode; data.binary for its x and xt, a.IsBinary() for
// others), which gives MulDense's bits faster on short rows, else by
// sparse.MulDense.
func mul(dst *mat.Dense, a *sparse.CSR, b *mat.Dense, binary bool) error {
	if binary {
		return sparse.MulPattern(dst, a, b)
	}
	return sparse.MulDense(dst, a, b)
}

// tmul computes dst = xᵀ·b, the per-word product of an iteration. With
// d.scatter (binary x, b larger than scatterBytes) it is
// sparse.TMulPattern's tiled scatter over x, which gives the bits of
// MulPattern over xᵀ without xᵀ and reads the rows of b in order instead
// of gathering each from memory once per entry; otherwise the gathers of
// mul over d.xt.
func (d *data) tmul(dst, b *mat.Dense) error {
	if d.scatter {
		return sparse.TMulPattern(dst, d.x, b)
	}
	return mul(dst, d.xt, b, d.binary)
}

// wordData computes the word statistics of n documents from their word
// counts wc (of preprocessed input), which it clips in place and keeps,
// leaving the matrices x and xt nil: all that the per-word pass needs.
// Clipping is idempotent, so that counts already clipped give the same
// statistics.
func wordData(n int, wc, bg []float64) *data {
	nv := len(wc)
	d := &data{n: n, nv: nv, logN: math.Log(float64(n)), bg: bg,
		wc: wc, lp0: make([]float64, nv), pxFrac: make([]float64, nv), hx: make([]float64, nv)}
	for i, c := range d.wc {
		c = min(max(c, countClip), float64(n)-countClip)
		d.wc[i] = c
		f := c / float64(n)
		d.lp0[i] = math.Log1p(-f)
		d.pxFrac[i] = d.lp0[i] - math.Log(f)
		d.hx[i] = binaryEntropyBits(f)
	}
	return d
}

// binaryEntropyBits is −p log₂ p − (1−p) log₂(1−p), 0 at p ≤ 0.
func binaryEntropyBits(p float64) float64 {
	if p <= 0 {
		return 0
	}
	if p >= 1 {
		return 0
	}
	return -(p*math.Log(p) + (1-p)*math.Log1p(-p)) / math.Ln2
}

// fitState is one restart in progress. Word-indexed arrays are word-major:
// entry (i, j) of a terms × K array is at i*K + j.
type fitState struct {
	d       *data
	m       int
	anchors [][]anchorRef // per word, nil without anchors
	hold    *hold         // documents held to topics (Config.Hold), nil without
	byTopic [][]int       // anchor columns per topic

	p      *mat.Dense // n × m, p(y_j = 1 | x)
	logP   *mat.Dense // n × m, log p(y_j = 1 | x) before clipping
	logZ   *mat.Dense // n × m, pointwise TC
	pdy    *mat.Dense // nv × m, Xᵀ·p
	info   *mat.Dense // nv × 2m: α·(log p(x=1|y=0)/p(x=0|y=0) + pxFrac) | same for y=1
	u      *mat.Dense // n × 2m, X·info
	psum   []float64  // column sums of p
	logPY  []float64
	tcs    []float64
	c0, c1 []float64

	alpha, tau         []float64
	flip               []bool
	chunkC             []float64 // per word chunk: c0 (m) then c1 (m)
	chunkBest          []float64 // per word chunk: best MI per topic
	chunkIdx           []int
	chunkFlip          []bool
	chunkDoc           []float64 // per doc chunk: Σ log Z (m) then Σ p (m)
	history            []float64
	npr                *npyrand.MT19937 // numpy's stream (Config.NumpyRandom)
	npShift            bool             // skip one 32-bit draw per word (Config.npShift)
	noiseBuf           []float64
	noiseSlot          []int // the tie-breaking draw of each topic, nil: its column
	iterations         int
	converged          bool
	wordChunks, dChunk int
}

func newFitState(d *data, m int, byWord [][]anchorRef, byTopic [][]int) *fitState {
	n := d.n
	dc := (n + docChunk - 1) / docChunk
	s := newTopicState(d.nv, m, byWord, byTopic)
	s.d = d
	s.p, s.logP, s.logZ = mat.NewDense(n, m, nil), mat.NewDense(n, m, nil), mat.NewDense(n, m, nil)
	s.u = mat.NewDense(n, 2*m, nil)
	s.chunkDoc, s.dChunk = make([]float64, dc*2*m), dc
	return s
}

// newTopicState returns a restart's state without its data (d, set by the
// caller) and without any per-document array (p, logP, logZ, u,
// chunkDoc): the topic-side state of nv words and m topics, which is all
// that the out-of-core Trainer keeps.
func newTopicState(nv, m int, byWord [][]anchorRef, byTopic [][]int) *fitState {
	wc := (nv + wordChunk - 1) / wordChunk
	return &fitState{
		m: m, anchors: byWord, byTopic: byTopic,
		pdy: mat.NewDense(nv, m, nil), info: mat.NewDense(nv, 2*m, nil),
		psum: make([]float64, m), logPY: make([]float64, m), tcs: make([]float64, m),
		c0: make([]float64, m), c1: make([]float64, m),
		alpha: make([]float64, nv*m), tau: make([]float64, nv),
		flip:   make([]bool, m),
		chunkC: make([]float64, wc*2*m), chunkBest: make([]float64, wc*m), chunkIdx: make([]int, wc*m), chunkFlip: make([]bool, wc*m),
		wordChunks: wc, noiseSlot: noiseSlots(byTopic),
	}
}

// noiseSlots returns, for each topic, which of the m tie-breaking draws of
// a word it takes: its own column, except that the anchored topics take
// the columns of the anchored topics in the order of their anchors (by
// anchor columns), so that the draws follow the anchors and not the
// order in which the topics were given. It returns nil when that is every
// topic's own column.
func noiseSlots(byTopic [][]int) []int {
	var cols []int
	var keys [][]int
	for j, a := range byTopic {
		if len(a) > 0 {
			cols = append(cols, j)
			k := slices.Clone(a)
			slices.Sort(k)
			keys = append(keys, k)
		}
	}
	order := make([]int, len(cols)) // anchored topics by anchors
	for r := range order {
		order[r] = r
	}
	sort.SliceStable(order, func(a, b int) bool { return slices.Compare(keys[order[a]], keys[order[b]]) < 0 })
	slot := make([]int, len(byTopic))
	same := true
	for j := range slot {
		slot[j] = j
	}
	for r, o := range order {
		slot[cols[o]] = cols[r]
		same = same && cols[o] == cols[r]
	}
	if same {
		return nil
	}
	return slot
}

// initialize draws the start. Unanchored topics start at random: α
// uniform in [0,1) (1 for a single topic) and p(y|x) uniform. An anchored
// topic starts from its anchors (see Config.NumpyRandom for the
// reference's start instead): p(y|x) is ¾ where one of its anchor words
// is present and ¼ elsewhere (see mixAnchors), and α is zero for its
// other words until the first α update. The draws are made either way, so
// that the unanchored topics' streams do not depend on which topics are
// anchored. Random streams depend on the seed only. With numpy set, the
// draws come from numpy's legacy generator seeded like
// np.random.seed(seed), in the reference's order (α as K × terms, then p
// as documents × K), and so does the tie-breaking noise.
func (s *fitState) initialize(seed uint64, numpy bool) {
	d, m := s.d, s.m
	next := s.initTopics(seed, numpy)
	raw := s.p.RawMatrix()
	for k := range raw.Data[:d.n*m] {
		raw.Data[k] = next()
	}
	s.anchorStart(numpy)
}

// initTopics draws the topic-side part of the random start (α, and τ at
// its start value; without numpy an anchored topic's α is then zero but
// for its anchor words, see initialize) and returns the generator of
// p(y|x)'s start: numpy's stream continuing after α with numpy set, else
// stream 0 of saltP.
func (s *fitState) initTopics(seed uint64, numpy bool) (nextP func() float64) {
	m, nv := s.m, len(s.tau)
	var next func() float64
	if numpy {
		s.npr = npyrand.New(uint32(seed))
		next = s.npr.Float64
	} else {
		next = rng.New(seed, 0, saltAlpha).Float64
	}
	if m > 1 {
		// The reference draws α as K × terms; draw in that order.
		for j := 0; j < m; j++ {
			for i := 0; i < nv; i++ {
				s.alpha[i*m+j] = next()
			}
		}
	} else {
		for i := range s.alpha {
			s.alpha[i] = 1
		}
	}
	for i := range s.tau {
		s.tau[i] = tauStart
	}
	if !numpy {
		// An anchored topic's first labels come from its anchors alone
		// (the anchor words' α is set in every word pass).
		for j, cols := range s.byTopic {
			if len(cols) == 0 {
				continue
			}
			for i := 0; i < nv; i++ {
				s.alpha[i*m+j] = 0
			}
		}
		next = rng.New(seed, 0, saltP).Float64
	}
	return next
}

// startFrom replaces the start of each topic whose column of p0 has a
// positive entry by that column and its row of alpha0 (Config.P0 and
// Alpha0; nothing when p0 is nil), and sums p's columns again.
func (s *fitState) startFrom(p0, alpha0 *mat.Dense) {
	if p0 == nil {
		return
	}
	d, m := s.d, s.m
	for j := 0; j < m; j++ {
		given := false
		for l := 0; l < d.n && !given; l++ {
			given = p0.At(l, j) > 0
		}
		if !given {
			continue
		}
		for l := 0; l < d.n; l++ {
			s.p.Set(l, j, p0.At(l, j))
		}
		for i, a := range alpha0.RawRowView(j) {
			s.alpha[i*m+j] = a
		}
	}
	for j := range s.psum {
		s.psum[j] = 0
	}
	for l := 0; l < d.n; l++ {
		for j, v := range s.p.RawRowView(l) {
			s.psum[j] += v
		}
	}
}

// anchorStart sets the start p(y|x) of each anchored topic from its
// anchor words (the reference's mix with the draw with reference set, see
// mixAnchors), and sums p's columns.
func (s *fitState) anchorStart(reference bool) {
	d := s.d
	mixAnchors(d.x, s.p, s.byTopic, 0, d.n, reference)
	for j := range s.psum {
		s.psum[j] = 0
	}
	for l := 0; l < d.n; l++ {
		for j, v := range s.p.RawRowView(l) {
			s.psum[j] += v
		}
	}
}

// mixAnchors replaces, in rows [lo, hi) of p (the drawn p(y|x) of x's
// documents), the entry of each anchored topic by ¼ + ½·(the largest value
// of its anchor words in the document): for binary input ¾ when one of
// them is present, else ¼. That is the reference's start with its random
// half replaced by its mean ½ and any anchor word counting as the anchors'
// presence. With reference set it is the reference's start: the mean of
// the draw and the mean presence of the anchor words. There a document
// holding one of five anchor words gains 0.1 over a draw spread over
// [0, 0.5], so that the anchored topic's start is mostly the draw, and
// which topics end up following their anchors depends on the draw (and so
// on the topics' order).
func mixAnchors(x *sparse.CSR, p *mat.Dense, byTopic [][]int, lo, hi int, reference bool) {
	for j, cols := range byTopic {
		if len(cols) == 0 {
			continue
		}
		for l := lo; l < hi; l++ {
			p0, p1 := x.Indptr[l], x.Indptr[l+1]
			sum, top := 0.0, 0.0
			for _, c := range cols {
				// Binary search in the row's sorted columns.
				k := sort.Search(p1-p0, func(k int) bool { return int(x.Indices[p0+k]) >= c })
				if k < p1-p0 && int(x.Indices[p0+k]) == c {
					sum += x.Data[p0+k]
					top = max(top, x.Data[p0+k])
				}
			}
			row := p.RawRowView(l)
			if reference {
				row[j] = 0.5*row[j] + 0.5*sum/float64(len(cols))
			} else {
				row[j] = 0.25 + 0.5*min(top, 1)
			}
		}
	}
}

// run iterates until convergence or MaxIter.
func (s *fitState) run(ctx context.Context, cfg Config, seed uint64, restart int) error {
	start := time.Now()
	d := s.d
	n := float64(d.n)
	for iter := 0; iter < cfg.MaxIter; iter++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if iter > 1 {
			s.flipTopics()
		}
		for j := range s.logPY {
			s.logPY[j] = math.Log(s.psum[j] / n)
		}
		if err := d.tmul(s.pdy, s.p); err != nil {
			return err
		}
		s.wordPass(iter, seed)
		s.hold.keep(s.flip)
		if err := mul(s.u, d.x, s.info, d.binary); err != nil {
			return err
		}
		s.latentPass()
		s.hold.apply(s)
		tc := 0.0
		for _, t := range s.tcs {
			tc += t
		}
		if math.IsNaN(tc) || math.IsInf(tc, 0) {
			return fmt.Errorf("corex: iteration %d: the total correlation is %v: the computation is no longer finite", iter+1, tc)
		}
		s.history = append(s.history, tc)
		s.iterations = iter + 1
		if cfg.Progress != nil {
			cfg.Progress(progress.Step{Run: restart, Runs: cfg.Restarts, Iter: iter + 1, Total: cfg.MaxIter, Objective: tc, Elapsed: time.Since(start)})
		}
		if converged(s.history, cfg.Tol) {
			s.converged = true
			break
		}
	}
	return nil
}

// converged applies the reference's rule to the TC history.
func converged(h []float64, tol float64) bool {
	d, ok := tcChange(h)
	return ok && d < tol
}

// tcChange is what the reference's rule measures after the TC history h:
// the change between the mean TC of the last 5 iterations and that of the
// 5 before; false when there are 10 iterations or fewer.
func tcChange(h []float64) (float64, bool) {
	if len(h) <= 10 {
		return 0, false
	}
	var a, b float64
	for _, v := range h[len(h)-10 : len(h)-5] {
		a += v
	}
	for _, v := range h[len(h)-5:] {
		b += v
	}
	return math.Abs(b/5 - a/5), true
}

// convergence is how a restart with the TC history h ended: converged by
// the rule of cfg.Tol, or at cfg.MaxIter, with the rule's last
// measurement.
func convergence(h []float64, conv bool, cfg Config) progress.Convergence {
	c := progress.Convergence{Status: progress.IterationLimit, MaxIter: cfg.MaxIter}
	switch {
	case conv:
		c.Status = progress.Converged
	case cfg.Tol < 0:
		c.Status = progress.FixedIterations
		return c
	}
	if d, ok := tcChange(h); ok {
		c = c.WithMeasure("change of the mean total correlation over 5 iterations, in nats,", d, cfg.Tol)
	}
	return c
}

// flipTopics turns y_j into 1 − y_j for every topic whose highest-MI word
// is less likely to be present when y_j = 1 than when y_j = 0.
func (s *fitState) flipTopics() {
	any := false
	for _, f := range s.flip {
		any = any || f
	}
	if !any {
		return
	}
	m := s.m
	parallel.For(s.d.n, docChunk, func(lo, hi int) {
		for l := lo; l < hi; l++ {
			row := s.p.RawRowView(l)
			for j := 0; j < m; j++ {
				if s.flip[j] {
					row[j] = 1 - row[j]
				}
			}
		}
	})
	for j, f := range s.flip {
		if f {
			s.psum[j] = float64(s.d.n) - s.psum[j]
		}
	}
}

// marg holds the per-topic constants of the marginals of one iteration.
type marg struct {
	n, bias  float64
	py       []float64 // p(y_j = 1)
	inv1     []float64 // 1 / (n p(y_j))
	inv0     []float64 // 1 / (n (1 − p(y_j)))
	lo1, hi1 []float64 // clipping bounds of the co-counts
}

func newMarg(n int, logPY []float64) *marg {
	m := len(logPY)
	g := &marg{n: float64(n), bias: 1 / (2 * float64(n)), py: make([]float64, m), inv1: make([]float64, m), inv0: make([]float64, m),
		lo1: make([]float64, m), hi1: make([]float64, m)}
	for j, l := range logPY {
		py := math.Exp(l)
		g.py[j] = py
		g.inv1[j] = 1 / (g.n * py)
		g.inv0[j] = 1 / (g.n * (1 - py))
		g.lo1[j], g.hi1[j] = countClip*py, (g.n-countClip)*py
	}
	return g
}

// wordBuf is the scratch of the marginals of one word and m topics: the
// four log marginals (lp11 and lp10 contiguous, so that one call of
// kernels.Log computes both), the mutual information, the probabilities,
// and the logarithms of 1 − p computed as logarithms (not series) with
// where they go.
type wordBuf struct {
	lp                     []float64 // lp11, lp10, lp01, lp00 in turn
	lp11, lp01, lp10, lp00 []float64 // log p(x=1|y=1), log p(x=0|y=1), log p(x=1|y=0), log p(x=0|y=0)
	mi                     []float64 // mutual information (reference units)
	p1, p0                 []float64 // p(x=1|y=1), p(x=1|y=0)
	q                      []float64 // 1 − p, then its logarithm
	qi                     []int     // where in lp each q goes
}

func newWordBuf(m int) *wordBuf {
	b := make([]float64, 9*m)
	w := &wordBuf{lp: b[:4*m], mi: b[4*m : 5*m], p1: b[5*m : 6*m], p0: b[6*m : 7*m], q: b[7*m:], qi: make([]int, 2*m)}
	w.lp11, w.lp10, w.lp01, w.lp00 = w.lp[:m], w.lp[m:2*m], w.lp[2*m:3*m], w.lp[3*m:]
	return w
}

// word computes, for one word with count wc and entropy hx (bits) and
// co-counts pdy with the topics, the log marginals and the mutual
// information into w.
func (g *marg) word(w *wordBuf, pdy []float64, wc, hx float64) {
	g.wordRaw(w, pdy, wc, hx, nil)
}

// wordRaw is word that also stores, when raw is not nil, the mutual
// information before the bias correction and the clipping, in bits. The
// logarithms are those of log and log1mp, those computed as logarithms
// four at a time.
func (g *marg) wordRaw(w *wordBuf, pdy []float64, wc, hx float64, raw []float64) {
	const invLn2 = 1 / math.Ln2
	m := len(pdy)
	// Slices of length m, so that the loops check no bounds; the
	// comparisons clip as min and max do on these finite values with
	// positive bounds.
	lo1, hi1, inv1, inv0, py := g.lo1[:m], g.hi1[:m], g.inv1[:m], g.inv0[:m], g.py[:m]
	wp1, wp0, mi := w.p1[:m], w.p0[:m], w.mi[:m]
	lp11, lp10, lp01, lp00 := w.lp11[:m], w.lp10[:m], w.lp01[:m], w.lp00[:m]
	q, qi := w.q[:2*m], w.qi[:2*m]
	nq := 0
	for j, v := range pdy {
		if v < lo1[j] {
			v = lo1[j]
		}
		if v > hi1[j] {
			v = hi1[j]
		}
		p1 := v * inv1[j]
		p0 := (wc - v) * inv0[j]
		if p0 < 1e-300 {
			p0 = 1e-300
		}
		if p0 > 1-1e-16 {
			p0 = 1 - 1e-16
		}
		wp1[j], wp0[j] = p1, p0
		lp11[j], lp10[j] = p1, p0
		if p1 < log1mpSeries {
			lp01[j] = log1mpSmall(p1)
		} else {
			q[nq], qi[nq] = 1-p1, 2*m+j
			nq++
		}
		if p0 < log1mpSeries {
			lp00[j] = log1mpSmall(p0)
		} else {
			q[nq], qi[nq] = 1-p0, 3*m+j
			nq++
		}
	}
	kernels.Log(w.lp[:2*m], w.lp[:2*m])
	kernels.Log(q[:nq], q[:nq])
	for t, i := range qi[:nq] {
		w.lp[i] = q[t]
	}
	for j, p1 := range wp1 {
		p0 := wp0[j]
		a, b, e, f := lp11[j], lp01[j], lp10[j], lp00[j]
		h1 := (p1*a + (1-p1)*b) * invLn2 // −h(X|y=1)
		h0 := (p0*e + (1-p0)*f) * invLn2 // −h(X|y=0)
		pj := py[j]
		r := hx + pj*h1 + (1-pj)*h0
		x := r - g.bias
		if x <= 0 { // max(x, 0): −0 becomes +0, NaN stays
			x = 0
		}
		mi[j] = x
		if raw != nil {
			raw[j] = r
		}
	}
}

// log1mpSeries is where log1mp, and the per-document pass's log(1 + e),
// change from their series to the logarithm.
const log1mpSeries = 1e-3

// log1mp returns log(1 − p) for p in [0, 1), to a few units in the last
// place: a series for small p, where 1 − p would lose digits, and the
// logarithm of 1 − p otherwise (relative error below 2e-13).
func log1mp(p float64) float64 {
	if p < log1mpSeries {
		return log1mpSmall(p)
	}
	return math.Log(1 - p)
}

// log1mpSmall is log1mp's series, for p below log1mpSeries: small enough
// to be inlined where most words take it.
func log1mpSmall(p float64) float64 {
	// −p − p²/2 − p³/3 − p⁴/4 − p⁵/5; the next term is below 2e-16·p.
	return -p * (1 + p*(0.5+p*(1.0/3+p*(0.25+p*0.2))))
}

// log1pSeries is the series of log(1 + e), for e below log1mpSeries,
// where the per-document pass takes it instead of the logarithm.
func log1pSeries(e float64) float64 {
	return e * (1 - e*(0.5-e*(1.0/3-e*(0.25-e*0.2))))
}

// wordPass computes, for every word, the marginals p(x_i|y_j), the mutual
// information, α (from the second iteration on), the anchors' α and the
// terms of log p(y|x): the info matrix and the constants c0, c1. It also
// finds each topic's word of highest MI and whether that word's presence
// is negatively related to the topic (for the next iteration's flip).
func (s *fitState) wordPass(iter int, seed uint64) {
	d, m := s.d, s.m
	n := float64(d.n)
	g := newMarg(d.n, s.logPY)
	tcOOM := 1 / n
	update := iter > 0
	var hooked []float64
	if s.npr != nil && update && m > 1 {
		// numpy's stream is sequential: the reference draws the noise of
		// each word in turn.
		if s.noiseBuf == nil {
			s.noiseBuf = make([]float64, d.nv*m)
		}
		for i := 0; i < d.nv; i++ {
			if s.npShift {
				s.npr.Uint32()
			}
			for j := 0; j < m; j++ {
				s.noiseBuf[i*m+j] = s.npr.Float64()
			}
		}
		hooked = s.noiseBuf
	}
	// Per topic for the whole pass: |TC| and whether the topic is
	// informative (its α counts towards splitting a word).
	absTC, informative := make([]float64, m), make([]bool, m)
	for j, t := range s.tcs {
		absTC[j], informative[j] = math.Abs(t), t > tcOOM
	}
	parallel.For(s.wordChunks, 1, func(clo, chi int) {
		w := newWordBuf(m)
		lp11, lp01, lp10, lp00, mi := w.lp11, w.lp01, w.lp10, w.lp00, w.mi
		draws, zs := make([]float64, m), make([]float64, m)
		for c := clo; c < chi; c++ {
			var noise rng.Source
			if update && m > 1 {
				noise = rng.New(seed, uint64(iter)<<32|uint64(c), saltNoise)
			}
			cc := s.chunkC[c*2*m : (c+1)*2*m]
			clear(cc)
			c0, c1 := cc[:m], cc[m:]
			best := s.chunkBest[c*m : (c+1)*m]
			bidx := s.chunkIdx[c*m : (c+1)*m]
			bflip := s.chunkFlip[c*m : (c+1)*m]
			for j := range best {
				best[j] = math.Inf(-1)
				bidx[j] = -1
			}
			ilo, ihi := c*wordChunk, min((c+1)*wordChunk, d.nv)
			for i := ilo; i < ihi; i++ {
				o := i * m
				hx := d.hx[i]
				g.word(w, s.pdy.RawRowView(i), d.wc[i], hx)
				al := s.alpha[o : o+m]
				anchored := s.anchors != nil && s.anchors[i] != nil
				split := update && m > 1
				if update && m == 1 {
					al[0] = 1
				}
				if split {
					// One pass: the noise, the largest MI, and α
					// summed over the informative topics (the
					// previous iteration's α).
					maxmi, sa := math.Inf(-1), 0.0
					switch {
					case hooked != nil:
						for j, h := range hooked[o : o+m] {
							mi[j] += tieNoise * h
						}
					case s.noiseSlot != nil:
						for j := range draws {
							draws[j] = noise.Float64()
						}
						for j, k := range s.noiseSlot {
							mi[j] += tieNoise * draws[k]
						}
					default:
						for j := range mi {
							mi[j] += tieNoise * noise.Float64()
						}
					}
					for j, v := range mi {
						if s.anchors == nil || !excludedFrom(s.anchors, i, j) {
							// An excluded topic's MI does not set the
							// scale: a word excluded from the topic it
							// fits best still belongs to the others.
							maxmi = max(maxmi, v)
						}
						if informative[j] {
							sa += al[j]
						}
					}
					if sa > splitSum {
						s.tau[i] *= tauGrowth
					}
					tau := s.tau[i]
					invH := 1 / hx
					for j, v := range mi {
						zs[j] = (1 + tau*absTC[j]) * (v - maxmi) * invH
					}
					kernels.Exp(al, zs) // math.Exp's bits: 0 below −745.13
				}
				if anchored {
					// An anchored word belongs to its anchored topics only;
					// an excluded one (strength 0) to every topic but those.
					refs := s.anchors[i]
					for _, a := range refs {
						if a.strength > 0 {
							clear(al)
							break
						}
					}
					for _, a := range refs {
						al[a.topic] = a.strength
					}
				}
				inf := s.info.RawRowView(i)
				inf0, inf1 := inf[:m], inf[m:2*m]
				pf, l0 := d.pxFrac[i], d.lp0[i]
				for j, a := range al {
					if a == 0 {
						inf0[j], inf1[j] = 0, 0
					} else {
						inf0[j] = a * (lp10[j] - lp00[j] + pf)
						inf1[j] = a * (lp11[j] - lp01[j] + pf)
						c0[j] += a * (lp00[j] - l0)
						c1[j] += a * (lp01[j] - l0)
					}
					if mi[j] > best[j] {
						best[j], bidx[j] = mi[j], i
						bflip[j] = lp11[j] < lp10[j]
					}
				}
			}
		}
	})
	clear(s.c0)
	clear(s.c1)
	for j := range s.flip {
		s.flip[j] = false
	}
	bestMI := make([]float64, m)
	for j := range bestMI {
		bestMI[j] = math.Inf(-1)
	}
	for c := 0; c < s.wordChunks; c++ {
		cc := s.chunkC[c*2*m : (c+1)*2*m]
		for j := 0; j < m; j++ {
			s.c0[j] += cc[j]
			s.c1[j] += cc[m+j]
			if k := c*m + j; s.chunkIdx[k] >= 0 && s.chunkBest[k] > bestMI[j] {
				bestMI[j] = s.chunkBest[k]
				s.flip[j] = s.chunkFlip[k]
			}
		}
	}
}

// latentPass computes p(y|x), log p(y|x) and the pointwise TC log Z of
// every document from u = X·info, then TC per topic and the column sums of
// p.
func (s *fitState) latentPass() {
	sums := latent(s.u, s.m, s.logPY, s.c0, s.c1, s.p, s.logP, s.logZ, s.chunkDoc)
	clear(s.tcs)
	clear(s.psum)
	m := s.m
	for c := 0; c < len(sums)/(2*m); c++ {
		cs := sums[c*2*m : (c+1)*2*m]
		for j := 0; j < m; j++ {
			s.tcs[j] += cs[j]
			s.psum[j] += cs[m+j]
		}
	}
	for j := range s.tcs {
		s.tcs[j] /= float64(s.d.n)
	}
}

// latent fills p = p(y=1|x) clipped to [1e-6, 1−1e-6], logP = log p(y=1|x)
// (unclipped) and logZ, the pointwise TC, for every row of u = X·info
// (rows × 2m: the y=0 terms, then the y=1 terms); logP and logZ may both
// be nil, when only their sums are wanted (an out-of-core iteration). It
// returns, per chunk of docChunk rows, the sums of log Z (m values) and of
// p (m values), in sums when it is large enough.
func latent(u *mat.Dense, m int, logPY, c0, c1 []float64, p, logP, logZ *mat.Dense, sums []float64) []float64 {
	rows, _ := u.Dims()
	// The constant parts of a1 and a0 below: (log p(y) + c1) + u1 and
	// (log(1 − p(y)) + c0) + u0, added in that order.
	k1, k0 := make([]float64, m), make([]float64, m)
	for j, l := range logPY {
		k1[j] = l + c1[j]
		k0[j] = math.Log1p(-math.Exp(l)) + c0[j]
	}
	chunks := (rows + docChunk - 1) / docChunk
	if len(sums) < chunks*2*m {
		sums = make([]float64, chunks*2*m)
	}
	sums = sums[:chunks*2*m]
	parallel.For(chunks, 1, func(clo, chi int) {
		// ev is padded to a multiple of 4, so that kernels.Exp takes no
		// partial block; the padding is never read.
		mp := kernels.Pad(m)
		ev, lv, li := make([]float64, mp), make([]float64, m), make([]int, m)
		a1s, a0s := make([]float64, m), make([]float64, m)
		for c := clo; c < chi; c++ {
			cs := sums[c*2*m : (c+1)*2*m]
			clear(cs)
			csz, csp := cs[:m], cs[m:2*m]
			for l := c * docChunk; l < min((c+1)*docChunk, rows); l++ {
				ur := u.RawRowView(l)
				u0, u1 := ur[:m], ur[m:2*m]
				pr := p.RawRowView(l)[:m]
				var lpr, lzr []float64
				if logP != nil {
					lpr, lzr = logP.RawRowView(l)[:m], logZ.RawRowView(l)[:m]
				}
				// log Z = logaddexp(a0, a1), p = exp(a1 − log Z), with
				// one exponential and one logarithm per topic (a series
				// for the logarithm of 1 + e, e small), computed four at
				// a time.
				for j, k := range k1 {
					a1, a0 := k+u1[j], k0[j]+u0[j]
					a1s[j], a0s[j] = a1, a0
					ev[j] = -math.Abs(a1 - a0)
				}
				kernels.Exp(ev, ev)
				nl := 0
				for j, e := range ev[:m] {
					if e >= log1mpSeries {
						lv[nl], li[nl] = 1+e, j
						nl++
					}
				}
				kernels.Log(lv[:nl], lv[:nl])
				t := 0 // the next of lv
				for j, a1 := range a1s {
					a0 := a0s[j]
					dlt := a1 - a0
					e := ev[j]
					var l1p float64
					if t < nl && li[t] == j {
						l1p = lv[t]
						t++
					} else {
						l1p = log1pSeries(e) // e < log1mpSeries: not in lv
					}
					var lz, lp, pv float64
					if dlt > 0 {
						lz, lp, pv = a1+l1p, -l1p, 1/(1+e)
					} else {
						lz, lp, pv = a0+l1p, dlt-l1p, e/(1+e)
					}
					if pv < pClip { // min(max(pv, pClip), 1−pClip)
						pv = pClip
					}
					if pv > 1-pClip {
						pv = 1 - pClip
					}
					pr[j] = pv
					if lpr != nil {
						lpr[j], lzr[j] = lp, lz
					}
					csz[j] += lz
					csp[j] += pv
				}
			}
		}
	})
	return sums
}

// excludedFrom reports whether word i is excluded from topic j (an anchor
// reference of strength 0).
func excludedFrom(anchors [][]anchorRef, i, j int) bool {
	if anchors == nil {
		return false
	}
	for _, a := range anchors[i] {
		if a.topic == j && a.strength == 0 {
			return true
		}
	}
	return false
}
