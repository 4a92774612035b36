package nmf

import (
	"math"
)

// nnls solves non-negative least-squares problems in normal-equation form,
//
//	minimise ½ xᵀGx − bᵀx  subject to  x ≥ 0 (and x_i = 0 where not allowed),
//
// which for G = AᵀA and b = Aᵀy is min ‖Ax − y‖² over x ≥ 0. It is Lawson
// & Hanson's active-set algorithm (Solving Least Squares Problems, 1974,
// ch. 23) working on the k × k Gram matrix, as Bro & de Jong's fast NNLS
// (1997): the passive set grows one variable at a time, the one with the
// largest positive gradient b − Gx; each passive subproblem G_PP s = b_P is
// solved with a Cholesky factor that is extended by one row when a variable
// enters and refactored when variables leave; when s has non-positive
// entries the step towards it is cut at the first variable that reaches
// zero, which leaves the passive set. A variable whose column is
// numerically dependent on the passive ones (a singular or rank-deficient
// G) or whose subproblem solution is not positive when it enters is set
// aside until the passive set changes. A solver is not safe for concurrent
// use; make one per goroutine.
type nnls struct {
	k       int
	passive []int     // passive variables, in factor order
	order   []int     // work copy of passive
	inP     []bool    // membership of the passive set
	blocked []bool    // set aside until the passive set changes
	l       []float64 // Cholesky factor of G_PP, row-major k × k (lower)
	s, z    []float64 // subproblem solution (by position in passive), work
	grad    []float64 // b − Gx
}

func newNNLS(k int) *nnls {
	return &nnls{
		k:       k,
		passive: make([]int, 0, k),
		order:   make([]int, 0, k),
		inP:     make([]bool, k),
		blocked: make([]bool, k),
		l:       make([]float64, k*k),
		s:       make([]float64, k),
		z:       make([]float64, k),
		grad:    make([]float64, k),
	}
}

// solve sets x to the solution for G (k × k symmetric positive
// semi-definite, row-major), b and allowed (nil: all allowed), and returns
// the number of outer iterations. x is overwritten.
func (q *nnls) solve(x, g, b []float64, allowed []bool) int {
	k := q.k
	clear(x)
	q.passive = q.passive[:0]
	clear(q.inP)
	clear(q.blocked)
	gmax := 0.0
	for t := 0; t < k; t++ {
		gmax = math.Max(gmax, g[t*k+t])
	}
	bmax := 0.0
	for _, v := range b {
		bmax = math.Max(bmax, math.Abs(v))
	}
	if bmax == 0 {
		return 0
	}
	const eps = 0x1p-52
	maxIter := 3 * k
	it := 0
	for ; it < maxIter; it++ {
		// Gradient of the negative objective: b − Gx.
		xsum := 0.0
		for t := 0; t < k; t++ {
			q.grad[t] = b[t]
			xsum += x[t]
		}
		for _, s := range q.passive {
			if xs := x[s]; xs != 0 {
				row := g[s*k : (s+1)*k]
				for t := range q.grad {
					q.grad[t] -= row[t] * xs
				}
			}
		}
		tol := 10 * float64(k) * eps * (bmax + gmax*xsum)
		j, best := -1, tol
		for t, v := range q.grad {
			if !q.inP[t] && !q.blocked[t] && (allowed == nil || allowed[t]) && v > best {
				j, best = t, v
			}
		}
		if j < 0 {
			break
		}
		if !q.extend(g, j) {
			q.blocked[j] = true
			continue
		}
		q.passive = append(q.passive, j)
		q.inP[j] = true
		q.solveP(b)
		if q.s[len(q.passive)-1] <= 0 {
			// The entering variable would not be positive: numerically it
			// does not improve the objective. Set it aside.
			q.passive = q.passive[:len(q.passive)-1]
			q.inP[j] = false
			q.blocked[j] = true
			continue
		}
		clear(q.blocked)
		// Inner loop: move towards s while keeping x ≥ 0.
		for {
			alpha, at := 1.0, -1
			for p, v := range q.passive {
				if sv := q.s[p]; sv <= 0 {
					if a := x[v] / (x[v] - sv); at < 0 || a < alpha {
						alpha, at = a, p
					}
				}
			}
			if at < 0 {
				for p, v := range q.passive {
					x[v] = q.s[p]
				}
				break
			}
			kept := q.passive[:0]
			for p, v := range q.passive {
				nx := x[v] + alpha*(q.s[p]-x[v])
				if p == at || nx <= 0 {
					// The variable that limits the step reaches zero
					// exactly; rounding must not leave it slightly off.
					x[v] = 0
					q.inP[v] = false
					continue
				}
				x[v] = nx
				kept = append(kept, v)
			}
			q.passive = kept
			if len(q.passive) == 0 {
				break
			}
			q.refactor(g, x)
			q.solveP(b)
		}
	}
	return it
}

// extend appends variable j to the Cholesky factor of G_PP; it reports
// false (leaving the factor unchanged) if G's column j is numerically
// dependent on the passive columns.
func (q *nnls) extend(g []float64, j int) bool {
	k, p := q.k, len(q.passive)
	row := q.l[p*k : p*k+p+1]
	// Solve L·r = G[P, j] for the new row r of L.
	for a := 0; a < p; a++ {
		v := g[q.passive[a]*k+j]
		la := q.l[a*k : a*k+a]
		for c, lv := range la {
			v -= lv * row[c]
		}
		row[a] = v / q.l[a*k+a]
	}
	d := g[j*k+j]
	for c := 0; c < p; c++ {
		d -= row[c] * row[c]
	}
	if !(d > 1e-12*g[j*k+j]) || g[j*k+j] <= 0 {
		return false
	}
	row[p] = math.Sqrt(d)
	return true
}

// refactor recomputes the Cholesky factor of G_PP for the current passive
// set. Its principal submatrices were factorable before, so a failure only
// comes from rounding; the variable at fault then leaves the passive set
// and is set to zero.
func (q *nnls) refactor(g, x []float64) {
	q.order = append(q.order[:0], q.passive...)
	q.passive = q.passive[:0]
	for _, v := range q.order {
		if q.extend(g, v) {
			q.passive = append(q.passive, v)
		} else {
			q.inP[v] = false
			x[v] = 0
		}
	}
}

// solveP sets q.s (by position) to the solution of G_PP s = b_P through
// the Cholesky factor.
func (q *nnls) solveP(b []float64) {
	k, p := q.k, len(q.passive)
	y := q.z[:p]
	for a := 0; a < p; a++ {
		v := b[q.passive[a]]
		for c := 0; c < a; c++ {
			v -= q.l[a*k+c] * y[c]
		}
		y[a] = v / q.l[a*k+a]
	}
	s := q.s[:p]
	for a := p - 1; a >= 0; a-- {
		v := y[a]
		for c := a + 1; c < p; c++ {
			v -= q.l[c*k+a] * s[c]
		}
		s[a] = v / q.l[a*k+a]
	}
}
