package main

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/vectorize"
)

func newDemoCmd() *cobra.Command {
	var top int
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the main job on the embedded demo corpus and print what it did",
		Long: `demo generates the embedded demo corpus (480 short documents sampled with a
fixed seed from eight planted themes, a third of them labeled, with anchor
words per theme), runs the default text pipeline, and shows per theme the
terms that characterise its labeled documents next to the planted words.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd, top)
		},
	}
	cmd.Flags().IntVar(&top, "top", 8, "terms to show per theme")
	return cmd
}

func runDemo(cmd *cobra.Command, top int) error {
	out := cmd.OutOrStdout()
	start := time.Now()
	d, err := demo.Load()
	if err != nil {
		return err
	}
	c := d.Corpus
	labeled, mixed, test := 0, 0, 0
	for i, doc := range c.Docs {
		if doc.Labeled() {
			labeled++
		}
		if len(d.Truth[i]) > 1 {
			mixed++
		}
		if doc.Split == corpus.SplitTest {
			test++
		}
	}
	fmt.Fprintf(out, "semitopic demo: the embedded demo corpus (seed %d)\n", demo.DefaultSeed)
	fmt.Fprintf(out, "  %d documents (%d train, %d test), %d planted themes, %d with two themes\n",
		len(c.Docs), len(c.Docs)-test, test, len(d.Spec.Themes), mixed)
	fmt.Fprintf(out, "  %d labeled (%.0f%%); the rest keep their themes hidden for evaluation\n",
		labeled, 100*float64(labeled)/float64(len(c.Docs)))
	fmt.Fprintf(out, "  example %s: %q\n", c.Docs[0].ID, clip(c.Docs[0].Text, 90))

	pl := vectorize.DefaultPipeline()
	v, err := pl.New()
	if err != nil {
		return err
	}
	t0 := time.Now()
	res, err := v.FitTransform(cmd.Context(), c.Docs)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "\npipeline: %s\n", describePipeline(pl))
	fmt.Fprintf(out, "  %d × %d tf-idf matrix, %d non-zeros, %d tokens, in %v\n",
		res.X.Rows, res.X.Cols, res.X.NNZ(), res.Tokens, time.Since(t0).Round(time.Millisecond))

	fmt.Fprintf(out, "\nper theme: terms with the highest mean tf-idf over its labeled documents\n")
	fmt.Fprintf(out, "(a supervised centroid, the simplest use of the labels; * = a planted word of the theme)\n")
	recovered, shown := showCentroids(out, d, res, top)
	fmt.Fprintf(out, "\n%d of %d terms shown are planted words of their theme; anchors: ", recovered, shown)
	var anchors []string
	for _, th := range d.Spec.Themes {
		anchors = append(anchors, th.Name+"="+strings.Join(th.Anchors, "/"))
	}
	fmt.Fprintln(out, strings.Join(anchors, " "))
	fmt.Fprintf(out, "done in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// showCentroids prints, per theme, the top terms of the mean tf-idf row of
// its labeled documents, marking planted words, and returns how many shown
// terms were planted.
func showCentroids(out io.Writer, d *demo.Demo, res *vectorize.Result, top int) (planted, shown int) {
	for _, th := range d.Spec.Themes {
		sum := make([]float64, res.X.Cols)
		n := 0
		for i, doc := range res.Docs {
			if !hasLabel(doc.Labels, th.Name) {
				continue
			}
			n++
			cols, vals := res.X.Row(i)
			for p, j := range cols {
				sum[j] += vals[p]
			}
		}
		order := make([]int, len(sum))
		for j := range order {
			order[j] = j
		}
		sort.SliceStable(order, func(a, b int) bool { return sum[order[a]] > sum[order[b]] })
		words := map[string]bool{}
		for _, w := range th.Words {
			words[w] = true
		}
		var terms []string
		for _, j := range order[:min(top, len(order))] {
			if sum[j] == 0 {
				break
			}
			t := res.Vocab[j]
			if words[t] {
				t += "*"
				planted++
			}
			shown++
			terms = append(terms, t)
		}
		fmt.Fprintf(out, "  %-10s (%2d docs)  %s\n", th.Name, n, strings.Join(terms, " "))
	}
	return planted, shown
}

func hasLabel(labels []string, l string) bool {
	for _, x := range labels {
		if x == l {
			return true
		}
	}
	return false
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
