package vectorize

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/shard"
)

// ShardsOptions configures WriteShards.
type ShardsOptions struct {
	// RowsPerShard bounds the documents of a shard (0:
	// shard.DefaultRowsPerShard).
	RowsPerShard int
	// Split keeps the documents of one split, SplitTrain or SplitTest;
	// SplitNone keeps every document.
	Split corpus.Split
	// Stdin is the stream read when the path is corpus.Stdin (os.Stdin
	// when nil).
	Stdin io.Reader
	// Progress, when not nil, is told how each pass over the corpus goes.
	Progress PassProgress
	// Notes, when not nil, receives what the reader noted about the
	// corpus (see corpus.Corpus.Notes), once it has read it.
	Notes func(notes []string)
	// InMemory, when not nil, is told why the corpus is read whole into
	// memory rather than streamed, before it is read.
	InMemory func(why string)
}

// PassProgress is told how the passes of WriteShards over a corpus go, one
// call at a time, on the goroutine that called WriteShards.
type PassProgress interface {
	// StartPass is called before a pass reads its first document: name
	// says what the pass does ("pass 1/2, the vocabulary", "pass 2/2, the
	// rows", "writing the shards") and total is the number of documents
	// it will read, -1 while unknown.
	StartPass(name string, total int)
	// Read is called as the pass reads the corpus, after each document
	// and, with read 0, when the reader says how many documents there
	// are: read counts the documents read so far, of every split, and
	// total is the number the pass reads, as far as known (-1 while
	// unknown).
	Read(read, total int)
	// EndPass is called when the pass is over, with the number of
	// documents it read and nil, or the error that stopped it.
	EndPass(read int, err error)
}

// ShardsResult describes a sharded corpus that WriteShards wrote.
type ShardsResult struct {
	// Manifest is the manifest of the sharded corpus.
	Manifest *shard.Manifest
	// Vectorizer is the vectorizer fitted on a text corpus, as the shards
	// keep it in their pipeline file, so that a model trained on them
	// reads new text the same way; nil for an already-vectorized corpus.
	Vectorizer *Vectorizer
	// Stream says what vectorizing a text corpus found: the documents
	// the document filters dropped, the tokens and terms; nil for an
	// already-vectorized corpus.
	Stream *StreamResult
	// InMemory says that the corpus was read whole into memory.
	InMemory bool
}

// WriteShards writes the corpus at path, read with rd (from o.Stdin when
// path is corpus.Stdin), to the folder dir as a sharded corpus (package
// shard): its documents × terms matrix in shards of o.RowsPerShard rows
// with their checksums, its vocabulary, its documents' labels, and, for a
// text corpus, the fitted vectorizer (shard.PipelineFile).
//
// It streams, never holding the corpus or its matrix. A text corpus is
// read twice, as FitTransformStream reads it: a first pass runs the text
// pipeline p over every document to choose the vocabulary, a second runs
// it again to write each document's weighted row; the rows have the values
// p.FitTransform would give. An already-vectorized corpus (mtx, uci,
// shards) is read once, its rows written as they are, and p is not used.
// A corpus that cannot stream (see corpus.Streams: a format read whole,
// standard input) is read into memory first, and so is a MatrixMarket or
// UCI file found on the way not to be in row order (corpus.ErrRowOrder);
// the shards are the same either way. Memory holds the term dictionary
// (during the first pass), the vocabulary, one shard's rows and the
// batches of documents being tokenized.
//
// A split asked of a corpus without one is an error wrapping
// corpus.ErrNoSplit, and a bad document is an error naming its file (and
// line). dir may hold an earlier sharded corpus, which is replaced once
// the new one is complete; on an error, dir is left as it was (see
// shard.Create).
func WriteShards(ctx context.Context, dir string, rd corpus.Reader, path string, p Pipeline, o ShardsOptions) (*ShardsResult, error) {
	if err := shard.CheckTarget(dir); err != nil {
		return nil, err
	}
	src := &shardSource{rd: rd, path: path, split: o.Split, o: &o}
	defer src.close()
	if !corpus.Streams(rd, path) {
		why := fmt.Sprintf("the %s format does not stream", formatName(rd))
		if path == corpus.Stdin {
			why = "standard input cannot be read twice"
		}
		if err := src.readInMemory(ctx, why); err != nil {
			return nil, err
		}
	} else {
		sc, err := corpus.OpenStream(rd, path)
		if err != nil {
			return nil, err
		}
		src.sc = sc
	}
	sw := &shardWriter{dir: dir, rowsPerShard: o.RowsPerShard}
	defer sw.abort()
	res := &ShardsResult{}
	var err error
	if src.vectorized() {
		err = sw.writeMatrix(ctx, src)
		if errors.Is(err, corpus.ErrRowOrder) {
			// Found on the way: the rows written so far go, and the
			// file is read in memory, where its order does not matter.
			sw.abort()
			if err := src.readInMemory(ctx, err.Error()); err != nil {
				return nil, err
			}
			err = sw.writeMatrix(ctx, src)
		}
	} else {
		res.Vectorizer, res.Stream, err = sw.writeText(ctx, p, src)
	}
	if err != nil {
		return nil, err
	}
	if res.Manifest, err = sw.close(); err != nil {
		return nil, err
	}
	res.InMemory = src.mem != nil
	return res, nil
}

