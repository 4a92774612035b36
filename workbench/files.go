package workbench

import (
	"context"
	"io"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/vectorize"
)

// LabelRow is one row of a labels CSV: a document ID and one of its
// labels, with its line in the file.
type LabelRow struct {
	ID, Label string
	Line      int
}

// ReadLabels reads a labels CSV: rows "id,label", one per label of a
// document (a document with two labels has two rows), the first row
// "id,label" optionally a header. Errors name the file (name), the line
// and the field.
func ReadLabels(name string, r io.Reader) ([]LabelRow, error) { return nil, errTODO }

// WriteLabels writes labels as a labels CSV with its header, documents
// and labels in sorted order.
func WriteLabels(w io.Writer, labels map[string][]string) error { return errTODO }

// Line is one line of a list file (ReadList).
type Line struct {
	Text string
	Line int
}

// ReadList reads a list of document IDs or vocabulary terms, one a line
// exactly as written (blank lines skipped). A value given twice is an
// error naming both lines.
func ReadList(name string, r io.Reader) ([]Line, error) { return nil, errTODO }

// WriteList writes values one a line.
func WriteList(w io.Writer, values []string) error { return errTODO }

// SetLabels returns c with the labels of rows (read from the file name)
// as its documents' labels: a document no row names is unlabeled. A row
// naming no document of c is an error naming the file and the line.
func SetLabels(c *corpus.Corpus, name string, rows []LabelRow) (*corpus.Corpus, error) {
	return nil, errTODO
}

// DropDocs returns c without the documents ids (read from the file name),
// rows of its matrix included. An ID of no document is an error naming the
// file and the line.
func DropDocs(c *corpus.Corpus, name string, ids []Line) (*corpus.Corpus, error) { return nil, errTODO }

// DropTerms leaves the vocabulary terms (read from the file name) out of
// what a fit of c with the pipeline p learns from, as the workbench's
// stopwords do: for a corpus of text it returns p with the vocabulary
// fixed to the one p learns from c less terms (no other term takes their
// place; the weights and row norms are then computed without them), for an
// already-vectorized corpus c without those columns. A term that is not in
// the vocabulary is an error naming the file and the line.
func DropTerms(ctx context.Context, c *corpus.Corpus, p vectorize.Pipeline, name string, terms []Line) (*corpus.Corpus, vectorize.Pipeline, error) {
	return nil, p, errTODO
}

// Project is what a project folder records about its session.
type Project struct {
	// Format is the project format's version (1).
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

// CorpusInfo identifies a project's corpus.
type CorpusInfo struct {
	Name   string `json:"name"`
	Docs   int    `json:"docs"`
	Digest string `json:"digest"`
}

// ReadProject reads the project file of the folder dir, so that a caller
// can read the corpus again (Project.Source) before Open resumes it. It
// fails when dir holds no project.
func ReadProject(dir string) (*Project, error) { return nil, errTODO }
