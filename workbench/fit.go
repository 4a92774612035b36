package workbench

// Every call of the workbench into model's fitting is in this file, so
// that a change of model's front door (model.Fit over a source) or the
// kinds' warm start changes this file alone.

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
)

// fitSpec is what a refit fits: a state on its data, and where it comes
// from.
type fitSpec struct {
	d       *data
	st      *State
	seed    uint64
	maxIter int
	// prev is the round the refit starts from (nil for the first) and
	// lineage maps each topic name of st to the names, in prev, of the
	// topics it comes from: itself when kept, the old name when renamed,
	// both when merged, the split topic for both halves, none for a
	// created topic. A cold fit uses neither; a warm start maps prev's
	// factors through them (see the package's design notes).
	prev    *round
	lineage map[string][]string
}

// origins maps each topic name of the spec's state that comes from topics
// of prev to their indices in prev's model (see lineage): what a warm
// start needs to carry prev's factors over, row by row.
func (f *fitSpec) origins() map[string][]int {
	out := map[string][]int{}
	if f.prev == nil {
		return out
	}
	for name, from := range f.lineage {
		for _, o := range from {
			if t, ok := f.prev.byName[o]; ok {
				out[name] = append(out[name], t)
			}
		}
	}
	return out
}

// options returns the model options of the spec's state: the anchors read
// as the pipeline reads words (model.AnalyzeAnchors, as model.Fit
// reads them) and the labels of the data's rows, as `semitopic fit` with
// the exported files fits them.
func (f *fitSpec) options(labels [][]string) (model.Options, []string, error) {
	o := model.Options{Kind: f.st.Kind, K: f.st.K, Seed: f.seed, MaxIter: f.maxIter}
	o.Labels = labels
	o.Anchors = f.st.Anchors
	var notes []string
	if a := f.d.analyzer(); a != nil {
		var err error
		if o.Anchors, notes, err = model.AnalyzeAnchors(a, f.st.Anchors); err != nil {
			return o, nil, err
		}
	}
	if holdsSeeds(o.Kind) && slices.ContainsFunc(o.Anchors, func(a model.Anchor) bool { return len(a.Words) > 0 }) {
		o.SeedRank = SeedRank
	}
	if len(labels) > 0 && takesOption(o.Kind, "hold-labels") {
		o.HoldLabels = true
	}
	return o, notes, nil
}

// SeedRank is the rank within which the workbench holds every seed word
// in its topic, in the kinds that can (the fit option seed-rank): a seed
// word a person adds is among the topic's top 10 words the page shows.
const SeedRank = 10

// holdsSeeds reports whether the kind can hold seed words among its
// topics' top words (it declares the option seed-rank).
func holdsSeeds(kind string) bool { return takesOption(kind, "seed-rank") }

// takesOption reports whether the kind declares the fit option name.
func takesOption(kind, name string) bool {
	ps, err := model.ParamsOf(kind)
	return err == nil && slices.ContainsFunc(ps, func(p model.Param) bool { return p.Name == name })
}

// rowLabels returns the labels of d's rows under st (nil when none is
// labeled).
func rowLabels(d *data, st *State, ids []string) [][]string {
	if len(st.Labels) == 0 {
		return nil
	}
	out := make([][]string, len(d.rows))
	labeled := false
	for r, i := range d.rows {
		if l := st.Labels[ids[i]]; len(l) > 0 {
			out[r] = l
			labeled = true
		}
	}
	if !labeled {
		return nil
	}
	return out
}

// fitCold fits the spec from scratch, as `semitopic fit` does: the same
// matrix, options and supervision give the same model bit for bit.
func fitCold(ctx context.Context, f *fitSpec, ids []string, report progress.Func) (*model.Fitted, error) {
	return fit(ctx, f, ids, report, nil)
}

// fit fits the spec, started from warm when it is set.
func fit(ctx context.Context, f *fitSpec, ids []string, report progress.Func, warm *model.WarmStart) (*model.Fitted, error) {
	o, notes, err := f.options(rowLabels(f.d, f.st, ids))
	if err != nil {
		return nil, err
	}
	o.Progress, o.Warm = report, warm
	fitted, err := model.Fit(ctx, model.Matrix(f.d.x, f.d.vocab), o)
	if err != nil {
		return nil, err
	}
	fitted.Info.Notes = append(notes, fitted.Info.Notes...)
	fitted.Info.Dropped = len(f.d.dropped)
	fitted.Vectorizer, fitted.Dropped = f.d.vec, f.d.dropped
	return fitted, nil
}

// refitModel is the one entry of a refit: it starts from f.prev's model
// (model.WarmStart) — topics kept or renamed keep their state, merged
// topics add theirs, split topics share theirs, created topics start
// from their seed words, deleted ones are dropped (f.origins()), each
// document starts from its topic weights in f.prev (the round's, which
// its views read) — and fits cold (fitCold) for the first round, after a
// change of kind, and where the kind cannot start warm (model.Fit fits
// it cold and says so). It reports whether the model is a cold fit:
// Export gives `semitopic fit`'s model, which is always one.
func refitModel(ctx context.Context, f *fitSpec, ids []string, report progress.Func) (_ *model.Fitted, cold bool, _ error) {
	prev := f.prev
	if prev == nil || prev.fitted == nil || prev.fitted.Model.Kind() != f.st.Kind {
		m, err := fitCold(ctx, f, ids, report)
		return m, true, err
	}
	rows := make([]int, len(f.d.rows))
	for r, i := range f.d.rows {
		rows[r] = prev.d.rowOf[i]
	}
	m, err := fit(ctx, f, ids, report, &model.WarmStart{From: prev.fitted, Topics: f.origins(), Rows: rows, DocTopics: prev.w})
	if err != nil {
		return nil, false, err
	}
	return m, !m.Info.Warm, nil
}

