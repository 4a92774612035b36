package corex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// blockCorpus returns n documents over nv words in 4 planted groups of
// words, about 16 words per document, with counts from 1 to 3 when counts
// is set (presences otherwise). Word nv−1 is in no document.
func blockCorpus(n, nv int, seed uint64, counts bool) *sparse.CSR {
	r := rng.New(seed, 0, 77)
	var ts []sparse.Triplet
	group := (nv - 1) / 4
	for d := 0; d < n; d++ {
		g := r.Intn(4)
		seen := map[int]bool{}
		for k := 0; k < 16; k++ {
			w := r.Intn(nv - 1)
			if k%2 == 0 {
				w = g*group + r.Intn(group)
			}
			if !seen[w] {
				seen[w] = true
				v := 1.0
				if counts {
					v = float64(1 + r.Intn(3))
				}
				ts = append(ts, sparse.Triplet{Row: d, Col: w, Val: v})
			}
		}
	}
	x, err := sparse.FromTriplets(n, nv, ts)
	if err != nil {
		panic(err)
	}
	return x
}

func testVocab(nv int) []string {
	v := make([]string, nv)
	for i := range v {
		v[i] = fmt.Sprintf("w%d", i)
	}
	return v
}

// spanSource is a matrix cut into blocks of the given sizes.
type spanSource struct {
	x     *sparse.CSR
	first []int // len(blocks)+1
}

func newSpanSource(x *sparse.CSR, sizes ...int) *spanSource {
	s := &spanSource{x: x, first: []int{0}}
	for _, n := range sizes {
		s.first = append(s.first, s.first[len(s.first)-1]+n)
	}
	if s.first[len(sizes)] != x.Rows {
		panic("spans do not cover the matrix")
	}
	return s
}

func (s *spanSource) Dims() (int, int)      { return s.x.Rows, s.x.Cols }
func (s *spanSource) NumBlocks() int        { return len(s.first) - 1 }
func (s *spanSource) Span(i int) (int, int) { return s.first[i], s.first[i+1] - s.first[i] }
func (s *spanSource) Read(i int) (*blocks.Block, error) {
	lo, hi := s.first[i], s.first[i+1]
	rows := make([]int, hi-lo)
	for k := range rows {
		rows[k] = lo + k
	}
	return &blocks.Block{First: lo, X: s.x.SelectRows(rows)}, nil
}

// relDiff is |a − b| relative to the larger magnitude (0 when both are 0).
func relDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / max(math.Abs(a), math.Abs(b))
}

// checkClose reports the worst relative difference of two vectors above tol.
func checkClose(t *testing.T, what string, got, want []float64, tol float64) {
	t.Helper()
	checkDiff(t, what, got, want, tol, relDiff)
}

// logDiff is the difference of two logarithms of probabilities, the
// relative difference of the probabilities, relative to the logarithms
// where they exceed 1 in magnitude.
func logDiff(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / max(1, math.Abs(a), math.Abs(b))
}

func checkDiff(t *testing.T, what string, got, want []float64, tol float64, diff func(a, b float64) float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: %d values, want %d", what, len(got), len(want))
		return
	}
	worst, at := 0.0, -1
	for i := range got {
		if d := diff(got[i], want[i]); d > worst || math.IsNaN(d) {
			worst, at = d, i
		}
	}
	if testing.Verbose() && worst > 0 {
		t.Logf("%s: worst difference %.3g", what, worst)
	}
	if worst > tol || math.IsNaN(worst) {
		t.Errorf("%s: entry %d is %v, want %v (difference %.3g > %g)", what, at, got[at], want[at], worst, tol)
	}
}

func raw(a *mat.Dense) []float64 {
	r, c := a.Dims()
	out := make([]float64, 0, r*c)
	for i := 0; i < r; i++ {
		out = append(out, a.RawRowView(i)...)
	}
	return out
}

