package corpus

import (
	"archive/tar"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// streamed reads path with Stream and assembles what it visits into a
// Corpus (with a Matrix for the vectorized formats), checking that Begin
// comes once, before the first document, with a document count that is
// right when it is given.
func streamed(t *testing.T, r Reader, path string) (*Corpus, *StreamInfo) {
	t.Helper()
	c := &Corpus{}
	begins, total := 0, -1
	var vocab []string
	var indptr []int
	var indices []int32
	var data []float64
	info, err := Stream(context.Background(), r, path, Visitor{
		Begin: func(v []string, docs int) error {
			begins++
			if len(c.Docs) > 0 {
				t.Errorf("Begin after %d documents", len(c.Docs))
			}
			vocab, total = v, docs
			if v != nil {
				indptr = []int{0}
			}
			return nil
		},
		Doc: func(d Document, row *Row) error {
			if begins != 1 {
				t.Errorf("document %s before Begin", d.ID)
			}
			if (row != nil) != (vocab != nil) {
				t.Errorf("document %s: row %v with vocabulary %v", d.ID, row, vocab != nil)
			}
			c.Docs = append(c.Docs, d)
			if row != nil {
				indices = append(indices, row.Cols...)
				data = append(data, row.Vals...)
				indptr = append(indptr, len(indices))
			}
			return nil
		},
	})
	if err != nil {
		t.Fatalf("Stream %s: %v", path, err)
	}
	if begins != 1 {
		t.Errorf("Begin called %d times", begins)
	}
	if total >= 0 && total != len(c.Docs) {
		t.Errorf("Begin announced %d documents, %d came", total, len(c.Docs))
	}
	if info.Docs != len(c.Docs) {
		t.Errorf("StreamInfo.Docs = %d, %d visited", info.Docs, len(c.Docs))
	}
	c.Name, c.Notes = info.Name, info.Notes
	if vocab != nil {
		c.Matrix = &Matrix{Vocab: vocab}
		c.Matrix.X = &sparse.CSR{Rows: len(c.Docs), Cols: len(vocab), Indptr: indptr, Indices: indices, Data: data}
	}
	return c, info
}

// sameAsRead checks that Stream visits what Read returns, value for
// value, and reports whether the corpus streamed.
func sameAsRead(t *testing.T, r Reader, path string) bool {
	t.Helper()
	want := read(t, r, path)
	got, info := streamed(t, r, path)
	equal(t, "name", got.Name, want.Name)
	equal(t, "notes", got.Notes, want.Notes)
	if !reflect.DeepEqual(got.Docs, want.Docs) {
		t.Errorf("%s: streamed documents differ:\n%+v\nwant\n%+v", path, got.Docs, want.Docs)
	}
	if (got.Matrix == nil) != (want.Matrix == nil) {
		t.Fatalf("%s: matrix %v, want %v", path, got.Matrix != nil, want.Matrix != nil)
	}
	if want.Matrix != nil {
		equal(t, "vocabulary", got.Matrix.Vocab, want.Matrix.Vocab)
		g, w := got.Matrix.X, want.Matrix.X
		if g.Rows != w.Rows || g.Cols != w.Cols || !slices.Equal(g.Indptr, w.Indptr) || !slices.Equal(g.Indices, w.Indices) || !sameBits(g.Data, w.Data) {
			t.Errorf("%s: streamed matrix %+v, want %+v", path, g, w)
		}
	}
	return !info.InMemory
}

// sameBits compares float slices bit for bit.
func sameBits(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}

// TestStreamTextFormats checks every text format on every container: the
// streamed documents are Read's, and only reuters-sgml is read whole.
func TestStreamTextFormats(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    Reader
		dir  string
		top  string
	}{
		{"20ng", Newsgroups{}, "testdata/20ng", "20news-bydate"},
		{"20ng-options", &Newsgroups{Subset: "train", Categories: []string{"sci.space"}, RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}, "testdata/20ng", ""},
		{"bbc", BBC{}, "testdata/bbc", ""},
		{"brown", Brown{}, "testdata/brown", ""},
		{"reuters-nltk", ReutersNLTK{}, "testdata/nltk-reuters", ""},
		{"dir", Dir{}, "testdata/20ng", "top"},
		{"dir-ext", &Dir{Extensions: []string{".txt"}}, "testdata/bbc", ""},
	} {
		for kind, p := range archives(t, tc.dir, tc.top) {
			t.Run(tc.name+"/"+kind, func(t *testing.T) {
				if !Streams(tc.r, p) {
					t.Error("Streams = false")
				}
				if !sameAsRead(t, tc.r, p) {
					t.Error("read whole")
				}
			})
		}
	}
	for _, tc := range []struct {
		r Reader
		p string
	}{
		{CSV{}, "testdata/table/docs.csv"},
		{CSV{Comma: '\t', TextColumn: "body", LabelColumn: "tags", IDColumn: "doc", SplitColumn: "4", LabelSep: ";"}, "testdata/table/docs.tsv"},
		{CSV{}, "testdata/table/latin1.csv"},
		{&CSV{NoHeader: true, TextColumn: "2", LabelColumn: "1"}, "testdata/table/noheader.csv"},
		{CSV{}, writeTemp(t, "bom.csv", utf8BOM+"id,text\r\na,\"one\r\ntwo\"\r\nb,caf\xe9\r\n")},
		{JSONL{}, "testdata/table/docs.jsonl"},
		{JSONL{}, writeTemp(t, "l1.jsonl", "{\"text\": \"caf\xe9 cr\xe8me\", \"label\": \"\xe9t\xe9\"}\r\n\r\n{\"text\": \"x\"}")},
		{&JSONL{}, writeTemp(t, "bom.jsonl", utf8BOM+`{"text": "naïve", "id": 7}`+"\n"+strings.Repeat(" ", 70000)+"\n"+`{"text": "`+strings.Repeat("long ", 30000)+`"}`)},
	} {
		t.Run(tc.p, func(t *testing.T) {
			if !sameAsRead(t, tc.r, tc.p) {
				t.Error("read whole")
			}
		})
	}
	t.Run("reuters-sgml", func(t *testing.T) {
		if Streams(ReutersSGML{}, "testdata/reuters-sgml") {
			t.Error("Streams = true")
		}
		if sameAsRead(t, ReutersSGML{}, "testdata/reuters-sgml") {
			t.Error("reuters-sgml streamed")
		}
	})
	if Streams(JSONL{}, Stdin) {
		t.Error("standard input streams")
	}
}

