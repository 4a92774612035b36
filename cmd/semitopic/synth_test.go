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
	if _, _, err := run(t, "synth", "--preset", "small", "--format", "uci", "--out", filepath.Join(dir, "x.txt")); err == nil {
		t.Error("a uci file not named docword.NAME.txt was accepted")
	}
	if _, _, err := run(t, "synth", "--preset", "huge", "--out", out); err == nil {
		t.Error("an unknown preset was accepted")
	}
}
