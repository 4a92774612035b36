package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"runtime"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
)

func main() {
	path := flag.String("mtx", "", "documents × terms MatrixMarket file")
	k := flag.Int("k", 100, "columns of the dense factors")
	runs := flag.Int("runs", 2, "repetitions of each product")
	only := flag.String("only", "", "time only the products whose name contains this")
	flag.Parse()
	if *path == "" {
		log.Fatal("products: -mtx is required")
	}
	f, err := os.Open(*path)
	if err != nil {
		log.Fatal(err)
	}
	x, err := sparse.ReadMatrixMarket(bufio.NewReaderSize(f, 1<<20))
	f.Close()
	if err != nil {
		log.Fatalf("%s: %v", *path, err)
	}
	n, m := x.Dims()
	fmt.Printf("X: %d × %d, %d non-zeros; k = %d; %d cores; kernels: %s\n", n, m, x.NNZ(), *k, runtime.GOMAXPROCS(0), kernels.Name())
	w, ht := mat.NewDense(n, *k, nil), mat.NewDense(m, *k, nil)
	for i := range w.RawMatrix().Data {
		w.RawMatrix().Data[i] = float64(i%7) + 1
	}
	for i := range ht.RawMatrix().Data {
		ht.RawMatrix().Data[i] = float64(i%5) + 1
	}
	t0 := time.Now()
	xt := x.T()
	fmt.Printf("Xᵀ: %.2f s\n", time.Since(t0).Seconds())
	num, numH := mat.NewDense(n, *k, nil), mat.NewDense(m, *k, nil)
	timeIt := func(name string, fn func()) {
		if !strings.Contains(name, *only) {
			return
		}
		for r := 0; r < *runs; r++ {
			t0 := time.Now()
			fn()
			fmt.Printf("%-48s %.2f s\n", name, time.Since(t0).Seconds())
		}
	}
	timeIt("X·Hᵀ (MulDense, gathering rows of Hᵀ)", func() { must(sparse.MulDense(num, x, ht)) })
	timeIt("Xᵀ·W (MulDense on Xᵀ, gathering rows of W)", func() { must(sparse.MulDense(numH, xt, w)) })
	timeIt("Xᵀ·W (TMulDense, tiled scatter)", func() { must(sparse.TMulDense(numH, x, w)) })
	timeIt("fused: X·Hᵀ row by row, each W row scattered", func() { fused(x, w, ht) })
	// CorEx's product of binary data: the pattern of X (every stored
	// value taken as 1) transposed times W, by gathers over Xᵀ and by the
	// tiled scatter; the two give the same bits.
	timeIt("ones(X)ᵀ·W (MulPattern on Xᵀ, gathering rows of W)", func() { must(sparse.MulPattern(numH, xt, w)) })
	timeIt("ones(X)ᵀ·W (TMulPattern, tiled scatter)", func() { must(sparse.TMulPattern(numH, x, w)) })
}

// fused makes one pass over the rows of X: it gathers row i's X·Hᵀ, makes
// a new row of W from it (a stand-in for the multiplicative update) and
// adds x_ij times that row to row j of the worker's H numerator, then sums
// the workers' numerators.
func fused(x *sparse.CSR, w, ht *mat.Dense) {
	_, m := x.Dims()
	_, k := w.Dims()
	acc := make([][]float64, parallel.Workers())
	for i := range acc {
		acc[i] = make([]float64, m*k)
	}
	htd, wd := ht.RawMatrix().Data, w.RawMatrix().Data
	k4 := k &^ 3
	parallel.ForWeighted(x.Indptr, 1<<14, func(b, lo, hi int) {
		num := make([]float64, k)
		a := acc[b]
		for i := lo; i < hi; i++ {
			p0, p1 := x.Indptr[i], x.Indptr[i+1]
			if p0 == p1 {
				continue
			}
			kernels.GatherSum(num[:k4], x.Data[p0:p1], x.Indices[p0:p1], htd, k, false)
			wi := wd[i*k : (i+1)*k]
			for t := range wi {
				wi[t] = wi[t]*0.5 + num[t]*1e-9
			}
			for p := p0; p < p1; p++ {
				j := int(x.Indices[p])
				floats.AddScaled(a[j*k:(j+1)*k], x.Data[p], wi)
			}
		}
	})
	for b := 1; b < len(acc); b++ {
		floats.Add(acc[0], acc[b])
	}
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
