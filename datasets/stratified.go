package datasets

import (
	"fmt"
	"slices"
	"sort"

	"github.com/semitopic/semitopic/internal/rng"
)

// TrainTest is a division of documents into a training and a test set.
type TrainTest struct {
	// Train and Test are document indices in increasing order.
	Train, Test []int
	// Missing lists the labels that could not be put in both sets (a label
	// with a single document is in the training set only).
	Missing []int
}

// StratifiedSplit divides multi-label documents (labels[i] lists document
// i's label indices in [0, numLabels), none twice) into a training set of
// about trainFrac of them and a test set, such that every label with at
// least two documents appears in both sets and each label's documents are
// divided in about the same proportion. It is the split of the
// theme-supervised NMF thesis.
//
// It first reserves, label by label from the rarest, one document for the
// training set and one for the test set wherever a set still lacks the
// label (the guarantee of the thesis code's split_train_test_forced), then
// assigns the rest by iterative stratification (Sechidis, Tsoumakas and
// Vlahavas, "On the stratification of multi-label data", 2011; the
// reference code's stratify): the rarest remaining label's documents go,
// one by one, to the set that most lacks that label, ties to the set that
// most lacks documents, then at random. Documents without labels are
// divided at random in the same proportion. The seed fixes every choice.
func StratifiedSplit(labels [][]int, numLabels int, trainFrac float64, seed uint64) (*TrainTest, error) {
	if !(trainFrac > 0 && trainFrac < 1) {
		return nil, fmt.Errorf("datasets: training fraction %v is not in (0, 1)", trainFrac)
	}
	if numLabels < 1 {
		return nil, fmt.Errorf("datasets: %d labels", numLabels)
	}
	for i, ls := range labels {
		for a, t := range ls {
			if t < 0 || t >= numLabels {
				return nil, fmt.Errorf("datasets: document %d has label %d, out of range [0,%d)", i, t, numLabels)
			}
			if slices.Contains(ls[:a], t) {
				return nil, fmt.Errorf("datasets: document %d lists label %d twice", i, t)
			}
		}
	}
	n := len(labels)
	if n < 2 {
		return nil, fmt.Errorf("datasets: cannot split %d documents into two sets", n)
	}
	r := rng.New(seed, 0, 0x73706c6974) // "split"
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	r.Shuffle(order)
	ratios := [2]float64{trainFrac, 1 - trainFrac}

	set := make([]int, n) // -1 unassigned, 0 train, 1 test
	for i := range set {
		set[i] = -1
	}
	count := make([]int, numLabels)
	for _, ls := range labels {
		for _, j := range ls {
			count[j]++
		}
	}
	// have[s][j]: documents of label j in set s; size[s]: documents in s.
	var have [2][]int
	have[0], have[1] = make([]int, numLabels), make([]int, numLabels)
	var size [2]int
	assign := func(i, s int) {
		set[i] = s
		size[s]++
		for _, j := range labels[i] {
			have[s][j]++
		}
	}
	// 1. Reserve documents so that both sets hold every label.
	byRarity := make([]int, numLabels)
	for j := range byRarity {
		byRarity[j] = j
	}
	sort.SliceStable(byRarity, func(a, b int) bool { return count[byRarity[a]] < count[byRarity[b]] })
	var missing []int
	for _, j := range byRarity {
		if count[j] == 0 {
			continue
		}
		for s := 0; s < 2; s++ {
			if have[s][j] > 0 {
				continue
			}
			found := false
			for _, i := range order {
				if set[i] >= 0 || !slices.Contains(labels[i], j) {
					continue
				}
				assign(i, s)
				found = true
				break
			}
			if !found {
				missing = append(missing, j)
			}
		}
	}
	// 2. Iterative stratification of the rest.
	var want [2][]float64
	var wantSize [2]float64
	for s := 0; s < 2; s++ {
		want[s] = make([]float64, numLabels)
		for j := range want[s] {
			want[s][j] = ratios[s]*float64(count[j]) - float64(have[s][j])
		}
		wantSize[s] = ratios[s]*float64(n) - float64(size[s])
	}
	remaining := make([]int, numLabels) // unassigned documents per label
	for i, ls := range labels {
		if set[i] < 0 {
			for _, j := range ls {
				remaining[j]++
			}
		}
	}
	place := func(i, s int) {
		assign(i, s)
		wantSize[s]--
		for _, j := range labels[i] {
			want[s][j]--
			remaining[j]--
		}
	}
	for {
		label := -1
		for j := 0; j < numLabels; j++ {
			if remaining[j] > 0 && (label < 0 || remaining[j] < remaining[label]) {
				label = j
			}
		}
		if label < 0 {
			break
		}
		for _, i := range order {
			if set[i] >= 0 || !slices.Contains(labels[i], label) {
				continue
			}
			var s int
			switch {
			case want[0][label] > want[1][label]:
				s = 0
			case want[1][label] > want[0][label]:
				s = 1
			case wantSize[0] > wantSize[1]:
				s = 0
			case wantSize[1] > wantSize[0]:
				s = 1
			default:
				s = r.Intn(2)
			}
			place(i, s)
		}
	}
	// 3. Documents without labels.
	for _, i := range order {
		if set[i] >= 0 {
			continue
		}
		s := 1
		if wantSize[0] > wantSize[1] || (wantSize[0] == wantSize[1] && r.Float64() < trainFrac) {
			s = 0
		}
		place(i, s)
	}
	out := &TrainTest{}
	for i, s := range set {
		if s == 0 {
			out.Train = append(out.Train, i)
		} else {
			out.Test = append(out.Test, i)
		}
	}
	sort.Ints(missing)
	out.Missing = slices.Compact(missing)
	if len(out.Train) == 0 || len(out.Test) == 0 {
		return nil, fmt.Errorf("datasets: split of %d documents at %.3g left a set empty", n, trainFrac)
	}
	return out, nil
}
