package workbench

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/text"
	"gonum.org/v1/gonum/mat"
)

// The largest n the views give.
const (
	MaxWords = 1000
	MaxDocs  = 1000
	MaxTerms = 10000
)

// snippetRunes is the length of a document's snippet in lists.
const snippetRunes = 400

// clampN returns n within [1, max], def when n ≤ 0.
func clampN(n, def, most int) int {
	if n <= 0 {
		return def
	}
	return min(n, most)
}

// Topics describes the current round's topics, with n top words each
// (n ≤ 0: 10; at most MaxWords).
func (s *Session) Topics(n int) []TopicView {
	r := s.current()
	if r == nil {
		return nil
	}
	return topicViews(r, clampN(n, 10, MaxWords))
}

// topicViews describes r's topics with n top words each.
func topicViews(r *round, n int) []TopicView {
	docs := make([]int, len(r.topics))
	for _, t := range r.argmax {
		if t >= 0 {
			docs[t]++
		}
	}
	out := make([]TopicView, len(r.topics))
	for t, tp := range r.topics {
		v := TopicView{Name: r.names[t], Label: tp.Label, Share: tp.Weight, Docs: docs[t], Empty: tp.Empty, Junk: r.junk[t]}
		if v.Name != tp.Name {
			v.ModelName = tp.Name
		}
		seeds := map[string]bool{}
		if k := r.anchorOf[t]; k >= 0 {
			an, given := r.anchors[k], r.state.Anchors[k]
			for j, term := range an.Words {
				seeds[term] = true
				sv := SeedView{Word: term, Term: term}
				if len(an.Words) == len(given.Words) {
					sv.Word, sv.Strength = given.Words[j], betaAt(given, j)
				}
				sv.Rank, sv.Weight = rankOf(tp.Words, term)
				for _, c := range r.checks.Seeds {
					if c.Topic == given.Topic && c.Term == term {
						sv.Rank = c.Rank
					}
				}
				v.Seeds = append(v.Seeds, sv)
			}
			v.Excluded = slices.Clone(given.Exclude)
		}
		for _, w := range tp.Words[:min(n, len(tp.Words))] {
			v.Words = append(v.Words, WordView{Word: w.Word, Weight: w.Weight, Seed: seeds[w.Word]})
		}
		if v.Words == nil {
			v.Words = []WordView{}
		}
		if c := r.coherence[t]; !math.IsNaN(c) {
			v.Coherence = &c
		}
		out[t] = v
	}
	return out
}

// TopicDocs lists the n documents (at most MaxDocs; n ≤ 0: 10) with the
// largest weight in topic, the topic's top words highlighted.
func (s *Session) TopicDocs(topic string, n int) ([]DocView, error) {
	r := s.current()
	t, err := r.topic(topic)
	if err != nil {
		return nil, fmt.Errorf("workbench: %w", err)
	}
	n = clampN(n, 10, MaxDocs)
	// The n heaviest rows of the topic's column, ties by lower row (a
	// bounded selection: a full sort took half a second on 300,000
	// documents).
	rows := metrics.TopIndices(mat.Col(nil, t, r.w), n)
	terms := topicTerms(r, t)
	st := s.State()
	out := []DocView{}
	for _, row := range rows {
		v := s.docView(r, &st, row, false)
		v.Weight = r.mixture(row)[t]
		v.Text, v.Highlights = snippet(s.c.Docs[r.d.rows[row]].Text, r.d.analyzer(), terms)
		out = append(out, v)
	}
	return out, nil
}

// topicTerms maps the top 10 words of topic t to its name, for highlights.
func topicTerms(r *round, t int) map[string]string {
	m := map[string]string{}
	for _, w := range r.topTen(t) {
		m[w] = r.names[t]
	}
	return m
}

