package main

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/workbench"
)

// effects counts whether the random edits took effect, by the engine's
// own checks (the round's diff) and independently (the topics and
// documents endpoints).
type effects struct {
	// Seeds are the seed-word edits per source of the word.
	Seeds map[string]*seedCount
	// Excl counts the exclusion edits, ExclZero those whose word weighs
	// exactly 0 in its topic by the engine's check, ExclAbsent those
	// whose word is not among the topic's top maxWordsAPI words with a
	// weight above 0 (the most the API lists).
	Excl, ExclZero, ExclAbsent int
	// LabelEdits counts the label edits, LabelDocs their documents,
	// LabelAgree those the engine's check does not list as disagreeing,
	// LabelAgreeAPI those whose prediction /api/docs gives is their
	// label.
	LabelEdits, LabelDocs, LabelAgree, LabelAgreeAPI int
	// LabelUnknown counts the documents the engine's check cannot say
	// (its list of disagreements is full and does not name them).
	LabelUnknown int
	// LabelWordless counts the labeled documents that hold no word of the
	// vocabulary (/api/docs says so, as the page does): no model can
	// predict them, and they are not in LabelDocs.
	LabelWordless int
	// AllLabeled and AllAgree sum the engine's check over every labeled
	// document holding a word, of each round (the labels given first
	// included); AllWordless the labeled documents holding none.
	AllLabeled, AllAgree, AllWordless int
	// Misses describe the first edits that did not take effect.
	Misses []string
}

// seedCount counts seed-word edits of one source.
type seedCount struct {
	// N counts the edits, Top10 those whose word is in its topic's top 10
	// by the engine's check, Top10API by /api/topics; Ranks are the
	// engine's ranks (0: not among the top workbench.MaxWords words).
	N, Top10, Top10API int
	Ranks              []int
}

// The sources of a random seed word.
const (
	// sourceRelated is a word of the topic ranked 11 to 100: one the
	// topic already leans to, which the person promotes.
	sourceRelated = "ranked 11–100 in its topic"
	// sourceFrequent is one of the 1,000 most frequent vocabulary terms
	// not in the topic's top 10.
	sourceFrequent = "one of the 1,000 most frequent terms"
)

// seedSources lists the sources in the report's order.
var seedSources = []string{sourceRelated, sourceFrequent}

// maxWordsAPI is the most words per topic /api/topics lists.
const maxWordsAPI = 1000

// maxMisses bounds the misses a kind records.
const maxMisses = 8

// randomEdits applies cfg.edits random edits, each refitted, checked and
// undone (Undo goes back to the round before it without refitting), so
// that every edit starts from the same round: a seed word (half of the
// edits; one of the topic's words ranked 11–100 or one of the most
// frequent terms), an exclusion (a word of the topic's top 10) and, for
// kinds that learn from labels, 1 to 3 training documents of one class
// labeled with it.
func (kr *kindRun) randomEdits(ctx context.Context, s *served, cfg *config, ds *dataset, labeled map[string]bool) error {
	kr.Effects.Seeds = map[string]*seedCount{}
	for _, src := range seedSources {
		kr.Effects.Seeds[src] = &seedCount{}
	}
	base, err := s.topics(ctx, 100)
	if err != nil {
		return err
	}
	p, err := newPlanner(ctx, s, base)
	if err != nil {
		return err
	}
	var topics []workbench.TopicView
	for _, t := range base.Topics {
		if !t.Empty && len(t.Words) >= 10 {
			topics = append(topics, t)
		}
	}
	if len(topics) == 0 {
		return errors.New("no topic with 10 words to edit")
	}
	terms, err := s.vocab(ctx, 1000)
	if err != nil {
		return err
	}
	for i := range cfg.edits {
		r := rng.New(cfg.seed, uint64(i), editSalt)
		t := topics[r.Intn(len(topics))]
		u := r.Float64()
		var e workbench.Edit
		src := ""
		switch {
		case u < 0.5:
			e = workbench.Edit{Op: workbench.OpAddSeed, Topic: t.Name}
			var cands []string
			if r.Float64() < 0.5 {
				src = sourceRelated
				cands = p.words(t, 11, 100, 100)
			} else {
				src = sourceFrequent
				top := topTerms(t, 10)
				for _, tv := range terms {
					if p.free(tv.Term) && !slices.Contains(top, tv.Term) {
						cands = append(cands, tv.Term)
					}
				}
			}
			if len(cands) == 0 {
				kr.Skipped = append(kr.Skipped, fmt.Sprintf("random edit %d: no seed word %s for topic %q", i+1, src, t.Name))
				continue
			}
			e.Word = cands[r.Intn(len(cands))]
		case u < 0.75 || !takesLabels(kr.Kind):
			cands := p.words(t, 1, 10, 10)
			if len(cands) == 0 {
				kr.Skipped = append(kr.Skipped, fmt.Sprintf("random edit %d: no free word in the top 10 of %q", i+1, t.Name))
				continue
			}
			e = workbench.Edit{Op: workbench.OpAddExclude, Topic: t.Name, Word: cands[r.Intn(len(cands))]}
		default:
			c := ds.classes[r.Intn(len(ds.classes))]
			var free []string
			for _, id := range ds.byClass[c] {
				if !labeled[id] {
					free = append(free, id)
				}
			}
			free = shuffled(r, free)
			e = workbench.Edit{Op: workbench.OpLabel, Docs: free[:min(1+r.Intn(3), len(free))], Label: c}
			if len(e.Docs) == 0 {
				kr.Skipped = append(kr.Skipped, fmt.Sprintf("random edit %d: no unlabeled document of %q", i+1, c))
				continue
			}
		}
		smp, ts, err := kr.timed(ctx, s, e, 10)
		if errors.Is(err, errRefused) {
			// A refit that failed leaves the edit in the state: drop it.
			if st, err := s.status(ctx); err != nil {
				return err
			} else if st.Version > st.Fitted {
				if err := s.undo(ctx); err != nil {
					return fmt.Errorf("random edit %d (%s): undo: %w", i+1, e.Op, err)
				}
			}
			continue
		}
		if err != nil {
			return fmt.Errorf("random edit %d (%s): %w", i+1, e.Op, err)
		}
		kr.Random = append(kr.Random, smp)
		if err := kr.checkEdit(ctx, s, e, src, smp.Round, ts); err != nil {
			return fmt.Errorf("random edit %d (%s): %w", i+1, e.Op, err)
		}
		if err := s.undo(ctx); err != nil {
			return fmt.Errorf("random edit %d (%s): undo: %w", i+1, e.Op, err)
		}
		cfg.logf("%s: random edit %d/%d %s in %.2f s", kr.Kind, i+1, cfg.edits, e.Op, smp.Seconds)
	}
	return nil
}

