package corex

import (
	"fmt"
	"math"
	"slices"
)

// Held holds one training document to topics (Config.Hold): a document a
// person labeled, whose label's topics must hold it and whose other
// labels' topics must not.
type Held struct {
	// Doc is the document's row in the fitted matrix.
	Doc int
	// In are the topics the document is in: its p(y_j = 1 | x) is
	// 1 − 1e-6 (the clip bound) at every iteration. Out are the topics it
	// is not in: 1e-6. A topic in neither is read from the document's
	// words as for any other document.
	In, Out []int
}

// hold is Config.Hold checked against the fit's shape, with the held
// topics marked.
type hold struct {
	docs  []Held
	topic []bool // topics that some document is held in or out of
}

// newHold checks hs against n documents and k topics; nil when hs is
// empty.
func newHold(hs []Held, n, k int) (*hold, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	h := &hold{docs: hs, topic: make([]bool, k)}
	seen := make(map[int]bool, len(hs))
	for i, d := range hs {
		if d.Doc < 0 || d.Doc >= n {
			return nil, fmt.Errorf("corex: Hold[%d]: document %d of %d", i, d.Doc, n)
		}
		if seen[d.Doc] {
			return nil, fmt.Errorf("corex: Hold[%d]: document %d is held twice", i, d.Doc)
		}
		seen[d.Doc] = true
		for _, j := range append(slices.Clip(d.In), d.Out...) {
			if j < 0 || j >= k {
				return nil, fmt.Errorf("corex: Hold[%d] (document %d): topic %d of %d", i, d.Doc, j, k)
			}
			h.topic[j] = true
		}
		for _, j := range d.In {
			if slices.Contains(d.Out, j) {
				return nil, fmt.Errorf("corex: Hold[%d] (document %d): topic %d is both in and out", i, d.Doc, j)
			}
		}
	}
	return h, nil
}

// apply sets the held documents' p(y|x) (and log p) in s and corrects the
// column sums of p to match.
func (h *hold) apply(s *fitState) {
	if h == nil {
		return
	}
	set := func(l, j int, v, lv float64) {
		s.psum[j] += v - s.p.At(l, j)
		s.p.Set(l, j, v)
		if s.logP != nil {
			s.logP.Set(l, j, lv)
		}
	}
	lin, lout := log1mp(pClip), math.Log(pClip)
	for _, d := range h.docs {
		for _, j := range d.In {
			set(d.Doc, j, 1-pClip, lin)
		}
		for _, j := range d.Out {
			set(d.Doc, j, pClip, lout)
		}
	}
}

// keep clears the flips of the held topics: turning y_j into 1 − y_j
// would turn the documents held in topic j out of it.
func (h *hold) keep(flip []bool) {
	if h == nil {
		return
	}
	for j, held := range h.topic {
		if held {
			flip[j] = false
		}
	}
}
