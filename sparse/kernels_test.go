package sparse

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// testShapes covers empty, degenerate and ordinary matrices.
var testShapes = [][2]int{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {1, 9}, {9, 1}, {23, 17}, {60, 45}}

// withProcs runs fn with GOMAXPROCS set to n, so that the parallel kernels
// use n workers.
func withProcs(n int, fn func()) {
	old := runtime.GOMAXPROCS(n)
	defer runtime.GOMAXPROCS(old)
	fn()
}

// dense returns m as a dense matrix, nil when it has a zero dimension.
func dense(m *CSR) *mat.Dense {
	if m.Rows == 0 || m.Cols == 0 {
		return nil
	}
	return m.ToDense()
}

func TestFromTriplets(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, shape := range testShapes {
		r, c := shape[0], shape[1]
		want := make([]float64, r*c)
		var ts []Triplet
		if r > 0 && c > 0 {
			for n := 0; n < 3*r*c/2; n++ {
				tr := Triplet{rng.IntN(r), rng.IntN(c), float64(rng.IntN(7) - 3)}
				ts = append(ts, tr)
				want[tr.Row*c+tr.Col] += tr.Val
			}
		}
		in := append([]Triplet(nil), ts...)
		m, err := FromTriplets(r, c, ts)
		if err != nil {
			t.Fatal(err)
		}
		checkMatrix(t, "FromTriplets", m, r, c, want)
		for k := range ts {
			if ts[k] != in[k] {
				t.Fatal("FromTriplets modified its input")
			}
		}
	}
}

func TestFromTripletsErrors(t *testing.T) {
	ok := Triplet{0, 0, 1}
	cases := []struct {
		rows, cols int
		ts         []Triplet
		msg        string
	}{
		{-1, 2, nil, "negative shape"},
		{2, overInt32(), nil, "exceed int32"},
		{2, 2, []Triplet{ok, {2, 0, 1}}, "triplet 1: row 2 out of range [0,2)"},
		{2, 2, []Triplet{ok, ok, {0, -1, 1}}, "triplet 2: column -1 out of range"},
		{2, 2, []Triplet{{1, 1, math.NaN()}}, "triplet 0 at (1,1): value NaN is not finite"},
		{2, 2, []Triplet{{1, 1, math.Inf(-1)}}, "not finite"},
		{2, 2, []Triplet{{1, 1, 1e308}, ok, {1, 1, -1}, {1, 1, 1e308}}, "triplet 3 at (1,1): sum of duplicate entries overflows"},
	}
	for _, c := range cases {
		if c.msg == "exceed int32" && strconv.IntSize < 64 {
			continue // no int exceeds int32 there
		}
		_, err := FromTriplets(c.rows, c.cols, c.ts)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%v: got %v, want %q", c.ts, err, c.msg)
		}
	}
}

