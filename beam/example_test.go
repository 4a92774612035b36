package beam_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/semitopic/semitopic/beam"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/shard"
)

// NMF trained on Beam's Prism runner in this process: a sharded corpus of
// two themes (terms 0–2 and 3–5) in four shards, W kept per shard in the
// state folder.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "beam-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	corpus, state := filepath.Join(dir, "corpus"), filepath.Join(dir, "state")

	w, err := shard.Create(corpus, 6, shard.Options{RowsPerShard: 10})
	if err != nil {
		fmt.Println(err)
		return
	}
	for d := range 40 {
		cols := []int32{0, 1, 2}
		if d%2 == 1 {
			cols = []int32{3, 4, 5}
		}
		if err := w.Add(cols, []float64{3, 2, float64(1 + d%3)}, nil); err != nil {
			fmt.Println(err)
			return
		}
	}
	if _, err := w.Close(); err != nil {
		fmt.Println(err)
		return
	}

	tr, err := nmf.NewTrainer(40, 6, nmf.Config{K: 2, Seed: 1, MaxIter: 20, Tol: -1})
	if err != nil {
		fmt.Println(err)
		return
	}
	// nil: the Prism runner; NamedRunner("flink") and the like, with
	// Beam's --endpoint flag, submit to a cluster instead.
	if err := beam.Run(context.Background(), nil, corpus, state, tr); err != nil {
		fmt.Println(err)
		return
	}
	m, err := tr.Model()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("iterations:", m.Iterations)
	for k := range 2 {
		var terms []int
		for j := range 6 {
			if m.H.At(k, j) > 1e-3 {
				terms = append(terms, j)
			}
		}
		fmt.Printf("a topic of terms %v\n", terms)
	}
	// Unordered output:
	// iterations: 20
	// a topic of terms [0 1 2]
	// a topic of terms [3 4 5]
}
