package ssnmfrepro

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/ssnmf"
	"github.com/semitopic/semitopic/synth"
)

// ngResults is the raw results file of ssnmf-20ng.
type ngResults struct {
	Trials int `json:"trials"`
	Runs   []struct {
		Model                 string
		Lambda, Tol           float64
		Acc, TransAcc         []float64
		PHard, PSoft, Seconds []float64
		Iterations            []int
	} `json:"runs"`
	Grid map[string][]struct {
		Lambda, Tol float64
		Val         []float64
		Iterations  []int
	} `json:"validation_grid"`
	Heatmaps []string `json:"heatmaps"`
}

// The quick protocol on a synthetic corpus of the 13 newsgroups (700
// documents, one planted topic per newsgroup), through the experiment's
// split, text preset, validation grid, final fits, baselines and report.
func TestNewsgroupsQuick(t *testing.T) {
	var groups []string
	for _, c := range datasets.SSNMF20NewsClasses() {
		groups = append(groups, c.Groups...)
	}
	ctx := context.Background()
	docs, err := labtest.SyntheticDocs(ctx, synth.Config{Docs: 700, Terms: 600, Topics: len(groups), MeanLength: 60, Seed: 1}, groups)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "test"}
	if err := ssnmf20NG(ctx, env, docs); err != nil {
		t.Fatal(err)
	}
	// The planted topics make every method far better than chance (20%).
	check20NG(t, out, 2, 60)
}

// TestNewsgroupsQuickLong runs the experiment's quick mode on 20
// Newsgroups and checks it as TestNewsgroupsQuick does.
func TestNewsgroupsQuickLong(t *testing.T) {
	out := labtest.RunQuickLong(t, Experiment20NG(), "20 Newsgroups, about 2 minutes", "20news-bydate/20news-bydate.tar.gz")
	// docs/results/ssnmf-20ng.md: every method between 70% and 83%.
	check20NG(t, out, 2, 65)
}

