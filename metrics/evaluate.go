package metrics

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// TopicEvaluation is what semitopic reports about a documents × topics
// matrix W against the documents' labels: the one evaluation behind
// "semitopic evaluate", the HTML report and the demo. Documents whose row
// of W is all zeros have no topic (no term known to the model); each
// section says how it counts them. Its JSON form is evaluate's --json
// output.
type TopicEvaluation struct {
	Documents int `json:"documents"`
	Topics    int `json:"topics"`
	// Labeled counts the documents with at least one label.
	Labeled int `json:"labeled,omitempty"`
	// NoTopic counts the documents without topic weight.
	NoTopic int `json:"no_topic_documents"`
	// Notes explain scores that could not be computed.
	Notes []string `json:"notes,omitempty"`

	Jaccard *JaccardEval `json:"jaccard,omitempty"`
	LogRank *LogRankEval `json:"log_rank,omitempty"`
	Cluster *ClusterEval `json:"clustering,omitempty"`
}

// JaccardEval is the TS-NMF paper's mean matched weighted Jaccard
// similarity of labels and topics (TopicLabelJaccard).
type JaccardEval struct {
	Mean     float64 `json:"mean_matched_similarity"`
	Resolved int     `json:"resolved"`
	Scored   int     `json:"labels_scored"`
	// NoTopic counts the labeled documents without topic weight; they are
	// scored as the metric defines them (NoTopicJaccard).
	NoTopic int    `json:"no_topic_labeled_documents"`
	Counted string `json:"no_topic_counted_as,omitempty"`
}

// LogRankEval is the theme-supervised thesis' log rank accuracy under
// three mappings of labels to topics: the exact optimal one
// (MapThemesExact), by name (a label to the topic of the same name), and
// the thesis' genetic algorithm (MapThemesGA), the last two when asked.
type LogRankEval struct {
	ByName *float64 `json:"by_name,omitempty"`
	Exact  float64  `json:"exact_mapping"`
	GA     *float64 `json:"genetic_algorithm,omitempty"`
	// NoTopic counts the labeled documents without topic weight
	// (NoTopicLogRank).
	NoTopic int    `json:"no_topic_labeled_documents"`
	Counted string `json:"no_topic_counted_as,omitempty"`
}

// ClusterEval compares the arg-max topic of the single-label documents
// with their label (CompareLabelings) and gives the SSNMF paper's cluster
// scores (ClusterScores, hard and soft).
type ClusterEval struct {
	Documents    int     `json:"single_label_documents"`
	Homogeneity  float64 `json:"homogeneity"`
	Completeness float64 `json:"completeness"`
	VMeasure     float64 `json:"v_measure"`
	NMI          float64 `json:"nmi"`
	AMI          float64 `json:"ami"`
	ARI          float64 `json:"ari"`
	HardP        float64 `json:"cluster_score_hard"`
	SoftP        float64 `json:"cluster_score_soft"`
	// LeftOut counts the single-label documents without topic weight,
	// which have no arg-max topic and are left out of every score above.
	LeftOut int `json:"no_topic_documents_left_out"`
}

// How the Jaccard and log rank scores count documents without topic
// weight: the metrics are the papers' definitions, kept as they are.
const (
	NoTopicJaccard = "each counts as a document of its labels with weight 0 on every topic, lowering those labels' similarity"
	NoTopicLogRank = "all topics tie, so each of its themes takes the last rank and earns 0 while counting in the maximum"
)

// EvaluateOptions selects the optional parts of EvaluateTopics.
type EvaluateOptions struct {
	// TopicNames (one per column of W) and LabelNames (one per label), when
	// both are given, add the log rank accuracy with each label mapped to
	// the topic of the same name, if every label has one.
	TopicNames, LabelNames []string
	// GA, when set, adds the log rank accuracy under the thesis' genetic
	// algorithm mapping with these options.
	GA *GAOptions
}

