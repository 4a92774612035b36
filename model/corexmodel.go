package model

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// KindCorEx is the name of the corex kind.
const KindCorEx = "corex"

// SuggestedAnchors is the number of anchor words per label a CorEx model
// supervised by labels takes (paper §4.3: the words of highest mutual
// information with the label, words that rank high for several labels
// left out).
const SuggestedAnchors = 5

// CorEx is a fitted Anchored CorEx model. Its topics are binary latent
// factors: Transform gives p(y_j = 1 | x) per document and topic, and a
// document may belong to several topics or none.
type CorEx struct {
	m          *corex.Model
	TopicNames []string
	// LabelNames is set when the anchors were suggested from document
	// labels (then the user's anchors of a label's name join its topic,
	// and topics the user names that are no label follow the labels
	// without being predicted), or given by name with seed words: topic
	// j < len(LabelNames) stands for label j, and the model predicts
	// labels.
	LabelNames []string
	Vocab      []string
	readoutHolder
	// train is p(y|x) of the training documents as a fit holding its
	// labeled documents left them (Options.HoldLabels), until Fit moves
	// it to Fitted.DocTopics; nil otherwise.
	train *mat.Dense
}

// takeTraining implements fitWeights.
func (c *CorEx) takeTraining() *mat.Dense {
	w := c.train
	c.train = nil
	return w
}

// predictWeights implements fitWeights: the documents x whose p(y|x) is
// w. A document whose row of w is the model's reading of its words (Infer)
// is scored as Predict scores it, by the unclipped log p(y = 1 | x); one
// whose row differs (a training document the fit held to its labels) by
// the logarithm of its row of w.
func (c *CorEx) predictWeights(x *sparse.CSR, w *mat.Dense) (*Prediction, error) {
	if len(c.LabelNames) == 0 {
		return nil, fmt.Errorf("model: this corex model has no labeled or seeded topics and predicts none")
	}
	dt, err := c.m.Infer(context.Background(), x)
	if err != nil {
		return nil, err
	}
	if r, k := w.Dims(); r != x.Rows || k != c.m.K {
		return nil, fmt.Errorf("model: corex: %d×%d weights for %d documents and %d topics", r, k, x.Rows, c.m.K)
	}
	l := len(c.LabelNames)
	scores := mat.DenseCopyOf(dt.LogP.Slice(0, x.Rows, 0, l))
	for i := 0; i < x.Rows; i++ {
		wr, pr := w.RawRowView(i), dt.P.RawRowView(i)
		if slices.Equal(wr, pr) {
			continue
		}
		sr := scores.RawRowView(i)
		for j := range sr {
			sr[j] = math.Log(wr[j])
		}
	}
	return c.ro.apply(x, newPrediction(x, w, scores, argmaxLabels(scores, c.LabelNames)), c.LabelNames)
}

// Kind implements Model.
func (c *CorEx) Kind() string { return KindCorEx }

// scoreKind says what Predict's native scores are.
func (c *CorEx) scoreKind() ScoreKind {
	return ScoreKind{"log-prob", "the log probability log p(topic = 1 | document) of the label's topic (≤ 0); the highest is predicted"}
}

// CorEx returns the underlying corex.Model.
func (c *CorEx) CorEx() *corex.Model { return c.m }

// NumTopics implements Model.
func (c *CorEx) NumTopics() int { return c.m.K }

