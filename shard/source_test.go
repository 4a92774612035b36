package shard

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/semitopic/semitopic/blocks"
)

func TestSourceBlocksAreTheShards(t *testing.T) {
	dir := t.TempDir()
	write(t, dir)
	src, err := OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	if d, m := src.Dims(); d != 23 || m != 9 || src.NumBlocks() != 5 {
		t.Fatalf("%d×%d in %d blocks, want 23×9 in 5", d, m, src.NumBlocks())
	}
	cols, vals, labels := rows()
	seen := 0
	// Read out of order: each block stands alone.
	for _, i := range []int{3, 0, 4, 1, 2} {
		b, err := src.Read(i)
		if err != nil {
			t.Fatal(err)
		}
		first, n := src.Span(i)
		if b.First != first || b.X.Rows != n || len(b.Labels) != n {
			t.Fatalf("block %d: first %d, %d rows, %d labels; span %d, %d", i, b.First, b.X.Rows, len(b.Labels), first, n)
		}
		for r := 0; r < n; r++ {
			c, v := b.X.Row(r)
			if !slices.Equal(c, cols[first+r]) || !slices.Equal(v, vals[first+r]) || !slices.Equal(b.Labels[r], labels[first+r]) {
				t.Fatalf("block %d row %d: %v %v %v, want %v %v %v", i, r, c, v, b.Labels[r], cols[first+r], vals[first+r], labels[first+r])
			}
		}
		seen += n
	}
	if seen != 23 {
		t.Fatalf("blocks cover %d documents", seen)
	}
	vocab, err := src.Vocab()
	if err != nil || len(vocab) != 9 {
		t.Fatalf("vocab %v, %v", vocab, err)
	}
}

func TestSourceTruncatedLabels(t *testing.T) {
	dir := t.TempDir()
	write(t, dir)
	path := filepath.Join(dir, LabelsFile)
	b, _ := os.ReadFile(path)
	os.WriteFile(path, b[:len(b)-4], 0o644)
	src, err := OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Read(4); err == nil || !strings.Contains(err.Error(), "labels of shard 4") {
		t.Fatalf("truncated labels: %v", err)
	}
}

func TestStore(t *testing.T) {
	st, err := NewStore(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, 2500) // spans several write buffers
	for i := range v {
		v[i] = float64(i)*0.5 - 3
	}
	if err := st.Save("w", 7, v); err != nil {
		t.Fatal(err)
	}
	got := make([]float64, len(v))
	if err := st.Load("w", 7, got); err != nil || !slices.Equal(got, v) {
		t.Fatalf("load: %v (equal %v)", err, slices.Equal(got, v))
	}
	if err := st.Load("w", 8, got); !blocks.IsNotExist(err) {
		t.Fatalf("a state never saved: %v", err)
	}
	if err := st.Load("w", 7, got[:10]); err == nil || !strings.Contains(err.Error(), "w-00007.f64") {
		t.Fatalf("wrong length: %v", err)
	}
	if err := st.Save("../x", 0, v); err == nil {
		t.Fatal("a name with a slash was accepted")
	}
	// A flipped byte is caught by the checksum.
	path := filepath.Join(st.Dir(), "w-00007.f64")
	b, _ := os.ReadFile(path)
	b[100] ^= 1
	os.WriteFile(path, b, 0o644)
	if err := st.Load("w", 7, got); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("damaged state: %v", err)
	}
}

