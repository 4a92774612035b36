package model

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/vectorize"
)

func TestStratifiedFolds(t *testing.T) {
	class := []int{0, 0, 0, 0, 1, 1, 1, -1, 2, 2, 2, 2, 2, 0, 1, -1}
	f1, err := StratifiedFolds(class, 3, 7)
	if err != nil {
		t.Fatal(err)
	}
	f2, _ := StratifiedFolds(class, 3, 7)
	if !reflect.DeepEqual(f1, f2) {
		t.Error("not deterministic for a seed")
	}
	f3, _ := StratifiedFolds(class, 3, 8)
	if reflect.DeepEqual(f1, f3) {
		t.Error("the seed changes nothing")
	}
	size := make([]int, 3)
	perClass := map[int][]int{}
	for i, f := range f1 {
		if class[i] < 0 {
			if f != -1 {
				t.Errorf("unlabeled item %d in fold %d", i, f)
			}
			continue
		}
		size[f]++
		if perClass[class[i]] == nil {
			perClass[class[i]] = make([]int, 3)
		}
		perClass[class[i]][f]++
	}
	for f := 1; f < 3; f++ {
		if d := size[f] - size[0]; d > 1 || d < -1 {
			t.Errorf("fold sizes %v", size)
		}
	}
	for c, counts := range perClass {
		lo, hi := counts[0], counts[0]
		for _, v := range counts {
			lo, hi = min(lo, v), max(hi, v)
		}
		if hi-lo > 1 {
			t.Errorf("class %d spread %v over the folds", c, counts)
		}
	}
	if _, err := StratifiedFolds([]int{0, -1, 1}, 3, 1); err == nil {
		t.Error("2 labeled items in 3 folds: no error")
	}
	if _, err := StratifiedFolds(class, 1, 1); err == nil {
		t.Error("1 fold: no error")
	}
}

// The automatic configuration searches over the labeled documents only,
// is deterministic for a seed, stays within its budget of fits, and the
// model it returns saves and loads with its readout.
func TestAutoFit(t *testing.T) {
	c := demoCorpus(t)
	for _, kind := range []string{KindTSNMF, KindSSNMF, KindTheme, KindCorEx} {
		o := Options{Kind: kind, Seed: 3, Auto: true}
		f1 := fitDemo(t, o, true)
		f2 := fitDemo(t, o, true)
		s := f1.Info.Search
		if s == nil || len(s.Candidates) == 0 {
			t.Fatalf("%s: no search", kind)
		}
		if !reflect.DeepEqual(s.Candidates, f2.Info.Search.Candidates) || s.Chosen != f2.Info.Search.Chosen {
			t.Errorf("%s: the search is not deterministic", kind)
		}
		// 3 candidates × AutoFolds, the learning curve's AutoFolds and the
		// final fit.
		if budget := 4*AutoFolds + 1; s.Fits > budget {
			t.Errorf("%s: %d fits, over the budget of %d", kind, s.Fits, budget)
		}
		if lc := s.Curve; lc == nil || lc.Scored != (AutoFolds-1)*s.Scored || s.Estimate == nil || s.Estimate.Gain < 0 || (lc.Fits != 0 && lc.Fits != AutoFolds) || (lc.Fits == 0 && s.Estimate.Gain != 0) {
			t.Errorf("%s: learning curve %+v, estimate %+v", kind, s.Curve, s.Estimate)
		}
		t.Logf("%s: learning curve %+v, estimate %+v", kind, *s.Curve, *s.Estimate)
		if s.Labeled == 0 || s.SVM.Accuracy <= 0 || len(s.SVM.Folds) != AutoFolds {
			t.Errorf("%s: search %+v", kind, s)
		}
		chosen := s.ChosenCandidate()
		if got := ReadoutOf(f1.Model); got != chosen.Options.Readout {
			t.Errorf("%s: model readout %s, chosen %s", kind, got, chosen.Options.Readout)
		}
		t.Logf("%s: chose %s (%.1f ± %.1f), SVM %.1f", kind, chosen.Settings(), chosen.Accuracy, chosen.SD, s.SVM.Accuracy)
		var buf bytes.Buffer
		if err := Save(&buf, f1); err != nil {
			t.Fatal(err)
		}
		g, err := Load(&buf)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		res, _ := f1.Vectorize(context.Background(), c.Docs[:50])
		p1, err := f1.Model.(Predictor).Predict(context.Background(), res.X)
		if err != nil {
			t.Fatal(err)
		}
		p2, err := g.Model.(Predictor).Predict(context.Background(), res.X)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(p1.Scores, p2.Scores) || !reflect.DeepEqual(p1.Labels, p2.Labels) || ReadoutOf(g.Model) != ReadoutOf(f1.Model) {
			t.Errorf("%s: predictions differ after save and load", kind)
		}
	}
}

