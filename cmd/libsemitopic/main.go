//go:build cgo

// Command libsemitopic is the shared library the Python package loads
// (python/README.md): the C ABI over internal/capi, built with
//
//	go build -buildmode=c-shared -o libsemitopic.so ./cmd/libsemitopic
//
// Every function returns a status code (capi.Code: 0 ok, 1 ValueError, 2
// TypeError, 3 FileNotFoundError, 4 RuntimeError, 5 cancelled, 6 still
// running) and, for an error, a message in *err that the caller frees with
// st_free. Objects are opaque int64 handles released with st_release.
// Arrays come in as pointers and lengths and are copied before the call
// returns; results are copied out into arrays the caller allocates.
//
// It needs cgo; without it (CGO_ENABLED=0, the cross-builds) the package
// has no files to build.
package main

/*
#include <stdint.h>
#include <stdlib.h>

// st_input is an operation's array input: a CSR matrix (indptr and
// indices of 4 or 8 bytes per entry, float64 data), dense float64
// matrices (row-major; their names and shapes are in the request's
// "dense" list) and a byte string.
typedef struct {
	int64_t rows, cols, nnz;
	void *indptr;
	int32_t indptr_size;
	void *indices;
	int32_t indices_size;
	double *data;
	int32_t ndense;
	double **dense;
	int64_t *dense_len;
	char *bytes;
	int64_t nbytes;
} st_input;
*/
import "C"

import (
	"encoding/json"
	"fmt"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/capi"
	"github.com/semitopic/semitopic/sparse"
)

// registry holds every object the library has handed out: the one
// process-wide state a C ABI needs.
var registry = capi.NewRegistry()

func main() {}

// fail stores err's message in *msg (when msg is not nil) and returns
// its code.
func fail(err error, msg **C.char) C.int {
	if err == nil {
		return 0
	}
	if msg != nil {
		*msg = C.CString(err.Error())
	}
	return C.int(capi.CodeOf(err))
}

// denseSpec is an entry of a request's "dense" list.
type denseSpec struct {
	Name string `json:"name"`
	Rows int    `json:"rows"`
	Cols int    `json:"cols"`
}

// input copies the caller's arrays into Go memory.
func input(in *C.st_input, req []byte) (capi.Input, error) {
	var out capi.Input
	if in == nil {
		return out, nil
	}
	if in.indptr != nil {
		rows, cols, nnz := int(in.rows), int(in.cols), int(in.nnz)
		if rows < 0 || cols < 0 || nnz < 0 {
			return out, fmt.Errorf("input X: shape %d×%d with %d non-zeros", rows, cols, nnz)
		}
		indptr := make([]int, rows+1)
		switch in.indptr_size {
		case 4:
			for i, v := range unsafe.Slice((*int32)(in.indptr), rows+1) {
				indptr[i] = int(v)
			}
		case 8:
			for i, v := range unsafe.Slice((*int64)(in.indptr), rows+1) {
				indptr[i] = int(v)
			}
		default:
			return out, &capi.Error{Code: capi.Type, Err: fmt.Errorf("input X: indptr of %d-byte integers, want 4 or 8", in.indptr_size)}
		}
		indices := make([]int32, nnz)
		switch in.indices_size {
		case 4:
			copy(indices, unsafe.Slice((*int32)(in.indices), nnz))
		case 8:
			for i, v := range unsafe.Slice((*int64)(in.indices), nnz) {
				if v < 0 || v >= int64(cols) {
					return out, fmt.Errorf("input X: column index %d out of range [0, %d)", v, cols)
				}
				indices[i] = int32(v)
			}
		default:
			return out, &capi.Error{Code: capi.Type, Err: fmt.Errorf("input X: indices of %d-byte integers, want 4 or 8", in.indices_size)}
		}
		data := make([]float64, nnz)
		if nnz > 0 {
			copy(data, unsafe.Slice((*float64)(unsafe.Pointer(in.data)), nnz))
		}
		x, err := sparse.NewCSR(rows, cols, indptr, indices, data)
		if err != nil {
			return out, fmt.Errorf("input X: %w", err)
		}
		out.X = x
	}
	if in.ndense > 0 {
		var r struct {
			Dense []denseSpec `json:"dense"`
		}
		if err := json.Unmarshal(req, &r); err != nil {
			return out, fmt.Errorf("request: %w", err)
		}
		if len(r.Dense) != int(in.ndense) {
			return out, fmt.Errorf("request: %d dense specs for %d matrices", len(r.Dense), in.ndense)
		}
		ptrs := unsafe.Slice(in.dense, int(in.ndense))
		lens := unsafe.Slice((*int64)(unsafe.Pointer(in.dense_len)), int(in.ndense))
		out.Dense = map[string]*mat.Dense{}
		for i, s := range r.Dense {
			if s.Rows <= 0 || s.Cols <= 0 || int64(s.Rows)*int64(s.Cols) != lens[i] {
				return out, fmt.Errorf("%s: shape %d×%d for %d values", s.Name, s.Rows, s.Cols, lens[i])
			}
			vals := make([]float64, lens[i])
			copy(vals, unsafe.Slice((*float64)(unsafe.Pointer(ptrs[i])), int(lens[i])))
			out.Dense[s.Name] = mat.NewDense(s.Rows, s.Cols, vals)
		}
	}
	if in.bytes != nil {
		out.Bytes = C.GoBytes(unsafe.Pointer(in.bytes), C.int(in.nbytes))
	}
	return out, nil
}

