package labelefficiency

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

// leSalt separates the label-efficiency experiment's random streams.
const leSalt = 0x1abe1e44

// leData is one corpus of the label-efficiency benchmark: single-label
// documents with a training and a test part.
type leData struct {
	name    string
	classes []string
	docs    []corpus.Document // every document, Labels holding its one class
	class   []int             // class index per document
	train   []int             // training documents
	test    []int             // test documents that are evaluated
	notes   []string
	// maxIter bounds every model fit's iterations (0: the kinds'
	// defaults); the quick protocol sets leQuickIter.
	maxIter int

	cache map[string]*leVectorized // by preset
	graph *sparse.CSR              // the tf-idf neighbour graph of label spreading
}

// leQuickEvery is the quick protocol's sampling: it keeps every
// leQuickEvery-th single-label document of each class. The quick protocol
// checks the pipeline end to end, not the figures: a sample of each
// corpus and fewer iterations keep its fits short (the package's tests
// run it), while every method still runs and, at 2% of BBC's labels,
// every class keeps two labeled documents, enough for the automatic
// configuration's cross-validation.
const leQuickEvery = 4

// leQuickIter bounds the iterations of every model fit in the quick
// protocol.
const leQuickIter = 20

// leQuickNote says in the quick reports, and in their protocols, what the
// quick protocol changes.
const leQuickNote = "quick: every 4th document of each class, at most 20 iterations per fit"

// loadLE reads one of the benchmark's corpora; in the quick protocol
// (env.Quick), a sample of it (leQuickEvery).
func loadLE(ctx context.Context, env *lab.Env, name string) (*leData, error) {
	var c *corpus.Corpus
	var err error
	d := &leData{name: name}
	if env.Quick {
		d.maxIter = leQuickIter
	}
	switch name {
	case "20ng":
		p, perr := env.DataPath("20news-bydate/20news-bydate.tar.gz")
		if perr != nil {
			return nil, perr
		}
		c, err = corpus.Newsgroups{RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}.Read(ctx, p)
	case "bbc":
		p, perr := env.DataPath("bbc/bbc-fulltext.tar.gz")
		if perr != nil {
			return nil, perr
		}
		c, err = corpus.BBC{}.Read(ctx, p)
	case "brown":
		p, perr := env.DataPath("brown/brown.zip")
		if perr != nil {
			return nil, perr
		}
		c, err = corpus.Brown{}.Read(ctx, p)
	case "reuters":
		p, perr := env.DataPath("reuters21578-nltk-apte/reuters.tar.gz")
		if perr != nil {
			return nil, perr
		}
		if c, err = (corpus.ReutersNLTK{}).Read(ctx, p); err == nil {
			c = datasets.ReutersTopCategories(c, 10)
			d.notes = append(d.notes, "documents with exactly one category among the 10 most frequent training categories")
		}
	case "reuters-all":
		p, perr := env.DataPath("reuters21578-nltk-apte/reuters.tar.gz")
		if perr != nil {
			return nil, perr
		}
		if c, err = (corpus.ReutersNLTK{}).Read(ctx, p); err == nil {
			c = datasets.ReutersTopCategories(c, math.MaxInt)
			d.notes = append(d.notes, "documents with exactly one category, in every category")
		}
	default:
		return nil, fmt.Errorf("unknown corpus %q", name)
	}
	if err != nil {
		return nil, err
	}
	if env.Quick {
		d.notes = append(d.notes, leQuickNote)
	}
	names, _ := c.Labels()
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	d.classes = names
	split := false
	perClass := map[string]int{} // single-label documents seen per class
	for _, doc := range c.Docs {
		if len(doc.Labels) != 1 {
			continue
		}
		if env.Quick {
			// Every leQuickEvery-th document of each class, in corpus
			// order.
			perClass[doc.Labels[0]]++
			if (perClass[doc.Labels[0]]-1)%leQuickEvery != 0 {
				continue
			}
		}
		split = split || doc.Split != corpus.SplitNone
		d.docs = append(d.docs, doc)
		d.class = append(d.class, index[doc.Labels[0]])
	}
	if !split {
		// No standard split: a stratified 80/20 one, the same for every run.
		d.notes = append(d.notes, "no standard split: a stratified 80/20 split (seed 0)")
		r := rng.New(0, 0, leSalt)
		byClass := make([][]int, len(names))
		for i, c := range d.class {
			byClass[c] = append(byClass[c], i)
		}
		for _, idx := range byClass {
			r.Shuffle(idx)
			nTest := int(math.Round(0.2 * float64(len(idx))))
			for j, i := range idx {
				if j < nTest {
					d.docs[i].Split = corpus.SplitTest
				} else {
					d.docs[i].Split = corpus.SplitTrain
				}
			}
		}
	}
	// Test documents without a single word under the default pipeline
	// cannot be classified by anyone; they are left out for every method.
	a, err := text.NewAnalyzer(vectorize.DefaultPipeline().Text)
	if err != nil {
		return nil, err
	}
	empty := 0
	for i, doc := range d.docs {
		switch doc.Split {
		case corpus.SplitTrain:
			d.train = append(d.train, i)
		case corpus.SplitTest:
			if len(a.Terms(doc.Text)) == 0 {
				empty++
				continue
			}
			d.test = append(d.test, i)
		}
	}
	if empty > 0 {
		d.notes = append(d.notes, fmt.Sprintf("%d test documents without a word left out", empty))
	}
	return d, nil
}

// sample returns the labeled training documents for a fraction: per class,
// max(1, round(frac·n_c)) of its training documents drawn with seed.
func (d *leData) sample(frac float64, seed uint64) []int {
	r := rng.New(seed, 1, leSalt)
	byClass := make([][]int, len(d.classes))
	for _, i := range d.train {
		byClass[d.class[i]] = append(byClass[d.class[i]], i)
	}
	var out []int
	for _, idx := range byClass {
		if len(idx) == 0 {
			continue
		}
		idx = append([]int(nil), idx...)
		r.Shuffle(idx)
		n := max(1, int(math.Round(frac*float64(len(idx)))))
		out = append(out, idx[:min(n, len(idx))]...)
	}
	sort.Ints(out)
	return out
}

// leScore is one method's result on one run.
type leScore struct {
	Accuracy, MacroF1 float64
	Seconds           float64
}

