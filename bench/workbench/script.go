package main

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/semitopic/semitopic/workbench"
)

// planner chooses the topics, words and documents of the next edit from
// what the page shows: the current topics and the supervision.
type planner struct {
	ts []workbench.TopicView
	st stateAnswer
	// reserved topics are left alone (the later edits of the script need
	// them as they are); used ones were edited already.
	reserved map[string]bool
	used     map[string]bool
}

// topicWords is how many top words the script reads per topic.
const topicWords = 30

func newPlanner(ctx context.Context, s *served, ts topicsAnswer) (*planner, error) {
	p := &planner{ts: ts.Topics, reserved: map[string]bool{}, used: map[string]bool{}}
	return p, p.refresh(ctx, s, ts)
}

// refresh reads the supervision again and takes the topics ts.
func (p *planner) refresh(ctx context.Context, s *served, ts topicsAnswer) error {
	st, err := s.state(ctx)
	if err != nil {
		return err
	}
	p.ts, p.st = ts.Topics, st
	return nil
}

// pick returns the first topic with words that is neither reserved nor
// used (else the first not reserved), and marks it used.
func (p *planner) pick() (workbench.TopicView, error) {
	var fallback *workbench.TopicView
	for i := range p.ts {
		t := &p.ts[i]
		if t.Empty || len(t.Words) == 0 || p.reserved[t.Name] {
			continue
		}
		if !p.used[t.Name] {
			p.used[t.Name] = true
			return *t, nil
		}
		if fallback == nil {
			fallback = t
		}
	}
	if fallback == nil {
		return workbench.TopicView{}, errors.New("no topic left to edit")
	}
	return *fallback, nil
}

// topic returns the topic named name.
func (p *planner) topic(name string) (workbench.TopicView, bool) {
	for _, t := range p.ts {
		if t.Name == name {
			return t, true
		}
	}
	return workbench.TopicView{}, false
}

// free reports whether word can be given as a seed, exclusion or stop
// word: no topic has it as a seed or exclusion word and it is no
// stopword.
func (p *planner) free(word string) bool {
	if slices.Contains(p.st.Stopwords, word) {
		return false
	}
	for _, a := range p.st.Anchors {
		if slices.Contains(a.Exclude, word) {
			return false
		}
		for _, s := range a.Seeds {
			if s.Word == word {
				return false
			}
		}
	}
	return true
}

// words returns up to n free words of t ranked from lo to hi (from 1),
// best first, none of avoid.
func (p *planner) words(t workbench.TopicView, lo, hi, n int, avoid ...string) []string {
	var out []string
	for r := lo; r <= min(hi, len(t.Words)) && len(out) < n; r++ {
		w := t.Words[r-1].Word
		if p.free(w) && !slices.Contains(avoid, w) {
			out = append(out, w)
		}
	}
	return out
}

// anchorOf returns the topic whose seed (or, with exclude, exclusion)
// words hold word.
func (p *planner) anchorOf(word string, exclude bool) (string, bool) {
	for _, a := range p.st.Anchors {
		if exclude && slices.Contains(a.Exclude, word) {
			return a.Topic, true
		}
		for _, s := range a.Seeds {
			if !exclude && s.Word == word {
				return a.Topic, true
			}
		}
	}
	return "", false
}

