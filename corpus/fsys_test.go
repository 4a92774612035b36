package corpus

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

func TestOpenFSContainers(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"a.txt":       "alpha",
		"sub/b.txt":   "beta",
		"sub/c/d.txt": "delta",
	})
	for kind, p := range archives(t, src, "top") {
		t.Run(kind, func(t *testing.T) {
			fsys, closer, err := OpenFS(p)
			if err != nil {
				t.Fatal(err)
			}
			defer closer.Close()
			root := "."
			if kind != "folder" {
				root = "top"
			}
			b, err := fs.ReadFile(fsys, join(root, "sub/c/d.txt"))
			if err != nil || string(b) != "delta" {
				t.Fatalf("ReadFile = %q, %v", b, err)
			}
			want := []string{join(root, "a.txt"), join(root, "sub/b.txt"), join(root, "sub/c/d.txt")}
			if err := fstest.TestFS(fsys, want...); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestOpenFSErrors(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenFS(plain); err == nil || !strings.Contains(err.Error(), "neither a folder nor an archive") {
		t.Errorf("plain file: err = %v", err)
	}
	if _, _, err := OpenFS(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing path: no error")
	}
	corrupt := filepath.Join(dir, "bad.tar.gz")
	if err := os.WriteFile(corrupt, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenFS(corrupt); err == nil || !strings.Contains(err.Error(), "bad.tar.gz") {
		t.Errorf("corrupt gzip: err = %v", err)
	}
	badZip := filepath.Join(dir, "bad.zip")
	if err := os.WriteFile(badZip, []byte("not zip"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := OpenFS(badZip); err == nil || !strings.Contains(err.Error(), "bad.zip") {
		t.Errorf("corrupt zip: err = %v", err)
	}

	tarCases := []struct {
		name    string
		headers []*tar.Header
		want    string
	}{
		{"absolute", []*tar.Header{{Name: "/etc/passwd", Typeflag: tar.TypeReg}}, "absolute"},
		{"dotdot", []*tar.Header{{Name: "a/../../x", Typeflag: tar.TypeReg}}, "leaves the archive"},
		{"dotdot-only", []*tar.Header{{Name: "../x", Typeflag: tar.TypeReg}}, "leaves the archive"},
		{"symlink", []*tar.Header{{Name: "link", Typeflag: tar.TypeSymlink, Linkname: "/etc"}}, "unsupported entry type"},
		{"hardlink", []*tar.Header{{Name: "link", Typeflag: tar.TypeLink, Linkname: "a"}}, "unsupported entry type"},
		{"twice", []*tar.Header{{Name: "a", Typeflag: tar.TypeReg}, {Name: "./a", Typeflag: tar.TypeReg}}, "appears twice"},
		{"file-then-dir", []*tar.Header{{Name: "a", Typeflag: tar.TypeReg}, {Name: "a/b", Typeflag: tar.TypeReg}}, "both a file and a folder"},
		{"dir-then-file", []*tar.Header{{Name: "a/", Typeflag: tar.TypeDir}, {Name: "a", Typeflag: tar.TypeReg}}, "both a file and a folder"},
		{"root-file", []*tar.Header{{Name: ".", Typeflag: tar.TypeReg}}, "archive root"},
	}
	for _, tc := range tarCases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			tw := tar.NewWriter(&buf)
			for _, h := range tc.headers {
				h.Mode = 0o644
				if err := tw.WriteHeader(h); err != nil {
					t.Fatal(err)
				}
			}
			tw.Close()
			p := filepath.Join(t.TempDir(), "x.tar")
			if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := OpenFS(p)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "x.tar") {
				t.Errorf("err = %v, want one naming x.tar and containing %q", err, tc.want)
			}
		})
	}

	for _, name := range []string{"../evil.txt", "/abs.txt"} {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte("x"))
		zw.Close()
		p := filepath.Join(t.TempDir(), "x.zip")
		if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, _, err := OpenFS(p); err == nil {
			t.Errorf("zip with %q: no error", name)
		}
	}
}

func TestOpenFSTarExtras(t *testing.T) {
	// A pax global header (as git archive writes) is metadata, not a file;
	// a tgz file name and upper-case extensions are recognized.
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	tw.WriteHeader(&tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: "pax_global_header", PAXRecords: map[string]string{"comment": "x"}})
	tw.WriteHeader(&tar.Header{Name: "./d/f.txt", Typeflag: tar.TypeReg, Size: 2, Mode: 0o644})
	tw.Write([]byte("hi"))
	tw.Close()
	gz.Close()
	p := filepath.Join(t.TempDir(), "X.TGZ")
	if err := os.WriteFile(p, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, _, err := OpenFS(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := fstest.TestFS(fsys, "d/f.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(fsys, "../x"); err == nil {
		t.Error("invalid path: no error")
	}
	if _, err := fs.ReadFile(fsys, "d"); err == nil {
		t.Error("reading a folder: no error")
	}
	if _, err := fs.ReadDir(fsys, "d/f.txt"); err == nil {
		t.Error("listing a file: no error")
	}
}

func TestLocate(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a/cats.txt": "", "b/cats.txt": "", "c/x": ""})
	src := source{os.DirFS(dir), dir}
	has := func(d string) bool { return exists(src.fsys, join(d, "cats.txt"), false) }
	if _, err := locate(src, "cats.txt", has); err == nil || !strings.Contains(err.Error(), "several folders (a, b)") {
		t.Errorf("two candidates: err = %v", err)
	}
	none := func(string) bool { return false }
	if _, err := locate(src, "cats.txt", none); err == nil || !strings.Contains(err.Error(), "no cats.txt found") {
		t.Errorf("no candidate: err = %v", err)
	}
}

func TestDecodeText(t *testing.T) {
	cases := []struct {
		in     string
		want   string
		latin1 bool
	}{
		{"plain", "plain", false},
		{"\xef\xbb\xbfbom", "bom", false},
		{"caf\xc3\xa9", "café", false},
		{"caf\xe9", "café", true},
		{"\xa3 and \xfc", "£ and ü", true},
		{"\xef\xbb\xbf\xff", "ÿ", true},
		{"", "", false},
	}
	for _, c := range cases {
		got, l := DecodeText([]byte(c.in))
		if got != c.want || l != c.latin1 {
			t.Errorf("DecodeText(%q) = %q, %v; want %q, %v", c.in, got, l, c.want, c.latin1)
		}
	}
	var dl decodeLog
	if dl.note() != "" {
		t.Error("note without Latin-1 files")
	}
	for i := 0; i < 7; i++ {
		dl.decode(string(rune('a'+i)), []byte{0xff})
	}
	equal(t, "note", dl.note(), "7 files decoded as Latin-1 (not valid UTF-8): a, b, c, d, e and 2 more")
}

func TestFormatsAndNewReader(t *testing.T) {
	var names []string
	for _, f := range Formats() {
		if f.Description == "" || f.Example == "" {
			t.Errorf("format %s lacks a description or example", f.Name)
		}
		names = append(names, f.Name)
		r, err := NewReader(f.Name)
		if err != nil || r == nil {
			t.Errorf("NewReader(%q) = %v, %v", f.Name, r, err)
		}
	}
	equal(t, "names", names, []string{"reuters-sgml", "reuters-nltk", "20ng", "brown", "bbc", "dir", "csv", "tsv", "jsonl", "mtx", "uci", "shards"})
	r, _ := NewReader("tsv")
	if c, ok := r.(*CSV); !ok || c.Comma != '\t' {
		t.Errorf("tsv reader = %#v", r)
	}
	r, _ = NewReader("csv")
	if c, ok := r.(*CSV); !ok || c.Comma != 0 {
		t.Errorf("csv reader = %#v", r)
	}
	_, err := NewReader("xml")
	if err == nil || !strings.Contains(err.Error(), `"xml"`) || !strings.Contains(err.Error(), "reuters-sgml, reuters-nltk, 20ng") {
		t.Errorf("unknown format: err = %v", err)
	}
}
