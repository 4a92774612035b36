package workbench

import (
	"context"
	"slices"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
)

// newsgroups reads the 20 Newsgroups training set once for the
// benchmarks (nil and the reason when the data is absent).
var newsgroups = sync.OnceValues(func() (*corpus.Corpus, error) {
	path, err := datadir.File("20news-bydate/20news-bydate.tar.gz")
	if err != nil {
		return nil, err
	}
	rd, err := corpus.NewReader("20ng")
	if err != nil {
		return nil, err
	}
	c, err := rd.Read(context.Background(), path)
	if err != nil {
		return nil, err
	}
	return c.Subset(corpus.SplitTrain), nil
})

// cpuTime returns the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRefit times refits on the 20 Newsgroups training set with 20
// topics, per kind: each operation is an edit (a seed word added to a
// topic, in turn a word excluded from it, a few documents labeled for
// the kinds that learn from labels) and the refit it asks for, from
// Refit to the round shown (Wait). It reports the wall time per refit
// (ns/op), the process's CPU time per refit (cpu-s/op, user and system:
// on a shared machine the wall time also counts other processes' work)
// and the median wall time. The kinds that learn from labels start with
// 5 labeled documents per newsgroup. It needs the data (skipped without
// it) and is never part of go test: run
//
//	go test ./workbench -run '^$' -bench Refit -benchtime 5x
func BenchmarkRefit(b *testing.B) {
	c, err := newsgroups()
	if err != nil {
		b.Skipf("20 Newsgroups: %v", err)
	}
	for _, kind := range []string{"nmf", "tsnmf", "ssnmf", "corex", "lda"} {
		b.Run(kind, func(b *testing.B) { benchRefit(b, c, kind) })
	}
}

func benchRefit(b *testing.B, c *corpus.Corpus, kind string) {
	ctx := context.Background()
	s, err := Open(ctx, Config{Corpus: c, Kind: "nmf", K: 20, Project: b.TempDir(), Debounce: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	refit := func(e Edit) (time.Duration, time.Duration) {
		b.Helper()
		v, err := s.Apply(s.Status().Version, e)
		if err != nil {
			b.Fatal(err)
		}
		t0, c0 := time.Now(), cpuTime()
		if _, err := s.Refit(v); err != nil {
			b.Fatal(err)
		}
		if _, err := s.Wait(ctx, v); err != nil {
			b.Fatal(err)
		}
		return time.Since(t0), cpuTime() - c0
	}
	supervised := kind == "tsnmf" || kind == "ssnmf"
	byLabel := map[string][]string{}
	for _, d := range c.Docs {
		if l := d.Labels[0]; len(byLabel[l]) < 40 {
			byLabel[l] = append(byLabel[l], d.ID)
		}
	}
	labels := make([]string, 0, len(byLabel))
	for l := range byLabel {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	if supervised {
		for _, l := range labels {
			if _, err := s.Apply(s.Status().Version, Edit{Op: OpLabel, Docs: byLabel[l][:5], Label: l}); err != nil {
				b.Fatal(err)
			}
		}
	}
	if s.State().Kind != kind {
		refit(Edit{Op: OpSetKind, Kind: kind})
	}
	words := []string{"hockey", "space", "windows", "god", "car", "gun", "israel", "encryption", "baseball", "doctor"}
	var walls []time.Duration
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tv := s.Topics(10)[i%5]
		e := Edit{Op: OpAddSeed, Topic: tv.Name, Word: words[i%len(words)]}
		switch {
		case i%3 == 1:
			for _, w := range tv.Words {
				if !w.Seed {
					e = Edit{Op: OpAddExclude, Topic: tv.Name, Word: w.Word}
					break
				}
			}
		case i%3 == 2 && supervised:
			l := labels[i%len(labels)]
			e = Edit{Op: OpLabel, Docs: byLabel[l][5+i%30 : 6+i%30], Label: l}
		}
		wall, used := refit(e)
		walls = append(walls, wall)
		cpu += used
	}
	b.StopTimer()
	slices.Sort(walls)
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
	b.ReportMetric(walls[len(walls)/2].Seconds(), "median-s")
	b.Logf("%s: %d refits, wall %v, CPU %v in all", kind, b.N, walls, cpu)
}
