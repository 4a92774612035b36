package model

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// LDA is a fitted LDA model.
type LDA struct {
	m       *lda.Model
	Vocab   []string
	weights []float64
}

// ldaParams are the LDA settings a saved model keeps (Transform needs the
// priors and the E-step bounds).
type ldaParams struct {
	DocTopicPrior, TopicWordPrior float64
	MaxDocUpdateIter              int
	MeanChangeTol                 float64
	Seed                          uint64
}

// Kind implements Model.
func (m *LDA) Kind() string { return KindLDA }

// NumTopics implements Model.
func (m *LDA) NumTopics() int { return m.m.Topics() }

// Topics implements Model: words weighted by the topic-word probabilities.
func (m *LDA) Topics(n int) ([]Topic, error) {
	tw := m.m.TopicWord()
	out := make([]Topic, m.NumTopics())
	for t := range out {
		out[t] = Topic{Name: fmt.Sprintf("topic-%d", t+1), Words: topicWords(tw.RawRowView(t), m.Vocab, n)}
		if m.weights != nil {
			out[t].Weight = m.weights[t]
		}
	}
	return out, nil
}

// Transform implements Model: the normalised document-topic distribution.
func (m *LDA) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return m.m.Transform(ctx, x)
}

func (m *LDA) params() ldaParams {
	o := m.m.Config()
	return ldaParams{o.DocTopicPrior, o.TopicWordPrior, o.MaxDocUpdateIter, o.MeanChangeTol, o.Seed}
}

func fitLDA(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func) (Model, Info, error) {
	if err := rejectUnused(o, KindLDA, map[string]bool{"method": true}); err != nil {
		return nil, Info{}, err
	}
	if sup.labeled() || len(sup.Anchors) > 0 {
		return nil, Info{}, fmt.Errorf("model: LDA is unsupervised; it takes no labels or anchors")
	}
	if o.K < 1 {
		return nil, Info{}, fmt.Errorf("model: lda needs k ≥ 1 topics")
	}
	lo, err := ldaConfig(o, report)
	if err != nil {
		return nil, Info{}, err
	}
	lm, err := lda.Fit(ctx, x, lo)
	if err != nil {
		return nil, Info{}, err
	}
	m, info := ldaModel(lm, vocab)
	return m, info, nil
}

// ldaConfig is the LDA configuration of the options.
func ldaConfig(o Options, report progress.Func) (lda.Config, error) {
	method := lda.Batch
	if o.Method != "" {
		var err error
		if method, err = lda.ParseMethod(o.Method); err != nil {
			return lda.Config{}, err
		}
	}
	lo := lda.Config{K: o.K, Method: method, MaxIter: o.MaxIter, Seed: o.Seed}
	if o.Tol > 0 {
		lo.Tol = o.Tol
	}
	lo.Progress = report
	return lo, nil
}

// ldaModel wraps a fitted LDA model with its topic shares: the fitted
// λ's row sums minus the prior.
func ldaModel(lm *lda.Model, vocab []string) (*LDA, Info) {
	m := &LDA{m: lm, Vocab: vocab}
	comp := lm.Components()
	k, terms := comp.Dims()
	m.weights = make([]float64, k)
	total := 0.0
	eta := lm.Config().TopicWordPrior
	for t := 0; t < k; t++ {
		s := mat.Sum(comp.RowView(t)) - eta*float64(terms)
		if s < 0 {
			s = 0
		}
		m.weights[t] = s
		total += s
	}
	if total > 0 {
		for t := range m.weights {
			m.weights[t] /= total
		}
	}
	return m, Info{Objective: lm.TrainPerplexity(), Iterations: lm.Passes(), Notes: []string{"objective: training perplexity"}}
}
