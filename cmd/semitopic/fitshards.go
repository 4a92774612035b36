package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
)

// defaultStateDir is the state folder of an out-of-core fit saved to out:
// beside it, named after it.
func defaultStateDir(out string) string {
	return strings.TrimSuffix(out, filepath.Ext(out)) + ".state"
}

// runFitShards fits a model out of core on the sharded corpus in dir.
func runFitShards(cmd *cobra.Command, o model.Options, dir, out, stateDir string, resume, asJSON bool, top int) error {
	ctx := cmd.Context()
	if !slices.Contains(model.OutOfCoreKinds(), o.Kind) {
		return fmt.Errorf("--out-of-core: %s models are trained in memory (out of core: %s)", o.Kind, strings.Join(model.OutOfCoreKinds(), ", "))
	}
	if stateDir == "" {
		stateDir = defaultStateDir(out)
	}
	if err := recoverShards(cmd, dir); err != nil {
		return err
	}
	src, err := shard.OpenSource(dir)
	if err != nil {
		return err
	}
	if err := checkState(stateDir, resume); err != nil {
		return err
	}
	errw := cmd.ErrOrStderr()
	n, m := src.Dims()
	man := src.Manifest()
	fmt.Fprintf(errw, "out of core: %d documents × %d terms, %d non-zeros in %d shards; state in %s\n", n, m, man.NNZ, len(man.Shards), stateDir)
	o.Progress = etaReporter(errw, o.MaxIter, time.Now)
	fitted, err := model.Fit(ctx, model.Shards(src, stateDir), o)
	if err != nil {
		var mismatch *model.StateMismatchError
		_, cerr := os.Stat(filepath.Join(stateDir, shard.CheckpointFile))
		saved := cerr == nil
		switch {
		case errors.As(err, &mismatch):
			return fmt.Errorf("--resume: %w\nresume that fit with the settings it was started with, or give this one another --state (or remove %s to start afresh)", err, stateDir)
		case errors.Is(err, context.Canceled) && saved:
			return fmt.Errorf("interrupted; the last completed pass is saved in %s: run the same command with --resume to continue", stateDir)
		case errors.Is(err, context.Canceled):
			return fmt.Errorf("interrupted before the first pass was complete: nothing was saved to resume from")
		case saved:
			// A full disk, a damaged shard: once mended, the fit goes on
			// from its last completed pass.
			return fmt.Errorf("%w\nthe last completed pass is saved in %s: once this is mended, run the same command with --resume to continue", err, stateDir)
		}
		return err
	}
	topics, err := saveFitted(out, fitted, top)
	if err != nil {
		return err
	}
	peak, perr := peakmem.MiB()
	w := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		res := map[string]any{"model": out, "info": fitted.Info, "topics": topics, "state": stateDir}
		if perr == nil {
			res["peak_memory_mib"] = math.Round(peak)
		}
		return enc.Encode(res)
	}
	objective := ""
	if v := fitted.Info.Objective; !math.IsNaN(v) && !math.IsInf(v, 0) {
		objective = fmt.Sprintf(", objective %.6g", v)
	}
	fmt.Fprintf(w, "%s model, %d topics, fitted out of core on %d documents × %d terms in %.2fs (%d iterations%s)\n",
		fitted.Model.Kind(), fitted.Model.NumTopics(), n, m, fitted.Info.Seconds, fitted.Info.Iterations, objective)
	if perr == nil {
		fmt.Fprintf(w, "peak memory: %.0f MiB\n", peak)
	}
	for _, s := range fitted.Info.Notes {
		fmt.Fprintf(w, "note: %s\n", s)
	}
	printTopics(w, topics)
	fmt.Fprintf(w, "saved %s\n", out)
	return nil
}

// checkState checks an out-of-core fit's state folder before any work: a
// fresh fit needs one without a checkpoint (an earlier fit's would be
// overwritten), a resumed one a checkpoint; a checkpoint that cannot be
// read is refused either way with what to do. It creates nothing.
func checkState(stateDir string, resume bool) error {
	fi, err := os.Stat(stateDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if resume {
			return fmt.Errorf("--resume: the state folder %s does not exist: there is no fit to resume (give the --state of the interrupted fit)", stateDir)
		}
		return nil
	case err != nil:
		return fmt.Errorf("--state: %w", err)
	case !fi.IsDir():
		return fmt.Errorf("--state %s is a file, not a state folder", stateDir)
	}
	st, err := shard.NewStore(stateDir)
	if err != nil {
		return err
	}
	_, err = st.LoadCheckpoint()
	switch {
	case err == nil && !resume:
		return fmt.Errorf("--state %s holds the state of an earlier fit: --resume continues it (with the same options), or remove the folder", stateDir)
	case errors.Is(err, fs.ErrNotExist) && resume:
		return fmt.Errorf("--resume: %s holds no checkpoint to resume from", stateDir)
	case err != nil && !errors.Is(err, fs.ErrNotExist):
		what := "a fresh fit would overwrite it"
		if resume {
			what = "nothing can be resumed from it"
		}
		return fmt.Errorf("--state: %w\n%s: remove the folder %s to start afresh, or give another --state", err, what, stateDir)
	}
	return nil
}

// etaReporter prints the fit's progress to w, at most every two seconds
// (and at the last iteration): the iteration (and the run of several), the
// objective when the step has one (LDA evaluates its perplexity only every
// so many passes; a NaN is left out, never printed), and, from the second
// step on, the time per iteration and an estimate of the time left at
// that pace (an upper bound when the tolerance stops the fit early). The
// pace is measured over the steps this process has run, so that a resumed
// fit, whose iterations count on from the checkpoint's, is timed by its
// own; until there are two it says it is estimating. now is the clock.
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