// script replays the scripted edits, each timed: a seed word, an
// exclusion, labels (kinds that learn from them), a rename, a stopword, a
// removed document, a new topic, a split, a merge, a deletion, k + 1, then
// the undoing edits of the seed word, the exclusion, the stopword, the
// removed document and the labels.
func (kr *kindRun) script(ctx context.Context, s *served, cfg *config, ds *dataset, labeled map[string]bool) error {
	ts, err := s.topics(ctx, topicWords)
	if err != nil {
		return err
	}
	p, err := newPlanner(ctx, s, ts)
	if err != nil {
		return err
	}
	var seedWord, exclWord, stopword, removedDoc string
	var labeledDocs []string
	type step struct {
		op   string
		plan func() (workbench.Edit, error)
	}
	steps := []step{
		{workbench.OpAddSeed, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			p.reserved[t.Name] = true
			ws := p.words(t, 15, topicWords, 1)
			if len(ws) == 0 {
				return workbench.Edit{}, fmt.Errorf("topic %q has no free word ranked 15 to %d", t.Name, topicWords)
			}
			seedWord = ws[0]
			return workbench.Edit{Op: workbench.OpAddSeed, Topic: t.Name, Word: seedWord}, nil
		}},
		{workbench.OpAddExclude, func() (workbench.Edit, error) {
			name, ok := p.anchorOf(seedWord, false)
			if !ok {
				return workbench.Edit{}, fmt.Errorf("no topic has the seed word %q", seedWord)
			}
			t, ok := p.topic(name)
			if !ok {
				return workbench.Edit{}, fmt.Errorf("no topic %q", name)
			}
			ws := p.words(t, 1, 10, 1, seedWord)
			if len(ws) == 0 {
				return workbench.Edit{}, fmt.Errorf("topic %q has no free word in its top 10", name)
			}
			exclWord = ws[0]
			return workbench.Edit{Op: workbench.OpAddExclude, Topic: name, Word: exclWord}, nil
		}},
	}
	if takesLabels(kr.Kind) {
		steps = append(steps, step{workbench.OpLabel, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			docs, err := s.topicDocs(ctx, t.Name, 20)
			if err != nil {
				return workbench.Edit{}, err
			}
			// The documents of the class most of the unlabeled ones are,
			// labeled with it in one edit, as a person labels a selection.
			byClass := map[string][]string{}
			best := ""
			for _, d := range docs {
				if labeled[d.ID] {
					continue
				}
				c := ds.class[d.ID]
				byClass[c] = append(byClass[c], d.ID)
				if best == "" || len(byClass[c]) > len(byClass[best]) {
					best = c
				}
			}
			if best == "" {
				return workbench.Edit{}, fmt.Errorf("topic %q has no unlabeled document among its top 20", t.Name)
			}
			labeledDocs = byClass[best][:min(5, len(byClass[best]))]
			p.reserved[best] = true
			return workbench.Edit{Op: workbench.OpLabel, Docs: labeledDocs, Label: best}, nil
		}})
	}
	steps = append(steps,
		step{workbench.OpRename, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			return workbench.Edit{Op: workbench.OpRename, Topic: t.Name, Name: t.Name + " (renamed)"}, nil
		}},
		step{workbench.OpAddStopword, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			ws := p.words(t, 1, 5, 1)
			if len(ws) == 0 {
				return workbench.Edit{}, fmt.Errorf("topic %q has no free word in its top 5", t.Name)
			}
			stopword = ws[0]
			return workbench.Edit{Op: workbench.OpAddStopword, Word: stopword}, nil
		}},
		step{workbench.OpRemoveDoc, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			docs, err := s.topicDocs(ctx, t.Name, 5)
			if err != nil {
				return workbench.Edit{}, err
			}
			for _, d := range docs {
				if !labeled[d.ID] && !slices.Contains(labeledDocs, d.ID) {
					removedDoc = d.ID
					return workbench.Edit{Op: workbench.OpRemoveDoc, Docs: []string{d.ID}}, nil
				}
			}
			return workbench.Edit{}, fmt.Errorf("topic %q has no unlabeled document among its top 5", t.Name)
		}},
		step{workbench.OpCreateTopic, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			ws := p.words(t, 11, topicWords, 3)
			if len(ws) < 3 {
				return workbench.Edit{}, fmt.Errorf("topic %q has %d free words ranked 11 to %d, want 3", t.Name, len(ws), topicWords)
			}
			p.reserved["new topic"] = true
			return workbench.Edit{Op: workbench.OpCreateTopic, Name: "new topic", Words: ws}, nil
		}},
		step{workbench.OpSplit, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			ws := p.words(t, 1, 10, 4)
			if len(ws) < 4 {
				return workbench.Edit{}, fmt.Errorf("topic %q has %d free words in its top 10, want 4", t.Name, len(ws))
			}
			return workbench.Edit{Op: workbench.OpSplit, Topic: t.Name, Name: t.Name + " (second half)", Groups: [2][]string{ws[:2], ws[2:]}}, nil
		}},
		step{workbench.OpMerge, func() (workbench.Edit, error) {
			a, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			b, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			if a.Name == b.Name {
				return workbench.Edit{}, errors.New("one topic left to merge")
			}
			return workbench.Edit{Op: workbench.OpMerge, Topic: a.Name, Other: b.Name}, nil
		}},
		step{workbench.OpDeleteTopic, func() (workbench.Edit, error) {
			t, err := p.pick()
			if err != nil {
				return workbench.Edit{}, err
			}
			return workbench.Edit{Op: workbench.OpDeleteTopic, Topic: t.Name}, nil
		}},
		step{workbench.OpSetK, func() (workbench.Edit, error) {
			return workbench.Edit{Op: workbench.OpSetK, K: p.st.K + 1}, nil
		}},
		step{workbench.OpRemoveSeed, func() (workbench.Edit, error) {
			name, ok := p.anchorOf(seedWord, false)
			if !ok {
				return workbench.Edit{}, fmt.Errorf("no topic has the seed word %q", seedWord)
			}
			return workbench.Edit{Op: workbench.OpRemoveSeed, Topic: name, Word: seedWord}, nil
		}},
		step{workbench.OpRemoveExclude, func() (workbench.Edit, error) {
			name, ok := p.anchorOf(exclWord, true)
			if !ok {
				return workbench.Edit{}, fmt.Errorf("no topic has the exclusion word %q", exclWord)
			}
			return workbench.Edit{Op: workbench.OpRemoveExclude, Topic: name, Word: exclWord}, nil
		}},
		step{workbench.OpRemoveStopword, func() (workbench.Edit, error) {
			if stopword == "" {
				return workbench.Edit{}, errors.New("no stopword was added")
			}
			return workbench.Edit{Op: workbench.OpRemoveStopword, Word: stopword}, nil
		}},
		step{workbench.OpRestoreDoc, func() (workbench.Edit, error) {
			if removedDoc == "" {
				return workbench.Edit{}, errors.New("no document was removed")
			}
			return workbench.Edit{Op: workbench.OpRestoreDoc, Docs: []string{removedDoc}}, nil
		}},
	)
	if takesLabels(kr.Kind) {
		steps = append(steps, step{workbench.OpUnlabel, func() (workbench.Edit, error) {
			if len(labeledDocs) == 0 {
				return workbench.Edit{}, errors.New("no document was labeled")
			}
			return workbench.Edit{Op: workbench.OpUnlabel, Docs: labeledDocs}, nil
		}})
	}
	for _, st := range steps {
		e, err := st.plan()
		if err != nil {
			kr.Skipped = append(kr.Skipped, fmt.Sprintf("%s not planned: %v", st.op, err))
			continue
		}
		smp, ts, err := kr.timed(ctx, s, e, topicWords)
		if errors.Is(err, errRefused) {
			if ts, err = s.topics(ctx, topicWords); err != nil {
				return err
			}
		} else if err != nil {
			return fmt.Errorf("%s: %w", st.op, err)
		} else {
			kr.Script = append(kr.Script, smp)
			cfg.logf("%s: %s in %.2f s (refit %.2f s)", kr.Kind, st.op, smp.Seconds, smp.Refit)
		}
		if err := p.refresh(ctx, s, ts); err != nil {
			return err
		}
	}
	return nil
}
