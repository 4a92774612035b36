package themenmf

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/synth"
)

// thResults is the raw results file of theme-nmf.
type thResults struct {
	Seeds   int                           `json:"seeds"`
	Table82 []*thDatasetResult            `json:"table_8_2"`
	Table81 map[string]map[string]*thCell `json:"table_8_1"`
}

// The quick protocol on two small synthetic corpora standing for Brown
// and Reuters (80 documents, 4 planted themes each), through the thesis'
// text preset, the stratified splits, the four variants, the NMF and LDA
// baselines, Table 8.1's settings, the interpretation and the report.
func TestThemeNMFQuick(t *testing.T) {
	read := func(ctx context.Context, which string) ([]corpus.Document, error) {
		cfg := synth.Config{Docs: 80, Terms: 120, Topics: 4, MeanLength: 45, LengthSigma: 0.3, Seed: 1}
		themes := []string{"adventure", "government", "news", "romance"}
		if which == "reuters" {
			cfg.Seed, themes = 2, []string{"crude", "grain", "money-fx", "ship"}
		}
		return labtest.SyntheticDocs(ctx, cfg, themes)
	}
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Seeds: 1, Command: "test"}
	if err := themeNMF(context.Background(), env, read); err != nil {
		t.Fatal(err)
	}
	checkThemeNMF(t, out, 1, map[string]int{"brown": 4, "reuters": 4})
}

// TestThemeNMFQuickLong runs the experiment's quick mode on Brown and
// Reuters and checks it as TestThemeNMFQuick does.
func TestThemeNMFQuickLong(t *testing.T) {
	out := labtest.RunQuickLong(t, Experiment(), "Brown and Reuters, up to half an hour", "brown/brown.zip", "reuters21578-nltk-apte/reuters.tar.gz")
	// docs/results/theme-nmf.md: 15 Brown genres, 90 Reuters categories.
	checkThemeNMF(t, out, 2, map[string]int{"brown": 15, "reuters": 90})
}

// chanceLogRank is the expected log rank accuracy (%) of a random ranking
// of k themes for a document with one theme.
func chanceLogRank(k int) float64 {
	lg, _ := math.Lgamma(float64(k + 1))
	return 100 * (1 - lg/(float64(k)*math.Log(float64(k))))
}

