package corpus

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"time"
)

// OpenFS opens path as a read-only file system: a folder (read in place), a
// .zip archive, or a .tar, .tar.gz or .tgz archive (read whole into memory;
// only regular files and folders are accepted), with the default Limits.
// The caller must Close the returned Closer when done with the file system.
//
// Archive entry names must be relative and free of ".." elements; a leading
// "./" is ignored. An archive holding a symbolic link, a device or any other
// special entry, or the same file twice, is rejected with an error naming
// the entry: nothing is skipped silently.
func OpenFS(path string) (fs.FS, io.Closer, error) {
	return openFS(path, Limits{})
}

// openFS is OpenFS with limits: a tar archive's stream is counted against
// MaxInputSize and MaxRatio as it is read, and a member larger than
// MaxDocSize is not read into memory (reading it is an error); a zip
// archive counts the members read against the same limits (see zipFS).
func openFS(path string, lim Limits) (fs.FS, io.Closer, error) {
	lim = lim.resolved()
	fi, err := os.Stat(path)
	if err != nil {
		return nil, nil, err
	}
	if fi.IsDir() {
		return os.DirFS(path), nopCloser{}, nil
	}
	switch archiveKind(path) {
	case "zip":
		zr, err := zip.OpenReader(path)
		if err != nil {
			return nil, nil, fmt.Errorf("opening zip archive %s: %w", path, err)
		}
		if err := checkZip(&zr.Reader); err != nil {
			zr.Close()
			return nil, nil, fmt.Errorf("zip archive %s: %w", path, err)
		}
		return newZipFS(&zr.Reader, path, fi.Size(), lim), zr, nil
	case "tar", "tgz":
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		r, b, closeGz, err := tarStream(path, f, archiveKind(path) == "tgz", lim)
		if err != nil {
			return nil, nil, err
		}
		defer closeGz()
		m, _, err := scanTar(r, true, lim.MaxDocSize, b)
		if isLimit(err) {
			return nil, nil, err
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading tar archive %s: %w", path, err)
		}
		return m, nopCloser{}, nil
	}
	return nil, nil, fmt.Errorf("%s is neither a folder nor an archive (.zip, .tar, .tar.gz, .tgz)", path)
}

// tarStream returns the stream of a tar archive read from f, decompressed
// when gz is set, with its budget: a gzip stream is counted against the
// limits. closeGz closes the decompressor.
func tarStream(path string, f io.Reader, gz bool, lim Limits) (io.Reader, *budget, func(), error) {
	if !gz {
		return f, nil, func() {}, nil
	}
	in := &counter{r: f}
	zr, err := gzip.NewReader(in)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("reading %s: %w", path, err)
	}
	b := newBudget(path, lim, 0, in)
	return b.reader(zr), b, func() { zr.Close() }, nil
}

// archiveKind returns "zip", "tar" or "tgz" from path's extension, or "".
func archiveKind(p string) string {
	l := strings.ToLower(p)
	switch {
	case strings.HasSuffix(l, ".zip"):
		return "zip"
	case strings.HasSuffix(l, ".tar"):
		return "tar"
	case strings.HasSuffix(l, ".tar.gz"), strings.HasSuffix(l, ".tgz"):
		return "tgz"
	}
	return ""
}

type nopCloser struct{}

func (nopCloser) Close() error { return nil }

// cleanEntryName validates an archive entry name and returns it in fs.FS
// form ("a/b"), or "." for the archive root.
func cleanEntryName(name string) (string, error) {
	n := strings.TrimRight(name, "/")
	for strings.HasPrefix(n, "./") {
		n = n[2:]
	}
	if n == "." || n == "" {
		return ".", nil
	}
	if strings.HasPrefix(n, "/") {
		return "", fmt.Errorf("entry %q: absolute path", name)
	}
	for _, e := range strings.Split(n, "/") {
		if e == ".." {
			return "", fmt.Errorf("entry %q: path leaves the archive (..)", name)
		}
	}
	c := path.Clean(n)
	if !fs.ValidPath(c) {
		return "", fmt.Errorf("entry %q: invalid path", name)
	}
	return c, nil
}