// compareModels checks every topic-side value of got against want.
func compareModels(t *testing.T, got, want *Model, tol float64) {
	t.Helper()
	if got.K != want.K || got.Terms != want.Terms || got.Iterations != want.Iterations || got.Convergence.Status != want.Convergence.Status || got.Seed != want.Seed {
		t.Fatalf("K %d terms %d iterations %d %v seed %d, want %d %d %d %v %d",
			got.K, got.Terms, got.Iterations, got.Convergence.Status, got.Seed, want.K, want.Terms, want.Iterations, want.Convergence.Status, want.Seed)
	}
	checkClose(t, "history", got.History, want.History, tol)
	checkClose(t, "restart TCs", got.RestartTCs, want.RestartTCs, tol)
	checkClose(t, "TCs", got.TCs, want.TCs, tol)
	checkClose(t, "TC", []float64{got.TC}, []float64{want.TC}, tol)
	checkClose(t, "p(y)", got.PY, want.PY, tol)
	checkClose(t, "α", raw(got.Alpha()), raw(want.Alpha()), tol)
	checkClose(t, "MI", raw(got.MI()), raw(want.MI()), tol)
	checkClose(t, "MI (nats)", raw(got.MINats()), raw(want.MINats()), tol)
	gs, ws := got.State(), want.State()
	checkClose(t, "sign", raw(gs.Sign), raw(ws.Sign), 0)
	checkClose(t, "info", raw(gs.Info), raw(ws.Info), tol)
	checkClose(t, "log p(y)", gs.LogPY, ws.LogPY, tol)
	checkClose(t, "c0", gs.C0, ws.C0, tol)
	checkClose(t, "c1", gs.C1, ws.C1, tol)
	checkClose(t, "background", gs.Background, ws.Background, tol)
	if fmt.Sprint(got.Warnings) != fmt.Sprint(want.Warnings) || fmt.Sprint(got.Anchors) != fmt.Sprint(want.Anchors) {
		t.Errorf("warnings %q anchors %v, want %q %v", got.Warnings, got.Anchors, want.Warnings, want.Anchors)
	}
	if got.Train != nil {
		t.Error("an out-of-core model holds training documents")
	}
}

// compareDocs checks the topics that the fit left in st against want's
// training documents, and Infer on each block against both.
func compareDocs(t *testing.T, src blocks.Source, st blocks.Store, got, want *Model, tol float64) {
	t.Helper()
	for i := 0; i < src.NumBlocks(); i++ {
		first, rows := src.Span(i)
		dt, err := LoadDocTopics(st, i, rows, got.K)
		if err != nil {
			t.Fatal(err)
		}
		rowsOf := func(a *mat.Dense) []float64 { return raw(a.Slice(first, first+rows, 0, got.K).(*mat.Dense)) }
		checkClose(t, fmt.Sprintf("block %d p(y|x)", i), raw(dt.P), rowsOf(want.Train.P), tol)
		checkClose(t, fmt.Sprintf("block %d log Z", i), raw(dt.LogZ), rowsOf(want.Train.LogZ), tol)
		// log p(y|x) goes to 0 (down to −1e-39 here) as p(y|x) → 1: its
		// error is the relative error of the unclipped p(y|x).
		checkDiff(t, fmt.Sprintf("block %d log p(y|x)", i), raw(dt.LogP), rowsOf(want.Train.LogP), tol, logDiff)
		b, err := src.Read(i)
		if err != nil {
			t.Fatal(err)
		}
		inf, err := got.Infer(context.Background(), b.X)
		if err != nil {
			t.Fatal(err)
		}
		checkClose(t, fmt.Sprintf("block %d Infer", i), raw(inf.P), raw(dt.P), 0)
	}
}