// Every readout can be asked for explicitly, saves and loads.
func TestReadouts(t *testing.T) {
	c := demoCorpus(t)
	for _, ro := range []string{ReadoutTopics, ReadoutTermsTopics} {
		for _, kind := range []string{KindTSNMF, KindSSNMF, KindTheme, KindCorEx} {
			f := fitDemo(t, Options{Kind: kind, Seed: 1, Readout: ro}, true)
			if ReadoutOf(f.Model) != ro {
				t.Errorf("%s %s: readout %s", kind, ro, ReadoutOf(f.Model))
			}
			var buf bytes.Buffer
			if err := Save(&buf, f); err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(buf.Bytes(), []byte(fmt.Sprintf("semitopic-model v%d\n", FormatVersion))) {
				t.Errorf("%s %s: a readout model is not format %d", kind, ro, FormatVersion)
			}
			g, err := Load(&buf)
			if err != nil {
				t.Fatalf("%s %s: %v", kind, ro, err)
			}
			res, _ := f.Vectorize(context.Background(), c.Docs[:30])
			p1, _ := f.Model.(Predictor).Predict(context.Background(), res.X)
			p2, _ := g.Model.(Predictor).Predict(context.Background(), res.X)
			if !mat.Equal(p1.Scores, p2.Scores) {
				t.Errorf("%s %s: scores differ after load", kind, ro)
			}
		}
	}
	x, _ := corpusMatrix([]string{"a", "b", "c"}, [][]float64{{1, 0, 2}, {0, 1, 1}, {2, 1, 0}, {1, 1, 1}})
	labels := [][]string{{"p"}, {"q"}, nil, nil}
	for _, tc := range []struct {
		o    Options
		want string
	}{
		{Options{Kind: KindTSNMF, Readout: "magic"}, "unknown readout"},
		{Options{Kind: KindNMF, K: 2, Readout: ReadoutTopics}, "readout"},
	} {
		sup := Supervision{Labels: labels}
		if tc.o.Kind == KindNMF {
			sup = Supervision{}
		}
		o := tc.o
		o.Supervision = sup
		if _, _, err := fitMatrix(context.Background(), x, []string{"a", "b", "c"}, o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: err = %v", tc.o, err)
		}
	}
}

