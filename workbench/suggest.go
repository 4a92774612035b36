package workbench

import (
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/semitopic/semitopic/internal/rng"
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
//   - documents to label: spread over the topics as the documents are;
//     within a topic, its most typical documents until it has a few
//     labeled ones, then ones the model is unsure of (see suggestDocs);
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

// typicalUntil is the number of labeled documents a topic holds before
// Suggest stops proposing its most typical documents and proposes its
// least sure ones.
const typicalUntil = 2

// saltSuggest separates Suggest's random stream from the fits'.
const saltSuggest = 0x5e66e57

// suggestDocs proposes documents to label: SuggestDocs unlabeled
// documents spread over the topics (by each document's topic of largest
// weight) as the documents are, each going to the topic with the fewest
// labeled or proposed documents for its size — a stratified sample, so
// that the labels follow the corpus as random ones would, without their
// gaps. Within a topic with fewer than typicalUntil labeled documents it
// proposes the most typical (the largest share of that topic in its
// mixture): with no label to be unsure between, the least sure documents
// are the odd ones, and a typical one tells the model what the topic is.
// Past that, documents drawn at random (seeded by the session's seed and
// the round) from the topic's less sure half, by the margin between the
// two best label scores or the entropy of the topic mixture: the very
// least sure are often odd documents, and a run of them biases the
// labels. Documents shorter than the median (in distinct terms) are left
// out where a topic has others: a document of a few words gives a flat
// mixture and teaches little.
func (s *Session) suggestDocs(r *round, st *State) []DocSuggestion {
	type cand struct {
		row     int
		unsure  float64 // smaller: less sure
		typical float64 // larger: more typical of its topic
	}
	k := len(r.topics)
	// The margin is between labels the person gave (a model steered by
	// seed words alone is read by its mixture), and needs two of them.
	margin := r.pred != nil && len(st.Labels) > 0 && r.pred.Scores != nil && r.pred.Scores.RawMatrix().Cols >= 2
	nnz := r.d.x.RowNNZ()
	minTerms := medianTerms(nnz)
	byTopic := make([][]cand, k)
	short := make([][]cand, k)
	labeledIn := make([]int, k)
	size := make([]int, k)
	for row, i := range r.d.rows {
		t := r.argmax[row]
		if t < 0 {
			continue
		}
		size[t]++
		if len(st.Labels[s.idOf[i]]) > 0 {
			labeledIn[t]++
			continue
		}
		mix := r.mixture(row)
		c := cand{row: row, typical: mix[t]}
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
			c.unsure = best - second
		} else {
			h := 0.0
			for _, p := range mix {
				if p > 0 {
					h -= p * math.Log(p)
				}
			}
			c.unsure = -h
		}
		if nnz[row] >= minTerms {
			byTopic[t] = append(byTopic[t], c)
		} else {
			short[t] = append(short[t], c)
		}
	}
	for t := range byTopic {
		// Short documents only where a topic has no other.
		if len(byTopic[t]) == 0 {
			byTopic[t] = short[t]
		}
		if labeledIn[t] < typicalUntil {
			sort.SliceStable(byTopic[t], func(a, b int) bool { return byTopic[t][a].typical > byTopic[t][b].typical })
		} else {
			// The less sure half, in a seeded random order.
			sort.SliceStable(byTopic[t], func(a, b int) bool { return byTopic[t][a].unsure < byTopic[t][b].unsure })
			half := byTopic[t][:(len(byTopic[t])+1)/2]
			perm := make([]int, len(half))
			for j := range perm {
				perm[j] = j
			}
			rng.New(s.cfg.Seed, uint64(r.meta.Number), saltSuggest+uint64(t)).Shuffle(perm)
			shuffled := make([]cand, len(half))
			for j, p := range perm {
				shuffled[j] = half[p]
			}
			byTopic[t] = shuffled
		}
	}
	// Each proposal goes to the topic whose documents have the fewest
	// labeled or proposed ones for their number: the labels spread over
	// the topics as the documents do.
	taken := make([]int, k)
	out := []DocSuggestion{}
	for len(out) < SuggestDocs {
		t := -1
		for u := range k {
			if taken[u] >= len(byTopic[u]) {
				continue
			}
			if t < 0 || float64(size[u])/float64(labeledIn[u]+taken[u]+1) > float64(size[t])/float64(labeledIn[t]+taken[t]+1) {
				t = u
			}
		}
		if t < 0 {
			break
		}
		c := byTopic[t][taken[t]]
		taken[t]++
		i := r.d.rows[c.row]
		d := DocSuggestion{ID: s.idOf[i], Topic: r.names[t]}
		d.Text, _ = snippet(s.c.Docs[i].Text, nil, nil)
		if margin {
			d.Predicted = slices.Clone(r.pred.Labels[c.row])
		}
		switch {
		case labeledIn[t] < typicalUntil:
			d.Score = c.typical
			d.Reason = fmt.Sprintf("typical of topic %q (%.0f%% of its mixture), which has %d labeled", r.names[t], 100*c.typical, labeledIn[t])
		case margin:
			d.Score = c.unsure
			d.Reason = fmt.Sprintf("the model is unsure: its two best labels' scores differ by %.3g", c.unsure)
		default:
			d.Score = -c.unsure
			d.Reason = fmt.Sprintf("its topics are mixed: the mixture's entropy is %.2f nats", -c.unsure)
		}
		out = append(out, d)
	}
	return out
}

// medianTerms is the median of the counts of distinct terms nnz of the
// documents that hold any.
func medianTerms(nnz []int) int {
	var n []int
	for _, c := range nnz {
		if c > 0 {
			n = append(n, c)
		}
	}
	if len(n) == 0 {
		return 0
	}
	slices.Sort(n)
	return n[len(n)/2]
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
