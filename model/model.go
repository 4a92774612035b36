package model

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// Model is a fitted topic model over a fixed vocabulary.
type Model interface {
	// Kind names the model type (KindNMF, ...).
	Kind() string
	// NumTopics is the number of topics (columns of Transform).
	NumTopics() int
	// Topics describes every topic with its n highest-scoring words (all
	// of its words with a positive score when n ≤ 0). It fails only for a
	// model whose factors are inconsistent, such as one edited by hand.
	Topics(n int) ([]Topic, error)
	// Transform returns the topic weights (documents × topics) of
	// documents vectorized with the model's vocabulary.
	Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error)
}

// Predictor is a model that predicts labels. The types that serve kinds
// fitted with or without labels (NMF for nmf and tsnmf, CorEx) have its
// methods either way; AsPredictor says whether a model predicts labels.
type Predictor interface {
	Model
	// Labels names the labels Predict scores, in column order.
	Labels() []string
	// Predict returns a score per document and label (higher is more
	// likely) and the predicted labels of each document.
	Predict(ctx context.Context, x *sparse.CSR) (*Prediction, error)
}

// AsPredictor returns m as a Predictor when it predicts labels: a model
// fitted with labels. An unsupervised model whose type also serves a
// supervised kind (an nmf or unanchored CorEx model) has no labels and is
// not one.
func AsPredictor(m Model) (Predictor, bool) {
	p, ok := m.(Predictor)
	if !ok || len(p.Labels()) == 0 {
		return nil, false
	}
	return p, true
}

// Prediction holds label scores and predicted labels, and the topic
// weights they were computed from.
type Prediction struct {
	// Weights is documents × topics, what Transform returns for the same
	// documents: Predict computes them anyway, so a caller that needs both
	// asks only Predict.
	Weights *mat.Dense
	// Scores is documents × labels.
	Scores *mat.Dense
	// Labels[i] lists document i's predicted labels (one for single-label
	// models); it is empty for a document with no term known to the
	// model, which gives no evidence for any label.
	Labels [][]string
	// Empty[i] is set when document i has no term known to the model.
	Empty []bool
}

// Accuracy scores p against the documents' true labels (one list per
// document, empty for an unlabeled one): a labeled document counts as
// right when every label predicted for it is one of its labels, and as
// wrong when it got no prediction (no term known to the model). It
// returns the right ones, the labeled ones, and the labeled ones without
// a prediction; truth must have one entry per predicted document. It is
// the one accuracy of predict, the report and the demo.
func (p *Prediction) Accuracy(truth [][]string) (right, labeled, empty int, err error) {
	if len(truth) != len(p.Labels) {
		return 0, 0, 0, fmt.Errorf("model: %d label lists for %d predicted documents", len(truth), len(p.Labels))
	}
	for i, t := range truth {
		if len(t) == 0 {
			continue
		}
		labeled++
		if len(p.Labels[i]) == 0 {
			empty++
			continue
		}
		ok := true
		for _, l := range p.Labels[i] {
			ok = ok && slices.Contains(t, l)
		}
		if ok {
			right++
		}
	}
	return right, labeled, empty, nil
}

// NumEmpty counts the documents with no term known to the model.
func (p *Prediction) NumEmpty() int {
	n := 0
	for _, e := range p.Empty {
		if e {
			n++
		}
	}
	return n
}

// newPrediction assembles the prediction of the documents x: documents
// without a known term keep their scores but get no label.
func newPrediction(x *sparse.CSR, weights, scores *mat.Dense, labels [][]string) *Prediction {
	p := &Prediction{Weights: weights, Scores: scores, Labels: labels, Empty: make([]bool, x.Rows)}
	for i := range p.Empty {
		if x.Indptr[i+1] == x.Indptr[i] {
			p.Empty[i] = true
			p.Labels[i] = nil
		}
	}
	return p
}

// Topic describes one topic.
type Topic struct {
	// Name is the topic's name: a label for supervised topics, else
	// "topic-N".
	Name string `json:"name"`
	// Label is the label the topic stands for ("" when none).
	Label string `json:"label,omitempty"`
	// Group groups topics of a structured model: for theme models the
	// theme a subtopic or a Separated background topic belongs to, "new"
	// for new topics, "background" for the Combined background; "" for
	// flat models.
	Group string `json:"group,omitempty"`
	// Weight is the topic's share of the training corpus (sums to 1 over
	// the topics when known, else 0; see Empty for a topic of share 0).
	Weight float64 `json:"weight,omitempty"`
	// Score is a model-specific quality figure (CorEx's total correlation
	// in nats); 0 when none.
	Score float64 `json:"score,omitempty"`
	// Words are the top words, best first.
	Words []Word `json:"words"`
	// Empty marks a topic the fit left unused: its share of the training
	// corpus is below EmptyShare (when the shares are known) or no word
	// has a positive weight in it. An empty topic is no topic to show:
	// displays leave it out and say once how many there are ("90 empty
	// topics"). It keeps its place (its column of Transform, its name).
	Empty bool `json:"empty,omitempty"`
}

