package sparse

import (
	"fmt"
	"math"
	"sort"
)

// CSR is a sparse matrix in compressed sparse row form. Row i holds the
// column indices Indices[Indptr[i]:Indptr[i+1]] (strictly increasing) and the
// matching values Data[Indptr[i]:Indptr[i+1]]. Stored values may be zero only
// if a caller put them there; constructors in this package drop them.
//
// The fields are exported so that kernels elsewhere can iterate without
// copying; code that modifies them must keep the invariants checked by
// Validate.
type CSR struct {
	Rows, Cols int
	Indptr     []int
	Indices    []int32
	Data       []float64
}

// NewCSR returns a CSR matrix over the given arrays, which it takes ownership
// of, after checking the invariants (see Validate).
func NewCSR(rows, cols int, indptr []int, indices []int32, data []float64) (*CSR, error) {
	m := &CSR{Rows: rows, Cols: cols, Indptr: indptr, Indices: indices, Data: data}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// Zeros returns an all-zero rows × cols matrix.
func Zeros(rows, cols int) *CSR {
	return &CSR{Rows: rows, Cols: cols, Indptr: make([]int, rows+1)}
}

// Validate checks the CSR invariants: non-negative shape that fits int32
// column indices, len(Indptr) == Rows+1, Indptr non-decreasing from 0 to
// len(Indices) == len(Data), column indices in range and strictly increasing
// within each row, and no NaN or infinite values.
func (m *CSR) Validate() error {
	if m.Rows < 0 || m.Cols < 0 {
		return fmt.Errorf("sparse: negative shape %d×%d", m.Rows, m.Cols)
	}
	if m.Cols > math.MaxInt32 {
		return fmt.Errorf("sparse: %d columns exceed int32 column indices", m.Cols)
	}
	if len(m.Indptr) != m.Rows+1 {
		return fmt.Errorf("sparse: len(Indptr) = %d, want rows+1 = %d", len(m.Indptr), m.Rows+1)
	}
	if len(m.Indices) != len(m.Data) {
		return fmt.Errorf("sparse: %d column indices but %d values", len(m.Indices), len(m.Data))
	}
	if m.Indptr[0] != 0 || m.Indptr[m.Rows] != len(m.Indices) {
		return fmt.Errorf("sparse: Indptr runs from %d to %d, want 0 to %d", m.Indptr[0], m.Indptr[m.Rows], len(m.Indices))
	}
	// Check all of Indptr before indexing with it, so that a pointer past
	// the end followed by a decrease cannot cause an out-of-range access.
	for i := 0; i < m.Rows; i++ {
		if m.Indptr[i+1] < m.Indptr[i] {
			return fmt.Errorf("sparse: Indptr decreases at row %d", i)
		}
	}
	for i := 0; i < m.Rows; i++ {
		lo, hi := m.Indptr[i], m.Indptr[i+1]
		prev := int32(-1)
		for p := lo; p < hi; p++ {
			j := m.Indices[p]
			if j < 0 || int(j) >= m.Cols {
				return fmt.Errorf("sparse: row %d: column %d out of range [0,%d)", i, j, m.Cols)
			}
			if j <= prev {
				return fmt.Errorf("sparse: row %d: column indices not strictly increasing (%d after %d)", i, j, prev)
			}
			prev = j
		}
	}
	// v−v is 0 for a finite v and NaN for ±Inf and NaN: one subtraction
	// per value instead of two classifications.
	for p, v := range m.Data {
		if v-v != 0 {
			i := sort.Search(m.Rows, func(i int) bool { return m.Indptr[i+1] > p })
			return fmt.Errorf("sparse: row %d, column %d: value %v is not finite", i, m.Indices[p], v)
		}
	}
	return nil
}

// Dims returns the shape of m.
func (m *CSR) Dims() (rows, cols int) { return m.Rows, m.Cols }

// NNZ returns the number of stored entries.
func (m *CSR) NNZ() int { return len(m.Data) }

// MaxRowNNZ returns the largest number of stored entries in a row of m
// (0 for no rows).
func (m *CSR) MaxRowNNZ() int {
	n := 0
	for i := 0; i < m.Rows; i++ {
		n = max(n, m.Indptr[i+1]-m.Indptr[i])
	}
	return n
}

// Row returns the column indices and values of row i, sharing m's storage.
func (m *CSR) Row(i int) (cols []int32, vals []float64) {
	lo, hi := m.Indptr[i], m.Indptr[i+1]
	return m.Indices[lo:hi], m.Data[lo:hi]
}

// At returns the entry at (i, j), which is zero when not stored. It panics
// if (i, j) is out of range, like gonum's mat.Matrix.At.
func (m *CSR) At(i, j int) float64 {
	if i < 0 || i >= m.Rows || j < 0 || j >= m.Cols {
		panic(fmt.Sprintf("sparse: index (%d,%d) out of range for %d×%d matrix", i, j, m.Rows, m.Cols))
	}
	cols, vals := m.Row(i)
	lo, hi := 0, len(cols)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		switch c := int(cols[mid]); {
		case c < j:
			lo = mid + 1
		case c > j:
			hi = mid
		default:
			return vals[mid]
		}
	}
	return 0
}

// Clone returns a deep copy of m.
func (m *CSR) Clone() *CSR {
	return &CSR{
		Rows:    m.Rows,
		Cols:    m.Cols,
		Indptr:  append([]int(nil), m.Indptr...),
		Indices: append([]int32(nil), m.Indices...),
		Data:    append([]float64(nil), m.Data...),
	}
}

// SelectRows returns a new matrix made of the given rows of m, in the given
// order (rows may repeat). Like Row, it panics if an index is out of range.
func (m *CSR) SelectRows(rows []int) *CSR {
	out := &CSR{Rows: len(rows), Cols: m.Cols, Indptr: make([]int, len(rows)+1)}
	nnz := 0
	for k, i := range rows {
		nnz += m.Indptr[i+1] - m.Indptr[i]
		out.Indptr[k+1] = nnz
	}
	out.Indices = make([]int32, 0, nnz)
	out.Data = make([]float64, 0, nnz)
	for _, i := range rows {
		cols, vals := m.Row(i)
		out.Indices = append(out.Indices, cols...)
		out.Data = append(out.Data, vals...)
	}
	return out
}
