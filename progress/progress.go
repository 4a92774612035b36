package progress

import "time"

// Step is the state of a fit after one unit of its work.
type Step struct {
	// Iter counts the units done in the current run, from 1: iterations
	// (NMF family, CorEx), passes over the corpus (LDA), factorizations
	// (theme models, one per theme).
	Iter int
	// Total bounds Iter: the configuration's MaxIter, or the number of
	// factorizations; 0 when unknown.
	Total int
	// Run is the current run, from 0, of Runs: a restart of CorEx. Fits
	// with a single run report Run 0 of 1.
	Run, Runs int
	// Objective is what the fit watches after the step: the objective
	// minimised by the NMF family (lower is better), CorEx's total
	// correlation in nats (higher is better), LDA's training perplexity
	// (NaN after a pass where it is not evaluated), NaN where there is
	// none (theme models).
	Objective float64
	// Inner is the mean number of inner iterations per document in the
	// step where a fit has them (LDA's E-step), else 0.
	Inner float64
	// Elapsed is the time since the run began.
	Elapsed time.Duration
}

// Func receives a fit's steps, after each step, one call at a time: on
// the goroutine that called Fit, or, for fits whose parts run in parallel
// (theme models), on the worker that finished the step. It must return
// quickly; to stop the fit, cancel the fit's context: every fit then
// returns the model its last complete step left, together with the
// context's error (only the error when it had not reached a first state).
type Func func(Step)
