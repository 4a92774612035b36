package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/sparse"
)

// readWholeVisit reads the corpus at p with rd, in memory, and visits it:
// how the matrix formats stream an input they cannot stream (and how they
// report a header error, with Read's own message).
func readWholeVisit(ctx context.Context, rd Reader, p string, v *visit) (*Corpus, error) {
	c, err := rd.Read(ctx, p)
	if err != nil {
		return nil, err
	}
	if err := VisitCorpus(c, v.v); err != nil {
		return nil, err
	}
	v.begun, v.n, v.inMemory = true, len(c.Docs), true
	return c, nil
}

// mmMaxLine is the longest MatrixMarket line, as in package sparse.
const mmMaxLine = 1 << 20

// stream reads a MatrixMarket file one row at a time. Only a coordinate
// file of general shape whose entries come row by row (in any column
// order within a row) streams; an array or symmetric file is read whole,
// as is any file whose header or companion files Read would reject (Read
// then gives its error). The rows equal Read's: duplicates summed in file
// order, zeros left out.
func (r MTX) stream(ctx context.Context, p string, v *visit) (*Corpus, error) {
	dir := filepath.Dir(p)
	vocabPath := r.Vocab
	if vocabPath == "" {
		vocabPath = filepath.Join(dir, "vocab.txt")
	}
	vocabData, err := os.ReadFile(vocabPath)
	if err != nil {
		return nil, fmt.Errorf("mtx: reading the vocabulary: %w", err)
	}
	labelsPath := r.Labels
	if labelsPath == "" {
		if d := filepath.Join(dir, "labels.txt"); exists(os.DirFS(dir), "labels.txt", false) {
			labelsPath = d
		}
	}
	var dl decodeLog
	vocab, err := decodeVocab(&dl, vocabPath, vocabData)
	if err != nil {
		return nil, err
	}
	var labels *lineReader
	if labelsPath != "" {
		if labels, err = openLines(labelsPath); err != nil {
			return nil, fmt.Errorf("mtx: reading the labels: %w", err)
		}
		defer labels.Close()
		dl.record(labelsPath, labels.enc)
	}
	in, _, closer, err := openMaybeGzip(p, limitsOf(r))
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	mp := &mmStream{sc: bufio.NewScanner(in)}
	mp.sc.Buffer(make([]byte, 0, 64<<10), mmMaxLine)
	rows, cols, nnz, field, ok := mp.header(r.MaxDocs)
	if !ok || cols != len(vocab) || labels != nil && labels.lines != rows {
		closer.Close()
		return readWholeVisit(ctx, r, p, v)
	}
	c := &Corpus{Name: "mtx: " + p}
	dl.addNote(c)
	if err := v.begin(vocab, rows); err != nil {
		return nil, err
	}
	rs := &rowStream{v: v, labels: labels, rows: rows}
	if err := mp.entries(ctx, p, rs, rows, cols, nnz, field); err != nil {
		return nil, err
	}
	if rs.dups.Duplicates > 0 {
		c.Notes = append([]string{DuplicatesNote(p, rs.dups)}, c.Notes...)
	}
	return c, nil
}

// mmStream parses a MatrixMarket coordinate file line by line, as
// sparse.MatrixMarketReader does.
type mmStream struct {
	sc     *bufio.Scanner
	lineNo int
}

// errorf returns an error of the form package sparse gives.
func (p *mmStream) errorf(format string, args ...any) error {
	return &sparse.ParseError{Line: max(p.lineNo, 1), Msg: fmt.Sprintf(format, args...)}
}

// next returns the next line; with skip set, blank lines and % comments
// are skipped. ok is false at the end of the input.
func (p *mmStream) next(skip bool) (line []byte, ok bool, err error) {
	for p.sc.Scan() {
		p.lineNo++
		line = p.sc.Bytes()
		if !skip {
			return line, true, nil
		}
		t := bytes.TrimLeft(line, " \t\r\v\f")
		if len(t) == 0 || t[0] == '%' {
			continue
		}
		return line, true, nil
	}
	if err := p.sc.Err(); err != nil {
		p.lineNo++
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, false, &sparse.ParseError{Line: p.lineNo, Msg: fmt.Sprintf("line longer than %d bytes", mmMaxLine), Err: err}
		}
		return nil, false, &sparse.ParseError{Line: p.lineNo, Msg: "read error: " + err.Error(), Err: err}
	}
	return nil, false, nil
}

