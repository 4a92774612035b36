package corpus

import (
	"bytes"
	"compress/gzip"
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/sparse"
)

// denseOf returns x as row slices, for comparisons.
func denseOf(x *sparse.CSR) [][]float64 {
	out := make([][]float64, x.Rows)
	for i := range out {
		out[i] = make([]float64, x.Cols)
		for j := range out[i] {
			out[i][j] = x.At(i, j)
		}
	}
	return out
}

var tinyMatrix = [][]float64{{2, 0, 1, 0}, {0, 4, 0, 0}, {3, 0, 0, 1}}

func TestMTX(t *testing.T) {
	c := read(t, MTX{}, "testdata/mtx/docs.mtx")
	equal(t, "IDs", ids(c), []string{"doc-1", "doc-2", "doc-3"})
	equal(t, "vocab", c.Matrix.Vocab, []string{"apple", "banana", "cherry", "date"})
	equal(t, "matrix", denseOf(c.Matrix.X), tinyMatrix)
	equal(t, "labels", c.Docs[0].Labels, []string{"fruit", "red"})
	if c.Docs[1].Labels != nil {
		t.Errorf("doc-2 labels = %q, want none", c.Docs[1].Labels)
	}

	// Without labels.txt beside it the documents are unlabeled; gzip works.
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	b, _ := os.ReadFile("testdata/mtx/docs.mtx")
	zw.Write(b)
	zw.Close()
	writeFiles(t, dir, map[string]string{"m.mtx.gz": gz.String(), "vocab.txt": "apple\nbanana\r\ncherry\ndate"})
	c = read(t, MTX{}, filepath.Join(dir, "m.mtx.gz"))
	equal(t, "matrix", denseOf(c.Matrix.X), tinyMatrix)
	if c.Docs[0].Labels != nil {
		t.Errorf("labels without a labels file: %q", c.Docs[0].Labels)
	}
	// Explicit paths.
	writeFiles(t, dir, map[string]string{"m.mtx": string(b), "v.txt": "a\nb\nc\nd\n", "l.txt": "x\ny\nz, w ,\n"})
	c = read(t, MTX{Vocab: filepath.Join(dir, "v.txt"), Labels: filepath.Join(dir, "l.txt")}, filepath.Join(dir, "m.mtx"))
	equal(t, "labels", c.Docs[2].Labels, []string{"z", "w"})
}

func TestMTXErrors(t *testing.T) {
	mtx, _ := os.ReadFile("testdata/mtx/docs.mtx")
	cases := []struct {
		name  string
		files map[string]string
		r     MTX
		want  string
	}{
		{"no vocab", map[string]string{"m.mtx": string(mtx)}, MTX{}, "reading the vocabulary"},
		{"short vocab", map[string]string{"m.mtx": string(mtx), "vocab.txt": "a\nb\nc\n"}, MTX{}, "4 columns but the vocabulary"},
		{"empty term", map[string]string{"m.mtx": string(mtx), "vocab.txt": "a\n\nc\nd\n"}, MTX{}, "vocab.txt:2: empty term"},
		{"repeated term", map[string]string{"m.mtx": string(mtx), "vocab.txt": "a\nb\na\nd\n"}, MTX{}, `vocab.txt:3: term "a" already on line 1`},
		{"short labels", map[string]string{"m.mtx": string(mtx), "vocab.txt": "a\nb\nc\nd\n", "labels.txt": "x\ny\n"}, MTX{}, "3 rows but the labels file"},
		{"explicit labels missing", map[string]string{"m.mtx": string(mtx), "vocab.txt": "a\nb\nc\nd\n"}, MTX{Labels: "nolabels.txt"}, "reading the labels"},
		{"bad matrix", map[string]string{"m.mtx": "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 9 1\n", "vocab.txt": "a\nb\nc\nd\n"}, MTX{}, "m.mtx: sparse: MatrixMarket line 3"},
		{"huge header", map[string]string{"m.mtx": "%%MatrixMarket matrix coordinate real general\n3 4000000000 1\n", "vocab.txt": "a\nb\nc\nd\n"}, MTX{}, "4000000000 columns but the vocabulary"},
		{"too many rows", map[string]string{"m.mtx": "%%MatrixMarket matrix coordinate real general\n3 4 0\n", "vocab.txt": "a\nb\nc\nd\n"}, MTX{MaxDocs: 2}, "m.mtx: sparse"},
		{"bad gzip", map[string]string{"m.mtx.gz": "nope", "vocab.txt": "a\n"}, MTX{}, "m.mtx.gz"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, tc.files)
			p := filepath.Join(dir, "m.mtx")
			if _, ok := tc.files["m.mtx.gz"]; ok {
				p += ".gz"
			}
			r := tc.r
			if r.Labels != "" {
				r.Labels = filepath.Join(dir, r.Labels)
			}
			readErr(t, r, p, tc.want)
		})
	}
}

func TestUCI(t *testing.T) {
	c := read(t, UCI{}, "testdata/uci/docword.tiny.txt")
	equal(t, "IDs", ids(c), []string{"doc-1", "doc-2", "doc-3"})
	equal(t, "vocab", c.Matrix.Vocab, []string{"apple", "banana", "cherry", "date"})
	equal(t, "matrix", denseOf(c.Matrix.X), tinyMatrix)
	equal(t, "name", c.Name, "uci: testdata/uci/docword.tiny.txt")

	// Gzipped, unsorted rows and columns, empty rows, an explicit vocabulary.
	dir := t.TempDir()
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("5\n4\n5\n3 4 1\n3 1 3\n1 3 1\n1 1 2\n\n2 2 4\n"))
	zw.Close()
	writeFiles(t, dir, map[string]string{"docword.x.txt.gz": gz.String(), "words.txt": "apple\nbanana\ncherry\ndate\n"})
	c = read(t, UCI{Vocab: filepath.Join(dir, "words.txt")}, filepath.Join(dir, "docword.x.txt.gz"))
	equal(t, "matrix", denseOf(c.Matrix.X), append(append([][]float64{}, tinyMatrix...), []float64{0, 0, 0, 0}, []float64{0, 0, 0, 0}))
}

