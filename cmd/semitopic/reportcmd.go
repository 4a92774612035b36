package main

import (
	"bytes"
	"fmt"
	"io"

	"github.com/spf13/cobra"

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
clustering agreement.`,
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
				in, err := readForModel(cmd, &rf, modelPath, args[0])
				if err != nil {
					return err
				}
				f = in.fitted
				scope := map[string]string{"train": "training documents", "test": "test documents"}[rf.subset]
				if scope == "" {
					scope = "documents"
				}
				data = &report.Data{Docs: in.docs, X: in.x, Scope: fmt.Sprintf("%s of %s", scope, args[0])}
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
