package report

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/vectorize"
)

func TestReportSelfContained(t *testing.T) {
	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.FitCorpus(ctx, d.Corpus, vectorize.DefaultPipeline(), true, model.Supervision{}, model.Options{Kind: model.KindTSNMF, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Evaluate on every document with its planted themes.
	docs := append(d.Corpus.Docs[:0:0], d.Corpus.Docs...)
	for i := range docs {
		docs[i].Labels = d.Truth[i]
	}
	res, err := f.Vectorize(ctx, docs)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(ctx, &buf, f, &Data{Docs: docs, X: res.X}, Options{}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	for _, want := range []string{"<h2>Evaluation</h2>", "accuracy of predicted labels", "mean matched weighted Jaccard", "log rank accuracy",
		"<h2>Topic sizes</h2>", "<h2>Documents and topics</h2>", ">space<", ">rocket<"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if n := strings.Count(html, "<svg"); n < 10 {
		t.Errorf("%d inline SVGs, want the size chart, the heatmap and one per topic", n)
	}
	if strings.Contains(html, "<script") {
		t.Error("the report has a script")
	}
	// Nothing is fetched from the network: the only URLs are XML namespaces.
	for _, u := range regexp.MustCompile(`(?:src|href)=["']?([^"' >]+)`).FindAllStringSubmatch(html, -1) {
		if !strings.HasPrefix(u[1], "#") {
			t.Errorf("external reference %s", u[1])
		}
	}
	for _, u := range regexp.MustCompile(`https?://[^"' )]+`).FindAllString(html, -1) {
		if !strings.HasPrefix(u, "http://www.w3.org/") {
			t.Errorf("URL %s in the report", u)
		}
	}
}

func TestReportWithoutData(t *testing.T) {
	ctx := context.Background()
	d, _ := demo.Load()
	f, err := model.FitCorpus(ctx, d.Corpus, vectorize.Pipeline{Text: vectorize.DefaultPipeline().Text}, false, model.Supervision{},
		model.Options{Kind: model.KindLDA, K: 4, Seed: 1, MaxIter: 5}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(ctx, &buf, f, nil, Options{Title: "LDA <demo>", Words: 3}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if strings.Contains(html, "<h2>Evaluation</h2>") || strings.Contains(html, "Documents and topics") {
		t.Error("evaluation without data")
	}
	if !strings.Contains(html, "LDA &lt;demo&gt;") {
		t.Error("title not escaped")
	}
}

func TestWriteMany(t *testing.T) {
	ctx := context.Background()
	d, _ := demo.Load()
	var entries []Entry
	for _, k := range []string{model.KindTSNMF, model.KindNMF} {
		o := model.Options{Kind: k, Seed: 1}
		if k == model.KindNMF {
			o.K = 8
		}
		f, err := model.FitCorpus(ctx, d.Corpus, vectorize.DefaultPipeline(), k == model.KindTSNMF, model.Supervision{}, o, nil)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, Entry{Title: k, Fitted: f})
	}
	var buf bytes.Buffer
	if err := WriteMany(ctx, &buf, "two models", "demo", entries, Options{Words: 4}); err != nil {
		t.Fatal(err)
	}
	html := buf.String()
	if !strings.Contains(html, `<a href="#model-2">nmf</a>`) || strings.Count(html, "<article") != 2 {
		t.Error("two-model page lacks its navigation or sections")
	}
}
