package model

import (
	"context"
	"fmt"
	"math"
	"sync"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
)

// RaceZ is how many standard errors of their difference a candidate must
// be behind its kind's leader, beyond the rule's tolerance, to stop being
// scored after a fold (see Search.Candidates and Candidate.Stopped).
const RaceZ = 3.0

// racer scores the candidate settings of an automatic configuration on
// the folds, a round per fold: every setting on the first fold, then on
// each next fold the settings that can still be chosen. After each round
// but the last, a candidate (a setting with one readout) that is so far
// behind the best of its kind, over the folds scored so far, that it
// cannot come within the rule's tolerance of it is stopped (racing; Maron
// and Moore, "Hoeffding races", NIPS 1993), and a setting none of whose
// readouts is left is not fitted again: a candidate too close to stop on
// one fold's documents is often clearly behind on two. The fits of a
// round run at the same time, half as many as there are cores (see
// concurrentFits); results go to fixed slots, so they do not depend on
// the order in which the fits end.
type racer struct {
	x        *sparse.CSR
	vocab    []string
	sup      Supervision
	idx      [][]int
	cv       []cvFold
	readouts []string
	idf      []float64
	duals    []*svmDuals
	// keep asks for the terms+topics readouts' duals on each fold
	// (foldAccuracies), from which the kept model's readout starts.
	keep   bool
	report progress.Func
}

// raceResult is one fold fit of a setting: each scored readout's accuracy
// (NaN where not scored) and predictions (nil where not scored; see
// foldAccuracies), the fold model's topics and how its fit ended.
type raceResult struct {
	acc    []float64
	pred   [][]int
	topics int
	status progress.Status
	done   bool
	// duals are the terms+topics readout's, when kept (racer.keep).
	duals *svmDuals
}

// race scores settings (in the order given, each with every readout of
// r) and appends them to s.Candidates, counting the fits in s.Fits and
// s.AtLimit.
func (r *racer) race(ctx context.Context, s *Search, settings []Options) error {
	nf, nr := len(r.cv), len(r.readouts)
	res := make([][]raceResult, len(settings))
	alive := make([][]bool, len(settings))
	for i := range settings {
		res[i] = make([]raceResult, nf)
		alive[i] = make([]bool, nr)
		for q := range alive[i] {
			alive[i][q] = true
		}
	}
	stopped := make([][]string, len(settings))
	for i := range stopped {
		stopped[i] = make([]string, nr)
	}
	for f := range nf {
		if f > 0 {
			r.stop(settings, res, alive, stopped, f)
		}
		if err := r.round(ctx, settings, []int{f}, alive, res); err != nil {
			return err
		}
	}
	for i, c := range settings {
		topics := 0
		for f := range nf {
			if res[i][f].done {
				s.Fits++
				if res[i][f].status == progress.IterationLimit {
					s.AtLimit++
				}
				topics = max(topics, res[i][f].topics)
			}
		}
		for q, ro := range r.readouts {
			var accs []float64
			var duals []*svmDuals
			pred := make([][]int, nf)
			for f := range nf {
				if a := res[i][f]; a.done && !math.IsNaN(a.acc[q]) {
					accs = append(accs, a.acc[q])
					pred[f] = a.pred[q]
					if ro == ReadoutTermsTopics && a.duals != nil {
						duals = append(duals, a.duals)
					}
				}
			}
			if stopped[i][q] != "" {
				duals = nil // it cannot be kept
			}
			cr := c
			cr.Readout = ro
			s.Candidates = append(s.Candidates, Candidate{Options: cr, Topics: topics, Estimate: newEstimate(accs), Stopped: stopped[i][q], pred: pred, duals: duals})
		}
	}
	return nil
}

