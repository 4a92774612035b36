package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/atomicfile"
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
	pl, err := pf.build(cmd)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	bar := newProgress(cmd.ErrOrStderr(), len(c.Docs), "vectorizing")
	v.Progress = bar.set
	res, err := v.FitTransform(ctx, c.Docs)
	bar.finish()
	if err != nil {
		return nil, nil, nil, nil, err
	}
	if len(res.Dropped) > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "%d documents dropped by the document filters (first: %s, %s)\n",
			len(res.Dropped), res.Dropped[0].ID, res.Dropped[0].Reason)
	}
	return res.X, res.Vocab, res.Docs, v, nil
}

// runVectorizeShards writes the corpus at path as shards to dir without
// holding it: a text corpus in two streaming passes (the vocabulary, then
// the rows; see vectorize.Vectorizer.FitTransformStream), a vectorized
// one in one. Formats that cannot stream, and standard input, are read in
// memory first; the shards are the same either way. On an error the
// shard writer is aborted, leaving dir as it was.
func runVectorizeShards(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path, dir string, rowsPerShard int) error {
	t0 := time.Now()
	ctx := cmd.Context()
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
	src := &shardSource{rd: rd, path: path}
	defer src.close()
	switch rf.subset {
	case "all", "":
	case "train", "test":
		src.split, _ = corpus.ParseSplit(rf.subset)
		src.subset = rf.subset
	default:
		return fmt.Errorf("--subset: want all, train or test, not %q", rf.subset)
	}
	if !corpus.Streams(rd, path) {
		why := fmt.Sprintf("the %s format does not stream", rf.format)
		if path == corpus.Stdin {
			why = "standard input cannot be read twice"
		}
		if err := src.readInMemory(cmd, rf, path, why); err != nil {
			return err
		}
	} else if src.sc, err = corpus.OpenStream(rd, path); err != nil {
		return limitHint(err)
	}
	sw := &shardWriter{dir: dir, rowsPerShard: rowsPerShard}
	defer sw.abort()
	var m *shard.Manifest
	if src.vectorized() {
		m, err = sw.writeMatrix(ctx, src, stderr)
		if errors.Is(err, corpus.ErrRowOrder) {
			// Found on the way: the rows written so far go, and the
			// file is read in memory, where its order does not matter.
			sw.abort()
			if err := src.readInMemory(cmd, rf, path, err.Error()); err != nil {
				return err
			}
			m, err = sw.writeMatrix(ctx, src, stderr)
		}
	} else {
		m, err = sw.writeText(ctx, cmd, pf, src, stderr)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d documents × %d terms, %d non-zeros in %v; wrote %d shards to %s\n",
		m.Docs, m.Terms, m.NNZ, time.Since(t0).Round(time.Millisecond), len(m.Shards), dir)
	return nil
}

// shardSource visits the documents of the corpus to shard, those of
// --subset only, once per pass: streamed from path, or from the corpus
// read in memory.
type shardSource struct {
	rd     corpus.Reader
	path   string
	sc     *corpus.StreamedCorpus // the corpus, opened to stream
	mem    *corpus.Corpus         // the corpus, when read in memory
	subset string                 // "train" or "test" for --subset, else ""
	split  corpus.Split

	// What the last pass found.
	seen     int  // documents read, of every split
	kept     int  // documents of the subset
	hasSplit bool // a document has a split
	noted    bool // the reader's notes were printed
}

// readInMemory reads the corpus whole (applying --subset), for a format or
// an input that does not stream, saying why on stderr.
func (s *shardSource) readInMemory(cmd *cobra.Command, rf *readerFlags, path, why string) error {
	fmt.Fprintf(cmd.ErrOrStderr(), "vectorize: %s: reading the corpus in memory\n", why)
	c, err := rf.read(cmd.Context(), cmd, path)
	if err != nil {
		return err
	}
	s.mem, s.subset = c, ""
	return nil
}

// close closes the corpus opened to stream.
func (s *shardSource) close() {
	if s.sc != nil {
		s.sc.Close()
	}
}

