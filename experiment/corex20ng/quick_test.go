package corex20ng

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/synth"
)

// cxResults is the raw results file of corex-20ng.
type cxResults struct {
	Documents, Words, NNZ int
	TCRuns                []cxScores `json:"tc_runs"`
	TCRunsNumpy           []cxScores `json:"tc_runs_numpy_notebook_order"`
	TCPerTopic            []float64  `json:"tc_per_topic_seed1"`
	Figure3               struct {
		Unanchored []cxScores `json:"unanchored"`
		Anchored   []cxScores `json:"anchored"`
		LDA        []cxScores `json:"lda"`
		ZLabels    []cxScores `json:"zlabels_lda"`
		Seeded     []cxScores `json:"seeded_lda"`
		Anchors    [][]string `json:"anchors"`
	} `json:"figure3"`
	SeedRank []seedRankRow `json:"seed_rank"`
	Beta     []struct {
		Group                   string
		Beta                    float64
		F1, UMass, Overlap, Jac []float64
	} `json:"beta_sweep"`
	Figure2 []struct {
		K                                 int
		Model                             string
		UMass, Accuracy, Homogeneity, AMI float64
	} `json:"figure2"`
	Scaling []struct {
		Docs, Words, NNZ int
		SecondsPerIter   float64
	} `json:"scaling"`
	BBC struct {
		Unanchored []cxScores `json:"unanchored"`
		Anchored   []cxScores `json:"anchored"`
	} `json:"bbc"`
}

// newsgroups are the 20 Newsgroups' names, the synthetic corpus' classes.
var newsgroups = []string{"alt.atheism", "comp.graphics", "comp.os.ms-windows.misc", "comp.sys.ibm.pc.hardware", "comp.sys.mac.hardware",
	"comp.windows.x", "misc.forsale", "rec.autos", "rec.motorcycles", "rec.sport.baseball", "rec.sport.hockey", "sci.crypt",
	"sci.electronics", "sci.med", "sci.space", "soc.religion.christian", "talk.politics.guns", "talk.politics.mideast",
	"talk.politics.misc", "talk.religion.misc"}

// The quick protocol on synthetic corpora standing for 20 Newsgroups (one
// planted topic per newsgroup, 300 training and 60 test documents) and
// BBC News, through every section of the report.
func TestCorex20NGQuick(t *testing.T) {
	ctx := context.Background()
	draw := func(docs int, seed uint64, classes []string) []corpus.Document {
		d, err := labtest.SyntheticDocs(ctx, synth.Config{Docs: docs, Terms: 500, Topics: len(classes), MeanLength: 40, Seed: seed}, classes)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	c := &cxCorpora{train: draw(300, 1, newsgroups), test: draw(60, 2, newsgroups), bbc: draw(150, 3, []string{"business", "entertainment", "politics", "sport", "tech"})}
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "test"}
	if err := corex20NG(ctx, env, c); err != nil {
		t.Fatal(err)
	}
	res := checkCorex20NG(t, out)
	// With planted topics every anchored topic keeps its anchors.
	for _, r := range res.SeedRank {
		if r.SomeInTop != r.Topics {
			t.Errorf("β %g, %s, %s: %d of %d anchored topics keep an anchor word in their top 10", r.Beta, r.Start, r.Order, r.SomeInTop, r.Topics)
		}
	}
}

// TestCorex20NGQuickLong runs the experiment's quick mode on 20
// Newsgroups and BBC News and checks it as TestCorex20NGQuick does, with
// the report's claim that anchoring raises homogeneity and AMI.
func TestCorex20NGQuickLong(t *testing.T) {
	out := labtest.RunQuickLong(t, Experiment(), "20 Newsgroups and BBC News, about 5 minutes", "20news-bydate/20news-bydate.tar.gz", "bbc/bbc-fulltext.tar.gz")
	res := checkCorex20NG(t, out)
	f := res.Figure3
	if !(f.Anchored[0].Homogeneity > f.Unanchored[0].Homogeneity && f.Anchored[0].AMI > f.Unanchored[0].AMI) {
		t.Errorf("anchoring moves homogeneity %.3f → %.3f, AMI %.3f → %.3f; the report says it raises both",
			f.Unanchored[0].Homogeneity, f.Anchored[0].Homogeneity, f.Unanchored[0].AMI, f.Anchored[0].AMI)
	}
}

