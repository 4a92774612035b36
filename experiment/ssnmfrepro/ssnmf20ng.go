package ssnmfrepro

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/ssnmf"
	"github.com/semitopic/semitopic/vectorize"
)

// Experiment20NG returns the SSNMF paper's 20 Newsgroups reproduction.
func Experiment20NG() lab.Experiment {
	return lab.Experiment{
		Name: "ssnmf-20ng",
		Description: "SSNMF paper (Haddock, Kassab et al.) on 20 Newsgroups, 5 classes from 13 groups: test accuracy of the " +
			"four SSNMF models against NMF+SVM, SVM and multinomial NB (Table 4), clustering scores P (Table 8), keywords (Table 5), normalised B",
		Run: runSSNMF20NG,
	}
}

// ssnmfPaper holds the paper's Table 4 (test accuracy %, mean of 11 runs)
// and, for the SSNMF models, the reference code run here on this protocol
// (5 seeds; figures from the issue).
var ssnmfPaper = map[string]struct{ paper, refcode float64 }{
	"(F,F)":          {79.37, 79.38},
	"(F,D)":          {79.51, 79.18},
	"(D,F)":          {81.88, 81.48},
	"(D,D)":          {81.50, 81.47},
	"NMF + SVM":      {70.99, math.NaN()},
	"SVM":            {80.70, 82.50},
	"Multinomial NB": {82.28, 82.28},
}

// ssnmfRefChoice is the reference code's chosen (λ, tol) per model
// (experiments/20news/exp_20news.py).
var ssnmfRefChoice = map[ssnmf.Losses][2]float64{
	ssnmf.FF: {100, 1e-4}, ssnmf.FD: {10, 1e-4}, ssnmf.DF: {100, 1e-3}, ssnmf.DD: {1000, 1e-3},
}

// ssnmfTrial is one seed's data: the dataset with tf-idf fitted on the
// training documents (for choosing hyperparameters on validation) and the
// final matrices, tf-idf refitted on training + validation documents as the
// reference's final runs do.
type ssnmfTrial struct {
	ds         *datasets.Dataset
	full, test *sparse.CSR
	fullClass  []int
	fullGroup  []int
	vocab      []string
	fullY      *mat.Dense
	trainY     *mat.Dense
}

// ssnmfRun is one fitted model's outcome on one trial.
type ssnmfRun struct {
	Acc, TransAcc float64
	Iterations    int
	Seconds       float64
	PHard, PSoft  float64
	res           *ssnmf.Model
	wTest         *mat.Dense
}

const ssnmfRank = 13

func loadSSNMFTrial(ctx context.Context, docs []corpus.Document, seed uint64) (*ssnmfTrial, error) {
	ds, err := datasets.SSNMF20NewsFromDocs(ctx, docs, datasets.SSNMF20NewsOptions{Seed: seed})
	if err != nil {
		return nil, err
	}
	pl, err := vectorize.PipelinePreset("ssnmf")
	if err != nil {
		return nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, err
	}
	full := append(append([]corpus.Document(nil), ds.Train.Docs...), ds.Val.Docs...)
	fr, err := v.FitTransform(ctx, full)
	if err != nil {
		return nil, err
	}
	tr, err := v.Transform(ctx, ds.Test.Docs)
	if err != nil {
		return nil, err
	}
	if fr.X.Rows != len(full) || tr.X.Rows != ds.Test.Len() {
		return nil, fmt.Errorf("the vectorizer dropped documents")
	}
	t := &ssnmfTrial{ds: ds, full: fr.X, test: tr.X, vocab: v.Vocabulary()}
	t.fullClass = append(append([]int(nil), ds.Train.Class...), ds.Val.Class...)
	t.fullGroup = append(append([]int(nil), ds.Train.Subgroup...), ds.Val.Subgroup...)
	classes := len(ds.ClassNames)
	if t.fullY, _, err = ssnmf.OneHot(t.fullClass, classes); err != nil {
		return nil, err
	}
	if t.trainY, _, err = ssnmf.OneHot(ds.Train.Class, classes); err != nil {
		return nil, err
	}
	return t, nil
}

