package blocks

import (
	"bytes"
	"context"
	"encoding"
	"encoding/binary"
	"encoding/gob"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"sync"

	"github.com/semitopic/semitopic/internal/native"
	"github.com/semitopic/semitopic/sparse"
)

// Block is one block of consecutive documents.
type Block struct {
	// First is the index of the block's first document in the corpus.
	First int
	// X holds the block's rows (documents × all terms).
	X *sparse.CSR
	// Labels lists each document's labels, nil or empty for an unlabeled
	// one; Labels itself is nil when the corpus has no labels.
	Labels [][]string
}

// Source is a documents × terms matrix read in blocks of consecutive
// rows. Read may be called for any block in any order, and from several
// goroutines at once.
type Source interface {
	// Dims returns the number of documents and terms.
	Dims() (docs, terms int)
	// NumBlocks returns the number of blocks.
	NumBlocks() int
	// Span returns the index of block i's first document and its number of
	// documents, without reading it.
	Span(i int) (first, rows int)
	// Read reads block i. Its matrix must be valid (sparse.CSR.Validate
	// passes), so that trainers need not check it again at every pass.
	Read(i int) (*Block, error)
}

// Recycler is a Source that can reuse the arrays of a block it returned
// once the block is no longer needed. Each hands every block it read back
// to a Source that is a Recycler as soon as fn has returned for it.
type Recycler interface {
	Recycle(b *Block)
}

// Store keeps named vectors of per-block state: Save(name, i, v) and then
// Load(name, i, dst) with len(dst) = len(v) gives v back. Loading what was
// never saved is an error wrapping fs.ErrNotExist. Different blocks may be
// saved and loaded from several goroutines at once.
type Store interface {
	Save(name string, i int, v []float64) error
	Load(name string, i int, dst []float64) error
}

// Trainer is an out-of-core fit as a sequence of passes over the blocks.
// In each pass Map is called once for every block (in any order, possibly
// on other machines from a copy made by MarshalBinary and
// UnmarshalBinary), then Reduce once with the element-wise sum of what
// the Maps added.
type Trainer interface {
	// StatsLen is the length of the statistics vector of the current pass,
	// 0 once the fit is finished.
	StatsLen() int
	// Map runs the current pass on block i: it reads and writes the
	// block's document-side state in st and adds the block's statistics
	// into acc (len StatsLen()). It must not change the Trainer, so that
	// calls for different blocks may run at once, nor keep b once it
	// returns (its arrays may be reused for a later block).
	Map(ctx context.Context, i int, b *Block, st Store, acc []float64) error
	// Reduce ends the pass with the summed statistics, updating the
	// topic-side state, and reports whether the fit is finished.
	Reduce(ctx context.Context, sum []float64) (done bool, err error)
	// MarshalBinary and UnmarshalBinary carry the trainer's state between
	// passes: to workers, and to checkpoints. A Map must never overwrite
	// the document-side state that the state before its pass reads (write
	// a new generation instead), so that a checkpoint taken after any
	// Reduce stays consistent with the store whatever happens later.
	encoding.BinaryMarshaler
	encoding.BinaryUnmarshaler
}

// Checkpointer is a Store that also keeps one checkpoint of a trainer's
// state. LoadCheckpoint returns an error wrapping fs.ErrNotExist when
// there is none.
type Checkpointer interface {
	SaveCheckpoint(state []byte) error
	LoadCheckpoint() ([]byte, error)
}

