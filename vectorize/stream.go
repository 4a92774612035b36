package vectorize

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
)

// Source visits the documents of a corpus in order, once per call, without
// having to hold them: it calls visit for each document and returns visit's
// error as soon as visit returns one. FitTransformStream calls it twice,
// and both visits must give the same documents in the same order.
type Source func(ctx context.Context, visit func(corpus.Document) error) error

// RowFunc receives the row of one kept document: its columns, strictly
// increasing, and their weighted values. The slices are only valid during
// the call.
type RowFunc func(d *corpus.Document, cols []int32, vals []float64) error

// StreamResult describes a corpus vectorized by FitTransformStream.
type StreamResult struct {
	// Vocab is the term of each column.
	Vocab []string
	// Docs counts the documents src visited; Rows the ones kept (the rows
	// given to the RowFunc) and Dropped those the document filters left
	// out.
	Docs, Rows, Dropped int
	// FirstDropped lists the first dropped documents (at most
	// MaxDroppedListed of them), in input order.
	FirstDropped []Dropped
	// Tokens, Terms, OOV and EmptyRows are as in Result.
	Tokens, Terms, OOV, EmptyRows int
}

// MaxDroppedListed bounds StreamResult.FirstDropped.
const MaxDroppedListed = 100

// Batches of documents handed to the workers of a streamed pass: at most
// streamBatchDocs documents, and no more once they hold streamBatchBytes
// of text.
const (
	streamBatchDocs  = 64
	streamBatchBytes = 1 << 20
)

// FitTransformStream is FitTransform for a corpus that src visits instead
// of one held in memory, and gives the same result value for value: the
// same vocabulary in the same order, the same documents dropped, and rows
// whose values are identical to those of FitTransform's matrix.
//
// It reads the corpus twice. The first pass analyses every document (on
// all cores, in batches) and counts the document frequency and the total
// count of every term and n-gram; the vocabulary is then chosen as
// FitTransform chooses it (document filters, df bounds, MaxFeatures), and
// the idf comes from the same document frequencies. fitted, when not nil,
// is called with the vocabulary before the second pass. The second pass
// analyses the documents again and calls row for each kept document, in
// input order, with its weighted row. Besides the batches being analysed
// (a few per worker), memory holds the term dictionary during the first
// pass (one per worker, merged at its end, as FitTransform keeps them)
// and the vocabulary during the second, never the corpus or its matrix.
// Progress is not called: src sees every document go by.
//
// An error from src, fitted or row stops the pass and is returned; so is
// a second pass that does not see the documents of the first.
func (v *Vectorizer) FitTransformStream(ctx context.Context, src Source, fitted func(vocab []string) error, row RowFunc) (*StreamResult, error) {
	// One session per worker for both passes: the second finds the
	// morphology of the tokens in the caches the first filled.
	sessions := make([]*session, parallel.Workers())
	window := max(sessionBudget/len(sessions), minSessionWindow)
	for w := range sessions {
		sessions[w] = &session{a: v.analyzer, window: window}
	}
	fit, err := v.fitStream(ctx, src, sessions)
	if err != nil {
		return nil, err
	}
	if fitted != nil {
		if err := fitted(v.vocab); err != nil {
			return nil, err
		}
	}
	res, err := v.rowsStream(ctx, src, row, sessions)
	if err != nil {
		return nil, err
	}
	if res.Docs != fit.docs || res.Rows != fit.kept {
		return nil, fmt.Errorf("vectorize: the second pass read %d documents and kept %d, the first %d and %d: the corpus changed between the passes", res.Docs, res.Rows, fit.docs, fit.kept)
	}
	return res, nil
}

// streamFit sums up the first pass.
type streamFit struct {
	docs, kept int
}

// fitWorker is the state of one analysing goroutine of the first pass:
// its session, its dictionary (local ids, as in FitTransform) and the
// document frequency and total count of each of its terms.
type fitWorker struct {
	sess   *session
	dict   *termDict
	df     []int
	tf     []int64
	toks   []string
	tokIDs []int32
	ids    []int32
}

