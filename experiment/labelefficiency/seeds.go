package labelefficiency

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/model"
)

// seedFiles holds, per corpus, ten seed words per class typed from common
// knowledge of what the class is about, not drawn from the data; a run
// with n seed words per class takes the first n of each line.
//
//go:embed seeds/*.txt
var seedFiles embed.FS

// swCounts are the numbers of seed words per class of the runs.
var swCounts = []int{3, 10}

// swFraction is the labeled fraction of the runs with seed words and
// labels together.
const swFraction = 0.01

// swKinds are the kinds fitted with seed words: alone, and beside the
// labels of swFraction of the training documents.
var swKinds = []string{model.KindCorEx, model.KindNMF, model.KindTSNMF, model.KindSSNMF, model.KindLDA}

// swReadoutKinds are the kinds also fitted with seed words alone and the
// terms+topics readout, which learns from the documents the seed words
// label (model.SeedLabels).
var swReadoutKinds = []string{model.KindCorEx, model.KindNMF, model.KindTSNMF, model.KindSSNMF}

// The methods of the seed-word runs besides the kinds.
const (
	swCount   = "seed count"
	swSeedSVM = "linear SVM (seed-labeled documents)"
	swSVM     = "linear SVM (labels only)"
)

func swSeedsName(kind string) string { return leKindName[kind] + " (seed words)" }
func swReadoutName(kind string) string {
	return leKindName[kind] + " (seed words, " + model.ReadoutTermsTopics + " readout)"
}
func swLabelsName(kind string) string { return leKindName[kind] + " (labels only)" }
func swBothName(kind string) string   { return leKindName[kind] + " (seed words + labels)" }

// swResult is one method's outcome on one seed-word run.
type swResult struct {
	Accuracy float64 `json:"accuracy"`
	MacroF1  float64 `json:"macro_f1"`
	Seconds  float64 `json:"seconds"`
	// AllSeedsTop10 is the share of seeded topics whose seed words (those
	// in the vocabulary) all rank in the topic's top 10 words; SeedsTop10
	// the share of seed words in their topic's top 10 (models only).
	AllSeedsTop10 *float64 `json:"all_seeds_top10,omitempty"`
	SeedsTop10    *float64 `json:"seeds_top10,omitempty"`
	// Refused is the error of a kind that does not take this supervision.
	Refused string `json:"refused,omitempty"`
}

// String is the accuracy, or that the kind refused.
func (r *swResult) String() string {
	if r.Refused != "" {
		return "refused (" + r.Refused + ")"
	}
	return fmt.Sprintf("%.1f", r.Accuracy)
}

// swRun is one corpus, number of seed words, labeled fraction and seed.
type swRun struct {
	Dataset  string               `json:"dataset"`
	Words    int                  `json:"seed_words"`
	Fraction float64              `json:"fraction"`
	Seed     int                  `json:"seed"`
	Labeled  int                  `json:"labeled"`
	Methods  map[string]*swResult `json:"methods"`
	Seconds  float64              `json:"seconds"`
}

func swKey(dataset string, words int, frac float64, seed int) string {
	return fmt.Sprintf("%s/%d/%g/%d", dataset, words, frac, seed)
}

// swResults is the raw results file, which a rerun resumes from.
type swResults struct {
	Protocol string   `json:"protocol"`
	Runs     []*swRun `json:"runs"`
}

