package corpus

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// consistent checks the invariants every corpus a reader returns must hold:
// non-empty unique IDs, valid UTF-8 text, non-empty labels without repeats,
// valid splits, and for a vectorized corpus a valid matrix with one row per
// document, a vocabulary entry per column and empty texts.
func consistent(c *Corpus) error {
	if c == nil {
		return errors.New("nil corpus")
	}
	ids := make(map[string]bool, len(c.Docs))
	for i, d := range c.Docs {
		if d.ID == "" {
			return fmt.Errorf("doc %d: empty ID", i)
		}
		if ids[d.ID] {
			return fmt.Errorf("doc %d: repeated ID %q", i, d.ID)
		}
		ids[d.ID] = true
		if !utf8.ValidString(d.Text) {
			return fmt.Errorf("doc %s: text is not valid UTF-8", d.ID)
		}
		seen := map[string]bool{}
		for _, l := range d.Labels {
			if strings.TrimSpace(l) == "" {
				return fmt.Errorf("doc %s: empty label", d.ID)
			}
			if seen[l] {
				return fmt.Errorf("doc %s: label %q repeated", d.ID, l)
			}
			seen[l] = true
		}
		if d.Split > SplitTest {
			return fmt.Errorf("doc %s: invalid split %d", d.ID, d.Split)
		}
		if c.Matrix != nil && d.Text != "" {
			return fmt.Errorf("doc %s: vectorized document with text", d.ID)
		}
	}
	if m := c.Matrix; m != nil {
		if m.X == nil {
			return errors.New("matrix without X")
		}
		if err := m.X.Validate(); err != nil {
			return err
		}
		if m.X.Rows != len(c.Docs) {
			return fmt.Errorf("%d matrix rows for %d documents", m.X.Rows, len(c.Docs))
		}
		if m.X.Cols != len(m.Vocab) {
			return fmt.Errorf("%d matrix columns for %d terms", m.X.Cols, len(m.Vocab))
		}
	}
	return nil
}

// mustConsistent fails the test if c is not consistent.
func mustConsistent(t testing.TB, c *Corpus) {
	t.Helper()
	if err := consistent(c); err != nil {
		t.Fatalf("inconsistent corpus: %v", err)
	}
}

// read reads path with r and checks the result.
func read(t testing.TB, r Reader, path string) *Corpus {
	t.Helper()
	c, err := r.Read(context.Background(), path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	mustConsistent(t, c)
	return c
}

// readErr reads path with r and checks that it fails with an error
// containing every want string.
func readErr(t testing.TB, r Reader, path string, want ...string) {
	t.Helper()
	c, err := r.Read(context.Background(), path)
	if err == nil {
		t.Fatalf("reading %s: no error, got %d documents; want an error with %q", path, len(c.Docs), want)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("reading %s: error %q does not contain %q", path, err, w)
		}
	}
}

// ids returns the IDs of c's documents.
func ids(c *Corpus) []string {
	out := make([]string, len(c.Docs))
	for i, d := range c.Docs {
		out[i] = d.ID
	}
	return out
}

// byID returns c's documents by ID.
func byID(c *Corpus) map[string]Document {
	m := make(map[string]Document, len(c.Docs))
	for _, d := range c.Docs {
		m[d.ID] = d
	}
	return m
}

// splitCounts returns how many documents are in each split.
func splitCounts(c *Corpus) (train, test, none int) {
	for _, d := range c.Docs {
		switch d.Split {
		case SplitTrain:
			train++
		case SplitTest:
			test++
		default:
			none++
		}
	}
	return
}

// labelCounts returns the documents per label, optionally for one split
// only (pass -1 for all).
func labelCounts(c *Corpus, s int) map[string]int {
	m := map[string]int{}
	for _, d := range c.Docs {
		if s >= 0 && d.Split != Split(s) {
			continue
		}
		for _, l := range d.Labels {
			m[l]++
		}
	}
	return m
}

func equal(t testing.TB, what string, got, want any) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s = %#v, want %#v", what, got, want)
	}
}

// writeFiles creates files (path → contents) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// walkFiles lists the regular files under dir (slash-separated, sorted).
func walkFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// tarDir writes the files under dir to a tar archive at out (gzipped when
// out ends in .gz or .tgz), with names prefixed by prefix (e.g. "./" or
// "top/"), including folder entries.
func tarDir(t testing.TB, dir, prefix, out string) {
	t.Helper()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var tw *tar.Writer
	var gz *gzip.Writer
	if strings.HasSuffix(out, ".gz") || strings.HasSuffix(out, ".tgz") {
		gz = gzip.NewWriter(f)
		tw = tar.NewWriter(gz)
	} else {
		tw = tar.NewWriter(f)
	}
	dirs := map[string]bool{}
	mt := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, rel := range walkFiles(t, dir) {
		for d := filepath.ToSlash(filepath.Dir(rel)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			if !dirs[d] {
				dirs[d] = true
				if err := tw.WriteHeader(&tar.Header{Name: prefix + d + "/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: mt}); err != nil {
					t.Fatal(err)
				}
			}
		}
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: prefix + rel, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(b)), ModTime: mt}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if gz != nil {
		if err := gz.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// zipDir writes the files under dir to a zip archive at out, with names
// prefixed by prefix.
func zipDir(t testing.TB, dir, prefix, out string) {
	t.Helper()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for _, rel := range walkFiles(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(prefix + rel)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// archives returns the folder dir plus a .tar.gz, a .tar and a .zip of it
// (wrapped in a top-level folder named top when top is not empty), keyed by
// kind, so that a reader can be tested on every container.
func archives(t testing.TB, dir, top string) map[string]string {
	t.Helper()
	tmp := t.TempDir()
	prefix := ""
	if top != "" {
		prefix = top + "/"
	}
	m := map[string]string{"folder": dir}
	m["tar.gz"] = filepath.Join(tmp, "a.tar.gz")
	tarDir(t, dir, prefix, m["tar.gz"])
	m["tar"] = filepath.Join(tmp, "a.tar")
	tarDir(t, dir, "./"+prefix, m["tar"])
	m["zip"] = filepath.Join(tmp, "a.zip")
	zipDir(t, dir, prefix, m["zip"])
	return m
}
