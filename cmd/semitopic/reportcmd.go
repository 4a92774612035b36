package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/report"
)

func newReportCmd() *cobra.Command {
	var rf readerFlags
	var modelPath, out, title string
	var words, oldWords int
	cmd := &cobra.Command{
		Use:   "report --model M --out report.html [--format F PATH]",
		Short: "Write a self-contained HTML report of a saved model",
		Long: `report writes one HTML page (no network needed to view it) with the model's
settings, per-topic bar charts of the top words (with purity for theme
models), a topic size chart, the topic-to-class matrix (SSNMF), the total
correlation per topic (CorEx) and, given documents (--format F PATH), a
document-topic heatmap and — when they carry labels — the evaluation
figures: prediction accuracy, matched weighted Jaccard, log rank accuracy and
clustering agreement.

Which documents are scored: without --subset, a corpus with a train/test
split is scored on its test split only (--subset all scores every
document). The report says whether the documents scored were among the
model's training documents, by comparing the corpus with the one the model
records (same format and file, and which split each was): when they were,
it says so beside the figures, which then overstate how the model does on
new documents; when it cannot tell, it says that.`,
		Example: `  semitopic report --model reuters.semitopic --out report.html \
      --format reuters-nltk ../shared/data/reuters21578-nltk-apte/reuters.tar.gz --subset test`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			useOld, err := renamedFlag(cmd, "words", "top")
			if err != nil {
				return err
			}
			if useOld {
				words = oldWords
			}
			if err := checkPositive("top", words); err != nil {
				return err
			}
			if modelPath == "" {
				return fmt.Errorf("--model is required")
			}
			if err := checkOut("out", out, false, ".html", ".htm"); err != nil {
				return err
			}
			ins := []ioPath{{name: "--model", path: modelPath}}
			if len(args) == 1 {
				ins = append(ins, readerInputs(&rf, args[0])...)
			}
			if err := checkNoOverwrite(ins, []ioPath{{name: "--out", path: out}}); err != nil {
				return err
			}
			var data *report.Data
			var f *model.Fitted
			if len(args) == 1 {
				// Without --subset, a corpus with a train/test split is
				// scored on its test split only: the documents a model
				// fitted on the train split never saw.
				testOnly := false
				pick := func(c *corpus.Corpus) *corpus.Corpus {
					if cmd.Flags().Changed("subset") || !c.HasSplit() {
						return c
					}
					if t := c.Subset(corpus.SplitTest); len(t.Docs) > 0 {
						testOnly = true
						return t
					}
					return c
				}
				in, err := readForModel(cmd, &rf, modelPath, args[0], pick)
				if err != nil {
					return err
				}
				f = in.fitted
				scope := map[string]string{"train": "training-split documents", "test": "test-split documents"}[rf.subset]
				if testOnly {
					scope = "test-split documents"
				}
				if scope == "" {
					scope = "documents"
				}
				scope = fmt.Sprintf("%s of %s", scope, args[0])
				if testOnly {
					scope += " (only its test split, as no --subset was given; --subset all scores every document)"
				}
				ov := trainingOverlap(f.Info, in.name, in.docs)
				data = &report.Data{Docs: in.docs, X: in.x, Scope: scope, Training: ov.text, Overstated: ov.kind == overlapSome || ov.kind == overlapAll}
				if testOnly {
					fmt.Fprintf(cmd.ErrOrStderr(), "note: scoring the test split of %s only (%d documents); --subset all scores every document\n", args[0], len(in.docs))
				}
				if data.Overstated {
					fmt.Fprintln(cmd.ErrOrStderr(), "note:", ov.text)
				}
			} else {
				if rf.format != "" {
					return fmt.Errorf("--format given without a PATH")
				}
				var err error
				if f, err = model.LoadFile(modelPath); err != nil {
					return err
				}
			}
			var buf bytes.Buffer
			if err := report.Write(cmd.Context(), &buf, f, data, report.Options{Title: title, Words: words}); err != nil {
				return err
			}
			if err := atomicfile.WriteFile(out, func(w io.Writer) error { _, err := w.Write(buf.Bytes()); return err }); err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %s (%d KB)\n", out, buf.Len()/1024)
			return nil
		},
	}
	rf.register(cmd.Flags(), true)
	cmd.Flags().StringVar(&modelPath, "model", "", "saved model file")
	cmd.Flags().StringVarP(&out, "out", "o", "", "HTML file to write")
	cmd.Flags().StringVar(&title, "title", "", "page title")
	cmd.Flags().IntVar(&words, "top", 10, "top words per topic")
	cmd.Flags().IntVar(&oldWords, "words", 10, "deprecated: use --top")
	_ = cmd.Flags().MarkHidden("words")
	return cmd
}

