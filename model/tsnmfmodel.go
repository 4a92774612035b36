package model

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// KindTSNMF is the name of the tsnmf kind.
const KindTSNMF = "tsnmf"

// tsnmfKind is topic-supervised NMF (MacMillan & Wilson 2017): one topic
// per label, allowed only in the documents of its label.
type tsnmfKind struct{}

func (tsnmfKind) Name() string   { return KindTSNMF }
func (tsnmfKind) Preset() string { return "default" }
func (tsnmfKind) Doc() string {
	return "Topic-supervised NMF (MacMillan & Wilson 2017): one topic per label, which a labeled document may use only when it has the label; topics beyond the labels are free, for the unlabeled documents."
}
func (tsnmfKind) Params() []Param {
	return []Param{
		{Name: "topics", Range: atLeast(1), Default: "one per label and per other seeded topic",
			Doc: "the number of topics: one per label first (and per topic the seed words name), then free topics, which only unlabeled documents may use"},
		seedParam(),
		maxIterParam("iterations of the solver", nmf.DefaultMaxIter),
		tolParam("stops the fit when an iteration decreases the objective by less than this share of it", nmf.DefaultTol),
		nmfLossParam("frobenius"),
		nmfGathersParam(),
		nmfInitParam(append(nmfInits(), "label-mean"), "the start, as nmf's; label-mean starts each label's topic as the mean of its labeled documents"),
		{Name: "weighting", Choices: []string{"inverse", "none"}, Default: "inverse",
			Doc: "how much a labeled document's error weighs: inverse, the number of documents over the labeled ones (the paper's inverse supervision rate); none, as much as an unlabeled one"},
		{Name: "beta", SeedWords: true, Range: strengths(), Default: "1",
			Doc: "multiplies the weight of each seeded topic's pseudo-document of seed words, as in nmf"},
		seedRankParam(),
		readoutParam(),
		autoParam(),
	}
}

func (tsnmfKind) Takes() Takes {
	return Takes{Labels: true, Seeds: true, Exclusions: true,
		How: "labels, seed words or both; seed words alone label the documents most of whose seed words are one topic's, and each seeded topic fits a pseudo-document of its seed words (Guided NMF)"}
}
func (tsnmfKind) fit(ctx context.Context, d *data, o Options) (Model, Info, error) {
	return fitTSNMF(ctx, d.x, d.vocab, d.sup, o, d.report, nil)
}
func (tsnmfKind) fitWarm(ctx context.Context, d *data, o Options, w *WarmStart) (Model, Info, error) {
	return fitTSNMF(ctx, d.x, d.vocab, d.sup, o, d.report, w)
}
func (tsnmfKind) save(m Model) (any, map[string]*mat.Dense, error) { return saveNMF(m) }
func (tsnmfKind) load(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	return loadNMF(KindTSNMF, raw, mats, vocab)
}

// tsnmfWeighting parses Options.Weighting, validated: "" or "inverse", or
// "none".
func tsnmfWeighting(name string) (nmf.Weighting, error) {
	switch name {
	case "", "inverse":
		return nmf.InverseSupervisionRate, nil
	case "none":
		return nmf.NoWeighting, nil
	}
	return 0, fmt.Errorf("model: unknown weighting %q (want inverse or none)", name)
}

// fitTSNMF fits a tsnmf model, started from warm when it is set.
func fitTSNMF(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func, warm *WarmStart) (Model, Info, error) {
	sup, seedNotes, err := labelBySeeds(KindTSNMF, x, vocab, sup)
	if err != nil {
		return nil, Info{}, err
	}
	if !sup.labeled() {
		return nil, Info{}, fmt.Errorf("model: tsnmf needs labeled documents (for example --labels-from-corpus) or seed words")
	}
	names, idx := sup.labelIndex()
	// A seed topic named like a label is that label's topic; the others
	// with a seed word in the vocabulary are further supervised topics
	// after the labels, whose only labeled document is their
	// pseudo-document.
	// A seed topic none of whose seed words is in the vocabulary steers
	// nothing: it is a free topic, named after it (and saying so).
	col := termIndex(vocab)
	var lost []string
	for _, a := range sup.Anchors {
		switch {
		case len(a.Words) == 0 || slices.Contains(names, a.Topic):
		case anyTerm(col, a.Words):
			names = append(names, a.Topic)
		case !slices.Contains(lost, a.Topic):
			lost = append(lost, a.Topic)
		}
	}
	k := o.K
	if k == 0 {
		k = len(names) + len(lost)
	}
	if k < len(names) {
		return nil, Info{}, fmt.Errorf("model: k = %d is smaller than the %d labels", k, len(names))
	}
	if err := checkTopics("k (one topic per label)", k, x.Rows, x.Cols); err != nil {
		return nil, Info{}, err
	}
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, Info{}, err
	}
	gathers, err := nmfGathers(o)
	if err != nil {
		return nil, Info{}, err
	}
	weighting, err := tsnmfWeighting(o.Weighting)
	if err != nil {
		return nil, Info{}, err
	}
	topicNames := tsnmfTopicNames(names, k)
	copy(topicNames[len(names):], lost)
	seeds, notes, err := anchorTerms(KindTSNMF, sup.Anchors, topicNames, vocab)
	if err != nil {
		return nil, Info{}, err
	}
	cfg := nmf.Config{K: k, Loss: loss, Init: init, Gathers: gathers, Seed: o.Seed, Labels: idx, MaxIter: o.MaxIter, Tol: o.Tol,
		Seeds: seeds, SeedWeight: o.Beta, SeedRank: o.SeedRank, Progress: report}
	if warm != nil {
		note, err := warmNMF(ctx, &cfg, x, vocab, sup, topicNames, o, warm)
		if err != nil {
			return nil, Info{}, err
		}
		notes = append(notes, note)
	}
	r, err := nmf.TSNMF(ctx, x, nmf.TSNMFConfig{Config: cfg, LabelNames: names, Weighting: weighting})
	if err != nil {
		return nil, Info{}, seedError(err, topicNames)
	}
	labelNames, _ := sup.labelIndex()
	m := &NMF{kind: KindTSNMF, H: r.H, Loss: loss, TopicNames: unseededNames(topicNames, sup.Anchors, labelNames, vocab), LabelNames: names, Vocab: vocab, weights: topicShares(r.W, r.H), train: r.W}
	if err := m.prepare(); err != nil {
		return nil, Info{}, err
	}
	return m, Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence, Notes: append(append(seedNotes, notes...), r.Notes...)}, nil
}