// checkZip rejects zip archives with unsafe names or special entries.
func checkZip(zr *zip.Reader) error {
	for _, f := range zr.File {
		if _, err := cleanEntryName(f.Name); err != nil {
			return err
		}
		if m := f.Mode(); !m.IsRegular() && !m.IsDir() {
			return fmt.Errorf("entry %q: unsupported file type %v (only regular files and folders)", f.Name, m.Type())
		}
	}
	return nil
}

// readTar reads a whole tar stream into a memFS, with the default limits
// and no budget.
func readTar(r io.Reader) (*memFS, error) {
	m, _, err := scanTar(r, true, DefaultMaxDocSize, nil)
	return m, err
}

// scanTar reads a tar stream into a memFS, with the files' contents when
// withData is set (otherwise only their names and sizes), and returns the
// position of each file among the archive's entries (0 for the first
// entry tar.Reader.Next returns). A file larger than maxDoc is listed but
// its contents are not read: reading it from the memFS is an error. b,
// when not nil, is the budget the stream is counted against, told the
// entry being read for its messages.
func scanTar(r io.Reader, withData bool, maxDoc int64, b *budget) (*memFS, map[string]int, error) {
	m := newMemFS()
	pos := map[string]int{}
	tr := tar.NewReader(r)
	for k := 0; ; k++ {
		h, err := tr.Next()
		if err == io.EOF {
			return m, pos, nil
		}
		if err != nil {
			return nil, nil, err
		}
		if b != nil {
			b.setMember(h.Name)
		}
		switch h.Typeflag {
		case tar.TypeXGlobalHeader:
			continue // archive-wide metadata, not a file
		case tar.TypeReg, tar.TypeDir:
		default:
			return nil, nil, fmt.Errorf("entry %q: unsupported entry type %q (only regular files and folders)", h.Name, h.Typeflag)
		}
		name, err := cleanEntryName(h.Name)
		if err != nil {
			return nil, nil, err
		}
		if h.Typeflag == tar.TypeDir {
			if err := m.mkdirAll(name, h.ModTime); err != nil {
				return nil, nil, err
			}
			continue
		}
		if name == "." {
			return nil, nil, fmt.Errorf("entry %q: a file cannot be the archive root", h.Name)
		}
		var data []byte
		tooLarge := h.Size > maxDoc
		if withData && !tooLarge {
			if data, err = readBounded(h.Name, tr, h.Size, maxDoc); err != nil {
				if isLimit(err) {
					return nil, nil, err
				}
				return nil, nil, fmt.Errorf("entry %q: %w", h.Name, err)
			}
		}
		if err := m.addFile(name, data, h.ModTime); err != nil {
			return nil, nil, err
		}
		n := m.nodes[name]
		n.size, n.tooLarge = h.Size, tooLarge
		pos[name] = k
	}
}

// memFS is a read-only in-memory file system built from an archive. It
// implements fs.FS, fs.ReadFileFS, fs.ReadDirFS and fs.StatFS.
type memFS struct {
	nodes map[string]*memNode
}

// memNode is a file or a folder of a memFS.
type memNode struct {
	name     string // base name ("." for the root)
	dir      bool
	data     []byte
	size     int64 // len(data), or the size of contents not read yet
	tooLarge bool  // a file larger than the limit: its contents are not held
	modTime  time.Time
	children map[string]*memNode // folders only
	sorted   []fs.DirEntry       // folders only, built lazily
}

func newMemFS() *memFS {
	root := &memNode{name: ".", dir: true, children: map[string]*memNode{}}
	return &memFS{nodes: map[string]*memNode{".": root}}
}

