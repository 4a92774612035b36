package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/choosek"
)

// choose-k on a synthetic text corpus: a table of every k, a
// recommendation with its reason, the chart, and JSON.
func TestChooseK(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "docs.jsonl")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "300", "--format", "jsonl", "--out", src); err != nil {
		t.Fatal(err)
	}
	svg := filepath.Join(dir, "k.svg")
	stdout, stderr, err := run(t, "choose-k", "--format", "jsonl", src, "--ks", "2,4,6", "--starts", "2", "--max-iter", "50", "--chart", svg)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"stability", "coherence (NPMI)", "recommended: k = ", "largest product of stability"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("choose-k printed no %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "6/6 fits") || !strings.Contains(stderr, "left") {
		t.Errorf("choose-k's progress: %q", stderr)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.Contains(string(b), "<svg") {
		t.Errorf("chart: %v", err)
	}
	js, _, err := run(t, "choose-k", "--format", "jsonl", src, "--ks", "2:3", "--starts", "2", "--max-iter", "20", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var res choosek.Result
	if err := json.Unmarshal([]byte(js), &res); err != nil || len(res.Candidates) != 2 || res.Best < 2 || res.Reason == "" {
		t.Errorf("JSON %v: %s", err, js)
	}
	for args, want := range map[string]string{
		"--ks 1:4":       "--ks",
		"--kind tsnmf":   "learns from labels",
		"--starts 1":     "at least 2 starts",
		"--starts 0":     "--starts",
		"--top-words 0":  "--top-words",
		"--max-iter -1":  "--max-iter",
		"--chart k.png":  "--chart",
		"--kind nothing": "--kind",
	} {
		if _, _, err := run(t, append([]string{"choose-k", "--format", "jsonl", src}, strings.Fields(args)...)...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("choose-k %s: error %v, want one naming %q", args, err, want)
		}
	}
}
