package main

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/sparse"
)

// docTopics is a documents × topics matrix read from a file, with the
// topic names and document IDs when the file has them.
type docTopics struct {
	W      *mat.Dense
	Topics []string // nil when the file has no header
	IDs    []string // nil when the file has no ID column
}

// readDocTopics reads a documents × topics matrix from a MatrixMarket file
// (.mtx, coordinate or array; read by readMatrixFile, which notes on notes
// the duplicate entries it sums) or a CSV file (.csv/.tsv): an optional
// header row (topic names; its first field names the ID column when there
// is one), an optional first column of document IDs, then one number per
// topic. Every value must be a number ≥ 0.
func readDocTopics(path string, notes io.Writer) (*docTopics, error) {
	if strings.HasSuffix(strings.ToLower(path), ".jsonl") || strings.HasSuffix(strings.ToLower(path), ".json") {
		return nil, fmt.Errorf("%s: document-topic matrices are read from CSV, TSV or MatrixMarket files (transform writes CSV with --out FILE.csv)", path)
	}
	if strings.HasSuffix(strings.ToLower(path), ".mtx") {
		x, err := readMatrixFile(path, notes)
		if err != nil {
			return nil, err
		}
		if x.Rows == 0 || x.Cols == 0 {
			return nil, fmt.Errorf("%s: empty %d×%d matrix", path, x.Rows, x.Cols)
		}
		return &docTopics{W: x.ToDense()}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	comma := ','
	if strings.HasSuffix(strings.ToLower(path), ".tsv") {
		comma = '\t'
	}
	return parseDocTopicsCSV(path, f, comma)
}

// readMatrixFile reads a MatrixMarket file of counts or weights as the mtx
// corpus format reads one, with the same messages: a file without its
// banner, a malformed line or a negative value is an error naming the file
// and line (and the 1-based entry), and duplicate entries are summed with
// the note the corpus reader gives, written to notes.
func readMatrixFile(path string, notes io.Writer) (*sparse.CSR, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	x, info, err := sparse.MatrixMarketReader{NonNegative: true}.ReadInfo(bufio.NewReaderSize(f, 64<<10))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if info.Duplicates > 0 {
		printNotes(notes, []string{corpus.DuplicatesNote(path, info)})
	}
	return x, nil
}

func parseDocTopicsCSV(name string, r io.Reader, comma rune) (*docTopics, error) {
	cr := csv.NewReader(r)
	cr.Comma = comma
	cr.ReuseRecord = false
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
	out := &docTopics{}
	start := 0
	// A header is a first row with a non-numeric field after the first.
	for _, f := range recs[0][1:] {
		if !isNum(f) {
			start = 1
			break
		}
	}
	hasID := false
	if len(recs) > start && len(recs[start]) > 0 && !isNum(recs[start][0]) {
		hasID = true
	}
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

// readLabelLines reads a labels file (one line per document, labels
// separated by commas, empty for unlabeled) into label sets, decoded as the
// corpus readers decode text (see corpus.DecodeText), with their note on
// notes for a file not in UTF-8.
func readLabelLines(path string, notes io.Writer) ([][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	text, enc, err := corpus.DecodeText(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if n := corpus.DecodingNote(enc, []string{path}); n != "" {
		printNotes(notes, []string{n})
	}
	var out [][]string
	for _, line := range strings.SplitAfter(text, "\n") {
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		var ls []string
		for _, l := range strings.Split(line, ",") {
			if l = strings.TrimSpace(l); l != "" {
				ls = append(ls, l)
			}
		}
		out = append(out, ls)
	}
	if strings.HasSuffix(text, "\n") || text == "" {
		out = out[:len(out)-1]
	}
	if len(out) == 0 {
		return nil, errors.New(path + ": empty labels file")
	}
	return out, nil
}
