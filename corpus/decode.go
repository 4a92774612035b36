package corpus

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// Encoding names the encoding a text file was decoded from.
type Encoding string

// The encodings DecodeText recognises.
const (
	// UTF8 is UTF-8, with or without a byte order mark.
	UTF8 Encoding = "UTF-8"
	// UTF16LE and UTF16BE are UTF-16, found by their byte order mark.
	UTF16LE Encoding = "UTF-16LE"
	UTF16BE Encoding = "UTF-16BE"
	// Latin1 is ISO 8859-1, assumed for a file that is not valid UTF-8 and
	// has no UTF-16 byte order mark: each byte is the code point of the
	// same value.
	Latin1 Encoding = "Latin-1"
)

// bomEncoding returns the encoding that the byte order mark at the start
// of b announces, and the mark's length: UTF-8 (a 3-byte mark), UTF-16
// (2 bytes), or "" and 0 for none. A UTF-32 mark is an error naming it:
// no reader decodes UTF-32.
func bomEncoding(b []byte) (Encoding, int, error) {
	switch {
	case bytes.HasPrefix(b, []byte(utf8BOM)):
		return UTF8, 3, nil
	case bytes.HasPrefix(b, []byte{0xff, 0xfe, 0, 0}):
		return "", 0, fmt.Errorf("the file is UTF-32 (little endian, by its byte order mark), which is not read: convert it to UTF-8")
	case bytes.HasPrefix(b, []byte{0, 0, 0xfe, 0xff}):
		return "", 0, fmt.Errorf("the file is UTF-32 (big endian, by its byte order mark), which is not read: convert it to UTF-8")
	case bytes.HasPrefix(b, []byte{0xff, 0xfe}):
		return UTF16LE, 2, nil
	case bytes.HasPrefix(b, []byte{0xfe, 0xff}):
		return UTF16BE, 2, nil
	}
	return "", 0, nil
}

// utf16Decoder returns a decoder of UTF-16 in the byte order of enc,
// without a byte order mark (the caller skips it). Invalid sequences (an
// unpaired surrogate, an odd last byte) become U+FFFD.
func utf16Decoder(enc Encoding) transform.Transformer {
	order := unicode.LittleEndian
	if enc == UTF16BE {
		order = unicode.BigEndian
	}
	return unicode.UTF16(order, unicode.IgnoreBOM).NewDecoder()
}

// DecodeText decodes the contents of a text file and says which encoding
// it found: a file starting with a UTF-16 byte order mark is decoded as
// UTF-16 (little or big endian, as the mark says); a leading UTF-8 byte
// order mark is removed; valid UTF-8 is returned as is; anything else is
// decoded as Latin-1 (ISO 8859-1: each byte is the code point of the same
// value) for the whole file. A file with a UTF-32 byte order mark is an
// error: it is not decoded.
func DecodeText(b []byte) (string, Encoding, error) {
	enc, n, err := bomEncoding(b)
	if err != nil {
		return "", "", err
	}
	b = b[n:]
	if enc == UTF16LE || enc == UTF16BE {
		out, _, err := transform.Bytes(utf16Decoder(enc), b)
		if err != nil {
			return "", "", fmt.Errorf("decoding %s: %w", enc, err)
		}
		return string(out), enc, nil
	}
	if utf8.Valid(b) {
		return string(b), UTF8, nil
	}
	return latin1String(b), Latin1, nil
}

