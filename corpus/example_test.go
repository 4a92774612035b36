package corpus_test

import (
	"context"
	"fmt"
	"log"

	"github.com/semitopic/semitopic/corpus"
)

// Reading a corpus by format name, as the command-line program does.
func ExampleNewReader() {
	r, err := corpus.NewReader("csv")
	if err != nil {
		log.Fatal(err)
	}
	c, err := r.Read(context.Background(), "testdata/table/docs.csv")
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range c.Docs {
		fmt.Printf("%s %q %q %q\n", d.ID, d.Labels, d.Split, d.Text)
	}
	// Output:
	// d1 ["finance"] "train" "Stocks rose, then fell"
	// d2 ["sport"] "test" "A \"quoted\" word\nand a second line"
	// d3 [] "" ""
	// d4 ["finance"] "" "Plain text"
}

// Setting a format's options through its type.
func ExampleCSV() {
	r := corpus.CSV{Comma: '\t', TextColumn: "body", LabelColumn: "tags", IDColumn: "doc", SplitColumn: "part", LabelSep: ";"}
	c, err := r.Read(context.Background(), "testdata/table/docs.tsv")
	if err != nil {
		log.Fatal(err)
	}
	names, counts := c.Labels()
	fmt.Println(len(c.Docs), "documents")
	for i := range names {
		fmt.Println(names[i], counts[i])
	}
	// Output:
	// 3 documents
	// finance 1
	// markets 1
	// sport 1
}

// The ModApte split of Reuters-21578, from the original SGML files.
func ExampleReutersSGML() {
	c, err := corpus.ReutersSGML{}.Read(context.Background(), "testdata/reuters-sgml")
	if err != nil {
		log.Fatal(err)
	}
	for _, d := range c.Docs {
		fmt.Println(d.ID, d.Split, d.Labels)
	}
	// Output:
	// 1 train [cocoa grain]
	// 2 test [cocoa]
	// 3 train [grain]
	// 4 test [grain]
	// 10 train [cocoa]
}

// An already-vectorized corpus fills Corpus.Matrix.
func ExampleMTX() {
	c, err := corpus.MTX{}.Read(context.Background(), "testdata/mtx/docs.mtx")
	if err != nil {
		log.Fatal(err)
	}
	rows, cols := c.Matrix.X.Dims()
	fmt.Println(rows, "×", cols, c.Matrix.Vocab)
	fmt.Println(c.Docs[0].ID, c.Docs[0].Labels)
	// Output:
	// 3 × 4 [apple banana cherry date]
	// doc-1 [fruit red]
}

func ExampleFormats() {
	for _, f := range corpus.Formats() {
		fmt.Println(f.Name)
	}
	// Output:
	// reuters-sgml
	// reuters-nltk
	// 20ng
	// brown
	// bbc
	// dir
	// csv
	// tsv
	// jsonl
	// mtx
	// uci
	// shards
}