func TestFromTripletsDropsZeroSums(t *testing.T) {
	m, err := FromTriplets(2, 3, []Triplet{{0, 1, 2}, {1, 2, 0}, {0, 1, -2}, {1, 0, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if m.NNZ() != 1 || m.At(1, 0) != 5 {
		t.Errorf("got %+v, want only (1,0)=5", m)
	}
}

func TestDenseRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for _, shape := range testShapes {
		m := randomCSR(rng, shape[0], shape[1], 0.3)
		d := m.ToDense()
		if shape[0] == 0 || shape[1] == 0 {
			if !d.IsEmpty() {
				t.Errorf("%v: ToDense not empty", shape)
			}
			continue
		}
		if got := FromDense(d); !csrEqual(got, m) {
			t.Errorf("%v: FromDense(ToDense(m)) != m", shape)
		}
		// Through the generic mat.Matrix path.
		if got := FromDense(d.T()); !csrEqual(got, m.T()) {
			t.Errorf("%v: FromDense(ToDense(m)ᵀ) != mᵀ", shape)
		}
	}
}

func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, shape := range append(testShapes, [2]int{300, 200}) {
		m := randomCSR(rng, shape[0], shape[1], 0.2)
		mt := m.T()
		if err := mt.Validate(); err != nil {
			t.Fatalf("%v: %v", shape, err)
		}
		if mt.Rows != m.Cols || mt.Cols != m.Rows {
			t.Fatalf("%v: transpose is %d×%d", shape, mt.Rows, mt.Cols)
		}
		if d := dense(m); d != nil {
			denseClose(t, "T", mt.ToDense(), d.T(), 0)
		}
		if !csrEqual(mt.T(), m) {
			t.Errorf("%v: T(T(m)) != m", shape)
		}
		var par *CSR
		withProcs(4, func() { par = m.transpose(1) })
		if !csrEqual(par, mt) {
			t.Errorf("%v: parallel transpose differs from serial", shape)
		}
	}
}

func TestReductions(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, shape := range append(testShapes, [2]int{300, 200}) {
		r, c := shape[0], shape[1]
		m := randomCSR(rng, r, c, 0.2)
		rowSums, colSums := make([]float64, r), make([]float64, c)
		rowNNZ, colNNZ := make([]int, r), make([]int, c)
		sum, max := 0.0, math.Inf(-1)
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if v := m.At(i, j); v != 0 {
					rowSums[i] += v
					colSums[j] += v
					rowNNZ[i]++
					colNNZ[j]++
					sum += v
					max = math.Max(max, v)
				}
			}
		}
		if m.NNZ() == 0 {
			max = 0
		}
		floatsClose(t, "RowSums", m.RowSums(), rowSums, 1e-12)
		floatsClose(t, "ColSums", m.ColSums(), colSums, 1e-12)
		intsEqual(t, "RowNNZ", m.RowNNZ(), rowNNZ)
		intsEqual(t, "ColNNZ", m.ColNNZ(), colNNZ)
		if got := m.Sum(); !close(got, sum, 1e-12) {
			t.Errorf("%v: Sum = %v, want %v", shape, got, sum)
		}
		if got := m.Max(); got != max {
			t.Errorf("%v: Max = %v, want %v", shape, got, max)
		}
		withProcs(4, func() {
			floatsClose(t, "parallel ColSums", m.colSums(1), colSums, 1e-12)
			if got := m.sum(1); !close(got, sum, 1e-12) {
				t.Errorf("%v: parallel Sum = %v, want %v", shape, got, sum)
			}
			floatsClose(t, "RowSums, 4 procs", m.RowSums(), rowSums, 1e-12)
			intsEqual(t, "ColNNZ, 4 procs", m.ColNNZ(), colNNZ)
		})
	}
	neg, _ := FromTriplets(2, 2, []Triplet{{0, 0, -3}, {1, 1, -1}})
	if got := neg.Max(); got != -1 {
		t.Errorf("Max of negative values = %v, want -1", got)
	}
}

func floatsClose(t *testing.T, name string, got, want []float64, tol float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", name, len(got), len(want))
	}
	for i := range got {
		if !close(got[i], want[i], tol) {
			t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
		}
	}
}

func intsEqual(t *testing.T, name string, got, want []int) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: length %d, want %d", name, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s[%d] = %v, want %v", name, i, got[i], want[i])
		}
	}
}

func TestScaleRowsCols(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for _, shape := range testShapes {
		r, c := shape[0], shape[1]
		m := randomCSR(rng, r, c, 0.3)
		rs, cs := make([]float64, r), make([]float64, c)
		for i := range rs {
			rs[i] = float64(i%3) - 0.5 // includes zero-free negatives
		}
		for j := range cs {
			cs[j] = float64(j % 4) // includes zeros
		}
		want := m.ToDense()
		s := m.Clone()
		if err := s.ScaleRows(rs); err != nil {
			t.Fatal(err)
		}
		if err := s.ScaleCols(cs); err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, v := range s.Data {
			if v == 0 {
				t.Fatalf("%v: zero stored after scaling", shape)
			}
		}
		if r > 0 && c > 0 {
			for i := 0; i < r; i++ {
				for j := 0; j < c; j++ {
					want.Set(i, j, want.At(i, j)*rs[i]*cs[j])
				}
			}
			denseClose(t, "ScaleRows·ScaleCols", s.ToDense(), want, 1e-15)
		}
	}
	m := randomCSR(rng, 4, 3, 0.9)
	m.Data[len(m.Data)/2] = 4
	orig := m.Clone()
	for _, err := range []error{
		m.ScaleRows(make([]float64, 3)),
		m.ScaleCols(make([]float64, 4)),
		m.ScaleRows([]float64{1, math.NaN(), 1, 1}),
		m.ScaleCols([]float64{1, 1, math.Inf(1)}),
		m.ScaleRows([]float64{1e308, 1e308, 1e308, 1e308}), // m holds 4, below
	} {
		if err == nil {
			t.Error("bad scaling accepted")
		}
	}
	if !csrEqual(m, orig) {
		t.Error("failed scaling modified the matrix")
	}
}

func TestNormalizeRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, shape := range append(testShapes, [2]int{300, 200}) {
		for _, l1 := range []bool{false, true} {
			m := randomCSR(rng, shape[0], shape[1], 0.3)
			orig := m.Clone()
			var norms []float64
			withProcs(4, func() {
				if l1 {
					norms = m.NormalizeRowsL1()
				} else {
					norms = m.NormalizeRowsL2()
				}
			})
			for i := 0; i < m.Rows; i++ {
				_, ov := orig.Row(i)
				_, nv := m.Row(i)
				want, after := 0.0, 0.0
				for k, v := range ov {
					if l1 {
						want += math.Abs(v)
						after += math.Abs(nv[k])
					} else {
						want += v * v
						after += nv[k] * nv[k]
					}
					if !close(nv[k]*norms[i], v, 1e-14) {
						t.Fatalf("row %d: %v·%v != %v", i, nv[k], norms[i], v)
					}
				}
				if !l1 {
					want = math.Sqrt(want)
				}
				if !close(norms[i], want, 1e-13) {
					t.Fatalf("l1=%v row %d: norm %v, want %v", l1, i, norms[i], want)
				}
				if len(ov) > 0 && !close(after, 1, 1e-13) {
					t.Fatalf("l1=%v row %d: normalized norm %v", l1, i, after)
				}
				if len(ov) == 0 && norms[i] != 0 {
					t.Fatalf("empty row %d has norm %v", i, norms[i])
				}
			}
		}
	}
	// Extreme values: overflowing norms, subnormal norms, underflow to zero.
	m, _ := FromTriplets(3, 2, []Triplet{{0, 0, 1e308}, {0, 1, 1e308}, {1, 1, 5e-324}, {2, 0, 1e300}, {2, 1, 1e-300}})
	n := m.Clone().NormalizeRowsL2()
	if math.IsInf(n[0], 0) || n[1] != 5e-324 {
		t.Errorf("L2 norms %v", n)
	}
	l1 := m.Clone()
	n = l1.NormalizeRowsL1()
	if !math.IsInf(n[0], 1) || l1.At(0, 0) != 0.5 || l1.At(1, 1) != 1 {
		t.Errorf("L1 norms %v, matrix %v", n, l1.ToDense())
	}
	if l1.At(2, 1) != 0 || l1.NNZ() != 4 {
		t.Errorf("underflowed entry kept: %+v", l1)
	}
	if err := l1.Validate(); err != nil {
		t.Error(err)
	}
}

func TestBinarizedApplyWithData(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	m := randomCSR(rng, 30, 20, 0.3)
	for p := range m.Data {
		m.Data[p] = float64(1 + p%4) // counts 1..4
	}
	b := m.Binarized()
	for p, v := range b.Data {
		if v != 1 || b.Indices[p] != m.Indices[p] {
			t.Fatal("Binarized: wrong value or structure")
		}
	}
	b.Indices[0] = 99
	if m.Indices[0] == 99 {
		t.Fatal("Binarized shares storage with m")
	}

	orig := m.Clone()
	shared, err := m.WithData(append([]float64(nil), m.Data...))
	if err != nil {
		t.Fatal(err)
	}
	// Sublinear tf: entries equal to 1 stay 1; then subtracting 1 drops them.
	if err := m.Apply(func(v float64) float64 { return 1 + math.Log(v) }); err != nil {
		t.Fatal(err)
	}
	for p, v := range orig.Data {
		if m.Data[p] != 1+math.Log(v) {
			t.Fatalf("Apply: %v -> %v", v, m.Data[p])
		}
	}
	if err := m.Apply(func(v float64) float64 { return v - 1 }); err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	ones := 0
	for _, v := range orig.Data {
		if v == 1 {
			ones++
		}
	}
	if m.NNZ() != orig.NNZ()-ones {
		t.Errorf("Apply kept %d entries, want %d", m.NNZ(), orig.NNZ()-ones)
	}
	// The matrix sharing the original structure is untouched.
	if !csrEqual(shared, orig) {
		t.Error("Apply on m changed a matrix sharing its structure")
	}
	before := m.Clone()
	if err := m.Apply(func(v float64) float64 { return math.Log(v - 1) }); err == nil {
		t.Error("Apply accepted NaN results")
	}
	if !csrEqual(m, before) {
		t.Error("failed Apply modified the matrix")
	}
	if _, err := m.WithData(make([]float64, m.NNZ()+1)); err == nil {
		t.Error("WithData accepted wrong length")
	}
}

