package corpus

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func tarGz(t *testing.T, files map[string]string, compress bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	var tw *tar.Writer
	var gz *gzip.Writer
	if compress {
		gz = gzip.NewWriter(&buf)
		tw = tar.NewWriter(gz)
	} else {
		tw = tar.NewWriter(&buf)
	}
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	tw.Close()
	if gz != nil {
		gz.Close()
	}
	return buf.Bytes()
}

func zipOf(t *testing.T, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	zw.Close()
	return buf.Bytes()
}

func TestReadStream(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	vocab := filepath.Join(dir, "v.txt")
	os.WriteFile(vocab, []byte("apple\nbanana\n"), 0o644)
	folder := map[string]string{"pos/a.txt": "good film", "neg/b.txt": "bad film", "c.txt": "no label"}
	cases := []struct {
		format string
		rd     Reader
		in     []byte
		docs   int
	}{
		{"csv", CSV{}, []byte("id,text,label\nd1,hello world,x\nd2,bye,y\n"), 2},
		{"tsv", CSV{Comma: '\t'}, []byte("text\tlabel\nhello\tx\n"), 1},
		{"jsonl", JSONL{}, []byte(`{"id": "a", "text": "t1"}` + "\n" + `{"id": "b", "text": "t2", "labels": ["z"]}` + "\n"), 2},
		{"mtx", MTX{Vocab: vocab}, []byte("%%MatrixMarket matrix coordinate real general\n3 2 2\n1 1 1\n3 2 2\n"), 3},
		{"uci", UCI{Vocab: vocab}, []byte("2\n2\n2\n1 1 3\n2 2 1\n"), 2},
		{"dir tar.gz", Dir{}, tarGz(t, folder, true), 3},
		{"dir tar", Dir{}, tarGz(t, folder, false), 3},
		{"dir zip", Dir{}, zipOf(t, folder), 3},
		{"reuters-sgml file", ReutersSGML{All: true}, []byte(`<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" CGISPLIT="TRAINING-SET" OLDID="1" NEWID="1"><TOPICS><D>cocoa</D></TOPICS><TEXT><BODY>Cocoa prices rose.</BODY></TEXT></REUTERS>`), 1},
	}
	for _, tc := range cases {
		c, err := ReadStream(ctx, tc.rd, "standard input", bytes.NewReader(tc.in))
		if err != nil {
			t.Errorf("%s: %v", tc.format, err)
			continue
		}
		if len(c.Docs) != tc.docs {
			t.Errorf("%s: %d documents, want %d", tc.format, len(c.Docs), tc.docs)
		}
		if !strings.Contains(c.Name, "standard input") {
			t.Errorf("%s: corpus name %q", tc.format, c.Name)
		}
	}
	// The same through pointers, as NewReader returns them.
	rd, _ := NewReader("jsonl")
	if c, err := ReadStream(ctx, rd, "stdin", strings.NewReader(`{"text": "x"}`)); err != nil || len(c.Docs) != 1 {
		t.Errorf("jsonl via NewReader: %v", err)
	}
}

func TestReadStreamErrors(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		rd   Reader
		in   string
		want string
	}{
		{MTX{}, "%%MatrixMarket matrix coordinate real general\n1 1 0\n", "--vocab"},
		{UCI{}, "1\n1\n0\n", "--vocab"},
		{Dir{}, "just some text", "not an archive"},
		{BBC{}, "PK\x03\x04 broken", "zip"},
		{JSONL{}, "{not json", "standard input:1"},
	}
	for _, tc := range cases {
		_, err := ReadStream(ctx, tc.rd, "standard input", strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%T: err = %v, want %q", tc.rd, err, tc.want)
		}
	}
}