// writeTarOrder writes the files under dir to a tar.gz archive in the
// given order of their sorted list (perm[k] is the file written k-th).
func writeTarOrder(t *testing.T, dir, out string, order func(files []string) []string) {
	t.Helper()
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	for _, rel := range order(walkFiles(t, dir)) {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := tw.WriteHeader(&tar.Header{Name: rel, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(b))}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
}

// TestLazyTar checks that a tar archive is read without holding its
// contents: in sweeps forward through the archive, a new sweep only when a
// file comes before the last one read, and whole into memory once the
// sweeps would be too many; the documents are Read's in every case.
func TestLazyTar(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := range 12 {
		files[fmt.Sprintf("g%d/f%02d.txt", i%3, i)] = fmt.Sprintf("document %d", i)
	}
	writeFiles(t, dir, files)
	sorted := filepath.Join(t.TempDir(), "sorted.tgz")
	writeTarOrder(t, dir, sorted, func(f []string) []string { return f })
	reversed := filepath.Join(t.TempDir(), "reversed.tgz")
	writeTarOrder(t, dir, reversed, func(f []string) []string { slices.Reverse(f); return f })

	lt, err := openLazyTar(sorted, true, Limits{}.resolved())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range walkFiles(t, dir) {
		b, err := lt.ReadFile(name)
		if err != nil || string(b) != files[name] {
			t.Fatalf("ReadFile(%s) = %q, %v", name, b, err)
		}
	}
	if lt.sweeps != 0 || lt.whole {
		t.Errorf("in archive order: %d more sweeps, whole %v", lt.sweeps, lt.whole)
	}
	if fi, err := lt.Stat("g1/f04.txt"); err != nil || fi.Size() != int64(len(files["g1/f04.txt"])) {
		t.Errorf("Stat = %v, %v", fi, err)
	}
	if _, err := lt.ReadFile("g0/f00.txt"); err != nil || lt.sweeps != 1 {
		t.Errorf("going back: %v, %d sweeps", err, lt.sweeps)
	}
	lt.Close()

	lt, err = openLazyTar(reversed, true, Limits{}.resolved())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range walkFiles(t, dir) {
		b, err := lt.ReadFile(name)
		if err != nil || string(b) != files[name] {
			t.Fatalf("ReadFile(%s) = %q, %v", name, b, err)
		}
	}
	if !lt.whole || lt.sweeps != maxTarSweeps+1 {
		t.Errorf("in reverse order: %d sweeps, whole %v", lt.sweeps, lt.whole)
	}
	lt.Close()

	for _, p := range []string{sorted, reversed} {
		if !sameAsRead(t, Dir{}, p) {
			t.Errorf("%s read whole", p)
		}
	}

	// An opened corpus reads the same documents on every pass, listing
	// the archive once and counting its sweeps afresh in each pass.
	ng := archives(t, "testdata/20ng", "")["tar.gz"]
	want := read(t, Newsgroups{}, ng)
	sc, err := OpenStream(Newsgroups{}, ng)
	if err != nil {
		t.Fatal(err)
	}
	for pass := range 3 {
		var docs []Document
		info, err := sc.Visit(context.Background(), Visitor{Doc: func(d Document, _ *Row) error {
			docs = append(docs, d)
			return nil
		}})
		if err != nil || info.InMemory || !reflect.DeepEqual(docs, want.Docs) {
			t.Errorf("pass %d: %v, %+v", pass, err, info)
		}
		if lt := sc.fsys.(*lazyTar); lt.whole || lt.sweeps != 1 {
			t.Errorf("pass %d: %d sweeps, whole %v", pass, lt.sweeps, lt.whole)
		}
	}
	if err := sc.Close(); err != nil {
		t.Error(err)
	}
	if _, err := OpenStream(Newsgroups{Subset: "dev"}, ng); err == nil {
		t.Error("an unknown subset opened")
	}
	if _, err := openLazyTar(writeTemp(t, "bad.tgz", "not gzip"), true, Limits{}.resolved()); err == nil {
		t.Error("a bad archive opened")
	}
}

// TestStreamMatrixFormats checks mtx, uci and shards: the streamed rows,
// vocabulary and labels are Read's.
func TestStreamMatrixFormats(t *testing.T) {
	dir := t.TempDir()
	mtx := func(name, body, vocab, labels string) string {
		d := filepath.Join(dir, name)
		files := map[string]string{"x.mtx": body, "vocab.txt": vocab}
		if labels != "" {
			files["labels.txt"] = labels
		}
		writeFiles(t, d, files)
		return filepath.Join(d, "x.mtx")
	}
	gzPath := filepath.Join(dir, "gz", "x.mtx.gz")
	writeFiles(t, filepath.Dir(gzPath), map[string]string{"vocab.txt": "a\nb\nc\n"})
	{
		f, err := os.Create(gzPath)
		if err != nil {
			t.Fatal(err)
		}
		zw := gzip.NewWriter(f)
		zw.Write([]byte("%%MatrixMarket matrix coordinate real general\n4 3 3\n1 1 0.5\n3 2 1e-3\n4 3 2\n"))
		zw.Close()
		f.Close()
	}
	streams := []struct {
		r Reader
		p string
	}{
		{MTX{}, "testdata/mtx/docs.mtx"},
		{MTX{}, gzPath},
		{MTX{}, mtx("dups", "%%MatrixMarket matrix coordinate real general\n% comment\n\n4 3 8\n1 3 0.1\n1 1 2\n1 3 0.2\n1 3 0.3\n2 2 0\n3 1 1.5\n3 1 1.5\n4 2 +7\n", "a\nb\nc\n", "x, y ,x\n\n\xe9t\xe9\r\nz\n")},
		{&MTX{}, mtx("pattern", "%%matrixmarket MATRIX Coordinate Pattern General\n3 2 2\n2 2\n3 1\n", "a\nb\n", utf8BOM+"p\nq\nr")},
		{MTX{}, mtx("integer", "%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 9007199254740993\n2\t1  4\n", "a\nb\n", "")},
		{MTX{}, mtx("empty-rows", "%%MatrixMarket matrix coordinate real general\n5 2 1\n3 2 1\n", "a\nb\n", "")},
		{UCI{}, "testdata/uci/docword.tiny.txt"},
		{UCI{}, writeUCI(t, dir, "gaps", "5\n3\n4\n2 3 1\n2 1 4\n\n4 2 2\n5 3 1\n", "a\nb\nc\n")},
	}
	for _, tc := range streams {
		t.Run(tc.p, func(t *testing.T) {
			if !sameAsRead(t, tc.r, tc.p) {
				t.Error("read whole")
			}
		})
	}
	// Layouts that do not stream, and headers Read rejects, go to Read.
	for _, tc := range []struct {
		p       string
		wantErr string
	}{
		{mtx("symmetric", "%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n1 1 1\n2 1 3\n", "a\nb\n", ""), ""},
		{mtx("array", "%%MatrixMarket matrix array real general\n2 2\n1\n0\n0\n2\n", "a\nb\n", ""), ""},
		{mtx("bad-vocab", "%%MatrixMarket matrix coordinate real general\n2 3 0\n", "a\nb\n", ""), "the vocabulary"},
		{mtx("bad-labels", "%%MatrixMarket matrix coordinate real general\n2 2 0\n", "a\nb\n", "x\n"), "labels file"},
		{mtx("bad-banner", "%%MatrixMarket matrix coordinate complex general\n2 2 0\n", "a\nb\n", ""), "complex"},
		{mtx("no-banner", "2 2 1\n1 1 1\n", "a\nb\n", ""), "line 1: missing %%MatrixMarket banner"},
		{mtx("negative", "%%MatrixMarket matrix coordinate real general\n% c\n2 10 4\n1 1 2\n2 2 1\n1 9 -3.5\n2 3 1\n", "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", ""), "line 6: entry (1,9) has the negative value \"-3.5\""},
	} {
		t.Run(tc.p, func(t *testing.T) {
			if tc.wantErr != "" {
				_, rerr := MTX{}.Read(context.Background(), tc.p)
				_, serr := Stream(context.Background(), MTX{}, tc.p, Visitor{})
				if rerr == nil || serr == nil || rerr.Error() != serr.Error() || !strings.Contains(serr.Error(), tc.wantErr) {
					t.Errorf("Stream error %v, Read error %v", serr, rerr)
				}
				return
			}
			if sameAsRead(t, MTX{}, tc.p) {
				t.Error("streamed")
			}
		})
	}

	// A sharded corpus of several shards, with labels.
	sd := filepath.Join(dir, "shards")
	w, err := shard.Create(sd, 3, shard.Options{RowsPerShard: 2, Vocab: []string{"a", "b", "c"}, Labels: true})
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range [][]string{{"x"}, nil, {"y", "z"}, nil, {"x"}} {
		if err := w.Add([]int32{int32(i % 3)}, []float64{float64(i) + 0.5}, l); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if !sameAsRead(t, Shards{}, sd) {
		t.Error("shards read whole")
	}
}

// writeUCI writes docword.NAME.txt and vocab.NAME.txt under dir.
func writeUCI(t *testing.T, dir, name, docword, vocab string) string {
	t.Helper()
	d := filepath.Join(dir, "uci-"+name)
	writeFiles(t, d, map[string]string{"docword." + name + ".txt": docword, "vocab." + name + ".txt": vocab})
	return filepath.Join(d, "docword."+name+".txt")
}

// TestStreamErrors checks that a bad input fails with Read's message, that
// entries out of row order wrap ErrRowOrder, and that the visitor's
// errors stop the reading.
func TestStreamErrors(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	for _, tc := range []struct {
		r Reader
		p string
	}{
		{JSONL{}, writeTemp(t, "bad.jsonl", "{\"text\": \"a\"}\n{\"text\": 3}\n")},
		{JSONL{}, writeTemp(t, "dup.jsonl", "{\"text\": \"a\", \"id\": \"x\"}\n\n{\"text\": \"b\", \"id\": \"x\"}\n")},
		{JSONL{}, writeTemp(t, "empty.jsonl", "\n\n")},
		{CSV{}, writeTemp(t, "bad.csv", "id,text\na,\"b\nc,d\n")},
		{CSV{}, writeTemp(t, "nocol.csv", "id,body\na,b\n")},
		{MTX{}, writeMTX(t, dir, "range", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n2 3 1\n")},
		{MTX{}, writeMTX(t, dir, "short", "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1\n2 2 1\n")},
		{MTX{}, writeMTX(t, dir, "long", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 1\n2 2 1\n")},
		{MTX{}, writeMTX(t, dir, "value", "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n")},
		{MTX{}, writeMTX(t, dir, "nan", "%%MatrixMarket matrix coordinate real general\n2 2 1\n1 1 NaN\n")},
		{MTX{}, writeMTX(t, dir, "inf", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1e308\n1 1 1e308\n")},
		{UCI{}, writeUCI(t, dir, "dup", "2\n2\n3\n1 1 1\n1 2 1\n1 1 2\n", "a\nb\n")},
		{UCI{}, writeUCI(t, dir, "range", "2\n2\n1\n3 1 1\n", "a\nb\n")},
		{UCI{}, writeUCI(t, dir, "nnz", "2\n2\n2\n1 1 1\n", "a\nb\n")},
		{UCI{}, writeUCI(t, dir, "d0", "0\n2\n0\n", "a\nb\n")},
		{Dir{}, t.TempDir()},
	} {
		_, rerr := tc.r.Read(ctx, tc.p)
		_, serr := Stream(ctx, tc.r, tc.p, Visitor{})
		if rerr == nil || serr == nil || rerr.Error() != serr.Error() {
			t.Errorf("%s: Stream error %v, Read error %v", tc.p, serr, rerr)
		}
	}
	for _, tc := range []struct {
		r    Reader
		p    string
		line string
	}{
		{MTX{}, writeMTX(t, dir, "order", "%%MatrixMarket matrix coordinate real general\n3 2 3\n2 1 1\n3 1 1\n1 2 1\n"), ":5: "},
		{UCI{}, writeUCI(t, dir, "order", "3\n2\n3\n2 1 1\n3 1 1\n1 2 1\n", "a\nb\n"), ":6: "},
	} {
		if _, err := Stream(ctx, tc.r, tc.p, Visitor{}); !errors.Is(err, ErrRowOrder) || !strings.Contains(err.Error(), tc.line) {
			t.Errorf("%s: %v, want ErrRowOrder at line %s", tc.p, err, tc.line)
		}
		read(t, tc.r, tc.p) // Read reads it
	}
	stop := errors.New("stop")
	for _, tc := range []struct {
		r Reader
		p string
	}{
		{Newsgroups{}, archives(t, "testdata/20ng", "")["tar.gz"]},
		{JSONL{}, "testdata/table/docs.jsonl"},
		{CSV{}, "testdata/table/docs.csv"},
		{MTX{}, "testdata/mtx/docs.mtx"},
		{UCI{}, "testdata/uci/docword.tiny.txt"},
		{ReutersSGML{}, "testdata/reuters-sgml"},
	} {
		n := 0
		_, err := Stream(ctx, tc.r, tc.p, Visitor{Doc: func(Document, *Row) error {
			if n++; n == 2 {
				return stop
			}
			return nil
		}})
		if !errors.Is(err, stop) || n != 2 {
			t.Errorf("%s: %v after %d documents", tc.p, err, n)
		}
		_, err = Stream(ctx, tc.r, tc.p, Visitor{Begin: func([]string, int) error { return stop }})
		if !errors.Is(err, stop) {
			t.Errorf("%s: Begin's error: %v", tc.p, err)
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Stream(cctx, Newsgroups{}, "testdata/20ng", Visitor{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// writeMTX writes NAME/x.mtx with a vocabulary of two terms.
func writeMTX(t *testing.T, dir, name, body string) string {
	t.Helper()
	d := filepath.Join(dir, "mtx-"+name)
	writeFiles(t, d, map[string]string{"x.mtx": body, "vocab.txt": "a\nb\n"})
	return filepath.Join(d, "x.mtx")
}
