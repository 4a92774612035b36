package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
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

// ioPath is a file or folder a command reads or writes, for
// checkNoOverwrite.
type ioPath struct {
	// name says what the path is in messages: the flag that gives it
	// ("--out", "PATH"), with how a default was chosen.
	name string
	path string
	// folder marks an output folder whose whole content the command
	// replaces (vectorize --shards, fit's --state).
	folder bool
}

// checkNoOverwrite refuses, before any work, outputs that would write over
// what the command reads: an output that is one of its inputs, an output
// folder that is or holds an input, an output inside an input folder (a
// folder reader would read it), and two outputs that are the same file.
// Files are compared with os.SameFile when both exist (hard and symbolic
// links included), otherwise by their absolute paths with links resolved.
// Empty paths and "-" (standard input and output) are left out. Every
// command that writes a file checks its outputs against its inputs here.
func checkNoOverwrite(ins, outs []ioPath) error {
	used := func(p ioPath) bool { return p.path != "" && p.path != "-" }
	for _, o := range outs {
		if !used(o) {
			continue
		}
		for _, in := range ins {
			if !used(in) {
				continue
			}
			switch {
			case samePath(o.path, in.path):
				return fmt.Errorf("%s %s would write over %s %s, which this command reads: no command writes over a file it reads; give %s another path",
					o.name, o.path, in.name, in.path, flagOf(o.name))
			case o.folder && within(in.path, o.path):
				return fmt.Errorf("%s %s holds %s %s, which this command reads, and writing the folder would replace it: give %s another folder",
					o.name, o.path, in.name, in.path, flagOf(o.name))
			case isDir(in.path) && within(o.path, in.path):
				return fmt.Errorf("%s %s is inside %s %s, a folder this command reads: write it elsewhere (give %s another path)",
					o.name, o.path, in.name, in.path, flagOf(o.name))
			}
		}
	}
	for i, a := range outs {
		for _, b := range outs[i+1:] {
			if used(a) && used(b) && samePath(a.path, b.path) {
				return fmt.Errorf("%s %s and %s %s are the same file: each output needs its own", a.name, a.path, b.name, b.path)
			}
		}
	}
	return nil
}

// flagOf returns the flag an ioPath name starts with ("--vocab" of
// "--vocab (default: beside --out)").
func flagOf(name string) string {
	f, _, _ := strings.Cut(name, " ")
	return f
}

// samePath reports whether a and b name the same file or folder: by
// os.SameFile when both exist; never when only one does; by their
// resolved absolute paths when neither does.
func samePath(a, b string) bool {
	fa, ea := os.Stat(a)
	fb, eb := os.Stat(b)
	switch {
	case ea == nil && eb == nil:
		return os.SameFile(fa, fb)
	case ea == nil || eb == nil:
		return false
	}
	return resolvedPath(a) == resolvedPath(b)
}

// within reports whether path is folder or lies inside it, links
// resolved.
func within(path, folder string) bool {
	if samePath(path, folder) {
		return true
	}
	rel, err := filepath.Rel(resolvedPath(folder), resolvedPath(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// isDir reports whether path is an existing folder.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// resolvedPath returns path made absolute and clean, with the symbolic
// links of its longest existing part resolved.
func resolvedPath(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	rest := ""
	for dir := abs; ; {
		if r, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return abs
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}

// readerInputs lists what reading the corpus at path with rf reads: path
// itself (unless it is standard input) and, for the mtx and uci formats,
// the vocabulary and labels files, given or found beside path.
func readerInputs(rf *readerFlags, path string) []ioPath {
	if path == "" || path == corpus.Stdin {
		return nil
	}
	ins := []ioPath{{name: "PATH", path: path}}
	dir := filepath.Dir(path)
	switch rf.format {
	case "mtx":
		if rf.vocab != "" {
			ins = append(ins, ioPath{name: "--vocab", path: rf.vocab})
		} else {
			ins = append(ins, ioPath{name: "the vocabulary beside PATH,", path: filepath.Join(dir, "vocab.txt")})
		}
		if rf.labels != "" {
			ins = append(ins, ioPath{name: "--labels", path: rf.labels})
		} else if p := filepath.Join(dir, "labels.txt"); fileExists(p) {
			ins = append(ins, ioPath{name: "the labels beside PATH,", path: p})
		}
	case "uci":
		if rf.vocab != "" {
			ins = append(ins, ioPath{name: "--vocab", path: rf.vocab})
		} else if name, ok := strings.CutPrefix(strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".gz"), ".txt"), "docword."); ok {
			ins = append(ins, ioPath{name: "the vocabulary beside PATH,", path: filepath.Join(dir, "vocab."+name+".txt")})
		}
	}
	return ins
}

// fileExists reports whether path exists.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