// blockCases are the configurations that out-of-core fits must follow.
func blockCases(nv int) []struct {
	name string
	cfg  Config
} {
	vocab := testVocab(nv)
	return []struct {
		name string
		cfg  Config
	}{
		{"plain", Config{K: 5, Seed: 1, MaxIter: 70}},
		{"anchored", Config{K: 5, Seed: 2, MaxIter: 70, Vocab: vocab, Beta: 3,
			Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 1, Term: 1}, {Topic: 1, Term: 2}, {Topic: 3, Term: 40, Strength: 5}}}}},
		{"anchored-excluded", Config{K: 5, Seed: 5, MaxIter: 40, Vocab: vocab, Beta: 3,
			Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 1, Term: 1}, {Topic: 1, Term: 2}},
				Exclude: []supervision.Exclusion{{Topic: 1, Term: 3}, {Topic: 2, Term: 1}, {Topic: 2, Term: 7}}}}},
		{"keep-order", Config{K: 4, Seed: 6, MaxIter: 30, KeepOrder: true}},
		{"fraction-restarts", Config{K: 4, Seed: 7, MaxIter: 50, Restarts: 3, Input: Fraction}},
		{"probabilities-one-topic", Config{K: 1, Seed: 3, MaxIter: 30, Input: Probabilities}},
		{"maxiter", Config{K: 6, Seed: 4, MaxIter: 12, Tol: -1, Restarts: 2}},
	}
}

// TestFitBlocksMatchesFit fits the same corpus in memory and out of core,
// in uneven blocks, equal blocks and one block, and compares everything.
func TestFitBlocksMatchesFit(t *testing.T) {
	const n, nv = 300, 81
	ctx := context.Background()
	counts := blockCorpus(n, nv, 1, true)
	notLast := 0
	for _, c := range blockCases(nv) {
		x := counts
		switch c.cfg.Input {
		case Binarize:
			x = counts.Binarized()
		case Probabilities:
			x = counts.Clone()
			for p := range x.Data {
				x.Data[p] /= 3
			}
		}
		want, err := Fit(ctx, x, c.cfg)
		if err != nil {
			t.Fatal(err)
		}
		if c.cfg.Restarts > 1 && want.Seed != c.cfg.Seed+uint64(c.cfg.Restarts)-1 {
			notLast++
		}
		even, err := blocks.FromCSR(x, nil, 43) // 7 blocks
		if err != nil {
			t.Fatal(err)
		}
		one, err := blocks.FromCSR(x, nil, n)
		if err != nil {
			t.Fatal(err)
		}
		srcs := []struct {
			name string
			src  blocks.Source
		}{{"uneven", newSpanSource(x, 13, 71, 2, 50, 99, 1, 64)}, {"7-blocks", even}, {"1-block", one}}
		if c.cfg.Input == Binarize {
			// Counts binarized by the fit: the passes read the blocks'
			// patterns without copying them (but the anchors' start).
			srcs = append(srcs, struct {
				name string
				src  blocks.Source
			}{"counts", newSpanSource(counts, 13, 71, 2, 50, 99, 1, 64)})
		}
		for _, s := range srcs {
			t.Run(c.name+"/"+s.name, func(t *testing.T) {
				st := blocks.NewMemStore()
				got, err := FitBlocks(ctx, s.src, st, c.cfg)
				if err != nil {
					t.Fatal(err)
				}
				compareModels(t, got, want, 1e-9)
				compareDocs(t, s.src, st, got, want, 1e-9)
			})
		}
	}
	if notLast == 0 {
		t.Error("in every case with restarts the last one is the best: no case keeps an earlier one")
	}
}

// TestStartDraws checks the start's stream begun at any draw against
// rng.New, which Fit draws from.
func TestStartDraws(t *testing.T) {
	for _, seed := range []uint64{0, 1, 12345, math.MaxUint64} {
		ref := rng.New(seed, 0, saltP)
		var want []float64
		for i := 0; i < 3000; i++ {
			want = append(want, ref.Float64())
		}
		for _, skip := range []int{0, 1, 2, 7, 255, 256, 1000, 2999} {
			next := startDraws(seed, uint64(skip))
			for i := skip; i < min(skip+5, len(want)); i++ {
				if v := next(); v != want[i] {
					t.Fatalf("seed %d, draw %d after skipping %d: %v, rng.New gives %v", seed, i, skip, v, want[i])
				}
			}
		}
	}
}

