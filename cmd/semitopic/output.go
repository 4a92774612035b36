package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/shard"
)

// checkOut checks, before any work, that the output file path given to
// flag can be written and has one of the extensions exts (the format is
// chosen by it); stdout allows "-" for standard output.
func checkOut(flag, path string, stdout bool, exts ...string) error {
	if path == "" {
		return fmt.Errorf("--%s is required", flag)
	}
	if path == "-" {
		if stdout {
			return nil
		}
		return fmt.Errorf("--%s: this output cannot go to standard output; give a file name", flag)
	}
	if len(exts) > 0 {
		ext := strings.ToLower(filepath.Ext(path))
		ok := false
		for _, e := range exts {
			ok = ok || ext == e
		}
		if !ok {
			return fmt.Errorf("--%s %s: unknown extension %q (want %s)", flag, path, filepath.Ext(path), strings.Join(exts, ", "))
		}
	}
	if err := atomicfile.CheckWritable(path); err != nil {
		return fmt.Errorf("--%s: %w", flag, err)
	}
	return nil
}

// writeOut writes an output file atomically (a failure leaves the old
// file as it was), or to standard output for "-".
func writeOut(cmd *cobra.Command, path string, fill func(io.Writer) error) error {
	if path == "-" {
		if err := fill(cmd.OutOrStdout()); err != nil {
			return fmt.Errorf("writing to standard output: %w", err)
		}
		return nil
	}
	return atomicfile.WriteFile(path, fill)
}

// checkFinite rejects a NaN, infinite or negative value of a numeric flag
// at parse time.
func checkFinite(cmd *cobra.Command, names ...string) error {
	for _, name := range names {
		f := cmd.Flags().Lookup(name)
		if f == nil || !f.Changed {
			continue
		}
		v, err := strconv.ParseFloat(f.Value.String(), 64)
		if err != nil {
			return fmt.Errorf("--%s: %q is not a number", name, f.Value.String())
		}
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("--%s: %v: want a finite number ≥ 0", name, f.Value.String())
		}
	}
	return nil
}

// checkPositive rejects a value ≤ 0 of an integer flag such as --top.
func checkPositive(name string, v int) error {
	if v <= 0 {
		return fmt.Errorf("--%s: %d: want a number ≥ 1", name, v)
	}
	return nil
}

// renamedFlag resolves a flag renamed to newName whose old name oldName
// still works for now: it returns the old flag's value when only the old
// one is given (with a note on standard error), and an error when both are.
func renamedFlag(cmd *cobra.Command, oldName, newName string) (useOld bool, err error) {
	fs := cmd.Flags()
	if !fs.Changed(oldName) {
		return false, nil
	}
	if fs.Changed(newName) {
		return false, fmt.Errorf("--%s and --%s are the same flag (--%s is its old name); give --%s only", oldName, newName, oldName, newName)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "note: --%s is deprecated here and will be removed; use --%s\n", oldName, newName)
	return true, nil
}

// recoverShards finishes or undoes an interrupted replacement of the
// sharded corpus dir (shard.Recover) before a command reads or writes it,
// saying on standard error what it did.
func recoverShards(cmd *cobra.Command, dir string) error {
	note, err := shard.Recover(dir)
	if err != nil {
		return err
	}
	if note != "" {
		fmt.Fprintf(cmd.ErrOrStderr(), "note: %s\n", note)
	}
	return nil
}
