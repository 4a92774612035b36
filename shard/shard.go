package shard

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/semitopic/semitopic/internal/atomicfile"
	"github.com/semitopic/semitopic/sparse"
)

// FormatName identifies the layout in the manifest.
const FormatName = "semitopic-shards/1"

// ManifestFile, VocabFile and LabelsFile are the names of a sharded
// corpus's files beside its shards.
const (
	ManifestFile = "manifest.json"
	VocabFile    = "vocab.txt"
	LabelsFile   = "labels.txt"
	PipelineFile = "pipeline.json"
)

// magic opens every shard file.
var magic = [8]byte{'S', 'T', 'S', 'H', 'A', 'R', 'D', '1'}

// DefaultRowsPerShard is the number of documents per shard when Options
// leaves it unset: about 100 MB of matrix per shard at NYTimes' density.
const DefaultRowsPerShard = 1 << 16

// Manifest describes a sharded corpus: its shape, its files and their
// checksums.
type Manifest struct {
	Format string `json:"format"`
	// Docs and Terms are the matrix's rows and columns, NNZ its stored
	// entries.
	Docs  int   `json:"docs"`
	Terms int   `json:"terms"`
	NNZ   int64 `json:"nnz"`
	// Shards lists the shards in row order.
	Shards []Info `json:"shards"`
	// Vocab and Labels name the vocabulary file (one term per line) and
	// the labels file (one line per document, labels separated by commas;
	// empty for an unlabeled document), or are empty when absent.
	Vocab  string `json:"vocab,omitempty"`
	Labels string `json:"labels,omitempty"`
	// Pipeline names the file describing how text was vectorized into
	// this corpus (vectorize.Vectorizer.MarshalFitted), empty when absent.
	Pipeline string `json:"pipeline,omitempty"`
}

// Info describes one shard: rows FirstRow to FirstRow+Rows−1 of the
// corpus.
type Info struct {
	File     string `json:"file"`
	FirstRow int    `json:"first_row"`
	Rows     int    `json:"rows"`
	NNZ      int64  `json:"nnz"`
	// SHA256 is the hex SHA-256 of the shard file.
	SHA256 string `json:"sha256"`
	// LabelsOffset is the byte offset in the labels file of the line of
	// the shard's first document (0 when the corpus has no labels), so
	// that a shard's labels are read without the lines before them.
	LabelsOffset int64 `json:"labels_offset,omitempty"`
}

// Options configures a Writer.
type Options struct {
	// RowsPerShard bounds the documents of a shard (0:
	// DefaultRowsPerShard).
	RowsPerShard int
	// Vocab, when set, is written as the vocabulary file; its length must
	// be the number of terms.
	Vocab []string
	// Labels writes the labels file from the labels given to Add.
	Labels bool
	// Pipeline, when set, is written as the pipeline file: how the
	// documents were vectorized (opaque here; see Manifest.Pipeline).
	Pipeline []byte
}

// Writer writes a documents × terms matrix row by row into shards of a
// folder, holding one shard's rows at a time. It writes into a temporary
// folder beside the target, which Close puts in place of the target (and
// of a corpus that was there) once everything is written: a failure or
// Abort leaves what was there untouched.
type Writer struct {
	dir   string // the target
	tmp   string // where the files are written until Close
	terms int
	opt   Options
	man   Manifest

	indptr  []int64
	indices []int32
	data    []float64

	labels *atomicfile.File
	lw     *bufio.Writer
	lbytes int64 // bytes of the labels file so far
	lstart int64 // offset of the current shard's first labels line
	closed bool
}

