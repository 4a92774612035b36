package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/semitopic/semitopic/progress"
)

// The commands' progress on standard error. It is presentation, so it
// lives here rather than in a library package: the library reports
// progress through callbacks (progress.Func for fits, Vectorizer.Progress,
// vectorize.PassProgress), and a terminal bar would pull a terminal
// library into every program that imports an estimator. Every bar of
// every command is made by newProgressBar; a step long enough to be
// watched in a log (vectorize --shards, fit --out-of-core) writes lines
// as well or instead (passProgress, etaReporter).

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// progressBar shows how far a step has got on w: on a terminal a bar, or a
// spinner with the count while the total is unknown, that clears itself
// when done; elsewhere nothing. It is safe for concurrent use.
type progressBar struct {
	mu    sync.Mutex
	w     io.Writer
	desc  string
	total int // ≤ 0 while unknown
	term  bool
	bar   *progressbar.ProgressBar // from the first set, on a terminal
}

// newProgressBar starts showing the progress of the step desc of total
// units (documents, iterations; -1 while unknown) on w. Every command's
// bar is made here.
func newProgressBar(w io.Writer, desc string, total int) *progressBar {
	return &progressBar{w: w, desc: desc, total: total, term: isTerminal(w)}
}

// drawn reports whether the bar is drawn: whether w is a terminal.
func (p *progressBar) drawn() bool { return p.term }

// setTotal records the total once known, before the bar is first drawn.
func (p *progressBar) setTotal(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		p.total = n
	}
}

// describe replaces the bar's description.
func (p *progressBar) describe(desc string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.desc = desc
	if p.bar != nil {
		p.bar.Describe(desc)
	}
}

// set moves the bar to done.
func (p *progressBar) set(done int) {
	if !p.term {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar == nil {
		total := p.total
		if total <= 0 {
			total = -1 // a spinner with the count
		}
		p.bar = progressbar.NewOptions(total,
			progressbar.OptionSetWriter(p.w),
			progressbar.OptionSetDescription(p.desc),
			progressbar.OptionShowCount(),
			progressbar.OptionSetWidth(30),
			progressbar.OptionThrottle(100*time.Millisecond),
			progressbar.OptionClearOnFinish(),
		)
	}
	_ = p.bar.Set(done)
}

// finish removes the bar.
func (p *progressBar) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bar != nil {
		_ = p.bar.Finish()
	}
}

// fitBar shows the progress of a fit in memory on w as a bar, on a
// terminal only: the iteration out of maxIter (0: the default 200), the
// objective, and with auto which fit of the automatic configuration it
// is. It returns the fit's progress function and the function that
// removes the bar once the fit is over.
func fitBar(w io.Writer, maxIter int, auto bool) (progress.Func, func()) {
	if maxIter == 0 {
		maxIter = 200
	}
	bar := newProgressBar(w, "fitting", maxIter)
	fitNo, last := 1, 0
	report := func(st progress.Step) {
		iter, obj := st.Iter, st.Objective
		if !bar.drawn() {
			return
		}
		if iter < last {
			fitNo++ // the automatic configuration's next fit
		}
		last = iter
		what := "fitting"
		if auto {
			what = fmt.Sprintf("fit %d (cross-validation, then the final fit)", fitNo)
		}
		if !math.IsNaN(obj) {
			what += fmt.Sprintf(", objective %.6g", obj)
		}
		bar.describe(what)
		bar.set(min(iter, maxIter))
	}
	return report, bar.finish
}

// progressEvery is how often a pass of vectorize --shards reports its
// progress when stderr is not a terminal.
const progressEvery = 10 * time.Second

// passProgress reports the passes of vectorize --shards over the corpus
// on stderr (it is the command's vectorize.PassProgress): the documents
// read, and an estimate of the time left once their total is known. On a
// terminal it is a bar; otherwise a line every progressEvery. Every pass
// that completes ends with a line saying how long it took.
type passProgress struct {
	w     io.Writer
	label string
	total int // -1 until known
	done  int
	start time.Time
	last  time.Time
	bar   *progressBar
}

