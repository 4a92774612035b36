package lda

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"time"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/supervision"
)

// Trainer is LDA's out-of-core fit (a blocks.Trainer): Fit's batch or
// online variational Bayes run as passes over a corpus read in blocks of
// rows. Each pass maps every block — E-steps for its documents, their
// statistics added into the pass's vector — and reduces the sum into λ.
// Fit's steps become passes as follows.
//
//   - Batch: one pass per EM step, over every document.
//   - Online: one pass per mini-batch of Config.BatchSize documents, cut
//     where Fit cuts them (documents 0 to BatchSize, and so on, whatever
//     the blocks); a block that holds none of the mini-batch's documents
//     adds nothing. A driver still reads every block in every pass, so a
//     pass over the data reads the corpus ⌈docs/BatchSize⌉ times: fine for
//     a corpus in memory or on a fast disk, slow for a large one on a slow
//     disk, which Batch reads once per pass.
//   - With seed terms (Config.Seeds) and a seed prior whose counts
//     are not given (Config.SeedCounts), or with labeled documents
//     (Config.DocTopics), a first pass only counts, as Fit counts before
//     it starts: the seed words, and the labeled documents' words shared
//     among their topics that λ starts from. Its statistics vector is the
//     counts, one per seed word (when they are not given), then the
//     labeled documents' counts, terms × k term-major (when any document
//     is labeled), then the four numbers.
//   - The training perplexity of an evaluated pass (Config.EvaluateEvery)
//     and the final one need an E-step from γ = 1 with the updated λ:
//     they ride on the next EM step's pass, which uses the same λ, so that
//     evaluating costs no extra read of the data. When the evaluation stops
//     the fit (Config.Tol) that EM step's statistics are dropped; after
//     the last EM step, a last pass computes the final perplexity alone.
//
// LDA keeps no document-side state between passes: every training E-step
// starts from fresh random γ and every evaluation from γ = 1, so the Store
// is never used. Each document's random start is seeded by (Config.Seed,
// EM step, the document's index in the corpus) exactly as in Fit, so a
// block draws its own documents' numbers and no other's.
//
// The statistics vector of a pass (StatsLen values) is, when the pass runs
// an EM step, the sufficient statistics S (terms × k, term-major: S[j·k+t]
// for term j and topic t, before the product with exp(E[log β])), then
// four numbers: the documents seen, the words seen (in the first pass;
// 0 after), the E-step iterations of the EM step, and the sum of the
// documents' parts of the variational bound (in a pass that computes a
// perplexity; else 0).
//
// Map adds every document's contribution into the vector in document
// order, so that blocks.Run, which maps the blocks in order into one
// vector, performs exactly Fit's additions: FitBlocks returns Fit's model
// to the last bit. An engine that sums the blocks' vectors in another
// order changes it by rounding only.
//
// The Trainer holds the topic side only: λ and exp(E[log β]) (terms × k
// each), E[log β] and the terms' bound parts before a pass that computes
// a perplexity, and the history; its memory does not depend on the number
// of documents, and Map's on its block only. Map may run concurrently for
// different blocks; Reduce, MarshalBinary and UnmarshalBinary must not
// run concurrently with anything else on the same Trainer.
type Trainer struct {
	m    *Model // λ, exp(E[log β]), steps, passes, history, perplexity
	docs int

	words    float64 // total count of the corpus, from the first pass
	epoch    int     // Fit's passes whose EM steps are all done
	lo       int     // first document of the next mini-batch of pass epoch
	iters    float64 // E-step iterations in pass epoch, or in the finished pass awaiting its evaluation
	eval     bool    // the next pass evaluates the perplexity of pass epoch (the last EM pass)
	stopped  bool    // Tol stopped the fit: the next pass computes the final perplexity
	done     bool    // the final perplexity is known
	lastPerp float64 // the last evaluated perplexity, 0 for none (Fit's lastPerp)
	start    time.Time

	// E[log β] and the terms' bound parts of the current λ, when the next
	// pass computes a perplexity; derived from λ, never encoded.
	elogBeta, termParts []float64

	// works keeps Map's E-step buffers (*work, a block's γ and
	// exp(E[log θ])) for the next Map, so that a pass allocates none once
	// the largest block has been seen. It holds no state of the fit.
	works *sync.Pool
}

