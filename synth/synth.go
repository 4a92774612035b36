package synth

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
)

// Config describes a synthetic corpus. Zero fields take the defaults
// noted; Docs, Terms and Topics must be set.
type Config struct {
	// Docs is the number of documents, Terms the vocabulary size and Topics
	// the number of planted topics (at most Terms).
	Docs, Terms, Topics int
	// Classes is the number of label classes (0: Topics): a document's
	// label is the class of its main topic, topic mod Classes.
	Classes int
	// Labeled is the fraction of documents that carry their label, in
	// [0, 1].
	Labeled float64
	// MeanLength is the mean number of tokens of a document (0: 100).
	// Lengths are log-normal with σ = LengthSigma (0: 0.75), at least 1.
	MeanLength, LengthSigma float64
	// Zipf is the exponent s of the vocabulary's rank-frequency law,
	// weight ∝ 1/rank^s (0: 1.05, close to English text).
	Zipf float64
	// TopicShare is the share of a document's tokens drawn from its topics
	// (three quarters from the main topic, a quarter from a second one)
	// rather than from the whole vocabulary (0: 0.5; at most 1).
	TopicShare float64
	// Seed fixes the corpus: the same Config gives the same documents.
	Seed uint64
	// RowsPerShard is the number of documents per shard of the shards
	// format (0: shard.DefaultRowsPerShard); it changes the files, not the
	// documents.
	RowsPerShard int
}

// NYTimes returns a Config shaped like the UCI NYTimes bag-of-words corpus
// (300,000 documents, 102,660 terms, about 232 distinct terms and 330
// tokens per document) with 100 topics and 10% of the documents labeled.
func NYTimes() Config {
	return Config{Docs: 300_000, Terms: 102_660, Topics: 100, Labeled: 0.1, MeanLength: 330, Zipf: 0.92}
}

// PubMed returns a Config shaped like the UCI PubMed bag-of-words corpus
// (8,200,000 documents, 141,043 terms, about 59 distinct terms and 90
// tokens per document) with 100 topics and 10% of the documents labeled.
func PubMed() Config {
	return Config{Docs: 8_200_000, Terms: 141_043, Topics: 100, Labeled: 0.1, MeanLength: 90, Zipf: 1.1}
}

// Presets names the Configs that Preset knows.
var Presets = []string{"nytimes", "pubmed", "small"}

// Preset returns the named Config: "nytimes", "pubmed", or "small" (2,000
// documents, 5,000 terms, 20 topics: a test-sized corpus).
func Preset(name string) (Config, error) {
	switch name {
	case "nytimes":
		return NYTimes(), nil
	case "pubmed":
		return PubMed(), nil
	case "small":
		return Config{Docs: 2000, Terms: 5000, Topics: 20, Labeled: 0.2, MeanLength: 120}, nil
	}
	return Config{}, fmt.Errorf("synth: unknown preset %q (want nytimes, pubmed or small)", name)
}

// resolve validates c and fills its defaults.
func (c Config) resolve() (Config, error) {
	switch {
	case c.Docs < 1:
		return c, fmt.Errorf("synth: Docs = %d, want at least 1", c.Docs)
	case c.Terms < 1:
		return c, fmt.Errorf("synth: Terms = %d, want at least 1", c.Terms)
	case c.Topics < 1 || c.Topics > c.Terms:
		return c, fmt.Errorf("synth: Topics = %d, want 1 to Terms (%d)", c.Topics, c.Terms)
	case c.Classes < 0 || c.Classes > c.Topics:
		return c, fmt.Errorf("synth: Classes = %d, want 0 (one per topic) to Topics (%d)", c.Classes, c.Topics)
	case math.IsNaN(c.Labeled) || c.Labeled < 0 || c.Labeled > 1:
		return c, fmt.Errorf("synth: Labeled = %v, want a fraction in [0, 1]", c.Labeled)
	case !(c.MeanLength >= 0) || math.IsInf(c.MeanLength, 0):
		return c, fmt.Errorf("synth: MeanLength = %v, want a finite number > 0", c.MeanLength)
	case !(c.LengthSigma >= 0) || c.LengthSigma > 5:
		return c, fmt.Errorf("synth: LengthSigma = %v, want 0 to 5", c.LengthSigma)
	case !(c.Zipf >= 0) || c.Zipf > 5:
		return c, fmt.Errorf("synth: Zipf = %v, want 0 to 5", c.Zipf)
	case !(c.TopicShare >= 0) || c.TopicShare > 1:
		return c, fmt.Errorf("synth: TopicShare = %v, want a fraction in [0, 1]", c.TopicShare)
	}
	if c.Classes == 0 {
		c.Classes = c.Topics
	}
	if c.MeanLength == 0 {
		c.MeanLength = 100
	}
	if c.LengthSigma == 0 {
		c.LengthSigma = 0.75
	}
	if c.Zipf == 0 {
		c.Zipf = 1.05
	}
	if c.TopicShare == 0 {
		c.TopicShare = 0.5
	}
	return c, nil
}

// Doc is one generated document.
type Doc struct {
	// Terms are the document's distinct term indices, ascending, and
	// Counts their numbers of occurrences.
	Terms  []int32
	Counts []float64
	// Tokens is the document's length, Σ Counts.
	Tokens int
	// Topic is the document's main topic and Class its class; Label is
	// Class when the document is labeled, −1 otherwise.
	Topic, Class, Label int

	tokens []int32 // scratch
}

// Generator draws the documents of a Config. Document i depends on the
// Config and i only, so documents can be drawn in any order, on any number
// of cores, and a corpus of any size is generated without holding it.
type Generator struct {
	cfg      Config
	bg       alias   // the whole vocabulary, Zipf weights
	topic    []alias // each topic over its own terms
	own      [][]int32
	mu, sdev float64 // of the log-normal length
}

