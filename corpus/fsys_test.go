package corpus

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
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
	src := source{fsys: os.DirFS(dir), path: dir, lim: Limits{}.resolved()}
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
		in   string
		want string
		enc  Encoding
	}{
		{"plain", "plain", UTF8},
		{"\xef\xbb\xbfbom", "bom", UTF8},
		{"caf\xc3\xa9", "café", UTF8},
		{"caf\xe9", "café", Latin1},
		{"\xa3 and \xfc", "£ and ü", Latin1},
		{"\xef\xbb\xbf\xff", "ÿ", Latin1},
		{"", "", UTF8},
		{"\xff\xfei\x00d\x00,\x00\xe9\x00\x3d\xd8\x00\xde", "id,é😀", UTF16LE},
		{"\xfe\xff\x00i\x00d", "id", UTF16BE},
		{"\xff\xfe\x00\xd8", "\ufffd", UTF16LE}, // an unpaired surrogate
	}
	for _, c := range cases {
		got, enc, err := DecodeText([]byte(c.in))
		if err != nil || got != c.want || enc != c.enc {
			t.Errorf("DecodeText(%q) = %q, %v, %v; want %q, %v", c.in, got, enc, err, c.want, c.enc)
		}
	}
	for _, in := range []string{"\xff\xfe\x00\x00i\x00\x00\x00", "\x00\x00\xfe\xff\x00\x00\x00i"} {
		if _, _, err := DecodeText([]byte(in)); err == nil || !strings.Contains(err.Error(), "UTF-32") {
			t.Errorf("DecodeText(%q): err = %v, want one naming UTF-32", in, err)
		}
	}
	var dl decodeLog
	if len(dl.notes()) != 0 {
		t.Error("notes without Latin-1 files")
	}
	for i := 0; i < 7; i++ {
		if _, err := dl.decode(string(rune('a'+i)), []byte{0xff}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := dl.decode("u16", []byte("\xff\xfea\x00")); err != nil {
		t.Fatal(err)
	}
	equal(t, "notes", strings.Join(dl.notes(), "|"), "7 files decoded as Latin-1 (not valid UTF-8): a, b, c, d, e and 2 more|1 file decoded as UTF-16 (by the byte order mark): u16")
	for _, c := range []struct{ in, kind string }{
		{"PK\x03\x04rest", "zip archive"}, {"\x1f\x8b\x08", "gzip"}, {"%PDF-1.4", "PDF"},
		{"text\x00more", "NUL"}, {strings.Repeat("x", 257) + "ustar\x0000", "tar archive"},
	} {
		_, err := dl.decode("f", []byte(c.in))
		var nt *NotTextError
		if !errors.As(err, &nt) || !strings.Contains(err.Error(), c.kind) || !strings.HasPrefix(err.Error(), "f is ") {
			t.Errorf("decode(%q): err = %v, want a NotTextError saying %q", c.in, err, c.kind)
		}
	}
	if _, err := dl.decode("bz", []byte("BZh is not bzip2")); err != nil {
		t.Errorf("text starting with BZh taken for binary: %v", err)
	}
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
