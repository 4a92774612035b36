package themenmf

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/theme"
	"github.com/semitopic/semitopic/vectorize"
)

// Experiment returns the theme-supervised NMF reproduction (Brown, Reuters).
func Experiment() lab.Experiment {
	return lab.Experiment{
		Name: "theme-nmf",
		Description: "theme-supervised NMF thesis (Suyunu 2020), Tables 8.1 and 8.2: log rank accuracy of semi-supervised and " +
			"supervised, Separated and Combined models on Brown and Reuters against NMF and LDA mapped to themes",
		Run: func(ctx context.Context, env *lab.Env) error {
			return themeNMF(ctx, env, func(ctx context.Context, which string) ([]corpus.Document, error) {
				return readThemeCorpus(ctx, env, which)
			})
		},
	}
}

// thReader returns the documents of "brown" or "reuters", each labeled
// with its categories.
type thReader func(ctx context.Context, which string) ([]corpus.Document, error)

// readThemeCorpus reads "brown" or "reuters" from the shared data.
func readThemeCorpus(ctx context.Context, env *lab.Env, which string) ([]corpus.Document, error) {
	var c *corpus.Corpus
	var err error
	switch which {
	case "brown":
		p, e := env.DataPath("brown/brown.zip")
		if e != nil {
			return nil, e
		}
		c, err = corpus.Brown{}.Read(ctx, p)
	case "reuters":
		p, e := env.DataPath("reuters21578-nltk-apte/reuters.tar.gz")
		if e != nil {
			return nil, e
		}
		c, err = corpus.ReutersNLTK{}.Read(ctx, p)
	default:
		return nil, fmt.Errorf("theme-nmf: no corpus %q", which)
	}
	if err != nil {
		return nil, err
	}
	return c.Docs, nil
}

// thData is a corpus prepared as the thesis prepares it: every document's
// n-gram counts over the full vocabulary, from which each experiment takes
// the 10,000 most frequent terms of its training documents.
type thData struct {
	name    string
	docs    []corpus.Document
	names   []string
	labels  [][]int
	full    *sparse.CSR // documents × all terms (counts)
	fullVoc []string
	total   int // documents before the 25-word filter
	// allX caches the tf and tf-idf matrices of all documents over their
	// 10,000 most frequent terms (index: tf-idf or not).
	allX    [2]*sparse.CSR
	allCols []int
}

// allDocs returns the matrix of all documents (the semi-supervised fits'
// and the baselines'), computed once.
func (d *thData) allDocs(tfidf bool) *sparse.CSR {
	b := 0
	if tfidf {
		b = 1
	}
	if d.allX[b] == nil {
		all := make([]int, len(d.docs))
		for i := range all {
			all[i] = i
		}
		if d.allCols == nil {
			d.allCols = d.vocabOf(all, 10000)
		}
		d.allX[b] = d.matrix(all, d.allCols, tfidf, all)
	}
	return d.allX[b]
}

// loadThemeData reads the corpus which ("brown" or "reuters") and
// prepares it as the thesis does.
func loadThemeData(ctx context.Context, read thReader, which string) (*thData, error) {
	docs, err := read(ctx, which)
	if err != nil {
		return nil, err
	}
	pl, err := vectorize.PipelinePreset("theme")
	if err != nil {
		return nil, err
	}
	// The thesis code cleans ' '.join(corpus.words(f)): Brown's words are
	// the white-space tokens of the tagged text, Reuters' NLTK's
	// WordPunctTokenizer tokens.
	pl.Text.Clean = text.ThesisClean
	if which == "reuters" {
		pl.Text.Clean = text.ThesisCleanWordPunct
	}
	// The notebooks keep the documents whose cleaned text has more than 25
	// spaces: 27 tokens or more.
	pl.Vectorize.MinTokens = 27
	pl.Vectorize.MaxFeatures = 0 // every term; each split picks its 10,000
	_, res, err := pl.FitTransform(ctx, docs)
	if err != nil {
		return nil, err
	}
	d := &thData{name: which, docs: res.Docs, full: res.X, fullVoc: res.Vocab, total: len(docs)}
	d.names, d.labels = corpus.LabelIndex(res.Docs)
	return d, nil
}

