package vectorize

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
)

// streamDocs makes n documents of words drawn with a skewed law from a
// small lexicon (with capitals, accents, digits and stopwords), some of
// them short enough for the document filters, and a few labels.
func streamDocs(n int) []corpus.Document {
	r := rand.New(rand.NewPCG(7, 11))
	words := strings.Fields(`the of and rocket rockets orbit orbiting satellite satellites launch launched
		Launching café Café naïve resume résumé 1999 2001 42 oven ovens bread breads baking baked flour
		butter pastry pastries planet planets Mars mars moon moons star stars galaxy galaxies telescope
		engine engines fuel fuels crew crews mission missions data datum analysis analyses study studies
		running runs ran run better good best mice mouse geese goose children child was were is are
		x y z ab abc abcd éclair über straße ﬁle ①②`)
	docs := make([]corpus.Document, n)
	for i := range docs {
		k := 1 + r.IntN(60)
		if i%17 == 0 {
			k = r.IntN(4) // short: for min-chars and min-tokens
		}
		var b strings.Builder
		for range k {
			w := words[int(float64(len(words))*math.Pow(r.Float64(), 2.5))]
			b.WriteString(w)
			b.WriteString([]string{" ", " ", ", ", ". ", "\n"}[r.IntN(5)])
		}
		d := corpus.Document{ID: fmt.Sprint("doc", i), Text: b.String()}
		if i%3 != 0 {
			d.Labels = []string{[]string{"space", "food", "science"}[i%3]}
		}
		docs[i] = d
	}
	return docs
}

// sliceSource visits docs.
func sliceSource(docs []corpus.Document) Source {
	return func(ctx context.Context, visit func(corpus.Document) error) error {
		for _, d := range docs {
			if err := visit(d); err != nil {
				return err
			}
		}
		return nil
	}
}