// Run drives tr over src on this machine until Reduce reports that the fit
// is finished, keeping the document-side state in st. Blocks are mapped in
// order, the next one read while the current one is processed, and their
// statistics summed in order, so that a run is deterministic. A
// cancellation is checked between blocks and returned as ctx.Err(); the
// trainer is then as the last completed pass left it.
//
// The states a Map saves are written to st in the background, in order,
// while the next block is processed; a pass ends (Reduce) only once all
// of its states are written, so that a failed write fails the pass. The
// trainer's Map sees a Store that returns a state not yet written from
// memory and that, once a block's state is loaded, reads the next block's
// ahead.
//
// When st is also a Checkpointer, Run saves the trainer's state after
// every pass, in the background too: the checkpoint is written while the
// next pass computes, before any state that pass saves reaches st, and
// never after a state of its own pass failed to be written. A pass that
// saves no states never waits for it (a checkpoint not yet begun when
// such a pass ends is replaced by that pass's); one that saves states
// queues them behind it, so its last write waits for the checkpoint. A fit interrupted by
// anything — a cancellation, a full disk, a crash — thus finds a
// checkpoint consistent with st, of one of its last completed passes, and
// resumes from it: give Run a trainer restored from the checkpoint
// (Resume). Run returns once everything is written.
func Run(ctx context.Context, src Source, st Store, tr Trainer) error {
	cp, _ := st.(Checkpointer)
	wb := newBehind(st, cp, src)
	err := run(ctx, src, wb, cp != nil, tr)
	if cerr := wb.close(); err == nil {
		err = cerr
	}
	return err
}

// run is Run's loop, its writes going through wb.
func run(ctx context.Context, src Source, wb *behind, checkpoint bool, tr Trainer) error {
	var acc []float64
	rd := newReader(src)
	defer rd.close()
	for {
		n := tr.StatsLen()
		if n == 0 {
			return nil
		}
		if cap(acc) < n {
			acc = make([]float64, n)
		}
		acc = acc[:n]
		clear(acc)
		err := rd.pass(ctx, true, func(i int, b *Block) error {
			return tr.Map(ctx, i, b, wb, acc)
		})
		if err != nil {
			return err
		}
		if err := wb.flush(); err != nil {
			return err
		}
		done, err := tr.Reduce(ctx, acc)
		if err != nil {
			return err
		}
		if checkpoint {
			b, err := tr.MarshalBinary()
			if err != nil {
				return err
			}
			if err := wb.checkpoint(b); err != nil {
				return err
			}
		}
		if done {
			return nil
		}
	}
}

