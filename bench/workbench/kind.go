package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/semitopic/semitopic/workbench"
)

// kindRun is one kind's session on the 20 Newsgroups training set and
// what was measured on it.
type kindRun struct {
	Kind string
	// Open is the time to the first round (vectorizing and fitting);
	// Setup the time from the first of the labels given first to the
	// topics of their refit, Labeled their number (kinds that learn from
	// labels).
	Open, Setup float64
	Labeled     int
	// Script are the scripted edits, Random the random ones, timed.
	Script []sample
	Random []sample
	// Effects are the random edits' checks.
	Effects effects
	// Skipped are edits the workbench refused or whose refit failed.
	Skipped []string
	// Promise is what the page says of the promises (Status.Promise).
	Promise string
	// CPU is the process's CPU time over the kind's session.
	CPU cpuTimes
	// Wall is the wall time of the kind's session.
	Wall float64
}

// sample is one timed edit.
type sample struct {
	Op string
	// Seconds is the time from the request of the edit to the topics of
	// its refit; Refit the round's own figure (from the refit's start,
	// after the pause, to the round shown); Round the round.
	Seconds float64
	Refit   float64
	Round   int
	// Notes are what the round's fit noted (Status.Notes).
	Notes []string `json:",omitempty"`
}

// scriptSeconds are the times of the scripted edits.
func (k *kindRun) scriptSeconds() []float64 {
	var xs []float64
	for _, s := range k.Script {
		xs = append(xs, s.Seconds)
	}
	return xs
}

// runKind opens a session of kind on the training set, gives the labels
// a kind that learns from them starts with, then runs the random edits
// (-effects) and the scripted ones (-timing).
func runKind(ctx context.Context, cfg *config, ds *dataset, kind, dir string) (*kindRun, error) {
	kr := &kindRun{Kind: kind}
	cpu, start := readCPU(), time.Now()
	cfg.logf("%s: opening the session", kind)
	// The session opens as `semitopic workbench` does without labels, with
	// the default kind; a kind that learns from labels is chosen after
	// them (tsnmf and ssnmf cannot fit without supervision).
	open := kind
	if takesLabels(kind) {
		open = workbench.DefaultKind
	}
	s, err := serve(ctx, openConfig(cfg, ds, open, dir))
	if err != nil {
		return nil, err
	}
	defer s.close()
	kr.Open = time.Since(start).Seconds()
	cfg.logf("%s: first round in %.1f s", kind, kr.Open)
	labeled := map[string]bool{}
	if takesLabels(kind) {
		if err := kr.giveLabels(ctx, s, cfg, ds, labeled); err != nil {
			return nil, err
		}
	}
	st, err := s.status(ctx)
	if err != nil {
		return nil, err
	}
	kr.Promise = st.Promise
	if cfg.effects && cfg.edits > 0 {
		if err := kr.randomEdits(ctx, s, cfg, ds, labeled); err != nil {
			return nil, err
		}
	}
	if cfg.timing {
		if err := kr.script(ctx, s, cfg, ds, labeled); err != nil {
			return nil, err
		}
	}
	kr.CPU, kr.Wall = cpu.since(), time.Since(start).Seconds()
	return kr, nil
}

// giveLabels labels a few training documents per class through the API,
// one edit per class as a person labels a selection, and waits for the
// refit.
func (kr *kindRun) giveLabels(ctx context.Context, s *served, cfg *config, ds *dataset, labeled map[string]bool) error {
	pick := ds.sampleLabels(cfg.labelFrac, cfg.seed)
	t0 := time.Now()
	v := 0
	for _, c := range ds.classes {
		var err error
		if v, err = s.edit(ctx, workbench.Edit{Op: workbench.OpLabel, Docs: pick[c], Label: c}); err != nil {
			return fmt.Errorf("labeling %d documents %q: %w", len(pick[c]), c, err)
		}
		for _, id := range pick[c] {
			labeled[id] = true
		}
	}
	// The first label makes the session's kind one that learns from
	// labels (workbench.DefaultLabeledKind); then the person chooses the
	// kind measured.
	st, err := s.state(ctx)
	if err != nil {
		return err
	}
	if st.Kind != kr.Kind {
		if v, err = s.edit(ctx, workbench.Edit{Op: workbench.OpSetKind, Kind: kr.Kind}); err != nil {
			return err
		}
	}
	if _, err := s.wait(ctx, v); err != nil {
		return err
	}
	if _, err := s.topics(ctx, 10); err != nil {
		return err
	}
	kr.Setup, kr.Labeled = time.Since(t0).Seconds(), len(labeled)
	cfg.logf("%s: %d documents labeled, refit in %.1f s", kr.Kind, len(labeled), kr.Setup)
	return nil
}

// errRefused marks an edit the workbench refused: the benchmark records
// it and goes on.
var errRefused = errors.New("refused")

// timed applies e, waits for its refit and reads the topics (n words
// each), as the page does: the time from the request to the topics.
func (kr *kindRun) timed(ctx context.Context, s *served, e workbench.Edit, n int) (sample, topicsAnswer, error) {
	t0 := time.Now()
	v, err := s.edit(ctx, e)
	var ae *apiError
	if errors.As(err, &ae) && ae.Status == 422 {
		kr.Skipped = append(kr.Skipped, fmt.Sprintf("%s refused: %s", e.Op, ae.Message))
		return sample{}, topicsAnswer{}, errRefused
	}
	if err != nil {
		return sample{}, topicsAnswer{}, err
	}
	r, err := s.wait(ctx, v)
	if errors.As(err, &ae) && ae.Status == 422 {
		kr.Skipped = append(kr.Skipped, fmt.Sprintf("%s: the refit failed: %s", e.Op, ae.Message))
		return sample{}, topicsAnswer{}, errRefused
	}
	if err != nil {
		return sample{}, topicsAnswer{}, err
	}
	ts, err := s.topics(ctx, n)
	if err != nil {
		return sample{}, topicsAnswer{}, err
	}
	smp := sample{Op: e.Op, Seconds: time.Since(t0).Seconds(), Refit: r.Seconds, Round: r.Number}
	st, err := s.status(ctx)
	if err != nil {
		return sample{}, topicsAnswer{}, err
	}
	smp.Notes = st.Notes
	return smp, ts, nil
}