// score evaluates predicted class indices (-1: none) on the test documents.
func (d *leData) score(pred []int) (leScore, error) {
	truth := make([]int, len(d.test))
	for j, i := range d.test {
		truth[j] = d.class[i]
	}
	r, err := metrics.Classification(truth, pred, len(d.classes))
	if err != nil {
		return leScore{}, err
	}
	return leScore{Accuracy: 100 * r.Accuracy, MacroF1: 100 * r.Macro.F1}, nil
}

// majority is the accuracy of always predicting the commonest test class.
func (d *leData) majority() float64 {
	counts := make([]int, len(d.classes))
	for _, i := range d.test {
		counts[d.class[i]]++
	}
	best := 0
	for _, c := range counts {
		best = max(best, c)
	}
	return 100 * float64(best) / float64(len(d.test))
}

// leFractions are the labeled fractions of the training documents: the
// issue's seven and 3%, where its goals are stated.
var leFractions = []float64{0.01, 0.02, 0.03, 0.05, 0.1, 0.2, 0.5, 1}

// leKinds are the supervised kinds benchmarked.
var leKinds = []string{model.KindTSNMF, model.KindSSNMF, model.KindTheme, model.KindCorEx}

// leKindName is a kind's name in the tables.
var leKindName = map[string]string{model.KindNMF: "NMF", model.KindLDA: "LDA", model.KindTSNMF: "TS-NMF", model.KindSSNMF: "SSNMF", model.KindTheme: "theme", model.KindCorEx: "CorEx"}

// The methods of the benchmark, in table order.
const (
	leNB     = "naive Bayes"
	leSVM    = "linear SVM"
	leLR     = "logistic regression"
	leSpread = "label spreading"
	leNMF    = "NMF → labels"
	leLDA    = "LDA → labels"
	leBest   = "best kind (auto)"
)

func leDefaultName(kind string) string { return leKindName[kind] + " (defaults)" }
func leAutoName(kind string) string    { return leKindName[kind] + " (auto)" }

// leResult is one method's outcome on one run.
type leResult struct {
	Accuracy float64 `json:"accuracy"`
	MacroF1  float64 `json:"macro_f1"`
	Seconds  float64 `json:"seconds"`
	// Labeled is the number of labeled documents the method saw.
	Labeled int `json:"labeled"`
	// CV is the cross-validated accuracy the automatic configuration
	// printed for its choice, Chosen the choice, and SVM the linear SVM's
	// estimate on the same folds (auto methods only).
	CV     *float64 `json:"cv,omitempty"`
	SVMCV  *float64 `json:"svm_cv,omitempty"`
	Chosen string   `json:"chosen,omitempty"`
	// Est and SVMEst are the estimates fit prints for the choice and the
	// SVM (model.Search.Estimate: CV less the selection bias, with a 95%
	// interval).
	Est    *model.EstimateInterval `json:"estimate,omitempty"`
	SVMEst *model.EstimateInterval `json:"svm_estimate,omitempty"`
	// pred is the class predicted for each test document (-1 for none).
	pred []int
}

// leRun is one dataset, fraction and seed.
type leRun struct {
	Dataset  string               `json:"dataset"`
	Fraction float64              `json:"fraction"`
	Seed     int                  `json:"seed"`
	Labeled  int                  `json:"labeled"`
	Methods  map[string]*leResult `json:"methods"`
	// Seconds is the run's wall time, every method included.
	Seconds float64 `json:"seconds"`
}

// leKey identifies a run.
func leKey(dataset string, frac float64, seed int) string {
	return fmt.Sprintf("%s/%g/%d", dataset, frac, seed)
}

// leVectorized is the documents of a dataset through one pipeline.
type leVectorized struct {
	vec   *vectorize.Vectorizer
	x     *sparse.CSR // the kept documents
	vocab []string
	kept  []int       // document index of each row of x
	test  *sparse.CSR // the test documents, transformed
}

// leThemeFiltered names, for vectorized, the theme preset with the thesis'
// document filter: documents with fewer than leThesisMinTokens tokens
// dropped, as the preset did before it kept every document.
const leThemeFiltered = "theme, min-tokens 27"

// leThesisMinTokens is the thesis' document filter (its notebooks keep the
// cleaned texts with more than 25 spaces).
const leThesisMinTokens = 27

// vectorized returns the dataset through the named preset, cached.
func (d *leData) vectorized(ctx context.Context, preset string) (*leVectorized, error) {
	if v, ok := d.cache[preset]; ok {
		return v, nil
	}
	var pl vectorize.Pipeline
	switch preset {
	case "counts":
		// The default pipeline's terms, counted: naive Bayes's input.
		pl = vectorize.DefaultPipeline()
		pl.Vectorize = vectorize.Options{}
	case leThemeFiltered:
		var err error
		if pl, err = vectorize.PipelinePreset("theme"); err != nil {
			return nil, err
		}
		pl.Vectorize.MinTokens = leThesisMinTokens
	default:
		var err error
		if pl, err = vectorize.PipelinePreset(preset); err != nil {
			return nil, err
		}
	}
	vec, res, err := pl.FitTransform(ctx, d.docs)
	if err != nil {
		return nil, err
	}
	tr, err := vec.Transform(ctx, d.testDocs())
	if err != nil {
		return nil, err
	}
	v := &leVectorized{vec: vec, x: res.X, vocab: res.Vocab, kept: res.Kept, test: tr.X}
	if d.cache == nil {
		d.cache = map[string]*leVectorized{}
	}
	d.cache[preset] = v
	return v, nil
}

func (d *leData) testDocs() []corpus.Document {
	out := make([]corpus.Document, len(d.test))
	for j, i := range d.test {
		out[j] = d.docs[i]
	}
	return out
}

// supervision returns the labels of the kept documents: their class for
// the labeled ones, nil for the others.
func (d *leData) supervision(v *leVectorized, labeled []int) (model.Supervision, int) {
	isLab := make([]bool, len(d.docs))
	for _, i := range labeled {
		isLab[i] = true
	}
	sup := model.Supervision{Labels: make([][]string, len(v.kept))}
	n := 0
	for r, i := range v.kept {
		if isLab[i] {
			sup.Labels[r] = []string{d.classes[d.class[i]]}
			n++
		}
	}
	return sup, n
}

