package demo

import (
	_ "embed"
	"fmt"
	"math"
	"strings"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/rng"
)

//go:embed themes.txt
var themesFile string

// Theme is one planted theme.
type Theme struct {
	Name    string
	Anchors []string
	Words   []string
}

// Spec is the parsed word lists of the demo corpus.
type Spec struct {
	Themes     []Theme
	Background []string
	Function   []string
}

// Options controls the generator. Zero fields take the defaults given.
type Options struct {
	// Docs is the number of documents (default 480).
	Docs int
	// Seed seeds the generator (default DefaultSeed).
	Seed uint64
	// Labeled is the fraction of documents that keep their labels
	// (default 1/3). Only training documents are labeled.
	Labeled float64
	// Mixed is the probability that a document has a second theme
	// (default 0.2).
	Mixed float64
	// TestEvery puts every n-th document in the test split (default 5;
	// negative for no split).
	TestEvery int
}

// DefaultSeed is the seed of the embedded demo corpus.
const DefaultSeed = 20201

// Demo is a generated corpus with its ground truth.
type Demo struct {
	// Corpus holds the documents; only the labeled ones carry Labels.
	Corpus *corpus.Corpus
	// Truth[i] lists the planted themes of document i, labeled or not.
	Truth [][]string
	// Spec is the word lists the documents were sampled from.
	Spec Spec
}

// Anchors returns the anchor words of each theme, in theme order.
func (d *Demo) Anchors() map[string][]string {
	m := make(map[string][]string, len(d.Spec.Themes))
	for _, t := range d.Spec.Themes {
		m[t.Name] = t.Anchors
	}
	return m
}

// ThemeNames returns the theme names in file order.
func (d *Demo) ThemeNames() []string {
	names := make([]string, len(d.Spec.Themes))
	for i, t := range d.Spec.Themes {
		names[i] = t.Name
	}
	return names
}

// Load generates the embedded demo corpus with the default options.
func Load() (*Demo, error) {
	return Generate(Options{})
}

// Generate samples a demo corpus from the embedded word lists.
func Generate(o Options) (*Demo, error) {
	spec, err := ParseSpec(themesFile)
	if err != nil {
		return nil, fmt.Errorf("demo: themes.txt: %w", err)
	}
	return spec.Generate(o)
}

// ParseSpec parses word lists in the format of themes.txt: blocks starting
// with "theme: NAME" holding "anchors: a, b" and "words: ..." lines, plus
// "background:" and "function:" lists; indented lines continue the previous
// list; '#' starts a comment line.
func ParseSpec(src string) (Spec, error) {
	var s Spec
	var cur *[]string
	for n, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if cur == nil {
				return Spec{}, fmt.Errorf("line %d: continuation outside a list", n+1)
			}
			*cur = append(*cur, strings.Fields(trimmed)...)
			continue
		}
		key, val, ok := strings.Cut(trimmed, ":")
		if !ok {
			return Spec{}, fmt.Errorf("line %d: want \"key: value\"", n+1)
		}
		val = strings.TrimSpace(val)
		switch key {
		case "theme":
			if val == "" {
				return Spec{}, fmt.Errorf("line %d: theme without a name", n+1)
			}
			s.Themes = append(s.Themes, Theme{Name: val})
			cur = nil
		case "anchors", "words":
			if len(s.Themes) == 0 {
				return Spec{}, fmt.Errorf("line %d: %s before the first theme", n+1, key)
			}
			t := &s.Themes[len(s.Themes)-1]
			if key == "anchors" {
				for _, a := range strings.Split(val, ",") {
					if a = strings.TrimSpace(a); a != "" {
						t.Anchors = append(t.Anchors, a)
					}
				}
				cur = nil
				continue
			}
			t.Words = append(t.Words, strings.Fields(val)...)
			cur = &t.Words
		case "background":
			s.Background = append(s.Background, strings.Fields(val)...)
			cur = &s.Background
		case "function":
			s.Function = append(s.Function, strings.Fields(val)...)
			cur = &s.Function
		default:
			return Spec{}, fmt.Errorf("line %d: unknown key %q", n+1, key)
		}
	}
	if len(s.Themes) < 2 {
		return Spec{}, fmt.Errorf("%d themes, want at least 2", len(s.Themes))
	}
	for _, t := range s.Themes {
		if len(t.Words) < 5 {
			return Spec{}, fmt.Errorf("theme %q has %d words, want at least 5", t.Name, len(t.Words))
		}
	}
	if len(s.Background) == 0 || len(s.Function) == 0 {
		return Spec{}, fmt.Errorf("missing background or function word list (want both)")
	}
	return s, nil
}