// formatName names rd's format in messages.
func formatName(rd corpus.Reader) string {
	if name := corpus.FormatName(rd); name != "" {
		return name
	}
	return fmt.Sprintf("%T", rd)
}

// shardSource visits the documents of the corpus to shard, those of the
// split asked for only, once per pass: streamed from path, or from the
// corpus read in memory.
type shardSource struct {
	rd    corpus.Reader
	path  string
	o     *ShardsOptions
	sc    *corpus.StreamedCorpus // the corpus, opened to stream
	mem   *corpus.Corpus         // the corpus, when read in memory
	split corpus.Split           // of the streamed corpus; the corpus in memory holds its split only

	// What the last pass found.
	total    int  // documents it reads, -1 while unknown
	seen     int  // documents read, of every split
	kept     int  // documents of the split
	hasSplit bool // a document has a split
	noted    bool // the reader's notes were given
}

// readInMemory reads the corpus whole and keeps the split asked for, for a
// format or an input that does not stream, saying why first.
func (s *shardSource) readInMemory(ctx context.Context, why string) error {
	if s.o.InMemory != nil {
		s.o.InMemory(why)
	}
	var c *corpus.Corpus
	var err error
	name := s.path
	if s.path == corpus.Stdin {
		name = "standard input"
		in := s.o.Stdin
		if in == nil {
			in = os.Stdin
		}
		c, err = corpus.ReadStream(ctx, s.rd, name, in)
	} else {
		c, err = s.rd.Read(ctx, s.path)
	}
	if err != nil {
		return err
	}
	if c, err = c.Select(s.split, name); err != nil {
		return err
	}
	s.mem = c
	s.note(c.Notes)
	return nil
}

// note gives the reader's notes, the first time.
func (s *shardSource) note(notes []string) {
	if s.noted {
		return
	}
	s.noted = true
	if s.o.Notes != nil {
		s.o.Notes(notes)
	}
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

// pass visits the corpus once with v, as the pass named name that reads
// total documents (-1: unknown), telling the progress.
func (s *shardSource) pass(ctx context.Context, name string, total int, v corpus.Visitor) error {
	p := s.o.Progress
	s.total = total
	if p != nil {
		p.StartPass(name, total)
	}
	err := s.visit(ctx, p, v)
	if p != nil {
		p.EndPass(s.seen, err)
	}
	return err
}

// visit visits the corpus once with v.
func (s *shardSource) visit(ctx context.Context, p PassProgress, v corpus.Visitor) error {
	s.seen, s.kept, s.hasSplit = 0, 0, false
	wrapped := corpus.Visitor{
		Begin: func(vocab []string, docs int) error {
			if docs >= 0 {
				s.total = docs
			}
			if p != nil {
				p.Read(0, s.total)
			}
			if v.Begin != nil {
				return v.Begin(vocab, docs)
			}
			return nil
		},
		Doc: func(d corpus.Document, row *corpus.Row) error {
			s.seen++
			if p != nil {
				p.Read(s.seen, s.total)
			}
			s.hasSplit = s.hasSplit || d.Split != corpus.SplitNone
			if s.mem == nil && s.split != corpus.SplitNone && d.Split != s.split {
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
		return err
	}
	s.note(info.Notes)
	// The errors that corpus.Corpus.Select gives in memory.
	if s.split != corpus.SplitNone && !s.hasSplit {
		return fmt.Errorf("%s has %w", s.path, corpus.ErrNoSplit)
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
	pipeline     []byte // the fitted vectorizer (text corpora), for the pipeline file
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

// writeMatrix writes the rows of an already-vectorized corpus in one pass.
func (sw *shardWriter) writeMatrix(ctx context.Context, src *shardSource) error {
	return src.pass(ctx, "writing the shards", -1, corpus.Visitor{
		Begin: func(vocab []string, _ int) error { return sw.create(vocab) },
		Doc: func(d corpus.Document, row *corpus.Row) error {
			return sw.add(&d, row.Cols, row.Vals)
		},
	})
}

// writeText vectorizes a text corpus with p in two streaming passes and
// writes its rows.
func (sw *shardWriter) writeText(ctx context.Context, p Pipeline, src *shardSource) (*Vectorizer, *StreamResult, error) {
	v, err := p.New()
	if err != nil {
		return nil, nil, err
	}
	passes, total := 0, -1
	source := func(ctx context.Context, visit func(corpus.Document) error) error {
		passes++
		name := "pass 1/2, the vocabulary"
		if passes == 2 {
			name = "pass 2/2, the rows"
		}
		err := src.pass(ctx, name, total, corpus.Visitor{Doc: func(d corpus.Document, _ *corpus.Row) error { return visit(d) }})
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
		return nil, nil, err
	}
	return v, res, nil
}
