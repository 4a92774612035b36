package sparse

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// Benchmark data: a documents × terms count matrix the size of the 20
// Newsgroups training split (11,314 documents, a 20,000-term vocabulary,
// about 1.2 million non-zeros), with Zipf-distributed term popularity and
// exponentially distributed document lengths, generated deterministically.
const (
	benchRows = 11314
	benchCols = 20000
	benchNNZ  = 1_200_000
)

var benchMatrix = sync.OnceValues(func() (*CSR, []Triplet) {
	rng := rand.New(rand.NewPCG(20, 1314))
	zipf := rand.NewZipf(rng, 1.07, 2, benchCols-1)
	perm := rng.Perm(benchCols) // scatter popular terms over the vocabulary
	mean := float64(benchNNZ) / benchRows
	seen := make([]int, benchCols)
	var ts []Triplet
	for i := 0; i < benchRows; i++ {
		n := 1 + int(rng.ExpFloat64()*(mean-1))
		n = min(n, benchCols/4)
		for got := 0; got < n; {
			j := perm[zipf.Uint64()]
			if seen[j] == i+1 {
				continue
			}
			seen[j] = i + 1
			got++
			ts = append(ts, Triplet{i, j, float64(1 + int(rng.ExpFloat64()*1.5))})
		}
	}
	m, err := FromTriplets(benchRows, benchCols, ts)
	if err != nil {
		panic(err)
	}
	return m, ts
})

func benchDense(rows, k int, seed uint64) *mat.Dense {
	rng := rand.New(rand.NewPCG(seed, 99))
	d := make([]float64, rows*k)
	for i := range d {
		d[i] = rng.Float64()
	}
	return mat.NewDense(rows, k, d)
}

// reportFlops adds a GFLOP/s metric for a kernel doing flops per operation.
func reportFlops(b *testing.B, flops float64) {
	b.ReportMetric(flops*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

var benchKs = []int{20, 90}

func BenchmarkFromTriplets(b *testing.B) {
	_, ts := benchMatrix()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromTriplets(benchRows, benchCols, ts); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTranspose(b *testing.B) {
	m, _ := benchMatrix()
	b.ReportAllocs()
	for b.Loop() {
		m.T()
	}
}

func BenchmarkReductions(b *testing.B) {
	m, _ := benchMatrix()
	b.Run("RowSums", func(b *testing.B) {
		for b.Loop() {
			m.RowSums()
		}
	})
	b.Run("ColSums", func(b *testing.B) {
		for b.Loop() {
			m.ColSums()
		}
	})
	b.Run("ColNNZ", func(b *testing.B) {
		for b.Loop() {
			m.ColNNZ()
		}
	})
	b.Run("Sum", func(b *testing.B) {
		for b.Loop() {
			m.Sum()
		}
	})
}

func BenchmarkScalings(b *testing.B) {
	m0, _ := benchMatrix()
	m := m0.Clone()
	s := make([]float64, m.Cols)
	for j := range s {
		s[j] = 1 + float64(j%3)*1e-9 // keeps values bounded over iterations
	}
	b.Run("ScaleCols", func(b *testing.B) {
		for b.Loop() {
			if err := m.ScaleCols(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("NormalizeRowsL2", func(b *testing.B) {
		for b.Loop() {
			m.NormalizeRowsL2()
		}
	})
	b.Run("Apply", func(b *testing.B) {
		for b.Loop() {
			if err := m.Apply(func(v float64) float64 { return 1 + math.Log1p(math.Abs(v)) }); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkMulDense(b *testing.B) {
	a, _ := benchMatrix()
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			h := benchDense(a.Cols, k, 1)
			dst := mat.NewDense(a.Rows, k, nil)
			for b.Loop() {
				if err := MulDense(dst, a, h); err != nil {
					b.Fatal(err)
				}
			}
			reportFlops(b, 2*float64(a.NNZ()*k))
		})
	}
}

func BenchmarkDenseTMul(b *testing.B) {
	a, _ := benchMatrix()
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			w := benchDense(a.Rows, k, 2)
			dst := mat.NewDense(k, a.Cols, nil)
			for b.Loop() {
				if err := DenseTMul(dst, w, a); err != nil {
					b.Fatal(err)
				}
			}
			reportFlops(b, 2*float64(a.NNZ()*k))
		})
	}
}

func BenchmarkTMulDense(b *testing.B) {
	a, _ := benchMatrix()
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			w := benchDense(a.Rows, k, 3)
			dst := mat.NewDense(a.Cols, k, nil)
			for b.Loop() {
				if err := TMulDense(dst, a, w); err != nil {
					b.Fatal(err)
				}
			}
			reportFlops(b, 2*float64(a.NNZ()*k))
		})
	}
}

func BenchmarkSampledDot(b *testing.B) {
	x, _ := benchMatrix()
	for _, k := range benchKs {
		b.Run(fmt.Sprintf("k=%d", k), func(b *testing.B) {
			w := benchDense(x.Rows, k, 4)
			ht := benchDense(x.Cols, k, 5)
			dst := make([]float64, x.NNZ())
			for b.Loop() {
				if err := SampledDot(dst, x, w, ht); err != nil {
					b.Fatal(err)
				}
			}
			reportFlops(b, 2*float64(x.NNZ()*k))
		})
	}
}

func BenchmarkMatrixMarket(b *testing.B) {
	m, _ := benchMatrix()
	var buf bytes.Buffer
	if err := WriteMatrixMarket(&buf, m); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.Run("Write", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			if err := WriteMatrixMarket(&out, m); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Read", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := ReadMatrixMarket(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
