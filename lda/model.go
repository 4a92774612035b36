package lda

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Model is a latent Dirichlet allocation model: the variational
// parameters λ of the k topic-word distributions, with what is needed to
// infer the topics of new documents and to continue training online.
//
// Internally λ and exp(E[log β]) are stored terms × topics, so that the k
// values the E-step needs for one word are contiguous; Components returns
// the public topics × terms orientation.
//
// A Model is safe for concurrent use by methods that do not train it
// (Transform, Score, Perplexity and the accessors); PartialFit must not run
// concurrently with anything else on the same model.
type Model struct {
	opts     Config
	k, terms int
	alpha    float64 // α, resolved
	eta      float64 // η, resolved

	lambda     []float64 // λ, terms × k
	expElogBet []float64 // exp(E[log β]), terms × k, 0 where forbidden

	// forbid holds the sorted positions term·k + topic of λ whose φ is
	// zero (Config.ZLabels and Config.Seeds.Exclude); extra the seed prior
	// η_tw - η by position, and extraSum its sum per topic, both nil until
	// the seed terms' counts are known (Config.SeedCounts).
	forbid   []int
	extra    []prior
	extraSum []float64

	steps      int // scikit-learn's n_batch_iter_, from 1
	passes     int // scikit-learn's n_iter_
	history    []progress.Step
	perplexity float64              // final training perplexity of Fit (bound_)
	conv       progress.Convergence // how Fit ended

	// fixedInit starts the training E-steps from γ = 1 instead of random
	// draws, which makes them comparable with scikit-learn's in tests.
	fixedInit bool
}

// New returns an untrained model over the given number of terms, with λ
// drawn from Gamma(100, 1/100) using opts.Seed, plus the seed prior when
// the seed terms' counts are set (Config.SeedCounts), ready for PartialFit.
func New(terms int, opts Config) (*Model, error) {
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if terms <= 0 {
		return nil, fmt.Errorf("lda: %d terms, want at least 1", terms)
	}
	m := newModel(o, terms)
	if err := m.initSupervision(); err != nil {
		return nil, err
	}
	g := newGammaSampler()
	g.seed(o.Seed, streamLambda)
	row := make([]float64, terms)
	// Draw topic by topic, like scikit-learn's (k, terms) array.
	for t := 0; t < m.k; t++ {
		g.fill(row)
		for j, v := range row {
			m.lambda[j*m.k+t] = v
		}
	}
	m.seedLambda()
	return m, nil
}

// FromComponents returns a model with the given λ (topics × terms, all
// entries positive and finite), for example one saved earlier or fitted
// elsewhere. opts.K may be 0 or must equal the number of rows.
func FromComponents(components mat.Matrix, opts Config) (*Model, error) {
	if components == nil {
		return nil, errors.New("lda: nil components")
	}
	k, terms := components.Dims()
	if opts.K == 0 {
		opts.K = k
	}
	if opts.K != k {
		return nil, fmt.Errorf("lda: components have %d rows but Config.K = %d", k, opts.K)
	}
	o, err := opts.resolve()
	if err != nil {
		return nil, err
	}
	if terms <= 0 {
		return nil, fmt.Errorf("lda: components have %d columns, want at least 1", terms)
	}
	m := newModel(o, terms)
	for t := 0; t < k; t++ {
		for j := 0; j < terms; j++ {
			v := components.At(t, j)
			if !(v > 0) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("lda: component (%d, %d) = %v, want a positive finite number", t, j, v)
			}
			m.lambda[j*k+t] = v
		}
	}
	if err := m.initSupervision(); err != nil {
		return nil, err
	}
	m.updateExpElogBeta()
	return m, nil
}

func newModel(o Config, terms int) *Model {
	k := o.K
	return &Model{
		opts:       o,
		k:          k,
		terms:      terms,
		alpha:      o.DocTopicPrior,
		eta:        o.TopicWordPrior,
		lambda:     make([]float64, terms*k),
		expElogBet: make([]float64, terms*k),
		steps:      1,
		perplexity: math.NaN(),
	}
}

