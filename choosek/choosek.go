package choosek

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Config configures Choose.
type Config struct {
	// Kind is the kind of model fitted (model.Kinds); "" means nmf. It
	// fits without supervision.
	Kind string
	// Ks are the candidate numbers of topics, each at least 2; nil means
	// DefaultKs for the corpus.
	Ks []int
	// Starts is the number of random starts per k, at least 2; 0 means
	// DefaultStarts.
	Starts int
	// Seed seeds the starts: start s fits with seed Seed + s.
	Seed uint64
	// MaxIter bounds each fit's iterations; 0 means the kind's default.
	MaxIter int
	// TopWords is the number of top words per topic compared between
	// starts and scored for coherence; 0 means DefaultTopWords.
	TopWords int
	// Progress, when set, is called after each fit.
	Progress func(Step)
}

// DefaultStarts and DefaultTopWords are Config's defaults.
const (
	DefaultStarts   = 3
	DefaultTopWords = 10
)

// Step reports a finished fit: Done of Total fits, the time since Choose
// began, and the estimated time left (the fits' cost grows with k: the
// estimate scales the time per topic so far by the topics left).
type Step struct {
	K, Start       int
	Done, Total    int
	Elapsed, Left  time.Duration
	Converged      bool
	LastIterations int
}

// Candidate is one k's measurements.
type Candidate struct {
	K int `json:"k"`
	// Stability is the mean agreement of the starts' topics (0 to 1),
	// over every pair of starts; StabilityMin and StabilityMax its
	// extremes over the pairs.
	Stability    float64 `json:"stability"`
	StabilityMin float64 `json:"stability_min"`
	StabilityMax float64 `json:"stability_max"`
	// Coherence is the mean NPMI of the topics' top words (−1 to 1),
	// averaged over the starts.
	Coherence float64 `json:"coherence"`
	// Empty is the mean number of empty topics per start (topics the fit
	// left unused).
	Empty float64 `json:"empty"`
	// Unconverged counts the starts that stopped at their iteration
	// limit.
	Unconverged int `json:"unconverged"`
	// Seconds is the time of the k's fits together.
	Seconds float64 `json:"seconds"`
}

// Result is what Choose found.
type Result struct {
	Kind       string      `json:"kind"`
	Starts     int         `json:"starts"`
	TopWords   int         `json:"top_words"`
	Candidates []Candidate `json:"candidates"`
	// Best is the recommended k, and Reason says why.
	Best   int    `json:"best"`
	Reason string `json:"reason"`
}

// DefaultKs returns the candidate ks for a corpus of n documents and m
// terms: 2 to 10, 12 to 20 by 2, 25 to 50 by 5 (each within 25% of the
// next, so that any k from 2 to 50 is within 12.5% of a candidate), less
// those above min(n, m)/2.
func DefaultKs(n, m int) []int {
	var ks []int
	for k := 2; k <= 50; {
		if k > min(n, m)/2 {
			break
		}
		ks = append(ks, k)
		switch {
		case k < 10:
			k++
		case k < 20:
			k += 2
		case k == 20:
			k = 25
		default:
			k += 5
		}
	}
	return ks
}

// ParseKs reads candidate ks: a list ("5,10,20") or a range
// "FROM:TO:STEP" (STEP 1 when left out: "2:12").
func ParseKs(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, errors.New("no k given")
	}
	var ks []int
	if strings.Contains(s, ":") {
		parts := strings.Split(s, ":")
		if len(parts) > 3 {
			return nil, fmt.Errorf("%q: want FROM:TO or FROM:TO:STEP", s)
		}
		v := []int{0, 0, 1}
		for i, p := range parts {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, fmt.Errorf("%q: %q is no whole number", s, p)
			}
			v[i] = n
		}
		if v[2] < 1 || v[1] < v[0] {
			return nil, fmt.Errorf("%q: want FROM ≤ TO and STEP ≥ 1", s)
		}
		for k := v[0]; k <= v[1]; k += v[2] {
			ks = append(ks, k)
		}
	} else {
		for _, p := range strings.Split(s, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil {
				return nil, fmt.Errorf("%q: %q is no whole number", s, p)
			}
			ks = append(ks, n)
		}
	}
	slices.Sort(ks)
	ks = slices.Compact(ks)
	if ks[0] < 2 {
		return nil, fmt.Errorf("%q: k = %d; every k must be at least 2 (one topic has nothing to agree on)", s, ks[0])
	}
	return ks, nil
}

