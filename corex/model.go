package corex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// DocTopics holds the topics of a set of documents, each matrix documents ×
// topics.
type DocTopics struct {
	// P is p(y_j = 1 | x), clipped to [1e-6, 1 − 1e-6] as in the
	// reference. Rows need not sum to 1: a document may belong to several
	// topics or none.
	P *mat.Dense
	// LogP is log p(y_j = 1 | x) before clipping (nats).
	LogP *mat.Dense
	// LogZ is the pointwise TC of each document and topic (nats); its
	// column means are the topics' TC on these documents.
	LogZ *mat.Dense
}

// Labels returns, for each document, the topics with p(y_j = 1 | x) > 0.5
// in increasing order (the reference's labels).
func (d *DocTopics) Labels() [][]int {
	n, _ := d.P.Dims()
	out := make([][]int, n)
	for l := 0; l < n; l++ {
		for j, v := range d.P.RawRowView(l) {
			if v > 0.5 {
				out[l] = append(out[l], j)
			}
		}
	}
	return out
}

// LabelMatrix returns the labels as a binary documents × topics matrix, the
// input of a next layer (FitHierarchy).
func (d *DocTopics) LabelMatrix() *sparse.CSR {
	n, k := d.P.Dims()
	x := &sparse.CSR{Rows: n, Cols: k, Indptr: make([]int, n+1)}
	for l := 0; l < n; l++ {
		for j, v := range d.P.RawRowView(l) {
			if v > 0.5 {
				x.Indices = append(x.Indices, int32(j))
				x.Data = append(x.Data, 1)
			}
		}
		x.Indptr[l+1] = len(x.Data)
	}
	return x
}

// Argmax returns, for each document, the topic of highest log p(y_j=1|x)
// (the first on ties): a hard clustering for clustering scores.
func (d *DocTopics) Argmax() []int {
	return metrics.ArgmaxRows(d.LogP)
}

// Model is a fitted CorEx topic model.
type Model struct {
	// K is the number of topics and Terms the number of columns.
	K, Terms int
	// Vocab names the columns (nil when Config.Vocab was nil).
	Vocab []string
	// Input is the input mode the model was fitted with; Transform
	// applies it to new documents.
	Input Input
	// TC is the total correlation explained, Σ TCs, and TCs[j] topic j's
	// share: the mean pointwise TC of the training documents (nats).
	// Unanchored models order their topics by decreasing TC.
	TC  float64
	TCs []float64
	// History is the TC after each iteration of the kept restart.
	History []float64
	// Iterations is the number of iterations of the kept restart, and
	// Convergence says how it ended: converged (it met the tolerance),
	// stopped at MaxIter, or cancelled (the fit's context was done before
	// every restart ended; the model is then returned with its error).
	Iterations  int
	Convergence progress.Convergence
	// Seed is the seed of the kept restart; RestartTCs the final TC of
	// every restart, in order.
	Seed       uint64
	RestartTCs []float64
	// Anchors lists the anchored (topic, term) pairs in use, then the
	// excluded ones (Strength 0).
	Anchors []AnchorWord
	// Warnings reports words present in no or every document.
	Warnings []string
	// PY is p(y_j = 1), the share of documents in each topic.
	PY []float64
	// Train holds the training documents' topics.
	Train *DocTopics

	alpha, mi []float64 // terms × K, word-major
	miNats    []float64
	sign      []int8
	info      *mat.Dense // terms × 2K
	c0, c1    []float64
	logPY     []float64
	bg        []float64
	anchored  bool
}