// streamPipelines are the pipelines the streamed fit is checked on: every
// preset, and options that exercise each branch of the weighting and of
// the vocabulary choice.
func streamPipelines(t *testing.T) map[string]Pipeline {
	t.Helper()
	out := map[string]Pipeline{}
	for _, name := range PipelinePresets() {
		p, err := PipelinePreset(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = p
	}
	plain := text.Options{Case: text.Lower, Pattern: text.Letters, MinLength: 2}
	add := func(name string, o Options, mod func(*text.Options)) {
		to := plain
		if mod != nil {
			mod(&to)
		}
		out[name] = Pipeline{Text: to, Vectorize: o}
	}
	add("tf", Options{}, nil)
	add("binary-l1", Options{Binary: true, Norm: NormL1}, nil)
	add("sublinear-rawidf", Options{Sublinear: true, IDF: true, RawIDF: true, Norm: NormL2}, nil)
	add("df-bounds", Options{IDF: true, Norm: NormL2, MinDF: Count(3), MaxDF: Fraction(0.5)}, nil)
	add("max-features-ties", Options{MaxFeatures: 17}, nil)
	add("max-features-sklearn-ties", Options{MaxFeatures: 17, SklearnTies: true, RankByDF: true}, nil)
	add("min-tokens-zero-df", Options{IDF: true, Norm: NormL2, MinTokens: 3}, nil)
	add("min-chars", Options{MinChars: 40, MinTokens: 2, IDF: true}, nil)
	add("bigrams", Options{IDF: true, Norm: NormL2, MinDF: Count(2)}, func(o *text.Options) { o.NGramMin, o.NGramMax = 2, 3 })
	add("fixed-vocabulary", Options{IDF: true, RawIDF: true, Norm: NormL2, Vocabulary: []string{"rocket", "zzz never seen", "oven", "rocket launch", "mars"}},
		func(o *text.Options) { o.NGramMax = 2 })
	add("digits", Options{DropDigitTerms: true, MaxFeatures: 30}, func(o *text.Options) { o.Pattern = text.SklearnWords })
	return out
}

// TestFitTransformStreamEqualsFitTransform checks that the streamed fit
// gives FitTransform's vocabulary, dropped documents, statistics and
// rows, value for value, for many pipelines and on enough documents for
// many batches on every worker.
func TestFitTransformStreamEqualsFitTransform(t *testing.T) {
	docs := streamDocs(1500)
	ctx := context.Background()
	for name, p := range streamPipelines(t) {
		t.Run(name, func(t *testing.T) {
			v, err := p.New()
			if err != nil {
				t.Fatal(err)
			}
			want, err := v.FitTransform(ctx, docs)
			if err != nil {
				t.Fatal(err)
			}
			sv, err := p.New()
			if err != nil {
				t.Fatal(err)
			}
			var vocab []string
			rows := 0
			got, err := sv.FitTransformStream(ctx, sliceSource(docs), func(v []string) error { vocab = v; return nil },
				func(d *corpus.Document, cols []int32, vals []float64) error {
					if d.ID != want.Docs[rows].ID {
						return fmt.Errorf("row %d: document %s, want %s", rows, d.ID, want.Docs[rows].ID)
					}
					wc, wv := want.X.Row(rows)
					if !slices.Equal(cols, wc) || !bitsEqual(vals, wv) {
						return fmt.Errorf("row %d (%s): %v %v, want %v %v", rows, d.ID, cols, vals, wc, wv)
					}
					rows++
					return nil
				})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(vocab, want.Vocab) || !reflect.DeepEqual(got.Vocab, want.Vocab) {
				t.Fatalf("vocabulary %v, want %v", vocab, want.Vocab)
			}
			if rows != want.X.Rows || got.Rows != rows || got.Docs != len(docs) {
				t.Fatalf("%d rows (result says %d of %d documents), want %d", rows, got.Rows, got.Docs, want.X.Rows)
			}
			if got.Dropped != len(want.Dropped) || !reflect.DeepEqual(got.FirstDropped, want.Dropped[:min(len(want.Dropped), MaxDroppedListed)]) {
				t.Errorf("dropped %d %v, want %v", got.Dropped, got.FirstDropped, want.Dropped)
			}
			if got.Tokens != want.Tokens || got.Terms != want.Terms || got.OOV != want.OOV || got.EmptyRows != want.EmptyRows {
				t.Errorf("statistics %d %d %d %d, want %d %d %d %d", got.Tokens, got.Terms, got.OOV, got.EmptyRows, want.Tokens, want.Terms, want.OOV, want.EmptyRows)
			}
			if !bitsEqual(sv.IDF(), v.IDF()) {
				t.Errorf("idf %v, want %v", sv.IDF(), v.IDF())
			}
			// The fitted vectorizer transforms new documents as the
			// in-memory one does.
			a, err1 := v.Transform(ctx, docs[:50])
			b, err2 := sv.Transform(ctx, docs[:50])
			if err1 != nil || err2 != nil || !reflect.DeepEqual(a.X, b.X) {
				t.Errorf("Transform after the streamed fit differs (%v, %v)", err1, err2)
			}
		})
	}
}

// bitsEqual compares float slices bit for bit.
func bitsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestFitTransformStreamErrors checks that errors stop the passes and come
// back: the source's, the row function's, the fitted callback's, a corpus
// that changes between the passes, one with no document left, and a
// cancelled context.
func TestFitTransformStreamErrors(t *testing.T) {
	docs := streamDocs(700)
	ctx := context.Background()
	p := DefaultPipeline()
	p.Text.Morph = text.NoMorph
	newV := func() *Vectorizer {
		v, err := p.New()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	noRow := func(*corpus.Document, []int32, []float64) error { return nil }
	bad := errors.New("bad document 300")
	failing := func(ctx context.Context, visit func(corpus.Document) error) error {
		for i, d := range docs {
			if i == 300 {
				return bad
			}
			if err := visit(d); err != nil {
				return err
			}
		}
		return nil
	}
	if _, err := newV().FitTransformStream(ctx, failing, nil, noRow); !errors.Is(err, bad) {
		t.Errorf("source error: %v", err)
	}
	stop := errors.New("disk full")
	n := 0
	_, err := newV().FitTransformStream(ctx, sliceSource(docs), nil, func(*corpus.Document, []int32, []float64) error {
		if n++; n == 200 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 200 {
		t.Errorf("row error: %v after %d rows", err, n)
	}
	if _, err := newV().FitTransformStream(ctx, sliceSource(docs), func([]string) error { return stop }, noRow); !errors.Is(err, stop) {
		t.Errorf("fitted error: %v", err)
	}
	calls := 0
	changing := func(ctx context.Context, visit func(corpus.Document) error) error {
		calls++
		return sliceSource(docs[:len(docs)-calls])(ctx, visit)
	}
	if _, err := newV().FitTransformStream(ctx, changing, nil, noRow); err == nil || !strings.Contains(err.Error(), "changed between the passes") {
		t.Errorf("changed corpus: %v", err)
	}
	if _, err := newV().FitTransformStream(ctx, sliceSource(nil), nil, noRow); err == nil || !strings.Contains(err.Error(), "no document left") {
		t.Errorf("empty corpus: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := newV().FitTransformStream(cctx, sliceSource(docs), nil, noRow); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestSessionRenewal checks that a worker's session is renewed once it
// has analysed its window of text, and that its tokens are the
// analyzer's all along.
func TestSessionRenewal(t *testing.T) {
	a, err := text.NewAnalyzer(text.Default())
	if err != nil {
		t.Fatal(err)
	}
	s := &session{a: a, window: 200}
	seen := map[*text.Session]bool{}
	for _, d := range streamDocs(100) {
		got := s.tokens(nil, d.Text)
		if want := a.AppendTokens(nil, d.Text); !slices.Equal(got, want) {
			t.Fatalf("%s: tokens %v, want %v", d.ID, got, want)
		}
		seen[s.s] = true
	}
	if len(seen) < 10 {
		t.Errorf("%d sessions for 100 documents in windows of 200 bytes", len(seen))
	}
}
