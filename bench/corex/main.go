package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/semitopic/semitopic/experiment/lab"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"sort"
	"strings"
	"time"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	mtx := flag.String("mtx", "", "fit this documents × terms MatrixMarket file instead of vectorizing 20 Newsgroups")
	write := flag.String("write", "", "write the 20 Newsgroups matrix (and FILE.vocab) for the reference and exit")
	k := flag.Int("k", 50, "topics")
	seed := flag.Uint64("seed", 1, "seed")
	runs := flag.Int("runs", 3, "fits to time")
	iters := flag.Int("iters", 200, "maximum iterations")
	numpy := flag.Bool("numpy", false, "draw the random start and noise from numpy's stream (Config.NumpyRandom)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the fits to this file")
	flag.Parse()
	ctx := context.Background()

	var x *sparse.CSR
	var vocab []string
	if *mtx != "" {
		f, err := os.Open(*mtx)
		if err != nil {
			log.Fatal(err)
		}
		x, err = sparse.ReadMatrixMarket(bufio.NewReader(f))
		f.Close()
		if err != nil {
			log.Fatalf("%s: %v", *mtx, err)
		}
	} else {
		var err error
		x, vocab, err = load20NG(ctx)
		if err != nil {
			log.Fatal(err)
		}
	}
	if *write != "" {
		if err := writeMatrix(*write, x, vocab); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("wrote %s: %d × %d, %d non-zeros\n", *write, x.Rows, x.Cols, x.NNZ())
		return
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
	fmt.Printf("input %d × %d, %d non-zeros; %d topics, seed %d, %d cores, load average %s\n",
		x.Rows, x.Cols, x.NNZ(), *k, *seed, runtime.GOMAXPROCS(0), lab.LoadAverage())
	var secs []float64
	var last *corex.Model
	for r := 0; r < *runs; r++ {
		runtime.GC()
		start := time.Now()
		m, err := corex.Fit(ctx, x, corex.Config{K: *k, Seed: *seed, MaxIter: *iters, NumpyRandom: *numpy})
		if err != nil {
			log.Fatal(err)
		}
		el := time.Since(start).Seconds()
		secs = append(secs, el)
		last = m
		fmt.Printf("run %d: TC %.4f nats, %d iterations, %.2f s (%.1f ms per iteration)\n", r+1, m.TC, m.Iterations, el, 1000*el/float64(m.Iterations))
	}
	sort.Float64s(secs)
	peak, _ := peakmem.MiB() // 0 where the system does not report it
	out := map[string]any{"tc": last.TC, "iterations": last.Iterations, "median_seconds": secs[len(secs)/2], "peak_rss_mb": peak}
	b, _ := json.Marshal(out)
	fmt.Println(string(b))
}

// load20NG vectorizes the training set with the "corex" preset.
func load20NG(ctx context.Context) (*sparse.CSR, []string, error) {
	dir, err := datadir.Find()
	if err != nil {
		return nil, nil, err
	}
	c, err := corpus.Newsgroups{Subset: "train", RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}.Read(ctx, filepath.Join(dir, "20news-bydate", "20news-bydate.tar.gz"))
	if err != nil {
		return nil, nil, err
	}
	pl, err := vectorize.PipelinePreset("corex")
	if err != nil {
		return nil, nil, err
	}
	_, res, err := pl.FitTransform(ctx, c.Docs)
	if err != nil {
		return nil, nil, err
	}
	return res.X, res.Vocab, nil
}

func writeMatrix(path string, x *sparse.CSR, vocab []string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	if err := sparse.WriteMatrixMarket(w, x); err != nil {
		f.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.WriteFile(path+".vocab", []byte(strings.Join(vocab, "\n")+"\n"), 0o644)
}