// EmptyShare is the share of the training corpus below which a topic is
// empty (Topic.Empty): less than a billionth of the corpus, nothing any
// display rounds to a non-zero percentage.
const EmptyShare = 1e-9

// markEmpty sets Empty on the topics that are: those with no word, and,
// when the shares of the corpus are known, those whose share is below
// EmptyShare. Every Topics method ends with it.
func markEmpty(ts []Topic, sharesKnown bool) []Topic {
	for i := range ts {
		ts[i].Empty = len(ts[i].Words) == 0 || (sharesKnown && ts[i].Weight < EmptyShare)
	}
	return ts
}

// EmptyTopics returns the empty topics of ts (Topic.Empty), in order: the
// outputs (fit, topics, the report, the server) leave them out of charts
// and lists and name them in one line instead.
func EmptyTopics(ts []Topic) []Topic {
	var out []Topic
	for _, t := range ts {
		if t.Empty {
			out = append(out, t)
		}
	}
	return out
}

// Title is the topic's name for display: the name, prefixed by its group
// unless the name already starts with it.
func (t Topic) Title() string {
	if t.Group == "" || strings.HasPrefix(t.Name, t.Group) {
		return t.Name
	}
	return t.Group + " / " + t.Name
}

// Word is one of a topic's top words.
type Word struct {
	Word string `json:"word"`
	// Weight is the word's weight in the topic (row-normalised topic-term
	// weight for NMF-family models, probability for LDA, mutual
	// information in nats for CorEx).
	Weight float64 `json:"weight"`
	// Purity is the theme-supervised NMF purity d/(d+d_bg), when defined.
	Purity *float64 `json:"purity,omitempty"`
	// Sign is CorEx's sign of the word's information: +1 when its
	// presence, −1 when its absence is informative; 0 elsewhere.
	Sign int `json:"sign,omitempty"`
}

// Fitted is a model together with the vectorizer that maps text to its
// vocabulary. For a model fitted on an already-vectorized corpus the
// vectorizer is nil and only matrices with the same vocabulary can be
// transformed.
type Fitted struct {
	Model      Model
	Vectorizer *vectorize.Vectorizer
	// Vocab is the model's vocabulary (column order).
	Vocab []string
	// Info records how the model was fitted.
	Info Info
	// Dropped lists the training documents the pipeline's document filters
	// left out of the fit (Text; not saved with the model, whose Info
	// keeps their number).
	Dropped []vectorize.Dropped
	// DocTopics are the training documents' topic weights as the fit left
	// them (documents × topics, the rows of the fitted matrix), where the
	// kind keeps them: nmf, tsnmf and ssnmf fitted in memory, and lda once
	// Training has read them; nil otherwise. Not saved with the model.
	// Training reads them.
	DocTopics *mat.Dense
}

// fitWeights is a model whose fit keeps its training documents' topic
// weights, and that predicts labels from weights.
type fitWeights interface {
	// takeTraining returns the training weights and forgets them.
	takeTraining() *mat.Dense
	// predictWeights predicts the documents x whose weights are w.
	predictWeights(x *sparse.CSR, w *mat.Dense) (*Prediction, error)
}

// trainingReader is a fitWeights model that reads its training documents
// as its fit did on demand, rather than keeping their weights; ok is false
// where it cannot (a model loaded from a file).
type trainingReader interface {
	readTraining(ctx context.Context, x *sparse.CSR) (w *mat.Dense, ok bool, err error)
}

// Training returns f's reading of the documents it was fitted on, x (the
// fitted matrix, the same rows): from DocTopics where f has them — so that
// a labeled document is read as its label constrained it in the fit (a
// TS-NMF document's weights stay in its labels' topics, a labeled LDA
// document's θ in its labels' topics) — else as
// Transform reads new documents. The Prediction's Scores and Labels are
// nil for a model that predicts no labels. inSample reports whether the
// weights are the fit's own.
func (f *Fitted) Training(ctx context.Context, x *sparse.CSR) (p *Prediction, inSample bool, err error) {
	pr, predicts := AsPredictor(f.Model)
	if t, ok := f.Model.(trainingReader); ok && f.DocTopics == nil {
		w, ok, err := t.readTraining(ctx, x)
		if err != nil {
			return nil, false, err
		}
		if ok {
			f.DocTopics = w
		}
	}
	if t, ok := f.Model.(fitWeights); ok && f.DocTopics != nil {
		if r, c := f.DocTopics.Dims(); r == x.Rows && c == f.Model.NumTopics() {
			if !predicts {
				return weightsOnly(x, f.DocTopics), true, nil
			}
			p, err := t.predictWeights(x, f.DocTopics)
			return p, err == nil, err
		}
	}
	if predicts {
		p, err := pr.Predict(ctx, x)
		return p, false, err
	}
	w, err := f.Model.Transform(ctx, x)
	if err != nil {
		return nil, false, err
	}
	return weightsOnly(x, w), false, nil
}

