package choosek

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/synth"
	"github.com/semitopic/semitopic/vectorize"
)

// plantedText draws a synth corpus as text (each term written as often as
// it occurs), which the nmf pipeline reads back to its terms.
func plantedText(t testing.TB, cfg synth.Config) []corpus.Document {
	g, err := synth.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var docs []corpus.Document
	err = g.Each(context.Background(), func(i int, d *synth.Doc) error {
		var b strings.Builder
		for p, term := range d.Terms {
			for range int(d.Counts[p]) {
				b.WriteString(synth.TermName(int(term)))
				b.WriteByte(' ')
			}
		}
		docs = append(docs, corpus.Document{ID: synth.TermName(i), Text: b.String()})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// TestRecoversPlantedK draws corpora with a planted number of topics
// (shapes unlike those the rule was designed on, see doc.go) and checks
// that the recommended k is within 20% of it.
func TestRecoversPlantedK(t *testing.T) {
	type shape struct {
		k, n          int
		share, length float64
	}
	shapes := []shape{{5, 1200, 0.5, 100}, {10, 1500, 0.45, 80}}
	if testing.Short() {
		shapes = shapes[:1]
	}
	for _, sh := range shapes {
		docs := plantedText(t, synth.Config{Docs: sh.n, Terms: 2000, Topics: sh.k, MeanLength: sh.length, TopicShare: sh.share, Seed: uint64(sh.k)})
		p, err := vectorize.PipelinePreset(model.DefaultPreset(model.KindNMF))
		if err != nil {
			t.Fatal(err)
		}
		_, res, err := p.FitTransform(t.Context(), docs)
		if err != nil {
			t.Fatal(err)
		}
		ks, err := ParseKs("2:16")
		if err != nil {
			t.Fatal(err)
		}
		steps := 0
		r, err := Choose(t.Context(), res.X, res.Vocab, Config{Ks: ks, Seed: 3, Progress: func(s Step) { steps++ }})
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(float64(r.Best-sh.k)) / float64(sh.k); d > 0.2 {
			t.Errorf("planted %d topics: recommended %d (%s)", sh.k, r.Best, r.Reason)
		}
		if steps != len(ks)*DefaultStarts || len(r.Candidates) != len(ks) || r.Reason == "" {
			t.Errorf("%d progress steps, %d candidates for %d ks", steps, len(r.Candidates), len(ks))
		}
	}
}

func TestParseKs(t *testing.T) {
	for in, want := range map[string][]int{"2:6": {2, 3, 4, 5, 6}, "5:20:5": {5, 10, 15, 20}, "10, 5,5": {5, 10}} {
		got, err := ParseKs(in)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("ParseKs(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for in, want := range map[string]string{"1:5": "at least 2", "5:2": "FROM ≤ TO", "a,b": "no whole number", "": "no k", "2:4:0": "STEP ≥ 1"} {
		if _, err := ParseKs(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseKs(%q): error %v, want one containing %q", in, err, want)
		}
	}
	if got := DefaultKs(10000, 50000); !slices.Equal(got, []int{2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 25, 30, 35, 40, 45, 50}) {
		t.Errorf("DefaultKs = %v", got)
	}
	if got := DefaultKs(20, 1000); !slices.Equal(got, []int{2, 3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Errorf("DefaultKs of 20 documents = %v", got)
	}
}

func TestAgreement(t *testing.T) {
	a := [][]int{{1, 2, 3}, {4, 5, 6}}
	b := [][]int{{4, 5, 7}, {1, 2, 3}}
	got, err := agreement(a, b)
	if err != nil || math.Abs(got-(1+0.5)/2) > 1e-12 {
		t.Errorf("agreement = %v, %v; want 0.75 (topics matched crosswise)", got, err)
	}
	if got, _ := agreement(a, [][]int{nil, {1, 2, 3}}); math.Abs(got-0.5) > 1e-12 {
		t.Errorf("agreement with an empty topic = %v, want 0.5", got)
	}
}

func TestChooseInvalid(t *testing.T) {
	x, vocab := tinyMatrix(t)
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Kind: model.KindTSNMF, Ks: []int{2}}, "learns from labels"},
		{Config{Ks: []int{2}, Starts: 1}, "at least 2 starts"},
		{Config{Ks: []int{50}}, "want 2 to"},
		{Config{Kind: "nope", Ks: []int{2}}, "nope"},
	} {
		if _, err := Choose(t.Context(), x, vocab, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one containing %q", c.cfg, err, c.want)
		}
	}
}

// tinyMatrix is a 6 × 6 corpus of two clear topics.
func tinyMatrix(t *testing.T) (*sparse.CSR, []string) {
	t.Helper()
	var ts []sparse.Triplet
	for d := 0; d < 6; d++ {
		for w := 0; w < 3; w++ {
			ts = append(ts, sparse.Triplet{Row: d, Col: 3*(d%2) + w, Val: 1})
		}
	}
	x, err := sparse.FromTriplets(6, 6, ts)
	if err != nil {
		t.Fatal(err)
	}
	return x, []string{"aa", "ab", "ac", "ba", "bb", "bc"}
}
