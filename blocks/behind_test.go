package blocks

import (
	"testing"
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
	b := newBehind(st, nil)
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