var _ blocks.Trainer = (*Trainer)(nil)

// NewTrainer returns a Trainer for a corpus of docs documents over terms
// terms, with cfg checked and its defaults filled in as Fit does, and λ
// drawn as Fit draws it, so that training it over a matrix's blocks gives
// Fit's model of the matrix.
func NewTrainer(docs, terms int, cfg Config) (*Trainer, error) {
	if docs <= 0 || terms <= 0 {
		return nil, fmt.Errorf("lda: training corpus is %d×%d, want at least one document and one term", docs, terms)
	}
	if len(cfg.DocTopics) > 0 && len(cfg.DocTopics) != docs {
		return nil, fmt.Errorf("lda: DocTopics has %d entries for %d documents", len(cfg.DocTopics), docs)
	}
	if cfg.Lambda0 != nil || cfg.Gamma0 != nil {
		return nil, fmt.Errorf("lda: Lambda0 and Gamma0 start Fit in memory; out of core a fit starts from its checkpoint")
	}
	m, err := New(terms, cfg)
	if err != nil {
		return nil, err
	}
	t := &Trainer{m: m, docs: docs, start: time.Now(), works: new(sync.Pool)}
	t.prepare()
	return t, nil
}

// FitBlocks trains a model on the corpus src (documents × terms, in
// blocks) as Fit trains it on the same matrix in memory, with the same
// iterates, history and final training perplexity: NewTrainer, then
// blocks.Run, then Model. st is passed to the trainer, which keeps no
// document-side state in it (it may be nil). When st keeps checkpoints
// (blocks.Checkpointer, as shard.Store), blocks.Run saves one after every
// pass and FitBlocks resumes from the one it finds, which must be of the
// same fit (the same corpus shape and Config, Progress aside). When ctx
// is done, FitBlocks returns the model as its last complete pass (batch)
// or mini-batch (online) left it, with a NaN training perplexity,
// together with ctx's error, like Fit.
func FitBlocks(ctx context.Context, src blocks.Source, st blocks.Store, cfg Config) (*Model, error) {
	if src == nil {
		return nil, errors.New("lda: fit out of core: nil source")
	}
	docs, terms := src.Dims()
	t, err := NewTrainer(docs, terms, cfg)
	if err != nil {
		return nil, err
	}
	if err := t.resume(st); err != nil {
		return nil, err
	}
	if err := blocks.Run(ctx, src, st, t); err != nil {
		if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
			return t.take(), cerr
		}
		return nil, err
	}
	return t.take(), nil
}

// resume restores t from st's checkpoint, when st keeps one
// (blocks.Checkpointer) and holds one, which must be a state of t's fit:
// the same corpus shape and resolved Config, Progress aside. t keeps its
// Progress.
func (t *Trainer) resume(st blocks.Store) error {
	cp, ok := st.(blocks.Checkpointer)
	if !ok {
		return nil
	}
	b, err := cp.LoadCheckpoint()
	if blocks.IsNotExist(err) {
		return nil
	}
	if err != nil {
		return err
	}
	var saved Trainer
	if err := saved.UnmarshalBinary(b); err != nil {
		return err
	}
	if !t.sameFit(&saved) {
		a, b := &saved.m.opts, &t.m.opts
		return fmt.Errorf("lda: the checkpoint is of another fit (K=%d, %d×%d, seed %d, MaxIter %d, method %v) than this one (K=%d, %d×%d, seed %d, MaxIter %d, method %v), or their priors, tolerances or supervision differ",
			a.K, saved.docs, saved.m.terms, a.Seed, a.MaxIter, a.Method, b.K, t.docs, t.m.terms, b.Seed, b.MaxIter, b.Method)
	}
	saved.m.opts.Progress = t.m.opts.Progress
	*t = saved
	return nil
}

