package sparse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"

	"gonum.org/v1/gonum/mat"
)

// DefaultMaxRows is the largest number of rows ReadMatrixMarket accepts in a
// header. The row pointer of the result is allocated from the declared row
// count, so an unchecked header could demand any amount of memory; 1<<26 rows
// cost 512 MiB. Use a MatrixMarketReader to raise or lower the limit.
const DefaultMaxRows = 1 << 26

// maxLine is the longest line the reader accepts.
const maxLine = 1 << 20

// maxPrealloc caps how many entries are reserved up front from a header's
// declared count; beyond it storage grows with the entries actually read.
const maxPrealloc = 1 << 16

// ErrTooLarge is wrapped by errors for headers declaring a matrix beyond a
// reader's limits.
var ErrTooLarge = errors.New("matrix too large")

// ParseError describes malformed MatrixMarket input. Line is 1-based.
type ParseError struct {
	Line int
	Msg  string
	Err  error // underlying cause, if any (ErrTooLarge, an I/O error)
}

// Error formats the error as "sparse: MatrixMarket line N: message".
func (e *ParseError) Error() string {
	return fmt.Sprintf("sparse: MatrixMarket line %d: %s", e.Line, e.Msg)
}

// Unwrap returns the underlying cause.
func (e *ParseError) Unwrap() error { return e.Err }

// ErrNegative is wrapped by the error of a negative value read by a
// MatrixMarketReader with NonNegative set.
var ErrNegative = errors.New("negative value")

// NegativeEntryError is the error of the negative value v (as written) of
// the entry at the 1-based row and column, on the given line: the error
// of every reader of matrices that must hold counts or weights.
func NegativeEntryError(line, row, col int, v []byte) *ParseError {
	return &ParseError{Line: line, Err: ErrNegative,
		Msg: fmt.Sprintf("entry (%d,%d) has the negative value %s; the matrix must hold counts or weights ≥ 0", row, col, MMQuote(v))}
}

// MatrixMarketReader reads MatrixMarket files with configurable limits. The
// zero value uses the defaults.
type MatrixMarketReader struct {
	// MaxRows bounds the declared number of rows; 0 means DefaultMaxRows.
	MaxRows int
	// NonNegative makes a negative value an error naming its line and
	// entry (see NegativeEntryError), for matrices that hold counts or
	// weights.
	NonNegative bool
	// SizeHint, when positive, is the input's size in bytes (a file's
	// size). A coordinate file's storage is then reserved up front for
	// its declared entries, as many as that many bytes can hold, instead
	// of growing as they are read: a large matrix is read without the
	// growing arrays' copies, which can double the memory reading takes.
	SizeHint int64
}

// MMInfo describes what ReadInfo found in a file besides the matrix.
type MMInfo struct {
	// Duplicates counts the entries of a coordinate file that repeat the
	// coordinates of an earlier entry and were summed into it (for a
	// symmetric file, among the stored lower triangle). Entries whose
	// value is zero are not stored, and not counted.
	Duplicates int
	// DuplicateRow and DuplicateCol are the 1-based coordinates of the
	// first repeated entry in row order, and DuplicateLines the lines of
	// its first two entries; zero when there is none.
	DuplicateRow, DuplicateCol int
	DuplicateLines             [2]int
}

// ReadMatrixMarket reads a real matrix in MatrixMarket exchange format with
// the default limits; see MatrixMarketReader.Read.
func ReadMatrixMarket(r io.Reader) (*CSR, error) {
	return MatrixMarketReader{}.Read(r)
}

// mmHeader is the parsed banner line.
type mmHeader struct {
	array    bool // "array" rather than "coordinate"
	field    string
	symmetry string
}