// vocabOf returns the columns of the maxTerms most frequent terms over the
// rows (ties to the alphabetically smaller term, as the vectorizer),
// in alphabetical order.
func (d *thData) vocabOf(rows []int, maxTerms int) []int {
	sum := make([]float64, d.full.Cols)
	for _, i := range rows {
		cols, vals := d.full.Row(i)
		for a, c := range cols {
			sum[c] += vals[a]
		}
	}
	var cols []int
	for j, s := range sum {
		if s > 0 {
			cols = append(cols, j)
		}
	}
	sort.Slice(cols, func(a, b int) bool {
		if sum[cols[a]] != sum[cols[b]] {
			return sum[cols[a]] > sum[cols[b]]
		}
		return d.fullVoc[cols[a]] < d.fullVoc[cols[b]]
	})
	if len(cols) > maxTerms {
		cols = cols[:maxTerms]
	}
	sort.Slice(cols, func(a, b int) bool { return d.fullVoc[cols[a]] < d.fullVoc[cols[b]] })
	return cols
}

// matrix returns the rows × cols submatrix of the counts, as tf or as
// tf-idf (smooth idf from the idfRows documents, L2 rows: scikit-learn's
// TfidfVectorizer fitted on idfRows).
func (d *thData) matrix(rows, cols []int, tfidf bool, idfRows []int) *sparse.CSR {
	pos := make(map[int32]int32, len(cols))
	for a, c := range cols {
		pos[int32(c)] = int32(a)
	}
	var idf []float64
	if tfidf {
		df := make([]float64, len(cols))
		for _, i := range idfRows {
			cs, _ := d.full.Row(i)
			for _, c := range cs {
				if p, ok := pos[c]; ok {
					df[p]++
				}
			}
		}
		idf = make([]float64, len(cols))
		n := float64(len(idfRows))
		for a := range idf {
			idf[a] = math.Log((1+n)/(1+df[a])) + 1
		}
	}
	indptr := []int{0}
	var idx []int32
	var data []float64
	for _, i := range rows {
		cs, vs := d.full.Row(i)
		start := len(idx)
		type ent struct {
			c int32
			v float64
		}
		var es []ent
		for a, c := range cs {
			if p, ok := pos[c]; ok {
				v := vs[a]
				if tfidf {
					v *= idf[p]
				}
				es = append(es, ent{p, v})
			}
		}
		sort.Slice(es, func(a, b int) bool { return es[a].c < es[b].c })
		norm := 0.0
		for _, e := range es {
			idx = append(idx, e.c)
			data = append(data, e.v)
			norm += e.v * e.v
		}
		if tfidf && norm > 0 {
			norm = math.Sqrt(norm)
			for p := start; p < len(data); p++ {
				data[p] /= norm
			}
		}
		indptr = append(indptr, len(idx))
	}
	x, err := sparse.NewCSR(len(rows), len(cols), indptr, idx, data)
	if err != nil {
		panic(err) // built from a valid matrix: cannot happen
	}
	return x
}

// thVariant is one of the four ways of training.
type thVariant struct {
	Name       string
	Supervised bool
	Mode       theme.Mode
}

var thVariants = []thVariant{
	{"semi-supervised Separated", false, theme.Separated},
	{"supervised Separated", true, theme.Separated},
	{"semi-supervised Combined", false, theme.Combined},
	{"supervised Combined", true, theme.Combined},
}

// thesisTable82 holds the thesis' Table 8.2 figures quoted in the issue
// (log rank accuracy %, ratios 10/30/50/70/90): dataset → variant → ratio.
var thesisTable82 = map[string]map[string]map[int]float64{
	"brown": {
		"semi-supervised Separated": {10: 38, 30: 64, 50: 71, 70: 74, 90: 73},
		"supervised Separated":      {10: 48, 30: 70, 50: 73, 70: 76, 90: 76},
	},
	"reuters": {
		"semi-supervised Separated": {10: 79, 30: 87, 50: 90, 70: 92, 90: 89},
		"supervised Separated":      {10: 74, 30: 83, 50: 89, 70: 91, 90: 89},
	},
}

// thesisBaselines are the thesis' NMF + GA ranges quoted in the issue.
var thesisBaselines = map[string]string{"brown": "46–51", "reuters": "30–38"}

// thSetting is what a run needs besides the variant.
type thSetting struct {
	loss  nmf.Loss
	tfidf bool
}