// check20NG checks the report and raw results of a quick run with trials
// trials, every method's test accuracy above minAcc percent.
func check20NG(t *testing.T, out string, trials int, minAcc float64) {
	t.Helper()
	const name = "ssnmf-20ng-quick"
	rep := labtest.ReadReport(t, out, name)
	if !strings.HasPrefix(rep.Title, "SSNMF on 20 Newsgroups") || !strings.Contains(rep.Text, "**Quick run**") {
		t.Errorf("title %q, or no quick-run note", rep.Title)
	}
	var res ngResults
	labtest.ReadJSON(t, out, name+".json", &res)
	models := ssnmf.Models()
	if res.Trials != trials {
		t.Errorf("%d trials, want %d", res.Trials, trials)
	}
	runs := map[string]int{}
	for i, r := range res.Runs {
		runs[r.Model] = i
	}
	var want []string
	for _, m := range models {
		want = append(want, m.String())
	}
	want = append(want, "NMF + SVM", "I-NMF", "SVM", "Multinomial NB")
	if len(runs) != len(want) {
		t.Fatalf("raw results for %d methods, want %q", len(runs), want)
	}
	for _, m := range want {
		i, ok := runs[m]
		if !ok {
			t.Fatalf("no raw results for %s", m)
		}
		r := res.Runs[i]
		accs := trials
		if m == "I-NMF" {
			accs = 0 // clustering only
		}
		if len(r.Acc) != accs || len(r.PHard) != trials || len(r.PSoft) != trials {
			t.Errorf("%s: %d accuracies, %d clustering scores: want %d, %d", m, len(r.Acc), len(r.PHard), accs, trials)
		}
		for _, a := range append(append([]float64(nil), r.Acc...), r.TransAcc...) {
			if !(a >= minAcc && a <= 100) {
				t.Errorf("%s: test accuracy %g%%, want in [%g, 100]", m, a, minAcc)
			}
		}
		if m == "SVM" || m == "Multinomial NB" {
			continue
		}
		for _, p := range append(append([]float64(nil), r.PHard...), r.PSoft...) {
			if !(p > 0 && p <= 1) {
				t.Errorf("%s: clustering score %g, want in (0, 1]", m, p)
			}
		}
	}

	// Table 4: the accuracies are the raw results' means, the chosen
	// hyperparameters the grid's best point.
	acc := rep.Section(t, "Test accuracy").Table(t, 0, "method", "ours: test accuracy %", "paper", "reference code here", "ours − paper",
		"λ, tol (chosen on validation)", "iterations", "seconds per fit", "transductive variant %")
	var methods []string
	for _, row := range acc.Rows {
		methods = append(methods, row[0])
	}
	if got := strings.Join(methods, "; "); got != "(F,F)-SSNMF; (F,D)-SSNMF; (D,F)-SSNMF; (D,D)-SSNMF; NMF + SVM; SVM; Multinomial NB" {
		t.Errorf("Table 4 methods: %s", got)
	}
	for _, row := range acc.Rows {
		m := strings.TrimSuffix(row[0], "-SSNMF")
		r := res.Runs[runs[m]]
		if row[1] != lab.PM(r.Acc, 2) || labtest.Number(row[2]) != ssnmfPaper[m].paper {
			t.Errorf("%s: accuracy %q, paper %q; raw results give %q, paper %.2f", m, row[1], row[2], lab.PM(r.Acc, 2), ssnmfPaper[m].paper)
		}
		if strings.HasSuffix(row[0], "-SSNMF") && row[5] != fmt.Sprintf("%g, %g", r.Lambda, r.Tol) {
			t.Errorf("%s: chosen %q, raw results %g, %g", m, row[5], r.Lambda, r.Tol)
		}
	}

	// The validation grid: every point of the paper's grid, one ✓ per
	// model at its best mean, which is the chosen point.
	grid := ssnmf.PaperGrid(ssnmfRank)
	vt := rep.Section(t, "Hyperparameters chosen on validation").Table(t, 0, "λ", "tol", "(F,F)", "(F,D)", "(D,F)", "(D,D)")
	if len(vt.Rows) != len(grid.Lambdas)*len(grid.Tols) {
		t.Errorf("validation table: %d rows, want %d", len(vt.Rows), len(grid.Lambdas)*len(grid.Tols))
	}
	for mi, m := range models {
		pts := res.Grid[m.String()]
		if len(pts) != len(vt.Rows) {
			t.Fatalf("%v: %d grid points in the raw results, %d in the report", m, len(pts), len(vt.Rows))
		}
		best, bestMean, marks := -1, math.Inf(-1), 0
		for i, p := range pts {
			if len(p.Val) != trials {
				t.Errorf("%v λ %g tol %g: %d validation scores", m, p.Lambda, p.Tol, len(p.Val))
			}
			if mu := lab.Mean(p.Val); mu > bestMean {
				best, bestMean = i, mu
			}
			if strings.HasSuffix(vt.Rows[i][2+mi], "✓") {
				marks++
			}
		}
		r := res.Runs[runs[m.String()]]
		if marks != 1 || !strings.HasSuffix(vt.Rows[best][2+mi], "✓") || pts[best].Lambda != r.Lambda || pts[best].Tol != r.Tol {
			t.Errorf("%v: %d marks; best validation point %g, %g; chosen %g, %g", m, marks, pts[best].Lambda, pts[best].Tol, r.Lambda, r.Tol)
		}
	}

	ct := rep.Section(t, "Clustering scores P").Table(t, 0, "model", "P (hard)", "P (soft)")
	if len(ct.Rows) != len(models)+2 {
		t.Errorf("clustering table: %d rows", len(ct.Rows))
	}

	// One topic table of 13 topics and one heatmap of B per model.
	topics := rep.Section(t, "Topics of the median models")
	if len(topics.Tables) != len(models) || len(res.Heatmaps) != len(models) {
		t.Fatalf("%d topic tables, %d heatmaps; want %d", len(topics.Tables), len(res.Heatmaps), len(models))
	}
	for i := range models {
		if tb := topics.Table(t, i, "topic", "class (normalised B)", "newsgroup (hard P)", "keywords"); len(tb.Rows) != ssnmfRank {
			t.Errorf("topic table %d: %d topics", i, len(tb.Rows))
		}
		if _, err := os.Stat(filepath.Join(out, res.Heatmaps[i])); err != nil || !strings.Contains(topics.Text, "]("+res.Heatmaps[i]+")") {
			t.Errorf("heatmap %s missing or not linked: %v", res.Heatmaps[i], err)
		}
	}
	rep.Section(t, "Notes")
	rep.Section(t, "How this was produced")
}