// Fit fits CorEx to X, a documents × terms matrix (see Config.Input for
// how its values are read), with cfg.Restarts random starts, keeping the
// one with the highest total TC. It returns an error for invalid input or
// configuration (naming the entry or field). When ctx is done, Fit stops
// and returns the best of the restarts so far — the current one as its
// last complete iteration left it — together with ctx's error (only the
// error when no iteration was complete). Bad anchors or exclusions
// (cfg.Seeds) are errors that name the seed, its topic and its term.
func Fit(ctx context.Context, X *sparse.CSR, cfg Config) (*Model, error) {
	if X == nil {
		return nil, fmt.Errorf("corex: nil input matrix")
	}
	if err := X.Validate(); err != nil {
		return nil, fmt.Errorf("corex: input matrix: %w", err)
	}
	if X.Rows == 0 || X.Cols == 0 {
		return nil, fmt.Errorf("corex: input matrix is %d×%d; want at least one document and one term", X.Rows, X.Cols)
	}
	cfg, err := cfg.resolved(X.Cols)
	if err != nil {
		return nil, err
	}
	pairs, err := resolveAnchors(cfg, X.Cols)
	if err != nil {
		return nil, err
	}
	if cfg.P0 != nil {
		if r, _ := cfg.P0.Dims(); r != X.Rows {
			return nil, fmt.Errorf("corex: P0 has %d rows for %d documents", r, X.Rows)
		}
	}
	var warnings []string
	x, bg, err := preprocess(X, cfg.Input, nil)
	if err != nil {
		return nil, err
	}
	d := newData(x, bg, cfg.K)
	if w := degenerateWords(x); w != "" {
		warnings = append(warnings, w)
	}
	byWord, byTopic := anchorTable(pairs, d.nv, cfg.K)
	held, err := newHold(cfg.Hold, X.Rows, cfg.K)
	if err != nil {
		return nil, err
	}
	var best *fitState
	var bestSeed uint64
	var tcs []float64
	for r := 0; r < cfg.Restarts; r++ {
		seed := cfg.Seed + uint64(r)
		s := newFitState(d, cfg.K, byWord, byTopic)
		s.npShift = cfg.npShift
		s.initialize(seed, cfg.NumpyRandom)
		s.startFrom(cfg.P0, cfg.Alpha0)
		s.hold = held
		s.hold.apply(s)
		err := s.run(ctx, cfg, seed, r)
		cancelled := err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err())
		if err != nil && !cancelled {
			return nil, err
		}
		if len(s.history) > 0 { // a cancelled restart's last complete iteration counts
			tc := s.history[len(s.history)-1]
			tcs = append(tcs, tc)
			if best == nil || tc > best.history[len(best.history)-1] {
				best, bestSeed = s, seed
			}
		}
		if cancelled {
			if best == nil {
				return nil, err
			}
			break
		}
	}
	m := best.model(cfg, cfg.anchored(len(pairs)))
	m.Seed, m.RestartTCs, m.Anchors, m.Warnings = bestSeed, tcs, pairs, warnings
	if err := ctx.Err(); err != nil {
		m.Convergence.Status = progress.Cancelled
		return m, err
	}
	return m, nil
}

// degenerateWords describes the columns present in no or in every
// document, whose counts are clipped, or returns "".
func degenerateWords(x *sparse.CSR) string {
	return degenerateCounts(x.ColNNZ(), x.Rows)
}

// degenerateCounts is degenerateWords from the number of documents each
// column is stored in (nnz) and the number of documents.
func degenerateCounts(nnz []int, rows int) string {
	never, always := 0, 0
	for _, c := range nnz {
		switch c {
		case 0:
			never++
		case rows:
			always++
		}
	}
	if never+always == 0 {
		return ""
	}
	return fmt.Sprintf("%d words never appear and %d appear in every document; their counts are clipped to [0.01, n−0.01]", never, always)
}

// anchored reports whether the topics keep their positions: when any
// anchor or exclusion is in use, documents are held, or KeepOrder asks
// for it.
func (c Config) anchored(pairs int) bool {
	return pairs > 0 || c.KeepOrder || !c.Seeds.Empty() || len(c.Hold) > 0
}

