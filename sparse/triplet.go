package sparse

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Triplet is one (row, column, value) entry of a matrix under construction,
// with zero-based coordinates.
type Triplet struct {
	Row, Col int
	Val      float64
}

// FromTriplets builds a rows × cols CSR matrix from entries given in any
// order. Entries with the same coordinates are summed (in the order given),
// and entries whose value ends up exactly zero are not stored. It returns an
// error naming the offending entry's index if a coordinate is out of range, a
// value is NaN or infinite, or duplicates sum to an infinite value.
//
// It runs in O(len(ts) + rows + cols) time with two stable counting sorts
// (by column, then by row), so it suits millions of entries. When cols is
// much larger than len(ts), it sorts each row's entries instead, so that
// memory stays proportional to rows + len(ts). ts is not modified.
func FromTriplets(rows, cols int, ts []Triplet) (*CSR, error) {
	if err := checkShape(rows, cols); err != nil {
		return nil, err
	}
	for k, t := range ts {
		if t.Row < 0 || t.Row >= rows {
			return nil, fmt.Errorf("sparse: triplet %d: row %d out of range [0,%d)", k, t.Row, rows)
		}
		if t.Col < 0 || t.Col >= cols {
			return nil, fmt.Errorf("sparse: triplet %d: column %d out of range [0,%d)", k, t.Col, cols)
		}
		if math.IsNaN(t.Val) || math.IsInf(t.Val, 0) {
			return nil, fmt.Errorf("sparse: triplet %d at (%d,%d): value %v is not finite", k, t.Row, t.Col, t.Val)
		}
	}
	m, bad := buildCSR(rows, cols, ts)
	if bad != nil {
		k := firstOverflow(ts, bad.row, bad.col)
		return nil, fmt.Errorf("sparse: triplet %d at (%d,%d): sum of duplicate entries overflows to ±Inf", k, bad.row, bad.col)
	}
	return m, nil
}

// checkShape reports whether rows × cols is a shape a CSR can have.
func checkShape(rows, cols int) error {
	if rows < 0 || cols < 0 {
		return fmt.Errorf("sparse: negative shape %d×%d", rows, cols)
	}
	if cols > math.MaxInt32 {
		return fmt.Errorf("sparse: %d columns exceed int32 column indices", cols)
	}
	return nil
}

// overflowAt names the coordinates whose duplicate entries summed to an
// infinite value.
type overflowAt struct{ row, col int }

// buildCSR assembles validated triplets (coordinates in range, values finite)
// into a CSR matrix, summing duplicates in input order and dropping zeros. It
// reports the first coordinates whose sum overflows instead of returning a
// matrix with infinite values.
func buildCSR(rows, cols int, ts []Triplet) (*CSR, *overflowAt) {
	return sumDuplicates(sortedCSR(rows, cols, ts))
}

// sortedCSR returns the entries of ts in CSR order, duplicates adjacent in
// input order and not yet summed: the first step of buildCSR.
func sortedCSR(rows, cols int, ts []Triplet) *CSR {
	if cols <= 4*len(ts)+4096 {
		return sortByCounting(rows, cols, ts)
	}
	return sortByRows(rows, cols, ts)
}

// duplicates counts the entries of m (from sortedCSR) that repeat the
// coordinates of the entry before them, only below or on the diagonal
// when lower is set, and returns the coordinates of the first one in row
// order.
func duplicates(m *CSR, lower bool) (n, row, col int) {
	row, col = -1, -1
	for i := 0; i < m.Rows; i++ {
		for p := m.Indptr[i] + 1; p < m.Indptr[i+1]; p++ {
			j := int(m.Indices[p])
			if j != int(m.Indices[p-1]) || lower && j > i {
				continue
			}
			if n == 0 {
				row, col = i, j
			}
			n++
		}
	}
	return n, row, col
}

