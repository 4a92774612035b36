package capi

import (
	"bytes"
	"encoding/json"
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// Result is what an operation returns besides a model: metadata (written
// as JSON), named dense matrices, named sparse matrices and bytes, which
// the caller copies out (CopyMatrix, CopyCSR, CopyBytes) into memory it
// owns and then releases.
type Result struct {
	Meta  any
	Mats  map[string]*mat.Dense
	CSR   map[string]*sparse.CSR
	Bytes []byte
}

// shape is how Describe lists a result's arrays.
type shape struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
	NNZ  int `json:"nnz,omitempty"`
}

// describer is an object that Describe can write as JSON.
type describer interface {
	describe() (any, error)
}

// Describe returns the JSON description of the object of handle h: a
// result's metadata and the shapes of its arrays, or what a model is.
func (r *Registry) Describe(h int64) ([]byte, error) {
	v, err := r.get(h)
	if err != nil {
		return nil, err
	}
	var d any
	switch o := v.(type) {
	case *Result:
		mats := map[string]shape{}
		for n, m := range o.Mats {
			rr, c := m.Dims()
			mats[n] = shape{Rows: rr, Cols: c}
		}
		csr := map[string]shape{}
		for n, m := range o.CSR {
			csr[n] = shape{Rows: m.Rows, Cols: m.Cols, NNZ: len(m.Data)}
		}
		d = map[string]any{"meta": o.Meta, "matrices": mats, "csr": csr, "bytes": len(o.Bytes)}
	case describer:
		if d, err = o.describe(); err != nil {
			return nil, err
		}
	default:
		return nil, runtimeErr("handle %d has no description", h)
	}
	b, err := json.Marshal(d)
	if err != nil {
		return nil, runtimeErr("encoding the description: %v", err)
	}
	return b, nil
}

func (r *Registry) result(h int64) (*Result, error) {
	v, err := r.get(h)
	if err != nil {
		return nil, err
	}
	res, ok := v.(*Result)
	if !ok {
		return nil, runtimeErr("handle %d is not a result", h)
	}
	return res, nil
}

// CopyMatrix copies the result's matrix name, row-major, into dst, which
// must have exactly its rows × cols entries.
func (r *Registry) CopyMatrix(h int64, name string, dst []float64) error {
	res, err := r.result(h)
	if err != nil {
		return err
	}
	m, ok := res.Mats[name]
	if !ok {
		return runtimeErr("result %d has no matrix %q", h, name)
	}
	rows, cols := m.Dims()
	if len(dst) != rows*cols {
		return runtimeErr("matrix %q is %d×%d, the buffer holds %d values", name, rows, cols, len(dst))
	}
	for i := 0; i < rows; i++ {
		copy(dst[i*cols:(i+1)*cols], m.RawRowView(i))
	}
	return nil
}

// CopyCSR copies the result's sparse matrix name into indptr (rows+1
// entries), indices and data (nnz entries each).
func (r *Registry) CopyCSR(h int64, name string, indptr []int64, indices []int32, data []float64) error {
	res, err := r.result(h)
	if err != nil {
		return err
	}
	m, ok := res.CSR[name]
	if !ok {
		return runtimeErr("result %d has no sparse matrix %q", h, name)
	}
	if len(indptr) != m.Rows+1 || len(indices) != len(m.Indices) || len(data) != len(m.Data) {
		return runtimeErr("sparse matrix %q is %d rows with %d non-zeros; the buffers hold %d, %d and %d", name, m.Rows, len(m.Data), len(indptr), len(indices), len(data))
	}
	for i, p := range m.Indptr {
		indptr[i] = int64(p)
	}
	copy(indices, m.Indices)
	copy(data, m.Data)
	return nil
}

// CopyBytes copies the result's bytes into dst, which must have their
// length.
func (r *Registry) CopyBytes(h int64, dst []byte) error {
	res, err := r.result(h)
	if err != nil {
		return err
	}
	if len(dst) != len(res.Bytes) {
		return runtimeErr("result %d has %d bytes, the buffer %d", h, len(res.Bytes), len(dst))
	}
	copy(dst, res.Bytes)
	return nil
}

// decode decodes the JSON request req into v, refusing unknown fields:
// the error names the field.
func decode(req json.RawMessage, v any) error {
	d := json.NewDecoder(bytes.NewReader(req))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return fmt.Errorf("request: %w", err)
	}
	return nil
}