// StartPass starts reporting a pass; total is -1 when unknown.
func (p *passProgress) StartPass(label string, total int) {
	now := time.Now()
	p.label, p.total, p.done, p.start, p.last = label, total, 0, now, now
	p.bar = newProgressBar(p.w, label, total)
}

// Read records that read of total documents have been read.
func (p *passProgress) Read(read, total int) {
	p.done, p.total = read, total
	if read%64 != 1 {
		return
	}
	if p.bar.drawn() {
		p.bar.setTotal(total)
		p.bar.set(read)
		return
	}
	now := time.Now()
	if now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "vectorize: %s: %s\n", p.label, p.status(now))
}

// status describes the progress at now.
func (p *passProgress) status(now time.Time) string {
	elapsed := now.Sub(p.start)
	if p.total <= 0 || p.done == 0 {
		return fmt.Sprintf("%d documents in %v", p.done, elapsed.Round(time.Second))
	}
	left := time.Duration(float64(elapsed) * float64(p.total-p.done) / float64(p.done))
	return fmt.Sprintf("%d of %d documents (%.0f%%), about %v left", p.done, p.total, 100*float64(p.done)/float64(p.total), left.Round(time.Second))
}

// EndPass ends the report of a pass that read documents and returned err.
func (p *passProgress) EndPass(read int, err error) {
	p.bar.finish()
	if err == nil {
		fmt.Fprintf(p.w, "vectorize: %s: %d documents in %v\n", p.label, read, time.Since(p.start).Round(time.Millisecond))
	}
}

// etaReporter prints the progress of a fit out of core to w as lines, on
// a terminal too (a log of the fit's pace, whose lines are too long for a
// bar's one row), at most every two seconds (and at the last iteration):
// the iteration (and the run of several), the objective when the step has
// one (LDA evaluates its perplexity only every so many passes; a NaN is
// left out, never printed), and, from the second step on, the time per
// iteration and an estimate of the time left at that pace (an upper bound
// when the tolerance stops the fit early). The pace is measured over the
// steps this process has run, so that a resumed fit, whose iterations
// count on from the checkpoint's, is timed by its own; until there are two
// it says it is estimating. now is the clock.
func etaReporter(w io.Writer, maxIter int, now func() time.Time) progress.Func {
	var first, last time.Time
	steps := 0
	return func(s progress.Step) {
		t := now()
		steps++
		total := s.Total
		if total == 0 {
			total = maxIter
		}
		if steps == 1 {
			first = t
		} else if t.Sub(last) < 2*time.Second && s.Iter != total {
			return
		}
		last = t
		line := fmt.Sprintf("iteration %d/%d", s.Iter, total)
		left := total - s.Iter
		if total <= 0 { // unknown: no bound to estimate against
			line, left = fmt.Sprintf("iteration %d", s.Iter), 0
		}
		if s.Runs > 1 {
			line = fmt.Sprintf("run %d/%d, ", s.Run+1, s.Runs) + line
			left += (s.Runs - 1 - s.Run) * total
		}
		if !math.IsNaN(s.Objective) && !math.IsInf(s.Objective, 0) {
			line += fmt.Sprintf(", objective %.6g", s.Objective)
		}
		switch {
		case steps < 2 && left > 0:
			line += ", estimating the time left…"
		case steps >= 2:
			per := t.Sub(first) / time.Duration(steps-1)
			line += ", " + shortDuration(per) + " per iteration"
			if left > 0 {
				line += ", at most " + shortDuration(per*time.Duration(left)) + " left"
			}
		}
		fmt.Fprintln(w, line)
	}
}

// shortDuration writes d for a progress line: milliseconds below a
// second, seconds with two decimals below a minute, else rounded to the
// second.
func shortDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return "under 1ms"
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.2fs", d.Seconds())
	}
	return d.Round(time.Second).String()
}
