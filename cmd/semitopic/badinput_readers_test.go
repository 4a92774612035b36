package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// archiveMember is a file of an archive a case builds.
type archiveMember struct {
	name string
	data []byte
}

// tarGzOf returns a .tar.gz archive of the members.
func tarGzOf(t *testing.T, members ...archiveMember) string {
	t.Helper()
	var z bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&z, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	for _, m := range members {
		if err := tw.WriteHeader(&tar.Header{Name: m.name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(m.data))}); err != nil {
			t.Fatal(err)
		}
		tw.Write(m.data)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	return z.String()
}

// zipOf returns a zip archive of the members, deflated.
func zipOf(t *testing.T, members ...archiveMember) string {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
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
	return b.String()
}

// utf16LE returns s in UTF-16 (little endian) with its byte order mark.
func utf16LE(s string) string {
	b := []byte{0xff, 0xfe}
	for _, r := range s {
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

// The cases of the readers' area of issue 24: limits on archives,
// documents and lines; files that are not text; encodings; matrices.
func TestBadInputReaders(t *testing.T) {
	text := []byte("stocks rose today as markets rallied\n")
	ok := archiveMember{"docs/pos/a.txt", text}
	ok2 := archiveMember{"docs/neg/b.txt", []byte("bonds fell sharply on rates\n")}
	zeros := make([]byte, 6<<20) // compresses to a few KiB
	bomb := tarGzOf(t, ok, ok2, archiveMember{"docs/neg/big.txt", zeros})
	zipBomb := zipOf(t, ok, ok2, archiveMember{"docs/neg/big.txt", zeros})
	const hdr = "%%MatrixMarket matrix coordinate real general\n"
	vocab10 := "a1\nb2\nc3\nd4\ne5\nf6\ng7\nh8\ni9\nj10\n"
	negative := map[string]string{"X.mtx": hdr + "% c\n2 10 4\n1 1 2\n2 2 1\n1 9 -3.5\n2 3 1\n", "vocab.txt": vocab10}
	noBanner := map[string]string{"X.mtx": "2 10 4\n1 1 2\n2 2 1\n1 9 3.5\n2 3 1\n", "vocab.txt": vocab10}
	dups := map[string]string{"X.mtx": hdr + "3 4 5\n1 2 1\n1 3 1\n2 4 2\n% again\n1 2 4\n3 1 1\n", "vocab.txt": "alpha\nbeta\ngamma\ndelta\n"}
	fitArgs := func(format, path string, extra ...string) []string {
		return append([]string{"fit", "--kind", "nmf", "-k", "2", "--format", format, path, "--out", "$D/m.semitopic"}, extra...)
	}
	lowDoc := []string{"--max-doc-size", "1k", "--max-ratio", "1e6"}
	runBadCases(t, []badCase{
		// Item 1: limits.
		{name: "bomb, document size", files: map[string]string{"bomb.tar.gz": bomb},
			args: fitArgs("dir", "$D/bomb.tar.gz", lowDoc...),
			want: []string{"$D/bomb.tar.gz/docs/neg/big.txt", "6 MiB, more than 1 KiB, the limit for one document", "--max-doc-size"}},
		{name: "bomb, ratio", files: map[string]string{"bomb.tar.gz": bomb},
			args: fitArgs("dir", "$D/bomb.tar.gz"),
			want: []string{"$D/bomb.tar.gz", "decompresses to more than 100 times its size", "in docs/neg/big.txt", "--max-ratio"}},
		{name: "zip bomb, streamed", files: map[string]string{"bomb.zip": zipBomb},
			args: []string{"vectorize", "--format", "dir", "$D/bomb.zip", "--shards", "$D/S"},
			want: []string{"$D/bomb.zip", "decompresses to more than 100 times its size", "--max-ratio"},
			check: func(t *testing.T, dir, _, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "S")); err == nil {
					t.Error("shards written")
				}
			}},
		{name: "zip bomb, document size", files: map[string]string{"bomb.zip": zipBomb},
			args: []string{"corpus", "stats", "--format", "dir", "$D/bomb.zip", "--max-doc-size", "2M"},
			want: []string{"$D/bomb.zip/docs/neg/big.txt", "more than 2 MiB", "--max-doc-size"}},
		{name: "bomb on standard input", stdin: bomb,
			args: []string{"corpus", "stats", "--format", "dir", "-", "--max-doc-size", "1M", "--max-ratio", "1e6"},
			want: []string{"standard input/docs/neg/big.txt", "--max-doc-size"}},
		{name: "input size", files: map[string]string{"t.tar.gz": tarGzOf(t, ok, ok2)},
			args: []string{"corpus", "stats", "--format", "dir", "$D/t.tar.gz", "--max-input-size", "1k"},
			want: []string{"$D/t.tar.gz", "decompresses to more than 1 KiB, the limit for one input", "--max-input-size"}},
		{name: "jsonl line", files: map[string]string{"c.jsonl": "{\"text\": \"a b c\"}\n{\"text\": \"" + strings.Repeat("word ", 400) + "\"}\n"},
			args: []string{"vectorize", "--format", "jsonl", "$D/c.jsonl", "--out", "$D/x.mtx", "--max-doc-size", "1k"},
			want: []string{"$D/c.jsonl:2", "line longer than 1 KiB", "--max-doc-size"}},
		{name: "csv unclosed quote", files: map[string]string{"c.csv": "id,text\na,fine\nb,\"never closed\n" + strings.Repeat("more words\n", 1000)},
			args: fitArgs("csv", "$D/c.csv", "--max-doc-size", "1k"),
			want: []string{"$D/c.csv:3", "the record starting after line 2 is longer than 1 KiB", "unclosed quote", "--max-doc-size"}},
		{name: "limit flag", args: fitArgs("csv", "$D/c.csv", "--max-doc-size", "12 parsecs"),
			want: []string{"--max-doc-size", "12 parsecs"}},
		{name: "ratio flag", args: fitArgs("csv", "$D/c.csv", "--max-ratio", "0.5"),
			want: []string{"--max-ratio", "0.5"}},
		{name: "limit flag on shards", args: []string{"corpus", "stats", "--format", "shards", "$D/s", "--max-doc-size", "1M"},
			want: []string{"--max-doc-size", "shards"}},
		// Item 2: files that are not text.
		{name: "nested zip in a dir archive", files: map[string]string{"d.tar.gz": tarGzOf(t, ok, ok2,
			archiveMember{"docs/neg/inner.zip", []byte(zipOf(t, archiveMember{"x.txt", text}))},
			archiveMember{"docs/pos/photo.png", []byte("\x89PNG\r\n\x1a\n....")})},
			args: []string{"corpus", "stats", "--format", "dir", "$D/d.tar.gz"}, ok: true,
			want: []string{"documents   2", "skipped 2 files that are not text: neg/inner.zip (a zip archive), pos/photo.png (a PNG image)"}},
		{name: "nested archive, streamed", files: map[string]string{"d.zip": zipOf(t, ok, ok2, archiveMember{"docs/neg/inner.tar.gz", []byte(tarGzOf(t, ok))})},
			args: []string{"vectorize", "--format", "dir", "$D/d.zip", "--shards", "$D/S", "--min-len", "1"}, ok: true,
			want: []string{"note: skipped 1 file that is not text: neg/inner.tar.gz (gzip-compressed data)", "2 documents"}},
		{name: "binary csv", files: map[string]string{"c.csv": zipOf(t, ok)},
			args: fitArgs("csv", "$D/c.csv"), want: []string{"$D/c.csv is a zip archive, not text"}},
		// Item 3: the Latin-1 note in every command that reads text.
		{name: "latin-1 csv, fit", files: map[string]string{"l.csv": "id,text\nd1,caf\xe9 stocks rose today\nd2,bonds fell sharply again\nd3,markets rallied\n"},
			args: fitArgs("csv", "$D/l.csv"), ok: true,
			want: []string{"note: 1 file decoded as Latin-1 (not valid UTF-8): $D/l.csv"}},
		{name: "latin-1 jsonl, fit", files: map[string]string{"l.jsonl": "{\"text\": \"caf\xe9 stocks rose\"}\n{\"text\": \"bonds fell sharply\"}\n"},
			args: fitArgs("jsonl", "$D/l.jsonl"), ok: true,
			want: []string{"note: 1 file decoded as Latin-1 (not valid UTF-8): $D/l.jsonl"}},
		{name: "latin-1 jsonl, vectorize --shards", files: map[string]string{"l.jsonl": "{\"text\": \"caf\xe9 stocks rose\"}\n{\"text\": \"bonds fell sharply\"}\n"},
			args: []string{"vectorize", "--format", "jsonl", "$D/l.jsonl", "--shards", "$D/S"}, ok: true,
			want: []string{"note: 1 file decoded as Latin-1 (not valid UTF-8): $D/l.jsonl"}},
		{name: "latin-1 jsonl, transform", files: map[string]string{"l.jsonl": "{\"text\": \"caf\xe9 stocks rose\"}\n{\"text\": \"bonds fell sharply\"}\n",
			"u.jsonl": "{\"text\": \"stocks rose\"}\n{\"text\": \"bonds fell sharply\"}\n"},
			setup: func(t *testing.T, dir string) {
				if _, _, err := run(t, "fit", "--kind", "nmf", "-k", "2", "--format", "jsonl", filepath.Join(dir, "u.jsonl"), "--out", filepath.Join(dir, "u.semitopic")); err != nil {
					t.Fatal(err)
				}
			},
			args: []string{"transform", "--model", "$D/u.semitopic", "--format", "jsonl", "$D/l.jsonl", "--out", "$D/w.csv"}, ok: true,
			want: []string{"note: 1 file decoded as Latin-1 (not valid UTF-8): $D/l.jsonl"}},
		// Item 4: encodings.
		{name: "utf-16 csv", files: map[string]string{"u.csv": utf16LE("id,text,label\nd1,caf\u00e9 stocks rose today,x\nd2,bonds fell sharply,y\n")},
			args: fitArgs("csv", "$D/u.csv"), ok: true,
			want: []string{"note: 1 file decoded as UTF-16 (by the byte order mark): $D/u.csv", "café"}},
		{name: "utf-32 csv", files: map[string]string{"u.csv": "\xff\xfe\x00\x00i\x00\x00\x00d\x00\x00\x00"},
			args: fitArgs("csv", "$D/u.csv"), want: []string{"$D/u.csv", "UTF-32", "convert it to UTF-8"}},
		{name: "utf-16 without a mark", files: map[string]string{"u.csv": utf16LE("id,text\nd1,x\n")[2:]},
			args: fitArgs("csv", "$D/u.csv"), want: []string{"$D/u.csv", "NUL bytes", "UTF-16 text needs a byte order mark"}},
		{name: "latin-1 header", files: map[string]string{"l.csv": "id,t\xe9xt\nd1,x\n"},
			args: fitArgs("csv", "$D/l.csv"), want: []string{"$D/l.csv", `no "text" column (header: id, téxt)`, "decoded as Latin-1, as it is not valid UTF-8"}},
		// Item 5: matrices, one reader and one message for every command.
		{name: "mtx without banner, fit", files: noBanner, args: fitArgs("mtx", "$D/X.mtx"),
			want: []string{"$D/X.mtx", "MatrixMarket line 1: missing %%MatrixMarket banner"}},
		{name: "mtx without banner, vectorize", files: noBanner, args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--shards", "$D/S"},
			want: []string{"$D/X.mtx", "MatrixMarket line 1: missing %%MatrixMarket banner"}},
		{name: "mtx without banner, evaluate", files: noBanner, args: []string{"evaluate", "--doc-topics", "$D/X.mtx"},
			want: []string{"$D/X.mtx", "MatrixMarket line 1: missing %%MatrixMarket banner"}},
		{name: "negative value, fit", files: negative, args: fitArgs("mtx", "$D/X.mtx"),
			want: []string{"$D/X.mtx", "line 6", `entry (1,9) has the negative value "-3.5"`}},
		{name: "negative value, vectorize --shards", files: negative, args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--shards", "$D/S"},
			want: []string{"$D/X.mtx", "line 6", `entry (1,9) has the negative value "-3.5"`},
			check: func(t *testing.T, dir, _, _ string) {
				if _, err := os.Stat(filepath.Join(dir, "S")); err == nil {
					t.Error("shards written")
				}
			}},
		{name: "negative value, vectorize --out", files: negative, args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--out", "$D/out/Y.mtx"},
			want: []string{"$D/X.mtx", "line 6", `entry (1,9) has the negative value "-3.5"`}},
		{name: "negative value, evaluate", files: negative, args: []string{"evaluate", "--doc-topics", "$D/X.mtx"},
			want: []string{"$D/X.mtx", "line 6", `entry (1,9) has the negative value "-3.5"`}},
		{name: "duplicates, fit", files: dups, args: fitArgs("mtx", "$D/X.mtx"), ok: true,
			want: []string{"note: $D/X.mtx: 1 entry repeats the row and column of an earlier entry and was summed into it (the first: row 1, column 2, on lines 3 and 7)"}},
		{name: "duplicates, vectorize --shards", files: dups, args: []string{"vectorize", "--format", "mtx", "$D/X.mtx", "--shards", "$D/S"}, ok: true,
			want: []string{"note: $D/X.mtx: 1 entry repeats", "on lines 3 and 7"}},
		{name: "duplicates, evaluate", files: dups, args: []string{"evaluate", "--doc-topics", "$D/X.mtx"}, ok: true,
			want: []string{"note: $D/X.mtx: 1 entry repeats", "on lines 3 and 7"}},
		{name: "uci negative count", files: map[string]string{"docword.x.txt": "2\n3\n2\n1 1 2\n2 3 -3\n", "vocab.x.txt": "a\nb\nc\n"},
			args: fitArgs("uci", "$D/docword.x.txt"), want: []string{"$D/docword.x.txt:5", "positive integers"}},
		{name: "uci duplicate", files: map[string]string{"docword.x.txt": "2\n3\n3\n1 1 2\n1 1 3\n2 3 1\n", "vocab.x.txt": "a\nb\nc\n"},
			args: fitArgs("uci", "$D/docword.x.txt"), want: []string{"$D/docword.x.txt:5", "document 1 lists word 1 twice"}},
		// Item 6: synth's text reads back; an empty vocabulary says why.
		{name: "synth jsonl, default pipeline",
			setup: func(t *testing.T, dir string) {
				if _, _, err := run(t, "synth", "--preset", "small", "--docs", "60", "--format", "jsonl", "--out", filepath.Join(dir, "s.jsonl")); err != nil {
					t.Fatal(err)
				}
			},
			args: fitArgs("jsonl", "$D/s.jsonl"), ok: true, want: []string{"fitted on 60 documents"}},
		{name: "empty texts", files: map[string]string{"e.jsonl": "{\"text\": \"\"}\n{\"text\": \"  \"}\n"},
			args: fitArgs("jsonl", "$D/e.jsonl"), want: []string{"no term: the 2 documents have no text"}},
		{name: "short words", files: map[string]string{"w.jsonl": "{\"text\": \"w1 w2 w1\"}\n{\"text\": \"w3\"}\n"},
			args: fitArgs("jsonl", "$D/w.jsonl"), want: []string{"the tokenizer finds 4 tokens in the 2 documents", "4 by the length bounds (at least 3 characters)"}},
		{name: "df bounds", files: map[string]string{"d.jsonl": "{\"text\": \"stocks rose\"}\n{\"text\": \"bonds fell\"}\n"},
			args: fitArgs("jsonl", "$D/d.jsonl", "--min-df", "5"), want: []string{"min_df 5 keeps the terms in at least 5 of them", "each of the 4 terms is in 1 to 1 documents"}},
		// Item 7: the stopword lists.
		{name: "unknown stopword list", args: fitArgs("jsonl", "$D/d.jsonl", "--stopwords", "bogus"),
			want: []string{"--stopwords", `"bogus"`, "nltk, sklearn, none"}},
	})
}