func TestMulDense(t *testing.T) {
	rng := rand.New(rand.NewPCG(19, 20))
	for _, shape := range append(testShapes, [2]int{200, 150}) {
		for _, k := range []int{1, 3, 8} {
			a := randomCSR(rng, shape[0], shape[1], 0.25)
			b := randomDense(rng, a.Cols, k)
			var got mat.Dense
			if err := MulDense(&got, a, b); err != nil {
				t.Fatalf("%v k=%d: %v", shape, k, err)
			}
			want := &mat.Dense{}
			if a.Rows > 0 && a.Cols > 0 {
				want.Mul(a.ToDense(), b)
			} else if a.Rows > 0 && !got.IsEmpty() {
				t.Fatalf("%v: unexpected result %v", shape, got)
			}
			if a.Rows > 0 && a.Cols > 0 {
				denseClose(t, "MulDense", &got, want, 1e-13)
				// Reuse a dirty destination; parallel equals serial.
				dirty := randomDense(rng, a.Rows, k)
				var par mat.Dense
				withProcs(4, func() {
					if err := mulDense(dirty, a, b, 1); err != nil {
						t.Fatal(err)
					}
					if err := mulDense(&par, a, b, 1); err != nil {
						t.Fatal(err)
					}
				})
				denseClose(t, "MulDense dirty dst", dirty, &got, 1e-12)
				denseClose(t, "MulDense parallel", &par, &got, 1e-12)
			}
		}
	}
}

func TestMulDenseStridedAndEmpty(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	a := randomCSR(rng, 12, 10, 0.4)
	big := randomDense(rng, 15, 9)
	b := big.Slice(2, 12, 3, 7).(*mat.Dense) // 10×4 view with stride 9
	dstBig := mat.NewDense(20, 11, nil)
	dst := dstBig.Slice(4, 16, 1, 5).(*mat.Dense)
	if err := MulDense(dst, a, b); err != nil {
		t.Fatal(err)
	}
	var want mat.Dense
	want.Mul(a.ToDense(), b)
	denseClose(t, "strided MulDense", dst, &want, 1e-13)
	if dstBig.At(3, 1) != 0 || dstBig.At(4, 0) != 0 || dstBig.At(4, 5) != 0 {
		t.Error("MulDense wrote outside the destination view")
	}
	// a with no columns: the product is zero whatever the destination holds.
	z := Zeros(3, 0)
	d := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	if err := MulDense(d, z, &mat.Dense{}); err != nil {
		t.Fatal(err)
	}
	if mat.Sum(d) != 0 {
		t.Error("MulDense with 3×0 a left a non-zero result")
	}
}

func TestTMulDenseAndDenseTMul(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, shape := range append(testShapes, [2]int{200, 150}) {
		for _, k := range []int{1, 3, 8} {
			a := randomCSR(rng, shape[0], shape[1], 0.25)
			b := randomDense(rng, a.Rows, k)
			var tm, dt mat.Dense
			if err := TMulDense(&tm, a, b); err != nil {
				t.Fatalf("%v k=%d TMulDense: %v", shape, k, err)
			}
			if err := DenseTMul(&dt, b, a); err != nil {
				t.Fatalf("%v k=%d DenseTMul: %v", shape, k, err)
			}
			if a.Rows == 0 || a.Cols == 0 {
				if !tm.IsEmpty() || !dt.IsEmpty() {
					t.Fatalf("%v: degenerate product not empty", shape)
				}
				continue
			}
			var want mat.Dense
			want.Mul(a.ToDense().T(), b)
			denseClose(t, "TMulDense", &tm, &want, 1e-13)
			denseClose(t, "DenseTMul", &dt, want.T(), 1e-13)
			dirty1, dirty2 := randomDense(rng, a.Cols, k), randomDense(rng, k, a.Cols)
			withProcs(4, func() {
				if err := tmulDense(dirty1, a, b, 1); err != nil {
					t.Fatal(err)
				}
				if err := denseTMul(dirty2, b, a, 1); err != nil {
					t.Fatal(err)
				}
			})
			denseClose(t, "TMulDense parallel", dirty1, &tm, 1e-12)
			denseClose(t, "DenseTMul parallel", dirty2, &dt, 1e-12)
		}
	}
}