// Fit trains a model on x, a documents × terms matrix of non-negative
// counts, by batch or online variational Bayes as opts.Method says, and
// computes the final training perplexity (see Perplexity). Empty documents
// are allowed: they add nothing to the topics and get γ = α, a uniform
// topic distribution, exactly as in scikit-learn. When ctx is done, Fit
// stops and returns the model as its last complete pass (batch) or
// mini-batch (online) left it, with a NaN training perplexity, together
// with ctx's error. FitBlocks trains the same model on a corpus read in
// blocks, out of core.
func Fit(ctx context.Context, x *sparse.CSR, opts Config) (*Model, error) {
	if err := checkCounts(x, "training matrix"); err != nil {
		return nil, err
	}
	if x.Rows == 0 || x.Cols == 0 {
		return nil, fmt.Errorf("lda: training matrix is %d×%d, want at least one document and one term", x.Rows, x.Cols)
	}
	words := sum(x.Data)
	if words == 0 {
		return nil, fmt.Errorf("lda: training matrix has no words: all %d documents are empty", x.Rows)
	}
	if len(opts.DocTopics) > 0 && len(opts.DocTopics) != x.Rows {
		return nil, fmt.Errorf("lda: DocTopics has %d entries for %d documents", len(opts.DocTopics), x.Rows)
	}
	lambda0, gamma0 := opts.Lambda0, opts.Gamma0
	opts.Lambda0, opts.Gamma0 = nil, nil // the model keeps no copy
	m, err := New(x.Cols, opts)
	if err != nil {
		return nil, err
	}
	if err := checkStart(lambda0, gamma0, m.k, x.Cols, x.Rows, m.opts.Method); err != nil {
		return nil, err
	}
	if m.needsCounts() {
		counts := make([]float64, len(m.opts.Seeds.Seeds))
		m.seedCounts(counts, x, 0, x.Rows)
		m.setCounts(counts, 1)
	}
	if m.opts.labeled() {
		S := make([]float64, len(m.lambda))
		m.labelCounts(S, x, 0, 0, x.Rows)
		m.startLabels(S)
	}
	if lambda0 != nil {
		m.startLambda(lambda0)
	}
	o := &m.opts
	start := time.Now()
	n := x.Rows
	w := newWork(m, n)
	w.labels = o.DocTopics
	if gamma0 != nil {
		w.keep = true
		for d := 0; d < n; d++ {
			copy(w.gamma[d*m.k:(d+1)*m.k], gamma0.RawRowView(d))
		}
	}
	// fail returns err, or, when the context is done, the model as the
	// last complete pass or mini-batch left it with the context's error.
	fail := func(err error) (*Model, error) {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			m.perplexity = math.NaN()
			m.conv = m.ended(false, false)
			return m, cerr
		}
		return nil, err
	}
	converged := false
	var lastPerp float64 // 0 stands for none, as scikit-learn's falsy last_bound
	for i := 0; i < o.MaxIter; i++ {
		iters := 0
		if o.Method == Online {
			for lo := 0; lo < n; lo += o.BatchSize {
				it, err := m.emStep(ctx, w, x, lo, min(lo+o.BatchSize, n), false, float64(n))
				if err != nil {
					return fail(fmt.Errorf("lda: fit, pass %d: %w", i+1, err))
				}
				iters += it
			}
		} else {
			it, err := m.emStep(ctx, w, x, 0, n, true, float64(n))
			if err != nil {
				return fail(fmt.Errorf("lda: fit, pass %d: %w", i+1, err))
			}
			iters = it
		}
		if err := m.checkFinite(); err != nil {
			return nil, fmt.Errorf("lda: fit, pass %d: %w", i+1, err)
		}
		rec := progress.Step{Iter: i + 1, Total: o.MaxIter, Runs: 1, Objective: math.NaN(), Inner: float64(iters) / float64(n)}
		stop := false
		if o.EvaluateEvery > 0 && (i+1)%o.EvaluateEvery == 0 {
			p, err := m.perplexityOf(ctx, w, x, words)
			if err != nil {
				return fail(fmt.Errorf("lda: fit, evaluating pass %d: %w", i+1, err))
			}
			rec.Objective = p
			if lastPerp != 0 && math.Abs(lastPerp-p) < o.perpTol() {
				stop = true
			}
			lastPerp = p
		}
		rec.Elapsed = time.Since(start)
		m.history = append(m.history, rec)
		if o.Progress != nil {
			o.Progress(rec)
		}
		if stop {
			converged = true
			break
		}
		m.passes++
	}
	p, err := m.perplexityOf(ctx, w, x, words)
	if err != nil {
		return fail(fmt.Errorf("lda: fit, final perplexity: %w", err))
	}
	if math.IsNaN(p) || math.IsInf(p, 0) {
		return nil, fmt.Errorf("lda: fit: the final perplexity is %v: the computation overflowed the float64 range", p)
	}
	m.perplexity = p
	m.conv = m.ended(true, converged)
	return m, nil
}

