package workbench

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/semitopic/semitopic/model"
)

// How much Suggest proposes.
const (
	// SuggestDocs is the number of documents to label proposed.
	SuggestDocs = 10
	// SuggestPairs is the number of look-alike topic pairs proposed,
	// among those whose similarity is at least minSimilarity.
	SuggestPairs = 3
	// separatingWords is the number of words proposed per side.
	separatingWords = 5
	minSimilarity   = 0.2
)

// Suggest proposes what to do next, from the current round:
//
//   - documents to label: for a model that predicts labels, the unlabeled
//     documents with the smallest margin between their two best label
//     scores; for the others, those whose topic mixture has the highest
//     entropy. They are taken in turn from each topic's (by the topic of
//     largest weight), so that they spread over the topics;
//   - look-alike topics: the pairs with the largest cosine between their
//     word weights (over their top MaxWords words), with the words much
//     more weighty in one than in the other, which as seed words would
//     pull them apart;
//   - junk topics: low coherence, or most of the weight in a few
//     documents (TopicView.Junk).
func (s *Session) Suggest() Suggestions {
	r := s.current()
	st := s.State()
	out := Suggestions{Label: []DocSuggestion{}, Separate: []PairSuggestion{}, Junk: []JunkSuggestion{}}
	out.Label = s.suggestDocs(r, &st)
	out.Separate = suggestPairs(r)
	for t, reasons := range r.junk {
		if len(reasons) > 0 {
			out.Junk = append(out.Junk, JunkSuggestion{Topic: r.names[t], Reasons: slices.Clone(reasons)})
		}
	}
	return out
}

// suggestDocs proposes documents to label.
func (s *Session) suggestDocs(r *round, st *State) []DocSuggestion {
	type cand struct {
		row   int
		score float64 // smaller: less sure
	}
	k := len(r.topics)
	byTopic := make([][]cand, k)
	// The margin is between labels the person gave (a model steered by
	// seed words alone is read by its mixture), and needs two of them.
	margin := r.pred != nil && len(st.Labels) > 0 && r.pred.Scores != nil && r.pred.Scores.RawMatrix().Cols >= 2
	for row, i := range r.d.rows {
		t := r.argmax[row]
		if t < 0 || len(st.Labels[s.idOf[i]]) > 0 {
			continue
		}
		var c cand
		if margin {
			sc := r.pred.Scores.RawRowView(row)
			if len(sc) < 2 || (r.pred.Empty != nil && r.pred.Empty[row]) {
				continue
			}
			best, second := math.Inf(-1), math.Inf(-1)
			for _, v := range sc {
				if v > best {
					best, second = v, best
				} else if v > second {
					second = v
				}
			}
			c = cand{row, best - second}
		} else {
			h := 0.0
			for _, p := range r.mixture(row) {
				if p > 0 {
					h -= p * math.Log(p)
				}
			}
			c = cand{row, -h}
		}
		byTopic[t] = append(byTopic[t], c)
	}
	for t := range byTopic {
		sort.SliceStable(byTopic[t], func(a, b int) bool { return byTopic[t][a].score < byTopic[t][b].score })
	}
	out := []DocSuggestion{}
	for depth := 0; len(out) < SuggestDocs; depth++ {
		added := false
		for t := 0; t < k && len(out) < SuggestDocs; t++ {
			if depth >= len(byTopic[t]) {
				continue
			}
			c := byTopic[t][depth]
			added = true
			i := r.d.rows[c.row]
			d := DocSuggestion{ID: s.idOf[i], Topic: r.names[t]}
			d.Text, _ = snippet(s.c.Docs[i].Text, nil, nil)
			if margin {
				d.Predicted = slices.Clone(r.pred.Labels[c.row])
				d.Score = c.score
				d.Reason = fmt.Sprintf("the model is unsure: its two best labels' scores differ by %.3g", c.score)
			} else {
				d.Score = -c.score
				d.Reason = fmt.Sprintf("its topics are mixed: the mixture's entropy is %.2f nats", -c.score)
			}
			out = append(out, d)
		}
		if !added {
			break
		}
	}
	return out
}

// suggestPairs proposes the look-alike topic pairs.
func suggestPairs(r *round) []PairSuggestion {
	k := len(r.topics)
	vecs := make([]map[string]float64, k)
	norms := make([]float64, k)
	for t, tp := range r.topics {
		vecs[t] = make(map[string]float64, len(tp.Words))
		for _, w := range tp.Words {
			if w.Weight > 0 {
				vecs[t][w.Word] = w.Weight
				norms[t] += w.Weight * w.Weight
			}
		}
		norms[t] = math.Sqrt(norms[t])
	}
	var pairs []PairSuggestion
	for a := 0; a < k; a++ {
		for b := a + 1; b < k; b++ {
			if norms[a] == 0 || norms[b] == 0 {
				continue
			}
			dot := 0.0
			for w, x := range vecs[a] {
				dot += x * vecs[b][w]
			}
			if sim := dot / (norms[a] * norms[b]); sim >= minSimilarity {
				pairs = append(pairs, PairSuggestion{A: r.names[a], B: r.names[b], Similarity: sim,
					WordsA: separating(r.topics[a].Words, vecs[b]), WordsB: separating(r.topics[b].Words, vecs[a])})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Similarity > pairs[j].Similarity })
	out := pairs[:min(SuggestPairs, len(pairs))]
	if out == nil {
		out = []PairSuggestion{}
	}
	return out
}

// separating returns the words of one topic (words, best first) whose
// weight most exceeds their weight in the other (other).
func separating(words []model.Word, other map[string]float64) []string {
	type gap struct {
		word string
		d    float64
	}
	var gaps []gap
	for _, w := range words[:min(100, len(words))] {
		if d := w.Weight - other[w.Word]; d > 0 {
			gaps = append(gaps, gap{w.Word, d})
		}
	}
	sort.SliceStable(gaps, func(i, j int) bool { return gaps[i].d > gaps[j].d })
	out := []string{}
	for _, g := range gaps[:min(separatingWords, len(gaps))] {
		out = append(out, g.word)
	}
	return out
}
