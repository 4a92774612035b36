package shard

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// deadPID returns the number of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no process check on Windows")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	return cmd.Process.Pid
}

// writeDocs writes a corpus of n one-term documents to dir.
func writeDocs(t *testing.T, dir string, n int) {
	t.Helper()
	w, err := Create(dir, 2, Options{Vocab: []string{"a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if err := w.Add([]int32{int32(i % 2)}, []float64{1}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// killedSwap leaves dir as a writer of process pid killed between the two
// renames of Close leaves it: the old corpus (3 documents) moved aside,
// the new one (5 documents) complete in its temporary folder unless
// complete is false; dir missing.
func killedSwap(t *testing.T, dir string, pid int, complete bool) (old, tmp string) {
	t.Helper()
	writeDocs(t, dir, 3)
	next := filepath.Join(filepath.Dir(dir), "next")
	writeDocs(t, next, 5)
	if !complete {
		if err := os.Remove(filepath.Join(next, ManifestFile)); err != nil {
			t.Fatal(err)
		}
	}
	base := "." + filepath.Base(dir)
	old = filepath.Join(filepath.Dir(dir), base+".old-"+strconv.Itoa(pid)+"-17")
	tmp = filepath.Join(filepath.Dir(dir), base+".tmp-"+strconv.Itoa(pid)+"-18")
	if err := os.Mkdir(old, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, filepath.Join(old, oldCorpus)); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(next, tmp); err != nil {
		t.Fatal(err)
	}
	return old, tmp
}

func names(t *testing.T, dir string) []string {
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

// A kill once the new corpus was complete: reading and writing refuse
// with an error that names the folder and Recover, and Recover finishes
// the replacement.
func TestRecoverFinishes(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "c.shards")
	old, tmp := killedSwap(t, dir, deadPID(t), true)
	for what, err := range map[string]error{"Open": func() error { _, err := Open(dir); return err }(),
		"Create": func() error { _, err := Create(dir, 2, Options{}); return err }()} {
		if err == nil || !strings.Contains(err.Error(), dir+" does not exist") || !strings.Contains(err.Error(), old) || !strings.Contains(err.Error(), "Recover") {
			t.Errorf("%s: %v", what, err)
		}
	}
	note, err := Recover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "finished") || !strings.Contains(note, tmp) {
		t.Errorf("note %q", note)
	}
	m, err := Open(dir)
	if err != nil || m.Docs != 5 {
		t.Fatalf("after Recover: %v, %+v", err, m)
	}
	if got := names(t, root); len(got) != 1 {
		t.Errorf("left beside the corpus: %v", got)
	}
	if note, err := Recover(dir); note != "" || err != nil {
		t.Errorf("a second Recover: %q %v", note, err)
	}
}

// A kill before the new corpus was complete: Recover puts the old one
// back, and the next write removes the unfinished folder.
func TestRecoverRestores(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "c.shards")
	old, tmp := killedSwap(t, dir, deadPID(t), false)
	note, err := Recover(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(note, "put back from "+old) {
		t.Errorf("note %q", note)
	}
	if m, err := Open(dir); err != nil || m.Docs != 3 {
		t.Fatalf("after Recover: %v, %+v", err, m)
	}
	if _, err := os.Stat(tmp); err != nil {
		t.Fatalf("the unfinished folder: %v", err)
	}
	writeDocs(t, dir, 4)
	if got := names(t, root); len(got) != 1 {
		t.Errorf("left beside the corpus after the next write: %v", got)
	}
}

// While the writer runs (here: this process, a moment ago), Recover
// leaves everything as it is.
func TestRecoverLiveWriter(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "c.shards")
	old, _ := killedSwap(t, dir, os.Getpid(), true)
	if note, err := Recover(dir); err == nil || !strings.Contains(err.Error(), "being replaced by process") {
		t.Fatalf("Recover: %q %v", note, err)
	}
	if _, err := os.Stat(filepath.Join(old, oldCorpus, ManifestFile)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err == nil {
		t.Fatal("dir was put in place")
	}
}

// A folder that holds anything but a sharded corpus, or a file, is not
// replaced (Close would delete it); an empty folder and a corpus are.
func TestCreateRefusesOtherFolders(t *testing.T) {
	root := t.TempDir()
	docs := filepath.Join(root, "docs")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "a.txt"), []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(root, "f.txt")
	if err := os.WriteFile(file, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{docs, file} {
		if _, err := Create(p, 2, Options{}); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "refusing") && !strings.Contains(err.Error(), "not a sharded corpus") {
			t.Errorf("Create(%s): %v", p, err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(docs, "a.txt")); err != nil || string(b) != "precious" {
		t.Fatalf("docs/a.txt: %q %v", b, err)
	}
	empty := filepath.Join(root, "empty")
	os.Mkdir(empty, 0o755)
	writeDocs(t, empty, 2)
	writeDocs(t, empty, 3) // over a corpus
	if m, err := Open(empty); err != nil || m.Docs != 3 {
		t.Fatalf("%v %+v", err, m)
	}
}

// The checkpoint reads back as saved, whole when saved in parts; none is
// fs.ErrNotExist, and a damaged one an error naming the file.
func TestCheckpoint(t *testing.T) {
	st, err := NewStore(filepath.Join(t.TempDir(), "state"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.LoadCheckpoint(); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("no checkpoint: %v", err)
	}
	if err := st.SaveCheckpointParts([]byte("head:"), nil, []byte("state")); err != nil {
		t.Fatal(err)
	}
	if b, err := st.LoadCheckpoint(); err != nil || string(b) != "head:state" {
		t.Fatalf("%q %v", b, err)
	}
	path := filepath.Join(st.Dir(), CheckpointFile)
	b, _ := os.ReadFile(path)
	b[len(b)-6] ^= 1
	os.WriteFile(path, b, 0o644)
	if _, err := st.LoadCheckpoint(); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("damaged: %v", err)
	}
}