// Topics implements Model: words weighted by their mutual information with
// the topic (nats) with its sign, and ranked as corextopic's get_topics
// ranks them by default (weighted_rank=True): by MI, an anchor word's MI
// multiplied by its anchor strength, so that a topic shows the words it
// was anchored with unless they tell little about it. Score is the
// topic's total correlation (nats); Weight is p(y_j = 1) divided by its
// sum over the topics.
func (c *CorEx) Topics(n int) ([]Topic, error) {
	if n <= 0 || n > c.m.Terms {
		n = c.m.Terms
	}
	sumPY := 0.0
	for _, p := range c.m.PY {
		sumPY += p
	}
	out := make([]Topic, c.m.K)
	for j := range out {
		out[j] = Topic{Name: c.TopicNames[j], Score: c.m.TCs[j]}
		if j < len(c.LabelNames) {
			out[j].Label = c.LabelNames[j]
		}
		if sumPY > 0 {
			out[j].Weight = c.m.PY[j] / sumPY
		}
		ws, err := c.m.TopWords(j, n, corex.ByWeightedMI)
		if err != nil {
			return nil, fmt.Errorf("model: corex topic %d: %w", j, err)
		}
		for _, w := range ws {
			if !(w.MINats > 0) {
				break
			}
			out[j].Words = append(out[j].Words, Word{Word: c.Vocab[w.Index], Weight: w.MINats, Sign: w.Sign})
		}
	}
	return markEmpty(out, sumPY > 0), nil
}

// Transform implements Model: p(y_j = 1 | x), clipped to [1e-6, 1 − 1e-6]
// as in the reference implementation.
func (c *CorEx) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return c.m.Transform(ctx, x)
}

// Labels implements Predictor: the labels the anchors were suggested
// from, or the names of the topics seeded by hand (none for unanchored
// models).
func (c *CorEx) Labels() []string { return c.LabelNames }

// Predict implements Predictor for label-anchored models: a label's score
// is log p(y = 1 | x) of its topic; the prediction is the label of the
// highest score.
func (c *CorEx) Predict(ctx context.Context, x *sparse.CSR) (*Prediction, error) {
	if len(c.LabelNames) == 0 {
		return nil, fmt.Errorf("model: this corex model has no labeled or seeded topics and predicts none")
	}
	dt, err := c.m.Infer(ctx, x)
	if err != nil {
		return nil, err
	}
	r, _ := dt.LogP.Dims()
	scores := mat.DenseCopyOf(dt.LogP.Slice(0, r, 0, len(c.LabelNames)))
	return c.ro.apply(x, newPrediction(x, dt.P, scores, argmaxLabels(scores, c.LabelNames)), c.LabelNames)
}

// fitCorEx fits a corex model, started from warm when it is set.
func fitCorEx(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func, warm *WarmStart) (Model, Info, error) {
	var info Info
	var names, labelNames []string
	var idx [][]int // the labels of each document, when labeled
	anchors := sup.Anchors
	switch {
	case sup.labeled():
		labelNames, idx = sup.labelIndex()
		sugg, err := corex.SuggestAnchors(x, idx, len(labelNames), SuggestedAnchors, true)
		if err != nil {
			return nil, Info{}, fmt.Errorf("model: suggesting anchors from the labels: %w", err)
		}
		var notes []string
		names, anchors, notes, err = mergeCorexAnchors(labelNames, suggestedWords(sugg, vocab), sup.Anchors)
		if err != nil {
			return nil, Info{}, err
		}
		info.Notes = append(info.Notes, notes...)
	default:
		var err error
		var seeded int
		if names, seeded, err = anchorNames(sup.Anchors, vocab); err != nil {
			return nil, Info{}, err
		}
		// The seeded topics stand for their names: the model predicts them.
		labelNames = append([]string(nil), names[:seeded]...)
	}
	names, k, err := corexTopics(names, o.K, x.Cols)
	if err != nil {
		return nil, Info{}, err
	}
	seeds, notes, err := anchorTerms(KindCorEx, anchors, names, vocab)
	if err != nil {
		return nil, Info{}, err
	}
	info.Notes = append(info.Notes, notes...)
	cfg := corex.Config{
		K: k, MaxIter: o.MaxIter, Tol: o.Tol, Seed: o.Seed, Restarts: o.Restarts, Vocab: vocab,
		Seeds: seeds, KeepOrder: keepOrder(anchors, seeds), Beta: o.Beta,
		Progress: report,
	}
	if warm != nil {
		note, err := warmCorEx(ctx, &cfg, x, vocab, sup, names, o, warm)
		if err != nil {
			return nil, Info{}, err
		}
		info.Notes = append(info.Notes, note)
	}
	if o.HoldLabels && sup.labeled() {
		cfg.Hold = corexHold(x, idx, len(labelNames))
		info.Notes = append(info.Notes, fmt.Sprintf("labels held: the %d labeled documents holding a term are held in their labels' topics and out of the other labels' at every iteration", len(cfg.Hold)))
	}
	m, err := corex.Fit(ctx, x, cfg)
	if err != nil {
		return nil, Info{}, err
	}
	c, info := corexModel(m, unseededNames(names, anchors, nil, vocab), labelNames, anchors, vocab, info)
	if len(cfg.Hold) > 0 && m.Train != nil {
		c.train = m.Train.P
	}
	return c, info, nil
}

