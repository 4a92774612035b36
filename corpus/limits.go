package corpus

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync/atomic"
)

// Limits bound what a reader takes from its input, so that a
// decompression bomb or a damaged file (an unclosed quote that makes the
// rest of a CSV file one field) fails early, with an error naming the file
// and the member or line, instead of filling the memory. A field left zero
// takes its default, which no real corpus reaches (the largest document of
// 20 Newsgroups, Reuters-21578, BBC News and Brown is 1.5 MiB; their
// archives decompress to 2.5 to 3.5 times their size).
//
// Every check is made while reading, before the input is held: a file's
// declared size is checked before it is read, and what a compressed
// stream gives is counted as it comes.
type Limits struct {
	// MaxDocSize bounds one document, in bytes: a file read from a folder
	// or an archive (as stored, before decoding), a line of a jsonl file,
	// a record of a csv or tsv file. DefaultMaxDocSize when zero.
	MaxDocSize int64
	// MaxInputSize bounds the bytes decompressed from one archive (.zip:
	// the members read; .tar.gz, .tgz: the whole stream), one
	// gzip-compressed matrix file or an archive on standard input.
	// DefaultMaxInputSize when zero.
	MaxInputSize int64
	// MaxRatio bounds the compression ratio of an archive or a compressed
	// file: the bytes decompressed divided by the compressed bytes they
	// came from (for a zip archive, by the archive's size), checked once
	// more than 4 MiB came out. DefaultMaxRatio when zero.
	MaxRatio float64
}

// The default limits.
const (
	DefaultMaxDocSize   int64   = 32 << 20
	DefaultMaxInputSize int64   = 16 << 30
	DefaultMaxRatio     float64 = 100
)

// ratioFloor is the amount of decompressed data below which the ratio is
// not checked: a small file of repeated lines compresses far better than
// text, and is harmless.
const ratioFloor = 4 << 20

// resolved returns l with its defaults filled in.
func (l Limits) resolved() Limits {
	if l.MaxDocSize <= 0 {
		l.MaxDocSize = DefaultMaxDocSize
	}
	if l.MaxInputSize <= 0 {
		l.MaxInputSize = DefaultMaxInputSize
	}
	if !(l.MaxRatio > 0) {
		l.MaxRatio = DefaultMaxRatio
	}
	return l
}

// Validate reports a limit that is negative or not a number.
func (l Limits) Validate() error {
	switch {
	case l.MaxDocSize < 0:
		return fmt.Errorf("MaxDocSize %d: want a size ≥ 0 (0: the default)", l.MaxDocSize)
	case l.MaxInputSize < 0:
		return fmt.Errorf("MaxInputSize %d: want a size ≥ 0 (0: the default)", l.MaxInputSize)
	case math.IsNaN(l.MaxRatio) || l.MaxRatio < 0 || math.IsInf(l.MaxRatio, 0):
		return fmt.Errorf("MaxRatio %v: want a finite number ≥ 0 (0: the default)", l.MaxRatio)
	}
	return nil
}

// The names of the limits, as LimitError.Limit gives them.
const (
	LimitDocSize   = "MaxDocSize"
	LimitInputSize = "MaxInputSize"
	LimitRatio     = "MaxRatio"
)

// LimitError is the error of an input that passes one of the Limits.
type LimitError struct {
	// Name is what passed the limit: a file, an archive and its member
	// ("a.tar.gz/big.txt"), or a file and line ("docs.jsonl:7").
	Name string
	// Limit names the field of Limits that was passed (LimitDocSize,
	// LimitInputSize or LimitRatio).
	Limit string
	// Msg says by how much.
	Msg string
}

// Error implements error.
func (e *LimitError) Error() string { return e.Name + ": " + e.Msg }

// ErrNotText is wrapped by the error of a file that is not text: an
// archive, a compressed file, an image or any other binary file.
var ErrNotText = errors.New("not text")