// Create starts a sharded corpus of terms columns in dir, which it creates
// or, once Close has written everything, replaces. It refuses a dir that
// is a file or a folder holding anything but a sharded corpus, which
// replacing would delete, and one whose replacement was interrupted
// (Recover puts it back first). The stale temporaries that killed writes
// of dir left beside it are removed.
func Create(dir string, terms int, opt Options) (*Writer, error) {
	if terms < 1 {
		return nil, fmt.Errorf("shard: %d terms, want at least 1", terms)
	}
	if opt.RowsPerShard < 0 {
		return nil, fmt.Errorf("shard: RowsPerShard = %d, want ≥ 0", opt.RowsPerShard)
	}
	if opt.RowsPerShard == 0 {
		opt.RowsPerShard = DefaultRowsPerShard
	}
	if opt.Vocab != nil && len(opt.Vocab) != terms {
		return nil, fmt.Errorf("shard: %d vocabulary terms for %d columns", len(opt.Vocab), terms)
	}
	dir = filepath.Clean(dir)
	if err := CheckTarget(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	// What killed writes of dir left beside it goes now (Recover has
	// dealt with an interrupted replacement: CheckTarget refuses one).
	_, _ = atomicfile.RemoveStale(dir, atomicfile.KindTmp)
	_, _ = atomicfile.RemoveStale(dir, atomicfile.KindOld)
	tmp, err := os.MkdirTemp(filepath.Dir(dir), atomicfile.TempPattern(filepath.Base(dir), atomicfile.KindTmp))
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	w := &Writer{dir: dir, tmp: tmp, terms: terms, opt: opt, indptr: []int64{0},
		man: Manifest{Format: FormatName, Terms: terms}}
	if opt.Labels {
		f, err := atomicfile.Create(filepath.Join(tmp, LabelsFile))
		if err != nil {
			w.Abort()
			return nil, fmt.Errorf("shard: %w", err)
		}
		w.labels, w.lw = f, bufio.NewWriterSize(f, 1<<16)
	}
	return w, nil
}

// Add appends a document: its term indices, strictly increasing and below
// the number of terms, their finite values, and its labels (written when
// Options.Labels is set; a label may not contain a comma or a newline).
func (w *Writer) Add(cols []int32, vals []float64, labels []string) error {
	if w.closed {
		return errors.New("shard: Add after Close")
	}
	row := w.man.Docs
	if len(cols) != len(vals) {
		return fmt.Errorf("shard: document %d: %d terms and %d values", row, len(cols), len(vals))
	}
	for p, j := range cols {
		if j < 0 || int(j) >= w.terms || p > 0 && j <= cols[p-1] {
			return fmt.Errorf("shard: document %d: term index %d out of order or outside [0, %d)", row, j, w.terms)
		}
		if v := vals[p]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("shard: document %d: term %d has the value %v", row, j, v)
		}
	}
	if w.lw != nil {
		for _, l := range labels {
			if l == "" || strings.ContainsAny(l, ",\n\r") {
				return fmt.Errorf("shard: document %d: label %q is empty or holds a comma or newline", row, l)
			}
		}
		line := strings.Join(labels, ",")
		w.lw.WriteString(line)
		if err := w.lw.WriteByte('\n'); err != nil {
			return fmt.Errorf("shard: writing %s: %w", LabelsFile, err)
		}
		w.lbytes += int64(len(line)) + 1
	}
	w.indices = append(w.indices, cols...)
	w.data = append(w.data, vals...)
	w.indptr = append(w.indptr, int64(len(w.indices)))
	w.man.Docs++
	if len(w.indptr)-1 == w.opt.RowsPerShard {
		return w.flush()
	}
	return nil
}

