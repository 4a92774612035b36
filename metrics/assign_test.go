package metrics

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// bruteAssign returns the best total over all assignments of min(n, m) rows
// to distinct columns by enumerating them, skipping +Inf (or -Inf when
// maximizing) entries; ok is false when no complete assignment exists.
func bruteAssign(c *mat.Dense, maximize bool) (best float64, ok bool) {
	n, m := c.Dims()
	at := func(i, j int) float64 { return c.At(i, j) }
	if n > m { // enumerate the injective maps of columns to rows instead
		n, m = m, n
		at = func(i, j int) float64 { return c.At(j, i) }
	}
	forbidden := math.Inf(1)
	if maximize {
		forbidden = math.Inf(-1)
	}
	used := make([]bool, m)
	var rec func(i int, sum float64)
	rec = func(i int, sum float64) {
		if i == n {
			if !ok || (maximize && sum > best) || (!maximize && sum < best) {
				best, ok = sum, true
			}
			return
		}
		for j := 0; j < m; j++ {
			if used[j] || at(i, j) == forbidden {
				continue
			}
			used[j] = true
			rec(i+1, sum+at(i, j))
			used[j] = false
		}
	}
	rec(0, 0)
	return best, ok
}

// checkAssignment verifies that rowToCol is a valid assignment of
// min(n, m) rows whose entries sum to total.
func checkAssignment(t *testing.T, name string, c *mat.Dense, rowToCol []int, total float64) {
	t.Helper()
	n, m := c.Dims()
	if len(rowToCol) != n {
		t.Fatalf("%s: len(rowToCol) = %d, want %d", name, len(rowToCol), n)
	}
	seen := make([]bool, m)
	matched := 0
	var sum float64
	for i, j := range rowToCol {
		if j == -1 {
			continue
		}
		if j < 0 || j >= m || seen[j] {
			t.Fatalf("%s: row %d assigned to invalid or repeated column %d", name, i, j)
		}
		seen[j] = true
		matched++
		sum += c.At(i, j)
	}
	if matched != min(n, m) {
		t.Fatalf("%s: %d rows matched, want %d", name, matched, min(n, m))
	}
	if math.Abs(sum-total) > 1e-9*(1+math.Abs(sum)) {
		t.Fatalf("%s: reported total %v, entries sum to %v", name, total, sum)
	}
}

func randomCost(rng *rand.Rand, n, m int, ties bool) *mat.Dense {
	c := mat.NewDense(n, m, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			if ties {
				c.Set(i, j, float64(rng.IntN(3)))
			} else {
				c.Set(i, j, rng.NormFloat64())
			}
		}
	}
	return c
}

func TestAssignBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 1; n <= 8; n++ {
		for m := 1; m <= 8; m++ {
			reps := 6
			if n*m > 36 {
				reps = 2 // 8!-sized enumerations are the slow part
			}
			for rep := 0; rep < reps; rep++ {
				ties := rep%2 == 1
				c := randomCost(rng, n, m, ties)
				for _, maximize := range []bool{false, true} {
					rowToCol, total, err := Assign(c, maximize)
					if err != nil {
						t.Fatalf("%d×%d: %v", n, m, err)
					}
					checkAssignment(t, "brute", c, rowToCol, total)
					want, _ := bruteAssign(c, maximize)
					if math.Abs(total-want) > 1e-9 {
						t.Fatalf("%d×%d ties=%v max=%v: total %v, brute force %v\n%v",
							n, m, ties, maximize, total, want, mat.Formatted(c))
					}
				}
			}
		}
	}
}

func TestAssignForbiddenBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	infeasible := 0
	for rep := 0; rep < 300; rep++ {
		n, m := 1+rng.IntN(6), 1+rng.IntN(6)
		c := randomCost(rng, n, m, rep%3 == 0)
		maximize := rep%2 == 1
		forbidden := math.Inf(1)
		if maximize {
			forbidden = math.Inf(-1)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < m; j++ {
				if rng.Float64() < 0.45 {
					c.Set(i, j, forbidden)
				}
			}
		}
		want, ok := bruteAssign(c, maximize)
		rowToCol, total, err := Assign(c, maximize)
		if !ok {
			infeasible++
			if !errors.Is(err, ErrInfeasible) {
				t.Fatalf("infeasible %d×%d: err = %v, want ErrInfeasible\n%v", n, m, err, mat.Formatted(c))
			}
			continue
		}
		if err != nil {
			t.Fatalf("%d×%d: %v\n%v", n, m, err, mat.Formatted(c))
		}
		checkAssignment(t, "forbidden", c, rowToCol, total)
		if math.Abs(total-want) > 1e-9 {
			t.Fatalf("%d×%d: total %v, brute force %v", n, m, total, want)
		}
	}
	if infeasible == 0 || infeasible == 300 {
		t.Fatalf("%d of 300 cases infeasible: the test exercises only one path", infeasible)
	}
}

// lpAssign solves the assignment of an n×m (n ≤ m) cost as the linear
// program min Σ c_ij x_ij s.t. Σ_j x_ij = 1, Σ_i x_ij + s_j = 1, x, s ≥ 0,
// whose optimum is integral (the assignment polytope).
func lpAssign(t *testing.T, c *mat.Dense) float64 {
	n, m := c.Dims()
	nv := n*m + m
	obj := make([]float64, nv)
	A := mat.NewDense(n+m, nv, nil)
	b := make([]float64, n+m)
	for i := 0; i < n; i++ {
		for j := 0; j < m; j++ {
			obj[i*m+j] = c.At(i, j)
			A.Set(i, i*m+j, 1)
			A.Set(n+j, i*m+j, 1)
		}
		b[i] = 1
	}
	for j := 0; j < m; j++ {
		A.Set(n+j, n*m+j, 1)
		b[n+j] = 1
	}
	opt, _, err := lp.Simplex(obj, A, b, 1e-10, nil)
	if err != nil {
		t.Fatalf("simplex: %v", err)
	}
	return opt
}

func TestAssignLinearProgram(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for rep := 0; rep < 6; rep++ {
		n, m := 12, 15
		if rep%3 == 2 {
			n, m = 14, 14
		}
		c := randomCost(rng, n, m, rep%2 == 1)
		want := lpAssign(t, c)
		rowToCol, total, err := Assign(c, false)
		if err != nil {
			t.Fatal(err)
		}
		checkAssignment(t, "lp", c, rowToCol, total)
		if math.Abs(total-want) > 1e-8 {
			t.Fatalf("%d×%d: total %v, simplex %v", n, m, total, want)
		}
		// Maximizing c is minimizing -c; and the transpose has the same optimum.
		var neg, tr mat.Dense
		neg.Scale(-1, c)
		_, maxTotal, err := Assign(c, true)
		if err != nil {
			t.Fatal(err)
		}
		if w := -lpAssign(t, &neg); math.Abs(maxTotal-w) > 1e-8 {
			t.Fatalf("max %d×%d: total %v, simplex %v", n, m, maxTotal, w)
		}
		tr.CloneFrom(c.T())
		_, trTotal, err := Assign(&tr, false)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(trTotal-want) > 1e-8 {
			t.Fatalf("transpose %d×%d: total %v, want %v", m, n, trTotal, want)
		}
	}
}

// lsapFixture is testdata/lsap.json, written by testdata/gen_lsap.py.
type lsapFixture struct {
	Scipy string `json:"scipy"`
	Cases []struct {
		Name     string  `json:"name"`
		Cost     [][]any `json:"cost"`
		Maximize bool    `json:"maximize"`
		RowToCol []int   `json:"row_to_col"`
		Total    float64 `json:"total"`
		Error    string  `json:"error"`
	} `json:"cases"`
}