// Choose fits cfg.Starts models of each k of cfg.Ks to the documents ×
// terms matrix x (columns vocab, read as they are: a text corpus is
// vectorized once by the caller) and recommends a k. A cancelled context
// stops it between fits with ctx's error.
func Choose(ctx context.Context, x *sparse.CSR, vocab []string, cfg Config) (*Result, error) {
	if cfg.Kind == "" {
		cfg.Kind = model.KindNMF
	}
	if _, err := model.KindOf(cfg.Kind); err != nil {
		return nil, err
	}
	if !slices.Contains(Kinds, cfg.Kind) {
		return nil, fmt.Errorf("choosek: %s learns from labels or seed words; choose k with a kind that fits without them (%s)", cfg.Kind, strings.Join(Kinds, ", "))
	}
	if x == nil || x.Rows == 0 || x.Cols == 0 {
		return nil, errors.New("choosek: no documents or no terms")
	}
	if cfg.Ks == nil {
		cfg.Ks = DefaultKs(x.Rows, x.Cols)
		if len(cfg.Ks) == 0 {
			return nil, fmt.Errorf("choosek: %d documents × %d terms are too few to compare numbers of topics", x.Rows, x.Cols)
		}
	}
	switch {
	case cfg.Starts == 0:
		cfg.Starts = DefaultStarts
	case cfg.Starts < 2:
		return nil, fmt.Errorf("choosek: Starts = %d; stability needs at least 2 starts", cfg.Starts)
	}
	if cfg.TopWords == 0 {
		cfg.TopWords = DefaultTopWords
	}
	if cfg.TopWords < 2 {
		return nil, fmt.Errorf("choosek: TopWords = %d; want at least 2", cfg.TopWords)
	}
	for _, kk := range cfg.Ks {
		if kk < 2 || kk > min(x.Rows, x.Cols) {
			return nil, fmt.Errorf("choosek: k = %d; want 2 to %d for %d documents × %d terms", kk, min(x.Rows, x.Cols), x.Rows, x.Cols)
		}
	}
	res := &Result{Kind: cfg.Kind, Starts: cfg.Starts, TopWords: cfg.TopWords}
	col := make(map[string]int, len(vocab))
	for j, w := range vocab {
		col[w] = j
	}
	t0 := time.Now()
	totalTopics := 0
	for _, kk := range cfg.Ks {
		totalTopics += kk * cfg.Starts
	}
	doneTopics, done := 0, 0
	for _, kk := range cfg.Ks {
		c := Candidate{K: kk}
		tk := time.Now()
		tops := make([][][]int, cfg.Starts)
		for s := range cfg.Starts {
			o := model.Options{Kind: cfg.Kind, K: kk, Seed: cfg.Seed + uint64(s), MaxIter: cfg.MaxIter}
			if cfg.Kind == model.KindNMF {
				// nmf's default start (NNDSVD) is the same from every seed.
				o.Init = "random"
			}
			f, err := model.Fit(ctx, model.Matrix(x, vocab), o)
			if err != nil {
				return nil, fmt.Errorf("choosek: k = %d, start %d: %w", kk, s+1, err)
			}
			topics, err := f.Model.Topics(cfg.TopWords)
			if err != nil {
				return nil, fmt.Errorf("choosek: k = %d, start %d: %w", kk, s+1, err)
			}
			tops[s] = topWordIndices(topics, col, &c)
			sc, err := metrics.NPMI(x, tops[s])
			if err == nil && sc.Scored > 0 {
				c.Coherence += sc.Mean / float64(cfg.Starts)
			}
			conv := f.Info.Convergence.Status == progress.Converged
			if !conv {
				c.Unconverged++
			}
			done++
			doneTopics += kk
			if cfg.Progress != nil {
				el := time.Since(t0)
				left := time.Duration(float64(el) / float64(doneTopics) * float64(totalTopics-doneTopics))
				cfg.Progress(Step{K: kk, Start: s + 1, Done: done, Total: len(cfg.Ks) * cfg.Starts, Elapsed: el, Left: left, Converged: conv, LastIterations: f.Info.Iterations})
			}
		}
		c.Empty /= float64(cfg.Starts)
		var err error
		c.Stability, c.StabilityMin, c.StabilityMax, err = stability(tops)
		if err != nil {
			return nil, err
		}
		c.Seconds = time.Since(tk).Seconds()
		res.Candidates = append(res.Candidates, c)
	}
	res.Best, res.Reason = recommend(res.Candidates)
	return res, nil
}