// clusterP returns the hard and soft clustering scores P of the stacked
// representation of the training (+ validation) and test documents.
func clusterP(wFull, wTest *mat.Dense, t *ssnmfTrial) (hard, soft float64, best []int, err error) {
	r1, k := wFull.Dims()
	r2, _ := wTest.Dims()
	s := mat.NewDense(r1+r2, k, nil)
	s.Stack(wFull, wTest)
	groups := append(append([]int(nil), t.fullGroup...), t.ds.Test.Subgroup...)
	n := len(t.ds.SubgroupNames)
	h, err := metrics.ClusterScores(s, groups, n, false)
	if err != nil {
		return 0, 0, nil, err
	}
	sf, err := metrics.ClusterScores(s, groups, n, true)
	if err != nil {
		return 0, 0, nil, err
	}
	return h.Mean, sf.Mean, h.Best, nil
}

func runSSNMF20NG(ctx context.Context, env *lab.Env) error {
	path, err := env.DataPath("20news-bydate/20news-bydate.tar.gz")
	if err != nil {
		return err
	}
	docs, err := datasets.ReadSSNMF20News(ctx, path)
	if err != nil {
		return err
	}
	return ssnmf20NG(ctx, env, docs)
}

// ssnmf20NG runs the protocol on the documents of the 13 newsgroups, each
// labeled with its newsgroup, and writes the report.
func ssnmf20NG(ctx context.Context, env *lab.Env, docs []corpus.Document) error {
	trials := env.SeedsOr(11)
	if env.Quick {
		trials = min(trials, 2)
	}
	name := "ssnmf-20ng"
	if env.Quick {
		name += "-quick"
	}
	r := lab.NewReport(env, name, "SSNMF on 20 Newsgroups: classification, clustering and topics")
	var data []*ssnmfTrial
	for s := 0; s < trials; s++ {
		t, err := loadSSNMFTrial(ctx, docs, uint64(s))
		if err != nil {
			return fmt.Errorf("trial %d: %w", s, err)
		}
		data = append(data, t)
	}
	d0 := data[0]
	env.Logf("ssnmf-20ng: %d trials; train %d, validation %d, test %d documents; %d terms", trials, d0.ds.Train.Len(), d0.ds.Val.Len(), d0.ds.Test.Len(), len(d0.vocab))

	const maxIter = 50
	grid := ssnmf.PaperGrid(ssnmfRank)
	models := ssnmf.Models()

	// Hyperparameters: every (λ, tol) of the paper's grid is fitted on the
	// training documents of every trial (initialisation seed = trial) and
	// scored on its validation documents; the point with the best mean
	// validation accuracy over the trials is kept, as the reference's
	// ssnmf_search averages ten runs.
	type gridPoint struct {
		Lambda, Tol float64
		Val         []float64
		Iterations  []int
	}
	valGrid := map[ssnmf.Losses][]*gridPoint{}
	chosen := map[ssnmf.Losses]*gridPoint{}
	for _, m := range models {
		for _, lam := range grid.Lambdas {
			for _, tol := range grid.Tols {
				valGrid[m] = append(valGrid[m], &gridPoint{Lambda: lam, Tol: tol})
			}
		}
	}
	for s, t := range data {
		for _, m := range models {
			base := ssnmf.Config{K: ssnmfRank, Losses: m, Y: t.trainY, MaxIter: maxIter, Seed: uint64(s)}
			g := ssnmf.Grid{Lambdas: grid.Lambdas, Tols: grid.Tols, Ks: grid.Ks, Seeds: []uint64{uint64(s)}}
			sel, err := ssnmf.Select(ctx, t.ds.Train.X, t.ds.Val.X, base, g, ssnmf.TransformConfig{Seed: uint64(s)},
				func(sc *mat.Dense) (float64, error) { return metrics.Accuracy(t.ds.Val.Class, metrics.ArgmaxRows(sc)) })
			if err != nil {
				return fmt.Errorf("%v, trial %d: %w", m, s, err)
			}
			for i, c := range sel.Candidates {
				valGrid[m][i].Val = append(valGrid[m][i].Val, c.Mean)
				valGrid[m][i].Iterations = append(valGrid[m][i].Iterations, c.Iterations...)
			}
		}
		env.Logf("ssnmf-20ng: validation grid, trial %d done", s)
	}
	for _, m := range models {
		bestMean := -1.0
		for _, p := range valGrid[m] {
			if mu, _ := lab.MeanSD(p.Val); mu > bestMean {
				bestMean, chosen[m] = mu, p
			}
		}
	}

	// Final fits: training + validation documents, test accuracy, plus the
	// transductive variant and the clustering scores.
	runs := map[ssnmf.Losses][]*ssnmfRun{}
	for s, t := range data {
		for _, m := range models {
			p := chosen[m]
			cfg := ssnmf.Config{K: ssnmfRank, Losses: m, Y: t.fullY, Lambda: p.Lambda, Tol: p.Tol, MaxIter: maxIter, Seed: uint64(s)}
			t0 := time.Now()
			res, err := ssnmf.Fit(ctx, t.full, cfg)
			if err != nil {
				return err
			}
			secs := time.Since(t0).Seconds()
			res.Represent = ssnmf.TransformConfig{Seed: uint64(s)}
			wte, err := res.Transform(ctx, t.test)
			if err != nil {
				return err
			}
			scores, err := res.Scores(wte)
			if err != nil {
				return err
			}
			acc, err := metrics.Accuracy(t.ds.Test.Class, metrics.ArgmaxRows(scores))
			if err != nil {
				return err
			}
			tres, wt, err := ssnmf.Transductive(ctx, t.full, t.test, cfg)
			if err != nil {
				return err
			}
			ts, err := tres.Scores(wt)
			if err != nil {
				return err
			}
			tacc, err := metrics.Accuracy(t.ds.Test.Class, metrics.ArgmaxRows(ts))
			if err != nil {
				return err
			}
			hard, soft, _, err := clusterP(res.W, wte, t)
			if err != nil {
				return err
			}
			runs[m] = append(runs[m], &ssnmfRun{Acc: 100 * acc, TransAcc: 100 * tacc, Iterations: res.Iterations, Seconds: secs,
				PHard: hard, PSoft: soft, res: res, wTest: wte})
		}
		env.Logf("ssnmf-20ng: final fits, trial %d done", s)
	}

	// Baselines on the same splits and matrices.
	type baseRun struct{ acc, phard, psoft, secs float64 }
	base := map[string][]baseRun{}
	for s, t := range data {
		nb := &classify.MultinomialNB{}
		if err := nb.Fit(ctx, t.full, t.fullClass); err != nil {
			return err
		}
		p, err := nb.Predict(t.test)
		if err != nil {
			return err
		}
		base["Multinomial NB"] = append(base["Multinomial NB"], baseRun{acc: 100 * accuracyOf(p, t.ds.Test.Class)})
		svm := &classify.LinearSVC{Seed: uint64(s)}
		if err := svm.Fit(ctx, t.full, t.fullClass); err != nil {
			return err
		}
		if p, err = svm.Predict(t.test); err != nil {
			return err
		}
		base["SVM"] = append(base["SVM"], baseRun{acc: 100 * accuracyOf(p, t.ds.Test.Class)})
		for _, loss := range []nmf.Loss{nmf.Frobenius, nmf.KullbackLeibler} {
			t0 := time.Now()
			fit, err := nmf.Fit(ctx, t.full, nmf.Config{K: ssnmfRank, Loss: loss, Init: nmf.InitRandom, Seed: uint64(s), MaxIter: 400, Tol: 1e-4})
			if err != nil {
				return err
			}
			secs := time.Since(t0).Seconds()
			wt, err := fit.Transform(ctx, t.test)
			if err != nil {
				return err
			}
			hard, soft, _, err := clusterP(fit.W, wt, t)
			if err != nil {
				return err
			}
			run := baseRun{acc: math.NaN(), phard: hard, psoft: soft, secs: secs}
			if loss == nmf.Frobenius {
				acc, err := nmfSVM(ctx, fit.W, wt, t, uint64(s))
				if err != nil {
					return err
				}
				run.acc = 100 * acc
				base["NMF + SVM"] = append(base["NMF + SVM"], run)
			} else {
				base["I-NMF"] = append(base["I-NMF"], run)
			}
		}
		env.Logf("ssnmf-20ng: baselines, trial %d done", s)
	}

	// --- Report ---
	r.P("Reproduction of Haddock, Kassab, Li et al., *Semi-supervised NMF Models for Topic Modeling in Learning Tasks* (arXiv 2010.07956), §5 on 20 Newsgroups, with the protocol of its code (jamiehadd/ssnmf, experiments/20news: prep_20news.py, exp_20news.py, methods_20news.py; src/ssnmf/ssnmf_numpy.py and evaluation.py). "+
		"Five classes from 13 newsgroups (Computers: comp.graphics, comp.sys.mac.hardware, comp.windows.x; Sciences: sci.crypt, sci.electronics, sci.space; Politics: talk.politics.guns, talk.politics.mideast; Religion: alt.atheism, soc.religion.christian; Recreation: rec.autos, rec.sport.baseball, rec.sport.hockey), "+
		"train and test trees together with headers, signatures and quotes removed, every class subsampled to the smallest (%d documents), split 60/20/20 per class (datasets.SSNMF20News). "+
		"Hyperparameters are chosen with tf-idf fitted on the training documents and scored on the validation documents; the final models are then fitted, as in the reference, on training + validation documents (%d) with tf-idf refitted on them (`[a-zA-Z]+` tokens, NLTK stopwords, min_df 5, max_df 0.7, 5,000 terms, L2 rows) and tested on the %d test documents. "+
		"Rank 13, at most 50 iterations, the reference's stopping rule, uniform random initialisation; test documents are represented with the topics fixed (exact NNLS for a Frobenius reconstruction, 20 multiplicative updates of the I-divergence otherwise) and classified by argmax(B·S). "+
		"%d trials: trial s uses seed s for the split, the subsampling and the initialisation (the reference kept one split and varied the initialisation over its 11 runs).",
		d0.ds.PerClass, d0.full.Rows, d0.test.Rows, trials)

	r.H2("Test accuracy (the paper's Table 4)")
	header := []string{"method", "ours: test accuracy %", "paper", "reference code here", "ours − paper", "λ, tol (chosen on validation)", "iterations", "seconds per fit", "transductive variant %"}
	var rows [][]string
	for _, m := range models {
		rs := runs[m]
		acc := collect(rs, func(x *ssnmfRun) float64 { return x.Acc })
		tacc := collect(rs, func(x *ssnmfRun) float64 { return x.TransAcc })
		its := collect(rs, func(x *ssnmfRun) float64 { return float64(x.Iterations) })
		secs := collect(rs, func(x *ssnmfRun) float64 { return x.Seconds })
		mu, _ := lab.MeanSD(acc)
		pp := ssnmfPaper[m.String()]
		rows = append(rows, []string{m.String() + "-SSNMF", lab.PM(acc, 2), fmt.Sprintf("%.2f", pp.paper), fmt.Sprintf("%.2f", pp.refcode),
			fmt.Sprintf("%+.2f", mu-pp.paper), fmt.Sprintf("%g, %g", chosen[m].Lambda, chosen[m].Tol), lab.PM(its, 1), lab.PM(secs, 2), lab.PM(tacc, 2)})
	}
	for _, b := range []string{"NMF + SVM", "SVM", "Multinomial NB"} {
		var acc, secs []float64
		for _, x := range base[b] {
			acc = append(acc, x.acc)
			secs = append(secs, x.secs)
		}
		pp := ssnmfPaper[b]
		ref := fmt.Sprintf("%.2f", pp.refcode)
		if math.IsNaN(pp.refcode) {
			ref = ""
		}
		mu, _ := lab.MeanSD(acc)
		row := []string{b, lab.PM(acc, 2), fmt.Sprintf("%.2f", pp.paper), ref, fmt.Sprintf("%+.2f", mu-pp.paper), "", "", "", ""}
		if b == "NMF + SVM" {
			row[7] = lab.PM(secs, 2)
		}
		rows = append(rows, row)
	}
	r.Table(header, rows)
	r.P("Mean ± sample standard deviation over %d trials. \"Reference code here\" is the issue's run of the reference implementation on this protocol (5 seeds; for SVM, scikit-learn's LinearSVC). "+
		"Baselines on the same splits and matrices: multinomial naive Bayes (α = 1) and a linear SVM (LinearSVC, squared hinge, C = 1) on the tf-idf rows; NMF + SVM fits NMF (Frobenius, random initialisation, ≤ 400 iterations, tol 1e-4) on the training documents, "+
		"represents the test documents by NNLS with the topics fixed, standardises the 13 features with the training means and deviations and classifies them with the same linear SVM. "+
		"The paper's SVM and NMF + SVM used scikit-learn's SGDClassifier (hinge loss) after a StandardScaler; its NMF stops by scikit-learn's rule (every 10 iterations, against the initial error). "+
		"The transductive column fits the test documents together with the training ones (data weight 1, label weight 0) and reads their representation from the fit (ssnmf.Transductive); the main column is the inductive framework (ssnmf.Fit then Predict), which is what the reference's evaluation.py computes (its test columns have zero data and label weight).", trials)

	r.H2("Hyperparameters chosen on validation")
	r.P("Mean validation accuracy (%%) over the %d trials of every point of the paper's grid (models fitted on the %d training documents, scored on the %d validation documents); ✓ marks the chosen point. The reference chose λ, tol = %s.",
		trials, d0.ds.Train.Len(), d0.ds.Val.Len(), refChoiceText())
	gh := []string{"λ", "tol"}
	for _, m := range models {
		gh = append(gh, m.String())
	}
	var grows [][]string
	for i, p0 := range valGrid[models[0]] {
		row := []string{fmt.Sprintf("%g", p0.Lambda), fmt.Sprintf("%g", p0.Tol)}
		for _, m := range models {
			p := valGrid[m][i]
			v := make([]float64, len(p.Val))
			for j, x := range p.Val {
				v[j] = 100 * x
			}
			its := make([]float64, len(p.Iterations))
			for j, x := range p.Iterations {
				its[j] = float64(x)
			}
			mi, _ := lab.MeanSD(its)
			cell := fmt.Sprintf("%s (%.0f it.)", lab.PM(v, 2), mi)
			if chosen[m] == p {
				cell += " ✓"
			}
			row = append(row, cell)
		}
		grows = append(grows, row)
	}
	r.Table(gh, grows)

	r.H2("Clustering scores P (the paper's Table 8)")
	r.P("The paper's clustering score (clust_scores in utils_20news.py, metrics.ClusterScores): each topic's best share of a newsgroup's documents, averaged over the 13 topics, on the representation of all training + validation and test documents against their 13 newsgroups; hard assigns each document to its largest topic, soft spreads it by its normalised representation. Mean ± sd over the trials. NMF is the Frobenius NMF of the NMF + SVM baseline; I-NMF is NMF with the I-divergence (package nmf, random initialisation, ≤ 400 iterations, tol 1e-4), its test documents represented by multiplicative updates with the topics fixed (nmf.Model.Transform).")
	var crows [][]string
	for _, m := range models {
		rs := runs[m]
		crows = append(crows, []string{m.String() + "-SSNMF", lab.PM(collect(rs, func(x *ssnmfRun) float64 { return x.PHard }), 4), lab.PM(collect(rs, func(x *ssnmfRun) float64 { return x.PSoft }), 4)})
	}
	for _, b := range []string{"NMF + SVM", "I-NMF"} {
		var h, s []float64
		for _, x := range base[b] {
			h, s = append(h, x.phard), append(s, x.psoft)
		}
		label := b
		if b == "NMF + SVM" {
			label = "NMF"
		}
		crows = append(crows, []string{label, lab.PM(h, 4), lab.PM(s, 4)})
	}
	r.Table([]string{"model", "P (hard)", "P (soft)"}, crows)
	hardOf := func(m ssnmf.Losses) float64 {
		mu, _ := lab.MeanSD(collect(runs[m], func(x *ssnmfRun) float64 { return x.PHard }))
		return mu
	}
	softOf := func(m ssnmf.Losses) float64 {
		mu, _ := lab.MeanSD(collect(runs[m], func(x *ssnmfRun) float64 { return x.PSoft }))
		return mu
	}
	var nmfHard, nmfSoft []float64
	for _, x := range base["NMF + SVM"] {
		nmfHard, nmfSoft = append(nmfHard, x.phard), append(nmfSoft, x.psoft)
	}
	nh, _ := lab.MeanSD(nmfHard)
	ns, _ := lab.MeanSD(nmfSoft)
	lo, hi := math.Inf(1), math.Inf(-1)
	slo, shi := math.Inf(1), math.Inf(-1)
	for _, m := range models {
		lo, hi = math.Min(lo, hardOf(m)), math.Max(hi, hardOf(m))
		slo, shi = math.Min(slo, softOf(m)), math.Max(shi, softOf(m))
	}
	r.P("The paper's Table 8 figures are not repeated here: we could not read them from the sources available to us. For a same-split comparison, bench/ssnmf/run.sh computes P for the reference implementation's own fits on the split of seed 0 (docs/results/speed.md). "+
		"Here the four SSNMF models score %.3f–%.3f (hard) and %.3f–%.3f (soft); NMF scores %.3f (hard) and %.3f (soft). Supervision ties the 13 topics to 5 classes (the heatmaps: several topics per class), so a topic spreads over the newsgroups of its class, which lowers its best share of any one newsgroup; the soft scores, which credit partial memberships, favour SSNMF over NMF.",
		lo, hi, slo, shi, nh, ns)

	r.H2("Topics of the median models (the paper's Table 5 and Figure 2)")
	r.P("For each model, the run of median test accuracy (the reference's median_results: argsort(acc)[n/2]): its topics' ten keywords (largest entries of the topic's row of H, the paper's column of A), the class the topic is most associated with (the largest entry of its column of normalised B) and the newsgroup it clusters best (hard score). The heatmap shows normalised B — each topic's column of B divided by its sum — as the paper's Figure 2.")
	classNames := d0.ds.ClassNames
	var heat []string
	for _, m := range models {
		rs := runs[m]
		idx := make([]int, len(rs))
		for i := range idx {
			idx[i] = i
		}
		sort.SliceStable(idx, func(a, b int) bool { return rs[idx[a]].Acc < rs[idx[b]].Acc })
		med := idx[len(idx)/2]
		run, t := rs[med], data[med]
		top, err := run.res.TopTerms(t.vocab, 10)
		if err != nil {
			return err
		}
		nb, err := run.res.NormalizedB()
		if err != nil {
			return err
		}
		_, _, best, err := clusterP(run.res.W, run.wTest, t)
		if err != nil {
			return err
		}
		r.P("**%v-SSNMF** (trial %d, test accuracy %.2f%%, λ = %g, tol = %g, %d iterations):", m, med, run.Acc, chosen[m].Lambda, chosen[m].Tol, run.Iterations)
		var trows [][]string
		for tp := 0; tp < ssnmfRank; tp++ {
			cls, share := 0, 0.0
			for c := range classNames {
				if v := nb.At(c, tp); v > share {
					cls, share = c, v
				}
			}
			group := "—"
			if best[tp] >= 0 {
				group = t.ds.SubgroupNames[best[tp]]
			}
			trows = append(trows, []string{fmt.Sprint(tp + 1), fmt.Sprintf("%s (%.2f)", classNames[cls], share), group, strings.Join(top[tp], ", ")})
		}
		r.Table([]string{"topic", "class (normalised B)", "newsgroup (hard P)", "keywords"}, trows)
		vals := make([][]float64, len(classNames))
		for c := range vals {
			vals[c] = make([]float64, ssnmfRank)
			for tp := 0; tp < ssnmfRank; tp++ {
				vals[c][tp] = nb.At(c, tp)
			}
		}
		cols := make([]string, ssnmfRank)
		for i := range cols {
			cols[i] = fmt.Sprint(i + 1)
		}
		file := fmt.Sprintf("%s-B-%s.svg", name, m.Slug())
		if err := r.Chart(file, fmt.Sprintf("normalised B of the median %v-SSNMF model", m), chart.Heatmap{
			Title: fmt.Sprintf("%v-SSNMF: normalised B (topic → class)", m), RowLabels: classNames, ColLabels: cols,
			XLabel: "topic", YLabel: "class", Values: vals,
		}, chart.Size{Width: 18, Height: 7}); err != nil {
			return err
		}
		heat = append(heat, file)
	}

	r.H2("Notes")
	var within, outside []string
	for _, m := range models {
		mu, _ := lab.MeanSD(collect(runs[m], func(x *ssnmfRun) float64 { return x.Acc }))
		d := mu - ssnmfPaper[m.String()].paper
		if d >= -1 {
			within = append(within, fmt.Sprintf("%v (%+.2f)", m, d))
		} else {
			outside = append(outside, fmt.Sprintf("%v (%+.2f)", m, d))
		}
	}
	verdict := "every SSNMF model meets or beats the paper's Table 4 within one point: " + strings.Join(within, ", ") + "."
	if len(outside) > 0 {
		verdict = fmt.Sprintf("within one point of the paper or above: %s; more than one point below: %s.", strings.Join(within, ", "), strings.Join(outside, ", "))
	}
	r.P("Against the paper: %s Our iterates equal the reference implementation's to 1e-9 on small problems (ssnmf's TestMatchesReference replays its SSNMF_N), so the remaining differences come from the data draws (the reference's unseeded random.sample and train_test_split against our seeded sampler; it also kept one split for all 11 runs, while our trials redraw it) and the initialisations. "+
		"Our SVM is LinearSVC on the tf-idf rows rather than SGDClassifier on standardised ones, which is why it lands above the paper's SVM row (the reference code with LinearSVC gives 82.50 on this protocol).", verdict)
	var gap []float64
	for _, m := range models {
		a, _ := lab.MeanSD(collect(runs[m], func(x *ssnmfRun) float64 { return x.Acc }))
		t, _ := lab.MeanSD(collect(runs[m], func(x *ssnmfRun) float64 { return x.TransAcc }))
		gap = append(gap, a-t)
	}
	sort.Float64s(gap)
	r.P("The transductive variant is %.1f–%.1f points below the inductive framework: its test documents' representation is whatever the joint fit reached when the stopping rule ended it (the iterations in the table, driven by the data term alone, as they carry no label weight), while the inductive framework solves each test document's representation exactly (NNLS) or with 20 dedicated updates. The commands and this report use the inductive framework unless a column says otherwise.", gap[0], gap[len(gap)-1])
	r.P("Speed: a fit takes the seconds in the table (all cores, sparse X, with the machine shared by other jobs); the reference implementation densifies X (5,000 × 8,980 with the masked test columns) and takes from about half a minute to a few minutes per fit and 1.7–2.8 GB — see docs/results/speed.md (bench/ssnmf/run.sh) for the side-by-side on one split.")
	if la := lab.LoadAverage(); la != "" {
		r.P("Load average (1, 5, 15 min) when the run ended: %s — the machine was shared, so the times are upper bounds.", strings.ReplaceAll(la, " ", ", "))
	}

	type jsonRun struct {
		Model       string
		Lambda, Tol float64
		Acc         []float64
		TransAcc    []float64
		PHard       []float64
		PSoft       []float64
		Iterations  []int
		Seconds     []float64
	}
	var js []jsonRun
	for _, m := range models {
		j := jsonRun{Model: m.String(), Lambda: chosen[m].Lambda, Tol: chosen[m].Tol}
		for _, x := range runs[m] {
			j.Acc = append(j.Acc, x.Acc)
			j.TransAcc = append(j.TransAcc, x.TransAcc)
			j.PHard = append(j.PHard, x.PHard)
			j.PSoft = append(j.PSoft, x.PSoft)
			j.Iterations = append(j.Iterations, x.Iterations)
			j.Seconds = append(j.Seconds, x.Seconds)
		}
		js = append(js, j)
	}
	for _, b := range []string{"NMF + SVM", "I-NMF", "SVM", "Multinomial NB"} {
		j := jsonRun{Model: b}
		for _, x := range base[b] {
			if !math.IsNaN(x.acc) {
				j.Acc = append(j.Acc, x.acc)
			}
			j.PHard = append(j.PHard, x.phard)
			j.PSoft = append(j.PSoft, x.psoft)
			j.Seconds = append(j.Seconds, x.secs)
		}
		js = append(js, j)
	}
	grid2 := map[string][]*gridPoint{}
	for _, m := range models {
		grid2[m.String()] = valGrid[m]
	}
	if err := r.JSON(name+".json", map[string]any{"trials": trials, "runs": js, "validation_grid": grid2, "heatmaps": heat}); err != nil {
		return err
	}
	return r.Finish()
}