// corexHold holds each labeled document of x that holds a term in the
// topics of its labels (idx: label indices, which are the topics') and
// out of the other labels' topics, numLabels in all.
func corexHold(x *sparse.CSR, idx [][]int, numLabels int) []corex.Held {
	var hs []corex.Held
	for i, ls := range idx {
		if len(ls) == 0 || x.Indptr[i+1] == x.Indptr[i] {
			continue
		}
		h := corex.Held{Doc: i, In: ls}
		for l := 0; l < numLabels; l++ {
			if !slices.Contains(ls, l) {
				h.Out = append(h.Out, l)
			}
		}
		hs = append(hs, h)
	}
	return hs
}

// The iterations of a warm-started corex fit, when Options.MaxIter leaves
// them to the kind: its rule compares the mean total correlation of the
// last 5 iterations with the 5 before, so a fit runs at least 11, where
// a cold fit of 20 Newsgroups (20 topics) runs its 200 without meeting
// it; the anchors of a topic whose seed words changed restart it (see
// warmCorEx), which 15 iterations settle.
const corexWarmMaxIter = 15

// warmCorEx sets the start of the corex fit cfg of the documents x
// (columns vocab), whose topics are named names, from warm: a topic from
// the previous model's topics starts from their p(y|x) (merged topics:
// the probability that any of them holds) and their α (the mean), unless
// one of its seed words is not among their top words, and the other
// topics as a cold fit starts them (anchored topics from their anchors); and its bounds
// (warmLimits, corexWarmMaxIter), one restart.
// It returns the note saying so.
func warmCorEx(ctx context.Context, cfg *corex.Config, x *sparse.CSR, vocab []string, sup Supervision, names []string, o Options, warm *WarmStart) (string, error) {
	prev, ok := warm.From.Model.(*CorEx)
	if !ok {
		return "", fmt.Errorf("model: warm start: a %s model is no CorEx model", warm.From.Model.Kind())
	}
	src, err := warm.topicSources(names, sup)
	if err != nil {
		return "", err
	}
	// A topic whose seed words are not all among the top words of the
	// topics it comes from starts from its anchors, as in a cold fit:
	// from its previous state the anchors' α alone cannot move it.
	cols := warm.termMap(vocab)
	mi, _ := topicRows(prev.m.MI(), src, cols)
	seedsOf := make([][]int, len(src))
	for _, sd := range cfg.Seeds.Seeds {
		seedsOf[sd.Topic] = append(seedsOf[sd.Topic], sd.Term)
	}
	for t := range src {
		if len(seedsOf[t]) > 0 && !allTop(mi.RawRowView(t), seedsOf[t], seedTop) {
			src[t] = nil
		}
	}
	dt, err := warm.docTopics(ctx, x, vocab)
	if err != nil {
		return "", err
	}
	n := x.Rows
	p0 := mat.NewDense(n, len(src), nil)
	for i := 0; i < n; i++ {
		prow, row := dt.RawRowView(i), p0.RawRowView(i)
		for t, from := range src {
			if len(from) == 0 {
				continue
			}
			none := 1.0
			for _, q := range from {
				none *= 1 - min(max(prow[q], 0), 1)
			}
			row[t] = min(max(1-none, 1e-6), 1-1e-6)
		}
	}
	alpha, _ := topicRows(prev.m.Alpha(), src, cols)
	cfg.P0, cfg.Alpha0, cfg.Restarts = p0, alpha, 1
	cfg.MaxIter, _ = warmLimits(o, corexWarmMaxIter, 0)
	return warmNote(KindCorEx, src, fmt.Sprintf("at most %d iterations", cfg.MaxIter)), nil
}