// sameFit reports whether u is a state of t's fit: the same corpus shape
// and resolved Config, Progress aside, and the seed terms' counts aside
// when t counts them (a state after the counting pass has them).
func (t *Trainer) sameFit(u *Trainer) bool {
	a, b := t.m.opts, u.m.opts
	if t.docs != u.docs || t.m.terms != u.m.terms || !slices.Equal(a.Seeds.Seeds, b.Seeds.Seeds) || !slices.Equal(a.Seeds.Exclude, b.Seeds.Exclude) ||
		(a.SeedCounts != nil && !slices.Equal(a.SeedCounts, b.SeedCounts)) || len(a.DocTopics) != len(b.DocTopics) {
		return false
	}
	for i := range a.DocTopics {
		if !slices.Equal(a.DocTopics[i], b.DocTopics[i]) {
			return false
		}
	}
	a.Seeds, a.SeedCounts, a.DocTopics, a.Progress = supervision.Terms{}, nil, nil, nil
	b.Seeds, b.SeedCounts, b.DocTopics, b.Progress = supervision.Terms{}, nil, nil, nil
	return reflect.DeepEqual(a, b)
}

// take returns the model without copying it, leaving the Trainer
// unusable: FitBlocks's end, which spares a copy of λ.
func (t *Trainer) take() *Model {
	m := t.m
	if !t.done {
		m.perplexity = math.NaN()
	}
	m.conv = m.ended(t.done, t.stopped)
	*t = Trainer{}
	return m
}

// Model returns a copy of the model as the passes so far left it: the
// fitted model, with its training perplexity, once Reduce has reported
// the fit finished; before that, the model of the last complete pass or
// mini-batch, with a NaN training perplexity (as Fit returns it when
// cancelled). It fails only for a Trainer not made by NewTrainer or
// UnmarshalBinary.
func (t *Trainer) Model() (*Model, error) {
	if t == nil || t.m == nil {
		return nil, errors.New("lda: trainer not initialised (use NewTrainer or UnmarshalBinary)")
	}
	m := *t.m
	m.lambda = append([]float64(nil), t.m.lambda...)
	m.expElogBet = append([]float64(nil), t.m.expElogBet...)
	m.history = append([]progress.Step(nil), t.m.history...)
	if !t.done {
		m.perplexity = math.NaN()
	}
	m.conv = m.ended(t.done, t.stopped)
	return &m, nil
}

// plan returns what the current pass does: an EM step on documents
// [lo, hi) (none when lo == hi) and whether it computes a perplexity.
func (t *Trainer) plan() (lo, hi int, perp bool) {
	o := &t.m.opts
	if t.done || t.counting() {
		// With seed words or labels, a first pass counts the corpus's
		// words, which scale the seed prior and start the labeled topics.
		return 0, 0, false
	}
	if t.stopped || t.epoch >= o.MaxIter {
		return 0, 0, true
	}
	hi = t.docs
	if o.Method == Online {
		hi = min(t.lo+o.BatchSize, t.docs)
	}
	return t.lo, hi, t.eval
}

// prepare computes what the next pass needs beyond λ and exp(E[log β]).
func (t *Trainer) prepare() {
	if _, _, perp := t.plan(); perp {
		t.elogBeta, t.termParts = t.m.topicBoundParts()
	} else {
		t.elogBeta, t.termParts = nil, nil
	}
}

// counting reports whether the current pass counts the seed words or
// the labeled documents' words.
func (t *Trainer) counting() bool {
	return t.words == 0 && (t.m.needsCounts() || t.m.opts.labeled())
}

