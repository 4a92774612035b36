package corpus

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"
)

// CSV reads a comma- or tab-separated file with one document per row (the
// "csv" and "tsv" formats). PATH is the file. It is decoded as UTF-8 (or
// UTF-16 after its byte order mark, or Latin-1 when it is not valid UTF-8;
// see DecodeText; a file that is not text is an error), then parsed with
// encoding/csv, a record at most Limits.MaxDocSize long: fields
// may be quoted with '"' (a quoted field may hold the separator, newlines
// and doubled quotes), and every row must have as many fields as the first.
//
// Columns are picked by name from the header row or, with NoHeader or when
// no header column has the name, by 1-based number ("2"). Rows are
// documents in file order. A document's ID is its ID column, or "row-N"
// for the N-th row after the header when there is no ID column; an empty or
// repeated ID is an error. Its text is the text field as is; a row with an
// empty text is kept as an empty document. Its labels come from the label
// column (none when the field is empty), and its split from the split
// column, parsed by ParseSplit. A missing column is an error naming it and
// listing the header; a malformed row is an error "file:line: ...". A file
// without any row is an error.
type CSV struct {
	// Comma is the field separator: ',' when zero ("tsv" sets '\t').
	Comma rune
	// TextColumn names the text column: "text" by default (column 1 with
	// NoHeader).
	TextColumn string
	// LabelColumn names the label column. By default it is "label", or
	// "labels", if the header has such a column; otherwise documents are
	// unlabeled.
	LabelColumn string
	// IDColumn names the ID column: "id" if the header has it by default.
	IDColumn string
	// SplitColumn names the split column: "split" if the header has it by
	// default. Its values are "train", "test" or empty (see ParseSplit).
	SplitColumn string
	// LabelSep, when not empty, splits the label field into several labels
	// ("a;b" with ";"); pieces are trimmed of white space and empty pieces
	// and repeats are dropped. When empty the trimmed field is one label.
	LabelSep string
	// NoHeader says the first row is a document, not a header; columns are
	// then given by number.
	NoHeader bool
	// LazyQuotes allows quotes inside unquoted fields and unescaped quotes
	// inside quoted fields (see encoding/csv).
	LazyQuotes bool
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// Read implements Reader.
func (r CSV) Read(ctx context.Context, p string) (*Corpus, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return r.parse(ctx, p, b)
}

// format returns "csv" or "tsv" for messages.
func (r CSV) format() string {
	if r.Comma == '\t' {
		return "tsv"
	}
	return "csv"
}

// parse reads the documents of a CSV file named name with contents b.
func (r CSV) parse(ctx context.Context, name string, b []byte) (*Corpus, error) {
	var dl decodeLog
	text, err := dl.decode(name, b)
	if err != nil {
		return nil, err
	}
	return collect(func(s *sink) (*Corpus, error) { return r.visit(ctx, name, strings.NewReader(text), &dl, s) })
}

// visit reads the documents of a CSV file named name from in, its text
// decoded as dl records, giving each to s; the Corpus it returns has no
// documents.
func (r CSV) visit(ctx context.Context, name string, in io.Reader, dl *decodeLog, s *sink) (*Corpus, error) {
	comma := r.Comma
	if comma == 0 {
		comma = ','
	}
	if comma == '"' || comma == '\r' || comma == '\n' || !utf8.ValidRune(comma) || comma == utf8.RuneError {
		return nil, fmt.Errorf("%s: invalid field separator %q", r.format(), comma)
	}
	maxDoc := limitsOf(r).MaxDocSize
	bounded := &recordBound{r: in, max: maxDoc}
	cr := csv.NewReader(bounded)
	cr.Comma = comma
	cr.LazyQuotes = r.LazyQuotes
	cr.ReuseRecord = true
	after := 0 // the line the last record ended on
	csvErr := func(err error) error {
		if errors.Is(err, errRecordTooLong) {
			return &LimitError{Name: fmt.Sprintf("%s:%d", name, after+1), Limit: LimitDocSize,
				Msg: fmt.Sprintf("the record starting after line %d is longer than %s, the limit for one document (an unclosed quote?)", after, FormatSize(maxDoc))}
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			if pe.Column > 0 {
				return fmt.Errorf("%s:%d:%d: %w", name, pe.Line, pe.Column, pe.Err)
			}
			return fmt.Errorf("%s:%d: %w", name, pe.Line, pe.Err)
		}
		return fmt.Errorf("%s: %w", name, err)
	}
	var header []string
	if !r.NoHeader {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil, fmt.Errorf("%s: empty file (no header)", name)
		}
		if err != nil {
			return nil, csvErr(err)
		}
		header = append([]string(nil), rec...)
		after = recordEnd(cr, rec)
		bounded.start = cr.InputOffset()
	}
	cols := tableColumns{}
	c := &Corpus{Name: r.format() + ": " + name}
	ids := map[string]int{}
	for row := 1; ; row++ {
		if row%1024 == 0 {
			if err := canceled(ctx, name); err != nil {
				return nil, err
			}
		}
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(err)
		}
		after = recordEnd(cr, rec)
		bounded.start = cr.InputOffset()
		line, _ := cr.FieldPos(0)
		if row == 1 {
			if cols, err = r.columns(header, len(rec)); err != nil {
				if enc := dl.encodingOf(name); enc != "" {
					return nil, fmt.Errorf("%s: %w; the file was %s", name, err, enc)
				}
				return nil, fmt.Errorf("%s: %w", name, err)
			}
		}
		doc := Document{Text: rec[cols.text]}
		if cols.id >= 0 {
			doc.ID = rec[cols.id]
			if strings.TrimSpace(doc.ID) == "" {
				return nil, fmt.Errorf("%s:%d: empty ID", name, line)
			}
		} else {
			doc.ID = "row-" + strconv.Itoa(row)
		}
		if prev, dup := ids[doc.ID]; dup {
			return nil, fmt.Errorf("%s:%d: ID %q already used on line %d", name, line, doc.ID, prev)
		}
		ids[doc.ID] = line
		if cols.label >= 0 {
			doc.Labels = splitLabels(rec[cols.label], r.LabelSep)
		}
		if cols.split >= 0 {
			if doc.Split, err = ParseSplit(strings.TrimSpace(rec[cols.split])); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", name, line, err)
			}
		}
		if err := s.emit(doc); err != nil {
			return nil, err
		}
	}
	if s.n == 0 {
		return nil, fmt.Errorf("%s: no rows", name)
	}
	dl.addNote(c)
	return c, nil
}

