package datasets

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/text"
	"github.com/semitopic/semitopic/vectorize"
)

func TestBalancedSplitSizes(t *testing.T) {
	// Classes of 2,000, 1,796 and 2,500 documents, and 30 documents of no
	// class, interleaved.
	var class []int
	for i := 0; i < 2000+1796+2500+30; i++ {
		switch {
		case i%4 == 3 && i < 120:
			class = append(class, -1)
		default:
			class = append(class, i%3)
		}
	}
	counts := make([]int, 3)
	for _, c := range class {
		if c >= 0 {
			counts[c]++
		}
	}
	s, err := BalancedSplit(class, 3, SplitOptions{Seed: 1, TestFraction: 0.2, ValFraction: 0.25})
	if err != nil {
		t.Fatal(err)
	}
	n := slices.Min(counts)
	if s.PerClass != n {
		t.Errorf("PerClass = %d, want %d", s.PerClass, n)
	}
	// scikit-learn: n_test = ceil(0.2·n), n_val = ceil(0.25·(n − n_test)).
	wantTest := (n*2 + 9) / 10
	wantVal := (n - wantTest + 3) / 4
	wantTrain := n - wantTest - wantVal
	checkSplits(t, s, class, 3, wantTrain, wantVal, wantTest)
}

func checkSplits(t *testing.T, s Splits, class []int, classes, train, val, test int) {
	t.Helper()
	seen := map[int]string{}
	for _, p := range []struct {
		name string
		idx  []int
		want int
	}{{"train", s.Train, train}, {"val", s.Val, val}, {"test", s.Test, test}} {
		per := make([]int, classes)
		last := -1
		for k, i := range p.idx {
			if prev, dup := seen[i]; dup {
				t.Fatalf("document %d is in %s and %s", i, prev, p.name)
			}
			seen[i] = p.name
			c := class[i]
			if c < 0 {
				t.Fatalf("document %d of no class in %s", i, p.name)
			}
			if k > 0 && (c < class[last] || (c == class[last] && i < last)) {
				t.Fatalf("%s: document %d (class %d) after %d (class %d): not class by class in index order", p.name, i, c, last, class[last])
			}
			last = i
			per[c]++
		}
		for c, n := range per {
			if n != p.want {
				t.Errorf("%s: class %d has %d documents, want %d", p.name, c, n, p.want)
			}
		}
	}
}

func TestBalancedSplitRounding(t *testing.T) {
	// train_test_split rounds the test size up from the float product:
	// 0.2·1795 = 359 exactly, 0.2·1796 = 359.2 → 360.
	for _, tc := range []struct{ n, train, val, test int }{
		{1795, 1077, 359, 359},
		{1796, 1077, 359, 360},
		{10, 6, 2, 2},
		{7, 3, 2, 2},
		{1, 0, 0, 1},
	} {
		class := make([]int, 2*tc.n)
		for i := range class {
			class[i] = i % 2
		}
		s, err := BalancedSplit(class, 2, SplitOptions{Seed: 9, TestFraction: 0.2, ValFraction: 0.25})
		if err != nil {
			t.Fatal(err)
		}
		checkSplits(t, s, class, 2, tc.train, tc.val, tc.test)
	}
}

func TestBalancedSplitSeed(t *testing.T) {
	// Class 2 (every fifth document) is the smallest.
	class := make([]int, 900)
	for i := range class {
		class[i] = i % 2
		if i%5 == 0 {
			class[i] = 2
		}
	}
	o := SplitOptions{Seed: 42, TestFraction: 0.2, ValFraction: 0.25}
	a, _ := BalancedSplit(class, 3, o)
	b, _ := BalancedSplit(class, 3, o)
	if !slices.Equal(a.Train, b.Train) || !slices.Equal(a.Val, b.Val) || !slices.Equal(a.Test, b.Test) {
		t.Error("the same seed gave different splits")
	}
	o.Seed = 43
	c, _ := BalancedSplit(class, 3, o)
	if slices.Equal(a.Test, c.Test) {
		t.Error("seeds 42 and 43 gave the same test set")
	}
	// Every class has its own stream: a class's draw does not depend on
	// documents of other classes.
	o.Seed = 42
	class2 := append(slices.Clone(class), 0, 1, 0) // more documents, but class 2 stays the smallest
	d, _ := BalancedSplit(class2, 3, o)
	var test2a, test2d []int
	for _, i := range a.Test {
		if class[i] == 2 {
			test2a = append(test2a, i)
		}
	}
	for _, i := range d.Test {
		if class2[i] == 2 {
			test2d = append(test2d, i)
		}
	}
	if !slices.Equal(test2a, test2d) {
		t.Error("adding documents of classes 0 and 1 changed the draw of class 2")
	}
	// Without balancing every document is used.
	o.NoBalance = true
	e, _ := BalancedSplit(class, 3, o)
	if got := len(e.Train) + len(e.Val) + len(e.Test); got != len(class) {
		t.Errorf("NoBalance uses %d of %d documents", got, len(class))
	}
}

