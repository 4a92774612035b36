package workbench

import (
	"context"
	"encoding/json"
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

// get returns the data of st, vectorizing when no cached result serves.
// Vectorizations are serialized: two would only compete for the cores.
func (v *vectors) get(ctx context.Context, st *State) (*data, error) {
	p, err := v.pipelineFor(st.Kind)
	if err != nil {
		return nil, err
	}
	pk, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	baseKey := string(pk) + "\x00" + strings.Join(st.Removed, "\x00")
	fullKey := baseKey + "\x01" + strings.Join(st.Stopwords, "\x00")
	if d := v.lookup(fullKey); d != nil {
		return d, nil
	}
	c, err := DropDocs(v.c, "the removed documents", lines(st.Removed))
	if err != nil {
		return nil, err
	}
	base := v.lookup(baseKey)
	if base == nil {
		if base, err = v.vectorize(ctx, c, p); err != nil {
			return nil, err
		}
		v.store(baseKey, base)
	}
	if len(st.Stopwords) == 0 {
		return base, nil
	}
	var d *data
	if c.Matrix != nil {
		if c, _, err = DropTerms(ctx, c, p, "the stopwords", lines(st.Stopwords)); err != nil {
			return nil, err
		}
		d, err = v.vectorize(ctx, c, p)
	} else {
		var pw vectorize.Pipeline
		if pw, err = withoutTerms(p, base.vocab, "the stopwords", lines(st.Stopwords)); err != nil {
			return nil, err
		}
		d, err = v.vectorize(ctx, c, pw)
	}
	if err != nil {
		return nil, err
	}
	v.store(fullKey, d)
	return d, nil
}

// vectorize reads c with p as model.FitCorpus does: an already-vectorized
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