// classesOf maps predicted label names to class indices (-1 for none).
func (d *leData) classesOf(labels [][]string) []int {
	index := map[string]int{}
	for i, c := range d.classes {
		index[c] = i
	}
	out := make([]int, len(labels))
	for j, ls := range labels {
		out[j] = -1
		if len(ls) > 0 {
			if c, ok := index[ls[0]]; ok {
				out[j] = c
			}
		}
	}
	return out
}

// fit fits a model as model.Fit does, with the iterations bounded by
// d.maxIter unless o sets them.
func (d *leData) fit(ctx context.Context, x *sparse.CSR, vocab []string, o model.Options) (*model.Fitted, error) {
	if o.MaxIter == 0 {
		o.MaxIter = d.maxIter
	}
	return model.Fit(ctx, model.Matrix(x, vocab), o)
}

// fitKind fits kind on the dataset through its default preset with the
// given labeled documents and predicts the test documents.
func (d *leData) fitKind(ctx context.Context, kind string, labeled []int, seed uint64, auto bool) (*leResult, *model.Search, error) {
	v, err := d.vectorized(ctx, model.DefaultPreset(kind))
	if err != nil {
		return nil, nil, err
	}
	sup, n := d.supervision(v, labeled)
	t0 := time.Now()
	f, err := d.fit(ctx, v.x, v.vocab, model.Options{Kind: kind, Seed: seed, Auto: auto, Supervision: sup})
	if err != nil {
		return nil, nil, err
	}
	m, info := f.Model, f.Info
	pr, err := m.(model.Predictor).Predict(ctx, v.test)
	if err != nil {
		return nil, nil, err
	}
	sc, err := d.score(d.classesOf(pr.Labels))
	if err != nil {
		return nil, nil, err
	}
	r := &leResult{Accuracy: sc.Accuracy, MacroF1: sc.MacroF1, Seconds: time.Since(t0).Seconds(), Labeled: n, pred: d.classesOf(pr.Labels)}
	if s := info.Search; s != nil && len(s.Candidates) > 0 {
		c := s.ChosenCandidate()
		r.Chosen = c.Settings()
		if s.Note != "" {
			r.Chosen += " (" + s.Note + ")"
		} else {
			cv, svm := c.Accuracy, s.SVM.Accuracy
			r.CV, r.SVMCV, r.Est, r.SVMEst = &cv, &svm, s.Estimate, s.SVMEstimate
		}
	}
	return r, info.Search, nil
}

// baseline trains a classifier on the labeled documents' rows of x and
// scores its predictions for the test documents.
func (d *leData) baseline(ctx context.Context, c classify.Classifier, x *sparse.CSR, labeled []int) (*leResult, error) {
	return d.trainTest(ctx, c, x, labeled, d.class)
}

// trainTest trains c on the rows labeled of x (one per document), each
// with its class in class, and scores its predictions for the test
// documents.
func (d *leData) trainTest(ctx context.Context, c classify.Classifier, x *sparse.CSR, labeled, class []int) (*leResult, error) {
	t0 := time.Now()
	y := make([]int, len(labeled))
	for j, i := range labeled {
		y[j] = class[i]
	}
	p, err := TrainPredict(ctx, c, x.SelectRows(labeled), y, x.SelectRows(d.test))
	if err != nil {
		return nil, err
	}
	sc, err := d.score(p)
	if err != nil {
		return nil, err
	}
	return &leResult{Accuracy: sc.Accuracy, MacroF1: sc.MacroF1, Seconds: time.Since(t0).Seconds(), Labeled: len(labeled), pred: p}, nil
}

// TrainPredict trains the classifier c on the rows of train, row j of
// class y[j], and returns its class for each row of test: the baselines'
// one train-and-predict step, which the benchmarks share. The classes may
// be any non-negative numbers, some of them absent (a few labels seldom
// cover every class): c learns those present, numbered in order of first
// appearance, and its predictions are given back in y's numbers.
func TrainPredict(ctx context.Context, c classify.Classifier, train *sparse.CSR, y []int, test *sparse.CSR) ([]int, error) {
	local := make([]int, len(y))
	remap := map[int]int{}
	var back []int
	for j, class := range y {
		q, ok := remap[class]
		if !ok {
			q = len(back)
			remap[class] = q
			back = append(back, class)
		}
		local[j] = q
	}
	if err := c.Fit(ctx, train, local); err != nil {
		return nil, err
	}
	p, err := c.Predict(test)
	if err != nil {
		return nil, err
	}
	for j := range p {
		p[j] = back[p[j]]
	}
	return p, nil
}

// mapped fits an unsupervised kind with one topic per class on every
// document, maps each topic to the commonest class of the labeled
// documents whose strongest topic it is (topics no labeled document
// prefers to the commonest labeled class), and predicts each test
// document's strongest topic's class.
func (d *leData) mapped(ctx context.Context, kind string, labeled []int, seed uint64) (*leResult, error) {
	v, err := d.vectorized(ctx, model.DefaultPreset(kind))
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	o := model.Options{Kind: kind, K: len(d.classes), Seed: seed}
	if kind == model.KindLDA {
		o.MaxIter = 20
	}
	f, err := d.fit(ctx, v.x, v.vocab, o)
	if err != nil {
		return nil, err
	}
	m := f.Model
	rowOf := map[int]int{}
	for r, i := range v.kept {
		rowOf[i] = r
	}
	var rows []int
	for _, i := range labeled {
		if r, ok := rowOf[i]; ok {
			rows = append(rows, r)
		}
	}
	wl, err := m.Transform(ctx, v.x.SelectRows(rows))
	if err != nil {
		return nil, err
	}
	k := len(d.classes)
	votes := make([][]int, k)
	for t := range votes {
		votes[t] = make([]int, len(d.classes))
	}
	overall := make([]int, len(d.classes))
	j := 0
	for _, i := range labeled {
		if _, ok := rowOf[i]; !ok {
			continue
		}
		t := metrics.Argmax(wl.RawRowView(j))
		votes[t][d.class[i]]++
		overall[d.class[i]]++
		j++
	}
	common := metrics.Argmax(overall)
	topicClass := make([]int, k)
	for t := range topicClass {
		topicClass[t] = common
		if c := metrics.Argmax(votes[t]); votes[t][c] > 0 {
			topicClass[t] = c
		}
	}
	wt, err := m.Transform(ctx, v.test)
	if err != nil {
		return nil, err
	}
	pred := make([]int, len(d.test))
	for j := range pred {
		row := wt.RawRowView(j)
		pred[j] = -1
		if v.test.Indptr[j+1] > v.test.Indptr[j] {
			pred[j] = topicClass[metrics.Argmax(row)]
		}
	}
	sc, err := d.score(pred)
	if err != nil {
		return nil, err
	}
	return &leResult{Accuracy: sc.Accuracy, MacroF1: sc.MacroF1, Seconds: time.Since(t0).Seconds(), Labeled: len(labeled)}, nil
}

