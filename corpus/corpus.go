package corpus

import (
	"errors"
	"fmt"

	"github.com/semitopic/semitopic/sparse"
)

// Split says which part of a corpus's standard split a document belongs to.
type Split uint8

// The splits. SplitNone is for corpora without a standard split.
const (
	SplitNone Split = iota
	SplitTrain
	SplitTest
)

// String returns "", "train" or "test".
func (s Split) String() string {
	switch s {
	case SplitTrain:
		return "train"
	case SplitTest:
		return "test"
	case SplitNone:
		return ""
	}
	return fmt.Sprintf("Split(%d)", uint8(s))
}

// ParseSplit parses "train"/"training", "test"/"testing" or "" (none),
// ignoring case.
func ParseSplit(s string) (Split, error) {
	switch lower(s) {
	case "", "none":
		return SplitNone, nil
	case "train", "training":
		return SplitTrain, nil
	case "test", "testing":
		return SplitTest, nil
	}
	return SplitNone, fmt.Errorf("unknown split %q (want train, test or empty)", s)
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Document is one text of a corpus.
type Document struct {
	// ID identifies the document within its corpus (for file-based corpora,
	// its path relative to the corpus root).
	ID string
	// Text is the document's text, decoded to UTF-8. It is empty for
	// documents of an already-vectorized corpus.
	Text string
	// Labels are the document's labels; nil or empty means unlabeled.
	Labels []string
	// Split is the document's part of the corpus's standard split, if any.
	Split Split
}

// Labeled reports whether d has at least one label.
func (d *Document) Labeled() bool { return len(d.Labels) > 0 }

// Matrix is an already-vectorized corpus: a documents × terms matrix and the
// term of each column.
type Matrix struct {
	X     *sparse.CSR
	Vocab []string
}

// Corpus is what a Reader returns.
type Corpus struct {
	// Name is a short description of the source ("reuters-nltk: path").
	Name string
	// Docs holds one entry per document, in the reader's documented order.
	Docs []Document
	// Matrix is non-nil for already-vectorized formats; row i belongs to
	// Docs[i], whose Text is empty.
	Matrix *Matrix
	// Notes records what a user may want to know about the read, such as
	// files decoded as Latin-1 or records skipped by an option. Readers never
	// drop input silently: anything left out is counted here.
	Notes []string
}

// Labels returns the distinct labels of c in sorted order with the number of
// documents carrying each.
func (c *Corpus) Labels() (names []string, counts []int) {
	count := map[string]int{}
	for i := range c.Docs {
		for _, l := range c.Docs[i].Labels {
			count[l]++
		}
	}
	names = sortedKeys(count)
	counts = make([]int, len(names))
	for i, n := range names {
		counts[i] = count[n]
	}
	return names, counts
}

// Subset returns a corpus holding the documents of c with the given split.
// The documents share their text and labels with c.
func (c *Corpus) Subset(s Split) *Corpus {
	out := &Corpus{Name: c.Name + " [" + s.String() + "]", Notes: c.Notes}
	var rows []int
	for i := range c.Docs {
		if c.Docs[i].Split == s {
			out.Docs = append(out.Docs, c.Docs[i])
			rows = append(rows, i)
		}
	}
	if c.Matrix != nil {
		out.Matrix = &Matrix{X: c.Matrix.X.SelectRows(rows), Vocab: c.Matrix.Vocab}
	}
	return out
}

// HasSplit reports whether some document of c has a train/test split.
func (c *Corpus) HasSplit() bool {
	for i := range c.Docs {
		if c.Docs[i].Split != SplitNone {
			return true
		}
	}
	return false
}

// ErrNoSplit is wrapped by the error of Select, and of the readers that
// select a split as they go, when a split is asked of a corpus in which no
// document has one.
var ErrNoSplit = errors.New("no train/test split")

// Select returns the documents of c with split s, as Subset does, or c
// itself for SplitNone. Where Subset would quietly return an empty corpus,
// Select refuses: a split asked of a corpus in which no document has one
// (the error wraps ErrNoSplit), and a corpus, or a split of it, without
// documents. name names the corpus in the errors, such as the path it was
// read from.
func (c *Corpus) Select(s Split, name string) (*Corpus, error) {
	if s != SplitNone {
		if !c.HasSplit() {
			return nil, fmt.Errorf("%s has %w", name, ErrNoSplit)
		}
		c = c.Subset(s)
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("%s: no documents", name)
	}
	return c, nil
}

// DocLabels returns each document's labels (nil for an unlabeled
// document), in the order of docs; the lists are the documents' own.
func DocLabels(docs []Document) [][]string {
	out := make([][]string, len(docs))
	for i := range docs {
		out[i] = docs[i].Labels
	}
	return out
}

// LabelIndex numbers the distinct labels of docs in sorted order and
// returns the names and, for each document, the indices of its labels (nil
// for an unlabeled document). Repeated labels of a document count once.
func LabelIndex(docs []Document) (names []string, idx [][]int) {
	set := map[string]int{}
	for i := range docs {
		for _, l := range docs[i].Labels {
			set[l] = 0
		}
	}
	names = sortedKeys(set)
	for k, n := range names {
		set[n] = k
	}
	idx = make([][]int, len(docs))
	for i := range docs {
		for _, l := range docs[i].Labels {
			k := set[l]
			dup := false
			for _, x := range idx[i] {
				dup = dup || x == k
			}
			if !dup {
				idx[i] = append(idx[i], k)
			}
		}
	}
	return names, idx
}
