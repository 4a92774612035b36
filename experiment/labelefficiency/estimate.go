package labelefficiency

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/model"
)

// EstimateExperiment measures the accuracy estimate fit prints for a
// configuration chosen by cross-validation (model.Search.Estimate) against
// the accuracy on the test documents, on the label-efficiency corpora.
func EstimateExperiment() lab.Experiment {
	return lab.Experiment{
		Name: "accuracy-estimate",
		Description: "how far the accuracy fit estimates for its automatic configuration (each label's recall along its learning curve, weighted by the labels' estimated shares of the corpus, less the selection bias, with a 95% interval) " +
			"is from the test accuracy, and the same for the linear SVM's estimate, on 20 Newsgroups, BBC, Brown and Reuters with 1, 3 and 10% of the labels",
		Run:     runEstimate,
		Subsets: true,
	}
}

const esProtocol = "accuracy-estimate v3 (fold predictions recorded): tsnmf --auto and a linear SVM; fractions 1,3,10%; per class max(1, round(f·n)) labeled; fit on every document"

// esRun is one corpus, fraction and seed: the estimates and the test
// accuracies.
type esRun struct {
	Dataset  string  `json:"dataset"`
	Fraction float64 `json:"fraction"`
	Seed     int     `json:"seed"`
	Labeled  int     `json:"labeled"`
	// Scored is false when the labels were too few to hold any out.
	Scored bool `json:"scored"`
	// CV is the chosen configuration's cross-validated mean, Est its
	// estimate (model.Search.Estimate), Test its test accuracy.
	CV   float64                 `json:"cv"`
	Est  *model.EstimateInterval `json:"estimate,omitempty"`
	Test float64                 `json:"test"`
	// SVMEst is the linear SVM's estimate on the same folds, SVMTest a
	// linear SVM trained on the labeled documents, on the test documents.
	SVMEst  *model.EstimateInterval `json:"svm_estimate,omitempty"`
	SVMTest float64                 `json:"svm_test"`
	Chosen  string                  `json:"chosen"`
	Seconds float64                 `json:"seconds"`
	// Record is what the estimates rest on, kept so that an estimator
	// can be scored again without fitting.
	Record *esRecord `json:"record,omitempty"`
}

// esRecord is one run's predictions: the folds' (model.Predictions) and,
// per label of Folds.Labels, the test documents of that class (Test),
// how many of them the kept model and the SVM trained on the labeled
// documents got right (Hits, SVMHits), and how many test documents each
// predicted as it (Pred, SVMPred): the final models' per-label recall and
// predicted shares, beside the classes' true shares.
type esRecord struct {
	Folds   *model.Predictions `json:"folds"`
	Test    []int              `json:"test"`
	Hits    []int              `json:"hits"`
	Pred    []int              `json:"pred"`
	SVMHits []int              `json:"svm_hits"`
	SVMPred []int              `json:"svm_pred"`
}

// newRecord tallies the final models' test predictions (class indices of
// d, -1 for none) by the labels of p.
func (d *leData) newRecord(p *model.Predictions, pred, svm []int) *esRecord {
	pos := map[string]int{}
	for j, n := range p.Labels {
		pos[n] = j
	}
	label := func(c int) int {
		if c < 0 {
			return -1
		}
		if j, ok := pos[d.classes[c]]; ok {
			return j
		}
		return -1
	}
	n := len(p.Labels)
	r := &esRecord{Folds: p, Test: make([]int, n), Hits: make([]int, n), Pred: make([]int, n), SVMHits: make([]int, n), SVMPred: make([]int, n)}
	for j, i := range d.test {
		t := label(d.class[i])
		if t >= 0 {
			r.Test[t]++
		}
		for _, m := range []struct {
			pred       []int
			hits, seen []int
		}{{pred, r.Hits, r.Pred}, {svm, r.SVMHits, r.SVMPred}} {
			q := label(m.pred[j])
			if q >= 0 {
				m.seen[q]++
				if q == t {
					m.hits[q]++
				}
			}
		}
	}
	return r
}

type esResults struct {
	Protocol string   `json:"protocol"`
	Runs     []*esRun `json:"runs"`
}

