package corex

import (
	"context"
	"os"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/vectorize"
)

// TestNumpyStreamArtifact shows how much the final TC on 20 Newsgroups
// depends on the tie-breaking noise stream: from the same numpy start
// (seed 1, documents in file order), skipping one 32-bit draw of numpy's
// stream before each word's noise ends about 1.3 nats higher (44.99 →
// 46.32), near semitopic's own generator (46.47). It takes a few minutes
// and runs only with SEMITOPIC_LONG=1 and the shared data.
func TestNumpyStreamArtifact(t *testing.T) {
	if os.Getenv("SEMITOPIC_LONG") == "" {
		t.Skip("set SEMITOPIC_LONG=1 to run (several minutes)")
	}
	p := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	ctx := context.Background()
	c, err := corpus.Newsgroups{Subset: "train", RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}.Read(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := vectorize.PipelinePreset("corex")
	if err != nil {
		t.Fatal(err)
	}
	v, err := pl.New()
	if err != nil {
		t.Fatal(err)
	}
	res, err := v.FitTransform(ctx, c.Docs)
	if err != nil {
		t.Fatal(err)
	}
	tc := map[string]float64{}
	for name, cfg := range map[string]Config{
		"numpy stream":                   {K: 50, Seed: 1, NumpyRandom: true},
		"numpy stream, shifted per word": {K: 50, Seed: 1, NumpyRandom: true, npShift: true},
		"semitopic generator":            {K: 50, Seed: 1},
	} {
		m, err := Fit(ctx, res.X, cfg)
		if err != nil {
			t.Fatal(err)
		}
		tc[name] = m.TC
		t.Logf("%s: TC %.3f nats after %d iterations", name, m.TC, m.Iterations)
	}
	if tc["numpy stream, shifted per word"] < tc["numpy stream"]+0.5 || tc["semitopic generator"] < tc["numpy stream"]+0.5 {
		t.Errorf("TC %v: the noise stream no longer moves the result", tc)
	}
}
