package sparse

import (
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/semitopic/semitopic/internal/kernels"
	"github.com/semitopic/semitopic/internal/parallel"
)

// tileBytes bounds the size of the block of the result that the
// column-tiled products accumulate at a time, to keep it in a core's L2
// cache. 1 MiB measured best among 64 KiB … 16 MiB for 20,000 columns and
// k = 20 and 90 on a 2 MiB-L2 machine.
const tileBytes = 1 << 20

// tileCols returns the number of rows of a k-wide dense operand that fit
// in tileBytes.
func tileCols(k int) int { return colsIn(tileBytes, k) }

// colsIn returns the number of k-wide float64 rows that fit in bytes, at
// least 64.
func colsIn(bytes, k int) int { return max(64, bytes/(8*max(k, 1))) }

// forColumnTiles visits the rows [lo, hi) of a one column tile at a time:
// for each tile of tc columns, in order, it calls fn(i, p0, p1) for every
// row i with entries p0 ≤ p < p1 in that tile. Kernels that read a row of a
// dense operand per stored entry (selected by column) thereby touch one
// cache-sized block of that operand at a time; for k = 90 on the
// benchmark matrix this made MulDense and SampledDot about 30% faster. With a
// single tile it is a plain loop over rows.
func forColumnTiles(a *CSR, lo, hi, tc int, fn func(i, p0, p1 int)) {
	if a.Cols <= tc {
		for i := lo; i < hi; i++ {
			if p0, p1 := a.Indptr[i], a.Indptr[i+1]; p0 < p1 {
				fn(i, p0, p1)
			}
		}
		return
	}
	cur := make([]int, hi-lo)
	copy(cur, a.Indptr[lo:hi])
	for c0 := 0; c0 < a.Cols; c0 += tc {
		end := int32(min(c0+tc, a.Cols))
		for i := lo; i < hi; i++ {
			p0, p1 := cur[i-lo], a.Indptr[i+1]
			p := p0
			for p < p1 && a.Indices[p] < end {
				p++
			}
			if p > p0 {
				fn(i, p0, p)
				cur[i-lo] = p
			}
		}
	}
}

// tmulTileBytes bounds the block of the result that TMulDense and
// DenseTMul accumulate at a time. It is larger than a core's L2 cache:
// each tile is a sweep over the rows of a that reads the dense row of
// every row with entries in the tile, so fewer, wider tiles read b fewer
// times, while the accumulator rows that most entries hit (the frequent
// columns) stay cached anyway. Among 256 KiB … 8 MiB, 4 and 8 MiB were
// fastest on 100,000 × 50,000 with 14M stored entries and k = 100 (1 MiB
// of L2 per core, 32 MiB of L3; docs/results/speed.md, "NMF at scale").
const tmulTileBytes = 4 << 20

// tmulTileCols returns the number of k-wide accumulator rows that fit in
// tmulTileBytes.
func tmulTileCols(k int) int { return colsIn(tmulTileBytes, k) }

// tileBounds cuts the columns of a into tiles of at most tmulTileCols(k)
// columns, and of at most about nnz/(2·workers) stored entries so that
// workers can be balanced when a few columns hold most entries. It returns
// the tiles' first columns (plus a.Cols at the end) and the cumulative
// stored entries per tile.
func tileBounds(a *CSR, k int) (bounds, prefix []int) {
	maxCols := tmulTileCols(k)
	maxNNZ := max(1, a.NNZ()/(2*parallel.Workers()))
	counts := a.ColNNZ()
	bounds, prefix = []int{0}, []int{0}
	n, start := 0, 0
	for j, c := range counts {
		if j > start && (j-start == maxCols || n+c > maxNNZ) {
			bounds = append(bounds, j)
			prefix = append(prefix, prefix[len(prefix)-1]+n)
			n, start = 0, j
		}
		n += c
	}
	bounds = append(bounds, a.Cols)
	prefix = append(prefix, prefix[len(prefix)-1]+n)
	return bounds, prefix
}

