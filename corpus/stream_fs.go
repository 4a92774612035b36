package corpus

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
)

// maxTarSweeps bounds how many times a lazily read tar archive is read
// from its start again (because a file is asked for after one that comes
// later in the archive) before its contents are read whole into memory
// instead.
const maxTarSweeps = 4

// openStreamFS opens path as OpenFS does, except that a tar archive
// (.tar, .tar.gz, .tgz) is not read into memory: its entries are listed
// first, and a file's contents are read when asked for, going forward
// through the archive (see lazyTar). Folders and zip archives already
// read their files on demand.
func openStreamFS(path string, lim Limits) (fs.FS, io.Closer, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if k := archiveKind(path); !fi.IsDir() && (k == "tar" || k == "tgz") {
		t, err := openLazyTar(path, k == "tgz", lim.resolved())
		if err != nil {
			return nil, nil, err
		}
		return t, t, nil
	}
	return openFS(path, lim)
}

// lazyTar is a tar archive read as a file system without holding the
// contents of its files: a first sequential read lists the entries (with
// the same checks as OpenFS), and ReadFile then reads the file asked for
// by going forward through the archive from where the last one was found.
// Reading files in the order of the archive (archives are usually written
// in name order, the order in which the readers ask) costs one more
// sequential read; a file that comes before the last one read starts a
// new sweep from the start of the archive. After maxTarSweeps such
// sweeps the archive is read whole into memory, as OpenFS reads it. Every
// sweep of a compressed archive is counted against the limits as the
// listing was, and a file larger than MaxDocSize is an error when it is
// read, before its contents are. It is safe for concurrent use.
type lazyTar struct {
	path string
	gz   bool
	lim  Limits         // resolved
	pos  map[string]int // position of each file among the entries

	mu     sync.Mutex
	tree   *memFS // the entries; the files' contents once read whole
	whole  bool   // tree holds the contents
	f      *os.File
	zr     *gzip.Reader
	b      *budget // of the sweep under way
	tr     *tar.Reader
	next   int // position of the entry tr.Next returns next
	sweeps int
}

// openLazyTar lists the entries of the tar archive at path (gzip
// compressed when gz is set).
func openLazyTar(path string, gz bool, lim Limits) (*lazyTar, error) {
	t := &lazyTar{path: path, gz: gz, lim: lim}
	r, err := t.open()
	if err != nil {
		return nil, err
	}
	m, pos, err := scanTar(r, false, lim.MaxDocSize, t.b)
	t.closeReader()
	if isLimit(err) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("reading tar archive %s: %w", path, err)
	}
	t.tree, t.pos = m, pos
	return t, nil
}

// open opens the archive for a sequential read from its start, counted
// against the limits when it is compressed.
func (t *lazyTar) open() (io.Reader, error) {
	f, err := os.Open(t.path)
	if err != nil {
		return nil, err
	}
	t.f = f
	if !t.gz {
		return f, nil
	}
	in := &counter{r: f}
	zr, err := gzip.NewReader(in)
	if err != nil {
		f.Close()
		t.f = nil
		return nil, fmt.Errorf("reading %s: %w", t.path, err)
	}
	t.zr = zr
	t.b = newBudget(t.path, t.lim, 0, in)
	return t.b.reader(zr), nil
}

// closeReader closes the sequential read under way, if any.
func (t *lazyTar) closeReader() {
	if t.zr != nil {
		t.zr.Close()
	}
	if t.f != nil {
		t.f.Close()
	}
	t.f, t.zr, t.b, t.tr, t.next = nil, nil, nil, nil, 0
}

// rewind makes the next read start a new sweep from the start of the
// archive, with a new count of sweeps: a new pass over the corpus.
func (t *lazyTar) rewind() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closeReader()
	t.sweeps = 0
}

// Close implements io.Closer.
func (t *lazyTar) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.closeReader()
	return nil
}

// Open implements fs.FS.
func (t *lazyTar) Open(name string) (fs.File, error) {
	t.mu.Lock()
	n, err := t.tree.lookup("open", name)
	whole := t.whole
	t.mu.Unlock()
	if err != nil || n.dir || whole {
		t.mu.Lock()
		defer t.mu.Unlock()
		return t.tree.Open(name)
	}
	data, err := t.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return &memFile{node: n, r: bytes.NewReader(data)}, nil
}

// ReadDir implements fs.ReadDirFS.
func (t *lazyTar) ReadDir(name string) ([]fs.DirEntry, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tree.ReadDir(name)
}

// Stat implements fs.StatFS.
func (t *lazyTar) Stat(name string) (fs.FileInfo, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.tree.Stat(name)
}

// ReadFile implements fs.ReadFileFS: it reads the file from the archive.
func (t *lazyTar) ReadFile(name string) ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.whole {
		return t.tree.ReadFile(name)
	}
	n, err := t.tree.lookup("read", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	if n.tooLarge {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge}
	}
	at := t.pos[name]
	if t.tr != nil && at < t.next {
		t.closeReader()
		if t.sweeps++; t.sweeps > maxTarSweeps {
			if err := t.readWhole(); err != nil {
				return nil, err
			}
			return t.tree.ReadFile(name)
		}
	}
	if t.tr == nil {
		r, err := t.open()
		if err != nil {
			return nil, err
		}
		t.tr = tar.NewReader(r)
	}
	for {
		h, err := t.tr.Next()
		if err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			t.closeReader()
			if isLimit(err) {
				return nil, err
			}
			return nil, fmt.Errorf("reading tar archive %s: %s: %w (has the archive changed?)", t.path, name, err)
		}
		k := t.next
		t.next++
		if k < at {
			continue
		}
		if c, _ := cleanEntryName(h.Name); c != name || h.Typeflag != tar.TypeReg {
			t.closeReader()
			return nil, fmt.Errorf("reading tar archive %s: entry %d is %q, not %s: the archive has changed", t.path, k, h.Name, name)
		}
		if t.b != nil {
			t.b.setMember(h.Name)
		}
		data, err := readBounded(t.path+"/"+name, t.tr, h.Size, t.lim.MaxDocSize)
		if err != nil {
			t.closeReader()
			if isLimit(err) {
				return nil, err
			}
			return nil, fmt.Errorf("reading tar archive %s: entry %q: %w", t.path, h.Name, err)
		}
		return data, nil
	}
}

// readWhole reads the archive whole into memory, as OpenFS does.
func (t *lazyTar) readWhole() error {
	r, err := t.open()
	if err != nil {
		return err
	}
	defer t.closeReader()
	m, _, err := scanTar(r, true, t.lim.MaxDocSize, t.b)
	if isLimit(err) {
		return err
	}
	if err != nil {
		return fmt.Errorf("reading tar archive %s: %w", t.path, err)
	}
	t.tree, t.whole = m, true
	return nil
}
