package corex20ng

import (
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/vectorize"
)

// longEnv returns the shared data environment, skipping unless
// SEMITOPIC_LONG is set.
func longEnv(t *testing.T) *lab.Env {
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skip("set SEMITOPIC_LONG=1 to run (a few minutes)")
	}
	env := &lab.Env{Data: "../../../shared/data"}
	if v := os.Getenv("SEMITOPIC_DATA"); v != "" {
		env.Data = v
	}
	return env
}

// TestSeedRankLong measures, on the 20 Newsgroups Figure 3 setup, how many
// label-anchored topics keep their anchor words among their top 10 words
// and whether the order of the anchored topics changes the outcome. CX_BETA
// lists the strengths (default: Config's), CX_SEEDS the number of seeds,
// CX_VERBOSE prints every topic.
func TestSeedRankLong(t *testing.T) {
	env := longEnv(t)
	d, err := loadCorex20NG(context.Background(), env)
	if err != nil {
		t.Skip(err)
	}
	seedRank(t, d)
}

// TestSeedRankBBCLong is TestSeedRankLong on BBC News (5 classes).
func TestSeedRankBBCLong(t *testing.T) {
	env := longEnv(t)
	path, err := env.DataPath("bbc/bbc-fulltext.tar.gz")
	if err != nil {
		t.Skip(err)
	}
	ctx := context.Background()
	c, err := corpus.BBC{}.Read(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("corex")
	if err != nil {
		t.Fatal(err)
	}
	_, res, err := pl.FitTransform(ctx, c.Docs)
	if err != nil {
		t.Fatal(err)
	}
	names, idx := corpus.LabelIndex(res.Docs)
	labels := make([]int, len(idx))
	for i, l := range idx {
		labels[i] = l[0]
	}
	seedRank(t, &cxData{bin: res.X, vocab: res.Vocab, names: names, labels: labels})
}

func seedRank(t *testing.T, d *cxData) {
	ctx := context.Background()
	sug, err := corex.SuggestAnchors(d.bin, labelSets(d.labels), len(d.names), 5, true)
	if err != nil {
		t.Fatal(err)
	}
	anchors := labelAnchors(sug, d.vocab)
	betas := []float64{0}
	if v := os.Getenv("CX_BETA"); v != "" {
		betas = nil
		for _, f := range strings.Fields(v) {
			b, err := strconv.ParseFloat(f, 64)
			if err != nil {
				t.Fatal(err)
			}
			betas = append(betas, b)
		}
	}
	seeds, _ := strconv.Atoi(os.Getenv("CX_SEEDS"))
	seeds = max(seeds, 1)
	verbose := os.Getenv("CX_VERBOSE") != ""
	extra, _ := strconv.Atoi(os.Getenv("CX_EXTRA")) // unanchored topics besides
	k := len(d.names)
	rev := make([]int, k)
	for l := range rev {
		rev[l] = k - 1 - l
	}
	for _, beta := range betas {
		for seed := 1; seed <= seeds; seed++ {
			for _, perm := range [][]int{nil, rev} {
				an, name := anchors, "identity"
				if perm != nil {
					name = "reversed"
					if an, err = permuteAnchors(anchors, perm); err != nil {
						t.Fatal(err)
					}
				}
				terms, _ := anchorTerms(an, d.vocab)
				cfg := corex.Config{K: k + extra, Seed: uint64(seed), Vocab: d.vocab, Seeds: terms, Beta: beta, NumpyRandom: os.Getenv("CX_REFSTART") != ""}
				m, el, err := fitCorex(ctx, d.bin, cfg)
				if err != nil {
					t.Fatal(err)
				}
				sc, err := scoreCorex(m, d, el)
				if err != nil {
					t.Fatal(err)
				}
				os, err := seedOutcomes(m, an, d.labels)
				if err != nil {
					t.Fatal(err)
				}
				all, some := seedSummary(os, false)
				wall, wsome := seedSummary(os, true)
				t.Logf("  by α·MI: %d/%d topics with all anchors in top 10, %d with at least one", wall, len(os), wsome)
				free := math.NaN()
				if extra > 0 {
					tw, err := m.TopicWords(10, corex.ByMI)
					if err != nil {
						t.Fatal(err)
					}
					um, err := metrics.UMass(d.bin, tw[k:])
					if err != nil {
						t.Fatal(err)
					}
					free = um.Mean
				}
				// corextopic#49: the share of documents whose arg-max topic
				// is the first column, by clipped p(y|x) (np.argmax of
				// p_y_given_x, ties at 1−1e-6 going to the first) and by
				// log p(y|x).
				firstClip, firstLog := 0.0, 0.0
				byLog := m.Train.Argmax()
				for l, j := range metrics.ArgmaxRows(m.Train.P) {
					if j == 0 {
						firstClip++
					}
					if byLog[l] == 0 {
						firstLog++
					}
				}
				n, _ := m.Train.P.Dims()
				t.Logf("  first column is the arg-max of %.3f of the documents by clipped p(y|x), %.3f by log p(y|x)", firstClip/float64(n), firstLog/float64(n))
				maxShare, meanF1 := 0.0, 0.0
				for _, o := range os {
					maxShare = max(maxShare, o.Share)
					meanF1 += o.F1 / float64(len(os))
				}
				t.Logf("seed %d %s β=%g: %d/%d topics with all anchors in top 10, %d with at least one; mean F1 %.3f, largest share %.3f; hom %.3f AMI %.3f UMass %.1f (unanchored topics %.1f) TC %.2f iters %d (%.0fs)",
					seed, name, beta, all, len(os), some, meanF1, maxShare, sc.Homogeneity, sc.AMI, sc.UMass, free, m.TC, m.Iterations, el.Seconds())
				for _, o := range os {
					if !verbose {
						break
					}
					t.Logf("  %-26s topic %2d  %d/%d  share %.3f  F1 %.3f  anchors %v | %s", d.names[o.Label], o.Topic, o.InTop, o.Anchors, o.Share, o.F1, an[o.Label].Words, o.Words)
				}
			}
		}
	}
}

// TestSeedRankSectionLong writes cxSeedRank's section alone to
// SEMITOPIC_OUT (default: a temporary folder).
func TestSeedRankSectionLong(t *testing.T) {
	env := longEnv(t)
	env.Out = os.Getenv("SEMITOPIC_OUT")
	if env.Out == "" {
		env.Out = t.TempDir()
	}
	ctx := context.Background()
	d, err := loadCorex20NG(ctx, env)
	if err != nil {
		t.Skip(err)
	}
	rep := lab.NewReport(env, "corex-seed-rank", "Anchored CorEx: do anchored topics keep their anchors?")
	if err := cxSeedRank(ctx, env, rep, d, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	if err := rep.Finish(); err != nil {
		t.Fatal(err)
	}
}
