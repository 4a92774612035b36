package vectorize

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
)

// Vectorizer maps documents to rows of a documents × terms matrix. Fit (or
// FitTransform) learns the vocabulary and idf; Transform then applies them
// to any documents. A fitted Vectorizer is safe for concurrent Transform.
type Vectorizer struct {
	analyzer *text.Analyzer
	opts     Options
	vocab    []string
	index    map[string]int32
	idf      []float64

	// Progress, when set, is called from the analysing goroutines with the
	// number of documents analysed so far and the total. It must be safe
	// for concurrent use.
	Progress func(done, total int)
}

// New returns an unfitted Vectorizer that analyses text with a.
func New(a *text.Analyzer, o Options) (*Vectorizer, error) {
	if a == nil {
		return nil, errors.New("vectorize: nil analyzer")
	}
	if o.MaxFeatures < 0 || o.MinChars < 0 || o.MinTokens < 0 {
		return nil, errors.New("vectorize: negative max_features, min_chars or min_tokens")
	}
	for _, t := range []Threshold{o.MinDF, o.MaxDF} {
		if t.Frac && (t.Fraction < 0 || t.Fraction > 1 || math.IsNaN(t.Fraction)) || t.Count < 0 {
			return nil, fmt.Errorf("vectorize: document frequency bound %v out of range", t)
		}
	}
	if o.Norm > NormL1 {
		return nil, fmt.Errorf("vectorize: invalid norm %d", o.Norm)
	}
	if n := a.Options().NGramMax; n > MaxNGram {
		return nil, fmt.Errorf("vectorize: %d-grams requested; at most %d-grams are supported", n, MaxNGram)
	}
	return &Vectorizer{analyzer: a, opts: o}, nil
}

// NewFitted rebuilds a fitted Vectorizer from its parts (for example, read
// from a saved model). idf must be nil unless o.IDF is set, and then have
// one entry per vocabulary term.
func NewFitted(a *text.Analyzer, o Options, vocab []string, idf []float64) (*Vectorizer, error) {
	v, err := New(a, o)
	if err != nil {
		return nil, err
	}
	if o.IDF != (idf != nil) || idf != nil && len(idf) != len(vocab) {
		return nil, fmt.Errorf("vectorize: %d idf values for %d terms (idf weighting %v)", len(idf), len(vocab), o.IDF)
	}
	if err := v.setVocab(vocab); err != nil {
		return nil, err
	}
	v.idf = idf
	return v, nil
}

func (v *Vectorizer) setVocab(vocab []string) error {
	index := make(map[string]int32, len(vocab))
	for j, t := range vocab {
		if _, dup := index[t]; dup {
			return fmt.Errorf("vectorize: vocabulary term %q appears twice", t)
		}
		if t == "" {
			return fmt.Errorf("vectorize: vocabulary term %d is empty", j+1)
		}
		index[t] = int32(j)
	}
	if len(vocab) > math.MaxInt32 {
		return errors.New("vectorize: vocabulary too large")
	}
	v.vocab, v.index = vocab, index
	return nil
}

// Analyzer returns the text analyzer.
func (v *Vectorizer) Analyzer() *text.Analyzer { return v.analyzer }

// Options returns the vectorizer options.
func (v *Vectorizer) Options() Options { return v.opts }

// Vocabulary returns the fitted terms in column order (nil before Fit). The
// slice is shared; do not modify it.
func (v *Vectorizer) Vocabulary() []string { return v.vocab }

// IDF returns the fitted idf per column, or nil without idf weighting.
func (v *Vectorizer) IDF() []float64 { return v.idf }

// Fitted reports whether the vectorizer has a vocabulary.
func (v *Vectorizer) Fitted() bool { return v.index != nil }

// Dropped describes a document left out by a document filter.
type Dropped struct {
	Index  int    // position in the input
	ID     string // document ID
	Reason string // "212 characters, fewer than 250", ...
	// Rule is the filter that dropped it, the same for every document it
	// dropped: "fewer than 250 characters (min-chars)", ...
	Rule string
}

// Result is a vectorized set of documents.
type Result struct {
	// X is documents × terms; row i belongs to Docs[i].
	X *sparse.CSR
	// Vocab is the term of each column.
	Vocab []string
	// Docs are the documents kept, in input order.
	Docs []corpus.Document
	// Kept[i] is the input position of Docs[i].
	Kept []int
	// Dropped lists the documents removed by the document filters (Fit).
	Dropped []Dropped
	// Tokens counts the unigram tokens of the kept documents, Terms their
	// terms including n-grams, and OOV the terms not in the vocabulary
	// (pruned by the vocabulary bounds during Fit).
	Tokens, Terms, OOV int
	// EmptyRows counts kept documents with no vocabulary term.
	EmptyRows int
}

