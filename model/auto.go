package model

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// KindAuto, with Options.Auto, asks Fit to choose the kind as well: each
// kind that learns from labels (SupervisedKinds) is configured
// automatically and the one with the best cross-validated accuracy kept.
const KindAuto = "auto"

// choosesKind reports whether o asks for the kind to be chosen (KindAuto).
func (o Options) choosesKind() bool { return o.Kind == KindAuto }

// AutoFolds is the number of folds of the automatic configuration's
// cross-validation.
const AutoFolds = 3

// autoSalt separates the folds' random stream from other uses of a seed.
const autoSalt = 0xa070f01d

// searchable is a kind with an automatic configuration (Options.Auto).
type searchable interface {
	Kind
	// grid returns the settings the search tries for o (the readouts
	// aside), simplest — the kind's defaults — first; a setting given in
	// o is kept in every one.
	grid(o Options, g gridInfo) []Options
	// describe names, in a few words each, the settings of o that the
	// search varies.
	describe(o Options) []string
	// fallbackReadout is the readout fitted when too few documents are
	// labeled to score any: "" (native) when the kind's own rule can be
	// trusted unchecked, else ReadoutTopics.
	fallbackReadout() string
}

// gridInfo is what a search's grid depends on: the number of labels and
// the share of the documents that are labeled.
type gridInfo struct {
	labels int
	share  float64
}

// SupervisedKinds lists the kinds that learn from labels and have an
// automatic configuration, in the order KindAuto tries them.
func SupervisedKinds() []string {
	var out []string
	for _, k := range kinds() {
		if _, ok := k.(searchable); ok {
			out = append(out, k.Name())
		}
	}
	return out
}

// Search reports an automatic configuration (Options.Auto): every
// candidate setting with its cross-validated accuracy, the one chosen, and
// the same estimate for a linear SVM trained on the same labels.
type Search struct {
	// Folds is the number of folds and Labeled the labeled documents
	// they divide. Scored counts the held-out documents scored: every
	// labeled document, in the fold that holds it out (see Unseen).
	Folds   int `json:"folds"`
	Labeled int `json:"labeled"`
	Scored  int `json:"scored"`
	// Candidates are the settings tried, each with its estimate. Chosen
	// indexes the one kept, by the rule of ChooseCandidate: the fewest
	// topics among the candidates within Tolerance points of the best
	// mean accuracy (Best indexes the best; Chosen is Best when no
	// smaller candidate comes that close), and Rule says so in words.
	// With KindAuto the rule chooses within each kind, and the kind whose
	// choice has the best accuracy is kept.
	Candidates []Candidate `json:"candidates"`
	Chosen     int         `json:"chosen"`
	Best       int         `json:"best"`
	Tolerance  float64     `json:"tolerance,omitempty"`
	Rule       string      `json:"rule,omitempty"`
	// SVM is a linear SVM on the documents' terms (unit-length rows,
	// idf-weighted unless the input already was), trained and tested on
	// the same folds: what the labels achieve without the topic model.
	// Like the terms+topics readouts the folds score, it is solved to
	// LIBLINEAR's default tolerance (see cvSVMTol), and its duals
	// warm-start them (svmDuals).
	SVM Estimate `json:"svm"`
	// Estimate is the chosen candidate's accuracy as fit reports it
	// (Predictions.Estimate): each label's recall on the folds carried
	// along its learning curve to all its labeled documents (Curve
	// measures the second point), weighted by the labels' estimated
	// shares of the corpus, less the selection bias of choosing it among
	// every candidate on the same folds (selectionBias: the best
	// candidate of a fold is flattered by the fold's noise), with a 95%
	// interval. SVMEstimate is the linear SVM's, which is not chosen
	// among candidates: the same, with no bias. Uncertainty says in a
	// sentence how uncertain the estimate is when that is by more than 5
	// points. Classes counts the labels. Nothing scored, they are nil.
	Estimate    *EstimateInterval `json:"estimate,omitempty"`
	SVMEstimate *EstimateInterval `json:"svm_estimate,omitempty"`
	Uncertainty string            `json:"uncertainty,omitempty"`
	Classes     int               `json:"classes"`
	// Curve is the second point of the learning curve the estimates
	// extrapolate from; nil when it could not be measured (a fold whose
	// documents hold a single label).
	Curve *LearningCurve `json:"learning_curve,omitempty"`
	// Unseen counts the scored held-out documents none of whose labels
	// any labeled document of their fold's training part has (the only
	// labeled document of its label, say): no method can predict them,
	// and they count as misses in the candidates' accuracies; the
	// estimate gives their labels the labels' recall at one labeled
	// document instead (Predictions.Estimate), as the kept model learns
	// them.
	Unseen int `json:"unseen,omitempty"`
	// Fits counts the model fits, the final one included, and Seconds
	// their time with the cross-validation.
	Fits    int     `json:"fits"`
	Seconds float64 `json:"seconds"`
	// AtLimit counts the cross-validation fits that stopped at their
	// iteration limit before converging (the final fit's own ending is
	// Info.Convergence).
	AtLimit int `json:"at_limit,omitempty"`
	// Note says why no search was made (too few labeled documents): the
	// one candidate, the settings fitted, and SVM are then not scored
	// (Estimate.Scored), and no accuracy may be shown for them.
	Note string `json:"note,omitempty"`
	// Kinds lists, when the kind was chosen too (KindAuto), each kind's
	// chosen candidate, the kept one included; it is empty when nothing
	// could be scored.
	Kinds []Candidate `json:"kinds,omitempty"`
	// Predictions are the folds' predictions the estimates rest on, kept
	// so that an estimator can be studied without fitting again; nil when
	// nothing was scored. Fit's output leaves them out.
	Predictions *Predictions `json:"-"`
}

