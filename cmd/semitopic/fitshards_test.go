package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// fit --out-of-core trains on a sharded corpus and ends where the
// in-memory fit ends; its state folder refuses a second fit unless
// resumed.
func TestFitOutOfCore(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "c.shards")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "600", "--seed", "4", "--labeled", "0.3",
		"--format", "shards", "--rows-per-shard", "130", "--out", shards); err != nil {
		t.Fatal(err)
	}
	objective := func(stdout string) string {
		t.Helper()
		_, after, ok := strings.Cut(stdout, "objective ")
		if !ok {
			t.Fatalf("no objective in %q", stdout)
		}
		return strings.SplitN(after, ")", 2)[0]
	}
	anchors := filepath.Join(dir, "anchors.txt")
	if err := os.WriteFile(anchors, []byte("first: wki, wdu\nsecond: wfe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"nmf", "tsnmf", "corex", "lda"} {
		args := []string{"fit", "--kind", kind, "--format", "shards", shards, "--max-iter", "15", "-k", "20"}
		switch kind {
		case "tsnmf":
			args = append(args, "--labels-from-corpus", "--auto=false")
		case "nmf":
			args = append(args, "--init", "random-acol")
		case "corex":
			args = append(args, "--anchors", anchors)
		}
		mem, _, err := run(t, append(args, "--out", filepath.Join(dir, kind+"-mem.semitopic"))...)
		if err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, kind+".semitopic")
		ooc, stderr, err := run(t, append(args, "--out-of-core", "--out", out)...)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(ooc, "fitted out of core on 600 documents") || !strings.Contains(ooc, "peak memory: ") || !strings.Contains(stderr, "5 shards") {
			t.Errorf("%s out of core said:\n%s\n%s", kind, ooc, stderr)
		}
		if a, b := objective(mem), objective(ooc); a != b {
			t.Errorf("%s: objective %s out of core, %s in memory", kind, b, a)
		}
		if _, _, err := run(t, append(args, "--out-of-core", "--out", out)...); err == nil || !strings.Contains(err.Error(), "--resume continues it") {
			t.Errorf("%s: a second fit into the same state: %v", kind, err)
		}
		js, _, err := run(t, append(args, "--out-of-core", "--resume", "--json", "--out", out)...)
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			Peak float64 `json:"peak_memory_mib"`
			Info struct {
				Iterations int
			} `json:"info"`
		}
		if err := json.Unmarshal([]byte(js), &res); err != nil || res.Peak <= 0 || res.Info.Iterations < 1 {
			t.Errorf("%s resumed, JSON: %v %+v\n%s", kind, err, res, js)
		}
	}
	if _, _, err := run(t, "fit", "--kind", "nmf", "-k", "3", "--format", "mtx", "x.mtx", "--out-of-core", "--out", filepath.Join(dir, "x.semitopic")); err == nil || !strings.Contains(err.Error(), "--format shards") {
		t.Errorf("out of core on an mtx file: %v", err)
	}
	if _, _, err := run(t, "fit", "--kind", "lda", "-k", "3", "--method", "online", "--format", "shards", shards, "--out-of-core", "--out", filepath.Join(dir, "o.semitopic")); err == nil || !strings.Contains(err.Error(), "batch method") {
		t.Errorf("online LDA out of core: %v", err)
	}
	if _, _, err := run(t, "fit", "--kind", "ssnmf", "--labels-from-corpus", "--format", "shards", shards, "--out-of-core", "--out", filepath.Join(dir, "s.semitopic")); err == nil || !strings.Contains(err.Error(), "trained in memory") {
		t.Errorf("ssnmf out of core: %v", err)
	}
}

