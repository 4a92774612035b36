package workbench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/model"
)

// round is a fitted state with what the views read from it.
type round struct {
	meta   RoundSummary
	state  *State
	fitted *model.Fitted
	d      *data
	// saved reports that the round's folder is in place.
	saved bool
	// cold reports that fitted is a cold fit of the state, the model
	// `semitopic fit` makes of the exported files; coldFitted is that
	// model for a round that is not (a warm start), once Export made it.
	cold       bool
	coldFitted *model.Fitted

	// anchors are the state's anchors as the fit read them, and anchorOf
	// the anchor of each model topic (-1 for none).
	anchors  []model.Anchor
	anchorOf []int
	// topics are the model's topics with their top words, names their
	// names in edits and views, byName the inverse.
	topics []model.Topic
	names  []string
	byName map[string]int
	// w is the documents' (rows') topic weights, argmax each row's topic
	// of largest weight (-1 for a row of zeros); pred the predictions of
	// a model that predicts labels.
	w      *mat.Dense
	argmax []int
	pred   *model.Prediction
	// coherence is each topic's NPMI (NaN: fewer than two words), junk
	// why it looks like junk.
	coherence []float64
	junk      [][]string
	// checks and diff are recorded after the refit (figures.json).
	checks Checks
	diff   Diff
}

// topWordsKept is the number of top words a round keeps per topic.
const topWordsKept = MaxWords

// The junk rules: a topic whose top words' NPMI is below junkNPMI, or
// whose junkDocs heaviest documents hold junkShare of its weight.
const (
	junkNPMI  = 0.0
	junkDocs  = 5
	junkShare = 0.5
)

// derive computes what the views read from the round's model and data.
func (r *round) derive(ctx context.Context) error {
	m := r.fitted.Model
	ts, err := m.Topics(topWordsKept)
	if err != nil {
		return err
	}
	r.topics = ts
	if a := r.d.analyzer(); a != nil {
		if r.anchors, _, err = model.AnalyzeAnchors(a, r.state.Anchors); err != nil {
			return err
		}
	} else {
		r.anchors = r.state.Anchors
	}
	r.names = make([]string, len(ts))
	r.anchorOf = make([]int, len(ts))
	r.byName = make(map[string]int, len(ts))
	for t, tp := range ts {
		r.anchorOf[t] = -1
		name := tp.Name
		for k, an := range r.state.Anchors {
			if name == an.Topic || strings.HasPrefix(name, an.Topic+" (") {
				r.anchorOf[t], name = k, an.Topic
				break
			}
		}
		if r.anchorOf[t] < 0 {
			if n, ok := r.state.Names[tp.Name]; ok {
				name = n
			}
		}
		r.names[t] = name
		r.byName[name] = t
	}
	// The documents as the fit left them where the kind keeps that (a
	// labeled document read as its label constrained it), else as new
	// documents.
	pred, _, err := r.fitted.Training(ctx, r.d.x)
	if err != nil {
		return err
	}
	r.w = pred.Weights
	if pred.Labels != nil {
		r.pred = pred
	}
	n, k := r.w.Dims()
	r.argmax = make([]int, n)
	for i := range r.argmax {
		r.argmax[i] = metrics.Argmax(r.w.RawRowView(i))
		if r.argmax[i] >= 0 && r.w.At(i, r.argmax[i]) <= 0 {
			r.argmax[i] = -1
		}
	}
	r.coherence = make([]float64, k)
	top := make([][]int, k)
	for t := range top {
		for _, wd := range ts[t].Words[:min(10, len(ts[t].Words))] {
			top[t] = append(top[t], r.d.col[wd.Word])
		}
	}
	if sc, err := metrics.NPMI(r.d.x, top); err == nil {
		copy(r.coherence, sc.PerTopic)
	} else {
		for t := range r.coherence {
			r.coherence[t] = math.NaN()
		}
	}
	r.junk = make([][]string, k)
	for t := range r.junk {
		if ts[t].Empty {
			continue
		}
		if c := r.coherence[t]; !math.IsNaN(c) && c < junkNPMI {
			r.junk[t] = append(r.junk[t], fmt.Sprintf("low coherence (NPMI %.2f): its top words seldom occur in the same documents", c))
		}
		col := make([]float64, n)
		total, used := 0.0, 0
		for i := range col {
			col[i] = r.w.At(i, t)
			total += col[i]
			if col[i] > 0 {
				used++
			}
		}
		if total <= 0 {
			continue
		}
		if used <= junkDocs {
			r.junk[t] = append(r.junk[t], fmt.Sprintf("only %d documents use it", used))
			continue
		}
		sort.Sort(sort.Reverse(sort.Float64Slice(col)))
		heavy := 0.0
		for _, v := range col[:junkDocs] {
			heavy += v
		}
		if share := heavy / total; share >= junkShare {
			r.junk[t] = append(r.junk[t], fmt.Sprintf("%d documents hold %.0f%% of its weight", junkDocs, 100*share))
		}
	}
	return nil
}