// MinGain is the least tolerance, in points of cross-validated accuracy,
// of ChooseCandidate's rule: with 3 folds the standard error is itself
// estimated from three numbers and can come out far smaller than the
// spread a new split would show.
const MinGain = 1.0

// ChooseCandidate applies the automatic configuration's rule to the
// scored candidates cands: the one-standard-error rule (Hastie,
// Tibshirani & Friedman, The Elements of Statistical Learning, §7.10),
// with at least MinGain points. It finds the best mean accuracy, then
// keeps, among the candidates whose mean is within the tolerance — the
// larger of the best's standard error (its folds' SD/√folds) and MinGain
// — of it, the one with the fewest topics, and among those the best mean
// (the earliest on ties: candidates come simplest first). A model with
// more topics is kept only when it is clearly better, not for a gain
// within the noise of the folds (a TS-NMF with 180 topics kept for 0.1
// point over 90 left 90 of them empty). It returns the chosen and the
// best index and the tolerance; cands must not be empty.
func ChooseCandidate(cands []Candidate) (chosen, best int, tol float64) {
	for i, c := range cands {
		if c.Accuracy > cands[best].Accuracy {
			best = i
		}
	}
	b := cands[best]
	tol = MinGain
	if n := len(b.Folds); n > 1 {
		tol = max(tol, b.SD/math.Sqrt(float64(n)))
	}
	chosen = best
	for i, c := range cands {
		if c.Accuracy < b.Accuracy-tol {
			continue
		}
		d := cands[chosen]
		if c.Topics < d.Topics || (c.Topics == d.Topics && c.Accuracy > d.Accuracy) || (c.Topics == d.Topics && c.Accuracy == d.Accuracy && i < chosen) {
			chosen = i
		}
	}
	return chosen, best, tol
}

