package ssnmfrepro

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/ssnmf"
)

// synResults is the raw results file of ssnmf-synthetic.
type synResults struct {
	Trials      int `json:"trials"`
	Experiments []struct {
		Noise       string
		Checkpoints []int
		Relative    map[string][][]float64
	} `json:"experiments"`
}

// The quick protocol on data a tenth of the notebook's size: the report's
// tables have a row per noise pair and a column per model, the raw results
// round-trip to the report's cells, and every fit improves on its start.
func TestSyntheticQuick(t *testing.T) {
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "test"}
	if err := ssnmfSynthetic(context.Background(), env, synShape{features: 60, samples: 80, targets: 40, rank: 5}); err != nil {
		t.Fatal(err)
	}
	checkSynthetic(t, out, "ssnmf-synthetic-quick", 2, []int{10, 25})
}

// TestSyntheticQuickLong runs the experiment's own quick mode (the
// notebook's sizes) and checks it as TestSyntheticQuick does.
func TestSyntheticQuickLong(t *testing.T) {
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skip("SEMITOPIC_LONG=1 runs it (the notebook's sizes, about a minute)")
	}
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "test"}
	if err := ExperimentSynthetic().Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	checkSynthetic(t, out, "ssnmf-synthetic-quick", 2, []int{10, 25})
}

// TestSyntheticReproducesLong reruns the first trial of the committed
// docs/results/ssnmf-synthetic.json to every checkpoint and checks that it
// gives the committed relative errors (SEMITOPIC_LONG=1, up to a quarter of an hour).
func TestSyntheticReproducesLong(t *testing.T) {
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skip("SEMITOPIC_LONG=1 runs it (one trial to 800 iterations at the notebook's sizes, up to a quarter of an hour)")
	}
	var want synResults
	labtest.ReadJSON(t, filepath.Join("..", "..", "docs", "results"), "ssnmf-synthetic.json", &want)
	out := t.TempDir()
	env := &lab.Env{Out: out, Seeds: 1, Command: "test"}
	if err := ExperimentSynthetic().Run(context.Background(), env); err != nil {
		t.Fatal(err)
	}
	var got synResults
	labtest.ReadJSON(t, out, "ssnmf-synthetic.json", &got)
	if len(got.Experiments) != len(want.Experiments) {
		t.Fatalf("%d noise pairs, committed %d", len(got.Experiments), len(want.Experiments))
	}
	for e, ge := range got.Experiments {
		we := want.Experiments[e]
		for m, rel := range ge.Relative {
			for c, trials := range rel {
				w := we.Relative[m][c][0]
				if g := trials[0]; math.Abs(g-w) > 1e-6*w {
					t.Errorf("%s, %s, %d iterations: relative error %.10g, committed %.10g", ge.Noise, m, ge.Checkpoints[c], g, w)
				}
			}
		}
	}
}

func checkSynthetic(t *testing.T, out, name string, trials int, checkpoints []int) {
	t.Helper()
	rep := labtest.ReadReport(t, out, name)
	if !strings.HasPrefix(rep.Title, "SSNMF on synthetic data") || !strings.Contains(rep.Text, "**Quick run**") {
		t.Errorf("title %q, or no quick-run note", rep.Title)
	}
	var res synResults
	labtest.ReadJSON(t, out, name+".json", &res)
	exps, models := synExperiments(), ssnmf.Models()
	if res.Trials != trials || len(res.Experiments) != len(exps) {
		t.Fatalf("raw results: %d trials, %d noise pairs; want %d, %d", res.Trials, len(res.Experiments), trials, len(exps))
	}
	main := len(checkpoints) - 1
	// means[e][m][c] is the mean relative error.
	means := make([][][]float64, len(exps))
	for e, ex := range res.Experiments {
		if ex.Noise != exps[e].name || !slices.Equal(ex.Checkpoints, checkpoints) || len(ex.Relative) != len(models) {
			t.Fatalf("noise pair %d: %q, checkpoints %v, %d models", e, ex.Noise, ex.Checkpoints, len(ex.Relative))
		}
		means[e] = make([][]float64, len(models))
		for mi, m := range models {
			rel := ex.Relative[m.String()]
			if len(rel) != len(checkpoints) {
				t.Fatalf("%s %v: %d checkpoints", ex.Noise, m, len(rel))
			}
			for c, xs := range rel {
				if len(xs) != trials {
					t.Fatalf("%s %v at %d: %d trials", ex.Noise, m, checkpoints[c], len(xs))
				}
				for _, v := range xs {
					// Relative to the random start: every fit must improve on it.
					if !(v > 0 && v < 1) {
						t.Errorf("%s %v at %d iterations: relative error %g, want in (0, 1)", ex.Noise, m, checkpoints[c], v)
					}
				}
				means[e][mi] = append(means[e][mi], lab.Mean(xs))
			}
		}
	}

	// Table 2: one row per noise pair, the cells the raw results' means.
	header := []string{"noise (X, Y)", "MLE model"}
	for _, m := range models {
		header = append(header, m.String()+"-SSNMF")
	}
	header = append(header, "lowest", "notebook (100 iterations): lowest")
	tb := rep.Section(t, "Relative error after").Table(t, 0, header...)
	if len(tb.Rows) != len(exps) {
		t.Fatalf("Table 2 has %d rows, want %d", len(tb.Rows), len(exps))
	}
	for e, row := range tb.Rows {
		ex := exps[e]
		mle := ssnmf.Losses{Recon: ex.xLoss, Sup: ex.yLoss}
		if row[0] != ex.name || row[1] != mle.String() {
			t.Errorf("row %d: %q, %q", e, row[0], row[1])
		}
		best := 0
		for mi, m := range models {
			cell := row[2+mi]
			if want := pmSci(res.Experiments[e].Relative[m.String()][main]); strings.Trim(cell, "*") != want {
				t.Errorf("%s %v: cell %q, raw results give %q", ex.name, m, cell, want)
			}
			if means[e][mi][main] < means[e][best][main] {
				best = mi
			}
		}
		for mi := range models {
			if bold := strings.HasPrefix(row[2+mi], "**"); bold != (mi == best) {
				t.Errorf("%s: bold on %q, the lowest is %v", ex.name, row[2+mi], models[best])
			}
		}
		mark := "✓ MLE"
		if models[best] != mle {
			mark = "✗ not the MLE"
		}
		if want := models[best].String() + " " + mark; row[len(row)-2] != want {
			t.Errorf("%s: lowest %q, want %q", ex.name, row[len(row)-2], want)
		}
		if (ex.notebookRowIdx >= 0) == (row[len(row)-1] == "(not in the notebook)") {
			t.Errorf("%s: notebook cell %q", ex.name, row[len(row)-1])
		}
	}

	// The checkpoints table: the lowest model at each checkpoint.
	ch := []string{"noise (X, Y)"}
	for _, c := range checkpoints {
		ch = append(ch, fmt.Sprint(c))
	}
	ct := rep.Section(t, "Is the ordering stable?").Table(t, 0, ch...)
	for e, row := range ct.Rows {
		for c := range checkpoints {
			best := 0
			for mi := range models {
				if means[e][mi][c] < means[e][best][c] {
					best = mi
				}
			}
			if !strings.HasPrefix(row[1+c], models[best].String()+" (") {
				t.Errorf("%s at %d iterations: %q, the lowest is %v", exps[e].name, checkpoints[c], row[1+c], models[best])
			}
		}
	}
	rep.Section(t, "How this was produced")
}
