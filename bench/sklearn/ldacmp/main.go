package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	topics := flag.Int("topics", 20, "number of topics")
	iters := flag.Int("iter", 20, "passes over the data (max_iter)")
	seed := flag.Uint64("seed", 0, "random seed")
	method := flag.String("method", "batch", "learning method: batch or online")
	evalEvery := flag.Int("evaluate-every", 0, "evaluate the perplexity every n passes (0: never)")
	write := flag.String("write", "", "write the vectorized matrix to this MatrixMarket file")
	read := flag.String("read", "", "fit this MatrixMarket matrix instead of reading 20 Newsgroups")
	top := flag.Int("top", 0, "print this many top words per topic")
	runs := flag.Int("runs", 1, "fit this many times and report each")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the fits to this file")
	flag.Parse()

	m, err := lda.ParseMethod(*method)
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	x, vocab, err := load(ctx, *read)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("matrix: %d documents × %d terms, %d non-zeros, %.0f words\n", x.Rows, x.Cols, x.NNZ(), x.Sum())
	if *write != "" {
		if err := writeMatrix(*write, x); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("wrote %s\n", *write)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			log.Fatal(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			log.Fatal(err)
		}
		defer pprof.StopCPUProfile()
	}
	opts := lda.Config{K: *topics, MaxIter: *iters, Seed: *seed, Method: m, EvaluateEvery: *evalEvery}
	opts.Progress = func(it progress.Step) {
		line := fmt.Sprintf("  pass %2d: %5.1f E-step iterations per document, %v", it.Iter, it.Inner, it.Elapsed.Round(time.Millisecond))
		if !math.IsNaN(it.Objective) {
			line += fmt.Sprintf(", perplexity %.2f", it.Objective)
		}
		fmt.Println(line)
	}
	fmt.Printf("LDA: %d topics, %s, %d passes, seed %d, %d cores\n", *topics, m, *iters, *seed, runtime.GOMAXPROCS(0))
	var model *lda.Model
	for run := 1; run <= *runs; run++ {
		t0 := time.Now()
		model, err = lda.Fit(ctx, x, opts)
		if err != nil {
			log.Fatal(err)
		}
		el := time.Since(t0)
		fmt.Printf("run %d: perplexity %.2f, fit time %.2f s\n", run, model.TrainPerplexity(), el.Seconds())
	}
	if *top > 0 {
		words, err := model.TopWords(vocab, *top)
		if err != nil {
			log.Fatal(err)
		}
		for t, ws := range words {
			terms := make([]string, len(ws))
			for i, w := range ws {
				terms[i] = w.Term
			}
			fmt.Printf("topic %2d: %s\n", t, strings.Join(terms, " "))
		}
	}
	if peak, err := peakmem.MiB(); err == nil {
		fmt.Printf("peak resident memory: %.0f MB\n", peak)
	}
}

// load reads the matrix from path, or the 20NG training set when path is
// empty. The vocabulary is nil for a matrix file.
func load(ctx context.Context, path string) (*sparse.CSR, []string, error) {
	if path != "" {
		f, err := os.Open(path)
		if err != nil {
			return nil, nil, err
		}
		defer f.Close()
		x, err := sparse.ReadMatrixMarket(f)
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s: %w", path, err)
		}
		return x, nil, nil
	}
	dir, err := datadir.Find()
	if err != nil {
		return nil, nil, err
	}
	archive := filepath.Join(dir, "20news-bydate", "20news-bydate.tar.gz")
	r, err := corpus.NewReader("20ng")
	if err != nil {
		return nil, nil, err
	}
	ng := r.(*corpus.Newsgroups)
	ng.Subset = "train"
	ng.RemoveHeaders, ng.RemoveFooters, ng.RemoveQuotes = true, true, true
	t0 := time.Now()
	c, err := ng.Read(ctx, archive)
	if err != nil {
		return nil, nil, err
	}
	pl, err := vectorize.PipelinePreset("lda")
	if err != nil {
		return nil, nil, err
	}
	_, res, err := pl.FitTransform(ctx, c.Docs)
	if err != nil {
		return nil, nil, err
	}
	fmt.Printf("read and vectorized %d documents in %v (%d empty rows)\n", len(c.Docs), time.Since(t0).Round(time.Millisecond), res.EmptyRows)
	return res.X, res.Vocab, nil
}

func writeMatrix(path string, x *sparse.CSR) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := sparse.WriteMatrixMarket(f, x); err != nil {
		f.Close()
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return f.Close()
}
