package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
)

// evaluation is the result of "semitopic evaluate"; also its JSON output:
// metrics.EvaluateTopics's evaluation, the label names, and the topics'
// quality when the documents are given.
type evaluation struct {
	metrics.TopicEvaluation
	Labels  []string     `json:"labels,omitempty"`
	Quality *qualityEval `json:"topic_quality,omitempty"`
}

type qualityEval struct {
	TopWords  int        `json:"top_words"`
	UMass     float64    `json:"umass"`
	NPMI      float64    `json:"npmi"`
	Diversity float64    `json:"diversity"`
	Overlap   float64    `json:"overlap"`
	Words     [][]string `json:"words,omitempty"`
	From      string     `json:"words_from"`
}

func newEvaluateCmd() *cobra.Command {
	var docTopicsPath, labelsPath, docsPath, vocabPath, topicTermsPath string
	var top int
	var ga, asJSON bool
	var seed uint64
	cmd := &cobra.Command{
		Use:   "evaluate --doc-topics W.csv [--labels labels.txt] [--docs X.mtx [--vocab vocab.txt]]",
		Short: "Score a document-topic matrix against labels and a document-term matrix",
		Long: `evaluate reads a documents × topics matrix (CSV with optional header and ID
column, or MatrixMarket) and computes the papers' metrics from files:

with --labels (one line per document, labels separated by commas, empty when
unlabeled): the TS-NMF matched weighted Jaccard similarity and resolved
labels; the theme-supervised log rank accuracy under the optimal
topic-to-label mapping (and by topic name when the header names topics after
labels, and with the thesis's genetic algorithm with --ga); and, on
single-label documents, the argmax-topic clustering's homogeneity,
completeness, V-measure, NMI, AMI and adjusted Rand index and the SSNMF
clustering score P.

A document whose row is all zeros (no term known to the model) has no argmax
topic: it is left out of the clustering scores. The Jaccard similarity and
log rank accuracy keep the papers' definitions and count it: with weight 0
on every topic for its labels, and with its themes at the last rank, earning
0. The output says how many such documents there are.

with --docs (the documents × terms matrix, MatrixMarket): UMass and NPMI
coherence of each topic's top words (from --topic-terms, a topics × terms
MatrixMarket matrix, or else from the columns of Wᵀ·X), topic diversity and
overlap.`,
		Example: `  semitopic evaluate --doc-topics doc-topics.csv --labels labels.txt --docs X.mtx --vocab vocab.txt`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if docTopicsPath == "" {
				return fmt.Errorf("--doc-topics is required")
			}
			ev, words, err := runEvaluate(cmd, docTopicsPath, labelsPath, docsPath, vocabPath, topicTermsPath, top, ga, seed)
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(ev)
			}
			printEvaluation(cmd.OutOrStdout(), ev, words)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&docTopicsPath, "doc-topics", "", "documents × topics matrix (.csv, .tsv or .mtx)")
	f.StringVar(&labelsPath, "labels", "", "labels file: one line per document, labels separated by commas")
	f.StringVar(&docsPath, "docs", "", "documents × terms MatrixMarket matrix for topic coherence")
	f.StringVar(&vocabPath, "vocab", "", "vocabulary (one term per line) to print top words")
	f.StringVar(&topicTermsPath, "topic-terms", "", "topics × terms MatrixMarket matrix giving each topic's top words")
	f.IntVar(&top, "top", 10, "top words per topic for coherence")
	f.BoolVar(&ga, "ga", false, "also map topics to labels with the thesis's genetic algorithm")
	f.Uint64Var(&seed, "seed", 1, "seed of the genetic algorithm")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func runEvaluate(cmd *cobra.Command, wPath, labelsPath, docsPath, vocabPath, hPath string, top int, ga bool, seed uint64) (*evaluation, []string, error) {
	dt, err := corpus.ReadDocTopics(wPath)
	if err != nil {
		return nil, nil, err
	}
	printNotes(cmd.ErrOrStderr(), dt.Notes)
	W := dt.W
	n, k := W.Dims()
	idx := make([][]int, n)
	var names []string
	if labelsPath != "" {
		lines, notes, err := corpus.ReadLabelsFile(labelsPath)
		printNotes(cmd.ErrOrStderr(), notes)
		if err != nil {
			return nil, nil, err
		}
		if len(lines) != n {
			return nil, nil, fmt.Errorf("%s has %d lines but %s has %d documents", labelsPath, len(lines), wPath, n)
		}
		docs := make([]corpus.Document, n)
		for i, ls := range lines {
			docs[i].Labels = ls
		}
		names, idx = corpus.LabelIndex(docs)
		if len(names) == 0 {
			return nil, nil, fmt.Errorf("%s: no document is labeled", labelsPath)
		}
	}
	o := metrics.EvaluateOptions{TopicNames: dt.Topics, LabelNames: names}
	if ga {
		g := metrics.DefaultGAOptions()
		g.Seed = seed
		o.GA = &g
	}
	te, err := metrics.EvaluateTopics(cmd.Context(), W, idx, len(names), o)
	if err != nil {
		return nil, nil, err
	}
	ev := &evaluation{TopicEvaluation: *te, Labels: names}
	var vocab []string
	if docsPath != "" {
		x, notes, err := corpus.ReadMatrixFile(docsPath)
		if err != nil {
			return nil, nil, err
		}
		printNotes(cmd.ErrOrStderr(), notes)
		if x.Rows != n {
			return nil, nil, fmt.Errorf("%s has %d documents but %s has %d", docsPath, x.Rows, wPath, n)
		}
		if vocabPath != "" {
			f, err := os.Open(vocabPath)
			if err != nil {
				return nil, nil, err
			}
			vocab, err = text.ReadWordList(f)
			f.Close()
			if err != nil {
				return nil, nil, fmt.Errorf("%s: %w", vocabPath, err)
			}
			if len(vocab) != x.Cols {
				return nil, nil, fmt.Errorf("%s has %d terms but %s has %d columns", vocabPath, len(vocab), docsPath, x.Cols)
			}
		}
		q := &qualityEval{TopWords: top}
		var H *mat.Dense
		if hPath != "" {
			h, notes, err := corpus.ReadMatrixFile(hPath)
			if err != nil {
				return nil, nil, err
			}
			printNotes(cmd.ErrOrStderr(), notes)
			if h.Rows != k || h.Cols != x.Cols {
				return nil, nil, fmt.Errorf("%s is %d×%d, want %d topics × %d terms", hPath, h.Rows, h.Cols, k, x.Cols)
			}
			H = h.ToDense()
			q.From = "topic-terms matrix"
		} else {
			H = &mat.Dense{}
			if err := sparse.DenseTMul(H, W, x); err != nil {
				return nil, nil, err
			}
			q.From = "Wᵀ·X"
		}
		topics, err := metrics.TopWords(H, top)
		if err != nil {
			return nil, nil, err
		}
		bin := x.Binarized()
		um, err := metrics.UMass(bin, topics)
		if err != nil {
			return nil, nil, err
		}
		np, err := metrics.NPMI(bin, topics)
		if err != nil {
			return nil, nil, err
		}
		q.UMass, q.NPMI = um.Mean, np.Mean
		if q.Diversity, err = metrics.TopicDiversity(topics, top); err != nil {
			return nil, nil, err
		}
		if q.Overlap, err = metrics.TopicOverlap(topics, top); err != nil {
			return nil, nil, err
		}
		if vocab != nil {
			for _, t := range topics {
				ws := make([]string, len(t))
				for i, j := range t {
					ws[i] = vocab[j]
				}
				q.Words = append(q.Words, ws)
			}
		}
		ev.Quality = q
	}
	return ev, dt.Topics, nil
}

