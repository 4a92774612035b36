package model

import (
	"context"
	"fmt"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// Options are the fit options of every kind. Each kind takes the fields
// its Params declare (by their flag names, AllOptions), with the meaning,
// default and values declared there (docs/cli.md lists them); Fit refuses
// a field set for a kind that does not take it. The zero value of a field
// means the kind's default.
type Options struct {
	// Kind is the model kind (KindNMF, ...). Required.
	Kind string `json:"kind"`
	// K is the number of topics. For TS-NMF it defaults to the number of
	// labels; for theme models it is not used (see Subtopics).
	K int `json:"k,omitempty"`
	// Seed seeds every random choice of the fit.
	Seed uint64 `json:"seed"`
	// MaxIter and Tol bound the iterations (kind defaults when zero).
	MaxIter int     `json:"max_iter,omitempty"`
	Tol     float64 `json:"tol,omitempty"`
	// Loss is "frobenius" or "kl" for the NMF family (nmf, tsnmf, theme);
	// for ssnmf, the pair of losses "F,F", "F,D", "D,F" or "D,D".
	Loss string `json:"loss,omitempty"`
	// Init names the NMF initialisation (see nmf.ParseInit).
	Init string `json:"init,omitempty"`
	// Gathers is the precision of the factor rows that nmf's and tsnmf's
	// Frobenius updates read once per stored entry (nmf.ParseGathers,
	// nmf.Config.Gathers): "auto" (the default: float32 from
	// nmf.AutoFloat32NNZ stored entries on), "float64" (scikit-learn's
	// numerics at any size) or "float32".
	Gathers string `json:"gathers,omitempty"`
	// Weighting is TS-NMF's error weighting: "inverse" (default, n over
	// the number of labeled documents) or "none".
	Weighting string `json:"weighting,omitempty"`
	// Method is LDA's learning method: "batch" (default) or "online".
	Method string `json:"method,omitempty"`

	// Subtopics is the number of subtopics per theme (theme models).
	Subtopics int `json:"subtopics,omitempty"`
	// Mode is the theme models' training: "separated" (default, one
	// model per theme, the thesis' best) or "combined" (one model).
	Mode string `json:"mode,omitempty"`
	// NoThemeBackground forbids, in Separated training, a theme's
	// background topic in that theme's own labeled documents (the
	// reference code's background_for_theme=False; theme models).
	NoThemeBackground bool `json:"no_theme_background,omitempty"`
	// NewTopics adds a pseudo-theme of this many subtopics allowed only in
	// unlabeled documents (theme models).
	NewTopics int `json:"new_topics,omitempty"`
	// Lambda weighs the supervision term (ssnmf).
	Lambda float64 `json:"lambda,omitempty"`
	// Beta is the seed words' default strength, whose meaning is the
	// kind's: corex, the anchor strength; nmf, tsnmf and ssnmf, a
	// multiplier of the seed pseudo-documents' default weight (see
	// seedWeight; 0 means 1); lda, the seed prior's strength (seed modes
	// prior and both): a seed word gets Beta times its count in the corpus
	// as extra prior pseudo-counts in its topic (0 for the default 1: the
	// prior counts each occurrence of the word once more, in its topic;
	// see lda.Config.SeedPrior), times its own strength (word:3: three
	// times). Beta is 0 or a number from MinStrength to MaxStrength.
	Beta float64 `json:"beta,omitempty"`
	// SeedRank, when positive, holds every seed word among its topic's
	// SeedRank heaviest words (nmf and tsnmf: nmf.Config.SeedRank), which
	// the seed words' pseudo-documents alone do not promise; 0 (the
	// default) leaves them to the pseudo-documents.
	SeedRank int `json:"seed_rank,omitempty"`
	// HoldLabels holds every labeled document to its labels in the fit,
	// which tsnmf and lda do by construction: ssnmf raises the label
	// weight of each labeled document predicted without its labels and
	// refits (a few times at most); corex holds each labeled document's
	// p(y|x) in its labels' topics and out of the other labels' (see
	// corex.Config.Hold). A person's labels then read back as given.
	HoldLabels bool `json:"hold_labels,omitempty"`
	// SeedMode is how lda's seed words steer their topics: "prior" (the
	// default, seeded LDA: a larger topic-word prior), "zlabels" (z-labels
	// LDA: a seed word's weight is exactly zero outside its topics) or
	// "both".
	SeedMode string `json:"seed_mode,omitempty"`
	// Restarts is the number of seeds tried, keeping the best (corex).
	Restarts int `json:"restarts,omitempty"`

	// Readout is how a model supervised by labels turns documents into
	// label scores: ReadoutNative (the default), ReadoutTopics or
	// ReadoutTermsTopics.
	Readout string `json:"readout,omitempty"`
	// Auto chooses the settings of a model supervised by labels that are
	// left at their zero value — the kind's key settings and the readout —
	// by stratified cross-validation over the labeled documents (see
	// Search); Kind may then be KindAuto to choose the kind as well. With
	// no label held by two labeled documents nothing can be held out: the
	// defaults are fitted, with ReadoutTopics for every kind but TS-NMF.
	Auto bool `json:"auto,omitempty"`

	// Supervision is what the fit learns from besides the documents: labels
	// and anchor words. It is not recorded in Info.Params.
	Supervision `json:"-"`
	// LabelsFromCorpus makes Fit take the labels from the corpus's
	// documents (documents without labels stay unlabeled) instead of
	// Supervision.Labels.
	LabelsFromCorpus bool `json:"labels_from_corpus,omitempty"`
	// Warm, when set, starts the fit from a previous model of the kind
	// (see WarmStart). It is not recorded in Info.Params.
	Warm *WarmStart `json:"-"`
	// Progress, when set, receives each step of the fit (see package
	// progress; the kind's package says what a step and its objective
	// are). An automatic configuration reports each of its fits in turn,
	// so Iter starts again from 1 at each. It is not recorded in
	// Info.Params.
	Progress progress.Func `json:"-"`
}

// recorded returns o without the fields Info.Params leaves out: the
// supervision, the warm start and the progress callback.
func (o Options) recorded() Options {
	o.Supervision, o.Warm, o.Progress = Supervision{}, nil, nil
	return o
}

// checkTopics reports a number of topics that the data cannot support: a
// factorization of n documents × m terms has at most min(n, m) independent
// topics, and more only leave topics empty or duplicated.
func checkTopics(name string, k, n, m int) error {
	switch {
	case k > n:
		return fmt.Errorf("model: %s = %d is more than the %d documents; use at most %d topics", name, k, n, min(n, m))
	case k > m:
		return fmt.Errorf("model: %s = %d is more than the %d terms of the vocabulary; use at most %d topics", name, k, m, min(n, m))
	}
	return nil
}

// Supervision is what a user says about the topics they want: labels for
// some documents (nil for unlabeled ones), anchor words per topic, or both
// where a model can use both.
type Supervision struct {
	Labels  [][]string
	Anchors []Anchor
}

// Anchor steers one topic with a few words.
type Anchor struct {
	// Topic names the topic.
	Topic string
	// Words are the anchor (seed) words; Beta, when not empty, holds one
	// strength per word: Beta[i] is Words[i]'s anchor strength, a number
	// from MinStrength to MaxStrength, or 0 for the default (Options.Beta
	// applies; in the NMF family, Words[i]'s entry in the topic's seed
	// pseudo-document, 1). Any other value is an error naming the topic
	// and the word.
	Words []string
	Beta  []float64
	// Exclude are the words the topic may not use: their weight in the
	// topic is exactly zero (nmf, tsnmf, ssnmf; theme: in each subtopic
	// of the theme Topic names; corex: their α in the topic).
	Exclude []string
}

// labeled reports whether any document has a label.
func (s Supervision) labeled() bool {
	for _, l := range s.Labels {
		if len(l) > 0 {
			return true
		}
	}
	return false
}

// labelIndex numbers the labels of s in sorted order.
func (s Supervision) labelIndex() (names []string, idx [][]int) {
	docs := make([]corpus.Document, len(s.Labels))
	for i, l := range s.Labels {
		docs[i].Labels = l
	}
	return corpus.LabelIndex(docs)
}

// errAutoAnchors refuses anchors when the automatic configuration chooses
// the kind: some of the kinds it tries cannot take them with labels.
var errAutoAnchors = fmt.Errorf("model: the automatic choice of kind takes no anchors (corex takes labels or anchors, not both; theme models no seed words); choose tsnmf or ssnmf, which take labels with seed and exclusion words")

// Source is what Fit trains on: a matrix (Matrix), a corpus (Text) or a
// sharded corpus on disk (Shards).
type Source interface{ source() }

type matrixSource struct {
	x     *sparse.CSR
	vocab []string
}

type textSource struct {
	c *corpus.Corpus
	p *vectorize.Pipeline
}

type shardsSource struct {
	src      *shard.Source
	stateDir string
}

func (matrixSource) source() {}
func (textSource) source()   {}
func (shardsSource) source() {}

// Matrix is an already-vectorized corpus: the documents × terms matrix x
// whose columns are the terms vocab. Its labels, if any, are
// Options.Labels, one entry per row of x. A model fitted on it has no
// vectorizer: it transforms matrices over the same vocabulary.
func Matrix(x *sparse.CSR, vocab []string) Source { return matrixSource{x, vocab} }

// Text is the corpus c vectorized with the pipeline p — nil for the
// kind's own (Kind.Preset; with KindAuto, each kind tried is fitted on its
// own) — or, when c is already vectorized (c.Matrix), c's matrix as it is.
// Its labels are Options.Labels or, with Options.LabelsFromCorpus, its
// documents' own. The documents the pipeline's document filters drop are
// left out of the fit (Fitted.Dropped), and the model keeps the fitted
// vectorizer, to read new text as the corpus was read.
func Text(c *corpus.Corpus, p *vectorize.Pipeline) Source { return textSource{c, p} }

// Shards is the sharded corpus src, trained out of core with the
// documents' state and the checkpoint in the folder stateDir (see
// OutOfCoreKinds for the kinds and what they take out of core).
//
// Each iteration streams the shards from disk, the document-side state
// (NMF's W, CorEx's p(y|x)) is kept per shard in stateDir, and memory
// holds the topic-side state, O(k·terms), besides two shards. Labels come
// from the corpus's labels file (Options.LabelsFromCorpus); seed words
// need the corpus in memory in the NMF family, the automatic
// configuration (Options.Auto) runs in memory only, and the readouts
// other than native are refused. A corpus that semitopic vectorize
// --shards made from text keeps its vectorizer (pipeline.json), and the
// model gets it; otherwise the model, like one fitted on a Matrix, takes
// matrices only.
//
// A fit resumes from the checkpoint in stateDir, which records its
// settings (kind, options, anchors, corpus): a fit whose state folder
// holds another fit's checkpoint is refused with a *StateMismatchError
// before any work, and the checkpoint is left as it was. A state folder
// the fit creates is removed when it fails before saving a checkpoint
// (nothing in it could be resumed).
func Shards(src *shard.Source, stateDir string) Source { return shardsSource{src, stateDir} }

// Fit fits a model of kind o.Kind on src, supervised by o.Supervision
// (or the corpus's labels, o.LabelsFromCorpus) and reporting to
// o.Progress: the one way to fit every kind, in memory and out of core.
// With KindAuto and o.Auto, it configures each kind that learns from
// labels automatically and keeps the best (Info.Search).
func Fit(ctx context.Context, src Source, o Options) (*Fitted, error) {
	if err := CheckOptions(o); err != nil {
		return nil, err
	}
	switch s := src.(type) {
	case matrixSource:
		if o.LabelsFromCorpus {
			return nil, fmt.Errorf("model: the labels of a matrix are Options.Labels; LabelsFromCorpus takes them from a corpus's documents (Text)")
		}
		return fitVectorized(ctx, s.x, s.vocab, o)
	case textSource:
		if s.c == nil {
			return nil, fmt.Errorf("model: no corpus")
		}
		return fitText(ctx, s.c, s.p, o)
	case shardsSource:
		if s.src == nil {
			return nil, fmt.Errorf("model: no sharded corpus")
		}
		if o.Warm != nil {
			return nil, fmt.Errorf("model: out of core a fit resumes from its checkpoint; a warm start (Options.Warm) starts a fit in memory")
		}
		return fitOutOfCore(ctx, s.src, s.stateDir, o)
	}
	return nil, fmt.Errorf("model: no source to fit")
}

// fitVectorized fits o on the matrix x whose columns are vocab, counting
// its documents without a term.
func fitVectorized(ctx context.Context, x *sparse.CSR, vocab []string, o Options) (*Fitted, error) {
	m, info, err := fitMatrix(ctx, x, vocab, o)
	if err != nil {
		return nil, err
	}
	for i := 0; i < x.Rows; i++ {
		if x.Indptr[i+1] == x.Indptr[i] {
			info.EmptyDocuments++
		}
	}
	f := &Fitted{Model: m, Vocab: vocab, Info: info}
	if t, ok := m.(fitWeights); ok {
		if w := t.takeTraining(); w != nil {
			if r, _ := w.Dims(); r == x.Rows {
				f.DocTopics = w
			}
		}
	}
	return f, nil
}

// fitMatrix fits a model of kind o.Kind on the documents × terms matrix x
// whose columns are vocab, supervised by o.Supervision (its Labels, when
// given, has one entry per row of x) and reporting to o.Progress.
func fitMatrix(ctx context.Context, x *sparse.CSR, vocab []string, o Options) (Model, Info, error) {
	sup, report, warm := o.Supervision, o.Progress, o.Warm
	k, err := kindOrAuto(o.Kind)
	if err != nil {
		return nil, Info{}, err
	}
	if x == nil || x.Rows == 0 || x.Cols == 0 {
		return nil, Info{}, fmt.Errorf("model: empty document-term matrix")
	}
	if len(vocab) != x.Cols {
		return nil, Info{}, fmt.Errorf("model: %d vocabulary terms for %d columns", len(vocab), x.Cols)
	}
	if sup.Labels != nil && len(sup.Labels) != x.Rows {
		return nil, Info{}, fmt.Errorf("model: labels for %d documents, matrix has %d", len(sup.Labels), x.Rows)
	}
	if err := checkAnchors(sup.Anchors); err != nil {
		return nil, Info{}, err
	}
	if warm != nil {
		if err := warm.checkRows(x.Rows); err != nil {
			return nil, Info{}, err
		}
	}
	if k == nil {
		err = checkAuto(o, sup.labeled(), x.Rows, x.Cols)
	} else {
		err = checkOptions(k, o, sup.labeled(), x.Rows, x.Cols)
	}
	if err != nil {
		return nil, Info{}, err
	}
	o = o.recorded()
	if report == nil {
		report = func(progress.Step) {}
	}
	t0 := time.Now()
	var m Model
	var info Info
	if _, search := k.(searchable); o.Auto && sup.labeled() && (k == nil || search) {
		m, info, err = autoFit(ctx, x, vocab, sup, o, report)
	} else {
		m, info, err = fitOne(ctx, x, vocab, sup, o, report, warm, nil)
	}
	if err != nil {
		return nil, Info{}, err
	}
	info.Params = o
	info.Documents = x.Rows
	info.Seconds = time.Since(t0).Seconds()
	info.Created = time.Now().UTC().Format(time.RFC3339)
	return m, info, nil
}

// fitOne fits o.Kind with the settings of o as they are, started from
// warm when given and the kind can (else cold, with a note), then trains
// its readout (its SVM warm-started from the automatic configuration's
// folds when given).
func fitOne(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func, warm *WarmStart, folds []*svmDuals) (Model, Info, error) {
	if report == nil {
		report = func(progress.Step) {}
	}
	k, err := KindOf(o.Kind)
	if err != nil {
		return nil, Info{}, err
	}
	d := &data{x: x, vocab: vocab, sup: sup, report: report}
	var m Model
	var info Info
	ws, canWarm := k.(warmStarter)
	switch {
	case warm != nil && canWarm:
		m, info, err = ws.fitWarm(ctx, d, o, warm)
		info.Warm = true
	case warm != nil:
		m, info, err = k.fit(ctx, d, o)
		info.Notes = append(info.Notes, fmt.Sprintf("%s models start no fit from a previous model: this one is a cold fit", k.Name()))
	default:
		m, info, err = k.fit(ctx, d, o)
	}
	if err != nil {
		return nil, Info{}, err
	}
	if o.Readout != "" && o.Readout != ReadoutNative {
		var idx [][]int
		what := "the labeled documents"
		switch {
		case sup.labeled():
			_, idx = sup.labelIndex()
		case seeded(sup.Anchors):
			// Seed words alone: the readout learns from the documents
			// they label, as tsnmf and ssnmf do.
			if idx, err = seedLabelIndex(m, x, vocab, sup.Anchors); err != nil {
				return nil, Info{}, err
			}
			what = "the documents the seed words label (most of whose seed words are one topic's)"
		default:
			return nil, Info{}, fmt.Errorf("model: the %s readout learns from labeled documents or seed words; there are none", o.Readout)
		}
		if err := attachReadout(ctx, m, o.Readout, x, idx, o.Seed, folds); err != nil {
			return nil, Info{}, err
		}
		info.Notes = append(info.Notes, fmt.Sprintf("readout %s: trained on %s; it predicts one label per document", o.Readout, what))
	}
	return m, info, nil
}

// seedLabelIndex returns, per document of x, the index among m's labels of
// the seeded topic that SeedLabels gives it (none when unlabeled).
func seedLabelIndex(m Model, x *sparse.CSR, vocab []string, anchors []Anchor) ([][]int, error) {
	p, ok := AsPredictor(m)
	if !ok {
		return nil, fmt.Errorf("model: a %s model predicts no labels and takes no readout", m.Kind())
	}
	labels, _, err := SeedLabels(x, vocab, anchors)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, l := range p.Labels() {
		index[l] = i
	}
	idx := make([][]int, len(labels))
	n := 0
	for i, l := range labels {
		if len(l) == 0 {
			continue
		}
		if j, ok := index[l[0]]; ok {
			idx[i] = []int{j}
			n++
		}
	}
	if n == 0 {
		return nil, fmt.Errorf("model: the seed words label no document with one of the model's labels, so the readout has nothing to learn from")
	}
	count := make([]int, len(p.Labels()))
	for _, l := range idx {
		for _, j := range l {
			count[j]++
		}
	}
	for j, c := range count {
		if c == 0 {
			return nil, fmt.Errorf("model: the seed words of %q single out no document (most of a document's seed words are never its), so the readout has no example of it", p.Labels()[j])
		}
	}
	return idx, nil
}

// fitText fits o on the corpus c, vectorized with the pipeline p unless
// it is already (see Text).
func fitText(ctx context.Context, c *corpus.Corpus, p *vectorize.Pipeline, o Options) (*Fitted, error) {
	if c.Matrix == nil && p == nil && o.choosesKind() {
		return fitBestKind(ctx, c, o)
	}
	labelsFromCorpus := o.LabelsFromCorpus
	var x *sparse.CSR
	var vocab []string
	var docs []corpus.Document
	var vec *vectorize.Vectorizer
	var dropped []vectorize.Dropped
	if c.Matrix != nil {
		x, vocab, docs = c.Matrix.X, c.Matrix.Vocab, c.Docs
	} else {
		if p == nil {
			pl, err := vectorize.PipelinePreset(DefaultPreset(o.Kind))
			if err != nil {
				return nil, err
			}
			p = &pl
		}
		v, res, err := p.FitTransform(ctx, c.Docs)
		if err != nil {
			return nil, err
		}
		x, vocab, docs, vec, dropped = res.X, res.Vocab, res.Docs, v, res.Dropped
	}
	if labelsFromCorpus {
		if o.Labels != nil {
			return nil, fmt.Errorf("model: labels given twice (from the corpus and explicitly)")
		}
		o.Labels = corpus.DocLabels(docs)
		if !o.labeled() {
			return nil, fmt.Errorf("model: no document of %s carries a label", c.Name)
		}
	}
	var anchorNotes []string
	if vec != nil {
		var err error
		if o.Anchors, anchorNotes, err = AnalyzeAnchors(vec.Analyzer(), o.Anchors); err != nil {
			return nil, err
		}
	}
	f, err := fitVectorized(ctx, x, vocab, o)
	if err != nil {
		return nil, err
	}
	info := &f.Info
	info.Notes = append(anchorNotes, info.Notes...)
	info.Corpus = c.Name
	info.Dropped = len(dropped)
	if labelsFromCorpus && info.Search != nil {
		lost := 0
		for _, d := range dropped {
			if len(c.Docs[d.Index].Labels) > 0 {
				lost++
			}
		}
		if lost > 0 {
			info.Notes = append(info.Notes, fmt.Sprintf("the pipeline's document filters dropped %d labeled documents: the cross-validated accuracies are over the %d labeled documents kept, "+
				"and overstate the accuracy on documents like the dropped ones (which transform and predict still score) when those are harder", lost, info.Search.Labeled))
		}
	}
	f.Vectorizer, f.Dropped = vec, dropped
	return f, nil
}