// mapAll runs Map on every block of src into one vector per block.
func mapAll(t *testing.T, tr *Trainer, src blocks.Source, st blocks.Store) [][]float64 {
	t.Helper()
	out := make([][]float64, src.NumBlocks())
	for i := range out {
		b, err := src.Read(i)
		if err != nil {
			t.Fatal(err)
		}
		out[i] = make([]float64, tr.StatsLen())
		if err := tr.Map(context.Background(), i, b, st, out[i]); err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// sumIn sums the vectors in the given order.
func sumIn(parts [][]float64, order []int) []float64 {
	s := make([]float64, len(parts[0]))
	for _, i := range order {
		for j, v := range parts[i] {
			s[j] += v
		}
	}
	return s
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

func roundTrip(t *testing.T, tr *Trainer) *Trainer {
	t.Helper()
	b, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var c Trainer // as a Beam worker does: a zero value, then UnmarshalBinary
	if err := c.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	return &c
}

// TestTrainerMarshalMidFit copies the trainer through MarshalBinary at
// every pass of a fit (scan, starts, iterations, output) and checks that
// the copy maps every block to the same statistics bit for bit, and that
// a fit continued from a copy made mid-way ends with the same model.
func TestTrainerMarshalMidFit(t *testing.T) {
	const n, nv = 200, 41
	x := blockCorpus(n, nv, 2, true)
	src := newSpanSource(x, 60, 7, 90, 43)
	cfg := Config{K: 4, Seed: 5, MaxIter: 15, Restarts: 2, Input: Fraction, Vocab: testVocab(nv), Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 2, Term: 3}}}}
	ctx := context.Background()
	tr, err := NewTrainer(n, nv, cfg)
	if err != nil {
		t.Fatal(err)
	}
	var resumed *Trainer
	phases := map[phase]bool{}
	for pass := 0; ; pass++ {
		phases[tr.phase] = true
		c := roundTrip(t, tr)
		if c.StatsLen() != tr.StatsLen() {
			t.Fatalf("pass %d: the copy's statistics have %d values, the original's %d", pass, c.StatsLen(), tr.StatsLen())
		}
		st, cst := blocks.NewMemStore(), blocks.NewMemStore()
		parts, cparts := mapAll(t, tr, src, st), mapAll(t, c, src, cst)
		for i := range parts {
			for j := range parts[i] {
				if math.Float64bits(parts[i][j]) != math.Float64bits(cparts[i][j]) {
					t.Fatalf("pass %d (phase %d), block %d: statistic %d is %v from the copy, %v from the original", pass, tr.phase, i, j, cparts[i][j], parts[i][j])
				}
			}
		}
		if pass == 9 {
			resumed = c
		}
		var info, c0, c1 []float64 // of the iteration this pass ends
		if tr.phase == phaseIter {
			info, c0, c1 = slices.Clone(tr.cur.info.RawMatrix().Data), slices.Clone(tr.cur.c0), slices.Clone(tr.cur.c1)
		}
		done, err := tr.Reduce(ctx, sumIn(parts, identity(len(parts))))
		if err != nil {
			t.Fatal(err)
		}
		// The snapshot of the iteration, without log-likelihood ratios,
		// gives them back to the bit.
		if s := tr.last; info != nil && s != nil {
			c := tr.complete(s)
			if !slices.Equal(c.info.RawMatrix().Data, info) || !slices.Equal(c.c0, c0) || !slices.Equal(c.c1, c1) {
				t.Fatalf("pass %d: the last iteration's log-likelihood ratios or constants recomputed differ from the iteration's", pass)
			}
		}
		if done {
			break
		}
	}
	for _, p := range []phase{phaseScan, phaseStart, phaseIter, phaseOutput} {
		if !phases[p] {
			t.Errorf("no pass of phase %d", p)
		}
	}
	want, err := tr.Model()
	if err != nil {
		t.Fatal(err)
	}
	if err := blocks.Run(ctx, src, blocks.NewMemStore(), resumed); err != nil {
		t.Fatal(err)
	}
	got, err := resumed.Model()
	if err != nil {
		t.Fatal(err)
	}
	compareModels(t, got, want, 0)
	// A finished trainer survives the trip too.
	fin, err := roundTrip(t, tr).Model()
	if err != nil {
		t.Fatal(err)
	}
	compareModels(t, fin, want, 0)
}

