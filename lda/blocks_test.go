package lda

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// cutSource is a matrix in memory cut into blocks at given rows, so that
// the blocks can have any sizes.
type cutSource struct {
	x    *sparse.CSR
	cuts []int // block i is rows [cuts[i], cuts[i+1])
}

func newCutSource(x *sparse.CSR, sizes ...int) *cutSource {
	cuts := []int{0}
	for _, s := range sizes {
		cuts = append(cuts, cuts[len(cuts)-1]+s)
	}
	if cuts[len(cuts)-1] != x.Rows {
		panic(fmt.Sprintf("block sizes add up to %d rows, the matrix has %d", cuts[len(cuts)-1], x.Rows))
	}
	return &cutSource{x: x, cuts: cuts}
}

func (s *cutSource) Dims() (int, int)      { return s.x.Rows, s.x.Cols }
func (s *cutSource) NumBlocks() int        { return len(s.cuts) - 1 }
func (s *cutSource) Span(i int) (int, int) { return s.cuts[i], s.cuts[i+1] - s.cuts[i] }

func (s *cutSource) Read(i int) (*blocks.Block, error) {
	lo, hi := s.cuts[i], s.cuts[i+1]
	rows := make([]int, hi-lo)
	for r := range rows {
		rows[r] = lo + r
	}
	return &blocks.Block{First: lo, X: s.x.SelectRows(rows)}, nil
}