// fitBatch is a batch of the first pass with what its worker found.
type fitBatch struct {
	docs             []corpus.Document
	n, kept, dropped int
}

// fitStream is the first pass: it fits the vocabulary and idf, with one
// worker per session.
func (v *Vectorizer) fitStream(ctx context.Context, src Source, sessions []*session) (*streamFit, error) {
	o := v.analyzer.Options()
	workers := make([]*fitWorker, len(sessions))
	for w := range workers {
		workers[w] = &fitWorker{sess: sessions[w], dict: newTermDict(o.NGramMin == 1 && o.NGramMax == 1)}
	}
	var fit streamFit
	dropped := 0
	err := runBatches(ctx, src, len(workers),
		func(docs []corpus.Document) *fitBatch { return &fitBatch{docs: docs, n: len(docs)} },
		func(w int, b *fitBatch) error {
			v.fitAnalyse(workers[w], b, o)
			return nil
		},
		func(b *fitBatch) error {
			fit.docs += b.n
			fit.kept += b.kept
			dropped += b.dropped
			return nil
		})
	if err != nil {
		return nil, err
	}
	if fit.kept == 0 {
		return nil, fmt.Errorf("vectorize: no document left after the document filters (%d dropped)", dropped)
	}
	// Merge the worker dictionaries into the first one, as FitTransform
	// does, and add up their counts.
	global := workers[0].dict
	df := grow(workers[0].df, len(global.keys))
	tf := grow(workers[0].tf, len(global.keys))
	for w := 1; w < len(workers); w++ {
		wk := workers[w]
		remap := global.merge(wk.dict)
		df = grow(df, len(global.keys))
		tf = grow(tf, len(global.keys))
		for l, g := range remap {
			if l < len(wk.df) {
				df[g] += wk.df[l]
				tf[g] += wk.tf[l]
			}
		}
		workers[w] = nil
	}
	colOf, err := v.chooseColumns(global, df, tf, fit.kept)
	if errors.Is(err, errNoToken) {
		return nil, v.noTermError(streamTexts(ctx, src))
	}
	if err != nil {
		return nil, err
	}
	if v.opts.IDF {
		// FitTransform counts the rows holding each column; a term's
		// column is in exactly the kept documents that hold the term.
		cdf := make([]int, len(v.vocab))
		for g, j := range colOf {
			if j >= 0 {
				cdf[j] = df[g]
			}
		}
		v.setIDF(cdf, fit.kept)
	}
	return &fit, nil
}

// fitAnalyse analyses the documents of a first-pass batch with the state
// of worker wk: the documents FitTransform analyses add their tokens and
// terms to the worker's dictionary, and the ones it keeps count in its
// document frequencies and totals.
func (v *Vectorizer) fitAnalyse(wk *fitWorker, b *fitBatch, o text.Options) {
	for i := range b.docs {
		d := &b.docs[i]
		if v.opts.MinChars > 0 && utf8.RuneCountInString(d.Text) < v.opts.MinChars {
			b.dropped++
			continue
		}
		wk.toks = wk.sess.tokens(wk.toks[:0], d.Text)
		wk.tokIDs = wk.tokIDs[:0]
		for _, t := range wk.toks {
			wk.tokIDs = append(wk.tokIDs, wk.dict.token(t))
		}
		wk.ids = wk.dict.appendTerms(wk.ids[:0], wk.tokIDs, o.NGramMin, o.NGramMax)
		if v.opts.MinTokens > 0 && len(wk.toks) < v.opts.MinTokens {
			b.dropped++
			continue
		}
		b.kept++
		wk.df = grow(wk.df, len(wk.dict.keys))
		wk.tf = grow(wk.tf, len(wk.dict.keys))
		slices.Sort(wk.ids)
		for p := 0; p < len(wk.ids); {
			id := wk.ids[p]
			q := p + 1
			for q < len(wk.ids) && wk.ids[q] == id {
				q++
			}
			wk.df[id]++
			wk.tf[id] += int64(q - p)
			p = q
		}
	}
	b.docs = nil // the texts may go
}