// model turns the finished state into a Model, sorting the topics by
// decreasing TC unless anchored.
func (s *fitState) model(cfg Config, anchored bool) *Model {
	d, m := s.d, s.m
	order := make([]int, m)
	for j := range order {
		order[j] = j
	}
	if !anchored {
		sort.SliceStable(order, func(a, b int) bool { return s.tcs[order[a]] > s.tcs[order[b]] })
	}
	M := &Model{
		K: m, Terms: d.nv, Vocab: cfg.Vocab, Input: cfg.Input,
		History: s.history, Iterations: s.iterations, Convergence: convergence(s.history, s.converged, cfg),
		TCs: make([]float64, m), PY: make([]float64, m), logPY: make([]float64, m),
		c0: make([]float64, m), c1: make([]float64, m),
		alpha: make([]float64, d.nv*m), mi: make([]float64, d.nv*m), miNats: make([]float64, d.nv*m), sign: make([]int8, d.nv*m),
		info: mat.NewDense(d.nv, 2*m, nil), bg: d.bg, anchored: anchored,
	}
	for nj, j := range order {
		M.TCs[nj] = s.tcs[j]
		M.TC += s.tcs[j]
		M.logPY[nj] = s.logPY[j]
		M.PY[nj] = math.Exp(s.logPY[j])
		M.c0[nj], M.c1[nj] = s.c0[j], s.c1[j]
	}
	// The final marginals, MI (without the tie-breaking noise, as the
	// reference recomputes it at the end) and signs, from the last
	// iteration's co-counts.
	g := newMarg(d.n, s.logPY)
	bias := 1 / (2 * float64(d.n))
	w, raw := newWordBuf(m), make([]float64, m)
	lp11, lp10, mi := w.lp11, w.lp10, w.mi
	for i := 0; i < d.nv; i++ {
		g.wordRaw(w, s.pdy.RawRowView(i), d.wc[i], d.hx[i], raw)
		src, dst := s.info.RawRowView(i), M.info.RawRowView(i)
		for nj, j := range order {
			k, nk := i*m+j, i*m+nj
			dst[nj], dst[m+nj] = src[j], src[m+j]
			M.alpha[nk] = s.alpha[k]
			M.mi[nk] = mi[j]
			M.miNats[nk] = max(raw[j]*math.Ln2-bias, 0)
			switch {
			case lp11[j] > lp10[j]:
				M.sign[nk] = 1
			case lp11[j] < lp10[j]:
				M.sign[nk] = -1
			}
		}
	}
	if s.p != nil { // the out-of-core Trainer keeps no documents
		M.Train = &DocTopics{P: permuteCols(s.p, order), LogP: permuteCols(s.logP, order), LogZ: permuteCols(s.logZ, order)}
	}
	return M
}

// permuteCols returns a copy of a with column j taken from column order[j].
func permuteCols(a *mat.Dense, order []int) *mat.Dense {
	r, c := a.Dims()
	out := mat.NewDense(r, c, nil)
	for l := 0; l < r; l++ {
		src, dst := a.RawRowView(l), out.RawRowView(l)
		for nj, j := range order {
			dst[nj] = src[j]
		}
	}
	return out
}

// Transform returns p(y_j = 1 | x) for new documents (documents × the
// model's terms), clipped to [1e-6, 1 − 1e-6] as in the reference: the
// P of Infer.
func (m *Model) Transform(ctx context.Context, X *sparse.CSR) (*mat.Dense, error) {
	dt, err := m.Infer(ctx, X)
	if err != nil {
		return nil, err
	}
	return dt.P, nil
}

