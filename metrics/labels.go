package metrics

// LabelSets turns single labels (one index per document, -1 for none) into
// the label sets that the multi-label functions take: {l} for label l and
// nil for -1 (any negative label).
func LabelSets(labels []int) [][]int {
	out := make([][]int, len(labels))
	for d, l := range labels {
		if l >= 0 {
			out[d] = []int{l}
		}
	}
	return out
}