// choose sets s.Chosen, s.Best, s.Tolerance and s.Rule by ChooseCandidate
// over the candidates of kind ("" for all) scored on every fold (those
// the search stopped early could not be chosen).
func (s *Search) choose(kind string) {
	var idx []int
	var cands []Candidate
	for i, c := range s.Candidates {
		if (kind == "" || kind == c.Options.Kind) && c.Stopped == "" {
			idx = append(idx, i)
			cands = append(cands, c)
		}
	}
	chosen, best, tol := ChooseCandidate(cands)
	s.Chosen, s.Best, s.Tolerance = idx[chosen], idx[best], tol
	c, b := s.Candidates[s.Chosen], s.Candidates[s.Best]
	fewest := b.Topics
	for _, x := range cands {
		fewest = min(fewest, x.Topics)
	}
	switch {
	case s.Chosen == s.Best && b.Topics == fewest:
		s.Rule = "the best cross-validated accuracy, with the fewest topics tried"
	case s.Chosen == s.Best:
		s.Rule = fmt.Sprintf("the best cross-validated accuracy; no candidate with fewer topics comes within %.1f points of it (the larger of one standard error and %g point)", tol, MinGain)
	default:
		s.Rule = fmt.Sprintf("the one-standard-error rule: the fewest topics (%d against %d) within %.1f points (the larger of one standard error and %g point) of the best, %s at %.1f%%; a model with more topics is kept only when it is clearly better",
			c.Topics, b.Topics, tol, MinGain, b.Settings(), b.Accuracy)
	}
}

// BestSearch returns the index of the search whose chosen candidate has
// the highest cross-validated accuracy (the first on ties; searches
// without candidates, or whose chosen one was not scored, never win), or
// −1 when none has one: how KindAuto chooses the kind.
func BestSearch(searches []*Search) int {
	best := -1
	for i, s := range searches {
		if s == nil || len(s.Candidates) == 0 || !s.ChosenCandidate().Scored() {
			continue
		}
		if best < 0 || s.ChosenCandidate().Accuracy > searches[best].ChosenCandidate().Accuracy {
			best = i
		}
	}
	return best
}

// DefaultPreset names the text pipeline (vectorize.PipelinePreset) a kind
// is fitted with unless told otherwise (Kind.Preset): the papers' settings
// for SSNMF, theme-supervised NMF and CorEx, counts for LDA, and the
// default tf-idf pipeline for the rest and for KindAuto.
func DefaultPreset(kind string) string {
	k, err := KindOf(kind)
	if err != nil {
		return "default"
	}
	return k.Preset()
}

// fitBestKind fits each kind that learns from labels (SupervisedKinds) on
// the text corpus c with its own default pipeline (Kind.Preset) and the
// automatic configuration, and returns the one whose chosen setting has
// the best cross-validated accuracy (BestSearch); its Info.Search.Kinds
// lists every kind's best candidate. Each kind takes the options of o
// that it takes (kindOptions). This is KindAuto on a Text source without
// a pipeline; with one, or on a matrix, fitMatrix's autoFit tries the
// kinds on one matrix.
func fitBestKind(ctx context.Context, c *corpus.Corpus, o Options) (*Fitted, error) {
	var fits []*Fitted
	var searches []*Search
	for _, kind := range SupervisedKinds() {
		k, _ := KindOf(kind)
		pl, err := vectorize.PipelinePreset(k.Preset())
		if err != nil {
			return nil, err
		}
		ko := kindOptions(o, k)
		f, err := fitText(ctx, c, &pl, ko)
		if err != nil {
			return nil, fmt.Errorf("model: %s: %w", kind, err)
		}
		if s := f.Info.Search; len(fits) == 0 && s != nil && s.Note != "" {
			// Nothing can be held out (the labels are the same for
			// every kind): no kind can be scored against another, and
			// fitting them all would only cost time. The first is kept.
			s.Note += fmt.Sprintf("; the kind is not chosen by accuracy either: %s, the first kind tried, is fitted", kind)
			f.Info.Params = o.recorded()
			f.Info.Params.Kind = KindAuto
			return f, nil
		}
		fits = append(fits, f)
		searches = append(searches, f.Info.Search)
	}
	best := BestSearch(searches)
	if best < 0 {
		return nil, fmt.Errorf("model: no kind could be configured automatically: no kind's search could score its candidates")
	}
	f := fits[best]
	s := *f.Info.Search
	s.Kinds = nil
	for _, x := range searches {
		if x != nil && len(x.Candidates) > 0 && x.ChosenCandidate().Scored() {
			s.Kinds = append(s.Kinds, x.ChosenCandidate())
		}
	}
	f.Info.Search = &s
	f.Info.Params = o.recorded()
	f.Info.Params.Kind = KindAuto
	return f, nil
}

