package report

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/chart"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func TestReportSelfContained(t *testing.T) {
	ctx := context.Background()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Fit(ctx, model.Text(d.Corpus, new(vectorize.DefaultPipeline())), model.Options{Kind: model.KindTSNMF, Seed: 1, LabelsFromCorpus: true})
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
	f, err := model.Fit(ctx, model.Text(d.Corpus, &vectorize.Pipeline{Text: vectorize.DefaultPipeline().Text}), model.Options{Kind: model.KindLDA, K: 4, Seed: 1, MaxIter: 5})
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
		o.LabelsFromCorpus = k == model.KindTSNMF
		f, err := model.Fit(ctx, model.Text(d.Corpus, new(vectorize.DefaultPipeline())), o)
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

// fitDemo fits a model of the given options on the demo corpus.
func fitDemo(t *testing.T, o model.Options, labels bool, sup model.Supervision, pl vectorize.Pipeline) (*model.Fitted, *demo.Demo) {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	o.Supervision, o.LabelsFromCorpus = sup, labels
	f, err := model.Fit(context.Background(), model.Text(d.Corpus, &pl), o)
	if err != nil {
		t.Fatal(err)
	}
	return f, d
}

func render(t *testing.T, f *model.Fitted, data *Data) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, f, data, Options{}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// testData is the demo's test documents with their planted themes.
func testData(t *testing.T, f *model.Fitted, d *demo.Demo) *Data {
	t.Helper()
	var docs []corpus.Document
	for i, doc := range d.Corpus.Docs {
		if doc.Split == corpus.SplitTest {
			doc.Labels = d.Truth[i]
			docs = append(docs, doc)
		}
	}
	res, err := f.Vectorize(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	return &Data{Docs: docs, X: res.X, Scope: "test documents, never labeled in the fit"}
}

// The total correlation chart is CorEx's alone: SSNMF's topics have a
// non-zero Score (their class share), which is not a total correlation.
func TestTCChartOnlyForCorEx(t *testing.T) {
	const tc = "Total correlation per topic"
	f, _ := fitDemo(t, model.Options{Kind: model.KindSSNMF, Seed: 1}, true, model.Supervision{}, vectorize.DefaultPipeline())
	score := false
	topics, err := f.Model.Topics(3)
	if err != nil {
		t.Fatal(err)
	}
	for _, tp := range topics {
		score = score || tp.Score != 0
	}
	if !score {
		t.Fatal("SSNMF topics have no score: the test no longer tells anything")
	}
	if html := render(t, f, nil); strings.Contains(html, tc) {
		t.Error("SSNMF report has a total correlation chart")
	}
	d, _ := demo.Load()
	var sup model.Supervision
	for _, th := range d.Spec.Themes {
		sup.Anchors = append(sup.Anchors, model.Anchor{Topic: th.Name, Words: th.Anchors})
	}
	pl := vectorize.DefaultPipeline()
	pl.Vectorize = vectorize.Options{Binary: true}
	f, _ = fitDemo(t, model.Options{Kind: model.KindCorEx, Seed: 1, K: 8}, false, sup, pl)
	if _, ok := f.Model.(TopicTC); !ok {
		t.Fatal("the CorEx model does not implement TopicTC")
	}
	if html := render(t, f, nil); !strings.Contains(html, "<h2>"+tc+"</h2>") {
		t.Error("CorEx report lacks its total correlation chart")
	}
}

// stub is a model of fixed topics, topic weights and predictions; the
// embedded Model is nil (its other methods are not called).
type stub struct {
	model.Model
	topics []model.Topic
	w      *mat.Dense
	labels []string
	pred   [][]string
}

func (s *stub) Kind() string                        { return "stub" }
func (s *stub) NumTopics() int                      { return len(s.topics) }
func (s *stub) Topics(n int) ([]model.Topic, error) { return s.topics, nil }
func (s *stub) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	return mat.DenseCopyOf(s.w), nil
}
func (s *stub) Labels() []string { return s.labels }
func (s *stub) Predict(ctx context.Context, x *sparse.CSR) (*model.Prediction, error) {
	return &model.Prediction{Scores: mat.NewDense(x.Rows, len(s.labels), nil), Labels: s.pred}, nil
}

