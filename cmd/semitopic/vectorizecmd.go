package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func newVectorizeCmd() *cobra.Command {
	var rf readerFlags
	var pf pipelineFlags
	var out, vocabOut, labelsOut, idsOut, shardsOut string
	var rowsPerShard int
	cmd := &cobra.Command{
		Use:   "vectorize --format F PATH --out X.mtx | --shards DIR",
		Short: "Turn a corpus into a documents × terms MatrixMarket file with its vocabulary and labels",
		Long: `vectorize reads a corpus, runs the text pipeline and writes the documents ×
terms matrix as MatrixMarket (--out), the vocabulary (one term per line), the
labels (one line per document, labels separated by commas, empty when
unlabeled) and optionally the document IDs. The files read back with
"--format mtx", so any model can run on exactly this matrix, and other tools
(scipy.io.mmread, R's Matrix::readMM) read them too.

With --shards DIR it writes a sharded corpus instead (package shard: shards of
--rows-per-shard documents with checksums, the vocabulary and the labels),
which reads back with "--format shards". It streams, never holding the corpus
or its matrix: a text corpus is read twice, a first pass running the text
pipeline over every document to count the document frequency of each term and
choose the vocabulary (--min-df, --max-df, --max-features and the document
filters, as for --out), a second running it again to write each document's
weighted row (tf-idf uses the first pass's frequencies); an already-vectorized
corpus (mtx, uci, shards) is read once. Memory holds the term dictionary
(during the first pass), the vocabulary, one shard's rows and the batches of
documents being tokenized (in parallel, in order); the shards hold the same
values as the in-memory path would give. Every format streams from a folder, a
.zip or .tar(.gz) archive or a file, except reuters-sgml (its ModApte
selection needs every document first) and standard input, which are read in
memory first, and a MatrixMarket file in array or symmetric layout or whose
entries are not in row order, which is read in memory when that is found out.
Progress goes to stderr, with an estimate of the time left once the number of
documents is known; on an error the target folder is left as it was.`,
		Example: `  semitopic vectorize --format reuters-nltk ../shared/data/reuters21578-nltk-apte/reuters.tar.gz \
      --preset tsnmf --out reuters.mtx
  semitopic vectorize --format jsonl docs.jsonl --weight tf --max-features 5000 \
      --out X.mtx --vocab vocab.txt --labels labels.txt --ids ids.txt
  semitopic vectorize --format 20ng ../shared/data/20news-bydate/20news-bydate.tar.gz \
      --preset ssnmf --shards 20ng-shards --rows-per-shard 4096`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if shardsOut != "" {
				if out != "" || vocabOut != "" || labelsOut != "" || idsOut != "" {
					return fmt.Errorf("--shards writes its own vocabulary and labels: leave --out, --vocab, --labels and --ids unset")
				}
				if err := checkNoOverwrite(readerInputs(&rf, args[0]), []ioPath{{name: "--shards", path: shardsOut, folder: true}}); err != nil {
					return err
				}
				return runVectorizeShards(cmd, &rf, &pf, args[0], shardsOut, rowsPerShard)
			}
			if out == "" {
				return fmt.Errorf("--out or --shards is required")
			}
			dir := filepath.Dir(out)
			outs := []ioPath{{name: "--out", path: out}, {name: "--vocab", path: vocabOut}, {name: "--labels", path: labelsOut}, {name: "--ids", path: idsOut}}
			if vocabOut == "" {
				vocabOut = filepath.Join(dir, "vocab.txt")
				outs[1] = ioPath{name: "--vocab (default: beside --out)", path: vocabOut}
			}
			if labelsOut == "" {
				labelsOut = filepath.Join(dir, "labels.txt")
				outs[2] = ioPath{name: "--labels (default: beside --out)", path: labelsOut}
			}
			if err := checkNoOverwrite(readerInputs(&rf, args[0]), outs); err != nil {
				return err
			}
			_, statErr := os.Stat(dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("--out: creating its folder: %w", err)
			}
			err := checkOut("out", out, false, ".mtx")
			for _, o := range outs[1:] {
				if err == nil && o.path != "" {
					err = checkOut(strings.TrimPrefix(flagOf(o.name), "--"), o.path, false)
				}
			}
			if err == nil {
				err = runVectorize(cmd, &rf, &pf, args[0], out, vocabOut, labelsOut, idsOut)
			}
			if err != nil && errors.Is(statErr, fs.ErrNotExist) {
				os.Remove(dir) // the folder this run made, if it is still empty
			}
			return err
		},
	}
	rf.register(cmd.Flags(), false)
	pf.register(cmd.Flags())
	cmd.Flags().StringVarP(&out, "out", "o", "", "MatrixMarket file to write (documents × terms)")
	cmd.Flags().StringVar(&vocabOut, "vocab", "", "vocabulary file to write (default vocab.txt beside --out)")
	cmd.Flags().StringVar(&labelsOut, "labels", "", "labels file to write (default labels.txt beside --out)")
	cmd.Flags().StringVar(&idsOut, "ids", "", "document IDs file to write, one per line (optional)")
	cmd.Flags().StringVar(&shardsOut, "shards", "", "write a sharded corpus to this folder instead of --out, streaming the corpus (two passes for text)")
	cmd.Flags().IntVar(&rowsPerShard, "rows-per-shard", shard.DefaultRowsPerShard, "documents per shard (with --shards)")
	return cmd
}