// Resume restores tr from st's checkpoint, when st keeps one and holds
// one, and reports whether it did.
func Resume(st Store, tr Trainer) (bool, error) {
	cp, ok := st.(Checkpointer)
	if !ok {
		return false, nil
	}
	b, err := cp.LoadCheckpoint()
	if IsNotExist(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := tr.UnmarshalBinary(b); err != nil {
		return false, err
	}
	return true, nil
}

// Each calls fn for every block of src in order, reading block i+1 while
// fn works on block i. It stops at the first error, from a read or from
// fn, or when ctx is cancelled (returning ctx.Err()). When src is a
// Recycler, each block is handed back to it once fn has returned: fn must
// not keep the block, its matrix or its labels.
func Each(ctx context.Context, src Source, fn func(i int, b *Block) error) error {
	r := newReader(src)
	defer r.close()
	return r.pass(ctx, false, fn)
}

// reader reads a Source's blocks one ahead of their use, for Each and
// for Run's passes.
type reader struct {
	src   Source
	rc    Recycler       // src as a Recycler, or nil
	ahead <-chan readOne // the next pass's first block, being read; nil if none
}

// readOne is the outcome of reading one block.
type readOne struct {
	b   *Block
	err error
}

func newReader(src Source) *reader {
	rc, _ := src.(Recycler)
	return &reader{src: src, rc: rc}
}

// start reads block i in the background.
func (r *reader) start(i int) <-chan readOne {
	ch := make(chan readOne, 1)
	go func() {
		b, err := r.src.Read(i)
		ch <- readOne{b, err}
	}()
	return ch
}

// recycle hands b back to the Source when it takes blocks back.
func (r *reader) recycle(b *Block) {
	if r.rc != nil && b != nil {
		r.rc.Recycle(b)
	}
}

// pass calls fn for every block in order, reading block i+1 while fn
// works on block i; with again set, it reads the first block of the next
// pass while fn works on the last, so that a pass does not begin by
// waiting for its first block.
func (r *reader) pass(ctx context.Context, again bool, fn func(i int, b *Block) error) error {
	n := r.src.NumBlocks()
	next := r.ahead
	r.ahead = nil
	if next == nil && n > 0 {
		next = r.start(0)
	}
	for i := 0; i < n; i++ {
		got := <-next
		next = nil
		if got.err != nil {
			return got.err
		}
		if err := ctx.Err(); err != nil {
			r.recycle(got.b)
			return err
		}
		if i+1 < n {
			next = r.start(i + 1)
		} else if again {
			r.ahead = r.start(0)
		}
		err := fn(i, got.b)
		r.recycle(got.b)
		if err != nil {
			if next != nil {
				r.recycle((<-next).b) // let the read finish before returning
			}
			return err
		}
	}
	return nil
}

// close waits for a read still under way and hands its block back.
func (r *reader) close() {
	if r.ahead != nil {
		r.recycle((<-r.ahead).b)
		r.ahead = nil
	}
}

// memSource is a matrix in memory cut into blocks.
type memSource struct {
	x      *sparse.CSR
	labels [][]string
	per    int
}

// FromCSR returns x (and its documents' labels, nil for none) as a Source
// of blocks of rowsPerBlock rows (the last one may be shorter). The blocks
// share x's arrays. x is checked once, here (sparse.CSR.Validate).
func FromCSR(x *sparse.CSR, labels [][]string, rowsPerBlock int) (Source, error) {
	if rowsPerBlock < 1 {
		return nil, fmt.Errorf("blocks: %d rows per block, want at least 1", rowsPerBlock)
	}
	if labels != nil && len(labels) != x.Rows {
		return nil, fmt.Errorf("blocks: %d label lists for %d documents", len(labels), x.Rows)
	}
	if err := x.Validate(); err != nil {
		return nil, fmt.Errorf("blocks: %w", err)
	}
	return &memSource{x: x, labels: labels, per: rowsPerBlock}, nil
}

func (s *memSource) Dims() (int, int) { return s.x.Rows, s.x.Cols }

func (s *memSource) NumBlocks() int { return (s.x.Rows + s.per - 1) / s.per }

func (s *memSource) Span(i int) (int, int) {
	lo := i * s.per
	return lo, min(s.x.Rows, lo+s.per) - lo
}

func (s *memSource) Read(i int) (*Block, error) {
	if i < 0 || i >= s.NumBlocks() {
		return nil, fmt.Errorf("blocks: no block %d (have %d)", i, s.NumBlocks())
	}
	lo, r := s.Span(i)
	x := s.x
	p0 := x.Indptr[lo]
	ip := make([]int, r+1)
	for k := range ip {
		ip[k] = x.Indptr[lo+k] - p0
	}
	p1 := x.Indptr[lo+r]
	b := &Block{First: lo, X: &sparse.CSR{Rows: r, Cols: x.Cols, Indptr: ip, Indices: x.Indices[p0:p1:p1], Data: x.Data[p0:p1:p1]}}
	if s.labels != nil {
		b.Labels = s.labels[lo : lo+r : lo+r]
	}
	return b, nil
}

// MemStore is a Store in memory, for tests and small corpora.
type MemStore struct {
	mu sync.Mutex
	m  map[memKey][]float64
}

type memKey struct {
	name string
	i    int
}

// NewMemStore returns an empty MemStore.
func NewMemStore() *MemStore { return &MemStore{m: map[memKey][]float64{}} }

// Save keeps a copy of v.
func (s *MemStore) Save(name string, i int, v []float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.m[memKey{name, i}] = append([]float64(nil), v...)
	return nil
}

// Load copies the saved vector into dst.
func (s *MemStore) Load(name string, i int, dst []float64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.m[memKey{name, i}]
	if !ok {
		return fmt.Errorf("blocks: state %s of block %d: %w", name, i, fs.ErrNotExist)
	}
	if len(v) != len(dst) {
		return fmt.Errorf("blocks: state %s of block %d has %d values, want %d", name, i, len(v), len(dst))
	}
	copy(dst, v)
	return nil
}

// IsNotExist reports whether err says that a state was never saved.
func IsNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Floats is a []float64 that encoding/gob writes as its raw little-endian
// bytes: trainers' states hold k × terms arrays, which gob's own float
// encoding (a reversed variable-length form, value by value) makes several
// times slower to save at every pass.
type Floats []float64

// GobEncode returns the values as little-endian IEEE 754 bytes.
func (f Floats) GobEncode() ([]byte, error) {
	b := make([]byte, 8*len(f))
	for i, v := range f {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b, nil
}

// GobDecode reads what GobEncode wrote; no values decode as nil.
func (f *Floats) GobDecode(b []byte) error {
	if len(b) == 0 {
		*f = nil
		return nil
	}
	if len(b)%8 != 0 {
		return fmt.Errorf("blocks: %d bytes are not a whole number of float64 values", len(b))
	}
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	*f = v
	return nil
}

// MarshalState encodes a trainer's state v with encoding/gob, except the
// large arrays it holds: those that arrays points into v are written raw
// after the gob stream, into one buffer of the right size, and set back.
// Encoding arrays of k × terms values inside gob costs several copies of
// each (gob's buffer grows by doubling), which at every pass of a fit adds
// up. UnmarshalState reads it back.
func MarshalState(v any, arrays []*Floats) ([]byte, error) {
	lens := make([]int, len(arrays))
	saved := make([]Floats, len(arrays))
	size := 0
	for i, a := range arrays {
		lens[i], saved[i] = len(*a), *a
		size += 8 * len(*a)
		*a = nil
	}
	defer func() {
		for i, a := range arrays {
			*a = saved[i]
		}
	}()
	var buf bytes.Buffer
	enc := gob.NewEncoder(&buf)
	if err := enc.Encode(lens); err != nil {
		return nil, fmt.Errorf("blocks: encoding a state: %w", err)
	}
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("blocks: encoding a state: %w", err)
	}
	out := make([]byte, buf.Len(), buf.Len()+size)
	copy(out, buf.Bytes())
	for _, a := range saved {
		out = appendFloats(out, a, rawFloats)
	}
	return out, nil
}

// rawFloats says whether the arrays of a state are copied as they lie in
// memory (native.LittleEndian64: the encoding's layout) rather than value
// by value; the tests turn it off to run the other path.
var rawFloats = native.LittleEndian64

// appendFloats appends a's values to out, little-endian, a whole array at
// a time when raw (the machine's layout is the encoding's).
func appendFloats(out []byte, a Floats, raw bool) []byte {
	if raw {
		return append(out, native.Bytes(a)...)
	}
	for _, x := range a {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
	}
	return out
}

// readFloats fills v from b (8 bytes a value, little-endian), a whole
// array at a time when raw.
func readFloats(v Floats, b []byte, raw bool) {
	if raw {
		copy(native.Bytes(v), b)
		return
	}
	for q := range v {
		v[q] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*q:]))
	}
}