// sortByCounting returns the entries in CSR order, duplicates adjacent in
// input order, with two stable counting sorts. It allocates O(cols).
func sortByCounting(rows, cols int, ts []Triplet) *CSR {
	nnz := len(ts)
	// Pass 1: stable counting sort by column into CSC order.
	colPtr := make([]int, cols+1)
	for _, t := range ts {
		colPtr[t.Col+1]++
	}
	for j := 0; j < cols; j++ {
		colPtr[j+1] += colPtr[j]
	}
	cscRow := make([]int, nnz)
	cscVal := make([]float64, nnz)
	next := colPtr[:cols] // reuse as insertion cursors, restored below
	for _, t := range ts {
		p := next[t.Col]
		cscRow[p] = t.Row
		cscVal[p] = t.Val
		next[t.Col]++
	}
	// next[j] now equals the old colPtr[j+1]; shift back to recover starts.
	copy(colPtr[1:], colPtr[:cols])
	colPtr[0] = 0

	// Pass 2: stable counting sort by row. Visiting columns in increasing
	// order leaves every row's columns sorted, with duplicates adjacent and
	// still in input order.
	indptr := make([]int, rows+1)
	for _, i := range cscRow {
		indptr[i+1]++
	}
	for i := 0; i < rows; i++ {
		indptr[i+1] += indptr[i]
	}
	indices := make([]int32, nnz)
	data := make([]float64, nnz)
	cur := make([]int, rows)
	copy(cur, indptr[:rows])
	for j := 0; j < cols; j++ {
		for p := colPtr[j]; p < colPtr[j+1]; p++ {
			i := cscRow[p]
			q := cur[i]
			indices[q] = int32(j)
			data[q] = cscVal[p]
			cur[i]++
		}
	}
	return &CSR{Rows: rows, Cols: cols, Indptr: indptr, Indices: indices, Data: data}
}

// sortByRows returns the entries in CSR order, duplicates adjacent in input
// order, with a stable counting sort by row and then a sort of each row by
// (column, input position). It allocates nothing proportional to cols.
func sortByRows(rows, cols int, ts []Triplet) *CSR {
	nnz := len(ts)
	indptr := make([]int, rows+1)
	for _, t := range ts {
		indptr[t.Row+1]++
	}
	for i := 0; i < rows; i++ {
		indptr[i+1] += indptr[i]
	}
	indices := make([]int32, nnz)
	data := make([]float64, nnz)
	cur := make([]int, rows)
	copy(cur, indptr[:rows])
	for _, t := range ts {
		q := cur[t.Row]
		indices[q] = int32(t.Col)
		data[q] = t.Val
		cur[t.Row]++
	}
	var perm []int32
	var tmpI []int32
	var tmpV []float64
	for i := 0; i < rows; i++ {
		lo, hi := indptr[i], indptr[i+1]
		cs, vs := indices[lo:hi], data[lo:hi]
		if slices.IsSorted(cs) {
			continue
		}
		n := hi - lo
		perm = perm[:0]
		for k := 0; k < n; k++ {
			perm = append(perm, int32(k))
		}
		// Positions break ties, so the order is that of a stable sort.
		slices.SortFunc(perm, func(a, b int32) int {
			if c := cmp.Compare(cs[a], cs[b]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		tmpI = append(tmpI[:0], cs...)
		tmpV = append(tmpV[:0], vs...)
		for k, q := range perm {
			cs[k], vs[k] = tmpI[q], tmpV[q]
		}
	}
	return &CSR{Rows: rows, Cols: cols, Indptr: indptr, Indices: indices, Data: data}
}

// sumDuplicates sums adjacent entries with equal columns and drops zeros,
// compacting m in place.
func sumDuplicates(m *CSR) (*CSR, *overflowAt) {
	rows, nnz := m.Rows, len(m.Data)
	indptr, indices, data := m.Indptr, m.Indices, m.Data
	out := 0
	start := 0
	for i := 0; i < rows; i++ {
		lo, hi := start, indptr[i+1]
		start = hi
		indptr[i] = out
		for p := lo; p < hi; {
			j := indices[p]
			s := data[p]
			p++
			for p < hi && indices[p] == j {
				s += data[p]
				p++
			}
			if math.IsInf(s, 0) {
				return nil, &overflowAt{row: i, col: int(j)}
			}
			if s != 0 {
				indices[out] = j
				data[out] = s
				out++
			}
		}
	}
	indptr[rows] = out
	if out < nnz/2 {
		// Do not keep a mostly unused backing array alive.
		indices = append([]int32(nil), indices[:out]...)
		data = append([]float64(nil), data[:out]...)
	} else {
		indices = indices[:out:out]
		data = data[:out:out]
	}
	m.Indices, m.Data = indices, data
	return m, nil
}

// firstOverflow returns the index of the entry at (row, col) at which the
// running sum of that coordinate's entries, taken in input order, first
// becomes infinite, or -1 if it never does.
func firstOverflow(ts []Triplet, row, col int) int {
	s := 0.0
	for k, t := range ts {
		if t.Row == row && t.Col == col {
			s += t.Val
			if math.IsInf(s, 0) {
				return k
			}
		}
	}
	return -1
}