// checkCorex20NG checks the report and raw results of a quick run on 20
// classes and returns the raw results.
func checkCorex20NG(t *testing.T, out string) *cxResults {
	t.Helper()
	const name = "corex-20ng-quick"
	rep := labtest.ReadReport(t, out, name)
	if rep.Title != "Anchored CorEx on 20 Newsgroups" || !strings.Contains(rep.Text, "**Quick run**") {
		t.Errorf("title %q, or no quick-run note", rep.Title)
	}
	var res cxResults
	labtest.ReadJSON(t, out, name+".json", &res)
	unit := func(what string, x float64) {
		if !(x >= 0 && x <= 1) {
			t.Errorf("%s: %g, want in [0, 1]", what, x)
		}
	}
	// A clustering by the topics must beat chance (homogeneity and AMI
	// near 0).
	scores := func(what string, s []cxScores, n int) {
		if len(s) != n {
			t.Fatalf("%s: %d runs, want %d", what, len(s), n)
		}
		for _, x := range s {
			unit(what+" homogeneity", x.Homogeneity)
			unit(what+" AMI", x.AMI)
			if x.Homogeneity < 0.1 || x.AMI < 0.1 || !(x.UMass < 0) {
				t.Errorf("%s: homogeneity %.3f, AMI %.3f (want above 0.1), UMass %.1f (want below 0)", what, x.Homogeneity, x.AMI, x.UMass)
			}
		}
	}

	// The 50-topic model: one seed of each generator, its TC the sum of the
	// topics' (in nats, positive), at most the quick 40 iterations.
	if len(res.TCRuns) != 1 || len(res.TCRunsNumpy) != 1 || len(res.TCPerTopic) != 50 {
		t.Fatalf("TC runs %d and %d, %d topic TCs", len(res.TCRuns), len(res.TCRunsNumpy), len(res.TCPerTopic))
	}
	sum := 0.0
	for _, tc := range res.TCPerTopic {
		sum += tc
	}
	for _, r := range append(res.TCRuns, res.TCRunsNumpy...) {
		if !(r.TC > 0) || r.Iterations < 1 || r.Iterations > 40 {
			t.Errorf("50-topic run: TC %g nats after %d iterations", r.TC, r.Iterations)
		}
	}
	if d := sum - res.TCRuns[0].TC; d*d > 1e-12 {
		t.Errorf("the topics' TCs add up to %g, the model's TC is %g", sum, res.TCRuns[0].TC)
	}
	tc := rep.Section(t, "Total correlation of the 50-topic model")
	tc.Table(t, 0, "random stream", "seed", "TC (nats)", "iterations", "seconds")
	tc.Table(t, 1, "topic", "TC", "top words")

	// Figure 3: five models, one seed, the report's cells the raw results.
	f := res.Figure3
	for _, m := range []struct {
		what string
		s    []cxScores
	}{{"CorEx", f.Unanchored}, {"Anchored CorEx (β = 2)", f.Anchored}, {"LDA", f.LDA}, {"z-labels LDA", f.ZLabels}, {"Seeded LDA (prior)", f.Seeded}} {
		scores(m.what, m.s, 1)
	}
	sec := rep.Section(t, "Anchoring for separability")
	f3 := sec.Table(t, 0, "model", "homogeneity", "AMI", "same, arg-max of clipped p(y|x)", "UMass", "seconds", "reference code: homogeneity / AMI")
	for i, s := range [][]cxScores{f.Unanchored, f.Anchored, f.LDA, f.ZLabels, f.Seeded} {
		if row := f3.Rows[i]; row[1] != lab.PM(field(s, hom), 3) || row[2] != lab.PM(field(s, amiOf), 3) {
			t.Errorf("Figure 3 row %q, raw results %s, %s", row, lab.PM(field(s, hom), 3), lab.PM(field(s, amiOf), 3))
		}
	}
	if at := sec.Table(t, 1, "newsgroup", "anchor words"); len(at.Rows) != len(newsgroups) || len(f.Anchors) != len(newsgroups) {
		t.Errorf("%d anchored newsgroups in the report, %d in the raw results", len(at.Rows), len(f.Anchors))
	}

	// Seed ranks: two strengths × two starts × two orders, one topic per
	// newsgroup; started from the anchors, the order of the topics does
	// not matter.
	if len(res.SeedRank) != 8 {
		t.Fatalf("%d seed-rank rows, want 8", len(res.SeedRank))
	}
	for i, r := range res.SeedRank {
		if r.Topics != len(newsgroups) || r.AllInTop > r.SomeInTop || r.SomeInTop > r.Topics || r.AllByMI > r.SomeByMI || len(r.Outcomes) != r.Topics {
			t.Errorf("seed rank %+v", r)
		}
		unit("mean F1", r.MeanF1)
		unit("largest share", r.LargestShare)
		if r.Start == "from the anchors" && r.Order == "reversed" {
			p := res.SeedRank[i-1]
			if p.Order != "newsgroups'" || p.SomeInTop != r.SomeInTop || p.AllInTop != r.AllInTop || p.MeanF1 != r.MeanF1 {
				t.Errorf("started from the anchors, the reversed order gives %d/%d/%.4f, the newsgroups' %d/%d/%.4f", r.SomeInTop, r.AllInTop, r.MeanF1, p.SomeInTop, p.AllInTop, p.MeanF1)
			}
		}
	}
	sr := rep.Section(t, "Do the anchored topics keep their anchors?")
	if tb := sr.Table(t, 0); len(tb.Rows) != 8 || len(tb.Header) != 11 {
		t.Errorf("seed-rank table: %d rows, %d columns", len(tb.Rows), len(tb.Header))
	}
	sr.Table(t, 1, "newsgroup", "anchors", "in the top 10", "F1", "top words (as `topics` shows them)")

	// The β sweep: the unanchored baseline and β 2 and 10 on sci.space.
	if len(res.Beta) != 3 || res.Beta[0].Beta != 0 || res.Beta[1].Beta != 2 || res.Beta[2].Beta != 10 {
		t.Fatalf("β sweep %+v", res.Beta)
	}
	for _, p := range res.Beta {
		if p.Group != "sci.space" || len(p.F1) != 1 {
			t.Errorf("β sweep point %+v", p)
		}
		unit("F1", p.F1[0])
		unit("overlap", p.Overlap[0])
		unit("Jaccard", p.Jac[0])
	}
	if tb := rep.Section(t, "Anchoring a single topic").Table(t, 0); len(tb.Rows) != 3 {
		t.Errorf("β table: %d rows", len(tb.Rows))
	}

	// Figure 2: 10 and 20 topics, three models each, accuracy above
	// chance (1/20).
	if len(res.Figure2) != 6 {
		t.Fatalf("Figure 2: %d rows, want 6", len(res.Figure2))
	}
	for i, r := range res.Figure2 {
		if r.K != []int{10, 20}[i/3] || r.Model != []string{"CorEx", "CorEx, log p features", "LDA"}[i%3] {
			t.Errorf("Figure 2 row %d: %d topics, %s", i, r.K, r.Model)
		}
		if !(r.Accuracy > 1.0/20 && r.Accuracy <= 1) {
			t.Errorf("Figure 2, %d topics, %s: accuracy %.3f, chance 0.05", r.K, r.Model, r.Accuracy)
		}
	}
	if tb := rep.Section(t, "CorEx and LDA by number of topics").Table(t, 0, "topics", "model", "UMass", "accuracy (60/40)", "homogeneity", "AMI", "fit seconds"); len(tb.Rows) != 6 {
		t.Errorf("Figure 2 table: %d rows", len(tb.Rows))
	}

	for _, p := range res.Scaling {
		if p.Docs < 1 || p.Words < 1 || p.NNZ < 1 || !(p.SecondsPerIter > 0) {
			t.Errorf("scaling point %+v", p)
		}
	}
	if tb := rep.Section(t, "Fit time as the data grow").Table(t, 0, "documents", "words", "non-zeros", "seconds per iteration"); len(tb.Rows) != len(res.Scaling) {
		t.Errorf("scaling table: %d rows, raw results %d", len(tb.Rows), len(res.Scaling))
	}

	scores("BBC CorEx", res.BBC.Unanchored, 1)
	scores("BBC anchored CorEx", res.BBC.Anchored, 1)
	bbc := rep.Section(t, "Another corpus: BBC News")
	bbc.Table(t, 0, "model", "homogeneity", "AMI", "UMass", "TC (nats)", "seconds")
	if tb := bbc.Table(t, 1, "class", "anchors", "top words by MI"); len(tb.Rows) != 5 {
		t.Errorf("BBC topics: %d rows, want 5", len(tb.Rows))
	}

	for _, svg := range []string{"tc", "beta-f1", "beta-coherence", "fig2-accuracy", "fig2-umass", "fig2-ami", "scaling"} {
		file := name + "-" + svg + ".svg"
		if _, err := os.Stat(filepath.Join(out, file)); err != nil || !strings.Contains(rep.Text, "]("+file+")") {
			t.Errorf("chart %s missing or not linked: %v", file, err)
		}
	}
	rep.Section(t, "How this was produced")
	return &res
}