// docView describes row of r, without its text.
func (s *Session) docView(r *round, st *State, row int, mixture bool) DocView {
	i := r.d.rows[row]
	id := s.idOf[i]
	v := DocView{ID: id, Labels: slices.Clone(st.Labels[id]), Wordless: r.d.x.Indptr[row+1] == r.d.x.Indptr[row]}
	if t := r.argmax[row]; t >= 0 {
		v.Topic = r.names[t]
	}
	if r.pred != nil {
		v.Predicted = slices.Clone(r.pred.Labels[row])
	}
	if mixture {
		for t, x := range r.mixture(row) {
			if x > 0 {
				v.Mixture = append(v.Mixture, TopicWeight{Topic: r.names[t], Weight: x})
			}
		}
		sort.SliceStable(v.Mixture, func(a, b int) bool { return v.Mixture[a].Weight > v.Mixture[b].Weight })
	}
	return v
}

// Search lists the n documents (at most MaxDocs; n ≤ 0: 10) that hold
// the word or phrase q, read as the pipeline reads it, the largest weight
// of its term first. A phrase longer than the pipeline's n-grams finds the
// documents holding all of its words.
func (s *Session) Search(q string, n int) ([]DocView, error) {
	q = strings.TrimSpace(q)
	if q == "" {
		return nil, errors.New("workbench: search: no word given")
	}
	r := s.current()
	n = clampN(n, 10, MaxDocs)
	terms, err := queryTerms(r, q)
	if err != nil {
		return nil, fmt.Errorf("workbench: search %q: %w", q, err)
	}
	cols := make([]int, len(terms))
	highlight := map[string]string{}
	for k, t := range terms {
		cols[k] = r.d.col[t]
		highlight[t] = ""
	}
	type hit struct {
		row   int
		score float64
	}
	var hits []hit
	for row := 0; row < r.d.x.Rows; row++ {
		score, found := 0.0, 0
		for _, c := range cols {
			if v := r.d.x.At(row, c); v > 0 {
				score += v
				found++
			}
		}
		if found == len(cols) {
			hits = append(hits, hit{row, score})
		}
	}
	sort.SliceStable(hits, func(a, b int) bool { return hits[a].score > hits[b].score })
	st := s.State()
	out := []DocView{}
	for _, h := range hits[:min(n, len(hits))] {
		v := s.docView(r, &st, h.row, false)
		v.Weight = h.score
		v.Text, v.Highlights = snippet(s.c.Docs[r.d.rows[h.row]].Text, r.d.analyzer(), highlight)
		out = append(out, v)
	}
	return out, nil
}

// queryTerms reads a query as the pipeline reads words: one term, or,
// for a phrase the pipeline's n-grams cannot hold, each of its words.
func queryTerms(r *round, q string) ([]string, error) {
	if _, ok := r.d.col[q]; ok {
		return []string{q}, nil
	}
	a := r.d.analyzer()
	if a == nil {
		return nil, errors.New("not a term of the vocabulary")
	}
	t, err := a.Term(q)
	if err == nil {
		if _, ok := r.d.col[t]; !ok {
			return nil, fmt.Errorf("the pipeline reads it as %q, which is not in the vocabulary", t)
		}
		return []string{t}, nil
	}
	if errors.Is(err, text.ErrNoTerm) {
		return nil, err
	}
	var out []string
	for _, tok := range a.Tokens(q) {
		if _, ok := r.d.col[tok]; !ok {
			return nil, fmt.Errorf("its word %q is not in the vocabulary", tok)
		}
		if !slices.Contains(out, tok) {
			out = append(out, tok)
		}
	}
	return out, nil
}

// Document shows the document id: its whole text, topic mixture, labels
// and prediction, and the top words of its main topics highlighted (those
// holding at least a tenth of its mixture, at most three). A document
// left out of the model (removed, or dropped by the pipeline's filters)
// has no mixture.
func (s *Session) Document(id string) (DocView, error) {
	i, ok := s.ids[id]
	if !ok {
		return DocView{}, fmt.Errorf("workbench: no document has the ID %q", id)
	}
	r := s.current()
	st := s.State()
	row := r.d.rowOf[i]
	if row < 0 {
		removed := slices.Contains(st.Removed, id)
		return DocView{ID: id, Text: s.c.Docs[i].Text, Labels: slices.Clone(st.Labels[id]), Removed: removed, Wordless: !removed}, nil
	}
	v := s.docView(r, &st, row, true)
	v.Text = s.c.Docs[i].Text
	terms := map[string]string{}
	for k, tw := range v.Mixture {
		if k >= 3 || tw.Weight < 0.1 {
			break
		}
		for w, name := range topicTerms(r, r.byName[tw.Topic]) {
			if _, ok := terms[w]; !ok {
				terms[w] = name
			}
		}
	}
	v.Highlights = highlights(v.Text, r.d.analyzer(), terms)
	return v, nil
}

