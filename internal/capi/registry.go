package capi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// Registry holds the objects a caller refers to by handle: jobs, models
// and results. Its methods are safe for concurrent use. Handles start at
// 1 and are never reused; 0 is no object.
type Registry struct {
	mu   sync.Mutex
	next int64
	objs map[int64]any
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{objs: map[int64]any{}} }

func (r *Registry) put(v any) int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	r.objs[r.next] = v
	return r.next
}

func (r *Registry) get(h int64) (any, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	v, ok := r.objs[h]
	if !ok {
		return nil, runtimeErr("no object with handle %d (released, or from another process)", h)
	}
	return v, nil
}

// Release forgets the object of handle h; a running job is cancelled
// first. Releasing an unknown handle does nothing.
func (r *Registry) Release(h int64) {
	r.mu.Lock()
	v := r.objs[h]
	delete(r.objs, h)
	r.mu.Unlock()
	if j, ok := v.(*job); ok {
		j.cancel()
	}
}

// Len returns the number of objects held (for tests of leaks).
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.objs)
}

// Input is what an operation takes besides its JSON request: a sparse
// matrix, dense matrices and bytes, all owned by Go (cmd/libsemitopic
// copies the caller's arrays into them).
type Input struct {
	// X is a documents × terms matrix, or nil.
	X *sparse.CSR
	// Dense holds named dense matrices (the drop-ins' factors and masks).
	Dense map[string]*mat.Dense
	// Bytes is a byte string (a model file's contents), or nil.
	Bytes []byte
}

// Event is one progress step of a job, as the caller receives it.
type Event struct {
	Iter  int `json:"iter"`
	Total int `json:"total,omitempty"`
	Run   int `json:"run,omitempty"`
	Runs  int `json:"runs,omitempty"`
	// Objective is the fit's objective after the step, nil where the fit
	// did not compute it (LDA's perplexity between evaluations): JSON has
	// no NaN, and one NaN made the whole list of events unencodable.
	Objective *float64 `json:"objective"`
	Seconds   float64  `json:"seconds"`
}

// job is an operation running on its own goroutine.
type job struct {
	cancel context.CancelFunc
	done   chan struct{}

	mu     sync.Mutex
	events []Event
	result any
	err    error
	taken  bool
}

func (j *job) report(s progress.Step) {
	j.mu.Lock()
	e := Event{Iter: s.Iter, Total: s.Total, Run: s.Run, Runs: s.Runs, Seconds: s.Elapsed.Seconds()}
	if !math.IsNaN(s.Objective) && !math.IsInf(s.Objective, 0) {
		obj := s.Objective
		e.Objective = &obj
	}
	j.events = append(j.events, e)
	j.mu.Unlock()
}

// opFunc runs one operation: target is the object of the handle the
// caller named (nil for none), report receives its progress.
type opFunc func(ctx context.Context, req json.RawMessage, target any, in Input, report progress.Func) (any, error)

// Start starts the operation op with the JSON request req on the object
// of handle target (0 for none) and returns the job's handle at once.
// An unknown operation or handle is an error before anything runs.
func (r *Registry) Start(op string, req []byte, target int64, in Input) (int64, error) {
	f, ok := opNamed(op)
	if !ok {
		return 0, runtimeErr("unknown operation %q", op)
	}
	var t any
	if target != 0 {
		var err error
		if t, err = r.get(target); err != nil {
			return 0, err
		}
	}
	if len(req) == 0 {
		req = []byte("{}")
	}
	ctx, cancel := context.WithCancel(context.Background())
	j := &job{cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(j.done)
		defer cancel()
		res, err := run(ctx, f, req, t, in, j.report)
		j.mu.Lock()
		j.result, j.err = res, err
		j.mu.Unlock()
	}()
	return r.put(j), nil
}

// run calls f, turning a panic into an error: a bug must not take the
// caller's process down.
func run(ctx context.Context, f opFunc, req json.RawMessage, t any, in Input, report progress.Func) (res any, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, runtimeErr("internal error: %v", p)
		}
	}()
	return f(ctx, req, t, in, report)
}

// Wait waits up to timeout for the job of handle h and returns the
// progress events since the last call. While the job runs, the code is
// Pending. When it is done, the result is registered and its handle
// returned (once: later calls return a Runtime error), or its error.
func (r *Registry) Wait(h int64, timeout time.Duration) (result int64, events []Event, err error) {
	v, err := r.get(h)
	if err != nil {
		return 0, nil, err
	}
	j, ok := v.(*job)
	if !ok {
		return 0, nil, runtimeErr("handle %d is not a job", h)
	}
	var done bool
	if timeout <= 0 {
		select {
		case <-j.done:
			done = true
		default:
		}
	} else {
		t := time.NewTimer(timeout)
		select {
		case <-j.done:
			done = true
		case <-t.C:
		}
		t.Stop()
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	events, j.events = j.events, nil
	if !done {
		return 0, events, &Error{Code: Pending, Err: fmt.Errorf("job %d is running", h)}
	}
	if j.taken {
		return 0, events, runtimeErr("the result of job %d was already taken", h)
	}
	j.taken = true
	if j.err != nil {
		return 0, events, j.err
	}
	return r.put(j.result), events, nil
}

// Cancel asks the job of handle h to stop; Wait then returns its error
// (Canceled) or, when it had already ended, its result.
func (r *Registry) Cancel(h int64) error {
	v, err := r.get(h)
	if err != nil {
		return err
	}
	j, ok := v.(*job)
	if !ok {
		return runtimeErr("handle %d is not a job", h)
	}
	j.cancel()
	return nil
}