// EvaluateTopics evaluates W (documents × topics) against labels (each
// document's label indices in [0, numLabels), empty for an unlabeled one).
// The log rank accuracy needs at least two labels and as many topics; the
// clustering scores need single-label documents with topic weight.
func EvaluateTopics(ctx context.Context, W *mat.Dense, labels [][]int, numLabels int, o EvaluateOptions) (*TopicEvaluation, error) {
	if W == nil || W.IsEmpty() {
		return nil, errors.New("metrics: empty document-topic matrix")
	}
	n, k := W.Dims()
	if len(labels) != n {
		return nil, fmt.Errorf("metrics: %d label lists for %d documents", len(labels), n)
	}
	ev := &TopicEvaluation{Documents: n, Topics: k}
	noTopic := make([]bool, n)
	labeledNoTopic := 0
	for i := range noTopic {
		noTopic[i] = !slices.ContainsFunc(W.RawRowView(i), func(v float64) bool { return v != 0 })
		if noTopic[i] {
			ev.NoTopic++
		}
		if len(labels[i]) > 0 {
			ev.Labeled++
			if noTopic[i] {
				labeledNoTopic++
			}
		}
	}
	if ev.Labeled == 0 || numLabels == 0 {
		return ev, nil
	}
	jr, err := TopicLabelJaccard(W, labels, numLabels, nil)
	if err != nil {
		return nil, fmt.Errorf("weighted Jaccard: %w", err)
	}
	ev.Jaccard = &JaccardEval{Mean: jr.Mean, Resolved: jr.Resolved, Scored: jr.Scored, NoTopic: labeledNoTopic}
	if labeledNoTopic > 0 {
		ev.Jaccard.Counted = NoTopicJaccard
	}
	if numLabels >= 2 && k >= numLabels {
		lr := &LogRankEval{NoTopic: labeledNoTopic}
		if labeledNoTopic > 0 {
			lr.Counted = NoTopicLogRank
		}
		m, err := MapThemesExact(W, labels, numLabels)
		if err != nil {
			return nil, fmt.Errorf("log rank accuracy: %w", err)
		}
		lr.Exact = m.Score
		if o.TopicNames != nil && o.LabelNames != nil {
			if len(o.TopicNames) != k || len(o.LabelNames) != numLabels {
				return nil, fmt.Errorf("metrics: %d topic names for %d topics, %d label names for %d labels", len(o.TopicNames), k, len(o.LabelNames), numLabels)
			}
			if byName := mapByName(o.TopicNames, o.LabelNames); byName != nil {
				r, err := LogRankAccuracy(W, labels, numLabels, byName)
				if err != nil {
					return nil, err
				}
				lr.ByName = &r.Score
			}
		}
		if o.GA != nil {
			g, err := MapThemesGA(ctx, W, labels, numLabels, o.GA)
			if err != nil {
				return nil, err
			}
			lr.GA = &g.Score
		}
		ev.LogRank = lr
	}
	// Clustering on single-label documents. A document without topic
	// weight has no arg-max topic: it is left out rather than put in
	// topic 0's cluster.
	var truth, pred, rows []int
	leftOut := 0
	for i, l := range labels {
		if len(l) != 1 {
			continue
		}
		if noTopic[i] {
			leftOut++
			continue
		}
		truth = append(truth, l[0])
		pred = append(pred, Argmax(W.RawRowView(i)))
		rows = append(rows, i)
	}
	switch {
	case len(truth) > 0:
		a, err := CompareLabelings(truth, pred)
		if err != nil {
			return nil, err
		}
		sub := mat.NewDense(len(rows), k, nil)
		for r, i := range rows {
			sub.SetRow(r, W.RawRowView(i))
		}
		hard, err := ClusterScores(sub, truth, numLabels, false)
		if err != nil {
			return nil, err
		}
		soft, err := ClusterScores(sub, truth, numLabels, true)
		if err != nil {
			return nil, err
		}
		ev.Cluster = &ClusterEval{Documents: len(truth), Homogeneity: a.Homogeneity, Completeness: a.Completeness,
			VMeasure: a.VMeasure, NMI: a.NMI, AMI: a.AMI, ARI: a.ARI, HardP: hard.Mean, SoftP: soft.Mean, LeftOut: leftOut}
	case leftOut > 0:
		ev.Notes = append(ev.Notes, fmt.Sprintf("no clustering scores: all %d single-label documents have no topic weight (no known term)", leftOut))
	}
	return ev, nil
}

// mapByName maps each label to the topic of the same name, or returns nil
// unless every label has one.
func mapByName(topics, labels []string) []int {
	pos := make(map[string]int, len(topics))
	for t, n := range topics {
		pos[n] = t
	}
	out := make([]int, len(labels))
	for l, n := range labels {
		t, ok := pos[n]
		if !ok {
			return nil
		}
		out[l] = t
	}
	return out
}