// checkStart validates the starts Lambda0 (k × terms) and Gamma0 (n × k)
// of a Fit: of that shape, finite and non-negative; Gamma0 only with the
// Batch method.
func checkStart(lambda0, gamma0 *mat.Dense, k, terms, n int, method Method) error {
	check := func(name string, a *mat.Dense, r, c int) error {
		if a.IsEmpty() {
			return fmt.Errorf("lda: %s is empty, want %d×%d", name, r, c)
		}
		if ar, ac := a.Dims(); ar != r || ac != c {
			return fmt.Errorf("lda: %s is %d×%d, want %d×%d", name, ar, ac, r, c)
		}
		for i := 0; i < r; i++ {
			for j, v := range a.RawRowView(i) {
				if !(v >= 0) || math.IsInf(v, 0) {
					return fmt.Errorf("lda: %s has the entry %v at (%d, %d), want a finite number ≥ 0", name, v, i, j)
				}
			}
		}
		return nil
	}
	if lambda0 != nil {
		if err := check("Lambda0", lambda0, k, terms); err != nil {
			return err
		}
	}
	if gamma0 != nil {
		if method != Batch {
			return fmt.Errorf("lda: Gamma0 starts the documents of the Batch method; the Online method draws each mini-batch's")
		}
		if err := check("Gamma0", gamma0, n, k); err != nil {
			return err
		}
	}
	return nil
}

// startLambda replaces λ's topics that lambda0 (k × terms) gives, a row
// with a positive entry, by that row, each entry at least η, and
// recomputes exp(E[log β]) (Config.Lambda0).
func (m *Model) startLambda(lambda0 *mat.Dense) {
	k := m.k
	for t := 0; t < k; t++ {
		row := lambda0.RawRowView(t)
		given := false
		for _, v := range row {
			given = given || v > 0
		}
		if !given {
			continue
		}
		for j, v := range row {
			m.lambda[j*k+t] = max(v, m.eta)
		}
	}
	m.updateExpElogBeta()
}

// ended is how a fit of m ended: done says that it ended (its final
// perplexity is known), converged that Tol stopped it.
func (m *Model) ended(done, converged bool) progress.Convergence {
	o := &m.opts
	c := progress.Convergence{Status: progress.IterationLimit, MaxIter: o.MaxIter}
	switch {
	case !done:
		c.Status = progress.Cancelled
		return c
	case converged:
		c.Status = progress.Converged
	case o.EvaluateEvery <= 0 || o.perpTol() == 0:
		c.Status = progress.FixedIterations
		return c
	}
	var p []float64 // the evaluated perplexities
	for _, h := range m.history {
		if !math.IsNaN(h.Objective) {
			p = append(p, h.Objective)
		}
	}
	if n := len(p); n >= 2 {
		c = c.WithMeasure("change of the training perplexity between evaluations", math.Abs(p[n-1]-p[n-2]), o.perpTol())
	}
	return c
}