// snippet returns the start of text and its highlights.
func snippet(s string, a *text.Analyzer, terms map[string]string) (string, []Highlight) {
	if utf8.RuneCountInString(s) > snippetRunes {
		cut := 0
		for k := range s {
			if k > 0 && utf8.RuneCountInString(s[:k]) >= snippetRunes {
				cut = k
				break
			}
		}
		if sp := strings.LastIndexFunc(s[:cut], unicode.IsSpace); sp > cut/2 {
			cut = sp
		}
		s = strings.TrimSpace(s[:cut]) + " …"
	}
	return s, highlights(s, a, terms)
}

// highlights finds the spans of s whose term, as the analyzer reads the
// words of s, is a key of terms (whose value names the topic): single
// words, and pairs of neighbouring words for terms of two words.
func highlights(s string, a *text.Analyzer, terms map[string]string) []Highlight {
	if a == nil || len(terms) == 0 {
		return nil
	}
	type word struct {
		start, end int
		term       string
	}
	var words []word
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		toks := a.Tokens(s[start:end])
		t := ""
		if len(toks) == 1 {
			t = toks[0]
		}
		words = append(words, word{start, end, t})
		start = -1
	}
	for k, c := range s {
		if unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || (c == '\'' && start >= 0) {
			if start < 0 {
				start = k
			}
			continue
		}
		flush(k)
	}
	flush(len(s))
	var out []Highlight
	for k := 0; k < len(words); k++ {
		w := words[k]
		if w.term == "" {
			continue
		}
		if k+1 < len(words) && words[k+1].term != "" {
			pair := w.term + " " + words[k+1].term
			if topic, ok := terms[pair]; ok {
				out = append(out, Highlight{Start: w.start, End: words[k+1].end, Term: pair, Topic: topic})
				k++
				continue
			}
		}
		if topic, ok := terms[w.term]; ok {
			out = append(out, Highlight{Start: w.start, End: w.end, Term: w.term, Topic: topic})
		}
	}
	return out
}

// Vocabulary lists the n terms (at most MaxTerms; n ≤ 0: 100) that start
// with prefix, the most frequent first, with their document frequencies.
func (s *Session) Vocabulary(prefix string, n int) []TermView {
	r := s.current()
	n = clampN(n, 100, MaxTerms)
	prefix = strings.ToLower(strings.TrimSpace(prefix))
	in := map[string][]string{}
	for t := range r.topics {
		for _, w := range r.topTen(t) {
			in[w] = append(in[w], r.names[t])
		}
	}
	var cols []int
	for j, t := range r.d.vocab {
		if strings.HasPrefix(t, prefix) {
			cols = append(cols, j)
		}
	}
	sort.SliceStable(cols, func(a, b int) bool { return r.d.df[cols[a]] > r.d.df[cols[b]] })
	out := []TermView{}
	for _, j := range cols[:min(n, len(cols))] {
		t := r.d.vocab[j]
		out = append(out, TermView{Term: t, DF: r.d.df[j], Topics: in[t]})
	}
	return out
}

// Diff says what round changed against its parent round (round 0: the
// current round), with both rounds' accuracy estimates as they stand.
func (s *Session) Diff(round int) (Diff, error) {
	s.mu.Lock()
	if round == 0 {
		round = s.cur.meta.Number
	}
	_, ok := s.metas[round]
	s.mu.Unlock()
	if !ok {
		return Diff{}, fmt.Errorf("workbench: no round %d", round)
	}
	r, err := s.round(round)
	if err != nil {
		return Diff{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	d := r.diff
	d.Round = round
	d.After = r.meta.Accuracy
	d.Before = Accuracy{State: AccuracyNone, Note: "no previous round"}
	if p, ok := s.metas[r.meta.Parent]; ok {
		d.Before = p.Accuracy
	}
	return d, nil
}
