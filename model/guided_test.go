package model

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/supervision"
	"github.com/semitopic/semitopic/vectorize"
)

// The anchors name the topics (seeded first) and become seed terms and
// exclusions of those topics in term indices, with notes on the words
// missing from the vocabulary; what cannot be translated is an error.
func TestAnchorTerms(t *testing.T) {
	vocab := []string{"a", "b", "c", "d", "e"}
	anchors := []Anchor{
		{Topic: "two", Exclude: []string{"e", "yy"}},
		{Topic: "one", Words: []string{"a", "b"}, Beta: []float64{2, 0}},
		{Topic: "two", Words: []string{"d", "zz"}},
		{Topic: "lost", Words: []string{"xx"}},
	}
	names, seededNames, err := anchorTopicNames(KindNMF, anchors[1:], vocab, 4)
	if err != nil || !slices.Equal(names, []string{"one", "two", "lost", "topic-4"}) || !slices.Equal(seededNames, []string{"one", "two"}) {
		t.Fatalf("names %q, %q, %v", names, seededNames, err)
	}
	got, notes, err := anchorTerms(KindNMF, anchors, names, vocab)
	if err != nil {
		t.Fatal(err)
	}
	// The anchors of "two" are taken together, in the order its name
	// first appears.
	want := supervision.Terms{
		Seeds:   []supervision.Seed{{Topic: 1, Term: 3}, {Topic: 0, Term: 0, Strength: 2}, {Topic: 0, Term: 1}},
		Exclude: []supervision.Exclusion{{Topic: 1, Term: 4}},
	}
	if !slices.Equal(got.Seeds, want.Seeds) || !slices.Equal(got.Exclude, want.Exclude) {
		t.Errorf("terms %+v, want %+v", got, want)
	}
	wantNotes := []string{
		`topic "two": the seed words zz are not in the vocabulary`,
		`topic "two": the excluded words yy are not in the vocabulary`,
		`topic "lost": none of its seed words (xx) is in the vocabulary; it is not seeded`,
	}
	if !slices.Equal(notes, wantNotes) {
		t.Errorf("notes %q, want %q", notes, wantNotes)
	}
	if got := unseededNames(names, anchors, nil, vocab); got[2] != "lost"+unseededSuffix || got[1] != "two" {
		t.Errorf("unseeded names %q", got)
	}
	for _, c := range []struct {
		anchors []Anchor
		want    string
	}{
		{[]Anchor{{Topic: "nosuch", Words: []string{"a"}}}, "one, two, lost, topic-4"},
		{[]Anchor{{Topic: "one", Words: []string{"a"}}, {Topic: "one", Words: []string{"a"}}}, `topic "one" names "a" twice`},
		{[]Anchor{{Topic: "one", Words: []string{"a"}, Exclude: []string{"a"}}}, `topic "one" names "a" twice (as a seed or an exclusion word)`},
	} {
		if _, _, err := anchorTerms(KindNMF, c.anchors, names, vocab); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.anchors, err, c.want)
		}
	}
	if names, _, _ := anchorTopicNames(KindNMF, []Anchor{{Topic: "topic-3", Exclude: []string{"x"}}}, vocab, 4); !slices.Equal(names, []string{"topic-3", "topic-2", "topic-5", "topic-4"}) {
		t.Errorf("names %q", names)
	}
	if _, _, err := anchorTopicNames(KindNMF, anchors[1:3], vocab, 1); err == nil {
		t.Error("two anchored topics for k = 1: no error")
	}
	if names, seeded, err := anchorNames(anchors, vocab); err != nil || !slices.Equal(names, []string{"two", "one", "lost"}) || seeded != 2 {
		t.Errorf("anchor names %q (%d seeded), %v", names, seeded, err)
	}
}

// demoSeeds returns seed anchors of three demo themes, from the demo's own
// anchor words.
func demoSeeds(t *testing.T) ([]Anchor, *demo.Demo) {
	t.Helper()
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	var out []Anchor
	for _, name := range []string{"space", "cooking", "finance"} {
		out = append(out, Anchor{Topic: name, Words: d.Anchors()[name][:3]})
	}
	return out, d
}

