package sparse

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/semitopic/semitopic/internal/parallel"
)

// grain is the smallest number of stored entries worth a goroutine of its
// own in the O(nnz) kernels of this file.
const grain = 1 << 14

// Structure sharing: no method in this package writes to a matrix's Indptr
// or Indices in place. Methods that remove entries build new arrays, so
// matrices made by WithData may share their structure with the original.

// T returns the transpose of m, a Cols × Rows matrix whose rows have
// increasing column indices. It runs in O(nnz + rows + cols) time, splitting
// the rows of m over the cores. It panics if m has more than 2^31−1 rows and
// any entry, since the transpose's column indices are int32.
func (m *CSR) T() *CSR { return m.transpose(grain) }

func (m *CSR) transpose(minBlock int) *CSR {
	rows, cols, nnz := m.Rows, m.Cols, m.NNZ()
	t := &CSR{Rows: cols, Cols: rows, Indptr: make([]int, cols+1), Indices: make([]int32, nnz), Data: make([]float64, nnz)}
	if rows > math.MaxInt32 && nnz != 0 {
		// The transpose's column indices are int32; such a matrix would
		// need a 16 GiB row pointer before its first entry.
		panic("sparse: transpose of a matrix with more than 2^31-1 rows")
	}
	// Each worker counts the columns of its row block; worker w's entries of
	// column j then go after those of workers 0..w-1, which keeps the rows
	// of the transpose sorted because blocks are in row order.
	w := parallel.Workers()
	counts := make([][]int, w)
	blocks := make([][2]int, w)
	used := make([]bool, w)
	parallel.ForWeighted(m.Indptr, minBlock, func(b, lo, hi int) {
		c := make([]int, cols)
		for _, j := range m.Indices[m.Indptr[lo]:m.Indptr[hi]] {
			c[j]++
		}
		counts[b], blocks[b], used[b] = c, [2]int{lo, hi}, true
	})
	// Turn counts into start offsets: column-major over (column, worker).
	pos := 0
	for j := 0; j < cols; j++ {
		t.Indptr[j] = pos
		for b := 0; b < w; b++ {
			if used[b] {
				c := counts[b][j]
				counts[b][j] = pos
				pos += c
			}
		}
	}
	t.Indptr[cols] = pos
	parallel.For(w, 1, func(lo, hi int) {
		for b := lo; b < hi; b++ {
			if !used[b] {
				continue
			}
			next := counts[b]
			for i := blocks[b][0]; i < blocks[b][1]; i++ {
				for p := m.Indptr[i]; p < m.Indptr[i+1]; p++ {
					j := m.Indices[p]
					q := next[j]
					t.Indices[q] = int32(i)
					t.Data[q] = m.Data[p]
					next[j]++
				}
			}
		}
	})
	return t
}

// RowSums returns the sum of each row.
func (m *CSR) RowSums() []float64 {
	s := make([]float64, m.Rows)
	parallel.ForWeighted(m.Indptr, grain, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			s[i] = floats.Sum(m.Data[m.Indptr[i]:m.Indptr[i+1]])
		}
	})
	return s
}

// ColSums returns the sum of each column.
func (m *CSR) ColSums() []float64 { return m.colSums(grain) }

func (m *CSR) colSums(minBlock int) []float64 {
	acc := perWorker(m, minBlock, m.Cols, func(a []float64, lo, hi int) {
		for p := m.Indptr[lo]; p < m.Indptr[hi]; p++ {
			a[m.Indices[p]] += m.Data[p]
		}
	})
	return acc
}

// perWorker runs fn over row blocks of m with a zeroed accumulator of length
// n per worker and returns the element-wise sum of the accumulators.
func perWorker(m *CSR, minBlock, n int, fn func(acc []float64, lo, hi int)) []float64 {
	accs := make([][]float64, parallel.Workers())
	parallel.ForWeighted(m.Indptr, minBlock, func(b, lo, hi int) {
		accs[b] = make([]float64, n)
		fn(accs[b], lo, hi)
	})
	var out []float64
	for _, a := range accs {
		if a == nil {
			continue
		}
		if out == nil {
			out = a
		} else {
			floats.Add(out, a)
		}
	}
	if out == nil {
		out = make([]float64, n)
	}
	return out
}

// Sum returns the sum of all entries.
func (m *CSR) Sum() float64 { return m.sum(grain) }

func (m *CSR) sum(minBlock int) float64 {
	part := make([]float64, parallel.Workers())
	parallel.ForWeighted(m.Indptr, minBlock, func(b, lo, hi int) {
		part[b] = floats.Sum(m.Data[m.Indptr[lo]:m.Indptr[hi]])
	})
	return floats.Sum(part)
}

// Max returns the largest stored value, or 0 for a matrix with no stored
// entries. Implicit zeros are not considered: a matrix whose stored values
// are all negative has a negative Max.
func (m *CSR) Max() float64 {
	if len(m.Data) == 0 {
		return 0
	}
	return floats.Max(m.Data)
}