func TestManyTiles(t *testing.T) {
	// Many column tiles: k = 300 gives MulDense tiles of 436 columns and
	// k = 1200 TMulDense tiles of 436; one column holding most entries
	// makes TMulDense cut tiles by stored entries.
	rng := rand.New(rand.NewPCG(31, 32))
	a := randomCSR(rng, 40, 3000, 0.05)
	var ts []Triplet
	for i := 0; i < a.Rows; i++ {
		cols, vals := a.Row(i)
		for q, j := range cols {
			ts = append(ts, Triplet{i, int(j), vals[q]})
		}
		ts = append(ts, Triplet{i, 1500, 1})
	}
	skewed, err := FromTriplets(a.Rows, a.Cols, ts)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []*CSR{a, skewed} {
		k := 300
		b := randomDense(rng, m.Rows, 4*k)
		var want mat.Dense
		want.Mul(m.ToDense().T(), b)
		withProcs(3, func() {
			var tm, dt mat.Dense
			if err := tmulDense(&tm, m, b, 1); err != nil {
				t.Fatal(err)
			}
			if err := denseTMul(&dt, b, m, 1); err != nil {
				t.Fatal(err)
			}
			denseClose(t, "TMulDense tiles", &tm, &want, 1e-12)
			denseClose(t, "DenseTMul tiles", &dt, want.T(), 1e-12)
		})
		h := randomDense(rng, m.Cols, k)
		var wantMul mat.Dense
		wantMul.Mul(m.ToDense(), h)
		withProcs(3, func() {
			var got mat.Dense
			if err := mulDense(&got, m, h, 1); err != nil {
				t.Fatal(err)
			}
			denseClose(t, "MulDense tiles", &got, &wantMul, 1e-12)
			sd := make([]float64, m.NNZ())
			w := randomDense(rng, m.Rows, k)
			if err := sampledDot(sd, m, w, h, 1); err != nil {
				t.Fatal(err)
			}
			var wh mat.Dense
			wh.Mul(w, h.T())
			for i := 0; i < m.Rows; i++ {
				for p := m.Indptr[i]; p < m.Indptr[i+1]; p++ {
					if !close(sd[p], wh.At(i, int(m.Indices[p])), 1e-12) {
						t.Fatalf("SampledDot tiles: entry %d", p)
					}
				}
			}
		})
	}
	if tileCols(300) >= a.Cols/4 {
		t.Fatalf("test does not exercise several tiles")
	}
	if b, _ := tileBounds(a, 1200); len(b) < 8 {
		t.Errorf("expected many tiles, got bounds %v", b)
	}
}

func TestSampledDot(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 26))
	for _, shape := range append(testShapes, [2]int{200, 150}) {
		for _, k := range []int{1, 3, 8} {
			x := randomCSR(rng, shape[0], shape[1], 0.25)
			w := randomDense(rng, x.Rows, k)
			ht := randomDense(rng, x.Cols, k)
			got := make([]float64, x.NNZ())
			if err := SampledDot(got, x, w, ht); err != nil {
				t.Fatalf("%v k=%d: %v", shape, k, err)
			}
			if x.NNZ() == 0 {
				continue
			}
			var wh mat.Dense
			wh.Mul(w, ht.T())
			for i := 0; i < x.Rows; i++ {
				for p := x.Indptr[i]; p < x.Indptr[i+1]; p++ {
					if want := wh.At(i, int(x.Indices[p])); !close(got[p], want, 1e-13) {
						t.Fatalf("%v k=%d: entry %d = %v, want %v", shape, k, p, got[p], want)
					}
				}
			}
			par := make([]float64, len(got))
			withProcs(4, func() {
				if err := sampledDot(par, x, w, ht, 1); err != nil {
					t.Fatal(err)
				}
			})
			floatsClose(t, "SampledDot parallel", par, got, 1e-12)
		}
	}
}

