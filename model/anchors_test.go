package model

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/vectorize"
)

func TestParseAnchors(t *testing.T) {
	src := "# comment\nspace: rocket, orbit:3 ,telescope, -nasa\n\ncooking: oven\nsport: -game, -ball\n"
	as, err := ParseAnchors("a.txt", strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	if len(as) != 3 || as[0].Topic != "space" || len(as[0].Words) != 3 || as[0].Words[1] != "orbit" || as[0].Beta[1] != 3 || as[0].Beta[0] != 0 ||
		!slices.Equal(as[0].Exclude, []string{"nasa"}) || len(as[2].Words) != 0 || !slices.Equal(as[2].Exclude, []string{"game", "ball"}) {
		t.Errorf("anchors %+v", as)
	}
	bad := map[string]string{
		"no colon":           "space rocket\n",
		"empty":              "# nothing\n",
		"bad strength":       "space: rocket:x\n",
		"zero beta":          "space: rocket:0\n",
		"twice":              "a: x\na: y\n",
		"no words":           "a: , ,\n",
		"bare minus":         "a: x, -\n",
		"excluded strength":  "a: x, -y:3\n",
		"seed and exclusion": "a: x, -x\n",
		"seed given twice":   "a: x, y, x\n",
	}
	for name, src := range bad {
		if _, err := ParseAnchors("a.txt", strings.NewReader(src)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), "a.txt") {
			t.Errorf("%s: error %v does not name the file", name, err)
		}
	}
}

// An excluded word is exactly absent from its topic, in nmf and tsnmf
// models, and the kinds that take no exclusion words say so.
func TestExclusionWords(t *testing.T) {
	for _, kind := range []string{KindTSNMF, KindNMF} {
		o := Options{Kind: kind, Seed: 1, Auto: false}
		if kind == KindNMF {
			o.K = 6
		}
		plain := fitDemo(t, o, kind == KindTSNMF)
		topics := mustTopics(t, plain.Model, 5)
		topic, word := topics[0].Name, topics[0].Words[0].Word
		o.Supervision.Anchors = []Anchor{{Topic: topic, Exclude: []string{word, "nosuchword"}}}
		excl := fitDemo(t, o, kind == KindTSNMF)
		nm := excl.Model.(*NMF)
		j := slices.Index(excl.Vocab, word)
		if j < 0 || nm.TopicNames[0] != topic {
			t.Fatalf("%s: word %q at %d, topic %q", kind, word, j, nm.TopicNames[0])
		}
		if v := nm.H.At(0, j); v != 0 {
			t.Errorf("%s: the excluded %q weighs %v in topic %q", kind, word, v, topic)
		}
		for _, w := range mustTopics(t, excl.Model, 20)[0].Words {
			if w.Word == word {
				t.Errorf("%s: the excluded %q is among topic %q's words", kind, word, topic)
			}
		}
		if !strings.Contains(strings.Join(excl.Info.Notes, "|"), "nosuchword") {
			t.Errorf("%s: no note about the excluded word missing from the vocabulary: %q", kind, excl.Info.Notes)
		}
	}
	// CorEx: the excluded word leaves the topic's words. The control
	// excludes another word, so that its topics come in the same order.
	o := Options{Kind: KindCorEx, K: 6, Seed: 1, MaxIter: 30}
	vocab := fitDemo(t, o, false).Vocab
	o.Supervision.Anchors = []Anchor{{Topic: "first", Exclude: []string{vocab[len(vocab)-1]}}}
	control := fitDemo(t, o, false)
	word := mustTopics(t, control.Model, 3)[0].Words[0].Word
	o.Supervision.Anchors = []Anchor{{Topic: "first", Exclude: []string{word}}}
	excl := fitDemo(t, o, false)
	tp := mustTopics(t, excl.Model, 50)[0]
	if tp.Name != "first" {
		t.Errorf("corex topic 0 is %q, want the anchors file's name", tp.Name)
	}
	for _, w := range tp.Words {
		if w.Word == word {
			t.Errorf("corex: the excluded %q is among topic 0's words", word)
		}
	}
	// Unknown topics and kinds without exclusions are errors
	// that say what is taken.
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Kind: KindTSNMF, Supervision: Supervision{Anchors: []Anchor{{Topic: "nosuchlabel", Exclude: []string{"x"}}}}}, "topics are"},
		{Options{Kind: KindLDA, K: 3, SeedMode: SeedZLabels, Supervision: Supervision{Anchors: []Anchor{{Topic: "a", Exclude: []string{"y"}}}}}, "seed words"},
	} {
		c.o.LabelsFromCorpus = c.o.Kind == KindTSNMF
		_, err := fitCorpus(t.Context(), demoCorpus(t), vectorize.DefaultPipeline(), c.o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want an error saying %q", c.o.Kind, c.o.Anchors, err, c.want)
		}
	}
}