// Candidate is one setting of a search with its estimate.
type Candidate struct {
	// Options are the settings tried (Auto off).
	Options Options `json:"options"`
	// Topics is the number of topics of its fold models (the largest;
	// 0 when not scored): the size ChooseCandidate prefers small.
	Topics int `json:"topics,omitempty"`
	// Stopped, when set, says why the search stopped scoring the
	// candidate before its last fold (it was too far behind the best of
	// its kind to be chosen; see racer): its Estimate covers the folds
	// scored only, and it is neither chosen nor counted in the selection
	// bias.
	Stopped string `json:"stopped,omitempty"`
	Estimate
	// pred holds, for each fold, the candidate's first predicted label
	// for each of the fold's held-out documents (foldAccuracies); nil
	// where it was not scored.
	pred [][]int
	// duals are, for a terms+topics readout scored on every fold, its
	// SVM's duals on each (foldAccuracies): the start of the kept model's
	// readout, closer to it than the terms-only SVM's.
	duals []*svmDuals
}

// MarshalJSON writes the options and topics beside the estimate's fields
// (see Estimate.MarshalJSON).
func (c Candidate) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(struct {
		Options Options `json:"options"`
		Topics  int     `json:"topics,omitempty"`
		Stopped string  `json:"stopped,omitempty"`
	}{c.Options, c.Topics, c.Stopped})
	if err != nil {
		return nil, err
	}
	est, err := c.Estimate.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(append(head[:len(head)-1], ','), est[1:]...), nil
}

// Estimate is a cross-validated accuracy in percent: over the folds, the
// mean and sample standard deviation, and each fold's value (the share of
// its labeled documents whose predicted label is one of theirs). An
// estimate without folds was not measured (Scored): its Accuracy and SD
// are no scores and must not be shown as such.
type Estimate struct {
	Accuracy float64   `json:"accuracy"`
	SD       float64   `json:"sd"`
	Folds    []float64 `json:"folds"`
}

// Scored reports whether the estimate was measured: whether it has folds.
func (e Estimate) Scored() bool { return len(e.Folds) > 0 }

// MarshalJSON writes a measured estimate's accuracy, SD and folds, and
// an estimate that was not measured as {"scored": false}, with no
// accuracy that could be read as a score.
func (e Estimate) MarshalJSON() ([]byte, error) {
	if !e.Scored() {
		return []byte(`{"scored":false}`), nil
	}
	type plain Estimate
	return json.Marshal(plain(e))
}

func newEstimate(folds []float64) Estimate {
	e := Estimate{Folds: folds}
	for _, v := range folds {
		e.Accuracy += v
	}
	e.Accuracy /= float64(len(folds))
	if len(folds) > 1 {
		for _, v := range folds {
			e.SD += (v - e.Accuracy) * (v - e.Accuracy)
		}
		e.SD = math.Sqrt(e.SD / float64(len(folds)-1))
	}
	return e
}

// Chosen returns the candidate kept.
func (s *Search) ChosenCandidate() Candidate { return s.Candidates[s.Chosen] }

// Settings describes a candidate's settings in a few words.
func (c Candidate) Settings() string { return describeSettings(c.Options) }

// describeSettings names the settings the search varies.
func describeSettings(o Options) string {
	var parts []string
	if k, err := KindOf(o.Kind); err == nil {
		if sk, ok := k.(searchable); ok {
			parts = sk.describe(o)
		}
	}
	r := o.Readout
	if r == "" {
		r = ReadoutNative
	}
	parts = append(parts, "readout "+r)
	return o.Kind + ": " + strings.Join(parts, ", ")
}

// StratifiedFolds assigns each item a fold in 0..k-1 so that every class
// is spread evenly over the folds: the items of a class (class[i] ≥ 0) are
// shuffled with seed and dealt out in turn, the turn carrying on from one
// class to the next, so that fold sizes differ by at most one. Items with
// class −1 get fold −1.
func StratifiedFolds(class []int, k int, seed uint64) ([]int, error) {
	if k < 2 {
		return nil, fmt.Errorf("model: %d folds, want at least 2", k)
	}
	byClass := map[int][]int{}
	var classes []int
	n := 0
	for i, c := range class {
		if c < 0 {
			continue
		}
		if _, ok := byClass[c]; !ok {
			classes = append(classes, c)
		}
		byClass[c] = append(byClass[c], i)
		n++
	}
	if n < k {
		return nil, fmt.Errorf("model: %d labeled documents for %d folds", n, k)
	}
	sort.Ints(classes)
	r := rng.New(seed, 0, autoSalt)
	fold := make([]int, len(class))
	for i := range fold {
		fold[i] = -1
	}
	next := 0
	for _, c := range classes {
		items := byClass[c]
		r.Shuffle(items)
		for _, i := range items {
			fold[i] = next
			next = (next + 1) % k
		}
	}
	return fold, nil
}