func TestBalancedSplitErrors(t *testing.T) {
	for _, tc := range []struct {
		class   []int
		classes int
		o       SplitOptions
		want    string
	}{
		{[]int{0, 0, 1}, 3, SplitOptions{TestFraction: 0.2}, "class 2 has no documents"},
		{[]int{0, 3, 1}, 3, SplitOptions{}, "document 1 has class 3"},
		{[]int{0, -2, 1}, 2, SplitOptions{}, "document 1 has class -2"},
		{[]int{0, 1}, 2, SplitOptions{TestFraction: 1}, "fraction 1"},
		{[]int{0, 1}, 2, SplitOptions{ValFraction: -0.1}, "fraction -0.1"},
		{[]int{0, 1}, 0, SplitOptions{}, "0 classes"},
	} {
		if _, err := BalancedSplit(tc.class, tc.classes, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.class, err, tc.want)
		}
	}
}

// synthDocs returns per documents for every newsgroup of the SSNMF
// protocol, each mentioning its group's words, plus documents of an
// unrelated newsgroup.
func synthDocs(per int) []corpus.Document {
	var docs []corpus.Document
	for _, c := range SSNMF20NewsClasses() {
		for _, g := range c.Groups {
			w := strings.NewReplacer(".", " ").Replace(g)
			for i := 0; i < per; i++ {
				docs = append(docs, corpus.Document{
					ID:     fmt.Sprintf("%s/%d", g, i),
					Text:   fmt.Sprintf("The %s message %d talks about %s and %s, shared words, common words.", g, i, w, strings.ToLower(c.Name)),
					Labels: []string{g},
				})
			}
		}
	}
	for i := 0; i < 5; i++ {
		docs = append(docs, corpus.Document{ID: fmt.Sprintf("misc.forsale/%d", i), Text: "for sale", Labels: []string{"misc.forsale"}})
	}
	return docs
}

