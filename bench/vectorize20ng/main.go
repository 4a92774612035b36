package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	preset := flag.String("preset", "default", "pipeline preset: "+strings.Join(vectorize.PipelinePresets(), ", "))
	remove := flag.String("remove", "headers,footers,quotes", "parts of the messages to remove (20ng reader)")
	runs := flag.Int("runs", 3, "vectorize this many times and report each")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the vectorizing runs to this file")
	flag.Parse()

	dir, err := datadir.Find()
	if err != nil {
		log.Fatal(err)
	}
	path := filepath.Join(dir, "20news-bydate", "20news-bydate.tar.gz")
	r, err := corpus.NewReader("20ng")
	if err != nil {
		log.Fatal(err)
	}
	ng := r.(*corpus.Newsgroups)
	for _, part := range strings.Split(*remove, ",") {
		switch strings.TrimSpace(part) {
		case "":
		case "headers":
			ng.RemoveHeaders = true
		case "footers":
			ng.RemoveFooters = true
		case "quotes":
			ng.RemoveQuotes = true
		default:
			log.Fatalf("-remove: unknown part %q", part)
		}
	}
	ctx := context.Background()
	t0 := time.Now()
	c, err := ng.Read(ctx, path)
	if err != nil {
		log.Fatal(err)
	}
	read := time.Since(t0)
	bytes := 0
	for _, d := range c.Docs {
		bytes += len(d.Text)
	}
	fmt.Printf("read %d documents (%.1f MB of text) in %v\n", len(c.Docs), float64(bytes)/1e6, read.Round(time.Millisecond))

	pl, err := vectorize.PipelinePreset(*preset)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("preset %s: %s\ncores: %d\n", *preset, vectorize.PipelinePresetDoc(*preset), runtime.GOMAXPROCS(0))
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
	for run := 1; run <= *runs; run++ {
		v, err := pl.New()
		if err != nil {
			log.Fatal(err)
		}
		t := time.Now()
		res, err := v.FitTransform(ctx, c.Docs)
		if err != nil {
			log.Fatal(err)
		}
		el := time.Since(t)
		fmt.Printf("run %d: %d × %d, %d non-zeros, %d tokens in %v: %.0f documents/s, %.1f MB/s\n",
			run, res.X.Rows, res.X.Cols, res.X.NNZ(), res.Tokens, el.Round(time.Millisecond),
			float64(len(c.Docs))/el.Seconds(), float64(bytes)/1e6/el.Seconds())
	}
	if peak, err := peakmem.MiB(); err == nil {
		fmt.Printf("peak resident memory: %.0f MB (includes the corpus read into memory)\n", peak)
	}
	_ = os.Stdout.Sync()
}