// spreading runs label spreading on the tf-idf nearest-neighbour graph of
// every document and scores the labels it gives the test documents.
func (d *leData) spreading(ctx context.Context, labeled []int) (*leResult, error) {
	t0 := time.Now()
	if d.graph == nil {
		v, err := d.vectorized(ctx, "default")
		if err != nil {
			return nil, err
		}
		if len(v.kept) != len(d.docs) {
			return nil, fmt.Errorf("the default pipeline dropped documents")
		}
		if d.graph, err = classify.KNNGraph(ctx, v.x, 7); err != nil {
			return nil, err
		}
	}
	y := make([]int, len(d.docs))
	for i := range y {
		y[i] = -1
	}
	for _, i := range labeled {
		y[i] = d.class[i]
	}
	ls := &classify.LabelSpreading{}
	if err := ls.FitGraph(ctx, d.graph, y); err != nil {
		return nil, err
	}
	tr := ls.Transduction()
	pred := make([]int, len(d.test))
	for j, i := range d.test {
		pred[j] = tr[i]
	}
	sc, err := d.score(pred)
	if err != nil {
		return nil, err
	}
	return &leResult{Accuracy: sc.Accuracy, MacroF1: sc.MacroF1, Seconds: time.Since(t0).Seconds(), Labeled: len(labeled)}, nil
}

// runOne runs every method on one fraction and seed.
func (d *leData) runOne(ctx context.Context, env *lab.Env, frac float64, seed int, kinds []string) (*leRun, error) {
	labeled := d.sample(frac, uint64(seed))
	run := &leRun{Dataset: d.name, Fraction: frac, Seed: seed, Labeled: len(labeled), Methods: map[string]*leResult{}}
	def, err := d.vectorized(ctx, "default")
	if err != nil {
		return nil, err
	}
	cnt, err := d.vectorized(ctx, "counts")
	if err != nil {
		return nil, err
	}
	add := func(name string, r *leResult, err error) error {
		if err != nil {
			return fmt.Errorf("%s %g%% seed %d, %s: %w", d.name, 100*frac, seed, name, err)
		}
		run.Methods[name] = r
		return nil
	}
	r, err := d.baseline(ctx, &classify.MultinomialNB{}, cnt.x, labeled)
	if err := add(leNB, r, err); err != nil {
		return nil, err
	}
	r, err = d.baseline(ctx, &classify.LinearSVC{Seed: uint64(seed)}, def.x, labeled)
	if err := add(leSVM, r, err); err != nil {
		return nil, err
	}
	r, err = d.baseline(ctx, &classify.LogisticRegression{}, def.x, labeled)
	if err := add(leLR, r, err); err != nil {
		return nil, err
	}
	r, err = d.spreading(ctx, labeled)
	if err := add(leSpread, r, err); err != nil {
		return nil, err
	}
	r, err = d.mapped(ctx, model.KindNMF, labeled, uint64(seed))
	if err := add(leNMF, r, err); err != nil {
		return nil, err
	}
	r, err = d.mapped(ctx, model.KindLDA, labeled, uint64(seed))
	if err := add(leLDA, r, err); err != nil {
		return nil, err
	}
	var searches []*model.Search
	var autos []*leResult
	for _, k := range kinds {
		r, _, err := d.fitKind(ctx, k, labeled, uint64(seed), false)
		if err := add(leDefaultName(k), r, err); err != nil {
			return nil, err
		}
		ra, s, err := d.fitKind(ctx, k, labeled, uint64(seed), true)
		if err := add(leAutoName(k), ra, err); err != nil {
			return nil, err
		}
		searches = append(searches, s)
		autos = append(autos, ra)
		cv := math.NaN()
		if ra.CV != nil {
			cv = *ra.CV
		}
		env.Logf("  %s %g%% seed %d: %s defaults %.1f, auto %.1f (%s, cv %.1f)", d.name, 100*frac, seed, k, r.Accuracy, ra.Accuracy, ra.Chosen, cv)
	}
	if b := model.BestSearch(searches); b >= 0 {
		best := *autos[b]
		best.Chosen = leKindName[kinds[b]] + " — " + best.Chosen
		run.Methods[leBest] = &best
	}
	return run, nil
}

// redo recomputes the kinds env.Redo names in a stored run — their
// defaults and automatic configurations — and the best kind, chosen as
// model.BestSearch chooses from the cross-validated accuracies of every
// kind's chosen setting (a run without them, where no label had two
// labeled documents, keeps the first kind).
func (d *leData) redo(ctx context.Context, env *lab.Env, run *leRun, kinds []string) error {
	labeled := d.sample(run.Fraction, uint64(run.Seed))
	for _, k := range env.Redo {
		r, _, err := d.fitKind(ctx, k, labeled, uint64(run.Seed), false)
		if err != nil {
			return fmt.Errorf("%s %g%% seed %d, %s: %w", d.name, 100*run.Fraction, run.Seed, leDefaultName(k), err)
		}
		ra, _, err := d.fitKind(ctx, k, labeled, uint64(run.Seed), true)
		if err != nil {
			return fmt.Errorf("%s %g%% seed %d, %s: %w", d.name, 100*run.Fraction, run.Seed, leAutoName(k), err)
		}
		// The run's computing time follows its methods'.
		for _, m := range []*leResult{run.Methods[leDefaultName(k)], run.Methods[leAutoName(k)]} {
			if m != nil {
				run.Seconds -= m.Seconds
			}
		}
		run.Seconds += r.Seconds + ra.Seconds
		run.Methods[leDefaultName(k)], run.Methods[leAutoName(k)] = r, ra
	}
	best, bestCV := -1, 0.0
	for i, k := range kinds {
		ra, ok := run.Methods[leAutoName(k)]
		if !ok {
			continue
		}
		cv := 0.0 // as a search whose only candidate has no estimate
		if ra.CV != nil {
			cv = *ra.CV
		}
		if best < 0 || cv > bestCV {
			best, bestCV = i, cv
		}
	}
	if best >= 0 {
		b := *run.Methods[leAutoName(kinds[best])]
		b.Chosen = leKindName[kinds[best]] + " — " + b.Chosen
		run.Methods[leBest] = &b
	}
	return nil
}