func TestUCIErrors(t *testing.T) {
	vocab := "a\nb\nc\n"
	cases := []struct{ name, docword, want string }{
		{"missing header", "2\n3\n", "docword.t.txt:3: missing header line NNZ"},
		{"bad header", "2\nthree\n1\n", "docword.t.txt:2: header line W (number of words)"},
		{"W mismatch", "2\n4\n1\n1 1 1\n", "W=4 words but the vocabulary has 3"},
		{"D zero", "0\n3\n0\n", "D=0"},
		{"NNZ too big", "2\n3\n7\n", "NNZ=7, more than D×W"},
		{"doc out of range", "2\n3\n1\n3 1 1\n", "docword.t.txt:4: docID 3 out of range 1..2"},
		{"word out of range", "2\n3\n1\n1 4 1\n", "docword.t.txt:4: wordID 4 out of range 1..3"},
		{"zero count", "2\n3\n1\n1 1 0\n", "docword.t.txt:4: want \"docID wordID count\""},
		{"zero doc", "2\n3\n1\n0 1 1\n", "docword.t.txt:4"},
		{"float count", "2\n3\n1\n1 1 1.5\n", "docword.t.txt:4"},
		{"two fields", "2\n3\n1\n1 1\n", "docword.t.txt:4"},
		{"four fields", "2\n3\n1\n1 1 1 1\n", "docword.t.txt:4"},
		{"negative", "2\n3\n1\n1 -1 1\n", "docword.t.txt:4"},
		{"too many entries", "2\n3\n1\n1 1 1\n2 2 2\n", "docword.t.txt:5: more entries than NNZ=1"},
		{"too few entries", "2\n3\n3\n1 1 1\n2 2 2\n", "NNZ=3 but the file has 2 entries"},
		{"repeated sorted", "2\n3\n2\n1 2 1\n1 2 1\n", "docword.t.txt:5: document 1 lists word 2 twice"},
		{"repeated unsorted", "2\n3\n3\n2 1 1\n1 2 1\n2 1 5\n", "document 2 lists word 1 twice"},
		{"too many docs", "100\n3\n0\n", "D=100 documents, more than the limit of 10"},
		{"long line", "2\n3\n1\n" + strings.Repeat("1", 2<<20) + "\n", "docword.t.txt:4"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFiles(t, dir, map[string]string{"docword.t.txt": tc.docword, "vocab.t.txt": vocab})
			readErr(t, UCI{MaxDocs: 10}, filepath.Join(dir, "docword.t.txt"), tc.want)
		})
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"bow.txt": "1\n1\n0\n", "docword.x.txt": "1\n1\n0\n"})
	readErr(t, UCI{}, filepath.Join(dir, "bow.txt"), "not named docword.NAME.txt")
	readErr(t, UCI{}, filepath.Join(dir, "docword.x.txt"), "reading the vocabulary")
	readErr(t, UCI{Vocab: filepath.Join(dir, "docword.x.txt")}, filepath.Join(dir, "missing.txt"), "missing.txt")
}

// TestUCIRandom checks the streaming builder against a direct construction
// on random inputs, in sorted and shuffled entry order.
func TestUCIRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 30; trial++ {
		d, w := 1+rng.Intn(20), 1+rng.Intn(15)
		want := make([][]float64, d)
		var lines []string
		for i := range want {
			want[i] = make([]float64, w)
			for j := range want[i] {
				if rng.Float64() < 0.3 {
					want[i][j] = float64(1 + rng.Intn(9))
					lines = append(lines, strconv.Itoa(i+1)+" "+strconv.Itoa(j+1)+" "+strconv.Itoa(int(want[i][j])))
				}
			}
		}
		if trial%2 == 1 {
			rng.Shuffle(len(lines), func(a, b int) { lines[a], lines[b] = lines[b], lines[a] })
		}
		src := strconv.Itoa(d) + "\n" + strconv.Itoa(w) + "\n" + strconv.Itoa(len(lines)) + "\n" + strings.Join(lines, "\n")
		x, err := readDocword(context.Background(), "t", strings.NewReader(src), w, 0, 4)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		equal(t, "trial "+strconv.Itoa(trial), denseOf(x), want)
	}
}

func TestUCICanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := readDocword(ctx, "t", strings.NewReader("1\n1\n1\n1 1 1\n"), 1, 0, 1); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("err = %v", err)
	}
}

// BenchmarkReadDocword measures the UCI reader on a synthetic file of
// 200,000 entries (sorted, as UCI files are), reporting entries per second.
func BenchmarkReadDocword(b *testing.B) {
	rng := rand.New(rand.NewSource(1))
	const d, w, perDoc = 2000, 5000, 100
	var sb strings.Builder
	sb.WriteString("2000\n5000\n200000\n")
	for i := 1; i <= d; i++ {
		words := rng.Perm(w)[:perDoc]
		sort.Ints(words)
		for _, j := range words {
			sb.WriteString(strconv.Itoa(i) + " " + strconv.Itoa(j+1) + " " + strconv.Itoa(1+rng.Intn(5)) + "\n")
		}
	}
	src := sb.String()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for range b.N {
		if _, err := readDocword(context.Background(), "t", strings.NewReader(src), w, 0, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(d*perDoc)*float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
