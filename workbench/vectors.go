package workbench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

// data is the corpus as one state's fit reads it: vectorized with the
// state's pipeline, without its removed documents and stopwords, exactly
// as `semitopic fit` reads it with the files Export writes (SetLabels,
// DropDocs, DropTerms, then the pipeline).
type data struct {
	x     *sparse.CSR
	vocab []string
	col   map[string]int
	// vec is the fitted vectorizer (nil for an already-vectorized corpus)
	// and pipeline the pipeline it was made with.
	vec      *vectorize.Vectorizer
	pipeline vectorize.Pipeline
	// rows[r] is the corpus position of row r's document; rowOf the
	// inverse (-1 for a document not in the fit).
	rows  []int
	rowOf []int
	// df is each term's document frequency among the rows.
	df []int
	// dropped are the documents the pipeline's filters left out.
	dropped []vectorize.Dropped
}

// analyzer is the pipeline's analyzer (nil for an already-vectorized
// corpus).
func (d *data) analyzer() *text.Analyzer {
	if d.vec == nil {
		return nil
	}
	return d.vec.Analyzer()
}

// vectors vectorizes the corpus for states, keeping the last few results:
// a refit after an edit of the supervision reuses its state's matrix, and
// one after a new stopword reuses the vocabulary learned before it.
type vectors struct {
	c   *corpus.Corpus
	ids map[string]int
	// explicit is the Config's pipeline, nil for the kind's preset.
	explicit *vectorize.Pipeline

	mu    sync.Mutex
	cache map[string]*cached
	clock int
}

type cached struct {
	d    *data
	used int
}

// maxCached bounds the vectorizations kept.
const maxCached = 4

// pipelineFor returns the pipeline of a state of the given kind.
func (v *vectors) pipelineFor(kind string) (vectorize.Pipeline, error) {
	if v.explicit != nil {
		return *v.explicit, nil
	}
	return vectorize.PipelinePreset(model.DefaultPreset(kind))
}