// Experiment returns the benchmark with few labels.
func Experiment() lab.Experiment {
	return lab.Experiment{
		Name: "label-efficiency",
		Description: "semi-supervision with few labels on 20 Newsgroups, BBC, Brown and Reuters: every supervised kind with its defaults and " +
			"its automatic configuration against naive Bayes, a linear SVM, logistic regression and label spreading, 1–100% of the training labels",
		Run: runLabelEfficiency,
	}
}

// leResults is the raw results file, which a rerun resumes from.
type leResults struct {
	Protocol string   `json:"protocol"`
	Runs     []*leRun `json:"runs"`
	Why      []*leWhy `json:"why,omitempty"`
	// Redo is an unfinished --redo, so that an interrupted one resumes.
	Redo *leRedo `json:"redo,omitempty"`
}

// leRedo is a --redo in progress: the kinds it redoes and what it has
// redone (run keys, and "why DATASET" for the why measurements). A rerun
// with the same kinds goes on from there; a finished redo is dropped, so
// that the same command later redoes everything again.
type leRedo struct {
	Kinds []string `json:"kinds"`
	Done  []string `json:"done"`
}

// leProtocol names what the results depend on, so that a rerun resumes
// only from results of the same protocol.
const leProtocol = "label-efficiency v1: fractions 1,2,3,5,10,20,50,100%; per class max(1, round(f·n)) labeled; fit on every document"

func runLabelEfficiency(ctx context.Context, env *lab.Env) error {
	datasets := []string{"bbc", "brown", "reuters", "20ng"}
	fracs := leFractions
	// Five seeds, but three on Reuters and one on 20 Newsgroups, whose
	// runs cost about 1 and 4.5 minutes on 2 cores (BBC's and Brown's
	// under one): --seeds sets every corpus's count.
	seedsOf := func(dataset string) int {
		if env.Seeds > 0 {
			return env.Seeds
		}
		switch dataset {
		case "reuters":
			return 3
		case "20ng":
			return 1
		}
		return 5
	}
	seeds := env.SeedsOr(5)
	kinds := leKinds
	name := "label-efficiency"
	if env.Quick {
		datasets, fracs, seeds = []string{"bbc"}, []float64{0.02, 0.2}, 1
		seedsOf = func(string) int { return 1 }
		kinds = []string{model.KindTSNMF, model.KindSSNMF}
		name = "label-efficiency-quick"
	}
	rep := lab.NewReport(env, name, "Few labels on corpora the defaults were not made for: the label-efficiency benchmark")
	// Resume from the results of an interrupted run of the same protocol.
	seedText := strconv.Itoa(seeds)
	if env.Seeds == 0 && !env.Quick {
		seedText = "5 (reuters: 3, 20ng: 1)"
	}
	protocol := fmt.Sprintf("%s; seeds %s; kinds %s", leProtocol, seedText, strings.Join(kinds, ","))
	if env.Quick {
		protocol += "; " + leQuickNote
	}
	rawPath := filepath.Join(env.Out, name+".json")
	results := &leResults{Protocol: protocol}
	if old := resume(env, rawPath, protocol, func(r *leResults) string { return r.Protocol }, func(r *leResults) int { return len(r.Runs) }); old != nil {
		results = old
	}
	done := map[string]*leRun{}
	for _, r := range results.Runs {
		done[leKey(r.Dataset, r.Fraction, r.Seed)] = r
	}
	for _, k := range env.Redo {
		if !slices.Contains(kinds, k) {
			return fmt.Errorf("--redo %s: not a kind of this experiment (%s)", k, strings.Join(kinds, ", "))
		}
	}
	if len(env.Redo) > 0 && env.ReportOnly {
		return fmt.Errorf("--redo and --report-only: redoing runs something")
	}
	if len(env.Redo) > 0 {
		if r := results.Redo; r != nil && slices.Equal(r.Kinds, env.Redo) {
			env.Logf("resuming the redo of %s: %d runs and measurements redone already", strings.Join(r.Kinds, ", "), len(r.Done))
		} else {
			results.Redo = &leRedo{Kinds: slices.Clone(env.Redo)}
		}
	}
	var data []*leData
	var missing []string
	for _, dn := range datasets {
		d, err := loadLE(ctx, env, dn)
		if err != nil {
			return err
		}
		data = append(data, d)
		env.Logf("%s: %d classes, %d training and %d test documents, majority %.1f%%", dn, len(d.classes), len(d.train), len(d.test), d.majority())
		for _, frac := range leRunOrder(fracs) {
			for s := 0; s < seedsOf(dn); s++ {
				if run, ok := done[leKey(dn, frac, s)]; ok {
					key := leKey(dn, frac, s)
					if len(env.Redo) == 0 || slices.Contains(results.Redo.Done, key) {
						continue
					}
					t0 := time.Now()
					if err := d.redo(ctx, env, run, kinds); err != nil {
						return err
					}
					results.Redo.Done = append(results.Redo.Done, key)
					env.Logf("%s %g%% seed %d: %s redone in %v", dn, 100*frac, s, strings.Join(env.Redo, ", "), time.Since(t0).Round(time.Second))
					if err := rep.JSON(name+".json", results); err != nil {
						return err
					}
					continue
				}
				if env.ReportOnly {
					missing = append(missing, fmt.Sprintf("%s %s seed %d", dn, fracLabel(frac), s))
					continue
				}
				t0 := time.Now()
				run, err := d.runOne(ctx, env, frac, s, kinds)
				if err != nil {
					return err
				}
				run.Seconds = time.Since(t0).Seconds()
				results.Runs = append(results.Runs, run)
				done[leKey(dn, frac, s)] = run
				env.Logf("%s %g%% seed %d (%d labeled): %v", dn, 100*frac, s, run.Labeled, time.Since(t0).Round(time.Second))
				if err := rep.JSON(name+".json", results); err != nil {
					return err
				}
			}
		}
		whyFrac := map[string]float64{"bbc": 0.02, "20ng": 0.03}[dn]
		redoWhy := len(env.Redo) > 0 && !slices.Contains(results.Redo.Done, "why "+dn)
		if redoWhy {
			results.Why = slices.DeleteFunc(results.Why, func(w *leWhy) bool { return w.Dataset == dn })
		}
		if whyFrac > 0 && !hasWhy(results.Why, dn) && env.ReportOnly {
			missing = append(missing, "the why measurements on "+dn)
		}
		if whyFrac > 0 && !hasWhy(results.Why, dn) && !env.ReportOnly {
			env.Logf("%s: measuring why the kinds collapse", dn)
			w, err := d.why(ctx, whyFrac)
			if err != nil {
				return err
			}
			results.Why = append(results.Why, w)
			if redoWhy {
				results.Redo.Done = append(results.Redo.Done, "why "+dn)
			}
			if err := rep.JSON(name+".json", results); err != nil {
				return err
			}
		}
		d.cache, d.graph = nil, nil // free the matrices
	}
	if results.Redo != nil {
		// The redo is finished.
		results.Redo = nil
		if err := rep.JSON(name+".json", results); err != nil {
			return err
		}
	}
	if err := writeLEReport(rep, env, data, fracs, seeds, seedText, kinds, done, name); err != nil {
		return err
	}
	if len(results.Why) > 0 {
		writeWhy(rep, results.Why)
	}
	total := 0.0
	for _, r := range results.Runs {
		total += r.Seconds
	}
	if len(missing) > 0 {
		rep.P("**Incomplete:** this report was written with --report-only from the raw results of `go run ./cmd/semitopic experiment %s`, "+
			"with %d parts of the protocol missing (%s); running that command completes them.", name, len(missing), strings.Join(missing, ", "))
	}
	if env.ReportOnly || len(env.Redo) > 0 {
		rep.SetCommand(env.ExperimentCommand(name))
	}
	rep.P("The %d runs took %s of computing in all on this 2-core machine, the measurements of why not counted, over the invocations that wrote %s.json: "+
		"a rerun resumes from that file and redoes only what is missing there (an interrupted --redo goes on where it stopped), so the wall time below is the last invocation's alone.",
		len(results.Runs), time.Duration(total*float64(time.Second)).Round(time.Second), name)
	return rep.Finish()
}

