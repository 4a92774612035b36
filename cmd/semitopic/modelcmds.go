package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
)

// loadedInput is a corpus mapped to a model's vocabulary.
type loadedInput struct {
	fitted *model.Fitted
	// name is the corpus's name (corpus.Corpus.Name), which says its
	// source and split as the model's Info.Corpus does.
	name string
	docs []corpus.Document
	x    *sparse.CSR
	note string
}

// readForModel loads the model and the corpus at path and maps the corpus
// to the model's vocabulary: text through the model's own vectorizer, a
// matrix by matching its terms. pick, when not nil, chooses the documents
// to map from the corpus read.
func readForModel(cmd *cobra.Command, rf *readerFlags, modelPath, path string, pick func(*corpus.Corpus) *corpus.Corpus) (*loadedInput, error) {
	if modelPath == "" {
		return nil, fmt.Errorf("--model is required")
	}
	f, err := model.LoadFile(modelPath)
	if err != nil {
		return nil, err
	}
	ctx := cmd.Context()
	c, err := rf.read(ctx, cmd, path)
	if err != nil {
		return nil, err
	}
	if pick != nil {
		c = pick(c)
	}
	in := &loadedInput{fitted: f, name: c.Name, docs: c.Docs}
	if c.Matrix != nil {
		x, unknown, err := f.Align(c.Matrix.X, c.Matrix.Vocab)
		if err != nil {
			return nil, err
		}
		in.x = x
		if unknown > 0 {
			in.note = fmt.Sprintf("%d of the input's %d terms are not in the model's vocabulary and were ignored", unknown, len(c.Matrix.Vocab))
		}
		return in, nil
	}
	res, err := f.Vectorize(ctx, c.Docs)
	if err != nil {
		return nil, err
	}
	in.x = res.X
	if res.Terms > 0 {
		in.note = fmt.Sprintf("%d of %d terms (%.1f%%) were out of the model's vocabulary", res.OOV, res.Terms, 100*float64(res.OOV)/float64(res.Terms))
	}
	return in, nil
}

// emptyNote says how many documents have no term known to the model, and
// what that means for their output.
func emptyNote(x *sparse.CSR, predicts bool) string {
	n := 0
	for i := 0; i < x.Rows; i++ {
		if x.Indptr[i+1] == x.Indptr[i] {
			n++
		}
	}
	if n == 0 {
		return ""
	}
	if predicts {
		return fmt.Sprintf("%d of the %d documents have no term known to the model: they get no label (an empty prediction)", n, x.Rows)
	}
	return fmt.Sprintf("%d of the %d documents have no term known to the model: their topic weights carry no information", n, x.Rows)
}

// docTopicExts are the formats transform writes, by extension.
var docTopicExts = []string{".csv", ".tsv", ".jsonl"}

