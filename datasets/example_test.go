package datasets_test

import (
	"context"
	"fmt"
	"log"
	"path/filepath"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
)

func ExampleBalancedSplit() {
	// Ten documents of class 0, six of class 1, and one left out (−1).
	class := []int{0, 1, 0, 0, 1, 0, 0, -1, 1, 0, 0, 1, 0, 1, 0, 0, 1}
	s, err := datasets.BalancedSplit(class, 2, datasets.SplitOptions{Seed: 7, TestFraction: 0.2, ValFraction: 0.25})
	if err != nil {
		log.Fatal(err)
	}
	// Both classes are cut to 6 documents: per class ceil(0.2·6) = 2 test,
	// ceil(0.25·4) = 1 validation and 3 training documents.
	fmt.Println("per class:", s.PerClass)
	fmt.Println("train, val, test:", len(s.Train), len(s.Val), len(s.Test))
	// Output:
	// per class: 6
	// train, val, test: 6 2 4
}

// The SSNMF paper's protocol on a few made-up messages; SSNMF20News does
// the same on the real 20 Newsgroups.
func ExampleSSNMF20NewsFromDocs() {
	var docs []corpus.Document
	for _, c := range datasets.SSNMF20NewsClasses() {
		for _, g := range c.Groups {
			for i := 0; i < 10; i++ {
				docs = append(docs, corpus.Document{
					ID:     fmt.Sprintf("%s/%d", g, i),
					Text:   fmt.Sprintf("A message about %s posted to the %s group, number %d.", c.Name, g, i),
					Labels: []string{g},
				})
			}
		}
	}
	ds, err := datasets.SSNMF20NewsFromDocs(context.Background(), docs, datasets.SSNMF20NewsOptions{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("classes:", ds.ClassNames)
	fmt.Println("documents per class:", ds.PerClass)
	fmt.Println("train, val, test:", ds.Train.Len(), ds.Val.Len(), ds.Test.Len())
	fmt.Println("first training document:", ds.Train.IDs[0], "subgroup", ds.SubgroupNames[ds.Train.Subgroup[0]])
	// Output:
	// classes: [Computers Sciences Politics Religion Recreation]
	// documents per class: 20
	// train, val, test: 60 20 20
	// first training document: comp.graphics/3 subgroup comp.graphics
}

// Building the dataset from the shared corpus. (Not run by go test: it
// needs the real data; TestSSNMF20NewsRealData checks it.)
func ExampleSSNMF20News() {
	dir, err := datadir.Find()
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "20news-bydate", "20news-bydate.tar.gz")
	ds, err := datasets.SSNMF20News(context.Background(), path, datasets.SSNMF20NewsOptions{Seed: 1})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(ds.PerClass, ds.Train.X.Rows, ds.Val.X.Rows, ds.Test.X.Rows, len(ds.Vocab))
	// With the distribution this prints 1796 5385 1795 1800 5000.
}

// A multi-label split in which every label is in both sets.
func ExampleStratifiedSplit() {
	labels := [][]int{{0}, {0}, {0}, {0}, {1}, {1}, {1, 0}, {2}, {2}, {2}}
	sp, err := datasets.StratifiedSplit(labels, 3, 0.5, 1)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(sp.Train), len(sp.Test), len(sp.Missing))
	// Output: 5 5 0
}