// Sessions are renewed once they have analysed their window of text, the
// sessionBudget shared by the workers but at least minSessionWindow each.
const (
	sessionBudget    = 32 << 20
	minSessionWindow = 1 << 20
)

// session is a worker's text.Session, renewed after it has analysed its
// window of text. A Session caches the morphology of every token it sees,
// and a cached form can be a substring of the normalised text of the
// document it came from, which it then keeps alive: a session kept for a
// whole corpus would hold much of the corpus's text. Renewing it bounds
// what it holds to a window's worth, at the cost of filling a new cache.
type session struct {
	a      *text.Analyzer
	s      *text.Session
	window int // bytes of text a session analyses
	n      int // bytes analysed by s
}

// tokens appends the tokens of doc to dst, as text.Session.AppendTokens.
func (s *session) tokens(dst []string, doc string) []string {
	if s.s == nil || s.n >= s.window {
		s.s, s.n = s.a.Session(), 0
	}
	s.n += len(doc)
	return s.s.AppendTokens(dst, doc)
}

// grow extends s with zeros to length n.
func grow[T int | int64](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

// rowWorker is the state of one analysing goroutine of the second pass.
type rowWorker struct {
	sess  *session
	toks  []string
	terms []string
	ids   []int32
}

// Why a document of a second-pass batch is left out.
const (
	keptDoc = iota
	droppedByChars
	droppedByTokens
)

// rowBatch is a batch of the second pass with its kept rows, weighted.
type rowBatch struct {
	docs   []corpus.Document
	first  int   // input position of docs[0]
	status []int // keptDoc or why the document was dropped
	count  []int // the characters or tokens a dropped document has
	x      *sparse.CSR
	tokens int
	terms  int
	oov    int
	empty  int
}

// rowsStream is the second pass: it calls row for each kept document,
// with one worker per session.
func (v *Vectorizer) rowsStream(ctx context.Context, src Source, row RowFunc, sessions []*session) (*StreamResult, error) {
	o := v.analyzer.Options()
	workers := make([]*rowWorker, len(sessions))
	for w := range workers {
		workers[w] = &rowWorker{sess: sessions[w]}
	}
	res := &StreamResult{Vocab: v.vocab}
	next := 0 // input position of the next batch
	err := runBatches(ctx, src, len(workers),
		func(docs []corpus.Document) *rowBatch {
			b := &rowBatch{docs: docs, first: next}
			next += len(docs)
			return b
		},
		func(w int, b *rowBatch) error { return v.rowAnalyse(workers[w], b, o) },
		func(b *rowBatch) error {
			res.Docs += len(b.docs)
			res.Tokens += b.tokens
			res.Terms += b.terms
			res.OOV += b.oov
			res.EmptyRows += b.empty
			k := 0
			for i := range b.docs {
				d := &b.docs[i]
				switch b.status[i] {
				case droppedByChars:
					res.drop(Dropped{b.first + i, d.ID, fmt.Sprintf("%d characters, fewer than %d", b.count[i], v.opts.MinChars),
						fmt.Sprintf("fewer than %d characters (min-chars)", v.opts.MinChars)})
					continue
				case droppedByTokens:
					res.drop(Dropped{b.first + i, d.ID, fmt.Sprintf("%d tokens, fewer than %d", b.count[i], v.opts.MinTokens),
						fmt.Sprintf("fewer than %d tokens (min-tokens)", v.opts.MinTokens)})
					continue
				}
				cols, vals := b.x.Row(k)
				k++
				res.Rows++
				if err := row(d, cols, vals); err != nil {
					return err
				}
			}
			return nil
		})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// drop records a dropped document.
func (r *StreamResult) drop(d Dropped) {
	r.Dropped++
	if len(r.FirstDropped) < MaxDroppedListed {
		r.FirstDropped = append(r.FirstDropped, d)
	}
}

// rowAnalyse analyses the documents of a second-pass batch with the state
// of worker wk and builds the weighted rows of those FitTransform keeps:
// their counts go through the same weighting (binary, sublinear, idf and
// row normalisation, in place on a matrix of the batch's rows) as
// FitTransform's matrix.
func (v *Vectorizer) rowAnalyse(wk *rowWorker, b *rowBatch, o text.Options) error {
	b.status = make([]int, len(b.docs))
	b.count = make([]int, len(b.docs))
	indptr := make([]int, 1, len(b.docs)+1)
	var indices []int32
	var data []float64
	for i := range b.docs {
		d := &b.docs[i]
		if v.opts.MinChars > 0 {
			if n := utf8.RuneCountInString(d.Text); n < v.opts.MinChars {
				b.status[i], b.count[i] = droppedByChars, n
				continue
			}
		}
		wk.toks = wk.sess.tokens(wk.toks[:0], d.Text)
		if v.opts.MinTokens > 0 && len(wk.toks) < v.opts.MinTokens {
			b.status[i], b.count[i] = droppedByTokens, len(wk.toks)
			continue
		}
		terms := wk.toks
		if o.NGramMin != 1 || o.NGramMax != 1 {
			wk.terms = text.NGrams(wk.terms[:0], wk.toks, o.NGramMin, o.NGramMax)
			terms = wk.terms
		}
		wk.ids = wk.ids[:0]
		for _, t := range terms {
			if j, ok := v.index[t]; ok {
				wk.ids = append(wk.ids, j)
			}
		}
		b.tokens += len(wk.toks)
		b.terms += len(terms)
		b.oov += len(terms) - len(wk.ids)
		if len(wk.ids) == 0 {
			b.empty++
		}
		slices.Sort(wk.ids)
		for p := 0; p < len(wk.ids); {
			j := wk.ids[p]
			q := p + 1
			for q < len(wk.ids) && wk.ids[q] == j {
				q++
			}
			indices = append(indices, j)
			data = append(data, float64(q-p))
			p = q
		}
		indptr = append(indptr, len(indices))
	}
	b.x = &sparse.CSR{Rows: len(indptr) - 1, Cols: len(v.vocab), Indptr: indptr, Indices: indices, Data: data}
	v.weight(b.x)
	return nil
}

// runBatches visits src in batches of consecutive documents, hands each
// batch (made by newBatch from its documents) to one of workers
// goroutines running work, and calls done for each batch in input order on
// the calling goroutine. It bounds the batches under way, so that memory
// holds a few batches per worker whatever the corpus size. The first error
// (from src, work or done) cancels the rest and is returned.
func runBatches[B any](ctx context.Context, src Source, workers int, newBatch func([]corpus.Document) *B, work func(w int, b *B) error, done func(b *B) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type job struct {
		seq int
		b   *B
		err error
	}
	jobs := make(chan *job, workers)
	results := make(chan *job, workers)
	slots := make(chan struct{}, 2*workers+2)
	var readErr error
	go func() {
		defer close(jobs)
		var docs []corpus.Document
		size, seq := 0, 0
		send := func() error {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return ctx.Err()
			}
			jobs <- &job{seq: seq, b: newBatch(docs)} // a worker is always receiving
			seq++
			docs, size = nil, 0
			return nil
		}
		readErr = src(ctx, func(d corpus.Document) error {
			if err := ctx.Err(); err != nil {
				return err
			}
			docs = append(docs, d)
			size += len(d.Text)
			if len(docs) == streamBatchDocs || size >= streamBatchBytes {
				return send()
			}
			return nil
		})
		if readErr == nil && len(docs) > 0 {
			readErr = send()
		}
	}()
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				if ctx.Err() == nil {
					j.err = work(w, j.b)
				} else {
					j.err = ctx.Err()
				}
				results <- j
			}
		}()
	}
	go func() {
		wg.Wait()
		close(results)
	}()
	var firstErr error
	pending := map[int]*job{}
	next := 0
	for j := range results {
		if firstErr != nil {
			continue // draining
		}
		pending[j.seq] = j
		for {
			j, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			err := j.err
			if err == nil {
				err = done(j.b)
			}
			<-slots
			if err != nil {
				firstErr = err
				cancel()
				break
			}
		}
	}
	switch {
	case firstErr != nil:
		return firstErr
	case readErr != nil:
		return readErr
	}
	return nil
}