func runEstimate(ctx context.Context, env *lab.Env) error {
	// reuters-all, Reuters' single-category documents in every category
	// (many classes, most of them small), runs only when named.
	standard := []string{"bbc", "brown", "reuters", "20ng"}
	datasets, err := env.Only(append(standard, "reuters-all"))
	if err != nil {
		return err
	}
	if len(env.Datasets) == 0 {
		datasets = standard
	}
	fracs := []float64{0.01, 0.03, 0.1}
	seedsOf := func(dataset string) int {
		if env.Seeds > 0 {
			return env.Seeds
		}
		if dataset == "20ng" {
			return 2
		}
		return 3
	}
	seedText := "3 (20ng: 2)"
	if env.Seeds > 0 {
		seedText = strconv.Itoa(env.Seeds)
	}
	name := "accuracy-estimate"
	if env.Quick {
		datasets, fracs, seedText, name = []string{"bbc"}, []float64{0.03}, "1", "accuracy-estimate-quick"
		seedsOf = func(string) int { return 1 }
	}
	protocol := fmt.Sprintf("%s; seeds %s", esProtocol, seedText)
	if env.Quick {
		protocol += "; " + leQuickNote
	}
	rep := lab.NewReport(env, name, "Can a user trust the accuracy fit estimates?")
	rawPath := filepath.Join(env.Out, name+".json")
	results := &esResults{Protocol: protocol}
	if old := resume(env, rawPath, protocol, func(r *esResults) string { return r.Protocol }, func(r *esResults) int { return len(r.Runs) }); old != nil {
		results = old
	}
	key := func(d string, f float64, s int) string { return fmt.Sprintf("%s %g %d", d, f, s) }
	done := map[string]bool{}
	for _, r := range results.Runs {
		done[key(r.Dataset, r.Fraction, r.Seed)] = true
	}
	for _, ds := range datasets {
		if env.ReportOnly {
			break
		}
		var d *leData
		for _, f := range fracs {
			for s := range seedsOf(ds) {
				if done[key(ds, f, s)] {
					continue
				}
				if d == nil {
					var err error
					if d, err = loadLE(ctx, env, ds); err != nil {
						return err
					}
				}
				r, err := d.estimateRun(ctx, f, s)
				if err != nil {
					return err
				}
				results.Runs = append(results.Runs, r)
				if err := rep.JSON(name+".json", results); err != nil {
					return err
				}
				est := "not scored"
				if r.Est != nil {
					est = fmt.Sprintf("%.1f [%.1f, %.1f]", r.Est.Accuracy, r.Est.Low, r.Est.High)
				}
				env.Logf("%s %g%% seed %d: %d labeled, estimate %s, test %.1f; SVM test %.1f (%.0fs)", ds, 100*f, s, r.Labeled, est, r.Test, r.SVMTest, r.Seconds)
			}
		}
	}
	esReport(rep, results, datasets, fracs)
	if err := rep.JSON(name+".json", results); err != nil {
		return err
	}
	if env.ReportOnly {
		rep.SetCommand(env.ExperimentCommand(name))
	}
	total := 0.0
	for _, r := range results.Runs {
		total += r.Seconds
	}
	runsNote(rep, name, len(results.Runs), total)
	return rep.Finish()
}

// estimateRun fits tsnmf with its automatic configuration and a linear
// SVM on one fraction and seed of the labels.
func (d *leData) estimateRun(ctx context.Context, frac float64, seed int) (*esRun, error) {
	t0 := time.Now()
	labeled := d.sample(frac, uint64(seed))
	r, s, err := d.fitKind(ctx, model.KindTSNMF, labeled, uint64(seed), true)
	if err != nil {
		return nil, fmt.Errorf("%s %g%% seed %d, tsnmf: %w", d.name, 100*frac, seed, err)
	}
	def, err := d.vectorized(ctx, "default")
	if err != nil {
		return nil, err
	}
	svm, err := d.baseline(ctx, &classify.LinearSVC{Seed: uint64(seed)}, def.x, labeled)
	if err != nil {
		return nil, fmt.Errorf("%s %g%% seed %d, SVM: %w", d.name, 100*frac, seed, err)
	}
	run := &esRun{Dataset: d.name, Fraction: frac, Seed: seed, Labeled: len(labeled), Test: r.Accuracy, SVMTest: svm.Accuracy, Chosen: r.Chosen}
	if s != nil && s.Estimate != nil {
		run.Scored, run.CV, run.Est, run.SVMEst = true, s.ChosenCandidate().Accuracy, s.Estimate, s.SVMEstimate
		if s.Predictions != nil {
			run.Record = d.newRecord(s.Predictions, r.pred, svm.pred)
		}
	}
	run.Seconds = time.Since(t0).Seconds()
	return run, nil
}

