package nmf

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// gram is a Gram matrix G = AᵀA (k × k, symmetric positive semi-definite)
// prepared for nnls: the variables are scaled by d_t = √G_tt, the norms of
// A's columns, so that the scaled matrix G̃ = D⁻¹GD⁻¹ has a unit diagonal
// and its entries are the cosines between A's columns. Variables whose
// G_tt is zero (a zero column of A) — or not a positive finite number —
// have an inverse scale of 0: their row and column of G̃ are zero and nnls
// leaves them at zero, which is optimal for a zero column.
//
// A gram depends only on G, so it is built once and shared by all the
// right-hand sides solved with it (all the documents of a Transform). It is
// never modified after newGram returns and is safe for concurrent use by
// any number of solvers.
type gram struct {
	k   int
	g   []float64 // G̃ = D⁻¹GD⁻¹, row-major k × k, unit diagonal (0 for zero columns)
	inv []float64 // 1/d_t, 0 for zero columns
}

// newGram prepares the row-major k × k Gram matrix g for nnls. g itself is
// neither kept nor modified.
func newGram(g []float64, k int) *gram {
	if len(g) != k*k {
		panic("nmf: newGram: Gram matrix of the wrong size")
	}
	gm := &gram{k: k, g: make([]float64, k*k), inv: make([]float64, k)}
	for t := 0; t < k; t++ {
		if d := g[t*k+t]; d > 0 && !math.IsInf(d, 1) {
			gm.inv[t] = 1 / math.Sqrt(d)
		}
	}
	for s := 0; s < k; s++ {
		is := gm.inv[s]
		if is == 0 {
			continue
		}
		row, out := g[s*k:(s+1)*k], gm.g[s*k:(s+1)*k]
		for t, v := range row {
			out[t] = v * is * gm.inv[t]
		}
		out[s] = 1
	}
	return gm
}

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
// aside until the passive set changes.
//
// The solver works on the scaled problem of a gram, in the variables
// x̃ = Dx with D = diag(√G_tt): min ½ x̃ᵀG̃x̃ − b̃ᵀx̃ with G̃ = D⁻¹GD⁻¹ and
// b̃ = D⁻¹b, then returns x = D⁻¹x̃. The scaling is what makes it accurate
// when A's columns have very different norms. Unscaled, a variable's
// gradient (b − Gx)_t = a_tᵀ(y − Ax) is proportional to its column's norm,
// while the rounding tolerance that decides whether a variable may enter
// has to be set by the largest entries of G and b, and G's diagonal holds
// the squared norms: a 10⁴ spread of column norms is a 10⁸ spread there.
// A small column's gradient then falls below the tolerance even where the
// column would more than halve the residual (the reproducer of the issue,
// column norms 10⁻⁴ to 10⁴: residual 0.8655 against scipy's 0.3656), and
// the entering rule, the largest raw gradient, favours large columns
// whatever their fit. In the scaled problem a variable's gradient is the
// inner product of its unit column with the residual, every tolerance is
// relative to quantities of order one, and G̃'s condition number is within
// a factor k of the best over all diagonal scalings (van der Sluis, 1969).
//
// What scaling cannot undo is that forming G squares the condition number
// of A's normalised columns. Columns at an angle below about 10⁻⁶ to the
// span of the passive ones are numerically dependent in G̃ and are set
// aside, where a QR-based solver on A itself (scipy's nnls) still separates
// them. The cost is small: the residual exceeds the optimum by at most
// about that angle times ‖y‖ when y lies in the thin cone between such
// columns and the problem is consistent (zero residual), and by a second
// order amount otherwise (10⁻¹²‖y‖ at an angle of 10⁻⁶ with a residual of
// 0.1‖y‖); with columns at angles of 10⁻⁵ and above the residual is within
// about 10⁻¹⁰‖y‖ of scipy's (TestNNLSScipyFixture).
//
// A solver is not safe for concurrent use; make one per goroutine.
type nnls struct {
	k       int
	passive []int     // passive variables, in factor order
	order   []int     // work copy of passive
	inP     []bool    // membership of the passive set
	blocked []bool    // set aside until the passive set changes
	l       []float64 // Cholesky factor of G̃_PP, row-major k × k (lower)
	s, z    []float64 // subproblem solution (by position in passive), work
	grad    []float64 // b̃ − G̃x̃
	b       []float64 // b̃
}

// newNNLS returns a solver for k variables.
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
		b:       make([]float64, k),
	}
}

// solve sets x to the solution for the prepared Gram matrix gm (of q's
// size k), the right-hand side b and allowed (nil: all allowed), and
// returns the number of outer iterations. x is overwritten; b is not
// modified.
func (q *nnls) solve(x []float64, gm *gram, b []float64, allowed []bool) int {
	k := q.k
	if gm.k != k {
		panic("nmf: nnls: Gram matrix of the wrong size")
	}
	g := gm.g
	clear(x)
	q.passive = q.passive[:0]
	clear(q.inP)
	clear(q.blocked)
	bs := q.b
	bmax := 0.0
	for t, v := range b {
		bs[t] = v * gm.inv[t]
		bmax = math.Max(bmax, math.Abs(bs[t]))
	}
	if bmax == 0 {
		return 0
	}
	const eps = 0x1p-52
	maxIter := 3 * k
	it := 0
	for ; it < maxIter; it++ {
		// Gradient of the negative objective: b̃ − G̃x̃. Its rounding error
		// is at most about k·eps·(|b̃_t| + Σ x̃) since |G̃_st| ≤ 1.
		xsum := 0.0
		for t := 0; t < k; t++ {
			q.grad[t] = bs[t]
			xsum += x[t]
		}
		for _, s := range q.passive {
			if xs := x[s]; xs != 0 {
				// grad −= xs·row, each product rounded before it is
				// subtracted, as the loop it replaces did: the same bits.
				floats.AddScaled(q.grad, -xs, g[s*k:(s+1)*k])
			}
		}
		tol := 10 * float64(k) * eps * (bmax + xsum)
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
		q.solveP(bs)
		if q.s[len(q.passive)-1] <= 0 {
			// The entering variable would not be positive: numerically it
			// does not improve the objective. Set it aside.
			q.passive = q.passive[:len(q.passive)-1]
			q.inP[j] = false
			q.blocked[j] = true
			continue
		}
		clear(q.blocked)
		// Inner loop: move towards s while keeping x̃ ≥ 0.
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
			q.solveP(bs)
		}
	}
	// Back to the original variables: x = D⁻¹x̃.
	for t, v := range gm.inv {
		x[t] *= v
	}
	return it
}

// extend appends variable j to the Cholesky factor of G̃_PP (g is G̃); it
// reports false (leaving the factor unchanged) if column j is numerically
// dependent on the passive columns: with G̃'s unit diagonal, if the squared
// sine of its angle to their span (the pivot) is below 10⁻¹², well above
// the rounding error of G̃'s entries.
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

// refactor recomputes the Cholesky factor of G̃_PP for the current passive
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

// solveP sets q.s (by position) to the solution of G̃_PP s = b̃_P through
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