// Convergence returns how Fit or FitBlocks ended: converged (the training
// perplexity changed by less than Tol between two evaluations), stopped at
// MaxIter passes, cancelled (the model as the last complete pass or
// mini-batch left it), or, without evaluations (EvaluateEvery 0, the
// default) or with a Tol that never stops, the fixed MaxIter passes run.
// It is progress.Unknown for a model no fit made (New, FromComponents).
func (m *Model) Convergence() progress.Convergence { return m.conv }

// checkFinite reports a NaN or infinite topic-word parameter: the
// variational updates overflowed (counts too large for float64), and
// going on would only spread it.
func (m *Model) checkFinite() error {
	for i, v := range m.lambda {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("the topic-word parameter of term %d, topic %d is %v: the computation overflowed the float64 range (are the counts much too large?)", i/m.k, i%m.k, v)
		}
	}
	return nil
}

// PartialFit runs one online variational Bayes step per mini-batch of
// Config.BatchSize rows of x, scaling each to Config.TotalSamples
// documents (scikit-learn's partial_fit). x must have the model's number of
// terms.
func (m *Model) PartialFit(ctx context.Context, x *sparse.CSR) error {
	if err := m.checkInput(x, "matrix"); err != nil {
		return err
	}
	if x.Rows == 0 {
		return nil
	}
	if m.needsCounts() {
		counts := make([]float64, len(m.opts.Seeds.Seeds))
		m.seedCounts(counts, x, 0, x.Rows)
		m.setCounts(counts, m.opts.TotalSamples/float64(x.Rows))
	}
	bs := m.opts.BatchSize
	w := newWork(m, min(x.Rows, bs))
	for lo := 0; lo < x.Rows; lo += bs {
		if _, err := m.emStep(ctx, w, x, lo, min(lo+bs, x.Rows), false, m.opts.TotalSamples); err != nil {
			return fmt.Errorf("lda: partial fit, rows %d to %d: %w", lo, min(lo+bs, x.Rows), err)
		}
	}
	return nil
}

// Transform returns the topic distribution of each row of x (documents ×
// topics, rows summing to 1): the variational γ after the E-step started
// from γ = 1, normalised, like scikit-learn's transform. An empty document
// gets the uniform distribution. x must have the model's number of terms;
// with no rows the result is an empty matrix.
func (m *Model) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return m.transform(ctx, x, nil)
}

// TransformTraining is Transform for Fit's own documents x (the same
// rows, in order), read as the training E-steps read them: a labeled
// document's γ is zero outside its topics (Config.DocTopics), so that it
// stays in its labels' topics. Without DocTopics it is Transform.
func (m *Model) TransformTraining(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	if n := len(m.opts.DocTopics); n > 0 && n != x.Rows {
		return nil, fmt.Errorf("lda: DocTopics has %d entries for %d documents", n, x.Rows)
	}
	return m.transform(ctx, x, m.opts.DocTopics)
}

// transform is Transform with the documents' allowed topics (nil: none).
func (m *Model) transform(ctx context.Context, x *sparse.CSR, labels [][]int) (*mat.Dense, error) {
	if err := m.checkInput(x, "matrix"); err != nil {
		return nil, err
	}
	if x.Rows == 0 {
		return &mat.Dense{}, nil
	}
	w := newWork(m, x.Rows)
	w.labels, w.restrict = labels, labels != nil
	if _, err := m.eStep(ctx, w, x, 0, x.Rows, false, false); err != nil {
		return nil, fmt.Errorf("lda: transform: %w", err)
	}
	k := m.k
	out := make([]float64, x.Rows*k)
	copy(out, w.gamma)
	for d := 0; d < x.Rows; d++ {
		g := out[d*k : (d+1)*k]
		var s float64
		for _, v := range g {
			s += v
		}
		for t := range g {
			g[t] /= s
		}
	}
	return mat.NewDense(x.Rows, k, out), nil
}

