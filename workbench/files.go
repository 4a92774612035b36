package workbench

import (
	"bufio"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// LabelRow is one row of a labels CSV: a document ID and one of its
// labels, with its line in the file.
type LabelRow struct {
	ID, Label string
	Line      int
}

// labelsHeader is the header row of a labels CSV.
var labelsHeader = []string{"id", "label"}

// ReadLabels reads a labels CSV: rows "id,label", one per label of a
// document (a document with two labels has two rows), the first row
// "id,label" optionally a header. Fields are trimmed of surrounding white
// space. Errors name the file (name), the line and the field.
func ReadLabels(name string, r io.Reader) ([]LabelRow, error) {
	cr := csv.NewReader(bufio.NewReader(r))
	cr.FieldsPerRecord = -1
	var out []LabelRow
	seen := map[[2]string]int{}
	first := true
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := cr.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d: %v", name, pe.Line, pe.Err)
			}
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if first {
			first = false
			if len(rec) == 2 && strings.EqualFold(strings.TrimSpace(strings.TrimPrefix(rec[0], "\ufeff")), "id") && strings.EqualFold(strings.TrimSpace(rec[1]), "label") {
				continue
			}
		}
		if len(rec) != 2 {
			return nil, fmt.Errorf("%s:%d: %d fields: want 2, id,label (one row per label of a document)", name, line, len(rec))
		}
		id, label := strings.TrimSpace(rec[0]), strings.TrimSpace(rec[1])
		switch {
		case !utf8.ValidString(id) || !utf8.ValidString(label):
			return nil, fmt.Errorf("%s:%d: not UTF-8 text", name, line)
		case id == "":
			return nil, fmt.Errorf("%s:%d: the id field is empty", name, line)
		case label == "":
			return nil, fmt.Errorf("%s:%d: document %q: the label field is empty (leave an unlabeled document out of the file)", name, line, id)
		}
		key := [2]string{id, label}
		if prev, ok := seen[key]; ok {
			return nil, fmt.Errorf("%s:%d: document %q has the label %q twice (lines %d and %d)", name, line, id, label, prev, line)
		}
		seen[key] = line
		out = append(out, LabelRow{ID: id, Label: label, Line: line})
	}
	return out, nil
}