// blocksCorpus is a corpus of 300 documents over 150 terms from 5 planted
// topics, with an empty document every 37.
func blocksCorpus(t testing.TB) *sparse.CSR {
	t.Helper()
	syn := plant(11, 5, 30, 290, 40, 0.2)
	var ts []sparse.Triplet
	row := 0
	for d := 0; d < syn.x.Rows; d++ {
		if row%37 == 5 {
			row++ // an empty document
		}
		for p := syn.x.Indptr[d]; p < syn.x.Indptr[d+1]; p++ {
			ts = append(ts, sparse.Triplet{Row: row, Col: int(syn.x.Indices[p]), Val: syn.x.Data[p]})
		}
		row++
	}
	x, err := sparse.FromTriplets(300, syn.x.Cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// unevenSizes cuts 300 documents into 7 blocks of uneven sizes, one of a
// single document.
var unevenSizes = []int{1, 60, 13, 97, 40, 2, 87}

// blocksConfigs are the cases of the comparisons with Fit.
var blocksConfigs = []struct {
	name string
	cfg  Config
}{
	{"batch", Config{K: 5, MaxIter: 4, Seed: 1}},
	{"batch evaluated, stopped by Tol", Config{K: 5, MaxIter: 30, EvaluateEvery: 2, Tol: 3, Seed: 2}},
	{"batch evaluated, last pass not", Config{K: 5, MaxIter: 4, EvaluateEvery: 3, Seed: 3, DocTopicPrior: 0.3}},
	{"online", Config{K: 5, Method: Online, MaxIter: 3, BatchSize: 40, EvaluateEvery: 1, Seed: 4}},
	{"online, last pass not evaluated", Config{K: 5, Method: Online, MaxIter: 3, BatchSize: 64, EvaluateEvery: 2, Seed: 5, LearningDecay: 0.6}},
	{"batch supervised: z-labels, seed prior, exclusions, labels", Config{K: 5, MaxIter: 4, EvaluateEvery: 2, Seed: 6,
		Seeds: supervision.Terms{Seeds: testSeeds, Exclude: testExclude}, ZLabels: true, DocTopics: testDocTopics(300)}},
	{"online supervised: seed prior, labels", Config{K: 5, Method: Online, MaxIter: 3, BatchSize: 64, EvaluateEvery: 1, Seed: 7,
		Seeds: supervision.Terms{Seeds: testSeeds}, SeedPrior: 0.5, DocTopics: testDocTopics(300)}},
	// Labels alone: the first pass counts only the labeled documents'
	// words, which start λ.
	{"batch labels only", Config{K: 5, MaxIter: 3, EvaluateEvery: 1, Seed: 8, DocTopics: testDocTopics(300)}},
	{"online labels only", Config{K: 5, Method: Online, MaxIter: 2, BatchSize: 70, Seed: 9, DocTopics: testDocTopics(300)}},
	// Seed counts given, so the first pass counts the labels only, and
	// z-labels, which keep a seed word's counts out of the other topics.
	{"batch labels, given seed counts, z-labels", Config{K: 5, MaxIter: 3, EvaluateEvery: 2, Seed: 10,
		Seeds: supervision.Terms{Seeds: testSeeds}, SeedCounts: givenCounts(), ZLabels: true, DocTopics: testDocTopics(300)}},
}

// givenCounts returns made-up counts of testSeeds, which Fit and
// FitBlocks take as given.
func givenCounts() []float64 {
	out := make([]float64, len(testSeeds))
	for i := range out {
		out[i] = float64(10 + i)
	}
	return out
}

// compareModels fails unless got's λ, history, passes, steps and training
// perplexity equal want's to tol relative (0: to the bit).
func compareModels(t *testing.T, what string, got, want *Model, tol float64) {
	t.Helper()
	eq := func(a, b float64) bool {
		if math.IsNaN(a) || math.IsNaN(b) {
			return math.IsNaN(a) && math.IsNaN(b)
		}
		if tol == 0 {
			return a == b
		}
		return relDiff(a, b) <= tol
	}
	if got.Passes() != want.Passes() || got.Steps() != want.Steps() {
		t.Errorf("%s: %d passes and %d steps, in memory %d and %d", what, got.Passes(), got.Steps(), want.Passes(), want.Steps())
	}
	for i, v := range want.lambda {
		if !eq(got.lambda[i], v) {
			t.Errorf("%s: λ of term %d, topic %d = %.17g, in memory %.17g", what, i/want.k, i%want.k, got.lambda[i], v)
			break
		}
	}
	gh, wh := got.History(), want.History()
	if len(gh) != len(wh) {
		t.Fatalf("%s: %d history records, in memory %d", what, len(gh), len(wh))
	}
	for i, w := range wh {
		g := gh[i]
		if g.Iter != w.Iter || g.Total != w.Total || g.Run != w.Run || g.Runs != w.Runs || !eq(g.Objective, w.Objective) || !eq(g.Inner, w.Inner) {
			t.Errorf("%s: history record %d = %+v, in memory %+v", what, i, g, w)
		}
	}
	if !eq(got.TrainPerplexity(), want.TrainPerplexity()) {
		t.Errorf("%s: training perplexity %.17g, in memory %.17g", what, got.TrainPerplexity(), want.TrainPerplexity())
	}
	gc, wc := got.Convergence(), want.Convergence()
	if gc.Status != wc.Status || gc.MaxIter != wc.MaxIter || gc.Measure != wc.Measure || !eq(gc.Value, wc.Value) || gc.Tol != wc.Tol {
		t.Errorf("%s: %+v, in memory %+v", what, gc, wc)
	}
}

// TestFitBlocksMatchesFit fits the same corpus in memory and in blocks of
// several layouts: λ, the history and the passes agree to 1e-9 relative,
// and in fact to the bit, since blocks.Run adds every document's
// statistics in Fit's order.
func TestFitBlocksMatchesFit(t *testing.T) {
	x := blocksCorpus(t)
	ctx := context.Background()
	even, err := blocks.FromCSR(x, nil, 45) // 6 blocks of 45 and one of 30
	if err != nil {
		t.Fatal(err)
	}
	sources := []struct {
		name string
		src  blocks.Source
	}{
		{"7 uneven blocks", newCutSource(x, unevenSizes...)},
		{"7 blocks of FromCSR", even},
		{"1 block", newCutSource(x, x.Rows)},
	}
	for _, c := range blocksConfigs {
		t.Run(c.name, func(t *testing.T) {
			var memSteps []progress.Step
			cfg := c.cfg
			cfg.Progress = func(s progress.Step) { memSteps = append(memSteps, s) }
			want, err := Fit(ctx, x, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(c.name, "Tol") && want.Passes() >= c.cfg.MaxIter-1 {
				t.Fatalf("Fit ran %d of %d passes: Tol does not stop it early", want.Passes(), c.cfg.MaxIter)
			}
			for _, s := range sources {
				var steps []progress.Step
				cfg.Progress = func(s progress.Step) { steps = append(steps, s) }
				got, err := FitBlocks(ctx, s.src, blocks.NewMemStore(), cfg)
				if err != nil {
					t.Fatalf("%s: %v", s.name, err)
				}
				compareModels(t, s.name, got, want, 1e-9)
				compareModels(t, s.name+" (bits)", got, want, 0)
				if len(steps) != len(memSteps) {
					t.Errorf("%s: %d progress reports, in memory %d", s.name, len(steps), len(memSteps))
				}
			}
		})
	}
}

// mapPass runs the trainer's current pass over every block of src in
// order into one vector, as blocks.Run does.
func mapPass(t *testing.T, tr *Trainer, src blocks.Source) []float64 {
	t.Helper()
	acc := make([]float64, tr.StatsLen())
	for i := 0; i < src.NumBlocks(); i++ {
		b, err := src.Read(i)
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Map(context.Background(), i, b, nil, acc); err != nil {
			t.Fatal(err)
		}
	}
	return acc
}

// clone copies a trainer through MarshalBinary and UnmarshalBinary.
func clone(t *testing.T, tr *Trainer) *Trainer {
	t.Helper()
	buf, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	c := new(Trainer)
	if err := c.UnmarshalBinary(buf); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestTrainerMarshalMidFit copies the trainer through MarshalBinary and
// UnmarshalBinary before every pass of online fits with evaluations (so
// that every kind of pass is crossed): the copy's Map adds exactly the
// original's statistics, and the copy, reduced alongside, ends with the
// original's model.
func TestTrainerMarshalMidFit(t *testing.T) {
	x := blocksCorpus(t)
	src := newCutSource(x, unevenSizes...)
	ctx := context.Background()
	for _, c := range blocksConfigs {
		t.Run(c.name, func(t *testing.T) {
			tr, err := NewTrainer(x.Rows, x.Cols, c.cfg)
			if err != nil {
				t.Fatal(err)
			}
			cp := clone(t, tr)
			for pass := 0; ; pass++ {
				if pass > 1000 {
					t.Fatal("the fit does not end")
				}
				if pass%3 == 1 {
					cp = clone(t, cp) // sometimes carry on with a copy of the copy
				} else {
					cp = clone(t, tr)
				}
				acc, cacc := mapPass(t, tr, src), mapPass(t, cp, src)
				if len(acc) != len(cacc) {
					t.Fatalf("pass %d: %d statistics, the copy %d", pass, len(acc), len(cacc))
				}
				for i := range acc {
					if math.Float64bits(acc[i]) != math.Float64bits(cacc[i]) {
						t.Fatalf("pass %d: statistic %d = %v, the copy's %v", pass, i, acc[i], cacc[i])
					}
				}
				done, err := tr.Reduce(ctx, acc)
				if err != nil {
					t.Fatal(err)
				}
				cdone, err := cp.Reduce(ctx, cacc)
				if err != nil {
					t.Fatal(err)
				}
				if done != cdone {
					t.Fatalf("pass %d: done %v, the copy %v", pass, done, cdone)
				}
				if done {
					break
				}
			}
			want, err := tr.Model()
			if err != nil {
				t.Fatal(err)
			}
			got, err := clone(t, cp).Model()
			if err != nil {
				t.Fatal(err)
			}
			compareModels(t, "copied trainer", got, want, 0)
		})
	}
}

// TestTrainerSumOrder sums the blocks' statistics, each mapped into its
// own vector, in another order, as a distributed engine may: the sums and
// the models after Reduce differ by less than 1e-12 relative.
func TestTrainerSumOrder(t *testing.T) {
	x := blocksCorpus(t)
	src := newCutSource(x, unevenSizes...)
	ctx := context.Background()
	// Online with evaluations, stopped at a pass that evaluates and runs a
	// mini-batch, and batch at its first pass.
	for _, c := range []struct {
		cfg    Config
		passes int
	}{
		{Config{K: 5, Method: Online, BatchSize: 40, MaxIter: 3, EvaluateEvery: 1, Seed: 8}, 8},
		{Config{K: 5, MaxIter: 3, Seed: 9}, 0},
	} {
		tr, err := NewTrainer(x.Rows, x.Cols, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		for p := 0; p < c.passes; p++ {
			if _, err := tr.Reduce(ctx, mapPass(t, tr, src)); err != nil {
				t.Fatal(err)
			}
		}
		if lo, hi, perp := tr.plan(); c.passes > 0 && (lo >= hi || !perp) {
			t.Fatalf("pass %d runs documents %d to %d, perplexity %v: want both", c.passes, lo, hi, perp)
		}
		parts := make([][]float64, src.NumBlocks())
		for i := range parts {
			b, err := src.Read(i)
			if err != nil {
				t.Fatal(err)
			}
			parts[i] = make([]float64, tr.StatsLen())
			if err := tr.Map(ctx, i, b, blocks.NewMemStore(), parts[i]); err != nil {
				t.Fatal(err)
			}
		}
		sumIn := func(order []int) []float64 {
			s := make([]float64, tr.StatsLen())
			for _, i := range order {
				for j, v := range parts[i] {
					s[j] += v
				}
			}
			return s
		}
		fwd := sumIn([]int{0, 1, 2, 3, 4, 5, 6})
		other := sumIn([]int{5, 3, 0, 6, 2, 4, 1})
		for j, v := range fwd {
			if relDiff(other[j], v) > 1e-12 {
				t.Fatalf("statistic %d: %v in one order, %v in another", j, v, other[j])
			}
		}
		a, b := clone(t, tr), clone(t, tr)
		if _, err := a.Reduce(ctx, fwd); err != nil {
			t.Fatal(err)
		}
		if _, err := b.Reduce(ctx, other); err != nil {
			t.Fatal(err)
		}
		ma, _ := a.Model()
		mb, _ := b.Model()
		compareModels(t, "another order", mb, ma, 1e-12)
	}
}

// cancelSource cancels a context when block at of pass pass is read.
type cancelSource struct {
	blocks.Source
	reads  atomic.Int64
	at     int64
	cancel func()
}

func (s *cancelSource) Read(i int) (*blocks.Block, error) {
	if s.reads.Add(1) == s.at {
		s.cancel()
	}
	return s.Source.Read(i)
}

// TestFitBlocksCancel cancels out-of-core fits between passes (from
// Progress) and in the middle of a pass (while reading a block): each
// returns the context's error with the model of the last complete pass,
// equal to Fit's when cancelled at the same point, and usable.
func TestFitBlocksCancel(t *testing.T) {
	x := blocksCorpus(t)
	for _, method := range []Method{Batch, Online} {
		cfg := Config{K: 5, Method: method, MaxIter: 20, BatchSize: 50, Seed: 6}
		cancelAfter := func(pass int) (context.Context, Config) {
			ctx, cancel := context.WithCancel(context.Background())
			t.Cleanup(cancel)
			c := cfg
			c.Progress = func(s progress.Step) {
				if s.Iter == pass {
					cancel()
				}
			}
			return ctx, c
		}
		ctx, c := cancelAfter(2)
		want, err := Fit(ctx, x, c)
		if !errors.Is(err, context.Canceled) || want == nil {
			t.Fatalf("%v: Fit cancelled after pass 2: %v", method, err)
		}
		ctx, c = cancelAfter(2)
		got, err := FitBlocks(ctx, newCutSource(x, unevenSizes...), blocks.NewMemStore(), c)
		if !errors.Is(err, context.Canceled) || got == nil {
			t.Fatalf("%v: FitBlocks cancelled after pass 2: %v, model %v", method, err, got)
		}
		if got.Passes() != 2 || !math.IsNaN(got.TrainPerplexity()) {
			t.Errorf("%v: cancelled after pass 2: %d passes, training perplexity %v", method, got.Passes(), got.TrainPerplexity())
		}
		compareModels(t, method.String()+" cancelled after pass 2", got, want, 0)
		if _, err := got.Transform(context.Background(), x); err != nil {
			t.Errorf("%v: the cancelled model does not transform: %v", method, err)
		}

		// Cancelled while reading block 4 of the third pass over the data:
		// the model is that of pass 2 (batch) or of the mini-batch before
		// (online), as Fit leaves it cancelled after that mini-batch.
		ctx, cancel := context.WithCancel(context.Background())
		t.Cleanup(cancel)
		perPass := int64(len(unevenSizes))
		src := &cancelSource{Source: newCutSource(x, unevenSizes...), at: 2*perPass + 4, cancel: cancel}
		got, err = FitBlocks(ctx, src, blocks.NewMemStore(), cfg)
		if !errors.Is(err, context.Canceled) || got == nil {
			t.Fatalf("%v: FitBlocks cancelled in a pass: %v", method, err)
		}
		if method == Batch {
			compareModels(t, "batch cancelled in pass 3", got, want, 0)
		} else if got.Steps() != 3 {
			t.Errorf("online cancelled in the third mini-batch: %d steps, want 3", got.Steps())
		}

		ctx, cancel = context.WithCancel(context.Background())
		cancel()
		got, err = FitBlocks(ctx, newCutSource(x, unevenSizes...), blocks.NewMemStore(), cfg)
		if !errors.Is(err, context.Canceled) || got == nil || got.Passes() != 0 || got.Steps() != 1 {
			t.Fatalf("%v: FitBlocks with a cancelled context: %v, model %v", method, err, got)
		}
		init, err := New(x.Cols, cfg)
		if err != nil {
			t.Fatal(err)
		}
		init.conv = progress.Convergence{Status: progress.Cancelled, MaxIter: cfg.MaxIter} // the fit's model says it was cancelled
		compareModels(t, "cancelled before the first pass", got, init, 0)
	}
}

// wrongDims claims more documents than its blocks hold.
type wrongDims struct{ blocks.Source }

func (s wrongDims) Dims() (int, int) {
	d, v := s.Source.Dims()
	return d + 1, v
}

func TestTrainerErrors(t *testing.T) {
	x := blocksCorpus(t)
	ctx := context.Background()
	cfg := Config{K: 5, MaxIter: 2, Seed: 1}
	for _, c := range []struct {
		docs, terms int
		cfg         Config
		want        string
	}{
		{0, 5, cfg, "at least one document"},
		{5, 0, cfg, "at least one document"},
		{5, 5, Config{}, "K = 0"},
		{5, 5, Config{K: 2, LearningDecay: 2}, "LearningDecay"},
	} {
		if _, err := NewTrainer(c.docs, c.terms, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("NewTrainer(%d, %d, %+v): %v, want %q", c.docs, c.terms, c.cfg, err, c.want)
		}
	}

	if _, err := FitBlocks(ctx, wrongDims{newCutSource(x, unevenSizes...)}, blocks.NewMemStore(), cfg); err == nil || !strings.Contains(err.Error(), "saw 300 documents, the corpus has 301") {
		t.Errorf("a source missing a document: %v", err)
	}
	empty, err := blocks.FromCSR(sparse.Zeros(10, 4), nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := FitBlocks(ctx, empty, blocks.NewMemStore(), cfg); err == nil || !strings.Contains(err.Error(), "0 words") {
		t.Errorf("a corpus of empty documents: %v", err)
	}
	neg := x.Clone()
	neg.Data[len(neg.Data)-1] = -1
	if _, err := FitBlocks(ctx, newCutSource(neg, unevenSizes...), blocks.NewMemStore(), cfg); err == nil || !strings.Contains(err.Error(), "block 6 (documents 213 to 300)") || !strings.Contains(err.Error(), "negative count") {
		t.Errorf("a negative count: %v", err)
	}

	tr, err := NewTrainer(x.Rows, x.Cols, cfg)
	if err != nil {
		t.Fatal(err)
	}
	src := newCutSource(x, unevenSizes...)
	b, _ := src.Read(1)
	acc := make([]float64, tr.StatsLen())
	if err := tr.Map(ctx, 1, b, nil, acc[1:]); err == nil || !strings.Contains(err.Error(), "statistics vector") {
		t.Errorf("Map with a short vector: %v", err)
	}
	if err := tr.Map(ctx, 1, nil, nil, acc); err == nil {
		t.Error("Map of a nil block: no error")
	}
	if err := tr.Map(ctx, 1, &blocks.Block{First: 280, X: b.X}, nil, acc); err == nil || !strings.Contains(err.Error(), "documents 280 to 340, the corpus has 300") {
		t.Errorf("Map of a block past the corpus: %v", err)
	}
	narrow := b.X.Clone()
	narrow.Cols--
	if err := tr.Map(ctx, 1, &blocks.Block{First: 1, X: narrow}, nil, acc); err == nil || !strings.Contains(err.Error(), "terms") {
		t.Errorf("Map of a block with too few terms: %v", err)
	}
	if _, err := tr.Reduce(ctx, acc[1:]); err == nil || !strings.Contains(err.Error(), "statistics vector") {
		t.Errorf("Reduce with a short vector: %v", err)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := tr.Map(cctx, 1, b, nil, acc); !errors.Is(err, context.Canceled) {
		t.Errorf("Map with a cancelled context: %v", err)
	}
	if err := blocks.Run(ctx, src, nil, tr); err != nil {
		t.Fatal(err)
	}
	if err := tr.Map(ctx, 1, b, nil, make([]float64, tr.StatsLen())); err == nil || !strings.Contains(err.Error(), "finished") {
		t.Errorf("Map after the end: %v", err)
	}

	var zero Trainer
	if _, err := zero.Model(); err == nil {
		t.Error("Model of a zero Trainer: no error")
	}
	if err := zero.Map(ctx, 0, b, nil, nil); err == nil {
		t.Error("Map of a zero Trainer: no error")
	}
	if _, err := zero.MarshalBinary(); err == nil {
		t.Error("MarshalBinary of a zero Trainer: no error")
	}

	good, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	bad := func(name string, edit func([]byte) []byte) {
		t.Helper()
		buf := edit(bytes.Clone(good))
		var u Trainer
		if err := u.UnmarshalBinary(buf); err == nil || !strings.Contains(err.Error(), "decoding a trainer") {
			t.Errorf("UnmarshalBinary of %s: %v", name, err)
		}
	}
	bad("nothing", func([]byte) []byte { return nil })
	bad("other data", func(b []byte) []byte { b[0] = 'X'; return b })
	bad("another version", func(b []byte) []byte { b[4] = 9; return b })
	bad("a truncated λ", func(b []byte) []byte { return b[:len(b)-8] })
	bad("a longer λ", func(b []byte) []byte { return append(b, make([]byte, 8)...) })
	// λ ends where the supervision fields of an unsupervised trainer begin:
	// SeedPrior, ZLabels and three lengths, 8 bytes each. (The two cases
	// above shift those fields and are caught there.)
	lamEnd := len(good) - 5*8
	bad("a negative λ", func(b []byte) []byte { b[lamEnd-1] = 0xff; return b })
	bad("a corrupt supervision length", func(b []byte) []byte { b[len(b)-1] = 0xff; return b })
	bad("K = 0", func(b []byte) []byte { b[12] = 0; return b })
	bad("a huge history", func(b []byte) []byte { copy(b[4+8*30:], []byte{0xff, 0xff, 0xff, 0x7f}); return b })
	var u Trainer
	if err := u.UnmarshalBinary(good); err != nil {
		t.Fatalf("UnmarshalBinary of a good encoding: %v", err)
	}
}

// TestTrainerStateSize checks that the trainer's state does not grow with
// the number of documents: its encoding and statistics have the same size
// for a corpus ten times larger.
func TestTrainerStateSize(t *testing.T) {
	cfg := Config{K: 5, Seed: 1}
	small, err := NewTrainer(300, 150, cfg)
	if err != nil {
		t.Fatal(err)
	}
	large, err := NewTrainer(3000000, 150, cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := small.MarshalBinary()
	b, _ := large.MarshalBinary()
	if len(a) != len(b) || small.StatsLen() != large.StatsLen() {
		t.Errorf("state of %d and %d bytes, statistics of %d and %d values", len(a), len(b), small.StatsLen(), large.StatsLen())
	}
	if want := 150*5 + statScalars; small.StatsLen() != want {
		t.Errorf("StatsLen = %d, want %d", small.StatsLen(), want)
	}
}

// blocksBenchCorpus is 20,000 documents of 50 to 150 words over 5,000
// terms from 20 topics, each topic drawing 90% of its words from its own
// 250 terms.
func blocksBenchCorpus(b *testing.B) *sparse.CSR {
	b.Helper()
	const docs, k, per = 20000, 20, 250
	rng := rand.New(rand.NewPCG(1, 2))
	bld, err := sparse.NewBuilder(docs, k*per, docs*80)
	if err != nil {
		b.Fatal(err)
	}
	counts := map[int]float64{}
	for d := 0; d < docs; d++ {
		clear(counts)
		t1, t2 := rng.IntN(k), rng.IntN(k)
		n := 50 + rng.IntN(101)
		for i := 0; i < n; i++ {
			t := t1
			if rng.IntN(3) == 0 {
				t = t2
			}
			j := rng.IntN(k * per)
			if rng.IntN(10) != 0 {
				j = t*per + rng.IntN(per)
			}
			counts[j]++
		}
		for j, c := range counts {
			if err := bld.Add(d, j, c); err != nil {
				b.Fatal(err)
			}
		}
	}
	x, err := bld.Build()
	if err != nil {
		b.Fatal(err)
	}
	return x
}

// peakLive samples the live heap, as of the last garbage collection,
// every millisecond until stop is called, which returns its largest size
// in MiB.
func peakLive() (stop func() float64) {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak uint64
	quit, finished := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			metrics.Read(sample)
			peak = max(peak, sample[0].Value.Uint64())
			select {
			case <-quit:
				return
			case <-tick.C:
			}
		}
	}()
	return func() float64 {
		close(quit)
		<-finished
		return float64(peak) / (1 << 20)
	}
}

// BenchmarkFitBlocks times Fit and FitBlocks over a MemStore in one block
// and in eight, on 20,000 documents × 5,000 terms with k = 20 and five
// batch passes, evaluated every other pass.
func BenchmarkFitBlocks(b *testing.B) { benchFitBlocks(b, false) }

// BenchmarkFitBlocksMemory runs BenchmarkFitBlocks's fits with the
// garbage collector run after every 5% of heap growth, so that the live
// heap is measured often, and reports the largest seen (peak-live-MiB),
// the corpus (corpus-MiB) included. Its times are not those of a normal
// run.
func BenchmarkFitBlocksMemory(b *testing.B) { benchFitBlocks(b, true) }

func benchFitBlocks(b *testing.B, memory bool) {
	x := blocksBenchCorpus(b)
	cfg := Config{K: 20, MaxIter: 5, EvaluateEvery: 2, Seed: 1}
	ctx := context.Background()
	corpus := float64(8*len(x.Indptr)+4*len(x.Indices)+8*len(x.Data)) / (1 << 20)
	run := func(b *testing.B, fit func() error) {
		var stop func() float64
		if memory {
			defer debug.SetGCPercent(debug.SetGCPercent(5))
			runtime.GC()
			stop = peakLive()
		}
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := fit(); err != nil {
				b.Fatal(err)
			}
		}
		b.StopTimer()
		if memory {
			b.ReportMetric(stop(), "peak-live-MiB")
			b.ReportMetric(corpus, "corpus-MiB")
		}
	}
	b.Run("Fit", func(b *testing.B) {
		run(b, func() error {
			_, err := Fit(ctx, x, cfg)
			return err
		})
	})
	for _, nb := range []int{1, 8} {
		b.Run(fmt.Sprintf("FitBlocks/blocks=%d", nb), func(b *testing.B) {
			src, err := blocks.FromCSR(x, nil, (x.Rows+nb-1)/nb)
			if err != nil {
				b.Fatal(err)
			}
			run(b, func() error {
				_, err := FitBlocks(ctx, src, blocks.NewMemStore(), cfg)
				return err
			})
		})
	}
}

// cpStore is a MemStore that keeps a checkpoint, as shard.Store does.
type cpStore struct {
	*blocks.MemStore
	cp []byte
}

func (s *cpStore) SaveCheckpoint(b []byte) error { s.cp = slices.Clone(b); return nil }

func (s *cpStore) LoadCheckpoint() ([]byte, error) {
	if s.cp == nil {
		return nil, fs.ErrNotExist
	}
	return s.cp, nil
}

// TestFitBlocksResume interrupts an out-of-core fit after two passes and
// resumes it from its checkpoint: the model is the uninterrupted fit's to
// the bit, and the progress goes on after pass 2. A checkpoint of another
// fit (another K, seed or MaxIter) is refused and left as it was.
func TestFitBlocksResume(t *testing.T) {
	x := blocksCorpus(t)
	cfg := Config{K: 5, MaxIter: 6, EvaluateEvery: 2, Seed: 6}
	want, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := &cpStore{MemStore: blocks.NewMemStore()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := cfg
	c.Progress = func(s progress.Step) {
		if s.Iter == 2 {
			cancel()
		}
	}
	if _, err := FitBlocks(ctx, newCutSource(x, unevenSizes...), st, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted fit: %v", err)
	}
	saved := slices.Clone(st.cp)
	for _, other := range []Config{{K: 4, MaxIter: 6, EvaluateEvery: 2, Seed: 6}, {K: 5, MaxIter: 6, EvaluateEvery: 2, Seed: 7},
		{K: 5, MaxIter: 9, EvaluateEvery: 2, Seed: 6}} {
		_, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), st, other)
		if err == nil || !strings.Contains(err.Error(), "another fit") {
			t.Errorf("resumed with %+v: %v", other, err)
		}
		if !slices.Equal(st.cp, saved) {
			t.Fatalf("resuming with %+v changed the checkpoint", other)
		}
	}
	var iters []int
	c.Progress = func(s progress.Step) { iters = append(iters, s.Iter) }
	got, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), st, c)
	if err != nil {
		t.Fatal(err)
	}
	compareModels(t, "resumed", got, want, 0)
	if len(iters) == 0 || iters[0] < 3 || iters[len(iters)-1] != 6 {
		t.Errorf("the resumed fit reported iterations %v, want from after 2 to 6", iters)
	}
}

// A seeded fit's checkpoint, saved after the pass that counted the seed
// terms, resumes a fit whose configuration leaves the counts to it: the
// model is the uninterrupted fit's to the bit. Other seeds are another fit.
func TestFitBlocksResumeSeeded(t *testing.T) {
	x := blocksCorpus(t)
	cfg := Config{K: 5, MaxIter: 4, Seed: 6, Seeds: supervision.Terms{Seeds: testSeeds, Exclude: testExclude}}
	want, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := &cpStore{MemStore: blocks.NewMemStore()}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := cfg
	c.Progress = func(s progress.Step) {
		if s.Iter == 2 {
			cancel()
		}
	}
	if _, err := FitBlocks(ctx, newCutSource(x, unevenSizes...), st, c); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted fit: %v", err)
	}
	other := cfg
	other.Seeds.Seeds = slices.Clone(testSeeds)
	other.Seeds.Seeds[0].Strength = 3
	if _, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), st, other); err == nil || !strings.Contains(err.Error(), "another fit") {
		t.Errorf("resumed with other seeds: %v", err)
	}
	got, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	compareModels(t, "resumed", got, want, 0)
}

