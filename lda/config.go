package lda

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/supervision"
)

// Method selects how Fit updates the topic-word parameters λ.
type Method int

const (
	// Batch is batch variational Bayes: every pass runs the E-step over all
	// documents and replaces λ (scikit-learn's learning_method="batch", its
	// default).
	Batch Method = iota
	// Online is online variational Bayes (Hoffman, Blei & Bach 2010): every
	// mini-batch of BatchSize documents moves λ towards its own estimate with
	// weight ρ = (LearningOffset + step)^-LearningDecay.
	Online
)

// String returns "batch" or "online".
func (m Method) String() string {
	switch m {
	case Batch:
		return "batch"
	case Online:
		return "online"
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod returns the Method named "batch" or "online".
func ParseMethod(s string) (Method, error) {
	switch s {
	case "batch":
		return Batch, nil
	case "online":
		return Online, nil
	}
	return 0, fmt.Errorf("lda: unknown learning method %q (want batch or online)", s)
}

// Config configures a model. They mirror the parameters of scikit-learn
// 1.2's LatentDirichletAllocation, and a zero field takes scikit-learn's
// default, noted on each field. Where scikit-learn gives a literal zero a
// meaning, a negative value asks for it.
type Config struct {
	// K is the number of topics (n_components). Required.
	K int

	// DocTopicPrior is α, the Dirichlet prior of each document's topic
	// proportions θ (doc_topic_prior; default 1/K). Any positive
	// value is accepted (scikit-learn caps it at 1).
	DocTopicPrior float64
	// TopicWordPrior is η, the Dirichlet prior of each topic's word
	// distribution β (topic_word_prior; default 1/K). Any positive
	// value is accepted (scikit-learn caps it at 1).
	TopicWordPrior float64

	// Method is Batch (the default) or Online.
	Method Method
	// LearningDecay is κ, the exponent of the online learning rate, in
	// (0, 1]; (0.5, 1] guarantees convergence (learning_decay; default 0.7).
	LearningDecay float64
	// LearningOffset is τ₀ ≥ 1, which down-weights early online steps
	// (learning_offset; default 10).
	LearningOffset float64
	// MaxIter is the number of passes over the data in Fit (max_iter;
	// default 10).
	MaxIter int
	// BatchSize is the number of documents per online step (batch_size;
	// default 128).
	BatchSize int
	// EvaluateEvery computes the training perplexity after every so many
	// passes, records it in the history and stops when it changed by less
	// than Tol (evaluate_every; default 0: never, like scikit-learn's
	// -1). Each evaluation costs one more E-step over the data.
	EvaluateEvery int
	// TotalSamples is the corpus size that PartialFit scales each
	// mini-batch to (total_samples; default 1e6). Fit uses the number of
	// rows it is given.
	TotalSamples float64
	// Tol is the change in training perplexity, between two evaluations,
	// below which Fit stops early when EvaluateEvery is set
	// (scikit-learn's perp_tol; default 0.1; negative for 0, which never
	// stops early).
	Tol float64
	// MeanChangeTol stops a document's E-step iterations once the mean
	// absolute change of its γ falls below it (mean_change_tol; default
	// 1e-3; negative for 0, which always runs MaxDocUpdateIter iterations).
	MeanChangeTol float64
	// MaxDocUpdateIter caps the E-step iterations per document
	// (max_doc_update_iter; default 100; negative for 0, which leaves γ at
	// its initial value).
	MaxDocUpdateIter int

	// Seed seeds the initial λ and the random starting γ of each document
	// in the training E-steps (random_state). Results depend on Seed only,
	// not on the number of cores.
	Seed uint64

	// Seeds are seed terms and exclusions (package supervision). Each seed
	// term steers its topic (seeded LDA, and z-labels LDA with ZLabels) by
	// raising the topic's topic-word prior: η_tw = η + SeedPrior ·
	// Strength · count / (the number of topics the term seeds), Strength
	// 0 meaning 1 and count the term's count in the training corpus
	// (SeedCounts). Each exclusion makes the topic's φ of the term zero, in
	// training and in Transform: the topic never uses the term, whose λ in
	// it is η exactly. A term may not be excluded from every topic.
	// Default none.
	Seeds supervision.Terms
	// SeedCounts, when set, has one entry per seed term (Seeds.Seeds):
	// the term's count in the training corpus, which scales its seed
	// prior (0 for a term absent from the corpus). Leave it nil for Fit
	// and FitBlocks to count them, and PartialFit to estimate them from
	// its first mini-batch scaled to TotalSamples; Model.Config reports
	// the counts used.
	SeedCounts []float64
	// SeedPrior is the strength of the seed prior: a seed word gets
	// SeedPrior times its count in the training corpus as extra prior
	// pseudo-counts in its topic (shared among its topics when it seeds
	// several; default 1; negative for 0, no prior boost, for example with
	// ZLabels alone). At the default the prior counts every occurrence of
	// the seed word once more, in its topic: as much evidence as the corpus
	// itself holds about the word. This is GuidedLDA's seed confidence (the
	// share of a seed word's tokens its sampler starts in the seed topic)
	// made a prior, at full confidence. It scales with the corpus, and a
	// rare seed word gets a small boost, never more than the data it
	// stands for. The rule was chosen over a boost of SeedPrior · words/K
	// shared by a topic's seed words, which gave every seed word a
	// topic's worth of pseudo-counts whatever its frequency and, on 20
	// Newsgroups, halved the homogeneity of plain LDA's clusters
	// (experiment corex-20ng; that choice was made after seeing it, so
	// those figures are not a held-out test of the rule).
	SeedPrior float64
	// ZLabels restricts each seed word's topic assignments to the topics
	// it seeds (Andrzejewski & Zhu 2009's z-labels): its φ is zero in
	// every other topic, in training and in Transform, so its λ there is
	// η exactly. Words that seed no topic are unrestricted. Default off.
	ZLabels bool
	// DocTopics, when set, has one entry per training document of Fit
	// and FitBlocks: the topics the document may use (labeled LDA, Ramage
	// et al. 2009). A document with an empty entry is unrestricted
	// (semi-supervised); a labeled document's γ and φ are zero outside its
	// topics in the training E-steps. Transform, Score, Perplexity and the
	// training perplexity see no labels (a new document has none), nor
	// does PartialFit. Default none.
	//
	// The labeled topics start from their documents: before the first
	// E-step, Fit adds to λ, beside its random start, the labeled
	// documents' word counts, each document's count of a word shared
	// equally among its topics that may use the word — the statistics of
	// a first E-step whose φ is uniform over each labeled document's
	// topics. Without it, with few labeled documents (1% of the corpus),
	// the random start decided which topic became which class: labeled
	// LDA predicted the labels at chance (BBC 13–22% accuracy, 20
	// Newsgroups 5%); with it, 94–96% and 38–47% (1% of the training
	// labels, 3 seeds, test splits). The random start keeps
	// scikit-learn's scale (about 1 per term and topic) beside the counts:
	// scaling it by 0.01, 0.1 or 3 did no better on either corpus (the
	// same test splits, so a check that the default holds, not a tuned
	// choice).
	DocTopics [][]int
	// Lambda0, when set, is a start of λ (K × terms) for Fit, such as the
	// λ of an earlier fit (a warm start): a topic whose row has a positive
	// entry starts from that row, with its entries below η raised to η
	// (a term new to the topic starts at the prior); a topic whose row is
	// all zero starts as without Lambda0 (the random draw, the seed
	// prior, and with DocTopics its labeled documents' counts). A given
	// row gets neither the seed prior nor the counts added: it is taken
	// as a fitted topic, which holds them already. Default none.
	Lambda0 *mat.Dense
	// Gamma0, when set, is a start of the training documents' γ (one row
	// of K per document) for Fit with the Batch method, such as the γ of
	// an earlier fit: the first pass's E-step starts each document from
	// its row (a row of zeros: the random start), and each later pass,
	// and the final perplexity's E-step, from the γ the pass before left
	// rather than from a new draw, so that a start near the fit's
	// optimum needs few E-step iterations. Default none.
	Gamma0 *mat.Dense
	// Progress, when set, receives each pass of Fit over the data: Iter
	// the pass (from 1), Objective the training perplexity after it (NaN
	// where Config.EvaluateEvery does not evaluate it), Inner the mean
	// number of E-step iterations per document, on the fitting goroutine.
	Progress progress.Func
}

// resolve returns o with the defaults filled in, or an error naming the
// first invalid field. Negative values that stand for a literal zero stay
// negative, so that resolving twice changes nothing; the model reads them
// through the helpers below.
func (o Config) resolve() (Config, error) {
	if o.K <= 0 {
		return o, fmt.Errorf("lda: K = %d topics, want at least 1", o.K)
	}
	k := float64(o.K)
	checks := []struct {
		name string
		v    *float64
		def  float64
	}{
		{"DocTopicPrior", &o.DocTopicPrior, 1 / k},
		{"TopicWordPrior", &o.TopicWordPrior, 1 / k},
		{"LearningDecay", &o.LearningDecay, 0.7},
		{"LearningOffset", &o.LearningOffset, 10},
		{"TotalSamples", &o.TotalSamples, 1e6},
	}
	for _, c := range checks {
		switch v := *c.v; {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return o, fmt.Errorf("lda: %s = %v, want a finite number", c.name, v)
		case v == 0:
			*c.v = c.def
		case v < 0:
			return o, fmt.Errorf("lda: %s = %v, want a positive number (0 for the default %v)", c.name, v, c.def)
		}
	}
	if o.LearningDecay > 1 {
		return o, fmt.Errorf("lda: LearningDecay = %v, want at most 1", o.LearningDecay)
	}
	if o.LearningOffset < 1 {
		return o, fmt.Errorf("lda: LearningOffset = %v, want at least 1", o.LearningOffset)
	}
	if o.Method != Batch && o.Method != Online {
		return o, fmt.Errorf("lda: unknown Method %d", int(o.Method))
	}
	if o.MaxIter < 0 {
		return o, fmt.Errorf("lda: MaxIter = %d, want at least 0 (0 for the default 10)", o.MaxIter)
	}
	if o.MaxIter == 0 {
		o.MaxIter = 10
	}
	if o.BatchSize < 0 {
		return o, fmt.Errorf("lda: BatchSize = %d, want at least 1 (0 for the default 128)", o.BatchSize)
	}
	if o.BatchSize == 0 {
		o.BatchSize = 128
	}
	for _, c := range []struct {
		name string
		v    *float64
		def  float64
	}{{"Tol", &o.Tol, 0.1}, {"MeanChangeTol", &o.MeanChangeTol, 1e-3}} {
		switch v := *c.v; {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return o, fmt.Errorf("lda: %s = %v, want a finite number", c.name, v)
		case v == 0:
			*c.v = c.def
		}
	}
	if o.MaxDocUpdateIter == 0 {
		o.MaxDocUpdateIter = 100
	}
	if o.SeedPrior == 0 {
		o.SeedPrior = 1
	}
	if err := o.checkSupervision(); err != nil {
		return o, err
	}
	return o, nil
}

// perpTol, meanChangeTol and maxDocIter return the effective values of the
// fields whose negative values stand for zero.
func (o *Config) perpTol() float64       { return max(o.Tol, 0) }
func (o *Config) meanChangeTol() float64 { return max(o.MeanChangeTol, 0) }
func (o *Config) maxDocIter() int        { return max(o.MaxDocUpdateIter, 0) }