// WriteLabels writes labels as a labels CSV with its header, documents
// and labels in sorted order.
func WriteLabels(w io.Writer, labels map[string][]string) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(labelsHeader); err != nil {
		return err
	}
	ids := make([]string, 0, len(labels))
	for id := range labels {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		ls := slices.Clone(labels[id])
		slices.Sort(ls)
		for _, l := range slices.Compact(ls) {
			if err := cw.Write([]string{id, l}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// Line is one line of a list file (ReadList).
type Line struct {
	Text string
	Line int
}

// ReadList reads a list of document IDs or vocabulary terms, one a line
// exactly as written (a final carriage return dropped, blank lines
// skipped). A value given twice is an error naming both lines.
func ReadList(name string, r io.Reader) ([]Line, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	var out []Line
	seen := map[string]int{}
	n := 0
	for sc.Scan() {
		n++
		s := strings.TrimSuffix(sc.Text(), "\r")
		if n == 1 {
			s = strings.TrimPrefix(s, "\ufeff")
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		if !utf8.ValidString(s) {
			return nil, fmt.Errorf("%s:%d: not UTF-8 text", name, n)
		}
		if prev, ok := seen[s]; ok {
			return nil, fmt.Errorf("%s:%d: %q is given twice (lines %d and %d)", name, n, s, prev, n)
		}
		seen[s] = n
		out = append(out, Line{Text: s, Line: n})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, n+1, err)
	}
	return out, nil
}

// WriteList writes values one a line.
func WriteList(w io.Writer, values []string) error {
	bw := bufio.NewWriter(w)
	for _, v := range values {
		if strings.ContainsAny(v, "\r\n") || strings.TrimSpace(v) == "" {
			return fmt.Errorf("workbench: %q cannot be written one a line", v)
		}
		bw.WriteString(v)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// docIndex maps the documents' IDs to their positions, refusing an ID
// that two documents share: the workbench and the files it writes name
// documents by ID.
func docIndex(docs []corpus.Document) (map[string]int, error) {
	idx := make(map[string]int, len(docs))
	for i := range docs {
		id := docs[i].ID
		if j, ok := idx[id]; ok {
			return nil, fmt.Errorf("documents %d and %d have the same ID %q; documents are named by ID, so IDs must be distinct", j+1, i+1, id)
		}
		idx[id] = i
	}
	return idx, nil
}

// SetLabels returns c with the labels of rows (read from the file name)
// as its documents' labels: a document no row names is unlabeled. A row
// naming no document of c is an error naming the file and the line.
func SetLabels(c *corpus.Corpus, name string, rows []LabelRow) (*corpus.Corpus, error) {
	idx, err := docIndex(c.Docs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	out := *c
	out.Docs = slices.Clone(c.Docs)
	for i := range out.Docs {
		out.Docs[i].Labels = nil
	}
	for _, r := range rows {
		i, ok := idx[r.ID]
		if !ok {
			return nil, fmt.Errorf("%s:%d: no document of %s has the ID %q", name, r.Line, c.Name, r.ID)
		}
		if !slices.Contains(out.Docs[i].Labels, r.Label) {
			out.Docs[i].Labels = append(out.Docs[i].Labels, r.Label)
		}
	}
	return &out, nil
}

// DropDocs returns c without the documents ids (read from the file name),
// rows of its matrix included. An ID of no document is an error naming the
// file and the line.
func DropDocs(c *corpus.Corpus, name string, ids []Line) (*corpus.Corpus, error) {
	if len(ids) == 0 {
		return c, nil
	}
	idx, err := docIndex(c.Docs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.Name, err)
	}
	drop := make([]bool, len(c.Docs))
	for _, l := range ids {
		i, ok := idx[l.Text]
		if !ok {
			return nil, fmt.Errorf("%s:%d: no document of %s has the ID %q", name, l.Line, c.Name, l.Text)
		}
		drop[i] = true
	}
	out := *c
	out.Docs = nil
	var rows []int
	for i := range c.Docs {
		if !drop[i] {
			out.Docs = append(out.Docs, c.Docs[i])
			rows = append(rows, i)
		}
	}
	if len(out.Docs) == 0 {
		return nil, fmt.Errorf("%s: every document of %s is dropped", name, c.Name)
	}
	if c.Matrix != nil {
		out.Matrix = &corpus.Matrix{X: c.Matrix.X.SelectRows(rows), Vocab: c.Matrix.Vocab}
	}
	return &out, nil
}

// DropTerms leaves the vocabulary terms (read from the file name) out of
// what a fit of c with the pipeline p learns from, as the workbench's
// stopwords do: for a corpus of text it returns p with the vocabulary
// fixed to the one p learns from c less terms (no other term takes their
// place; the weights and row norms are then computed without them), for an
// already-vectorized corpus c without those columns. A term that is not in
// the vocabulary is an error naming the file and the line.
func DropTerms(ctx context.Context, c *corpus.Corpus, p vectorize.Pipeline, name string, terms []Line) (*corpus.Corpus, vectorize.Pipeline, error) {
	if len(terms) == 0 {
		return c, p, nil
	}
	if c.Matrix != nil {
		m, err := dropColumns(c.Matrix, name, terms)
		if err != nil {
			return nil, p, err
		}
		out := *c
		out.Matrix = m
		return &out, p, nil
	}
	_, res, err := p.FitTransform(ctx, c.Docs)
	if err != nil {
		return nil, p, err
	}
	p, err = withoutTerms(p, res.Vocab, name, terms)
	if err != nil {
		return nil, p, err
	}
	return c, p, nil
}

// withoutTerms returns p with its vocabulary fixed to vocab less terms.
func withoutTerms(p vectorize.Pipeline, vocab []string, name string, terms []Line) (vectorize.Pipeline, error) {
	drop, err := termSet(vocab, name, terms)
	if err != nil {
		return p, err
	}
	keep := make([]string, 0, len(vocab)-len(drop))
	for _, t := range vocab {
		if !drop[t] {
			keep = append(keep, t)
		}
	}
	if len(keep) == 0 {
		return p, fmt.Errorf("%s: every term of the vocabulary is dropped", name)
	}
	p.Vectorize.Vocabulary = keep
	return p, nil
}

// termSet checks that every term is in vocab and returns them as a set.
func termSet(vocab []string, name string, terms []Line) (map[string]bool, error) {
	in := make(map[string]bool, len(vocab))
	for _, t := range vocab {
		in[t] = true
	}
	drop := make(map[string]bool, len(terms))
	for _, l := range terms {
		if !in[l.Text] {
			return nil, fmt.Errorf("%s:%d: %q is not a term of the vocabulary (terms are written as the vocabulary holds them: lower case, lemmas or stems, n-grams with single spaces)", name, l.Line, l.Text)
		}
		drop[l.Text] = true
	}
	return drop, nil
}

// dropColumns returns m without the columns of terms.
func dropColumns(m *corpus.Matrix, name string, terms []Line) (*corpus.Matrix, error) {
	drop, err := termSet(m.Vocab, name, terms)
	if err != nil {
		return nil, err
	}
	col := make([]int32, len(m.Vocab))
	var vocab []string
	for j, t := range m.Vocab {
		col[j] = -1
		if !drop[t] {
			col[j] = int32(len(vocab))
			vocab = append(vocab, t)
		}
	}
	if len(vocab) == 0 {
		return nil, fmt.Errorf("%s: every term of the vocabulary is dropped", name)
	}
	x := m.X
	out := &sparse.CSR{Rows: x.Rows, Cols: len(vocab), Indptr: make([]int, x.Rows+1)}
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		for p, j := range cols {
			if c := col[j]; c >= 0 {
				out.Indices = append(out.Indices, c)
				out.Data = append(out.Data, vals[p])
			}
		}
		out.Indptr[i+1] = len(out.Data)
	}
	return &corpus.Matrix{X: out, Vocab: vocab}, nil
}

// Project is what a project folder records about its session.
type Project struct {
	// Format is the project format's version (ProjectFormat).
	Format int `json:"format"`
	// Source, Pipeline, PipelineArgs, Seed and MaxIter are the Config's.
	Source       []string            `json:"source"`
	Pipeline     *vectorize.Pipeline `json:"pipeline,omitempty"`
	PipelineArgs []string            `json:"pipeline_args,omitempty"`
	Seed         uint64              `json:"seed"`
	MaxIter      int                 `json:"max_iter,omitempty"`
	// Corpus identifies the corpus: its name, documents and a digest of
	// their IDs and texts, checked when the project is resumed.
	Corpus CorpusInfo `json:"corpus"`
	// Kind and K are the current round's.
	Kind string `json:"kind"`
	K    int    `json:"k"`
	// Current is the current round; Redo the rounds Redo goes back to,
	// the next last; Version the state's version.
	Current int   `json:"current"`
	Redo    []int `json:"redo,omitempty"`
	Version int   `json:"version"`
	// Created is when the project was made (RFC 3339).
	Created string `json:"created"`
}

// ProjectFormat is the version of the project folder's layout.
const ProjectFormat = 1

// CorpusInfo identifies a project's corpus.
type CorpusInfo struct {
	Name   string `json:"name"`
	Docs   int    `json:"docs"`
	Digest string `json:"digest"`
}

// projectFile is the project file's name in its folder.
const projectFile = "project.json"

// ReadProject reads the project file of the folder dir, so that a caller
// can read the corpus again (Project.Source) before Open resumes it. It
// fails when dir holds no project.
func ReadProject(dir string) (*Project, error) {
	path := filepath.Join(dir, projectFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s holds no workbench project (no %s)", dir, projectFile)
	}
	if err != nil {
		return nil, err
	}
	var p Project
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.Format != ProjectFormat {
		return nil, fmt.Errorf("%s: project format %d; this version reads format %d", path, p.Format, ProjectFormat)
	}
	if p.Current < 1 {
		return nil, fmt.Errorf("%s: current round %d: want a round number from 1", path, p.Current)
	}
	return &p, nil
}