// A CorEx topic none of whose seed words is in the vocabulary says so in
// its name; one with some keeps its name.
func TestUnseededTopicName(t *testing.T) {
	o := Options{Kind: KindCorEx, K: 3, Seed: 1, MaxIter: 20, Supervision: Supervision{Anchors: []Anchor{
		{Topic: "lost", Words: []string{"nosuchword", "norme"}},
		{Topic: "kept", Words: []string{"nosuchword2", "database"}},
	}}}
	f := fitDemo(t, o, false)
	names := f.Model.(*CorEx).TopicNames
	// The topics with a known seed word come first (they are the labels).
	if names[0] != "kept" || names[1] != "lost (no seed word in the vocabulary)" {
		t.Errorf("topic names %q", names)
	}
	// The NMF family and LDA name them alike.
	for _, kind := range []string{KindNMF, KindTSNMF, KindSSNMF, KindLDA} {
		o.Kind, o.MaxIter = kind, 0
		topics := mustTopics(t, fitDemo(t, o, false).Model, 3)
		got := map[string]bool{}
		for _, tp := range topics {
			got[tp.Name] = true
		}
		if !got["lost (no seed word in the vocabulary)"] || !got["kept"] {
			t.Errorf("%s: topic names %v", kind, got)
		}
	}
}

// Seed and exclusion words are read as the pipeline reads the documents:
// "Rockets" meets the vocabulary's "rocket", a phrase needs n-grams, and
// a stopword is noted rather than silently lost.
func TestAnchorsReadByThePipeline(t *testing.T) {
	o := Options{Kind: KindCorEx, K: 8, Seed: 1, MaxIter: 30}
	o.Supervision.Anchors = []Anchor{
		{Topic: "space", Words: []string{"Rockets", "ORBIT", "rocket", "the"}, Beta: []float64{0, 4, 2, 0}},
		{Topic: "music", Words: []string{"guitar"}, Exclude: []string{"Rockets"}},
	}
	f := fitDemo(t, o, false)
	cx := f.Model.(*CorEx)
	notes := strings.Join(f.Info.Notes, "|")
	for _, want := range []string{`"Rockets" and "rocket" are both read as "rocket"`, `"the": the pipeline drops it`} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", f.Info.Notes, want)
		}
	}
	if strings.Contains(notes, `"Rockets"`) && strings.Contains(notes, "missing") {
		t.Errorf("a seed word the pipeline reads as a vocabulary term is reported missing: %q", f.Info.Notes)
	}
	got := map[string]float64{}
	for _, a := range cx.CorEx().Anchors {
		if a.Topic == 0 {
			got[a.Word] = a.Strength
		}
	}
	if got["rocket"] != 2 || got["orbit"] != 4 {
		t.Errorf("space's anchors %v, want rocket (strength 2, the larger given) and orbit (4)", got)
	}
	// A phrase without n-grams, and a seed and an exclusion read as one
	// term, are errors that say so.
	for _, c := range []struct {
		a    []Anchor
		want string
	}{
		{[]Anchor{{Topic: "space", Words: []string{"space station"}}}, `"space station": it is read as 2 words`},
		{[]Anchor{{Topic: "space", Words: []string{"rocket"}, Exclude: []string{"Rockets"}}}, "both read as"},
	} {
		o.Supervision.Anchors = c.a
		_, err := fitCorpus(t.Context(), demoCorpus(t), vectorize.DefaultPipeline(), o)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.a, err, c.want)
		}
	}
}

