package corpus

import (
	"bufio"
	"bytes"
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
// DecodeText decodes the whole file: a file with a UTF-16 byte order mark
// decoded from UTF-16, a leading UTF-8 byte order mark left out, and every
// byte read as Latin-1 when the file is not valid UTF-8 (which a first
// read of the file finds out, with any NUL byte: a file that is not text
// is a *NotTextError, as for Read). The decodeLog records a file not
// decoded as UTF-8.
func openDecoded(p string) (io.Reader, *decodeLog, io.Closer, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, nil, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(sniffLen)
	enc, n, err := bomEncoding(head)
	if err != nil {
		f.Close()
		return nil, nil, nil, fmt.Errorf("%s: %w", p, err)
	}
	dl := &decodeLog{}
	if enc == UTF16LE || enc == UTF16BE {
		br.Discard(n)
		dl.record(p, enc)
		return decodingReader(br, enc), dl, f, nil
	}
	if kind := binaryKind(head); kind != "" {
		f.Close()
		return nil, nil, nil, &NotTextError{Name: p, Kind: kind}
	}
	valid, nul, err := scanUTF8File(p)
	if err != nil {
		f.Close()
		return nil, nil, nil, err
	}
	if nul {
		f.Close()
		return nil, nil, nil, &NotTextError{Name: p, Kind: binaryKind([]byte{0})}
	}
	br.Discard(n)
	if valid {
		return br, dl, f, nil
	}
	dl.record(p, Latin1)
	return decodingReader(br, Latin1), dl, f, nil
}

// scanUTF8File reports whether the file p is valid UTF-8 and whether it
// holds a NUL byte, reading it once.
func scanUTF8File(p string) (valid, nul bool, err error) {
	f, err := os.Open(p)
	if err != nil {
		return false, false, err
	}
	defer f.Close()
	buf := make([]byte, 256<<10)
	keep := 0 // bytes of an incomplete character carried over
	valid = true
	for {
		n, err := io.ReadFull(f, buf[keep:])
		data := buf[:keep+n]
		end := err != nil
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			return false, false, fmt.Errorf("reading %s: %w", p, err)
		}
		if bytes.IndexByte(buf[keep:keep+n], 0) >= 0 {
			return false, true, nil
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
		valid = valid && utf8.Valid(data[:cut])
		if end {
			return valid, false, nil
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
