package metrics_test

import (
	"context"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
)

func ExampleAssign() {
	// Three workers, two jobs: the cheapest way to staff both jobs.
	cost := mat.NewDense(3, 2, []float64{
		5, 9,
		1, 7,
		4, 2,
	})
	rowToCol, total, err := metrics.Assign(cost, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rowToCol, total)
	// Output: [-1 0 1] 3
}

func ExampleTopicLabelJaccard() {
	// Document-topic weights for four documents and two topics, and the
	// documents' labels (document 3 is unlabeled).
	W := mat.NewDense(4, 2, []float64{
		0.9, 0.0,
		0.5, 0.5,
		0.0, 1.0,
		0.1, 0.0,
	})
	labels := [][]int{{0}, {0, 1}, {1}, nil}
	r, err := metrics.TopicLabelJaccard(W, labels, 2, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for l, m := range r.Matches {
		fmt.Printf("label %d → topic %d (similarity %.3f)\n", l, m.Topic, m.Similarity)
	}
	fmt.Printf("mean %.3f, resolved %d of %d\n", r.Mean, r.Resolved, r.Scored)
	// Output:
	// label 0 → topic 0 (similarity 0.667)
	// label 1 → topic 1 (similarity 0.750)
	// mean 0.708, resolved 2 of 2
}

func ExampleAdjustedMutualInfo() {
	classes := []int{0, 0, 0, 1, 1, 1, 2, 2, 2}
	clusters := []int{1, 1, 1, 0, 0, 2, 2, 2, 2}
	ami, err := metrics.AdjustedMutualInfo(classes, clusters, metrics.AverageArithmetic)
	if err != nil {
		fmt.Println(err)
		return
	}
	nmi, _ := metrics.NormalizedMutualInfo(classes, clusters, metrics.AverageArithmetic)
	// scikit-learn 1.2.1 gives 0.6917422851154033 and 0.786013103263073.
	fmt.Printf("AMI %.4f, NMI %.4f\n", ami, nmi)
	// Output: AMI 0.6917, NMI 0.7860
}

func ExampleMapThemesExact() {
	// An unsupervised model's document-topic weights and the themes of
	// its labeled documents: which topic stands for which theme?
	W := mat.NewDense(4, 3, []float64{
		0.1, 0.8, 0.1,
		0.2, 0.7, 0.1,
		0.6, 0.1, 0.3,
		0.1, 0.2, 0.7,
	})
	themes := [][]int{{0}, {0}, {2}, {1}}
	m, err := metrics.MapThemesExact(W, themes, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	r, _ := metrics.LogRankAccuracy(W, themes, 3, m.ThemeToTopic)
	fmt.Println("theme → topic:", m.ThemeToTopic)
	fmt.Printf("log rank accuracy %.1f%%\n", 100*r.Score)
	// Output:
	// theme → topic: [1 2 0]
	// log rank accuracy 100.0%
}

// Multi-label prediction: a threshold on the label scores (such as SSNMF's
// Y ≈ W·Bᵀ), chosen on
// validation documents to maximise micro-averaged F1.
func ExampleChooseThreshold() {
	scores := mat.NewDense(3, 3, []float64{
		0.9, 0.1, 0.6,
		0.2, 0.8, 0.1,
		0.7, 0.6, 0.05,
	})
	truth := [][]int{{0, 2}, {1}, {0, 1}}
	t, f1, err := metrics.ChooseThreshold(scores, truth)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("threshold %.2f, validation micro-F1 %.2f\n", t, f1)
	fmt.Println(metrics.Threshold(scores, t, true))
	// Output:
	// threshold 0.40, validation micro-F1 1.00
	// [[0 2] [1] [0 1]]
}

// Topic weights of five documents against their labels: topic 1 is label
// "a", topic 0 label "b"; the last document has no known term.
func ExampleEvaluateTopics() {
	W := mat.NewDense(5, 2, []float64{
		0, 1,
		0.2, 2,
		3, 0,
		1, 0.1,
		0, 0,
	})
	labels := [][]int{{0}, {0}, {1}, {1}, {0}}
	ev, err := metrics.EvaluateTopics(context.Background(), W, labels, 2, metrics.EvaluateOptions{
		TopicNames: []string{"b", "a"}, LabelNames: []string{"a", "b"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d documents, %d without topic weight\n", ev.Documents, ev.NoTopic)
	fmt.Printf("log rank accuracy: exact mapping %.3f, by name %.3f\n", ev.LogRank.Exact, *ev.LogRank.ByName)
	fmt.Printf("clustering of %d single-label documents (%d left out): AMI %.2f\n", ev.Cluster.Documents, ev.Cluster.LeftOut, ev.Cluster.AMI)
	// Output:
	// 5 documents, 1 without topic weight
	// log rank accuracy: exact mapping 0.800, by name 0.800
	// clustering of 4 single-label documents (1 left out): AMI 1.00
}
