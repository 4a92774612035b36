package sparse

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// FromDense returns the non-zero entries of a as a CSR matrix. It is meant
// for tests and small matrices. NaN values are stored as they are (a NaN is
// not zero), so the result fails Validate if a holds any; so do infinities.
func FromDense(a mat.Matrix) *CSR {
	rows, cols := a.Dims()
	m := &CSR{Rows: rows, Cols: cols, Indptr: make([]int, rows+1)}
	raw, isDense := a.(*mat.Dense)
	for i := 0; i < rows; i++ {
		if isDense {
			for j, v := range raw.RawRowView(i) {
				if v != 0 {
					m.Indices = append(m.Indices, int32(j))
					m.Data = append(m.Data, v)
				}
			}
		} else {
			for j := 0; j < cols; j++ {
				if v := a.At(i, j); v != 0 {
					m.Indices = append(m.Indices, int32(j))
					m.Data = append(m.Data, v)
				}
			}
		}
		m.Indptr[i+1] = len(m.Data)
	}
	return m
}

// ToDense returns m as a dense matrix. It is meant for tests and small
// matrices: the result takes Rows·Cols float64s. A matrix with no rows or no
// columns yields an empty *mat.Dense (gonum cannot represent a 0×n matrix),
// whose Dims report 0×0 and IsEmpty reports true.
func (m *CSR) ToDense() *mat.Dense {
	if m.Rows == 0 || m.Cols == 0 {
		return &mat.Dense{}
	}
	d := mat.NewDense(m.Rows, m.Cols, nil)
	raw := d.RawMatrix()
	for i := 0; i < m.Rows; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+m.Cols]
		for p := m.Indptr[i]; p < m.Indptr[i+1]; p++ {
			row[m.Indices[p]] = m.Data[p]
		}
	}
	return d
}

// isFinite reports whether v is neither NaN nor infinite.
func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