// countLens returns the lengths of the counting pass's seed-word counts
// and labeled documents' counts, 0 for those it does not count.
func (t *Trainer) countLens() (seeds, labels int) {
	if t.m.needsCounts() {
		seeds = len(t.m.opts.Seeds.Seeds)
	}
	if t.m.opts.labeled() {
		labels = t.m.terms * t.m.k
	}
	return seeds, labels
}

// Positions of the numbers after the statistics S.
const (
	statRows = iota
	statWords
	statIters
	statBound
	statScalars
)

// StatsLen returns the length of the current pass's statistics vector:
// terms × k sufficient statistics when the pass runs an EM step, then
// four numbers (see the package's out-of-core notes); 0 once the fit is
// finished (a finished fit's checkpoint resumes to its model at once).
func (t *Trainer) StatsLen() int {
	if t == nil || t.m == nil || t.done {
		return 0
	}
	return t.statsOffset() + statScalars
}

// statsOffset returns the position of the numbers after S.
func (t *Trainer) statsOffset() int {
	if t.counting() {
		seeds, labels := t.countLens()
		return seeds + labels
	}
	if lo, hi, _ := t.plan(); lo < hi {
		return t.m.terms * t.m.k
	}
	return 0
}

// Map runs the current pass on block i, whose first document b.First is
// its index in the corpus: the E-step from γ = 1 and the documents' bound
// parts when the pass computes a perplexity, and the training E-step and
// sufficient statistics of the block's documents in the pass's EM step,
// all added into acc. It checks the block as Fit checks its matrix. It
// does not change the Trainer and does not use st.
func (t *Trainer) Map(ctx context.Context, i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	if t == nil || t.m == nil {
		return errors.New("lda: map: trainer not initialised (use NewTrainer or UnmarshalBinary)")
	}
	if t.done {
		return fmt.Errorf("lda: map block %d: the fit is finished", i)
	}
	if n := t.StatsLen(); len(acc) != n {
		return fmt.Errorf("lda: map block %d: statistics vector has %d values, want %d", i, len(acc), n)
	}
	if b == nil || b.X == nil {
		return fmt.Errorf("lda: map block %d: no matrix", i)
	}
	m, x := t.m, b.X
	rows := x.Rows
	if b.First < 0 || rows > t.docs-b.First {
		return fmt.Errorf("lda: map block %d: documents %d to %d, the corpus has %d", i, b.First, b.First+rows, t.docs)
	}
	if x.Cols != m.terms {
		return fmt.Errorf("lda: map block %d: %d terms, the corpus has %d", i, x.Cols, m.terms)
	}
	emLo, emHi, perp := t.plan()
	// The block's rows in the pass's EM step.
	a, c := max(emLo-b.First, 0), min(emHi-b.First, rows)
	first := t.words == 0
	if a < c || perp || first {
		if err := checkCounts(x, fmt.Sprintf("block %d (documents %d to %d)", i, b.First, b.First+rows)); err != nil {
			return err
		}
	}
	off := t.statsOffset()
	sc := acc[off : off+statScalars]
	sc[statRows] += float64(rows)
	if first {
		for _, v := range x.Data[x.Indptr[0]:x.Indptr[rows]] {
			sc[statWords] += v
		}
	}
	if t.counting() {
		seeds, _ := t.countLens()
		if seeds > 0 {
			m.seedCounts(acc[:seeds], x, 0, rows)
		}
		if seeds < off {
			m.labelCounts(acc[seeds:off], x, b.First, 0, rows)
		}
		return nil
	}
	if !perp && a >= c {
		return nil
	}
	w := t.work(rows)
	defer t.works.Put(w)
	if perp {
		if _, err := m.eStepAt(ctx, w, x, b.First, 0, rows, false, false); err != nil {
			return fmt.Errorf("lda: map block %d, perplexity: %w", i, err)
		}
		if err := m.addDocBounds(ctx, w, x, 0, rows, w.gamma, t.elogBeta, &sc[statBound]); err != nil {
			return fmt.Errorf("lda: map block %d, perplexity: %w", i, err)
		}
	}
	if a < c {
		w.labels = m.opts.DocTopics
		it, err := m.eStepAt(ctx, w, x, b.First, a, c, !m.fixedInit, true)
		if err != nil {
			return fmt.Errorf("lda: map block %d, E-step: %w", i, err)
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("lda: map block %d, E-step: %w", i, err)
		}
		sc[statIters] += float64(it)
		m.addStats(acc[:off], w.expTheta, x, a, c, false)
	}
	return nil
}