// header reads the banner and the size line. ok is false unless the file
// is a coordinate matrix of general shape whose size fits the limits:
// anything else is left to sparse.MatrixMarketReader. field is "real",
// "double", "integer" or "pattern".
func (p *mmStream) header(maxDocs int) (rows, cols, nnz int, field string, ok bool) {
	line, ok, err := p.next(false)
	if err != nil || !ok {
		return 0, 0, 0, "", false
	}
	f := mmFields(bytes.TrimPrefix(line, []byte(utf8BOM)))
	if len(f) != 5 || !bytes.EqualFold(f[0], []byte("%%MatrixMarket")) || !bytes.EqualFold(f[1], []byte("matrix")) ||
		!bytes.EqualFold(f[2], []byte("coordinate")) || !bytes.EqualFold(f[4], []byte("general")) {
		return 0, 0, 0, "", false
	}
	switch field = strings.ToLower(string(f[3])); field {
	case "real", "double", "integer", "pattern":
	default:
		return 0, 0, 0, "", false
	}
	if line, ok, err = p.next(true); err != nil || !ok {
		return 0, 0, 0, "", false
	}
	f = mmFields(line)
	if len(f) != 3 {
		return 0, 0, 0, "", false
	}
	var v [3]int
	for k, b := range f {
		if v[k], ok = sparse.MMIndex(b); !ok {
			return 0, 0, 0, "", false
		}
	}
	if maxDocs <= 0 {
		maxDocs = sparse.DefaultMaxRows
	}
	if v[0] > maxDocs || v[1] > math.MaxInt32 {
		return 0, 0, 0, "", false
	}
	return v[0], v[1], v[2], field, true
}

// mmFields splits a line into fields separated by the white space package
// sparse knows: spaces, tabs, carriage returns, vertical tabs and form
// feeds.
func mmFields(line []byte) [][]byte {
	return bytes.FieldsFunc(line, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\r' || r == '\v' || r == '\f'
	})
}

// entries reads the entries of a coordinate file of general shape,
// giving the rows to rs.
func (p *mmStream) entries(ctx context.Context, name string, rs *rowStream, rows, cols, nnz int, field string) error {
	want := 3
	if field == "pattern" {
		want = 2
	}
	wrap := func(err error) error { return fmt.Errorf("%s: %w", name, err) }
	read := 0
	for {
		line, ok, err := p.next(true)
		if err != nil {
			return wrap(err)
		}
		if !ok {
			break
		}
		if read%(1<<16) == 0 {
			if err := canceled(ctx, name); err != nil {
				return err
			}
		}
		if read == nnz {
			return wrap(p.errorf("more entries than the %d declared", nnz))
		}
		read++
		f := mmFields(line)
		if len(f) != want {
			return wrap(p.errorf("entry has %d fields, want %d", len(f), want))
		}
		i, ok := sparse.MMIndex(f[0])
		if !ok {
			return wrap(p.errorf("invalid row index %s", sparse.MMQuote(f[0])))
		}
		j, ok := sparse.MMIndex(f[1])
		if !ok {
			return wrap(p.errorf("invalid column index %s", sparse.MMQuote(f[1])))
		}
		if i < 1 || i > rows {
			return wrap(p.errorf("row %d out of range 1..%d", i, rows))
		}
		if j < 1 || j > cols {
			return wrap(p.errorf("column %d out of range 1..%d", j, cols))
		}
		x := 1.0
		if want == 3 {
			if x, err = p.value(field, f[2]); err != nil {
				return wrap(err)
			}
			if x < 0 {
				return wrap(sparse.NegativeEntryError(p.lineNo, i, j, f[2]))
			}
		}
		if i-1 < rs.cur {
			return fmt.Errorf("%s:%d: row %d comes after row %d: %w", name, p.lineNo, i, rs.cur+1, ErrRowOrder)
		}
		if err := rs.moveTo(i-1, name); err != nil {
			return err
		}
		if x != 0 {
			rs.add(int32(j-1), x, p.lineNo)
		}
	}
	if read < nnz {
		return wrap(p.errorf("input ends after %d of %d declared entries", read, nnz))
	}
	return rs.moveTo(rows, name)
}

