package vectorize_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/shard"
	"github.com/semitopic/semitopic/vectorize"
)

func ExampleVectorizer_FitTransform() {
	docs := []corpus.Document{
		{ID: "a", Text: "Rockets reach orbit."},
		{ID: "b", Text: "The rocket launch was delayed."},
		{ID: "c", Text: "Bake bread in a hot oven."},
	}
	v, err := vectorize.DefaultPipeline().New()
	if err != nil {
		panic(err)
	}
	res, err := v.FitTransform(context.Background(), docs)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.X.Rows, "documents ×", res.X.Cols, "terms:", res.Vocab)
	fmt.Printf("rocket in document a: %.3f\n", res.X.At(0, 8))

	// New documents use the fitted vocabulary; unknown terms are counted.
	more, _ := v.Transform(context.Background(), []corpus.Document{{ID: "d", Text: "A rocket and a comet."}})
	fmt.Println("out of vocabulary:", more.OOV, "of", more.Terms)
	// Output:
	// 3 documents × 9 terms: [bake bread delayed hot launch orbit oven reach rocket]
	// rocket in document a: 0.474
	// out of vocabulary: 1 of 2
}

// WriteShards turns a text corpus into a sharded corpus without holding
// it, for out-of-core training: here a JSON Lines file, read in two
// passes, the vocabulary then the rows.
func ExampleWriteShards() {
	tmp, err := os.MkdirTemp("", "shards-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	in := filepath.Join(tmp, "docs.jsonl")
	docs := `{"id": "a", "text": "Rockets reach orbit.", "labels": ["space"]}
{"id": "b", "text": "The rocket launch was delayed.", "labels": ["space"]}
{"id": "c", "text": "Bake bread in a hot oven.", "labels": ["food"]}
{"id": "d", "text": "Fresh bread from the oven."}
`
	if err := os.WriteFile(in, []byte(docs), 0o644); err != nil {
		panic(err)
	}
	dir := filepath.Join(tmp, "shards")
	res, err := vectorize.WriteShards(context.Background(), dir, corpus.JSONL{}, in, vectorize.DefaultPipeline(),
		vectorize.ShardsOptions{RowsPerShard: 2})
	if err != nil {
		panic(err)
	}
	m := res.Manifest
	fmt.Println(m.Docs, "documents ×", m.Terms, "terms in", len(m.Shards), "shards")

	// The shards read back as a corpus, with their vocabulary and labels;
	// the vectorizer they keep reads new text the same way.
	x, vocab, labels, err := shard.ReadAll(dir)
	if err != nil {
		panic(err)
	}
	fmt.Println(vocab)
	fmt.Println(labels)
	fmt.Printf("bread in document d: %.3f\n", x.At(3, 1))
	// Output:
	// 4 documents × 10 terms in 2 shards
	// [bake bread delayed fresh hot launch orbit oven reach rocket]
	// [[space] [space] [food] []]
	// bread in document d: 0.526
}

// A pipeline says what it does in one line, for reports.
func ExamplePipeline_String() {
	fmt.Println(vectorize.DefaultPipeline())
	p, err := vectorize.PipelinePreset("ssnmf")
	if err != nil {
		panic(err)
	}
	fmt.Println(p)
	// Output:
	// NFKC, case fold, tokens letters, length 3..∞, stopwords nltk, lemmas(n), tf-idf, norm l2
	// case lower, tokens ascii, stopwords nltk, tf-idf, norm l2, max 5000 terms, df 5..0.7
}