// Read parses a matrix in MatrixMarket exchange format:
//
//	%%MatrixMarket matrix coordinate real|integer|pattern general|symmetric|skew-symmetric
//	%%MatrixMarket matrix array real|integer general|symmetric|skew-symmetric
//
// Banner keywords are case-insensitive. Lines starting with % after the banner
// and blank lines are skipped. Coordinate entries are 1-based "i j value"
// lines ("i j" for pattern, whose values are 1); duplicates are summed, and
// entries that are or sum to exactly zero are not stored. Symmetric files
// must list only the lower triangle (i ≥ j, and i > j for skew-symmetric),
// which is mirrored. Array files list values one per line in column-major
// order (only the lower triangle for symmetric ones). Integer values above
// 2^53 are rounded to the nearest float64. The number of entries must match
// the header.
//
// Errors are *ParseError values naming the line. The reader never allocates
// more than a small fixed amount from the header's claims before the
// entries are read, except the row pointer, whose size is bounded by MaxRows.
func (mr MatrixMarketReader) Read(r io.Reader) (*CSR, error) {
	m, _, err := mr.ReadInfo(r)
	return m, err
}

// ReadInfo is Read, and says what it found besides the matrix: the
// duplicate entries it summed.
func (mr MatrixMarketReader) ReadInfo(r io.Reader) (*CSR, MMInfo, error) {
	if r == nil {
		return nil, MMInfo{}, errors.New("sparse: reading MatrixMarket: nil reader")
	}
	maxRows := mr.MaxRows
	if maxRows <= 0 {
		maxRows = DefaultMaxRows
	}
	p := &mmParser{sc: bufio.NewScanner(r), nonNegative: mr.NonNegative, reserve: maxPrealloc}
	if mr.SizeHint > 0 {
		// An entry line takes at least 4 bytes ("1 1\n" in a pattern file).
		p.reserve = int(min(mr.SizeHint/4+1, math.MaxInt32))
	}
	p.sc.Buffer(make([]byte, 0, 64<<10), maxLine)

	line, ok, err := p.next(false)
	if err != nil {
		return nil, MMInfo{}, err
	}
	if !ok {
		return nil, MMInfo{}, p.errorf("empty input: missing %%%%MatrixMarket banner")
	}
	h, err := p.banner(line)
	if err != nil {
		return nil, MMInfo{}, err
	}
	line, ok, err = p.next(true)
	if err != nil {
		return nil, MMInfo{}, err
	}
	if !ok {
		return nil, MMInfo{}, p.errorf("missing size line")
	}
	if h.array {
		m, err := p.readArray(h, line, maxRows)
		return m, MMInfo{}, err
	}
	return p.readCoordinate(h, line, maxRows)
}

// mmParser tracks the scanner and the current line number.
type mmParser struct {
	sc          *bufio.Scanner
	lineNo      int
	fields      [][]byte // scratch for split
	nonNegative bool     // a negative value is an error
	reserve     int      // most entries reserved from a header's declared count
}

func (p *mmParser) errorf(format string, args ...any) error {
	return &ParseError{Line: max(p.lineNo, 1), Msg: fmt.Sprintf(format, args...)}
}

// next returns the next line. With skip set, blank lines and % comments are
// skipped. ok is false at the end of input.
func (p *mmParser) next(skip bool) (line []byte, ok bool, err error) {
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
			return nil, false, &ParseError{Line: p.lineNo, Msg: fmt.Sprintf("line longer than %d bytes", maxLine), Err: err}
		}
		return nil, false, &ParseError{Line: p.lineNo, Msg: "read error: " + err.Error(), Err: err}
	}
	return nil, false, nil
}

// split splits a line into whitespace-separated fields, reusing scratch.
func (p *mmParser) split(line []byte) [][]byte {
	f := p.fields[:0]
	i := 0
	for i < len(line) {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		f = append(f, line[i:j])
		i = j
	}
	p.fields = f
	return f
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'
}