// Score returns the approximate variational bound on the log-likelihood
// of x (scikit-learn's score): the E-step starts from γ = 1, then the bound
// adds E[log p(w | θ, β)], E[log p(θ | α) - log q(θ | γ)] over the documents
// and E[log p(β | η) - log q(β | λ)] over the topics.
func (m *Model) Score(ctx context.Context, x *sparse.CSR) (float64, error) {
	if err := m.checkInput(x, "matrix"); err != nil {
		return 0, err
	}
	w := newWork(m, x.Rows)
	if _, err := m.eStep(ctx, w, x, 0, x.Rows, false, false); err != nil {
		return 0, fmt.Errorf("lda: score: %w", err)
	}
	b, err := m.bound(ctx, w, x, 0, x.Rows, w.gamma)
	if err != nil {
		return 0, fmt.Errorf("lda: score: %w", err)
	}
	return b, nil
}

// Perplexity returns exp(-Score / number of words in x), scikit-learn's
// perplexity(x) (without sub-sampling). x must contain at least one word.
func (m *Model) Perplexity(ctx context.Context, x *sparse.CSR) (float64, error) {
	if err := m.checkInput(x, "matrix"); err != nil {
		return 0, err
	}
	words := sum(x.Data)
	if words == 0 {
		return 0, fmt.Errorf("lda: perplexity of a matrix with no words (%d empty documents)", x.Rows)
	}
	p, err := m.perplexityOf(ctx, newWork(m, x.Rows), x, words)
	if err != nil {
		return 0, fmt.Errorf("lda: perplexity: %w", err)
	}
	return p, nil
}

func (m *Model) perplexityOf(ctx context.Context, w *work, x *sparse.CSR, words float64) (float64, error) {
	if _, err := m.eStep(ctx, w, x, 0, x.Rows, false, false); err != nil {
		return 0, err
	}
	b, err := m.bound(ctx, w, x, 0, x.Rows, w.gamma)
	if err != nil {
		return 0, err
	}
	return math.Exp(-b / words), nil
}

// Topics returns the number of topics k.
func (m *Model) Topics() int { return m.k }

// Terms returns the number of terms the model was trained on.
func (m *Model) Terms() int { return m.terms }

// Config returns the options with every default filled in.
func (m *Model) Config() Config { return m.opts }

// Components returns a copy of λ, topics × terms (scikit-learn's
// components_): pseudo-counts of each word in each topic.
func (m *Model) Components() *mat.Dense {
	out := mat.NewDense(m.k, m.terms, nil)
	raw := out.RawMatrix()
	for j := 0; j < m.terms; j++ {
		for t := 0; t < m.k; t++ {
			raw.Data[t*raw.Stride+j] = m.lambda[j*m.k+t]
		}
	}
	return out
}

// TopicWord returns the topic-word distributions, topics × terms: the rows
// of λ normalised to sum to 1, with zero for a (topic, word) pair the
// topic may not use (Forbidden: an excluded word, or a z-labels seed word
// of other topics), whose φ is zero.
func (m *Model) TopicWord() *mat.Dense {
	out := m.Components()
	raw := out.RawMatrix()
	for _, p := range m.forbid {
		raw.Data[(p%m.k)*raw.Stride+p/m.k] = 0
	}
	for t := 0; t < m.k; t++ {
		row := raw.Data[t*raw.Stride : t*raw.Stride+m.terms]
		var s float64
		for _, v := range row {
			s += v
		}
		for j := range row {
			row[j] /= s
		}
	}
	return out
}

// Word is a term of a topic with its probability in the topic.
type Word struct {
	// Term is the vocabulary entry, empty when no vocabulary was given.
	Term string
	// Index is the term's column.
	Index int
	// Weight is the term's probability in the topic (the normalised λ).
	Weight float64
}

