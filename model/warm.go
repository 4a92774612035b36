package model

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// WarmStart starts a fit from a previous model of the same kind
// (Options.Warm), as an interactive refit after a small change of the
// supervision, the topics, the vocabulary or the documents does: each
// topic starts from the topics of the previous model it comes from, and
// the documents from their state in it, instead of the kind's cold start.
// A warm-started fit honours its supervision as a cold fit does (an
// excluded word's weight is exactly zero, labels and seed words steer
// their topics), but it is not the model a cold fit of the same options
// gives, and it runs a shorter fit when Options.MaxIter is left at zero:
// nmf, tsnmf and ssnmf 10 to 30 iterations (their tolerance stops none
// before 10, so that a change of the supervision takes effect), corex
// 15, lda 3 passes. On 20 Newsgroups (20 topics) that is a tenth to a
// third of a cold fit's work, and the objective a cold fit reaches.
//
// The kinds nmf, tsnmf, ssnmf, corex and lda start warm; a theme model
// refits cold and says so in Info.Notes. Info.Warm tells which happened.
type WarmStart struct {
	// From is the previous model, of the kind fitted. Its vocabulary may
	// differ from the fit's: terms are matched by name, and a term it
	// does not know starts at zero in every topic (at the prior in lda).
	From *Fitted
	// Topics maps each topic of the fit, by the name the fit gives it
	// (an anchor's topic, a label, or topic-N for a free topic), to the
	// indices of From's topics it starts from: one for a topic kept or
	// renamed, several for topics merged (their states added), the same
	// index for each half of a split topic (its state shared between
	// them), none for a new topic, which starts from its seed words or
	// as the kind's cold start. Entries whose names the fit does not
	// give name free topics: their sources go, in the order of their
	// first index, to the fit's free topics (those neither an anchor nor
	// a label names) that no entry names. A From topic that no entry
	// lists is dropped. Nil maps every topic of From to the fit's topic
	// of the same name, and From's other topics in order to the fit's
	// free topics.
	Topics map[string][]int
	// Rows gives, for each row of the fitted matrix, its row in From's
	// training matrix, or -1 for a document new to the fit; nil when the
	// rows are From's own, in order.
	Rows []int
	// DocTopics are the topic weights of From's training documents (From's
	// rows × From's topics), what From.Model.Transform gives for them,
	// which a caller often holds already. Nil: the fit computes what it
	// needs with From.Model.Transform of its own rows, as it does for
	// the rows that Rows marks new.
	DocTopics *mat.Dense
}

// warmStarter is a kind whose fits start from a previous model of the
// kind (Options.Warm). Fit fits the other kinds cold, with a note.
type warmStarter interface {
	// fitWarm is fit started from w, whose From is a model of the kind.
	fitWarm(ctx context.Context, d *data, o Options, w *WarmStart) (Model, Info, error)
}

// checkWarm validates a warm start of the options o before any work.
func checkWarm(o Options) error {
	w := o.Warm
	switch {
	case w == nil:
		return nil
	case w.From == nil || w.From.Model == nil:
		return fmt.Errorf("model: the warm start has no model to start from")
	case o.Kind == KindAuto || o.Auto:
		return fmt.Errorf("model: a warm start fits the settings given; it takes no automatic configuration (kind %s, --auto)", KindAuto)
	case w.From.Model.Kind() != o.Kind:
		return fmt.Errorf("model: a warm start of a %s fit from a %s model: it starts from a model of the kind fitted", o.Kind, w.From.Model.Kind())
	case len(w.From.Vocab) == 0:
		return fmt.Errorf("model: the warm start's model has no vocabulary")
	}
	kp := w.From.Model.NumTopics()
	for name, from := range w.Topics {
		for _, q := range from {
			if q < 0 || q >= kp {
				return fmt.Errorf("model: warm start: topic %q starts from topic %d of a model of %d topics", name, q, kp)
			}
		}
	}
	if w.DocTopics != nil {
		if _, c := w.DocTopics.Dims(); w.DocTopics.IsEmpty() || c != kp {
			return fmt.Errorf("model: warm start: DocTopics has %d columns for a model of %d topics", c, kp)
		}
	}
	return nil
}

