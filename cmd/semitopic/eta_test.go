package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/semitopic/semitopic/progress"
)

// The progress of a resumed fit is timed by the steps this process runs,
// not by the iteration numbers it carries on from the checkpoint: it
// says it is estimating until it has two steps, then the pace and the
// time left. A NaN objective (LDA between evaluations) is left out.
func TestETAReporterAfterResume(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	report := etaReporter(&buf, 15, func() time.Time { return clock })
	for iter := 11; iter <= 15; iter++ {
		clock = clock.Add(3 * time.Second)
		obj := 100.0 - float64(iter)
		if iter%2 == 0 {
			obj = math.NaN()
		}
		// Elapsed as a trainer restored from a checkpoint may give it: a
		// few milliseconds for ten iterations.
		report(progress.Step{Iter: iter, Total: 15, Runs: 1, Objective: obj, Elapsed: time.Duration(iter) * time.Millisecond})
	}
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	want := []string{
		"iteration 11/15, objective 89, estimating the time left…",
		"iteration 12/15, 3.00s per iteration, at most 9.00s left",
		"iteration 13/15, objective 87, 3.00s per iteration, at most 6.00s left",
		"iteration 14/15, 3.00s per iteration, at most 3.00s left",
		"iteration 15/15, objective 85, 3.00s per iteration",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress:\n%s\nwant:\n%s", buf.String(), strings.Join(want, "\n"))
	}
	if strings.Contains(buf.String(), "NaN") {
		t.Error("a NaN is printed")
	}
}

// Steps closer than two seconds are not printed, except the last; runs of
// several count the ones left in the estimate.
func TestETAReporterThrottlesAndRuns(t *testing.T) {
	var buf bytes.Buffer
	clock := time.Unix(0, 0)
	report := etaReporter(&buf, 4, func() time.Time { return clock })
	for run := 0; run < 2; run++ {
		for iter := 1; iter <= 4; iter++ {
			clock = clock.Add(time.Second)
			report(progress.Step{Iter: iter, Run: run, Runs: 2, Objective: 1})
		}
	}
	got := buf.String()
	for _, w := range []string{"run 1/2, iteration 1/4, objective 1, estimating", "run 1/2, iteration 3/4, objective 1, 1.00s per iteration, at most 5.00s left",
		"run 2/2, iteration 4/4, objective 1, 1.00s per iteration\n"} {
		if !strings.Contains(got, w) {
			t.Errorf("progress does not say %q:\n%s", w, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 5 {
		t.Errorf("%d lines, want 5 (every other step, and the runs' last):\n%s", n, got)
	}
}
