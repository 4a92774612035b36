package workbench

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/text"
)

// clone returns a deep copy of st.
func (st *State) clone() *State {
	c := &State{Kind: st.Kind, K: st.K, Stopwords: slices.Clone(st.Stopwords), Removed: slices.Clone(st.Removed)}
	for _, a := range st.Anchors {
		c.Anchors = append(c.Anchors, model.Anchor{Topic: a.Topic, Words: slices.Clone(a.Words), Beta: slices.Clone(a.Beta), Exclude: slices.Clone(a.Exclude)})
	}
	if st.Labels != nil {
		c.Labels = make(map[string][]string, len(st.Labels))
		for id, ls := range st.Labels {
			c.Labels[id] = slices.Clone(ls)
		}
	}
	if st.Names != nil {
		c.Names = maps.Clone(st.Names)
	}
	return c
}

// anchor returns the index of the anchor of topic name, or -1.
func (st *State) anchor(name string) int {
	for k, a := range st.Anchors {
		if a.Topic == name {
			return k
		}
	}
	return -1
}

// labelNames returns the distinct labels of the state, sorted.
func (st *State) labelNames() []string {
	set := map[string]bool{}
	for _, ls := range st.Labels {
		for _, l := range ls {
			set[l] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// named counts the topics the supervision names: the labels, and the
// anchored topics not named like a label.
func (st *State) named() int {
	labels := st.labelNames()
	n := len(labels)
	for _, a := range st.Anchors {
		if !slices.Contains(labels, a.Topic) {
			n++
		}
	}
	return n
}

// setLabels sets (or, with none, removes) a document's labels, sorted.
func (st *State) setLabels(id string, ls []string) {
	if len(ls) == 0 {
		delete(st.Labels, id)
		return
	}
	ls = slices.Clone(ls)
	slices.Sort(ls)
	if st.Labels == nil {
		st.Labels = map[string][]string{}
	}
	st.Labels[id] = slices.Compact(ls)
}

// relabel renames the label from to to on every document (to "" removes
// it).
func (st *State) relabel(from, to string) {
	for id, ls := range st.Labels {
		if !slices.Contains(ls, from) {
			continue
		}
		var out []string
		for _, l := range ls {
			switch {
			case l != from:
				out = append(out, l)
			case to != "":
				out = append(out, to)
			}
		}
		st.setLabels(id, out)
	}
}

// editor applies edits to a state, with what they are checked against:
// the current round (its topics and vocabulary), the corpus's documents,
// and the lineage of the state's topics (see fitSpec.lineage).
type editor struct {
	st      *State
	r       *round
	ids     map[string]int
	lineage map[string][]string
}

// topicRef is a topic an edit names.
type topicRef struct {
	name string
	// anchor is the topic's anchor (-1: none); label reports a label's
	// topic; model is, for a topic of the current round, its name in the
	// model ("" for a topic only the state knows yet).
	anchor int
	label  bool
	model  string
	round  int
}

// free reports a topic that no anchor or label names.
func (t topicRef) free() bool { return t.anchor < 0 && !t.label }

// topic resolves a topic name of an edit.
func (e *editor) topic(field, name string) (topicRef, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return topicRef{}, fmt.Errorf("%s: no topic named", field)
	}
	ref := topicRef{name: name, anchor: e.st.anchor(name), round: -1}
	ref.label = slices.Contains(e.st.labelNames(), name)
	if t, ok := e.r.byName[name]; ok {
		ref.model, ref.round = e.r.topics[t].Name, t
	} else {
		// A free topic renamed since the round was fitted.
		for m, n := range e.st.Names {
			for t, tp := range e.r.topics {
				if n == name && tp.Name == m {
					ref.model, ref.round = m, t
				}
			}
		}
	}
	if ref.anchor < 0 && !ref.label && ref.round < 0 {
		var names []string
		names = append(names, e.r.names...)
		for _, a := range e.st.Anchors {
			if !slices.Contains(names, a.Topic) {
				names = append(names, a.Topic)
			}
		}
		return topicRef{}, fmt.Errorf("%s: no topic is named %q (the topics: %s)", field, name, listNames(names, 20))
	}
	return ref, nil
}

// checkName checks a new topic name: not empty, writable in the anchors
// grammar, and not the name of another topic.
func (e *editor) checkName(name string) (string, error) {
	name = strings.TrimSpace(name)
	switch {
	case name == "":
		return "", errors.New("name: the new topic needs a name")
	case strings.ContainsAny(name, ":\r\n"):
		return "", fmt.Errorf("name %q: a topic name cannot hold a colon or a line break (the anchors file writes \"name: words\")", name)
	case strings.HasPrefix(name, "#"):
		return "", fmt.Errorf("name %q: a topic name cannot start with # (the anchors file's comments)", name)
	}
	if e.taken(name) {
		return "", fmt.Errorf("name %q: a topic is already named so", name)
	}
	return name, nil
}

// taken reports whether a topic is named name.
func (e *editor) taken(name string) bool {
	_, ok := e.r.byName[name]
	return ok || e.st.anchor(name) >= 0 || slices.Contains(e.st.labelNames(), name)
}

// term reads a word as the current round's pipeline reads it and checks
// that its term is in the vocabulary; it returns the word as it will be
// written (trimmed) and its term.
func (e *editor) term(field, word string) (string, string, error) {
	word = strings.TrimSpace(word)
	switch {
	case word == "":
		return "", "", fmt.Errorf("%s: no word given", field)
	case strings.ContainsAny(word, ",:\r\n") || strings.HasPrefix(word, "-") || strings.HasPrefix(word, "#"):
		return "", "", fmt.Errorf("%s %q: a word cannot hold a comma, a colon or a line break, nor start with - or # (the anchors file's syntax)", field, word)
	}
	if _, ok := e.r.d.col[word]; ok {
		if slices.Contains(e.st.Stopwords, word) {
			return "", "", fmt.Errorf("%s %q: it is a stopword; remove it from the stopwords first", field, word)
		}
		return word, word, nil
	}
	a := e.r.d.analyzer()
	if a == nil {
		return "", "", fmt.Errorf("%s %q: not a term of the vocabulary", field, word)
	}
	t, err := a.Term(word)
	if errors.Is(err, text.ErrNoTerm) {
		return "", "", fmt.Errorf("%s %q: %v", field, word, err)
	}
	if err != nil {
		return "", "", fmt.Errorf("%s %q: %w", field, word, err)
	}
	if slices.Contains(e.st.Stopwords, t) {
		return "", "", fmt.Errorf("%s %q: %q is a stopword; remove it from the stopwords first", field, word, t)
	}
	if _, ok := e.r.d.col[t]; !ok {
		return "", "", fmt.Errorf("%s %q: the pipeline reads it as %q, which is not in the vocabulary", field, word, t)
	}
	return word, t, nil
}

// sameTerm reports whether two words are read as one term.
func (e *editor) sameTerm(a, b string) bool {
	if a == b {
		return true
	}
	an := e.r.d.analyzer()
	if an == nil {
		return false
	}
	ta, err1 := an.Term(a)
	tb, err2 := an.Term(b)
	return err1 == nil && err2 == nil && ta == tb
}

// docs checks document IDs.
func (e *editor) docs(ids []string) ([]string, error) {
	if len(ids) == 0 {
		return nil, errors.New("docs: no document given")
	}
	var out []string
	for _, id := range ids {
		if _, ok := e.ids[id]; !ok {
			return nil, fmt.Errorf("docs: no document has the ID %q", id)
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	}
	return out, nil
}

// wordless counts the documents of ids that hold no term of the current
// round's vocabulary, or that its pipeline's filters left out.
func (e *editor) wordless(ids []string) int {
	if e.r == nil {
		return 0
	}
	n := 0
	for _, id := range ids {
		row := e.r.d.rowOf[e.ids[id]]
		if row < 0 || e.r.d.x.Indptr[row+1] == e.r.d.x.Indptr[row] {
			n++
		}
	}
	return n
}

// anchorFor returns the index of the anchor of the topic ref, creating
// it (a free topic with a display name keeps that name) when needed.
func (e *editor) anchorFor(ref topicRef) int {
	if ref.anchor >= 0 {
		return ref.anchor
	}
	if ref.model != "" {
		delete(e.st.Names, ref.model)
	}
	e.st.Anchors = append(e.st.Anchors, model.Anchor{Topic: ref.name})
	return len(e.st.Anchors) - 1
}

// dropEmptyAnchor removes the anchor k when it has no word left.
func (e *editor) dropEmptyAnchor(k int) {
	if a := e.st.Anchors[k]; len(a.Words) == 0 && len(a.Exclude) == 0 {
		e.st.Anchors = slices.Delete(e.st.Anchors, k, k+1)
	}
}

// freeSeeds returns the seed words a free topic brings into a merge: its
// top mergeSeeds words in the current round.
func (e *editor) freeSeeds(ref topicRef) []string {
	if ref.round < 0 {
		return nil
	}
	w := e.r.topTen(ref.round)
	return w[:min(mergeSeeds, len(w))]
}

// mergeSeeds is how many top words of a free topic become seed words when
// it is merged.
const mergeSeeds = 5

// apply applies ed to the state and returns a description of the change.
func (e *editor) apply(ed Edit) (string, error) {
	st := e.st
	switch ed.Op {
	case OpAddSeed:
		ref, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		word, term, err := e.term("word", ed.Word)
		if err != nil {
			return "", err
		}
		if ed.Strength != 0 && (math.IsNaN(ed.Strength) || ed.Strength < model.MinStrength || ed.Strength > model.MaxStrength) {
			return "", fmt.Errorf("strength %v: want 0 (the kind's default) or a number from %g to %g", ed.Strength, model.MinStrength, model.MaxStrength)
		}
		k := e.anchorFor(ref)
		a := &st.Anchors[k]
		for _, x := range a.Exclude {
			if e.sameTerm(x, word) {
				e.dropEmptyAnchor(k)
				return "", fmt.Errorf("word %q: it is an exclusion word of topic %q; remove the exclusion first", word, ref.name)
			}
		}
		if len(a.Beta) == 0 {
			a.Beta = make([]float64, len(a.Words))
		}
		for i, x := range a.Words {
			if e.sameTerm(x, word) {
				if a.Beta[i] == ed.Strength {
					return "", fmt.Errorf("word %q: it is already a seed word of topic %q (as %q)", word, ref.name, x)
				}
				a.Beta[i] = ed.Strength
				return fmt.Sprintf("seed word %q of topic %q: strength %s", x, ref.name, strengthText(ed.Strength)), nil
			}
		}
		for _, b := range st.Anchors {
			for _, x := range b.Words {
				if b.Topic != ref.name && e.sameTerm(x, word) {
					e.dropEmptyAnchor(k)
					return "", fmt.Errorf("word %q: it is a seed word of topic %q; a word seeds one topic", word, b.Topic)
				}
			}
		}
		a.Words = append(a.Words, word)
		a.Beta = append(a.Beta, ed.Strength)
		compactBeta(a)
		desc := fmt.Sprintf("seed word %q added to topic %q", word, ref.name)
		if term != word {
			desc += fmt.Sprintf(" (read as %q)", term)
		}
		if ed.Strength != 0 {
			desc += ", strength " + strengthText(ed.Strength)
		}
		return desc, nil

	case OpRemoveSeed, OpRemoveExclude:
		ref, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		what := "seed word"
		if ed.Op == OpRemoveExclude {
			what = "exclusion word"
		}
		if ref.anchor < 0 {
			return "", fmt.Errorf("topic %q has no %ss", ref.name, what)
		}
		a := &st.Anchors[ref.anchor]
		list := &a.Words
		if ed.Op == OpRemoveExclude {
			list = &a.Exclude
		}
		word := strings.TrimSpace(ed.Word)
		for i, x := range *list {
			if x == word || e.sameTerm(x, word) {
				*list = slices.Delete(*list, i, i+1)
				if ed.Op == OpRemoveSeed && len(a.Beta) > i {
					a.Beta = slices.Delete(a.Beta, i, i+1)
					compactBeta(a)
				}
				e.dropEmptyAnchor(ref.anchor)
				return fmt.Sprintf("%s %q removed from topic %q", what, x, ref.name), nil
			}
		}
		return "", fmt.Errorf("word %q is not a%s %s of topic %q (its %ss: %s)", word, map[bool]string{true: "n", false: ""}[ed.Op == OpRemoveExclude], what, ref.name, what, listNames(*list, 20))

	case OpAddExclude:
		ref, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		word, _, err := e.term("word", ed.Word)
		if err != nil {
			return "", err
		}
		k := e.anchorFor(ref)
		a := &st.Anchors[k]
		for _, x := range a.Words {
			if e.sameTerm(x, word) {
				e.dropEmptyAnchor(k)
				return "", fmt.Errorf("word %q: it is a seed word of topic %q; remove the seed word first", word, ref.name)
			}
		}
		for _, x := range a.Exclude {
			if e.sameTerm(x, word) {
				return "", fmt.Errorf("word %q: it is already an exclusion word of topic %q (as %q)", word, ref.name, x)
			}
		}
		a.Exclude = append(a.Exclude, word)
		return fmt.Sprintf("word %q excluded from topic %q", word, ref.name), nil

	case OpCreateTopic:
		name, err := e.checkName(ed.Name)
		if err != nil {
			return "", err
		}
		if len(ed.Words) == 0 {
			return "", errors.New("words: a new topic needs seed words")
		}
		a := model.Anchor{Topic: name}
		for _, w := range ed.Words {
			word, _, err := e.term("words", w)
			if err != nil {
				return "", err
			}
			for _, b := range st.Anchors {
				for _, x := range b.Words {
					if e.sameTerm(x, word) {
						return "", fmt.Errorf("words: %q is a seed word of topic %q; a word seeds one topic", word, b.Topic)
					}
				}
			}
			if !slices.ContainsFunc(a.Words, func(x string) bool { return e.sameTerm(x, word) }) {
				a.Words = append(a.Words, word)
			}
		}
		st.Anchors = append(st.Anchors, a)
		st.K++
		e.lineage[name] = nil
		return fmt.Sprintf("topic %q created from %s (k %d)", name, strings.Join(a.Words, ", "), st.K), nil

	case OpRename:
		ref, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		name, err := e.checkName(ed.Name)
		if err != nil {
			return "", err
		}
		if ref.anchor >= 0 {
			st.Anchors[ref.anchor].Topic = name
		}
		if ref.label {
			st.relabel(ref.name, name)
		}
		if ref.free() {
			if st.Names == nil {
				st.Names = map[string]string{}
			}
			st.Names[ref.model] = name
			if name == ref.model {
				delete(st.Names, ref.model)
			}
		}
		e.lineage[name] = e.lineage[ref.name]
		delete(e.lineage, ref.name)
		desc := fmt.Sprintf("topic %q renamed %q", ref.name, name)
		if ref.label {
			desc += " (its label renamed on every document)"
		}
		return desc, nil

	case OpMerge:
		a, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		b, err := e.topic("other", ed.Other)
		if err != nil {
			return "", err
		}
		if a.name == b.name {
			return "", fmt.Errorf("other: a topic cannot be merged with itself (%q)", a.name)
		}
		// The merged topic is a label's topic when either is; it keeps
		// the first topic's name unless only the other is a label's.
		keep, gone := a, b
		if b.label && !a.label {
			keep, gone = b, a
		}
		merged := model.Anchor{Topic: keep.name}
		var notes []string
		for _, ref := range []topicRef{keep, gone} {
			if ref.anchor >= 0 {
				an := st.Anchors[ref.anchor]
				for i, w := range an.Words {
					if !slices.ContainsFunc(merged.Words, func(x string) bool { return e.sameTerm(x, w) }) {
						merged.Words = append(merged.Words, w)
						merged.Beta = append(merged.Beta, betaAt(an, i))
					}
				}
				merged.Exclude = append(merged.Exclude, an.Exclude...)
			} else if !ref.label {
				seeds := e.freeSeeds(ref)
				for _, w := range seeds {
					if !slices.ContainsFunc(merged.Words, func(x string) bool { return e.sameTerm(x, w) }) {
						merged.Words = append(merged.Words, w)
						merged.Beta = append(merged.Beta, 0)
					}
				}
				notes = append(notes, fmt.Sprintf("%q brings its top %d words as seed words (%s)", ref.name, len(seeds), strings.Join(seeds, ", ")))
			}
		}
		merged.Exclude = slices.DeleteFunc(slices.Compact(merged.Exclude), func(x string) bool {
			return slices.ContainsFunc(merged.Words, func(w string) bool { return e.sameTerm(x, w) })
		})
		compactBeta(&merged)
		if gone.label {
			st.relabel(gone.name, keep.name)
		}
		var anchors []model.Anchor
		for _, an := range st.Anchors {
			if an.Topic != a.name && an.Topic != b.name {
				anchors = append(anchors, an)
			}
		}
		if len(merged.Words) > 0 || len(merged.Exclude) > 0 {
			anchors = append(anchors, merged)
		}
		st.Anchors = anchors
		if gone.model != "" {
			delete(st.Names, gone.model)
		}
		if keep.free() && keep.model != "" {
			delete(st.Names, keep.model) // it is named by its anchor now
		}
		st.K = max(1, st.K-1)
		e.lineage[keep.name] = append(slices.Clone(e.lineage[keep.name]), e.lineage[gone.name]...)
		delete(e.lineage, gone.name)
		desc := fmt.Sprintf("topics %q and %q merged into %q (k %d)", a.name, b.name, keep.name, st.K)
		if gone.label {
			desc += fmt.Sprintf("; the documents labeled %q are labeled %q", gone.name, keep.name)
		}
		if len(notes) > 0 {
			desc += "; " + strings.Join(notes, "; ")
		}
		return desc, nil

	case OpSplit:
		ref, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		second := strings.TrimSpace(ed.Name)
		for n := 2; second == ""; n++ {
			if c := ref.name + " " + strconv.Itoa(n); !e.taken(c) {
				second = c
			}
		}
		if second, err = e.checkName(second); err != nil {
			return "", err
		}
		var groups [2][]string
		for g, words := range ed.Groups {
			if len(words) == 0 {
				return "", fmt.Errorf("groups: group %d has no seed words (a split needs two groups of seed words)", g+1)
			}
			for _, w := range words {
				word, _, err := e.term(fmt.Sprintf("groups[%d]", g), w)
				if err != nil {
					return "", err
				}
				for _, h := range groups {
					if slices.ContainsFunc(h, func(x string) bool { return e.sameTerm(x, word) }) {
						return "", fmt.Errorf("groups: %q is given twice; each word goes in one group", word)
					}
				}
				for _, b := range st.Anchors {
					if b.Topic == ref.name {
						continue
					}
					if slices.ContainsFunc(b.Words, func(x string) bool { return e.sameTerm(x, word) }) {
						return "", fmt.Errorf("groups: %q is a seed word of topic %q; a word seeds one topic", word, b.Topic)
					}
				}
				groups[g] = append(groups[g], word)
			}
		}
		k := e.anchorFor(ref)
		a := &st.Anchors[k]
		a.Words, a.Beta = groups[0], nil
		a.Exclude = slices.DeleteFunc(a.Exclude, func(x string) bool {
			return slices.ContainsFunc(groups[0], func(w string) bool { return e.sameTerm(x, w) })
		})
		st.Anchors = append(st.Anchors, model.Anchor{Topic: second, Words: groups[1]})
		st.K++
		e.lineage[second] = slices.Clone(e.lineage[ref.name])
		return fmt.Sprintf("topic %q split into %q (%s) and %q (%s) (k %d)", ref.name, ref.name, strings.Join(groups[0], ", "), second, strings.Join(groups[1], ", "), st.K), nil

	case OpDeleteTopic:
		ref, err := e.topic("topic", ed.Topic)
		if err != nil {
			return "", err
		}
		if ref.anchor >= 0 {
			st.Anchors = slices.Delete(st.Anchors, ref.anchor, ref.anchor+1)
		}
		if ref.label {
			st.relabel(ref.name, "")
		}
		if ref.model != "" {
			delete(st.Names, ref.model)
		}
		st.K = max(1, st.K-1)
		delete(e.lineage, ref.name)
		desc := fmt.Sprintf("topic %q deleted (k %d)", ref.name, st.K)
		if ref.label {
			desc += fmt.Sprintf("; its label %q taken off every document", ref.name)
		}
		return desc, nil

	case OpLabel:
		ids, err := e.docs(ed.Docs)
		if err != nil {
			return "", err
		}
		label := strings.TrimSpace(ed.Label)
		if label == "" {
			return "", errors.New("label: no label given")
		}
		if strings.ContainsAny(label, "\r\n") {
			return "", fmt.Errorf("label %q: a label cannot hold a line break", label)
		}
		for _, id := range ids {
			if slices.Contains(st.Removed, id) {
				return "", fmt.Errorf("docs: document %q is removed from the model; restore it first", id)
			}
		}
		for _, id := range ids {
			st.setLabels(id, []string{label})
		}
		desc := fmt.Sprintf("%s labeled %q", docsText(ids), label)
		if n := e.wordless(ids); n > 0 {
			desc += fmt.Sprintf("; %d of them hold no word of the vocabulary, so their label teaches the model nothing", n)
		}
		if !takesLabels(st.Kind) {
			desc += fmt.Sprintf("; the kind is now %s (%s learns no labels)", DefaultLabeledKind, st.Kind)
			st.Kind = DefaultLabeledKind
		}
		return desc, nil

	case OpUnlabel:
		ids, err := e.docs(ed.Docs)
		if err != nil {
			return "", err
		}
		label := strings.TrimSpace(ed.Label)
		n := 0
		for _, id := range ids {
			ls := st.Labels[id]
			switch {
			case label == "" && len(ls) > 0:
				st.setLabels(id, nil)
				n++
			case label != "" && slices.Contains(ls, label):
				st.setLabels(id, slices.DeleteFunc(slices.Clone(ls), func(l string) bool { return l == label }))
				n++
			}
		}
		if n == 0 {
			if label != "" {
				return "", fmt.Errorf("docs: no document given has the label %q", label)
			}
			return "", errors.New("docs: no document given has a label")
		}
		if label != "" {
			return fmt.Sprintf("label %q taken off %s", label, docsText(ids)), nil
		}
		return fmt.Sprintf("%s unlabeled", docsText(ids)), nil

	case OpAddStopword:
		_, term, err := e.term("word", ed.Word)
		if err != nil {
			return "", err
		}
		for _, a := range st.Anchors {
			for _, w := range a.Words {
				if w == term || e.sameTerm(w, term) {
					return "", fmt.Errorf("word %q: it is a seed word of topic %q; remove it there first", term, a.Topic)
				}
			}
		}
		var dropped []string
		for k := range st.Anchors {
			a := &st.Anchors[k]
			a.Exclude = slices.DeleteFunc(a.Exclude, func(w string) bool {
				if w == term || e.sameTerm(w, term) {
					dropped = append(dropped, a.Topic)
					return true
				}
				return false
			})
		}
		st.Anchors = slices.DeleteFunc(st.Anchors, func(a model.Anchor) bool { return len(a.Words) == 0 && len(a.Exclude) == 0 })
		st.Stopwords = append(st.Stopwords, term)
		slices.Sort(st.Stopwords)
		desc := fmt.Sprintf("%q is a stopword: it leaves every topic", term)
		if len(dropped) > 0 {
			desc += fmt.Sprintf(" (no longer an exclusion word of %s)", listNames(dropped, 5))
		}
		return desc, nil

	case OpRemoveStopword:
		word := strings.TrimSpace(ed.Word)
		for i, s := range st.Stopwords {
			if s == word || e.sameTerm(s, word) {
				st.Stopwords = slices.Delete(st.Stopwords, i, i+1)
				return fmt.Sprintf("%q is no longer a stopword", s), nil
			}
		}
		return "", fmt.Errorf("word %q is not a stopword (the stopwords: %s)", word, listNames(st.Stopwords, 20))

	case OpRemoveDoc:
		ids, err := e.docs(ed.Docs)
		if err != nil {
			return "", err
		}
		for _, id := range ids {
			if slices.Contains(st.Removed, id) {
				return "", fmt.Errorf("docs: document %q is already removed", id)
			}
		}
		if len(st.Removed)+len(ids) >= len(e.ids) {
			return "", errors.New("docs: every document would be removed")
		}
		st.Removed = append(st.Removed, ids...)
		slices.Sort(st.Removed)
		return fmt.Sprintf("%s removed from the model", docsText(ids)), nil

	case OpRestoreDoc:
		ids, err := e.docs(ed.Docs)
		if err != nil {
			return "", err
		}
		for _, id := range ids {
			i := slices.Index(st.Removed, id)
			if i < 0 {
				return "", fmt.Errorf("docs: document %q is not removed", id)
			}
			st.Removed = slices.Delete(st.Removed, i, i+1)
		}
		return fmt.Sprintf("%s restored to the model", docsText(ids)), nil

	case OpSetK:
		if ed.K < 1 {
			return "", fmt.Errorf("k %d: want a number of topics ≥ 1", ed.K)
		}
		if n := st.named(); ed.K < n {
			return "", fmt.Errorf("k %d: the labels and anchors name %d topics; delete or merge topics first", ed.K, n)
		}
		if n := len(e.r.d.rows); ed.K > n {
			return "", fmt.Errorf("k %d: more than the %d documents", ed.K, n)
		}
		if ed.K == st.K {
			return "", fmt.Errorf("k is already %d", ed.K)
		}
		st.K = ed.K
		return fmt.Sprintf("k set to %d", ed.K), nil

	case OpSetKind:
		kind := strings.TrimSpace(ed.Kind)
		if !slices.Contains(model.Kinds(), kind) {
			return "", fmt.Errorf("kind %q: want one of %s", kind, strings.Join(model.Kinds(), ", "))
		}
		if kind == st.Kind {
			return "", fmt.Errorf("kind is already %s", kind)
		}
		if !takesLabels(kind) && len(st.labelNames()) > 0 {
			return "", fmt.Errorf("kind %s learns no labels; unlabel the documents first, or choose a kind that learns from labels (%s)", kind, strings.Join(labeledKinds(), ", "))
		}
		st.Kind = kind
		return fmt.Sprintf("kind set to %s", kind), nil
	}
	return "", fmt.Errorf("op %q: unknown edit (want %s)", ed.Op, strings.Join(Ops(), ", "))
}

// finish keeps the state's k at least the number of topics its
// supervision names.
func (e *editor) finish() {
	e.st.K = max(e.st.K, e.st.named(), 1)
}

// betaAt returns the strength of a's i-th seed word (0: the default).
func betaAt(a model.Anchor, i int) float64 {
	if i < len(a.Beta) {
		return a.Beta[i]
	}
	return 0
}

// compactBeta drops a's strengths when all are the default, as the
// anchors grammar writes them.
func compactBeta(a *model.Anchor) {
	for _, b := range a.Beta {
		if b != 0 {
			return
		}
	}
	a.Beta = nil
}

// strengthText writes a strength.
func strengthText(b float64) string {
	if b == 0 {
		return "the default"
	}
	return strconv.FormatFloat(b, 'g', -1, 64)
}

// docsText names documents in a change's description.
func docsText(ids []string) string {
	if len(ids) == 1 {
		return fmt.Sprintf("document %q", ids[0])
	}
	return fmt.Sprintf("%d documents (%s)", len(ids), listNames(ids, 3))
}

// takesLabels says whether the kind named kind learns from labeled
// documents (its Takes; false for a name no kind has).
func takesLabels(kind string) bool {
	k, err := model.KindOf(kind)
	return err == nil && k.Takes().Labels
}

// labeledKinds names the kinds that learn from labeled documents.
func labeledKinds() []string {
	var out []string
	for _, n := range model.Kinds() {
		if takesLabels(n) {
			out = append(out, n)
		}
	}
	return out
}
