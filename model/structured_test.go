package model

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/vectorize"
)

// demoTest returns the demo's test documents and their planted themes.
func demoTest(t *testing.T) ([]corpus.Document, [][]string) {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	var docs []corpus.Document
	var truth [][]string
	for i, doc := range d.Corpus.Docs {
		if doc.Split == corpus.SplitTest {
			docs = append(docs, doc)
			truth = append(truth, d.Truth[i])
		}
	}
	return docs, truth
}

// predictAccuracy is the share of documents whose first predicted label
// is one of their planted themes.
func predictAccuracy(t *testing.T, f *Fitted) float64 {
	t.Helper()
	p, ok := f.Model.(Predictor)
	if !ok || len(p.Labels()) == 0 {
		t.Fatalf("%s does not predict labels", f.Model.Kind())
	}
	docs, truth := demoTest(t)
	x, err := f.Vectorize(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := p.Predict(context.Background(), x.X)
	if err != nil {
		t.Fatal(err)
	}
	if r, c := pred.Scores.Dims(); r != len(docs) || c != len(p.Labels()) {
		t.Fatalf("scores %d×%d", r, c)
	}
	hits := 0
	for i, l := range pred.Labels {
		for _, tr := range truth[i] {
			if len(l) > 0 && l[0] == tr {
				hits++
				break
			}
		}
	}
	return float64(hits) / float64(len(docs))
}

func TestThemeModel(t *testing.T) {
	for _, mode := range []string{"separated", "combined"} {
		f := fitDemo(t, Options{Kind: KindTheme, Seed: 1, Mode: mode}, true)
		if acc := predictAccuracy(t, f); acc < 0.85 {
			t.Errorf("%s: planted theme first for %.0f%% of test documents, want ≥ 85%%", mode, 100*acc)
		}
		m := f.Model.(*Theme)
		topics := mustTopics(t, m, 5)
		if len(topics) != m.NumTopics() {
			t.Fatalf("%s: %d topics, NumTopics %d", mode, len(topics), m.NumTopics())
		}
		themes := len(m.Labels())
		wantTopics := themes*3 + 1
		if mode == "separated" {
			wantTopics = themes * 4
		}
		if len(topics) != wantTopics {
			t.Errorf("%s: %d topics for %d themes, want %d", mode, len(topics), themes, wantTopics)
		}
		for _, tp := range topics {
			if tp.Group == "" || len(tp.Words) == 0 {
				t.Errorf("%s: topic %+v", mode, tp)
			}
			for _, w := range tp.Words {
				if strings.HasSuffix(tp.Name, "background") != (w.Purity == nil) {
					t.Errorf("%s: topic %s word %s purity %v", mode, tp.Name, w.Word, w.Purity)
				}
				if w.Purity != nil && (*w.Purity < 0 || *w.Purity > 1) {
					t.Errorf("%s: purity %v", mode, *w.Purity)
				}
			}
		}
		d, err := m.Describe(4)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := d.WriteText(&buf); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, want := range []string{"λ=0", "λ=1", "subtopic 3", "max", "sum", "background", "== " + m.Labels()[0]} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: description lacks %q:\n%s", mode, want, out)
			}
		}
	}
}

func TestCorExAnchors(t *testing.T) {
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	sup := Supervision{}
	for _, th := range d.Spec.Themes {
		a := Anchor{Topic: th.Name, Words: th.Anchors}
		if len(sup.Anchors) == 0 {
			// One strength per word on the first topic, and a word the
			// vocabulary lacks, which must be reported, not fatal.
			a.Words = append(append([]string(nil), th.Anchors...), "zzzunknownword")
			a.Beta = make([]float64, len(a.Words))
			a.Beta[0] = 5
		}
		sup.Anchors = append(sup.Anchors, a)
	}
	pl := vectorize.Pipeline{Text: vectorize.DefaultPipeline().Text, Vectorize: vectorize.Options{Binary: true}}
	f, err := fitCorpus(context.Background(), d.Corpus, pl, Options{Kind: KindCorEx, Seed: 1, K: len(d.Spec.Themes) + 2, Beta: 2, Supervision: sup})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(f.Info.Notes, "\n"), "zzzunknownword") {
		t.Errorf("missing anchor not reported: %q", f.Info.Notes)
	}
	topics := mustTopics(t, f.Model, 10)
	if len(topics) != len(d.Spec.Themes)+2 {
		t.Fatalf("%d topics", len(topics))
	}
	for a, th := range d.Spec.Themes {
		tp := topics[a]
		if tp.Name != th.Name || tp.Score <= 0 {
			t.Errorf("topic %d: name %q score %v, want %q and TC > 0", a, tp.Name, tp.Score, th.Name)
		}
		top := map[string]bool{}
		for _, w := range tp.Words {
			top[w.Word] = true
		}
		for _, w := range th.Anchors {
			if f.Vectorizer != nil && !top[w] && contains(f.Vocab, w) {
				t.Errorf("topic %s: anchor %q not among its top words %v", th.Name, w, tp.Words)
			}
		}
	}
	// The seeded topics carry their names as labels: the model predicts
	// them (issue 16).
	var names []string
	for _, th := range d.Spec.Themes {
		names = append(names, th.Name)
	}
	if got := f.Model.(Predictor).Labels(); !slices.Equal(got, names) {
		t.Errorf("a hand-anchored model's labels are %q, want its seeded topics %q", got, names)
	}
	acc := predictAccuracy(t, f)
	t.Logf("seeded CorEx predicts the planted theme of %.0f%% of the test documents", 100*acc)
	if acc < 0.5 {
		t.Errorf("seeded CorEx predicts the planted theme of %.0f%% of the test documents, want ≥ 50%%", 100*acc)
	}
}

