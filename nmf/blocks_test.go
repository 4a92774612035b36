package nmf

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// blockedW reassembles W from the store of an out-of-core fit.
func blockedW(t *testing.T, src blocks.Source, st blocks.Store, res *Model, k int) *mat.Dense {
	t.Helper()
	n, _ := src.Dims()
	w := mat.NewDense(n, k, nil)
	for i := 0; i < src.NumBlocks(); i++ {
		first, rows := src.Span(i)
		buf := make([]float64, rows*k)
		if err := st.Load(res.WName, i, buf); err != nil {
			t.Fatal(err)
		}
		for r := 0; r < rows; r++ {
			copy(w.RawRowView(first+r), buf[r*k:(r+1)*k])
		}
	}
	return w
}

// compareFits checks an out-of-core fit against the in-memory one.
func compareFits(t *testing.T, name string, mem, ooc *Model, w *mat.Dense) {
	t.Helper()
	if mem.Iterations != ooc.Iterations || mem.Convergence.Status != ooc.Convergence.Status || len(mem.Objective) != len(ooc.Objective) {
		t.Fatalf("%s: %d iterations (%v, %d objectives) out of core, %d (%v, %d) in memory", name,
			ooc.Iterations, ooc.Convergence.Status, len(ooc.Objective), mem.Iterations, mem.Convergence.Status, len(mem.Objective))
	}
	for q := range mem.Objective {
		if d := relDiff(mem.Objective[q], ooc.Objective[q]); d > 1e-9 {
			t.Fatalf("%s: objective %d: %v out of core, %v in memory", name, q, ooc.Objective[q], mem.Objective[q])
		}
	}
	t.Logf("%s: %d iterations, H %.2g, W %.2g", name, ooc.Iterations, maxRelDiff(mem.H, ooc.H), maxRelDiff(mem.W, w))
	if d := maxRelDiff(mem.H, ooc.H); d > 1e-9 {
		t.Fatalf("%s: H differs by %g", name, d)
	}
	if d := maxRelDiff(mem.W, w); d > 1e-9 {
		t.Fatalf("%s: W differs by %g", name, d)
	}
}

// unevenBlocks cuts x into blocks of 1, 13, 40, 7, … rows.
type unevenBlocks struct {
	x      *sparse.CSR
	labels [][]string
	starts []int
}

func newUneven(x *sparse.CSR, labels [][]string) *unevenBlocks {
	u := &unevenBlocks{x: x, labels: labels}
	sizes := []int{1, 13, 40, 7, 29}
	for at, q := 0, 0; at < x.Rows; q++ {
		u.starts = append(u.starts, at)
		at += sizes[q%len(sizes)]
	}
	return u
}

func (u *unevenBlocks) Dims() (int, int) { return u.x.Rows, u.x.Cols }
func (u *unevenBlocks) NumBlocks() int   { return len(u.starts) }
func (u *unevenBlocks) Span(i int) (int, int) {
	end := u.x.Rows
	if i+1 < len(u.starts) {
		end = u.starts[i+1]
	}
	return u.starts[i], end - u.starts[i]
}
func (u *unevenBlocks) Read(i int) (*blocks.Block, error) {
	first, rows := u.Span(i)
	rowsIdx := make([]int, rows)
	for r := range rowsIdx {
		rowsIdx[r] = first + r
	}
	b := &blocks.Block{First: first, X: u.x.SelectRows(rowsIdx)}
	if u.labels != nil {
		b.Labels = u.labels[first : first+rows]
	}
	return b, nil
}

func TestFitBlocksEqualsFit(t *testing.T) {
	x := randomSparse(230, 60, 0.15, 5)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		for _, tol := range []float64{-1, 1e-3} {
			cfg := Config{K: 6, Loss: loss, Init: InitRandomAcol, Seed: 3, MaxIter: 40, Tol: tol}
			mem, err := Fit(context.Background(), x, cfg)
			if err != nil {
				t.Fatal(err)
			}
			one, _ := blocks.FromCSR(x, nil, x.Rows)
			for _, src := range []blocks.Source{one, newUneven(x, nil)} {
				st := blocks.NewMemStore()
				ooc, err := FitBlocks(context.Background(), src, st, cfg)
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%v in %d blocks", loss, src.NumBlocks())
				compareFits(t, name, mem, ooc, blockedW(t, src, st, ooc, cfg.K))
			}
			if tol > 0 && mem.Convergence.Status != progress.Converged {
				t.Fatalf("%v: the tolerance test did not stop the fit in %d iterations", loss, mem.Iterations)
			}
		}
	}
}