// stubFitted is a stub model of k topics named t1, … with one word each
// over n documents; every document gets the label "a".
func stubFitted(k, n, sign int, purity bool) *model.Fitted {
	s := &stub{w: mat.NewDense(n, k, nil), labels: []string{"a", "b"}}
	for t := 0; t < k; t++ {
		w := model.Word{Word: fmt.Sprintf("w%d", t), Weight: 1, Sign: sign}
		if purity {
			p := 0.5
			w.Purity = &p
		}
		s.topics = append(s.topics, model.Topic{Name: fmt.Sprintf("topic-%d", t+1), Score: 1, Words: []model.Word{w}})
	}
	for i := 0; i < n; i++ {
		s.w.Set(i, i%k, 1)
		s.pred = append(s.pred, []string{"a"})
	}
	return &model.Fitted{Model: s, Vocab: []string{"x", "y"}}
}

func TestLegendsOnlyWhereTheModelHasThem(t *testing.T) {
	const purity, orange = "green underline", "Orange bars"
	for _, c := range []struct {
		name             string
		f                *model.Fitted
		purity, negative bool
	}{
		{"plain", stubFitted(3, 4, 0, false), false, false},
		{"purity", stubFitted(3, 4, 0, true), true, false},
		{"negative words", stubFitted(3, 4, -1, false), false, true},
	} {
		html := render(t, c.f, nil)
		if got := strings.Contains(html, purity); got != c.purity {
			t.Errorf("%s: purity legend shown %v, want %v", c.name, got, c.purity)
		}
		if got := strings.Contains(html, orange); got != c.negative {
			t.Errorf("%s: negative-word legend shown %v, want %v", c.name, got, c.negative)
		}
		if strings.Contains(html, "Total correlation") {
			t.Errorf("%s: a total correlation chart from Topic.Score", c.name)
		}
	}
	// A real theme model has purities.
	f, _ := fitDemo(t, model.Options{Kind: model.KindTheme, Seed: 1, Subtopics: 2, Mode: "combined"}, true, model.Supervision{}, vectorize.DefaultPipeline())
	if html := render(t, f, nil); !strings.Contains(html, purity) || strings.Contains(html, orange) {
		t.Error("theme model: want the purity legend and not the negative-word one")
	}
}

// TestOneFont checks that the page and every chart use one font stack.
func TestOneFont(t *testing.T) {
	f, d := fitDemo(t, model.Options{Kind: model.KindTSNMF, Seed: 1}, true, model.Supervision{}, vectorize.DefaultPipeline())
	html := render(t, f, testData(t, f, d))
	if !strings.Contains(html, "font: 15px/1.45 "+chart.FontFamily+";") {
		t.Error("the page's CSS does not use chart.FontFamily")
	}
	attr := template.HTMLEscapeString(chart.FontFamily)
	for _, m := range regexp.MustCompile(`font-family(?:="([^"]*)"|:([^;"]*))`).FindAllStringSubmatch(html, -1) {
		got := m[1] + m[2]
		if got != attr && got != chart.FontFamily {
			t.Errorf("font-family %q in the page, want %q", got, chart.FontFamily)
		}
	}
	if strings.Contains(html, "Liberation") {
		t.Error("a chart names the layout font")
	}
}

func TestEvaluationScope(t *testing.T) {
	f, d := fitDemo(t, model.Options{Kind: model.KindTSNMF, Seed: 1}, true, model.Supervision{}, vectorize.DefaultPipeline())
	data := testData(t, f, d)
	html := render(t, f, data)
	want := fmt.Sprintf("<td>evaluated on</td><td>%d test documents, never labeled in the fit</td>", len(data.Docs))
	if !strings.Contains(html, want) {
		t.Errorf("report lacks %q", want)
	}
	if !strings.Contains(html, fmt.Sprintf("A sample of 30 of the %d test documents", len(data.Docs))) {
		t.Error("the heatmap note does not say which documents it samples")
	}
	data.Scope = ""
	html = render(t, f, data)
	if want := fmt.Sprintf("<td>evaluated on</td><td>%d documents given to the report</td>", len(data.Docs)); !strings.Contains(html, want) {
		t.Errorf("report lacks %q", want)
	}
}