// round fits, for each fold of folds, every setting with a readout still
// alive, and scores those readouts, the fits running at the same time.
func (r *racer) round(ctx context.Context, settings []Options, folds []int, alive [][]bool, res [][]raceResult) error {
	type job struct{ setting, fold int }
	var jobs []job
	for _, f := range folds {
		for i := range settings {
			for _, a := range alive[i] {
				if a {
					jobs = append(jobs, job{i, f})
					break
				}
			}
		}
	}
	var mu sync.Mutex
	report := func(st progress.Step) {
		mu.Lock()
		defer mu.Unlock()
		r.report(st)
	}
	errs := make([]error, len(jobs))
	err := parallel.ForDynamic(ctx, len(jobs), 1, concurrentFits(), func(_, j, _ int) error {
		jb := jobs[j]
		c := settings[jb.setting]
		var ros []string
		for q, a := range alive[jb.setting] {
			if a {
				ros = append(ros, r.readouts[q])
			}
		}
		accs, preds, k, status, duals, err := foldAccuracies(ctx, r.x, r.vocab, r.sup, r.idx, r.cv[jb.fold], c, ros, r.idf, r.duals, r.keep, report)
		if err != nil {
			errs[j] = fmt.Errorf("model: automatic configuration, %s, fold %d: %w", describeSettings(c), jb.fold+1, err)
			return errs[j]
		}
		out := raceResult{acc: make([]float64, len(r.readouts)), pred: make([][]int, len(r.readouts)), topics: k, status: status, done: true, duals: duals}
		n := 0
		for q, a := range alive[jb.setting] {
			out.acc[q] = math.NaN()
			if a {
				out.acc[q], out.pred[q] = accs[n], preds[n]
				n++
			}
		}
		res[jb.setting][jb.fold] = out
		return nil
	})
	// The first error in the order of the jobs, so that it does not
	// depend on which fit failed first.
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return err
}

// concurrentFits is how many fits of a round run at the same time: half
// the cores, so that each fit's own parallel loops keep two of them. On
// two cores that is one: there, two fits at once measured no faster (the
// Reuters training set, fit --kind tsnmf, and Brown at 3 and 10% of the
// labels, side by side on the development machine), since each fit's
// loops already use both cores.
func concurrentFits() int { return max(1, parallel.Workers()/2) }

// stop marks, after the rounds of the first done folds, the candidates
// that can no longer be chosen: those whose accuracy over those folds
// (their held-out documents pooled) is more than the rule's tolerance plus
// RaceZ standard errors of the difference below the best of their kind
// (the errors of shares measured on those documents). The rule chooses
// among the candidates within its tolerance of the best, so a candidate
// stopped would only have been chosen, or been the best, had the next
// folds turned that difference round. Candidates stopped before are left
// as they are.
func (r *racer) stop(settings []Options, res [][]raceResult, alive [][]bool, stopped [][]string, done int) {
	n, all := 0.0, 0
	for f, fold := range r.cv {
		if f < done {
			n += float64(len(fold.test))
		}
		all += len(fold.test)
	}
	// se is the standard error, in points, of a share p measured on m
	// documents, kept away from 0 at p = 0 or 1.
	se := func(p, m float64) float64 {
		p /= 100
		return 100 * math.Sqrt((p*(1-p)+1/(4*m))/m)
	}
	// pooled is a candidate's accuracy over the first done folds.
	pooled := func(i, q int) float64 {
		hits := 0.0
		for f := range done {
			hits += res[i][f].acc[q] * float64(len(r.cv[f].test))
		}
		return hits / n
	}
	lead := map[string]float64{}
	for i, c := range settings {
		for q := range r.readouts {
			if !alive[i][q] {
				continue
			}
			a := pooled(i, q)
			if v, ok := lead[c.Kind]; !ok || a > v {
				lead[c.Kind] = a
			}
		}
	}
	where := "fold 1"
	if done > 1 {
		where = fmt.Sprintf("folds 1–%d", done)
	}
	for i, c := range settings {
		best := lead[c.Kind]
		// The rule's tolerance at the end: at least MinGain, and the
		// standard error of the best's mean over every fold.
		tol := max(MinGain, se(best, float64(all)))
		for q := range r.readouts {
			if !alive[i][q] {
				continue
			}
			a := pooled(i, q)
			margin := tol + RaceZ*math.Hypot(se(best, n), se(a, n))
			if best-a > margin {
				alive[i][q] = false
				stopped[i][q] = fmt.Sprintf("stopped after %s of %d: %.1f points behind the best of its kind there, more than the rule's tolerance (%.1f) plus %g standard errors of the difference (%.1f points in all)",
					where, len(r.cv), best-a, tol, RaceZ, margin)
			}
		}
	}
}
