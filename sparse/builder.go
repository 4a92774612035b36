package sparse

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Builder assembles a CSR matrix from entries added one at a time, for
// readers that stream entries and cannot afford FromTriplets' slice of
// triplets. It stores 12 bytes per entry (a column index and a value) while
// rows arrive in non-decreasing order, as they usually do, and 16 once a row
// goes backwards (it then also records each entry's row and sorts by row in
// Build). Columns within a row may come in any order.
//
// Unlike FromTriplets, a Builder stores each entry as given, zeros included,
// and a (row, column) pair added twice is an error rather than a sum: Add
// reports it at once while rows are in order, and Build otherwise. Both
// report it as a *DuplicateError.
type Builder struct {
	rows, cols int
	inOrder    bool // no row has gone backwards yet
	cur        int  // last row reached while in order
	built      bool
	indptr     []int // row starts up to cur while in order
	indices    []int32
	data       []float64
	rowOf      []int32 // row of each entry, once out of order

	// While in order, the repeats of a row whose columns have come in
	// increasing order are caught by comparing with the last column; the
	// first time a row's columns do not increase, its entries are marked
	// (mark[j] = 1 + row) and later ones checked against the marks.
	last      int32   // last column of row cur, or -1
	rowSorted bool    // row cur's columns increase so far
	allSorted bool    // so do those of every row so far
	mark      []int32 // cols entries, allocated on first use
}

// DuplicateError reports a (row, column) pair, zero-based, added twice to a
// Builder.
type DuplicateError struct{ Row, Col int }

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("sparse: entry (%d,%d) added twice", e.Row, e.Col)
}

// NewBuilder returns a Builder of a rows × cols matrix, with room reserved
// for nnzHint entries (more may be added). Besides the entries it allocates
// O(rows), and O(cols) once a row's columns come out of increasing order. It
// returns an error if the shape is negative, cols does not fit int32 column
// indices, or rows does not fit int32 either.
func NewBuilder(rows, cols, nnzHint int) (*Builder, error) {
	if err := checkShape(rows, cols); err != nil {
		return nil, err
	}
	if rows >= math.MaxInt32 {
		return nil, fmt.Errorf("sparse: %d rows exceed what a Builder can hold", rows)
	}
	nnzHint = max(nnzHint, 0)
	return &Builder{
		rows:      rows,
		cols:      cols,
		inOrder:   true,
		indptr:    make([]int, rows+1),
		indices:   make([]int32, 0, nnzHint),
		data:      make([]float64, 0, nnzHint),
		last:      -1,
		rowSorted: true,
		allSorted: true,
	}, nil
}

// Add adds the entry v at row i, column j (zero-based). It returns an error,
// storing nothing, if i or j is out of range, v is NaN or infinite, or,
// while rows have come in non-decreasing order, (i, j) was already added
// (a *DuplicateError).
func (b *Builder) Add(i, j int, v float64) error {
	// v-v is zero for every finite v, NaN for NaN and ±Inf.
	if uint(i) >= uint(b.rows) || uint(j) >= uint(b.cols) || v-v != 0 || b.built {
		return b.addError(i, j, v)
	}
	if b.inOrder && i != b.cur {
		b.toRow(i)
	}
	if b.inOrder {
		if b.rowSorted && int32(j) > b.last {
			b.last = int32(j)
		} else if b.repeated(i, j) {
			return &DuplicateError{Row: i, Col: j}
		}
	} else {
		b.rowOf = append(b.rowOf, int32(i))
	}
	b.indices = append(b.indices, int32(j))
	b.data = append(b.data, v)
	return nil
}

// addError returns the error of an entry Add rejects before looking at the
// other entries.
func (b *Builder) addError(i, j int, v float64) error {
	switch {
	case b.built:
		return errors.New("sparse: Builder.Add after Build")
	case i < 0 || i >= b.rows:
		return fmt.Errorf("sparse: row %d out of range [0,%d)", i, b.rows)
	case j < 0 || j >= b.cols:
		return fmt.Errorf("sparse: column %d out of range [0,%d)", j, b.cols)
	}
	return fmt.Errorf("sparse: value %v at (%d,%d) is not finite", v, i, j)
}

// repeated reports whether column j is already in row i, the current row
// while in order, marking it if not. The first call in a row marks the
// row's entries so far.
func (b *Builder) repeated(i, j int) bool {
	m := int32(i + 1)
	if b.rowSorted {
		b.rowSorted, b.allSorted = false, false
		if b.mark == nil {
			b.mark = make([]int32, b.cols)
		}
		for _, c := range b.indices[b.indptr[i]:] {
			b.mark[c] = m
		}
	}
	if b.mark[j] == m {
		return true
	}
	b.mark[j] = m
	return false
}

