package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// TestReadDocTopics reads the layouts of a document-topic matrix: CSV with
// and without header and ID column, TSV, MatrixMarket (with the note of
// its summed entries).
func TestReadDocTopics(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"full.csv":   "id,space,food\nd1,0.5,0\nd2,0,1.25\n",
		"bare.csv":   "0.5,0\n0,1.25\n",
		"ids.tsv":    "d1\t0.5\t0\nd2\t0\t1.25\n",
		"header.csv": "space,food\n0.5,0\n0,1.25\n",
		"w.mtx":      "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 0.25\n2 2 1.25\n1 1 0.25\n",
	})
	want := mat.NewDense(2, 2, []float64{0.5, 0, 0, 1.25})
	for _, tc := range []struct {
		file   string
		topics []string
		ids    []string
		notes  int
	}{
		{"full.csv", []string{"space", "food"}, []string{"d1", "d2"}, 0},
		{"bare.csv", nil, nil, 0},
		{"ids.tsv", nil, []string{"d1", "d2"}, 0},
		{"header.csv", []string{"space", "food"}, nil, 0},
		{"w.mtx", nil, nil, 1},
	} {
		dt, err := ReadDocTopics(filepath.Join(dir, tc.file))
		if err != nil {
			t.Errorf("%s: %v", tc.file, err)
			continue
		}
		if !mat.Equal(dt.W, want) || !slices.Equal(dt.Topics, tc.topics) || !slices.Equal(dt.IDs, tc.ids) || len(dt.Notes) != tc.notes {
			t.Errorf("%s: W %v, topics %q, IDs %q, notes %q; want W %v, topics %q, IDs %q, %d notes",
				tc.file, mat.Formatted(dt.W), dt.Topics, dt.IDs, dt.Notes, mat.Formatted(want), tc.topics, tc.ids, tc.notes)
		}
	}
}

// TestWriteDocTopics writes document-topic matrices and reads them back,
// with IDs that look like numbers.
func TestWriteDocTopics(t *testing.T) {
	dir := t.TempDir()
	w := mat.NewDense(3, 2, []float64{0.1, 0, 1.0 / 3, 2e-300, 0, 7})
	for _, tc := range []struct {
		file string
		dt   DocTopics
		want string
	}{
		{"ids.csv", DocTopics{W: w, Topics: []string{"space", "food, and drink"}, IDs: []string{"1", "d 2", "3"}},
			"id,space,\"food, and drink\"\n1,0.1,0\nd 2,0.3333333333333333,2e-300\n3,0,7\n"},
		{"bare.tsv", DocTopics{W: w}, "0.1\t0\n0.3333333333333333\t2e-300\n0\t7\n"},
		{"names.tsv", DocTopics{W: w, Topics: []string{"a", "b"}}, "a\tb\n0.1\t0\n0.3333333333333333\t2e-300\n0\t7\n"},
	} {
		var b strings.Builder
		comma := ','
		if strings.HasSuffix(tc.file, ".tsv") {
			comma = '\t'
		}
		if err := WriteDocTopics(&b, &tc.dt, comma); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s: wrote %q, want %q", tc.file, b.String(), tc.want)
		}
		p := filepath.Join(dir, tc.file)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := ReadDocTopics(p)
		if err != nil {
			t.Fatal(err)
		}
		if !mat.Equal(got.W, w) || !slices.Equal(got.Topics, tc.dt.Topics) || !slices.Equal(got.IDs, tc.dt.IDs) {
			t.Errorf("%s: read back %v, %q, %q", tc.file, mat.Formatted(got.W), got.Topics, got.IDs)
		}
	}
	if err := WriteDocTopics(&strings.Builder{}, &DocTopics{W: w, IDs: []string{"a"}}, ','); err == nil {
		t.Error("1 ID for 3 rows is not refused")
	}
}