func TestTSNMFBlocksEqualsTSNMF(t *testing.T) {
	x := randomSparse(200, 50, 0.2, 8)
	names := []string{"a", "b", "c"}
	idx := make([][]int, x.Rows)
	strs := make([][]string, x.Rows)
	for i := range idx {
		switch i % 5 {
		case 0:
			idx[i], strs[i] = []int{i % 3}, []string{names[i%3]}
		case 1:
			idx[i], strs[i] = []int{0, 2}, []string{"a", "c", "a"} // a repeated label counts once
		}
	}
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		cfg := TSNMFConfig{Config: Config{K: 5, Loss: loss, Seed: 9, MaxIter: 25, Tol: -1}, LabelNames: names}
		memCfg := cfg
		memCfg.Labels = idx
		mem, err := TSNMF(context.Background(), x, memCfg)
		if err != nil {
			t.Fatal(err)
		}
		src := newUneven(x, strs)
		st := blocks.NewMemStore()
		ooc, err := TSNMFBlocks(context.Background(), src, st, cfg)
		if err != nil {
			t.Fatal(err)
		}
		compareFits(t, "TS-NMF "+loss.String(), &mem.Model, &ooc.Model, blockedW(t, src, st, &ooc.Model, cfg.K))
		if ooc.Labeled != mem.Labeled || strings.Join(ooc.Notes, "|") != strings.Join(mem.Notes, "|") {
			t.Fatalf("labeled %d, notes %q; in memory %d, %q", ooc.Labeled, ooc.Notes, mem.Labeled, mem.Notes)
		}
	}
	// A label outside the names is an error naming the document.
	bad := append([][]string(nil), strs...)
	bad[17] = []string{"zzz"}
	_, err := TSNMFBlocks(context.Background(), newUneven(x, bad), blocks.NewMemStore(), TSNMFConfig{Config: Config{K: 3}, LabelNames: names})
	if err == nil || !strings.Contains(err.Error(), `document 17 has the label "zzz"`) {
		t.Fatalf("unknown label: %v", err)
	}
}

func TestTrainerTravels(t *testing.T) {
	x := randomSparse(120, 40, 0.2, 2)
	src := newUneven(x, nil)
	// float32 gathers travel too: a worker that lost them would gather
	// float64 rows and sum other statistics.
	for _, c := range []struct {
		loss    Loss
		gathers Gathers
	}{{Frobenius, GathersAuto}, {KullbackLeibler, GathersAuto}, {Frobenius, GathersFloat32}} {
		loss := c.loss
		cfg := Config{K: 4, Loss: loss, Seed: 1, MaxIter: 10, Tol: -1, Gathers: c.gathers}
		tr, err := NewTrainer(120, 40, cfg)
		if err != nil {
			t.Fatal(err)
		}
		st := blocks.NewMemStore()
		// Run the first passes (scan, init, start) and two iterations.
		for pass := 0; pass < 5; pass++ {
			acc := make([]float64, tr.StatsLen())
			if err := blocks.Each(context.Background(), src, func(i int, b *blocks.Block) error {
				return tr.Map(context.Background(), i, b, st, acc)
			}); err != nil {
				t.Fatal(err)
			}
			if _, err := tr.Reduce(context.Background(), acc); err != nil {
				t.Fatal(err)
			}
		}
		b, err := tr.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var worker Trainer
		if err := worker.UnmarshalBinary(b); err != nil {
			t.Fatal(err)
		}
		blk, _ := src.Read(2)
		st2 := blocks.NewMemStore()
		w := make([]float64, blk.X.Rows*cfg.K)
		if err := st.Load(wName(tr.s.Gen), 2, w); err != nil {
			t.Fatal(err)
		}
		st2.Save(wName(tr.s.Gen), 2, w)
		a1, a2 := make([]float64, tr.StatsLen()), make([]float64, worker.StatsLen())
		if err := tr.Map(context.Background(), 2, blk, st, a1); err != nil {
			t.Fatal(err)
		}
		if err := worker.Map(context.Background(), 2, blk, st2, a2); err != nil {
			t.Fatal(err)
		}
		for q := range a1 {
			if a1[q] != a2[q] {
				t.Fatalf("%v, %v gathers: a restored trainer's statistic %d is %v, the original's %v", loss, c.gathers, q, a2[q], a1[q])
			}
		}
		// A trainer of another fit refuses the state.
		other, _ := NewTrainer(120, 40, Config{K: 5})
		if err := other.UnmarshalBinary(b); err == nil {
			t.Fatal("a trainer of K=5 accepted a K=4 state")
		}
	}
}

func TestFitBlocksCancel(t *testing.T) {
	x := randomSparse(150, 30, 0.2, 4)
	ctx, cancel := context.WithCancel(context.Background())
	cfg := Config{K: 3, Seed: 1, MaxIter: 50, Tol: -1, Progress: func(s progress.Step) {
		if s.Iter == 3 {
			cancel()
		}
	}}
	src, _ := blocks.FromCSR(x, nil, 40)
	res, err := FitBlocks(ctx, src, blocks.NewMemStore(), cfg)
	if !errors.Is(err, context.Canceled) || res == nil || res.Iterations != 3 || res.H == nil {
		t.Fatalf("cancelled fit: %v, %+v", err, res)
	}
}

