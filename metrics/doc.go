// Package metrics holds the evaluation measures the four papers report, each
// exact and each documented with the source that settles its details:
//
//   - Assign: linear sum assignment of a rectangular cost or score matrix
//     (the shortest augmenting path algorithm scipy's linear_sum_assignment
//     uses), the matching step behind several of the measures below.
//
//   - TopicLabelJaccard: the TS-NMF paper's weighted Jaccard similarity
//     between topics and labels after an optimal one-to-one matching
//     (MacMillan & Wilson; kelsey-macmillan/ws-nmf).
//
//   - LogRankAccuracy, ThemeTopicScores, MapThemesExact, MapThemesGA: the
//     theme-supervised NMF thesis' log rank accuracy and the genetic
//     algorithm, plus the exact assignment, that map topics to themes
//     (Suyunu 2020; suyunu/theme-supervised-nmf).
//
//   - Classification, MultiLabelClassification, Accuracy, ConfusionMatrix:
//     accuracy, precision, recall and F1 with scikit-learn's definitions.
//
//   - ClusterScores: the SSNMF paper's hard and soft clustering score P
//     (jamiehadd/ssnmf, experiments/20news/utils_20news.py).
//
//   - CompareLabelings, Contingency, Entropy, MutualInfo, HomogeneityCompletenessV,
//     NormalizedMutualInfo, AdjustedMutualInfo, ExpectedMutualInfo: agreement
//     between two labelings, equal to scikit-learn 1.2.1 to 1e-9.
//
//   - UMass, UMassGensim, NPMI, TopicDiversity, TopicOverlap, TopWords: topic
//     quality from a binary documents × terms matrix.
//
//   - LabelSets: single labels ([]int, -1 for none) as label sets.
//
// Matrices follow the package-wide convention: a document-topic matrix W is
// documents × topics, a topic-term matrix H is topics × terms, and a corpus X
// is documents × terms. Labels are indices: []int holds one label per
// document with -1 for none, [][]int holds a set per document with nil (or
// empty) for none. Functions return errors, never panic, on bad input: NaN or
// infinite matrix entries, labels out of range, mismatched lengths.
package metrics