// A checkpoint written before seed terms were supervision.Terms (by
// lda.SeedWord and lda.TopicTerm; testdata/trainer-v2-seeded.bin: the
// corpus below, K 2, term 1 seeding topic 0, term 6 topic 1 with weight
// 2, term 5 excluded from topic 0, seed 3, 5 passes, interrupted after
// pass 2) still loads, with the counts it made, and resumes to the
// uninterrupted fit, to the bit.
func TestOldSeededCheckpointResumes(t *testing.T) {
	b, err := os.ReadFile("testdata/trainer-v2-seeded.bin")
	if err != nil {
		t.Fatal(err)
	}
	var ts []sparse.Triplet
	for d := 0; d < 12; d++ {
		for j := 0; j < 8; j++ {
			if v := (d*7 + j*3) % 5; v > 1 && (j < 4) == (d%2 == 0) || j == d%8 {
				ts = append(ts, sparse.Triplet{Row: d, Col: j, Val: float64(v + 1)})
			}
		}
	}
	x, err := sparse.FromTriplets(12, 8, ts)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{K: 2, MaxIter: 5, Seed: 3, Seeds: supervision.Terms{
		Seeds:   []supervision.Seed{{Topic: 0, Term: 1}, {Topic: 1, Term: 6, Strength: 2}},
		Exclude: []supervision.Exclusion{{Topic: 0, Term: 5}},
	}}
	var old Trainer
	if err := old.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	counts := make([]float64, x.Cols)
	for p, j := range x.Indices {
		counts[j] += x.Data[p]
	}
	o := old.m.opts
	if !slices.Equal(o.Seeds.Seeds, cfg.Seeds.Seeds) || !slices.Equal(o.Seeds.Exclude, cfg.Seeds.Exclude) || !slices.Equal(o.SeedCounts, []float64{counts[1], counts[6]}) {
		t.Errorf("decoded seeds %+v, counts %v; want %+v, %v", o.Seeds, o.SeedCounts, cfg.Seeds, []float64{counts[1], counts[6]})
	}
	src, err := blocks.FromCSR(x, nil, 5)
	if err != nil {
		t.Fatal(err)
	}
	want, err := FitBlocks(context.Background(), src, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var iters []int
	c := cfg
	c.Progress = func(s progress.Step) { iters = append(iters, s.Iter) }
	got, err := FitBlocks(context.Background(), src, &cpStore{MemStore: blocks.NewMemStore(), cp: b}, c)
	if err != nil {
		t.Fatal(err)
	}
	compareModels(t, "resumed from the old checkpoint", got, want, 0)
	if len(iters) == 0 || iters[0] != 3 {
		t.Errorf("the resumed fit reported passes %v, want from 3", iters)
	}
}

// A finished fit's checkpoint resumes to its model at once.
func TestFitBlocksResumeFinished(t *testing.T) {
	x := blocksCorpus(t)
	cfg := Config{K: 4, MaxIter: 3, Seed: 2}
	st := &cpStore{MemStore: blocks.NewMemStore()}
	want, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	cfg.Progress = func(progress.Step) { steps++ }
	got, err := FitBlocks(context.Background(), newCutSource(x, unevenSizes...), st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	compareModels(t, "resumed when finished", got, want, 0)
	if steps != 0 {
		t.Errorf("%d passes run after the end", steps)
	}
}