// value parses a value of the field as package sparse does.
func (p *mmStream) value(field string, b []byte) (float64, error) {
	x, err := sparse.MMValue(field, b)
	if err != nil {
		return 0, p.errorf("%s", err)
	}
	return x, nil
}

// rowStream gathers the entries of the current row of a matrix read in
// row order and visits each row (and the labels of its document) once it
// is complete.
type rowStream struct {
	v      *visit
	labels *lineReader // nil when the corpus has no labels
	rows   int
	cur    int // the row being gathered
	ents   []rowEntry
	row    Row
	dups   sparse.MMInfo // the duplicate entries summed, as package sparse counts them
}

// rowEntry is an entry of the row being gathered, with its line.
type rowEntry struct {
	col  int32
	val  float64
	line int
}

// add adds an entry to the current row.
func (rs *rowStream) add(col int32, val float64, line int) {
	rs.ents = append(rs.ents, rowEntry{col, val, line})
}

// moveTo completes the rows before row i (which may be rs.rows, the end),
// visiting them: duplicates summed in the order of the file, as package
// sparse sums them, and sums of zero left out.
func (rs *rowStream) moveTo(i int, name string) error {
	for rs.cur < i {
		slices.SortStableFunc(rs.ents, func(a, b rowEntry) int { return int(a.col) - int(b.col) })
		rs.row.Cols, rs.row.Vals = rs.row.Cols[:0], rs.row.Vals[:0]
		for p := 0; p < len(rs.ents); {
			e := rs.ents[p]
			s := e.val
			for p++; p < len(rs.ents) && rs.ents[p].col == e.col; p++ {
				if rs.dups.Duplicates == 0 {
					rs.dups.DuplicateRow, rs.dups.DuplicateCol = rs.cur+1, int(e.col)+1
					rs.dups.DuplicateLines = [2]int{e.line, rs.ents[p].line}
				}
				rs.dups.Duplicates++
				s += rs.ents[p].val
				if math.IsInf(s, 0) {
					return fmt.Errorf("%s: %w", name, &sparse.ParseError{Line: rs.ents[p].line,
						Msg: fmt.Sprintf("duplicate entries at (%d,%d) sum to an infinite value", rs.cur+1, e.col+1)})
				}
			}
			if s != 0 {
				rs.row.Cols = append(rs.row.Cols, e.col)
				rs.row.Vals = append(rs.row.Vals, s)
			}
		}
		rs.ents = rs.ents[:0]
		d := Document{ID: "doc-" + strconv.Itoa(rs.cur+1)}
		if rs.labels != nil {
			l, err := rs.labels.next()
			if err != nil {
				return err
			}
			d.Labels = splitLabels(l, ",")
		}
		if err := rs.v.doc(d, &rs.row); err != nil {
			return err
		}
		rs.cur++
	}
	return nil
}

// lineReader reads a text file line by line as splitLines splits it once
// DecodeText has decoded it: without a leading byte order mark, as Latin-1
// when the file is not valid UTF-8, without the "\r" of CRLF endings, and
// without an empty line after the last newline. A UTF-16 file (by its byte
// order mark) is decoded whole and its lines held, and a file that is not
// text is a *NotTextError, as DecodeText and Read have them.
type lineReader struct {
	path  string
	f     *os.File
	br    *bufio.Reader
	enc   Encoding
	mem   []string // the lines of a UTF-16 file
	lines int      // the number of lines of the file
}