// thRun fits one variant on one split and returns the log rank accuracy
// (%) on the test documents, the iterations per factorization and the
// seconds.
func thRun(ctx context.Context, d *thData, sp *datasets.TrainTest, v thVariant, set thSetting, seed uint64) (score, refTies, iters, secs float64, err error) {
	t0 := time.Now()
	k := len(d.names)
	cfg := theme.Config{Mode: v.Mode, Loss: set.loss, Seed: seed}
	testLabels := make([][]int, len(sp.Test))
	for r, i := range sp.Test {
		testLabels[r] = d.labels[i]
	}
	var scores *mat.Dense
	var m *theme.Model
	if !v.Supervised {
		// Transductive: every document is in the fit, the test documents
		// unlabeled; the vocabulary is that of all documents.
		x := d.allDocs(set.tfidf)
		sup := make([][]int, len(d.docs))
		for _, i := range sp.Train {
			sup[i] = d.labels[i]
		}
		cfg.Themes, cfg.Labels = d.names, sup
		m, err = theme.Fit(ctx, x, cfg)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		s, err := m.TrainingScores()
		if err != nil {
			return 0, 0, 0, 0, err
		}
		scores = mat.NewDense(len(sp.Test), k, nil)
		for r, i := range sp.Test {
			scores.SetRow(r, s.Theme.RawRowView(i))
		}
	} else {
		// Fully supervised: vocabulary and fit from the training documents,
		// the test documents transformed with H fixed (no mask).
		cols := d.vocabOf(sp.Train, 10000)
		xtr := d.matrix(sp.Train, cols, set.tfidf, sp.Train)
		xte := d.matrix(sp.Test, cols, set.tfidf, sp.Train)
		trl := make([][]int, len(sp.Train))
		for r, i := range sp.Train {
			trl[r] = d.labels[i]
		}
		cfg.Themes, cfg.Labels = d.names, trl
		m, err = theme.Fit(ctx, xtr, cfg)
		if err != nil {
			return 0, 0, 0, 0, err
		}
		s, err := m.ThemeScores(ctx, xte, theme.TransformOptions{})
		if err != nil {
			return 0, 0, 0, 0, err
		}
		scores = s.Theme
	}
	lr, err := metrics.LogRankAccuracy(scores, testLabels, k, nil)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	it := 0
	for _, p := range m.Parts {
		it += p.Iterations
	}
	return 100 * lr.Score, 100 * referenceTieOrder(scores, testLabels, k), float64(it) / float64(len(m.Parts)), time.Since(t0).Seconds(), nil
}

// referenceTieOrder is the log rank accuracy with ties ranked as the
// reference code ranks them (numpy's argsort()[::-1]: among equal scores
// the higher theme index first) instead of metrics.LogRankAccuracy's
// pessimistic rank. It is reported only to explain differences.
func referenceTieOrder(scores *mat.Dense, themes [][]int, k int) float64 {
	tot, best := 0.0, 0.0
	logK := math.Log(float64(k))
	for i, ts := range themes {
		row := scores.RawRowView(i)
		for a, t := range ts {
			r := 1
			for j, v := range row {
				if v > row[t] || (v == row[t] && j > t) {
					r++
				}
			}
			tot += logK - math.Log(float64(r))
			best += logK - math.Log(float64(a+1))
		}
	}
	return tot / best
}

// thCell collects the repetitions of one table cell.
type thCell struct {
	Scores     []float64 `json:"scores"`
	RefTies    []float64 `json:"reference_tie_order,omitempty"`
	Iterations []float64 `json:"iterations,omitempty"`
	Seconds    []float64 `json:"seconds"`
}

func (c *thCell) add(s, ref, it, sec float64) {
	c.Scores = append(c.Scores, s)
	if ref >= 0 {
		c.RefTies = append(c.RefTies, ref)
	}
	c.Iterations = append(c.Iterations, it)
	c.Seconds = append(c.Seconds, sec)
}

// thBaseline is an unsupervised model fitted on all documents.
type thBaseline struct {
	name string
	w    *mat.Dense
}