// weightsOnly is the Prediction of a model that predicts no labels: the
// documents x's weights w.
func weightsOnly(x *sparse.CSR, w *mat.Dense) *Prediction {
	p := newPrediction(x, w, nil, make([][]string, x.Rows))
	p.Labels = nil
	return p
}

// Info records how a model was fitted, for people reading a saved model.
type Info struct {
	// Created is the fit time (RFC 3339).
	Created string `json:"created,omitempty"`
	// Corpus describes the training corpus.
	Corpus string `json:"corpus,omitempty"`
	// Documents is the number of training documents.
	Documents int `json:"documents,omitempty"`
	// Dropped counts the corpus's documents that the pipeline's document
	// filters left out of the fit (not in Documents).
	Dropped int `json:"dropped,omitempty"`
	// EmptyDocuments counts the training documents with no vocabulary
	// term (in the fit, but carrying no information).
	EmptyDocuments int `json:"empty_documents,omitempty"`
	// Seconds is the fit's wall time.
	Seconds float64 `json:"seconds,omitempty"`
	// Objective is the final objective or total correlation, when any.
	Objective float64 `json:"objective,omitempty"`
	// Iterations is the number of iterations, when meaningful.
	Iterations int `json:"iterations,omitempty"`
	// Convergence says how the fit ended: converged, stopped at its
	// iteration limit (with what the stopping rule measured last), or
	// ran a fixed number of iterations. Its Status is progress.Unknown
	// (and the field absent from the file) for models saved before fits
	// reported it.
	Convergence progress.Convergence `json:"convergence,omitzero"`
	// Warm reports that the fit started from a previous model
	// (Options.Warm): a cold fit of the same options and data gives
	// another model.
	Warm bool `json:"warm,omitempty"`
	// Notes explains the supervision and other choices.
	Notes []string `json:"notes,omitempty"`
	// Params are the fit options as given.
	Params Options `json:"params"`
	// Search reports the automatic configuration, when Params.Auto asked
	// for one: the settings fitted are Search.ChosenCandidate().Options.
	Search *Search `json:"search,omitempty"`
}

// Vectorize maps documents to the model's vocabulary with its vectorizer.
func (f *Fitted) Vectorize(ctx context.Context, docs []corpus.Document) (*vectorize.Result, error) {
	if f.Vectorizer == nil {
		return nil, fmt.Errorf("model: fitted on an already-vectorized corpus, it cannot read text; give it a matrix with its %d-term vocabulary", len(f.Vocab))
	}
	return f.Vectorizer.Transform(ctx, docs)
}

// Align returns the columns of x, whose columns are the terms vocab,
// reordered to the model's vocabulary: terms the model does not know are
// dropped (their count is returned) and model terms missing from vocab are
// empty columns.
func (f *Fitted) Align(x *sparse.CSR, vocab []string) (*sparse.CSR, int, error) {
	if len(vocab) != x.Cols {
		return nil, 0, fmt.Errorf("model: %d vocabulary terms for %d columns", len(vocab), x.Cols)
	}
	same := len(vocab) == len(f.Vocab)
	for j := 0; same && j < len(vocab); j++ {
		same = vocab[j] == f.Vocab[j]
	}
	if same {
		return x, 0, nil
	}
	pos := make(map[string]int32, len(f.Vocab))
	for j, t := range f.Vocab {
		pos[t] = int32(j)
	}
	colMap := make([]int32, len(vocab))
	unknown := 0
	for j, t := range vocab {
		if p, ok := pos[t]; ok {
			colMap[j] = p
		} else {
			colMap[j] = -1
			unknown++
		}
	}
	var ts []sparse.Triplet
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			if c := colMap[j]; c >= 0 {
				ts = append(ts, sparse.Triplet{Row: i, Col: int(c), Val: vals[p]})
			}
		}
	}
	out, err := sparse.FromTriplets(x.Rows, len(f.Vocab), ts)
	return out, unknown, err
}

// topicWords returns the n largest positive entries of row as words
// (all of its positive entries when n ≤ 0).
func topicWords(row []float64, vocab []string, n int) []Word {
	idx := metrics.TopIndices(row, n)
	out := make([]Word, len(idx))
	for i, j := range idx {
		out[i] = Word{Word: vocab[j], Weight: row[j]}
	}
	return out
}

// normalizedRows returns h with each row divided by its sum.
func normalizedRows(h *mat.Dense) *mat.Dense {
	r, c := h.Dims()
	out := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		row := h.RawRowView(i)
		s := 0.0
		for _, v := range row {
			s += v
		}
		o := out.RawRowView(i)
		if s > 0 {
			for j, v := range row {
				o[j] = v / s
			}
		}
	}
	return out
}

// argmaxLabels picks, per row of scores, the label with the highest score.
func argmaxLabels(scores *mat.Dense, labels []string) [][]string {
	r, _ := scores.Dims()
	out := make([][]string, r)
	for i := 0; i < r; i++ {
		if best := metrics.Argmax(scores.RawRowView(i)); best >= 0 {
			out[i] = []string{labels[best]}
		}
	}
	return out
}