// work returns E-step buffers for rows documents, from the pool if it has
// some (eStepAt and addDocBounds grow them to the block).
func (t *Trainer) work(rows int) *work {
	if w, ok := t.works.Get().(*work); ok && w.workers == parallel.Workers() {
		return w
	}
	return newWork(t.m, rows)
}

// Reduce ends the pass with the sum of the blocks' statistics: it records
// an evaluated perplexity and applies Config.Tol as Fit does, updates λ
// with the pass's EM step, and reports the fit finished once the final
// training perplexity is known. A cancelled ctx returns its error before
// anything changes.
func (t *Trainer) Reduce(ctx context.Context, sum []float64) (bool, error) {
	if t == nil || t.m == nil {
		return false, errors.New("lda: reduce: trainer not initialised (use NewTrainer or UnmarshalBinary)")
	}
	if t.done {
		return true, errors.New("lda: reduce: the fit is finished")
	}
	if n := t.StatsLen(); len(sum) != n {
		return false, fmt.Errorf("lda: reduce: statistics vector has %d values, want %d", len(sum), n)
	}
	if err := ctx.Err(); err != nil {
		return false, err
	}
	m, o := t.m, &t.m.opts
	emLo, emHi, perp := t.plan()
	off := t.statsOffset()
	sc := sum[off : off+statScalars]
	if sc[statRows] != float64(t.docs) {
		return false, fmt.Errorf("lda: reduce: the pass saw %v documents, the corpus has %d (does the source hold each document once?)", sc[statRows], t.docs)
	}
	if t.words == 0 {
		words := sc[statWords]
		if !(words > 0) || math.IsInf(words, 0) {
			return false, fmt.Errorf("lda: training corpus has %v words, want a positive finite number (all %d documents empty?)", words, t.docs)
		}
		if t.counting() {
			// The counting pass: λ gets the seed prior and the labeled
			// documents' counts that Fit starts from, in Fit's order.
			seeds, _ := t.countLens()
			t.words = words
			if seeds > 0 {
				m.setCounts(sum[:seeds], 1)
			}
			if seeds < off {
				m.startLabels(sum[seeds:off])
			}
			t.prepare()
			return false, nil
		}
		t.words = words
	}

	var p float64
	if perp {
		p = math.Exp(-m.finishBound(sc[statBound], t.termParts) / t.words)
	}
	if t.eval {
		// The evaluation of pass t.epoch, whose EM steps are done.
		rec := progress.Step{Iter: t.epoch, Total: o.MaxIter, Runs: 1, Objective: p, Inner: t.iters / float64(t.docs)}
		stop := t.lastPerp != 0 && math.Abs(t.lastPerp-p) < o.perpTol()
		t.lastPerp = p
		t.record(rec)
		t.eval, t.iters = false, 0
		if stop {
			t.stopped = true
		} else {
			m.passes++
		}
	}
	if emLo == emHi || t.stopped {
		if math.IsNaN(p) || math.IsInf(p, 0) {
			return false, fmt.Errorf("lda: fit: the final perplexity is %v: the computation overflowed the float64 range", p)
		}
		m.perplexity = p
		t.done = true
		t.elogBeta, t.termParts = nil, nil
		return true, nil
	}

	m.mStep(sum[:off], o.Method == Batch, float64(t.docs)/float64(emHi-emLo))
	t.iters += sc[statIters]
	t.lo = emHi
	if t.lo == t.docs {
		t.epoch++
		t.lo = 0
		if err := m.checkFinite(); err != nil {
			return false, fmt.Errorf("lda: fit, pass %d: %w", t.epoch, err)
		}
		if o.EvaluateEvery > 0 && t.epoch%o.EvaluateEvery == 0 {
			t.eval = true
		} else {
			t.record(progress.Step{Iter: t.epoch, Total: o.MaxIter, Runs: 1, Objective: math.NaN(), Inner: t.iters / float64(t.docs)})
			t.iters = 0
			m.passes++
		}
	}
	t.prepare()
	return false, nil
}

