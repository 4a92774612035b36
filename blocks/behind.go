package blocks

import (
	"fmt"
	"slices"
	"sync"
)

// behindDepth bounds the states a Run's trainer may have waiting to be
// written besides the one being written: a Save beyond them waits, so
// that memory holds at most behindDepth+1 copies of block states.
const behindDepth = 2

// behind is the Store that Run hands its trainer. Save copies the vector
// and returns; one goroutine writes the copies into the Run's store, and
// the checkpoints between the passes into its Checkpointer, in the order
// they were asked for, so that writing overlaps computing on the next
// block and the next pass. Load serves a vector still waiting to be
// written from its copy; after loading block i's state it reads block
// i+1's in the background (as long as the same number of values per
// document), which the next Load of it takes, so that reading overlaps
// computing too.
//
// The order is what keeps a checkpoint consistent with the store: a
// checkpoint is written after every state of its pass, and a state of
// the next pass after the checkpoint. A checkpoint still waiting when the
// next one comes, with no state queued between them, is replaced by it:
// only the newest matters, and a pass never waits for a checkpoint. After
// the first failed write nothing more is written — neither a checkpoint
// after a state that failed nor a state after a checkpoint that failed —
// and every later Save and flush returns that failure.
type behind struct {
	st  Store
	cp  Checkpointer
	src Source // the blocks' sizes, for reading ahead
	// done is closed when the writer has stopped.
	done chan struct{}

	mu      sync.Mutex
	changed *sync.Cond // the queue, states or err changed
	queue   []behindOp // the writes waiting, oldest first
	states  int        // states queued or being written
	closed  bool
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

// behindOp is one queued write: a state (key, seq, v) or a checkpoint
// (state).
type behindOp struct {
	key   memKey
	seq   uint64
	v     []float64
	state []byte
}

type behindVec struct {
	seq uint64
	v   []float64
}

var _ Store = (*behind)(nil)

// newBehind starts the writer of st (and cp, which may be nil); src,
// which may be nil, gives the blocks' sizes for reading ahead.
func newBehind(st Store, cp Checkpointer, src Source) *behind {
	b := &behind{st: st, cp: cp, src: src, done: make(chan struct{}), pending: map[memKey]behindVec{}}
	b.changed = sync.NewCond(&b.mu)
	go b.write()
	return b
}

// write performs the queued writes in order until close.
func (b *behind) write() {
	defer close(b.done)
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		for len(b.queue) == 0 && !b.closed {
			b.changed.Wait()
		}
		if len(b.queue) == 0 {
			return
		}
		o := b.queue[0]
		// Drop the queue's reference: queue[1:] keeps the array (and,
		// when it is empty, the element itself) until the next append,
		// which for a checkpoint is the next pass's — two checkpoints
		// would be live then.
		b.queue[0] = behindOp{}
		b.queue = b.queue[1:]
		failed := b.err != nil
		b.mu.Unlock()
		var err error
		switch {
		case failed:
		case o.state != nil:
			err = b.cp.SaveCheckpoint(o.state)
		default:
			if err = b.st.Save(o.key.name, o.key.i, o.v); err != nil {
				err = fmt.Errorf("blocks: writing state %s of block %d: %w", o.key.name, o.key.i, err)
			}
		}
		b.mu.Lock()
		if err != nil && b.err == nil {
			b.err = err
		}
		if o.state == nil {
			b.states--
			if err == nil && !failed && b.pending[o.key].seq == o.seq {
				delete(b.pending, o.key)
			}
		}
		b.changed.Broadcast()
	}
}

// Save queues a copy of v as state name of block i, waiting while
// behindDepth states wait. It returns the first failure of an earlier
// write, if any.
func (b *behind) Save(name string, i int, v []float64) error {
	key := memKey{name, i}
	c := slices.Clone(v)
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.states > behindDepth && b.err == nil {
		b.changed.Wait()
	}
	if b.err != nil {
		return b.err
	}
	b.seq++
	b.pending[key] = behindVec{b.seq, c}
	if b.ahead != nil && b.ahead.key == key {
		b.ahead.stale = true
	}
	b.queue = append(b.queue, behindOp{key: key, seq: b.seq, v: c})
	b.states++
	b.changed.Broadcast()
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
// far, in place of a checkpoint still waiting with no state after it. It
// returns the first failure of an earlier write, if any.
func (b *behind) checkpoint(state []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return b.err
	}
	if n := len(b.queue); n > 0 && b.queue[n-1].state != nil {
		b.queue[n-1].state = state
	} else {
		b.queue = append(b.queue, behindOp{state: state})
	}
	b.changed.Broadcast()
	return nil
}

// flush waits until every state saved so far is written (not the
// checkpoints) and returns the first failed write, if any.
func (b *behind) flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.states > 0 && b.err == nil {
		b.changed.Wait()
	}
	return b.err
}

// close writes what is queued, stops the writer, waits for a read ahead
// and returns the first failed write, if any. The behind may not be used
// afterwards.
func (b *behind) close() error {
	b.mu.Lock()
	b.closed = true
	b.changed.Broadcast()
	b.mu.Unlock()
	<-b.done
	b.reads.Wait()
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}