// On the demo corpus a seeded nmf model's seeded topics carry the seed
// words among their top 10 and its names, and it predicts the seeded
// names for the test documents of those themes; tsnmf and ssnmf with
// labels and seeds keep the seeds in their topics.
func TestSeedWordsDemo(t *testing.T) {
	seeds, d := demoSeeds(t)
	for _, o := range []Options{
		{Kind: KindNMF, K: 8, Seed: 1},
		{Kind: KindNMF, K: 8, Seed: 1, Loss: "kl"},
		{Kind: KindTSNMF, Seed: 1},
		{Kind: KindSSNMF, Seed: 1, MaxIter: 60},
	} {
		o.Supervision.Anchors = seeds
		if o.Kind == KindTSNMF {
			// A seed topic named like no label: one more supervised
			// topic, after the labels.
			o.Supervision.Anchors = append(slices.Clone(seeds), Anchor{Topic: "extra", Words: []string{"goal", "striker"}})
		}
		f := fitDemo(t, o, o.Kind != KindNMF)
		topics := mustTopics(t, f.Model, 10)
		for _, a := range seeds {
			i := slices.IndexFunc(topics, func(tp Topic) bool { return tp.Name == a.Topic })
			if i < 0 {
				t.Fatalf("%s %s: no topic named %q", o.Kind, o.Loss, a.Topic)
			}
			for _, w := range a.Words {
				if !slices.ContainsFunc(topics[i].Words, func(tw Word) bool { return tw.Word == w }) {
					t.Errorf("%s %s: seed word %q not among topic %q's top 10 %v", o.Kind, o.Loss, w, a.Topic, topics[i].Words)
				}
			}
		}
		if o.Kind == KindTSNMF {
			labels := f.Model.(*NMF).LabelNames
			if labels[len(labels)-1] != "extra" || len(topics) != len(labels) {
				t.Errorf("tsnmf: labels %q, %d topics", labels, len(topics))
			}
			if w := topics[len(labels)-1].Words; !slices.ContainsFunc(w, func(tw Word) bool { return tw.Word == "striker" }) {
				t.Errorf("tsnmf: the extra seeded topic's words %v", w)
			}
		}
		if o.Kind != KindNMF {
			continue
		}
		p, ok := AsPredictor(f.Model)
		if !ok || !slices.Equal(p.Labels(), []string{"space", "cooking", "finance"}) {
			t.Fatalf("%s: a seeded model predicts %v", o.Loss, p)
		}
		var test []corpus.Document
		var truth []string
		for i, doc := range d.Corpus.Docs {
			if doc.Split == corpus.SplitTest && len(d.Truth[i]) == 1 && slices.Contains(p.Labels(), d.Truth[i][0]) {
				test = append(test, doc)
				truth = append(truth, d.Truth[i][0])
			}
		}
		xt, err := f.Vectorize(context.Background(), test)
		if err != nil {
			t.Fatal(err)
		}
		pred, err := p.Predict(context.Background(), xt.X)
		if err != nil {
			t.Fatal(err)
		}
		hits := 0
		for i, l := range pred.Labels {
			if len(l) == 1 && l[0] == truth[i] {
				hits++
			}
		}
		if acc := float64(hits) / float64(len(test)); len(test) < 10 || acc < 0.9 {
			t.Errorf("%s: predicted the seeded theme of %d of %d test documents, want ≥ 90%%", o.Loss, hits, len(test))
		}
	}
}

// Exclusion words reach ssnmf topics (named by the anchors) and theme
// subtopics exactly; seed words in theme models and out of core, and
// unknown names, are errors that say why.
func TestExclusionsSSNMFTheme(t *testing.T) {
	o := Options{Kind: KindSSNMF, Seed: 1, MaxIter: 40}
	plain := fitDemo(t, o, true)
	word := mustTopics(t, plain.Model, 3)[0].Words[0].Word
	o.Supervision.Anchors = []Anchor{{Topic: "first", Exclude: []string{word}}}
	excl := fitDemo(t, o, true)
	sm := excl.Model.(*SSNMF)
	j := slices.Index(excl.Vocab, word)
	if tp := mustTopics(t, sm, 1)[0]; tp.Name != "first" || j < 0 || sm.r.H.At(0, j) != 0 {
		t.Errorf("ssnmf: topic 0 %q weighs the excluded %q (column %d) %v", tp.Name, word, j, sm.r.H.At(0, max(j, 0)))
	}

	to := Options{Kind: KindTheme, Seed: 1, MaxIter: 40}
	tplain := fitDemo(t, to, true)
	themeName := tplain.Model.(*Theme).m.Themes[0]
	// The theme's first subtopic's top word.
	p0 := tplain.Model.(*Theme).m.Parts[0]
	top := 0
	for c := range tplain.Vocab {
		if p0.H.At(0, c) > p0.H.At(0, top) {
			top = c
		}
	}
	tword := tplain.Vocab[top]
	to.Supervision.Anchors = []Anchor{{Topic: themeName, Exclude: []string{tword, "nosuchword"}}}
	texcl := fitDemo(t, to, true)
	tm := texcl.Model.(*Theme).m
	tj := slices.Index(texcl.Vocab, tword)
	for _, p := range tm.Parts {
		for c, tp := range p.Topics {
			if tp.Theme == 0 && p.H.At(c, tj) != 0 {
				t.Errorf("theme %q: subtopic %+v weighs the excluded %q %v", themeName, tp, tword, p.H.At(c, tj))
			}
		}
	}
	if !strings.Contains(strings.Join(texcl.Info.Notes, "|"), "nosuchword") {
		t.Errorf("theme: no note on the missing excluded word: %q", texcl.Info.Notes)
	}

	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Kind: KindTheme, Supervision: Supervision{Anchors: []Anchor{{Topic: themeName, Words: []string{"x"}}}}}, "not seed words"},
		{Options{Kind: KindTheme, Supervision: Supervision{Anchors: []Anchor{{Topic: "nosuch", Exclude: []string{"x"}}}}}, "themes are"},
		{Options{Kind: KindSSNMF, Supervision: Supervision{Anchors: []Anchor{{Topic: "a", Words: []string{"rocket"}}, {Topic: "b", Exclude: []string{"x"}}}}, K: 1}, "more than"},
		{Options{Kind: KindNMF, K: 3, Beta: 2}, "beta"},
	} {
		c.o.LabelsFromCorpus = c.o.Kind != KindNMF
		_, err := fitCorpus(t.Context(), demoCorpus(t), vectorize.DefaultPipeline(), c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want an error saying %q", c.o.Kind, c.o.Anchors, err, c.want)
		}
	}
}