// tsnmfTopicNames names a TS-NMF model's k topics as nmf.TSNMF does: the
// labels, then topic-t for the unsupervised ones.
func tsnmfTopicNames(labels []string, k int) []string {
	names := append([]string(nil), labels...)
	for t := len(labels); t < k; t++ {
		names = append(names, fmt.Sprintf("topic-%d", t))
	}
	return names
}

func (tsnmfKind) newLimitsOnResume() bool { return true }

func (tsnmfKind) fitShards(ctx context.Context, d *shardData, o Options) (*Fitted, error) {
	src, st, vocab, anchors, report := d.src, d.store, d.vocab, d.anchors, d.report
	if !o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: tsnmf needs labeled documents (--labels-from-corpus)")
	}
	names, err := shardLabelNames(src)
	if err != nil {
		return nil, err
	}
	k := o.K
	if k == 0 {
		k = len(names)
	}
	if k < len(names) {
		return nil, fmt.Errorf("model: k = %d is smaller than the %d labels", k, len(names))
	}
	loss, init, err := nmfOptions(o)
	if err != nil {
		return nil, err
	}
	gathers, err := nmfGathers(o)
	if err != nil {
		return nil, err
	}
	weighting, err := tsnmfWeighting(o.Weighting)
	if err != nil {
		return nil, err
	}
	if seeded(anchors) {
		return nil, errSeedsOutOfCore(KindTSNMF)
	}
	seeds, notes, err := anchorTerms(KindTSNMF, anchors, tsnmfTopicNames(names, k), vocab)
	if err != nil {
		return nil, err
	}
	r, err := nmf.TSNMFBlocks(ctx, src, st, nmf.TSNMFConfig{
		Config:     nmf.Config{K: k, Loss: loss, Init: init, Gathers: gathers, Seed: o.Seed, MaxIter: o.MaxIter, Tol: o.Tol, Seeds: seeds, Progress: report},
		LabelNames: names,
		Weighting:  weighting,
	})
	if err != nil {
		return nil, err
	}
	shares, err := blockShares(src, st, &r.Model)
	if err != nil {
		return nil, err
	}
	m := &NMF{kind: KindTSNMF, H: r.H, Loss: loss, TopicNames: r.TopicNames, LabelNames: names, Vocab: vocab, weights: shares}
	if err := m.prepare(); err != nil {
		return nil, err
	}
	return &Fitted{Model: m, Vocab: vocab, Info: Info{Objective: r.FinalObjective(), Iterations: r.Iterations, Convergence: r.Convergence, Notes: append(r.Notes, notes...)}}, nil
}

// grid tries the paper's inverse supervision-rate weighting, no weighting
// (the unlabeled documents then shape the topics as much as the labeled
// ones), and free topics for what no label covers. A free topic is
// allowed in the unlabeled documents only: with every document labeled
// it could only stay empty, and is not tried.
func (tsnmfKind) grid(o Options, g gridInfo) []Options {
	if g.share >= 1 {
		// Every document labeled: the inverse weighting weighs each by
		// n/n = 1, as none does, and the two final fits are the same
		// model; cross-validating both would only double the fits.
		return []Options{o}
	}
	none := o
	setIf(&none.Weighting, o.Weighting, "none")
	wide := none
	setIntIf(&wide.K, o.K, 2*g.labels)
	return []Options{o, none, wide}
}

func (tsnmfKind) describe(o Options) []string {
	w := o.Weighting
	if w == "" {
		w = "inverse"
	}
	parts := []string{"weighting " + w}
	if o.K > 0 {
		parts = append(parts, fmt.Sprintf("k %d", o.K))
	}
	return parts
}

// fallbackReadout keeps the native readout: TS-NMF's topics are the
// labels.
func (tsnmfKind) fallbackReadout() string { return "" }
