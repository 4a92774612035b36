package tsnmfreuters

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/synth"
)

// tsResults is the raw results file of tsnmf-reuters.
type tsResults struct {
	Documents, Terms, Labels, Seeds int
	Candidates                      []struct {
		Config                                string
		Validation, Test, TestUnlab, Resolved []float64
		Iterations                            []float64
	}
	Chosen string
	Sweep  []struct {
		Rate                                 float64
		Weighted, WeightedUnlab, WeightedRes []float64
		Unweighted, UnweightedUnlab, UnwRes  []float64
	}
	Baselines []struct {
		Name              string
		Jaccard, Resolved []float64
	}
}

// The quick protocol on a synthetic corpus of five planted categories
// (150 documents), through the paper's length filter and text preset, the
// choice of configuration on validation, the supervision sweep, the NMF
// and LDA baselines, the example documents and the report.
func TestTSNMFReutersQuick(t *testing.T) {
	ctx := context.Background()
	docs, err := labtest.SyntheticDocs(ctx, synth.Config{Docs: 150, Terms: 300, Topics: 5, MeanLength: 70, LengthSigma: 0.3, Seed: 1},
		[]string{"acq", "crude", "earn", "grain", "trade"})
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "test"}
	if err := tsnmfReuters(ctx, env, docs); err != nil {
		t.Fatal(err)
	}
	checkTSNMFReuters(t, out, 5)
}

// TestTSNMFReutersQuickLong runs the experiment's quick mode on Reuters
// and checks it as TestTSNMFReutersQuick does.
func TestTSNMFReutersQuickLong(t *testing.T) {
	out := labtest.RunQuickLong(t, Experiment(), "Reuters, about 10 minutes", "reuters21578-nltk-apte/reuters.tar.gz")
	checkTSNMFReuters(t, out, 90)
}

