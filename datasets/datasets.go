package datasets

import (
	"fmt"
	"math"
	"slices"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

// Dataset is a labeled corpus split for a classification or clustering
// experiment.
type Dataset struct {
	// Name says which protocol built the dataset.
	Name string
	// ClassNames names the classes 0..len-1 of Part.Class.
	ClassNames []string
	// SubgroupNames names the finer labels 0..len-1 of Part.Subgroup (for
	// 20 Newsgroups, the newsgroups), and SubgroupClass gives the class of
	// each.
	SubgroupNames []string
	SubgroupClass []int
	// Train, Val and Test are the three splits.
	Train, Val, Test Part
	// Vocab is the term of each column of the matrices.
	Vocab []string
	// Vectorizer is the vectorizer fitted on Train; it transforms new
	// documents into rows comparable with the splits'.
	Vectorizer *vectorize.Vectorizer
	// PerClass is the number of documents of every class after balancing
	// (over all three splits).
	PerClass int
	// Seed is the seed the dataset was drawn with.
	Seed uint64
}

// Part is one split of a Dataset. Row i of X is document Docs[i].
type Part struct {
	// X is the documents × terms matrix.
	X *sparse.CSR
	// Class and Subgroup are the labels of each row.
	Class, Subgroup []int
	// IDs are the documents' IDs in the source corpus.
	IDs []string
	// Docs are the documents themselves (sharing their text with the
	// corpus that was read).
	Docs []corpus.Document
}

// Len returns the number of documents of p.
func (p *Part) Len() int { return len(p.Docs) }

// SplitOptions configures BalancedSplit.
type SplitOptions struct {
	// Seed seeds the sampler.
	Seed uint64
	// TestFraction of each class's balanced documents goes to the test
	// set, rounded up as scikit-learn's train_test_split does (ceil of the
	// fraction times the count).
	TestFraction float64
	// ValFraction of each class's remaining documents goes to the
	// validation set, rounded up the same way; the rest is training.
	ValFraction float64
	// NoBalance keeps every document of every class instead of subsampling
	// each class to the size of the smallest.
	NoBalance bool
}

// Splits holds the document indices of the three splits, class by class
// (every document of class 0 first, then class 1, …) and in increasing
// index order within a class.
type Splits struct {
	Train, Val, Test []int
	// PerClass is the number of documents kept per class (when balanced).
	PerClass int
}

// BalancedSplit draws the stratified splits of the SSNMF paper's protocol
// from the class of each document (class[i] in 0..classes-1, or −1 for a
// document that takes no part). Each class is first subsampled without
// replacement to the size of the smallest class (unless NoBalance is set);
// then, per class, ceil(TestFraction·n) documents form the test set and,
// of the remaining m, ceil(ValFraction·m) the validation set; the others
// are the training set. With TestFraction 0.2 and ValFraction 0.25 this is
// the paper's 60/20/20 split.
//
// Each class uses its own random stream of the seed (a Fisher–Yates
// shuffle of its documents), so a class's draw does not depend on the
// sizes of the others. It returns an error for a class without documents,
// a class number out of range or fractions outside [0, 1).
func BalancedSplit(class []int, classes int, o SplitOptions) (Splits, error) {
	if classes < 1 {
		return Splits{}, fmt.Errorf("datasets: %d classes", classes)
	}
	for _, f := range []float64{o.TestFraction, o.ValFraction} {
		if !(f >= 0 && f < 1) {
			return Splits{}, fmt.Errorf("datasets: split fraction %g, want a value in [0, 1)", f)
		}
	}
	members := make([][]int, classes)
	for i, c := range class {
		if c < -1 || c >= classes {
			return Splits{}, fmt.Errorf("datasets: document %d has class %d, want 0..%d or -1", i, c, classes-1)
		}
		if c >= 0 {
			members[c] = append(members[c], i)
		}
	}
	n := math.MaxInt
	for c, m := range members {
		if len(m) == 0 {
			return Splits{}, fmt.Errorf("datasets: class %d has no documents", c)
		}
		n = min(n, len(m))
	}
	var s Splits
	if !o.NoBalance {
		s.PerClass = n
	}
	for c, m := range members {
		r := rng.New(o.Seed, uint64(c), 0xd1b54a32d192ed03)
		m = slices.Clone(m)
		r.Shuffle(m)
		if !o.NoBalance {
			m = m[:n]
		}
		nTest := int(math.Ceil(o.TestFraction * float64(len(m))))
		rest := len(m) - nTest
		nVal := int(math.Ceil(o.ValFraction * float64(rest)))
		test, val, train := m[:nTest], m[nTest:nTest+nVal], m[nTest+nVal:]
		for _, part := range [][]int{test, val, train} {
			slices.Sort(part)
		}
		s.Test = append(s.Test, test...)
		s.Val = append(s.Val, val...)
		s.Train = append(s.Train, train...)
	}
	return s, nil
}