// keepOrder reports whether a CorEx fit must keep its topics in place
// although seeds holds no term: the anchors name its topics, but none of
// their words is in the vocabulary.
func keepOrder(anchors []Anchor, seeds supervision.Terms) bool {
	for _, a := range anchors {
		if len(a.Words)+len(a.Exclude) > 0 {
			return seeds.Empty()
		}
	}
	return false
}

// suggestedWords returns SuggestAnchors' words of each label.
func suggestedWords(sugg [][]corex.LabelWord, vocab []string) [][]string {
	out := make([][]string, len(sugg))
	for l, ws := range sugg {
		for _, w := range ws {
			out[l] = append(out[l], vocab[w.Index])
		}
	}
	return out
}

// mergeCorexAnchors anchors one topic per label (labelNames, in order)
// with the words suggested from the labels (suggested[l], strength 0:
// Options.Beta) and the user's anchors (user) of the same name: the user's
// seed words come first with their strengths, then the suggested words
// the user neither gave nor excluded, and the user's exclusions apply to
// the topic. Topics the user names that are no label come after the
// labels, in anchorNames' order (seeded ones first). It returns the topic
// names, the merged anchors by topic (one per topic with words, in the
// topics' order) and a note per label.
func mergeCorexAnchors(labelNames []string, suggested [][]string, user []Anchor) (names []string, merged []Anchor, notes []string, err error) {
	var unames []string
	if len(user) > 0 {
		if unames, _, err = anchorNames(user, nil); err != nil {
			return nil, nil, nil, err
		}
	}
	topicOf := make(map[string]int, len(labelNames)+len(unames))
	for l, name := range labelNames {
		topicOf[name] = l
	}
	names = append([]string(nil), labelNames...)
	for _, name := range unames {
		if _, ok := topicOf[name]; !ok {
			topicOf[name] = len(names)
			names = append(names, name)
		}
	}
	byTopic := make([]Anchor, len(names))
	for t := range byTopic {
		byTopic[t].Topic = names[t]
	}
	excluded := make([]map[string]bool, len(names))
	for _, a := range user {
		t := topicOf[a.Topic]
		if excluded[t] == nil {
			excluded[t] = map[string]bool{}
		}
		for _, w := range a.Exclude {
			excluded[t][w] = true
		}
		byTopic[t].Exclude = append(byTopic[t].Exclude, a.Exclude...)
		byTopic[t].Words = append(byTopic[t].Words, a.Words...)
		for i := range a.Words {
			b := 0.0
			if i < len(a.Beta) {
				b = a.Beta[i]
			}
			byTopic[t].Beta = append(byTopic[t].Beta, b)
		}
	}
	for l, ws := range suggested {
		given := map[string]bool{}
		for _, w := range byTopic[l].Words {
			given[w] = true
		}
		var added []string
		for _, w := range ws {
			if !given[w] && !excluded[l][w] {
				byTopic[l].Words = append(byTopic[l].Words, w)
				byTopic[l].Beta = append(byTopic[l].Beta, 0)
				added = append(added, w)
			}
		}
		switch {
		case len(byTopic[l].Words) == 0:
			notes = append(notes, fmt.Sprintf("label %q: no word is associated with it alone; its topic is not anchored", labelNames[l]))
		case len(added) == len(byTopic[l].Words):
			notes = append(notes, fmt.Sprintf("label %q anchored by %s", labelNames[l], strings.Join(added, ", ")))
		case len(added) == 0:
			notes = append(notes, fmt.Sprintf("label %q anchored by %s (yours)", labelNames[l], strings.Join(byTopic[l].Words, ", ")))
		default:
			yours := byTopic[l].Words[:len(byTopic[l].Words)-len(added)]
			notes = append(notes, fmt.Sprintf("label %q anchored by %s (yours) and %s (suggested)", labelNames[l], strings.Join(yours, ", "), strings.Join(added, ", ")))
		}
	}
	for _, a := range byTopic {
		if len(a.Words)+len(a.Exclude) > 0 {
			merged = append(merged, a)
		}
	}
	return names, merged, notes, nil
}

