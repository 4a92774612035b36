package workbench

import (
	"context"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
)

// demoCorpus returns the demo corpus, n documents of it (all when n ≤ 0),
// without labels unless labeled.
func demoCorpus(t *testing.T, n int, labeled bool) *corpus.Corpus {
	t.Helper()
	d, err := demo.Generate(demo.Options{Docs: n})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Corpus
	if !labeled {
		cc := *c
		cc.Docs = append([]corpus.Document(nil), c.Docs...)
		for i := range cc.Docs {
			cc.Docs[i].Labels = nil
		}
		c = &cc
	}
	return c
}

// open opens a session on c in a new folder, automatic refits off
// unless debounce > 0.
func open(t *testing.T, cfg Config) *Session {
	t.Helper()
	if cfg.Project == "" {
		cfg.Project = t.TempDir()
	}
	if cfg.Debounce == 0 {
		cfg.Debounce = -1
	}
	if cfg.MaxIter == 0 {
		cfg.MaxIter = 30
	}
	s, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// apply applies e at the current version and waits for its refit.
func apply(t *testing.T, s *Session, e Edit) RoundSummary {
	t.Helper()
	v, err := s.Apply(s.Status().Version, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refit(v); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := s.Wait(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestSmoke(t *testing.T) {
	c := demoCorpus(t, 240, false)
	s := open(t, Config{Corpus: c, K: 6, Source: []string{"--format", "x", "y"}})
	for _, tv := range s.Topics(8) {
		t.Logf("%s %.3f %v %v", tv.Name, tv.Share, tv.Words, tv.Junk)
	}
	apply(t, s, Edit{Op: OpAddSeed, Topic: "topic-2", Word: "rocket"})
	for _, tv := range s.Topics(8) {
		t.Logf("%s %.3f %v %v", tv.Name, tv.Share, tv.Words, tv.Seeds)
	}
	d, err := s.Diff(0)
	t.Logf("%+v %v", d, err)
	t.Logf("%+v", s.Suggest())
	t.Logf("%+v", s.Status())
}
