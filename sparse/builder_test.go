package sparse

import (
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// build adds ts to a new Builder in the given order and builds the matrix.
func build(t *testing.T, rows, cols int, ts []Triplet) *CSR {
	t.Helper()
	b, err := NewBuilder(rows, cols, len(ts)/2)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ts {
		if err := b.Add(e.Row, e.Col, e.Val); err != nil {
			t.Fatal(err)
		}
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBuilderMatchesFromTriplets(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, shape := range [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {13, 7}, {40, 300}} {
		for _, density := range []float64{0, 0.05, 0.5} {
			want := randomCSR(rng, shape[0], shape[1], density)
			var ts []Triplet
			for i := 0; i < want.Rows; i++ {
				cols, vals := want.Row(i)
				for p, j := range cols {
					ts = append(ts, Triplet{i, int(j), vals[p]})
				}
			}
			// Each order is applied to the previous one.
			orders := []struct {
				name    string
				reorder func()
			}{
				{"sorted", func() {}},
				{"rows in order, columns shuffled", func() {
					for i := 0; i < want.Rows; i++ {
						row := ts[want.Indptr[i]:want.Indptr[i+1]]
						rng.Shuffle(len(row), func(a, b int) { row[a], row[b] = row[b], row[a] })
					}
				}},
				{"shuffled", func() { rng.Shuffle(len(ts), func(a, b int) { ts[a], ts[b] = ts[b], ts[a] }) }},
				{"reversed", func() {
					for a, b := 0, len(ts)-1; a < b; a, b = a+1, b-1 {
						ts[a], ts[b] = ts[b], ts[a]
					}
				}},
			}
			for _, o := range orders {
				o.reorder()
				if got := build(t, want.Rows, want.Cols, ts); !csrEqual(got, want) {
					t.Errorf("%v, density %v, %s: matrix differs from FromTriplets", shape, density, o.name)
				}
			}
		}
	}
}

func TestBuilderKeepsZerosAndEmptyRows(t *testing.T) {
	m := build(t, 5, 4, []Triplet{{1, 3, 0}, {1, 0, 2}, {3, 2, -1}})
	want := &CSR{Rows: 5, Cols: 4, Indptr: []int{0, 0, 2, 2, 3, 3}, Indices: []int32{0, 3, 2}, Data: []float64{2, 0, -1}}
	if !csrEqual(m, want) {
		t.Errorf("got %+v, want %+v", m, want)
	}
}

func TestBuilderDuplicates(t *testing.T) {
	// In row order, Add reports the repeat at once and stores nothing.
	b, _ := NewBuilder(3, 4, 0)
	for _, e := range []Triplet{{0, 1, 1}, {1, 3, 1}, {1, 0, 1}} {
		if err := b.Add(e.Row, e.Col, e.Val); err != nil {
			t.Fatal(err)
		}
	}
	err := b.Add(1, 3, 5)
	var dup *DuplicateError
	if !errors.As(err, &dup) || *dup != (DuplicateError{1, 3}) {
		t.Fatalf("repeat in order: error %v, want a DuplicateError at (1,3)", err)
	}
	if err := b.Add(2, 1, 1); err != nil { // column 1 again, but a new row
		t.Fatal(err)
	}
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 4 || m.At(1, 3) != 1 {
		t.Errorf("the rejected entry was stored: %+v", m)
	}

	// Once rows went backwards, Build reports the first row with a repeat
	// and its smallest repeated column.
	b, _ = NewBuilder(3, 4, 0)
	for _, e := range []Triplet{{2, 3, 1}, {2, 1, 1}, {0, 2, 1}, {2, 3, 1}, {1, 1, 1}, {2, 1, 1}, {0, 0, 1}} {
		if err := b.Add(e.Row, e.Col, e.Val); err != nil {
			t.Fatal(err)
		}
	}
	_, err = b.Build()
	if !errors.As(err, &dup) || *dup != (DuplicateError{2, 1}) {
		t.Fatalf("repeat out of order: error %v, want a DuplicateError at (2,1)", err)
	}
}

func TestBuilderErrors(t *testing.T) {
	for _, c := range []struct {
		rows, cols int
		msg        string
	}{
		{-1, 2, "negative shape"},
		{2, -1, "negative shape"},
		{2, overInt32(), "exceed int32"},
		{overInt32(), 2, "rows exceed"},
	} {
		if c.cols == overInt32() && strconv.IntSize < 64 {
			continue // no int holds the limit
		}
		if _, err := NewBuilder(c.rows, c.cols, 0); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("NewBuilder(%d, %d): error %v, want one containing %q", c.rows, c.cols, err, c.msg)
		}
	}
	b, _ := NewBuilder(2, 3, 0)
	for _, c := range []struct {
		e   Triplet
		msg string
	}{
		{Triplet{-1, 0, 1}, "row -1 out of range [0,2)"},
		{Triplet{2, 0, 1}, "row 2 out of range [0,2)"},
		{Triplet{0, 3, 1}, "column 3 out of range [0,3)"},
		{Triplet{0, -1, 1}, "column -1 out of range [0,3)"},
		{Triplet{1, 1, math.NaN()}, "value NaN at (1,1) is not finite"},
		{Triplet{1, 1, math.Inf(-1)}, "value -Inf at (1,1) is not finite"},
	} {
		if err := b.Add(c.e.Row, c.e.Col, c.e.Val); err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Add%v: error %v, want one containing %q", c.e, err, c.msg)
		}
	}
	m, err := b.Build()
	if err != nil || m.NNZ() != 0 {
		t.Fatalf("after rejected entries: %+v, %v", m, err)
	}
	if err := b.Add(0, 0, 1); err == nil {
		t.Error("Add after Build: no error")
	}
	if _, err := b.Build(); err == nil {
		t.Error("Build twice: no error")
	}
}

// TestBuilderRepeatsInOrder checks, on random rows in order with repeats,
// that Add rejects exactly the repeats and Build keeps the rest.
func TestBuilderRepeatsInOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		rows, cols := 1+rng.IntN(6), 1+rng.IntN(8)
		b, _ := NewBuilder(rows, cols, 0)
		seen := map[[2]int]bool{}
		var kept []Triplet
		for i := 0; i < rows; i++ {
			increasing := rng.IntN(2) == 0
			for k, n := 0, rng.IntN(2*cols); k < n; k++ {
				j := rng.IntN(cols)
				if increasing && k > 0 {
					j = min(kept[len(kept)-1].Col+rng.IntN(2), cols-1) // the same column now and then
				}
				err := b.Add(i, j, float64(k+1))
				var dup *DuplicateError
				switch {
				case seen[[2]int{i, j}]:
					if !errors.As(err, &dup) || *dup != (DuplicateError{i, j}) {
						t.Fatalf("trial %d: repeat of (%d,%d): error %v", trial, i, j, err)
					}
				case err != nil:
					t.Fatalf("trial %d: (%d,%d): %v", trial, i, j, err)
				default:
					seen[[2]int{i, j}] = true
					kept = append(kept, Triplet{i, j, float64(k + 1)})
				}
			}
		}
		got, err := b.Build()
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		want, _ := FromTriplets(rows, cols, kept)
		if !csrEqual(got, want) {
			t.Fatalf("trial %d: got %+v, want %+v", trial, got, want)
		}
	}
}