// A held-out document whose label no training fold has is scored as a
// miss (no method can predict it), so that every label with a labeled
// document counts; with a single labeled document per label the search
// falls back to the defaults and says why.
func TestMakeFoldsSingletons(t *testing.T) {
	idx := [][]int{{0}, {0}, {0}, {1}, nil, {2}, {2}, {0}, {2}}
	assign := []int{0, 1, 2, 0, -1, 1, 2, 0, 0}
	folds := makeFolds(idx, assign, 3)
	scored := map[int]bool{}
	for _, f := range folds {
		for _, i := range f.test {
			scored[i] = true
		}
		for _, i := range f.train {
			if assign[i] == assign[f.test[0]] {
				t.Errorf("document %d trains and tests in one fold", i)
			}
		}
	}
	unseen := 0
	for _, f := range folds {
		unseen += f.unseen
	}
	if !scored[3] || scored[4] || len(scored) != 8 || unseen != 1 {
		t.Errorf("scored %v, %d unseen: want every labeled document, 3 (its label's only one) unseen", scored, unseen)
	}
	// One labeled document per label: nothing can be held out.
	c := demoCorpus(t)
	seen := map[string]bool{}
	sup := Supervision{Labels: make([][]string, len(c.Docs))}
	for i, d := range c.Docs {
		if d.Labeled() && !seen[d.Labels[0]] {
			seen[d.Labels[0]] = true
			sup.Labels[i] = d.Labels[:1]
		}
	}
	// TS-NMF keeps its native readout, whose topics are the labels; the
	// other kinds are read out through their topics, the readout trained
	// on the labels, since nothing can check the native one.
	for kind, want := range map[string]string{KindTSNMF: ReadoutNative, KindTheme: ReadoutTopics, KindSSNMF: ReadoutTopics, KindAuto: ReadoutNative} {
		f, err := fitCorpus(context.Background(), &corpus.Corpus{Docs: c.Docs}, vectorize.DefaultPipeline(), Options{Kind: kind, Auto: true, Supervision: sup})
		if err != nil {
			t.Fatal(err)
		}
		if s := f.Info.Search; s == nil || s.Note == "" || len(s.Candidates) != 1 {
			t.Errorf("%s: search %+v: want the defaults with a note", kind, s)
		}
		if got := ReadoutOf(f.Model); got != want {
			t.Errorf("%s: readout %s, want %s", kind, got, want)
		}
	}
}

// TestAutoNotesDroppedLabels checks that fit says when the pipeline's
// document filters dropped labeled documents, whose absence the
// cross-validated estimate cannot see.
func TestAutoNotesDroppedLabels(t *testing.T) {
	c := demoCorpus(t)
	pl := vectorize.DefaultPipeline()
	for _, withFilter := range []bool{false, true} {
		p := pl
		if withFilter {
			p.Vectorize.MinTokens = 40
		}
		f, err := fitCorpus(context.Background(), c, p, Options{Kind: KindTSNMF, Seed: 1, Auto: true, MaxIter: 20, LabelsFromCorpus: true})
		if err != nil {
			t.Fatal(err)
		}
		var note string
		for _, n := range f.Info.Notes {
			if strings.Contains(n, "dropped") && strings.Contains(n, "labeled documents") {
				note = n
			}
		}
		lost := 0
		for _, d := range f.Dropped {
			if len(c.Docs[d.Index].Labels) > 0 {
				lost++
			}
		}
		switch {
		case withFilter && lost == 0:
			t.Fatal("the filter dropped no labeled document: the test needs a stricter one")
		case withFilter && !strings.Contains(note, fmt.Sprintf("dropped %d labeled documents", lost)):
			t.Errorf("no note on the %d dropped labeled documents: %q", lost, f.Info.Notes)
		case !withFilter && note != "":
			t.Errorf("a note without a filter: %q", note)
		}
	}
}

// The rule keeps the fewest topics among the candidates within one
// standard error of the best (at least MinGain points), the best of
// those; a larger model must be clearly better.
func TestChooseCandidate(t *testing.T) {
	est := func(folds ...float64) Estimate { return newEstimate(folds) }
	for _, tc := range []struct {
		name         string
		cands        []Candidate
		chosen, best int
	}{
		{"0.1 point for twice the topics", []Candidate{
			{Topics: 90, Estimate: est(93.5, 93.7, 93.9)},
			{Topics: 180, Estimate: est(93.6, 93.8, 94.0)},
		}, 0, 1},
		{"clearly better", []Candidate{
			{Topics: 90, Estimate: est(80, 81, 82)},
			{Topics: 180, Estimate: est(90, 91, 92)},
		}, 1, 1},
		{"within a wide standard error", []Candidate{
			{Topics: 6, Estimate: est(70, 80, 90)},
			{Topics: 12, Estimate: est(75, 85, 95)},
		}, 0, 1},
		{"same size: the best", []Candidate{
			{Topics: 3, Estimate: est(90, 90, 90)},
			{Topics: 3, Estimate: est(90.5, 90.5, 90.5)},
			{Topics: 6, Estimate: est(91, 91, 91)},
		}, 1, 2},
		{"ties: the earliest", []Candidate{
			{Topics: 3, Estimate: est(90, 90, 90)},
			{Topics: 3, Estimate: est(90, 90, 90)},
		}, 0, 0},
	} {
		chosen, best, tol := ChooseCandidate(tc.cands)
		if chosen != tc.chosen || best != tc.best || tol < MinGain {
			t.Errorf("%s: chose %d (best %d, tolerance %g), want %d (best %d)", tc.name, chosen, best, tol, tc.chosen, tc.best)
		}
	}
	s := &Search{Candidates: []Candidate{
		{Options: Options{Kind: KindTSNMF}, Topics: 90, Estimate: est(93.5, 93.7, 93.9)},
		{Options: Options{Kind: KindTSNMF, K: 180}, Topics: 180, Estimate: est(93.6, 93.8, 94.0)},
	}}
	s.choose("")
	if s.Chosen != 0 || s.Best != 1 || !strings.Contains(s.Rule, "one-standard-error") || !strings.Contains(s.Rule, "k 180") {
		t.Errorf("search chose %d (best %d): %q", s.Chosen, s.Best, s.Rule)
	}
}