// checkTSNMFReuters checks the report and raw results of a quick run on a
// corpus with labels categories.
func checkTSNMFReuters(t *testing.T, out string, labels int) {
	t.Helper()
	const name = "tsnmf-reuters-quick"
	rep := labtest.ReadReport(t, out, name)
	if !strings.HasPrefix(rep.Title, "TS-NMF on Reuters") || !strings.Contains(rep.Text, "**Quick run**") {
		t.Errorf("title %q, or no quick-run note", rep.Title)
	}
	var res tsResults
	labtest.ReadJSON(t, out, name+".json", &res)
	const seeds = 2
	if res.Labels != labels || res.Seeds != seeds || res.Documents < 1 || res.Terms < 1 {
		t.Fatalf("raw results: %d labels (want %d), %d seeds, %d documents × %d terms", res.Labels, labels, res.Seeds, res.Documents, res.Terms)
	}
	in := func(what string, xs []float64, hi float64) {
		if len(xs) != seeds {
			t.Errorf("%s: %d values, want %d", what, len(xs), seeds)
		}
		for _, x := range xs {
			if !(x >= 0 && x <= hi) {
				t.Errorf("%s: %g, want in [0, %g]", what, x, hi)
			}
		}
	}

	// The sweep: rates 0 and 0.2, similarities in [0, 1], resolved
	// categories at most all; supervision raises the similarity above
	// no supervision and above every baseline (docs/results/tsnmf-reuters.md).
	if len(res.Sweep) != 2 || res.Sweep[0].Rate != 0 || res.Sweep[1].Rate != 0.2 {
		t.Fatalf("sweep %+v, want rates 0 and 0.2", res.Sweep)
	}
	for _, s := range res.Sweep {
		for what, xs := range map[string][]float64{"weighted": s.Weighted, "unweighted": s.Unweighted, "unlabeled": s.WeightedUnlab, "unweighted unlabeled": s.UnweightedUnlab} {
			in(fmt.Sprintf("rate %g, %s", s.Rate, what), xs, 1)
		}
		in(fmt.Sprintf("rate %g, resolved", s.Rate), s.WeightedRes, float64(labels))
		in(fmt.Sprintf("rate %g, resolved unweighted", s.Rate), s.UnwRes, float64(labels))
	}
	at20 := lab.Mean(res.Sweep[1].Weighted)
	if at0 := lab.Mean(res.Sweep[0].Weighted); !(at20 > at0) {
		t.Errorf("TS-NMF at 20%% supervision %.3f, not above no supervision %.3f", at20, at0)
	}
	if len(res.Baselines) != 3 {
		t.Fatalf("%d baselines, want NMF twice and LDA", len(res.Baselines))
	}
	for _, b := range res.Baselines {
		in(b.Name, b.Jaccard, 1)
		in(b.Name+" resolved", b.Resolved, float64(labels))
		if m := lab.Mean(b.Jaccard); !(at20 > m) {
			t.Errorf("TS-NMF at 20%% supervision %.3f, not above %s %.3f", at20, b.Name, m)
		}
	}

	// The report's tables are the raw results.
	result := rep.Section(t, "Result")
	sw := result.Table(t, 0, "supervision", "TS-NMF weighted", "resolved", "TS-NMF unweighted", "resolved", "weighted, unlabeled docs only", "paper code: weighted / unweighted (resolved)")
	for i, row := range sw.Rows {
		s := res.Sweep[i]
		want := []string{fmt.Sprintf("%.2f", s.Rate), lab.PM(s.Weighted, 3), lab.PM(s.WeightedRes, 1), lab.PM(s.Unweighted, 3), lab.PM(s.UnwRes, 1), lab.PM(s.WeightedUnlab, 3), tsPaperFigures(s.Rate)}
		if strings.Join(row, "|") != strings.Join(want, "|") {
			t.Errorf("sweep row %d: %q, raw results give %q", i, row, want)
		}
	}
	bt := result.Table(t, 1, "baseline", "mean matched similarity", "resolved", "seconds per fit", "paper code (30 runs)")
	for i, row := range bt.Rows {
		b := res.Baselines[i]
		if row[0] != b.Name || row[1] != lab.PM(b.Jaccard, 3) || row[2] != lab.PM(b.Resolved, 1) {
			t.Errorf("baseline row %q, raw results %s %s %s", row, b.Name, lab.PM(b.Jaccard, 3), lab.PM(b.Resolved, 1))
		}
	}
	for _, svg := range []string{name + "-similarity.svg", name + "-resolved.svg"} {
		if _, err := os.Stat(filepath.Join(out, svg)); err != nil || !strings.Contains(result.Text, "]("+svg+")") {
			t.Errorf("chart %s missing or not linked: %v", svg, err)
		}
	}

	// The choice of configuration: the candidate of best validation score
	// is marked and used.
	ct := rep.Section(t, "What decides it").Table(t, 0, "configuration", "validation similarity", "all documents", "resolved", "unlabeled docs only", "iterations")
	if len(ct.Rows) != len(res.Candidates) || len(ct.Rows) != 2 {
		t.Fatalf("%d candidates in the report, %d in the raw results; want 2", len(ct.Rows), len(res.Candidates))
	}
	best := 0
	for i, c := range res.Candidates {
		if lab.Mean(c.Validation) > lab.Mean(res.Candidates[best].Validation) {
			best = i
		}
	}
	for i, row := range ct.Rows {
		if marked := strings.HasSuffix(row[0], " ✓"); marked != (i == best) || strings.TrimSuffix(row[0], " ✓") != res.Candidates[i].Config {
			t.Errorf("candidate row %q; best on validation %q", row[0], res.Candidates[best].Config)
		}
	}
	if res.Chosen != res.Candidates[best].Config {
		t.Errorf("chosen %q, best on validation %q", res.Chosen, res.Candidates[best].Config)
	}

	// The example documents: each of the five with TS-NMF, NMF and LDA.
	et := rep.Section(t, "Example documents").Table(t, 0, "document (categories)", "model", "top topics: weight, name, top terms")
	if len(et.Rows) != 3*len(tsExampleDocs) {
		t.Errorf("%d example rows, want %d", len(et.Rows), 3*len(tsExampleDocs))
	}
	rep.Section(t, "How this was produced")
}

func TestWordPunctJoinedLen(t *testing.T) {
	// NLTK: ' '.join(WordPunctTokenizer().tokenize(s)).
	cases := map[string]int{
		"":                       0,
		"Hello, world!":          len("Hello , world !"),
		"  U.S. $1,200 (est.)\n": len("U . S . $ 1 , 200 ( est .)"),
		"don't":                  len("don ' t"),
		"a_b--c":                 len("a_b -- c"),
	}
	for s, want := range cases {
		if got := wordPunctJoinedLen(s); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}
