package blocks

import (
	"bytes"
	"context"
	"encoding/gob"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/semitopic/semitopic/internal/native"
	"github.com/semitopic/semitopic/sparse"
)

func TestFloatsGob(t *testing.T) {
	type state struct {
		A, B Floats
		N    int
	}
	in := state{A: Floats{1.5, math.Inf(-1), math.Copysign(0, -1), math.NaN(), 1e-310}, N: 3}
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&in); err != nil {
		t.Fatal(err)
	}
	var out state
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if out.N != 3 || out.B != nil || len(out.A) != len(in.A) {
		t.Fatalf("decoded %+v", out)
	}
	for i := range in.A {
		if math.Float64bits(in.A[i]) != math.Float64bits(out.A[i]) {
			t.Fatalf("value %d: %v decodes as %v", i, in.A[i], out.A[i])
		}
	}
	var f Floats
	if err := f.GobDecode(make([]byte, 7)); err == nil {
		t.Fatal("7 bytes decoded as float64 values")
	}
}

// sumTrainer sums the entries of every block for two passes, counting the
// blocks it sees: a trainer small enough to check Run's driving.
type sumTrainer struct {
	pass int
	sums []float64
}

func (s *sumTrainer) StatsLen() int {
	if s.pass == 2 {
		return 0
	}
	return 2
}

func (s *sumTrainer) Map(_ context.Context, i int, b *Block, _ Store, acc []float64) error {
	for _, v := range b.X.Data {
		acc[0] += v
	}
	acc[1]++
	return nil
}

func (s *sumTrainer) Reduce(_ context.Context, sum []float64) (bool, error) {
	s.sums = append(s.sums, sum[0], sum[1])
	s.pass++
	return s.pass == 2, nil
}

func (s *sumTrainer) MarshalBinary() ([]byte, error) { return []byte{byte(s.pass)}, nil }
func (s *sumTrainer) UnmarshalBinary(b []byte) error {
	if len(b) != 1 {
		return errors.New("bad state")
	}
	s.pass = int(b[0])
	return nil
}

