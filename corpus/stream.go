package corpus

import (
	"context"
	"errors"
	"io"
	"io/fs"
)

// Row is one document's row of an already-vectorized corpus: its column
// (term) indices, strictly increasing, and their values, as Read's matrix
// holds them.
type Row struct {
	Cols []int32
	Vals []float64
}

// Visitor receives the documents of a corpus that Stream reads.
type Visitor struct {
	// Begin, when not nil, is called once before the first document,
	// with the vocabulary of an already-vectorized corpus (nil for a text
	// corpus) and the number of documents when the reader knows it before
	// reading them (-1 otherwise; for 20ng, the number of files, which is
	// more when a file that is not text is skipped).
	Begin func(vocab []string, docs int) error
	// Doc is called for each document, in the order Read gives them. For
	// an already-vectorized corpus row holds the document's row (and
	// d.Text is empty); it is reused once Doc returns, so copy what you
	// keep. For a text corpus row is nil.
	Doc func(d Document, row *Row) error
}

// StreamInfo describes a corpus that Stream has read.
type StreamInfo struct {
	// Name and Notes are those of the Corpus that Read returns.
	Name  string
	Notes []string
	// Docs is the number of documents visited.
	Docs int
	// InMemory says that the corpus could not be streamed and was read
	// whole with Read before its documents were visited.
	InMemory bool
}

// ErrRowOrder is wrapped by the error Stream returns when the entries of
// a MatrixMarket or UCI file do not come in the order of their rows
// (documents), which streaming needs: such a file is read whole with Read.
var ErrRowOrder = errors.New("entries not in row order")

// fileStreamer is a format read from a file that can stream: stream reads
// the corpus at path and visits its documents one at a time.
type fileStreamer interface {
	stream(ctx context.Context, path string, v *visit) (*Corpus, error)
}

// fsVisitor is a format read from a file system (a folder or an archive)
// that can stream: visitFS gives each document to s.
type fsVisitor interface {
	visitFS(ctx context.Context, src source, s *sink) (*Corpus, error)
}

// Every format streams, but for reuters-sgml.
var (
	_ fsVisitor    = Newsgroups{}
	_ fsVisitor    = ReutersNLTK{}
	_ fsVisitor    = Brown{}
	_ fsVisitor    = BBC{}
	_ fsVisitor    = Dir{}
	_ fileStreamer = CSV{}
	_ fileStreamer = JSONL{}
	_ fileStreamer = MTX{}
	_ fileStreamer = UCI{}
	_ fileStreamer = Shards{}
)