func TestSSNMF20NewsFromDocs(t *testing.T) {
	docs := synthDocs(10)
	ds, err := SSNMF20NewsFromDocs(context.Background(), docs, SSNMF20NewsOptions{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// Politics and Religion have 2 groups × 10 documents: 20 per class,
	// so 12 / 4 / 4.
	if ds.PerClass != 20 || ds.Train.Len() != 60 || ds.Val.Len() != 20 || ds.Test.Len() != 20 {
		t.Errorf("PerClass %d, splits %d/%d/%d, want 20 and 60/20/20", ds.PerClass, ds.Train.Len(), ds.Val.Len(), ds.Test.Len())
	}
	checkDataset(t, ds)

	bad := append(slices.Clone(docs), corpus.Document{ID: "x", Labels: []string{"a", "b"}})
	if _, err := SSNMF20NewsFromDocs(context.Background(), bad, SSNMF20NewsOptions{}); err == nil || !strings.Contains(err.Error(), "document x has 2 labels") {
		t.Errorf("two labels: %v", err)
	}
	if _, err := SSNMF20NewsFromDocs(context.Background(), docs[:30], SSNMF20NewsOptions{}); err == nil || !strings.Contains(err.Error(), "no documents") {
		t.Errorf("missing classes: %v", err)
	}
	pl, _ := vectorize.PipelinePreset("tsnmf")
	if _, err := SSNMF20NewsFromDocs(context.Background(), docs, SSNMF20NewsOptions{Pipeline: &pl}); err == nil || !strings.Contains(err.Error(), "drops short documents") {
		t.Errorf("dropping pipeline: %v", err)
	}
}

// checkDataset checks what every SSNMF 20 Newsgroups dataset satisfies.
func checkDataset(t *testing.T, ds *Dataset) {
	t.Helper()
	if len(ds.ClassNames) != 5 || len(ds.SubgroupNames) != 13 || len(ds.SubgroupClass) != 13 {
		t.Fatalf("%d classes, %d subgroups", len(ds.ClassNames), len(ds.SubgroupNames))
	}
	seen := map[string]string{}
	for _, p := range []struct {
		name string
		part *Part
	}{{"train", &ds.Train}, {"val", &ds.Val}, {"test", &ds.Test}} {
		d := p.part
		n := d.Len()
		if len(d.IDs) != n || len(d.Class) != n || len(d.Subgroup) != n || d.X.Rows != n {
			t.Fatalf("%s: %d docs, %d IDs, %d classes, %d subgroups, %d rows", p.name, n, len(d.IDs), len(d.Class), len(d.Subgroup), d.X.Rows)
		}
		if d.X.Cols != len(ds.Vocab) {
			t.Errorf("%s: %d columns for %d terms", p.name, d.X.Cols, len(ds.Vocab))
		}
		if err := d.X.Validate(); err != nil {
			t.Error(err)
		}
		per := make([]int, 5)
		for i := 0; i < n; i++ {
			if prev, dup := seen[d.IDs[i]]; dup {
				t.Fatalf("document %s is in %s and %s", d.IDs[i], prev, p.name)
			}
			seen[d.IDs[i]] = p.name
			g := d.Subgroup[i]
			if d.Docs[i].Labels[0] != ds.SubgroupNames[g] || ds.SubgroupClass[g] != d.Class[i] || d.IDs[i] != d.Docs[i].ID {
				t.Fatalf("%s row %d: document %s labeled %v has subgroup %d (%s), class %d", p.name, i, d.IDs[i], d.Docs[i].Labels, g, ds.SubgroupNames[g], d.Class[i])
			}
			per[d.Class[i]]++
		}
		for c := 1; c < 5; c++ {
			if per[c] != per[0] {
				t.Errorf("%s: class sizes %v differ", p.name, per)
				break
			}
		}
	}
	if got := ds.Train.Len() + ds.Val.Len() + ds.Test.Len(); got != 5*ds.PerClass {
		t.Errorf("%d documents, want 5 × %d", got, ds.PerClass)
	}
	// Every fitted term is a lower-case ASCII word that is not an NLTK
	// stopword.
	stop, _ := text.Stopwords("nltk")
	for _, w := range ds.Vocab {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") != "" || slices.Contains(stop, w) {
			t.Errorf("vocabulary term %q", w)
		}
	}
}

func sameMatrix(a, b *sparse.CSR) bool {
	return a.Rows == b.Rows && a.Cols == b.Cols && slices.Equal(a.Indptr, b.Indptr) &&
		slices.Equal(a.Indices, b.Indices) && slices.Equal(a.Data, b.Data)
}

func TestSSNMF20NewsRealData(t *testing.T) {
	if testing.Short() {
		t.Skip("reads all of 20 Newsgroups")
	}
	path := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	ctx := context.Background()
	docs, err := ReadSSNMF20News(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// Computers 2,924, Sciences 2,962, Politics 1,850, Religion 1,796,
	// Recreation 2,983.
	if len(docs) != 12515 {
		t.Errorf("read %d documents of the 13 groups, want 12,515", len(docs))
	}
	a, err := SSNMF20NewsFromDocs(ctx, docs, SSNMF20NewsOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Religion is the smallest class: alt.atheism 799 + soc.religion.christian 997.
	if a.PerClass != 1796 {
		t.Errorf("PerClass = %d, want 1,796", a.PerClass)
	}
	if a.Train.Len() != 5*1077 || a.Val.Len() != 5*359 || a.Test.Len() != 5*360 {
		t.Errorf("splits %d/%d/%d, want 5 × 1,077/359/360", a.Train.Len(), a.Val.Len(), a.Test.Len())
	}
	if len(a.Vocab) != 5000 {
		t.Errorf("%d terms, want 5,000", len(a.Vocab))
	}
	checkDataset(t, a)

	b, err := SSNMF20NewsFromDocs(ctx, docs, SSNMF20NewsOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Train.IDs, b.Train.IDs) || !slices.Equal(a.Test.IDs, b.Test.IDs) ||
		!sameMatrix(a.Train.X, b.Train.X) || !sameMatrix(a.Test.X, b.Test.X) || !slices.Equal(a.Vocab, b.Vocab) {
		t.Error("seed 1 gave two different datasets")
	}
	c, err := SSNMF20NewsFromDocs(ctx, docs, SSNMF20NewsOptions{Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a.Test.IDs, c.Test.IDs) {
		t.Error("seeds 1 and 2 gave the same test set")
	}
	checkDataset(t, c)
}

func TestReutersTopCategories(t *testing.T) {
	c := &corpus.Corpus{Docs: []corpus.Document{
		{ID: "a", Labels: []string{"earn"}, Split: corpus.SplitTrain},
		{ID: "b", Labels: []string{"earn", "acq"}, Split: corpus.SplitTrain},
		{ID: "c", Labels: []string{"acq", "rare"}, Split: corpus.SplitTrain},
		{ID: "d", Labels: []string{"rare"}, Split: corpus.SplitTest},
		{ID: "e", Labels: []string{"earn"}, Split: corpus.SplitTest},
		{ID: "f", Labels: []string{"grain"}, Split: corpus.SplitTrain},
	}}
	out := ReutersTopCategories(c, 2) // earn (2), acq (2)
	var got []string
	for _, d := range out.Docs {
		got = append(got, d.ID+":"+strings.Join(d.Labels, ","))
	}
	if want := "a:earn c:acq e:earn"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}