// recommend returns the k whose topics are both found again and
// coherent — the largest product of stability and coherence — and why.
// A corpus whose topics' coherence is nowhere positive is judged by
// stability alone.
func recommend(cs []Candidate) (int, string) {
	score := func(c Candidate) float64 { return c.Stability * c.Coherence }
	positive := slices.ContainsFunc(cs, func(c Candidate) bool { return c.Coherence > 0 })
	if !positive {
		score = func(c Candidate) float64 { return c.Stability }
	}
	best := 0
	for i, c := range cs {
		if score(c) > score(cs[best]) {
			best = i
		}
	}
	b := cs[best]
	if !positive {
		return b.K, fmt.Sprintf("the most stable topics (agreement %.2f between starts); no k gives topics of positive coherence, so coherence could not help", b.Stability)
	}
	return b.K, fmt.Sprintf("the largest product of stability (%.2f) and coherence (NPMI %.3f): topics found again from other starts that also hang together", b.Stability, b.Coherence)
}

// Kinds are the kinds Choose fits: those that fit without supervision.
var Kinds = []string{model.KindNMF, model.KindLDA, model.KindCorEx}

// topWordIndices returns each topic's top words as column indices (col:
// the column of each vocabulary word), counting the empty topics in c.
func topWordIndices(topics []model.Topic, col map[string]int, c *Candidate) [][]int {
	out := make([][]int, len(topics))
	for t, tp := range topics {
		if tp.Empty {
			c.Empty++
			continue
		}
		for _, w := range tp.Words {
			if j, ok := col[w.Word]; ok && w.Weight > 0 {
				out[t] = append(out[t], j)
			}
		}
	}
	return out
}

// stability returns the mean, least and largest agreement over the pairs
// of starts of the topics' top words (tops[s][t]: start s's topic t).
func stability(tops [][][]int) (mean, lo, hi float64, err error) {
	lo, hi = math.Inf(1), math.Inf(-1)
	pairs := 0
	for a := range tops {
		for b := a + 1; b < len(tops); b++ {
			ag, err := agreement(tops[a], tops[b])
			if err != nil {
				return 0, 0, 0, err
			}
			mean += ag
			lo, hi = min(lo, ag), max(hi, ag)
			pairs++
		}
	}
	return mean / float64(pairs), lo, hi, nil
}

// agreement is the mean Jaccard similarity of the top-word sets of the
// topics of a and b matched one to one so that the total is largest; an
// empty topic agrees with nothing.
func agreement(a, b [][]int) (float64, error) {
	sim := mat.NewDense(len(a), len(b), nil)
	for i, ta := range a {
		for j, tb := range b {
			sim.Set(i, j, jaccard(ta, tb))
		}
	}
	_, total, err := metrics.Assign(sim, true)
	if err != nil {
		return 0, fmt.Errorf("choosek: matching topics: %w", err)
	}
	return total / float64(max(len(a), len(b))), nil
}

// jaccard is |a ∩ b| / |a ∪ b| of two sets of distinct indices (0 when
// both are empty).
func jaccard(a, b []int) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	in := 0
	for _, x := range a {
		if slices.Contains(b, x) {
			in++
		}
	}
	return float64(in) / float64(len(a)+len(b)-in)
}