// baselineScores maps the model's topics to themes on the training
// documents (genetic algorithm and exact assignment) and scores the test
// documents (%).
func baselineScores(ctx context.Context, d *thData, sp *datasets.TrainTest, w *mat.Dense, seed uint64) (ga, exact float64, err error) {
	k := len(d.names)
	trainThemes := make([][]int, len(d.docs))
	for _, i := range sp.Train {
		trainThemes[i] = d.labels[i]
	}
	testW := mat.NewDense(len(sp.Test), k, nil)
	testL := make([][]int, len(sp.Test))
	for r, i := range sp.Test {
		testW.SetRow(r, w.RawRowView(i))
		testL[r] = d.labels[i]
	}
	opts := metrics.DefaultGAOptions()
	opts.Seed = seed
	g, err := metrics.MapThemesGA(ctx, w, trainThemes, k, &opts)
	if err != nil {
		return 0, 0, err
	}
	e, err := metrics.MapThemesExact(w, trainThemes, k)
	if err != nil {
		return 0, 0, err
	}
	lg, err := metrics.LogRankAccuracy(testW, testL, k, g.ThemeToTopic)
	if err != nil {
		return 0, 0, err
	}
	le, err := metrics.LogRankAccuracy(testW, testL, k, e.ThemeToTopic)
	if err != nil {
		return 0, 0, err
	}
	return 100 * lg.Score, 100 * le.Score, nil
}

// thDatasetResult is the Table 8.2 block of one dataset.
type thDatasetResult struct {
	Dataset   string                        `json:"dataset"`
	Documents int                           `json:"documents"`
	Before    int                           `json:"documents_before_filter"`
	Themes    int                           `json:"themes"`
	Ratios    []float64                     `json:"ratios"`
	Cells     map[string]map[string]*thCell `json:"cells"` // variant → ratio → cell
}

func ratioKey(r float64) string { return fmt.Sprintf("%.0f", 100*r) }