// flush writes the rows held as the next shard.
func (w *Writer) flush() error {
	rows := len(w.indptr) - 1
	if rows == 0 {
		return nil
	}
	name := fmt.Sprintf("shard-%05d.bin", len(w.man.Shards))
	path := filepath.Join(w.tmp, name)
	f, err := atomicfile.Create(path)
	if err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	defer f.Abort()
	h := sha256.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, h), 1<<20)
	if err := writeShard(bw, w.terms, w.indptr, w.indices, w.data); err != nil {
		return fmt.Errorf("shard: writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("shard: writing %s: %w", path, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	nnz := int64(len(w.indices))
	w.man.Shards = append(w.man.Shards, Info{File: name, FirstRow: w.man.Docs - rows, Rows: rows, NNZ: nnz, SHA256: hex.EncodeToString(h.Sum(nil)), LabelsOffset: w.lstart})
	w.lstart = w.lbytes
	w.man.NNZ += nnz
	w.indptr, w.indices, w.data = w.indptr[:1], w.indices[:0], w.data[:0]
	return nil
}

// Close writes the last shard, the vocabulary, the labels and the
// manifest, puts the folder in place, and returns the manifest. On an
// error nothing is put in place.
func (w *Writer) Close() (*Manifest, error) {
	if w.closed {
		return nil, errors.New("shard: Close after Close or Abort")
	}
	m, err := w.finish()
	if err != nil {
		w.Abort()
		return nil, err
	}
	w.closed = true
	return m, nil
}

// finish writes what Close writes and renames the folder into place.
func (w *Writer) finish() (*Manifest, error) {
	if err := w.flush(); err != nil {
		return nil, err
	}
	if w.opt.Vocab != nil {
		err := writeAtomic(filepath.Join(w.tmp, VocabFile), func(bw *bufio.Writer) error {
			for _, t := range w.opt.Vocab {
				bw.WriteString(t)
				bw.WriteByte('\n')
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		w.man.Vocab = VocabFile
	}
	if w.opt.Pipeline != nil {
		err := writeAtomic(filepath.Join(w.tmp, PipelineFile), func(bw *bufio.Writer) error {
			_, err := bw.Write(w.opt.Pipeline)
			return err
		})
		if err != nil {
			return nil, err
		}
		w.man.Pipeline = PipelineFile
	}
	if w.lw != nil {
		if err := w.lw.Flush(); err != nil {
			return nil, fmt.Errorf("shard: writing %s: %w", LabelsFile, err)
		}
		if err := w.labels.Commit(); err != nil {
			return nil, fmt.Errorf("shard: %w", err)
		}
		w.man.Labels = LabelsFile
	}
	err := writeAtomic(filepath.Join(w.tmp, ManifestFile), func(bw *bufio.Writer) error {
		enc := json.NewEncoder(bw)
		enc.SetIndent("", "  ")
		return enc.Encode(&w.man)
	})
	if err != nil {
		return nil, err
	}
	// Put the new folder in place of the target: the old one, if any,
	// moves aside first and goes once the new one is there. A kill
	// between the two renames leaves no dir: Recover finishes or undoes
	// the replacement.
	if err := CheckTarget(w.dir); err != nil {
		return nil, err
	}
	var old string
	if _, err := os.Lstat(w.dir); err == nil {
		if old, err = os.MkdirTemp(filepath.Dir(w.dir), atomicfile.TempPattern(filepath.Base(w.dir), atomicfile.KindOld)); err != nil {
			return nil, fmt.Errorf("shard: %w", err)
		}
		if err := os.Rename(w.dir, filepath.Join(old, oldCorpus)); err != nil {
			os.Remove(old)
			return nil, fmt.Errorf("shard: moving the old %s aside: %w", w.dir, err)
		}
	}
	if err := os.Rename(w.tmp, w.dir); err != nil {
		if old != "" {
			os.Rename(filepath.Join(old, oldCorpus), w.dir)
			os.Remove(old)
		}
		return nil, fmt.Errorf("shard: %w", err)
	}
	if old != "" {
		os.RemoveAll(old)
	}
	return &w.man, nil
}

// Abort throws away everything written; the target is left as it was.
func (w *Writer) Abort() {
	if w.closed {
		return
	}
	w.closed = true
	if w.labels != nil {
		w.labels.Abort()
	}
	os.RemoveAll(w.tmp)
}

// writeShard writes the shard layout: the magic, rows, columns and
// stored entries as little-endian uint64, then indptr (int64), indices
// (int32) and data (float64), little-endian.
func writeShard(bw io.Writer, cols int, indptr []int64, indices []int32, data []float64) error {
	head := []uint64{uint64(len(indptr) - 1), uint64(cols), uint64(len(indices))}
	if _, err := bw.Write(magic[:]); err != nil {
		return err
	}
	for _, part := range []any{head, indptr, indices, data} {
		if err := binary.Write(bw, binary.LittleEndian, part); err != nil {
			return err
		}
	}
	return nil
}

// writeAtomic writes path atomically through a buffered writer
// (atomicfile.WriteFile, whose buffer fill writes to).
func writeAtomic(path string, fill func(*bufio.Writer) error) error {
	if err := atomicfile.WriteFile(path, func(w io.Writer) error { return fill(bufio.NewWriter(w)) }); err != nil {
		return fmt.Errorf("shard: %w", err)
	}
	return nil
}

// Open reads and checks the manifest of the sharded corpus in dir. When dir
// is missing because its replacement was interrupted, the error says so
// (Recover puts it back).
func Open(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := os.ReadFile(path)
	if err != nil {
		if _, serr := os.Lstat(dir); errors.Is(serr, fs.ErrNotExist) {
			if old, _ := interrupted(filepath.Clean(dir)); old != nil {
				return nil, errInterrupted(dir, old)
			}
		}
		return nil, fmt.Errorf("shard: %w", err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("shard: %s: %w", path, err)
	}
	if m.Format != FormatName {
		return nil, fmt.Errorf("shard: %s: format %q, want %q", path, m.Format, FormatName)
	}
	row, nnz := 0, int64(0)
	for i, s := range m.Shards {
		if s.FirstRow != row || s.Rows < 1 || s.NNZ < 0 || filepath.Base(s.File) != s.File {
			return nil, fmt.Errorf("shard: %s: shard %d (%s) does not follow the one before it", path, i, s.File)
		}
		row += s.Rows
		nnz += s.NNZ
	}
	if row != m.Docs || nnz != m.NNZ || m.Terms < 1 {
		return nil, fmt.Errorf("shard: %s: the shards hold %d documents and %d entries, the manifest says %d and %d", path, row, nnz, m.Docs, m.NNZ)
	}
	return &m, nil
}

// ReadShard reads shard i of the corpus in dir, checking its checksum and
// layout, as a CSR matrix of the shard's rows.
func (m *Manifest) ReadShard(dir string, i int) (*sparse.CSR, error) {
	x, _, err := m.readShard(dir, i, nil, nil)
	return x, err
}

// readShard reads shard i into reuse's arrays when they are large enough
// (reuse may be nil). It checks the file's size and header at every read,
// and its SHA-256 and layout (sparse.CSR.Validate) unless the file is the
// one that checked describes: the same file (os.SameFile) with the same
// modification time and size. It returns the file's information, which a
// later read can pass as checked once this one has succeeded.
func (m *Manifest) readShard(dir string, i int, checked os.FileInfo, reuse *sparse.CSR) (*sparse.CSR, os.FileInfo, error) {
	if i < 0 || i >= len(m.Shards) {
		return nil, nil, fmt.Errorf("shard: no shard %d (have %d)", i, len(m.Shards))
	}
	s := m.Shards[i]
	path := filepath.Join(dir, s.File)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, fmt.Errorf("shard: %w", err)
	}
	// The file's size must be what the manifest's shape implies, so that a
	// damaged manifest cannot make the reader allocate beyond the file.
	want := int64(len(magic)) + 3*8 + 8*(int64(s.Rows)+1) + 12*s.NNZ
	if fi.Size() != want {
		return nil, nil, fmt.Errorf("shard: %s: %d bytes, the manifest's %d×%d with %d entries needs %d: the file is damaged", path, fi.Size(), s.Rows, m.Terms, s.NNZ, want)
	}
	verify := checked == nil || !os.SameFile(checked, fi) || !fi.ModTime().Equal(checked.ModTime()) || fi.Size() != checked.Size()
	var r io.Reader = f
	h := sha256.New()
	if verify {
		r = io.TeeReader(f, h)
	}
	x, err := readShard(bufio.NewReaderSize(r, 1<<20), uint64(s.Rows), uint64(m.Terms), uint64(s.NNZ), reuse)
	if err == nil && verify {
		err = x.Validate()
	}
	if err != nil {
		return nil, nil, fmt.Errorf("shard: %s: %w", path, err)
	}
	if got := hex.EncodeToString(h.Sum(nil)); verify && got != s.SHA256 {
		return nil, nil, fmt.Errorf("shard: %s: checksum %s, the manifest says %s: the file is damaged", path, got, s.SHA256)
	}
	return x, fi, nil
}

// readShard parses the shard layout, whose header must announce the
// manifest's rows, columns and entries (so that a damaged header cannot
// make it allocate), and drains r, so that a hash of what r reads covers
// the whole file; the caller validates the matrix. The arrays are reuse's
// when it is not nil and they are large enough, new ones otherwise.
func readShard(r io.Reader, wantRows, wantCols, wantNNZ uint64, reuse *sparse.CSR) (*sparse.CSR, error) {
	var mg [8]byte
	if _, err := io.ReadFull(r, mg[:]); err != nil || mg != magic {
		return nil, fmt.Errorf("not a shard file")
	}
	var head [3]uint64
	if err := binary.Read(r, binary.LittleEndian, head[:]); err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	rows, cols, nnz := head[0], head[1], head[2]
	if rows != wantRows || cols != wantCols || nnz != wantNNZ {
		return nil, fmt.Errorf("the header says %d×%d with %d entries, the manifest %d×%d with %d: the file is damaged", rows, cols, nnz, wantRows, wantCols, wantNNZ)
	}
	var ip []int
	var indices []int32
	var data []float64
	if reuse != nil {
		ip, indices, data = reuse.Indptr, reuse.Indices, reuse.Data
	}
	ip = resize(ip, int(rows)+1)
	indices = resize(indices, int(nnz))
	data = resize(data, int(nnz))
	var err error
	if inPlace {
		err = readInPlace(r, ip)
		if err == nil {
			err = readInPlace(r, indices)
		}
		if err == nil {
			err = readInPlace(r, data)
		}
	} else {
		err = decodeArrays(r, ip, indices, data)
	}
	if err != nil {
		return nil, fmt.Errorf("truncated: %w", err)
	}
	if n, _ := io.Copy(io.Discard, r); n > 0 {
		return nil, fmt.Errorf("%d bytes after the data", n)
	}
	return &sparse.CSR{Rows: int(rows), Cols: int(cols), Indptr: ip, Indices: indices, Data: data}, nil
}

// decodeArrays reads the shard's three arrays value by value, on machines
// whose layout is not the file's.
func decodeArrays(r io.Reader, ip []int, indices []int32, data []float64) error {
	// The arrays are decoded through one small buffer: binary.Read would
	// first read each of them whole into a temporary of its size.
	buf := make([]byte, 1<<16)
	err := decode(r, buf, 8, len(ip), func(b []byte, k int) {
		for q := range ip[k : k+len(b)/8] {
			ip[k+q] = int(int64(binary.LittleEndian.Uint64(b[8*q:])))
		}
	})
	if err == nil {
		err = decode(r, buf, 4, len(indices), func(b []byte, k int) {
			for q := range indices[k : k+len(b)/4] {
				indices[k+q] = int32(binary.LittleEndian.Uint32(b[4*q:]))
			}
		})
	}
	if err == nil {
		err = decode(r, buf, 8, len(data), func(b []byte, k int) {
			for q := range data[k : k+len(b)/8] {
				data[k+q] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*q:]))
			}
		})
	}
	return err
}

// resize returns s with length n, in s's array when its capacity allows
// (the elements are then overwritten by the caller, not cleared).
func resize[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]T, n)
}