// A corpus sharded from text keeps its vectorizer: the model trained on it
// out of core transforms new text as the in-memory model does.
func TestFitOutOfCoreReadsText(t *testing.T) {
	dir := t.TempDir()
	jsonl := filepath.Join(dir, "docs.jsonl")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "200", "--seed", "5", "--format", "jsonl", "--out", jsonl); err != nil {
		t.Fatal(err)
	}
	shards := filepath.Join(dir, "docs.shards")
	if _, _, err := run(t, "vectorize", "--format", "jsonl", jsonl, "--preset", "lda", "--tokens", "alnum", "--shards", shards, "--rows-per-shard", "64"); err != nil {
		t.Fatal(err)
	}
	ooc := filepath.Join(dir, "ooc.semitopic")
	if _, _, err := run(t, "fit", "--kind", "nmf", "-k", "4", "--init", "random-acol", "--format", "shards", shards, "--out-of-core", "--out", ooc); err != nil {
		t.Fatal(err)
	}
	mem := filepath.Join(dir, "mem.semitopic")
	if _, _, err := run(t, "fit", "--kind", "nmf", "-k", "4", "--init", "random-acol", "--format", "jsonl", jsonl, "--preset", "lda", "--tokens", "alnum", "--out", mem); err != nil {
		t.Fatal(err)
	}
	var outs []string
	for _, m := range []string{ooc, mem} {
		csv := m + ".csv"
		if _, _, err := run(t, "transform", "--model", m, "--format", "jsonl", jsonl, "--out", csv); err != nil {
			t.Fatalf("transform with %s: %v", filepath.Base(m), err)
		}
		b, err := os.ReadFile(csv)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, string(b))
	}
	a, b := strings.Split(outs[0], "\n"), strings.Split(outs[1], "\n")
	if len(a) < 200 || len(a) != len(b) {
		t.Fatalf("transforms of %d and %d lines", len(a), len(b))
	}
	// Equal up to the order of the sums over shards.
	for i := range a {
		fa, fb := strings.Split(a[i], ","), strings.Split(b[i], ",")
		for j := range fa {
			x, errx := strconv.ParseFloat(fa[j], 64)
			y, erry := strconv.ParseFloat(fb[j], 64)
			if (errx == nil) != (erry == nil) || errx != nil && fa[j] != fb[j] || errx == nil && math.Abs(x-y) > 1e-9*max(math.Abs(y), 1e-3) {
				t.Fatalf("line %d: out of core %q, in memory %q", i+1, a[i], b[i])
			}
		}
	}
}

// Exclusion words keep a word out of a topic, in memory and out of core.
func TestFitExclusionWords(t *testing.T) {
	dir := t.TempDir()
	shards := filepath.Join(dir, "c.shards")
	if _, _, err := run(t, "synth", "--preset", "small", "--docs", "400", "--seed", "6", "--labeled", "0.5", "--format", "shards", "--out", shards); err != nil {
		t.Fatal(err)
	}
	anchors := filepath.Join(dir, "anchors.txt")
	if err := os.WriteFile(anchors, []byte("c1: -wki, -wduki\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{{"--auto=false"}, {"--out-of-core", "--state", filepath.Join(dir, "ooc.state")}} {
		args := append([]string{"fit", "--kind", "tsnmf", "--labels-from-corpus", "--format", "shards", shards, "--anchors", anchors,
			"--json", "--top", "30", "--out", filepath.Join(dir, "m.semitopic")}, extra...)
		out, _, err := run(t, args...)
		if err != nil {
			t.Fatalf("%v: %v", extra, err)
		}
		var res struct {
			Topics []struct {
				Name  string
				Words []struct{ Word string }
			}
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatal(err)
		}
		found := false
		for _, tp := range res.Topics {
			if tp.Name != "c1" {
				continue
			}
			found = true
			for _, w := range tp.Words {
				if w.Word == "wki" || w.Word == "wduki" { // synth.TermName(0), (20)
					t.Errorf("%v: the excluded %q is among topic c1's words", extra, w.Word)
				}
			}
		}
		if !found {
			t.Errorf("%v: no topic c1 in %s", extra, out)
		}
	}
}