// Infer computes the topics of new documents (documents × the model's
// terms) with the trained marginals and α: p(y|x), log p(y|x) and the
// pointwise TC. The input mode of the fit applies (Fraction input reuses
// the training background rates, where the reference would recompute them
// from the new documents). Infer on the training documents reproduces
// Model.Train.
func (m *Model) Infer(ctx context.Context, X *sparse.CSR) (*DocTopics, error) {
	if X == nil {
		return nil, fmt.Errorf("corex: nil input matrix")
	}
	if err := X.Validate(); err != nil {
		return nil, fmt.Errorf("corex: input matrix: %w", err)
	}
	if X.Cols != m.Terms {
		return nil, fmt.Errorf("corex: input has %d columns, the model %d terms", X.Cols, m.Terms)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x, _, err := preprocess(X, m.Input, m.bg)
	if err != nil {
		return nil, err
	}
	if X.Rows == 0 {
		return &DocTopics{P: &mat.Dense{}, LogP: &mat.Dense{}, LogZ: &mat.Dense{}}, nil
	}
	u := mat.NewDense(X.Rows, 2*m.K, nil)
	if err := mul(u, x, m.info, x.IsBinary()); err != nil {
		return nil, err
	}
	dt := &DocTopics{P: mat.NewDense(X.Rows, m.K, nil), LogP: mat.NewDense(X.Rows, m.K, nil), LogZ: mat.NewDense(X.Rows, m.K, nil)}
	latent(u, m.K, m.logPY, m.c0, m.c1, dt.P, dt.LogP, dt.LogZ, nil)
	return dt, nil
}

// Alpha returns α, the K × terms word-to-topic weights: in [0, 1] for
// unanchored words (1 for the word's topic once fitting has annealed), β
// for an anchor word's topics and 0 for its other topics.
func (m *Model) Alpha() *mat.Dense { return m.topicsByTerms(m.alpha) }

// MI returns the K × terms mutual information I(X_i : Y_j) in the
// reference's units: bits, less the bias correction 1/(2n), clipped at 0
// (see the package documentation). These are the values α is computed
// from and corextopic's get_topics prints.
func (m *Model) MI() *mat.Dense { return m.topicsByTerms(m.mi) }

// MINats returns the same mutual information in nats with the bias
// correction 1/(2n) applied in nats, clipped at 0: the unit-consistent
// value, for reports.
func (m *Model) MINats() *mat.Dense { return m.topicsByTerms(m.miNats) }

func (m *Model) topicsByTerms(a []float64) *mat.Dense {
	out := mat.NewDense(m.K, m.Terms, nil)
	for i := 0; i < m.Terms; i++ {
		for j := 0; j < m.K; j++ {
			out.Set(j, i, a[i*m.K+j])
		}
	}
	return out
}

// Sign returns +1 when the presence of word i is what informs topic j
// (p(x_i=1|y_j=1) > p(x_i=1|y_j=0)), −1 when its absence is, 0 when
// neither. It panics if an index is out of range.
func (m *Model) Sign(topic, word int) int {
	if topic < 0 || topic >= m.K || word < 0 || word >= m.Terms {
		panic(fmt.Sprintf("corex: Sign(%d, %d) out of range for %d topics × %d terms", topic, word, m.K, m.Terms))
	}
	return int(m.sign[word*m.K+topic])
}

// Clusters returns the topic of each word: the one of largest α (the
// first on ties).
func (m *Model) Clusters() []int {
	out := make([]int, m.Terms)
	for i := range out {
		row := m.alpha[i*m.K : (i+1)*m.K]
		out[i] = floats.MaxIdx(row)
	}
	return out
}

// Rank orders a topic's words.
type Rank uint8

// The word rankings.
const (
	// ByMI ranks by mutual information with the topic.
	ByMI Rank = iota
	// ByWeightedMI ranks by α·MI, the reference's get_topics order, which
	// puts anchor words (α = β > 1) first.
	ByWeightedMI
)

// Word is one of a topic's top words.
type Word struct {
	// Index is the word's column and Term its vocabulary entry ("" without
	// a vocabulary).
	Index int
	Term  string
	// MI is its mutual information with the topic in the reference's
	// units (see Model.MI; corextopic prints Sign·MI), MINats the same in
	// nats (see Model.MINats), and Sign whether the word's presence (+1)
	// or absence (−1) is informative.
	MI     float64
	MINats float64
	Sign   int
	// Alpha is its weight α in the topic.
	Alpha float64
}

// TopWords returns up to n words of topic j, best first by rank, among the
// words that belong to the topic (α ≥ 1, as corextopic's get_topics), ties
// broken by column.
func (m *Model) TopWords(j, n int, rank Rank) ([]Word, error) {
	if j < 0 || j >= m.K {
		return nil, fmt.Errorf("corex: topic %d out of range [0,%d)", j, m.K)
	}
	if n < 0 {
		return nil, fmt.Errorf("corex: %d top words requested", n)
	}
	var idx []int
	for i := 0; i < m.Terms; i++ {
		if m.alpha[i*m.K+j] >= 1 {
			idx = append(idx, i)
		}
	}
	key := func(i int) float64 {
		k := i*m.K + j
		if rank == ByWeightedMI {
			return m.alpha[k] * m.mi[k]
		}
		return m.mi[k]
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) > key(idx[b]) })
	idx = idx[:min(n, len(idx))]
	out := make([]Word, len(idx))
	for r, i := range idx {
		k := i*m.K + j
		out[r] = Word{Index: i, MI: m.mi[k], MINats: m.miNats[k], Sign: int(m.sign[k]), Alpha: m.alpha[k]}
		if m.Vocab != nil {
			out[r].Term = m.Vocab[i]
		}
	}
	return out, nil
}