// rescore estimates r's accuracies again from its recorded predictions
// with the estimator of this code (model.Predictions.Estimate), the
// kept model's predictions for the test documents (a random part of the
// documents without labels it was fitted on) standing for the labels'
// shares of the corpus, so that a change to the estimator is measured
// without fitting again. The selection bias is the recorded one: it
// depends on the candidates, whose predictions are not kept.
func (r *esRun) rescore() {
	if r.Record == nil || r.Record.Folds == nil || r.Est == nil {
		return
	}
	p := *r.Record.Folds
	p.Shares = r.Record.Pred
	r.Est = p.Estimate(model.EstimateModel, r.Est.Bias)
	r.SVMEst = p.Estimate(model.EstimateSVM, 0)
}

// esReport writes the tables: per corpus and fraction, how often the
// interval covers the test accuracy, how often the estimate is within 5
// points of it, and the mean errors, for tsnmf and for the SVM.
func esReport(rep *lab.Report, res *esResults, datasets []string, fracs []float64) {
	for _, r := range res.Runs {
		r.rescore()
	}
	rep.P("For each corpus, share of the training labels and seed, the labeled documents are drawn as in the label-efficiency benchmark (per class max(1, round(f·n))); `fit --kind tsnmf` with its automatic configuration (`--auto`, the default with labels) chooses its settings by 3-fold cross-validation and prints an estimate of the kept model's accuracy (model.Predictions.Estimate): each label's recall on its held-out documents, carried along a learning curve a_c − b·m^(−1/2) in the m labeled documents of the label a model learns from (b shared by the labels and fitted within them, from the folds, whose models learn from two thirds of the labeled documents, and the folds turned round, whose models learn from one third) to all of its labeled documents; a label none of whose held-out documents could be scored (its only labeled document held out) gets the labels' recall at one document. The recalls are weighted by the labels' shares of the corpus as the kept model predicts them for the documents without labels (here: the test documents, a random part of those), and the selection bias of choosing the candidate among the others on the same folds (Tibshirani and Tibshirani 2009) is taken off. The 95%% interval is the Wilson interval of a share measured on as many documents as the labels' recalls are worth (each label's binomial variance on its held-out documents, with one hit and one miss added), widened by half the two corrections (curve and shares) as their standard error. The estimate is compared with the model's accuracy on the corpus's test documents. The same is done for the linear SVM's estimate on the same folds (no selection, so no bias is taken off), against a linear SVM trained on the labeled documents. Each run's fold predictions are kept in the raw results, and the estimates are computed from them when the report is written, so that a change to the estimator is measured with `--report-only`, without fitting again. Goals of the issue: the interval covers the test accuracy in at least 90%% of fits, the point estimate is within ±5 points in at least 80%%. Protocol: %s.", res.Protocol)
	var rows [][]string
	type tally struct{ n, cover, within, rawWithin, mixWithin, svmCover, svmWithin int }
	var all tally
	var errSum, rawSum, mixSum, hwSum, svmErrSum float64
	for _, ds := range datasets {
		for _, f := range fracs {
			var t tally
			var es, rs, ms, hw, ses []float64
			labeled := 0
			for _, r := range res.Runs {
				if r.Dataset != ds || r.Fraction != f || !r.Scored {
					continue
				}
				t.n++
				labeled = r.Labeled
				e := r.Est.Accuracy - r.Test
				mix := r.Est.Accuracy - r.Est.Shift - r.Test
				es, rs, ms, hw = append(es, e), append(rs, r.CV-r.Test), append(ms, mix), append(hw, r.Est.HalfWidth())
				if math.Abs(mix) <= 5 {
					t.mixWithin++
				}
				if r.Test >= r.Est.Low && r.Test <= r.Est.High {
					t.cover++
				}
				if math.Abs(e) <= 5 {
					t.within++
				}
				if math.Abs(r.CV-r.Test) <= 5 {
					t.rawWithin++
				}
				if r.SVMEst != nil {
					se := r.SVMEst.Accuracy - r.SVMTest
					ses = append(ses, se)
					if r.SVMTest >= r.SVMEst.Low && r.SVMTest <= r.SVMEst.High {
						t.svmCover++
					}
					if math.Abs(se) <= 5 {
						t.svmWithin++
					}
				}
			}
			if t.n == 0 {
				continue
			}
			all.n += t.n
			all.cover += t.cover
			all.within += t.within
			all.rawWithin += t.rawWithin
			all.mixWithin += t.mixWithin
			all.svmCover += t.svmCover
			all.svmWithin += t.svmWithin
			for k := range es {
				errSum += es[k]
				rawSum += rs[k]
				mixSum += ms[k]
				hwSum += hw[k]
			}
			for _, v := range ses {
				svmErrSum += v
			}
			rows = append(rows, []string{ds, fmt.Sprintf("%g%%", 100*f), strconv.Itoa(labeled), strconv.Itoa(t.n),
				lab.OfN(t.cover, t.n), lab.OfN(t.within, t.n), fmt.Sprintf("%+.1f", lab.Mean(es)), fmt.Sprintf("%+.1f", lab.Mean(ms)), fmt.Sprintf("%+.1f", lab.Mean(rs)), fmt.Sprintf("±%.1f", lab.Mean(hw)),
				lab.OfN(t.svmCover, t.n), lab.OfN(t.svmWithin, t.n), fmt.Sprintf("%+.1f", lab.Mean(ses))})
		}
	}
	rep.Table([]string{"corpus", "labels", "labeled documents", "fits", "interval covers the test accuracy", "estimate within ±5 points", "mean estimate − test", "weighted as the labeled documents", "mean cross-validated − test (no correction)", "mean half-width",
		"SVM: interval covers", "SVM: within ±5", "SVM: mean estimate − test"}, rows)
	if all.n > 0 {
		n := float64(all.n)
		rep.P("All fits: the interval covers the test accuracy in %s (goal ≥ 90%%), the estimate is within ±5 points in %s (goal ≥ 80%%; the labels weighted as the labeled documents instead of by their estimated shares: %s; the cross-validated mean with no correction: %s), mean error %+.1f points (weighted as the labeled documents %+.1f, no correction %+.1f), mean half-width ±%.1f; the SVM's interval covers in %s, within ±5 in %s, mean error %+.1f. Runs whose labels were too few to hold any out (no estimate is printed then) are left out.",
			lab.OfN(all.cover, all.n), lab.OfN(all.within, all.n), lab.OfN(all.mixWithin, all.n), lab.OfN(all.rawWithin, all.n), errSum/n, mixSum/n, rawSum/n, hwSum/n, lab.OfN(all.svmCover, all.n), lab.OfN(all.svmWithin, all.n), svmErrSum/n)
		met := func(ok bool) string {
			if ok {
				return "met"
			}
			return "not met"
		}
		// Within ±5 points is more than a share measured on a few dozen
		// held-out documents can promise: count apart the fits whose
		// held-out documents could support it (a binomial 95% half-width
		// of at most 5 points at the estimate).
		able, ableWithin, counted := 0, 0, 0
		ideal := 0.0
		for _, r := range res.Runs {
			// The runs the table counts only.
			if !slices.Contains(datasets, r.Dataset) || !slices.Contains(fracs, r.Fraction) || !r.Scored || r.Est == nil || r.Est.N == 0 {
				continue
			}
			// An estimate whose only error were the binomial noise of
			// the held-out documents, at the test accuracy: within ±5
			// points with probability P(|Z| ≤ 5/sd).
			counted++
			pt := min(max(r.Test/100, 0.001), 0.999)
			ideal += math.Erf(5 / (100 * math.Sqrt(pt*(1-pt)/float64(r.Est.N))) / math.Sqrt2)
			p := r.Est.Accuracy / 100
			if 1.96*100*math.Sqrt(p*(1-p)/float64(r.Est.N)) <= 5 {
				able++
				if math.Abs(r.Est.Accuracy-r.Test) <= 5 {
					ableWithin++
				}
			}
		}
		rep.P("A share measured on n held-out documents is itself uncertain by about ±1.96·√(p(1−p)/n): ±5 points or less needs some 150–400 of them. Among the fits whose held-out documents could support ±5 points at their estimate, the estimate is within ±5 points of the test accuracy in %s; the other fits, with fewer labeled documents, cannot be held to it by any estimate, and their interval says how far they may be off. An estimate whose only error were the binomial noise of the held-out documents (unbiased, with the test accuracy's variance on as many documents) would be within ±5 points in %.0f%% of these %d fits, on average.", lab.OfN(ableWithin, able), 100*ideal/float64(max(counted, 1)), counted)
		side := "high"
		if errSum < 0 {
			side = "low"
		}
		rep.P("Coverage goal %s, ±5-point goal %s. On average the estimates err on the %s side (%+.1f points); the SVM's, which chooses nothing and so has no selection bias, by %+.1f.",
			met(float64(all.cover) >= 0.9*n), met(float64(all.within) >= 0.8*n), side, errSum/n, svmErrSum/n)
	}
}
