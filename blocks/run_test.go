package blocks_test

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// genTrainer keeps one value per document in the store in two
// generations, as NMF keeps W: pass p reads generation p%2 (the first
// pass starts from the rows' sums) and writes generation (p+1)%2. Its
// result, the sum after the last pass, depends on every value read, so a
// state that a resumed fit finds damaged changes it.
type genTrainer struct {
	pass, passes int
	total        float64
}

func gen(p int) string { return fmt.Sprintf("g%d", p%2) }

func (g *genTrainer) StatsLen() int {
	if g.pass == g.passes {
		return 0
	}
	return 1
}

func (g *genTrainer) Map(_ context.Context, i int, b *blocks.Block, st blocks.Store, acc []float64) error {
	v := make([]float64, b.X.Rows)
	if g.pass == 0 {
		for r := range v {
			_, vals := b.X.Row(r)
			for _, x := range vals {
				v[r] += x
			}
		}
	} else if err := st.Load(gen(g.pass), i, v); err != nil {
		return err
	}
	for r := range v {
		v[r] = v[r]*0.5 + float64(g.pass) + 1/float64(b.First+r+3)
		acc[0] += v[r]
	}
	return st.Save(gen(g.pass+1), i, v)
}

func (g *genTrainer) Reduce(_ context.Context, sum []float64) (bool, error) {
	g.total = sum[0]
	g.pass++
	return g.pass == g.passes, nil
}

func (g *genTrainer) MarshalBinary() ([]byte, error) {
	b := binary.LittleEndian.AppendUint64(nil, uint64(g.pass))
	return binary.LittleEndian.AppendUint64(b, math.Float64bits(g.total)), nil
}

func (g *genTrainer) UnmarshalBinary(b []byte) error {
	if len(b) != 16 {
		return errors.New("bad state")
	}
	g.pass = int(binary.LittleEndian.Uint64(b))
	g.total = math.Float64frombits(binary.LittleEndian.Uint64(b[8:]))
	return nil
}

// flakyStore is a shard.Store that logs its writes and fails the failSave-th
// Save or the failCheckpoint-th checkpoint (counting from 1; 0: never).
type flakyStore struct {
	*shard.Store
	failSave, failCheckpoint int

	mu                 sync.Mutex
	saves, checkpoints int
	log                []string
}

var errDiskFull = errors.New("disk full")

func (s *flakyStore) Save(name string, i int, v []float64) error {
	s.mu.Lock()
	s.saves++
	fail := s.saves == s.failSave
	s.log = append(s.log, fmt.Sprintf("%s/%d", name, i))
	s.mu.Unlock()
	if fail {
		return errDiskFull
	}
	return s.Store.Save(name, i, v)
}

func (s *flakyStore) SaveCheckpoint(state []byte) error {
	s.mu.Lock()
	s.checkpoints++
	fail := s.checkpoints == s.failCheckpoint
	s.log = append(s.log, "checkpoint")
	s.mu.Unlock()
	if fail {
		return errDiskFull
	}
	return s.Store.SaveCheckpoint(state)
}