// get returns the data of st, vectorizing when no cached result serves,
// and what became of st's stopwords on its vocabulary (carry): a state
// whose kind changed to one with another preset, or whose documents
// changed, can hold stopwords the new vocabulary reads as another term
// or lacks. Vectorizations are serialized: two would only compete for
// the cores.
func (v *vectors) get(ctx context.Context, st *State) (*data, stopwordCarry, error) {
	var carry stopwordCarry
	p, err := v.pipelineFor(st.Kind)
	if err != nil {
		return nil, carry, err
	}
	pk, err := json.Marshal(p)
	if err != nil {
		return nil, carry, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	baseKey := string(pk) + "\x00" + strings.Join(st.Removed, "\x00")
	var c *corpus.Corpus
	base := v.lookup(baseKey)
	if base == nil {
		if c, err = DropDocs(v.c, "the removed documents", lines(st.Removed)); err != nil {
			return nil, carry, err
		}
		if base, err = v.vectorize(ctx, c, p); err != nil {
			return nil, carry, err
		}
		v.store(baseKey, base)
	}
	where := "the vocabulary"
	if v.explicit == nil {
		where = fmt.Sprintf("the vocabulary of kind %s (preset %s)", st.Kind, model.DefaultPreset(st.Kind))
	}
	carry = base.carryStopwords(st.Stopwords, where)
	if len(carry.kept) == 0 {
		return base, carry, nil
	}
	fullKey := baseKey + "\x01" + strings.Join(carry.kept, "\x00")
	if d := v.lookup(fullKey); d != nil {
		return d, carry, nil
	}
	if c == nil {
		if c, err = DropDocs(v.c, "the removed documents", lines(st.Removed)); err != nil {
			return nil, carry, err
		}
	}
	var d *data
	if c.Matrix != nil {
		if c, _, err = DropTerms(ctx, c, p, "the stopwords", lines(carry.kept)); err != nil {
			return nil, carry, err
		}
		d, err = v.vectorize(ctx, c, p)
	} else {
		var pw vectorize.Pipeline
		if pw, err = withoutTerms(p, base.vocab, "the stopwords", lines(carry.kept)); err != nil {
			return nil, carry, err
		}
		d, err = v.vectorize(ctx, c, pw)
	}
	if err != nil {
		return nil, carry, err
	}
	v.store(fullKey, d)
	return d, carry, nil
}

// stopwordCarry is what became of a state's stopwords on a vocabulary.
type stopwordCarry struct {
	// kept are the stopwords as the vocabulary holds them, sorted.
	kept []string
	// changed reports that kept differs from the state's stopwords;
	// notes then say how, one line per stopword read as another term or
	// dropped.
	changed bool
	notes   []string
}

// carryStopwords carries stopwords, terms of another vocabulary, over to
// d's: a stopword d's vocabulary holds stays; one it does not is read as
// d's pipeline reads words ("games" is "game" where the pipeline takes
// lemmas) and stays as that term when the vocabulary holds it; the others
// are dropped, since the vocabulary leaves them out already. where names
// the vocabulary in the notes.
func (d *data) carryStopwords(words []string, where string) stopwordCarry {
	var c stopwordCarry
	a := d.analyzer()
	seen := map[string]bool{}
	for _, w := range words {
		t := w
		if _, ok := d.col[t]; !ok && a != nil {
			if u, err := a.Term(w); err == nil {
				t = u
			}
		}
		_, in := d.col[t]
		switch {
		case !in:
			c.changed = true
			c.notes = append(c.notes, fmt.Sprintf("stopword %q dropped: %s does not hold it, so no topic can take it anyway", w, where))
			continue
		case t != w:
			c.changed = true
			c.notes = append(c.notes, fmt.Sprintf("stopword %q is now %q, as %s holds it", w, t, where))
		}
		if !seen[t] {
			seen[t] = true
			c.kept = append(c.kept, t)
		}
	}
	slices.Sort(c.kept)
	return c
}

// vectorize reads c with p as model.Fit does for a Text source: an already-vectorized
// corpus as it is, the others through p's FitTransform.
func (v *vectors) vectorize(ctx context.Context, c *corpus.Corpus, p vectorize.Pipeline) (*data, error) {
	d := &data{pipeline: p}
	var docs []corpus.Document
	if c.Matrix != nil {
		d.x, d.vocab, docs = c.Matrix.X, c.Matrix.Vocab, c.Docs
	} else {
		vec, res, err := p.FitTransform(ctx, c.Docs)
		if err != nil {
			return nil, err
		}
		d.x, d.vocab, d.vec, d.dropped, docs = res.X, res.Vocab, vec, res.Dropped, res.Docs
	}
	d.col = make(map[string]int, len(d.vocab))
	for j, t := range d.vocab {
		d.col[t] = j
	}
	d.rows = make([]int, len(docs))
	d.rowOf = make([]int, len(v.c.Docs))
	for i := range d.rowOf {
		d.rowOf[i] = -1
	}
	for r := range docs {
		i := v.ids[docs[r].ID]
		d.rows[r], d.rowOf[i] = i, r
	}
	d.df = d.x.ColNNZ()
	return d, nil
}

func (v *vectors) lookup(key string) *data {
	c, ok := v.cache[key]
	if !ok {
		return nil
	}
	v.clock++
	c.used = v.clock
	return c.d
}

func (v *vectors) store(key string, d *data) {
	if v.cache == nil {
		v.cache = map[string]*cached{}
	}
	for len(v.cache) >= maxCached {
		oldest := ""
		for k, c := range v.cache {
			if oldest == "" || c.used < v.cache[oldest].used {
				oldest = k
			}
		}
		delete(v.cache, oldest)
	}
	v.clock++
	v.cache[key] = &cached{d: d, used: v.clock}
}

// lines numbers values as the lines of a list file.
func lines(values []string) []Line {
	out := make([]Line, len(values))
	for i, v := range values {
		out[i] = Line{Text: v, Line: i + 1}
	}
	return out
}
