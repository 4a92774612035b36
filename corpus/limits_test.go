package corpus

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// member is a file of a test archive.
type member struct {
	name string
	data []byte
}

// writeTarGz writes members to a .tar.gz (or .tar) archive at out.
func writeTarGz(t testing.TB, out string, members ...member) string {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(m.data))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(m.data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	if strings.HasSuffix(out, ".gz") {
		var z bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
		zw.Write(b)
		zw.Close()
		b = z.Bytes()
	}
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// writeZip writes members, deflated, to a zip archive at out.
func writeZip(t testing.TB, out string, members ...member) string {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, m := range members {
		w, err := zw.Create(m.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(m.data)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// words returns n bytes of random lower-case words, which compress about
// as well as text.
func words(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 1))
	b := make([]byte, 0, n)
	for len(b) < n {
		for k := 2 + r.IntN(8); k > 0 && len(b) < n; k-- {
			b = append(b, byte('a'+r.IntN(26)))
		}
		if len(b) < n {
			b = append(b, ' ')
		}
	}
	return b
}

// limitErr checks that err is a *LimitError of the given limit whose
// message holds every want string.
func limitErr(t *testing.T, what string, err error, limit string, want ...string) {
	t.Helper()
	var le *LimitError
	if !errors.As(err, &le) || le.Limit != limit {
		t.Fatalf("%s: err = %v, want a %s LimitError", what, err, limit)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%s: error %q does not say %q", what, err, w)
		}
	}
}

// readAndStream reads p with r both ways and returns the two errors.
func readAndStream(r Reader, p string) (error, error) {
	_, rerr := r.Read(context.Background(), p)
	_, serr := Stream(context.Background(), r, p, Visitor{})
	return rerr, serr
}

// A decompression bomb fails on the limits, by Read and by Stream, in
// every archive, with an error naming the archive and the member.
func TestArchiveLimits(t *testing.T) {
	dir := t.TempDir()
	zeros := make([]byte, 6<<20)
	ok := member{"a/ok.txt", []byte("a small document")}
	tgz := writeTarGz(t, filepath.Join(dir, "bomb.tar.gz"), ok, member{"a/big.txt", zeros})
	tarPath := writeTarGz(t, filepath.Join(dir, "bomb.tar"), ok, member{"a/big.txt", zeros})
	zipPath := writeZip(t, filepath.Join(dir, "bomb.zip"), ok, member{"a/big.txt", zeros})
	small := Limits{MaxDocSize: 1 << 20, MaxRatio: 1e6}
	for _, p := range []string{tgz, tarPath, zipPath} {
		rerr, serr := readAndStream(Dir{Limits: small}, p)
		for _, err := range []error{rerr, serr} {
			limitErr(t, p, err, LimitDocSize, p+"/a/big.txt", "6 MiB, more than 1 MiB, the limit for one document")
		}
	}
	// With the default document limit, the ratio stops the compressed
	// archives (a zip by its size, a tar.gz by its stream).
	for _, p := range []string{tgz, zipPath} {
		rerr, serr := readAndStream(Dir{}, p)
		for _, err := range []error{rerr, serr} {
			limitErr(t, p, err, LimitRatio, p+":", "decompresses to more than 100 times its size", "a/big.txt")
		}
	}
	// The total: text members, none too large, that add up to more.
	text := writeTarGz(t, filepath.Join(dir, "text.tar.gz"), member{"a/1.txt", words(400<<10, 1)}, member{"a/2.txt", words(400<<10, 2)}, member{"a/3.txt", words(400<<10, 3)})
	rerr, serr := readAndStream(Dir{Limits: Limits{MaxInputSize: 1 << 20}}, text)
	for _, err := range []error{rerr, serr} {
		limitErr(t, text, err, LimitInputSize, text+":", "more than 1 MiB", "a/3.txt")
	}
	if _, err := (Dir{}).Read(context.Background(), text); err != nil {
		t.Errorf("the text archive within the default limits: %v", err)
	}
	// A folder's file is bounded as an archive's member.
	writeFiles(t, filepath.Join(dir, "folder"), map[string]string{"pos/a.txt": "fine", "pos/b.txt": string(words(2<<20, 4))})
	rerr, serr = readAndStream(Dir{Limits: small}, filepath.Join(dir, "folder"))
	for _, err := range []error{rerr, serr} {
		limitErr(t, "folder", err, LimitDocSize, filepath.Join(dir, "folder")+"/pos/b.txt", "2 MiB, more than 1 MiB")
	}
	// An archive on standard input.
	b, _ := os.ReadFile(tgz)
	_, err := ReadStream(context.Background(), Dir{Limits: small}, "standard input", bytes.NewReader(b))
	limitErr(t, "stdin", err, LimitDocSize, "standard input/a/big.txt")
	_, err = ReadStream(context.Background(), Dir{Limits: Limits{MaxInputSize: 1024}}, "standard input", bytes.NewReader(b))
	limitErr(t, "stdin", err, LimitInputSize, "standard input: more than 1 KiB")
	// A member too large that the reader skips is no error.
	skip := writeTarGz(t, filepath.Join(dir, "skip.tar"), ok, member{"a/big.bin", zeros})
	c, err := (Dir{Extensions: []string{".txt"}, Limits: small}).Read(context.Background(), skip)
	if err != nil || len(c.Docs) != 1 {
		t.Errorf("a filtered large member: %v", err)
	}
}

// Lines and records are bounded: an unclosed quote does not make the rest
// of a CSV file one field.
func TestLineLimits(t *testing.T) {
	dir := t.TempDir()
	long := string(words(300<<10, 5))
	jsonl := filepath.Join(dir, "d.jsonl")
	os.WriteFile(jsonl, []byte(`{"text": "short"}`+"\n"+`{"text": "`+long+`"}`+"\n"), 0o644)
	csvPath := filepath.Join(dir, "d.csv")
	os.WriteFile(csvPath, []byte("id,text\na,one\nb,\"two\n"+long+"\n"), 0o644)
	lim := Limits{MaxDocSize: 100 << 10}
	rerr, serr := readAndStream(JSONL{Limits: lim}, jsonl)
	for _, err := range []error{rerr, serr} {
		limitErr(t, "jsonl", err, LimitDocSize, jsonl+":2: line longer than 100 KiB")
	}
	rerr, serr = readAndStream(CSV{Limits: lim}, csvPath)
	for _, err := range []error{rerr, serr} {
		limitErr(t, "csv", err, LimitDocSize, csvPath+":3: the record starting after line 2 is longer than 100 KiB", "unclosed quote")
	}
	for _, r := range []Reader{JSONL{}, CSV{LazyQuotes: true}} {
		p := jsonl
		if _, ok := r.(CSV); ok {
			p = csvPath
		}
		if _, err := r.Read(context.Background(), p); err != nil && isLimit(err) {
			t.Errorf("%s within the default limits: %v", p, err)
		}
	}
}

// A gzip-compressed matrix is bounded by the ratio and the input size.
func TestMatrixGzipLimits(t *testing.T) {
	dir := t.TempDir()
	var body bytes.Buffer
	body.WriteString("%%MatrixMarket matrix coordinate integer general\n")
	for range 50 << 10 {
		body.WriteString("% a comment line of a hundred bytes, repeated to make a file that compresses far too well.....\n")
	}
	body.WriteString("1 1 1\n1 1 1\n")
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(body.Bytes())
	zw.Close()
	p := filepath.Join(dir, "x.mtx.gz")
	os.WriteFile(p, z.Bytes(), 0o644)
	os.WriteFile(filepath.Join(dir, "vocab.txt"), []byte("a\n"), 0o644)
	rerr, serr := readAndStream(MTX{}, p)
	for _, err := range []error{rerr, serr} {
		limitErr(t, "mtx.gz", err, LimitRatio, p+":")
	}
	rerr, serr = readAndStream(MTX{Limits: Limits{MaxRatio: 1e6, MaxInputSize: 1 << 20}}, p)
	for _, err := range []error{rerr, serr} {
		limitErr(t, "mtx.gz", err, LimitInputSize, p+": decompresses to more than 1 MiB")
	}
}

// A file that is not text inside a folder layout is skipped with a note
// naming it, never read as a document; a table file that is not text is an
// error saying what it seems to be.
func TestNotText(t *testing.T) {
	dir := t.TempDir()
	var inner bytes.Buffer
	zw := zip.NewWriter(&inner)
	w, _ := zw.Create("x.txt")
	w.Write([]byte("hidden text"))
	zw.Close()
	png := "\x89PNG\r\n\x1a\nrest"
	p := writeTarGz(t, filepath.Join(dir, "d.tar.gz"),
		member{"top/pos/a.txt", []byte("good text")},
		member{"top/pos/inner.zip", inner.Bytes()},
		member{"top/neg/b.txt", []byte("more text")},
		member{"top/neg/pic.png", []byte(png)},
		member{"top/neg/nul.txt", []byte("te\x00xt")},
		member{"top/neg/u16.txt", []byte("\xff\xfeh\x00i\x00")})
	c := read(t, Dir{}, p)
	equal(t, "documents", ids(c), []string{"neg/b.txt", "neg/u16.txt", "pos/a.txt"})
	equal(t, "UTF-16 text", byID(c)["neg/u16.txt"].Text, "hi")
	notes := strings.Join(c.Notes, "\n")
	for _, w := range []string{"skipped 3 files that are not text", "pos/inner.zip (a zip archive)", "neg/pic.png (a PNG image)", "neg/nul.txt (binary data", "1 file decoded as UTF-16 (by the byte order mark): top/neg/u16.txt"} {
		if !strings.Contains(notes, w) {
			t.Errorf("notes %q lack %q", notes, w)
		}
	}
	if !sameAsRead(t, Dir{}, p) {
		t.Error("read whole")
	}
	only := writeZip(t, filepath.Join(dir, "only.zip"), member{"x/inner.tar.gz", []byte("\x1f\x8b\x08\x00")})
	readErr(t, Dir{}, only, "no documents found", "x/inner.tar.gz (gzip-compressed data)")
	// Table files.
	for _, tc := range []struct {
		r    Reader
		body string
		want string
	}{
		{CSV{}, "PK\x03\x04zip", "is a zip archive, not text"},
		{JSONL{}, "{\"text\": \"a\x00b\"}\n", "is binary data (it holds NUL bytes; UTF-16 text needs a byte order mark), not text"},
		{CSV{}, "\xff\xfe\x00\x00i\x00\x00\x00", "UTF-32 (little endian"},
	} {
		f := filepath.Join(dir, "t.txt")
		os.WriteFile(f, []byte(tc.body), 0o644)
		rerr, serr := readAndStream(tc.r, f)
		for _, err := range []error{rerr, serr} {
			if err == nil || !strings.Contains(err.Error(), f) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%q: err = %v, want %q naming the file", tc.body, err, tc.want)
			}
		}
	}
}