// TestTrainerMapCores checks that a block's statistics do not depend on
// the number of cores of the machine that maps it, with probabilities as
// input, whose column sums are not integers.
func TestTrainerMapCores(t *testing.T) {
	const n, nv = 3000, 81 // 44,000 entries in the big block: sparse's sums split it over cores
	x := blockCorpus(n, nv, 9, true)
	for p := range x.Data {
		x.Data[p] /= 3
	}
	src := newSpanSource(x, 2750, 250)
	tr, err := NewTrainer(n, nv, Config{K: 6, Seed: 2, MaxIter: 6, Tol: -1, Input: Probabilities})
	if err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for pass := 0; ; pass++ {
		runtime.GOMAXPROCS(1)
		one := mapAll(t, tr, src, blocks.NewMemStore())
		runtime.GOMAXPROCS(8)
		many := mapAll(t, tr, src, blocks.NewMemStore())
		for i := range one {
			for j := range one[i] {
				if math.Float64bits(one[i][j]) != math.Float64bits(many[i][j]) {
					t.Fatalf("pass %d, block %d: statistic %d is %v on one core, %v on eight", pass, i, j, one[i][j], many[i][j])
				}
			}
		}
		done, err := tr.Reduce(context.Background(), sumIn(one, identity(len(one))))
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
	}
}

// TestTrainerBlockOrder sums the blocks' statistics in a different order
// at every pass and checks that the fit does not move at all: the sums are
// exact (addExact). Integer counts keep the Fraction scan's sums exact too.
func TestTrainerBlockOrder(t *testing.T) {
	const n, nv = 300, 81
	x := blockCorpus(n, nv, 3, true)
	src := newSpanSource(x, 13, 71, 2, 50, 99, 1, 64)
	vocab := testVocab(nv)
	for _, cfg := range []Config{
		{K: 5, Seed: 9, MaxIter: 40},
		{K: 5, Seed: 9, MaxIter: 40, Vocab: vocab, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 0, Term: 5}, {Topic: 0, Term: 6}}}, Beta: 4},
		{K: 4, Seed: 3, MaxIter: 25, Restarts: 2, Input: Fraction},
	} {
		var models [2]*Model
		for v := range models {
			tr, err := NewTrainer(n, nv, cfg)
			if err != nil {
				t.Fatal(err)
			}
			perm := rng.New(uint64(v), 0, 0)
			for {
				parts := mapAll(t, tr, src, blocks.NewMemStore())
				order := identity(len(parts))
				if v == 1 {
					perm.Shuffle(order)
				}
				done, err := tr.Reduce(context.Background(), sumIn(parts, order))
				if err != nil {
					t.Fatal(err)
				}
				if done {
					break
				}
			}
			if models[v], err = tr.Model(); err != nil {
				t.Fatal(err)
			}
		}
		compareModels(t, models[1], models[0], 0)
	}
}