// record appends a pass to the history and reports it to Config.Progress.
func (t *Trainer) record(rec progress.Step) {
	rec.Elapsed = time.Since(t.start)
	t.m.history = append(t.m.history, rec)
	if p := t.m.opts.Progress; p != nil {
		p(rec)
	}
}

// Encoding of a Trainer: a magic word and version, then little-endian
// fields in a fixed order (see MarshalBinary), then the history and λ,
// then (from version 2) the supervision fields of the Config.
const (
	trainerMagic   = "LDAT"
	trainerVersion = 2
	// The fixed-size part after the magic: version, 14 config fields, the
	// test flag, docs, terms, 12 state fields and the history length, 8
	// bytes each.
	trainerHeader = 8 * (1 + 14 + 1 + 2 + 12 + 1)
	trainerStep   = 8 * 7 // one history record
)

// MarshalBinary encodes the Trainer's state — the resolved Config
// without Progress, λ, the pass counters and the history — so that
// UnmarshalBinary on another machine gives a Trainer whose Map adds
// exactly the same statistics. Its size is O(terms × k + passes).
func (t *Trainer) MarshalBinary() ([]byte, error) {
	if t == nil || t.m == nil {
		return nil, errors.New("lda: marshal: trainer not initialised (use NewTrainer or UnmarshalBinary)")
	}
	m, o := t.m, &t.m.opts
	buf := make([]byte, 0, len(trainerMagic)+trainerHeader+trainerStep*len(m.history)+8*len(m.lambda))
	u := func(v uint64) { buf = binary.LittleEndian.AppendUint64(buf, v) }
	i := func(v int) { u(uint64(int64(v))) }
	f := func(v float64) { u(math.Float64bits(v)) }
	b := func(v bool) {
		if v {
			u(1)
		} else {
			u(0)
		}
	}
	buf = append(buf, trainerMagic...)
	u(trainerVersion)
	i(o.K)
	f(o.DocTopicPrior)
	f(o.TopicWordPrior)
	i(int(o.Method))
	f(o.LearningDecay)
	f(o.LearningOffset)
	i(o.MaxIter)
	i(o.BatchSize)
	i(o.EvaluateEvery)
	f(o.TotalSamples)
	f(o.Tol)
	f(o.MeanChangeTol)
	i(o.MaxDocUpdateIter)
	u(o.Seed)
	b(m.fixedInit)
	i(t.docs)
	i(m.terms)
	i(m.steps)
	i(m.passes)
	f(m.perplexity)
	f(t.words)
	i(t.epoch)
	i(t.lo)
	f(t.iters)
	b(t.eval)
	b(t.stopped)
	b(t.done)
	f(t.lastPerp)
	u(uint64(time.Since(t.start)))
	i(len(m.history))
	for _, r := range m.history {
		i(r.Iter)
		i(r.Total)
		i(r.Run)
		i(r.Runs)
		f(r.Objective)
		f(r.Inner)
		u(uint64(r.Elapsed))
	}
	for _, v := range m.lambda {
		f(v)
	}
	f(o.SeedPrior)
	b(o.ZLabels)
	// Each seed term as (topic, term, strength, count), as the first
	// version's seed words (topic, term, weight, count) were written.
	i(len(o.Seeds.Seeds))
	for q, s := range o.Seeds.Seeds {
		i(s.Topic)
		i(s.Term)
		f(s.Strength)
		if o.SeedCounts != nil {
			f(o.SeedCounts[q])
		} else {
			f(0)
		}
	}
	i(len(o.Seeds.Exclude))
	for _, e := range o.Seeds.Exclude {
		i(e.Topic)
		i(e.Term)
	}
	i(len(o.DocTopics))
	for _, ts := range o.DocTopics {
		i(len(ts))
		for _, v := range ts {
			i(v)
		}
	}
	return buf, nil
}