func refChoiceText() string {
	var parts []string
	for _, m := range ssnmf.Models() {
		c := ssnmfRefChoice[m]
		parts = append(parts, fmt.Sprintf("%v: %g, %g", m, c[0], c[1]))
	}
	return strings.Join(parts, "; ")
}

func collect(rs []*ssnmfRun, f func(*ssnmfRun) float64) []float64 {
	out := make([]float64, len(rs))
	for i, r := range rs {
		out[i] = f(r)
	}
	return out
}

func accuracyOf(pred, truth []int) float64 {
	right := 0
	for i, p := range pred {
		if p == truth[i] {
			right++
		}
	}
	return float64(right) / float64(len(truth))
}

// nmfSVM classifies the NMF representation: features standardised with the
// training documents' means and deviations, a linear SVM on them.
func nmfSVM(ctx context.Context, wTrain, wTest *mat.Dense, t *ssnmfTrial, seed uint64) (float64, error) {
	n, k := wTrain.Dims()
	mean, sd := make([]float64, k), make([]float64, k)
	for i := 0; i < n; i++ {
		for j, v := range wTrain.RawRowView(i) {
			mean[j] += v / float64(n)
		}
	}
	for i := 0; i < n; i++ {
		for j, v := range wTrain.RawRowView(i) {
			sd[j] += (v - mean[j]) * (v - mean[j]) / float64(n)
		}
	}
	for j := range sd {
		sd[j] = math.Sqrt(sd[j])
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	std := func(w *mat.Dense) *sparse.CSR {
		s := mat.DenseCopyOf(w)
		r, _ := s.Dims()
		for i := 0; i < r; i++ {
			row := s.RawRowView(i)
			for j := range row {
				row[j] = (row[j] - mean[j]) / sd[j]
			}
		}
		return sparse.FromDense(s)
	}
	svm := &classify.LinearSVC{Seed: seed}
	if err := svm.Fit(ctx, std(wTrain), t.fullClass); err != nil {
		return 0, err
	}
	p, err := svm.Predict(std(wTest))
	if err != nil {
		return 0, err
	}
	return accuracyOf(p, t.ds.Test.Class), nil
}
