package corpus

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// Stdin is the path that names standard input on the command line.
const Stdin = "-"

// fsReader is a format read from a file system: a folder or an archive.
type fsReader interface {
	readFS(ctx context.Context, src source) (*Corpus, error)
}

// ReadStream reads a corpus in the format of rd from the stream in (for
// example standard input), naming it name in messages and notes.
//
// Single-file formats read the stream as that file: csv, tsv, jsonl, one
// Reuters .sgm file, and mtx and uci (whose vocabulary and labels files
// must then be named in the reader's Vocab and Labels fields, as there is
// no folder to find them in; a gzip-compressed stream is recognised). The
// formats that read a folder accept an archive on the stream instead
// (.tar, .tar.gz or .zip, recognised by their contents); it is read into
// memory. A folder cannot arrive on a stream.
func ReadStream(ctx context.Context, rd Reader, name string, in io.Reader) (*Corpus, error) {
	switch r := rd.(type) {
	case CSV:
		return readAllThen(in, name, func(b []byte) (*Corpus, error) { return r.parse(ctx, name, b) })
	case *CSV:
		return readAllThen(in, name, func(b []byte) (*Corpus, error) { return r.parse(ctx, name, b) })
	case JSONL:
		return readAllThen(in, name, func(b []byte) (*Corpus, error) { return r.parse(ctx, name, b) })
	case *JSONL:
		return readAllThen(in, name, func(b []byte) (*Corpus, error) { return r.parse(ctx, name, b) })
	case MTX:
		return r.readStream(ctx, name, in)
	case *MTX:
		return r.readStream(ctx, name, in)
	case UCI:
		return r.readStream(ctx, name, in)
	case *UCI:
		return r.readStream(ctx, name, in)
	case ReutersSGML:
		return r.readStream(ctx, name, in)
	case *ReutersSGML:
		return r.readStream(ctx, name, in)
	case fsReader:
		return readArchiveStream(ctx, r, name, in, limitsOf(rd))
	}
	return nil, fmt.Errorf("%s: the %T format cannot be read from a stream", name, rd)
}

// ReadPath reads the corpus at path with rd, or from standard input when
// path is Stdin.
func ReadPath(ctx context.Context, rd Reader, path string) (*Corpus, error) {
	if path == Stdin {
		return ReadStream(ctx, rd, "standard input", os.Stdin)
	}
	return rd.Read(ctx, path)
}

func readAllThen(in io.Reader, name string, parse func([]byte) (*Corpus, error)) (*Corpus, error) {
	b, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	return parse(b)
}

// maybeGunzip returns a reader of in's contents, decompressed when they
// start with the gzip magic number, and then counted against the limits.
func maybeGunzip(name string, in io.Reader, lim Limits) (io.Reader, func(), error) {
	br := bufio.NewReaderSize(in, 64<<10)
	head, _ := br.Peek(2)
	if len(head) == 2 && head[0] == 0x1f && head[1] == 0x8b {
		c := &counter{r: br}
		gz, err := gzip.NewReader(c)
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", name, err)
		}
		return newBudget(name, lim, 0, c).reader(gz), func() { gz.Close() }, nil
	}
	return br, func() {}, nil
}

func (r MTX) readStream(ctx context.Context, name string, in io.Reader) (*Corpus, error) {
	if r.Vocab == "" {
		return nil, fmt.Errorf("mtx: reading the matrix from %s: name its vocabulary file (--vocab)", name)
	}
	vocab, err := os.ReadFile(r.Vocab)
	if err != nil {
		return nil, fmt.Errorf("mtx: reading the vocabulary: %w", err)
	}
	var labels []byte
	if r.Labels != "" {
		if labels, err = os.ReadFile(r.Labels); err != nil {
			return nil, fmt.Errorf("mtx: reading the labels: %w", err)
		}
	}
	src, done, err := maybeGunzip(name, in, limitsOf(r))
	if err != nil {
		return nil, err
	}
	defer done()
	c, err := r.read(ctx, name, src, r.Vocab, vocab, r.Labels, labels)
	if err != nil {
		return nil, err
	}
	c.Name = "mtx: " + name
	return c, nil
}

