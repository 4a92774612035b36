package metrics

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// ErrInfeasible is returned (wrapped) by Assign when forbidden pairs leave no
// assignment that matches every row (or every column, when there are more
// rows than columns).
var ErrInfeasible = errors.New("metrics: assignment infeasible")

// Assign solves the linear sum assignment problem for an n×m cost matrix of
// any shape: it matches min(n, m) rows to distinct columns so that the sum of
// the matched entries is smallest (or largest, with maximize). rowToCol[i] is
// the column matched to row i, or -1 when n > m leaves row i unmatched; total
// is the sum of the matched entries of cost.
//
// The solver is the shortest augmenting path method of Jonker and Volgenant
// in the rectangular form of Crouse (2016, "On implementing 2D rectangular
// assignment algorithms", IEEE TAES 52(4)), the algorithm behind scipy's
// linear_sum_assignment: exact, O(n²m) for n ≤ m, no tolerance parameters.
// When several assignments are optimal it returns the one scipy returns for
// the same matrix, up to floating-point ties.
//
// Infinite entries follow scipy: when minimizing, +Inf marks a forbidden pair
// and -Inf is an error (the problem would be unbounded); when maximizing,
// -Inf is forbidden and +Inf is an error. If the forbidden pairs leave no
// complete assignment, the error wraps ErrInfeasible. NaN is an error. A nil
// or empty matrix gives an empty assignment and a zero total.
func Assign(cost *mat.Dense, maximize bool) (rowToCol []int, total float64, err error) {
	if cost == nil || cost.IsEmpty() {
		return []int{}, 0, nil
	}
	n, m := cost.Dims()
	c := make([]float64, n*m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			c[i*m+j] = cost.At(i, j)
		}
	}
	return assign(n, m, c, maximize)
}

// assign is Assign on a row-major n×m slice, which it does not modify.
func assign(n, m int, c []float64, maximize bool) ([]int, float64, error) {
	if len(c) != n*m {
		return nil, 0, fmt.Errorf("metrics: assignment cost has %d entries, want %d×%d", len(c), n, m)
	}
	rowToCol := make([]int, n)
	if n == 0 || m == 0 {
		for i := range rowToCol {
			rowToCol[i] = -1
		}
		return rowToCol, 0, nil
	}
	// The working matrix is minimized and has no more rows than columns.
	nr, nc := n, m
	transposed := n > m
	if transposed {
		nr, nc = m, n
	}
	w := make([]float64, nr*nc)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			v := c[i*m+j]
			if math.IsNaN(v) {
				return nil, 0, fmt.Errorf("metrics: assignment cost[%d][%d] is NaN", i, j)
			}
			if maximize {
				v = -v
			}
			if math.IsInf(v, -1) {
				sign := "-Inf when minimizing"
				if maximize {
					sign = "+Inf when maximizing"
				}
				return nil, 0, fmt.Errorf("metrics: assignment cost[%d][%d] is %s: the problem is unbounded", i, j, sign)
			}
			if transposed {
				w[j*nc+i] = v
			} else {
				w[i*nc+j] = v
			}
		}
	}
	col4row, err := shortestAugmentingPath(nr, nc, w)
	if err != nil {
		return nil, 0, err
	}
	for i := range rowToCol {
		rowToCol[i] = -1
	}
	if transposed {
		for j, i := range col4row { // working row j is original column j
			rowToCol[i] = j
		}
	} else {
		copy(rowToCol, col4row)
	}
	var total float64
	for i, j := range rowToCol {
		if j >= 0 {
			total += c[i*m+j]
		}
	}
	return rowToCol, total, nil
}

// shortestAugmentingPath assigns every row of the nr×nc (nr ≤ nc) row-major
// cost w to a distinct column at minimum total cost, one row at a time: for
// each new row it grows a Dijkstra tree of reduced costs u, v until it
// reaches a free column, then flips the path and updates the duals (Crouse
// 2016, Algorithm 1). +Inf entries are never chosen.
func shortestAugmentingPath(nr, nc int, w []float64) ([]int, error) {
	u := make([]float64, nr)
	v := make([]float64, nc)
	dist := make([]float64, nc) // shortest path cost to each column
	path := make([]int, nc)     // row preceding each column on its path
	col4row := make([]int, nr)
	row4col := make([]int, nc)
	inRow := make([]bool, nr) // rows in the tree (SR)
	inCol := make([]bool, nc) // columns in the tree (SC)
	remaining := make([]int, nc)
	for i := range col4row {
		col4row[i] = -1
	}
	for j := range row4col {
		row4col[j] = -1
		path[j] = -1
	}
	for cur := 0; cur < nr; cur++ {
		// Grow the tree from row cur until it reaches an unassigned column.
		minVal := 0.0
		nRemaining := nc
		for it := 0; it < nc; it++ {
			// Visit columns from the highest index down, as scipy does,
			// so that ties resolve the same way.
			remaining[it] = nc - it - 1
		}
		for i := range inRow {
			inRow[i] = false
		}
		for j := 0; j < nc; j++ {
			inCol[j] = false
			dist[j] = math.Inf(1)
		}
		sink := -1
		i := cur
		for sink == -1 {
			index := -1
			lowest := math.Inf(1)
			inRow[i] = true
			row := w[i*nc : (i+1)*nc]
			ui := u[i]
			for it, j := range remaining[:nRemaining] {
				r := minVal + row[j] - ui - v[j]
				dj := dist[j]
				if r < dj {
					path[j] = i
					dist[j] = r
					dj = r
				}
				// Among equally short paths prefer one that ends at a
				// free column: it finishes the augmentation sooner.
				if dj < lowest || (dj == lowest && row4col[j] == -1) {
					lowest = dj
					index = it
				}
			}
			minVal = lowest
			if math.IsInf(minVal, 1) {
				return nil, fmt.Errorf("%w: row %d cannot reach a free column through allowed (finite) entries", ErrInfeasible, cur)
			}
			j := remaining[index]
			if row4col[j] == -1 {
				sink = j
			} else {
				i = row4col[j]
			}
			inCol[j] = true
			nRemaining--
			remaining[index] = remaining[nRemaining]
		}
		// Update the dual variables.
		u[cur] += minVal
		for i := 0; i < nr; i++ {
			if inRow[i] && i != cur {
				u[i] += minVal - dist[col4row[i]]
			}
		}
		for j := 0; j < nc; j++ {
			if inCol[j] {
				v[j] -= minVal - dist[j]
			}
		}
		// Flip the augmenting path.
		for j := sink; ; {
			i := path[j]
			row4col[j] = i
			col4row[i], j = j, col4row[i]
			if i == cur {
				break
			}
		}
	}
	return col4row, nil
}
