package sparse

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// checkMatrix checks that m is valid, stores no zeros and equals the
// row-major values want exactly.
func checkMatrix(t *testing.T, name string, m *CSR, rows, cols int, want []float64) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("%s: invalid result: %v", name, err)
	}
	if m.Rows != rows || m.Cols != cols {
		t.Fatalf("%s: shape %d×%d, want %d×%d", name, m.Rows, m.Cols, rows, cols)
	}
	for i := 0; i < rows; i++ {
		for j := 0; j < cols; j++ {
			if got := m.At(i, j); got != want[i*cols+j] {
				t.Errorf("%s: (%d,%d) = %v, want %v", name, i, j, got, want[i*cols+j])
			}
		}
	}
	for _, v := range m.Data {
		if v == 0 {
			t.Errorf("%s: explicit zero stored", name)
		}
	}
}

func TestReadMatrixMarketScipyFixtures(t *testing.T) {
	// Written by scipy.io.mmwrite (scipy 1.10); see testdata/gen_scipy.py.
	cases := []struct {
		file       string
		rows, cols int
		want       []float64
	}{
		{"scipy_real.mtx", 5, 4, []float64{
			1.5, 0, 0, -2.25,
			0, 0, 0, 0,
			0, 3e-7, 0, 1e10,
			0.1, 0, 0, 0,
			0, 0, 7, 0}},
		{"scipy_symmetric.mtx", 3, 3, []float64{2, 1, 0, 1, 0, -3, 0, -3, 4}},
		{"scipy_integer.mtx", 2, 3, []float64{0, 5, 0, -7, 0, 12}},
		{"scipy_pattern.mtx", 2, 3, []float64{1, 0, 1, 0, 1, 0}},
		{"scipy_array.mtx", 2, 3, []float64{1, 0.5, 0, -1.25, 0, 1e-300}},
		{"scipy_skew_array.mtx", 3, 3, []float64{0, 2, -1, -2, 0, 0.5, 1, -0.5, 0}},
	}
	for _, c := range cases {
		f, err := os.Open(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		m, err := ReadMatrixMarket(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		checkMatrix(t, c.file, m, c.rows, c.cols, c.want)
	}
}

func TestReadMatrixMarketFormats(t *testing.T) {
	cases := []struct {
		name, in   string
		rows, cols int
		want       []float64
	}{
		{"duplicates summed, zero sums dropped, comments and blanks skipped",
			"%%MatrixMarket matrix coordinate real general\n% comment\n\n2 2 5\n1 1 1\n1 1 2.5\n\n% mid comment\n2 2 3\n2 2 -3\n1 2 0\n",
			2, 2, []float64{3.5, 0, 0, 0}},
		{"case-insensitive banner, CRLF, tabs, plus signs",
			"%%matrixmarket MATRIX Coordinate REAL General\r\n2 3 2\r\n+1\t+3\t-1e-3\r\n  2 1 4  \r\n",
			2, 3, []float64{0, 0, -1e-3, 4, 0, 0}},
		{"symmetric coordinate", "%%MatrixMarket matrix coordinate integer symmetric\n3 3 3\n1 1 1\n3 1 2\n3 2 -4\n",
			3, 3, []float64{1, 0, 2, 0, 0, -4, 2, -4, 0}},
		{"skew coordinate", "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 1.5\n",
			2, 2, []float64{0, -1.5, 1.5, 0}},
		{"symmetric pattern", "%%MatrixMarket matrix coordinate pattern symmetric\n2 2 2\n1 1\n2 1\n",
			2, 2, []float64{1, 1, 1, 0}},
		{"symmetric array", "%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n",
			2, 2, []float64{1, 2, 2, 3}},
		{"integer array", "%%MatrixMarket matrix array integer general\n2 2\n1\n0\n-3\n4\n",
			2, 2, []float64{1, -3, 0, 4}},
		{"empty 0x0", "%%MatrixMarket matrix coordinate real general\n0 0 0\n", 0, 0, nil},
		{"0 x n", "%%MatrixMarket matrix coordinate real general\n0 5 0\n", 0, 5, nil},
		{"n x 0 array", "%%MatrixMarket matrix array real general\n4 0\n", 4, 0, nil},
		{"no trailing newline", "%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2", 1, 1, []float64{2}},
		{"byte order mark", "\xef\xbb\xbf%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 2\n", 1, 1, []float64{2}},
	}
	for _, c := range cases {
		m, err := ReadMatrixMarket(strings.NewReader(c.in))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		checkMatrix(t, c.name, m, c.rows, c.cols, c.want)
	}
}

func TestReadMatrixMarketErrors(t *testing.T) {
	const hdr = "%%MatrixMarket matrix coordinate real general\n"
	cases := []struct {
		in   string
		line int
		msg  string
	}{
		{"", 1, "empty input"},
		{"1 1 1\n", 1, "missing %%MatrixMarket banner"},
		{"%%MatrixMarket matrix coordinate real\n", 1, "banner has 4 fields"},
		{"%%MatrixMarket vector coordinate real general\n", 1, "unsupported object"},
		{"%%MatrixMarket matrix sparse real general\n", 1, "unknown format"},
		{"%%MatrixMarket matrix coordinate complex general\n", 1, "complex matrices are not supported"},
		{"%%MatrixMarket matrix coordinate real hermitian\n", 1, "hermitian"},
		{"%%MatrixMarket matrix array pattern general\n", 1, "pattern field is not allowed"},
		{hdr, 1, "missing size line"},
		{hdr + "% only comments\n", 2, "missing size line"},
		{hdr + "2 2\n", 2, "size line has 2 fields, want 3"},
		{hdr + "2 -2 1\n", 2, "invalid count"},
		{hdr + "99999999999999999999 2 1\n", 2, "invalid count"},
		{hdr + "999999999999 2 1\n", 2, "rows exceed the limit"},
		{hdr + "2 9999999999 1\n", 2, "columns exceed int32"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", 2, "must be square"},
		{hdr + "2 2 1\n1 1 1\n1 2 3\n", 4, "more entries than the 1 declared"},
		{hdr + "2 2 3\n1 1 1\n\n2 2 1\n", 5, "input ends after 2 of 3 declared entries"},
		{hdr + "2 5000 1\n\n% c\n3 1 1\n", 5, "row 3 out of range 1..2"},
		{hdr + "2 5000 1\n2 5001 1\n", 3, "column 5001 out of range 1..5000"},
		{hdr + "2 2 1\n0 1 1\n", 3, "row 0 out of range 1..2"},
		{hdr + "2 2 1\n1 x 1\n", 3, "invalid column index"},
		{hdr + "2 2 1\n1 1 abc\n", 3, "invalid real value"},
		{hdr + "2 2 1\n1 1 NaN\n", 3, "not finite"},
		{hdr + "2 2 1\n1 1 inf\n", 3, "not finite"},
		{hdr + "2 2 1\n1 1 1e999\n", 3, "out of float64 range"},
		{hdr + "2 2 1\n1 1 1 1\n", 3, "entry has 4 fields, want 3"},
		{"%%MatrixMarket matrix coordinate pattern general\n2 2 1\n1 1 1\n", 3, "entry has 3 fields, want 2"},
		{"%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 1.5\n", 3, "invalid integer value"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 2 1\n1 2 1\n", 3, "above the diagonal"},
		{"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", 3, "on or above the diagonal"},
		{hdr + "1 1 3\n1 1 1e308\n% c\n1 1 1e308\n1 1 -1e308\n", 5, "sum to an infinite value"},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1e308\n2 1 1e308\n", 4, "(2,1) sum to an infinite value"},
		{"%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n", 5, "input ends after 3 of 4 values"},
		{"%%MatrixMarket matrix array real general\n1 1\n1\n2\n", 4, "more values than the 1"},
		{"%%MatrixMarket matrix array real general\n1 1\n1 2\n", 3, "array entry has 2 fields"},
		{"%%MatrixMarket matrix array real general\n4294967296 4294967296\n", 2, "rows exceed the limit"},
		{"%%MatrixMarket matrix array real general\n3 2147483647\n1\n", 3, "input ends after 1 of 6442450941 values"},
		{hdr + "1 1 1\n1 1 " + strings.Repeat("1", maxLine) + "\n", 3, "line longer than"},
	}
	for _, c := range cases {
		m, err := ReadMatrixMarket(strings.NewReader(c.in))
		if err == nil {
			t.Errorf("%q: no error, got %d×%d matrix", c.in, m.Rows, m.Cols)
			continue
		}
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%q: error %v is not a *ParseError", c.in, err)
			continue
		}
		if pe.Line != c.line || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%.60q:\n got  %v\n want line %d and %q", c.in, err, c.line, c.msg)
		}
	}
}

func TestMatrixMarketReaderLimit(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate real general\n1000 10 1\n1000 10 1\n"
	if _, err := (MatrixMarketReader{MaxRows: 999}).Read(strings.NewReader(in)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("limit 999: got %v, want ErrTooLarge", err)
	}
	m, err := MatrixMarketReader{MaxRows: 1000}.Read(strings.NewReader(in))
	if err != nil || m.At(999, 9) != 1 {
		t.Errorf("limit 1000: got %v, %v", m, err)
	}
}

type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, errors.New("disk on fire")
	}
	s := "%%MatrixMarket matrix coordinate real general\n"
	r.n--
	return copy(p, s), nil
}

