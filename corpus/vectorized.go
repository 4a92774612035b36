package corpus

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/semitopic/semitopic/sparse"
)

// MTX reads an already-vectorized corpus: PATH is a MatrixMarket file
// (optionally gzip-compressed, ".gz") holding a documents × terms matrix,
// read with sparse.MatrixMarketReader: zeros are not stored, a negative
// value is an error naming its line and entry (the models need counts or
// weights ≥ 0), and entries repeating the row and column of an earlier one
// are summed into it, which a note in Corpus.Notes says (how many, and the
// lines of the first). The vocabulary file gives the term of each column, one
// per line; the labels file, when present, gives the labels of each
// document, one line per row, labels separated by commas (trimmed; an empty
// line means unlabeled).
//
// Documents are the rows in order, with IDs "doc-1", "doc-2", …, empty
// Text and no split; Corpus.Matrix holds the matrix and vocabulary. A
// vocabulary whose length differs from the column count, a labels file
// whose line count differs from the row count, an empty or repeated term
// are errors naming the file (and line).
type MTX struct {
	// Vocab is the vocabulary file: vocab.txt beside PATH by default.
	Vocab string
	// Labels is the labels file. By default labels.txt beside PATH is used
	// when it exists (documents are unlabeled otherwise); a file set here
	// must exist.
	Labels string
	// MaxDocs bounds the number of rows the header may declare:
	// sparse.DefaultMaxRows when zero.
	MaxDocs int
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r MTX) Read(ctx context.Context, p string) (*Corpus, error) {
	dir := filepath.Dir(p)
	vocabPath := r.Vocab
	if vocabPath == "" {
		vocabPath = filepath.Join(dir, "vocab.txt")
	}
	vocab, err := os.ReadFile(vocabPath)
	if err != nil {
		return nil, fmt.Errorf("mtx: reading the vocabulary: %w", err)
	}
	labelsPath := r.Labels
	if labelsPath == "" {
		if d := filepath.Join(dir, "labels.txt"); exists(os.DirFS(dir), "labels.txt", false) {
			labelsPath = d
		}
	}
	var labels []byte
	if labelsPath != "" {
		if labels, err = os.ReadFile(labelsPath); err != nil {
			return nil, fmt.Errorf("mtx: reading the labels: %w", err)
		}
	}
	in, _, closer, err := openMaybeGzip(p, limitsOf(r))
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	c, err := r.read(ctx, p, in, vocabPath, vocab, labelsPath, labels)
	if err != nil {
		return nil, err
	}
	c.Name = "mtx: " + p
	return c, nil
}

// read builds the corpus from the matrix stream and the contents of the
// vocabulary and (when labelsName is not empty) labels files.
func (r MTX) read(ctx context.Context, name string, in io.Reader, vocabName string, vocabData []byte, labelsName string, labelsData []byte) (*Corpus, error) {
	var dl decodeLog
	vocab, err := decodeVocab(&dl, vocabName, vocabData)
	if err != nil {
		return nil, err
	}
	var labelLines []string
	if labelsName != "" {
		text, err := dl.decode(labelsName, labelsData)
		if err != nil {
			return nil, err
		}
		labelLines = splitLines(text)
	}
	// Check the declared shape before the entries are read, so that a
	// header that does not fit the vocabulary fails before any allocation.
	br := bufio.NewReaderSize(in, 64<<10)
	head, rows, cols, ok := peekMMSize(br)
	if ok && cols != len(vocab) {
		return nil, fmt.Errorf("%s: %d columns but the vocabulary %s has %d terms", name, cols, vocabName, len(vocab))
	}
	if ok && labelsName != "" && rows != len(labelLines) {
		return nil, fmt.Errorf("%s: %d rows but the labels file %s has %d lines", name, rows, labelsName, len(labelLines))
	}
	if err := canceled(ctx, name); err != nil {
		return nil, err
	}
	x, info, err := sparse.MatrixMarketReader{MaxRows: r.MaxDocs, NonNegative: true}.ReadInfo(io.MultiReader(bytes.NewReader(head), br))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if x.Cols != len(vocab) {
		return nil, fmt.Errorf("%s: %d columns but the vocabulary %s has %d terms", name, x.Cols, vocabName, len(vocab))
	}
	if labelsName != "" && x.Rows != len(labelLines) {
		return nil, fmt.Errorf("%s: %d rows but the labels file %s has %d lines", name, x.Rows, labelsName, len(labelLines))
	}
	c := &Corpus{Docs: vectorDocs(x.Rows), Matrix: &Matrix{X: x, Vocab: vocab}}
	for i, l := range labelLines {
		c.Docs[i].Labels = splitLabels(l, ",")
	}
	if info.Duplicates > 0 {
		c.Notes = append(c.Notes, DuplicatesNote(name, info))
	}
	dl.addNote(c)
	return c, nil
}