// TopWords returns the n most probable words of each topic, most probable
// first (ties by column). vocab names the columns; it may be nil, and
// otherwise must have one entry per term. n is capped at the number of
// terms.
func (m *Model) TopWords(vocab []string, n int) ([][]Word, error) {
	if vocab != nil && len(vocab) != m.terms {
		return nil, fmt.Errorf("lda: vocabulary has %d terms, model has %d", len(vocab), m.terms)
	}
	if n < 0 {
		return nil, fmt.Errorf("lda: %d top words requested", n)
	}
	tw := m.TopicWord()
	out := make([][]Word, m.k)
	for t := 0; t < m.k; t++ {
		row := tw.RawRowView(t)
		var idx []int
		if n > 0 {
			// Every allowed topic-word probability is positive (the prior
			// η > 0); forbidden ones are zero and rank last.
			idx = metrics.TopIndices(row, n)
		}
		ws := make([]Word, len(idx))
		for i, j := range idx {
			ws[i] = Word{Index: j, Weight: row[j]}
			if vocab != nil {
				ws[i].Term = vocab[j]
			}
		}
		out[t] = ws
	}
	return out, nil
}

// History returns one record per pass of Fit.
func (m *Model) History() []progress.Step { return append([]progress.Step(nil), m.history...) }

// TrainPerplexity returns the perplexity of the training matrix computed at
// the end of Fit (scikit-learn's bound_), NaN for a model not made by Fit.
func (m *Model) TrainPerplexity() float64 { return m.perplexity }

// Passes returns the number of passes Fit completed over the data
// (scikit-learn's n_iter_; a pass that stopped Fit on Tol does not
// count).
func (m *Model) Passes() int { return m.passes }

// Steps returns the number of EM updates of λ so far plus one
// (scikit-learn's n_batch_iter_, which the online learning rate uses).
func (m *Model) Steps() int { return m.steps }

// sum adds v in order, so that the result does not depend on the number of
// cores.
func sum(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}

// checkInput checks x and that it has the model's number of terms.
func (m *Model) checkInput(x *sparse.CSR, what string) error {
	if err := checkCounts(x, what); err != nil {
		return err
	}
	if x.Cols != m.terms {
		return fmt.Errorf("lda: %s has %d terms, the model has %d", what, x.Cols, m.terms)
	}
	return nil
}

// checkCounts checks that x is a valid CSR matrix of finite non-negative
// values, naming the first bad entry.
func checkCounts(x *sparse.CSR, what string) error {
	if x == nil {
		return fmt.Errorf("lda: %s is nil", what)
	}
	if err := x.Validate(); err != nil {
		return fmt.Errorf("lda: %s: %w", what, err)
	}
	for i := 0; i < x.Rows; i++ {
		for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
			if v := x.Data[p]; v < 0 {
				return fmt.Errorf("lda: %s: row %d, column %d: negative count %v", what, i, x.Indices[p], v)
			}
		}
	}
	return nil
}

// work holds the buffers of E-steps over up to n documents.
type work struct {
	workers  int
	gamma    []float64     // n × k
	expTheta []float64     // n × k, final exp(E[log θ]) for the statistics
	sstats   []float64     // terms × k
	scratch  []*docScratch // per worker
	samplers []*gammaSampler
	parts    []float64 // per document or term partial sums of the bound
	// labels are the topics allowed to each document of the corpus in the
	// training E-steps (Config.DocTopics), by its index in the corpus;
	// nil for none.
	labels [][]int
	// restrict applies labels in E-steps without statistics too
	// (TransformTraining); training applies them where it gathers them.
	restrict bool
	// keep starts each document's E-step from its γ in gamma, when that
	// has a positive entry, instead of the random or fixed start
	// (Config.Gamma0: a whole batch, whose rows are the documents).
	keep bool
}

func newWork(m *Model, n int) *work {
	workers := parallel.Workers()
	w := &work{
		workers:  workers,
		gamma:    make([]float64, n*m.k),
		scratch:  make([]*docScratch, workers),
		samplers: make([]*gammaSampler, workers),
	}
	for i := range w.scratch {
		w.scratch[i] = newDocScratch(m.k)
		w.samplers[i] = newGammaSampler()
	}
	return w
}