// TS-NMF's free topics are allowed in the unlabeled documents only, and
// its inverse weighting weighs a labeled document n/labeled: with every
// document labeled the search tries neither the free topics nor a second
// weighting, whose final fit would be the same model.
func TestAutoGridFreeTopics(t *testing.T) {
	for _, share := range []float64{0.5, 1} {
		grid := autoGrid(Options{Kind: KindTSNMF}, 4, 100, share)
		more := false
		for _, o := range grid {
			more = more || o.K > 0
		}
		if more != (share < 1) || (share == 1) != (len(grid) == 1) {
			t.Errorf("labeled share %g: grid %+v", share, grid)
		}
	}
}

// An estimate that was not measured is written to JSON without an
// accuracy, so that no reader takes 0 for a score; a measured one keeps
// its fields, and both read back.
func TestEstimateJSON(t *testing.T) {
	c := Candidate{Options: Options{Kind: KindSSNMF, Readout: ReadoutTopics}}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); strings.Contains(got, "accuracy") || !strings.Contains(got, `"scored":false`) || !strings.Contains(got, `"readout":"topics"`) {
		t.Errorf("unscored candidate: %s", got)
	}
	c.Topics, c.Estimate = 7, newEstimate([]float64{80, 90, 100})
	if b, err = json.Marshal(c); err != nil {
		t.Fatal(err)
	}
	var back Candidate
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, c) || strings.Contains(string(b), "scored") {
		t.Errorf("scored candidate %s read back as %+v", b, back)
	}
}

// --kind auto with every label held by one document: nothing is scored,
// the kinds are not all fitted for nothing, and no accuracy is reported.
func TestFitBestKindNothingScored(t *testing.T) {
	c := demoCorpus(t)
	seen := map[string]bool{}
	docs := make([]corpus.Document, len(c.Docs))
	copy(docs, c.Docs)
	for i := range docs {
		l := docs[i].Labels
		docs[i].Labels = nil
		if len(l) > 0 && !seen[l[0]] {
			seen[l[0]] = true
			docs[i].Labels = l[:1]
		}
	}
	f, err := Fit(t.Context(), Text(&corpus.Corpus{Docs: docs}, nil), Options{Kind: KindAuto, Auto: true, LabelsFromCorpus: true, MaxIter: 20})
	if err != nil {
		t.Fatal(err)
	}
	s := f.Info.Search
	if s == nil || s.Note == "" || len(s.Kinds) != 0 || s.Fits != 1 || s.ChosenCandidate().Scored() || s.SVM.Scored() {
		t.Fatalf("search %+v: want one unscored fit with a note", s)
	}
	if !strings.Contains(s.Note, "not chosen by accuracy") || f.Model.Kind() != KindTSNMF {
		t.Errorf("%s model, note %q", f.Model.Kind(), s.Note)
	}
	if BestSearch([]*Search{s}) != -1 {
		t.Error("BestSearch chose a search that scored nothing")
	}
}