// crossValidate estimates the accuracy of the spec's model on documents
// it is not told the labels of: the labeled rows are split into
// AccuracyFolds folds stratified by their first label
// (model.StratifiedFolds, as fit --auto splits them); each fold's
// documents are left out of a fit of the others, which then predicts
// them. A held-out document counts as right when every label predicted for
// it is one of its labels (model.Prediction.Accuracy). Documents whose
// labels no training fold has are not scored.
func crossValidate(ctx context.Context, f *fitSpec, ids []string) Accuracy {
	labels := rowLabels(f.d, f.st, ids)
	if labels == nil {
		return Accuracy{State: AccuracyNone, Note: "no labeled documents"}
	}
	// Each labeled row's class is its first label's index among the
	// sorted labels, as fit --auto stratifies.
	index := map[string]int{}
	for _, ls := range labels {
		for _, l := range ls {
			index[l] = 0
		}
	}
	names := make([]string, 0, len(index))
	for l := range index {
		names = append(names, l)
	}
	slices.Sort(names)
	for k, l := range names {
		index[l] = k
	}
	first := make([]int, len(labels))
	labeled := 0
	for r, ls := range labels {
		first[r] = -1
		if len(ls) > 0 {
			labeled++
			first[r] = index[ls[0]]
		}
	}
	tooFew := Accuracy{State: AccuracyTooFew, Note: fmt.Sprintf("%d labeled documents of %d labels: too few to hold some out (each fold needs labels that other folds have)", labeled, len(index))}
	if labeled < 2*AccuracyFolds || len(index) < 2 {
		return tooFew
	}
	assign, err := model.StratifiedFolds(first, AccuracyFolds, f.seed)
	if err != nil {
		return tooFew
	}
	var accs []float64
	scored := 0
	for k := 0; k < AccuracyFolds; k++ {
		var keep, test []int
		seen := map[string]bool{}
		for r := range labels {
			if assign[r] == k && len(labels[r]) > 0 {
				continue
			}
			keep = append(keep, r)
			for _, l := range labels[r] {
				seen[l] = true
			}
		}
		for r := range labels {
			if assign[r] != k || len(labels[r]) == 0 {
				continue
			}
			for _, l := range labels[r] {
				if seen[l] {
					test = append(test, r)
					break
				}
			}
		}
		if len(test) == 0 {
			continue
		}
		sub := &data{x: f.d.x.SelectRows(keep), vocab: f.d.vocab, vec: f.d.vec}
		fold := *f
		fold.d = sub
		o, _, err := fold.options(nil)
		if err != nil {
			return Accuracy{State: AccuracyFailed, Note: err.Error()}
		}
		o.Labels = make([][]string, len(keep))
		for j, r := range keep {
			o.Labels[j] = labels[r]
		}
		fitted, err := model.Fit(ctx, model.Matrix(sub.x, sub.vocab), o)
		if err != nil {
			if ctx.Err() != nil {
				return Accuracy{State: AccuracyStopped, Note: "a newer refit came first"}
			}
			return Accuracy{State: AccuracyFailed, Note: fmt.Sprintf("fold %d: %v", k+1, err)}
		}
		m := fitted.Model
		p, ok := model.AsPredictor(m)
		if !ok {
			return Accuracy{State: AccuracyNone, Note: fmt.Sprintf("a %s model predicts no labels", m.Kind())}
		}
		pred, err := p.Predict(ctx, f.d.x.SelectRows(test))
		if err != nil {
			if ctx.Err() != nil {
				return Accuracy{State: AccuracyStopped, Note: "a newer refit came first"}
			}
			return Accuracy{State: AccuracyFailed, Note: fmt.Sprintf("fold %d: %v", k+1, err)}
		}
		truth := make([][]string, len(test))
		for j, r := range test {
			truth[j] = labels[r]
		}
		right, n, _, err := pred.Accuracy(truth)
		if err != nil {
			return Accuracy{State: AccuracyFailed, Note: err.Error()}
		}
		accs = append(accs, 100*float64(right)/float64(n))
		scored += n
	}
	if len(accs) == 0 {
		return tooFew
	}
	mean, sd := meanSD(accs)
	return Accuracy{State: AccuracyDone, Mean: mean, SD: sd, Folds: len(accs), Scored: scored,
		Note: fmt.Sprintf("cross-validated estimate: %d-fold over the %d labeled documents, each fold's documents predicted by a fit without them (%d scored)", AccuracyFolds, labeled, scored)}
}

// meanSD returns the mean and the sample standard deviation of xs.
func meanSD(xs []float64) (float64, float64) {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	mean := s / float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	v := 0.0
	for _, x := range xs {
		v += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(v / float64(len(xs)-1))
}