// leSummaryFractions are the fractions of the summary table, where the
// goals are stated; they run first, so that an interrupted run has them.
var leSummaryFractions = []float64{0.01, 0.03, 0.1, 1}

// leRunOrder returns fracs with the summary's fractions first.
func leRunOrder(fracs []float64) []float64 {
	var first, rest []float64
	for _, f := range fracs {
		if containsFloat(leSummaryFractions, f) {
			first = append(first, f)
		} else {
			rest = append(rest, f)
		}
	}
	return append(first, rest...)
}

// leCell collects one method's values over the seeds of a fraction.
func leCell(done map[string]*leRun, dataset string, frac float64, seeds int, method string, get func(*leResult) float64) []float64 {
	var out []float64
	for s := 0; s < seeds; s++ {
		run := done[leKey(dataset, frac, s)]
		if run == nil {
			continue
		}
		if r := run.Methods[method]; r != nil {
			out = append(out, get(r))
		}
	}
	return out
}

func leAcc(r *leResult) float64 { return r.Accuracy }
func leF1(r *leResult) float64  { return r.MacroF1 }

func fracLabel(f float64) string { return strconv.FormatFloat(100*f, 'g', -1, 64) + "%" }

func writeLEReport(rep *lab.Report, env *lab.Env, data []*leData, fracs []float64, seeds int, seedText string, kinds []string, done map[string]*leRun, name string) error {
	methods := []string{leNB, leSVM, leLR, leSpread, leNMF, leLDA}
	for _, k := range kinds {
		methods = append(methods, leDefaultName(k))
	}
	for _, k := range kinds {
		methods = append(methods, leAutoName(k))
	}
	methods = append(methods, leBest)

	rep.P("Each corpus is split into training and test documents. For each labeled fraction *f* of the training documents and each seed, "+
		"every class keeps max(1, round(*f*·n_c)) of its training documents' labels, drawn with the seed; every other document — "+
		"the rest of the training documents and all test documents — is unlabeled. The supervised kinds are fitted on every document "+
		"with those labels (as `semitopic fit --labels-from-corpus` on the corpus with only those labels) and predict the test documents "+
		"(as `semitopic predict`); test accuracy and macro-F1 are over the test documents, mean ± sd over %s seeds. "+
		"*Defaults* is each kind's fit with its default pipeline and settings, as `semitopic fit --auto=false`; *auto* is the automatic "+
		"configuration (`semitopic fit`, 3-fold cross-validation over the labeled documents only, 9 fits plus the final one: see `semitopic fit --help`); "+
		"*best kind (auto)* is the kind whose automatic configuration has the best cross-validated accuracy, as `semitopic fit --kind auto`. "+
		"Naive Bayes (term counts), the linear SVM and logistic regression (tf-idf) learn from the labeled documents alone; label spreading "+
		"(scikit-learn's `LabelSpreading(kernel=\"knn\", n_neighbors=7)`, equal to it on fixtures) spreads the labels over the tf-idf "+
		"nearest-neighbour graph of every document; NMF and LDA are fitted unsupervised with one topic per class on every document, each topic "+
		"taking the commonest class of the labeled documents whose strongest topic it is.", seedText)
	rows := [][]string{}
	for _, d := range data {
		rows = append(rows, []string{d.name, strconv.Itoa(len(d.classes)), strconv.Itoa(len(d.train)), strconv.Itoa(len(d.test)),
			fmt.Sprintf("%.1f", d.majority()), strings.Join(d.notes, "; ")})
	}
	rep.H2("Corpora")
	rep.Table([]string{"corpus", "classes", "training", "test", "majority class % (test)", "notes"}, rows)

	// The summary: test accuracy at 1, 3, 10 and 100% for the best kind,
	// every kind's automatic configuration and the baselines.
	rep.H2("Summary")
	var sumFracs []float64
	for _, f := range leSummaryFractions {
		if containsFloat(fracs, f) {
			sumFracs = append(sumFracs, f)
		}
	}
	if len(sumFracs) == 0 {
		sumFracs = fracs
	}
	header := []string{"corpus (majority %)", "labeled"}
	sumMethods := []string{leBest}
	for _, k := range kinds {
		sumMethods = append(sumMethods, leAutoName(k))
	}
	sumMethods = append(sumMethods, leSVM, leNB, leSpread)
	header = append(header, sumMethods...)
	rows = nil
	for _, d := range data {
		for _, f := range sumFracs {
			row := []string{fmt.Sprintf("%s (%.1f)", d.name, d.majority()), fracLabel(f)}
			for _, m := range sumMethods {
				v := leCell(done, d.name, f, seeds, m, leAcc)
				mean, _ := lab.MeanSD(v)
				if len(v) == 0 {
					row = append(row, "")
					continue
				}
				row = append(row, fmt.Sprintf("%.1f", mean))
			}
			rows = append(rows, row)
		}
	}
	rep.P("Test accuracy %%, mean over the seeds (the tables below give the spread and every fraction):")
	rep.Table(header, rows)

	for _, d := range data {
		rep.H2(fmt.Sprintf("%s: test accuracy %%", d.name))
		header := []string{"method"}
		labeledRow := []string{"labeled documents"}
		for _, f := range fracs {
			header = append(header, fracLabel(f))
			var n []float64
			for s := 0; s < seeds; s++ {
				if run := done[leKey(d.name, f, s)]; run != nil {
					n = append(n, float64(run.Labeled))
				}
			}
			m, _ := lab.MeanSD(n)
			labeledRow = append(labeledRow, fmt.Sprintf("%.0f", m))
		}
		rows := [][]string{labeledRow}
		for _, m := range methods {
			row := []string{m}
			for _, f := range fracs {
				row = append(row, lab.PM(leCell(done, d.name, f, seeds, m, leAcc), 1))
			}
			rows = append(rows, row)
		}
		rep.Table(header, rows)
		var series []chart.Series
		for _, m := range []string{leSVM, leNB, leSpread, leBest} {
			s := chart.Series{Name: m}
			for _, f := range fracs {
				if v := leCell(done, d.name, f, seeds, m, leAcc); len(v) > 0 {
					mean, sd := lab.MeanSD(v)
					s.X, s.Y, s.Err = append(s.X, 100*f), append(s.Y, mean), append(s.Err, sd)
				}
			}
			series = append(series, s)
		}
		for _, k := range kinds {
			s := chart.Series{Name: leAutoName(k), Dashed: true}
			for _, f := range fracs {
				if v := leCell(done, d.name, f, seeds, leAutoName(k), leAcc); len(v) > 0 {
					mean, _ := lab.MeanSD(v)
					s.X, s.Y = append(s.X, 100*f), append(s.Y, mean)
				}
			}
			series = append(series, s)
		}
		maj := d.majority()
		series = append(series, chart.Series{Name: "majority class", X: []float64{100 * fracs[0], 100 * fracs[len(fracs)-1]}, Y: []float64{maj, maj}, Dashed: true, NoMarks: true})
		if err := rep.Chart(name+"-"+d.name+".svg", d.name+": test accuracy against the labeled fraction",
			chart.LineChart{Title: d.name, XLabel: "labeled training documents (%, log scale)", YLabel: "test accuracy %", Series: series, LogX: true, LegendLeft: false, YMin: 0, YMax: 100},
			chart.Size{Width: 16, Height: 11}); err != nil {
			return err
		}
		rep.P("Macro-F1 %%:")
		rows = nil
		for _, m := range methods {
			row := []string{m}
			for _, f := range fracs {
				row = append(row, lab.PM(leCell(done, d.name, f, seeds, m, leF1), 1))
			}
			rows = append(rows, row)
		}
		rep.Table(header, rows)
		// What the automatic configuration chose.
		rows = nil
		for _, f := range fracs {
			counts := map[string]int{}
			for s := 0; s < seeds; s++ {
				if run := done[leKey(d.name, f, s)]; run != nil {
					if r := run.Methods[leBest]; r != nil {
						counts[r.Chosen]++
					}
				}
			}
			rows = append(rows, []string{fracLabel(f), describeCounts(counts)})
		}
		rep.P("What `--kind auto` kept, per fraction (over the seeds):")
		rep.Table([]string{"labeled", "kept (times)"}, rows)
	}
	return leGoals(rep, data, fracs, seeds, kinds, done)
}

