package blocks

import (
	"fmt"
	"slices"
	"sync"
)

// behindDepth bounds the writes a Run's trainer may have waiting besides
// the one being written: a Save beyond them waits, so that memory holds at
// most behindDepth+1 copies of block states (a checkpoint counts as one).
const behindDepth = 2

// behind is the Store that Run hands its trainer. Save copies the vector
// and returns; one goroutine writes the copies into the Run's store, and
// the checkpoints between the passes into its Checkpointer, in the order
// they were asked for, so that writing overlaps computing on the next
// block and the next pass. Load serves a vector still waiting to be
// written from its copy.
//
// The order is what keeps a checkpoint consistent with the store: a
// checkpoint is written after every state of its pass, and a state of
// the next pass after the checkpoint. After the first failed write nothing
// more is written — neither a checkpoint after a state that failed nor a
// state after a checkpoint that failed — and every later Save and flush
// returns that failure.
type behind struct {
	st  Store
	cp  Checkpointer
	src Source // the blocks' sizes, for reading ahead
	ops chan behindOp
	// done is closed when the writer has stopped.
	done chan struct{}

	mu      sync.Mutex
	pending map[memKey]behindVec // the newest copy of each state not yet written
	seq     uint64
	err     error  // the first failed write
	ahead   *ahead // the state being read ahead, or nil
	reads   sync.WaitGroup
}

// ahead is a state read in the background: v and err are set when done
// is closed. A Save of its key makes it stale.
type ahead struct {
	key   memKey
	done  chan struct{}
	v     []float64
	err   error
	stale bool
}

// behindOp is one queued write: a state (key, seq, v), a checkpoint
// (state) or a barrier (closed once everything queued before it is
// written or dropped).
type behindOp struct {
	key     memKey
	seq     uint64
	v       []float64
	state   []byte
	barrier chan struct{}
}

type behindVec struct {
	seq uint64
	v   []float64
}

var _ Store = (*behind)(nil)

// newBehind starts the writer of st (and cp, which may be nil); src,
// which may be nil, gives the blocks' sizes for reading ahead.
func newBehind(st Store, cp Checkpointer, src Source) *behind {
	b := &behind{st: st, cp: cp, src: src, ops: make(chan behindOp, behindDepth), done: make(chan struct{}), pending: map[memKey]behindVec{}}
	go b.write()
	return b
}

// write performs the queued writes in order until close.
func (b *behind) write() {
	defer close(b.done)
	for o := range b.ops {
		if o.barrier != nil {
			close(o.barrier)
			continue
		}
		if b.failed() != nil {
			continue
		}
		var err error
		if o.state != nil {
			err = b.cp.SaveCheckpoint(o.state)
		} else if err = b.st.Save(o.key.name, o.key.i, o.v); err != nil {
			err = fmt.Errorf("blocks: writing state %s of block %d: %w", o.key.name, o.key.i, err)
		}
		b.mu.Lock()
		if err != nil {
			b.err = err
		} else if o.state == nil && b.pending[o.key].seq == o.seq {
			delete(b.pending, o.key)
		}
		b.mu.Unlock()
	}
}

// failed returns the first failed write, or nil.
func (b *behind) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Save queues a copy of v as state name of block i. It returns the first
// failure of an earlier write, if any.
func (b *behind) Save(name string, i int, v []float64) error {
	if err := b.failed(); err != nil {
		return err
	}
	key := memKey{name, i}
	c := slices.Clone(v)
	b.mu.Lock()
	b.seq++
	seq := b.seq
	b.pending[key] = behindVec{seq, c}
	if b.ahead != nil && b.ahead.key == key {
		b.ahead.stale = true
	}
	b.mu.Unlock()
	b.ops <- behindOp{key: key, seq: seq, v: c}
	return nil
}

// Load reads state name of block i: the copy waiting to be written, the
// state read ahead, or what the store holds; then it reads block i+1's
// ahead.
func (b *behind) Load(name string, i int, dst []float64) error {
	key := memKey{name, i}
	b.mu.Lock()
	p, ok := b.pending[key]
	a := b.ahead
	b.ahead = nil // taken, or not the one asked for
	if a != nil && a.key != key {
		a = nil
	}
	b.mu.Unlock()
	if ok {
		if len(p.v) != len(dst) {
			return fmt.Errorf("blocks: state %s of block %d has %d values, want %d", name, i, len(p.v), len(dst))
		}
		copy(dst, p.v)
		return nil
	}
	if a != nil {
		<-a.done
		b.mu.Lock()
		stale := a.stale
		b.mu.Unlock()
		if stale || a.err != nil || len(a.v) != len(dst) {
			a = nil // read it again: the error, if any, is the store's
		}
	}
	if a != nil {
		copy(dst, a.v)
	} else if err := b.st.Load(name, i, dst); err != nil {
		return err
	}
	b.readAhead(name, i, len(dst))
	return nil
}

// readAhead starts reading state name of block i+1 when block i's has n
// values, as many per document as block i's, and no copy of it is waiting
// to be written.
func (b *behind) readAhead(name string, i, n int) {
	if b.src == nil || i+1 >= b.src.NumBlocks() {
		return
	}
	_, rows := b.src.Span(i)
	_, next := b.src.Span(i + 1)
	if rows < 1 || n%rows != 0 {
		return
	}
	key := memKey{name, i + 1}
	a := &ahead{key: key, done: make(chan struct{})}
	b.mu.Lock()
	if _, ok := b.pending[key]; ok {
		b.mu.Unlock()
		return
	}
	b.ahead = a
	b.mu.Unlock()
	b.reads.Add(1)
	go func() {
		defer b.reads.Done()
		defer close(a.done)
		v := make([]float64, n/rows*next)
		if a.err = b.st.Load(name, i+1, v); a.err == nil {
			a.v = v
		}
	}()
}

// checkpoint queues state as the checkpoint, after every state saved so
// far. It returns the first failure of an earlier write, if any.
func (b *behind) checkpoint(state []byte) error {
	if err := b.failed(); err != nil {
		return err
	}
	b.ops <- behindOp{state: state}
	return nil
}

// flush waits until everything queued so far is written and returns the
// first failed write, if any.
func (b *behind) flush() error {
	ch := make(chan struct{})
	b.ops <- behindOp{barrier: ch}
	<-ch
	return b.failed()
}

// close writes what is queued, stops the writer, waits for a read ahead
// and returns the first failed write, if any. The behind may not be used
// afterwards.
func (b *behind) close() error {
	close(b.ops)
	<-b.done
	b.reads.Wait()
	return b.failed()
}