// banner parses the %%MatrixMarket line.
func (p *mmParser) banner(line []byte) (mmHeader, error) {
	line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf")) // UTF-8 byte order mark
	f := p.split(line)
	if len(f) == 0 || !bytes.EqualFold(f[0], []byte("%%MatrixMarket")) {
		return mmHeader{}, p.errorf("missing %%%%MatrixMarket banner, found %s", MMQuote(line))
	}
	if len(f) != 5 {
		return mmHeader{}, p.errorf("banner has %d fields, want 5 (%%%%MatrixMarket matrix format field symmetry)", len(f))
	}
	lower := func(b []byte) string { return string(bytes.ToLower(b)) }
	var h mmHeader
	if obj := lower(f[1]); obj != "matrix" {
		return h, p.errorf("unsupported object %s, want matrix", MMQuote(f[1]))
	}
	switch format := lower(f[2]); format {
	case "coordinate":
	case "array":
		h.array = true
	default:
		return h, p.errorf("unknown format %s, want coordinate or array", MMQuote(f[2]))
	}
	h.field = lower(f[3])
	switch h.field {
	case "real", "double", "integer":
	case "pattern":
		if h.array {
			return h, p.errorf("pattern field is not allowed in array format")
		}
	case "complex":
		return h, p.errorf("complex matrices are not supported")
	default:
		return h, p.errorf("unknown field %s, want real, integer or pattern", MMQuote(f[3]))
	}
	h.symmetry = lower(f[4])
	switch h.symmetry {
	case "general", "symmetric", "skew-symmetric":
	case "hermitian":
		return h, p.errorf("hermitian symmetry is only defined for complex matrices")
	default:
		return h, p.errorf("unknown symmetry %s, want general, symmetric or skew-symmetric", MMQuote(f[4]))
	}
	return h, nil
}

// sizes parses the size line's n non-negative integers and checks the
// shape against the limits.
func (p *mmParser) sizes(h mmHeader, line []byte, n, maxRows int) ([]int, error) {
	f := p.split(line)
	what := "rows columns entries"
	if h.array {
		what = "rows columns"
	}
	if len(f) != n {
		return nil, p.errorf("size line has %d fields, want %d (%s)", len(f), n, what)
	}
	v := make([]int, n)
	for k, b := range f {
		x, ok := MMIndex(b)
		if !ok {
			return nil, p.errorf("size line: invalid count %s", MMQuote(b))
		}
		v[k] = x
	}
	rows, cols := v[0], v[1]
	if rows > maxRows {
		return nil, &ParseError{Line: p.lineNo, Msg: fmt.Sprintf("%d rows exceed the limit of %d", rows, maxRows), Err: ErrTooLarge}
	}
	if cols > math.MaxInt32 {
		return nil, &ParseError{Line: p.lineNo, Msg: fmt.Sprintf("%d columns exceed int32 column indices", cols), Err: ErrTooLarge}
	}
	if h.symmetry != "general" && rows != cols {
		return nil, p.errorf("%s matrix must be square, got %d×%d", h.symmetry, rows, cols)
	}
	return v, nil
}

// cells returns how many entries a header may declare at most: rows·cols,
// or the lower triangle for symmetric shapes, saturating at MaxInt.
func cells(h mmHeader, rows, cols int) int {
	hi, lo := bits.Mul64(uint64(rows), uint64(cols))
	if hi != 0 || lo > math.MaxInt {
		return math.MaxInt
	}
	n := int(lo)
	switch h.symmetry {
	case "symmetric":
		n = (n-rows)/2 + rows // n(n+1)/2 for square matrices
	case "skew-symmetric":
		n = (n - rows) / 2
	}
	return n
}

// entryLines maps positions in the triplet list back to line numbers: each
// checkpoint says that triplet idx came from line; following triplets came
// from the following lines until the next checkpoint. Files without comments
// or blank lines among the entries need a single checkpoint.
type entryLines struct {
	idx, line []int
	last      int // line of the last recorded triplet
}

func (e *entryLines) add(idx, line int) {
	if len(e.idx) == 0 || line != e.last+1 {
		e.idx = append(e.idx, idx)
		e.line = append(e.line, line)
	}
	e.last = line
}

func (e *entryLines) lineOf(k int) int {
	c := 0
	for c+1 < len(e.idx) && e.idx[c+1] <= k {
		c++
	}
	if len(e.idx) == 0 {
		return 0
	}
	return e.line[c] + (k - e.idx[c])
}

