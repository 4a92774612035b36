package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/vectorize"
	"github.com/semitopic/semitopic/workbench"
)

// fitFiles are fit's files of supervision and removals that a workbench
// exports, so that fit reproduces its model: a labels CSV instead of the
// corpus's labels, documents to leave out and vocabulary terms to leave
// out (the workbench's removed documents and stopwords).
type fitFiles struct {
	labels    string
	dropDocs  string
	dropTerms string
}

func (f *fitFiles) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.labels, "labels-csv", "", `labels CSV, rows "id,label" (one row per label of a document; header "id,label" optional): the documents' labels, those not listed unlabeled (not with --labels-from-corpus)`)
	fs.StringVar(&f.dropDocs, "drop-docs", "", "file of document IDs to leave out of the fit, one per line")
	fs.StringVar(&f.dropTerms, "drop-terms", "", "file of vocabulary terms to leave out of the fit, one per line, as the vocabulary writes them (lemmas, n-grams): the pipeline's vocabulary less these, no other term taking their place")
}

// inputs are the files as inputs of the command (checkNoOverwrite).
func (f *fitFiles) inputs() []ioPath {
	var ins []ioPath
	for _, p := range []ioPath{{name: "--labels-csv", path: f.labels}, {name: "--drop-docs", path: f.dropDocs}, {name: "--drop-terms", path: f.dropTerms}} {
		if p.path != "" {
			ins = append(ins, p)
		}
	}
	return ins
}

// check refuses the combinations the files cannot take, before any work.
func (f *fitFiles) check(cmd *cobra.Command, kind string, labelsFromCorpus, outOfCore bool) error {
	if f.labels != "" && labelsFromCorpus {
		return fmt.Errorf("--labels-csv and --labels-from-corpus both give the labels; give one")
	}
	if outOfCore {
		for _, n := range []string{"labels-csv", "drop-docs", "drop-terms"} {
			if cmd.Flags().Changed(n) {
				return fmt.Errorf("--%s applies to in-memory fits, not --out-of-core", n)
			}
		}
	}
	if f.dropTerms != "" && kind == model.KindAuto {
		return fmt.Errorf("--drop-terms with --kind auto: each kind reads the corpus with its own pipeline, whose vocabulary the terms are dropped from; choose a kind")
	}
	return nil
}

// apply reads the files and returns the corpus with their labels and
// without their documents, and the pipeline without their terms, as
// the workbench fits them; labeled says that the labels of the corpus
// returned are the supervision.
func (f *fitFiles) apply(ctx context.Context, c *corpus.Corpus, pl vectorize.Pipeline) (_ *corpus.Corpus, _ vectorize.Pipeline, labeled bool, err error) {
	if f.labels != "" {
		rows, err := readFile(f.labels, workbench.ReadLabels)
		if err != nil {
			return nil, pl, false, err
		}
		if len(rows) == 0 {
			return nil, pl, false, fmt.Errorf("--labels-csv %s: no labels", f.labels)
		}
		if c, err = workbench.SetLabels(c, f.labels, rows); err != nil {
			return nil, pl, false, err
		}
		labeled = true
	}
	if f.dropDocs != "" {
		ids, err := readFile(f.dropDocs, workbench.ReadList)
		if err != nil {
			return nil, pl, false, err
		}
		if c, err = workbench.DropDocs(c, f.dropDocs, ids); err != nil {
			return nil, pl, false, err
		}
	}
	if f.dropTerms != "" {
		terms, err := readFile(f.dropTerms, workbench.ReadList)
		if err != nil {
			return nil, pl, false, err
		}
		if c, pl, err = workbench.DropTerms(ctx, c, pl, f.dropTerms, terms); err != nil {
			return nil, pl, false, err
		}
	}
	return c, pl, labeled, nil
}

// readFile opens path and reads it with read, which names it in errors.
func readFile[T any](path string, read func(name string, r io.Reader) ([]T, error)) ([]T, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	return read(path, fh)
}
