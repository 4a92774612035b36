package blocks

import (
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/semitopic/semitopic/sparse"
)

// gateStore is a MemStore whose Saves wait until gate is closed.
type gateStore struct {
	*MemStore
	gate chan struct{}
}

func (s *gateStore) Save(name string, i int, v []float64) error {
	<-s.gate
	return s.MemStore.Save(name, i, v)
}

// TestBehindLoadsPending checks that a state not yet written loads from
// its copy (the newest one), that the copy is the caller's vector at Save
// time, and that flush waits for the writes.
func TestBehindLoadsPending(t *testing.T) {
	st := &gateStore{MemStore: NewMemStore(), gate: make(chan struct{})}
	b := newBehind(st, nil, nil)
	v := []float64{1, 2}
	if err := b.Save("w", 0, v); err != nil {
		t.Fatal(err)
	}
	v[0] = 5 // the caller's vector is its own again
	if err := b.Save("w", 0, []float64{3, 4}); err != nil {
		t.Fatal(err)
	}
	dst := make([]float64, 2)
	if err := b.Load("w", 0, dst); err != nil || dst[0] != 3 || dst[1] != 4 {
		t.Fatalf("pending state loads as %v (%v), want [3 4]", dst, err)
	}
	if err := b.Load("w", 0, make([]float64, 3)); err == nil {
		t.Fatal("a pending state of 2 values loaded into 3")
	}
	if err := st.MemStore.Load("w", 0, dst); !IsNotExist(err) {
		t.Fatalf("written before the store let it: %v", err)
	}
	close(st.gate)
	if err := b.flush(); err != nil {
		t.Fatal(err)
	}
	if err := st.MemStore.Load("w", 0, dst); err != nil || dst[0] != 3 {
		t.Fatalf("after flush the store holds %v (%v), want [3 4]", dst, err)
	}
	if len(b.pending) != 0 {
		t.Fatalf("%d copies kept after they were written", len(b.pending))
	}
	if err := b.close(); err != nil {
		t.Fatal(err)
	}
}

// countStore is a MemStore that counts its Loads.
type countStore struct {
	*MemStore
	mu    sync.Mutex
	loads int
}

func (s *countStore) Load(name string, i int, dst []float64) error {
	s.mu.Lock()
	s.loads++
	s.mu.Unlock()
	return s.MemStore.Load(name, i, dst)
}

// TestBehindReadsAhead checks that loading block i's state reads block
// i+1's ahead (2 values per document, blocks of 3, 3 and 1 documents),
// which the next Load takes without reading again, and that a Save
// between the read ahead and the Load wins.
func TestBehindReadsAhead(t *testing.T) {
	x := &sparse.CSR{Rows: 7, Cols: 1, Indptr: make([]int, 8)}
	src, err := FromCSR(x, nil, 3)
	if err != nil {
		t.Fatal(err)
	}
	st := &countStore{MemStore: NewMemStore()}
	for i, n := range []int{6, 6, 2} {
		v := make([]float64, n)
		for q := range v {
			v[q] = float64(10*i + q)
		}
		st.MemStore.Save("w", i, v)
	}
	b := newBehind(st, nil, src)
	for i, n := range []int{6, 6, 2} {
		dst := make([]float64, n)
		if err := b.Load("w", i, dst); err != nil || dst[n-1] != float64(10*i+n-1) {
			t.Fatalf("block %d loads as %v (%v)", i, dst, err)
		}
	}
	if st.loads != 3 {
		t.Fatalf("%d loads from the store for 3 states", st.loads)
	}
	// A state saved after it was read ahead is loaded as saved.
	dst := make([]float64, 6)
	if err := b.Load("w", 0, dst); err != nil {
		t.Fatal(err)
	}
	b.reads.Wait() // block 1's old state is read ahead
	if err := b.Save("w", 1, []float64{7, 7, 7, 7, 7, 7}); err != nil {
		t.Fatal(err)
	}
	if err := b.flush(); err != nil {
		t.Fatal(err)
	}
	if err := b.Load("w", 1, dst); err != nil || dst[0] != 7 {
		t.Fatalf("block 1 loads as %v (%v) after a Save of 7s", dst, err)
	}
	// A missing state is the store's error, read ahead or not.
	if err := b.Load("v", 2, make([]float64, 2)); !IsNotExist(err) {
		t.Fatalf("missing state: %v", err)
	}
	if err := b.close(); err != nil {
		t.Fatal(err)
	}
}

// signalCheckpointer counts the checkpoints it is given, keeping none.
type signalCheckpointer struct {
	written chan int
}

func (c *signalCheckpointer) SaveCheckpoint(state []byte) error {
	c.written <- len(state)
	return nil
}

func (c *signalCheckpointer) LoadCheckpoint() ([]byte, error) { return nil, nil }

// TestBehindDropsWrittenCheckpoint checks that a checkpoint, once written,
// is not kept by the writer until the next one arrives: a trainer's
// checkpoint is large, and holding it while the next is marshalled would
// double what checkpoints take.
func TestBehindDropsWrittenCheckpoint(t *testing.T) {
	cp := &signalCheckpointer{written: make(chan int, 1)}
	b := newBehind(NewMemStore(), cp, nil)
	state := make([]byte, 1<<20)
	collected := make(chan struct{})
	runtime.AddCleanup(&state[0], func(ch chan struct{}) { close(ch) }, collected)
	if err := b.checkpoint(state); err != nil {
		t.Fatal(err)
	}
	state = nil
	if n := <-cp.written; n != 1<<20 {
		t.Fatalf("checkpoint of %d bytes written, want %d", n, 1<<20)
	}
	for try := 0; ; try++ {
		runtime.GC()
		select {
		case <-collected:
			if err := b.close(); err != nil {
				t.Fatal(err)
			}
			return
		case <-time.After(10 * time.Millisecond):
		}
		if try == 50 {
			t.Fatal("a written checkpoint is still reachable")
		}
	}
}