// topic returns the index of the topic named name, or an error listing the
// round's topics.
func (r *round) topic(name string) (int, error) {
	if t, ok := r.byName[name]; ok {
		return t, nil
	}
	return -1, fmt.Errorf("no topic is named %q (the topics: %s)", name, listNames(r.names, 12))
}

// listNames lists up to n names, quoted.
func listNames(names []string, n int) string {
	var q []string
	for _, s := range names[:min(n, len(names))] {
		q = append(q, fmt.Sprintf("%q", s))
	}
	if len(names) > n {
		q = append(q, fmt.Sprintf("and %d more", len(names)-n))
	}
	if len(q) == 0 {
		return "none"
	}
	return strings.Join(q, ", ")
}

// topTen returns topic t's top 10 words.
func (r *round) topTen(t int) []string {
	var out []string
	for _, w := range r.topics[t].Words[:min(10, len(r.topics[t].Words))] {
		out = append(out, w.Word)
	}
	return out
}

// mixture returns row i's topic weights divided by their sum.
func (r *round) mixture(i int) []float64 {
	row := slices.Clone(r.w.RawRowView(i))
	s := 0.0
	for _, v := range row {
		s += v
	}
	if s > 0 {
		for t := range row {
			row[t] /= s
		}
	}
	return row
}

// seedNote says what a kind promises about seed words.
func seedNote(kind string) string {
	if holdsSeeds(kind) {
		return fmt.Sprintf("seed words are held among their topic's top %d words in %s: the fit raises a seed word that falls below (the checks after each refit show each one's rank)", SeedRank, kind)
	}
	return fmt.Sprintf("seed words steer %s topics without a guarantee of a place in the top 10: a word specific to the topic's documents usually gets there, a word common to many documents may not; the checks after each refit show each seed word's rank", kind)
}

// check records the round's promise checks: every seed word's rank in its
// topic (among its top topWordsKept words), every excluded word's weight
// in its topic, and the labeled documents' predictions.
func (r *round) check(ids []string) error {
	c := Checks{Note: seedNote(r.state.Kind)}
	need := false
	for _, an := range r.anchors {
		need = need || len(an.Exclude) > 0
	}
	// An excluded word's weight must be exactly zero: its absence from
	// the top words says nothing, so the topics are read whole (a sort
	// of every topic's row: done only when there are exclusions).
	var all []model.Topic
	if need {
		var err error
		if all, err = r.fitted.Model.Topics(0); err != nil {
			return err
		}
	}
	for k, an := range r.anchors {
		t := -1
		for q, a := range r.anchorOf {
			if a == k {
				t = q
			}
		}
		given := r.state.Anchors[k]
		for j, term := range an.Words {
			sc := SeedCheck{Topic: given.Topic, Word: term, Term: term}
			if j < len(given.Words) && len(an.Words) == len(given.Words) {
				sc.Word = given.Words[j]
			}
			if t >= 0 {
				sc.Rank, _ = rankOf(r.topics[t].Words, term)
			}
			sc.Top10 = sc.Rank >= 1 && sc.Rank <= 10
			c.Seeds = append(c.Seeds, sc)
		}
		for j, term := range an.Exclude {
			ec := ExcludeCheck{Topic: given.Topic, Word: term, Term: term}
			if j < len(given.Exclude) && len(an.Exclude) == len(given.Exclude) {
				ec.Word = given.Exclude[j]
			}
			if t >= 0 {
				_, ec.Weight = rankOf(all[t].Words, term)
			}
			ec.Zero = ec.Weight == 0
			c.Excluded = append(c.Excluded, ec)
		}
	}
	if r.pred != nil {
		for row, i := range r.d.rows {
			ls := r.state.Labels[ids[i]]
			if len(ls) == 0 {
				continue
			}
			if r.d.x.Indptr[row+1] == r.d.x.Indptr[row] {
				c.Wordless++
				continue
			}
			c.Labeled++
			ok := len(r.pred.Labels[row]) > 0
			for _, p := range r.pred.Labels[row] {
				ok = ok && slices.Contains(ls, p)
			}
			if ok {
				c.Agree++
			} else if len(c.Disagree) < MaxMoves {
				c.Disagree = append(c.Disagree, LabelMiss{ID: ids[i], Labels: ls, Predicted: r.pred.Labels[row]})
			}
		}
	}
	r.checks = c
	return nil
}

// rankOf returns term's rank (from 1) and weight among words, best first;
// 0 and 0 when it is not among them.
func rankOf(words []model.Word, term string) (int, float64) {
	for i, w := range words {
		if w.Word == term {
			return i + 1, w.Weight
		}
	}
	return 0, 0
}

