package model

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/shard"
)

// smallShards writes a 60 × 12 corpus in 3 shards and opens it.
func smallShards(t *testing.T) *shard.Source {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c.shards")
	vocab := []string{"apple", "bank", "cash", "dog", "egg", "fish", "goat", "hill", "ink", "jam", "kite", "lamp"}
	w, err := shard.Create(dir, len(vocab), shard.Options{RowsPerShard: 20, Vocab: vocab})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 60; i++ {
		var cols []int32
		var vals []float64
		for j := 0; j < len(vocab); j++ {
			if (i*5+j*3)%7 < 3 {
				cols, vals = append(cols, int32(j)), append(vals, float64(1+(i+j)%4))
			}
		}
		if err := w.Add(cols, vals, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src, err := shard.OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// A resumed out-of-core fit whose state folder holds another fit's
// checkpoint — another kind, k, seed, exclusions — is refused before any
// work with an error naming what differs, and the checkpoint is left as
// it was; the same fit resumes (the NMF family even with another maximum
// of iterations: this one was finished, and stays so).
func TestFitShardsRefusesAnotherFitsCheckpoint(t *testing.T) {
	ctx := context.Background()
	src := smallShards(t)
	state := filepath.Join(t.TempDir(), "m.state")
	base := Options{Kind: KindNMF, K: 3, Seed: 1, MaxIter: 3, Init: "random-acol"}
	if _, err := fitOutOfCore(ctx, src, state, base); err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(state, shard.CheckpointFile)
	saved, err := os.ReadFile(cp)
	if err != nil {
		t.Fatal(err)
	}
	lda := Options{Kind: KindLDA, K: 3, Seed: 1, MaxIter: 3}
	seed := base
	seed.Seed = 2
	k := base
	k.K = 4
	excl := base
	excl.Anchors = []Anchor{{Topic: "topic-1", Exclude: []string{"bank"}}}
	for _, c := range []struct {
		o    Options
		want []string
	}{
		{lda, []string{"kind nmf in the checkpoint, lda asked"}},
		{seed, []string{"seed 1 in the checkpoint, 2 asked"}},
		{k, []string{"k 3 in the checkpoint, 4 asked"}},
		{excl, []string{"anchors (none) in the checkpoint, topic-1: -bank asked"}},
	} {
		_, err := fitOutOfCore(ctx, src, state, c.o)
		var mm *StateMismatchError
		if !errors.As(err, &mm) || mm.Dir != state {
			t.Fatalf("%+v: %v", c.o, err)
		}
		for _, w := range append(c.want, state) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: the error does not say %q: %v", c.o, w, err)
			}
		}
		if b, _ := os.ReadFile(cp); !bytes.Equal(b, saved) {
			t.Fatalf("%+v: the checkpoint was overwritten", c.o)
		}
	}
	more := base
	more.MaxIter = 5
	f, err := fitOutOfCore(ctx, src, state, more)
	if err != nil {
		t.Fatal(err)
	}
	if f.Info.Iterations != 3 {
		t.Errorf("the finished fit resumed: %d iterations, want its 3", f.Info.Iterations)
	}
}

// A failed fit removes the state folder it created, which holds nothing
// to resume from, and leaves one that was there.
func TestFitShardsRemovesItsEmptyState(t *testing.T) {
	ctx := context.Background()
	src := smallShards(t)
	bad := Options{Kind: KindNMF, K: 3, Loss: "bogus"}
	state := filepath.Join(t.TempDir(), "m.state")
	if _, err := fitOutOfCore(ctx, src, state, bad); err == nil {
		t.Fatal("no error")
	}
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state folder of a failed fit: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := fitOutOfCore(cancelled, src, state, Options{Kind: KindNMF, K: 3}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	if _, err := os.Stat(state); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the state folder of a fit cancelled before its first pass: %v", err)
	}
	if err := os.Mkdir(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := fitOutOfCore(ctx, src, state, bad); err == nil {
		t.Fatal("no error")
	}
	if _, err := os.Stat(state); err != nil {
		t.Errorf("a state folder that was there: %v", err)
	}
}