// errRecordTooLong is the error recordBound gives a csv.Reader once a
// record passes the limit.
var errRecordTooLong = errors.New("record too long")

// recordBound reads the stream of a csv.Reader, failing once the record
// being read (from start, the offset where the last record ended) passes
// max bytes, give or take the reader's buffer: a record is a document,
// and an unclosed quote must not make the rest of a file one field.
type recordBound struct {
	r     io.Reader
	max   int64
	start int64 // the offset where the record being read starts
	pos   int64 // the bytes given to the csv.Reader
}

// recordSlack is how far the csv.Reader reads ahead of a record: the
// size of its buffer.
const recordSlack = 4096

// Read implements io.Reader.
func (b *recordBound) Read(p []byte) (int, error) {
	if b.pos-b.start > b.max+recordSlack {
		return 0, errRecordTooLong
	}
	n, err := b.r.Read(p)
	b.pos += int64(n)
	return n, err
}

// recordEnd returns the line the record rec, just read, ends on.
func recordEnd(cr *csv.Reader, rec []string) int {
	if len(rec) == 0 {
		return 0
	}
	line, _ := cr.FieldPos(len(rec) - 1)
	return line + strings.Count(rec[len(rec)-1], "\n")
}

// tableColumns holds the 0-based column indices of a CSV file; -1 means
// absent.
type tableColumns struct{ text, label, id, split int }

// columns resolves the column options against the header (nil with
// NoHeader) of a table with n columns.
func (r CSV) columns(header []string, n int) (tableColumns, error) {
	var cols tableColumns
	var err error
	text := r.TextColumn
	if text == "" && r.NoHeader {
		text = "1"
	}
	if text == "" {
		if cols.text = findColumn(header, "text"); cols.text < 0 {
			return cols, fmt.Errorf("no %q column (header: %s); set the text column", "text", strings.Join(header, ", "))
		}
	} else if cols.text, err = pickColumn(header, n, text, "text"); err != nil {
		return cols, err
	}
	pick := func(spec string, defaults ...string) (int, error) {
		if spec != "" {
			return pickColumn(header, n, spec, defaults[0])
		}
		for _, d := range defaults {
			if i := findColumn(header, d); i >= 0 {
				return i, nil
			}
		}
		return -1, nil
	}
	if cols.label, err = pick(r.LabelColumn, "label", "labels"); err != nil {
		return cols, err
	}
	if cols.id, err = pick(r.IDColumn, "id"); err != nil {
		return cols, err
	}
	if cols.split, err = pick(r.SplitColumn, "split"); err != nil {
		return cols, err
	}
	return cols, nil
}