// vectorized reports whether the corpus is already vectorized.
func (s *shardSource) vectorized() bool {
	if s.mem != nil {
		return s.mem.Matrix != nil
	}
	return corpus.IsVectorized(s.rd)
}

// pass visits the corpus once with v, reporting progress to p.
func (s *shardSource) pass(ctx context.Context, p *passProgress, v corpus.Visitor) error {
	s.seen, s.kept, s.hasSplit = 0, 0, false
	wrapped := corpus.Visitor{
		Begin: func(vocab []string, docs int) error {
			p.setTotal(docs)
			if v.Begin != nil {
				return v.Begin(vocab, docs)
			}
			return nil
		},
		Doc: func(d corpus.Document, row *corpus.Row) error {
			s.seen++
			p.set(s.seen)
			s.hasSplit = s.hasSplit || d.Split != corpus.SplitNone
			if s.subset != "" && d.Split != s.split {
				return nil
			}
			s.kept++
			return v.Doc(d, row)
		},
	}
	if s.mem != nil {
		return corpus.VisitCorpus(s.mem, wrapped)
	}
	info, err := s.sc.Visit(ctx, wrapped)
	if err != nil {
		return limitHint(err)
	}
	if !s.noted {
		s.noted = true
		printNotes(p.w, info.Notes)
	}
	// The errors the in-memory reading gives for an empty selection.
	if s.subset != "" && !s.hasSplit {
		return fmt.Errorf("--subset %s: %s has no train/test split", s.subset, s.path)
	}
	if s.kept == 0 {
		return fmt.Errorf("%s: no documents", s.path)
	}
	return nil
}

// shardWriter writes the shards, and aborts them unless they were closed.
type shardWriter struct {
	dir          string
	rowsPerShard int
	pipeline     []byte // the fitted vectorizer (text corpora), for pipeline.json
	w            *shard.Writer
}

// create starts the shards of a vocabulary.
func (sw *shardWriter) create(vocab []string) error {
	w, err := shard.Create(sw.dir, len(vocab), shard.Options{RowsPerShard: sw.rowsPerShard, Vocab: vocab, Labels: true, Pipeline: sw.pipeline})
	if err != nil {
		return err
	}
	sw.w = w
	return nil
}

// add writes one document's row.
func (sw *shardWriter) add(d *corpus.Document, cols []int32, vals []float64) error {
	if err := sw.w.Add(cols, vals, d.Labels); err != nil {
		return fmt.Errorf("document %s: %w", d.ID, err)
	}
	return nil
}

// close puts the shards in place.
func (sw *shardWriter) close() (*shard.Manifest, error) {
	m, err := sw.w.Close()
	sw.w = nil
	return m, err
}

// abort throws away the shards written, if any.
func (sw *shardWriter) abort() {
	if sw.w != nil {
		sw.w.Abort()
		sw.w = nil
	}
}

// writeMatrix writes an already-vectorized corpus in one pass.
func (sw *shardWriter) writeMatrix(ctx context.Context, src *shardSource, stderr io.Writer) (*shard.Manifest, error) {
	p := newPassProgress(stderr, "writing the shards", -1)
	err := src.pass(ctx, p, corpus.Visitor{
		Begin: func(vocab []string, _ int) error { return sw.create(vocab) },
		Doc: func(d corpus.Document, row *corpus.Row) error {
			return sw.add(&d, row.Cols, row.Vals)
		},
	})
	p.finish(err)
	if err != nil {
		return nil, err
	}
	return sw.close()
}