// oneTerm is an n × 2 matrix where every document has term 0 once, but
// the empty ones, which have no term.
func oneTerm(t *testing.T, n int, empty ...int) *sparse.CSR {
	t.Helper()
	indptr := []int{0}
	var indices []int32
	var data []float64
	for i := 0; i < n; i++ {
		if !slices.Contains(empty, i) {
			indices = append(indices, 0)
			data = append(data, 1)
		}
		indptr = append(indptr, len(data))
	}
	x, err := sparse.NewCSR(n, 2, indptr, indices, data)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// TestEmptyDocumentsCountAsErrors: a document whose row of X is empty gets
// no label, whatever the model predicts for it, and counts as an error.
func TestEmptyDocumentsCountAsErrors(t *testing.T) {
	const n = 10
	f := stubFitted(3, n, 0, false) // predicts "a" for every document
	docs := make([]corpus.Document, n)
	for i := range docs {
		docs[i] = corpus.Document{ID: fmt.Sprintf("d%d", i), Labels: []string{"a"}}
	}
	html := render(t, f, &Data{Docs: docs, X: oneTerm(t, n, 3, 7)}) // 3 and 7 have no known term
	for _, want := range []string{
		"<td>accuracy of predicted labels</td><td>80.00% (8 of 10 labeled documents)</td>",
		"2 documents have no term known to the model and got no label; they count as errors",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// Without empty documents, no such sentence.
	html = render(t, f, &Data{Docs: docs, X: oneTerm(t, n)})
	if strings.Contains(html, "no term known") || !strings.Contains(html, "100.00% (10 of 10") {
		t.Error("documents with terms: want 100% and no note on empty documents")
	}
}

// TestHeatmapManyTopics: a 90-topic model's heatmap stays within the page
// width, with upright topic labels.
func TestHeatmapManyTopics(t *testing.T) {
	const k, n = 90, 60
	f := stubFitted(k, n, 0, false)
	s := f.Model.(*stub)
	for i := 0; i < n; i++ { // spread each document's weight
		for j := 0; j < k; j++ {
			s.w.Set(i, j, float64((i*7+j*13)%11))
		}
	}
	docs := make([]corpus.Document, n)
	for i := range docs {
		docs[i] = corpus.Document{ID: fmt.Sprintf("doc-%d", i)}
	}
	html := render(t, f, &Data{Docs: docs, X: oneTerm(t, n)})
	i := strings.Index(html, "<h2>Documents and topics</h2>")
	if i < 0 {
		t.Fatal("no heatmap")
	}
	svg := html[i:]
	svg = svg[:strings.Index(svg, "</svg>")]
	m := regexp.MustCompile(`<svg width="([0-9.]+)pt"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("heatmap SVG has no width")
	}
	if w, _ := strconv.ParseFloat(m[1], 64); w > maxWidthCm*72/2.54+0.5 {
		t.Errorf("heatmap %s pt wide, wider than %d cm", m[1], maxWidthCm)
	}
	if !strings.Contains(svg, "rotate(90)") {
		t.Error("the heatmap's 30 topic labels are not upright")
	}
}

// A model configured automatically shows what was kept and the linear
// SVM's estimate.
func TestReportShowsSearch(t *testing.T) {
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	f, err := model.Fit(context.Background(), model.Text(d.Corpus, new(vectorize.DefaultPipeline())), model.Options{Kind: model.KindTSNMF, Seed: 1, Auto: true, LabelsFromCorpus: true})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Write(context.Background(), &buf, f, nil, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "automatic configuration") || !strings.Contains(buf.String(), "linear SVM on the same labels") {
		t.Error("the report does not show the automatic configuration")
	}
}