// readCoordinate reads the size line and entries of a coordinate file.
func (p *mmParser) readCoordinate(h mmHeader, sizeLine []byte, maxRows int) (*CSR, MMInfo, error) {
	var info MMInfo
	v, err := p.sizes(h, sizeLine, 3, maxRows)
	if err != nil {
		return nil, info, err
	}
	// The declared count is not checked against the shape: duplicates are
	// allowed (and summed), so only the entries actually read can tell.
	rows, cols, nnz := v[0], v[1], v[2]
	want := 3
	if h.field == "pattern" {
		want = 2
	}
	// Entries in row-major order (rows non-decreasing, columns increasing
	// within a row), as WriteMatrixMarket and most writers store them, go
	// straight into the CSR's arrays: 12 bytes per entry, where a triplet
	// takes 24 and sorting triplets copies them once more. The first entry
	// out of that order moves those read to triplets, the general way.
	var ts []Triplet
	inOrder := h.symmetry == "general"
	var indptr []int
	var indices []int32
	var data []float64
	if inOrder {
		indptr = make([]int, rows+1)
		indices = make([]int32, 0, min(nnz, p.reserve))
		data = make([]float64, 0, min(nnz, p.reserve))
	} else {
		ts = make([]Triplet, 0, min(nnz, p.reserve))
	}
	lastRow, lastCol := -1, -1
	var lines entryLines
	read := 0
	for {
		line, ok, err := p.next(true)
		if err != nil {
			return nil, info, err
		}
		if !ok {
			break
		}
		if read == nnz {
			return nil, info, p.errorf("more entries than the %d declared", nnz)
		}
		read++
		f := p.split(line)
		if len(f) != want {
			return nil, info, p.errorf("entry has %d fields, want %d", len(f), want)
		}
		i, ok := MMIndex(f[0])
		if !ok {
			return nil, info, p.errorf("invalid row index %s", MMQuote(f[0]))
		}
		j, ok := MMIndex(f[1])
		if !ok {
			return nil, info, p.errorf("invalid column index %s", MMQuote(f[1]))
		}
		if i < 1 || i > rows {
			return nil, info, p.errorf("row %d out of range 1..%d", i, rows)
		}
		if j < 1 || j > cols {
			return nil, info, p.errorf("column %d out of range 1..%d", j, cols)
		}
		switch h.symmetry {
		case "symmetric":
			if i < j {
				return nil, info, p.errorf("entry (%d,%d) above the diagonal of a symmetric matrix; only the lower triangle may be stored", i, j)
			}
		case "skew-symmetric":
			if i <= j {
				return nil, info, p.errorf("entry (%d,%d) on or above the diagonal of a skew-symmetric matrix; only the strict lower triangle may be stored", i, j)
			}
		}
		x := 1.0
		if want == 3 {
			if x, err = p.value(h, f[2]); err != nil {
				return nil, info, err
			}
			if err := p.checkSign(h, i, j, x, f[2]); err != nil {
				return nil, info, err
			}
		}
		if x == 0 {
			continue
		}
		if inOrder {
			if i-1 > lastRow || (i-1 == lastRow && j-1 > lastCol) {
				lines.add(len(data), p.lineNo)
				indptr[i]++
				indices = append(indices, int32(j-1))
				data = append(data, x)
				lastRow, lastCol = i-1, j-1
				continue
			}
			ts = csrTriplets(indptr, indices, data)
			inOrder, indptr, indices, data = false, nil, nil, nil
		}
		lines.add(len(ts), p.lineNo)
		ts = append(ts, Triplet{Row: i - 1, Col: j - 1, Val: x})
	}
	if read < nnz {
		return nil, info, p.errorf("input ends after %d of %d declared entries", read, nnz)
	}
	if inOrder { // no duplicates, nothing to sort
		for r := 0; r < rows; r++ {
			indptr[r+1] += indptr[r]
		}
		return &CSR{Rows: rows, Cols: cols, Indptr: indptr, Indices: indices, Data: data}, info, nil
	}
	n := len(ts)
	if h.symmetry != "general" {
		sign := 1.0
		if h.symmetry == "skew-symmetric" {
			sign = -1
		}
		for _, t := range ts[:n] {
			if t.Row != t.Col {
				ts = append(ts, Triplet{Row: t.Col, Col: t.Row, Val: sign * t.Val})
			}
		}
	}
	m := sortedCSR(rows, cols, ts)
	if d, r, c := duplicates(m, h.symmetry != "general"); d > 0 {
		info.Duplicates, info.DuplicateRow, info.DuplicateCol = d, r+1, c+1
		k := 0
		for q, t := range ts[:n] {
			if t.Row == r && t.Col == c {
				info.DuplicateLines[k] = lines.lineOf(q)
				if k++; k == 2 {
					break
				}
			}
		}
	}
	m, bad := sumDuplicates(m)
	if bad != nil {
		r, c := bad.row, bad.col
		if r < c { // a mirrored entry: its original overflows the same way
			r, c = c, r
		}
		k := firstOverflow(ts[:n], r, c)
		return nil, info, &ParseError{Line: lines.lineOf(k), Msg: fmt.Sprintf("duplicate entries at (%d,%d) sum to an infinite value", r+1, c+1)}
	}
	return m, info, nil
}

