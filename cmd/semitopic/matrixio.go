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
// (.mtx, coordinate or array) or a CSV file (.csv/.tsv): an optional header
// row (topic names; its first field names the ID column when there is one),
// an optional first column of document IDs, then one number per topic.
func readDocTopics(path string) (*docTopics, error) {
	if strings.HasSuffix(strings.ToLower(path), ".jsonl") || strings.HasSuffix(strings.ToLower(path), ".json") {
		return nil, fmt.Errorf("%s: document-topic matrices are read from CSV, TSV or MatrixMarket files (transform writes CSV with --out FILE.csv)", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if strings.HasSuffix(strings.ToLower(path), ".mtx") {
		x, err := sparse.ReadMatrixMarket(bufio.NewReader(f))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if x.Rows == 0 || x.Cols == 0 {
			return nil, fmt.Errorf("%s: empty %d×%d matrix", path, x.Rows, x.Cols)
		}
		return &docTopics{W: x.ToDense()}, nil
	}
	comma := ','
	if strings.HasSuffix(strings.ToLower(path), ".tsv") {
		comma = '\t'
	}
	return parseDocTopicsCSV(path, f, comma)
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
// separated by commas, empty for unlabeled) into label sets.
func readLabelLines(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out [][]string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var ls []string
		for _, l := range strings.Split(sc.Text(), ",") {
			if l = strings.TrimSpace(l); l != "" {
				ls = append(ls, l)
			}
		}
		out = append(out, ls)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) == 0 {
		return nil, errors.New(path + ": empty labels file")
	}
	return out, nil
}