func TestReadMatrixMarketIOError(t *testing.T) {
	_, err := ReadMatrixMarket(&failingReader{n: 1})
	if err == nil || !strings.Contains(err.Error(), "disk on fire") {
		t.Fatalf("got %v, want the reader's error", err)
	}
}

// TestMatrixMarketEntryOrder checks that the order of a file's entries
// does not matter: row-major files are read straight into the CSR arrays,
// others (here the same lines reversed, or one pair swapped) through
// triplets, to the same matrix.
func TestMatrixMarketEntryOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	m := randomCSR(rng, 30, 20, 0.3)
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, m); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	head, body := lines[:2], lines[2:]
	if len(body) < 10 {
		t.Fatalf("only %d entries", len(body))
	}
	reversed := slices.Clone(body)
	slices.Reverse(reversed)
	swapped := slices.Clone(body)
	swapped[7], swapped[8] = swapped[8], swapped[7]
	for name, b := range map[string][]string{"in order": body, "reversed": reversed, "one swap": swapped} {
		in := strings.Join(append(slices.Clone(head), b...), "\n") + "\n"
		got, err := ReadMatrixMarket(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !csrEqual(got, m) {
			t.Errorf("%s: read a different matrix", name)
		}
		// With the input's size known, the declared entries are reserved
		// up front: the same matrix, in arrays of exactly its length.
		got, err = MatrixMarketReader{SizeHint: int64(len(in))}.Read(strings.NewReader(in))
		if err != nil {
			t.Fatalf("%s with SizeHint: %v", name, err)
		}
		if !csrEqual(got, m) {
			t.Errorf("%s with SizeHint: read a different matrix", name)
		}
		if name == "in order" && (cap(got.Data) != m.NNZ() || cap(got.Indices) != m.NNZ()) {
			t.Errorf("with SizeHint: capacities %d and %d for %d entries", cap(got.Data), cap(got.Indices), m.NNZ())
		}
	}
}

func TestMatrixMarketRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, shape := range [][2]int{{0, 0}, {0, 3}, {3, 0}, {1, 1}, {1, 7}, {7, 1}, {13, 17}, {40, 9}} {
		m := randomCSR(rng, shape[0], shape[1], 0.3)
		// Values that need all 17 digits, tiny and huge ones.
		for p := range m.Data {
			switch p % 4 {
			case 1:
				m.Data[p] = rng.Float64() * 1e-300
			case 2:
				m.Data[p] = -rng.Float64() * 1e300
			}
		}
		var buf bytes.Buffer
		if err := WriteMatrixMarket(&buf, m); err != nil {
			t.Fatal(err)
		}
		got, err := ReadMatrixMarket(&buf)
		if err != nil {
			t.Fatalf("%v: %v", shape, err)
		}
		if !csrEqual(got, m) {
			t.Errorf("%v: round trip changed the matrix", shape)
		}

		d := m.ToDense()
		buf.Reset()
		if err := WriteDenseMatrixMarket(&buf, d); err != nil {
			t.Fatal(err)
		}
		got, err = ReadMatrixMarket(&buf)
		if err != nil {
			t.Fatalf("%v dense: %v", shape, err)
		}
		if shape[0] > 0 && shape[1] > 0 && !csrEqual(got, m) {
			t.Errorf("%v: dense round trip changed the matrix", shape)
		}
	}
}