// toRow moves on to row i while in order: it starts the rows up to i, or
// leaves row order if i comes before the current row.
func (b *Builder) toRow(i int) {
	if i < b.cur {
		b.outOfOrder()
		return
	}
	for b.cur < i {
		b.cur++
		b.indptr[b.cur] = len(b.indices)
	}
	b.last, b.rowSorted = -1, true
}

// outOfOrder records the row of each entry so far, from here on kept for
// every entry, and drops the duplicate marks.
func (b *Builder) outOfOrder() {
	b.inOrder = false
	b.rowOf = make([]int32, len(b.indices), cap(b.indices))
	for r := 0; r <= b.cur; r++ {
		end := len(b.indices)
		if r < b.cur {
			end = b.indptr[r+1]
		}
		for k := b.indptr[r]; k < end; k++ {
			b.rowOf[k] = int32(r)
		}
	}
	b.mark = nil
}

// Build returns the matrix, which takes over the Builder's storage: the
// Builder cannot be used afterwards. Each row's entries are sorted by
// column; a (row, column) pair added twice that Add did not report is
// reported here as a *DuplicateError (the one of the first such row, with
// its smallest such column). The result satisfies Validate.
func (b *Builder) Build() (*CSR, error) {
	if b.built {
		return nil, errors.New("sparse: Builder.Build called twice")
	}
	b.built = true
	nnz := len(b.indices)
	if b.inOrder {
		for r := b.cur + 1; r <= b.rows; r++ {
			b.indptr[r] = nnz
		}
		if b.allSorted {
			return b.take(), nil
		}
	} else {
		b.sortByRow()
	}
	var keys []uint64
	var vals []float64
	for r := 0; r < b.rows; r++ {
		lo, hi := b.indptr[r], b.indptr[r+1]
		if increasing(b.indices[lo:hi]) {
			continue
		}
		var dupCol int
		keys, vals, dupCol = sortRow(b.indices[lo:hi], b.data[lo:hi], keys, vals)
		if dupCol >= 0 {
			return nil, &DuplicateError{Row: r, Col: dupCol}
		}
	}
	return b.take(), nil
}

// take returns the matrix over the Builder's storage, which it lets go of.
func (b *Builder) take() *CSR {
	m := &CSR{Rows: b.rows, Cols: b.cols, Indptr: b.indptr, Indices: b.indices, Data: b.data}
	b.indptr, b.indices, b.data, b.mark = nil, nil, nil, nil
	return m
}

// sortByRow sets indptr from rowOf and moves the entries into row order
// with a stable counting sort.
func (b *Builder) sortByRow() {
	nnz := len(b.indices)
	clear(b.indptr)
	for _, r := range b.rowOf {
		b.indptr[r+1]++
	}
	for r := 0; r < b.rows; r++ {
		b.indptr[r+1] += b.indptr[r]
	}
	next := append([]int(nil), b.indptr[:b.rows]...)
	indices := make([]int32, nnz)
	data := make([]float64, nnz)
	for k, r := range b.rowOf {
		p := next[r]
		next[r]++
		indices[p], data[p] = b.indices[k], b.data[k]
	}
	b.indices, b.data, b.rowOf = indices, data, nil
}

// increasing reports whether idx is strictly increasing.
func increasing(idx []int32) bool {
	for k := 1; k < len(idx); k++ {
		if idx[k] <= idx[k-1] {
			return false
		}
	}
	return true
}

// sortRow sorts the entries (idx[k], val[k]) of one row by column, using
// and returning keys and vals as scratch space, and returns the smallest
// column that occurs more than once, or -1. It sorts packed (column,
// position) keys, which is about twice as fast as sorting the entries with a
// comparison function.
func sortRow(idx []int32, val []float64, keys []uint64, vals []float64) ([]uint64, []float64, int) {
	keys = keys[:0]
	for k, j := range idx {
		keys = append(keys, uint64(j)<<32|uint64(k))
	}
	slices.Sort(keys)
	vals = append(vals[:0], val...)
	dup := -1
	for k, key := range keys {
		j := int32(key >> 32)
		if dup < 0 && k > 0 && j == idx[k-1] {
			dup = int(j)
		}
		idx[k], val[k] = j, vals[uint32(key)]
	}
	return keys, vals, dup
}