// st_start starts the operation op (see internal/capi) with the JSON
// request req on the object of handle target (0 for none) and the arrays
// of in (may be NULL), and stores the job's handle in *job.
//
//export st_start
func st_start(op *C.char, req *C.char, target C.int64_t, in *C.st_input, job *C.int64_t, msg **C.char) C.int {
	r := []byte(C.GoString(req))
	input, err := input(in, r)
	if err != nil {
		return fail(err, msg)
	}
	h, err := registry.Start(C.GoString(op), r, int64(target), input)
	if err != nil {
		return fail(err, msg)
	}
	*job = C.int64_t(h)
	return 0
}

// st_wait waits up to timeout_ms for the job: code 6 while it runs, 0
// with the result's handle in *result once done, or the job's error.
// *events receives the progress steps since the last call as a JSON list
// (NULL when none), to be freed with st_free.
//
//export st_wait
func st_wait(job C.int64_t, timeoutMS C.int64_t, result *C.int64_t, events **C.char, msg **C.char) C.int {
	h, evs, err := registry.Wait(int64(job), time.Duration(timeoutMS)*time.Millisecond)
	if len(evs) > 0 && events != nil {
		b, _ := json.Marshal(evs)
		*events = C.CString(string(b))
	}
	if err != nil {
		return fail(err, msg)
	}
	*result = C.int64_t(h)
	return 0
}

// st_cancel asks the job to stop.
//
//export st_cancel
func st_cancel(job C.int64_t, msg **C.char) C.int {
	return fail(registry.Cancel(int64(job)), msg)
}

// st_release forgets the object of handle h (cancelling a running job).
//
//export st_release
func st_release(h C.int64_t) {
	registry.Release(int64(h))
}

// st_describe stores the JSON description of the object of handle h in
// *out, to be freed with st_free.
//
//export st_describe
func st_describe(h C.int64_t, out **C.char, msg **C.char) C.int {
	b, err := registry.Describe(int64(h))
	if err != nil {
		return fail(err, msg)
	}
	*out = C.CString(string(b))
	return 0
}

// st_copy_matrix copies the result's matrix name into dst (n values,
// row-major).
//
//export st_copy_matrix
func st_copy_matrix(h C.int64_t, name *C.char, dst *C.double, n C.int64_t, msg **C.char) C.int {
	var buf []float64
	if n > 0 {
		buf = unsafe.Slice((*float64)(unsafe.Pointer(dst)), int(n))
	}
	return fail(registry.CopyMatrix(int64(h), C.GoString(name), buf), msg)
}

// st_copy_csr copies the result's sparse matrix name into indptr (rows+1
// int64), indices (nnz int32) and data (nnz float64).
//
//export st_copy_csr
func st_copy_csr(h C.int64_t, name *C.char, indptr *C.int64_t, rows C.int64_t, indices *C.int32_t, data *C.double, nnz C.int64_t, msg **C.char) C.int {
	ip := unsafe.Slice((*int64)(unsafe.Pointer(indptr)), int(rows)+1)
	var ix []int32
	var d []float64
	if nnz > 0 {
		ix = unsafe.Slice((*int32)(unsafe.Pointer(indices)), int(nnz))
		d = unsafe.Slice((*float64)(unsafe.Pointer(data)), int(nnz))
	}
	return fail(registry.CopyCSR(int64(h), C.GoString(name), ip, ix, d), msg)
}

// st_copy_bytes copies the result's bytes into dst (n bytes).
//
//export st_copy_bytes
func st_copy_bytes(h C.int64_t, dst *C.char, n C.int64_t, msg **C.char) C.int {
	var buf []byte
	if n > 0 {
		buf = unsafe.Slice((*byte)(unsafe.Pointer(dst)), int(n))
	}
	return fail(registry.CopyBytes(int64(h), buf), msg)
}

// st_free frees a string the library returned.
//
//export st_free
func st_free(p *C.char) {
	C.free(unsafe.Pointer(p))
}