// decode reads n values of size bytes from r through buf, handing each
// chunk read to put with the index of its first value.
func decode(r io.Reader, buf []byte, size, n int, put func(b []byte, k int)) error {
	per := len(buf) / size
	for k := 0; k < n; k += per {
		c := min(per, n-k)
		b := buf[:c*size]
		if _, err := io.ReadFull(r, b); err != nil {
			return err
		}
		put(b, k)
	}
	return nil
}

// ReadAll reads every shard of the corpus in dir into one matrix, with the
// vocabulary and the documents' labels (nil when the corpus has none).
func ReadAll(dir string) (x *sparse.CSR, vocab []string, labels [][]string, err error) {
	m, err := Open(dir)
	if err != nil {
		return nil, nil, nil, err
	}
	x = &sparse.CSR{Rows: m.Docs, Cols: m.Terms, Indptr: make([]int, 1, m.Docs+1),
		Indices: make([]int32, 0, m.NNZ), Data: make([]float64, 0, m.NNZ)}
	for i := range m.Shards {
		s, err := m.ReadShard(dir, i)
		if err != nil {
			return nil, nil, nil, err
		}
		off := len(x.Indices)
		for _, p := range s.Indptr[1:] {
			x.Indptr = append(x.Indptr, off+p)
		}
		x.Indices = append(x.Indices, s.Indices...)
		x.Data = append(x.Data, s.Data...)
	}
	if m.Vocab != "" {
		if vocab, err = readLines(filepath.Join(dir, m.Vocab)); err != nil {
			return nil, nil, nil, err
		}
		if len(vocab) != m.Terms {
			return nil, nil, nil, fmt.Errorf("shard: %s has %d terms for %d columns", m.Vocab, len(vocab), m.Terms)
		}
	}
	if m.Labels != "" {
		lines, err := readLines(filepath.Join(dir, m.Labels))
		if err != nil {
			return nil, nil, nil, err
		}
		if len(lines) != m.Docs {
			return nil, nil, nil, fmt.Errorf("shard: %s has %d lines for %d documents", m.Labels, len(lines), m.Docs)
		}
		labels = make([][]string, m.Docs)
		for i, l := range lines {
			if l != "" {
				labels[i] = strings.Split(l, ",")
			}
		}
	}
	return x, vocab, labels, nil
}

// readLines returns the lines of a file, without their newlines.
func readLines(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	if len(b) == 0 {
		return []string{}, nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), nil
}
