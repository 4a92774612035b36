package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// synth writes a corpus that the readers and fit take as it is, into a
// folder it creates.
func TestSynth(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "new", "x.mtx")
	stdout, _, err := run(t, "synth", "--preset", "small", "--docs", "300", "--seed", "2", "--out", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "300 documents × 5000 terms") {
		t.Errorf("synth said %q", stdout)
	}
	stats, _, err := run(t, "corpus", "stats", "--format", "mtx", out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stats, "documents   300") || !strings.Contains(stats, "labeled") {
		t.Errorf("corpus stats of the synthetic corpus: %s", stats)
	}
	shards := filepath.Join(dir, "shards")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "300", "--seed", "2", "--format", "shards", "--out", shards); err != nil {
		t.Fatal(err)
	}
	sstats, _, err := run(t, "corpus", "stats", "--format", "shards", shards)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := strings.SplitN(stats, "time", 2)[0], strings.SplitN(sstats, "time", 2)[0]; strings.TrimPrefix(a, "corpus      mtx: "+out) != strings.TrimPrefix(b, "corpus      shards: "+shards) {
		t.Errorf("the sharded corpus reads differently:\n%s\n%s", a, b)
	}
	if _, _, err := run(t, "synth", "--preset", "small", "--format", "uci", "--out", filepath.Join(dir, "x.txt")); err == nil {
		t.Error("a uci file not named docword.NAME.txt was accepted")
	}
	if _, _, err := run(t, "synth", "--preset", "huge", "--out", out); err == nil {
		t.Error("an unknown preset was accepted")
	}
}

// vectorize --shards writes the same corpus as --out, sharded.
func TestVectorizeShards(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "docs.jsonl")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "120", "--format", "jsonl", "--out", src); err != nil {
		t.Fatal(err)
	}
	mtx, shards := filepath.Join(dir, "x.mtx"), filepath.Join(dir, "shards")
	if _, _, err := run(t, "vectorize", "--format", "jsonl", src, "--out", mtx, "--weight", "tf", "--tokens", "alnum"); err != nil {
		t.Fatal(err)
	}
	stdout, _, err := run(t, "vectorize", "--format", "jsonl", src, "--shards", shards, "--rows-per-shard", "50", "--weight", "tf", "--tokens", "alnum")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "wrote 3 shards") {
		t.Errorf("vectorize --shards said %q", stdout)
	}
	a, _, err := run(t, "corpus", "stats", "--format", "mtx", mtx)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := run(t, "corpus", "stats", "--format", "shards", shards)
	if err != nil {
		t.Fatal(err)
	}
	strip := func(s, prefix string) string { return strings.TrimPrefix(strings.SplitN(s, "time", 2)[0], prefix) }
	if strip(a, "corpus      mtx: "+mtx) != strip(b, "corpus      shards: "+shards) {
		t.Errorf("the sharded corpus reads differently:\n%s\n%s", a, b)
	}
	if _, _, err := run(t, "vectorize", "--format", "jsonl", src, "--shards", shards, "--out", mtx); err == nil {
		t.Error("--shards with --out accepted")
	}
}