func printEvaluation(w io.Writer, ev *evaluation, topics []string) {
	fmt.Fprintf(w, "documents   %d × %d topics\n", ev.Documents, ev.Topics)
	if ev.NoTopic > 0 {
		fmt.Fprintf(w, "no topic    %s no topic weight (no known term): see each score's note\n", docsHave(ev.NoTopic))
	}
	if ev.Labels != nil {
		fmt.Fprintf(w, "labels      %d distinct, %d labeled documents\n", len(ev.Labels), ev.Labeled)
	}
	if j := ev.Jaccard; j != nil {
		fmt.Fprintf(w, "jaccard     mean matched weighted Jaccard %.4f, %d of %d labels resolved (> 0.1)\n", j.Mean, j.Resolved, j.Scored)
		if j.NoTopic > 0 {
			fmt.Fprintf(w, "            %s no topic weight: %s\n", labeledHave(j.NoTopic), j.Counted)
		}
	}
	if l := ev.LogRank; l != nil {
		fmt.Fprintf(w, "log rank    %.2f%% with the optimal topic-to-label mapping", 100*l.Exact)
		if l.ByName != nil {
			fmt.Fprintf(w, ", %.2f%% by topic name", 100**l.ByName)
		}
		if l.GA != nil {
			fmt.Fprintf(w, ", %.2f%% with the genetic algorithm", 100**l.GA)
		}
		fmt.Fprintln(w)
		if l.NoTopic > 0 {
			fmt.Fprintf(w, "            %s no topic weight: %s\n", labeledHave(l.NoTopic), l.Counted)
		}
	}
	if c := ev.Cluster; c != nil {
		fmt.Fprintf(w, "clustering  argmax topic vs label on %d single-label documents: homogeneity %.4f, completeness %.4f, V %.4f, NMI %.4f, AMI %.4f, ARI %.4f\n",
			c.Documents, c.Homogeneity, c.Completeness, c.VMeasure, c.NMI, c.AMI, c.ARI)
		fmt.Fprintf(w, "            clustering score P: hard %.4f, soft %.4f\n", c.HardP, c.SoftP)
		if c.LeftOut > 0 {
			fmt.Fprintf(w, "            %d more single-label %s no topic weight (no known term) and %s left out of the clustering scores\n",
				c.LeftOut, pick(c.LeftOut, "document has", "documents have"), pick(c.LeftOut, "is", "are"))
		}
	}
	if q := ev.Quality; q != nil {
		fmt.Fprintf(w, "quality     top %d words (from %s): UMass %.3f, NPMI %.3f, diversity %.3f, overlap %.3f\n",
			q.TopWords, q.From, q.UMass, q.NPMI, q.Diversity, q.Overlap)
		for t, ws := range q.Words {
			name := fmt.Sprintf("topic %d", t+1)
			if topics != nil && t < len(topics) {
				name = topics[t]
			}
			fmt.Fprintf(w, "  %-16s %s\n", name, strings.Join(ws, " "))
		}
	}
	for _, n := range ev.Notes {
		fmt.Fprintf(w, "note        %s\n", n)
	}
}

// pick returns one when n is 1, else many.
func pick(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// docsHave is "1 document has" or "n documents have".
func docsHave(n int) string {
	return fmt.Sprintf("%d %s", n, pick(n, "document has", "documents have"))
}

// labeledHave is "1 labeled document has" or "n labeled documents have".
func labeledHave(n int) string {
	return fmt.Sprintf("%d labeled %s", n, pick(n, "document has", "documents have"))
}