// UnmarshalBinary restores a Trainer encoded by MarshalBinary, replacing
// the receiver's state; exp(E[log β]) is recomputed from λ, to the same
// bits. Config.Progress cannot be encoded: the receiver's is kept (none
// for a new Trainer). Malformed or inconsistent data is an error that
// leaves the receiver unchanged.
func (t *Trainer) UnmarshalBinary(data []byte) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("lda: decoding a trainer: "+format, args...)
	}
	if len(data) < len(trainerMagic)+trainerHeader || string(data[:len(trainerMagic)]) != trainerMagic {
		return fail("not an encoded LDA trainer (%d bytes)", len(data))
	}
	r := data[len(trainerMagic):]
	u := func() uint64 {
		v := binary.LittleEndian.Uint64(r)
		r = r[8:]
		return v
	}
	i := func() int { return int(int64(u())) }
	f := func() float64 { return math.Float64frombits(u()) }
	b := func() bool { return u() != 0 }
	version := u()
	if version != 1 && version != trainerVersion {
		return fail("version %d, want 1 or %d", version, trainerVersion)
	}
	var o Config
	o.K = i()
	o.DocTopicPrior = f()
	o.TopicWordPrior = f()
	o.Method = Method(i())
	o.LearningDecay = f()
	o.LearningOffset = f()
	o.MaxIter = i()
	o.BatchSize = i()
	o.EvaluateEvery = i()
	o.TotalSamples = f()
	o.Tol = f()
	o.MeanChangeTol = f()
	o.MaxDocUpdateIter = i()
	o.Seed = u()
	fixedInit := b()
	docs, terms := i(), i()
	steps, passes := i(), i()
	perplexity, words := f(), f()
	epoch, lo := i(), i()
	iters := f()
	eval, stopped, done := b(), b(), b()
	lastPerp := f()
	elapsed := time.Duration(u())
	nhist := i()

	if o.K <= 0 {
		return fail("K = %d topics", o.K)
	}
	if docs <= 0 || terms <= 0 {
		return fail("corpus of %d×%d", docs, terms)
	}
	if nhist < 0 || nhist > len(r)/trainerStep {
		return fail("%d history records in %d bytes", nhist, len(r))
	}
	rest := len(r) - nhist*trainerStep
	if terms > rest/8/o.K || (version == 1 && rest != 8*terms*o.K) {
		return fail("%d bytes for λ, want %d terms × %d topics", rest, terms, o.K)
	}
	if version > 1 {
		// The supervision fields follow λ.
		sup := r[nhist*trainerStep+8*terms*o.K:]
		if err := decodeSupervision(sup, &o); err != nil {
			return fail("%w", err)
		}
	}
	o, err := o.resolve()
	if err != nil {
		return fail("%w", err)
	}
	switch {
	case steps < 1 || passes < 0 || passes > o.MaxIter || epoch < 0 || epoch > o.MaxIter || lo < 0 || lo >= docs:
		return fail("inconsistent counters (steps %d, passes %d, pass %d, document %d)", steps, passes, epoch, lo)
	case math.IsNaN(words) || math.IsInf(words, 0) || words < 0 || math.IsNaN(iters) || iters < 0:
		return fail("inconsistent counts (words %v, iterations %v)", words, iters)
	case words == 0 && (steps > 1 || done || eval || stopped):
		return fail("no word count after the first pass")
	}
	hist := make([]progress.Step, nhist)
	for j := range hist {
		hist[j] = progress.Step{Iter: i(), Total: i(), Run: i(), Runs: i(), Objective: f(), Inner: f(), Elapsed: time.Duration(u())}
	}
	m := newModel(o, terms)
	for j := range m.lambda {
		v := f()
		if !(v > 0) || math.IsInf(v, 0) {
			return fail("λ of term %d, topic %d is %v, want a positive finite number", j/o.K, j%o.K, v)
		}
		m.lambda[j] = v
	}
	if err := m.initSupervision(); err != nil {
		return fail("%w", err)
	}
	if len(o.DocTopics) > 0 && len(o.DocTopics) != docs {
		return fail("DocTopics has %d entries for %d documents", len(o.DocTopics), docs)
	}
	m.updateExpElogBeta()
	m.fixedInit = fixedInit
	m.steps, m.passes, m.perplexity, m.history = steps, passes, perplexity, hist
	if t.m != nil {
		m.opts.Progress = t.m.opts.Progress
	}
	*t = Trainer{
		m: m, docs: docs, words: words, epoch: epoch, lo: lo, iters: iters,
		eval: eval, stopped: stopped, done: done, lastPerp: lastPerp,
		start: time.Now().Add(-elapsed), works: new(sync.Pool),
	}
	t.prepare()
	return nil
}