// checkThemeNMF checks the report and raw results of a quick run with
// seeds repetitions on corpora with the given numbers of themes.
func checkThemeNMF(t *testing.T, out string, seeds int, themes map[string]int) {
	t.Helper()
	const name = "theme-nmf-quick"
	rep := labtest.ReadReport(t, out, name)
	if !strings.HasPrefix(rep.Title, "Theme-supervised NMF on Brown and Reuters") || !strings.Contains(rep.Text, "**Quick run**") {
		t.Errorf("title %q, or no quick-run note", rep.Title)
	}
	var res thResults
	labtest.ReadJSON(t, out, name+".json", &res)
	if res.Seeds != seeds || len(res.Table82) != 2 || res.Table82[0].Dataset != "brown" || res.Table82[1].Dataset != "reuters" {
		t.Fatalf("raw results: %d seeds, %d datasets", res.Seeds, len(res.Table82))
	}
	ratios := map[string][]float64{"brown": {0.3, 0.7}, "reuters": {0.3}}
	methods := []string{"NMF + GA", "NMF exact", "LDA + GA", "LDA exact"}
	for _, v := range thVariants {
		methods = append(methods, v.Name)
	}
	for _, ds := range res.Table82 {
		k := themes[ds.Dataset]
		if ds.Themes != k || ds.Documents < 1 || ds.Documents > ds.Before || fmt.Sprint(ds.Ratios) != fmt.Sprint(ratios[ds.Dataset]) {
			t.Errorf("%s: %d themes (want %d), %d of %d documents, ratios %v", ds.Dataset, ds.Themes, k, ds.Documents, ds.Before, ds.Ratios)
		}
		chance := chanceLogRank(k)
		for _, m := range methods {
			for _, r := range ds.Ratios {
				c := ds.Cells[m][ratioKey(r)]
				if c == nil || len(c.Scores) != seeds {
					t.Fatalf("%s %s %v: cell %+v, want %d scores", ds.Dataset, m, r, c, seeds)
				}
				for _, s := range c.Scores {
					if !(s >= 0 && s <= 100) {
						t.Errorf("%s %s %v: log rank accuracy %g, want in [0, 100]", ds.Dataset, m, r, s)
					}
				}
				// Every model ranks the themes better than chance.
				if mu := lab.Mean(c.Scores); !(mu > chance) {
					t.Errorf("%s %s at %v: log rank accuracy %.1f, chance %.1f", ds.Dataset, m, r, mu, chance)
				}
			}
		}

		// The report's Table 8.2 is the raw results and the thesis.
		title := map[string]string{"brown": "Brown", "reuters": "Reuters (NLTK ApteMod)"}[ds.Dataset]
		sec := rep.Section(t, "Table 8.2 — "+title)
		header := []string{"ratio", "semi-supervised Separated", "thesis", "supervised Separated", "thesis", "semi-supervised Combined", "supervised Combined"}
		tb := sec.Table(t, 0, append(header, "NMF + GA", "NMF exact", "LDA + GA", "LDA exact")...)
		if len(tb.Rows) != len(ds.Ratios) {
			t.Fatalf("%s: Table 8.2 has %d rows", ds.Dataset, len(tb.Rows))
		}
		for i, r := range ds.Ratios {
			row := tb.Rows[i]
			if row[0] != fmt.Sprintf("%.0f%%", 100*r) {
				t.Errorf("%s row %d: ratio %q", ds.Dataset, i, row[0])
			}
			for j, h := range tb.Header[1:] {
				want := ""
				if h == "thesis" {
					want = fmt.Sprintf("%.0f", thesisTable82[ds.Dataset][tb.Header[j]][int(math.Round(100*r))])
				} else {
					want = lab.PM(ds.Cells[h][ratioKey(r)].Scores, 1)
				}
				if row[1+j] != want {
					t.Errorf("%s %v %s: %q, raw results give %q", ds.Dataset, r, h, row[1+j], want)
				}
			}
		}
		sec.Table(t, 1, "ratio", "semi-supervised Separated", "supervised Separated", "semi-supervised Combined", "supervised Combined")
		svg := name + "-" + ds.Dataset + ".svg"
		if _, err := os.Stat(filepath.Join(out, svg)); err != nil || !strings.Contains(sec.Text, "]("+svg+")") {
			t.Errorf("chart %s missing or not linked: %v", svg, err)
		}
	}

	// Table 8.1: four settings × four variants at 30% and 70%; its KL, tf
	// rows are Table 8.2's Brown runs.
	t81 := rep.Section(t, "Table 8.1 — Brown").Table(t, 0, "loss, weighting", "variant", "30%", "70%")
	if len(t81.Rows) != 16 || len(res.Table81) != 16 {
		t.Fatalf("Table 8.1: %d rows, %d raw cells; want 16", len(t81.Rows), len(res.Table81))
	}
	for _, row := range t81.Rows {
		cells := res.Table81[row[0]+" | "+row[1]]
		for j, r := range []string{"30", "70"} {
			if cells[r] == nil || len(cells[r].Scores) != seeds || row[2+j] != lab.PM(cells[r].Scores, 1) {
				t.Errorf("Table 8.1 %s, %s at %s%%: %q, raw %+v", row[0], row[1], r, row[2+j], cells[r])
			}
		}
		if row[0] == "KL, tf" {
			for _, r := range []string{"30", "70"} {
				if fmt.Sprint(res.Table81[row[0]+" | "+row[1]][r].Scores) != fmt.Sprint(res.Table82[0].Cells[row[1]][r].Scores) {
					t.Errorf("Table 8.1 KL, tf, %s at %s%% is not Table 8.2's run", row[1], r)
				}
			}
		}
	}

	// The interpretation: four categories in the report, every one in the
	// terms file.
	in := rep.Section(t, "Interpretation")
	for _, c := range []string{"crude", "grain", "money-fx", "ship"} {
		if !strings.Contains(in.Text, "**"+c+"**") {
			t.Errorf("interpretation lacks %s", c)
		}
	}
	terms, err := os.ReadFile(filepath.Join(out, name+"-reuters-terms.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(terms), "\n== "); n != themes["reuters"] {
		t.Errorf("the terms file interprets %d categories, want %d", n, themes["reuters"])
	}
	rep.Section(t, "Notes")
	rep.Section(t, "How this was produced")
}