// A UTF-16 table is decoded (by Read and by Stream alike) and noted; a
// column missing from a Latin-1 header says how the file was decoded.
func TestTableEncodings(t *testing.T) {
	dir := t.TempDir()
	utf16 := func(s string, le bool) []byte {
		b := []byte{0xfe, 0xff}
		if le {
			b = []byte{0xff, 0xfe}
		}
		for _, r := range s {
			if le {
				b = append(b, byte(r), byte(r>>8))
			} else {
				b = append(b, byte(r>>8), byte(r))
			}
		}
		return b
	}
	for _, le := range []bool{true, false} {
		p := filepath.Join(dir, "u.csv")
		os.WriteFile(p, utf16("id,text,label\nd1,\"Café rose\",x\nd2,more,y\n", le), 0o644)
		c := read(t, CSV{}, p)
		equal(t, "text", c.Docs[0].Text, "Café rose")
		equal(t, "notes", c.Notes, []string{"1 file decoded as UTF-16 (by the byte order mark): " + p})
		if !sameAsRead(t, CSV{}, p) {
			t.Error("read whole")
		}
		j := filepath.Join(dir, "u.jsonl")
		os.WriteFile(j, utf16("{\"text\": \"é\"}\n", le), 0o644)
		equal(t, "jsonl text", read(t, JSONL{}, j).Docs[0].Text, "é")
		sameAsRead(t, JSONL{}, j)
	}
	p := filepath.Join(dir, "l.csv")
	os.WriteFile(p, []byte("t\xe9xt,label\na,b\n"), 0o644)
	rerr, serr := readAndStream(CSV{}, p)
	for _, err := range []error{rerr, serr} {
		if err == nil || !strings.Contains(err.Error(), `no "text" column (header: téxt, label)`) || !strings.Contains(err.Error(), "decoded as Latin-1, as it is not valid UTF-8") {
			t.Errorf("err = %v", err)
		}
	}
	// The labels of a matrix, in UTF-16, streamed and read alike.
	m := writeMTX(t, dir, "m", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 1\n2 2 3\n")
	os.WriteFile(filepath.Join(filepath.Dir(m), "vocab.txt"), []byte("a\nb\n"), 0o644)
	os.WriteFile(filepath.Join(filepath.Dir(m), "labels.txt"), utf16("é\nx,y\n", true), 0o644)
	mc := read(t, MTX{}, m)
	equal(t, "labels", mc.Docs[1].Labels, []string{"x", "y"})
	if !sameAsRead(t, MTX{}, m) {
		t.Error("read whole")
	}
}

// Duplicate MatrixMarket entries are summed with a note, by Read and by
// Stream.
func TestMTXDuplicatesNote(t *testing.T) {
	dir := t.TempDir()
	m := writeMTX(t, dir, "d", "%%MatrixMarket matrix coordinate integer general\n2 3 4\n1 2 1\n1 3 1\n% c\n1 2 4\n2 1 1\n")
	os.WriteFile(filepath.Join(filepath.Dir(m), "vocab.txt"), []byte("a\nb\nc\n"), 0o644)
	c := read(t, MTX{}, m)
	equal(t, "notes", c.Notes, []string{m + ": 1 entry repeats the row and column of an earlier entry and was summed into it (the first: row 1, column 2, on lines 3 and 6)"})
	equal(t, "sum", c.Matrix.X.At(0, 1), 5.0)
	if !sameAsRead(t, MTX{}, m) {
		t.Error("read whole")
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"4096": 4096, "64M": 64 << 20, "1.5GiB": 3 << 29, "2 kb": 2048, "0": 0, "7b": 7, "1T": 1 << 40} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "M", "-1M", "3 parsecs", "1e400"} {
		if _, err := ParseSize(in); err == nil {
			t.Errorf("ParseSize(%q) accepted", in)
		}
	}
	for n, want := range map[int64]string{512: "512 bytes", 1 << 20: "1 MiB", 3 << 29: "1.5 GiB", 32 << 20: "32 MiB"} {
		equal(t, "FormatSize", FormatSize(n), want)
	}
	if err := (Limits{MaxRatio: -1}).Validate(); err == nil {
		t.Error("a negative ratio accepted")
	}
	var rd Reader = &Shards{}
	if err := SetLimits(rd, Limits{}); err == nil {
		t.Error("limits set on shards")
	}
	d := &Dir{}
	if err := SetLimits(d, Limits{MaxDocSize: 5}); err != nil || limitsOf(d).MaxDocSize != 5 || limitsOf(*d).MaxRatio != DefaultMaxRatio {
		t.Errorf("SetLimits: %v, %+v", err, d.Limits)
	}
}
