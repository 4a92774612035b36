package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
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
which reads back with "--format shards". The corpus is read and vectorized in
memory first, as for --out; "semitopic synth --format shards" writes shards
without ever holding the corpus.`,
		Example: `  semitopic vectorize --format reuters-nltk ../shared/data/reuters21578-nltk-apte/reuters.tar.gz \
      --preset tsnmf --out reuters.mtx
  semitopic vectorize --format jsonl docs.jsonl --weight tf --max-features 5000 \
      --out X.mtx --vocab vocab.txt --labels labels.txt --ids ids.txt`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if shardsOut != "" {
				if out != "" || vocabOut != "" || labelsOut != "" || idsOut != "" {
					return fmt.Errorf("--shards writes its own vocabulary and labels: leave --out, --vocab, --labels and --ids unset")
				}
				return runVectorizeShards(cmd, &rf, &pf, args[0], shardsOut, rowsPerShard)
			}
			if out == "" {
				return fmt.Errorf("--out or --shards is required")
			}
			dir := filepath.Dir(out)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("--out: creating its folder: %w", err)
			}
			if vocabOut == "" {
				vocabOut = filepath.Join(dir, "vocab.txt")
			}
			if labelsOut == "" {
				labelsOut = filepath.Join(dir, "labels.txt")
			}
			if err := checkOut("out", out, false, ".mtx"); err != nil {
				return err
			}
			for _, o := range []struct{ flag, path string }{{"vocab", vocabOut}, {"labels", labelsOut}, {"ids", idsOut}} {
				if o.path == "" {
					continue
				}
				if err := checkOut(o.flag, o.path, false); err != nil {
					return err
				}
			}
			return runVectorize(cmd, &rf, &pf, args[0], out, vocabOut, labelsOut, idsOut)
		},
	}
	rf.register(cmd.Flags(), false)
	pf.register(cmd.Flags())
	cmd.Flags().StringVarP(&out, "out", "o", "", "MatrixMarket file to write (documents × terms)")
	cmd.Flags().StringVar(&vocabOut, "vocab", "", "vocabulary file to write (default vocab.txt beside --out)")
	cmd.Flags().StringVar(&labelsOut, "labels", "", "labels file to write (default labels.txt beside --out)")
	cmd.Flags().StringVar(&idsOut, "ids", "", "document IDs file to write, one per line (optional)")
	cmd.Flags().StringVar(&shardsOut, "shards", "", "write a sharded corpus to this folder instead of --out")
	cmd.Flags().IntVar(&rowsPerShard, "rows-per-shard", shard.DefaultRowsPerShard, "documents per shard (with --shards)")
	return cmd
}

// vectorized reads the corpus at path and returns its matrix, vocabulary
// and documents: as read for an already-vectorized format, else through
// the text pipeline.
func vectorized(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path string) (*sparse.CSR, []string, []corpus.Document, error) {
	ctx := cmd.Context()
	c, err := rf.read(ctx, cmd, path)
	if err != nil {
		return nil, nil, nil, err
	}
	if c.Matrix != nil {
		return c.Matrix.X, c.Matrix.Vocab, c.Docs, nil
	}
	pl, err := pf.build(cmd)
	if err != nil {
		return nil, nil, nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, nil, nil, err
	}
	bar := newProgress(cmd.ErrOrStderr(), len(c.Docs), "vectorizing")
	v.Progress = bar.set
	res, err := v.FitTransform(ctx, c.Docs)
	bar.finish()
	if err != nil {
		return nil, nil, nil, err
	}
	if len(res.Dropped) > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d documents dropped by the document filters (first: %s, %s)\n",
			len(res.Dropped), res.Dropped[0].ID, res.Dropped[0].Reason)
	}
	return res.X, res.Vocab, res.Docs, nil
}

// runVectorizeShards writes the vectorized corpus as shards to dir.
func runVectorizeShards(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path, dir string, rowsPerShard int) error {
	t0 := time.Now()
	x, vocab, docs, err := vectorized(cmd, rf, pf, path)
	if err != nil {
		return err
	}
	w, err := shard.Create(dir, x.Cols, shard.Options{RowsPerShard: rowsPerShard, Vocab: vocab, Labels: true})
	if err != nil {
		return err
	}
	for i := 0; i < x.Rows; i++ {
		cols, vals := x.Row(i)
		if err := w.Add(cols, vals, docs[i].Labels); err != nil {
			w.Abort()
			return fmt.Errorf("document %s: %w", docs[i].ID, err)
		}
	}
	m, err := w.Close()
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d documents × %d terms, %d non-zeros in %v; wrote %d shards to %s\n",
		m.Docs, m.Terms, m.NNZ, time.Since(t0).Round(time.Millisecond), len(m.Shards), dir)
	return nil
}

func runVectorize(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path, out, vocabOut, labelsOut, idsOut string) error {
	t0 := time.Now()
	x, vocab, docs, err := vectorized(cmd, rf, pf, path)
	if err != nil {
		return err
	}
	// Every output is written to a temporary file first; they replace
	// the targets together once all are complete.
	var files []*atomicfile.File
	defer func() {
		for _, f := range files {
			f.Abort()
		}
	}()
	write := func(path string, fill func(io.Writer) error) error {
		f, err := atomicfile.Create(path)
		if err != nil {
			return err
		}
		files = append(files, f)
		bw := bufio.NewWriterSize(f, 1<<20)
		if err := fill(bw); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
		if err := bw.Flush(); err != nil {
			return fmt.Errorf("writing %s: %w", path, err)
		}
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
	labeled := false
	labelLines := make([]string, len(docs))
	for i, d := range docs {
		for _, l := range d.Labels {
			if strings.ContainsAny(l, ",\n\r") {
				return fmt.Errorf("document %s: label %q contains a comma or line break and cannot be written to %s", d.ID, l, labelsOut)
			}
		}
		labelLines[i] = strings.Join(d.Labels, ",")
		labeled = labeled || d.Labeled()
	}
	var ids []string
	if idsOut != "" {
		ids = make([]string, len(docs))
		for i, d := range docs {
			if strings.ContainsAny(d.ID, "\n\r") {
				return fmt.Errorf("document ID %q contains a line break and cannot be written to %s", d.ID, idsOut)
			}
			ids[i] = d.ID
		}
	}
	if err := write(out, func(w io.Writer) error { return sparse.WriteMatrixMarket(w, x) }); err != nil {
		return err
	}
	if err := write(vocabOut, lines(vocab)); err != nil {
		return err
	}
	written := []string{out, vocabOut}
	// An unlabeled corpus writes no labels file, but one left beside the
	// matrix by an earlier run would be read back with it: it is replaced
	// by empty lines (no document labeled).
	_, statErr := os.Stat(labelsOut)
	stale := !labeled && statErr == nil
	if labeled || stale {
		if err := write(labelsOut, lines(labelLines)); err != nil {
			return err
		}
		written = append(written, labelsOut)
	}
	if idsOut != "" {
		if err := write(idsOut, lines(ids)); err != nil {
			return err
		}
		written = append(written, idsOut)
	}
	for _, f := range files {
		if err := f.Commit(); err != nil {
			return err
		}
	}
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