// DuplicatesNote is the note of a MatrixMarket file named name whose
// duplicate entries were summed, as info describes them: every reader of
// such files says it with this note.
func DuplicatesNote(name string, info sparse.MMInfo) string {
	return fmt.Sprintf("%s: %s the row and column of an earlier entry and %s summed into it (the first: row %d, column %d, on lines %d and %d)",
		name, plural(info.Duplicates, "entry repeats", "entries repeat"), map[bool]string{true: "was", false: "were"}[info.Duplicates == 1],
		info.DuplicateRow, info.DuplicateCol, info.DuplicateLines[0], info.DuplicateLines[1])
}

// decodeVocab decodes and parses a vocabulary file.
func decodeVocab(dl *decodeLog, name string, data []byte) ([]string, error) {
	text, err := dl.decode(name, data)
	if err != nil {
		return nil, err
	}
	return parseVocab(name, text)
}

// openMaybeGzip opens the file p, decompressing it when its name ends in
// ".gz" (counting what comes out against the limits). size is the file's
// size, or -1 when it is compressed. Closing the returned Closer closes
// everything opened.
func openMaybeGzip(p string, lim Limits) (in io.Reader, size int64, closer io.Closer, err error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, 0, nil, err
	}
	if !strings.HasSuffix(strings.ToLower(p), ".gz") {
		fi, err := f.Stat()
		if err != nil {
			f.Close()
			return nil, 0, nil, err
		}
		return f, fi.Size(), f, nil
	}
	c := &counter{r: f}
	gz, err := gzip.NewReader(c)
	if err != nil {
		f.Close()
		return nil, 0, nil, fmt.Errorf("reading %s: %w", p, err)
	}
	return newBudget(p, lim, 0, c).reader(gz), -1, closers{gz, f}, nil
}

// closers closes several things in order, returning the first error.
type closers []io.Closer

func (cs closers) Close() error {
	var first error
	for _, c := range cs {
		if err := c.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// peekMMSize reads the banner, comments and size line of a MatrixMarket
// stream and parses the declared rows and columns. It returns the bytes it
// consumed, to be read again, and ok false when the lines do not parse or
// the first is not a banner (the MatrixMarket reader then reports the
// problem).
func peekMMSize(br *bufio.Reader) (head []byte, rows, cols int, ok bool) {
	for n := 0; ; n++ {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			head = append(head, line...)
			return head, 0, 0, false
		}
		head = append(head, line...)
		t := bytes.TrimSpace(line)
		if n == 0 && !isMMBanner(t) {
			return head, 0, 0, false
		}
		if n > 0 && len(t) > 0 && t[0] != '%' {
			f := bytes.Fields(t)
			if len(f) < 2 {
				return head, 0, 0, false
			}
			r, err1 := strconv.Atoi(string(f[0]))
			c, err2 := strconv.Atoi(string(f[1]))
			return head, r, c, err1 == nil && err2 == nil
		}
		if err != nil {
			return head, 0, 0, false
		}
	}
}

// isMMBanner reports whether line starts as a MatrixMarket banner does.
func isMMBanner(line []byte) bool {
	line = bytes.TrimPrefix(line, []byte(utf8BOM))
	const banner = "%%matrixmarket"
	return len(line) >= len(banner) && strings.EqualFold(string(line[:len(banner)]), banner)
}

// vectorDocs returns n documents with IDs doc-1 … doc-n.
func vectorDocs(n int) []Document {
	docs := make([]Document, n)
	for i := range docs {
		docs[i].ID = "doc-" + strconv.Itoa(i+1)
	}
	return docs
}

// splitLines splits a file into lines, without the "\r" of CRLF endings
// and without the empty string after a final newline.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// parseVocab parses a vocabulary file: one term per line, trimmed of
// surrounding white space. An empty or repeated term is an error.
func parseVocab(name, text string) ([]string, error) {
	lines := splitLines(text)
	seen := make(map[string]int, len(lines))
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if t == "" {
			return nil, fmt.Errorf("%s:%d: empty term", name, i+1)
		}
		if prev, dup := seen[t]; dup {
			return nil, fmt.Errorf("%s:%d: term %q already on line %d", name, i+1, t, prev)
		}
		seen[t] = i + 1
		lines[i] = t
	}
	return lines, nil
}

