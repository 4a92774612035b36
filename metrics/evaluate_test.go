package metrics

import (
	"context"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestEvaluateTopics(t *testing.T) {
	// Topics 0 and 1 are labels 1 and 0; document 4 has no topic weight.
	W := mat.NewDense(5, 2, []float64{
		0, 1,
		0, 2,
		3, 0,
		1, 0,
		0, 0,
	})
	labels := [][]int{{0}, {0}, {1}, {1}, {0}}
	ev, err := EvaluateTopics(context.Background(), W, labels, 2, EvaluateOptions{
		TopicNames: []string{"b", "a"}, LabelNames: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Documents != 5 || ev.Topics != 2 || ev.Labeled != 5 || ev.NoTopic != 1 {
		t.Errorf("counts %+v", ev)
	}
	if c := ev.Cluster; c == nil || c.Documents != 4 || c.LeftOut != 1 || c.AMI != 1 || c.Homogeneity != 1 {
		t.Errorf("clustering %+v: want the 4 documents with weight, perfectly clustered, 1 left out", c)
	}
	if lr := ev.LogRank; lr == nil || lr.ByName == nil || *lr.ByName != lr.Exact || lr.GA != nil || lr.NoTopic != 1 || lr.Counted != NoTopicLogRank {
		t.Errorf("log rank %+v: want the by-name mapping equal to the exact one, no GA", lr)
	}
	if j := ev.Jaccard; j == nil || j.Scored != 2 || j.NoTopic != 1 {
		t.Errorf("Jaccard %+v", j)
	}
	// No labels: only the counts.
	ev, err = EvaluateTopics(context.Background(), W, make([][]int, 5), 0, EvaluateOptions{})
	if err != nil || ev.Jaccard != nil || ev.LogRank != nil || ev.Cluster != nil || ev.NoTopic != 1 {
		t.Errorf("unlabeled: %+v, %v", ev, err)
	}
	// Names that do not match: no by-name score; wrong lengths: an error.
	ev, _ = EvaluateTopics(context.Background(), W, labels, 2, EvaluateOptions{TopicNames: []string{"x", "y"}, LabelNames: []string{"a", "b"}})
	if ev.LogRank.ByName != nil {
		t.Error("a by-name score without matching names")
	}
	if _, err := EvaluateTopics(context.Background(), W, labels, 2, EvaluateOptions{TopicNames: []string{"x"}, LabelNames: []string{"a", "b"}}); err == nil || !strings.Contains(err.Error(), "topic names") {
		t.Errorf("one topic name for two topics: %v", err)
	}
	if _, err := EvaluateTopics(context.Background(), W, labels[:3], 2, EvaluateOptions{}); err == nil {
		t.Error("3 label lists for 5 documents accepted")
	}
	// The genetic algorithm when asked.
	g := DefaultGAOptions()
	ev, err = EvaluateTopics(context.Background(), W, labels, 2, EvaluateOptions{GA: &g})
	if err != nil || ev.LogRank.GA == nil {
		t.Errorf("GA: %+v, %v", ev.LogRank, err)
	}
}