// autoGrid returns the settings the automatic configuration tries for a
// kind with numLabels labels, simplest (the kind's defaults) first. A
// setting given explicitly in o is kept in every candidate.
func autoGrid(o Options, numLabels, maxTopics int, share float64) []Options {
	base := o
	base.Auto = false
	var grid []Options
	add := func(c Options) {
		c.K = min(c.K, maxTopics)
		for _, g := range grid {
			if reflect.DeepEqual(g, c) { // o holds no supervision here (Fit's o.recorded())
				return
			}
		}
		grid = append(grid, c)
	}
	cands := []Options{base}
	if k, err := KindOf(o.Kind); err == nil {
		if sk, ok := k.(searchable); ok {
			cands = sk.grid(base, gridInfo{labels: numLabels, share: share})
		}
	}
	for _, c := range cands {
		add(c)
	}
	return grid
}

func setIf(dst *string, given, v string) {
	if given == "" {
		*dst = v
	}
}

func setIntIf(dst *int, given, v int) {
	if given == 0 {
		*dst = v
	}
}

func setFloatIf(dst *float64, given, v float64) {
	if given == 0 {
		*dst = v
	}
}

// autoFit chooses the settings of o.Kind (every supervised kind for
// KindAuto) by cross-validation, then fits the chosen ones on all the
// labels.
func autoFit(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func) (Model, Info, error) {
	t0 := time.Now()
	names, idx := sup.labelIndex()
	s := &Search{Folds: AutoFolds, Classes: len(names)}
	first := make([]int, len(idx))
	for i, ls := range idx {
		first[i] = -1
		if len(ls) > 0 {
			first[i] = ls[0]
			s.Labeled++
		}
	}
	kinds := []string{o.Kind}
	if o.choosesKind() {
		kinds = SupervisedKinds()
	}
	// The terms-only SVM's duals on each fold, which warm-start the
	// terms+topics readouts (svmDuals).
	var duals []*svmDuals
	// final fits c, the terms+topics readout starting from the chosen
	// candidate's own duals when it kept them (Candidate.duals), else
	// from the terms-only SVM's.
	final := func(c Options) (Model, Info, error) {
		start := duals
		for i := range s.Candidates {
			if i == s.Chosen && len(s.Candidates[i].duals) > 0 {
				start = s.Candidates[i].duals
			}
			s.Candidates[i].duals = nil // not kept with the model
		}
		m, info, err := fitOne(ctx, x, vocab, sup, c, report, nil, start)
		if err != nil {
			return nil, Info{}, err
		}
		if err := s.setShares(ctx, m, x); err != nil {
			return nil, Info{}, err
		}
		if s.AtLimit > 0 {
			info.Notes = append(info.Notes, fmt.Sprintf("%d of the %d cross-validation fits stopped at their iteration limit before converging; a larger max_iter or tol may change their accuracies", s.AtLimit, s.Fits))
		}
		s.Fits++
		s.Seconds = time.Since(t0).Seconds()
		info.Search = s
		return m, info, nil
	}
	var cv []cvFold
	if assign, err := StratifiedFolds(first, AutoFolds, o.Seed); err == nil && s.Labeled >= 2*AutoFolds && len(names) >= 2 {
		cv = makeFolds(idx, assign, AutoFolds)
	}
	for _, f := range cv {
		s.Scored += len(f.test)
		s.Unseen += f.unseen
	}
	if len(cv) == 0 {
		// Too few labeled documents to hold some out: the defaults.
		c := o
		c.Auto = false
		if o.choosesKind() {
			c.Kind = kinds[0]
		}
		note := "the kind's defaults are used"
		if k, err := KindOf(c.Kind); err == nil && c.Readout == "" {
			// Nothing can check the native readout, which can fail
			// whole (with one labeled document per label, the theme
			// scores and CorEx's topics sent every document of two
			// corpora to one or two labels); the topics readout is
			// trained on the labels themselves, unless the kind's own
			// rule can be trusted (TS-NMF's topics are the labels).
			if sk, ok := k.(searchable); ok && sk.fallbackReadout() != "" {
				c.Readout = sk.fallbackReadout()
				note = "the kind's defaults are used, read out through its topics"
			}
		}
		s.Candidates = []Candidate{{Options: c}}
		if o.choosesKind() {
			note += fmt.Sprintf("; the kind is not chosen by accuracy either: %s, the first kind, is fitted", c.Kind)
		}
		s.Note = fmt.Sprintf("%d labeled documents of %d labels: too few to hold any out (a label needs two labeled documents), so nothing is scored; %s", s.Labeled, len(names), note)
		return final(c)
	}
	// The linear SVM's estimate on the same folds.
	idf := termWeights(x)
	terms := termFeatures(x, idf)
	svm, svmPred, duals, err := svmFolds(ctx, terms, idx, cv, o.Seed, nil)
	if err != nil {
		return nil, Info{}, err
	}
	s.SVM = svm
	s.Predictions = newPredictions(names, idx, cv, svmPred)
	readouts := Readouts()
	if o.Readout != "" {
		readouts = []string{o.Readout}
	}
	var settings []Options
	for _, kind := range kinds {
		ko := o
		ko.Kind = kind
		if o.choosesKind() {
			k, _ := KindOf(kind)
			ko = kindOptions(o, k)
		}
		settings = append(settings, autoGrid(ko, len(names), min(x.Rows, x.Cols), float64(s.Labeled)/float64(x.Rows))...)
	}
	r := &racer{x: x, vocab: vocab, sup: sup, idx: idx, cv: cv, readouts: readouts, idf: idf, duals: duals, keep: true, report: report}
	if err := r.race(ctx, s, settings); err != nil {
		return nil, Info{}, err
	}
	if !o.choosesKind() {
		s.choose("")
		if err := s.measureCurve(ctx, r, terms, o.Seed); err != nil {
			return nil, Info{}, err
		}
		return final(s.Candidates[s.Chosen].Options)
	}
	// Each kind's choice, by the rule; the kind whose choice is best is
	// kept, with the rule's account of its choice.
	var choices []Search
	for _, kind := range kinds {
		c := *s
		c.choose(kind)
		choices = append(choices, c)
		s.Kinds = append(s.Kinds, c.ChosenCandidate())
	}
	best := 0
	for k, c := range choices {
		if c.ChosenCandidate().Accuracy > choices[best].ChosenCandidate().Accuracy {
			best = k
		}
	}
	s.Chosen, s.Best, s.Tolerance, s.Rule = choices[best].Chosen, choices[best].Best, choices[best].Tolerance, choices[best].Rule
	if err := s.measureCurve(ctx, r, terms, o.Seed); err != nil {
		return nil, Info{}, err
	}
	return final(s.Candidates[s.Chosen].Options)
}