// Corpus returns the result as an already-vectorized corpus.
func (r *Result) Corpus(name string) *corpus.Corpus {
	c := &corpus.Corpus{Name: name, Docs: r.Docs, Matrix: &corpus.Matrix{X: r.X, Vocab: r.Vocab}}
	if len(r.Dropped) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d documents dropped by document filters", len(r.Dropped)))
	}
	if r.EmptyRows > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("%d documents have no vocabulary term", r.EmptyRows))
	}
	return c
}

// docCounts holds one analysed document: term ids (local to the worker that
// analysed it during Fit, global during Transform) and their counts.
type docCounts struct {
	worker int
	ids    []int32
	counts []int32
	tokens int
	terms  int
}

// FitTransform learns the vocabulary (and idf) from docs and returns their
// matrix. Documents failing MinChars or MinTokens are dropped and listed in
// the result. It is an error if no document or no term remains.
func (v *Vectorizer) FitTransform(ctx context.Context, docs []corpus.Document) (*Result, error) {
	res := &Result{}
	// Character filter first: it needs no analysis.
	var cand []int
	for i := range docs {
		if v.opts.MinChars > 0 {
			if n := utf8.RuneCountInString(docs[i].Text); n < v.opts.MinChars {
				res.Dropped = append(res.Dropped, Dropped{i, docs[i].ID, fmt.Sprintf("%d characters, fewer than %d", n, v.opts.MinChars),
					fmt.Sprintf("fewer than %d characters (min-chars)", v.opts.MinChars)})
				continue
			}
		}
		cand = append(cand, i)
	}
	// Analyse in parallel with worker-local dictionaries of tokens and
	// n-grams (as token-id tuples).
	o := v.analyzer.Options()
	dicts := make([]*termDict, parallel.Workers())
	for w := range dicts {
		dicts[w] = newTermDict(o.NGramMin == 1 && o.NGramMax == 1)
	}
	rows := make([]docCounts, len(cand))
	tokIDs := make([][]int32, len(dicts))
	err := v.analyse(ctx, docs, cand, len(dicts), func(w int, tokens []string, dc *docCounts) {
		d := dicts[w]
		ids := tokIDs[w][:0]
		for _, t := range tokens {
			ids = append(ids, d.token(t))
		}
		tokIDs[w] = ids
		dc.ids = d.appendTerms(dc.ids[:0], ids, o.NGramMin, o.NGramMax)
		dc.terms = len(dc.ids)
	}, rows)
	if err != nil {
		return nil, err
	}
	// Token filter.
	keep := rows[:0]
	for k, i := range cand {
		if v.opts.MinTokens > 0 && rows[k].tokens < v.opts.MinTokens {
			res.Dropped = append(res.Dropped, Dropped{i, docs[i].ID, fmt.Sprintf("%d tokens, fewer than %d", rows[k].tokens, v.opts.MinTokens),
				fmt.Sprintf("fewer than %d tokens (min-tokens)", v.opts.MinTokens)})
			continue
		}
		keep = append(keep, rows[k])
		res.Kept = append(res.Kept, i)
	}
	rows = keep
	sort.Slice(res.Dropped, func(a, b int) bool { return res.Dropped[a].Index < res.Dropped[b].Index })
	if len(rows) == 0 {
		return nil, fmt.Errorf("vectorize: no document left after the document filters (%d dropped)", len(res.Dropped))
	}
	// Merge the worker dictionaries into the first one, whose ids become
	// the global ids.
	global := dicts[0]
	remap := make([][]int32, len(dicts))
	remap[0] = make([]int32, len(global.keys))
	for l := range remap[0] {
		remap[0][l] = int32(l)
	}
	for w := 1; w < len(dicts); w++ {
		remap[w] = global.merge(dicts[w])
		dicts[w] = nil
	}
	df := make([]int, len(global.keys))
	tf := make([]int64, len(global.keys))
	for r := range rows {
		dc := &rows[r]
		m := remap[dc.worker]
		for p, l := range dc.ids {
			g := m[l]
			dc.ids[p] = g
			df[g]++
			tf[g] += int64(dc.counts[p])
		}
	}
	colOf, err := v.chooseColumns(global, df, tf, len(rows))
	if errors.Is(err, errNoToken) {
		return nil, v.noTermError(texts(docs, res.Kept))
	}
	if err != nil {
		return nil, err
	}
	for r := range rows {
		m := rows[r].ids
		for p, g := range m {
			m[p] = colOf[g]
		}
	}
	if res.X, err = v.build(rows, res); err != nil {
		return nil, err
	}
	if v.opts.IDF {
		v.setIDF(res.X.ColNNZ(), res.X.Rows)
	}
	v.weight(res.X)
	res.Vocab = v.vocab
	res.Docs = make([]corpus.Document, len(res.Kept))
	for k, i := range res.Kept {
		res.Docs[k] = docs[i]
	}
	return res, nil
}

