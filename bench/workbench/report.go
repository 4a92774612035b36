package main

import (
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/workbench"
)

// reportName is the report's file name without .md; the chart and the
// raw results begin with it.
const reportName = "workbench"

// The targets for the median time from an edit to new topics, in
// seconds, per kind.
var medianTarget = map[string]float64{model.KindNMF: 2, model.KindTSNMF: 2, model.KindSSNMF: 2, model.KindCorEx: 5, model.KindLDA: 5}

// The targets for the edits' effects, in percent.
const (
	seedTarget  = 99
	exclTarget  = 100
	labelTarget = 99
)

// personThresholds returns the test accuracies (%) whose labels needed
// the report compares: the multiples of 10 (of 5 when that gives fewer
// than three) above the lowest first point of the curves and up to the
// highest point any of them reaches, so that they suit any corpus.
func personThresholds(curves ...[]activePoint) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range curves {
		for i, p := range c {
			for _, y := range []float64{p.Workbench, p.SVM} {
				if math.IsNaN(y) {
					continue
				}
				if i == 0 {
					lo = min(lo, y)
				}
				hi = max(hi, y)
			}
		}
	}
	var out []float64
	for _, step := range []float64{10, 5} {
		out = out[:0]
		for th := (math.Floor(lo/step) + 1) * step; th <= hi; th += step {
			out = append(out, th)
		}
		if len(out) >= 3 {
			break
		}
	}
	return out
}

// newReport starts the report when the run starts: its closing line
// gives the run's wall time.
func newReport(cfg *config) *lab.Report {
	env := &lab.Env{Out: cfg.out, Quick: cfg.quick, Command: cfg.command, Log: cfg.log}
	return lab.NewReport(env, reportName, "The workbench: time to new topics, edits that take effect, a simulated person")
}