// UCI reads the UCI Machine Learning Repository bag-of-words format: PATH
// is docword.NAME.txt or docword.NAME.txt.gz, whose first three lines give
// the number of documents D, of words W and of entries NNZ, followed by NNZ
// lines "docID wordID count" (1-based IDs, positive integer counts). The
// vocabulary is vocab.NAME.txt beside it (W words, one per line) unless
// Vocab is set.
//
// The file is streamed and the matrix built directly, with storage bounded
// by the entries actually read, so that large collections (NYTimes: 300,000
// documents, 70 million entries) fit. Documents are the D rows in order,
// with IDs "doc-1" … "doc-D", empty Text, no labels and no split. An entry
// out of range, a repeated (docID, wordID) pair, a malformed line, a count
// of entries different from NNZ or a vocabulary whose size differs from W
// is an error naming the file and line.
type UCI struct {
	// Vocab is the vocabulary file; vocab.NAME.txt beside PATH by default.
	Vocab string
	// MaxDocs bounds D: sparse.DefaultMaxRows when zero.
	MaxDocs int
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r UCI) Read(ctx context.Context, p string) (*Corpus, error) {
	vocabPath, vocabData, err := r.vocabFile(p)
	if err != nil {
		return nil, err
	}
	in, size, closer, err := openMaybeGzip(p, limitsOf(r))
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	hint := 1 << 20
	if size >= 0 {
		hint = int(size / 6) // an entry line takes at least 6 bytes
	}
	return r.read(ctx, p, in, hint, vocabPath, vocabData)
}

// vocabFile returns the path and contents of the vocabulary of the
// docword file p: Vocab, or vocab.NAME.txt beside docword.NAME.txt(.gz).
func (r UCI) vocabFile(p string) (string, []byte, error) {
	vocabPath := r.Vocab
	if vocabPath == "" {
		base := filepath.Base(p)
		name, ok := strings.CutPrefix(base, "docword.")
		if ok {
			name, ok = strings.CutSuffix(strings.TrimSuffix(name, ".gz"), ".txt")
		}
		if !ok || name == "" {
			return "", nil, fmt.Errorf("uci: %s is not named docword.NAME.txt(.gz); set the vocabulary file", p)
		}
		vocabPath = filepath.Join(filepath.Dir(p), "vocab."+name+".txt")
	}
	vocabData, err := os.ReadFile(vocabPath)
	if err != nil {
		return "", nil, fmt.Errorf("uci: reading the vocabulary: %w", err)
	}
	return vocabPath, vocabData, nil
}

// read builds the corpus from the docword stream in (named p) and the
// contents of the vocabulary file; hint bounds the storage reserved before
// entries are read.
func (r UCI) read(ctx context.Context, p string, in io.Reader, hint int, vocabPath string, vocabData []byte) (*Corpus, error) {
	var dl decodeLog
	vocab, err := decodeVocab(&dl, vocabPath, vocabData)
	if err != nil {
		return nil, err
	}
	x, err := readDocword(ctx, p, in, len(vocab), r.MaxDocs, hint)
	if err != nil {
		return nil, err
	}
	c := &Corpus{Name: "uci: " + p, Docs: vectorDocs(x.Rows), Matrix: &Matrix{X: x, Vocab: vocab}}
	dl.addNote(c)
	return c, nil
}