// latin1String decodes b as Latin-1.
func latin1String(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		if c < utf8.RuneSelf {
			sb.WriteByte(c)
		} else {
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

// binaryMagic lists the signatures of common binary files, which a text
// reader must not take for text.
var binaryMagic = []struct {
	at    int
	magic string
	kind  string
}{
	{0, "PK\x03\x04", "a zip archive"},
	{0, "PK\x05\x06", "an empty zip archive"},
	{0, "PK\x07\x08", "a zip archive"},
	{0, "\x1f\x8b", "gzip-compressed data"},
	{0, "\xfd7zXZ\x00", "xz-compressed data"},
	{0, "7z\xbc\xaf\x27\x1c", "a 7-Zip archive"},
	{0, "Rar!\x1a\x07", "a RAR archive"},
	{0, "\x28\xb5\x2f\xfd", "zstd-compressed data"},
	{257, "ustar", "a tar archive"},
	{0, "%PDF-", "a PDF document"},
	{0, "\x89PNG\r\n\x1a\n", "a PNG image"},
	{0, "\xff\xd8\xff", "a JPEG image"},
	{0, "GIF87a", "a GIF image"},
	{0, "GIF89a", "a GIF image"},
	{0, "\x7fELF", "an executable (ELF)"},
	{0, "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an old Microsoft Office document (OLE)"},
	{0, "SQLite format 3\x00", "an SQLite database"},
}

// binaryKind says what b, the start of a file (or all of it), seems to be
// when it is not text: a known binary signature, or "binary data (NUL
// bytes …)" when it holds a NUL byte, which no text in UTF-8 or Latin-1
// has. It returns "" for text. A file starting with a UTF-16 byte order
// mark is text, and so is one with a UTF-32 mark (for DecodeText to refuse
// by name). A bzip2 stream is only recognised with its block header.
func binaryKind(b []byte) string {
	if enc, _, err := bomEncoding(b); err != nil || enc == UTF16LE || enc == UTF16BE {
		return ""
	}
	for _, m := range binaryMagic {
		if len(b) >= m.at+len(m.magic) && string(b[m.at:m.at+len(m.magic)]) == m.magic {
			return m.kind
		}
	}
	if len(b) >= 10 && string(b[:3]) == "BZh" && b[3] >= '1' && b[3] <= '9' && string(b[4:10]) == "1AY&SY" {
		return "bzip2-compressed data"
	}
	if bytes.IndexByte(b, 0) >= 0 {
		return "binary data (it holds NUL bytes; UTF-16 text needs a byte order mark)"
	}
	return ""
}

// sniffLen is how much of a file binaryKind sees when a reader streams it.
const sniffLen = 8 << 10

// maxNamedInNotes is how many file names a note lists before eliding.
const maxNamedInNotes = 5

// decodeLog decodes files and remembers which ones were not UTF-8, so
// that a reader can report them in Corpus.Notes.
type decodeLog struct {
	latin1 []string
	utf16  []string
}

// decode decodes b (the contents of the text file called name) with
// DecodeText. A file that is not text is a *NotTextError.
func (d *decodeLog) decode(name string, b []byte) (string, error) {
	if kind := binaryKind(b); kind != "" {
		return "", &NotTextError{Name: name, Kind: kind}
	}
	s, enc, err := DecodeText(b)
	if err != nil {
		return "", fmt.Errorf("%s: %w", name, err)
	}
	d.record(name, enc)
	return s, nil
}

// record notes that the file name was decoded from enc.
func (d *decodeLog) record(name string, enc Encoding) {
	switch enc {
	case Latin1:
		d.latin1 = append(d.latin1, name)
	case UTF16LE, UTF16BE:
		d.utf16 = append(d.utf16, name)
	}
}

// encodingOf says how the file name was decoded, for an error message
// about its contents ("decoded as Latin-1, as it is not valid UTF-8"), or
// "" for UTF-8.
func (d *decodeLog) encodingOf(name string) string {
	for _, n := range d.latin1 {
		if n == name {
			return "decoded as Latin-1, as it is not valid UTF-8"
		}
	}
	for _, n := range d.utf16 {
		if n == name {
			return "decoded as UTF-16, as its byte order mark says"
		}
	}
	return ""
}

// notes returns the Notes entries describing the files not decoded as
// UTF-8, if any.
func (d *decodeLog) notes() []string {
	var out []string
	if len(d.latin1) > 0 {
		out = append(out, DecodingNote(Latin1, d.latin1))
	}
	if len(d.utf16) > 0 {
		out = append(out, DecodingNote(UTF16LE, d.utf16))
	}
	return out
}

// DecodingNote is the note that says which files were decoded from enc
// (Latin-1, or UTF-16 in either byte order) rather than UTF-8, as every
// reader says it in Corpus.Notes; "" for UTF-8 or no file.
func DecodingNote(enc Encoding, files []string) string {
	if len(files) == 0 {
		return ""
	}
	switch enc {
	case Latin1:
		return fmt.Sprintf("%s decoded as Latin-1 (not valid UTF-8): %s", plural(len(files), "file", "files"), nameList(files))
	case UTF16LE, UTF16BE:
		return fmt.Sprintf("%s decoded as UTF-16 (by the byte order mark): %s", plural(len(files), "file", "files"), nameList(files))
	}
	return ""
}

// addNote appends the decoding notes, if any, to c.Notes.
func (d *decodeLog) addNote(c *Corpus) {
	c.Notes = append(c.Notes, d.notes()...)
}

// nameList joins the first few names and says how many more there are.
func nameList(names []string) string {
	if len(names) <= maxNamedInNotes {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:maxNamedInNotes], ", "), len(names)-maxNamedInNotes)
}

// plural formats "1 file" or "3 files".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// decodingReader returns a reader of the text that r holds (the bytes
// after any byte order mark), decoded from enc into UTF-8.
func decodingReader(r io.Reader, enc Encoding) io.Reader {
	switch enc {
	case UTF16LE, UTF16BE:
		return transform.NewReader(r, utf16Decoder(enc))
	case Latin1:
		return &latin1Reader{r: r}
	}
	return r
}