// describeCounts lists choices with their counts, most frequent first.
func describeCounts(counts map[string]int) string {
	type kv struct {
		k string
		n int
	}
	var all []kv
	for k, n := range counts {
		all = append(all, kv{k, n})
	}
	sort.Slice(all, func(a, b int) bool {
		if all[a].n != all[b].n {
			return all[a].n > all[b].n
		}
		return all[a].k < all[b].k
	})
	var parts []string
	for _, x := range all {
		parts = append(parts, fmt.Sprintf("%s (%d)", x.k, x.n))
	}
	return strings.Join(parts, "; ")
}

// leGoals checks the goals on the results and says plainly where
// they are not reached.
func leGoals(rep *lab.Report, data []*leData, fracs []float64, seeds int, kinds []string, done map[string]*leRun) error {
	rep.H2("The goals")
	// Floor.
	var floorMiss []string
	for _, d := range data {
		for _, f := range fracs {
			for _, k := range kinds {
				v := leCell(done, d.name, f, seeds, leAutoName(k), leAcc)
				if len(v) > 0 && lab.Mean(v) < d.majority()+5 {
					best, bestName := math.Inf(-1), ""
					for _, m := range []string{leNB, leSVM, leLR, leSpread, leNMF, leLDA} {
						if b := leCell(done, d.name, f, seeds, m, leAcc); len(b) > 0 && lab.Mean(b) > best {
							best, bestName = lab.Mean(b), m
						}
					}
					floorMiss = append(floorMiss, fmt.Sprintf("%s %s at %s: %.1f (floor %.1f; linear SVM %.1f, best baseline %s %.1f)",
						d.name, leAutoName(k), fracLabel(f), lab.Mean(v), d.majority()+5, lab.Mean(leCell(done, d.name, f, seeds, leSVM, leAcc)), bestName, best))
				}
			}
		}
	}
	if len(floorMiss) == 0 {
		rep.P("**Floor** (every kind's automatic configuration at least 5 points above the majority class at every fraction): met everywhere.")
	} else {
		rep.P("**Floor** (every kind's automatic configuration at least 5 points above the majority class at every fraction): missed in %d cases: %s. "+
			"Beside each miss are the linear SVM and the best of the baselines at the same point: where they too are near the floor, the labels "+
			"carry too little for any method there.", len(floorMiss), strings.Join(floorMiss, "; "))
		if strings.Contains(strings.Join(floorMiss, ";"), leAutoName(model.KindCorEx)) {
			rep.P("Label-anchored CorEx takes a label's anchors from its labeled documents' words; with one or two labeled documents per label " +
				"they are words of those documents more than of the label, and neither the β grid nor the readouts lift it to the floor there.")
		}
	}
	// Best kind against the linear SVM.
	rows := [][]string{}
	for _, d := range data {
		row := []string{d.name}
		for _, f := range fracs {
			b, s := leCell(done, d.name, f, seeds, leBest, leAcc), leCell(done, d.name, f, seeds, leSVM, leAcc)
			if len(b) == 0 || len(s) == 0 {
				row = append(row, "")
				continue
			}
			row = append(row, fmt.Sprintf("%+.1f", lab.Mean(b)-lab.Mean(s)))
		}
		rows = append(rows, row)
	}
	// The same with the kind chosen in hindsight, per run: what choosing
	// the kind by cross-validation costs.
	for _, d := range data {
		row := []string{d.name + ", the best kind in hindsight"}
		for _, f := range fracs {
			var gap []float64
			for s := 0; s < seeds; s++ {
				run := done[leKey(d.name, f, s)]
				if run == nil || run.Methods[leSVM] == nil {
					continue
				}
				best := math.Inf(-1)
				for _, k := range kinds {
					if r := run.Methods[leAutoName(k)]; r != nil {
						best = max(best, r.Accuracy)
					}
				}
				if !math.IsInf(best, -1) {
					gap = append(gap, best-run.Methods[leSVM].Accuracy)
				}
			}
			if len(gap) == 0 {
				row = append(row, "")
				continue
			}
			row = append(row, fmt.Sprintf("%+.1f", lab.Mean(gap)))
		}
		rows = append(rows, row)
	}
	header := []string{"best kind (auto) − linear SVM, points"}
	for _, f := range fracs {
		header = append(header, fracLabel(f))
	}
	rep.P("**Against the linear SVM** trained on the same labels (goal: at least level at 1%%, 3%% and 10%%, 5 points ahead at 1–3%%, within 5 points with all labels):")
	rep.Table(header, rows)
	rep.P("The rows *in hindsight* take, in each run, the kind whose automatic configuration did best on the test documents: the gap between " +
		"them and the first rows is what choosing the kind by cross-validation over few labeled documents costs.")
	// Cross-validated estimates against the test accuracy.
	within, total := 0, 0
	rows = nil
	for _, d := range data {
		var dd, low, high []float64
		w, t := 0, 0
		for _, r := range allRuns(done, d.name) {
			for _, k := range append(append([]string{}, kinds...), "") {
				m := leBest
				if k != "" {
					m = leAutoName(k)
				}
				x := r.Methods[m]
				if x == nil || x.CV == nil {
					continue
				}
				diff := *x.CV - x.Accuracy
				dd = append(dd, math.Abs(diff))
				if r.Fraction <= 0.03 {
					low = append(low, math.Abs(diff))
				} else if r.Fraction >= 0.2 {
					high = append(high, math.Abs(diff))
				}
				t++
				total++
				if math.Abs(diff) <= 5 {
					w++
					within++
				}
			}
		}
		if t > 0 {
			band := func(v []float64) string {
				if len(v) == 0 {
					return ""
				}
				return fmt.Sprintf("%.1f", lab.Mean(v))
			}
			rows = append(rows, []string{d.name, fmt.Sprintf("%.1f", lab.Mean(dd)), band(low), band(high), fmt.Sprintf("%d of %d (%.0f%%)", w, t, 100*float64(w)/float64(t))})
		}
	}
	if total > 0 {
		rep.P("**Cross-validated estimates** (what `fit` prints for its choice) against the test accuracy of the same fit, over every automatic configuration and run (goal: within ±5 points):")
		rep.Table([]string{"corpus", "mean absolute difference, points", "at 1–3% labeled", "at 20–100%", "within ±5 points"}, rows)
		rep.P("Over all corpora, %d of %d estimates (%.0f%%) are within ±5 points of the test accuracy. An estimate is an accuracy over "+
			"the held-out labeled documents, so its own sampling error is about 100·√(p(1−p)/m) points for m of them: a few points with "+
			"hundreds, 20 or more with the handful that a corpus of many classes and few labels can hold out (labels with a single labeled "+
			"document cannot be scored at all); the test accuracy of a small test set (Brown's 100 documents) adds its own.", within, total, 100*float64(within)/float64(total))
		rep.P("Each estimate here is the one `fit` printed when its run was made, and a run is made again only with `--redo`: runs older than " +
			"the estimator `fit` prints today keep their day's estimate. The estimator itself (the learning curve's gain, each class's recall " +
			"carried to all its labeled documents, an interval) is measured on the same corpora, fractions and seeds in " +
			"[accuracy-estimate.md](accuracy-estimate.md), which records each run's fold predictions so that it can be scored again without refitting.")
	}
	return nil
}

// allRuns returns a dataset's runs in a stable order.
func allRuns(done map[string]*leRun, dataset string) []*leRun {
	var out []*leRun
	for _, r := range done {
		if r.Dataset == dataset {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Fraction != out[b].Fraction {
			return out[a].Fraction < out[b].Fraction
		}
		return out[a].Seed < out[b].Seed
	})
	return out
}

func hasWhy(ws []*leWhy, dataset string) bool {
	for _, w := range ws {
		if w.Dataset == dataset {
			return true
		}
	}
	return false
}

func containsFloat(xs []float64, v float64) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}