// Out of core, seed words are refused with the reason; exclusion words
// still reach the topics.
func TestSeedWordsOutOfCore(t *testing.T) {
	dir := t.TempDir()
	vocab := []string{"a", "b", "c", "d"}
	w, err := shard.Create(dir+"/corpus", len(vocab), shard.Options{Vocab: vocab, RowsPerShard: 3, Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]float64{{3, 1, 0, 0}, {2, 2, 0, 1}, {0, 0, 4, 1}, {0, 1, 3, 2}, {1, 0, 0, 5}, {0, 2, 1, 4}}
	for i, r := range rows {
		var cols []int32
		var vals []float64
		for j, v := range r {
			if v != 0 {
				cols, vals = append(cols, int32(j)), append(vals, v)
			}
		}
		if err := w.Add(cols, vals, []string{[]string{"x", "y"}[i%2]}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	src, err := shard.OpenSource(dir + "/corpus")
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []Options{{Kind: KindNMF, K: 2}, {Kind: KindTSNMF, LabelsFromCorpus: true}} {
		o.MaxIter = 5
		o.Supervision.Anchors = []Anchor{{Topic: "x", Words: []string{"a"}}}
		if _, err := fitOutOfCore(t.Context(), src, t.TempDir(), o); err == nil || !strings.Contains(err.Error(), "not seed words") {
			t.Errorf("%s out of core with seed words: %v", o.Kind, err)
		}
		o.Supervision.Anchors = []Anchor{{Topic: "x", Exclude: []string{"a"}}}
		if o.Kind == KindNMF {
			o.Supervision.Anchors[0].Topic = "topic-1"
		}
		f, err := fitOutOfCore(t.Context(), src, t.TempDir(), o)
		if err != nil {
			t.Fatalf("%s out of core with exclusion words: %v", o.Kind, err)
		}
		if v := f.Model.(*NMF).H.At(0, 0); v != 0 {
			t.Errorf("%s out of core: the excluded word weighs %v", o.Kind, v)
		}
	}
}

// The automatic configuration of a kind that takes seed words passes them
// to every fold's fit and the final one; choosing the kind refuses them.
func TestSeedWordsAuto(t *testing.T) {
	seeds, _ := demoSeeds(t)
	o := Options{Kind: KindTSNMF, Seed: 1, Auto: true, MaxIter: 40, Supervision: Supervision{Anchors: seeds}}
	f := fitDemo(t, o, true)
	if f.Info.Search == nil || f.Info.Search.Fits < 2 {
		t.Fatalf("no cross-validated search: %+v", f.Info.Search)
	}
	if !strings.Contains(strings.Join(f.Info.Notes, "|"), "guided NMF") {
		t.Errorf("the final fit has no seed words: %q", f.Info.Notes)
	}
	o.Kind = KindAuto
	o.LabelsFromCorpus = true
	if _, err := Fit(t.Context(), Text(demoCorpus(t), nil), o); err == nil || !strings.Contains(err.Error(), "choose tsnmf or ssnmf") {
		t.Errorf("kind auto with seed words: %v", err)
	}
}

// TestSeedRankDemo checks that SeedRank puts a seed word the documents
// of its topic hardly use among the topic's top words, in nmf and tsnmf,
// where the seed's pseudo-document alone leaves it out.
func TestSeedRankDemo(t *testing.T) {
	seeds, d := demoSeeds(t)
	// "week" in the space topic: a filler word of every theme.
	seeds[0].Words = append(seeds[0].Words, "week")
	for _, kind := range []string{KindNMF, KindTSNMF} {
		rank := func(seedRank int) int {
			f, err := fitCorpus(t.Context(), d.Corpus, vectorize.Pipeline{}, Options{Kind: kind, K: 8, Seed: 1, SeedRank: seedRank,
				Supervision: Supervision{Anchors: seeds}})
			if err != nil {
				t.Fatal(err)
			}
			ts, err := f.Model.Topics(0)
			if err != nil {
				t.Fatal(err)
			}
			for _, tp := range ts {
				if tp.Name != "space" {
					continue
				}
				for r, w := range tp.Words {
					if w.Word == "week" {
						return r + 1
					}
				}
				return math.MaxInt
			}
			t.Fatalf("%s: no space topic", kind)
			return 0
		}
		// Four seed words held among the top 4.
		if r := rank(0); r <= 4 {
			t.Fatalf("%s: week ranks %d in space without SeedRank: the test shows nothing", kind, r)
		}
		if r := rank(4); r > 4 {
			t.Errorf("%s: week ranks %d in space with SeedRank 4", kind, r)
		}
	}
}
