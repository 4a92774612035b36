package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkNoOverwrite compares paths as the file system sees them: through
// symbolic links and ".." for files that do not exist yet, by os.SameFile
// for those that do; a folder is not inside one whose name it extends.
func TestCheckNoOverwrite(t *testing.T) {
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.MkdirAll(filepath.Join(data, "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(data, "c", "in.txt")
	if err := os.WriteFile(in, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(data, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	ins := []ioPath{{name: "PATH", path: in}, {name: "--data", path: data}}
	for _, c := range []struct {
		out  ioPath
		want string // "" for allowed
	}{
		{ioPath{name: "--out", path: filepath.Join(link, "c", "in.txt")}, "would write over PATH"},
		{ioPath{name: "--out", path: filepath.Join(link, "new.txt")}, "is inside --data"},
		{ioPath{name: "--out", path: filepath.Join(dir, "data2", "x.txt")}, ""},
		{ioPath{name: "--out", path: filepath.Join(dir, "new", "..", "data", "y")}, "is inside --data"},
		{ioPath{name: "--shards", path: dir, folder: true}, "holds PATH"},
		{ioPath{name: "--shards", path: filepath.Join(dir, "data2"), folder: true}, ""},
		{ioPath{name: "--out", path: "-"}, ""},
	} {
		err := checkNoOverwrite(ins, []ioPath{c.out})
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %s: %v", c.out.name, c.out.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %s: %v, want %q", c.out.name, c.out.path, err, c.want)
		}
	}
	a, b := filepath.Join(dir, "o", "a.txt"), filepath.Join(dir, "o", "..", "o", "a.txt")
	if err := checkNoOverwrite(nil, []ioPath{{name: "--vocab", path: a}, {name: "--labels", path: b}}); err == nil || !strings.Contains(err.Error(), "same file") {
		t.Errorf("two outputs on one file: %v", err)
	}
}