// TestReadDocTopicsErrors checks that bad input is refused with an error
// naming the file, and the line and column where there is one.
func TestReadDocTopicsErrors(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"word.csv":     "id,a,b\nd1,0.5,x\n",
		"negative.csv": "d1,0.5,0\nd2,-1,0\n",
		"nan.csv":      "0.5\nNaN\n",
		"short.csv":    "a,b\n",
		"nocols.csv":   "d1\nd2\n",
		"header.csv":   "id,a,b,c\nd1,1,2\n",
		"ragged.csv":   "1,2\n3\n",
		"empty.csv":    "",
		"empty.mtx":    "%%MatrixMarket matrix coordinate real general\n0 0 0\n",
		"neg.mtx":      "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 -2\n",
		"w.jsonl":      "{}\n",
	}
	writeFiles(t, dir, files)
	for file, want := range map[string]string{
		"word.csv":     `word.csv:2: column 3: "x" is not a number`,
		"negative.csv": "negative.csv:2: column 2: -1 is not a non-negative number",
		"nan.csv":      "nan.csv:2: column 1: NaN is not a non-negative number",
		"short.csv":    "short.csv: header but no documents",
		"nocols.csv":   "nocols.csv:1: no topic columns",
		"header.csv":   "header.csv",
		"ragged.csv":   "ragged.csv",
		"empty.csv":    "empty.csv: no rows",
		"empty.mtx":    "empty.mtx: empty 0×0 matrix",
		"neg.mtx":      "neg.mtx",
		"w.jsonl":      "w.jsonl: document-topic matrices are read from CSV, TSV or MatrixMarket files",
	} {
		_, err := ReadDocTopics(filepath.Join(dir, file))
		if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, want)) {
			t.Errorf("%s: %v, want %q", file, err, want)
		}
	}
	if _, err := ReadDocTopics(filepath.Join(dir, "missing.csv")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}

// TestReadLabelsFile reads labels files as the mtx format does, with the
// note of a file that is not UTF-8, and refuses an empty one.
func TestReadLabelsFile(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"labels.txt": "earn, acq\r\n\nacq,acq,\ncafé",
		"latin1.txt": "caf\xe9\n\n",
		"empty.txt":  "",
	})
	got, notes, err := ReadLabelsFile(filepath.Join(dir, "labels.txt"))
	if err != nil || notes != nil {
		t.Fatal(err, notes)
	}
	if want := [][]string{{"earn", "acq"}, nil, {"acq"}, {"café"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("labels %q, want %q", got, want)
	}
	got, notes, err = ReadLabelsFile(filepath.Join(dir, "latin1.txt"))
	if err != nil || len(notes) != 1 || !strings.Contains(notes[0], "Latin-1") || !reflect.DeepEqual(got, [][]string{{"café"}, nil}) {
		t.Errorf("a Latin-1 file: %q, notes %q, %v", got, notes, err)
	}
	if _, _, err := ReadLabelsFile(filepath.Join(dir, "empty.txt")); err == nil || !strings.Contains(err.Error(), "empty.txt: empty labels file") {
		t.Errorf("an empty file: %v", err)
	}
}

// TestSelect checks that Select keeps a split's documents and refuses
// what Subset would return empty.
func TestSelect(t *testing.T) {
	c := &Corpus{Docs: []Document{{ID: "a", Split: SplitTrain}, {ID: "b", Split: SplitTest}, {ID: "c", Split: SplitTrain}}}
	for s, want := range map[Split][]string{SplitNone: {"a", "b", "c"}, SplitTrain: {"a", "c"}, SplitTest: {"b"}} {
		got, err := c.Select(s, "x")
		if err != nil || !slices.Equal(ids(got), want) {
			t.Errorf("%v: %v, %v; want %v", s, ids(got), err, want)
		}
	}
	none := &Corpus{Docs: []Document{{ID: "a"}}}
	if _, err := none.Select(SplitTest, "p.jsonl"); !errors.Is(err, ErrNoSplit) || err.Error() != "p.jsonl has no train/test split" {
		t.Errorf("a split of a corpus without one: %v", err)
	}
	train := &Corpus{Docs: []Document{{ID: "a", Split: SplitTrain}}}
	if _, err := train.Select(SplitTest, "p.jsonl"); err == nil || err.Error() != "p.jsonl: no documents" {
		t.Errorf("an empty split: %v", err)
	}
	if _, err := (&Corpus{}).Select(SplitNone, "p.jsonl"); err == nil || err.Error() != "p.jsonl: no documents" {
		t.Errorf("an empty corpus: %v", err)
	}
}