// docwordEntries reads the entry lines of a UCI docword stream after its
// header (*lineNo lines read so far, kept current), checking each against
// the header's D, W and NNZ, and calls add with each entry's 1-based
// document and word and its count. Blank lines are skipped; errors name
// the stream and the line.
func docwordEntries(ctx context.Context, name string, sc *bufio.Scanner, lineNo *int, d, w, nnz int, add func(doc, word, count int) error) error {
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, *lineNo, fmt.Sprintf(format, args...))
	}
	read := 0
	for sc.Scan() {
		*lineNo++
		line := sc.Bytes()
		if read%(1<<16) == 0 {
			if err := canceled(ctx, name); err != nil {
				return err
			}
		}
		doc, word, count, ok := parseTriple(line)
		if !ok {
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return errorf("want \"docID wordID count\" (positive integers), found %q", clip(string(line)))
		}
		if read == nnz {
			return errorf("more entries than NNZ=%d", nnz)
		}
		read++
		if doc > d {
			return errorf("docID %d out of range 1..%d", doc, d)
		}
		if word > w {
			return errorf("wordID %d out of range 1..%d", word, w)
		}
		if err := add(doc, word, count); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		*lineNo++
		return errorf("%v", err)
	}
	if read != nnz {
		return fmt.Errorf("%s: header says NNZ=%d but the file has %d entries", name, nnz, read)
	}
	return nil
}

// readDocword parses a UCI docword stream whose vocabulary has nVocab
// words. maxDocs bounds D (sparse.DefaultMaxRows when zero) and hint bounds
// the storage reserved before entries are read.
func readDocword(ctx context.Context, name string, in io.Reader, nVocab, maxDocs, hint int) (*sparse.CSR, error) {
	if maxDocs <= 0 {
		maxDocs = sparse.DefaultMaxRows
	}
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	lineNo := 0
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
	}
	scanErr := func() error {
		if err := sc.Err(); err != nil {
			lineNo++
			return errorf("%v", err)
		}
		return nil
	}
	var hdr [3]int
	for k, what := range []string{"D (number of documents)", "W (number of words)", "NNZ (number of entries)"} {
		if !sc.Scan() {
			if err := scanErr(); err != nil {
				return nil, err
			}
			lineNo++
			return nil, errorf("missing header line %s", what)
		}
		lineNo++
		v, ok := parseUint(bytes.TrimSpace(sc.Bytes()))
		if !ok {
			return nil, errorf("header line %s: %q is not a non-negative integer", what, clip(string(sc.Bytes())))
		}
		hdr[k] = v
	}
	d, w, nnz := hdr[0], hdr[1], hdr[2]
	if w != nVocab {
		return nil, fmt.Errorf("%s: header says W=%d words but the vocabulary has %d", name, w, nVocab)
	}
	if d > maxDocs {
		return nil, fmt.Errorf("%s: header says D=%d documents, more than the limit of %d", name, d, maxDocs)
	}
	if d == 0 {
		return nil, fmt.Errorf("%s: header says D=0: no documents", name)
	}
	if hi, lo := bits.Mul64(uint64(d), uint64(w)); hi == 0 && uint64(nnz) > lo {
		return nil, fmt.Errorf("%s: header says NNZ=%d, more than D×W=%d×%d", name, nnz, d, w)
	}
	b, err := sparse.NewBuilder(d, w, min(nnz, hint))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var dup *sparse.DuplicateError
	err = docwordEntries(ctx, name, sc, &lineNo, d, w, nnz, func(doc, word, count int) error {
		if err := b.Add(doc-1, word-1, float64(count)); errors.As(err, &dup) {
			return errorf("document %d lists word %d twice", doc, word)
		} else if err != nil {
			return errorf("%v", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	x, err := b.Build()
	if errors.As(err, &dup) {
		return nil, fmt.Errorf("%s: document %d lists word %d twice", name, dup.Row+1, dup.Col+1)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return x, nil
}

// parseUint parses a non-negative decimal integer of at most 15 digits.
func parseUint(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// parseTriple parses "a b c" (positive integers separated by spaces or
// tabs, optional surrounding white space).
func parseTriple(line []byte) (a, b, c int, ok bool) {
	var v [3]int
	i := 0
	for k := 0; k < 3; k++ {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		n, good := parseUint(line[i:j])
		if !good || n == 0 {
			return 0, 0, 0, false
		}
		v[k] = n
		i = j
		if k < 2 && (i == len(line) || (line[i] != ' ' && line[i] != '\t')) {
			return 0, 0, 0, false
		}
	}
	for ; i < len(line); i++ {
		if c := line[i]; c != ' ' && c != '\t' && c != '\r' {
			return 0, 0, 0, false
		}
	}
	return v[0], v[1], v[2], true
}