// writeText vectorizes a text corpus in two streaming passes and writes
// its rows.
func (sw *shardWriter) writeText(ctx context.Context, cmd *cobra.Command, pf *pipelineFlags, src *shardSource, stderr io.Writer) (*shard.Manifest, error) {
	pl, err := pf.build(cmd)
	if err != nil {
		return nil, err
	}
	v, err := pl.New()
	if err != nil {
		return nil, err
	}
	passes, total := 0, -1
	source := func(ctx context.Context, visit func(corpus.Document) error) error {
		passes++
		label := "pass 1/2, the vocabulary"
		if passes == 2 {
			label = "pass 2/2, the rows"
		}
		p := newPassProgress(stderr, label, total)
		err := src.pass(ctx, p, corpus.Visitor{Doc: func(d corpus.Document, _ *corpus.Row) error { return visit(d) }})
		p.finish(err)
		total = src.seen
		return err
	}
	create := func(vocab []string) error {
		// The vectorizer is fitted now: the shards keep it, so that a
		// model trained on them reads new text as they were read.
		b, err := v.MarshalFitted()
		if err != nil {
			return err
		}
		sw.pipeline = b
		return sw.create(vocab)
	}
	res, err := v.FitTransformStream(ctx, source, create, sw.add)
	if err != nil {
		return nil, err
	}
	if res.Dropped > 0 {
		fmt.Fprintf(stderr, "%d documents dropped by the document filters (first: %s, %s)\n",
			res.Dropped, res.FirstDropped[0].ID, res.FirstDropped[0].Reason)
	}
	return sw.close()
}

// progressEvery is how often a pass reports its progress when stderr is
// not a terminal.
const progressEvery = 10 * time.Second

// passProgress reports a pass over the corpus on stderr: the documents
// read, and an estimate of the time left once their total is known. On a
// terminal it is a bar; otherwise a line every progressEvery. Every pass
// ends with a line saying how long it took. It is used from one goroutine.
type passProgress struct {
	w     io.Writer
	label string
	total int // -1 until known
	done  int
	start time.Time
	last  time.Time
	term  bool
	bar   *progressbar.ProgressBar
}

// newPassProgress starts reporting a pass on w; total is -1 when unknown.
func newPassProgress(w io.Writer, label string, total int) *passProgress {
	now := time.Now()
	return &passProgress{w: w, label: label, total: total, start: now, last: now, term: isTerminal(w)}
}

// setTotal records the number of documents, when the reader knows it.
func (p *passProgress) setTotal(n int) {
	if n >= 0 && p.done == 0 {
		p.total = n
	}
}

// set records that done documents have been read.
func (p *passProgress) set(done int) {
	p.done = done
	if done%64 != 1 {
		return
	}
	now := time.Now()
	if p.term {
		if p.bar == nil {
			total := p.total
			if total <= 0 {
				total = -1 // a spinner with the count
			}
			p.bar = progressbar.NewOptions(total,
				progressbar.OptionSetWriter(p.w),
				progressbar.OptionSetDescription(p.label),
				progressbar.OptionShowCount(),
				progressbar.OptionSetWidth(30),
				progressbar.OptionThrottle(100*time.Millisecond),
				progressbar.OptionClearOnFinish(),
			)
		}
		_ = p.bar.Set(done)
		return
	}
	if now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "vectorize: %s: %s\n", p.label, p.status(now))
}

// status describes the progress at now.
func (p *passProgress) status(now time.Time) string {
	elapsed := now.Sub(p.start)
	if p.total <= 0 || p.done == 0 {
		return fmt.Sprintf("%d documents in %v", p.done, elapsed.Round(time.Second))
	}
	left := time.Duration(float64(elapsed) * float64(p.total-p.done) / float64(p.done))
	return fmt.Sprintf("%d of %d documents (%.0f%%), about %v left", p.done, p.total, 100*float64(p.done)/float64(p.total), left.Round(time.Second))
}

// finish ends the report of a pass that returned err.
func (p *passProgress) finish(err error) {
	if p.bar != nil {
		_ = p.bar.Finish()
	}
	if err == nil {
		fmt.Fprintf(p.w, "vectorize: %s: %d documents in %v\n", p.label, p.done, time.Since(p.start).Round(time.Millisecond))
	}
}

func runVectorize(cmd *cobra.Command, rf *readerFlags, pf *pipelineFlags, path, out, vocabOut, labelsOut, idsOut string) error {
	t0 := time.Now()
	x, vocab, docs, _, err := vectorized(cmd, rf, pf, path)
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
