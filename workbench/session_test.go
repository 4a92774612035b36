package workbench

import (
	"context"
	"errors"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
)

// demoCorpus returns the demo corpus, n documents of it (all when n ≤ 0),
// without labels unless labeled.
func demoCorpus(t *testing.T, n int, labeled bool) *corpus.Corpus {
	t.Helper()
	d, err := demo.Generate(demo.Options{Docs: n})
	if err != nil {
		t.Fatal(err)
	}
	c := d.Corpus
	if !labeled {
		cc := *c
		cc.Docs = append([]corpus.Document(nil), c.Docs...)
		for i := range cc.Docs {
			cc.Docs[i].Labels = nil
		}
		c = &cc
	}
	return c
}

// open opens a session on c in a new folder, automatic refits off
// unless debounce > 0.
func open(t *testing.T, cfg Config) *Session {
	t.Helper()
	if cfg.Project == "" {
		cfg.Project = t.TempDir()
	}
	if cfg.Debounce == 0 {
		cfg.Debounce = -1
	}
	if cfg.MaxIter == 0 {
		cfg.MaxIter = 30
	}
	s, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// apply applies e at the current version and waits for its refit.
func apply(t *testing.T, s *Session, e Edit) RoundSummary {
	t.Helper()
	v, err := s.Apply(s.Status().Version, e)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refit(v); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := s.Wait(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// waitIdle waits until no refit and no accuracy estimate runs.
func waitIdle(t *testing.T, s *Session) Status {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if st := s.Status(); !st.Refitting && !st.Estimating {
			return st
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the session stays busy")
	return Status{}
}

// topicOf returns the topic named name.
func topicOf(t *testing.T, s *Session, name string) TopicView {
	t.Helper()
	for _, tv := range s.Topics(10) {
		if tv.Name == name {
			return tv
		}
	}
	t.Fatalf("no topic %q", name)
	return TopicView{}
}

// topicWith returns the name of the topic whose top 10 words hold word.
func topicWith(t *testing.T, s *Session, word string) string {
	t.Helper()
	for _, tv := range s.Topics(10) {
		for _, w := range tv.Words {
			if w.Word == word {
				return tv.Name
			}
		}
	}
	t.Fatalf("no topic has %q among its top 10 words", word)
	return ""
}

func TestOpenAndViews(t *testing.T) {
	c := demoCorpus(t, 240, false)
	var statuses []Status
	var mu sync.Mutex
	s := open(t, Config{Corpus: c, K: 6, Progress: func(st Status) {
		mu.Lock()
		statuses = append(statuses, st)
		mu.Unlock()
	}})
	st := s.Status()
	if st.Round != 1 || st.Version != 0 || st.Fitted != 0 || st.Kind != "nmf" || st.K != 6 || st.CanUndo || st.CanRedo {
		t.Fatalf("status after Open: %+v", st)
	}
	mu.Lock()
	stages := map[string]bool{}
	for _, x := range statuses {
		if x.Progress != nil {
			stages[x.Progress.Stage] = true
		}
	}
	mu.Unlock()
	for _, want := range []string{"vectorizing", "fitting", "reading the topics"} {
		if !stages[want] {
			t.Errorf("no progress of the stage %q reached Config.Progress (%v)", want, stages)
		}
	}
	topics := s.Topics(8)
	if len(topics) != 6 {
		t.Fatalf("%d topics, want 6", len(topics))
	}
	share := 0.0
	for _, tv := range topics {
		share += tv.Share
		if len(tv.Words) != 8 || tv.Coherence == nil {
			t.Errorf("topic %q: %d words, coherence %v", tv.Name, len(tv.Words), tv.Coherence)
		}
	}
	if math.Abs(share-1) > 1e-9 {
		t.Errorf("the shares sum to %v", share)
	}
	space := topicWith(t, s, "rocket")
	docs, err := s.TopicDocs(space, 5)
	if err != nil || len(docs) != 5 {
		t.Fatalf("TopicDocs: %d documents, %v", len(docs), err)
	}
	top := map[string]bool{}
	for _, w := range topicOf(t, s, space).Words {
		top[w.Word] = true
	}
	a := s.current().d.analyzer()
	for k, d := range docs {
		if d.Weight <= 0 || d.Weight > 1 || k > 0 && s.current().w.At(s.current().d.rowOf[s.ids[d.ID]], s.current().byName[space]) > s.current().w.At(s.current().d.rowOf[s.ids[docs[k-1].ID]], s.current().byName[space]) {
			t.Errorf("document %s: weight %v, or not in order of the topic's weight", d.ID, d.Weight)
		}
		if len(d.Highlights) == 0 {
			t.Errorf("document %s of the space topic highlights nothing: %q", d.ID, d.Text)
		}
		// Each highlight is a word of the text that the pipeline reads as
		// one of the topic's top words.
		for _, h := range d.Highlights {
			if toks := a.Tokens(d.Text[h.Start:h.End]); h.Topic != space || !top[h.Term] || len(toks) != 1 || toks[0] != h.Term {
				t.Errorf("document %s: highlight %q read as %q, given as %q of topic %q", d.ID, d.Text[h.Start:h.End], toks, h.Term, h.Topic)
			}
		}
	}
	// Search reads the query as the pipeline does: "Rockets" is "rocket".
	hits, err := s.Search("Rockets", 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, d := range c.Docs {
		if strings.Contains(strings.ToLower(d.Text), "rocket") {
			want++
		}
	}
	if len(hits) != want || want == 0 {
		t.Errorf("search Rockets: %d documents, %d hold rocket", len(hits), want)
	}
	if _, err := s.Search("zzzqqq", 10); err == nil || !strings.Contains(err.Error(), `"zzzqqq"`) {
		t.Errorf("search of a word not in the vocabulary: %v", err)
	}
	doc, err := s.Document(hits[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, m := range doc.Mixture {
		sum += m.Weight
	}
	if math.Abs(sum-1) > 1e-9 || doc.Text != c.Docs[slices.IndexFunc(c.Docs, func(d corpus.Document) bool { return d.ID == doc.ID })].Text || len(doc.Highlights) == 0 {
		t.Errorf("document %s: mixture sums to %v, %d highlights", doc.ID, sum, len(doc.Highlights))
	}
	if _, err := s.Document("nope"); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("unknown document: %v", err)
	}
	vocab := s.Vocabulary("rock", 10)
	if len(vocab) == 0 || vocab[0].Term != "rocket" || vocab[0].DF != want || len(vocab[0].Topics) == 0 {
		t.Errorf("vocabulary rock: %+v (rocket is in %d documents)", vocab, want)
	}
	if rs := s.Rounds(); len(rs) != 1 || !rs[0].Current || rs[0].Number != 1 {
		t.Errorf("rounds: %+v", rs)
	}
}

func TestConflict(t *testing.T) {
	s := open(t, Config{Corpus: demoCorpus(t, 120, false), K: 4})
	v, err := s.Apply(0, Edit{Op: OpCreateTopic, Name: "space", Words: []string{"rocket"}})
	if err != nil || v != 1 {
		t.Fatalf("Apply: %d, %v", v, err)
	}
	if _, err := s.Apply(1, Edit{Op: OpAddStopword, Word: "people"}); err != nil {
		t.Fatal(err)
	}
	// A second tab still at version 0.
	for _, call := range []func() error{
		func() error { _, err := s.Apply(0, Edit{Op: OpSetK, K: 7}); return err },
		func() error { _, err := s.Refit(0); return err },
		func() error { _, err := s.Undo(0); return err },
		func() error { _, err := s.Redo(0); return err },
	} {
		err := call()
		var ce *ConflictError
		if !errors.As(err, &ce) {
			t.Fatalf("stale base: %v, want a *ConflictError", err)
		}
		if ce.Base != 0 || ce.Current != 2 || len(ce.Missed) != 2 || !strings.Contains(ce.Missed[0], `topic "space" created`) || !strings.Contains(ce.Missed[1], `"people" is a stopword`) {
			t.Errorf("conflict: %+v", ce)
		}
	}
	if st := s.State(); st.K != 5 || len(st.Stopwords) != 1 {
		t.Errorf("the refused edits changed the state: %+v", st)
	}
}

func TestAutoRefitDebounce(t *testing.T) {
	s := open(t, Config{Corpus: demoCorpus(t, 120, false), K: 4, Debounce: 200 * time.Millisecond})
	// A burst of edits within the pause is one refit.
	v := 0
	var err error
	for _, w := range []string{"rocket", "orbit", "telescope"} {
		if v, err = s.Apply(v, Edit{Op: OpAddSeed, Topic: "topic-1", Word: w}); err != nil {
			t.Fatal(err)
		}
	}
	if st := s.Status(); !st.Refitting || st.Fitted != 0 {
		t.Errorf("status during the pause: %+v", st)
	}
	// The views answer from the current round meanwhile.
	if len(s.Topics(5)) != 4 {
		t.Error("no topics during the pause")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	r, err := s.Wait(ctx, v)
	if err != nil {
		t.Fatal(err)
	}
	if r.Version != 3 || r.Number != 2 || len(r.Changes) != 3 || len(s.Rounds()) != 2 {
		t.Errorf("one round for the burst: %+v, %d rounds", r, len(s.Rounds()))
	}
}

func TestNewerEditCancelsRefit(t *testing.T) {
	c := demoCorpus(t, 240, false)
	var s *Session
	var once sync.Once
	edited := make(chan int, 1)
	s = open(t, Config{Corpus: c, K: 5, MaxIter: 400, Progress: func(st Status) {
		// At the first fitting step of version 1's refit, a newer edit.
		if st.Version == 1 && st.Progress != nil && st.Progress.Stage == "fitting" && st.Progress.Iter >= 1 {
			once.Do(func() {
				v, err := s.Apply(1, Edit{Op: OpAddSeed, Topic: "topic-2", Word: "recipe"})
				if err != nil {
					t.Error(err)
				}
				edited <- v
			})
		}
	}})
	v, err := s.Apply(0, Edit{Op: OpAddSeed, Topic: "topic-1", Word: "rocket"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refit(v); err != nil {
		t.Fatal(err)
	}
	var v2 int
	select {
	case v2 = <-edited:
	case <-time.After(time.Minute):
		t.Fatal("the refit of version 1 reported no fitting step")
	}
	st := s.Status()
	if st.Version != 2 || st.Refitting || st.Fitted != 0 {
		t.Errorf("after the newer edit (automatic refits off): %+v", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := s.Wait(ctx, v2); err == nil || !strings.Contains(err.Error(), "no refit") {
		t.Errorf("Wait without a refit under way: %v", err)
	}
	if _, err := s.Refit(v2); err != nil {
		t.Fatal(err)
	}
	r, err := s.Wait(ctx, v2)
	if err != nil {
		t.Fatal(err)
	}
	if r.Number != 2 || r.Version != 2 || len(r.Changes) != 2 || len(s.Rounds()) != 2 {
		t.Errorf("the cancelled refit left a round: %+v; rounds %+v", r, s.Rounds())
	}
}

func TestUndoRedo(t *testing.T) {
	s := open(t, Config{Corpus: demoCorpus(t, 160, false), K: 4})
	before := s.Topics(10)
	apply(t, s, Edit{Op: OpAddSeed, Topic: "topic-1", Word: "rocket"})
	after := s.Topics(10)
	v := s.Status().Version
	st, err := s.Undo(v)
	if err != nil {
		t.Fatal(err)
	}
	if st.Round != 1 || st.Version != v+1 || st.Fitted != v+1 || !st.CanRedo || st.CanUndo || st.Refitting {
		t.Errorf("after undo: %+v", st)
	}
	if !reflect.DeepEqual(s.Topics(10), before) || len(s.State().Anchors) != 0 {
		t.Error("undo does not show round 1 again")
	}
	if _, err := s.Undo(st.Version); err == nil || !strings.Contains(err.Error(), "nothing to undo") {
		t.Errorf("undo past the first round: %v", err)
	}
	st, err = s.Redo(st.Version)
	if err != nil {
		t.Fatal(err)
	}
	if st.Round != 2 || st.CanRedo || !reflect.DeepEqual(s.Topics(10), after) || len(s.State().Anchors) != 1 {
		t.Errorf("after redo: %+v", st)
	}
	// An edit after an undo drops the redo.
	if st, err = s.Undo(st.Version); err != nil {
		t.Fatal(err)
	}
	r := apply(t, s, Edit{Op: OpSetK, K: 5})
	if r.Parent != 1 || r.Number != 3 || s.Status().CanRedo {
		t.Errorf("a new round after undo: %+v, %+v", r, s.Status())
	}
	if _, err := s.Redo(s.Status().Version); err == nil {
		t.Error("redo after a new round")
	}
	// Undo with changes not yet refitted drops them and stays.
	v, err = s.Apply(s.Status().Version, Edit{Op: OpSetK, K: 6})
	if err != nil {
		t.Fatal(err)
	}
	if st, err = s.Undo(v); err != nil {
		t.Fatal(err)
	}
	if st.Round != 3 || st.K != 5 || st.Fitted != st.Version {
		t.Errorf("undo of a change not yet refitted: %+v", st)
	}
	rs := s.Rounds()
	if len(rs) != 3 || !rs[2].Current || rs[1].Redo {
		t.Errorf("rounds: %+v", rs)
	}
}

func TestKindChangeAndFailedRefit(t *testing.T) {
	s := open(t, Config{Corpus: demoCorpus(t, 160, false), K: 4})
	r := apply(t, s, Edit{Op: OpSetKind, Kind: "lda"})
	if st := s.Status(); st.Kind != "lda" || r.Kind != "lda" || r.K != 4 || len(s.Topics(5)) != 4 {
		t.Errorf("after set-kind lda: %+v, round %+v", st, r)
	}
	// Theme models learn from labels: without any, the refit fails, says
	// why, and the round stays.
	v, err := s.Apply(s.Status().Version, Edit{Op: OpSetKind, Kind: "theme"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Refit(v); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err = s.Wait(ctx, v)
	st := s.Status()
	if err == nil || !strings.Contains(err.Error(), "refit of version 2 failed") || st.Error == "" || st.ErrorVersion != v || st.Round != 2 || st.Refitting {
		t.Fatalf("a failed refit: %v; status %+v", err, st)
	}
	if st, err = s.Undo(v); err != nil || st.Error != "" || st.Kind != "lda" {
		t.Errorf("undo after the failed refit: %+v, %v", st, err)
	}
}
