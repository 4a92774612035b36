package sparse

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	ok := func() *CSR {
		return &CSR{Rows: 2, Cols: 3, Indptr: []int{0, 2, 3}, Indices: []int32{0, 2, 1}, Data: []float64{1, 2, 3}}
	}
	if err := ok().Validate(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		edit func(m *CSR)
		msg  string
	}{
		{func(m *CSR) { m.Rows = -1 }, "negative shape"},
		{func(m *CSR) { m.Cols = overInt32() }, "exceed int32"},
		{func(m *CSR) { m.Indptr = m.Indptr[:2] }, "len(Indptr)"},
		{func(m *CSR) { m.Data = m.Data[:2] }, "3 column indices but 2 values"},
		{func(m *CSR) { m.Indptr[2] = 2 }, "Indptr runs from"},
		{func(m *CSR) { m.Indptr[1] = 4 }, "Indptr decreases at row 1"},
		{func(m *CSR) { m.Indptr[1] = 9 }, "Indptr decreases at row 1"}, // no out-of-range access
		{func(m *CSR) { m.Indices[1] = 3 }, "column 3 out of range"},
		{func(m *CSR) { m.Indices[1] = 0 }, "not strictly increasing"},
		{func(m *CSR) { m.Data[2] = math.Inf(1) }, "row 1, column 1: value +Inf is not finite"},
		{func(m *CSR) { m.Data[1] = math.NaN() }, "row 0, column 2: value NaN is not finite"},
		{func(m *CSR) { m.Data[0] = math.Inf(-1) }, "row 0, column 0: value -Inf is not finite"},
	}
	for _, c := range cases {
		if c.msg == "exceed int32" && strconv.IntSize < 64 {
			continue // no int exceeds int32 there
		}
		m := ok()
		c.edit(m)
		err := m.Validate()
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("got %v, want %q", err, c.msg)
		}
		if _, err := NewCSR(m.Rows, m.Cols, m.Indptr, m.Indices, m.Data); err == nil {
			t.Errorf("NewCSR accepted a matrix with %q", c.msg)
		}
	}
	m, err := NewCSR(2, 3, []int{0, 2, 3}, []int32{0, 2, 1}, []float64{1, 2, 3})
	if err != nil {
		t.Fatal(err)
	}
	if r, c := m.Dims(); r != 2 || c != 3 || m.At(0, 2) != 2 || m.At(1, 0) != 0 {
		t.Errorf("Dims/At wrong: %d×%d", r, c)
	}
}

func TestSelectRowsAndClone(t *testing.T) {
	m, _ := FromTriplets(3, 2, []Triplet{{0, 0, 1}, {1, 1, 2}, {2, 0, 3}, {2, 1, 4}})
	s := m.SelectRows([]int{2, 0, 2})
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []float64{3, 4, 1, 0, 3, 4}
	checkMatrix(t, "SelectRows", s, 3, 2, want)
	empty := m.SelectRows(nil)
	if empty.Rows != 0 || empty.Cols != 2 || empty.Validate() != nil {
		t.Errorf("SelectRows(nil) = %+v", empty)
	}
	c := m.Clone()
	c.Data[0] = 99
	c.Indices[0] = 1
	if m.Data[0] != 1 || m.Indices[0] != 0 {
		t.Error("Clone shares storage")
	}
	if z := Zeros(2, 5); z.Validate() != nil || z.NNZ() != 0 {
		t.Error("Zeros invalid")
	}
}

// overInt32 is MaxInt32 + 1 as an int where an int holds it (64-bit
// platforms); elsewhere the tests of the int32 limit are skipped.
func overInt32() int {
	if strconv.IntSize < 64 {
		return math.MaxInt32
	}
	var v int64 = math.MaxInt32 + 1
	return int(v)
}

func TestVStack(t *testing.T) {
	a, _ := FromTriplets(2, 4, []Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 0, Col: 3, Val: 2}, {Row: 1, Col: 2, Val: 3}})
	b, _ := FromTriplets(1, 4, []Triplet{{Row: 0, Col: 1, Val: 4}})
	s, err := VStack(a, Zeros(1, 4), b)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if s.Rows != 4 || s.NNZ() != 4 || s.At(0, 3) != 2 || s.At(1, 2) != 3 || s.At(3, 1) != 4 || s.At(2, 1) != 0 {
		t.Errorf("VStack: %v", s.ToDense())
	}
	s.Data[0] = 9
	if a.Data[0] != 1 {
		t.Error("VStack shares storage with its input")
	}
	if _, err := VStack(a, Zeros(1, 3)); err == nil {
		t.Error("VStack of 4 and 3 columns: no error")
	}
	if _, err := VStack(); err == nil {
		t.Error("VStack of nothing: no error")
	}
}

func TestMaxRowNNZ(t *testing.T) {
	m, err := NewCSR(3, 4, []int{0, 1, 4, 4}, []int32{2, 0, 1, 3}, []float64{1, 2, 3, 4})
	if err != nil {
		t.Fatal(err)
	}
	if n := m.MaxRowNNZ(); n != 3 {
		t.Errorf("MaxRowNNZ = %d, want 3", n)
	}
	if n := (&CSR{Indptr: []int{0}}).MaxRowNNZ(); n != 0 {
		t.Errorf("MaxRowNNZ of no rows = %d, want 0", n)
	}
}