// themeNMF runs the protocol on the corpora read returns and writes the
// report.
func themeNMF(ctx context.Context, env *lab.Env, read thReader) error {
	seeds := env.SeedsOr(5)
	brownRatios := []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9}
	reutersRatios := []float64{0.1, 0.3, 0.5, 0.7, 0.9}
	if env.Quick {
		brownRatios = []float64{0.3, 0.7}
		reutersRatios = []float64{0.3}
		seeds = min(seeds, 2)
	}
	name := "theme-nmf"
	if env.Quick {
		name += "-quick"
	}
	rep := lab.NewReport(env, name, "Theme-supervised NMF on Brown and Reuters (thesis Tables 8.1, 8.2)")
	rep.P("Reproduction of Suyunu, *Theme Supervised Nonnegative Matrix Factorization for Topic Modeling* (MSc thesis, Boğaziçi University, 2020), "+
		"chapter 8, with its reference code (suyunu/theme-supervised-nmf: libs/TSNMF_Class.py, libs/text_preprocess.py, TSNMF*.ipynb) settling what the text leaves open. "+
		"**Preprocessing** (§7.1, text_preprocess.clean_text): the text the code cleans is `' '.join(corpus.words(f))` — NLTK's WordPunct tokens for Reuters, the tagged corpus's tokens for Brown; "+
		"fix_bad_wording (lower case, URLs dropped, contractions expanded, every non-letter deleted inside a token, so *Atlanta's* → *atlantas*: `text.CleanText`, the pipeline's `--clean thesis`), "+
		"tokens of 3–15 letters, NLTK stopwords removed, WordNet lemmas trying n, v, r, a, s; documents kept when the cleaned text has more than 25 spaces (≥ 27 tokens); "+
		"counts of uni-, bi- and trigrams over the 10,000 most frequent terms of the training documents (`vectorize` preset `theme`). "+
		"**Protocol** (TSNMF_Class_Generator.ipynb): KL loss, tf, 3 subtopics, bCool, background topic allowed in the theme's own documents; "+
		"a multi-label stratified split (`datasets.StratifiedSplit`, every theme in both sets, as split_train_test_forced) puts the *supervision ratio* of the documents in the training set; "+
		"*semi-supervised*: one fit on all documents, the test documents unlabeled, their scores from the fitted W, the vocabulary from all documents; "+
		"*supervised*: vocabulary and fit on the training documents only, the test documents transformed with H fixed and no mask (the reference's scikit-learn transform). "+
		"Each test document's themes are ranked by the theme score (max over subtopics of w/(w + w_background)) and scored by the log rank accuracy (Eq. 7.1, `metrics.LogRankAccuracy`). "+
		"Fits stop by scikit-learn's rule (every 10 iterations, error decrease below 1e-4 of the initial error; at most 200). "+
		"**Baselines**: NMF (KL, NNDSVD start) and LDA (batch variational Bayes, scikit-learn's defaults) with one topic per theme fitted on all documents, their topics mapped to themes on the training documents by the thesis' genetic algorithm (`metrics.MapThemesGA`, population 3, 100 generations, greedy start) and, for comparison, by the exact optimal assignment (`metrics.MapThemesExact`), scored on the test documents. "+
		"Means ± sample standard deviations over %d repetitions (seeds 0–%d: each draws the split and the random starts).", seeds, seeds-1)

	var results []*thDatasetResult
	var interp string
	for _, which := range []string{"brown", "reuters"} {
		t0 := time.Now()
		d, err := loadThemeData(ctx, read, which)
		if err != nil {
			return err
		}
		env.Logf("%s: %d of %d documents kept, %d themes, %d distinct terms (%s)", which, len(d.docs), d.total, len(d.names), d.full.Cols, time.Since(t0).Round(time.Second))
		ratios := brownRatios
		if which == "reuters" {
			ratios = reutersRatios
		}
		res := &thDatasetResult{Dataset: which, Documents: len(d.docs), Before: d.total, Themes: len(d.names), Ratios: ratios, Cells: map[string]map[string]*thCell{}}
		cell := func(variant string, r float64) *thCell {
			if res.Cells[variant] == nil {
				res.Cells[variant] = map[string]*thCell{}
			}
			c := res.Cells[variant][ratioKey(r)]
			if c == nil {
				c = &thCell{}
				res.Cells[variant][ratioKey(r)] = c
			}
			return c
		}
		// The baselines: one NMF and one LDA per seed on all documents.
		xAll := d.allDocs(false)
		k := len(d.names)
		var bases [][]thBaseline
		for s := 0; s < seeds; s++ {
			t1 := time.Now()
			nm, err := nmf.Fit(ctx, xAll, nmf.Config{K: k, Loss: nmf.KullbackLeibler, Init: nmf.InitNNDSVD, Seed: uint64(s)})
			if err != nil {
				return err
			}
			lm, err := lda.Fit(ctx, xAll, lda.Config{K: k, Seed: uint64(s)})
			if err != nil {
				return err
			}
			lw, err := lm.Transform(ctx, xAll)
			if err != nil {
				return err
			}
			bases = append(bases, []thBaseline{{"NMF", nm.W}, {"LDA", lw}})
			env.Logf("  baselines seed %d: %s", s, time.Since(t1).Round(time.Second))
		}
		for _, r := range ratios {
			for s := 0; s < seeds; s++ {
				sp, err := datasets.StratifiedSplit(d.labels, k, r, uint64(s))
				if err != nil {
					return err
				}
				if len(sp.Missing) > 0 {
					env.Logf("  %s ratio %.1f seed %d: themes %v not in both sets", which, r, s, sp.Missing)
				}
				for _, v := range thVariants {
					sc, ref, it, sec, err := thRun(ctx, d, sp, v, thSetting{loss: nmf.KullbackLeibler}, uint64(s))
					if err != nil {
						return fmt.Errorf("%s %s ratio %.1f seed %d: %w", which, v.Name, r, s, err)
					}
					cell(v.Name, r).add(sc, ref, it, sec)
				}
				for _, b := range bases[s] {
					ga, ex, err := baselineScores(ctx, d, sp, b.w, uint64(s))
					if err != nil {
						return err
					}
					cell(b.name+" + GA", r).add(ga, -1, 0, 0)
					cell(b.name+" exact", r).add(ex, -1, 0, 0)
				}
			}
			var parts []string
			for _, v := range thVariants {
				parts = append(parts, fmt.Sprintf("%s %s", v.Name, lab.PM(cell(v.Name, r).Scores, 1)))
			}
			env.Logf("  %s %.0f%%: %s; NMF+GA %s, LDA+GA %s", which, 100*r, strings.Join(parts, ", "),
				lab.PM(cell("NMF + GA", r).Scores, 1), lab.PM(cell("LDA + GA", r).Scores, 1))
		}
		results = append(results, res)

		if which == "reuters" {
			// The interpretation of a model fitted on every Reuters
			// document with its categories (the notebooks' term figures use
			// a model trained on 100% of the data).
			vocab := make([]string, len(d.allCols))
			for a, c := range d.allCols {
				vocab[a] = d.fullVoc[c]
			}
			m, err := theme.Fit(ctx, xAll, theme.Config{Themes: d.names, Labels: d.labels, Loss: nmf.KullbackLeibler})
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := theme.WriteInterpretation(&buf, m, vocab, theme.InterpretOptions{TopN: 10}); err != nil {
				return err
			}
			if err := rep.WriteFile(name+"-reuters-terms.txt", buf.Bytes()); err != nil {
				return err
			}
			in, err := m.Interpret(vocab, theme.InterpretOptions{TopN: 8})
			if err != nil {
				return err
			}
			interp = interpretationExcerpt(in, []string{"crude", "grain", "money-fx", "ship"})
		}
	}

	// Table 8.1 on Brown: Euclidean / KL × tf / tf-idf at 30% and 70%.
	t81 := map[string]map[string]*thCell{}
	t81Ratios := []float64{0.3, 0.7}
	type combo struct {
		name string
		set  thSetting
	}
	combos := []combo{
		{"Euclidean, tf", thSetting{nmf.Frobenius, false}},
		{"Euclidean, tf-idf", thSetting{nmf.Frobenius, true}},
		{"KL, tf", thSetting{nmf.KullbackLeibler, false}},
		{"KL, tf-idf", thSetting{nmf.KullbackLeibler, true}},
	}
	brown, err := loadThemeData(ctx, read, "brown")
	if err != nil {
		return err
	}
	for _, c := range combos {
		for _, r := range t81Ratios {
			for _, v := range thVariants {
				key := c.name + " | " + v.Name
				if t81[key] == nil {
					t81[key] = map[string]*thCell{}
				}
				cl := &thCell{}
				t81[key][ratioKey(r)] = cl
				if c.name == "KL, tf" && results[0].Cells[v.Name][ratioKey(r)] != nil {
					*cl = *results[0].Cells[v.Name][ratioKey(r)] // the same runs as Table 8.2
					continue
				}
				for s := 0; s < seeds; s++ {
					sp, err := datasets.StratifiedSplit(brown.labels, len(brown.names), r, uint64(s))
					if err != nil {
						return err
					}
					sc, ref, it, sec, err := thRun(ctx, brown, sp, v, c.set, uint64(s))
					if err != nil {
						return err
					}
					cl.add(sc, ref, it, sec)
				}
			}
			env.Logf("  Table 8.1 %s %.0f%% done", c.name, 100*r)
		}
	}

	// The write-up.
	for _, res := range results {
		title := map[string]string{"brown": "Brown", "reuters": "Reuters (NLTK ApteMod)"}[res.Dataset]
		rep.H2("Table 8.2 — " + title)
		rep.P("%d of %d documents kept by the 25-word filter, %d themes. Log rank accuracy (%%) on the test documents; *thesis* is the thesis' Table 8.2 as quoted in the issue (Separated variants only).",
			res.Documents, res.Before, res.Themes)
		header := []string{"ratio"}
		for _, v := range thVariants {
			header = append(header, v.Name)
			if strings.HasSuffix(v.Name, "Separated") {
				header = append(header, "thesis")
			}
		}
		header = append(header, "NMF + GA", "NMF exact", "LDA + GA", "LDA exact")
		var rows [][]string
		for _, r := range res.Ratios {
			row := []string{fmt.Sprintf("%.0f%%", 100*r)}
			for _, v := range thVariants {
				row = append(row, lab.PM(res.Cells[v.Name][ratioKey(r)].Scores, 1))
				if strings.HasSuffix(v.Name, "Separated") {
					if f, ok := thesisTable82[res.Dataset][v.Name][int(math.Round(100*r))]; ok {
						row = append(row, fmt.Sprintf("%.0f", f))
					} else {
						row = append(row, "")
					}
				}
			}
			for _, b := range []string{"NMF + GA", "NMF exact", "LDA + GA", "LDA exact"} {
				row = append(row, lab.PM(res.Cells[b][ratioKey(r)].Scores, 1))
			}
			rows = append(rows, row)
		}
		rep.Table(header, rows)
		rep.P("Thesis baselines: NMF + GA %s on this corpus.", thesisBaselines[res.Dataset])
		var series []chart.Series
		xs := make([]float64, len(res.Ratios))
		for a, r := range res.Ratios {
			xs[a] = 100 * r
		}
		for _, name := range []string{"semi-supervised Separated", "supervised Separated", "semi-supervised Combined", "supervised Combined", "NMF + GA", "LDA + GA"} {
			ys, es := make([]float64, len(xs)), make([]float64, len(xs))
			for a, r := range res.Ratios {
				ys[a], es[a] = lab.MeanSD(res.Cells[name][ratioKey(r)].Scores)
			}
			s := chart.Series{Name: name, X: xs, Y: ys, Err: es}
			if strings.Contains(name, "GA") {
				s.Dashed, s.Err = true, nil
			}
			series = append(series, s)
		}
		if err := rep.Chart(name+"-"+res.Dataset+".svg", "log rank accuracy by supervision ratio, "+res.Dataset, chart.LineChart{
			Title: title + ": log rank accuracy (Figure 8.2)", XLabel: "supervision ratio (%)", YLabel: "log rank accuracy (%)",
			Series: series, YMin: 0, YMax: 100,
		}, chart.Size{}); err != nil {
			return err
		}
		var its []string
		for _, v := range thVariants {
			var it, sec []float64
			for _, r := range res.Ratios {
				c := res.Cells[v.Name][ratioKey(r)]
				it = append(it, c.Iterations...)
				sec = append(sec, c.Seconds...)
			}
			its = append(its, fmt.Sprintf("%s %s iterations per factorization, %s s per run", v.Name, lab.PM(it, 0), lab.PM(sec, 1)))
		}
		rep.P("Cost: %s.", strings.Join(its, "; "))
		rep.P("The same runs scored with the reference's order of tied theme scores (numpy's argsort()[::-1] puts the higher theme index first among equal scores; `metrics.LogRankAccuracy` ranks a tied theme last among its ties). The two agree except where many themes tie, which happens when a document's background weight vanishes and every subtopic with any weight scores w/(w + 0) = 1:")
		var trows [][]string
		for _, r := range res.Ratios {
			row := []string{fmt.Sprintf("%.0f%%", 100*r)}
			for _, v := range thVariants {
				row = append(row, lab.PM(res.Cells[v.Name][ratioKey(r)].RefTies, 1))
			}
			trows = append(trows, row)
		}
		th := []string{"ratio"}
		for _, v := range thVariants {
			th = append(th, v.Name)
		}
		rep.Table(th, trows)
	}

	rep.H2("Table 8.1 — Brown, loss and term weighting")
	rep.P("The same protocol with the Frobenius (Euclidean) or KL loss and tf or tf-idf weighting (scikit-learn's TfidfVectorizer: smooth idf from the training documents, L2 rows) at supervision ratios 30%% and 70%%. " +
		"The thesis' Table 8.1 figures are not available here (the thesis PDF is not in reach), so only ours are shown; the KL/tf rows are the Table 8.2 runs.")
	var rows81 [][]string
	for _, c := range combos {
		for _, v := range thVariants {
			key := c.name + " | " + v.Name
			rows81 = append(rows81, []string{c.name, v.Name, lab.PM(t81[key]["30"].Scores, 1), lab.PM(t81[key]["70"].Scores, 1)})
		}
	}
	rep.Table([]string{"loss, weighting", "variant", "30%", "70%"}, rows81)

	if interp != "" {
		rep.H2("Interpretation (Figures 8.4–8.6)")
		rep.P("A supervised Separated model (KL, tf, 3 subtopics, bCool) fitted on all %d Reuters documents with their categories. For four categories: each subtopic's and the max / sum aggregates' top terms at purity ratio λ = 0 (the direct term score, row-normalised H) and λ = 1 (the Purity Term Score, which discounts terms the theme's background topic also explains), and the background topic's top terms. "+
			"All %d categories are in [%s](%s) (`theme.WriteInterpretation`).", results[1].Documents, results[1].Themes, name+"-reuters-terms.txt", name+"-reuters-terms.txt")
		rep.Raw(interp)
	}

	rep.H2("Notes")
	for _, n := range themeNotes(results) {
		rep.P("%s", n)
	}
	if err := rep.JSON(name+".json", map[string]any{"table_8_2": results, "table_8_1": t81, "seeds": seeds}); err != nil {
		return err
	}
	return rep.Finish()
}