// decodeSupervision reads the supervision fields that MarshalBinary
// writes after λ into o, checking that the lengths fit in r and that
// nothing follows them.
func decodeSupervision(r []byte, o *Config) error {
	bad := errors.New("truncated supervision fields")
	u := func() (uint64, bool) {
		if len(r) < 8 {
			return 0, false
		}
		v := binary.LittleEndian.Uint64(r)
		r = r[8:]
		return v, true
	}
	// count reads a length whose items take at least per 8-byte words each.
	count := func(per int) (int, bool) {
		v, ok := u()
		if !ok || v > uint64(len(r)/8/per) {
			return 0, false
		}
		return int(v), true
	}
	next := func(ok *bool) uint64 {
		v, good := u()
		*ok = *ok && good
		return v
	}
	ok := true
	o.SeedPrior = math.Float64frombits(next(&ok))
	o.ZLabels = next(&ok) != 0
	if !ok {
		return bad
	}
	n, good := count(4)
	if !good {
		return bad
	}
	o.Seeds.Seeds, o.SeedCounts = nil, nil
	counts := make([]float64, n)
	counted := false
	for j := 0; j < n; j++ {
		o.Seeds.Seeds = append(o.Seeds.Seeds, supervision.Seed{Topic: int(int64(next(&ok))), Term: int(int64(next(&ok))),
			Strength: math.Float64frombits(next(&ok))})
		counts[j] = math.Float64frombits(next(&ok))
		counted = counted || counts[j] != 0
	}
	if counted {
		o.SeedCounts = counts
	}
	if n, good = count(2); !good {
		return bad
	}
	o.Seeds.Exclude = nil
	for j := 0; j < n; j++ {
		o.Seeds.Exclude = append(o.Seeds.Exclude, supervision.Exclusion{Topic: int(int64(next(&ok))), Term: int(int64(next(&ok)))})
	}
	if n, good = count(1); !good {
		return bad
	}
	o.DocTopics = nil
	if n > 0 {
		o.DocTopics = make([][]int, n)
	}
	for j := 0; j < n && ok; j++ {
		c, good := count(1)
		if !good {
			return bad
		}
		for l := 0; l < c; l++ {
			o.DocTopics[j] = append(o.DocTopics[j], int(int64(next(&ok))))
		}
	}
	if !ok {
		return bad
	}
	if len(r) != 0 {
		return fmt.Errorf("%d bytes after the supervision fields", len(r))
	}
	return nil
}