// diffFrom records what r changed against prev (nil for a first round).
func (r *round) diffFrom(prev *round, ids []string) {
	d := Diff{Round: r.meta.Number, Changes: r.meta.Changes, Checks: r.checks}
	if prev == nil {
		for t := range r.topics {
			d.Topics = append(d.Topics, TopicDiff{Topic: r.names[t], New: true, Entered: r.topTen(t)})
		}
		r.diff = d
		return
	}
	d.Previous = prev.meta.Number
	for t := range r.topics {
		td := TopicDiff{Topic: r.names[t]}
		now := r.topTen(t)
		if q, ok := prev.byName[r.names[t]]; ok {
			before := prev.topTen(q)
			for _, w := range now {
				if !slices.Contains(before, w) {
					td.Entered = append(td.Entered, w)
				}
			}
			for _, w := range before {
				if !slices.Contains(now, w) {
					td.Left = append(td.Left, w)
				}
			}
		} else {
			td.New, td.Entered = true, now
		}
		d.Topics = append(d.Topics, td)
	}
	for q, n := range prev.names {
		if _, ok := r.byName[n]; !ok && !prev.topics[q].Empty {
			d.Gone = append(d.Gone, n)
		}
	}
	for row, i := range r.d.rows {
		pr := prev.d.rowOf[i]
		if pr < 0 {
			continue
		}
		from, to := "", ""
		if t := prev.argmax[pr]; t >= 0 {
			from = prev.names[t]
		}
		if t := r.argmax[row]; t >= 0 {
			to = r.names[t]
		}
		if from != to {
			d.Moved++
			if len(d.Moves) < MaxMoves {
				d.Moves = append(d.Moves, Move{ID: ids[i], From: from, To: to})
			}
		}
	}
	r.diff = d
}

// free reports whether topic t of r is free: named by no anchor and
// standing for no label.
func (r *round) free(t int) bool { return r.anchorOf[t] < 0 && r.topics[t].Label == "" }

// matchSimilarity is the least cosine between two topics' word weights
// for a free topic of a new round to carry on a free topic of the round
// before it.
const matchSimilarity = 0.3

// carryNames names r's free topics after the free topics of prev they
// carry on: a model names its free topics by position ("topic-3"), which
// a refit reshuffles, so each free topic of r takes the name (the
// person's, or the position's) of the free topic of prev whose words are
// most alike (a cosine of at least matchSimilarity, each topic matched
// once, the most alike pairs first), as lineage names prev's topics now.
// The other free topics keep their model's name when no topic has it,
// else take a new "topic-N". It sets r.state.Names to the names given.
func (r *round) carryNames(prev *round, lineage map[string][]string) {
	if prev == nil {
		return
	}
	now := map[int]string{} // prev's free topics still there → their name now
	for name, from := range lineage {
		if len(from) != 1 {
			continue
		}
		if q, ok := prev.byName[from[0]]; ok && prev.free(q) {
			now[q] = name
		}
	}
	vec := func(rr *round, t int) (map[string]float64, float64) {
		m := map[string]float64{}
		n := 0.0
		for _, w := range rr.topics[t].Words {
			if w.Weight > 0 {
				m[w.Word] = w.Weight
				n += w.Weight * w.Weight
			}
		}
		return m, math.Sqrt(n)
	}
	type pair struct {
		t, q int
		sim  float64
	}
	var pairs []pair
	for t := range r.topics {
		if !r.free(t) {
			continue
		}
		a, na := vec(r, t)
		for q := range now {
			b, nb := vec(prev, q)
			if na == 0 || nb == 0 {
				continue
			}
			dot := 0.0
			for w, x := range a {
				dot += x * b[w]
			}
			if sim := dot / (na * nb); sim >= matchSimilarity {
				pairs = append(pairs, pair{t, q, sim})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool {
		if pairs[i].sim != pairs[j].sim {
			return pairs[i].sim > pairs[j].sim
		}
		return pairs[i].t < pairs[j].t || pairs[i].t == pairs[j].t && pairs[i].q < pairs[j].q
	})
	name := map[int]string{}
	usedQ := map[int]bool{}
	taken := map[string]bool{}
	for t := range r.topics {
		if !r.free(t) {
			taken[r.names[t]] = true
		}
	}
	for _, p := range pairs {
		if _, ok := name[p.t]; ok || usedQ[p.q] || taken[now[p.q]] {
			continue
		}
		name[p.t], usedQ[p.q], taken[now[p.q]] = now[p.q], true, true
	}
	names := map[string]string{}
	next := len(r.topics)
	for t, tp := range r.topics {
		if !r.free(t) {
			continue
		}
		n, ok := name[t]
		if !ok {
			n = tp.Name
			for taken[n] {
				next++
				n = fmt.Sprintf("topic-%d", next)
			}
			taken[n] = true
		}
		if n != tp.Name {
			names[tp.Name] = n
		}
		delete(r.byName, r.names[t])
	}
	for t, tp := range r.topics {
		if r.free(t) {
			r.names[t] = tp.Name
			if n, ok := names[tp.Name]; ok {
				r.names[t] = n
			}
			r.byName[r.names[t]] = t
		}
	}
	r.state.Names = nil
	if len(names) > 0 {
		r.state.Names = names
	}
}
