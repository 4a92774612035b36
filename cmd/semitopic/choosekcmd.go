package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/choosek"
	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func newChooseKCmd() *cobra.Command {
	var rf readerFlags
	var pf pipelineFlags
	var cfg choosek.Config
	var ksText, chartPath string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "choose-k --format F PATH [--kind nmf] [--ks 2:30] [--chart k.svg]",
		Short: "Suggest a number of topics for a corpus without labels: stability and coherence per k",
		Long: `choose-k reads and vectorizes a corpus once, then fits --starts models from
different random starts for each candidate number of topics (--ks: a list
"5,10,20" or a range "FROM:TO[:STEP]"; by default 2 to 10, 12 to 20 by 2 and
25 to 50 by 5, as the corpus allows) and measures, per k:

  stability   how much the starts agree: the Jaccard similarity of the
              topics' top words, topics matched one to one, averaged over
              the pairs of starts (Greene et al., 2014); 1 when every start
              finds the same topics
  coherence   the mean NPMI of each topic's top words in the corpus

and recommends the k of the largest product of the two — topics found again
from any start that also make sense — with a sentence saying why. Two topics
are found again from nearly any start whatever the corpus, and coherence
changes little past the corpus's structure: neither alone is enough. A corpus
has no single true k; read the table, and try the k around the
recommendation. Progress goes to stderr with an estimate of the time left.
--chart writes the two curves as SVG.`,
		Example: `  semitopic choose-k --format 20ng ../shared/data/20news-bydate/20news-bydate.tar.gz --subset train
  semitopic choose-k --format jsonl docs.jsonl --ks 5:40:5 --starts 4 --chart k.svg`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			// 0 means the default in choosek.Config; given on the command
			// line it is a mistake, not a request for the default.
			for name, v := range map[string]int{"starts": cfg.Starts, "top-words": cfg.TopWords} {
				if err := checkPositive(name, v); err != nil {
					return err
				}
			}
			if cfg.MaxIter < 0 {
				return fmt.Errorf("--max-iter: %d: want 0 (the kind's default) or a number ≥ 1", cfg.MaxIter)
			}
			if cmd.Flags().Changed("ks") {
				ks, err := choosek.ParseKs(ksText)
				if err != nil {
					return fmt.Errorf("--ks: %w", err)
				}
				cfg.Ks = ks
			}
			if chartPath != "" {
				if err := checkOut("chart", chartPath, false, ".svg"); err != nil {
					return err
				}
				if err := checkNoOverwrite(readerInputs(&rf, args[0]), []ioPath{{name: "--chart", path: chartPath}}); err != nil {
					return err
				}
			}
			return runChooseK(cmd, &rf, &pf, cfg, args[0], chartPath, asJSON)
		},
	}
	f := cmd.Flags()
	rf.register(f, true)
	pf.register(f)
	f.StringVar(&cfg.Kind, "kind", model.KindNMF, "kind of model fitted: "+strings.Join(choosek.Kinds, ", "))
	f.StringVar(&ksText, "ks", "", `candidate numbers of topics: "5,10,20" or "FROM:TO[:STEP]" (default 2–10, 12–20 by 2, 25–50 by 5)`)
	f.IntVar(&cfg.Starts, "starts", choosek.DefaultStarts, "random starts per k (at least 2)")
	f.Uint64Var(&cfg.Seed, "seed", 0, "seed of the first start (start s uses seed+s)")
	f.IntVar(&cfg.MaxIter, "max-iter", 0, "iterations of each fit (0: the kind's default)")
	f.IntVar(&cfg.TopWords, "top-words", choosek.DefaultTopWords, "top words per topic compared and scored")
	f.StringVar(&chartPath, "chart", "", "write stability and coherence against k as SVG to this file")
	f.BoolVar(&asJSON, "json", false, "print the result as JSON")
	return cmd
}

func runChooseK(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, cfg choosek.Config, path, chartPath string, asJSON bool) error {
	ctx := cmd.Context()
	if _, err := model.KindOf(cfg.Kind); err != nil {
		return fmt.Errorf("--kind: %w", err)
	}
	if !cmd.Flags().Changed("preset") {
		pf.preset = model.DefaultPreset(cfg.Kind)
	}
	var pl vectorize.Pipeline
	if rf.format != "mtx" && rf.format != "uci" {
		var err error
		if pl, err = pf.build(cmd); err != nil {
			return err
		}
	}
	c, err := rf.read(ctx, cmd, path)
	if err != nil {
		return err
	}
	var x *sparse.CSR
	var vocab []string
	if c.Matrix != nil {
		x, vocab = c.Matrix.X, c.Matrix.Vocab
	} else {
		_, res, err := pl.FitTransform(ctx, c.Docs)
		if err != nil {
			return err
		}
		x, vocab = res.X, res.Vocab
	}
	stderr := cmd.ErrOrStderr()
	fmt.Fprintf(stderr, "choose-k: %d documents × %d terms, %s\n", x.Rows, len(vocab), cfg.Kind)
	cfg.Progress = func(s choosek.Step) {
		fmt.Fprintf(stderr, "\rchoose-k: %d/%d fits (k = %d), %s, about %s left   ", s.Done, s.Total, s.K, s.Elapsed.Round(time.Second), s.Left.Round(time.Second))
		if s.Done == s.Total {
			fmt.Fprintln(stderr)
		}
	}
	res, err := choosek.Choose(ctx, x, vocab, cfg)
	if err != nil {
		return err
	}
	if chartPath != "" {
		if err := writeChooseKChart(chartPath, res); err != nil {
			return err
		}
	}
	if asJSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printChooseK(cmd.OutOrStdout(), res)
	return nil
}

// printChooseK writes res as a table and the recommendation.
func printChooseK(w io.Writer, res *choosek.Result) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "k\tstability\t(min–max over pairs)\tcoherence (NPMI)\tempty topics\tstopped at the limit\tseconds\t\n")
	for _, c := range res.Candidates {
		mark := ""
		if c.K == res.Best {
			mark = " ←"
		}
		fmt.Fprintf(tw, "%d\t%.3f\t%.2f–%.2f\t%.3f\t%.1f\t%d of %d\t%.1f\t%s\n", c.K, c.Stability, c.StabilityMin, c.StabilityMax, c.Coherence, c.Empty, c.Unconverged, res.Starts, c.Seconds, mark)
	}
	tw.Flush()
	fmt.Fprintf(w, "recommended: k = %d, %s. A corpus has no single true number of topics: try the ks around it.\n", res.Best, res.Reason)
}

// writeChooseKChart writes stability and coherence against k as SVG.
func writeChooseKChart(path string, res *choosek.Result) error {
	var st, co chart.Series
	st.Name, co.Name = "stability (agreement between starts)", "coherence (NPMI)"
	for _, c := range res.Candidates {
		st.X, st.Y = append(st.X, float64(c.K)), append(st.Y, c.Stability)
		co.X, co.Y = append(co.X, float64(c.K)), append(co.Y, c.Coherence)
	}
	svg, err := chart.Render(chart.LineChart{Title: fmt.Sprintf("%s: stability and coherence by number of topics (recommended %d)", res.Kind, res.Best),
		XLabel: "topics k", YLabel: "score", Series: []chart.Series{st, co}}, chart.SVG, chart.Size{})
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, func(w io.Writer) error {
		_, err := w.Write(svg)
		return err
	})
}