// testSource is 7 documents in blocks of 3, 3 and 1.
func testSource(t *testing.T) blocks.Source {
	t.Helper()
	x := &sparse.CSR{Rows: 7, Cols: 3, Indptr: []int{0, 1, 1, 3, 4, 6, 7, 9},
		Indices: []int32{0, 1, 2, 0, 1, 2, 1, 0, 2}, Data: []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}}
	src, err := blocks.FromCSR(x, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

func newFlaky(t *testing.T, failSave, failCheckpoint int) *flakyStore {
	t.Helper()
	st, err := shard.NewStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &flakyStore{Store: st, failSave: failSave, failCheckpoint: failCheckpoint}
}

// TestRunWritesInOrder checks that Run's background writes reach the
// store in the order a synchronous run makes them: a pass's states, then
// its checkpoint, then the next pass's states.
func TestRunWritesInOrder(t *testing.T) {
	src := testSource(t)
	st := newFlaky(t, 0, 0)
	tr := &genTrainer{passes: 4}
	if err := blocks.Run(context.Background(), src, st, tr); err != nil {
		t.Fatal(err)
	}
	var want []string
	for p := 0; p < 4; p++ {
		for i := 0; i < 3; i++ {
			want = append(want, fmt.Sprintf("%s/%d", gen(p+1), i))
		}
		want = append(want, "checkpoint")
	}
	if !slices.Equal(st.log, want) {
		t.Fatalf("writes\n%v\nwant\n%v", st.log, want)
	}
	// Everything is on disk when Run returns: the last generation loads.
	v := make([]float64, 1)
	if err := st.Store.Load(gen(4), 2, v); err != nil || v[0] == 0 {
		t.Fatalf("last state of block 2: %v %v", v, err)
	}
	// The same fit, with a store in memory.
	mem := &genTrainer{passes: 4}
	if err := blocks.Run(context.Background(), src, blocks.NewMemStore(), mem); err != nil {
		t.Fatal(err)
	}
	if mem.total != tr.total || tr.pass != 4 {
		t.Fatalf("in memory %v, on disk %v after %d passes", mem.total, tr.total, tr.pass)
	}
}

// TestRunFailureKeepsCheckpoint fails a write in the middle of a fit — a
// block's state, or a checkpoint — and checks that Run reports it, that
// nothing is written after it, and that the checkpoint left on disk
// resumes to the uninterrupted fit's result, bit for bit.
func TestRunFailureKeepsCheckpoint(t *testing.T) {
	src := testSource(t)
	whole := &genTrainer{passes: 4}
	if err := blocks.Run(context.Background(), src, blocks.NewMemStore(), whole); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name                     string
		failSave, failCheckpoint int
		resumePass               int // the pass the checkpoint left resumes at
		wantErr                  string
	}{
		{"state of pass 2, block 1", 3 + 3 + 2, 0, 2, "block 1"},
		{"state of pass 1, block 0", 3 + 1, 0, 1, "block 0"},
		{"checkpoint after pass 2", 0, 2, 1, "disk full"},
		{"checkpoint after pass 1", 0, 1, 0, "disk full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			st := newFlaky(t, c.failSave, c.failCheckpoint)
			err := blocks.Run(context.Background(), src, st, &genTrainer{passes: 4})
			if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), c.wantErr) {
				t.Fatalf("Run returned %v, want the failure naming %q", err, c.wantErr)
			}
			// The failed write is the last one.
			last := st.log[len(st.log)-1]
			if c.failCheckpoint > 0 && (last != "checkpoint" || st.checkpoints != c.failCheckpoint) ||
				c.failSave > 0 && (st.saves != c.failSave || st.checkpoints != c.resumePass) {
				t.Fatalf("writes after the failure: %v", st.log)
			}
			st.failSave, st.failCheckpoint = 0, 0
			tr := &genTrainer{passes: 4}
			resumed, err := blocks.Resume(st, tr)
			if err != nil || resumed != (c.resumePass > 0) || tr.pass != c.resumePass {
				t.Fatalf("resumed %v at pass %d (%v), want pass %d", resumed, tr.pass, err, c.resumePass)
			}
			if err := blocks.Run(context.Background(), src, st, tr); err != nil {
				t.Fatal(err)
			}
			if math.Float64bits(tr.total) != math.Float64bits(whole.total) {
				t.Fatalf("resumed fit ends at %v, the uninterrupted one at %v", tr.total, whole.total)
			}
		})
	}
}

// slowCheckpoints is a MemStore whose first checkpoint closes entered and
// waits until gate is closed.
type slowCheckpoints struct {
	*blocks.MemStore
	entered, gate chan struct{}

	mu     sync.Mutex
	writes int
	last   []byte
}

func (s *slowCheckpoints) SaveCheckpoint(state []byte) error {
	s.mu.Lock()
	s.writes++
	first := s.writes == 1
	s.mu.Unlock()
	if first {
		close(s.entered)
		<-s.gate
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.last = slices.Clone(state)
	return nil
}

func (s *slowCheckpoints) LoadCheckpoint() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.last, nil
}

// passCounter is a trainer that saves no state, signals each pass's end,
// and begins its second pass once writing closed entered.
type passCounter struct {
	genTrainer
	ended   chan int
	entered chan struct{}
}

func (p *passCounter) Map(_ context.Context, i int, b *blocks.Block, _ blocks.Store, acc []float64) error {
	if p.pass == 1 && i == 0 {
		select {
		case <-p.entered:
		case <-time.After(time.Minute):
			return errors.New("the first checkpoint was not written")
		}
	}
	acc[0] += float64(b.X.Rows)
	return nil
}

func (p *passCounter) Reduce(ctx context.Context, sum []float64) (bool, error) {
	done, err := p.genTrainer.Reduce(ctx, sum)
	p.ended <- p.pass
	return done, err
}

// TestRunCheckpointDoesNotStall holds the first checkpoint's write, once
// begun, until every pass has ended: the passes go on meanwhile, the
// checkpoints that came while it was written are replaced by the newest,
// and the checkpoint Run leaves is the last pass's.
func TestRunCheckpointDoesNotStall(t *testing.T) {
	st := &slowCheckpoints{MemStore: blocks.NewMemStore(), entered: make(chan struct{}), gate: make(chan struct{})}
	tr := &passCounter{genTrainer: genTrainer{passes: 5}, ended: make(chan int, 5), entered: st.entered}
	src := testSource(t)
	errc := make(chan error, 1)
	go func() { errc <- blocks.Run(context.Background(), src, st, tr) }()
	for p := 1; p <= 5; p++ {
		select {
		case got := <-tr.ended:
			if got != p {
				t.Fatalf("pass %d ended as %d", p, got)
			}
		case <-time.After(time.Minute):
			t.Fatalf("pass %d waits for the first checkpoint", p)
		}
	}
	close(st.gate)
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if st.writes != 2 {
		t.Fatalf("%d checkpoints written, want the first and the last", st.writes)
	}
	g := &genTrainer{}
	if err := g.UnmarshalBinary(st.last); err != nil || g.pass != 5 || g.total != 7 {
		t.Fatalf("the checkpoint left is pass %d with %v (%v), want pass 5 with 7", g.pass, g.total, err)
	}
}