// Salts of the random streams.
const (
	saltTerms = 0x73796e74682d7465 // "synth-te"
	saltDocs  = 0x73796e74682d646f // "synth-do"
)

// New validates cfg and prepares its vocabulary and topics: O(Terms)
// memory.
func New(cfg Config) (*Generator, error) {
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	v, k := cfg.Terms, cfg.Topics
	w := make([]float64, v)
	for r := range w {
		w[r] = math.Pow(float64(r+1), -cfg.Zipf)
	}
	g := &Generator{cfg: cfg, bg: newAlias(w), own: make([][]int32, k), topic: make([]alias, k)}
	// Each topic owns every k-th term of a random permutation of the
	// vocabulary, so that every topic has terms of every frequency rank.
	perm := make([]int, v)
	for i := range perm {
		perm[i] = i
	}
	rng.New(cfg.Seed, 0, saltTerms).Shuffle(perm)
	for i, t := range perm {
		g.own[i%k] = append(g.own[i%k], int32(t))
	}
	for t, terms := range g.own {
		slices.Sort(terms)
		tw := make([]float64, len(terms))
		for i, term := range terms {
			tw[i] = w[term]
		}
		g.topic[t] = newAlias(tw)
	}
	g.sdev = cfg.LengthSigma
	g.mu = math.Log(cfg.MeanLength) - g.sdev*g.sdev/2
	return g, nil
}

// Config returns the generator's configuration with its defaults filled.
func (g *Generator) Config() Config { return g.cfg }

// Doc draws document i (0 ≤ i < Docs) into d, reusing d's storage.
func (g *Generator) Doc(i int, d *Doc) {
	c := g.cfg
	r := rng.New(c.Seed, uint64(i), saltDocs)
	// Box–Muller: one standard normal from two uniforms.
	u1, u2 := r.Float64(), r.Float64()
	z := math.Sqrt(-2*math.Log(1-u1)) * math.Cos(2*math.Pi*u2)
	n := max(1, int(math.Round(math.Exp(g.mu+g.sdev*z))))
	main := r.Intn(c.Topics)
	second := r.Intn(c.Topics)
	d.Topic, d.Class = main, main%c.Classes
	d.Label = -1
	if r.Float64() < c.Labeled {
		d.Label = d.Class
	}
	d.tokens = d.tokens[:0]
	for range n {
		u := r.Float64()
		var term int32
		switch {
		case u >= c.TopicShare:
			term = int32(g.bg.sample(r))
		case u < 0.75*c.TopicShare:
			term = g.own[main][g.topic[main].sample(r)]
		default:
			term = g.own[second][g.topic[second].sample(r)]
		}
		d.tokens = append(d.tokens, term)
	}
	slices.Sort(d.tokens)
	d.Terms, d.Counts, d.Tokens = d.Terms[:0], d.Counts[:0], n
	for p := 0; p < len(d.tokens); {
		q := p + 1
		for q < len(d.tokens) && d.tokens[q] == d.tokens[p] {
			q++
		}
		d.Terms = append(d.Terms, d.tokens[p])
		d.Counts = append(d.Counts, float64(q-p))
		p = q
	}
}

// batch is the number of documents drawn in parallel before they are
// handed out in order.
const batch = 4096

// Each draws the documents in order and calls fn with each (d is reused:
// copy what must outlive the call). Documents are drawn on all cores a
// batch at a time; fn runs on the calling goroutine. It stops at the first
// error of fn or when ctx is done.
func (g *Generator) Each(ctx context.Context, fn func(i int, d *Doc) error) error {
	docs := make([]Doc, min(batch, g.cfg.Docs))
	for lo := 0; lo < g.cfg.Docs; lo += batch {
		if err := ctx.Err(); err != nil {
			return err
		}
		hi := min(lo+batch, g.cfg.Docs)
		parallel.For(hi-lo, 64, func(a, b int) {
			for j := a; j < b; j++ {
				g.Doc(lo+j, &docs[j])
			}
		})
		for j := range hi - lo {
			if err := fn(lo+j, &docs[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// alias is Walker's alias table for drawing an index with probability
// proportional to its weight in O(1).
type alias struct {
	prob  []float64
	alias []int32
}

// newAlias builds the table of the positive weights w (Vose's method).
func newAlias(w []float64) alias {
	n := len(w)
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	a := alias{prob: make([]float64, n), alias: make([]int32, n)}
	scaled := make([]float64, n)
	var small, large []int32
	for i, x := range w {
		scaled[i] = x * float64(n) / sum
		if scaled[i] < 1 {
			small = append(small, int32(i))
		} else {
			large = append(large, int32(i))
		}
	}
	for len(small) > 0 && len(large) > 0 {
		s, l := small[len(small)-1], large[len(large)-1]
		small = small[:len(small)-1]
		a.prob[s], a.alias[s] = scaled[s], l
		scaled[l] += scaled[s] - 1
		if scaled[l] < 1 {
			large = large[:len(large)-1]
			small = append(small, l)
		}
	}
	for _, i := range large {
		a.prob[i], a.alias[i] = 1, i
	}
	for _, i := range small { // rounding leftovers
		a.prob[i], a.alias[i] = 1, i
	}
	return a
}

// sample draws an index.
func (a *alias) sample(r rng.Source) int {
	u := r.Float64() * float64(len(a.prob))
	i := int(u)
	if i >= len(a.prob) {
		i = len(a.prob) - 1
	}
	if u-float64(i) < a.prob[i] {
		return i
	}
	return int(a.alias[i])
}