// TestFitBlocksCancel cancels fits from their progress report and checks
// that FitBlocks, like Fit, returns ctx's error with the model of the last
// complete iteration, and only the error before any.
func TestFitBlocksCancel(t *testing.T) {
	const n, nv = 300, 81
	x := blockCorpus(n, nv, 4, false)
	src, err := blocks.FromCSR(x, nil, 43)
	if err != nil {
		t.Fatal(err)
	}
	for _, at := range []struct{ run, iter int }{{0, 6}, {1, 3}} {
		fit := func(blocksToo bool) (*Model, error) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := Config{K: 5, Seed: 11, MaxIter: 30, Restarts: 2, Progress: func(s progress.Step) {
				if s.Run == at.run && s.Iter == at.iter {
					cancel()
				}
			}}
			if blocksToo {
				return FitBlocks(ctx, src, blocks.NewMemStore(), cfg)
			}
			return Fit(ctx, x, cfg)
		}
		want, werr := fit(false)
		got, gerr := fit(true)
		if !errors.Is(werr, context.Canceled) || !errors.Is(gerr, context.Canceled) {
			t.Fatalf("errors %v and %v, want context.Canceled", gerr, werr)
		}
		if got == nil || want == nil {
			t.Fatalf("no model with the cancellation (%v, %v)", got, want)
		}
		if got.Convergence.Status != progress.Cancelled {
			t.Errorf("cancelled fit: %+v", got.Convergence)
		}
		if got.Iterations != at.iter && at.run == 0 {
			t.Errorf("cancelled after iteration %d, the model has %d", at.iter, got.Iterations)
		}
		if len(got.RestartTCs) != at.run+1 {
			t.Errorf("%d restart TCs, want %d", len(got.RestartTCs), at.run+1)
		}
		compareModels(t, got, want, 1e-9)
		if _, err := got.Transform(context.Background(), x); err != nil {
			t.Errorf("the cancelled model does not transform: %v", err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m, err := FitBlocks(ctx, src, blocks.NewMemStore(), Config{K: 3})
	if m != nil || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before the first pass: %v, %v; want only the error", m, err)
	}
}

// checkpointStore is a MemStore that keeps a checkpoint, and counts the
// ones saved.
type checkpointStore struct {
	*blocks.MemStore
	cp    []byte
	saved int
}

func (s *checkpointStore) SaveCheckpoint(b []byte) error {
	s.cp = append([]byte(nil), b...)
	s.saved++
	return nil
}

func (s *checkpointStore) LoadCheckpoint() ([]byte, error) {
	if s.cp == nil {
		return nil, fmt.Errorf("no checkpoint: %w", fs.ErrNotExist)
	}
	return s.cp, nil
}

// TestFitBlocksResume interrupts a fit whose store keeps checkpoints and
// checks that FitBlocks on the same store resumes it to the model and
// topics of an uninterrupted fit, bit for bit, and that a checkpoint of
// another fit is refused.
func TestFitBlocksResume(t *testing.T) {
	const n, nv = 300, 81
	x := blockCorpus(n, nv, 8, false)
	src, err := blocks.FromCSR(x, nil, 70)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{K: 5, Seed: 13, MaxIter: 40, Restarts: 2}
	ref := blocks.NewMemStore()
	want, err := FitBlocks(context.Background(), src, ref, cfg)
	if err != nil {
		t.Fatal(err)
	}
	st := &checkpointStore{MemStore: blocks.NewMemStore()}
	ctx, cancel := context.WithCancel(context.Background())
	stop := cfg
	stop.Progress = func(s progress.Step) {
		if s.Run == 1 && s.Iter == 4 {
			cancel()
		}
	}
	if _, err := FitBlocks(ctx, src, st, stop); !errors.Is(err, context.Canceled) {
		t.Fatalf("interrupted fit: %v", err)
	}
	if st.saved == 0 {
		t.Fatal("no checkpoint saved")
	}
	var resumedAt progress.Step
	again := cfg
	again.Progress = func(s progress.Step) {
		if resumedAt.Iter == 0 {
			resumedAt = s
		}
	}
	got, err := FitBlocks(context.Background(), src, st, again)
	if err != nil {
		t.Fatal(err)
	}
	if resumedAt.Run != 1 || resumedAt.Iter != 5 {
		t.Errorf("the resumed fit reported restart %d iteration %d first, want restart 1 iteration 5", resumedAt.Run, resumedAt.Iter)
	}
	compareModels(t, got, want, 0)
	for i := 0; i < src.NumBlocks(); i++ {
		_, rows := src.Span(i)
		a, err := LoadDocTopics(st, i, rows, cfg.K)
		if err != nil {
			t.Fatal(err)
		}
		b, err := LoadDocTopics(ref, i, rows, cfg.K)
		if err != nil {
			t.Fatal(err)
		}
		checkClose(t, fmt.Sprintf("block %d p(y|x)", i), raw(a.P), raw(b.P), 0)
	}
	// The finished fit's checkpoint gives its model at once.
	if got, err = FitBlocks(context.Background(), src, st, cfg); err != nil {
		t.Fatal(err)
	}
	compareModels(t, got, want, 0)
	other := cfg
	other.Seed++
	if _, err := FitBlocks(context.Background(), src, st, other); err == nil || !strings.Contains(err.Error(), "is not this fit's") {
		t.Errorf("a checkpoint of another fit: %v", err)
	}
}

// TestTrainerRejects checks the configurations NewTrainer refuses.
func TestTrainerRejects(t *testing.T) {
	x := blockCorpus(50, 21, 5, false)
	for _, c := range []struct {
		docs, terms int
		cfg         Config
		want        string
	}{
		{50, 21, Config{K: 3, NumpyRandom: true}, "NumpyRandom is not supported out of core"},
		{50, 21, Config{K: 0}, ""},
		{50, 21, Config{K: 22}, ""},
		{50, 21, Config{K: 3, Seeds: supervision.Terms{Seeds: []supervision.Seed{{Topic: 3, Term: 0}}}}, ""},
		{50, 21, Config{K: 3, MaxIter: -1}, ""},
		{0, 21, Config{K: 3}, "0×21"},
	} {
		_, err := NewTrainer(c.docs, c.terms, c.cfg)
		if err == nil {
			t.Errorf("NewTrainer(%d, %d, %+v) accepted", c.docs, c.terms, c.cfg)
			continue
		}
		want := c.want
		if want == "" { // the same error as Fit's
			_, ferr := Fit(context.Background(), x, c.cfg)
			want = ferr.Error()
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("NewTrainer(%+v): %q, want %q", c.cfg, err, want)
		}
	}
}

// TestTrainerErrors checks the errors of Map and Reduce on wrong input.
func TestTrainerErrors(t *testing.T) {
	const n, nv = 60, 21
	x := blockCorpus(n, nv, 6, false)
	ctx := context.Background()
	tr, err := NewTrainer(n, nv, Config{K: 3, MaxIter: 5})
	if err != nil {
		t.Fatal(err)
	}
	src := newSpanSource(x, 20, 40)
	b, _ := src.Read(1)
	if err := tr.Map(ctx, 1, b, nil, make([]float64, 3)); err == nil || !strings.Contains(err.Error(), "statistics vector of 3 values") {
		t.Errorf("short statistics vector: %v", err)
	}
	wide := &blocks.Block{First: 0, X: blockCorpus(5, nv+1, 6, false)}
	if err := tr.Map(ctx, 0, wide, nil, make([]float64, tr.StatsLen())); err == nil || !strings.Contains(err.Error(), "22 columns") {
		t.Errorf("wrong width: %v", err)
	}
	past := &blocks.Block{First: 50, X: b.X}
	if err := tr.Map(ctx, 1, past, nil, make([]float64, tr.StatsLen())); err == nil || !strings.Contains(err.Error(), "outside") {
		t.Errorf("block past the end: %v", err)
	}
	neg := b.X.Clone()
	neg.Data[len(neg.Data)-1] = -1
	if err := tr.Map(ctx, 1, &blocks.Block{First: 20, X: neg}, nil, make([]float64, tr.StatsLen())); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("input (%d, ", n-1)) {
		t.Errorf("negative entry: %v, want it named by its row in the corpus (%d)", err, n-1)
	}
	acc := make([]float64, tr.StatsLen())
	if err := tr.Map(ctx, 1, b, nil, acc); err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Reduce(ctx, acc); err == nil || !strings.Contains(err.Error(), "covered 40 documents") {
		t.Errorf("a pass without block 0: %v", err)
	}
	var zero Trainer
	if err := zero.Map(ctx, 0, b, nil, nil); err == nil {
		t.Error("Map on a zero Trainer succeeded")
	}
	if err := zero.UnmarshalBinary([]byte("not a trainer")); err == nil {
		t.Error("UnmarshalBinary of garbage succeeded")
	}
	if _, err := FitBlocks(ctx, src, nil, Config{K: 3}); err == nil {
		t.Error("FitBlocks without a store succeeded")
	}
}