// interpretationExcerpt formats the named themes of in as Markdown tables.
func interpretationExcerpt(in *theme.Interpretation, names []string) string {
	var b strings.Builder
	terms := func(ts []theme.TermScore) string {
		var s []string
		for _, t := range ts {
			s = append(s, t.Term)
		}
		return strings.Join(s, ", ")
	}
	for _, name := range names {
		for _, ti := range in.Themes {
			if ti.Theme != name {
				continue
			}
			fmt.Fprintf(&b, "**%s**\n\n| λ | list | top terms |\n| --- | --- | --- |\n", name)
			for _, lt := range ti.Terms {
				for q, s := range lt.Subtopics {
					fmt.Fprintf(&b, "| %g | subtopic %d | %s |\n", lt.Lambda, q+1, terms(s))
				}
				fmt.Fprintf(&b, "| %g | max | %s |\n| %g | sum | %s |\n", lt.Lambda, terms(lt.Max), lt.Lambda, terms(lt.Sum))
			}
			fmt.Fprintf(&b, "| | background | %s |\n\n", terms(ti.Background))
		}
	}
	return b.String()
}

// themeNotes are the report's closing notes, with the measured gaps.
func themeNotes(results []*thDatasetResult) []string {
	var gaps []string
	for _, res := range results {
		for v, byRatio := range thesisTable82[res.Dataset] {
			for r, f := range byRatio {
				c := res.Cells[v][fmt.Sprintf("%d", r)]
				if c == nil {
					continue
				}
				if m, _ := lab.MeanSD(c.Scores); m < f-1 {
					gaps = append(gaps, fmt.Sprintf("%s %s %d%%: %.1f vs %.0f", res.Dataset, v, r, m, f))
				}
			}
		}
	}
	sort.Strings(gaps)
	notes := []string{
		"Preprocessing check: re-running the thesis code's cleaning (text_preprocess.clean_text with NLTK 3.8 and WordNet 3.0) on the same NLTK corpora keeps 8,159 of the 10,788 Reuters documents — the thesis' count — and all 500 Brown documents, with token streams identical to ours for every kept document. " +
			"The count depends on the filter's details: `count(' ') > 25` on the cleaned text (≥ 27 tokens) gives 8,159; ≥ 26 tokens would give 8,292 and ≥ 28 8,052.",
		"Differences from the reference that are ours by design. The reference fits with scikit-learn's alpha = 0.1, l1_ratio = 0.5 on both factors (in the scikit-learn of 2020: 0.05 added to every update's denominator plus 0.05 times the entry being updated); our fits are unregularized, as the nmf engine has no such terms. " +
			"Our multiplicative updates are the nmf engine's (the algorithm of scikit-learn's solver='mu', including its KL rule that sets H entries below 2⁻⁵² to zero), and the scikit-learn stopping rule is applied to the engine's objective (KL fits stop one iteration after the check, because the engine learns an iteration's objective during the next). " +
			"The entries of the bCool H that start at zero are held at zero, as multiplicative updates do in the reference (`theme.Config.ReviveZeros` lets them move). " +
			"The split reserves documents so that every theme is in both sets at every ratio (the reference only did so at ratios ≤ 25% and ≥ 75%) and draws with our seeded generator, so individual splits differ from the thesis' (random_state 6 and 5). " +
			"The log rank accuracy ranks tied scores pessimistically (see the tie-order tables above). " +
			"The NMF baseline starts from NNDSVD as scikit-learn's NMF did by default in 2020, but our engine lifts NNDSVD's exact zeros so that the updates can move them (scikit-learn's multiplicative updates never do), and it stops by the engine's relative rule (1e-4).",
	}
	if len(gaps) == 0 {
		notes = append(notes, "Every Separated figure of the thesis' Table 8.2 quoted in the issue is met or beaten (within one point) by the mean of our repetitions.")
	} else {
		notes = append(notes, "Where our mean falls more than a point below the thesis: "+strings.Join(gaps, "; ")+".")
	}
	return notes
}