// findColumn returns the index of the header column called name (exactly,
// or else ignoring case if exactly one column matches that way), or -1.
func findColumn(header []string, name string) int {
	for i, h := range header {
		if strings.TrimSpace(h) == name {
			return i
		}
	}
	found := -1
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), name) {
			if found >= 0 {
				return -1
			}
			found = i
		}
	}
	return found
}

// pickColumn resolves a column given by name or 1-based number.
func pickColumn(header []string, n int, spec, what string) (int, error) {
	if i := findColumn(header, spec); i >= 0 {
		return i, nil
	}
	if k, err := strconv.Atoi(spec); err == nil {
		if k < 1 || k > n {
			return -1, fmt.Errorf("%s column %d out of range: rows have %d columns", what, k, n)
		}
		return k - 1, nil
	}
	if header == nil {
		return -1, fmt.Errorf("%s column %q: without a header, give a column number", what, spec)
	}
	return -1, fmt.Errorf("%s column %q not found (header: %s)", what, spec, strings.Join(header, ", "))
}

// splitLabels turns a label field into labels: the trimmed field, or with
// sep its trimmed non-empty pieces without repeats. An empty field gives no
// labels.
func splitLabels(field, sep string) []string {
	if sep == "" {
		if l := strings.TrimSpace(field); l != "" {
			return []string{l}
		}
		return nil
	}
	var out []string
	for _, piece := range strings.Split(field, sep) {
		if l := strings.TrimSpace(piece); l != "" && !contains(out, l) {
			out = append(out, l)
		}
	}
	return out
}

// JSONL reads JSON Lines: PATH is a file with one JSON object per line (at
// most Limits.MaxDocSize long), decoded as CSV's files are. Blank lines are
// skipped. Each object has:
//
//	"text"   string, required (may be empty)
//	"id"     string or number; "line-N" (N the line number) when absent
//	"labels" array of non-empty strings, or "label" a single string (not
//	         both); an empty "label" or "labels" array means unlabeled
//	"split"  "train", "test" or "" (see ParseSplit)
//
// Other members are ignored. Documents are in file order. An invalid line,
// a missing text, a wrongly typed member, an empty label or a repeated ID is
// an error "file:line: ...". A file without any object is an error.
type JSONL struct {
	// Limits bound the input (see Limits); the defaults when zero.
	Limits Limits
}

// jsonlRecord is one line of a JSONL file.
type jsonlRecord struct {
	ID     json.RawMessage `json:"id"`
	Text   *string         `json:"text"`
	Labels json.RawMessage `json:"labels"`
	Label  json.RawMessage `json:"label"`
	Split  *string         `json:"split"`
}

// Read implements Reader.
func (r JSONL) Read(ctx context.Context, p string) (*Corpus, error) {
	b, err := os.ReadFile(p)
	if err != nil {
		return nil, err
	}
	return r.parse(ctx, p, b)
}

// parse reads the documents of a JSONL file named name with contents b.
func (r JSONL) parse(ctx context.Context, name string, b []byte) (*Corpus, error) {
	var dl decodeLog
	text, err := dl.decode(name, b)
	if err != nil {
		return nil, err
	}
	return collect(func(s *sink) (*Corpus, error) { return r.visit(ctx, name, strings.NewReader(text), &dl, s) })
}