// blockBenchCorpus is 20,000 documents × 5,000 terms, about 55 words per
// document in 20 planted groups.
func blockBenchCorpus() *sparse.CSR {
	const n, nv = 20000, 5000
	r := rng.New(1, 0, 2)
	var ts []sparse.Triplet
	group := nv / 20
	for d := 0; d < n; d++ {
		g := r.Intn(20)
		seen := map[int]bool{}
		for k := 0; k < 55; k++ {
			w := r.Intn(nv)
			if k%2 == 0 {
				w = g*group + r.Intn(group)
			}
			if !seen[w] {
				seen[w] = true
				ts = append(ts, sparse.Triplet{Row: d, Col: w, Val: 1})
			}
		}
	}
	x, err := sparse.FromTriplets(n, nv, ts)
	if err != nil {
		panic(err)
	}
	return x
}

// BenchmarkFitBlocks times 20 iterations of 20 topics on 20,000 documents
// × 5,000 terms in memory (Fit) and out of core (FitBlocks with a
// MemStore) in 1 and 8 blocks.
func BenchmarkFitBlocks(b *testing.B) {
	x := blockBenchCorpus()
	cfg := Config{K: 20, Seed: 1, MaxIter: 20, Tol: -1}
	ctx := context.Background()
	b.Run("Fit", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Fit(ctx, x, cfg); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(cfg.MaxIter*b.N), "ms/iteration")
	})
	for _, nb := range []int{1, 8} {
		b.Run(fmt.Sprintf("FitBlocks-%d", nb), func(b *testing.B) {
			src, err := blocks.FromCSR(x, nil, (x.Rows+nb-1)/nb)
			if err != nil {
				b.Fatal(err)
			}
			for i := 0; i < b.N; i++ {
				if _, err := FitBlocks(ctx, src, blocks.NewMemStore(), cfg); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(cfg.MaxIter*b.N), "ms/iteration")
		})
	}
}

