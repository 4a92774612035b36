package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/experiment"
	"github.com/semitopic/semitopic/internal/datadir"
)

func newExperimentCmd() *cobra.Command {
	var data, out string
	var seeds int
	var quick, reportOnly bool
	var redo, datasets []string
	cmd := &cobra.Command{
		Use:   "experiment NAME | list",
		Short: "Reproduce a paper's table on the real corpora and write the report to docs/results",
		Long: `experiment runs one of the papers' reproductions on the shared corpora and
writes NAME.md (tables, the exact command, the time), its charts and its raw
results (JSON) to --out. "experiment list" names them.`,
		Example: `  semitopic experiment list
  semitopic experiment tsnmf-reuters
  semitopic experiment tsnmf-reuters --quick --out check`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if args[0] == "list" {
				for _, e := range experiment.All() {
					fmt.Fprintf(cmd.OutOrStdout(), "%-16s %s\n", e.Name, e.Description)
				}
				return nil
			}
			e, err := experiment.Find(args[0])
			if err != nil {
				return err
			}
			if len(datasets) > 0 && !e.Subsets {
				return fmt.Errorf("--datasets: experiment %s runs its whole protocol; it takes no subset of corpora", e.Name)
			}
			if data == "" {
				if data, err = datadir.Find(); err != nil {
					return fmt.Errorf("%w (or pass --data)", err)
				}
			}
			if err := checkNoOverwrite([]ioPath{{name: "--data", path: data}}, []ioPath{{name: "--out", path: out}}); err != nil {
				return err
			}
			env := &experiment.Env{
				Data:       data,
				Out:        out,
				Seeds:      seeds,
				Quick:      quick,
				ReportOnly: reportOnly,
				Redo:       redo,
				Datasets:   datasets,
				Command:    "go run ./cmd/semitopic " + strings.Join(os.Args[1:], " "),
				Log:        cmd.ErrOrStderr(),
			}
			return e.Run(cmd.Context(), env)
		},
	}
	cmd.Flags().StringVar(&data, "data", "", "shared data folder (default ../shared/data beside the module, or $SEMITOPIC_DATA)")
	cmd.Flags().StringVar(&out, "out", "docs/results", "folder for the report, its charts and raw results")
	cmd.Flags().IntVar(&seeds, "seeds", 0, "repetitions (default: the protocol's)")
	cmd.Flags().BoolVar(&quick, "quick", false, "a reduced protocol that checks the pipeline end to end (not the reproduction)")
	cmd.Flags().BoolVar(&reportOnly, "report-only", false, "write the report from the raw results already in --out, running nothing (experiments that resume: label-efficiency, seed-words)")
	cmd.Flags().StringSliceVar(&redo, "redo", nil, "model kinds to recompute in every stored run, after a change that moves only them (experiments that resume: label-efficiency, with the measurements of why; seed-words)")
	cmd.Flags().StringSliceVar(&datasets, "datasets", nil, "run only these of the protocol's corpora, comma separated (accuracy-estimate: bbc, brown, reuters, 20ng; languages: ISO 639-1 codes)")
	return cmd
}