// A seed word's strength that is not a number from MinStrength to
// MaxStrength — NaN, ±Inf, 0, negative, 1e300 — is refused when the
// anchors file is read, naming the file, the line and the word, and
// when a Go caller passes it in Anchor.Beta, naming the topic and the
// word, for every kind that takes seed words; so is Options.Beta beyond
// the bounds. No error names a pseudo-document's row.
func TestAnchorStrengthBounds(t *testing.T) {
	for _, v := range []string{"NaN", "nan", "Inf", "-Inf", "1e400", "0", "-2", "1e300", "1e-300", "1e7", "x", ""} {
		src := "# strengths\nfinance: money, bank:" + v + ", loan\n"
		_, err := ParseAnchors("a.txt", strings.NewReader(src))
		if err == nil {
			t.Errorf("bank:%s: no error", v)
			continue
		}
		for _, want := range []string{"a.txt:2:", `"bank"`, "strength"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("bank:%s: error %q does not say %q", v, err, want)
			}
		}
	}
	for _, v := range []string{"1e-6", "1e6", "0.5", "3"} {
		if _, err := ParseAnchors("a.txt", strings.NewReader("finance: bank:"+v+"\n")); err != nil {
			t.Errorf("bank:%s: %v", v, err)
		}
	}
	if _, err := ParseAnchors("a.txt", strings.NewReader("finance: :3\n")); err == nil || !strings.Contains(err.Error(), "a.txt:1:") {
		t.Errorf("a strength without its word: %v", err)
	}

	x, _ := corpusMatrix([]string{"bank", "money", "game", "team"}, [][]float64{{2, 1, 0, 0}, {1, 2, 0, 0}, {0, 0, 2, 1}, {0, 0, 1, 2}, {1, 1, 1, 1}})
	vocab := []string{"bank", "money", "game", "team"}
	for _, kind := range []string{KindNMF, KindTSNMF, KindSSNMF, KindLDA, KindCorEx} {
		for _, b := range []float64{math.NaN(), math.Inf(1), -1, 1e300, 1e-300} {
			o := Options{Kind: kind, K: 2, Supervision: Supervision{Anchors: []Anchor{
				{Topic: "finance", Words: []string{"money", "bank"}, Beta: []float64{0, b}}, {Topic: "sport", Words: []string{"game"}}}}}
			_, _, err := fitMatrix(t.Context(), x, vocab, o)
			if err == nil {
				t.Errorf("%s: strength %v: no error", kind, b)
				continue
			}
			for _, want := range []string{`"finance"`, `"bank"`, "strength"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%s: strength %v: error %q does not say %q", kind, b, err, want)
				}
			}
			if strings.Contains(err.Error(), "row") {
				t.Errorf("%s: strength %v: error %q names a row", kind, b, err)
			}
		}
		o := Options{Kind: kind, K: 2, Beta: 1e300, Supervision: Supervision{Anchors: []Anchor{{Topic: "sport", Words: []string{"game"}}}}}
		if _, _, err := fitMatrix(t.Context(), x, vocab, o); err == nil || !strings.Contains(err.Error(), "beta") {
			t.Errorf("%s: Options.Beta 1e300: %v", kind, err)
		}
		// The bounds themselves fit.
		o.Beta = 0
		o.Anchors = []Anchor{{Topic: "finance", Words: []string{"money", "bank"}, Beta: []float64{MaxStrength, MinStrength}}}
		if _, _, err := fitMatrix(t.Context(), x, vocab, o); err != nil {
			t.Errorf("%s: strengths %g and %g: %v", kind, MaxStrength, MinStrength, err)
		}
	}
}

// Documents at the edge of the float64 range with a seed word of the
// least strength give its pseudo-document a weight that overflows: the
// error speaks of the topic's seed words, not of a pseudo-document's row.
func TestSeedWeightOverflow(t *testing.T) {
	rows := make([][]float64, 40)
	for i := range rows {
		rows[i] = []float64{1e150, 1e150, 1e150}
	}
	x, _ := corpusMatrix([]string{"a", "b", "c"}, rows)
	o := Options{Kind: KindNMF, K: 2, Supervision: Supervision{Anchors: []Anchor{{Topic: "one", Words: []string{"a"}, Beta: []float64{MinStrength}}}}}
	_, _, err := fitMatrix(t.Context(), x, []string{"a", "b", "c"}, o)
	if err == nil || strings.Contains(err.Error(), "row") || strings.Contains(err.Error(), "document 40") || !strings.Contains(err.Error(), `topic "one": its seed words`) {
		t.Errorf("err = %v, want one about topic one's seed words", err)
	}
}