// RowNNZ returns the number of stored entries in each row.
func (m *CSR) RowNNZ() []int {
	n := make([]int, m.Rows)
	for i := range n {
		n[i] = m.Indptr[i+1] - m.Indptr[i]
	}
	return n
}

// ColNNZ returns the number of stored entries in each column: for a
// documents × terms matrix, the document frequency of each term.
func (m *CSR) ColNNZ() []int {
	counts := make([][]int, parallel.Workers())
	parallel.ForWeighted(m.Indptr, grain, func(b, lo, hi int) {
		c := make([]int, m.Cols)
		for _, j := range m.Indices[m.Indptr[lo]:m.Indptr[hi]] {
			c[j]++
		}
		counts[b] = c
	})
	var out []int
	for _, c := range counts {
		switch {
		case c == nil:
		case out == nil:
			out = c
		default:
			for j, v := range c {
				out[j] += v
			}
		}
	}
	if out == nil {
		out = make([]int, m.Cols)
	}
	return out
}

// ScaleRows multiplies row i by s[i] in place. It returns an error, leaving
// m unchanged, if len(s) != Rows or a factor is NaN or infinite. Entries that
// become zero (a zero factor, or underflow) are removed.
func (m *CSR) ScaleRows(s []float64) error {
	if len(s) != m.Rows {
		return fmt.Errorf("sparse: ScaleRows: %d factors for %d rows", len(s), m.Rows)
	}
	for i, v := range s {
		if !isFinite(v) {
			return fmt.Errorf("sparse: ScaleRows: factor %d is %v", i, v)
		}
	}
	return m.scale(func(i int, _ int32, v float64) float64 { return v * s[i] })
}

// ScaleCols multiplies column j by s[j] in place. It returns an error,
// leaving m unchanged, if len(s) != Cols or a factor is NaN or infinite.
// Entries that become zero are removed.
func (m *CSR) ScaleCols(s []float64) error {
	if len(s) != m.Cols {
		return fmt.Errorf("sparse: ScaleCols: %d factors for %d columns", len(s), m.Cols)
	}
	for j, v := range s {
		if !isFinite(v) {
			return fmt.Errorf("sparse: ScaleCols: factor %d is %v", j, v)
		}
	}
	return m.scale(func(_ int, j int32, v float64) float64 { return v * s[j] })
}

// scale replaces every stored value by f(row, col, value), in parallel, then
// removes zeros. It fails without changing m if a result is not finite.
func (m *CSR) scale(f func(i int, j int32, v float64) float64) error {
	out := make([]float64, len(m.Data))
	// out is computed before m changes so that a failure leaves m intact.
	zeros := make([]int, parallel.Workers())
	bad := make([]int, parallel.Workers())
	for b := range bad {
		bad[b] = -1
	}
	parallel.ForWeighted(m.Indptr, grain, func(b, lo, hi int) {
		for i := lo; i < hi; i++ {
			for p := m.Indptr[i]; p < m.Indptr[i+1]; p++ {
				v := f(i, m.Indices[p], m.Data[p])
				if v == 0 {
					zeros[b]++
				} else if !isFinite(v) && bad[b] < 0 {
					bad[b] = p
				}
				out[p] = v
			}
		}
	})
	for _, p := range bad {
		if p >= 0 {
			i := m.rowOf(p)
			return fmt.Errorf("sparse: entry (%d,%d) = %v becomes %v", i, m.Indices[p], m.Data[p], out[p])
		}
	}
	nz := 0
	for _, z := range zeros {
		nz += z
	}
	if nz == 0 {
		m.Data = out
		return nil
	}
	m.setDroppingZeros(out, len(out)-nz)
	return nil
}