// vectorized reads the corpus at path and returns its matrix, vocabulary
// and documents: as read for an already-vectorized format, else through
// the text pipeline.
func vectorized(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path string) (*sparse.CSR, []string, []corpus.Document, *vectorize.Vectorizer, error) {
	ctx := cmd.Context()
	c, err := rf.read(ctx, cmd, path)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if c.Matrix != nil {
		return c.Matrix.X, c.Matrix.Vocab, c.Docs, nil, nil
	}
	if err := pf.detectLanguage(cmd, c.Docs); err != nil {
		return nil, nil, nil, nil, err
	}
	pl, err := pf.build(cmd)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	bar := newProgressBar(cmd.ErrOrStderr(), "vectorizing", len(c.Docs))
	v.Progress = func(done, _ int) { bar.set(done) }
	res, err := v.FitTransform(ctx, c.Docs)
	bar.finish()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	printDropped(cmd.ErrOrStderr(), len(res.Dropped), res.Dropped)
	return res.X, res.Vocab, res.Docs, v, nil
}

// printDropped says how many documents the document filters dropped, and
// the first of them, on w.
func printDropped(w io.Writer, n int, first []vectorize.Dropped) {
	if n > 0 {
		fmt.Fprintf(w, "%d documents dropped by the document filters (first: %s, %s)\n", n, first[0].ID, first[0].Reason)
	}
}

// runVectorizeShards writes the corpus at path as shards to dir with
// vectorize.WriteShards, which streams it, saying on stderr how its passes
// go.
func runVectorizeShards(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path, dir string, rowsPerShard int) error {
	t0 := time.Now()
	stderr := cmd.ErrOrStderr()
	rd, err := rf.reader(cmd)
	if err != nil {
		return err
	}
	// A replacement of the input or of dir that a kill interrupted is
	// finished or undone first.
	if rf.format == "shards" && path != corpus.Stdin {
		if err := recoverShards(cmd, path); err != nil {
			return err
		}
	}
	if err := recoverShards(cmd, dir); err != nil {
		return err
	}
	if err := shard.CheckTarget(dir); err != nil {
		return fmt.Errorf("--shards: %w", err)
	}
	split, err := rf.split()
	if err != nil {
		return err
	}
	var pl vectorize.Pipeline
	if !corpus.IsVectorized(rd) {
		if pl, err = pf.build(cmd); err != nil {
			return err
		}
	}
	res, err := vectorize.WriteShards(cmd.Context(), dir, rd, path, pl, vectorize.ShardsOptions{
		RowsPerShard: rowsPerShard,
		Split:        split,
		Stdin:        cmd.InOrStdin(),
		Progress:     &passProgress{w: stderr},
		Notes:        func(notes []string) { printNotes(stderr, notes) },
		InMemory: func(why string) {
			fmt.Fprintf(stderr, "vectorize: %s: reading the corpus in memory\n", why)
		},
	})
	if err != nil {
		return rf.hint(err)
	}
	if r := res.Stream; r != nil {
		printDropped(stderr, r.Dropped, r.FirstDropped)
	}
	m := res.Manifest
	fmt.Fprintf(cmd.OutOrStdout(), "%d documents × %d terms, %d non-zeros in %v; wrote %d shards to %s\n",
		m.Docs, m.Terms, m.NNZ, time.Since(t0).Round(time.Millisecond), len(m.Shards), dir)
	return nil
}

// runVectorize writes the corpus at path, vectorized, as a MatrixMarket
// file with its vocabulary, labels and (with idsOut) document IDs
// (corpus.WriteMTX).
func runVectorize(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path, out, vocabOut, labelsOut, idsOut string) error {
	t0 := time.Now()
	x, vocab, docs, _, err := vectorized(cmd, rf, pf, path)
	if err != nil {
		return err
	}
	written, err := corpus.WriteMTX(corpus.MTXFiles{Matrix: out, Vocab: vocabOut, Labels: labelsOut, IDs: idsOut}, x, vocab, docs)
	if err != nil {
		return err
	}
	labeled := slices.ContainsFunc(docs, func(d corpus.Document) bool { return d.Labeled() })
	stale := !labeled && slices.Contains(written, labelsOut)
	fmt.Fprintf(cmd.OutOrStdout(), "%d documents × %d terms, %d non-zeros in %v; wrote %s\n",
		x.Rows, x.Cols, x.NNZ(), time.Since(t0).Round(time.Millisecond), strings.Join(written, ", "))
	switch {
	case stale:
		fmt.Fprintf(cmd.OutOrStdout(), "no document is labeled: %s now has an empty line per document\n", labelsOut)
	case !labeled:
		fmt.Fprintln(cmd.OutOrStdout(), "no document is labeled: no labels file written")
	}
	return nil
}
