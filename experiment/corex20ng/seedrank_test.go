package corex20ng

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/experiment/lab/labtest"
	"github.com/semitopic/semitopic/internal/datadir"
)

// long20NG returns 20 Newsgroups prepared as the experiment prepares it,
// the BBC News documents and the committed raw results
// (docs/results/corex-20ng.json), skipping unless SEMITOPIC_LONG is set and
// the shared data is there.
func long20NG(t *testing.T) (*cxData, []corpus.Document, *cxResults) {
	t.Helper()
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skip("SEMITOPIC_LONG=1 runs it (20 Newsgroups, minutes)")
	}
	datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	datadir.Require(t, "bbc/bbc-fulltext.tar.gz")
	data, err := datadir.Find()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := readCorex20NG(ctx, &lab.Env{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	d, err := prepareCorex20NG(ctx, c.train, c.test)
	if err != nil {
		t.Fatal(err)
	}
	var want cxResults
	labtest.ReadJSON(t, filepath.Join("..", "..", "docs", "results"), "corex-20ng.json", &want)
	return d, c.bbc, &want
}

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool { return math.Abs(got-want) <= tol }

// TestSeedRankLong reruns the report's seed-rank section (issue 16) on 20
// Newsgroups and checks it against the committed results: every row's
// counts of anchored topics keeping their anchors, and its scores to
// 0.005; started from the anchors, the order of the topics does not
// matter, and at the default strength every anchored topic keeps an anchor
// word in its top 10 without one taking most of the documents
// (corextopic#49).
func TestSeedRankLong(t *testing.T) {
	d, _, want := long20NG(t)
	out := t.TempDir()
	env := &lab.Env{Out: out, Command: "test"}
	rep := lab.NewReport(env, "seed-rank", "seed rank")
	raw := map[string]any{}
	if err := cxSeedRank(context.Background(), env, rep, d, raw); err != nil {
		t.Fatal(err)
	}
	got := raw["seed_rank"].([]seedRankRow)
	if len(got) != len(want.SeedRank) {
		t.Fatalf("%d rows, committed %d", len(got), len(want.SeedRank))
	}
	for i, g := range got {
		w := want.SeedRank[i]
		if g.Start != w.Start || g.Order != w.Order || g.Beta != w.Beta || g.Topics != w.Topics ||
			g.SomeInTop != w.SomeInTop || g.AllInTop != w.AllInTop || g.SomeByMI != w.SomeByMI || g.AllByMI != w.AllByMI ||
			!near(g.MeanF1, w.MeanF1, 0.005) || !near(g.LargestShare, w.LargestShare, 0.005) ||
			!near(g.Homogeneity, w.Homogeneity, 0.005) || !near(g.AMI, w.AMI, 0.005) {
			t.Errorf("β %g, %s, %s:\n got %d/%d %d/%d of %d, F1 %.3f, share %.3f, hom %.3f, AMI %.3f\nwant %d/%d %d/%d of %d, F1 %.3f, share %.3f, hom %.3f, AMI %.3f",
				g.Beta, g.Start, g.Order, g.SomeInTop, g.AllInTop, g.SomeByMI, g.AllByMI, g.Topics, g.MeanF1, g.LargestShare, g.Homogeneity, g.AMI,
				w.SomeInTop, w.AllInTop, w.SomeByMI, w.AllByMI, w.Topics, w.MeanF1, w.LargestShare, w.Homogeneity, w.AMI)
		}
		if g.Start == "from the anchors" && g.Order == "reversed" {
			p := got[i-1]
			if p.SomeInTop != g.SomeInTop || p.AllInTop != g.AllInTop || p.MeanF1 != g.MeanF1 {
				t.Errorf("β %g: reversing the anchored topics changes the outcome", g.Beta)
			}
		}
		if g.Beta == 0 && g.Start == "from the anchors" && (g.SomeInTop != g.Topics || g.LargestShare > 0.5) {
			t.Errorf("default strength, %s order: %d of %d topics keep an anchor word, the largest takes %.2f of the documents", g.Order, g.SomeInTop, g.Topics, g.LargestShare)
		}
	}
}

// TestFigure3SeededLDALong reruns the z-labels and seeded LDA rows of
// Figure 3 for seed 1 and checks them against the committed results
// (scores to 0.005).
func TestFigure3SeededLDALong(t *testing.T) {
	d, _, want := long20NG(t)
	ctx := context.Background()
	sug, err := corex.SuggestAnchors(d.bin, labelSets(d.labels), len(d.names), 5, true)
	if err != nil {
		t.Fatal(err)
	}
	zl, sp, err := figure3SeededLDA(ctx, &lab.Env{}, d, labelAnchors(sug, d.vocab), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct {
		name      string
		got, want cxScores
	}{{"z-labels LDA", zl[0], want.Figure3.ZLabels[0]}, {"seeded LDA", sp[0], want.Figure3.Seeded[0]}} {
		if !near(r.got.Homogeneity, r.want.Homogeneity, 0.005) || !near(r.got.AMI, r.want.AMI, 0.005) || !near(r.got.UMass, r.want.UMass, 0.5) {
			t.Errorf("%s, seed 1: homogeneity %.3f, AMI %.3f, UMass %.1f; committed %.3f, %.3f, %.1f",
				r.name, r.got.Homogeneity, r.got.AMI, r.got.UMass, r.want.Homogeneity, r.want.AMI, r.want.UMass)
		}
	}
	// The report: seeding LDA with the anchors raises homogeneity above
	// plain LDA's.
	if lda := want.Figure3.LDA[0]; !(zl[0].Homogeneity > lda.Homogeneity && sp[0].Homogeneity > lda.Homogeneity) {
		t.Errorf("seed 1 homogeneity: z-labels %.3f, seeded %.3f, LDA %.3f", zl[0].Homogeneity, sp[0].Homogeneity, lda.Homogeneity)
	}
}

// TestDefaultBetaLong checks the measurement behind corex.DefaultBeta: on
// 20 Newsgroups, with one topic anchored per newsgroup by its 5 words of
// highest I(L:w), started from the anchors (seed 1), 12, 16, 18 and 19 of
// the 20 topics keep an anchor word among their top 10 words by MI at
// β = 1, 2, 3 and 5; on BBC News every topic keeps one at every β, with
// homogeneity 0.845, 0.836, 0.825 and 0.798 (to 0.005).
func TestDefaultBetaLong(t *testing.T) {
	d, docs, _ := long20NG(t)
	ctx := context.Background()
	bbc, err := prepareBBC(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	betas := []float64{1, 2, 3, 5}
	for _, m := range []struct {
		d    *cxData
		kept []int
		hom  []float64 // NaN: not checked
	}{
		{d, []int{12, 16, 18, 19}, []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()}},
		{bbc, []int{5, 5, 5, 5}, []float64{0.845, 0.836, 0.825, 0.798}},
	} {
		sug, err := corex.SuggestAnchors(m.d.bin, labelSets(m.d.labels), len(m.d.names), 5, true)
		if err != nil {
			t.Fatal(err)
		}
		anchors := labelAnchors(sug, m.d.vocab)
		for i, beta := range betas {
			terms, _ := anchorTerms(anchors, m.d.vocab)
			fit, el, err := fitCorex(ctx, m.d.bin, corex.Config{K: len(m.d.names), Seed: 1, Vocab: m.d.vocab, Seeds: terms, Beta: beta})
			if err != nil {
				t.Fatal(err)
			}
			outs, err := seedOutcomes(fit, anchors, m.d.labels)
			if err != nil {
				t.Fatal(err)
			}
			sc, err := scoreCorex(fit, m.d, el)
			if err != nil {
				t.Fatal(err)
			}
			_, some := seedSummary(outs, false)
			if some != m.kept[i] || !(math.IsNaN(m.hom[i]) || near(sc.Homogeneity, m.hom[i], 0.005)) {
				t.Errorf("%d topics, β %g: %d keep an anchor word in their top 10 by MI, homogeneity %.3f; want %d, %.3f",
					len(m.d.names), beta, some, sc.Homogeneity, m.kept[i], m.hom[i])
			}
		}
	}
}

func TestUpTo(t *testing.T) {
	for _, c := range []struct {
		sizes []int
		n     int
		want  []int
	}{{[]int{2500, 5000, 18846}, 18846, []int{2500, 5000, 18846}}, {[]int{2500, 5000}, 3000, []int{2500}}, {[]int{2500, 5000}, 300, []int{300}}} {
		if got := upTo(c.sizes, c.n); len(got) != len(c.want) || got[len(got)-1] != c.want[len(c.want)-1] {
			t.Errorf("upTo(%v, %d) = %v, want %v", c.sizes, c.n, got, c.want)
		}
	}
}
