package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/report"
)

func newReportCmd() *cobra.Command {
	var rf readerFlags
	var modelPath, out, title string
	var words int
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
			if modelPath == "" || out == "" {
				return fmt.Errorf("--model and --out are required")
			}
			var data *report.Data
			var f *model.Fitted
			if len(args) == 1 {
				in, err := readForModel(cmd, &rf, modelPath, args[0])
				if err != nil {
					return err
				}
				f = in.fitted
				data = &report.Data{Docs: in.docs, X: in.x}
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
			if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
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
	cmd.Flags().IntVar(&words, "words", 10, "top words per topic")
	return cmd
}