// Stream reads the corpus at path with rd and calls v for each document in
// the order Read gives them, without holding the corpus: memory holds one
// document (or one shard of a sharded corpus) at a time, besides what the
// format needs to check its input (the IDs of a csv, tsv or jsonl file,
// to reject repeats; the listing of a folder or an archive; a matrix's
// vocabulary). It is OpenStream, Visit and Close.
//
// Every format streams from a folder, a .zip, .tar, .tar.gz or .tgz
// archive (a tar archive is read in as few sequential sweeps as the order
// of its entries allows, or whole into memory when that would take too
// many) or a file, except:
//
//   - reuters-sgml, whose ModApte selection needs every document's topics
//     before the first document is known, is read whole with Read;
//   - a MatrixMarket file in array format or with a symmetric shape is read
//     whole, and so is a MatrixMarket or UCI file whose entries do not
//     come row by row, which is only found out on the way: the error then
//     wraps ErrRowOrder, and the documents visited until then must be
//     thrown away (read such a file with Read);
//   - standard input (Stdin) is read as ReadStream reads it.
//
// StreamInfo.InMemory says when the corpus was read whole. An error from
// v's functions stops the reading and is returned (wrapped at most with
// the path being read, so that errors.Is finds it); a bad document is an
// error naming its file (and line, for the line-based formats).
func Stream(ctx context.Context, rd Reader, path string, v Visitor) (*StreamInfo, error) {
	s, err := OpenStream(rd, path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Visit(ctx, v)
}

// StreamedCorpus is a corpus opened for streaming, to be read as many
// times as needed with Visit (vectorizing a text corpus reads it twice):
// what opening it found, such as the listing of an archive, serves every
// read.
type StreamedCorpus struct {
	rd     Reader
	path   string
	fsys   fs.FS     // the folder or archive of a file-system format
	closer io.Closer // closes fsys
}

// OpenStream opens the corpus at path for streaming with rd. A folder or
// an archive is opened (and a tar archive listed) now; the documents are
// read by Visit. Close it when done.
func OpenStream(rd Reader, path string) (*StreamedCorpus, error) {
	s := &StreamedCorpus{rd: rd, path: path}
	r, ok := rd.(fsVisitor)
	if !ok || path == Stdin {
		return s, nil
	}
	if n, ok := r.(interface{ trees() ([]string, error) }); ok {
		if _, err := n.trees(); err != nil {
			return nil, err
		}
	}
	fsys, closer, err := openStreamFS(path, limitsOf(rd))
	if err != nil {
		return nil, err
	}
	s.fsys, s.closer = fsys, closer
	return s, nil
}

// Visit reads the corpus once, calling v for each document, as Stream
// does.
func (s *StreamedCorpus) Visit(ctx context.Context, v Visitor) (*StreamInfo, error) {
	vis := &visit{v: v}
	var c *Corpus
	var err error
	switch r := s.rd.(type) {
	case fsVisitor:
		if s.fsys == nil {
			break
		}
		switch t := s.fsys.(type) {
		case *lazyTar:
			t.rewind()
		case *zipFS:
			t.rewind()
		}
		c, err = r.visitFS(ctx, source{fsys: s.fsys, path: s.path, lim: limitsOf(s.rd)}, textSink(vis))
	case fileStreamer:
		if s.path == Stdin {
			break
		}
		c, err = r.stream(ctx, s.path, vis)
	}
	if err != nil {
		return nil, err
	}
	if c != nil {
		if err := vis.begin(nil, 0); err != nil {
			return nil, err
		}
		return &StreamInfo{Name: c.Name, Notes: c.Notes, Docs: vis.n, InMemory: vis.inMemory}, nil
	}
	c, err = ReadPath(ctx, s.rd, s.path)
	if err != nil {
		return nil, err
	}
	if err := VisitCorpus(c, v); err != nil {
		return nil, err
	}
	return &StreamInfo{Name: c.Name, Notes: c.Notes, Docs: len(c.Docs), InMemory: true}, nil
}

// Close closes the corpus.
func (s *StreamedCorpus) Close() error {
	if s.closer != nil {
		return s.closer.Close()
	}
	return nil
}

// Streams reports whether Stream streams the corpus at path with rd
// rather than reading it whole (see Stream; a MatrixMarket or UCI file
// found on the way not to be in row order is not foreseen here).
func Streams(rd Reader, path string) bool {
	if path == Stdin {
		return false
	}
	switch rd.(type) {
	case fsVisitor, fileStreamer:
		return true
	}
	return false
}

// IsVectorized reports whether rd reads an already-vectorized format
// (mtx, uci, shards): one whose Corpus has a Matrix and whose streamed
// documents come with their rows.
func IsVectorized(rd Reader) bool {
	switch rd.(type) {
	case MTX, *MTX, UCI, *UCI, Shards, *Shards:
		return true
	}
	return false
}

// VisitCorpus calls v for each document of c, a corpus held in memory, as
// Stream would for the corpus c was read from.
func VisitCorpus(c *Corpus, v Visitor) error {
	vis := &visit{v: v}
	var vocab []string
	if c.Matrix != nil {
		vocab = c.Matrix.Vocab
	}
	if err := vis.begin(vocab, len(c.Docs)); err != nil {
		return err
	}
	var row *Row
	if c.Matrix != nil {
		row = &Row{}
	}
	for i := range c.Docs {
		if row != nil {
			row.Cols, row.Vals = c.Matrix.X.Row(i)
		}
		if err := vis.doc(c.Docs[i], row); err != nil {
			return err
		}
	}
	return nil
}

// visit wraps a Visitor: it calls Begin once, before the first document.
type visit struct {
	v        Visitor
	begun    bool
	n        int  // documents visited
	inMemory bool // the corpus was read whole (readWholeVisit)
}

// begin calls Begin unless it was called already.
func (v *visit) begin(vocab []string, docs int) error {
	if v.begun {
		return nil
	}
	v.begun = true
	if v.v.Begin != nil {
		return v.v.Begin(vocab, docs)
	}
	return nil
}

// doc visits one document.
func (v *visit) doc(d Document, row *Row) error {
	if err := v.begin(nil, -1); err != nil {
		return err
	}
	v.n++
	if v.v.Doc == nil {
		return nil
	}
	return v.v.Doc(d, row)
}

// sink receives the documents of a text reader one at a time: the readers
// that stream give each document to a sink instead of appending it to
// Corpus.Docs, and Read collects them (see collect).
type sink struct {
	n     int                  // documents given so far
	add   func(Document) error // receives each document
	total func(docs int) error // told the number of documents, when known before reading them; may be nil
	err   error                // from total, returned by the next emit
}

// emit gives d to the sink.
func (s *sink) emit(d Document) error {
	if s.err != nil {
		return s.err
	}
	s.n++
	return s.add(d)
}

// known tells the sink how many documents will come, before the first.
func (s *sink) known(docs int) {
	if s.total != nil && s.n == 0 && s.err == nil {
		s.err = s.total(docs)
	}
}

// collect runs read with a sink that appends the documents to the Corpus
// that read returns: how Read reads a format that can stream.
func collect(read func(s *sink) (*Corpus, error)) (*Corpus, error) {
	var docs []Document
	s := &sink{add: func(d Document) error {
		docs = append(docs, d)
		return nil
	}}
	c, err := read(s)
	if err != nil {
		return nil, err
	}
	c.Docs = docs
	return c, nil
}

// textSink returns a sink that gives a text reader's documents to v.
func textSink(v *visit) *sink {
	return &sink{
		add:   func(d Document) error { return v.doc(d, nil) },
		total: func(docs int) error { return v.begin(nil, docs) },
	}
}