// mkdirAll creates the folder p and its parents.
func (m *memFS) mkdirAll(p string, mt time.Time) error {
	if p == "." {
		return nil
	}
	if n, ok := m.nodes[p]; ok {
		if !n.dir {
			return fmt.Errorf("entry %q: both a file and a folder", p)
		}
		return nil
	}
	parent := path.Dir(p)
	if err := m.mkdirAll(parent, mt); err != nil {
		return err
	}
	n := &memNode{name: path.Base(p), dir: true, modTime: mt, children: map[string]*memNode{}}
	m.nodes[p] = n
	m.nodes[parent].children[n.name] = n
	return nil
}

// addFile adds the file p, creating its parent folders.
func (m *memFS) addFile(p string, data []byte, mt time.Time) error {
	if n, ok := m.nodes[p]; ok {
		if n.dir {
			return fmt.Errorf("entry %q: both a file and a folder", p)
		}
		return fmt.Errorf("entry %q: appears twice in the archive", p)
	}
	parent := path.Dir(p)
	if err := m.mkdirAll(parent, mt); err != nil {
		return err
	}
	n := &memNode{name: path.Base(p), data: data, size: int64(len(data)), modTime: mt}
	m.nodes[p] = n
	m.nodes[parent].children[n.name] = n
	return nil
}

func (m *memFS) lookup(op, name string) (*memNode, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	n, ok := m.nodes[name]
	if !ok {
		return nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
	}
	return n, nil
}

// Open implements fs.FS.
func (m *memFS) Open(name string) (fs.File, error) {
	n, err := m.lookup("open", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return &memDirFile{node: n, entries: n.entries()}, nil
	}
	if n.tooLarge {
		return nil, &fs.PathError{Op: "open", Path: name, Err: errTooLarge}
	}
	return &memFile{node: n, r: bytes.NewReader(n.data)}, nil
}

// ReadFile implements fs.ReadFileFS. The returned slice is a copy.
func (m *memFS) ReadFile(name string) ([]byte, error) {
	n, err := m.lookup("read", name)
	if err != nil {
		return nil, err
	}
	if n.dir {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errors.New("is a directory")}
	}
	if n.tooLarge {
		return nil, &fs.PathError{Op: "read", Path: name, Err: errTooLarge}
	}
	return bytes.Clone(n.data), nil
}

