package corpus

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// utf8BOM is the UTF-8 encoding of U+FEFF, the byte order mark.
const utf8BOM = "\xef\xbb\xbf"

// DecodeText decodes the contents of a text file. A leading UTF-8 byte
// order mark is removed. Valid UTF-8 is returned as is; anything else is
// decoded as Latin-1 (ISO 8859-1: each byte is the code point of the same
// value) for the whole file, and latin1 reports that this happened.
// Decoding never fails: every byte sequence is valid Latin-1.
func DecodeText(b []byte) (text string, latin1 bool) {
	b = bytes.TrimPrefix(b, []byte(utf8BOM))
	if utf8.Valid(b) {
		return string(b), false
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		if c < utf8.RuneSelf {
			sb.WriteByte(c)
		} else {
			sb.WriteRune(rune(c))
		}
	}
	return sb.String(), true
}

// maxNamedInNotes is how many file names a note lists before eliding.
const maxNamedInNotes = 5

// decodeLog decodes files and remembers which ones were decoded as Latin-1,
// so that a reader can report them in Corpus.Notes.
type decodeLog struct {
	latin1 []string
}

// decode decodes b (the contents of the file called name) with DecodeText.
func (d *decodeLog) decode(name string, b []byte) string {
	s, latin1 := DecodeText(b)
	if latin1 {
		d.latin1 = append(d.latin1, name)
	}
	return s
}

// note returns the Notes entry describing the Latin-1 files, or "" if there
// were none.
func (d *decodeLog) note() string {
	if len(d.latin1) == 0 {
		return ""
	}
	return fmt.Sprintf("%s decoded as Latin-1 (not valid UTF-8): %s",
		plural(len(d.latin1), "file", "files"), nameList(d.latin1))
}

// addNote appends the Latin-1 note, if any, to c.Notes.
func (d *decodeLog) addNote(c *Corpus) {
	if n := d.note(); n != "" {
		c.Notes = append(c.Notes, n)
	}
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
