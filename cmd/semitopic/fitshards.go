package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
	src, err := shard.OpenSource(dir)
	if err != nil {
		return err
	}
	st, err := shard.NewStore(stateDir)
	if err != nil {
		return err
	}
	if _, err := st.LoadCheckpoint(); err == nil && !resume {
		return fmt.Errorf("--state %s holds the state of an earlier fit: --resume continues it (with the same options), or remove the folder", stateDir)
	} else if resume && errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("--resume: %s holds no checkpoint to resume from", stateDir)
	}
	errw := cmd.ErrOrStderr()
	n, m := src.Dims()
	man := src.Manifest()
	fmt.Fprintf(errw, "out of core: %d documents × %d terms, %d non-zeros in %d shards; state in %s\n", n, m, man.NNZ, len(man.Shards), stateDir)
	o.Progress = etaReporter(errw, o.MaxIter)
	fitted, err := model.FitShards(ctx, src, stateDir, o)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted; the last completed pass is saved in %s: run the same command with --resume to continue", stateDir)
		}
		if _, cerr := st.LoadCheckpoint(); cerr == nil {
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
	fmt.Fprintf(w, "%s model, %d topics, fitted out of core on %d documents × %d terms in %.2fs (%d iterations, objective %.6g)\n",
		fitted.Model.Kind(), fitted.Model.NumTopics(), n, m, fitted.Info.Seconds, fitted.Info.Iterations, fitted.Info.Objective)
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

// etaReporter prints the fit's progress to w, at most every two seconds:
// the iteration, the objective, the time per iteration and an estimate of
// the time left at that pace (an upper bound when the tolerance stops the
// fit early).
func etaReporter(w io.Writer, maxIter int) progress.Func {
	var last time.Time
	return func(s progress.Step) {
		if time.Since(last) < 2*time.Second && s.Iter != s.Total {
			return
		}
		last = time.Now()
		total := s.Total
		if total == 0 {
			total = maxIter
		}
		per := s.Elapsed / time.Duration(max(s.Iter, 1))
		line := fmt.Sprintf("iteration %d/%d, objective %.6g, %.2fs per iteration", s.Iter, total, s.Objective, per.Seconds())
		if left := total - s.Iter; left > 0 {
			line += fmt.Sprintf(", at most %s left", (per * time.Duration(left)).Round(time.Second))
		}
		fmt.Fprintln(w, line)
	}
}