// seedAnchors returns the first n seed words of each class of d, in the
// class order, read from the corpus's seed file.
func (d *leData) seedAnchors(n int) ([]model.Anchor, error) {
	file := "seeds/" + d.name + ".txt"
	b, err := seedFiles.ReadFile(file)
	if err != nil {
		return nil, err
	}
	all, err := model.ParseAnchors(file, bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	byName := map[string]model.Anchor{}
	for _, a := range all {
		byName[a.Topic] = a
	}
	out := make([]model.Anchor, len(d.classes))
	for i, c := range d.classes {
		a, ok := byName[c]
		if !ok || len(a.Words) < n {
			return nil, fmt.Errorf("%s: class %q needs %d seed words", file, c, n)
		}
		out[i] = model.Anchor{Topic: c, Words: a.Words[:n]}
	}
	return out, nil
}

// seedRanks measures how many seed words a fitted model's seeded topics
// (named after the classes) show among their top 10 words.
func seedRanks(m model.Model, anchors []model.Anchor, vocab []string) (all, share float64, err error) {
	topics, err := m.Topics(10)
	if err != nil {
		return 0, 0, err
	}
	inVocab := map[string]bool{}
	for _, w := range vocab {
		inVocab[w] = true
	}
	byName := map[string][]string{}
	for _, t := range topics {
		for _, w := range t.Words {
			byName[t.Name] = append(byName[t.Name], w.Word)
		}
	}
	var topicsSeeded, topicsAll, words, wordsIn int
	for _, a := range anchors {
		top := byName[a.Topic]
		n, in := 0, 0
		for _, w := range a.Words {
			if !inVocab[w] {
				continue
			}
			n++
			if slices.Contains(top, w) {
				in++
			}
		}
		if n == 0 {
			continue
		}
		topicsSeeded++
		words += n
		wordsIn += in
		if in == n {
			topicsAll++
		}
	}
	if topicsSeeded == 0 {
		return 0, 0, nil
	}
	return 100 * float64(topicsAll) / float64(topicsSeeded), 100 * float64(wordsIn) / float64(words), nil
}

// fitSeeded fits kind with the seed words (and the labels of labeled,
// when any) on every document and scores its predictions of the test
// documents and its seed words' ranks.
func (d *leData) fitSeeded(ctx context.Context, kind string, seeds []model.Anchor, labeled []int, seed uint64, readout string) (*swResult, error) {
	v, err := d.vectorized(ctx, model.DefaultPreset(kind))
	if err != nil {
		return nil, err
	}
	var sup model.Supervision
	if len(labeled) > 0 {
		sup, _ = d.supervision(v, labeled)
	}
	if seeds != nil {
		if sup.Anchors, _, err = model.AnalyzeAnchors(v.vec.Analyzer(), seeds); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	f, err := d.fit(ctx, v.x, v.vocab, model.Options{Kind: kind, K: len(d.classes), Seed: seed, Readout: readout, Supervision: sup})
	if err != nil {
		return &swResult{Refused: err.Error()}, nil
	}
	m := f.Model
	p, ok := m.(model.Predictor)
	if !ok {
		return &swResult{Refused: kind + " predicts no labels"}, nil
	}
	pr, err := p.Predict(ctx, v.test)
	if err != nil {
		return &swResult{Refused: err.Error()}, nil
	}
	sc, err := d.score(d.classesOf(pr.Labels))
	if err != nil {
		return nil, err
	}
	r := &swResult{Accuracy: sc.Accuracy, MacroF1: sc.MacroF1, Seconds: time.Since(t0).Seconds()}
	if sup.Anchors != nil {
		all, share, err := seedRanks(m, sup.Anchors, v.vocab)
		if err != nil {
			return nil, err
		}
		r.AllSeedsTop10, r.SeedsTop10 = &all, &share
	}
	return r, nil
}

// seedsIn returns the documents through preset with the seed words read
// as its pipeline reads the documents.
func (d *leData) seedsIn(ctx context.Context, preset string, seeds []model.Anchor) (*leVectorized, []model.Anchor, error) {
	v, err := d.vectorized(ctx, preset)
	if err != nil {
		return nil, nil, err
	}
	anchors, _, err := model.AnalyzeAnchors(v.vec.Analyzer(), seeds)
	return v, anchors, err
}

// seedCount scores the seed-count baseline on the test documents, the
// commonest class taken from the labeled documents when there are any.
func (d *leData) seedCount(ctx context.Context, seeds []model.Anchor, labeled []int) (*swResult, error) {
	v, anchors, err := d.seedsIn(ctx, "counts", seeds)
	if err != nil {
		return nil, err
	}
	t0 := time.Now()
	var prior []float64
	if len(labeled) > 0 {
		prior = make([]float64, len(d.classes))
		for _, i := range labeled {
			prior[d.class[i]]++
		}
	}
	names, pred, err := model.SeedCount(v.test, v.vocab, anchors, prior)
	if err != nil {
		return nil, err
	}
	if len(names) != len(d.classes) {
		return nil, fmt.Errorf("%s: %d of %d classes have a seed word in the vocabulary", d.name, len(names), len(d.classes))
	}
	sc, err := d.score(pred) // names are the classes, in order
	if err != nil {
		return nil, err
	}
	return &swResult{Accuracy: sc.Accuracy, MacroF1: sc.MacroF1, Seconds: time.Since(t0).Seconds()}, nil
}

// seedSVM trains a linear SVM on the documents the seed words label
// (model.SeedLabels: those most of whose seed words are one class's,
// training and test documents alike, as the kinds see every document) and
// scores its predictions of the test documents: the linear classifier
// trained on the same labels as a kind that learns from the seed words'
// labels.
func (d *leData) seedSVM(ctx context.Context, seeds []model.Anchor, seed uint64) (*swResult, error) {
	v, anchors, err := d.seedsIn(ctx, "default", seeds)
	if err != nil {
		return nil, err
	}
	labels, _, err := model.SeedLabels(v.x, v.vocab, anchors)
	if err != nil {
		return nil, err
	}
	index := map[string]int{}
	for i, c := range d.classes {
		index[c] = i
	}
	// The default pipeline keeps every document: row r is document r.
	class := make([]int, len(d.docs))
	var labeled []int
	seen := map[int]bool{}
	for r, l := range labels {
		if len(l) > 0 {
			i := v.kept[r]
			class[i] = index[l[0]]
			labeled = append(labeled, i)
			seen[class[i]] = true
		}
	}
	if len(seen) < 2 {
		return &swResult{Refused: fmt.Sprintf("the seed words label %d documents, of fewer than two classes", len(labeled))}, nil
	}
	r, err := d.trainTest(ctx, &classify.LinearSVC{Seed: seed}, v.x, labeled, class)
	if err != nil {
		return nil, err
	}
	return &swResult{Accuracy: r.Accuracy, MacroF1: r.MacroF1, Seconds: r.Seconds}, nil
}

// runSeeds completes run (one corpus, number of seed words, fraction and
// seed): it computes the methods the run lacks, and those of the kinds in
// redo again.
func (d *leData) runSeeds(ctx context.Context, env *lab.Env, run *swRun, kinds, redo []string) error {
	words, frac, seed := run.Words, run.Fraction, run.Seed
	seeds, err := d.seedAnchors(words)
	if err != nil {
		return err
	}
	var labeled []int
	if frac > 0 {
		labeled = d.sample(frac, uint64(seed))
	}
	run.Labeled = len(labeled)
	if run.Methods == nil {
		run.Methods = map[string]*swResult{}
	}
	wrap := func(name string, err error) error {
		return fmt.Errorf("%s, %d seed words, %g%% labels, seed %d, %s: %w", d.name, words, 100*frac, seed, name, err)
	}
	set := func(name string, r *swResult) {
		if old, ok := run.Methods[name]; ok {
			run.Seconds -= old.Seconds
		}
		run.Methods[name] = r
		run.Seconds += r.Seconds
	}
	if _, ok := run.Methods[swCount]; !ok {
		r, err := d.seedCount(ctx, seeds, labeled)
		if err != nil {
			return wrap(swCount, err)
		}
		set(swCount, r)
	}
	if _, ok := run.Methods[swSeedSVM]; !ok && frac == 0 {
		r, err := d.seedSVM(ctx, seeds, uint64(seed))
		if err != nil {
			return wrap(swSeedSVM, err)
		}
		set(swSeedSVM, r)
	}
	if _, ok := run.Methods[swSVM]; !ok && frac > 0 {
		def, err := d.vectorized(ctx, "default")
		if err != nil {
			return err
		}
		b, err := d.baseline(ctx, &classify.LinearSVC{Seed: uint64(seed)}, def.x, labeled)
		if err != nil {
			return wrap(swSVM, err)
		}
		set(swSVM, &swResult{Accuracy: b.Accuracy, MacroF1: b.MacroF1, Seconds: b.Seconds})
	}
	need := func(name, kind string) bool {
		_, ok := run.Methods[name]
		return !ok || slices.Contains(redo, kind)
	}
	for _, k := range kinds {
		if frac == 0 {
			if !need(swSeedsName(k), k) {
				continue
			}
			r, err := d.fitSeeded(ctx, k, seeds, nil, uint64(seed), "")
			if err != nil {
				return wrap(swSeedsName(k), err)
			}
			set(swSeedsName(k), r)
			env.Logf("  %s %d seed words, seed %d: %s %s (seed count %.1f)", d.name, words, seed, k, r, run.Methods[swCount].Accuracy)
			if slices.Contains(swReadoutKinds, k) && need(swReadoutName(k), k) {
				r, err := d.fitSeeded(ctx, k, seeds, nil, uint64(seed), model.ReadoutTermsTopics)
				if err != nil {
					return wrap(swReadoutName(k), err)
				}
				set(swReadoutName(k), r)
				env.Logf("  %s %d seed words, seed %d: %s with the %s readout %s", d.name, words, seed, k, model.ReadoutTermsTopics, r)
			}
			continue
		}
		if need(swLabelsName(k), k) {
			lo, err := d.fitSeeded(ctx, k, nil, labeled, uint64(seed), "")
			if err != nil {
				return wrap(swLabelsName(k), err)
			}
			set(swLabelsName(k), lo)
		}
		if need(swBothName(k), k) {
			both, err := d.fitSeeded(ctx, k, seeds, labeled, uint64(seed), "")
			if err != nil {
				return wrap(swBothName(k), err)
			}
			set(swBothName(k), both)
			env.Logf("  %s %d seed words + %g%% labels, seed %d: %s labels only %s, with seed words %s", d.name, words, 100*frac, seed, k, run.Methods[swLabelsName(k)], both)
		}
	}
	return nil
}

// SeedWordsExperiment returns the benchmark of seed words instead of, and
// beside, few labels.
func SeedWordsExperiment() lab.Experiment {
	return lab.Experiment{
		Name: "seed-words",
		Description: "seed words typed from common knowledge instead of labels (3 and 10 per class), and beside 1% of the labels, on 20 Newsgroups, BBC, " +
			"Brown and Reuters: every kind that takes seed words against counting the seed words and a linear SVM",
		Run: runSeedWords,
	}
}

const swProtocol = "seed-words v1: 3 and 10 seed words per class from seeds/*.txt; alone, and with 1% of the labels (per class max(1, round(f·n))); fit on every document"

func runSeedWords(ctx context.Context, env *lab.Env) error {
	datasets := []string{"bbc", "brown", "reuters", "20ng"}
	seedsOf := func(dataset string) int {
		if env.Seeds > 0 {
			return env.Seeds
		}
		switch dataset {
		case "reuters":
			return 2
		case "20ng":
			return 1
		}
		return 3
	}
	seedText := "3 (reuters: 2, 20ng: 1)"
	if env.Seeds > 0 {
		seedText = strconv.Itoa(env.Seeds)
	}
	kinds := swKinds
	name := "seed-words"
	if env.Quick {
		datasets, seedText, name = []string{"bbc"}, "1", "seed-words-quick"
		seedsOf = func(string) int { return 1 }
	}
	rep := lab.NewReport(env, name, "Seed words instead of labels: does guiding a model pay off?")
	// A rerun resumes from the runs of the same protocol, computing only
	// the methods they lack (a kind added since) and those of --redo.
	protocol := fmt.Sprintf("%s; seeds %s", swProtocol, seedText)
	if env.Quick {
		protocol += "; " + leQuickNote
	}
	rawPath := filepath.Join(env.Out, name+".json")
	results := &swResults{Protocol: protocol}
	if old := resume(env, rawPath, protocol, func(r *swResults) string { return r.Protocol }, func(r *swResults) int { return len(r.Runs) }); old != nil {
		results = old
	}
	for _, k := range env.Redo {
		if !slices.Contains(kinds, k) {
			return fmt.Errorf("--redo %s: not a kind of this experiment (%s)", k, strings.Join(kinds, ", "))
		}
	}
	if len(env.Redo) > 0 && env.ReportOnly {
		return fmt.Errorf("--redo and --report-only: redoing runs something")
	}
	done := map[string]*swRun{}
	for _, r := range results.Runs {
		done[swKey(r.Dataset, r.Words, r.Fraction, r.Seed)] = r
	}
	var data []*leData
	var missing []string
	for _, dn := range datasets {
		d, err := loadLE(ctx, env, dn)
		if err != nil {
			return err
		}
		data = append(data, d)
		for _, words := range swCounts {
			for _, frac := range []float64{0, swFraction} {
				for s := 0; s < seedsOf(dn); s++ {
					key := swKey(dn, words, frac, s)
					run, ok := done[key]
					if ok && !swIncomplete(run, kinds, env.Redo) {
						continue
					}
					if env.ReportOnly {
						missing = append(missing, key)
						continue
					}
					if !ok {
						run = &swRun{Dataset: dn, Words: words, Fraction: frac, Seed: s}
						results.Runs = append(results.Runs, run)
						done[key] = run
					}
					t0 := time.Now()
					if err := d.runSeeds(ctx, env, run, kinds, env.Redo); err != nil {
						return err
					}
					env.Logf("%s: %v", key, time.Since(t0).Round(time.Second))
					if err := rep.JSON(name+".json", results); err != nil {
						return err
					}
				}
			}
		}
		d.cache, d.graph = nil, nil
	}
	writeSeedWords(rep, data, kinds, seedsOf, seedText, done)
	if len(missing) > 0 {
		rep.P("**Incomplete:** %d runs of the protocol are missing (%s); `go run ./cmd/semitopic experiment %s` completes them.", len(missing), strings.Join(missing, ", "), name)
	}
	if env.ReportOnly || len(env.Redo) > 0 {
		rep.SetCommand(env.ExperimentCommand(name))
	}
	total := 0.0
	for _, r := range results.Runs {
		total += r.Seconds
	}
	runsNote(rep, name, len(results.Runs), total)
	return rep.Finish()
}

// swIncomplete reports whether run lacks a method of kinds, or has one
// that redo asks to compute again.
func swIncomplete(run *swRun, kinds, redo []string) bool {
	base := []string{swCount, swSeedSVM}
	if run.Fraction > 0 {
		base = []string{swCount, swSVM}
	}
	for _, n := range base {
		if _, ok := run.Methods[n]; !ok {
			return true
		}
	}
	for _, k := range kinds {
		if slices.Contains(redo, k) {
			return true
		}
		names := []string{swSeedsName(k)}
		if slices.Contains(swReadoutKinds, k) {
			names = append(names, swReadoutName(k))
		}
		if run.Fraction > 0 {
			names = []string{swLabelsName(k), swBothName(k)}
		}
		for _, n := range names {
			if _, ok := run.Methods[n]; !ok {
				return true
			}
		}
	}
	return false
}

// swValues gathers a method's values over the seeds of one setting, and
// whether the kind refused the supervision.
func swValues(done map[string]*swRun, dataset string, words int, frac float64, seeds int, method string, get func(*swResult) *float64) (xs []float64, refused bool) {
	for s := 0; s < seeds; s++ {
		r, ok := done[swKey(dataset, words, frac, s)]
		if !ok {
			continue
		}
		m, ok := r.Methods[method]
		if !ok {
			continue
		}
		if m.Refused != "" {
			return nil, true
		}
		if v := get(m); v != nil {
			xs = append(xs, *v)
		}
	}
	return xs, false
}

// swCell is a method's mean ± sd over the seeds of one setting.
func swCell(done map[string]*swRun, dataset string, words int, frac float64, seeds int, method string, get func(*swResult) *float64) string {
	xs, refused := swValues(done, dataset, words, frac, seeds, method, get)
	switch {
	case refused:
		return "refused"
	case len(xs) == 0:
		return ""
	}
	return lab.PM(xs, 1)
}

func swAcc(r *swResult) *float64   { return &r.Accuracy }
func swAll(r *swResult) *float64   { return r.AllSeedsTop10 }
func swShare(r *swResult) *float64 { return r.SeedsTop10 }

func writeSeedWords(rep *lab.Report, data []*leData, kinds []string, seedsOf func(string) int, seedText string, done map[string]*swRun) {
	rep.P("A person who knows what the classes are can type a few words for each instead of labeling documents. Each corpus's seed words "+
		"(`experiment/labelefficiency/seeds/`, ten per class typed from common knowledge of the class, not drawn from the data; "+
		"the 3-word runs take the first three) steer every kind that takes seed words, fitted on every document of the corpus "+
		"(training and test) with one topic per class, named after it; the model predicts the test documents' classes "+
		"(the arg-max of its seeded topics, as `semitopic predict`). The corpora and splits are the label-efficiency benchmark's. "+
		"**Seed count** is the baseline a guided model must beat: each document gets the class whose seed words it holds most of "+
		"(`model.SeedCount`; the commonest class when it holds none, estimated from the corpus without labels, or from the labeled "+
		"documents when there are some). **Linear SVM (seed-labeled documents)** is a linear SVM (tf-idf) trained on the documents the "+
		"seed words label (`model.SeedLabels`: those most of whose seed words are one class's, which TS-NMF and SSNMF learn from when given seed words alone). "+
		"With labels, each kind is fitted on %g%% of the training labels alone and with the seed words "+
		"as well, beside a linear SVM trained on the same labels. Test accuracy %%, mean ± sd over %s seeds (the seed of the fit and "+
		"of the labeled sample). Rows marked *%s readout* are the kind fitted on the seed words alone and read out by a linear SVM on the terms "+
		"beside the topic weights, trained on the documents the seed words label (`semitopic fit --readout %s`).", 100*swFraction, seedText, model.ReadoutTermsTopics, model.ReadoutTermsTopics)
	header := []string{"corpus (majority %)", "method"}
	for _, w := range swCounts {
		header = append(header, fmt.Sprintf("%d seed words", w))
	}
	for _, w := range swCounts {
		header = append(header, fmt.Sprintf("%d seed words + %g%% labels", w, 100*swFraction))
	}
	rep.H2("Test accuracy")
	var rows [][]string
	var verdicts []string
	for _, d := range data {
		seeds := seedsOf(d.name)
		corpusCol := fmt.Sprintf("%s (%.1f)", d.name, d.majority())
		row := func(method string, seedsOnly, withLabels string) []string {
			r := []string{corpusCol, method}
			for _, w := range swCounts {
				m := seedsOnly
				if m == "" {
					r = append(r, "")
					continue
				}
				r = append(r, swCell(done, d.name, w, 0, seeds, m, swAcc))
			}
			for _, w := range swCounts {
				m := withLabels
				if m == "" {
					r = append(r, "")
					continue
				}
				r = append(r, swCell(done, d.name, w, swFraction, seeds, m, swAcc))
			}
			return r
		}
		rows = append(rows, row(swCount, swCount, swCount), row(swSeedSVM, swSeedSVM, ""), row(swSVM, "", swSVM))
		for _, k := range kinds {
			rows = append(rows, row(swSeedsName(k), swSeedsName(k), ""))
			if slices.Contains(swReadoutKinds, k) {
				rows = append(rows, row(swReadoutName(k), swReadoutName(k), ""))
			}
			rows = append(rows, row(swLabelsName(k), "", swLabelsName(k)), row(swBothName(k), "", swBothName(k)))
			for _, w := range swCounts {
				seedsAcc := swMean(done, d.name, w, 0, seeds, swSeedsName(k))
				count := swMean(done, d.name, w, 0, seeds, swCount)
				seedSVM := swMean(done, d.name, w, 0, seeds, swSeedSVM)
				both := swMean(done, d.name, w, swFraction, seeds, swBothName(k))
				lo := swMean(done, d.name, w, swFraction, seeds, swLabelsName(k))
				svm := swMean(done, d.name, w, swFraction, seeds, swSVM)
				var parts []string
				if seedsAcc != nil && count != nil && seedSVM != nil {
					parts = append(parts, fmt.Sprintf("alone %.1f against counting them %.1f (%s) and the linear SVM on the documents they label %.1f (%s)",
						*seedsAcc, *count, beats(*seedsAcc, *count), *seedSVM, beats(*seedsAcc, *seedSVM)))
				}
				if ro := swMean(done, d.name, w, 0, seeds, swReadoutName(k)); ro != nil && count != nil && seedSVM != nil {
					parts = append(parts, fmt.Sprintf("with the %s readout %.1f (%s counting, %s the SVM)",
						model.ReadoutTermsTopics, *ro, verb(*ro, *count), verb(*ro, *seedSVM)))
				}
				if both != nil && lo != nil && svm != nil {
					parts = append(parts, fmt.Sprintf("with %g%% labels %.1f against the labels alone %.1f (%s) and the linear SVM on those labels %.1f (%s)",
						100*swFraction, *both, *lo, beats(*both, *lo), *svm, beats(*both, *svm)))
				}
				if len(parts) > 0 {
					verdicts = append(verdicts, fmt.Sprintf("%s, %s, %d seed words: %s.", d.name, leKindName[k], w, strings.Join(parts, "; ")))
				}
			}
		}
	}
	rep.Table(header, rows)
	swRefusals(rep, done)
	swSummary(rep, data, kinds, seedsOf, done)
	if len(verdicts) > 0 {
		rep.H2("Does it pay off?")
		rep.P("Each line compares means over the seeds; *beats* and *loses to* ignore the spread, which the table gives.")
		for _, v := range verdicts {
			rep.P("- %s", v)
		}
	}
	rep.H2("Seed words in their topic's top 10")
	rep.P("Share %% of seeded topics whose seed words (those in the vocabulary) all rank among the topic's top 10 words, as `semitopic topics` shows them, " +
		"then the share %% of seed words that do.")
	header = []string{"corpus", "kind"}
	for _, w := range swCounts {
		header = append(header, fmt.Sprintf("%d seed words", w), fmt.Sprintf("%d seed words + %g%% labels", w, 100*swFraction))
	}
	rows = nil
	for _, d := range data {
		for _, k := range kinds {
			r := []string{d.name, leKindName[k]}
			for _, w := range swCounts {
				for _, m := range []struct {
					frac   float64
					method string
				}{{0, swSeedsName(k)}, {swFraction, swBothName(k)}} {
					all := swCell(done, d.name, w, m.frac, seedsOf(d.name), m.method, swAll)
					if all == "" || all == "refused" {
						r = append(r, all)
						continue
					}
					r = append(r, all+" / "+swCell(done, d.name, w, m.frac, seedsOf(d.name), m.method, swShare))
				}
			}
			rows = append(rows, r)
		}
	}
	rep.Table(header, rows)
}

// swMean is a method's mean accuracy over the seeds of one setting, nil
// when it has none or the kind refused.
func swMean(done map[string]*swRun, dataset string, words int, frac float64, seeds int, method string) *float64 {
	xs, refused := swValues(done, dataset, words, frac, seeds, method, swAcc)
	if refused || len(xs) == 0 {
		return nil
	}
	v := lab.Mean(xs)
	return &v
}

// verb says how a compares with b: "beats", "loses to" or "ties with".
func verb(a, b float64) string {
	switch {
	case a > b:
		return "beats"
	case a < b:
		return "loses to"
	}
	return "ties with"
}

func beats(a, b float64) string {
	switch {
	case a > b:
		return "beats it"
	case a < b:
		return "loses to it"
	}
	return "ties"
}

// swSummary counts, per kind, the settings (corpus × number of seed
// words) where the kind's mean accuracy beats each comparator.
func swSummary(rep *lab.Report, data []*leData, kinds []string, seedsOf func(string) int, done map[string]*swRun) {
	type cmp struct {
		what       string
		frac       float64
		kind, base func(k string) string
	}
	fixed := func(m string) func(string) string { return func(string) string { return m } }
	cmps := []cmp{
		{"seed words alone beat counting them", 0, swSeedsName, fixed(swCount)},
		{"seed words alone beat the SVM on the documents they label", 0, swSeedsName, fixed(swSeedSVM)},
		{fmt.Sprintf("seed words + %g%% labels beat the labels alone", 100*swFraction), swFraction, swBothName, swLabelsName},
		{fmt.Sprintf("seed words + %g%% labels beat the SVM on the labels", 100*swFraction), swFraction, swBothName, fixed(swSVM)},
	}
	header := []string{"kind"}
	for _, c := range cmps {
		header = append(header, c.what)
	}
	var rows [][]string
	for _, k := range kinds {
		row := []string{leKindName[k]}
		for _, c := range cmps {
			won, of := 0, 0
			for _, d := range data {
				for _, w := range swCounts {
					a := swMean(done, d.name, w, c.frac, seedsOf(d.name), c.kind(k))
					b := swMean(done, d.name, w, c.frac, seedsOf(d.name), c.base(k))
					if a == nil || b == nil {
						continue
					}
					of++
					if *a > *b {
						won++
					}
				}
			}
			cell := "—"
			if of > 0 {
				cell = fmt.Sprintf("%d of %d", won, of)
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	rep.H2("Summary")
	rep.P("Settings (corpus × 3 or 10 seed words) where the kind's mean test accuracy is above the comparator's; — where the kind refuses the supervision.")
	rep.Table(header, rows)
}

// swRefusals lists, once each, the reasons the kinds gave for refusing a
// supervision, so that a "refused" cell is never an unexplained error.
func swRefusals(rep *lab.Report, done map[string]*swRun) {
	seen := map[string]bool{}
	var lines []string
	for _, r := range done {
		for method, m := range r.Methods {
			if m.Refused == "" {
				continue
			}
			line := fmt.Sprintf("%s: %s", method, m.Refused)
			if !seen[line] {
				seen[line] = true
				lines = append(lines, line)
			}
		}
	}
	if len(lines) == 0 {
		return
	}
	slices.Sort(lines)
	rep.P("The refusals, each with the reason the kind gives:")
	for _, l := range lines {
		rep.P("- %s", l)
	}
}