// tileCursors returns, for each row of a, the position of its first entry
// at or after column first: where a sweep of the tiles from first begins.
func tileCursors(a *CSR, first int) []int {
	cur := make([]int, a.Rows)
	f := int32(first)
	for i := range cur {
		lo, hi := a.Indptr[i], a.Indptr[i+1]
		q, _ := slices.BinarySearch(a.Indices[lo:hi], f)
		cur[i] = lo + q
	}
	return cur
}

// sweepTile calls fn(i, p, q) for each row i of a, in order, that has
// entries from cur[i] on below column end: they are entries p to q−1. It
// moves cur[i] to q, so that the next tile's sweep starts there.
func sweepTile(a *CSR, cur []int, end int, fn func(i, p, q int)) {
	end32 := int32(end)
	for i := 0; i < a.Rows; i++ {
		p, stop := cur[i], a.Indptr[i+1]
		if p == stop || a.Indices[p] >= end32 {
			continue
		}
		q := p + 1
		for q < stop && a.Indices[q] < end32 {
			q++
		}
		fn(i, p, q)
		cur[i] = q
	}
}

// tmulTiled computes aᵀ·b (b is rows×k, k > 0) without transposing a. The
// columns of a are cut into tiles; workers take contiguous runs of tiles
// balanced by stored entries, and for each tile sweep the rows of a,
// accumulating the tile's block of the result while it stays in cache and
// reading b in row order; the entries of a row that fall in the tile are
// scattered in one call (scatterRow). With transposed unset the result
// goes to rd as cols×k (its rows are the accumulator; with add set they
// keep what they held and the products are added to it); with it set, to
// rd as k×cols, via a per-worker tile buffer stored transposed. With
// scale not nil, row i's values are scaled by scale[i] (each product
// rounded) into a per-worker buffer before they are scattered.
func tmulTiled(rd *blasRaw, transposed, add bool, a *CSR, scale []float64, rb *blasRaw, k, minBlock int) {
	if a.Cols == 0 {
		return
	}
	longest := 0
	if scale != nil {
		longest = a.MaxRowNNZ()
	}
	bounds, prefix := tileBounds(a, k)
	parallel.ForWeighted(prefix, minBlock, func(_, t0, t1 int) {
		cur := tileCursors(a, bounds[t0])
		scaled := make([]float64, longest)
		var buf *blasRaw
		if transposed {
			width := 0
			for t := t0; t < t1; t++ {
				width = max(width, bounds[t+1]-bounds[t])
			}
			buf = &blasRaw{data: make([]float64, width*k), stride: k, cols: k}
		}
		for t := t0; t < t1; t++ {
			c0, c1 := bounds[t], bounds[t+1]
			acc, off := rd, 0
			if transposed {
				clear(buf.data[:(c1-c0)*k])
				acc, off = buf, c0
			} else if !add {
				for j := c0; j < c1; j++ {
					clear(rowOf(rd, j))
				}
			}
			sweepTile(a, cur, c1, func(i, p, q int) {
				vals := a.Data[p:q]
				if scale != nil {
					vals = scaled[:q-p]
					for u, v := range a.Data[p:q] {
						vals[u] = v * scale[i]
					}
				}
				scatterRow(acc, off, a.Indices[p:q], vals, rowOf(rb, i))
			})
			if transposed {
				for r := 0; r < k; r++ {
					d := rd.data[r*rd.stride+c0 : r*rd.stride+c1]
					for q := range d {
						d[q] = buf.data[q*k+r]
					}
				}
			}
		}
	})
}

// scatterRow adds vals[p]·b to row idx[p]−off of acc for every p (len(b)
// = acc.cols): the scatter kernel over the columns up to a multiple of 4,
// floats.AddScaled over the rest. Each product is rounded before it is
// added, everywhere, as floats.AddScaled does.
func scatterRow(acc *blasRaw, off int, idx []int32, vals, b []float64) {
	k4 := len(b) &^ 3
	if k4 > 0 {
		kernels.ScatterAdd(acc.data, acc.stride, idx, off, vals, b[:k4])
	}
	if k4 == len(b) {
		return
	}
	for p, v := range vals {
		o := (int(idx[p])-off)*acc.stride + k4
		floats.AddScaled(acc.data[o:o+len(b)-k4], v, b[k4:])
	}
}