// chooseColumns sets the vocabulary from the merged dictionary global,
// whose terms have the document frequencies df and total counts tf over
// the n documents kept: the fixed Vocabulary, or the terms the df bounds
// and MaxFeatures select, sorted. It returns the column of each term of
// global, -1 for a term left out. FitTransform and FitTransformStream
// share it, so that both choose the same columns.
func (v *Vectorizer) chooseColumns(global *termDict, df []int, tf []int64, n int) ([]int32, error) {
	colOf := make([]int32, len(global.keys))
	for g := range colOf {
		colOf[g] = -1
	}
	if v.opts.Vocabulary != nil {
		if err := v.setVocab(slices.Clone(v.opts.Vocabulary)); err != nil {
			return nil, err
		}
		for j, t := range v.vocab {
			if g := global.lookup(t); g >= 0 {
				colOf[g] = int32(j)
			}
		}
		return colOf, nil
	}
	sel, err := v.selectVocab(global, df, tf, n)
	if err != nil {
		return nil, err
	}
	vocab := make([]string, len(sel))
	for k, g := range sel {
		vocab[k] = global.str(g)
	}
	order := make([]int, len(sel))
	for k := range order {
		order[k] = k
	}
	sort.Slice(order, func(a, b int) bool { return vocab[order[a]] < vocab[order[b]] })
	sorted := make([]string, len(sel))
	for j, k := range order {
		sorted[j] = vocab[k]
		colOf[sel[k]] = int32(j)
	}
	if err := v.setVocab(sorted); err != nil {
		return nil, err
	}
	return colOf, nil
}

// setIDF sets the idf of each column from cdf, the number of the n
// documents kept in which the column's term occurs.
func (v *Vectorizer) setIDF(cdf []int, n int) {
	nf := float64(n)
	v.idf = make([]float64, len(v.vocab))
	for j, d := range cdf {
		if v.opts.RawIDF {
			// A fixed-vocabulary term never seen gets the idf of a
			// term seen once instead of scikit-learn's +Inf.
			v.idf[j] = math.Log(nf/float64(max(d, 1))) + 1
		} else {
			v.idf[j] = math.Log((1+nf)/(1+float64(d))) + 1
		}
	}
}