func newTransformCmd() *cobra.Command {
	var rf readerFlags
	var modelPath, out string
	cmd := &cobra.Command{
		Use:   "transform --model M --format F PATH --out doc-topics.csv",
		Short: "Compute the topic weights of new documents with a saved model",
		Long: `transform reads documents in any input format (PATH "-" reads standard input),
maps them to the model's vocabulary with the model's own text pipeline (or,
for an already-vectorized input, by matching terms), and writes their topic
weights: CSV or TSV (an id column, then one column per topic; "semitopic
evaluate --doc-topics" reads it) or JSON Lines ({"id", "topics": {name:
weight}}, plus "labels" for models that predict labels: [] for a document
with no term known to the model), chosen by --out's extension; --out -
writes CSV to standard output.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := checkOut("out", out, true, docTopicExts...); err != nil {
				return err
			}
			if err := checkNoOverwrite(append(readerInputs(&rf, args[0]), ioPath{name: "--model", path: modelPath}), []ioPath{{name: "--out", path: out}}); err != nil {
				return err
			}
			in, err := readForModel(cmd, &rf, modelPath, args[0], nil)
			if err != nil {
				return err
			}
			var w *mat.Dense
			var pred *model.Prediction
			if p, ok := model.AsPredictor(in.fitted.Model); ok {
				// One computation gives both the weights and the labels.
				if pred, err = p.Predict(cmd.Context(), in.x); err != nil {
					return err
				}
				w = pred.Weights
			} else if w, err = in.fitted.Model.Transform(cmd.Context(), in.x); err != nil {
				return err
			}
			if err := writeOut(cmd, out, func(dst io.Writer) error { return writeDocTopics(dst, out, in, w, pred) }); err != nil {
				return err
			}
			for _, note := range []string{in.note, emptyNote(in.x, pred != nil)} {
				if note != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), "note:", note)
				}
			}
			return nil
		},
	}
	rf.register(cmd.Flags(), true)
	cmd.Flags().StringVar(&modelPath, "model", "", "saved model file")
	cmd.Flags().StringVarP(&out, "out", "o", "", "output file: .csv, .tsv or .jsonl (- for CSV on standard output)")
	return cmd
}

func topicNames(m model.Model) ([]string, error) {
	ts, err := m.Topics(1)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names, nil
}

// isExt reports whether path ends with the extension ext (any case).
func isExt(path, ext string) bool { return strings.EqualFold(filepath.Ext(path), ext) }

func writeDocTopics(dst io.Writer, out string, in *loadedInput, w *mat.Dense, pred *model.Prediction) error {
	names, err := topicNames(in.fitted.Model)
	if err != nil {
		return err
	}
	n, k := w.Dims()
	if isExt(out, ".jsonl") {
		enc := json.NewEncoder(dst)
		for i := 0; i < n; i++ {
			topics := make(map[string]float64, k)
			for t := 0; t < k; t++ {
				if v := w.At(i, t); v != 0 {
					topics[names[t]] = v
				}
			}
			rec := map[string]any{"id": in.docs[i].ID, "topics": topics}
			if pred != nil {
				rec["labels"] = nonNil(pred.Labels[i])
			}
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
		return nil
	}
	// The CSV holds topic weights only, so that evaluate reads it back;
	// predict writes labels.
	comma := ','
	if isExt(out, ".tsv") {
		comma = '\t'
	}
	ids := make([]string, n)
	for i := range ids {
		ids[i] = in.docs[i].ID
	}
	return corpus.WriteDocTopics(dst, &corpus.DocTopics{W: w, Topics: names, IDs: ids}, comma)
}

// nonNil makes an empty label list encode as [] rather than null.
func nonNil(ls []string) []string {
	if ls == nil {
		return []string{}
	}
	return ls
}

func newPredictCmd() *cobra.Command {
	var rf readerFlags
	var modelPath, out string
	cmd := &cobra.Command{
		Use:   "predict --model M --format F PATH [--out predictions.csv]",
		Short: "Predict the labels of new documents with a supervised model",
		Long: `predict maps documents (PATH "-" reads standard input) to the model's
vocabulary and prints (or writes to --out, CSV, TSV or JSON Lines) each
document's predicted labels and label scores. A score column is named for
what its scores are, KIND:LABEL ("score_kind" in JSON Lines), and a note
on standard error says what KIND means:
  weight       TS-NMF: the document's weight on the label's topic (≥ 0)
  proportion   LDA: the label topic's share of the document (0 to 1)
  class-score  SSNMF: B·w, the classifier applied to the topic weights (≥ 0)
  theme-score  theme: w / (w + w_background) of the best subtopic (0 to 1)
  log-prob     CorEx: log p(topic = 1 | document) of the label's topic (≤ 0)
  logit        --readout topics: a logistic regression's logit
  margin       --readout terms+topics: a linear SVM's margin (can be negative)
The highest score gives the predicted label. A document with no term known
to the model gets no label: an empty "predicted" field, "labels": [] in
JSON Lines, and a note with their number on standard error. When the input
documents carry labels, it also reports the accuracy against them, counting
those documents as errors, and says how many labeled documents carry labels
the model was not fitted with (they count as errors when they carry no label
the model knows; the note gives the accuracy without them too).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				out = "-"
			}
			if err := checkOut("out", out, true, docTopicExts...); err != nil {
				return err
			}
			if err := checkNoOverwrite(append(readerInputs(&rf, args[0]), ioPath{name: "--model", path: modelPath}), []ioPath{{name: "--out", path: out}}); err != nil {
				return err
			}
			in, err := readForModel(cmd, &rf, modelPath, args[0], nil)
			if err != nil {
				return err
			}
			p, ok := model.AsPredictor(in.fitted.Model)
			if !ok {
				return fmt.Errorf("a %s model predicts no labels (use transform for topic weights)", in.fitted.Model.Kind())
			}
			pred, err := p.Predict(cmd.Context(), in.x)
			if err != nil {
				return err
			}
			sk := model.ScoreKindOf(p)
			if err := writeOut(cmd, out, func(dst io.Writer) error { return writePredictions(dst, out, in.docs, p.Labels(), sk, pred) }); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "note: the scores (%s:LABEL) are %s\n", sk.Name, sk.Doc)
			s, err := accuracyLine(in.docs, p.Labels(), pred)
			if err != nil {
				return err
			}
			if s != "" {
				fmt.Fprintln(cmd.ErrOrStderr(), s)
				// An accuracy on training documents is no accuracy on new
				// ones: say so when the corpus is the model's own.
				if ov := trainingOverlap(in.fitted.Info, in.name, in.docs); ov.kind == overlapSome || ov.kind == overlapAll {
					fmt.Fprintln(cmd.ErrOrStderr(), "note:", strings.Replace(ov.text, "the figures overstate", "the accuracy overstates", 1))
				}
			}
			for _, note := range []string{in.note, emptyNote(in.x, true)} {
				if note != "" {
					fmt.Fprintln(cmd.ErrOrStderr(), "note:", note)
				}
			}
			return nil
		},
	}
	rf.register(cmd.Flags(), true)
	cmd.Flags().StringVar(&modelPath, "model", "", "saved model file")
	cmd.Flags().StringVarP(&out, "out", "o", "", "output file: .csv, .tsv or .jsonl (default: CSV on standard output)")
	return cmd
}

