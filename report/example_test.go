package report_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/report"
	"github.com/semitopic/semitopic/vectorize"
)

// fitDemo fits a model of kind k on the embedded demo corpus, learning from
// the corpus's labels when the kind does.
func fitDemo(ctx context.Context, d *demo.Demo, k string) *model.Fitted {
	o := model.Options{Kind: k, Seed: 1}
	supervised := k == model.KindTSNMF
	if !supervised {
		o.K = 8
	}
	o.LabelsFromCorpus = supervised
	f, err := model.Fit(ctx, model.Text(d.Corpus, new(vectorize.DefaultPipeline())), o)
	if err != nil {
		log.Fatal(err)
	}
	return f
}

// Write the report of a TS-NMF model fitted on the demo corpus, evaluated
// on the demo's test documents with their planted themes as labels, and
// look at the page: its sections, part of its evaluation table, a topic.
func ExampleWrite() {
	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		log.Fatal(err)
	}
	f := fitDemo(ctx, d, model.KindTSNMF)

	// The test documents, labeled with the themes they were drawn from
	// and mapped to the model's vocabulary.
	var docs []corpus.Document
	for i, doc := range d.Corpus.Docs {
		if doc.Split == corpus.SplitTest {
			doc.Labels = d.Truth[i]
			docs = append(docs, doc)
		}
	}
	x, err := f.Vectorize(ctx, docs)
	if err != nil {
		log.Fatal(err)
	}
	data := &report.Data{Docs: docs, X: x.X, Scope: "test documents, never labeled in the fit"}

	var page bytes.Buffer
	if err := report.Write(ctx, &page, f, data, report.Options{Title: "Demo corpus", Words: 5}); err != nil {
		log.Fatal(err)
	}
	html := page.String()
	for _, m := range regexp.MustCompile(`<h2>(.*?)</h2>`).FindAllStringSubmatch(html, -1) {
		fmt.Println("section:", m[1])
	}
	// The evaluation table's rows that count documents.
	for _, m := range regexp.MustCompile(`<tr><td>(.*?)</td><td>(.*?)</td></tr>`).FindAllStringSubmatch(html, -1) {
		switch m[1] {
		case "evaluated on", "labeled documents", "accuracy of predicted labels":
			fmt.Printf("%s: %s\n", m[1], m[2])
		}
	}
	fmt.Println("topic space with its top word:", strings.Contains(html, `<h3 title="space">space `) && strings.Contains(html, ">rocket<"))
	fmt.Println("scripts:", strings.Count(html, "<script"))
	// Output:
	// section: Model
	// section: Evaluation
	// section: Topic sizes
	// section: Topics
	// section: Documents and topics
	// evaluated on: 96 test documents, never labeled in the fit
	// labeled documents: 96 of 96, 8 labels
	// accuracy of predicted labels: 100.00% (96 of 96 labeled documents)
	// topic space with its top word: true
	// scripts: 0
}

// WriteMany puts several models on one page, here written to a file.
func ExampleWriteMany() {
	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		log.Fatal(err)
	}
	entries := []report.Entry{
		{Title: "TS-NMF", Fitted: fitDemo(ctx, d, model.KindTSNMF)},
		{Title: "NMF", Fitted: fitDemo(ctx, d, model.KindNMF)},
	}
	dir, err := os.MkdirTemp("", "report-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "report.html")
	out, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	err = report.WriteMany(ctx, out, "Two models", "the demo corpus", entries, report.Options{Words: 5})
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		log.Fatal(err)
	}
	html, err := os.ReadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	// The page opens with links to the models' sections.
	nav := regexp.MustCompile(`<nav[^>]*>.*</nav>`).Find(html)
	for _, m := range regexp.MustCompile(`<a href="(#[^"]+)">([^<]+)</a>`).FindAllSubmatch(nav, -1) {
		fmt.Printf("%s → %s\n", m[2], m[1])
	}
	fmt.Println("sections:", bytes.Count(html, []byte("<article")))
	// Output:
	// TS-NMF → #model-1
	// NMF → #model-2
	// sections: 2
}