// How the documents given to report or predict overlap the model's
// training documents.
const (
	overlapUnknown = iota // another corpus, or one the model does not record
	overlapNone           // the same corpus, another split
	overlapSome           // the same corpus: some of them are training documents
	overlapAll            // the same corpus: all of them are training documents
)

type overlap struct {
	kind int
	text string
}

// trainingOverlap says whether docs, the documents of the corpus named
// given (a corpus.Corpus.Name: "FORMAT: PATH", with " [SPLIT]" for a
// subset), were among the training documents of the model whose Info is
// info, by comparing given with info.Corpus, the name of the corpus the
// model was fitted on: the same format and file (the same path, or paths
// that lead to the same file), and which split each was.
func trainingOverlap(info model.Info, given string, docs []corpus.Document) overlap {
	trained, trainSplit := splitCorpusName(info.Corpus)
	source, _ := splitCorpusName(given)
	shown := showSource(trained)
	if info.Corpus == "" {
		return overlap{overlapUnknown, "The model does not record the corpus it was fitted on: if these documents include any of its training documents, the figures overstate how it does on new documents."}
	}
	if !sameSource(trained, source) {
		return overlap{overlapUnknown, fmt.Sprintf("The model was fitted on %s; these documents come from %s. If they include any of its training documents, the figures overstate how it does on new documents.", showCorpus(info.Corpus), showSource(source))}
	}
	if trainSplit == corpus.SplitNone {
		return overlap{overlapAll, fmt.Sprintf("These are training documents: the model was fitted on every document of %s (no --subset), these included, so the figures overstate how it does on new documents.", shown)}
	}
	in := 0
	for _, d := range docs {
		if d.Split == trainSplit {
			in++
		}
	}
	switch {
	case in == 0:
		return overlap{overlapNone, fmt.Sprintf("None of these documents was in the fit: the model was fitted on the %s split of %s.", trainSplit, shown)}
	case in == len(docs):
		return overlap{overlapAll, fmt.Sprintf("These are the model's training documents (it was fitted on the %s split of %s): the figures overstate how it does on new documents.", trainSplit, shown)}
	}
	other := map[corpus.Split]string{corpus.SplitTrain: "test", corpus.SplitTest: "train"}[trainSplit]
	return overlap{overlapSome, fmt.Sprintf("%d of these %d documents (the %s split) are the model's training documents (it was fitted on the %s split of %s): the figures overstate how it does on new documents; --subset %s scores only the others.",
		in, len(docs), trainSplit, trainSplit, shown, other)}
}

// splitCorpusName splits a corpus name into its source ("FORMAT: PATH")
// and the split it was cut to (SplitNone for the whole corpus).
func splitCorpusName(name string) (string, corpus.Split) {
	for _, s := range []corpus.Split{corpus.SplitTrain, corpus.SplitTest} {
		if src, ok := strings.CutSuffix(name, " ["+s.String()+"]"); ok {
			return src, s
		}
	}
	return name, corpus.SplitNone
}

// showSource writes a corpus source "FORMAT: PATH" as its PATH.
func showSource(src string) string {
	if _, p, ok := strings.Cut(src, ": "); ok {
		return p
	}
	return src
}

// showCorpus writes a corpus name as showSource does, with its split.
func showCorpus(name string) string {
	src, s := splitCorpusName(name)
	if s == corpus.SplitNone {
		return showSource(src)
	}
	return fmt.Sprintf("the %s split of %s", s, showSource(src))
}

// sameSource reports whether two corpus sources ("FORMAT: PATH") are the
// same format and file: the same text, or paths that lead to the same file
// from here.
func sameSource(a, b string) bool {
	if a == b {
		return true
	}
	fa, pa, oka := strings.Cut(a, ": ")
	fb, pb, okb := strings.Cut(b, ": ")
	if !oka || !okb || fa != fb {
		return false
	}
	sa, err := os.Stat(pa)
	if err != nil {
		return false
	}
	sb, err := os.Stat(pb)
	return err == nil && os.SameFile(sa, sb)
}
