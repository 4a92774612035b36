package main

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/synth"
)

// dataset is a labeled corpus with a training and a test part: the
// workbench is opened on the training documents (their labels are not
// given to it: the simulated person gives them), the test documents
// score the models.
type dataset struct {
	// name describes the corpus and how it was read, for the report.
	name string
	// source are the arguments of `semitopic fit` that read the training
	// documents (workbench.Config.Source).
	source []string
	train  *corpus.Corpus
	test   []corpus.Document
	// class is every document's true class (training and test), by ID;
	// classes lists the classes, sorted.
	class   map[string]string
	classes []string
	// byClass lists the training documents' IDs per class, in corpus
	// order.
	byClass map[string][]string
}

// newsgroupsPath is the 20 Newsgroups archive in the shared data folder.
const newsgroupsPath = "20news-bydate/20news-bydate.tar.gz"

// readNewsgroups reads 20 Newsgroups by date, headers, footers and quotes
// removed (as scikit-learn's remove=('headers', 'footers', 'quotes') and
// the label-efficiency benchmark read it): the training set is the
// workbench's corpus, the test set scores the models.
func readNewsgroups(ctx context.Context) (*dataset, error) {
	path, err := datadir.File(newsgroupsPath)
	if err != nil {
		return nil, err
	}
	c, err := corpus.Newsgroups{RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	d := &dataset{
		name:   "20 Newsgroups by date, headers, footers and quotes removed",
		source: []string{"--format", "20ng", path, "--subset", "train", "--remove", "headers,footers,quotes"},
		train:  c.Subset(corpus.SplitTrain),
		test:   c.Subset(corpus.SplitTest).Docs,
	}
	truth := func(doc corpus.Document) (string, error) {
		if len(doc.Labels) != 1 {
			return "", fmt.Errorf("%s: document %s has %d labels, want 1", newsgroupsPath, doc.ID, len(doc.Labels))
		}
		return doc.Labels[0], nil
	}
	return d, d.index(truth)
}

// bbcPath is the BBC News archive in the shared data folder.
const bbcPath = "bbc/bbc-fulltext.tar.gz"

// readBBC reads BBC News (2,225 documents, 5 classes) and holds out a
// fifth of each class's documents, drawn with seed, to score the models:
// the corpus has no split of its own.
func readBBC(ctx context.Context, seed uint64) (*dataset, error) {
	path, err := datadir.File(bbcPath)
	if err != nil {
		return nil, err
	}
	c, err := corpus.BBC{}.Read(ctx, path)
	if err != nil {
		return nil, err
	}
	byClass := map[string][]string{}
	var classes []string
	for _, doc := range c.Docs {
		if len(doc.Labels) != 1 {
			return nil, fmt.Errorf("%s: document %s has %d labels, want 1", bbcPath, doc.ID, len(doc.Labels))
		}
		l := doc.Labels[0]
		if byClass[l] == nil {
			classes = append(classes, l)
		}
		byClass[l] = append(byClass[l], doc.ID)
	}
	slices.Sort(classes)
	r := rng.New(seed, 0, splitSalt)
	test := map[string]bool{}
	for _, l := range classes {
		ids := shuffled(r, byClass[l])
		for _, id := range ids[:len(ids)/5] {
			test[id] = true
		}
	}
	d := &dataset{name: "BBC News, a fifth of each class held out (seed " + strconv.FormatUint(seed, 10) + ")",
		source: []string{"--format", "bbc", path}}
	train := &corpus.Corpus{Name: c.Name + " [train]"}
	for _, doc := range c.Docs {
		if test[doc.ID] {
			d.test = append(d.test, doc)
		} else {
			train.Docs = append(train.Docs, doc)
		}
	}
	d.train = train
	return d, d.index(func(doc corpus.Document) (string, error) { return doc.Labels[0], nil })
}

// quickDocs is the size of the demo corpus of the quick protocol.
const quickDocs = 400

// readDemo generates the embedded demo corpus, every training document
// given its first planted theme as its class (its test documents, one in
// five, score the models).
func readDemo() (*dataset, error) {
	dm, err := demo.Generate(demo.Options{Docs: quickDocs, Labeled: 1})
	if err != nil {
		return nil, err
	}
	c := dm.Corpus
	first := map[string]string{}
	for i, doc := range c.Docs {
		first[doc.ID] = dm.Truth[i][0]
	}
	d := &dataset{name: "the demo corpus", source: []string{"--format", "jsonl", "demo.jsonl"}}
	train := &corpus.Corpus{Name: "demo [train]"}
	for _, doc := range c.Docs {
		doc.Labels = nil
		if doc.Split == corpus.SplitTest {
			d.test = append(d.test, doc)
		} else {
			train.Docs = append(train.Docs, doc)
		}
	}
	d.train = train
	return d, d.index(func(doc corpus.Document) (string, error) { return first[doc.ID], nil })
}

// index records every document's class.
func (d *dataset) index(truth func(corpus.Document) (string, error)) error {
	d.class = map[string]string{}
	d.byClass = map[string][]string{}
	for _, doc := range d.train.Docs {
		c, err := truth(doc)
		if err != nil {
			return err
		}
		d.class[doc.ID] = c
		d.byClass[c] = append(d.byClass[c], doc.ID)
		if !slices.Contains(d.classes, c) {
			d.classes = append(d.classes, c)
		}
	}
	for _, doc := range d.test {
		c, err := truth(doc)
		if err != nil {
			return err
		}
		d.class[doc.ID] = c
	}
	slices.Sort(d.classes)
	return nil
}

// sampleLabels draws, per class, max(1, round(frac·n)) of its n training
// documents: the labels a person gives before a kind that learns from
// labels can start.
func (d *dataset) sampleLabels(frac float64, seed uint64) map[string][]string {
	r := rng.New(seed, 0, labelSalt)
	out := map[string][]string{}
	for _, c := range d.classes {
		ids := shuffled(r, d.byClass[c])
		n := max(1, int(float64(len(ids))*frac+0.5))
		out[c] = ids[:min(n, len(ids))]
	}
	return out
}

// shuffled returns xs in an order drawn from r.
func shuffled(r rng.Source, xs []string) []string {
	p := make([]int, len(xs))
	for i := range p {
		p[i] = i
	}
	r.Shuffle(p)
	out := make([]string, len(xs))
	for i, j := range p {
		out[i] = xs[j]
	}
	return out
}

// The salts of the benchmark's random streams.
const (
	labelSalt  = 0x77626c61 // the labels given first
	editSalt   = 0x77626564 // the random edits
	randomSalt = 0x7762726e // the random person's documents
	splitSalt  = 0x77627370 // the held-out documents of a corpus without a split
)

// syntheticCorpus draws n documents with planted topics (package synth)
// as an already-vectorized corpus, as the mtx reader returns one: the
// terms are synth.TermName's, the documents have IDs and no text.
func syntheticCorpus(ctx context.Context, n int, seed uint64) (*corpus.Corpus, error) {
	g, err := synth.New(bigShape(n, seed))
	if err != nil {
		return nil, err
	}
	cfg := g.Config()
	indptr := make([]int, 1, n+1)
	var indices []int32
	var data []float64
	docs := make([]corpus.Document, 0, n)
	err = g.Each(ctx, func(i int, doc *synth.Doc) error {
		indices = append(indices, doc.Terms...)
		data = append(data, doc.Counts...)
		indptr = append(indptr, len(indices))
		docs = append(docs, corpus.Document{ID: "s" + strconv.Itoa(i+1)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	x, err := sparse.NewCSR(n, cfg.Terms, indptr, indices, data)
	if err != nil {
		return nil, err
	}
	vocab := make([]string, cfg.Terms)
	for t := range vocab {
		vocab[t] = synth.TermName(t)
	}
	return &corpus.Corpus{Name: fmt.Sprintf("synthetic (%d documents)", n), Docs: docs, Matrix: &corpus.Matrix{X: x, Vocab: vocab}}, nil
}

// bigShape is the synthetic corpus's shape: n documents of about 80
// tokens over 20,000 terms, 20 planted topics.
func bigShape(n int, seed uint64) synth.Config {
	return synth.Config{Docs: n, Terms: 20_000, Topics: 20, MeanLength: 80, Seed: seed}
}