func (r UCI) readStream(ctx context.Context, name string, in io.Reader) (*Corpus, error) {
	if r.Vocab == "" {
		return nil, fmt.Errorf("uci: reading the docword file from %s: name its vocabulary file (--vocab)", name)
	}
	vocab, err := os.ReadFile(r.Vocab)
	if err != nil {
		return nil, fmt.Errorf("uci: reading the vocabulary: %w", err)
	}
	src, done, err := maybeGunzip(name, in, limitsOf(r))
	if err != nil {
		return nil, err
	}
	defer done()
	return r.read(ctx, name, src, 1<<20, r.Vocab, vocab)
}

func (r ReutersSGML) readStream(ctx context.Context, name string, in io.Reader) (*Corpus, error) {
	if _, err := r.fieldIndex(); err != nil {
		return nil, err
	}
	lim := limitsOf(r)
	b, err := readStdin(name, in, lim)
	if err != nil {
		return nil, err
	}
	if fsys, err := archiveFS(b, name, lim); err != nil {
		return nil, err
	} else if fsys != nil {
		return r.readFS(ctx, source{fsys: fsys, path: name, lim: lim})
	}
	var dl decodeLog
	text, err := dl.decode(name, b)
	if err != nil {
		return nil, err
	}
	docs, err := r.parse(ctx, name, text)
	if err != nil {
		return nil, err
	}
	return r.corpus(name, docs, &dl)
}

// readStdin reads a stream whole, up to MaxInputSize bytes.
func readStdin(name string, in io.Reader, lim Limits) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(in, lim.MaxInputSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if int64(len(b)) > lim.MaxInputSize {
		return nil, &LimitError{Name: name, Limit: LimitInputSize, Msg: fmt.Sprintf("more than %s, the limit for one input", FormatSize(lim.MaxInputSize))}
	}
	return b, nil
}

// readArchiveStream reads an archive from in into memory and reads the
// corpus from it.
func readArchiveStream(ctx context.Context, r fsReader, name string, in io.Reader, lim Limits) (*Corpus, error) {
	b, err := readStdin(name, in, lim)
	if err != nil {
		return nil, err
	}
	fsys, err := archiveFS(b, name, lim)
	if err != nil {
		return nil, err
	}
	if fsys == nil {
		return nil, fmt.Errorf("%s is not an archive (.tar, .tar.gz or .zip): this format reads a folder or an archive", name)
	}
	return r.readFS(ctx, source{fsys: fsys, path: name, lim: lim})
}

// archiveFS opens b, the contents of the stream name, as a zip,
// gzip-compressed tar or tar archive, by its contents, with the limits
// lim; it returns nil, nil when b is none of them.
func archiveFS(b []byte, name string, lim Limits) (fs.FS, error) {
	switch {
	case bytes.HasPrefix(b, []byte("PK\x03\x04")), bytes.HasPrefix(b, []byte("PK\x05\x06")):
		zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return nil, fmt.Errorf("reading %s: zip archive: %w", name, err)
		}
		if err := checkZip(zr); err != nil {
			return nil, fmt.Errorf("reading %s: zip archive: %w", name, err)
		}
		return newZipFS(zr, name, int64(len(b)), lim), nil
	case len(b) >= 2 && b[0] == 0x1f && b[1] == 0x8b:
		r, bud, closeGz, err := tarStream(name, bytes.NewReader(b), true, lim)
		if err != nil {
			return nil, err
		}
		defer closeGz()
		m, _, err := scanTar(r, true, lim.MaxDocSize, bud)
		if isLimit(err) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: tar archive: %w", name, err)
		}
		return m, nil
	case len(b) >= 262 && bytes.Equal(b[257:262], []byte("ustar")):
		m, _, err := scanTar(bytes.NewReader(b), true, lim.MaxDocSize, nil)
		if isLimit(err) {
			return nil, err
		}
		if err != nil {
			return nil, fmt.Errorf("reading %s: tar archive: %w", name, err)
		}
		return m, nil
	}
	return nil, nil
}
