package workbench

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
)

// TestEdits applies each edit to a fresh session (no refit: edits are
// checked against the first round) and checks the state it leaves.
func TestEdits(t *testing.T) {
	c := demoCorpus(t, 120, false)
	base := Config{Corpus: c, K: 4, Anchors: []model.Anchor{{Topic: "space", Words: []string{"rocket", "orbit"}, Exclude: []string{"people"}}}}
	cases := []struct {
		name  string
		edits []Edit
		check func(t *testing.T, st State)
	}{
		{name: "add seed read as the pipeline reads it", edits: []Edit{{Op: OpAddSeed, Topic: "space", Word: "Telescopes", Strength: 3}},
			check: func(t *testing.T, st State) {
				want := model.Anchor{Topic: "space", Words: []string{"rocket", "orbit", "Telescopes"}, Beta: []float64{0, 0, 3}, Exclude: []string{"people"}}
				if !reflect.DeepEqual(st.Anchors, []model.Anchor{want}) {
					t.Errorf("anchors %+v", st.Anchors)
				}
			}},
		{name: "add seed to a free topic anchors it", edits: []Edit{{Op: OpAddSeed, Topic: "topic-2", Word: "recipe"}},
			check: func(t *testing.T, st State) {
				if len(st.Anchors) != 2 || st.Anchors[1].Topic != "topic-2" || !slices.Equal(st.Anchors[1].Words, []string{"recipe"}) || st.K != 4 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "change a seed's strength", edits: []Edit{{Op: OpAddSeed, Topic: "space", Word: "orbit", Strength: 0.5}},
			check: func(t *testing.T, st State) {
				if !reflect.DeepEqual(st.Anchors[0].Beta, []float64{0, 0.5}) {
					t.Errorf("strengths %v", st.Anchors[0].Beta)
				}
			}},
		{name: "remove seeds and exclusion drops the anchor", edits: []Edit{{Op: OpRemoveSeed, Topic: "space", Word: "rockets"}, {Op: OpRemoveSeed, Topic: "space", Word: "orbit"}, {Op: OpRemoveExclude, Topic: "space", Word: "people"}},
			check: func(t *testing.T, st State) {
				if len(st.Anchors) != 0 || st.K != 4 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "add exclusion", edits: []Edit{{Op: OpAddExclude, Topic: "space", Word: "year"}},
			check: func(t *testing.T, st State) {
				if !slices.Equal(st.Anchors[0].Exclude, []string{"people", "year"}) {
					t.Errorf("exclusions %v", st.Anchors[0].Exclude)
				}
			}},
		{name: "create topic", edits: []Edit{{Op: OpCreateTopic, Name: "cooking", Words: []string{"recipe", "Ovens"}}},
			check: func(t *testing.T, st State) {
				if len(st.Anchors) != 2 || st.Anchors[1].Topic != "cooking" || st.K != 5 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "rename anchored and free topics", edits: []Edit{{Op: OpRename, Topic: "space", Name: "astronomy"}, {Op: OpRename, Topic: "topic-2", Name: "misc"}},
			check: func(t *testing.T, st State) {
				if st.Anchors[0].Topic != "astronomy" || st.Names["topic-2"] != "misc" {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "merge an anchored and a free topic", edits: []Edit{{Op: OpMerge, Topic: "space", Other: "topic-2"}},
			check: func(t *testing.T, st State) {
				a := st.Anchors[0]
				if len(st.Anchors) != 1 || a.Topic != "space" || len(a.Words) != 2+mergeSeeds || st.K != 3 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "split", edits: []Edit{{Op: OpSplit, Topic: "space", Groups: [2][]string{{"rocket"}, {"telescope", "astronaut"}}}},
			check: func(t *testing.T, st State) {
				want := []model.Anchor{{Topic: "space", Words: []string{"rocket"}, Exclude: []string{"people"}}, {Topic: "space 2", Words: []string{"telescope", "astronaut"}}}
				if !reflect.DeepEqual(st.Anchors, want) || st.K != 5 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "delete topic", edits: []Edit{{Op: OpDeleteTopic, Topic: "space"}},
			check: func(t *testing.T, st State) {
				if len(st.Anchors) != 0 || st.K != 3 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "label switches nmf to tsnmf and grows k", edits: []Edit{
			{Op: OpLabel, Docs: []string{"demo-001", "demo-002"}, Label: "a"}, {Op: OpLabel, Docs: []string{"demo-003"}, Label: "b"},
			{Op: OpLabel, Docs: []string{"demo-004"}, Label: "c"}, {Op: OpLabel, Docs: []string{"demo-005"}, Label: "d"}},
			check: func(t *testing.T, st State) {
				if st.Kind != model.KindTSNMF || st.K != 5 || !reflect.DeepEqual(st.Labels["demo-001"], []string{"a"}) || len(st.Labels) != 5 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "unlabel", edits: []Edit{{Op: OpLabel, Docs: []string{"demo-001", "demo-002"}, Label: "a"}, {Op: OpUnlabel, Docs: []string{"demo-001"}}},
			check: func(t *testing.T, st State) {
				if len(st.Labels) != 1 || st.Labels["demo-002"] == nil {
					t.Errorf("labels %v", st.Labels)
				}
			}},
		{name: "rename a label's topic relabels its documents", edits: []Edit{{Op: OpLabel, Docs: []string{"demo-001"}, Label: "a"}, {Op: OpRename, Topic: "a", Name: "b"}},
			check: func(t *testing.T, st State) {
				if !reflect.DeepEqual(st.Labels, map[string][]string{"demo-001": {"b"}}) {
					t.Errorf("labels %v", st.Labels)
				}
			}},
		{name: "stopword drops the exclusion", edits: []Edit{{Op: OpAddStopword, Word: "People"}},
			check: func(t *testing.T, st State) {
				if !slices.Equal(st.Stopwords, []string{"people"}) || len(st.Anchors[0].Exclude) != 0 {
					t.Errorf("state %+v", st)
				}
			}},
		{name: "stopword removed", edits: []Edit{{Op: OpAddStopword, Word: "year"}, {Op: OpRemoveStopword, Word: "year"}},
			check: func(t *testing.T, st State) {
				if len(st.Stopwords) != 0 {
					t.Errorf("stopwords %v", st.Stopwords)
				}
			}},
		{name: "remove and restore documents", edits: []Edit{{Op: OpRemoveDoc, Docs: []string{"demo-009", "demo-002"}}, {Op: OpRestoreDoc, Docs: []string{"demo-009"}}},
			check: func(t *testing.T, st State) {
				if !slices.Equal(st.Removed, []string{"demo-002"}) {
					t.Errorf("removed %v", st.Removed)
				}
			}},
		{name: "set k and kind", edits: []Edit{{Op: OpSetK, K: 7}, {Op: OpSetKind, Kind: "lda"}},
			check: func(t *testing.T, st State) {
				if st.K != 7 || st.Kind != "lda" {
					t.Errorf("state %+v", st)
				}
			}},
	}
	// One session: after each case, Undo drops its edits (none is
	// refitted), which the next case checks.
	s := open(t, base)
	initial := s.State()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v0 := s.Status().Version
			if !reflect.DeepEqual(s.State(), initial) {
				t.Fatalf("undo left the state %+v", s.State())
			}
			for _, e := range tc.edits {
				if _, err := s.Apply(s.Status().Version, e); err != nil {
					t.Fatal(err)
				}
			}
			if st := s.Status(); st.Version != v0+len(tc.edits) || st.Fitted != v0 || st.Round != 1 {
				t.Errorf("status %+v", st)
			}
			tc.check(t, s.State())
			if _, err := s.Undo(s.Status().Version); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestEditErrors checks that each refused edit says what it refuses,
// naming the topic, word or document, and leaves the state as it was.
func TestEditErrors(t *testing.T) {
	c := demoCorpus(t, 120, false)
	s := open(t, Config{Corpus: c, K: 4, Anchors: []model.Anchor{{Topic: "space", Words: []string{"rocket"}, Exclude: []string{"people"}}}})
	if _, err := s.Apply(0, Edit{Op: OpLabel, Docs: []string{"demo-001"}, Label: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(1, Edit{Op: OpRemoveDoc, Docs: []string{"demo-009"}}); err != nil {
		t.Fatal(err)
	}
	before := s.State()
	for _, tc := range []struct {
		e    Edit
		want []string
	}{
		{Edit{Op: "paint"}, []string{`op "paint"`, "unknown edit", "add-seed"}},
		{Edit{Op: OpAddSeed, Topic: "nope", Word: "rocket"}, []string{`no topic is named "nope"`, `"space"`}},
		{Edit{Op: OpAddSeed, Topic: "topic-2", Word: "zzzqqq"}, []string{`word "zzzqqq"`, "not in the vocabulary"}},
		{Edit{Op: OpAddSeed, Topic: "topic-2", Word: "the"}, []string{`word "the"`, "drops it"}},
		{Edit{Op: OpAddSeed, Topic: "topic-2", Word: "rockets"}, []string{`"rockets"`, `seed word of topic "space"`}},
		{Edit{Op: OpAddSeed, Topic: "space", Word: "rocket"}, []string{`"rocket"`, "already a seed word"}},
		{Edit{Op: OpAddSeed, Topic: "space", Word: "people"}, []string{`"people"`, "exclusion word"}},
		{Edit{Op: OpAddSeed, Topic: "space", Word: "orbit", Strength: 1e9}, []string{"strength 1e+09"}},
		{Edit{Op: OpAddSeed, Topic: "space", Word: "orbit,moon"}, []string{`"orbit,moon"`, "comma"}},
		{Edit{Op: OpRemoveSeed, Topic: "space", Word: "orbit"}, []string{`"orbit"`, `not a seed word of topic "space"`}},
		{Edit{Op: OpRemoveSeed, Topic: "topic-2", Word: "orbit"}, []string{`topic "topic-2" has no seed words`}},
		{Edit{Op: OpAddExclude, Topic: "space", Word: "rocket"}, []string{`"rocket"`, "seed word of topic"}},
		{Edit{Op: OpCreateTopic, Name: "space", Words: []string{"orbit"}}, []string{`"space"`, "already named"}},
		{Edit{Op: OpCreateTopic, Name: "a: b", Words: []string{"orbit"}}, []string{`"a: b"`, "colon"}},
		{Edit{Op: OpCreateTopic, Name: "moon"}, []string{"needs seed words"}},
		{Edit{Op: OpRename, Topic: "space", Name: "topic-2"}, []string{`"topic-2"`, "already named"}},
		{Edit{Op: OpMerge, Topic: "space", Other: "space"}, []string{`"space"`, "itself"}},
		{Edit{Op: OpMerge, Topic: "space", Other: "ghost"}, []string{`other: no topic is named "ghost"`}},
		{Edit{Op: OpSplit, Topic: "space", Groups: [2][]string{{"rocket"}}}, []string{"group 2 has no seed words"}},
		{Edit{Op: OpSplit, Topic: "space", Groups: [2][]string{{"rocket"}, {"rocket"}}}, []string{`"rocket" is given twice`}},
		{Edit{Op: OpDeleteTopic, Topic: "ghost"}, []string{`"ghost"`}},
		{Edit{Op: OpLabel, Docs: []string{"demo-999"}, Label: "a"}, []string{`no document has the ID "demo-999"`}},
		{Edit{Op: OpLabel, Docs: []string{"demo-009"}, Label: "a"}, []string{`"demo-009"`, "removed"}},
		{Edit{Op: OpLabel, Docs: []string{"demo-002"}}, []string{"no label given"}},
		{Edit{Op: OpUnlabel, Docs: []string{"demo-002"}}, []string{"no document given has a label"}},
		{Edit{Op: OpAddStopword, Word: "rocket"}, []string{`"rocket"`, `seed word of topic "space"`}},
		{Edit{Op: OpRemoveStopword, Word: "orbit"}, []string{`"orbit" is not a stopword`}},
		{Edit{Op: OpRemoveDoc, Docs: []string{"demo-009"}}, []string{`"demo-009" is already removed`}},
		{Edit{Op: OpRestoreDoc, Docs: []string{"demo-002"}}, []string{`"demo-002" is not removed`}},
		{Edit{Op: OpSetK, K: 1}, []string{"k 1", "name 2 topics"}},
		{Edit{Op: OpSetK, K: 5000}, []string{"k 5000", "120 documents"}},
		{Edit{Op: OpSetKind, Kind: "bert"}, []string{`kind "bert"`, "tsnmf"}},
		{Edit{Op: OpSetKind, Kind: "nmf"}, []string{"nmf learns no labels"}},
	} {
		_, err := s.Apply(s.Status().Version, tc.e)
		if err == nil {
			t.Errorf("%+v: no error", tc.e)
			continue
		}
		for _, w := range append(tc.want, tc.e.Op) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%+v: the error does not say %q: %v", tc.e, w, err)
			}
		}
	}
	if !reflect.DeepEqual(s.State(), before) || s.Status().Version != 2 {
		t.Errorf("refused edits changed the state: %+v", s.State())
	}
}

// TestLineage checks what a warm start will be given: for each topic of
// the state, the topics of the previous round it comes from.
func TestLineage(t *testing.T) {
	s := open(t, Config{Corpus: demoCorpus(t, 120, false), K: 5, Anchors: []model.Anchor{{Topic: "space", Words: []string{"rocket"}}}})
	r := s.current()
	idx := func(name string) int { return r.byName[name] }
	for _, e := range []Edit{
		{Op: OpRename, Topic: "topic-2", Name: "misc"},
		{Op: OpMerge, Topic: "space", Other: "topic-3"},
		{Op: OpSplit, Topic: "topic-4", Name: "other", Groups: [2][]string{{"recipe"}, {"oven"}}},
		{Op: OpCreateTopic, Name: "cooking", Words: []string{"bake"}},
		{Op: OpDeleteTopic, Topic: "topic-5"},
	} {
		if _, err := s.Apply(s.Status().Version, e); err != nil {
			t.Fatal(err)
		}
	}
	s.mu.Lock()
	spec := &fitSpec{prev: s.cur, lineage: s.lineage}
	s.mu.Unlock()
	want := map[string][]int{"misc": {idx("topic-2")}, "space": {idx("space"), idx("topic-3")}, "topic-4": {idx("topic-4")}, "other": {idx("topic-4")}}
	if got := spec.origins(); !reflect.DeepEqual(got, want) {
		t.Errorf("origins %v, want %v", got, want)
	}
}

// TestLabelWordless checks that labeling a document with no word of the
// vocabulary says that its label teaches nothing.
func TestLabelWordless(t *testing.T) {
	c := demoCorpus(t, 120, false)
	c.Docs = append(c.Docs, corpus.Document{ID: "blank", Text: "The, and of it."})
	s := open(t, Config{Corpus: c, K: 4})
	r := apply(t, s, Edit{Op: OpLabel, Docs: []string{"blank", "demo-001"}, Label: "a"})
	if !strings.Contains(strings.Join(r.Changes, "\n"), "1 of them hold no word of the vocabulary") {
		t.Errorf("changes: %q", r.Changes)
	}
	r = apply(t, s, Edit{Op: OpLabel, Docs: []string{"demo-002"}, Label: "a"})
	if strings.Contains(strings.Join(r.Changes, "\n"), "no word") {
		t.Errorf("changes: %q", r.Changes)
	}
}
