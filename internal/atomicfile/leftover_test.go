package atomicfile

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"testing"
	"time"
)

// deadPID returns the number of a process that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no process check on Windows: only the age makes a temporary stale")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("cannot run true:", err)
	}
	pid := cmd.Process.Pid
	if running(pid) {
		t.Skip("the process number was reused at once")
	}
	return pid
}

// A killed write's temporary goes with the next write of the same target,
// as soon as its process is gone; a live one's stays, and nothing that is
// not exactly our naming is touched.
func TestCreateRemovesStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "m.semitopic")
	dead, me := strconv.Itoa(deadPID(t)), strconv.Itoa(os.Getpid())
	old := time.Now().Add(-2 * StaleAge)
	files := map[string]bool{ // name → removed by the next write
		".m.semitopic.tmp-" + dead + "-123": true,  // killed writer
		".m.semitopic.tmp-" + me + "-456":   false, // live writer (this process)
		".m.semitopic.tmp-" + me + "-789":   true,  // same number, unchanged for hours
		".m.semitopic.tmp-42":               false, // an earlier version's name, recent
		".m.semitopic.tmp-43":               true,  // the same, old
		".m.semitopic.tmp-" + dead + "-1.x": false, // not our naming
		"m.semitopic.tmp-" + dead + "-1":    false,
		".other.tmp-" + dead + "-1":         false,
		".m.semitopic.old-" + dead + "-1":   false, // another kind
		".m.semitopic.tmp-" + dead + "-":    false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{".m.semitopic.tmp-" + me + "-789", ".m.semitopic.tmp-43"} {
		if err := os.Chtimes(filepath.Join(dir, name), old, old); err != nil {
			t.Fatal(err)
		}
	}
	// A folder left by a killed folder writer counts too.
	sub := filepath.Join(dir, ".m.semitopic.tmp-"+dead+"-9")
	if err := os.MkdirAll(filepath.Join(sub, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	files[".m.semitopic.tmp-"+dead+"-9"] = true
	if err := WriteFile(target, func(w io.Writer) error { _, err := w.Write([]byte("model")); return err }); err != nil {
		t.Fatal(err)
	}
	got := entries(t, dir)
	for name, gone := range files {
		if has := slices.Contains(got, name); has == gone {
			t.Errorf("%s: present %v after the write, want %v", name, has, !gone)
		}
	}
	if !slices.Contains(got, "m.semitopic") {
		t.Errorf("the target is missing: %v", got)
	}
}

// Leftovers lists oldest first, with the writer's process and whether it
// is stale; a missing folder has none.
func TestLeftovers(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "c.shards")
	dead := deadPID(t)
	a := filepath.Join(dir, ".c.shards.old-"+strconv.Itoa(dead)+"-1")
	b := filepath.Join(dir, ".c.shards.old-"+strconv.Itoa(os.Getpid())+"-2")
	for i, p := range []string{a, b} {
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(time.Duration(i-5) * time.Minute)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	ls, err := Leftovers(target, KindOld)
	if err != nil {
		t.Fatal(err)
	}
	if len(ls) != 2 || ls[0].Path != a || ls[1].Path != b || ls[0].PID != dead || !ls[0].Stale || ls[1].Stale || !ls[0].Dir {
		t.Fatalf("leftovers %+v", ls)
	}
	if ls, err := Leftovers(filepath.Join(dir, "missing", "x"), KindTmp); err != nil || ls != nil {
		t.Errorf("missing folder: %v %v", ls, err)
	}
}