// accuracyLine reports the accuracy against the documents' own labels,
// saying how documents without a prediction were counted, and a note on
// the labeled documents that carry labels the model does not know (known
// lists its labels); "" when no document is labeled.
func accuracyLine(docs []corpus.Document, known []string, pred *model.Prediction) (string, error) {
	truth := corpus.DocLabels(docs)
	hits, n, empty, err := pred.Accuracy(truth)
	if err != nil || n == 0 {
		return "", err
	}
	s := fmt.Sprintf("accuracy %.2f%% on %d labeled documents (a prediction counts when every label predicted is one of the document's)", 100*float64(hits)/float64(n), n)
	if empty > 0 {
		s += fmt.Sprintf("; %d of them have no term known to the model and got no label: they count as errors (%.2f%% on the other %d)",
			empty, 100*float64(hits)/float64(max(n-empty, 1)), n-empty)
	}
	if note := unseenLabels(truth, known, hits, n); note != "" {
		s += "\nnote: " + note
	}
	return s, nil
}

// unseenLabels says how many labeled documents carry labels the model was
// never fitted with, which ones (the most frequent few), and how they
// count: a document with no label the model knows can never be predicted
// right, so it counts as an error in the accuracy of hits out of labeled
// documents; the note gives the accuracy without them too. "" when every
// label is known.
func unseenLabels(truth [][]string, known []string, hits, labeled int) string {
	isKnown := make(map[string]bool, len(known))
	for _, l := range known {
		isKnown[l] = true
	}
	perLabel := map[string]int{}
	carry, none := 0, 0
	for _, ls := range truth {
		unseen, seen := false, false
		for _, l := range ls {
			if isKnown[l] {
				seen = true
			} else {
				unseen = true
				perLabel[l]++
			}
		}
		if unseen {
			carry++
			if !seen {
				none++
			}
		}
	}
	if carry == 0 {
		return ""
	}
	names := make([]string, 0, len(perLabel))
	for l := range perLabel {
		names = append(names, l)
	}
	sort.Slice(names, func(a, b int) bool {
		if perLabel[names[a]] != perLabel[names[b]] {
			return perLabel[names[a]] > perLabel[names[b]]
		}
		return names[a] < names[b]
	})
	const shown = 5
	var ex []string
	for i, l := range names {
		if i == shown {
			ex = append(ex, fmt.Sprintf("and %d more", len(names)-shown))
			break
		}
		ex = append(ex, fmt.Sprintf("%q (%d %s)", l, perLabel[l], pick(perLabel[l], "document", "documents")))
	}
	s := fmt.Sprintf("%d of the %d labeled documents carry %d %s the model was not fitted with: %s", carry, labeled, len(names), pick(len(names), "label", "labels"), strings.Join(ex, ", "))
	if none > 0 {
		s += fmt.Sprintf("; the %d with no label the model knows can never be predicted right and count as errors above (%.2f%% on the other %d)",
			none, 100*float64(hits)/float64(max(labeled-none, 1)), labeled-none)
	}
	if carry > none {
		s += fmt.Sprintf("; %d also %s a label the model knows and %s scored as usual", carry-none, pick(carry-none, "carries", "carry"), pick(carry-none, "is", "are"))
	}
	return s
}