// Generate samples documents from s. Each document has a primary theme
// (themes take turns, so they are balanced) and, with probability o.Mixed,
// a second one; 25 to 60 content words are drawn from its themes (70%) and
// the background (30%), earlier words of a list more often (Zipf weights
// 1/(rank+1)), and written as sentences with function words between them.
func (s Spec) Generate(o Options) (*Demo, error) {
	if o.Docs == 0 {
		o.Docs = 480
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Labeled == 0 {
		o.Labeled = 1.0 / 3
	}
	if o.Mixed == 0 {
		o.Mixed = 0.2
	}
	if o.TestEvery == 0 {
		o.TestEvery = 5
	}
	if o.Docs < 0 || o.Labeled < 0 || o.Labeled > 1 || o.Mixed < 0 || o.Mixed > 1 {
		return nil, fmt.Errorf("demo: invalid options %+v", o)
	}
	rnd := rng.NewCompat(o.Seed, 0x5e417091c)
	themes := make([]sampler, len(s.Themes))
	for i, t := range s.Themes {
		themes[i] = newSampler(t.Words)
	}
	bg := newSampler(s.Background)
	// Share of training documents to label so that o.Labeled of all are.
	trainShare := 1.0
	if o.TestEvery > 0 {
		trainShare = 1 - 1/float64(o.TestEvery)
	}
	labelP := math.Min(1, o.Labeled/trainShare)

	d := &Demo{Corpus: &corpus.Corpus{Name: "demo"}, Spec: s}
	for i := 0; i < o.Docs; i++ {
		primary := i % len(s.Themes)
		truth := []int{primary}
		if rnd.Float64() < o.Mixed {
			second := rnd.IntN(len(s.Themes) - 1)
			if second >= primary {
				second++
			}
			truth = append(truth, second)
		}
		n := 25 + rnd.IntN(36)
		words := make([]string, n)
		for k := range words {
			switch r := rnd.Float64(); {
			case r < 0.3:
				words[k] = bg.draw(rnd)
			case len(truth) == 2 && r < 0.55:
				words[k] = themes[truth[1]].draw(rnd)
			default:
				words[k] = themes[primary].draw(rnd)
			}
		}
		doc := corpus.Document{
			ID:   fmt.Sprintf("demo-%03d", i+1),
			Text: render(words, s.Function, rnd),
		}
		names := make([]string, len(truth))
		for k, t := range truth {
			names[k] = s.Themes[t].Name
		}
		if o.TestEvery > 0 && (i+1)%o.TestEvery == 0 {
			doc.Split = corpus.SplitTest
		} else {
			if o.TestEvery > 0 {
				doc.Split = corpus.SplitTrain
			}
			if rnd.Float64() < labelP {
				doc.Labels = names
			}
		}
		d.Corpus.Docs = append(d.Corpus.Docs, doc)
		d.Truth = append(d.Truth, names)
	}
	return d, nil
}

// sampler draws words with Zipf weights 1/(rank+1).
type sampler struct {
	words []string
	cum   []float64
}

func newSampler(words []string) sampler {
	s := sampler{words: words, cum: make([]float64, len(words))}
	total := 0.0
	for r := range words {
		total += 1 / float64(r+1)
		s.cum[r] = total
	}
	for r := range s.cum {
		s.cum[r] /= total
	}
	return s
}

func (s sampler) draw(rnd *rng.Compat) string {
	u := rnd.Float64()
	lo, hi := 0, len(s.cum)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if s.cum[mid] < u {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return s.words[lo]
}

// render writes content words as sentences of 4 to 9 content words, with a
// function word before most of them.
func render(words, function []string, rnd *rng.Compat) string {
	var b strings.Builder
	start := true
	left := 4 + rnd.IntN(6)
	for i, w := range words {
		if !start && rnd.Float64() < 0.6 {
			b.WriteByte(' ')
			b.WriteString(function[rnd.IntN(len(function))])
		}
		if start {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			start = false
		} else {
			b.WriteByte(' ')
			b.WriteString(w)
		}
		left--
		if left == 0 || i == len(words)-1 {
			b.WriteByte('.')
			start = true
			left = 4 + rnd.IntN(6)
		}
	}
	return b.String()
}