// UnmarshalState decodes what MarshalState wrote into v; arrays is called
// once v is decoded and must return the same arrays, in the same order, as
// the encoding side gave (which may depend on v's contents).
func UnmarshalState(b []byte, v any, arrays func() []*Floats) error {
	r := bytes.NewReader(b)
	dec := gob.NewDecoder(r)
	var lens []int
	if err := dec.Decode(&lens); err != nil {
		return fmt.Errorf("blocks: decoding a state: %w", err)
	}
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("blocks: decoding a state: %w", err)
	}
	as := arrays()
	if len(as) != len(lens) {
		return fmt.Errorf("blocks: decoding a state: %d arrays, the encoding has %d", len(as), len(lens))
	}
	rest := b[len(b)-r.Len():]
	for i, a := range as {
		n := lens[i]
		if n < 0 || 8*n > len(rest) {
			return fmt.Errorf("blocks: decoding a state: array %d of %d values, %d bytes left", i, n, len(rest))
		}
		if n == 0 {
			*a = nil
			continue
		}
		v := make(Floats, n)
		readFloats(v, rest[:8*n], rawFloats)
		*a, rest = v, rest[8*n:]
	}
	if len(rest) != 0 {
		return fmt.Errorf("blocks: decoding a state: %d bytes after the arrays", len(rest))
	}
	return nil
}