// openLines opens the text file p, counting its lines and checking its
// encoding in a first read.
func openLines(p string) (*lineReader, error) {
	lr := &lineReader{path: p, enc: UTF8}
	if err := lr.open(); err != nil {
		return nil, err
	}
	head, _ := lr.br.Peek(sniffLen)
	enc, _, err := bomEncoding(head)
	if err != nil {
		lr.Close()
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if enc == UTF16LE || enc == UTF16BE {
		lr.Close()
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		text, enc, err := DecodeText(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		lr.enc, lr.mem = enc, splitLines(text)
		lr.lines = len(lr.mem)
		return lr, nil
	}
	if kind := binaryKind(head); kind != "" {
		lr.Close()
		return nil, &NotTextError{Name: p, Kind: kind}
	}
	valid := true
	for {
		line, err := lr.raw()
		if err == io.EOF {
			break
		}
		if err != nil {
			lr.Close()
			return nil, err
		}
		if bytes.IndexByte(line, 0) >= 0 {
			lr.Close()
			return nil, &NotTextError{Name: p, Kind: binaryKind([]byte{0})}
		}
		lr.lines++
		valid = valid && utf8.Valid(line)
	}
	if !valid {
		lr.enc = Latin1
	}
	lr.f.Close()
	if err := lr.open(); err != nil {
		return nil, err
	}
	if head, _ := lr.br.Peek(len(utf8BOM)); string(head) == utf8BOM {
		lr.br.Discard(len(utf8BOM))
	}
	return lr, nil
}

// open opens the file from its start.
func (lr *lineReader) open() error {
	f, err := os.Open(lr.path)
	if err != nil {
		return err
	}
	lr.f, lr.br = f, bufio.NewReaderSize(f, 64<<10)
	return nil
}

// raw returns the next line without its newline, or io.EOF.
func (lr *lineReader) raw() ([]byte, error) {
	line, err := lr.br.ReadBytes('\n')
	if err == io.EOF {
		if len(line) == 0 {
			return nil, io.EOF
		}
		return line, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", lr.path, err)
	}
	return line[:len(line)-1], nil
}

// next returns the next line, decoded and without a final "\r".
func (lr *lineReader) next() (string, error) {
	if lr.mem != nil {
		if len(lr.mem) == 0 {
			return "", fmt.Errorf("reading %s: no line left", lr.path)
		}
		l := lr.mem[0]
		lr.mem = lr.mem[1:]
		return l, nil
	}
	line, err := lr.raw()
	if err == io.EOF {
		return "", fmt.Errorf("reading %s: the file has changed (it ends early)", lr.path)
	}
	if err != nil {
		return "", err
	}
	var s string
	if lr.enc == Latin1 {
		s = latin1String(line)
	} else {
		s = string(line)
	}
	return strings.TrimSuffix(s, "\r"), nil
}

// Close closes the file.
func (lr *lineReader) Close() error {
	if lr.f == nil {
		return nil
	}
	err := lr.f.Close()
	lr.f = nil
	return err
}

// stream reads a UCI docword file one document at a time. Its entries must
// come document by document (the UCI files do); a header Read would
// reject is left to Read, for its message. The rows equal Read's.
func (r UCI) stream(ctx context.Context, p string, v *visit) (*Corpus, error) {
	vocabPath, vocabData, err := r.vocabFile(p)
	if err != nil {
		return nil, err
	}
	var dl decodeLog
	vocab, err := decodeVocab(&dl, vocabPath, vocabData)
	if err != nil {
		return nil, err
	}
	in, _, closer, err := openMaybeGzip(p, limitsOf(r))
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var hdr [3]int
	ok := true
	for k := range hdr {
		if ok = ok && sc.Scan(); ok {
			hdr[k], ok = parseUint(bytes.TrimSpace(sc.Bytes()))
		}
	}
	d, w, nnz := hdr[0], hdr[1], hdr[2]
	maxDocs := r.MaxDocs
	if maxDocs <= 0 {
		maxDocs = sparse.DefaultMaxRows
	}
	hi, lo := bits.Mul64(uint64(d), uint64(w))
	if !ok || w != len(vocab) || d > maxDocs || d == 0 || hi == 0 && uint64(nnz) > lo {
		closer.Close()
		return readWholeVisit(ctx, r, p, v)
	}
	c := &Corpus{Name: "uci: " + p}
	dl.addNote(c)
	if err := v.begin(vocab, d); err != nil {
		return nil, err
	}
	lineNo := 3
	errorf := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", p, lineNo, fmt.Sprintf(format, args...))
	}
	rs := &rowStream{v: v, rows: d}
	mark := make([]int32, w) // 1 + the row of the word's last entry
	err = docwordEntries(ctx, p, sc, &lineNo, d, w, nnz, func(doc, word, count int) error {
		if doc-1 < rs.cur {
			return fmt.Errorf("%s:%d: document %d comes after document %d: %w", p, lineNo, doc, rs.cur+1, ErrRowOrder)
		}
		if err := rs.moveTo(doc-1, p); err != nil {
			return err
		}
		if mark[word-1] == int32(doc) {
			return errorf("document %d lists word %d twice", doc, word)
		}
		mark[word-1] = int32(doc)
		rs.add(int32(word-1), float64(count), lineNo)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := rs.moveTo(d, p); err != nil {
		return nil, err
	}
	return c, nil
}

// stream reads a sharded corpus one shard at a time, checking each
// shard's checksum as it comes, with the labels read line by line.
func (s Shards) stream(ctx context.Context, p string, v *visit) (*Corpus, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m, err := shard.Open(p)
	if err != nil {
		return nil, err
	}
	if m.Vocab == "" {
		return nil, fmt.Errorf("shards: %s has no vocabulary file", p)
	}
	vocab, err := shardLines(filepath.Join(p, m.Vocab))
	if err != nil {
		return nil, err
	}
	if len(vocab) != m.Terms {
		return nil, fmt.Errorf("shard: %s has %d terms for %d columns", m.Vocab, len(vocab), m.Terms)
	}
	var labels *bufio.Reader
	if m.Labels != "" {
		lp := filepath.Join(p, m.Labels)
		n, err := countShardLines(lp)
		if err != nil {
			return nil, err
		}
		if n != m.Docs {
			return nil, fmt.Errorf("shard: %s has %d lines for %d documents", m.Labels, n, m.Docs)
		}
		f, err := os.Open(lp)
		if err != nil {
			return nil, fmt.Errorf("shard: %w", err)
		}
		defer f.Close()
		labels = bufio.NewReaderSize(f, 64<<10)
	}
	if err := v.begin(vocab, m.Docs); err != nil {
		return nil, err
	}
	doc := 0
	var row Row
	for i := range m.Shards {
		if err := canceled(ctx, p); err != nil {
			return nil, err
		}
		x, err := m.ReadShard(p, i)
		if err != nil {
			return nil, err
		}
		for k := 0; k < x.Rows; k++ {
			doc++
			d := Document{ID: "doc-" + strconv.Itoa(doc)}
			if labels != nil {
				l, err := labels.ReadString('\n')
				if err != nil && (err != io.EOF || l == "") {
					return nil, fmt.Errorf("shard: reading %s: %w", m.Labels, err)
				}
				if l = strings.TrimSuffix(l, "\n"); l != "" {
					d.Labels = strings.Split(l, ",")
				}
			}
			row.Cols, row.Vals = x.Row(k)
			if err := v.doc(d, &row); err != nil {
				return nil, err
			}
		}
	}
	return &Corpus{Name: "shards: " + p}, nil
}

// shardLines reads a file of package shard as shard.ReadAll does: its
// lines without their newlines.
func shardLines(p string) ([]string, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, fmt.Errorf("shard: %w", err)
	}
	if len(b) == 0 {
		return []string{}, nil
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n"), nil
}

// countShardLines counts the lines of a file as shardLines splits it.
func countShardLines(p string) (int, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, fmt.Errorf("shard: %w", err)
	}
	defer f.Close()
	buf := make([]byte, 64<<10)
	n, last := 0, byte('\n')
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if k > 0 {
			last = buf[k-1]
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, fmt.Errorf("shard: reading %s: %w", p, err)
		}
	}
	if last != '\n' {
		n++
	}
	return n, nil
}