// visit reads the documents of a JSONL file named name from in, its text
// decoded as dl records, giving each to s; the Corpus it returns has no
// documents.
func (r JSONL) visit(ctx context.Context, name string, in io.Reader, dl *decodeLog, s *sink) (*Corpus, error) {
	c := &Corpus{Name: "jsonl: " + name}
	ids := map[string]int{}
	br := bufio.NewReaderSize(in, 64<<10)
	maxDoc := limitsOf(r).MaxDocSize
	var buf []byte
	for lineNo, last := 1, false; !last; lineNo++ {
		var err error
		buf, err = readLineBounded(br, buf[:0], maxDoc)
		if err == io.EOF {
			last = true
		} else if errors.Is(err, errRecordTooLong) {
			return nil, &LimitError{Name: fmt.Sprintf("%s:%d", name, lineNo), Limit: LimitDocSize,
				Msg: fmt.Sprintf("line longer than %s, the limit for one document", FormatSize(maxDoc))}
		} else if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		line := string(buf)
		if lineNo%1024 == 0 {
			if err := canceled(ctx, name); err != nil {
				return nil, err
			}
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		errorf := func(format string, args ...any) error {
			return fmt.Errorf("%s:%d: %s", name, lineNo, fmt.Sprintf(format, args...))
		}
		if line[0] != '{' {
			return nil, errorf("not a JSON object")
		}
		var rec jsonlRecord
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, errorf("%v", err)
		}
		if rec.Text == nil {
			return nil, errorf("missing \"text\"")
		}
		doc := Document{Text: *rec.Text}
		id, err := jsonID(rec.ID)
		if err != nil {
			return nil, errorf("%v", err)
		}
		if id == "" {
			id = "line-" + strconv.Itoa(lineNo)
		}
		if prev, dup := ids[id]; dup {
			return nil, errorf("ID %q already used on line %d", id, prev)
		}
		ids[id] = lineNo
		doc.ID = id
		if doc.Labels, err = jsonLabels(rec.Labels, rec.Label); err != nil {
			return nil, errorf("%v", err)
		}
		if rec.Split != nil {
			if doc.Split, err = ParseSplit(strings.TrimSpace(*rec.Split)); err != nil {
				return nil, errorf("%v", err)
			}
		}
		if err := s.emit(doc); err != nil {
			return nil, err
		}
	}
	if s.n == 0 {
		return nil, fmt.Errorf("%s: no documents", name)
	}
	dl.addNote(c)
	return c, nil
}

// readLineBounded appends the next line of br (with its newline) to buf,
// failing with errRecordTooLong once it passes max bytes; io.EOF comes
// with the last line when it has no newline, or alone at the end.
func readLineBounded(br *bufio.Reader, buf []byte, max int64) ([]byte, error) {
	for {
		part, err := br.ReadSlice('\n')
		buf = append(buf, part...)
		if int64(len(buf)) > max+1 {
			return buf, errRecordTooLong
		}
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// isNull reports whether raw is absent or JSON null.
func isNull(raw json.RawMessage) bool {
	return len(raw) == 0 || bytes.Equal(raw, []byte("null"))
}

// jsonID turns an "id" member into a string: a string as is, a number as
// written. It returns "" when the member is absent or null.
func jsonID(raw json.RawMessage) (string, error) {
	if isNull(raw) {
		return "", nil
	}
	switch raw[0] {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", err
		}
		if strings.TrimSpace(s) == "" {
			return "", errors.New("empty \"id\"")
		}
		return s, nil
	case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
		var n json.Number
		if err := json.Unmarshal(raw, &n); err != nil {
			return "", err
		}
		return n.String(), nil
	}
	return "", errors.New("\"id\" must be a string or a number")
}

// jsonLabels reads the "labels" and "label" members.
func jsonLabels(labels, label json.RawMessage) ([]string, error) {
	if !isNull(labels) && !isNull(label) {
		return nil, errors.New("both \"labels\" and \"label\" given")
	}
	var out []string
	switch {
	case !isNull(labels):
		var ls []string
		if err := json.Unmarshal(labels, &ls); err != nil {
			return nil, errors.New("\"labels\" must be an array of strings")
		}
		for _, l := range ls {
			if strings.TrimSpace(l) == "" {
				return nil, errors.New("empty label in \"labels\"")
			}
			if !contains(out, l) {
				out = append(out, l)
			}
		}
	case !isNull(label):
		var l string
		if err := json.Unmarshal(label, &l); err != nil {
			return nil, errors.New("\"label\" must be a string")
		}
		if strings.TrimSpace(l) == "" {
			return nil, nil
		}
		out = []string{l}
	}
	return out, nil
}
