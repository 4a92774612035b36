package sparse

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzReadMatrixMarket checks that the reader never panics and that every
// matrix it returns is valid and survives a write/read round trip. Inputs
// are read with a small row limit first so that the fuzzer does not spend
// its time allocating row pointers for huge declared shapes; inputs within
// that limit must read identically with the defaults.
func FuzzReadMatrixMarket(f *testing.F) {
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.5\n3 2 -2\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		m, err := MatrixMarketReader{MaxRows: 1 << 12}.Read(bytes.NewReader(in))
		if errors.Is(err, ErrTooLarge) {
			return
		}
		m2, err2 := ReadMatrixMarket(bytes.NewReader(in))
		if (err == nil) != (err2 == nil) {
			t.Fatalf("limited reader: %v; default reader: %v", err, err2)
		}
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error %v does not name a line", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("invalid matrix: %v", err)
		}
		if !csrEqual(m, m2) {
			t.Fatal("limited and default readers disagree")
		}
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, m); err != nil {
			t.Fatalf("writing: %v", err)
		}
		back, err := ReadMatrixMarket(&buf)
		if err != nil {
			t.Fatalf("reading back: %v", err)
		}
		if !csrEqual(back, m) {
			t.Fatal("round trip changed the matrix")
		}
	})
}
