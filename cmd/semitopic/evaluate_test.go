package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestEvaluatePerfectTopics(t *testing.T) {
	// Topic "b" (column 2) carries label b, topic "a" label a: a perfect
	// model whose columns are in the opposite order of the sorted labels.
	dir := writeFiles(t, map[string]string{
		"w.csv":      "id,b,a\nd1,0,1\nd2,0,2\nd3,3,0\nd4,1,0\n",
		"labels.txt": "a\na\nb\nb\n",
		// Terms: x in documents of a, y in documents of b.
		"X.mtx":     "%%MatrixMarket matrix coordinate real general\n4 3 5\n1 1 1\n2 1 1\n3 2 1\n4 2 1\n4 3 1\n",
		"vocab.txt": "x\ny\nz\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	out, _, err := run(t, "evaluate", "--doc-topics", p("w.csv"), "--labels", p("labels.txt"), "--docs", p("X.mtx"), "--vocab", p("vocab.txt"), "--top", "2", "--json", "--ga")
	if err != nil {
		t.Fatal(err)
	}
	var ev evaluation
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if ev.Documents != 4 || ev.Topics != 2 || ev.Labeled != 4 {
		t.Errorf("shape %+v", ev)
	}
	// Label a's column (1,2,0,0)/3 vs indicator (1,1,0,0): Σmin = 1/3+2/3,
	// Σmax = 1+1 -> 0.5; label b's (0,0,1,1/3) vs (0,0,1,1): (1+1/3)/2 = 2/3.
	if j := ev.Jaccard; j == nil || math.Abs(j.Mean-(0.5+2.0/3)/2) > 1e-12 || j.Resolved != 2 {
		t.Errorf("jaccard %+v", ev.Jaccard)
	}
	if l := ev.LogRank; l == nil || l.Exact != 1 || l.ByName == nil || *l.ByName != 1 || l.GA == nil || *l.GA != 1 {
		t.Errorf("log rank %+v", ev.LogRank)
	}
	if c := ev.Cluster; c == nil || c.Homogeneity != 1 || c.AMI != 1 || c.HardP != 1 {
		t.Errorf("clustering %+v", ev.Cluster)
	}
	if q := ev.Quality; q == nil || len(q.Words) != 2 || q.Words[1][0] != "x" || q.Words[0][0] != "y" {
		t.Errorf("quality %+v", ev.Quality)
	}
	out, _, err = run(t, "evaluate", "--doc-topics", p("w.csv"), "--labels", p("labels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "100.00% with the optimal topic-to-label mapping, 100.00% by topic name") {
		t.Errorf("text output:\n%s", out)
	}
}

func TestEvaluateErrors(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"w.csv":      "0.1,0.2\n0.3,x\n",
		"ok.csv":     "0.1,0.2\n0.3,0.4\n",
		"neg.csv":    "0.1,-0.2\n",
		"short.txt":  "a\n",
		"ragged.csv": "1,2\n3\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	cases := map[string][]string{
		"--doc-topics is required": {"evaluate"},
		"is not a number":          {"evaluate", "--doc-topics", p("w.csv")},
		"non-negative":             {"evaluate", "--doc-topics", p("neg.csv")},
		"has 1 lines":              {"evaluate", "--doc-topics", p("ok.csv"), "--labels", p("short.txt")},
		"wrong number of fields":   {"evaluate", "--doc-topics", p("ragged.csv")},
		"no such file":             {"evaluate", "--doc-topics", p("missing.csv")},
	}
	for want, args := range cases {
		_, _, err := run(t, args...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want %q", args, err, want)
		}
	}
}