// writePredictions writes each document's predicted labels and label
// scores; the score columns are named for what the scores are
// ("margin:LABEL", see model.ScoreKindOf), and a JSON Lines record says
// it in "score_kind".
func writePredictions(dst io.Writer, out string, docs []corpus.Document, labels []string, sk model.ScoreKind, pred *model.Prediction) error {
	if isExt(out, ".jsonl") {
		enc := json.NewEncoder(dst)
		for i := range docs {
			scores := map[string]float64{}
			for j, l := range labels {
				scores[l] = pred.Scores.At(i, j)
			}
			if err := enc.Encode(map[string]any{"id": docs[i].ID, "labels": nonNil(pred.Labels[i]), "scores": scores, "score_kind": sk.Name}); err != nil {
				return err
			}
		}
		return nil
	}
	cw := csv.NewWriter(dst)
	if isExt(out, ".tsv") {
		cw.Comma = '\t'
	}
	header := []string{"id", "predicted"}
	for _, l := range labels {
		header = append(header, sk.Name+":"+l)
	}
	cw.Write(header)
	for i := range docs {
		row := []string{docs[i].ID, strings.Join(pred.Labels[i], ";")}
		for j := range labels {
			row = append(row, strconv.FormatFloat(pred.Scores.At(i, j), 'g', 6, 64))
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func newTopicsCmd() *cobra.Command {
	var modelPath string
	var n, oldN int
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "topics --model M [--top 10] [--json]",
		Short: "List a saved model's topics with their top words and scores",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			useOld, err := renamedFlag(cmd, "n", "top")
			if err != nil {
				return err
			}
			if useOld {
				n = oldN
			}
			if err := checkPositive("top", n); err != nil {
				return err
			}
			if modelPath == "" {
				return fmt.Errorf("--model is required")
			}
			f, err := model.LoadFile(modelPath)
			if err != nil {
				return err
			}
			return writeTopics(cmd.Context(), cmd.OutOrStdout(), f, n, asJSON)
		},
	}
	cmd.Flags().StringVar(&modelPath, "model", "", "saved model file")
	cmd.Flags().IntVar(&n, "top", 10, "top words per topic")
	cmd.Flags().IntVar(&oldN, "n", 10, "deprecated: use --top")
	_ = cmd.Flags().MarkHidden("n")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func writeTopics(_ context.Context, w io.Writer, f *model.Fitted, n int, asJSON bool) error {
	topics, err := f.Model.Topics(n)
	if err != nil {
		return err
	}
	var desc model.Description
	if d, ok := f.Model.(model.Describer); ok {
		var err error
		if desc, err = d.Describe(n); err != nil {
			return err
		}
	}
	var emptyNames []string
	for _, t := range model.EmptyTopics(topics) {
		emptyNames = append(emptyNames, t.Title())
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		out := map[string]any{"kind": f.Model.Kind(), "info": f.Info, "topics": topics, "empty_topics": nonNil(emptyNames)}
		if desc != nil {
			out["description"] = desc
		}
		return enc.Encode(out)
	}
	empty := ""
	if n := len(model.EmptyTopics(topics)); n > 0 {
		empty = fmt.Sprintf(" (%d of them empty)", n)
	}
	fmt.Fprintf(w, "%s model: %d topics%s over %d terms (fitted %s on %s)\n", f.Model.Kind(), len(topics), empty, len(f.Vocab), f.Info.Created, f.Info.Corpus)
	fmt.Fprintf(w, "convergence: %s\n", f.Info.Convergence)
	if desc != nil {
		// A structured model reads better in its own layout (theme models:
		// per theme, subtopics and aggregates at purity ratios 0 and 1,
		// then the background topics).
		return desc.WriteText(w)
	}
	for _, t := range topics {
		if t.Empty {
			continue
		}
		head := t.Title()
		if t.Label != "" && t.Label != t.Name && t.Group == "" {
			head += " → class " + t.Label
		}
		if t.Weight > 0 {
			head += fmt.Sprintf("  (%.1f%% of the corpus)", 100*t.Weight)
		}
		if t.Score != 0 {
			head += fmt.Sprintf("  score %.4g", t.Score)
		}
		fmt.Fprintln(w, head)
		var parts []string
		for _, wd := range t.Words {
			s := fmt.Sprintf("%s %.4g", wd.Word, wd.Weight)
			if wd.Purity != nil {
				s += fmt.Sprintf(" (purity %.2f)", *wd.Purity)
			}
			if wd.Sign < 0 {
				s += " (absence)"
			}
			parts = append(parts, s)
		}
		fmt.Fprintf(w, "  %s\n", strings.Join(parts, ", "))
	}
	if s := emptyTopicsLine(topics); s != "" {
		fmt.Fprintln(w, s)
	}
	return nil
}