// cvFold is one fold of the cross-validation: the labeled documents that
// keep their labels, and the held-out ones (left out of the fold's fit
// and scored), unseen of which have no label any training document has.
type cvFold struct {
	train, test []int
	unseen      int
}

// makeFolds turns a fold assignment into folds, leaving out a fold none
// of whose held-out documents has a label its training part has (it
// could tell no candidate from another).
func makeFolds(idx [][]int, assign []int, k int) []cvFold {
	var out []cvFold
	for f := 0; f < k; f++ {
		var fold cvFold
		known := false
		seen := map[int]bool{}
		for i, ls := range idx {
			if len(ls) > 0 && assign[i] != f {
				fold.train = append(fold.train, i)
				for _, l := range ls {
					seen[l] = true
				}
			}
		}
		for i, ls := range idx {
			if len(ls) == 0 || assign[i] != f {
				continue
			}
			fold.test = append(fold.test, i)
			if slices.ContainsFunc(ls, func(l int) bool { return seen[l] }) {
				known = true
			} else {
				fold.unseen++
			}
		}
		if known {
			out = append(out, fold)
		}
	}
	return out
}

// foldAccuracies fits c on every document but the fold's held-out ones
// (so that the fit sees the same unlabeled documents as the final one,
// and the held-out documents are new to it, as the documents a model is
// used on) and returns, for each readout, the accuracy on the fold's
// scored documents, each readout's first predicted label for each of them
// (an index into the labels, -1 for none: what the estimate rests on, see
// FoldPredictions), the fold model's number of topics, and how its fit
// ended. The terms+topics readout's SVM starts from the duals of the
// terms-only SVM on the same documents (svmDuals); with keepDuals, its own
// duals are returned too (nil when it is not among readouts), from which
// the kept model's readout starts should c be chosen.
func foldAccuracies(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, idx [][]int, fold cvFold, c Options, readouts []string, idf []float64, duals []*svmDuals, keepDuals bool, report progress.Func) ([]float64, [][]int, int, progress.Status, *svmDuals, error) {
	names, _ := sup.labelIndex()
	held := make([]bool, x.Rows)
	for _, i := range fold.test {
		held[i] = true
	}
	var keep []int
	fit := Supervision{Anchors: sup.Anchors}
	for i := 0; i < x.Rows; i++ {
		if !held[i] {
			keep = append(keep, i)
			fit.Labels = append(fit.Labels, sup.Labels[i])
		}
	}
	train, test := fold.train, fold.test
	nc := c
	nc.Readout = ""
	m, info, err := fitOne(ctx, x.SelectRows(keep), vocab, fit, nc, report, nil, nil)
	if err != nil {
		return nil, nil, 0, 0, nil, err
	}
	p, ok := m.(Predictor)
	if !ok {
		return nil, nil, 0, 0, nil, fmt.Errorf("a %s model predicts no labels", m.Kind())
	}
	xt := x.SelectRows(test)
	native, err := p.Predict(ctx, xt)
	if err != nil {
		return nil, nil, 0, 0, nil, err
	}
	out, preds := make([]float64, len(readouts)), make([][]int, len(readouts))
	// The training documents' topic weights, which every readout but the
	// native one learns from: computed once, for the first that needs
	// them.
	var xl *sparse.CSR
	var wl *mat.Dense
	var kept *svmDuals
	for r, ro := range readouts {
		var labels [][]string
		switch ro {
		case ReadoutNative:
			labels = native.Labels
		default:
			// The fold model knows the labels present among its labeled
			// documents; the readout learns them from the same documents.
			modelNames := p.Labels()
			pos := map[string]int{}
			for j, n := range modelNames {
				pos[n] = j
			}
			if xl == nil {
				xl = x.SelectRows(train)
				if wl, err = m.Transform(ctx, xl); err != nil {
					return nil, nil, 0, 0, nil, err
				}
			}
			tl := make([][]int, len(train))
			for j, i := range train {
				for _, l := range idx[i] {
					if q, ok := pos[names[l]]; ok {
						tl[j] = append(tl[j], q)
					}
				}
			}
			how := &readoutSVM{tol: cvSVMTol}
			var global []int
			if ro == ReadoutTermsTopics {
				global = make([]int, len(modelNames))
				for j, n := range modelNames {
					global[j] = slices.Index(names, n)
				}
				how.warm = warmFrom(duals, train, func(l int) int { return global[l] })
				how.keep = keepDuals
			}
			rd, err := trainReadout(ctx, ro, xl, wl, tl, len(modelNames), idf, c.Seed, how)
			if err != nil {
				return nil, nil, 0, 0, nil, err
			}
			if how.keep {
				doc, label := make([]int, len(how.doc)), make([]int, len(how.label))
				for r, i := range how.doc {
					doc[r], label[r] = train[i], global[how.label[r]]
				}
				kept = newSVMDuals(train, doc, label, global, how.alpha)
			}
			pr, err := rd.apply(xt, native, modelNames)
			if err != nil {
				return nil, nil, 0, 0, nil, err
			}
			labels = pr.Labels
		}
		out[r] = 100 * hitRate(labels, test, sup.Labels)
		preds[r] = firstLabels(labels, names)
	}
	return out, preds, m.NumTopics(), info.Convergence.Status, kept, nil
}