// csrTriplets returns the entries of row-major arrays whose indptr still
// holds each row's count at r+1 (not yet summed), as triplets in order.
func csrTriplets(counts []int, indices []int32, data []float64) []Triplet {
	ts := make([]Triplet, 0, max(len(data)*2, maxPrealloc))
	p := 0
	for r := 1; r < len(counts); r++ {
		for q := 0; q < counts[r]; q++ {
			ts = append(ts, Triplet{Row: r - 1, Col: int(indices[p]), Val: data[p]})
			p++
		}
	}
	return ts
}

// readArray reads the size line and the column-major values of an array
// file, keeping only the non-zeros.
func (p *mmParser) readArray(h mmHeader, sizeLine []byte, maxRows int) (*CSR, error) {
	v, err := p.sizes(h, sizeLine, 2, maxRows)
	if err != nil {
		return nil, err
	}
	rows, cols := v[0], v[1]
	total := cells(h, rows, cols) // cannot overflow within the limits
	ts := make([]Triplet, 0, min(total, maxPrealloc))
	// (i, j) is the position of the next value, zero-based, column-major
	// over the stored part (the lower triangle for symmetric shapes).
	i, j := 0, 0
	first := func(j int) int {
		switch h.symmetry {
		case "symmetric":
			return j
		case "skew-symmetric":
			return j + 1
		}
		return 0
	}
	i = first(0)
	read := 0
	for {
		line, ok, err := p.next(true)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if read == total {
			return nil, p.errorf("more values than the %d a %d×%d %s array holds", total, rows, cols, h.symmetry)
		}
		read++
		f := p.split(line)
		if len(f) != 1 {
			return nil, p.errorf("array entry has %d fields, want 1", len(f))
		}
		x, err := p.value(h, f[0])
		if err != nil {
			return nil, err
		}
		if err := p.checkSign(h, i+1, j+1, x, f[0]); err != nil {
			return nil, err
		}
		if x != 0 {
			ts = append(ts, Triplet{Row: i, Col: j, Val: x})
			switch {
			case i == j:
			case h.symmetry == "symmetric":
				ts = append(ts, Triplet{Row: j, Col: i, Val: x})
			case h.symmetry == "skew-symmetric":
				ts = append(ts, Triplet{Row: j, Col: i, Val: -x})
			}
		}
		i++
		for i >= rows && read < total {
			j++
			i = first(j)
		}
	}
	if read < total {
		return nil, p.errorf("input ends after %d of %d values of a %d×%d %s array", read, total, rows, cols, h.symmetry)
	}
	m, bad := buildCSR(rows, cols, ts)
	if bad != nil { // impossible: array entries are distinct and finite
		return nil, p.errorf("value at (%d,%d) is not finite", bad.row+1, bad.col+1)
	}
	return m, nil
}

// checkSign returns the error of a negative value when the parser wants
// none: x itself, written raw at the 1-based (i, j), or its mirror in a
// skew-symmetric matrix.
func (p *mmParser) checkSign(h mmHeader, i, j int, x float64, raw []byte) error {
	switch {
	case !p.nonNegative:
	case x < 0:
		return NegativeEntryError(p.lineNo, i, j, raw)
	case x > 0 && h.symmetry == "skew-symmetric":
		e := NegativeEntryError(p.lineNo, j, i, append([]byte("-"), raw...))
		e.Msg += " (the mirror of a skew-symmetric entry)"
		return e
	}
	return nil
}