// ReadDir implements fs.ReadDirFS: entries sorted by name.
func (m *memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	n, err := m.lookup("readdir", name)
	if err != nil {
		return nil, err
	}
	if !n.dir {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	return append([]fs.DirEntry(nil), n.entries()...), nil
}

// Stat implements fs.StatFS.
func (m *memFS) Stat(name string) (fs.FileInfo, error) {
	n, err := m.lookup("stat", name)
	if err != nil {
		return nil, err
	}
	return memInfo{n}, nil
}

// entries returns the sorted directory entries of a folder node.
func (n *memNode) entries() []fs.DirEntry {
	if n.sorted == nil {
		names := make([]string, 0, len(n.children))
		for k := range n.children {
			names = append(names, k)
		}
		sort.Strings(names)
		n.sorted = make([]fs.DirEntry, len(names))
		for i, k := range names {
			n.sorted[i] = fs.FileInfoToDirEntry(memInfo{n.children[k]})
		}
	}
	return n.sorted
}

// memInfo implements fs.FileInfo for a memNode.
type memInfo struct{ n *memNode }

func (i memInfo) Name() string       { return i.n.name }
func (i memInfo) Size() int64        { return i.n.size }
func (i memInfo) ModTime() time.Time { return i.n.modTime }
func (i memInfo) IsDir() bool        { return i.n.dir }
func (i memInfo) Sys() any           { return nil }
func (i memInfo) Mode() fs.FileMode {
	if i.n.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

// memFile is an open regular file of a memFS.
type memFile struct {
	node *memNode
	r    *bytes.Reader
}

func (f *memFile) Stat() (fs.FileInfo, error) { return memInfo{f.node}, nil }
func (f *memFile) Read(b []byte) (int, error) { return f.r.Read(b) }
func (f *memFile) Close() error               { return nil }

// memDirFile is an open folder of a memFS.
type memDirFile struct {
	node    *memNode
	entries []fs.DirEntry
	off     int
}

func (d *memDirFile) Stat() (fs.FileInfo, error) { return memInfo{d.node}, nil }
func (d *memDirFile) Close() error               { return nil }
func (d *memDirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.node.name, Err: errors.New("is a directory")}
}

// ReadDir implements fs.ReadDirFile.
func (d *memDirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.entries[d.off:]
	if n <= 0 {
		d.off = len(d.entries)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	if n > len(rest) {
		n = len(rest)
	}
	d.off += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}

// errTooLarge is the error of opening an archive's member whose contents
// were not read because it passes the limit for one document.
var errTooLarge = errors.New("larger than the limit for one document, not read")

// withFS opens p with openFS and the limits lim, calls read on it and
// closes it.
func withFS(p string, lim Limits, read func(src source) (*Corpus, error)) (*Corpus, error) {
	fsys, closer, err := openFS(p, lim)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return read(source{fsys: fsys, path: p, lim: lim.resolved()})
}

// source couples an opened file system with the path it came from, for
// error messages and notes, and the limits its files are read with.
type source struct {
	fsys fs.FS
	path string // the path given to the reader
	lim  Limits // resolved
}

// name returns how messages refer to the file p of the source: the source
// path followed by p (for an archive, as if it were a folder).
func (s source) name(p string) string {
	if p == "." || p == "" {
		return s.path
	}
	return s.path + "/" + p
}

// readBytes reads the file p, checking its size against MaxDocSize before
// reading it (and while reading it, should it say less than it holds).
func (s source) readBytes(p string) ([]byte, error) {
	f, err := s.fsys.Open(p)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			if fi, serr := fs.Stat(s.fsys, p); serr == nil {
				return nil, docTooLarge(s.name(p), fi.Size(), s.lim.MaxDocSize)
			}
			return nil, docTooLarge(s.name(p), -1, s.lim.MaxDocSize)
		}
		return nil, fmt.Errorf("reading %s: %w", s.name(p), err)
	}
	defer f.Close()
	size := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	b, err := readBounded(s.name(p), f, size, s.lim.MaxDocSize)
	if err != nil {
		if isLimit(err) {
			return nil, err
		}
		return nil, fmt.Errorf("reading %s: %w", s.name(p), err)
	}
	return b, nil
}

// readFile reads and decodes the text file p, recording in dl the files
// not decoded as UTF-8. A file that is not text (an archive, an image, a
// file with NUL bytes) is a *NotTextError, which the readers of layouts
// that may hold such strays skip with a note (see notText).
func (s source) readFile(p string, dl *decodeLog) (string, error) {
	b, err := s.readBytes(p)
	if err != nil {
		return "", err
	}
	if kind := binaryKind(b); kind != "" {
		return "", &NotTextError{Name: s.name(p), Kind: kind}
	}
	text, enc, err := DecodeText(b)
	if err != nil {
		return "", fmt.Errorf("%s: %w", s.name(p), err)
	}
	dl.record(p, enc)
	return text, nil
}

// notText collects the files a reader skipped because they are not text.
type notText []string

// skip records err and returns nil when it is a *NotTextError (a file to
// skip), and returns err otherwise.
func (n *notText) skip(rel string, err error) error {
	var nt *NotTextError
	if errors.As(err, &nt) {
		*n = append(*n, rel+" ("+nt.Kind+")")
		return nil
	}
	return err
}

// addNote appends the note listing the skipped files, if any, to c.Notes.
func (n notText) addNote(c *Corpus) {
	if len(n) > 0 {
		c.Notes = append(c.Notes, fmt.Sprintf("skipped %s that %s not text: %s", plural(len(n), "file", "files"),
			map[bool]string{true: "is", false: "are"}[len(n) == 1], nameList(n)))
	}
}