// NotTextError describes a file that a text reader refuses or skips: what
// it seems to be.
type NotTextError struct {
	// Name is the file (an archive's member as "a.zip/inner.zip").
	Name string
	// Kind says what the file seems to be ("a zip archive", "a PNG
	// image", "binary data (NUL bytes)").
	Kind string
}

// Error implements error.
func (e *NotTextError) Error() string {
	return fmt.Sprintf("%s is %s, not text", e.Name, e.Kind)
}

// Unwrap returns ErrNotText.
func (e *NotTextError) Unwrap() error { return ErrNotText }

// isLimit reports whether err is (or wraps) a *LimitError.
func isLimit(err error) bool {
	var le *LimitError
	return errors.As(err, &le)
}

// docTooLarge is the error of a document of size bytes (-1: more than the
// limit, size unknown) named name.
func docTooLarge(name string, size, max int64) error {
	what := "more than " + FormatSize(max)
	if size >= 0 {
		what = FormatSize(size) + ", more than " + FormatSize(max)
	}
	return &LimitError{Name: name, Limit: LimitDocSize, Msg: what + ", the limit for one document"}
}

// readBounded reads r to its end, failing with docTooLarge once more than
// max bytes came; size, when ≥ 0, is the size r declares, checked first.
func readBounded(name string, r io.Reader, size, max int64) ([]byte, error) {
	if size > max {
		return nil, docTooLarge(name, size, max)
	}
	var b []byte
	if size >= 0 {
		b = make([]byte, 0, size+1)
	}
	b, err := readAllAppend(b, io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, docTooLarge(name, -1, max)
	}
	return b, nil
}

// readAllAppend is io.ReadAll appending to b.
func readAllAppend(b []byte, r io.Reader) ([]byte, error) {
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// budget counts the bytes decompressed from one archive or compressed
// file and fails once they pass MaxInputSize, or once their ratio to the
// compressed bytes they came from passes MaxRatio. It is safe for
// concurrent use.
type budget struct {
	name string
	lim  Limits
	// size is the compressed size when known up front (a zip archive's
	// size); otherwise in counts the compressed bytes consumed.
	size int64
	in   *counter
	out  atomic.Int64
	// member, when set, names the member being read, for messages.
	member atomic.Pointer[string]
}

// newBudget returns a budget for the input name of the given compressed
// size (≤ 0 when in counts it instead).
func newBudget(name string, lim Limits, size int64, in *counter) *budget {
	return &budget{name: name, lim: lim.resolved(), size: size, in: in}
}

// add counts n more decompressed bytes.
func (b *budget) add(n int) error {
	out := b.out.Add(int64(n))
	if out > b.lim.MaxInputSize {
		return &LimitError{Name: b.name, Limit: LimitInputSize,
			Msg: fmt.Sprintf("decompresses to more than %s, the limit for one input%s", FormatSize(b.lim.MaxInputSize), b.at())}
	}
	if out <= ratioFloor {
		return nil
	}
	in := b.size
	if b.in != nil {
		in = b.in.n.Load()
	}
	if in > 0 && float64(out) > b.lim.MaxRatio*float64(in) {
		return &LimitError{Name: b.name, Limit: LimitRatio,
			Msg: fmt.Sprintf("decompresses to more than %g times its size (%s gave %s%s): a decompression bomb?",
				b.lim.MaxRatio, FormatSize(in), FormatSize(out), b.at())}
	}
	return nil
}

// at names the member being read, if known.
func (b *budget) at() string {
	if m := b.member.Load(); m != nil && *m != "" {
		return ", in " + *m
	}
	return ""
}

// setMember records the member being read.
func (b *budget) setMember(m string) { b.member.Store(&m) }

// reset starts a new count: a new pass over the input.
func (b *budget) reset() {
	b.out.Store(0)
	if b.in != nil {
		b.in.n.Store(0)
	}
}

// reader returns r counted against the budget.
func (b *budget) reader(r io.Reader) io.Reader { return &budgetReader{r: r, b: b} }

// budgetReader counts what it reads against a budget.
type budgetReader struct {
	r io.Reader
	b *budget
}

// Read implements io.Reader.
func (r *budgetReader) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	if berr := r.b.add(n); berr != nil {
		return n, berr
	}
	return n, err
}