// checkRows validates the warm start against the n rows of the fit.
func (w *WarmStart) checkRows(n int) error {
	var from int
	if w.DocTopics != nil {
		from, _ = w.DocTopics.Dims()
	}
	if w.Rows == nil {
		if w.DocTopics != nil && from != n {
			return fmt.Errorf("model: warm start: DocTopics has %d rows for the %d documents of the fit (give Rows when they differ)", from, n)
		}
		return nil
	}
	if len(w.Rows) != n {
		return fmt.Errorf("model: warm start: Rows has %d entries for the %d documents of the fit", len(w.Rows), n)
	}
	for i, r := range w.Rows {
		if r < -1 || (w.DocTopics != nil && r >= from) {
			return fmt.Errorf("model: warm start: row %d comes from row %d of a model trained on %d documents", i, r, from)
		}
	}
	return nil
}

// topicSources returns, for each topic of a fit named names, the topics
// of w.From it starts from (see WarmStart.Topics); sup names the topics
// that are not free (its anchors' topics and its labels).
func (w *WarmStart) topicSources(names []string, sup Supervision) ([][]int, error) {
	lin := w.Topics
	if lin == nil {
		ts, err := w.From.Model.Topics(1)
		if err != nil {
			return nil, err
		}
		lin = make(map[string][]int, len(ts))
		for q, t := range ts {
			lin[t.Name] = append(lin[t.Name], q)
		}
	}
	named := map[string]bool{}
	for _, a := range sup.Anchors {
		named[a.Topic] = true
	}
	labels, _ := sup.labelIndex()
	for _, l := range labels {
		named[l] = true
	}
	src := make([][]int, len(names))
	used := map[string]bool{}
	for t, n := range names {
		if from, ok := lin[n]; ok && !used[n] {
			src[t], used[n] = slices.Clone(from), true
		}
	}
	type entry struct {
		name string
		from []int
	}
	var pool []entry
	for n, from := range lin {
		if !used[n] && len(from) > 0 {
			pool = append(pool, entry{n, slices.Clone(from)})
		}
	}
	slices.SortFunc(pool, func(a, b entry) int {
		if c := slices.Min(a.from) - slices.Min(b.from); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	for t, n := range names {
		if len(pool) > 0 && src[t] == nil && !named[n] {
			src[t], pool = pool[0].from, pool[1:]
		}
	}
	return src, nil
}

// shares returns, for each of From's kp topics, the number of the fit's
// topics that start from it (src).
func shares(src [][]int, kp int) []float64 {
	c := make([]float64, kp)
	for _, from := range src {
		for _, q := range from {
			c[q]++
		}
	}
	return c
}

// termMap returns, for each term of vocab, its column in From's
// vocabulary, or -1 for a term From does not know.
func (w *WarmStart) termMap(vocab []string) []int {
	col := termIndex(w.From.Vocab)
	out := make([]int, len(vocab))
	for j, t := range vocab {
		out[j] = -1
		if c, ok := col[t]; ok {
			out[j] = c
		}
	}
	return out
}

// topicRows returns the rows of a topics × terms matrix a of From mapped
// to the fit's topics (src, each topic the mean of the rows it starts
// from; a new topic's row is zero) and terms (cols, termMap's), with
// whether each topic has a source.
func topicRows(a *mat.Dense, src [][]int, cols []int) (*mat.Dense, []bool) {
	out := mat.NewDense(len(src), len(cols), nil)
	has := make([]bool, len(src))
	for t, from := range src {
		if len(from) == 0 {
			continue
		}
		has[t] = true
		row := out.RawRowView(t)
		inv := 1 / float64(len(from))
		for _, q := range from {
			prev := a.RawRowView(q)
			for j, c := range cols {
				if c >= 0 {
					row[j] += inv * prev[c]
				}
			}
		}
	}
	return out, has
}

// docTopics returns From's topic weights of the documents x (whose
// columns are vocab): w.DocTopics's row of each row that w.Rows maps to
// one, and From.Model.Transform of the others, read with From's
// vocabulary.
func (w *WarmStart) docTopics(ctx context.Context, x *sparse.CSR, vocab []string) (*mat.Dense, error) {
	kp := w.From.Model.NumTopics()
	out := mat.NewDense(x.Rows, kp, nil)
	var missing []int
	for i := 0; i < x.Rows; i++ {
		r := i
		if w.Rows != nil {
			r = w.Rows[i]
		}
		if w.DocTopics == nil || r < 0 {
			missing = append(missing, i)
			continue
		}
		copy(out.RawRowView(i), w.DocTopics.RawRowView(r))
	}
	if len(missing) == 0 {
		return out, nil
	}
	sub := x
	if len(missing) < x.Rows {
		sub = x.SelectRows(missing)
	}
	aligned, _, err := w.From.Align(sub, vocab)
	if err != nil {
		return nil, err
	}
	t, err := w.From.Model.Transform(ctx, aligned)
	if err != nil {
		return nil, fmt.Errorf("model: warm start: the previous model's topics of the documents: %w", err)
	}
	for p, i := range missing {
		copy(out.RawRowView(i), t.RawRowView(p))
	}
	return out, nil
}

// docColumns returns the documents' weights dt (documents × From's
// topics) mapped to the fit's topics: each topic the sum of the weights
// of the topics it starts from, a topic's weight shared equally among
// the topics that start from it (a split topic's halves), zero for a new
// topic.
func docColumns(dt *mat.Dense, src [][]int) *mat.Dense {
	n, kp := dt.Dims()
	c := shares(src, kp)
	out := mat.NewDense(n, len(src), nil)
	for i := 0; i < n; i++ {
		prev, row := dt.RawRowView(i), out.RawRowView(i)
		for t, from := range src {
			for _, q := range from {
				row[t] += prev[q] / c[q]
			}
		}
	}
	return out
}

// seedHolders returns, for each of k topics, the documents of x holding
// one of its seed terms.
func seedHolders(x *sparse.CSR, seeds supervision.Terms, k int) [][]int {
	byTerm := map[int32][]int{}
	for _, s := range seeds.Seeds {
		if !slices.Contains(byTerm[int32(s.Term)], s.Topic) {
			byTerm[int32(s.Term)] = append(byTerm[int32(s.Term)], s.Topic)
		}
	}
	out := make([][]int, k)
	if len(byTerm) == 0 {
		return out
	}
	for i := 0; i < x.Rows; i++ {
		cols, _ := x.Row(i)
		for _, c := range cols {
			for _, t := range byTerm[c] {
				if n := len(out[t]); n == 0 || out[t][n-1] != i {
					out[t] = append(out[t], i)
				}
			}
		}
	}
	return out
}

// warmStartRows is the number of random documents a new topic without
// seed words averages to start (nmf.DefaultAcolRows).
const warmStartRows = 20

// warmFactors returns the starting W (documents × k) and H (k × terms)
// of an NMF-family fit of the documents x (columns vocab) from w: h is
// From's topics × terms factor and src the fit's topics' sources
// (topicSources). A topic from From's topics takes the mean of their rows
// of h and the sum of their documents' weights (a split topic's shared);
// a new topic's row is the mean of the documents holding its seed words
// (seeds), or without any of warmStartRows documents drawn from seed,
// scaled to the other rows' mass, and its documents' weights the mean
// weight of the others (a tenth of it in the documents without its seed
// words; drawn uniformly below it for a topic without seed words). A
// seeded topic whose seed words are not all among the top seedTop words
// of its start starts halfway to its seed words' documents (blendSeeds). Exact
// zeros are lifted to a small positive value so that multiplicative
// updates can move them (the engine's masks zero the entries the
// supervision forbids).
func (w *WarmStart) warmFactors(ctx context.Context, x *sparse.CSR, vocab []string, h *mat.Dense, src [][]int, seeds supervision.Terms, seed uint64) (w0, h0 *mat.Dense, err error) {
	dt, err := w.docTopics(ctx, x, vocab)
	if err != nil {
		return nil, nil, err
	}
	h0, has := topicRows(h, src, w.termMap(vocab))
	w0 = docColumns(dt, src)
	k := len(src)
	mass, meanW, nh := 0.0, 0.0, 0
	for t := 0; t < k; t++ {
		if has[t] {
			mass += mat.Sum(h0.RowView(t))
			meanW += mat.Sum(w0.ColView(t))
			nh++
		}
	}
	if nh > 0 {
		mass /= float64(nh)
		meanW /= float64(nh * x.Rows)
	}
	if !(meanW > 0) {
		meanW = 1
	}
	holders := seedHolders(x, seeds, k)
	seedsOf := make([][]int, k)
	for _, s := range seeds.Seeds {
		seedsOf[s.Topic] = append(seedsOf[s.Topic], s.Term)
	}
	r := rng.NewCompat(seed, 0x7761726d2d737461) // "warm-sta"
	for t := 0; t < k; t++ {
		if has[t] {
			if len(holders[t]) > 0 && !allTop(h0.RawRowView(t), seedsOf[t], seedTop) {
				blendSeeds(h0.RawRowView(t), x, holders[t])
			}
			continue
		}
		docs := holders[t]
		if len(docs) == 0 {
			docs = make([]int, warmStartRows)
			for p := range docs {
				docs[p] = r.IntN(x.Rows)
			}
		}
		row := h0.RawRowView(t)
		for _, i := range docs {
			cols, vals := x.Row(i)
			for p, c := range cols {
				row[c] += vals[p]
			}
		}
		if s := floatsSum(row); s > 0 {
			scale := 1 / float64(len(docs))
			if mass > 0 {
				scale = mass / s
			}
			for j := range row {
				row[j] *= scale
			}
		}
		seededTopic := len(holders[t]) > 0
		for i := 0; i < x.Rows; i++ {
			v := meanW * r.Float64()
			if seededTopic {
				v = meanW / 10
			}
			w0.Set(i, t, v)
		}
		for _, i := range holders[t] {
			w0.Set(i, t, meanW)
		}
	}
	liftZeros(w0)
	liftZeros(h0)
	return w0, h0, nil
}

// seedTop is the number of a topic's top words its seed words should be
// among: a topic that starts from a row where one is not starts from
// that row blended with its seed words' documents (blendSeeds).
const seedTop = 10

// allTop reports whether every term of terms is among the n largest
// entries of row.
func allTop(row []float64, terms []int, n int) bool {
	top := metrics.TopIndices(row, n)
	for _, j := range terms {
		if !slices.Contains(top, j) {
			return false
		}
	}
	return true
}

// blendSeeds makes row, a topic's start, the mean of itself and of the
// documents holders of x (each scaled to row's mass): a topic given a
// seed word that its previous row does not hold among its top words
// starts halfway to the documents of its seed words, as a new seeded
// topic starts from them.
func blendSeeds(row []float64, x *sparse.CSR, holders []int) {
	mass := floatsSum(row)
	mean := make([]float64, len(row))
	for _, i := range holders {
		cols, vals := x.Row(i)
		for p, c := range cols {
			mean[c] += vals[p]
		}
	}
	ms := floatsSum(mean)
	if !(mass > 0) || !(ms > 0) {
		return
	}
	for j := range row {
		row[j] = 0.5*row[j] + 0.5*mean[j]*mass/ms
	}
}

// floatsSum returns the sum of v.
func floatsSum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// liftRatio is the share of a factor's mean positive entry that its exact
// zeros start at in a warm start.
const liftRatio = 1e-4

// liftZeros replaces the exact zeros of a by liftRatio times the mean of
// its positive entries (1 when it has none).
func liftZeros(a *mat.Dense) {
	r, c := a.Dims()
	sum, n := 0.0, 0
	for i := 0; i < r; i++ {
		for _, v := range a.RawRowView(i) {
			if v > 0 {
				sum += v
				n++
			}
		}
	}
	fill := liftRatio
	if n > 0 {
		fill *= sum / float64(n)
	}
	if !(fill > 0) || math.IsInf(fill, 0) {
		fill = liftRatio
	}
	for i := 0; i < r; i++ {
		row := a.RawRowView(i)
		for j := 0; j < c; j++ {
			if row[j] == 0 {
				row[j] = fill
			}
		}
	}
}

// warmNote is the note of a warm-started fit whose topics started from
// src and that ran within limits ("at most 20 iterations").
func warmNote(kind string, src [][]int, limits string) string {
	kept := 0
	for _, from := range src {
		if len(from) > 0 {
			kept++
		}
	}
	return fmt.Sprintf("warm start: %d of %d topics start from the previous %s model's, %d from their seed words or as a cold fit starts them; %s", kept, len(src), kind, len(src)-kept, limits)
}

// iterLimits describes the bounds of a fit of at most maxIter iterations
// that its rule stops after minIter at the soonest.
func iterLimits(maxIter, minIter int) string {
	return fmt.Sprintf("%d to %d iterations", minIter, maxIter)
}
