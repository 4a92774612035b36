package main

import (
	"flag"
	"fmt"
	"log"
	"math"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
)

// gathers times the W update's numerator X·Hᵀ (n × k; X from -dir, Hᵀ the
// hashed start) four ways, interleaved over -rounds rounds: one gather per
// row of X over float64 rows of Hᵀ (the engine's float64 path) and over a
// float32 copy (its float32 path), and the same two with the vocabulary
// cut into tiles of -tile-kib KiB of Hᵀ, each tile swept over all rows so
// that the rows gathered stay in cache (the accumulating numerators are
// then n × k, not one row). It prints the median seconds of each and the
// largest difference from the untiled float64 product.
func gathers(args []string) {
	fs := flag.NewFlagSet("gathers", flag.ExitOnError)
	dir := fs.String("dir", "", "folder with X.mtx (from prepare)")
	k := fs.Int("k", 100, "topics")
	rounds := fs.Int("rounds", 5, "rounds (each times all four ways)")
	tileKiB := fs.Int("tile-kib", 512, "KiB of Hᵀ per vocabulary tile")
	_ = fs.Parse(args)
	if *dir == "" {
		log.Fatal("gathers: -dir is required")
	}
	x := read(filepath.Join(*dir, "X.mtx"))
	n, m := x.Dims()
	kp := kernels.Pad(*k)
	_, h0 := hashedStart(x, *k)
	ht := make([]float64, m*kp)
	for t := 0; t < *k; t++ {
		for j := 0; j < m; j++ {
			ht[j*kp+t] = h0.At(t, j)
		}
	}
	ht32 := make([]float32, len(ht))
	kernels.ToFloat32(ht32, ht)
	fmt.Printf("X: %d × %d, %d non-zeros; k = %d; %d cores; kernels: %s; load average %s\n", n, m, x.NNZ(), *k, runtime.GOMAXPROCS(0), kernels.Name(), loadAverage())
	prefix := make([]int, n+1)
	for i := 0; i < n; i++ {
		prefix[i+1] = prefix[i] + x.Indptr[i+1] - x.Indptr[i] + kp
	}
	want := make([]float64, n*kp)
	got := make([]float64, n*kp)
	untiled := func(dst []float64, gather func(dst, vals []float64, idx []int32, add bool)) {
		parallel.ForWeighted(prefix, 1024, func(_, lo, hi int) {
			for i := lo; i < hi; i++ {
				p0, p1 := x.Indptr[i], x.Indptr[i+1]
				gather(dst[i*kp:(i+1)*kp], x.Data[p0:p1], x.Indices[p0:p1], false)
			}
		})
	}
	tc := max(64, *tileKiB<<10/(4*kp))
	tiled := func(dst []float64, gather func(dst, vals []float64, idx []int32, add bool)) {
		clear(dst)
		parallel.ForWeighted(prefix, 1024, func(_, lo, hi int) {
			cur := append([]int(nil), x.Indptr[lo:hi]...)
			for c0 := 0; c0 < m; c0 += tc {
				end := int32(min(c0+tc, m))
				for i := lo; i < hi; i++ {
					p0, p := cur[i-lo], cur[i-lo]
					for p < x.Indptr[i+1] && x.Indices[p] < end {
						p++
					}
					if p > p0 {
						gather(dst[i*kp:(i+1)*kp], x.Data[p0:p], x.Indices[p0:p], true)
						cur[i-lo] = p
					}
				}
			}
		})
	}
	g64 := func(dst, vals []float64, idx []int32, add bool) { kernels.GatherSum(dst, vals, idx, ht, kp, add) }
	g32 := func(dst, vals []float64, idx []int32, add bool) { kernels.GatherSum32(dst, vals, idx, ht32, kp, add) }
	ways := []struct {
		name string
		run  func()
	}{
		{"float64, untiled (engine)", func() { untiled(got, g64) }},
		{"float64, vocabulary tiles", func() { tiled(got, g64) }},
		{"float32, untiled (engine)", func() { untiled(got, g32) }},
		{"float32, vocabulary tiles", func() { tiled(got, g32) }},
	}
	untiled(want, g64)
	secs := make([][]float64, len(ways))
	diff := make([]float64, len(ways))
	for r := 0; r < *rounds; r++ {
		for w, way := range ways {
			t0 := time.Now()
			way.run()
			secs[w] = append(secs[w], time.Since(t0).Seconds())
			for q, v := range want {
				if d := math.Abs(got[q]-v) / (math.Abs(v) + 1e-300); d > diff[w] {
					diff[w] = d
				}
			}
		}
	}
	fmt.Printf("vocabulary tiles of %d terms (%d KiB of float32 Hᵀ, %d KiB of float64); medians of %d interleaved rounds:\n", tc, tc*kp*4>>10, tc*kp*8>>10, *rounds)
	base := median(secs[0])
	for w, way := range ways {
		fmt.Printf("  %-28s %.3f s  (%.2f× the engine's float64; largest relative difference %.1e)\n", way.name, median(secs[w]), median(secs[w])/base, diff[w])
	}
	fmt.Printf("load average after: %s\n", loadAverage())
}

// loadAverage returns the 1-, 5- and 15-minute load averages, or "?".
func loadAverage() string {
	if l := lab.LoadAverage(); l != "" {
		return l
	}
	return "?"
}

func median(v []float64) float64 {
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}
