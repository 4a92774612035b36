package workbench

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
)

// TestSupervisedRound opens a session on the demo corpus's labels
// (tsnmf) and checks the accuracy estimate, the promise checks and the
// diff of an exclusion.
func TestSupervisedRound(t *testing.T) {
	c := demoCorpus(t, 240, true)
	s := open(t, Config{Corpus: c, LabelsFromCorpus: true})
	st := waitIdle(t, s)
	if st.Kind != model.KindTSNMF || st.K != 8 {
		t.Fatalf("kind %s, k %d: want tsnmf with one topic per label (8)", st.Kind, st.K)
	}
	if a := st.Accuracy; a.State != AccuracyDone || a.Mean < 60 || a.Folds != AccuracyFolds || !strings.Contains(a.Note, "cross-validated") {
		t.Errorf("accuracy %+v", a)
	}
	labeled := 0
	for _, d := range c.Docs {
		if len(d.Labels) > 0 {
			labeled++
		}
	}
	d0, err := s.Diff(0)
	if err != nil {
		t.Fatal(err)
	}
	if ch := d0.Checks; ch.Labeled != labeled || float64(ch.Agree) < 0.9*float64(labeled) || len(ch.Disagree) != ch.Labeled-ch.Agree {
		t.Errorf("label checks: %d of %d labeled documents agree (%d listed otherwise); %d are labeled", ch.Agree, ch.Labeled, len(ch.Disagree), labeled)
	}
	space := topicOf(t, s, "space")
	if space.Label != "space" || space.Words[0].Word == "" {
		t.Fatalf("topic space: %+v", space)
	}
	word := space.Words[0].Word
	apply(t, s, Edit{Op: OpAddExclude, Topic: "space", Word: word})
	for _, w := range topicOf(t, s, "space").Words {
		if w.Word == word {
			t.Errorf("the excluded word %q is still among the top words of space", word)
		}
	}
	d, err := s.Diff(0)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Checks.Excluded) != 1 || !d.Checks.Excluded[0].Zero || d.Checks.Excluded[0].Word != word || d.Checks.Excluded[0].Topic != "space" {
		t.Errorf("exclusion checks: %+v", d.Checks.Excluded)
	}
	if d.Round != 2 || d.Previous != 1 || len(d.Changes) != 1 || !strings.Contains(d.Changes[0], word) {
		t.Errorf("diff: round %d from %d, changes %q", d.Round, d.Previous, d.Changes)
	}
	i := slices.IndexFunc(d.Topics, func(td TopicDiff) bool { return td.Topic == "space" })
	if i < 0 || !slices.Contains(d.Topics[i].Left, word) || len(d.Topics[i].Entered) == 0 {
		t.Errorf("diff of space: %+v", d.Topics)
	}
	if d.Before.State != AccuracyDone || d.Before.Mean != st.Accuracy.Mean {
		t.Errorf("accuracy before: %+v, want round 1's %+v", d.Before, st.Accuracy)
	}
	waitIdle(t, s)
	if d, _ = s.Diff(2); d.After.State != AccuracyDone {
		t.Errorf("accuracy after: %+v", d.After)
	}
	// Documents that changed topic are listed by ID.
	for _, m := range d.Moves {
		if m.From == m.To || !strings.HasPrefix(m.ID, "demo-") {
			t.Errorf("move %+v", m)
		}
	}
	if d.Moved < len(d.Moves) {
		t.Errorf("%d moved, %d listed", d.Moved, len(d.Moves))
	}
	// The suggested documents are unlabeled, among the less sure of
	// their topics, and spread over the topics.
	sg := s.Suggest()
	if len(sg.Label) != SuggestDocs {
		t.Fatalf("%d documents suggested", len(sg.Label))
	}
	topics := map[string]bool{}
	state := s.State()
	for _, ds := range sg.Label {
		if len(state.Labels[ds.ID]) > 0 || !strings.Contains(ds.Reason, "unsure") || len(ds.Predicted) != 1 || ds.Text == "" {
			t.Errorf("suggestion %+v", ds)
		}
		topics[ds.Topic] = true
	}
	if len(topics) < 4 {
		t.Errorf("the suggestions come from %d topics: %+v", len(topics), sg.Label)
	}
	if again := s.Suggest().Label; !reflect.DeepEqual(again, sg.Label) {
		t.Errorf("a second Suggest proposes other documents: %+v", again)
	}
}

func TestSuggestions(t *testing.T) {
	// Two topics of space, as a split of one leaves them: here from a
	// cold fit, where the two halves stay alike (a refit after the split
	// starts from the split topic, and may give the second half to
	// documents no topic held).
	s := open(t, Config{Corpus: demoCorpus(t, 240, false), K: 6, Anchors: []model.Anchor{
		{Topic: "space", Words: []string{"rocket", "astronaut"}}, {Topic: "orbits", Words: []string{"orbit", "planet"}}}})
	sg := s.Suggest()
	if len(sg.Label) != SuggestDocs || !strings.Contains(sg.Label[0].Reason, "typical of topic") {
		t.Errorf("documents to label: %+v", sg.Label)
	}
	for k := 1; k < len(sg.Label); k++ {
		if sg.Label[k].Topic == sg.Label[k-1].Topic && sg.Label[k].Score > sg.Label[k-1].Score {
			t.Errorf("suggestions %d and %d of topic %q: the less mixed first", k-1, k, sg.Label[k].Topic)
		}
	}
	if len(sg.Separate) == 0 {
		t.Fatal("no look-alike topics")
	}
	// The two halves of the space topic look most alike.
	p := sg.Separate[0]
	if pair := []string{p.A, p.B}; !slices.Contains(pair, "space") || !slices.Contains(pair, "orbits") || p.Similarity < minSimilarity || len(p.WordsA) == 0 || len(p.WordsB) == 0 {
		t.Errorf("the look-alike pair: %+v (all: %+v)", p, sg.Separate)
	}
	for k := 1; k < len(sg.Separate); k++ {
		if sg.Separate[k].Similarity > sg.Separate[k-1].Similarity {
			t.Errorf("pairs not the most alike first: %+v", sg.Separate)
		}
	}
}

func TestJunk(t *testing.T) {
	c := demoCorpus(t, 240, false)
	// Three odd documents of their own words, which a topic takes.
	for i := 0; i < 3; i++ {
		c.Docs = append(c.Docs, corpus.Document{ID: fmt.Sprintf("odd-%d", i), Text: strings.Repeat("zebra quokka wombat ", 10+i)})
	}
	s := open(t, Config{Corpus: c, K: 12})
	odd := topicWith(t, s, "zebra")
	found := false
	for _, j := range s.Suggest().Junk {
		if j.Topic == odd {
			found = true
			if !strings.Contains(strings.Join(j.Reasons, " "), "documents") {
				t.Errorf("junk reasons of %q: %v", odd, j.Reasons)
			}
		}
	}
	if !found {
		t.Errorf("the topic of three odd documents (%q) is not junk: %+v", odd, s.Suggest().Junk)
	}
	if tv := topicOf(t, s, odd); len(tv.Junk) == 0 {
		t.Errorf("topic %q is junk for Suggest but not for Topics", odd)
	}
	for _, tv := range s.Topics(10) {
		if len(tv.Junk) > 0 && tv.Name != odd {
			t.Logf("junk: %s %v %v", tv.Name, tv.Words, tv.Junk)
		}
	}
}