func contains(s []string, w string) bool {
	for _, x := range s {
		if x == w {
			return true
		}
	}
	return false
}

func TestCorExFromLabels(t *testing.T) {
	f := fitDemo(t, Options{Kind: KindCorEx, Seed: 1, Beta: 3}, true)
	if acc := predictAccuracy(t, f); acc < 0.8 {
		t.Errorf("label-anchored CorEx: planted theme first for %.0f%% of test documents, want ≥ 80%%", 100*acc)
	}
	if !strings.Contains(strings.Join(f.Info.Notes, "\n"), "anchored by") {
		t.Errorf("notes do not list the suggested anchors: %q", f.Info.Notes)
	}
}

// Labels and the user's anchors together: a label's suggested anchors and
// the user's seed words of the same name anchor one topic, the user's
// exclusions apply to it, and the topics named only by the user come
// after the labels.
func TestCorExLabelsWithUserAnchors(t *testing.T) {
	plain := fitDemo(t, Options{Kind: KindCorEx, Seed: 1, Beta: 3}, true)
	pc := plain.Model.(*CorEx)
	label := pc.LabelNames[0]
	var suggested []string
	for _, a := range pc.CorEx().Anchors {
		if a.Topic == 0 {
			suggested = append(suggested, a.Word)
		}
	}
	if len(suggested) < 2 {
		t.Fatalf("label %q has suggested anchors %q; the test needs two", label, suggested)
	}
	// A seed word of the user's: a word of another label's topic.
	var mine string
	for _, a := range pc.CorEx().Anchors {
		if a.Topic == 1 {
			mine = a.Word
			break
		}
	}
	o := Options{Kind: KindCorEx, Seed: 1, Beta: 3, Supervision: Supervision{Anchors: []Anchor{
		{Topic: label, Words: []string{mine}, Beta: []float64{5}, Exclude: []string{suggested[0]}},
		{Topic: "mine", Words: []string{suggested[1]}},
	}}}
	f := fitDemo(t, o, true)
	c := f.Model.(*CorEx)
	if !slices.Equal(c.LabelNames, pc.LabelNames) {
		t.Errorf("labels %q, want %q", c.LabelNames, pc.LabelNames)
	}
	if want := append(slices.Clone(pc.LabelNames), "mine"); !slices.Equal(c.TopicNames[:len(want)], want) {
		t.Errorf("topics %q, want %q first", c.TopicNames, want)
	}
	got := map[[2]string]float64{}
	for _, a := range c.CorEx().Anchors {
		got[[2]string{c.TopicNames[a.Topic], a.Word}] = a.Strength
	}
	for key, want := range map[[2]string]float64{
		{label, mine}:            5, // the user's, with its strength
		{label, suggested[1]}:    3, // suggested, at Options.Beta
		{label, suggested[0]}:    0, // excluded by the user
		{"mine", suggested[1]}:   3,
		{pc.LabelNames[1], mine}: 3, // still suggested for its own label
	} {
		if s, ok := got[key]; !ok || s != want {
			t.Errorf("anchor %q: strength %v (listed %v), want %v", key, s, ok, want)
		}
	}
	j := slices.Index(c.Vocab, suggested[0])
	if a := c.CorEx().Alpha().At(0, j); a != 0 {
		t.Errorf("excluded %q has α %v in topic %q", suggested[0], a, label)
	}
	if !strings.Contains(strings.Join(f.Info.Notes, "\n"), "(yours)") {
		t.Errorf("notes do not say which anchors are the user's: %q", f.Info.Notes)
	}
	if acc := predictAccuracy(t, f); acc < 0.8 {
		t.Errorf("planted theme first for %.0f%% of test documents, want ≥ 80%%", 100*acc)
	}
}
