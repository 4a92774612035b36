package workbench

import (
	"context"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
)

// TestNewsgroups runs the loop on the 20 Newsgroups training set
// (11,314 documents, 20 nmf topics): the first round, a seed word added,
// the refit, where the seed word stands. It logs the time of the first
// round (reading excluded: vectorizing and fitting) and of the refit
// (from Refit to the round shown). It needs the real data, and is left
// out with -short.
func TestNewsgroups(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the 20 Newsgroups loop with -short")
	}
	path := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	rd, err := corpus.NewReader("20ng")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	c, err := rd.Read(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	c = c.Subset(corpus.SplitTrain)
	if len(c.Docs) != 11314 {
		t.Fatalf("%d training documents, want 11314", len(c.Docs))
	}
	t0 := time.Now()
	s, err := Open(ctx, Config{Corpus: c, Kind: "nmf", K: 20, Project: t.TempDir(), Debounce: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	open := time.Since(t0)
	topic := s.Topics(10)[0].Name
	v, err := s.Apply(0, Edit{Op: OpAddSeed, Topic: topic, Word: "hockey"})
	if err != nil {
		t.Fatal(err)
	}
	t1 := time.Now()
	if _, err := s.Refit(v); err != nil {
		t.Fatal(err)
	}
	r, err := s.Wait(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	refit := time.Since(t1)
	d, err := s.Diff(r.Number)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Checks.Seeds) != 1 || !d.Checks.Seeds[0].Top10 {
		t.Errorf("the seed word hockey of %q: %+v", topic, d.Checks.Seeds)
	}
	t.Logf("20 Newsgroups train, nmf, k 20: first round (vectorizing and fitting) %.1fs; cold refit after adding a seed word %.1fs (round's own figure %.1fs)",
		open.Seconds(), refit.Seconds(), r.Seconds)
}