func TestSourceChecksShardsOnce(t *testing.T) {
	dir := t.TempDir()
	m := write(t, dir)
	path := filepath.Join(dir, m.Shards[1].File)
	b, _ := os.ReadFile(path)
	b[len(b)-1] ^= 1 // a value's last byte: the layout still parses
	os.WriteFile(path, b, 0o644)
	src, err := OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := src.Read(1); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("a damaged shard read first: %v", err)
	}
	// Once read cleanly, a shard is not hashed or validated again by the
	// same Source while its file is the one that passed: the same file,
	// modification time and size (here damaged behind the Source's back,
	// its time put back, to show the check is skipped)...
	clean := t.TempDir()
	write(t, clean)
	src, _ = OpenSource(clean)
	if _, err := src.Read(1); err != nil {
		t.Fatal(err)
	}
	cpath := filepath.Join(clean, m.Shards[1].File)
	fi, err := os.Stat(cpath)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cpath, b, 0o644)
	if err := os.Chtimes(cpath, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Read(1); err != nil {
		t.Fatalf("second read: %v", err)
	}
	// ... and checked again once it is not: written again, its time moves.
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(cpath, later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := src.Read(1); err == nil || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("a shard changed since its check: %v", err)
	}
	if _, err := OpenSource(clean); err != nil {
		t.Fatal(err)
	}
	fresh, _ := OpenSource(clean)
	if _, err := fresh.Read(1); err == nil {
		t.Fatal("a new Source did not check the damaged shard")
	}
}

func TestSourcePipeline(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, 3, Options{Pipeline: []byte(`{"pipeline":{}}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add([]int32{1}, []float64{2}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src, err := OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := src.Pipeline(); err != nil || string(b) != `{"pipeline":{}}` {
		t.Fatalf("pipeline %q, %v", b, err)
	}
	// Without one, there is none.
	plain := t.TempDir()
	write(t, plain)
	src, _ = OpenSource(plain)
	if b, err := src.Pipeline(); b != nil || err != nil {
		t.Fatalf("no pipeline: %q, %v", b, err)
	}
}

// checkBlock fails t unless b holds the rows of shard i of the corpus
// written by write.
func checkBlock(t *testing.T, src *Source, i int, b *blocks.Block) {
	t.Helper()
	cols, vals, _ := rows()
	first, n := src.Span(i)
	if b.First != first || b.X.Rows != n {
		t.Fatalf("block %d: first %d, %d rows; span %d, %d", i, b.First, b.X.Rows, first, n)
	}
	if err := b.X.Validate(); err != nil {
		t.Fatalf("block %d: %v", i, err)
	}
	for r := 0; r < n; r++ {
		c, v := b.X.Row(r)
		if !slices.Equal(c, cols[first+r]) || !slices.Equal(v, vals[first+r]) {
			t.Fatalf("block %d row %d: %v %v, want %v %v", i, r, c, v, cols[first+r], vals[first+r])
		}
	}
}

func TestSourceRecycles(t *testing.T) {
	dir := t.TempDir()
	write(t, dir)
	src, err := OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	// Several passes in blocks.Each's order, each block handed back after
	// use and its arrays reused by later reads of other shards, larger or
	// smaller: every block reads as written.
	for pass := 0; pass < 3; pass++ {
		err := blocks.Each(context.Background(), src, func(i int, b *blocks.Block) error {
			checkBlock(t, src, i, b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	// A read takes a spare whose capacity holds the shard.
	b, err := src.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	p := &b.X.Data[:1][0]
	src.Recycle(b)
	if b.X != nil {
		t.Fatal("Recycle left the block its matrix")
	}
	b, err = src.Read(0)
	if err != nil {
		t.Fatal(err)
	}
	if &b.X.Data[:1][0] != p {
		t.Error("a read after Recycle allocated new arrays")
	}
	checkBlock(t, src, 0, b)
}

func TestDecodeArraysMatchesInPlace(t *testing.T) {
	dir := t.TempDir()
	write(t, dir)
	src, err := OpenSource(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func(v bool) { inPlace = v }(inPlace)
	for _, inPlace = range []bool{false, true} {
		for i := 0; i < src.NumBlocks(); i++ {
			b, err := src.Read(i)
			if err != nil {
				t.Fatalf("in place %v: %v", inPlace, err)
			}
			checkBlock(t, src, i, b)
		}
	}
}