// value parses one matrix value according to the header's field.
func (p *mmParser) value(h mmHeader, b []byte) (float64, error) {
	x, err := MMValue(h.field, b)
	if err != nil {
		return 0, p.errorf("%s", err)
	}
	return x, nil
}

// MMValue parses one MatrixMarket value of the given field ("integer";
// anything else is read as real) as ReadMatrixMarket does: a finite
// float64. The error names the value, not its line.
func MMValue(field string, b []byte) (float64, error) {
	if field == "integer" {
		x, err := strconv.ParseInt(string(b), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("invalid integer value %s", MMQuote(b))
		}
		return float64(x), nil
	}
	x, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		var ne *strconv.NumError
		if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) {
			return 0, fmt.Errorf("value %s out of float64 range", MMQuote(b))
		}
		return 0, fmt.Errorf("invalid real value %s", MMQuote(b))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("value %s is not finite", MMQuote(b))
	}
	return x, nil
}

// MMIndex parses a non-negative decimal integer (an optional '+' sign,
// then digits) that fits an int: a MatrixMarket count or index.
func MMIndex(b []byte) (int, bool) {
	if len(b) > 0 && b[0] == '+' {
		b = b[1:]
	}
	if len(b) == 0 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		d := int(c - '0')
		if n > (math.MaxInt-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	return n, true
}

// MMQuote quotes an input fragment for an error message, shortening long
// ones.
func MMQuote(b []byte) string {
	const max = 40
	if len(b) > max {
		return strconv.Quote(string(b[:max])) + "…"
	}
	return strconv.Quote(string(b))
}

// WriteMatrixMarket writes m in MatrixMarket coordinate real general format,
// one "i j value" line per stored entry in row order with 1-based indices and
// values in the shortest form that reads back exactly. It returns an error if
// m is invalid (see Validate) or writing fails.
func WriteMatrixMarket(w io.Writer, m *CSR) error {
	if m == nil {
		return errors.New("sparse: writing MatrixMarket: nil matrix")
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("sparse: writing MatrixMarket: %w", err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix coordinate real general\n%d %d %d\n", m.Rows, m.Cols, m.NNZ())
	buf := make([]byte, 0, 64)
	for i := 0; i < m.Rows; i++ {
		for p := m.Indptr[i]; p < m.Indptr[i+1]; p++ {
			buf = strconv.AppendInt(buf[:0], int64(i+1), 10)
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(m.Indices[p])+1, 10)
			buf = append(buf, ' ')
			buf = strconv.AppendFloat(buf, m.Data[p], 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("sparse: writing MatrixMarket: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sparse: writing MatrixMarket: %w", err)
	}
	return nil
}

// WriteDenseMatrixMarket writes a in MatrixMarket array real general format:
// the shape, then every value, one per line, column by column, in the
// shortest form that reads back exactly. It returns an error on a NaN or
// infinite value (which the format cannot carry) or if writing fails.
func WriteDenseMatrixMarket(w io.Writer, a mat.Matrix) error {
	if a == nil {
		return errors.New("sparse: writing MatrixMarket: nil matrix")
	}
	rows, cols := a.Dims()
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "%%%%MatrixMarket matrix array real general\n%d %d\n", rows, cols)
	buf := make([]byte, 0, 32)
	for j := 0; j < cols; j++ {
		for i := 0; i < rows; i++ {
			v := a.At(i, j)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("sparse: writing MatrixMarket: value %v at (%d,%d) is not finite", v, i, j)
			}
			buf = strconv.AppendFloat(buf[:0], v, 'g', -1, 64)
			buf = append(buf, '\n')
			if _, err := bw.Write(buf); err != nil {
				return fmt.Errorf("sparse: writing MatrixMarket: %w", err)
			}
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("sparse: writing MatrixMarket: %w", err)
	}
	return nil
}