// writeReport writes the report r of res, its chart and its raw results.
func writeReport(r *lab.Report, cfg *config, res *results) error {
	r.P("What `semitopic workbench` does for a person, measured as a person uses it: over HTTP on loopback (package workbench/web serving a workbench.Session in this process), on %s (%d training documents, %d test documents, %d classes), k = %d, seed %d. Every time is wall clock on %d cores (%s/%s, %s); load average %s at the start and %s at the end. Refits are whatever the engine does at the time of the run (cold fits before the kinds' warm start, warm ones after): what the fit of each kind's first scripted edit noted is listed under the timing, and says which. Percentiles are interpolated between order statistics (NumPy's default).",
		res.data, res.trainDocs, res.testDocs, res.classes, cfg.k, cfg.seed, runtime.GOMAXPROCS(0), runtime.GOOS, runtime.GOARCH, runtime.Version(),
		orDash(res.load[0]), orDash(res.load[1]))
	if cfg.quick {
		r.P("Quick protocol: the demo corpus, k = %d, at most %d iterations per fit, %d random edits per kind, %d rounds of %d labels, a synthetic corpus of %d documents, a pause of %v after an edit instead of the workbench's %v.",
			cfg.k, cfg.maxIter, cfg.edits, cfg.rounds, cfg.perRound, cfg.big, cfg.debounce, workbench.DefaultDebounce)
	}
	summary(r, cfg, res)
	if cfg.timing {
		timingSection(r, cfg, res)
	}
	if res.big != nil {
		responsiveSection(r, res.big)
	}
	if cfg.effects {
		effectsSection(r, cfg, res)
	}
	if res.active != nil {
		if err := personSection(r, cfg, res.active); err != nil {
			return err
		}
	}
	costSection(r, res)
	if err := r.JSON(reportName+".json", rawResults(cfg, res)); err != nil {
		return err
	}
	return r.Finish()
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// secs writes seconds with one decimal ("—" for NaN).
func secs(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.1f", x)
}

// pct writes a percentage with one decimal ("—" for NaN).
func pct(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.1f", x)
}

// ofN writes k of n as a percentage with the counts.
func ofN(k, n int) string { return lab.OfN(k, n) }

func yesNo(ok bool) string {
	if ok {
		return "met"
	}
	return "missed"
}

// summary writes the goals and where they stand.
func summary(r *lab.Report, cfg *config, res *results) {
	r.H2("Goals of the issue, and where they stand")
	var rows [][]string
	if cfg.timing {
		for _, kr := range res.kinds {
			xs := kr.scriptSeconds()
			med := quantile(xs, 0.5)
			target, ok := medianTarget[kr.Kind]
			met := "no target"
			tcell := "—"
			if ok {
				met, tcell = yesNo(med <= target), fmt.Sprintf("median ≤ %g s", target)
			}
			rows = append(rows, []string{"time from an edit to new topics, " + kr.Kind, tcell,
				fmt.Sprintf("median %s s, p90 %s s (%d scripted edits)", secs(med), secs(quantile(xs, 0.9)), len(xs)), met})
		}
		if b := res.big; b != nil {
			var worst float64
			for _, e := range b.Endpoints[:2] {
				worst = max(worst, quantile(e.During, 0.99))
			}
			rows = append(rows, []string{fmt.Sprintf("the page while a refit runs, %d synthetic documents", b.Docs), "stays responsive",
				fmt.Sprintf("p99 of /api/status and /api/topics during a %.1f s refit: %.0f ms at most", b.Refit, worst), "see below"})
		}
	}
	if cfg.effects {
		for _, kr := range res.kinds {
			n, top := 0, 0
			for _, sc := range kr.Effects.Seeds {
				n, top = n+sc.N, top+sc.Top10
			}
			rows = append(rows, []string{"seed word in its topic's top 10 after the refit, " + kr.Kind, fmt.Sprintf("≥ %d%%", seedTarget),
				ofN(top, n) + " by the engine's check", yesNo(n > 0 && rate(top, n) >= seedTarget)})
		}
		n, zero := 0, 0
		for _, kr := range res.kinds {
			n, zero = n+kr.Effects.Excl, zero+kr.Effects.ExclZero
		}
		rows = append(rows, []string{"excluded word weighs exactly 0 in its topic, every kind", fmt.Sprintf("%d%%", exclTarget),
			ofN(zero, n) + " by the engine's check", yesNo(n > 0 && zero == n)})
		for _, kr := range res.kinds {
			ef := kr.Effects
			if ef.LabelDocs == 0 {
				continue
			}
			rows = append(rows, []string{"labeled document predicted with its label, " + kr.Kind, fmt.Sprintf("≥ %d%%", labelTarget),
				ofN(ef.LabelAgreeAPI, ef.LabelDocs) + " by /api/docs" + wordlessNote(ef.LabelWordless), yesNo(rate(ef.LabelAgreeAPI, ef.LabelDocs) >= labelTarget)})
		}
	}
	if a := res.active; a != nil && len(a.Arms) == 2 && len(a.Arms[0].Points) > 0 && len(a.Arms[1].Points) > 0 {
		p, q := a.Arms[0].Points[len(a.Arms[0].Points)-1], a.Arms[1].Points[len(a.Arms[1].Points)-1]
		rows = append(rows, []string{"a simulated person labeling the proposed documents does better than random documents and than a linear SVM on the same labels", "higher accuracy with as many labels",
			fmt.Sprintf("at %d labels: proposed %s%%, random %s%%, SVM on the proposed labels %s%%", p.Labels, pct(p.Workbench), pct(q.Workbench), pct(p.SVM)),
			yesNo(p.Workbench > q.Workbench && p.Workbench > p.SVM)})
	}
	r.Table([]string{"goal", "target", "measured", ""}, rows)
}

// timingSection writes the times of the scripted edits.
func timingSection(r *lab.Report, cfg *config, res *results) {
	r.H2("Time from an edit to new topics")
	r.P("Each kind has its own session, opened on the training set with k = %d. The kinds that learn from labels (%s) first get %.0f%% of each class's training documents labeled with their class through the API, one label edit per class. Then, after the random edits of the next sections (each undone), a scripted sequence of edits, each planned from what the page shows (the current topics and supervision): a seed word (the topic's word ranked 15 or below), an exclusion (a word of the same topic's top 10), up to 5 of a topic's top documents labeled with their class (kinds that learn from labels), a rename, a stopword (a top-5 word), a removed document, a new topic from three words, a split into two groups of two top words, a merge, a deletion, k + 1, then the removal of the seed word, the exclusion, the stopword, the document's removal and the labels. Each is timed from the request `POST /api/edit` to the answer of `GET /api/topics?n=%d` after `GET /api/wait` on the version the edit returned, the workbench's pause of %v after an edit (so that a burst of edits is one refit) included. The round's own figure (refit) runs from the refit's start, after the pause, to the round shown. The edits follow one another at once: a refit's background accuracy estimate is cancelled by the next edit, as it is when a person edits on.",
		cfg.k, strings.Join(labelKinds(cfg.kinds), ", "), 100*cfg.labelFrac, topicWords, effectiveDebounce(cfg))
	var rows [][]string
	for _, kr := range res.kinds {
		xs := kr.scriptSeconds()
		var refit, rnd []float64
		for _, s := range kr.Script {
			refit = append(refit, s.Refit)
		}
		for _, s := range kr.Random {
			rnd = append(rnd, s.Seconds)
		}
		setup := "—"
		if kr.Labeled > 0 {
			setup = fmt.Sprintf("%d in %s s", kr.Labeled, secs(kr.Setup))
		}
		rows = append(rows, []string{kr.Kind, secs(kr.Open), setup, fmt.Sprint(len(xs)), secs(quantile(xs, 0.5)), secs(quantile(xs, 0.9)),
			secs(maxOf(xs)), secs(quantile(refit, 0.5)),
			fmt.Sprint(len(rnd)), secs(quantile(rnd, 0.5)), secs(quantile(rnd, 0.9))})
	}
	r.Table([]string{"kind", "first round (nmf, before any label), s", "labels given first, and their refit", "scripted edits", "median, s", "p90, s", "max, s", "median refit (round's figure), s",
		"random edits", "median, s", "p90, s"}, rows)
	// Per edit.
	var ops []string
	for _, kr := range res.kinds {
		for _, s := range kr.Script {
			if !slices.Contains(ops, s.Op) {
				ops = append(ops, s.Op)
			}
		}
	}
	header := []string{"edit"}
	for _, kr := range res.kinds {
		header = append(header, kr.Kind+", s")
	}
	rows = nil
	for _, op := range ops {
		row := []string{op}
		for _, kr := range res.kinds {
			cell := "—"
			for _, s := range kr.Script {
				if s.Op == op {
					cell = secs(s.Seconds)
				}
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	r.P("Each scripted edit, in order (seconds from the request to the topics):")
	r.Table(header, rows)
	skipped(r, res)
	notes(r, res)
}

// effectiveDebounce is the sessions' pause after an edit.
func effectiveDebounce(cfg *config) any {
	if cfg.debounce != 0 {
		return cfg.debounce
	}
	return workbench.DefaultDebounce
}

func labelKinds(kinds []string) []string {
	var out []string
	for _, k := range kinds {
		if takesLabels(k) {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return []string{"none here"}
	}
	return out
}

// skipped lists the edits the workbench refused or could not plan.
func skipped(r *lab.Report, res *results) {
	var lines []string
	for _, kr := range res.kinds {
		for _, s := range kr.Skipped {
			lines = append(lines, fmt.Sprintf("- %s: %s", kr.Kind, s))
		}
	}
	if len(lines) == 0 {
		r.P("No edit was refused or left out.")
		return
	}
	r.P("Edits refused by the workbench, whose refit failed, or that the script could not plan (not timed):\n\n%s", strings.Join(lines, "\n"))
}

// notes lists what the fit of each kind's first scripted edit noted.
func notes(r *lab.Report, res *results) {
	var lines []string
	for _, kr := range res.kinds {
		if len(kr.Script) == 0 {
			continue
		}
		s := kr.Script[0]
		if len(s.Notes) == 0 {
			lines = append(lines, fmt.Sprintf("- %s (%s): nothing", kr.Kind, s.Op))
		}
		for _, n := range s.Notes {
			lines = append(lines, fmt.Sprintf("- %s (%s): %s", kr.Kind, s.Op, n))
		}
	}
	if len(lines) > 0 {
		r.P("What the fit of each kind's first scripted edit noted (`GET /api/status`, notes):\n\n%s", strings.Join(lines, "\n"))
	}
}

// responsiveSection writes the latencies on the synthetic corpus.
func responsiveSection(r *lab.Report, b *responsive) {
	r.H2("The page while a refit runs")
	r.P("A synthetic corpus (package synth, built in memory as an already-vectorized corpus, as the mtx reader gives one): %d documents, %d terms, %d non-zeros, 20 planted topics; an nmf session with k = 20 and at most %d iterations per fit (enough for a refit long enough to sample; the page's answers do not depend on the fit's length). First round in %.1f s. Each request was timed %d times while idle, then a seed word was added and the three requests were sent one after another, with a pause of %v between rounds, until the status said the refit was done (%.1f s after the edit; %d rounds). Milliseconds, from the request to the decoded answer. Peak resident memory of the process: %s.",
		b.Docs, b.Terms, b.NNZ, b.Iter, b.Open, idleRounds, pollEvery, b.Refit, len(b.Endpoints[0].During), mib(b.PeakMiB))
	var rows [][]string
	for _, e := range b.Endpoints {
		rows = append(rows, []string{"`" + e.Name + "`", ms(quantile(e.Idle, 0.5)), ms(quantile(e.Idle, 0.99)), ms(maxOf(e.Idle)),
			fmt.Sprint(len(e.During)), ms(quantile(e.During, 0.5)), ms(quantile(e.During, 0.99)), ms(maxOf(e.During))})
	}
	r.Table([]string{"request", "idle: median, ms", "p99, ms", "max, ms", "during the refit: requests", "median, ms", "p99, ms", "max, ms"}, rows)
}

func ms(x float64) string {
	if math.IsNaN(x) {
		return "—"
	}
	return fmt.Sprintf("%.1f", x)
}

func mib(x float64) string {
	if x == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%.0f MiB", x)
}

func maxOf(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return slices.Max(xs)
}

// effectsSection writes the rates at which the random edits took effect.
func effectsSection(r *lab.Report, cfg *config, res *results) {
	r.H2("Do edits take effect?")
	r.P("On each kind's session (after the labels given first), %d random edits, each refitted, checked and undone (undo goes back to the round before the edit without refitting, so every edit starts from the same round): a seed word (half of the edits; its source drawn at even odds: one of the topic's words ranked 11 to 100, which the topic already leans to, or one of the 1,000 most frequent terms not in its top 10), an exclusion (a word of the topic's top 10) and, for the kinds that learn from labels, 1 to 3 training documents of one class labeled with it (a quarter each; the kinds that learn no labels get exclusions instead). The engine's checks are those of the round's diff (`GET /api/rounds/{n}/diff`); the independent ones read `GET /api/topics` (the top 10 words for a seed word; the top %d words, the most the API lists, for an exclusion: the word must not be among them with a weight above 0) and `GET /api/docs/{id}` (the predicted label; a labeled document that holds no word of the vocabulary, which the page marks and no model can predict, is counted apart). The workbench fits ssnmf and corex with labels held (the fit option hold-labels; tsnmf and lda hold them by construction). Random stream: seed %d.",
		cfg.edits, maxWordsAPI, cfg.seed)
	var rows [][]string
	for _, kr := range res.kinds {
		ef := kr.Effects
		n, top, api := 0, 0, 0
		var ranks []float64
		bySource := make([]string, len(seedSources))
		for i, src := range seedSources {
			sc := ef.Seeds[src]
			if sc == nil {
				continue
			}
			n, top, api = n+sc.N, top+sc.Top10, api+sc.Top10API
			for _, rk := range sc.Ranks {
				if rk == 0 {
					rk = workbench.MaxWords + 1
				}
				ranks = append(ranks, float64(rk))
			}
			bySource[i] = ofN(sc.Top10, sc.N)
		}
		label, labelAPI, all, wordless := "—", "—", "—", "—"
		if ef.LabelDocs+ef.LabelWordless > 0 {
			wordless = fmt.Sprint(ef.LabelWordless)
		}
		if ef.LabelDocs > 0 {
			label = ofN(ef.LabelAgree, ef.LabelDocs)
			if ef.LabelUnknown > 0 {
				label += fmt.Sprintf(", %d not said", ef.LabelUnknown)
			}
			labelAPI = ofN(ef.LabelAgreeAPI, ef.LabelDocs)
		}
		if ef.AllLabeled > 0 {
			all = ofN(ef.AllAgree, ef.AllLabeled)
			if ef.AllWordless > 0 {
				all += fmt.Sprintf("; %d holding no word", ef.AllWordless)
			}
		}
		rows = append(rows, []string{kr.Kind, fmt.Sprint(len(kr.Random)), ofN(top, n), ofN(api, n), bySource[0], bySource[1], secs(quantile(ranks, 0.5)),
			ofN(ef.ExclZero, ef.Excl), ofN(ef.ExclAbsent, ef.Excl), label, labelAPI, wordless, all})
	}
	r.Table([]string{"kind", "edits checked", "seed word in top 10 (engine)", "(API)", "of which " + seedSources[0], "of which " + seedSources[1], "median rank",
		"exclusion weighs 0 (engine)", fmt.Sprintf("absent from the top %d (API)", maxWordsAPI), "labeled document predicted with its label (engine)", "(API)",
		"labeled documents holding no word (not counted)", "every labeled document holding a word, every round (engine)"}, rows)
	var lines []string
	for _, kr := range res.kinds {
		for _, m := range kr.Effects.Misses {
			lines = append(lines, fmt.Sprintf("- %s: %s", kr.Kind, m))
		}
	}
	if len(lines) > 0 {
		r.P("Edits that did not take effect (the first %d per kind):\n\n%s", maxMisses, strings.Join(lines, "\n"))
	} else {
		r.P("Every checked edit took effect.")
	}
	var promises []string
	for _, kr := range res.kinds {
		if kr.Promise != "" {
			promises = append(promises, fmt.Sprintf("- %s: %s.", kr.Kind, kr.Promise))
		}
	}
	if len(promises) > 0 {
		r.P("What the page says of the promises when an edit is made (`GET /api/status`, promise):\n\n%s", strings.Join(promises, "\n"))
	}
}

// personSection writes the simulated person's curves.
func personSection(r *lab.Report, cfg *config, a *activeResult) error {
	r.H2("A simulated person")
	r.P("Two sessions of %s on the training set, k = %d, each starting without labels. Each round the person labels %d training documents with their true class and waits for the refit: in one session the documents `GET /api/suggest` proposes (the model's least sure, spread over the topics), in the other random ones (a fixed random order, seed %d). After each round the current model is downloaded (`GET /api/export/model`: the cold fit of the round's supervision, what `semitopic fit` makes of the exported files) and scored on the %s test documents; a linear SVM (package classify, as the label-efficiency benchmark trains it: LinearSVC on the %s pipeline's features, fitted on the training documents) is trained on the same labels and scored on the same documents. Accuracy in percent: a test document is right when its predicted label is its class.",
		a.Kind, cfg.k, cfg.perRound, cfg.seed, "held-out", a.SVMPreset)
	prop, rnd := a.Arms[0], a.Arms[1]
	n := max(len(prop.Points), len(rnd.Points))
	var rows [][]string
	for i := range n {
		row := []string{"", "", "", "", ""}
		if i < len(prop.Points) {
			p := prop.Points[i]
			row[0], row[1], row[2] = fmt.Sprint(p.Labels), pct(p.Workbench), pct(p.SVM)
		}
		if i < len(rnd.Points) {
			q := rnd.Points[i]
			if row[0] == "" {
				row[0] = fmt.Sprint(q.Labels)
			}
			row[3], row[4] = pct(q.Workbench), pct(q.SVM)
		}
		rows = append(rows, row)
	}
	r.Table([]string{"labels", a.Kind + ", proposed documents", "SVM, proposed documents", a.Kind + ", random documents", "SVM, random documents"}, rows)
	series := []chart.Series{
		curve(a.Kind+", proposed documents", prop.Points, false, false),
		curve("SVM, proposed documents", prop.Points, true, true),
		curve(a.Kind+", random documents", rnd.Points, false, false),
		curve("SVM, random documents", rnd.Points, true, true),
	}
	if err := r.Chart(reportName+"-person.svg", "test accuracy against the number of labels", chart.LineChart{Title: "A simulated person: test accuracy against labels",
		XLabel: "labeled documents", YLabel: "test accuracy, %", Series: series, LegendLeft: false}, chart.Size{Width: 16, Height: 10}); err != nil {
		return err
	}
	// Labels needed to reach each accuracy.
	var trows [][]string
	for _, th := range personThresholds(prop.Points, rnd.Points) {
		trows = append(trows, []string{fmt.Sprintf("%.0f%%", th), reach(prop.Points, th, false), reach(prop.Points, th, true), reach(rnd.Points, th, false), reach(rnd.Points, th, true)})
	}
	r.P("Labels needed to reach a test accuracy (the first round at or above it):")
	r.Table([]string{"accuracy", a.Kind + ", proposed", "SVM, proposed", a.Kind + ", random", "SVM, random"}, trows)
	r.P("%s", personVerdict(a))
	return nil
}

// curve is one line of the person's chart; svm takes the SVM's accuracy.
func curve(name string, pts []activePoint, svm, dashed bool) chart.Series {
	s := chart.Series{Name: name, Dashed: dashed}
	for _, p := range pts {
		y := p.Workbench
		if svm {
			y = p.SVM
		}
		if math.IsNaN(y) {
			continue
		}
		s.X, s.Y = append(s.X, float64(p.Labels)), append(s.Y, y)
	}
	return s
}

// reach returns the labels of the first point at or above th.
func reach(pts []activePoint, th float64, svm bool) string {
	for _, p := range pts {
		y := p.Workbench
		if svm {
			y = p.SVM
		}
		if y >= th {
			return fmt.Sprint(p.Labels)
		}
	}
	if len(pts) == 0 {
		return "—"
	}
	return fmt.Sprintf("not within %d", pts[len(pts)-1].Labels)
}

// personVerdict says plainly where the proposals help and where the SVM
// wins.
func personVerdict(a *activeResult) string {
	prop, rnd := a.Arms[0].Points, a.Arms[1].Points
	n := min(len(prop), len(rnd))
	var better, worse []string
	var svmWins []string
	diff := 0.0
	for i := range n {
		d := prop[i].Workbench - rnd[i].Workbench
		diff += d
		lbl := fmt.Sprint(prop[i].Labels)
		if d > 0 {
			better = append(better, lbl)
		} else {
			worse = append(worse, lbl)
		}
	}
	for _, p := range prop {
		if p.SVM > p.Workbench {
			svmWins = append(svmWins, fmt.Sprint(p.Labels))
		}
	}
	var b strings.Builder
	if n > 0 {
		fmt.Fprintf(&b, "The proposed documents give the %s model a higher test accuracy than random ones at %d of %d label counts (mean difference %+.1f points)", a.Kind, len(better), n, diff/float64(n))
		if len(worse) > 0 {
			fmt.Fprintf(&b, "; they do not help at %s labels", strings.Join(worse, ", "))
		}
		b.WriteString(". ")
	}
	if len(svmWins) > 0 {
		fmt.Fprintf(&b, "A linear SVM trained on the same (proposed) labels beats the %s model at %s labels", a.Kind, strings.Join(svmWins, ", "))
		if len(svmWins) == len(prop) {
			b.WriteString(": at every label count")
		}
		b.WriteString(".")
	} else if len(prop) > 0 {
		fmt.Fprintf(&b, "The %s model beats a linear SVM trained on the same (proposed) labels at every label count.", a.Kind)
	}
	return b.String()
}

// costSection writes the run's CPU and wall time per part.
func costSection(r *lab.Report, res *results) {
	r.H2("Cost of this run")
	var rows [][]string
	cpu := func(c cpuTimes) string {
		if !c.OK {
			return "unknown"
		}
		return fmt.Sprintf("%.0f", c.Total().Seconds())
	}
	for _, kr := range res.kinds {
		rows = append(rows, []string{kr.Kind + " session (timing and random edits)", fmt.Sprintf("%.0f", kr.Wall), cpu(kr.CPU)})
	}
	if b := res.big; b != nil {
		rows = append(rows, []string{"synthetic corpus (drawing, first round, refit)", fmt.Sprintf("%.0f", b.Wall), cpu(b.CPU)})
	}
	if a := res.active; a != nil {
		for _, arm := range a.Arms {
			rows = append(rows, []string{"simulated person, " + arm.Name + " documents", fmt.Sprintf("%.0f", arm.Wall), cpu(arm.CPU)})
		}
	}
	total := res.cpu.since()
	rows = append(rows, []string{"the whole run (reading the corpus and the report included)", "see below", cpu(total)})
	r.Table([]string{"part", "wall, s", "CPU (user + system), s"}, rows)
	if total.OK {
		r.P("CPU time of the whole run: %.0f s (%.0f s user, %.0f s system), server and client together (one process).", total.Total().Seconds(), total.User.Seconds(), total.System.Seconds())
	}
}

// rawResults is what the report's JSON file holds: the measurements, an
// accuracy that could not be measured (NaN) as null.
func rawResults(cfg *config, res *results) any {
	var person any
	if a := res.active; a != nil {
		num := func(x float64) any {
			if math.IsNaN(x) {
				return nil
			}
			return x
		}
		var arms []any
		for _, arm := range a.Arms {
			var pts []any
			for _, p := range arm.Points {
				pts = append(pts, map[string]any{"labels": p.Labels, "classes": p.Classes, "workbench": num(p.Workbench), "svm": num(p.SVM), "seconds": p.Seconds})
			}
			arms = append(arms, map[string]any{"name": arm.Name, "points": pts, "proposed": arm.Proposed, "wall": arm.Wall})
		}
		person = map[string]any{"kind": a.Kind, "svm_preset": a.SVMPreset, "arms": arms}
	}
	return map[string]any{
		"data": res.data, "train_docs": res.trainDocs, "test_docs": res.testDocs, "k": cfg.k, "seed": cfg.seed, "quick": cfg.quick,
		"label_frac": cfg.labelFrac, "edits_per_kind": cfg.edits, "kinds": res.kinds, "synthetic": res.big, "person": person,
	}
}

// wordlessNote says how many labeled documents held no word and were not
// counted ("" for none).
func wordlessNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; %d holding no word of the vocabulary not counted", n)
}