// selectVocab applies the df bounds and max_features and returns the ids
// of the chosen terms. Among terms tied at the max_features cut, the
// alphabetically smaller win; only those tied terms are turned into strings
// to decide.
func (v *Vectorizer) selectVocab(d *termDict, df []int, tf []int64, n int) ([]int32, error) {
	low := v.opts.MinDF.docs(n)
	high := math.Inf(1)
	if !v.opts.MaxDF.IsZero() {
		high = v.opts.MaxDF.docs(n)
	}
	if high < low {
		return nil, fmt.Errorf("vectorize: max_df %v corresponds to fewer documents than min_df %v (%d documents)", v.opts.MaxDF, v.opts.MinDF, n)
	}
	sel := make([]int32, 0, len(df))
	for g := range df {
		if f := float64(df[g]); f >= low && f <= high {
			sel = append(sel, int32(g))
		}
	}
	if len(sel) == 0 {
		if len(df) == 0 || slices.Max(df) == 0 {
			return nil, errNoToken
		}
		return nil, v.dfBoundsError(df, n, low, high)
	}
	limit := v.opts.MaxFeatures
	if limit <= 0 || len(sel) <= limit {
		return v.dropDigitTerms(d, sel), nil
	}
	if v.opts.RankByDF {
		tf = make([]int64, len(df))
		for g, f := range df {
			tf[g] = int64(f)
		}
	}
	if v.opts.SklearnTies {
		names := make(map[int32]string, len(sel))
		for _, g := range sel {
			names[g] = d.str(g)
		}
		slices.SortFunc(sel, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
		neg := make([]int64, len(sel))
		for k, g := range sel {
			neg[k] = -tf[g]
		}
		chosen := make([]int32, limit)
		for k, p := range npArgsort(neg)[:limit] {
			chosen[k] = sel[p]
		}
		return v.dropDigitTerms(d, chosen), nil
	}
	slices.SortFunc(sel, func(a, b int32) int {
		switch {
		case tf[a] > tf[b]:
			return -1
		case tf[a] < tf[b]:
			return 1
		}
		return 0
	})
	cut := tf[sel[limit-1]]
	first := sort.Search(len(sel), func(i int) bool { return tf[sel[i]] <= cut })
	last := sort.Search(len(sel), func(i int) bool { return tf[sel[i]] < cut })
	tied := sel[first:last]
	names := make(map[int32]string, len(tied))
	for _, g := range tied {
		names[g] = d.str(g)
	}
	slices.SortFunc(tied, func(a, b int32) int { return strings.Compare(names[a], names[b]) })
	return v.dropDigitTerms(d, sel[:limit]), nil
}

// dropDigitTerms removes the digit-only terms from sel when DropDigitTerms
// is set.
func (v *Vectorizer) dropDigitTerms(d *termDict, sel []int32) []int32 {
	if !v.opts.DropDigitTerms {
		return sel
	}
	kept := sel[:0]
	for _, g := range sel {
		if !IsDigitTerm(d.str(g)) {
			kept = append(kept, g)
		}
	}
	return kept
}

// IsDigitTerm reports whether term is non-empty and made only of runes
// that Python's str.isdigit accepts: decimal digits (Unicode category Nd)
// and the digit-valued superscripts, subscripts and circled or
// parenthesised digits (but not fractions or Roman numerals).
func IsDigitTerm(term string) bool {
	if term == "" {
		return false
	}
	for _, r := range term {
		if !unicode.IsDigit(r) && !unicode.Is(digitLike, r) {
			return false
		}
	}
	return true
}

// digitLike holds the runes outside category Nd that Python's str.isdigit
// accepts (Numeric_Type=Digit: superscripts, subscripts, circled and
// parenthesised digits, Ethiopic and other digit signs), as of Python 3.11.
var digitLike = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00b2, Hi: 0x00b3, Stride: 1}, {Lo: 0x00b9, Hi: 0x00b9, Stride: 1},
		{Lo: 0x1369, Hi: 0x1371, Stride: 1}, {Lo: 0x19da, Hi: 0x19da, Stride: 1},
		{Lo: 0x2070, Hi: 0x2070, Stride: 1}, {Lo: 0x2074, Hi: 0x2079, Stride: 1},
		{Lo: 0x2080, Hi: 0x2089, Stride: 1}, {Lo: 0x2460, Hi: 0x2468, Stride: 1},
		{Lo: 0x2474, Hi: 0x247c, Stride: 1}, {Lo: 0x2488, Hi: 0x2490, Stride: 1},
		{Lo: 0x24ea, Hi: 0x24ea, Stride: 1}, {Lo: 0x24f5, Hi: 0x24fd, Stride: 1},
		{Lo: 0x24ff, Hi: 0x24ff, Stride: 1}, {Lo: 0x2776, Hi: 0x277e, Stride: 1},
		{Lo: 0x2780, Hi: 0x2788, Stride: 1}, {Lo: 0x278a, Hi: 0x2792, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x10a40, Hi: 0x10a43, Stride: 1}, {Lo: 0x10e60, Hi: 0x10e68, Stride: 1},
		{Lo: 0x11052, Hi: 0x1105a, Stride: 1}, {Lo: 0x1f100, Hi: 0x1f10a, Stride: 1},
	},
	LatinOffset: 2,
}

// Transform maps docs to rows with the fitted vocabulary. Unlike
// FitTransform it keeps every document (a document with no known term
// becomes an empty row) and counts the out-of-vocabulary terms.
func (v *Vectorizer) Transform(ctx context.Context, docs []corpus.Document) (*Result, error) {
	if !v.Fitted() {
		return nil, errors.New("vectorize: Transform before Fit")
	}
	all := make([]int, len(docs))
	for i := range all {
		all[i] = i
	}
	rows := make([]docCounts, len(docs))
	o := v.analyzer.Options()
	bufs := make([][]string, parallel.Workers())
	err := v.analyse(ctx, docs, all, len(bufs), func(w int, tokens []string, dc *docCounts) {
		terms := tokens
		if o.NGramMin != 1 || o.NGramMax != 1 {
			terms = text.NGrams(bufs[w][:0], tokens, o.NGramMin, o.NGramMax)
			bufs[w] = terms
		}
		dc.terms = len(terms)
		dc.ids = dc.ids[:0]
		for _, t := range terms {
			if j, ok := v.index[t]; ok {
				dc.ids = append(dc.ids, j)
			}
		}
	}, rows)
	if err != nil {
		return nil, err
	}
	res := &Result{Kept: all, Docs: slices.Clone(docs), Vocab: v.vocab}
	if res.X, err = v.build(rows, res); err != nil {
		return nil, err
	}
	v.weight(res.X)
	return res, nil
}

