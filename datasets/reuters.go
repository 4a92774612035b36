package datasets

import (
	"sort"

	"github.com/semitopic/semitopic/corpus"
)

// ReutersTopCategories keeps the documents of a Reuters corpus (either
// reader) that have exactly one category among the k categories most
// frequent in the training documents, labeled with that one alone: the
// single-label Reuters subset of the label-efficiency benchmark. Ties in
// frequency go to the alphabetically smaller category. The result keeps
// the documents' order and split.
func ReutersTopCategories(c *corpus.Corpus, k int) *corpus.Corpus {
	count := map[string]int{}
	for _, d := range c.Docs {
		if d.Split == corpus.SplitTrain {
			for _, l := range d.Labels {
				count[l]++
			}
		}
	}
	names := make([]string, 0, len(count))
	for l := range count {
		names = append(names, l)
	}
	sort.Slice(names, func(a, b int) bool {
		if count[names[a]] != count[names[b]] {
			return count[names[a]] > count[names[b]]
		}
		return names[a] < names[b]
	})
	top := map[string]bool{}
	for _, l := range names[:min(k, len(names))] {
		top[l] = true
	}
	out := &corpus.Corpus{Name: c.Name, Notes: c.Notes}
	for _, d := range c.Docs {
		var in []string
		for _, l := range d.Labels {
			if top[l] {
				in = append(in, l)
			}
		}
		if len(in) == 1 {
			d.Labels = in
			out.Docs = append(out.Docs, d)
		}
	}
	return out
}