func TestProductErrors(t *testing.T) {
	rng := rand.New(rand.NewPCG(27, 28))
	a := randomCSR(rng, 6, 4, 0.5)
	b64 := randomDense(rng, 6, 4) // rows×k for TMulDense/DenseTMul, wrong for MulDense
	b44 := randomDense(rng, 4, 4)
	cases := []struct {
		name string
		err  error
	}{
		{"MulDense b rows", MulDense(&mat.Dense{}, a, b64)},
		{"MulDense dst shape", MulDense(mat.NewDense(5, 4, nil), a, b44)},
		{"MulDense nil dst", MulDense(nil, a, b44)},
		{"MulDense nil a", MulDense(&mat.Dense{}, nil, b44)},
		{"MulDense nil b", MulDense(&mat.Dense{}, a, nil)},
		{"MulDense aliased", MulDense(b44, Zeros(4, 4), b44)},
		{"TMulDense b rows", TMulDense(&mat.Dense{}, a, b44)},
		{"TMulDense dst shape", TMulDense(mat.NewDense(4, 3, nil), a, b64)},
		{"DenseTMul w rows", DenseTMul(&mat.Dense{}, b44, a)},
		{"DenseTMul dst shape", DenseTMul(mat.NewDense(4, 5, nil), b64, a)},
		{"DenseTMul aliased", DenseTMul(b44.Slice(0, 4, 0, 4).(*mat.Dense), b44, Zeros(4, 4))},
		{"SampledDot len", SampledDot(make([]float64, a.NNZ()+1), a, b64, b44)},
		{"SampledDot w", SampledDot(make([]float64, a.NNZ()), a, b44, b44)},
		{"SampledDot ht", SampledDot(make([]float64, a.NNZ()), a, b64, b64)},
		{"SampledDot k", SampledDot(make([]float64, a.NNZ()), a, b64, randomDense(rng, 4, 3))},
		{"SampledDot nil", SampledDot(make([]float64, a.NNZ()), a, nil, b44)},
	}
	for _, c := range cases {
		if c.err == nil {
			t.Errorf("%s: no error", c.name)
		} else if !strings.HasPrefix(c.err.Error(), "sparse: ") {
			t.Errorf("%s: error %q lacks context", c.name, c.err)
		}
	}
}

func TestTripletSortPathsAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 30))
	for _, shape := range append(testShapes, [2]int{50, 3000}) {
		r, c := shape[0], shape[1]
		var ts []Triplet
		if r > 0 && c > 0 {
			for n := 0; n < 400; n++ {
				ts = append(ts, Triplet{rng.IntN(r), rng.IntN(c), float64(rng.IntN(5) - 2)})
			}
		}
		a, badA := sumDuplicates(sortByCounting(r, c, ts))
		b, badB := sumDuplicates(sortByRows(r, c, ts))
		if badA != nil || badB != nil || !csrEqual(a, b) {
			t.Fatalf("%v: counting and row-sort paths differ", shape)
		}
		if err := b.Validate(); err != nil {
			t.Fatal(err)
		}
	}
	// Huge column counts must not cost memory proportional to them.
	m, err := FromTriplets(2, math.MaxInt32, []Triplet{{1, math.MaxInt32 - 1, 2}, {1, 5, 1}, {1, math.MaxInt32 - 1, 1}})
	if err != nil || m.At(1, math.MaxInt32-1) != 3 || m.At(1, 5) != 1 || m.NNZ() != 2 {
		t.Fatalf("huge column count: %v, %+v", err, m)
	}
}

// TestGatherRowTail holds the columns past the last multiple of 4, which
// gatherRow sums side by side in one pass, to the bits of a loop per
// column, for every width of that tail, from a destination that is not
// zero.
func TestGatherRowTail(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 24))
	for _, k := range []int{1, 2, 3, 5, 6, 7, 90} {
		a := randomCSR(rng, 40, 70, 0.3)
		b := randomDense(rng, a.Cols, k)
		raw := b.RawMatrix()
		br := &blasRaw{data: raw.Data, stride: raw.Stride, cols: k}
		for i := range a.Rows {
			p0, p1 := a.Indptr[i], a.Indptr[i+1]
			vals, idx := a.Data[p0:p1], a.Indices[p0:p1]
			out := make([]float64, k)
			for c := range out {
				out[c] = float64(c) + 0.25
			}
			want := append([]float64(nil), out...)
			gatherRow(out, vals, idx, br)
			for c := k &^ 3; c < k; c++ {
				s := want[c]
				for p, v := range vals {
					s += v * raw.Data[int(idx[p])*raw.Stride+c]
				}
				if math.Float64bits(out[c]) != math.Float64bits(s) {
					t.Fatalf("k %d, row %d, column %d: %v, a loop per column %v", k, i, c, out[c], s)
				}
			}
		}
	}
}
