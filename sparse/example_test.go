package sparse_test

import (
	"fmt"
	"log"
	"math"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

func ExampleFromTriplets() {
	// Two documents over a three-term vocabulary; the repeated entry is summed.
	m, err := sparse.FromTriplets(2, 3, []sparse.Triplet{
		{Row: 0, Col: 2, Val: 1},
		{Row: 1, Col: 0, Val: 4},
		{Row: 0, Col: 2, Val: 2},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.NNZ(), m.At(0, 2), m.ColNNZ())
	// Output: 2 3 [1 0 1]
}

func ExampleReadMatrixMarket() {
	in := `%%MatrixMarket matrix coordinate integer general
% documents × terms counts
2 3 3
1 1 2
1 3 1
2 2 5
`
	m, err := sparse.ReadMatrixMarket(strings.NewReader(in))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Rows, m.Cols, m.RowSums())
	if err := sparse.WriteMatrixMarket(os.Stdout, m); err != nil {
		log.Fatal(err)
	}

	_, err = sparse.ReadMatrixMarket(strings.NewReader("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 3 0.5\n"))
	fmt.Println(err)
	// Output:
	// 2 3 [3 5]
	// %%MatrixMarket matrix coordinate real general
	// 2 3 3
	// 1 1 2
	// 1 3 1
	// 2 2 5
	// sparse: MatrixMarket line 3: column 3 out of range 1..2
}

func ExampleCSR_Apply() {
	m, _ := sparse.FromTriplets(1, 3, []sparse.Triplet{{0, 0, 1}, {0, 2, math.E}})
	// Sublinear term frequency, 1 + ln(tf).
	if err := m.Apply(func(v float64) float64 { return 1 + math.Log(v) }); err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Data)
	// Output: [1 2]
}

func ExampleSampledDot() {
	// X is 2×3 with three stored entries; W is 2×1 and H is 1×3.
	x, _ := sparse.FromTriplets(2, 3, []sparse.Triplet{{0, 0, 1}, {0, 2, 1}, {1, 1, 1}})
	w := mat.NewDense(2, 1, []float64{2, 3})
	ht := mat.NewDense(3, 1, []float64{10, 20, 30}) // Hᵀ
	wh := make([]float64, x.NNZ())
	if err := sparse.SampledDot(wh, x, w, ht); err != nil {
		log.Fatal(err)
	}
	fmt.Println(wh) // (WH)[0,0], (WH)[0,2], (WH)[1,1]
	// Output: [20 60 60]
}

func ExampleMulDense() {
	a, _ := sparse.FromTriplets(2, 3, []sparse.Triplet{{0, 0, 1}, {1, 2, 2}})
	b := mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6})
	var c mat.Dense // empty: allocated with the right shape
	if err := sparse.MulDense(&c, a, b); err != nil {
		log.Fatal(err)
	}
	fmt.Println(mat.Formatted(&c))
	// Output:
	// ⎡ 1   2⎤
	// ⎣10  12⎦
}
