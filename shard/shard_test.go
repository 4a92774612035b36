package shard

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// rows is a small corpus: 23 documents over 9 terms, some empty, every
// third labeled.
func rows() (cols [][]int32, vals [][]float64, labels [][]string) {
	for i := 0; i < 23; i++ {
		var c []int32
		var v []float64
		for j := int32(0); j < 9; j++ {
			if (int(j)*7+i)%4 == 0 {
				c = append(c, j)
				v = append(v, float64(i+int(j)+1))
			}
		}
		cols, vals = append(cols, c), append(vals, v)
		var l []string
		if i%3 == 0 {
			l = []string{"a", "b"}[:1+i%2]
		}
		labels = append(labels, l)
	}
	return cols, vals, labels
}

func write(t *testing.T, dir string) *Manifest {
	t.Helper()
	vocab := []string{"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"}
	w, err := Create(dir, 9, Options{RowsPerShard: 5, Vocab: vocab, Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	cols, vals, labels := rows()
	for i := range cols {
		if err := w.Add(cols[i], vals[i], labels[i]); err != nil {
			t.Fatal(err)
		}
	}
	m, err := w.Close()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	m := write(t, dir)
	if len(m.Shards) != 5 || m.Docs != 23 || m.Shards[4].Rows != 3 {
		t.Fatalf("manifest %+v, want 5 shards of at most 5 of 23 documents", m)
	}
	x, vocab, labels, err := ReadAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	cols, vals, want := rows()
	if x.Rows != 23 || x.Cols != 9 || len(vocab) != 9 || vocab[8] != "t8" {
		t.Fatalf("read %d×%d with %d terms", x.Rows, x.Cols, len(vocab))
	}
	for i := range cols {
		c, v := x.Row(i)
		if !slices.Equal(c, cols[i]) || !slices.Equal(v, vals[i]) {
			t.Fatalf("document %d reads back as %v %v, written %v %v", i, c, v, cols[i], vals[i])
		}
		if !slices.Equal(labels[i], want[i]) {
			t.Fatalf("document %d: labels %v, written %v", i, labels[i], want[i])
		}
	}
	// One shard alone is its rows.
	s, err := m.ReadShard(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	if c, _ := s.Row(0); s.Rows != 5 || !slices.Equal(c, cols[5]) {
		t.Error("shard 1 is not documents 5 to 9")
	}
}

// A damaged shard or manifest is an error naming the file, never a wrong
// matrix.
func TestDamage(t *testing.T) {
	dir := t.TempDir()
	write(t, dir)
	p := filepath.Join(dir, "shard-00002.bin")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ReadAll(dir); err == nil || !strings.Contains(err.Error(), "shard-00002.bin") || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("damaged shard: %v", err)
	}
	huge := append([]byte(nil), b...)
	huge[8+7] = 0x7f // rows in the header: far beyond memory
	if err := os.WriteFile(p, huge, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ReadAll(dir); err == nil || !strings.Contains(err.Error(), "header") {
		t.Errorf("a damaged header: %v", err)
	}
	if err := os.WriteFile(p, b[:40], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := ReadAll(dir); err == nil {
		t.Error("truncated shard accepted")
	}
	mp := filepath.Join(dir, ManifestFile)
	mb, _ := os.ReadFile(mp)
	if err := os.WriteFile(mp, []byte(strings.Replace(string(mb), `"docs": 23`, `"docs": 24`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil {
		t.Error("a manifest whose shards do not add up was accepted")
	}
	if _, err := Open(t.TempDir()); err == nil {
		t.Error("a folder without a manifest was accepted")
	}
}

func TestAddErrors(t *testing.T) {
	w, err := Create(t.TempDir(), 4, Options{Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cols   []int32
		vals   []float64
		labels []string
	}{
		{[]int32{1, 1}, []float64{1, 2}, nil},
		{[]int32{4}, []float64{1}, nil},
		{[]int32{0}, []float64{1, 2}, nil},
		{[]int32{0}, []float64{1}, []string{"a,b"}},
	} {
		if err := w.Add(c.cols, c.vals, c.labels); err == nil {
			t.Errorf("Add(%v, %v, %v) accepted", c.cols, c.vals, c.labels)
		}
	}
	if _, err := Create(t.TempDir(), 3, Options{Vocab: []string{"a"}}); err == nil {
		t.Error("a vocabulary of the wrong length was accepted")
	}
}

// Writing over a corpus replaces it whole; an aborted write leaves it as it
// was, and no temporary folder behind.
func TestReplaceAndAbort(t *testing.T) {
	parent := t.TempDir()
	dir := filepath.Join(parent, "corpus")
	write(t, dir)
	w, err := Create(dir, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add([]int32{1}, []float64{3}, nil); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if m, err := Open(dir); err != nil || m.Docs != 23 {
		t.Fatalf("after an aborted write: %v, %+v", err, m)
	}
	w, err = Create(dir, 2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Add([]int32{1}, []float64{3}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	x, _, labels, err := ReadAll(dir)
	if err != nil || x.Rows != 1 || x.Cols != 2 || labels != nil {
		t.Fatalf("the replacing corpus: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "shard-00004.bin")); err == nil {
		t.Error("a shard of the old corpus is still there")
	}
	entries, _ := os.ReadDir(parent)
	if len(entries) != 1 {
		t.Errorf("the parent folder holds %d entries, want only the corpus", len(entries))
	}
}

// A manifest that promises a shard far larger than its file is refused
// before anything is allocated.
func TestManifestSizeChecked(t *testing.T) {
	dir := t.TempDir()
	m := write(t, dir)
	m.Shards[0].Rows, m.Shards[0].NNZ = 1<<30, 1<<40
	if _, err := m.ReadShard(dir, 0); err == nil || !strings.Contains(err.Error(), "bytes") {
		t.Errorf("an oversized manifest entry: %v", err)
	}
}