// TopicWords returns the column indices of the top n words of every topic
// by rank, the input of the coherence and overlap metrics.
func (m *Model) TopicWords(n int, rank Rank) ([][]int, error) {
	out := make([][]int, m.K)
	for j := range out {
		ws, err := m.TopWords(j, n, rank)
		if err != nil {
			return nil, err
		}
		for _, w := range ws {
			out[j] = append(out[j], w.Index)
		}
	}
	return out, nil
}

// DocRank orders a topic's documents.
type DocRank uint8

// The document rankings.
const (
	// ByLogP ranks by log p(y_j = 1 | x) (the reference's default).
	ByLogP DocRank = iota
	// ByLogZ ranks by pointwise TC.
	ByLogZ
)

// DocScore is one of a topic's top documents.
type DocScore struct {
	// Doc is the document's row and Value its score.
	Doc   int
	Value float64
}

// TopDocs returns up to n training documents of topic j with the highest
// score, ties broken by row. A model rebuilt by FromState has no training
// documents: use Transform and DocTopics.TopDocs instead.
func (m *Model) TopDocs(j, n int, by DocRank) ([]DocScore, error) {
	if m.Train == nil {
		return nil, fmt.Errorf("corex: the model holds no training documents (rebuilt from a saved state); transform documents and rank those")
	}
	return m.Train.TopDocs(j, n, by)
}

// TopDocs returns up to n documents of topic j with the highest score,
// ties broken by row.
func (d *DocTopics) TopDocs(j, n int, by DocRank) ([]DocScore, error) {
	rows, k := d.P.Dims()
	if d.P.IsEmpty() {
		rows, k = 0, 0
	}
	if j < 0 || j >= k {
		return nil, fmt.Errorf("corex: topic %d out of range [0,%d)", j, k)
	}
	if n < 0 {
		return nil, fmt.Errorf("corex: %d top documents requested", n)
	}
	src := d.LogP
	if by == ByLogZ {
		src = d.LogZ
	}
	idx := make([]int, rows)
	for l := range idx {
		idx[l] = l
	}
	sort.SliceStable(idx, func(a, b int) bool { return src.At(idx[a], j) > src.At(idx[b], j) })
	idx = idx[:min(n, rows)]
	out := make([]DocScore, len(idx))
	for r, l := range idx {
		out[r] = DocScore{Doc: l, Value: src.At(l, j)}
	}
	return out, nil
}