// unseededSuffix ends the name of a seeded topic none of whose seed words
// is in the vocabulary.
const unseededSuffix = " (no seed word in the vocabulary)"

// corexTopics resolves the number of topics (k, or one per named topic
// when 0) and names the unnamed ones.
func corexTopics(names []string, k, terms int) ([]string, int, error) {
	if k == 0 {
		k = len(names)
	}
	if k == 0 {
		return nil, 0, fmt.Errorf("model: corex needs the number of topics k (or anchors or labels to count them)")
	}
	if k < len(names) {
		return nil, 0, fmt.Errorf("model: k = %d is smaller than the %d anchored topics", k, len(names))
	}
	if k > terms {
		return nil, 0, fmt.Errorf("model: k = %d topics for %d terms; corex needs k ≤ terms", k, terms)
	}
	for t := len(names); t < k; t++ {
		names = append(names, fmt.Sprintf("topic-%d", t+1))
	}
	return names, k, nil
}

// corexModel wraps a fitted CorEx model with its names and notes.
func corexModel(m *corex.Model, names, labelNames []string, anchors []Anchor, vocab []string, info Info) (*CorEx, Info) {
	if len(anchors) == 0 {
		// Unanchored models come back ordered by TC; their names follow.
		for t := range names {
			names[t] = fmt.Sprintf("topic-%d", t+1)
		}
	}
	info.Objective, info.Iterations, info.Convergence = m.TC, m.Iterations, m.Convergence
	info.Notes = append(info.Notes, m.Warnings...)
	info.Notes = append(info.Notes, fmt.Sprintf("total correlation %.4f nats (restart seed %d)", m.TC, m.Seed))
	return &CorEx{m: m, TopicNames: names, LabelNames: labelNames, Vocab: vocab}, info
}

// corexParams is the JSON part of a saved CorEx model.
type corexParams struct {
	State      *corex.State `json:"state"`
	TopicNames []string     `json:"topic_names"`
	LabelNames []string     `json:"label_names,omitempty"`
}

func saveCorEx(m Model) (any, map[string]*mat.Dense, error) {
	c := m.(*CorEx)
	s := c.m.State()
	return corexParams{State: s, TopicNames: c.TopicNames, LabelNames: c.LabelNames},
		map[string]*mat.Dense{"alpha": s.Alpha, "mi": s.MI, "mi_nats": s.MINats, "sign": s.Sign, "info": s.Info}, nil
}

func loadCorEx(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	var p corexParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	if p.State == nil {
		return nil, fmt.Errorf("no corex state")
	}
	s := p.State
	s.Alpha, s.MI, s.MINats, s.Sign, s.Info = mats["alpha"], mats["mi"], mats["mi_nats"], mats["sign"], mats["info"]
	m, err := corex.FromState(s, vocab)
	if err != nil {
		return nil, err
	}
	if len(p.TopicNames) != m.K || len(p.LabelNames) > m.K {
		return nil, fmt.Errorf("%d topic names and %d labels for %d topics", len(p.TopicNames), len(p.LabelNames), m.K)
	}
	return &CorEx{m: m, TopicNames: p.TopicNames, LabelNames: p.LabelNames, Vocab: vocab}, nil
}

// corexKind is Anchored CorEx (Gallagher et al. 2017).
type corexKind struct{}