// topTerms returns t's top n words.
func topTerms(t workbench.TopicView, n int) []string {
	var out []string
	for _, w := range t.Words[:min(n, len(t.Words))] {
		out = append(out, w.Word)
	}
	return out
}

// checkEdit checks edit e of round: by the round's promise checks and by
// the topics (ts: 10 words each) and documents endpoints.
func (kr *kindRun) checkEdit(ctx context.Context, s *served, e workbench.Edit, src string, round int, ts topicsAnswer) error {
	d, err := s.diff(ctx, round)
	if err != nil {
		return err
	}
	ef := &kr.Effects
	ef.AllLabeled += d.Checks.Labeled
	ef.AllAgree += d.Checks.Agree
	ef.AllWordless += d.Checks.Wordless
	miss := func(format string, args ...any) {
		if len(ef.Misses) < maxMisses {
			ef.Misses = append(ef.Misses, fmt.Sprintf(format, args...))
		}
	}
	switch e.Op {
	case workbench.OpAddSeed:
		sc := ef.Seeds[src]
		sc.N++
		rank, found := 0, false
		for _, c := range d.Checks.Seeds {
			if c.Topic == e.Topic && (c.Term == e.Word || c.Word == e.Word) {
				rank, found = c.Rank, true
				if c.Top10 {
					sc.Top10++
				}
			}
		}
		sc.Ranks = append(sc.Ranks, rank)
		inAPI := false
		if t, ok := topicNamed(ts, e.Topic); ok {
			inAPI = slices.Contains(topTerms(t, 10), e.Word)
		}
		if inAPI {
			sc.Top10API++
		}
		if !found || rank < 1 || rank > 10 || !inAPI {
			miss("seed word %q of %q (%s): rank %s by the engine's check, %s the top 10 of /api/topics", e.Word, e.Topic, src, rankText(rank, found), inOut(inAPI))
		}
	case workbench.OpAddExclude:
		ef.Excl++
		zero := false
		for _, c := range d.Checks.Excluded {
			if c.Topic == e.Topic && (c.Term == e.Word || c.Word == e.Word) {
				zero = c.Zero
			}
		}
		if zero {
			ef.ExclZero++
		}
		all, err := s.topics(ctx, maxWordsAPI)
		if err != nil {
			return err
		}
		absent := false
		if t, ok := topicNamed(all, e.Topic); ok {
			absent = true
			for _, w := range t.Words {
				if w.Word == e.Word && w.Weight > 0 {
					absent = false
				}
			}
		}
		if absent {
			ef.ExclAbsent++
		}
		if !zero || !absent {
			miss("exclusion %q of %q: weight zero by the engine's check %v, absent from the topic's %d top words %v", e.Word, e.Topic, zero, maxWordsAPI, absent)
		}
	case workbench.OpLabel:
		ef.LabelEdits++
		for _, id := range e.Docs {
			doc, err := s.document(ctx, id)
			if err != nil {
				return err
			}
			if doc.Wordless {
				ef.LabelWordless++
				continue
			}
			ef.LabelDocs++
			agree := d.Checks.Labeled > 0
			for _, m := range d.Checks.Disagree {
				if m.ID == id {
					agree = false
				}
			}
			if agree && len(d.Checks.Disagree) >= workbench.MaxMoves {
				// The check lists the first MaxMoves disagreements only:
				// a document not among them may be another.
				ef.LabelUnknown++
				agree = false
			} else if agree {
				ef.LabelAgree++
			}
			api := len(doc.Predicted) == 1 && doc.Predicted[0] == e.Label
			if api {
				ef.LabelAgreeAPI++
			}
			if !agree || !api {
				miss("document %s labeled %q: predicted %q (engine's check agrees: %v)", id, e.Label, doc.Predicted, agree)
			}
		}
	}
	return nil
}

// topicNamed returns the topic named name.
func topicNamed(ts topicsAnswer, name string) (workbench.TopicView, bool) {
	for _, t := range ts.Topics {
		if t.Name == name {
			return t, true
		}
	}
	return workbench.TopicView{}, false
}

func rankText(rank int, found bool) string {
	switch {
	case !found:
		return "missing"
	case rank == 0:
		return fmt.Sprintf("beyond %d", workbench.MaxWords)
	}
	return fmt.Sprint(rank)
}

func inOut(in bool) string {
	if in {
		return "in"
	}
	return "not in"
}