func TestWriteDenseMatrixMarketColumnMajor(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteDenseMatrixMarket(&buf, mat.NewDense(2, 2, []float64{1, 2, 3, 0.1})); err != nil {
		t.Fatal(err)
	}
	want := "%%MatrixMarket matrix array real general\n2 2\n1\n3\n2\n0.1\n"
	if buf.String() != want {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
	if err := WriteDenseMatrixMarket(&buf, mat.NewDense(1, 1, []float64{nanValue()})); err == nil {
		t.Error("NaN written without error")
	}
}

func TestWriteMatrixMarketErrors(t *testing.T) {
	bad := &CSR{Rows: 1, Cols: 1, Indptr: []int{0, 1}, Indices: []int32{3}, Data: []float64{1}}
	if err := WriteMatrixMarket(&bytes.Buffer{}, bad); err == nil {
		t.Error("invalid matrix written without error")
	}
	if err := WriteMatrixMarket(&bytes.Buffer{}, nil); err == nil {
		t.Error("nil matrix written without error")
	}
	m := randomCSR(rand.New(rand.NewPCG(3, 4)), 300, 300, 0.5)
	if err := WriteMatrixMarket(failingWriter{}, m); err == nil {
		t.Error("write error not reported")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("full") }

// A reader with NonNegative refuses a negative value, naming its line and
// 1-based entry, in every layout; a skew-symmetric matrix's mirror counts.
func TestMatrixMarketNonNegative(t *testing.T) {
	cases := []struct {
		in   string
		line int
		msg  string
	}{
		{"%%MatrixMarket matrix coordinate real general\n% c\n2 10 4\n1 1 2\n2 2 1\n1 9 -3.5\n2 3 1\n", 6, `entry (1,9) has the negative value "-3.5"`},
		{"%%MatrixMarket matrix coordinate integer general\n2 2 1\n2 1 -4\n", 3, `entry (2,1) has the negative value "-4"`},
		{"%%MatrixMarket matrix array real general\n2 2\n1\n0\n-0.5\n2\n", 5, `entry (1,2) has the negative value "-0.5"`},
		{"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3\n", 3, `entry (1,2) has the negative value "-3"`},
	}
	for _, c := range cases {
		if _, err := ReadMatrixMarket(strings.NewReader(c.in)); err != nil {
			t.Errorf("%q: without NonNegative: %v", c.in, err)
		}
		_, err := MatrixMarketReader{NonNegative: true}.Read(strings.NewReader(c.in))
		var pe *ParseError
		if !errors.As(err, &pe) || !errors.Is(err, ErrNegative) || pe.Line != c.line || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%.50q:\n got  %v\n want line %d and %q", c.in, err, c.line, c.msg)
		}
	}
	ok := "%%MatrixMarket matrix coordinate real general\n1 2 2\n1 1 0\n1 2 -0\n"
	if _, err := (MatrixMarketReader{NonNegative: true}).Read(strings.NewReader(ok)); err != nil {
		t.Errorf("zeros refused: %v", err)
	}
}

// ReadInfo counts the duplicate entries it sums and names the first.
func TestMatrixMarketDuplicates(t *testing.T) {
	cases := []struct {
		in   string
		want MMInfo
	}{
		{"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1\n2 2 1\n3 3 1\n", MMInfo{}},
		{"%%MatrixMarket matrix coordinate real general\n3 3 6\n3 1 1\n1 2 5\n% c\n\n3 1 2\n1 2 0\n3 1 3\n1 2 1\n",
			MMInfo{Duplicates: 3, DuplicateRow: 1, DuplicateCol: 2, DuplicateLines: [2]int{4, 10}}},
		{"%%MatrixMarket matrix coordinate real symmetric\n2 2 3\n2 1 1\n2 2 1\n2 1 1\n",
			MMInfo{Duplicates: 1, DuplicateRow: 2, DuplicateCol: 1, DuplicateLines: [2]int{3, 5}}},
		// In row-major order up to the duplicate: read straight into CSR
		// arrays, then moved to triplets.
		{"%%MatrixMarket matrix coordinate real general\n3 3 4\n1 1 1\n1 2 5\n% c\n1 2 2\n3 3 1\n",
			MMInfo{Duplicates: 1, DuplicateRow: 1, DuplicateCol: 2, DuplicateLines: [2]int{4, 6}}},
	}
	for _, c := range cases {
		m, info, err := MatrixMarketReader{}.ReadInfo(strings.NewReader(c.in))
		if err != nil {
			t.Fatalf("%q: %v", c.in, err)
		}
		if info != c.want {
			t.Errorf("%q: info %+v, want %+v", c.in, info, c.want)
		}
		if c.want.Duplicates > 0 && m.At(c.want.DuplicateRow-1, c.want.DuplicateCol-1) == 0 {
			t.Errorf("%q: the duplicates were not summed", c.in)
		}
	}
}
