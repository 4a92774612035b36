package metrics_test

import (
	"fmt"

	"github.com/semitopic/semitopic/metrics"
)

func ExampleAdjustedRandIndex() {
	// Six documents in three classes, and two clusterings of them.
	classes := []int{0, 0, 1, 1, 2, 2}
	renamed := []int{5, 5, 3, 3, 9, 9} // the same partition, other names
	merged := []int{0, 0, 0, 0, 1, 1}  // classes 0 and 1 merged
	for _, pred := range [][]int{renamed, merged} {
		ari, err := metrics.AdjustedRandIndex(classes, pred)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%v: ARI %.4f\n", pred, ari)
	}
	// Pairs joined by one labeling and split by the other pull the index
	// below 0 when they outnumber what chance predicts.
	ari, _ := metrics.AdjustedRandIndex([]int{0, 0, 1, 1}, []int{0, 1, 0, 1})
	fmt.Printf("crossed: ARI %.4f\n", ari)
	// Output:
	// [5 5 3 3 9 9]: ARI 1.0000
	// [0 0 0 0 1 1]: ARI 0.4444
	// crossed: ARI -0.5000
}
