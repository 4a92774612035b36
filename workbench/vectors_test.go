package workbench

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
)

// A kind whose preset has another vocabulary takes the stopwords as far as
// its vocabulary holds them: the same term, the term it reads the word as,
// or none (the stopword is dropped, and the round says so).
func TestKindChangeCarriesStopwords(t *testing.T) {
	c := demoCorpus(t, 200, true)
	dir := t.TempDir()
	s := open(t, Config{Corpus: c, LabelsFromCorpus: true, Project: dir})
	if k := s.Status().Kind; k != model.KindTSNMF {
		t.Fatalf("kind %s, want tsnmf", k)
	}
	tsnmf := s.current().d
	ssnmf, _, err := s.vec.get(context.Background(), &State{Kind: model.KindSSNMF})
	if err != nil {
		t.Fatal(err)
	}
	// both: a term of both vocabularies; only: one of tsnmf's only.
	var both, only string
	for _, w := range tsnmf.vocab {
		_, in := ssnmf.col[w]
		if in && both == "" {
			both = w
		}
		if !in && only == "" {
			only = w
		}
	}
	if both == "" || only == "" {
		t.Fatalf("the demo corpus gives no terms to test with: both %q, only %q", both, only)
	}
	apply(t, s, Edit{Op: OpAddStopword, Word: both})
	apply(t, s, Edit{Op: OpAddStopword, Word: only})
	r := apply(t, s, Edit{Op: OpSetKind, Kind: model.KindSSNMF})
	st := s.Status()
	if st.Error != "" || r.Kind != model.KindSSNMF {
		t.Fatalf("set-kind ssnmf after stopwords: %+v", st)
	}
	if got := s.State().Stopwords; !slices.Equal(got, []string{both}) {
		t.Errorf("stopwords after set-kind ssnmf: %q, want [%q]", got, both)
	}
	dropped := fmt.Sprintf("stopword %q dropped: the vocabulary of kind ssnmf (preset ssnmf) does not hold it", only)
	if !slices.ContainsFunc(r.Changes, func(c string) bool { return strings.HasPrefix(c, dropped) }) {
		t.Errorf("the round's changes do not say %q: %q", dropped, r.Changes)
	}
	if _, in := s.current().d.col[both]; in {
		t.Errorf("%q is a stopword and still a term of the model's vocabulary", both)
	}
	// The round saved holds the stopwords carried over: it loads again.
	s.Close()
	s = reopen(t, Config{Corpus: c, Project: dir})
	if got := s.State().Stopwords; s.Status().Round != r.Number || !slices.Equal(got, []string{both}) {
		t.Errorf("resumed at round %d with stopwords %q, want round %d with [%q]", s.Status().Round, got, r.Number, both)
	}
}

// A stopword of lda's vocabulary ("rockets": lda's preset keeps words as
// they are) is the term nmf's preset reads it as ("rocket": noun lemmas).
func TestKindChangeReadsStopwords(t *testing.T) {
	c := &corpus.Corpus{Name: "rockets"}
	for i := range 40 {
		text := "the rockets reached orbit over the launch pad and the telescope watched the comet"
		if i%2 == 1 {
			text = "bake the bread in the oven with flour and butter and garlic for the recipe"
		}
		c.Docs = append(c.Docs, corpus.Document{ID: fmt.Sprintf("d%02d", i), Text: fmt.Sprintf("%s only%c%c", text, 'a'+i%26, 'a'+i/26)})
	}
	s := open(t, Config{Corpus: c, Kind: model.KindLDA, K: 2})
	apply(t, s, Edit{Op: OpAddStopword, Word: "rockets"})
	r := apply(t, s, Edit{Op: OpSetKind, Kind: model.KindNMF})
	if st := s.Status(); st.Error != "" || r.Kind != model.KindNMF {
		t.Fatalf("set-kind nmf after a stopword: %+v", st)
	}
	if got := s.State().Stopwords; !slices.Equal(got, []string{"rocket"}) {
		t.Errorf("stopwords after set-kind nmf: %q, want [rocket]", got)
	}
	now := `stopword "rockets" is now "rocket"`
	if !slices.ContainsFunc(r.Changes, func(c string) bool { return strings.HasPrefix(c, now) }) {
		t.Errorf("the round's changes do not say %q: %q", now, r.Changes)
	}
	if _, in := s.current().d.col["rocket"]; in {
		t.Error(`"rocket" is a stopword and still a term of the model's vocabulary`)
	}
	// Each document's own word ("onlyhb") is a term of nmf's vocabulary
	// (no minimum document frequency) but not of lda's (min_df 2); nor is
	// "rocket" (lda reads words as they are): back to lda, both stopwords
	// are dropped.
	apply(t, s, Edit{Op: OpAddStopword, Word: "onlyhb"})
	r = apply(t, s, Edit{Op: OpSetKind, Kind: model.KindLDA})
	if got := s.State().Stopwords; len(got) != 0 {
		t.Errorf("stopwords after set-kind lda: %q, want none", got)
	}
	for _, w := range []string{"onlyhb", "rocket"} {
		if !slices.ContainsFunc(r.Changes, func(c string) bool { return strings.HasPrefix(c, fmt.Sprintf("stopword %q dropped", w)) }) {
			t.Errorf("the round's changes do not say %q was dropped: %q", w, r.Changes)
		}
	}
}

// Between the stages a refit reports, the status's seconds keep counting;
// before a fit's first iteration its stage is "initialising".
func TestProgressStages(t *testing.T) {
	var mu sync.Mutex
	var stages []string
	var s *Session
	var late float64
	s = open(t, Config{Corpus: demoCorpus(t, 120, false), K: 4, Progress: func(st Status) {
		if st.Version != 1 || st.Progress == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if n := len(stages); n == 0 || stages[n-1] != st.Progress.Stage {
			stages = append(stages, st.Progress.Stage)
			if st.Progress.Stage == "initialising" {
				// The stage was set before this pause; the status read
				// after it counts the pause.
				time.Sleep(150 * time.Millisecond)
				late = s.Status().Progress.Seconds - st.Progress.Seconds
			}
		}
	}})
	apply(t, s, Edit{Op: OpAddSeed, Topic: "topic-1", Word: "rocket"})
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"vectorizing", "initialising", "fitting", "reading the topics"}; !slices.Equal(stages, want) {
		t.Errorf("stages %q, want %q", stages, want)
	}
	if late < 0.14 {
		t.Errorf("the status's seconds moved %.3f s in a pause of 0.15 s", late)
	}
}
