package corpus

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

// DocTopics is a documents × topics matrix read from a file by
// ReadDocTopics: a model's topic weights for each document (what
// "semitopic transform" writes), or another tool's.
type DocTopics struct {
	// W holds row i for document i, one column per topic.
	W *mat.Dense
	// Topics are the topic names of the file's header; nil without one.
	Topics []string
	// IDs are the documents' IDs of the file's first column; nil without
	// one.
	IDs []string
	// Notes says what a user may want to know about the read (duplicate
	// entries of a MatrixMarket file summed), as Corpus.Notes does.
	Notes []string
}

// ReadDocTopics reads a documents × topics matrix from path: a
// MatrixMarket file (.mtx, coordinate or array, read as ReadMatrixFile
// reads one) or a CSV file (.csv, or .tsv separated by tabs) made of an
// optional header row (the topic names; its first field names the ID column
// when there is one), an optional first column of document IDs (headed
// "id", or whose first field is not a number), then one number per topic. Every value must
// be a number ≥ 0; a bad value, a row of another length or an empty matrix
// is an error naming the file and line (and column).
func ReadDocTopics(path string) (*DocTopics, error) {
	lower := strings.ToLower(path)
	if strings.HasSuffix(lower, ".jsonl") || strings.HasSuffix(lower, ".json") {
		return nil, fmt.Errorf("%s: document-topic matrices are read from CSV, TSV or MatrixMarket files (transform writes CSV with --out FILE.csv)", path)
	}
	if strings.HasSuffix(lower, ".mtx") {
		x, notes, err := ReadMatrixFile(path)
		if err != nil {
			return nil, err
		}
		if x.Rows == 0 || x.Cols == 0 {
			return nil, fmt.Errorf("%s: empty %d×%d matrix", path, x.Rows, x.Cols)
		}
		return &DocTopics{W: x.ToDense(), Notes: notes}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	comma := ','
	if strings.HasSuffix(lower, ".tsv") {
		comma = '\t'
	}
	return parseDocTopics(path, f, comma)
}

// ReadMatrixFile reads the MatrixMarket file at path, a matrix of counts
// or weights, as the mtx format reads its matrix (see MTX), with the same
// messages: a file without its banner, a malformed line or a negative value
// is an error naming the file and line (and the 1-based entry), and
// duplicate entries are summed, which the note returned says
// (DuplicatesNote).
func ReadMatrixFile(path string) (*sparse.CSR, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	x, info, err := sparse.MatrixMarketReader{NonNegative: true}.ReadInfo(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var notes []string
	if info.Duplicates > 0 {
		notes = append(notes, DuplicatesNote(path, info))
	}
	return x, notes, nil
}

// ReadLabelsFile reads a labels file, the mtx format's (see MTX): one line
// per document, labels separated by commas (trimmed, repeats dropped), an
// empty line for an unlabeled document. It is decoded as the readers
// decode text (see DecodeText), and the note returned names it when it is
// not UTF-8 (the note comes back with an error too). An empty file is an
// error.
func ReadLabelsFile(path string) ([][]string, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	text, enc, err := DecodeText(b)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var notes []string
	if n := DecodingNote(enc, []string{path}); n != "" {
		notes = append(notes, n)
	}
	lines := splitLines(text)
	if len(lines) == 0 {
		return nil, notes, fmt.Errorf("%s: empty labels file", path)
	}
	out := make([][]string, len(lines))
	for i, l := range lines {
		out[i] = splitLabels(l, ",")
	}
	return out, notes, nil
}

// WriteDocTopics writes dt as a CSV file that ReadDocTopics reads back,
// with comma separating the fields (',', or '\t' for a TSV file): a
// header of the topic names when dt.Topics is set (its first field "id"
// when dt.IDs is set), then a row per document: its ID when dt.IDs is set,
// then its weights, written in full precision.
func WriteDocTopics(w io.Writer, dt *DocTopics, comma rune) error {
	n, k := dt.W.Dims()
	if dt.Topics != nil && len(dt.Topics) != k {
		return fmt.Errorf("corpus: WriteDocTopics: %d topic names for %d columns", len(dt.Topics), k)
	}
	if dt.IDs != nil && len(dt.IDs) != n {
		return fmt.Errorf("corpus: WriteDocTopics: %d IDs for %d rows", len(dt.IDs), n)
	}
	cw := csv.NewWriter(w)
	cw.Comma = comma
	row := make([]string, 0, k+1)
	if dt.Topics != nil {
		if dt.IDs != nil {
			row = append(row, "id")
		}
		if err := cw.Write(append(row, dt.Topics...)); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		row = row[:0]
		if dt.IDs != nil {
			row = append(row, dt.IDs[i])
		}
		for t := 0; t < k; t++ {
			row = append(row, strconv.FormatFloat(dt.W.At(i, t), 'g', -1, 64))
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// parseDocTopics parses a document-topic CSV file (see ReadDocTopics)
// named name in errors.
func parseDocTopics(name string, r io.Reader, comma rune) (*DocTopics, error) {
	cr := csv.NewReader(r)
	cr.Comma = comma
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	isNum := func(s string) bool {
		_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		return err == nil
	}
	out := &DocTopics{}
	start := 0
	// A header is a first row with a non-numeric field after the first.
	for _, f := range recs[0][1:] {
		if !isNum(f) {
			start = 1
			break
		}
	}
	// An ID column is a first column headed "id" (as WriteDocTopics
	// writes it), or whose first value is not a number.
	hasID := start == 1 && strings.EqualFold(strings.TrimSpace(recs[0][0]), "id") ||
		len(recs) > start && len(recs[start]) > 0 && !isNum(recs[start][0])
	first := 0
	if hasID {
		first = 1
	}
	if start == 1 {
		out.Topics = append([]string(nil), recs[0][first:]...)
	}
	rows := recs[start:]
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: header but no documents", name)
	}
	k := len(rows[0]) - first
	if k < 1 {
		return nil, fmt.Errorf("%s:%d: no topic columns", name, start+1)
	}
	if out.Topics != nil && len(out.Topics) != k {
		return nil, fmt.Errorf("%s: header names %d topics, rows have %d", name, len(out.Topics), k)
	}
	w := mat.NewDense(len(rows), k, nil)
	for i, rec := range rows {
		line := start + i + 1
		if len(rec)-first != k {
			return nil, fmt.Errorf("%s:%d: %d values, want %d", name, line, len(rec)-first, k)
		}
		if hasID {
			out.IDs = append(out.IDs, rec[0])
		}
		for j, s := range rec[first:] {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: column %d: %q is not a number", name, line, j+first+1, s)
			}
			if v < 0 || v != v {
				return nil, fmt.Errorf("%s:%d: column %d: %v is not a non-negative number", name, line, j+first+1, v)
			}
			w.Set(i, j, v)
		}
	}
	out.W = w
	return out, nil
}