// analyse runs the analyzer over docs[idx[k]] on at most workers
// goroutines. ids(w, tokens, dc) must fill dc.ids with one id per term (any
// order, repeats allowed) and set dc.terms; analyse then turns the ids into
// sorted unique ids with counts. w, in [0, workers), is the worker, for
// worker-local state.
func (v *Vectorizer) analyse(ctx context.Context, docs []corpus.Document, idx []int, workers int, ids func(w int, tokens []string, dc *docCounts), rows []docCounts) error {
	const chunk = 64
	var done atomic.Int64
	tokens := make([][]string, workers)
	sessions := make([]*text.Session, workers)
	for w := range sessions {
		sessions[w] = v.analyzer.Session()
	}
	return parallel.ForDynamic(ctx, len(idx), chunk, workers, func(w, lo, hi int) error {
		buf, sess := tokens[w], sessions[w]
		for k := lo; k < hi; k++ {
			buf = sess.AppendTokens(buf[:0], docs[idx[k]].Text)
			dc := &rows[k]
			dc.worker = w
			dc.tokens = len(buf)
			ids(w, buf, dc)
			dc.ids, dc.counts = countIDs(dc.ids)
		}
		tokens[w] = buf
		d := done.Add(int64(hi - lo))
		if v.Progress != nil {
			v.Progress(int(d), len(idx))
		}
		return nil
	})
}

// countIDs sorts ids and collapses repeats into counts, returning compact
// slices.
func countIDs(ids []int32) ([]int32, []int32) {
	if len(ids) == 0 {
		return nil, nil
	}
	slices.Sort(ids)
	n := 0
	counts := make([]int32, 0, len(ids))
	for p, id := range ids {
		if p > 0 && id == ids[n-1] {
			counts[n-1]++
			continue
		}
		ids[n] = id
		counts = append(counts, 1)
		n++
	}
	return slices.Clip(ids[:n]), slices.Clip(counts)
}

// build assembles the count matrix from per-document column ids (negative
// ids are out of vocabulary and skipped) and fills the token statistics of
// res.
func (v *Vectorizer) build(rows []docCounts, res *Result) (*sparse.CSR, error) {
	nnz := 0
	for r := range rows {
		for _, j := range rows[r].ids {
			if j >= 0 {
				nnz++
			}
		}
	}
	b, err := sparse.NewBuilder(len(rows), len(v.vocab), nnz)
	if err != nil {
		return nil, fmt.Errorf("vectorize: %w", err)
	}
	for r := range rows {
		dc := &rows[r]
		res.Tokens += dc.tokens
		res.Terms += dc.terms
		in, kept := 0, 0
		for p, j := range dc.ids {
			if j >= 0 {
				if err := b.Add(r, int(j), float64(dc.counts[p])); err != nil {
					return nil, fmt.Errorf("vectorize: %w", err)
				}
				in += int(dc.counts[p])
				kept++
			}
		}
		if kept == 0 {
			res.EmptyRows++
		}
		res.OOV += dc.terms - in
		*dc = docCounts{} // free as we go
	}
	x, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("vectorize: %w", err)
	}
	return x, nil
}

// weight applies binary clipping, sublinear tf, idf and row normalisation
// in place.
func (v *Vectorizer) weight(x *sparse.CSR) {
	o := &v.opts
	for p, c := range x.Data {
		switch {
		case o.Binary:
			x.Data[p] = 1
		case o.Sublinear:
			x.Data[p] = 1 + math.Log(c)
		}
	}
	if o.IDF {
		for p, j := range x.Indices {
			x.Data[p] *= v.idf[j]
		}
	}
	switch o.Norm {
	case NormL2:
		x.NormalizeRowsL2()
	case NormL1:
		x.NormalizeRowsL1()
	}
}
