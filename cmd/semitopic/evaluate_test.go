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
	if c := ev.Cluster; c == nil || c.Homogeneity != 1 || c.AMI != 1 || c.ARI != 1 || c.HardP != 1 || c.LeftOut != 0 {
		t.Errorf("clustering %+v", ev.Cluster)
	}
	if q := ev.Quality; q == nil || len(q.Words) != 2 || q.Words[1][0] != "x" || q.Words[0][0] != "y" {
		t.Errorf("quality %+v", ev.Quality)
	}
	out, _, err = run(t, "evaluate", "--doc-topics", p("w.csv"), "--labels", p("labels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "100.00% with the optimal topic-to-label mapping, 100.00% by topic name") ||
		!strings.Contains(out, "AMI 1.0000, ARI 1.0000") || strings.Contains(out, "no topic weight") {
		t.Errorf("text output:\n%s", out)
	}
}

// TestEvaluateNoTopicWeight checks documents whose row of W is all zeros
// (no term known to the model): they have no argmax topic and are left out
// of the clustering scores instead of joining topic 0's cluster, and the
// Jaccard and log rank sections say how they counted them.
func TestEvaluateNoTopicWeight(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		// d5 (label a) and d6 (label b) have no topic weight, nor has the
		// unlabeled d7. Argmax'ed to topic a, d6 would break the clustering.
		"w.csv":      "id,a,b\nd1,1,0\nd2,2,0\nd3,0,3\nd4,0,1\nd5,0,0\nd6,0,0\nd7,0,0\n",
		"labels.txt": "a\na\nb\nb\na\nb\n\n",
		"zero.csv":   "a,b\n0,0\n0,0\n1,0\n",
		"zl.txt":     "a\nb\na,b\n",
	})
	p := func(n string) string { return filepath.Join(dir, n) }
	out, _, err := run(t, "evaluate", "--doc-topics", p("w.csv"), "--labels", p("labels.txt"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	var ev evaluation
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if ev.NoTopic != 3 || ev.Labeled != 6 {
		t.Errorf("no_topic_documents %d, labeled %d; want 3, 6", ev.NoTopic, ev.Labeled)
	}
	if c := ev.Cluster; c == nil || c.Documents != 4 || c.LeftOut != 2 || c.Homogeneity != 1 || c.Completeness != 1 ||
		c.NMI != 1 || c.AMI != 1 || c.ARI != 1 || c.HardP != 1 || c.SoftP != 1 {
		t.Errorf("clustering %+v: want the 4 documents with topic weight, perfectly clustered, and 2 left out", ev.Cluster)
	}
	// Jaccard as defined: label a's topic column (1,2,0,0,0,0,0)/3 against
	// its documents d1, d2, d5 gives Σmin = 1, Σmax = 3; label b's
	// (0,0,1,1/3,0,0,0) against d3, d4, d6 gives 4/3 over 3.
	if j := ev.Jaccard; j == nil || math.Abs(j.Mean-(1.0/3+4.0/9)/2) > 1e-12 || j.NoTopic != 2 || !strings.Contains(j.Counted, "weight 0") {
		t.Errorf("jaccard %+v", ev.Jaccard)
	}
	// Log rank: d5 and d6 rank their theme last (2 of 2 topics) and earn
	// 0 of log 2: 4 of 6 documents' credit.
	if l := ev.LogRank; l == nil || math.Abs(l.Exact-4.0/6) > 1e-12 || l.NoTopic != 2 || !strings.Contains(l.Counted, "last rank") {
		t.Errorf("log rank %+v", ev.LogRank)
	}
	out, _, err = run(t, "evaluate", "--doc-topics", p("w.csv"), "--labels", p("labels.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3 documents have no topic weight (no known term)",
		"on 4 single-label documents",
		"ARI 1.0000",
		"2 more single-label documents have no topic weight (no known term) and are left out of the clustering scores",
		"2 labeled documents have no topic weight: each counts as a document of its labels with weight 0",
		"2 labeled documents have no topic weight: all topics tie",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	// Every single-label document without topic weight: no clustering
	// scores, and a note says why.
	out, _, err = run(t, "evaluate", "--doc-topics", p("zero.csv"), "--labels", p("zl.txt"), "--json")
	if err != nil {
		t.Fatal(err)
	}
	ev = evaluation{}
	if err := json.Unmarshal([]byte(out), &ev); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if ev.Cluster != nil || ev.NoTopic != 2 || len(ev.Notes) != 1 || !strings.Contains(ev.Notes[0], "all 2 single-label documents have no topic weight") {
		t.Errorf("all single-label documents without weight: clustering %+v, no_topic %d, notes %q", ev.Cluster, ev.NoTopic, ev.Notes)
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
