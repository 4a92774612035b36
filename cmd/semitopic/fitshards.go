package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	warnConvergence(cmd.ErrOrStderr(), fitted.Info)
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