func (corexKind) Name() string   { return KindCorEx }
func (corexKind) Preset() string { return "corex" }
func (corexKind) Doc() string {
	return "Anchored CorEx (Gallagher et al. 2017): binary latent topics that maximise the total correlation they explain, steered by anchor words; a document may belong to several topics or none."
}
func (corexKind) Params() []Param {
	return []Param{
		{Name: "topics", Range: atLeast(1), Default: "one per anchored or labeled topic",
			Doc: "the number of topics (at most the terms): the anchored ones first, then topic-N"},
		seedParam(),
		maxIterParam("iterations of each restart", 200),
		tolParam("stops a restart when the mean total correlation of its last 5 iterations differs from that of the 5 before by less than this (nats)", 1e-5),
		{Name: "beta", Range: strengths(), Default: strconv.Itoa(corex.DefaultBeta),
			Doc: "the anchor strength β of the seed words without their own (word:3) and of the anchors labels suggest"},
		{Name: "restarts", Range: atLeast(1), Default: "1",
			Doc: "the number of fits from seeds seed, seed+1, …; the one of highest total correlation is kept"},
		holdLabelsParam("its p(topic = 1 | document) is held at 1 in its labels' topics and 0 in the other labels' at every iteration, so the topics learn from it as labeled"),
		readoutParam(),
		autoParam(),
	}
}

func (corexKind) Takes() Takes {
	return Takes{Labels: true, Seeds: true, Exclusions: true,
		How: "seed words (anchors, of strength β: --beta), labels (which suggest the anchors: the words of highest mutual information with each label) or both; an anchored topic starts from the documents holding its anchors"}
}
func (corexKind) fit(ctx context.Context, d *data, o Options) (Model, Info, error) {
	return fitCorEx(ctx, d.x, d.vocab, d.sup, o, d.report, nil)
}
func (corexKind) fitWarm(ctx context.Context, d *data, o Options, w *WarmStart) (Model, Info, error) {
	return fitCorEx(ctx, d.x, d.vocab, d.sup, o, d.report, w)
}
func (corexKind) save(m Model) (any, map[string]*mat.Dense, error) { return saveCorEx(m) }
func (corexKind) load(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	return loadCorEx(raw, mats, vocab)
}

func (corexKind) newLimitsOnResume() bool { return false }

func (corexKind) fitShards(ctx context.Context, d *shardData, o Options) (*Fitted, error) {
	src, st, vocab, sup, report := d.src, d.store, d.vocab, d.anchors, d.report
	if o.LabelsFromCorpus {
		return nil, fmt.Errorf("model: out of core, corex takes anchor words; the anchors that labels suggest are found in memory")
	}
	names, seeded, err := anchorNames(sup, vocab)
	if err != nil {
		return nil, err
	}
	labelNames := append([]string(nil), names[:seeded]...)
	names, k, err := corexTopics(names, o.K, len(vocab))
	if err != nil {
		return nil, err
	}
	seeds, notes, err := anchorTerms(KindCorEx, sup, names, vocab)
	if err != nil {
		return nil, err
	}
	m, err := corex.FitBlocks(ctx, src, st, corex.Config{
		K: k, MaxIter: o.MaxIter, Tol: o.Tol, Seed: o.Seed, Restarts: o.Restarts, Vocab: vocab,
		Seeds: seeds, KeepOrder: keepOrder(sup, seeds), Beta: o.Beta, Progress: report,
	})
	if err != nil {
		return nil, err
	}
	c, info := corexModel(m, unseededNames(names, sup, nil, vocab), labelNames, sup, vocab, Info{Notes: notes})
	return &Fitted{Model: c, Vocab: vocab, Info: info}, nil
}

// grid tries anchors of strength 1, 3 (the default) and 10: stronger
// anchors keep anchored topics on their words. (An unset β is the
// default 3: the grid names 1 itself, or it would try 3 twice.)
func (corexKind) grid(o Options, g gridInfo) []Options {
	one, three, ten := o, o, o
	setFloatIf(&one.Beta, o.Beta, 1)
	setFloatIf(&three.Beta, o.Beta, 3)
	setFloatIf(&ten.Beta, o.Beta, 10)
	return []Options{one, three, ten}
}

func (corexKind) describe(o Options) []string {
	var parts []string
	if o.K > 0 {
		parts = append(parts, fmt.Sprintf("k %d", o.K))
	}
	b := o.Beta
	if b == 0 {
		b = corex.DefaultBeta
	}
	return append(parts, fmt.Sprintf("β %g", b))
}

func (corexKind) fallbackReadout() string { return ReadoutTopics }
