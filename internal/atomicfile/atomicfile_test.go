package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range es {
		out = append(out, e.Name())
	}
	return out
}

func TestWriteFileReplaces(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "new" {
		t.Fatalf("content %q", b)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the old file's 0600", fi.Mode().Perm())
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("folder holds %v", e)
	}
}

func TestWriteFileFailureKeepsOld(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := WriteFile(p, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("x", 3<<20)) // more than the buffer
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Fatalf("err = %v", err)
	}
	b, _ := os.ReadFile(p)
	if string(b) != "precious" {
		t.Fatalf("old file damaged: %q", b[:min(len(b), 20)])
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("temporary file left behind: %v", e)
	}
}

func TestNewFileFailureLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.txt")
	if err := WriteFile(p, func(io.Writer) error { return errors.New("no") }); err == nil {
		t.Fatal("no error")
	}
	if e := entries(t, dir); len(e) != 0 {
		t.Errorf("left %v", e)
	}
}

func TestAbortAfterCommit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a")
	f, err := Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte("x"))
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Abort()
	if b, _ := os.ReadFile(p); string(b) != "x" {
		t.Fatalf("%q", b)
	}
	if err := f.Commit(); err == nil {
		t.Error("second Commit succeeded")
	}
}

func TestCheckWritable(t *testing.T) {
	dir := t.TempDir()
	if err := CheckWritable(filepath.Join(dir, "ok.txt")); err != nil {
		t.Fatal(err)
	}
	if e := entries(t, dir); len(e) != 0 {
		t.Errorf("left %v", e)
	}
	for _, p := range []string{filepath.Join(dir, "missing", "x.txt"), dir, ""} {
		if err := CheckWritable(p); err == nil {
			t.Errorf("%q: no error", p)
		}
	}
	err := CheckWritable(filepath.Join(dir, "missing", "x.txt"))
	if !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("err = %v", err)
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		if err := CheckWritable(filepath.Join(ro, "x")); err == nil {
			t.Error("read-only folder: no error")
		}
	}
}