func TestAssignScipy(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "lsap.json"))
	if err != nil {
		t.Fatal(err)
	}
	var fx lsapFixture
	if err := json.Unmarshal(raw, &fx); err != nil {
		t.Fatal(err)
	}
	sameAssignment, feasible := 0, 0
	for _, tc := range fx.Cases {
		n, m := len(tc.Cost), len(tc.Cost[0])
		c := mat.NewDense(n, m, nil)
		for i, row := range tc.Cost {
			for j, v := range row {
				switch v := v.(type) {
				case float64:
					c.Set(i, j, v)
				case string:
					c.Set(i, j, map[string]float64{"+Inf": math.Inf(1), "-Inf": math.Inf(-1)}[v])
				}
			}
		}
		rowToCol, total, err := Assign(c, tc.Maximize)
		if tc.Error != "" {
			if !errors.Is(err, ErrInfeasible) {
				t.Errorf("%s: scipy says %q, we return %v", tc.Name, tc.Error, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.Name, err)
			continue
		}
		feasible++
		checkAssignment(t, tc.Name, c, rowToCol, total)
		if math.Abs(total-tc.Total) > 1e-9 {
			t.Errorf("%s: total %v, scipy %v", tc.Name, total, tc.Total)
		}
		same := true
		for i := range rowToCol {
			same = same && rowToCol[i] == tc.RowToCol[i]
		}
		if same {
			sameAssignment++
		} else {
			t.Logf("%s: optimal but different from scipy's assignment (ties)", tc.Name)
		}
	}
	t.Logf("scipy %s: %d cases, %d feasible, %d identical assignments", fx.Scipy, len(fx.Cases), feasible, sameAssignment)
	// The algorithm, its column order and its tie-breaking are scipy's, so
	// even the cases with many tied optima (integer costs 0..3) agree.
	if sameAssignment != feasible {
		t.Errorf("only %d of %d assignments identical to scipy's", sameAssignment, feasible)
	}
}

func TestAssignErrorsAndEdges(t *testing.T) {
	rowToCol, total, err := Assign(nil, false)
	if err != nil || len(rowToCol) != 0 || total != 0 {
		t.Fatalf("nil: %v %v %v", rowToCol, total, err)
	}
	if _, _, err := Assign(&mat.Dense{}, true); err != nil {
		t.Fatalf("empty: %v", err)
	}
	c := mat.NewDense(2, 2, []float64{1, math.NaN(), 3, 4})
	if _, _, err := Assign(c, false); err == nil {
		t.Fatal("NaN accepted")
	}
	c = mat.NewDense(2, 2, []float64{1, math.Inf(-1), 3, 4})
	if _, _, err := Assign(c, false); err == nil || errors.Is(err, ErrInfeasible) {
		t.Fatalf("-Inf when minimizing: %v", err)
	}
	c = mat.NewDense(2, 2, []float64{1, math.Inf(1), 3, 4})
	if _, _, err := Assign(c, true); err == nil {
		t.Fatal("+Inf accepted when maximizing")
	}
	// +Inf when maximizing is unbounded, but -Inf is merely forbidden:
	// [[1 -Inf] [3 4]] → only the diagonal is allowed.
	c = mat.NewDense(2, 2, []float64{1, math.Inf(-1), 3, 4})
	rowToCol, total, err = Assign(c, true)
	if err != nil || rowToCol[0] != 0 || rowToCol[1] != 1 || total != 5 {
		t.Fatalf("forbidden -Inf maximizing: %v %v %v", rowToCol, total, err)
	}
	// Hand-checked 3×2 (more rows than columns): the best pairs are
	// row 1 → col 0 (1) and row 2 → col 1 (2): total 3; row 0 unmatched.
	c = mat.NewDense(3, 2, []float64{
		5, 9,
		1, 7,
		4, 2,
	})
	rowToCol, total, err = Assign(c, false)
	if err != nil || rowToCol[0] != -1 || rowToCol[1] != 0 || rowToCol[2] != 1 || total != 3 {
		t.Fatalf("3×2: %v %v %v", rowToCol, total, err)
	}
	// Maximizing the same: row 0 → col 1 (9) and row 2 → col 0 (4) = 13
	// beats row 0 → col 0 + row 1 → col 1 (5+7 = 12).
	rowToCol, total, err = Assign(c, true)
	if err != nil || rowToCol[0] != 1 || rowToCol[1] != -1 || rowToCol[2] != 0 || total != 13 {
		t.Fatalf("3×2 max: %v %v %v", rowToCol, total, err)
	}
}

func BenchmarkAssign(b *testing.B) {
	for _, n := range []int{50, 200, 500} {
		rng := rand.New(rand.NewPCG(7, uint64(n)))
		c := randomCost(rng, n, n, false)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := Assign(c, false); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