func TestFitBlocksRefuses(t *testing.T) {
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{K: 2, Init: InitNNDSVDa}, "init nndsvda"},
		{Config{K: 2, Init: InitRandom}, "init random"},
		{Config{K: 2, RowWeights: []float64{1}}, "RowWeights"},
		{Config{K: 2, Order: HFirst}, "Order"},
		{Config{K: 0}, "K = 0"},
	} {
		if _, err := NewTrainer(10, 5, c.cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error about %s", c.cfg, err, c.want)
		}
	}
	x := randomSparse(10, 5, 0.5, 1)
	x.Data[0] = -1
	src, _ := blocks.FromCSR(x, nil, 4)
	if _, err := FitBlocks(context.Background(), src, blocks.NewMemStore(), Config{K: 2}); err == nil || !strings.Contains(err.Error(), "row 0") {
		t.Fatalf("negative entry: %v", err)
	}
}

func TestFitBlocksResumes(t *testing.T) {
	x := randomSparse(160, 45, 0.2, 6)
	src := newUneven(x, nil)
	for _, loss := range []Loss{Frobenius, KullbackLeibler} {
		cfg := Config{K: 4, Loss: loss, Seed: 2, MaxIter: 12, Tol: -1}
		mem := blocks.NewMemStore()
		want, err := FitBlocks(context.Background(), src, mem, cfg)
		if err != nil {
			t.Fatal(err)
		}
		want.W = blockedW(t, src, mem, want, cfg.K)
		st, err := shard.NewStore(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		interrupted := cfg
		interrupted.Progress = func(s progress.Step) {
			if s.Iter == 5 {
				cancel()
			}
		}
		if _, err := FitBlocks(ctx, src, st, interrupted); !errors.Is(err, context.Canceled) {
			t.Fatalf("interrupted fit: %v", err)
		}
		got, err := FitBlocks(context.Background(), src, st, cfg)
		if err != nil {
			t.Fatal(err)
		}
		compareFits(t, "resumed "+loss.String(), want, got, blockedW(t, src, st, got, cfg.K))
		// Another fit's checkpoint is refused.
		other := cfg
		other.Seed = 3
		if _, err := FitBlocks(context.Background(), src, st, other); err == nil || !strings.Contains(err.Error(), "is not this fit's") {
			t.Fatalf("another fit's checkpoint: %v", err)
		}
	}
}

// fullDisk is a shard.Store whose saves fail with ENOSPC after a number of
// them, as a disk that fills up.
type fullDisk struct {
	*shard.Store
	left int
}

func (f *fullDisk) Save(name string, i int, v []float64) error {
	if f.left == 0 {
		return fmt.Errorf("writing %s-%05d.f64: %w", name, i, syscall.ENOSPC)
	}
	f.left--
	return f.Store.Save(name, i, v)
}

func TestFitBlocksDiskFull(t *testing.T) {
	x := randomSparse(160, 45, 0.2, 7)
	src := newUneven(x, nil)
	cfg := Config{K: 4, Seed: 2, MaxIter: 8, Tol: -1}
	mem := blocks.NewMemStore()
	want, err := FitBlocks(context.Background(), src, mem, cfg)
	if err != nil {
		t.Fatal(err)
	}
	want.W = blockedW(t, src, mem, want, cfg.K)
	st, err := shard.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// The disk fills in the middle of the fourth pass.
	_, err = FitBlocks(context.Background(), src, &fullDisk{Store: st, left: 3*src.NumBlocks() + 2}, cfg)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("a full disk: %v", err)
	}
	// Once there is room again, the fit resumes from its last pass.
	got, err := FitBlocks(context.Background(), src, st, cfg)
	if err != nil {
		t.Fatal(err)
	}
	compareFits(t, "after a full disk", want, got, blockedW(t, src, st, got, cfg.K))
}

// TestFitBlocksFloat32 checks that out of core, float32 gathers (the W
// update's rows of Hᵀ) move the fit by rounding only, whatever the blocks,
// and that they are used: the objectives are not float64's to the bit.
func TestFitBlocksFloat32(t *testing.T) {
	x := randomSparse(230, 60, 0.15, 5)
	cfg := Config{K: 6, Init: InitRandomAcol, Seed: 3, MaxIter: 30, Tol: -1, Gathers: GathersFloat64}
	one, _ := blocks.FromCSR(x, nil, x.Rows)
	f64, err := FitBlocks(context.Background(), one, blocks.NewMemStore(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Gathers = GathersFloat32
	var first []float64
	for _, src := range []blocks.Source{one, newUneven(x, nil)} {
		f32, err := FitBlocks(context.Background(), src, blocks.NewMemStore(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		last, want := f32.Objective[len(f32.Objective)-1], f64.Objective[len(f64.Objective)-1]
		if last == want || relDiff(last, want) > 1e-6 {
			t.Errorf("%d blocks: float32 gathers end at %v, float64 at %v: want them apart by rounding only", src.NumBlocks(), last, want)
		}
		if first == nil {
			first = f32.Objective
		} else if relDiff(first[len(first)-1], last) > 1e-9 {
			t.Errorf("float32 gathers: %v in one block, %v in %d", first[len(first)-1], last, src.NumBlocks())
		}
	}
}