// hitRate is the share of the documents rows whose first predicted label
// is one of their labels (no prediction counts as a miss).
func hitRate(pred [][]string, rows []int, labels [][]string) float64 {
	hits := 0
	for j, i := range rows {
		if len(pred[j]) > 0 && containsString(labels[i], pred[j][0]) {
			hits++
		}
	}
	return float64(hits) / float64(len(rows))
}

func containsString(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// svmFolds is the linear SVM's estimate on the folds cv (svmFoldAccuracy
// on each), with its predictions and its duals in each fold (no duals for
// a fold with fewer than two labels). Each fold's SVM starts from the
// duals start (warmFrom), those of other folds of the same labeled
// documents (the learning curve's turned folds start from the search's),
// or from zero when start is nil. The search's own folds start from zero:
// a start from the folds before, which hold half of a fold's rows, costs
// the solver more than none (BenchmarkReutersSVMFolds: the three folds of
// Reuters' training set take about 1.15 times as long chained).
func svmFolds(ctx context.Context, terms *sparse.CSR, idx [][]int, cv []cvFold, seed uint64, start []*svmDuals) (Estimate, [][]int, []*svmDuals, error) {
	var accs []float64
	var preds [][]int
	var duals []*svmDuals
	for f, fold := range cv {
		acc, pred, d, err := svmFoldAccuracy(ctx, terms, idx, fold, seed, start)
		if err != nil {
			return Estimate{}, nil, nil, fmt.Errorf("model: automatic configuration, the linear SVM, fold %d: %w", f+1, err)
		}
		accs, preds = append(accs, acc), append(preds, pred)
		if d != nil {
			duals = append(duals, d)
		}
	}
	return newEstimate(accs), preds, duals, nil
}

// svmFoldAccuracy trains a linear SVM on the term features of the fold's
// training documents and returns its accuracy on its test documents and
// its label for each of them (-1 for none), and its duals (nil when the
// training documents hold a single label). The SVM starts from the duals
// of start (warmFrom; zero without).
func svmFoldAccuracy(ctx context.Context, terms *sparse.CSR, idx [][]int, fold cvFold, seed uint64, start []*svmDuals) (float64, []int, *svmDuals, error) {
	// rows[r] is the document of training row r, at[r] its place in
	// fold.train.
	var rows, at, y []int
	test := fold.test
	for p, i := range fold.train {
		for _, l := range idx[i] {
			rows = append(rows, i)
			at = append(at, p)
			y = append(y, l)
		}
	}
	// Classes absent from the training folds cannot be predicted; the SVM
	// learns those present.
	remap := map[int]int{}
	var back []int
	for j, l := range y {
		q, ok := remap[l]
		if !ok {
			q = len(back)
			remap[l] = q
			back = append(back, l)
		}
		y[j] = q
	}
	if len(back) < 2 {
		none := make([]int, len(test))
		for j := range none {
			none[j] = -1
		}
		return 0, none, nil, nil
	}
	svm := &classify.LinearSVC{Seed: seed, Tol: cvSVMTol, KeepDuals: true}
	if warm := warmFrom(start, fold.train, func(l int) int { return back[l] }); warm != nil {
		svm.Start = warm.duals(at, y, len(back))
	}
	if err := svm.Fit(ctx, terms.SelectRows(rows), y); err != nil {
		return 0, nil, nil, err
	}
	pred, err := svm.Predict(terms.SelectRows(test))
	if err != nil {
		return 0, nil, nil, err
	}
	label := make([]int, len(y))
	for r, q := range y {
		label[r] = back[q]
	}
	d := newSVMDuals(fold.train, rows, label, back, svm.Duals())
	hits := 0
	for j, i := range test {
		pred[j] = back[pred[j]]
		if containsInt(idx[i], pred[j]) {
			hits++
		}
	}
	return 100 * float64(hits) / float64(len(test)), pred, d, nil
}

func containsInt(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}