// TestFormatName names every format NewReader makes, and nothing else.
func TestFormatName(t *testing.T) {
	for _, f := range Formats() {
		rd, err := NewReader(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got := FormatName(rd); got != f.Name {
			t.Errorf("FormatName(NewReader(%q)) = %q", f.Name, got)
		}
	}
	if got := FormatName(CSV{Comma: '\t'}); got != "tsv" {
		t.Errorf("a tab-separated CSV value: %q", got)
	}
	if got := FormatName(ReutersSGML{}); got != "reuters-sgml" {
		t.Errorf("a ReutersSGML value: %q", got)
	}
	if got := FormatName(nil); got != "" {
		t.Errorf("nil: %q", got)
	}
}

// TestWriteMTX writes a corpus in the mtx format and reads it back, with
// and without labels, and checks the refusals.
func TestWriteMTX(t *testing.T) {
	dir := t.TempDir()
	x, err := sparse.NewCSR(3, 2, []int{0, 1, 3, 3}, []int32{1, 0, 1}, []float64{2, 0.5, 1})
	if err != nil {
		t.Fatal(err)
	}
	vocab := []string{"oven", "rocket"}
	docs := []Document{{ID: "a", Labels: []string{"space", "news"}}, {ID: "b"}, {ID: "c", Labels: []string{"food"}}}
	files := MTXFiles{Matrix: filepath.Join(dir, "x.mtx"), IDs: filepath.Join(dir, "ids.txt")}
	written, err := WriteMTX(files, x, vocab, docs)
	if err != nil {
		t.Fatal(err)
	}
	labelsPath := filepath.Join(dir, "labels.txt")
	if want := []string{files.Matrix, filepath.Join(dir, "vocab.txt"), labelsPath, files.IDs}; !slices.Equal(written, want) {
		t.Errorf("wrote %q, want %q", written, want)
	}
	c := read(t, MTX{}, files.Matrix)
	if !mat.Equal(c.Matrix.X.ToDense(), x.ToDense()) || !slices.Equal(c.Matrix.Vocab, vocab) || !reflect.DeepEqual(DocLabels(c.Docs), [][]string{{"space", "news"}, nil, {"food"}}) {
		t.Errorf("read back: %v, %q, %q", c.Matrix.X, c.Matrix.Vocab, DocLabels(c.Docs))
	}
	if b, _ := os.ReadFile(files.IDs); string(b) != "a\nb\nc\n" {
		t.Errorf("IDs file %q", b)
	}

	// Unlabeled: the labels file left by the first write would be read
	// with the new matrix, so it becomes empty lines.
	unlabeled := []Document{{ID: "a"}, {ID: "b"}, {ID: "c"}}
	written, err = WriteMTX(MTXFiles{Matrix: files.Matrix}, x, vocab, unlabeled)
	if err != nil || !slices.Contains(written, labelsPath) {
		t.Fatalf("wrote %q, %v", written, err)
	}
	if b, _ := os.ReadFile(labelsPath); string(b) != "\n\n\n" {
		t.Errorf("stale labels file now %q", b)
	}
	other := filepath.Join(dir, "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	written, err = WriteMTX(MTXFiles{Matrix: filepath.Join(other, "x.mtx")}, x, vocab, unlabeled)
	if err != nil || len(written) != 2 {
		t.Errorf("an unlabeled corpus in a new folder: wrote %q, %v", written, err)
	}

	before, _ := os.ReadFile(files.Matrix)
	for _, tc := range []struct {
		docs  []Document
		files MTXFiles
		want  string
	}{
		{[]Document{{ID: "a", Labels: []string{"x,y"}}, {ID: "b"}, {ID: "c"}}, MTXFiles{Matrix: files.Matrix}, `document a: label "x,y" contains a comma or line break and cannot be written to ` + labelsPath},
		{[]Document{{ID: "a"}, {ID: "b\nc"}, {ID: "c"}}, files, `document ID "b\nc" contains a line break and cannot be written to ` + files.IDs},
		{docs[:2], files, "3 rows"},
	} {
		if _, err := WriteMTX(tc.files, x.SelectRows([]int{2, 1, 0}), vocab, tc.docs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v, want %q", err, tc.want)
		}
	}
	if after, _ := os.ReadFile(files.Matrix); !slices.Equal(before, after) {
		t.Error("a refused write changed the matrix file")
	}
}