// rowOf returns the row holding stored entry p.
func (m *CSR) rowOf(p int) int {
	lo, hi := 0, m.Rows
	for lo < hi { // smallest i with Indptr[i+1] > p
		mid := int(uint(lo+hi) >> 1)
		if m.Indptr[mid+1] > p {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// setDroppingZeros replaces m's values by vals (aligned with m's structure),
// leaving out the zeros, into newly allocated arrays of length nnz.
func (m *CSR) setDroppingZeros(vals []float64, nnz int) {
	indptr := make([]int, m.Rows+1)
	indices := make([]int32, 0, nnz)
	data := make([]float64, 0, nnz)
	for i := 0; i < m.Rows; i++ {
		for p := m.Indptr[i]; p < m.Indptr[i+1]; p++ {
			if vals[p] != 0 {
				indices = append(indices, m.Indices[p])
				data = append(data, vals[p])
			}
		}
		indptr[i+1] = len(data)
	}
	m.Indptr, m.Indices, m.Data = indptr, indices, data
}

// NormalizeRowsL2 scales every non-zero row in place to unit Euclidean norm
// and returns the rows' original norms. Rows with no entries stay empty and
// have norm 0. Norms are computed without intermediate overflow; a norm
// beyond the float64 range is returned as +Inf (and its row is still
// normalized correctly).
func (m *CSR) NormalizeRowsL2() []float64 {
	return m.normalizeRows(func(v []float64) float64 { return floats.Norm(v, 2) })
}

// NormalizeRowsL1 scales every non-zero row in place so that its absolute
// values sum to 1 and returns the rows' original L1 norms (Σ|v|). Rows with
// no entries stay empty and have norm 0. A norm beyond the float64 range is
// returned as +Inf and its row is still normalized correctly.
func (m *CSR) NormalizeRowsL1() []float64 {
	return m.normalizeRows(func(v []float64) float64 { return floats.Norm(v, 1) })
}

func (m *CSR) normalizeRows(norm func([]float64) float64) []float64 {
	norms := make([]float64, m.Rows)
	zeros := make([]int, parallel.Workers())
	parallel.ForWeighted(m.Indptr, grain, func(b, lo, hi int) {
		for i := lo; i < hi; i++ {
			v := m.Data[m.Indptr[i]:m.Indptr[i+1]]
			if len(v) == 0 {
				continue
			}
			n := norm(v)
			norms[i] = n
			if math.IsInf(n, 0) {
				// Scale the row down by its largest magnitude first so
				// that its norm is finite.
				big := 0.0
				for _, x := range v {
					big = math.Max(big, math.Abs(x))
				}
				for k := range v {
					v[k] /= big
				}
				n = norm(v)
			}
			// Divide rather than multiply by 1/n, which overflows for
			// subnormal norms.
			for k := range v {
				v[k] /= n
				if v[k] == 0 { // underflow next to a much larger value
					zeros[b]++
				}
			}
		}
	})
	nz := 0
	for _, z := range zeros {
		nz += z
	}
	if nz > 0 {
		m.setDroppingZeros(m.Data, len(m.Data)-nz)
	}
	return norms
}

// Binarized returns a new matrix with m's structure and every stored value
// set to 1. It shares nothing with m.
func (m *CSR) Binarized() *CSR {
	b := &CSR{
		Rows:    m.Rows,
		Cols:    m.Cols,
		Indptr:  append([]int(nil), m.Indptr...),
		Indices: append([]int32(nil), m.Indices...),
		Data:    make([]float64, len(m.Data)),
	}
	for p := range b.Data {
		b.Data[p] = 1
	}
	return b
}

// Apply replaces every stored value v by f(v), then removes the entries that
// became zero; implicit zeros are left alone, so f(0) is taken to be 0. For
// example, m.Apply(func(v float64) float64 { return 1 + math.Log(v) })
// gives sublinear term frequencies. f is called concurrently from several
// goroutines and must be safe for that, as pure functions are.
//
// If f returns NaN or an infinite value, Apply returns an error naming the
// entry and leaves m unchanged. m's Data is replaced by a new slice.
func (m *CSR) Apply(f func(float64) float64) error {
	if err := m.scale(func(_ int, _ int32, v float64) float64 { return f(v) }); err != nil {
		return fmt.Errorf("sparse: Apply: %w", err)
	}
	return nil
}

// WithData returns a matrix with m's shape and structure (sharing its Indptr
// and Indices, which this package never modifies in place) and the given
// values, one per stored entry of m. It is handy for element-wise results at
// the non-zeros, such as X/(WH) in Kullback–Leibler updates. The values are
// not copied or checked: zeros are kept and non-finite values make the result
// fail Validate. It returns an error if len(data) != m.NNZ().
func (m *CSR) WithData(data []float64) (*CSR, error) {
	if len(data) != len(m.Data) {
		return nil, fmt.Errorf("sparse: WithData: %d values for %d stored entries", len(data), len(m.Data))
	}
	return &CSR{Rows: m.Rows, Cols: m.Cols, Indptr: m.Indptr, Indices: m.Indices, Data: data}, nil
}

// VStack returns the matrices' rows one under another, in order: a new
// matrix sharing no storage with them. It is an error if their numbers of
// columns differ or none is given.
func VStack(ms ...*CSR) (*CSR, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("sparse: VStack of no matrix")
	}
	rows, nnz := 0, 0
	for i, m := range ms {
		if m == nil {
			return nil, fmt.Errorf("sparse: VStack: matrix %d is nil", i)
		}
		if m.Cols != ms[0].Cols {
			return nil, fmt.Errorf("sparse: VStack: matrix %d has %d columns, matrix 0 %d", i, m.Cols, ms[0].Cols)
		}
		rows += m.Rows
		nnz += m.NNZ()
	}
	out := &CSR{Rows: rows, Cols: ms[0].Cols, Indptr: make([]int, 1, rows+1),
		Indices: make([]int32, 0, nnz), Data: make([]float64, 0, nnz)}
	for _, m := range ms {
		base := len(out.Data)
		for _, p := range m.Indptr[1:] {
			out.Indptr = append(out.Indptr, base+p)
		}
		out.Indices = append(out.Indices, m.Indices...)
		out.Data = append(out.Data, m.Data...)
	}
	return out, nil
}
