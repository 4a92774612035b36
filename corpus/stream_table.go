package corpus

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

func (r CSV) stream(ctx context.Context, p string, v *visit) (*Corpus, error) {
	in, dl, closer, err := openDecoded(p)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return r.visit(ctx, p, in, dl, textSink(v))
}

func (r JSONL) stream(ctx context.Context, p string, v *visit) (*Corpus, error) {
	in, dl, closer, err := openDecoded(p)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return r.visit(ctx, p, in, dl, textSink(v))
}

// openDecoded opens the text file p as a stream of its text decoded as
// DecodeText decodes the whole file: a leading byte order mark left out,
// and every byte read as Latin-1 when the file is not valid UTF-8 (which
// a first read of the file finds out). The decodeLog records a Latin-1
// file.
func openDecoded(p string) (io.Reader, *decodeLog, io.Closer, error) {
	valid, err := isUTF8File(p)
	if err != nil {
		return nil, nil, nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	if head, _ := br.Peek(len(utf8BOM)); string(head) == utf8BOM {
		br.Discard(len(utf8BOM))
	}
	dl := &decodeLog{}
	if valid {
		return br, dl, f, nil
	}
	dl.latin1 = append(dl.latin1, p)
	return &latin1Reader{r: br}, dl, f, nil
}

// isUTF8File reports whether the file p is valid UTF-8, reading it once.
func isUTF8File(p string) (bool, error) {
	f, err := os.Open(p)
	if err != nil {
		return false, err
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	keep := 0 // bytes of an incomplete character carried over
	for {
		n, err := io.ReadFull(f, buf[keep:])
		data := buf[:keep+n]
		end := err != nil
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return false, fmt.Errorf("reading %s: %w", p, err)
		}
		cut := len(data)
		if !end {
			// Leave out a character cut by the end of the buffer.
			for i := len(data) - 1; i >= 0 && i >= len(data)-utf8.UTFMax; i-- {
				if utf8.RuneStart(data[i]) {
					if !utf8.FullRune(data[i:]) {
						cut = i
					}
					break
				}
			}
		}
		if !utf8.Valid(data[:cut]) {
			return false, nil
		}
		if end {
			return true, nil
		}
		keep = copy(buf, data[cut:])
	}
}

// latin1Reader decodes a Latin-1 stream into UTF-8: each byte is the code
// point of the same value.
type latin1Reader struct {
	r       io.Reader
	raw     [16 << 10]byte
	buf     []byte // decoded bytes
	out     []byte // the part of buf not read yet
	pending error  // the error of the last read, returned once out is empty
}

// Read implements io.Reader.
func (l *latin1Reader) Read(p []byte) (int, error) {
	for len(l.out) == 0 {
		if l.pending != nil {
			return 0, l.pending
		}
		n, err := l.r.Read(l.raw[:])
		l.pending = err
		buf := l.buf[:0]
		for _, c := range l.raw[:n] {
			if c < utf8.RuneSelf {
				buf = append(buf, c)
			} else {
				buf = utf8.AppendRune(buf, rune(c))
			}
		}
		l.buf, l.out = buf, buf
	}
	n := copy(p, l.out)
	l.out = l.out[n:]
	return n, nil
}