// counter counts the bytes read through it: the compressed side of a
// stream.
type counter struct {
	r io.Reader
	n atomic.Int64
}

// Read implements io.Reader.
func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

// SetLimits sets the limits of rd, a reader that NewReader returned (a
// pointer to a format's type). The shards format, whose blocks are
// checksummed and bounded by their manifest, has none; setting them is an
// error there, as for a reader of another type.
func SetLimits(rd Reader, l Limits) error {
	if err := l.Validate(); err != nil {
		return err
	}
	switch x := rd.(type) {
	case *ReutersSGML:
		x.Limits = l
	case *ReutersNLTK:
		x.Limits = l
	case *Newsgroups:
		x.Limits = l
	case *Brown:
		x.Limits = l
	case *BBC:
		x.Limits = l
	case *Dir:
		x.Limits = l
	case *CSV:
		x.Limits = l
	case *JSONL:
		x.Limits = l
	case *MTX:
		x.Limits = l
	case *UCI:
		x.Limits = l
	default:
		return fmt.Errorf("the %T reader has no input limits", rd)
	}
	return nil
}

// limitsOf returns the limits of rd, resolved.
func limitsOf(rd Reader) Limits {
	var l Limits
	switch x := rd.(type) {
	case ReutersSGML:
		l = x.Limits
	case *ReutersSGML:
		l = x.Limits
	case ReutersNLTK:
		l = x.Limits
	case *ReutersNLTK:
		l = x.Limits
	case Newsgroups:
		l = x.Limits
	case *Newsgroups:
		l = x.Limits
	case Brown:
		l = x.Limits
	case *Brown:
		l = x.Limits
	case BBC:
		l = x.Limits
	case *BBC:
		l = x.Limits
	case Dir:
		l = x.Limits
	case *Dir:
		l = x.Limits
	case CSV:
		l = x.Limits
	case *CSV:
		l = x.Limits
	case JSONL:
		l = x.Limits
	case *JSONL:
		l = x.Limits
	case MTX:
		l = x.Limits
	case *MTX:
		l = x.Limits
	case UCI:
		l = x.Limits
	case *UCI:
		l = x.Limits
	}
	return l.resolved()
}

// sizeUnits are the units ParseSize knows, by their lower-case names.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tib": 1 << 40,
}

// ParseSize parses a size in bytes: a number with an optional unit, k, M,
// G or T (also written KiB, MB, …; all powers of 1024, any case), such as
// "64M", "1.5GiB" or "4096".
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := len(t)
	for i > 0 && (t[i-1] < '0' || t[i-1] > '9') && t[i-1] != '.' {
		i--
	}
	num, unit := strings.TrimSpace(t[:i]), strings.ToLower(strings.TrimSpace(t[i:]))
	mult, ok := sizeUnits[unit]
	x, err := strconv.ParseFloat(num, 64)
	if !ok || err != nil || x < 0 || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("size %q: want a number of bytes with an optional unit k, M, G or T (such as 64M)", s)
	}
	v := x * float64(mult)
	if v >= math.MaxInt64 {
		return 0, fmt.Errorf("size %q is too large", s)
	}
	return int64(v), nil
}

// FormatSize writes a size in bytes the way ParseSize reads it: in the
// largest unit (KiB, MiB, GiB) that leaves at least 1, with at most one
// decimal.
func FormatSize(n int64) string {
	units := []struct {
		name string
		size int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}}
	for _, u := range units {
		if n >= u.size {
			s := strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64)
			return strings.TrimSuffix(s, ".0") + " " + u.name
		}
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
