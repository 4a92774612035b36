package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/report"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func newDemoCmd() *cobra.Command {
	var top int
	var reportPath, saveDir string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Fit the models on the embedded demo corpus, show what they found, write demo-report.html",
		Long: `demo generates the embedded demo corpus (480 short documents sampled with a
fixed seed from eight planted themes, a third of them labeled, with anchor
words per theme), fits the semi-supervised models on it, prints for each the
topics it found next to the planted themes with a one-line quality figure,
and writes an HTML report of all of them (--report). The report evaluates
each model on the test documents only, which no model saw labeled.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runDemo(cmd, top, reportPath, saveDir)
		},
	}
	cmd.Flags().IntVar(&top, "top", 6, "words to show per topic")
	cmd.Flags().StringVar(&reportPath, "report", "demo-report.html", "HTML report to write (empty: none)")
	cmd.Flags().StringVar(&saveDir, "save", "", "folder to save the fitted models in (KIND.semitopic), for transform, serve and report")
	return cmd
}

// demoModel is one model the demo fits.
type demoModel struct {
	title    string
	opts     model.Options
	labels   bool // supervise with the labeled documents
	anchors  bool // supervise with the themes' anchor words
	pipeline string
}

func demoModels() []demoModel {
	var out []demoModel
	kinds := map[string]bool{}
	for _, k := range model.Kinds() {
		kinds[k] = true
	}
	add := func(m demoModel) {
		if kinds[m.opts.Kind] {
			out = append(out, m)
		}
	}
	add(demoModel{title: "TS-NMF (labels)", opts: model.Options{Kind: model.KindTSNMF, Seed: 1}, labels: true, pipeline: "default"})
	add(demoModel{title: "Theme-supervised NMF (labels, Combined, 2 subtopics per theme)", opts: model.Options{Kind: model.KindTheme, Seed: 1, Subtopics: 2, Mode: "combined"}, labels: true, pipeline: "demo-counts"})
	add(demoModel{title: "SSNMF (labels)", opts: model.Options{Kind: model.KindSSNMF, Seed: 1}, labels: true, pipeline: "default"})
	add(demoModel{title: "Anchored CorEx (anchor words)", opts: model.Options{Kind: model.KindCorEx, Seed: 1, K: 8}, anchors: true, pipeline: "demo-binary"})
	return out
}

func demoPipeline(name string) vectorize.Pipeline {
	pl := vectorize.DefaultPipeline()
	switch name {
	case "demo-counts":
		pl.Vectorize = vectorize.Options{}
	case "demo-binary":
		pl.Vectorize = vectorize.Options{Binary: true}
	}
	return pl
}

func runDemo(cmd *cobra.Command, top int, reportPath, saveDir string) error {
	ctx := cmd.Context()
	out := cmd.OutOrStdout()
	start := time.Now()
	if reportPath != "" {
		if err := atomicfile.CheckWritable(reportPath); err != nil {
			return fmt.Errorf("--report: %w", err)
		}
	}
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
	fmt.Fprintf(out, "  %d training documents labeled (%.0f%% of all); test documents are never labeled\n",
		labeled, 100*float64(labeled)/float64(len(c.Docs)))
	fmt.Fprintf(out, "  example %s: %q\n", c.Docs[0].ID, clip(c.Docs[0].Text, 90))

	// Every document with its planted themes, to judge the models by; the
	// test documents, never labeled in the fit, are the ones judged.
	truthDocs := make([]corpus.Document, len(c.Docs))
	var testRows []int
	var testDocs []corpus.Document
	for i, doc := range c.Docs {
		truthDocs[i] = doc
		truthDocs[i].Labels = d.Truth[i]
		if doc.Split == corpus.SplitTest {
			testRows = append(testRows, i)
			testDocs = append(testDocs, truthDocs[i])
		}
	}
	if len(testDocs) == 0 {
		return fmt.Errorf("the demo corpus has no test documents to evaluate on")
	}
	var entries []report.Entry
	for _, dm := range demoModels() {
		t0 := time.Now()
		sup := model.Supervision{}
		if dm.anchors {
			for _, th := range d.Spec.Themes {
				sup.Anchors = append(sup.Anchors, model.Anchor{Topic: th.Name, Words: th.Anchors})
			}
		}
		o := dm.opts
		o.Supervision, o.LabelsFromCorpus = sup, dm.labels
		pl := demoPipeline(dm.pipeline)
		f, err := model.Fit(ctx, model.Text(c, &pl), o)
		if err != nil {
			return fmt.Errorf("%s: %w", dm.title, err)
		}
		el := time.Since(t0)
		res, err := f.Vectorize(ctx, truthDocs)
		if err != nil {
			return err
		}
		testX := res.X.SelectRows(testRows)
		quality, err := demoQuality(ctx, f, testX, testDocs)
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "\n%s — fitted in %v\n  %s\n", dm.title, el.Round(time.Millisecond), quality)
		topics, err := f.Model.Topics(top)
		if err != nil {
			return err
		}
		showTopics(out, topics, d)
		entries = append(entries, report.Entry{Title: dm.title, Fitted: f,
			Data: &report.Data{Docs: testDocs, X: testX, Scope: "test documents, never labeled in the fit"}})
		if saveDir != "" {
			if err := os.MkdirAll(saveDir, 0o755); err != nil {
				return err
			}
			p := filepath.Join(saveDir, f.Model.Kind()+".semitopic")
			if err := model.SaveFile(p, f); err != nil {
				return err
			}
			fmt.Fprintf(out, "  saved %s\n", p)
		}
	}
	if reportPath != "" {
		models := fmt.Sprintf("%d models", len(entries))
		if len(entries) == 1 {
			models = "1 model"
		}
		subtitle := fmt.Sprintf("%s on the embedded demo corpus (%d documents, %d planted themes); evaluated on its %d test documents",
			models, len(c.Docs), len(d.Spec.Themes), len(testDocs))
		err := atomicfile.WriteFile(reportPath, func(w io.Writer) error {
			return report.WriteMany(ctx, w, "semitopic demo", subtitle, entries, report.Options{Words: 8})
		})
		if err != nil {
			return err
		}
		fmt.Fprintf(out, "\nwrote %s\n", reportPath)
	}
	fmt.Fprintf(out, "done in %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}

// demoQuality is the one-line quality figure of a model on the demo's test
// documents (x, docs: labeled with their planted themes): for
// label-predicting models, how often the predicted label is a planted
// theme; otherwise how well the topics line up with the planted themes
// (mean matched weighted Jaccard, AMI).
func demoQuality(ctx context.Context, f *model.Fitted, x *sparse.CSR, docs []corpus.Document) (string, error) {
	names, idx := corpus.LabelIndex(docs)
	if p, ok := model.AsPredictor(f.Model); ok {
		pred, err := p.Predict(ctx, x)
		if err != nil {
			return "", err
		}
		hits, labeled, _, err := pred.Accuracy(corpus.DocLabels(docs))
		if err != nil {
			return "", err
		}
		if labeled == 0 {
			return "", fmt.Errorf("demo: the test documents carry no planted theme to evaluate against")
		}
		return fmt.Sprintf("predicts only planted themes for %d of %d unlabeled test documents (%.1f%%)", hits, labeled, 100*float64(hits)/float64(labeled)), nil
	}
	W, err := f.Model.Transform(ctx, x)
	if err != nil {
		return "", err
	}
	ev, err := metrics.EvaluateTopics(ctx, W, idx, len(names), metrics.EvaluateOptions{})
	if err != nil {
		return "", err
	}
	if ev.Jaccard == nil || ev.Cluster == nil {
		return "", fmt.Errorf("demo: the test documents carry no planted theme to evaluate against")
	}
	return fmt.Sprintf("topics vs planted themes on the %d test documents: mean matched weighted Jaccard %.3f (%d/%d themes resolved), argmax-topic AMI %.3f",
		len(docs), ev.Jaccard.Mean, ev.Jaccard.Resolved, ev.Jaccard.Scored, ev.Cluster.AMI), nil
}

// showTopics prints each topic's top words, marking words planted in the
// theme the topic stands for (or, for unnamed topics, the theme whose
// planted words it shares most).
func showTopics(out io.Writer, topics []model.Topic, d *demo.Demo) {
	planted := map[string]map[string]bool{}
	for _, th := range d.Spec.Themes {
		planted[th.Name] = map[string]bool{}
		for _, w := range th.Words {
			planted[th.Name][w] = true
		}
	}
	for _, t := range topics {
		theme := t.Label
		if theme == "" {
			theme = t.Group
		}
		if planted[theme] == nil {
			best := 0
			for name, ws := range planted {
				n := 0
				for _, w := range t.Words {
					if ws[w.Word] {
						n++
					}
				}
				if n > best || n == best && n > 0 && name < theme {
					best, theme = n, name
				}
			}
		}
		var words []string
		hits := 0
		for _, w := range t.Words {
			s := w.Word
			if planted[theme][w.Word] {
				s += "*"
				hits++
			}
			words = append(words, s)
		}
		name := t.Title()
		fmt.Fprintf(out, "  %-18s %-10s %d/%d  %s\n", clip(name, 18), "≈"+theme, hits, len(t.Words), strings.Join(words, " "))
	}
	fmt.Fprintln(out, "  (* = a planted word of the theme; ≈ = the planted theme the topic stands for)")
}

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