func TestRunAndFromCSR(t *testing.T) {
	x := &sparse.CSR{Rows: 5, Cols: 3, Indptr: []int{0, 1, 1, 3, 4, 6}, Indices: []int32{0, 1, 2, 0, 1, 2}, Data: []float64{1, 2, 3, 4, 5, 6}}
	src, err := FromCSR(x, [][]string{{"a"}, nil, nil, {"b"}, nil}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if src.NumBlocks() != 3 {
		t.Fatalf("%d blocks", src.NumBlocks())
	}
	b, _ := src.Read(1)
	if b.First != 2 || b.X.Rows != 2 || b.Labels[1][0] != "b" || b.X.Data[0] != 2 {
		t.Fatalf("block 1: %+v", b)
	}
	tr := &sumTrainer{}
	if err := Run(context.Background(), src, NewMemStore(), tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.sums) != 4 || tr.sums[0] != 21 || tr.sums[1] != 3 || tr.sums[2] != 21 {
		t.Fatalf("sums %v", tr.sums)
	}
	// A finished trainer runs no pass.
	if err := Run(context.Background(), src, NewMemStore(), tr); err != nil || len(tr.sums) != 4 {
		t.Fatalf("a finished trainer ran again: %v %v", err, tr.sums)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Run(ctx, src, NewMemStore(), &sumTrainer{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if _, err := FromCSR(x, nil, 0); err == nil {
		t.Fatal("0 rows per block accepted")
	}
	bad := &sparse.CSR{Rows: 1, Cols: 2, Indptr: []int{0, 2}, Indices: []int32{1, 0}, Data: []float64{1, 2}}
	if _, err := FromCSR(bad, nil, 1); err == nil || !strings.Contains(err.Error(), "not strictly increasing") {
		t.Fatalf("an invalid matrix: %v", err)
	}
	st := NewMemStore()
	if err := st.Load("w", 0, make([]float64, 1)); !IsNotExist(err) {
		t.Fatalf("missing state: %v", err)
	}
}

func TestMarshalState(t *testing.T) {
	type part struct{ A, B Floats }
	type state struct {
		Name   string
		X      Floats
		P, Nil *part
	}
	arrays := func(s *state) []*Floats {
		out := []*Floats{&s.X}
		for _, p := range []*part{s.P, s.Nil} {
			if p != nil {
				out = append(out, &p.A, &p.B)
			}
		}
		return out
	}
	in := state{Name: "n", X: Floats{1, 2, 3}, P: &part{A: Floats{4}, B: nil}}
	b, err := MarshalState(&in, arrays(&in))
	if err != nil {
		t.Fatal(err)
	}
	// The arrays copied whole where the machine's layout is the
	// encoding's, and value by value elsewhere: the same bytes, and each
	// decodes the other's.
	defer func(v bool) { rawFloats = v }(rawFloats)
	rawFloats = !rawFloats
	other, err := MarshalState(&in, arrays(&in))
	if err != nil {
		t.Fatal(err)
	}
	if native.LittleEndian64 && !bytes.Equal(b, other) {
		t.Fatalf("the encodings differ:\n% x\n% x", b, other)
	}
	var back state
	if err := UnmarshalState(b, &back, func() []*Floats { return arrays(&back) }); err != nil || len(back.X) != 3 || back.X[1] != 2 || back.P.A[0] != 4 {
		t.Fatalf("the other path decoded %+v, %v", back, err)
	}
	rawFloats = !rawFloats
	if in.X == nil || in.P.A[0] != 4 {
		t.Fatal("MarshalState did not put the arrays back")
	}
	var out state
	if err := UnmarshalState(b, &out, func() []*Floats { return arrays(&out) }); err != nil {
		t.Fatal(err)
	}
	if out.Name != "n" || len(out.X) != 3 || out.X[2] != 3 || out.P == nil || out.P.A[0] != 4 || out.P.B != nil || out.Nil != nil {
		t.Fatalf("decoded %+v %+v", out, out.P)
	}
	var short state
	if err := UnmarshalState(b[:len(b)-3], &short, func() []*Floats { return arrays(&short) }); err == nil {
		t.Fatal("a truncated state decoded")
	}
}

// recycling is a Source that records the blocks read and handed back.
type recycling struct {
	Source
	mu    sync.Mutex
	reads []int // First of each block read
	back  []int // First of each block handed back
}

func (r *recycling) Read(i int) (*Block, error) {
	b, err := r.Source.Read(i)
	if err == nil {
		r.mu.Lock()
		r.reads = append(r.reads, b.First)
		r.mu.Unlock()
	}
	return b, err
}

func (r *recycling) Recycle(b *Block) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.back = append(r.back, b.First)
}

// fiveRows returns a recycling Source of 5 documents in blocks of 2
// (their values 1 to 5, 15 in all).
func fiveRows(t *testing.T) *recycling {
	t.Helper()
	x, err := sparse.NewCSR(5, 2, []int{0, 1, 2, 3, 4, 5}, []int32{0, 1, 0, 1, 0}, []float64{1, 2, 3, 4, 5})
	if err != nil {
		t.Fatal(err)
	}
	mem, err := FromCSR(x, nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	return &recycling{Source: mem}
}

func TestEachRecycles(t *testing.T) {
	// Every block goes back once fn is done with it, in order.
	src := fiveRows(t)
	var live []int
	err := Each(context.Background(), src, func(i int, b *Block) error {
		src.mu.Lock()
		defer src.mu.Unlock()
		if slices.Contains(src.back, b.First) {
			t.Errorf("block %d handed back before fn ran", i)
		}
		live = append(live, b.First)
		return nil
	})
	if err != nil || !slices.Equal(src.back, []int{0, 2, 4}) || !slices.Equal(live, src.back) {
		t.Fatalf("handed back %v, used %v, err %v", src.back, live, err)
	}
	// When fn fails, its block and the one read ahead go back too.
	src = fiveRows(t)
	boom := errors.New("boom")
	err = Each(context.Background(), src, func(i int, b *Block) error { return boom })
	if !errors.Is(err, boom) || !slices.Equal(src.back, []int{0, 2}) {
		t.Fatalf("after a failure handed back %v, err %v", src.back, err)
	}
}

func TestRunReadsAheadAcrossPasses(t *testing.T) {
	src := fiveRows(t)
	tr := &sumTrainer{}
	if err := Run(context.Background(), src, NewMemStore(), tr); err != nil {
		t.Fatal(err)
	}
	if tr.sums[0] != 15 || tr.sums[2] != 15 {
		t.Fatalf("sums %v", tr.sums)
	}
	// Two passes of three blocks, and the first block of a third pass read
	// while the second pass's last block was worked on; every block read
	// is handed back once Run returns.
	want := []int{0, 2, 4, 0, 2, 4, 0}
	if !slices.Equal(src.reads, want) {
		t.Fatalf("read %v, want %v", src.reads, want)
	}
	if slices.Sort(src.back); !slices.Equal(src.back, []int{0, 0, 0, 2, 2, 4, 4}) {
		t.Fatalf("handed back %v", src.back)
	}
}