// isHidden reports whether a file or folder name is hidden: it starts with
// "." or is the "__MACOSX" folder that macOS adds to zip archives.
func isHidden(name string) bool {
	return strings.HasPrefix(name, ".") || name == "__MACOSX"
}

// locate finds the folder of fsys that holds a corpus layout: the root if
// ok(".") holds, otherwise the one top-level folder for which ok holds (an
// archive usually wraps its files in such a folder). It returns an error
// if no folder or more than one top-level folder qualifies; what describes
// the layout looked for.
func locate(s source, what string, ok func(dir string) bool) (string, error) {
	if ok(".") {
		return ".", nil
	}
	ents, err := fs.ReadDir(s.fsys, ".")
	if err != nil {
		return "", fmt.Errorf("listing %s: %w", s.path, err)
	}
	var found []string
	for _, e := range ents {
		if e.IsDir() && !isHidden(e.Name()) && ok(e.Name()) {
			found = append(found, e.Name())
		}
	}
	switch len(found) {
	case 0:
		return "", fmt.Errorf("%s: no %s found at the top or one folder down", s.path, what)
	case 1:
		return found[0], nil
	}
	return "", fmt.Errorf("%s: %s found in several folders (%s); pass one of them", s.path, what, strings.Join(found, ", "))
}

// exists reports whether p exists in fsys and is a regular file (dir false)
// or a folder (dir true).
func exists(fsys fs.FS, p string, dir bool) bool {
	fi, err := fs.Stat(fsys, p)
	if err != nil {
		return false
	}
	if dir {
		return fi.IsDir()
	}
	return fi.Mode().IsRegular()
}

// join joins fs.FS path elements, treating "." as the root.
func join(dir, name string) string {
	if dir == "." || dir == "" {
		return name
	}
	return dir + "/" + name
}

// singleFolderRoot returns the folder to treat as the root of a
// one-folder-per-label layout: "." unless the root holds nothing but one
// (non-hidden) folder that itself holds at least one folder, in which case
// that folder, the way archives usually wrap their contents.
func singleFolderRoot(fsys fs.FS) (string, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return "", err
	}
	var visible []fs.DirEntry
	for _, e := range ents {
		if !isHidden(e.Name()) {
			visible = append(visible, e)
		}
	}
	if len(visible) != 1 || !visible[0].IsDir() {
		return ".", nil
	}
	sub, err := fs.ReadDir(fsys, visible[0].Name())
	if err != nil {
		return "", err
	}
	for _, e := range sub {
		if e.IsDir() && !isHidden(e.Name()) {
			return visible[0].Name(), nil
		}
	}
	return ".", nil
}

// zipFS is a zip archive read as a file system whose members' contents
// are counted, as they are decompressed, against the archive's budget:
// MaxInputSize for all the members read, and MaxRatio for their ratio to
// the archive's size.
type zipFS struct {
	zr *zip.Reader
	b  *budget
}

// newZipFS wraps the zip archive zr, named name and of the given size.
func newZipFS(zr *zip.Reader, name string, size int64, lim Limits) *zipFS {
	return &zipFS{zr: zr, b: newBudget(name, lim, size, nil)}
}

// Open implements fs.FS.
func (z *zipFS) Open(name string) (fs.File, error) {
	f, err := z.zr.Open(name)
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return f, nil
	}
	z.b.setMember(name)
	return &zipFile{File: f, r: z.b.reader(f)}, nil
}

// ReadDir implements fs.ReadDirFS.
func (z *zipFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(z.zr, name) }

// Stat implements fs.StatFS.
func (z *zipFS) Stat(name string) (fs.FileInfo, error) { return fs.Stat(z.zr, name) }

// rewind starts a new count: a new pass over the corpus.
func (z *zipFS) rewind() { z.b.reset() }

// zipFile is a member of a zipFS, read through the budget.
type zipFile struct {
	fs.File
	r io.Reader
}

// Read implements io.Reader.
func (f *zipFile) Read(p []byte) (int, error) { return f.r.Read(p) }
