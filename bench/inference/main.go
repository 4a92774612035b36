package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/datasets"
	"github.com/semitopic/semitopic/internal/datadir"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/vectorize"
)

func main() {
	n := flag.Int("n", 400, "test documents to predict")
	kinds := flag.String("kinds", "tsnmf,ssnmf,theme,corex", "kinds to measure")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the one-document calls to this file")
	flag.Parse()
	ctx := context.Background()
	p, err := datadir.File("reuters21578-nltk-apte/reuters.tar.gz")
	if err != nil {
		log.Fatal(err)
	}
	c, err := corpus.ReutersNLTK{}.Read(ctx, p)
	if err != nil {
		log.Fatal(err)
	}
	c = datasets.ReutersTopCategories(c, 10)
	train, test := c.Subset(corpus.SplitTrain), c.Subset(corpus.SplitTest)
	docs := test.Docs[:min(*n, len(test.Docs))]
	fmt.Printf("Reuters, documents with exactly one category among the 10 most frequent: %d train, %d test; %d test documents predicted\n",
		len(train.Docs), len(test.Docs), len(docs))
	for _, kind := range strings.Split(*kinds, ",") {
		pl, err := vectorize.PipelinePreset(model.DefaultPreset(kind))
		if err != nil {
			log.Fatal(err)
		}
		t0 := time.Now()
		f, err := model.Fit(ctx, model.Text(train, &pl), model.Options{Kind: kind, Seed: 1, LabelsFromCorpus: true})
		if err != nil {
			log.Fatalf("%s: %v", kind, err)
		}
		fit := time.Since(t0)
		res, err := f.Vectorize(ctx, docs)
		if err != nil {
			log.Fatal(err)
		}
		pr := f.Model.(model.Predictor)
		best := func(run func()) time.Duration {
			b := time.Duration(math.MaxInt64)
			for r := 0; r < 3; r++ {
				t0 := time.Now()
				run()
				b = min(b, time.Since(t0))
			}
			return b
		}
		tBatch := best(func() {
			if _, err := pr.Predict(ctx, res.X); err != nil {
				log.Fatal(err)
			}
		})
		rows := make([]int, 1)
		if *cpuprofile != "" {
			f, err := os.Create(*cpuprofile)
			if err != nil {
				log.Fatal(err)
			}
			pprof.StartCPUProfile(f)
		}
		tOne := best(func() {
			for i := 0; i < res.X.Rows; i++ {
				rows[0] = i
				if _, err := pr.Predict(ctx, res.X.SelectRows(rows)); err != nil {
					log.Fatal(err)
				}
			}
		})
		if *cpuprofile != "" {
			pprof.StopCPUProfile()
		}
		m := float64(res.X.Rows)
		fmt.Printf("%-6s %3d topics × %5d terms (fit %v): one document per call %.3f ms, batch %.3f ms per document, ratio %.1f×\n",
			kind, f.Model.NumTopics(), len(f.Vocab), fit.Round(time.Millisecond), 1000*tOne.Seconds()/m, 1000*tBatch.Seconds()/m, tOne.Seconds()/tBatch.Seconds())
	}
}