// TestTrainerCheckpointSize checks that a checkpoint taken in an
// iteration after the first holds the last complete iteration without its
// log-likelihood ratios and the next co-counts, not a second copy of the
// restart's state for the current iteration, and that a damaged encoding
// of that form is an error.
func TestTrainerCheckpointSize(t *testing.T) {
	const n, nv, k = 300, 1200, 8
	x := blockCorpus(n, nv, 3, true)
	src := newSpanSource(x, 100, 200)
	ctx := context.Background()
	tr, err := NewTrainer(n, nv, Config{K: k, Seed: 2, MaxIter: 10, Tol: -1})
	if err != nil {
		t.Fatal(err)
	}
	for tr.phase != phaseIter || tr.last == nil {
		parts := mapAll(t, tr, src, blocks.NewMemStore())
		if _, err := tr.Reduce(ctx, sumIn(parts, identity(len(parts)))); err != nil {
			t.Fatal(err)
		}
	}
	b, err := tr.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	// The last iteration's α and co-counts (nv × k each; its
	// log-likelihood ratios, nv × 2k, are recomputed) and τ (nv), the next
	// co-counts (nv × k) and the word counts (nv): not the current
	// iteration's α, co-counts and log-likelihood ratios besides.
	if max := 8*(3*nv*k+2*nv) + 4096; len(b) > max {
		t.Fatalf("checkpoint of %d bytes, want at most %d", len(b), max)
	}
	c := roundTrip(t, tr)
	if c.iter != tr.iter || !slices.Equal(c.cur.info.RawMatrix().Data, tr.cur.info.RawMatrix().Data) ||
		!slices.Equal(c.cur.alpha, tr.cur.alpha) || !slices.Equal(c.cur.tau, tr.cur.tau) || !slices.Equal(c.cur.flip, tr.cur.flip) {
		t.Error("the current iteration rebuilt from the checkpoint differs from the original")
	}
	for _, bad := range []struct {
		name   string
		change func(w *wireTrainer)
		want   string
	}{
		{"short co-counts", func(w *wireTrainer) { w.Next = w.Next[1:] }, "co-counts of the next iteration"},
		{"no flips", func(w *wireTrainer) { w.Last.Flip = nil }, "0 flips"},
		{"version 1", func(w *wireTrainer) { w.Version = 1 }, "version 1"},
		{"other iteration", func(w *wireTrainer) { w.Iter-- }, "the next iteration"},
	} {
		var w wireTrainer
		if err := blocks.UnmarshalState(b, &w, w.arrays); err != nil {
			t.Fatal(err)
		}
		bad.change(&w)
		enc, err := blocks.MarshalState(&w, w.arrays())
		if err != nil {
			t.Fatal(err)
		}
		var d Trainer
		if err := d.UnmarshalBinary(enc); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%s: %v, want an error containing %q", bad.name, err, bad.want)
		}
	}
}
