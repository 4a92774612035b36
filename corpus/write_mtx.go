package corpus

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/sparse"
)

// MTXFiles names the files of a corpus in the mtx format (see MTX) that
// WriteMTX writes.
type MTXFiles struct {
	// Matrix is the MatrixMarket file of the documents × terms matrix.
	Matrix string
	// Vocab is the vocabulary file, one term per line: vocab.txt beside
	// Matrix when empty, where MTX looks for it.
	Vocab string
	// Labels is the labels file, one line per document: labels.txt beside
	// Matrix when empty, where MTX looks for it.
	Labels string
	// IDs, when set, is a file of the documents' IDs, one per line.
	IDs string
}

// WriteMTX writes the documents × terms matrix x, the term of each of its
// columns (vocab) and the labels of its documents (docs, one per row) as a
// corpus in the mtx format, which MTX reads back, and the documents' IDs
// when files.IDs is set. The matrix is written as sparse.WriteMatrixMarket
// writes it, which scipy.io.mmread and R's Matrix::readMM read too; a line
// of the labels file holds a document's labels separated by commas, empty
// for an unlabeled document.
//
// A corpus in which no document is labeled gets no labels file, unless one
// is there already, which MTX would read with the new matrix: it is then
// replaced by one empty line per document. A label holding a comma or a
// line break, or an ID holding a line break, cannot be written: the error
// names the document, before anything is written.
//
// Every file goes to a temporary file first, and they replace their
// targets together once all are complete, so that an error leaves every
// target as it was. WriteMTX returns the files it wrote, in the order of
// MTXFiles' fields.
func WriteMTX(files MTXFiles, x *sparse.CSR, vocab []string, docs []Document) ([]string, error) {
	if len(vocab) != x.Cols {
		return nil, fmt.Errorf("corpus: WriteMTX: %d vocabulary terms for %d columns", len(vocab), x.Cols)
	}
	if len(docs) != x.Rows {
		return nil, fmt.Errorf("corpus: WriteMTX: %d documents for %d rows", len(docs), x.Rows)
	}
	dir := filepath.Dir(files.Matrix)
	if files.Vocab == "" {
		files.Vocab = filepath.Join(dir, "vocab.txt")
	}
	if files.Labels == "" {
		files.Labels = filepath.Join(dir, "labels.txt")
	}
	labeled := false
	labelLines := make([]string, len(docs))
	for i, d := range docs {
		for _, l := range d.Labels {
			if strings.ContainsAny(l, ",\n\r") {
				return nil, fmt.Errorf("document %s: label %q contains a comma or line break and cannot be written to %s", d.ID, l, files.Labels)
			}
		}
		labelLines[i] = strings.Join(d.Labels, ",")
		labeled = labeled || d.Labeled()
	}
	var ids []string
	if files.IDs != "" {
		ids = make([]string, len(docs))
		for i, d := range docs {
			if strings.ContainsAny(d.ID, "\n\r") {
				return nil, fmt.Errorf("document ID %q contains a line break and cannot be written to %s", d.ID, files.IDs)
			}
			ids[i] = d.ID
		}
	}

	var pending []*atomicfile.File
	defer func() {
		for _, f := range pending {
			f.Abort()
		}
	}()
	var written []string
	write := func(path string, fill func(io.Writer) error) error {
		f, err := atomicfile.Create(path)
		if err != nil {
			return err
		}
		pending = append(pending, f)
		bw := bufio.NewWriterSize(f, 1<<20)
		if err := fill(bw); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		written = append(written, path)
		return nil
	}
	lines := func(ls []string) func(io.Writer) error {
		return func(w io.Writer) error {
			for _, l := range ls {
				if _, err := io.WriteString(w, l+"\n"); err != nil {
					return err
				}
			}
			return nil
		}
	}
	if err := write(files.Matrix, func(w io.Writer) error { return sparse.WriteMatrixMarket(w, x) }); err != nil {
		return nil, err
	}
	if err := write(files.Vocab, lines(vocab)); err != nil {
		return nil, err
	}
	if _, err := os.Stat(files.Labels); labeled || err == nil {
		if err := write(files.Labels, lines(labelLines)); err != nil {
			return nil, err
		}
	}
	if files.IDs != "" {
		if err := write(files.IDs, lines(ids)); err != nil {
			return nil, err
		}
	}
	for _, f := range pending {
		if err := f.Commit(); err != nil {
			return nil, err
		}
	}
	pending = nil
	return written, nil
}
