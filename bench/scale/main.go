package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"time"

	"github.com/semitopic/semitopic/blocks"
	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/lda"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/shard"
)

// result is the JSON line printed.
type result struct {
	Kind       string  `json:"kind"`
	Mode       string  `json:"mode"`
	Docs       int     `json:"docs"`
	Terms      int     `json:"terms"`
	NNZ        int64   `json:"nnz"`
	Shards     int     `json:"shards"`
	Procs      int     `json:"procs"` // GOMAXPROCS: the cores the fit used
	K          int     `json:"k"`
	Iterations int     `json:"iterations"`
	SecPerIter float64 `json:"seconds_per_iteration"`
	Total      float64 `json:"seconds_total"`
	PeakMiB    float64 `json:"peak_mib"`
	Objective  float64 `json:"objective,omitempty"`
}

func main() {
	dir := flag.String("shards", "", "sharded corpus folder")
	kind := flag.String("kind", "nmf", "nmf, tsnmf (labels from the corpus), corex, lda")
	mode := flag.String("mode", "ooc", "mem (read the corpus into memory) or ooc (out of core)")
	k := flag.Int("k", 100, "topics")
	iters := flag.Int("iters", 5, "iterations (at least 2)")
	state := flag.String("state", "", "out of core: state folder (default: a temporary one, removed)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the fit to this file")
	reportFrom := flag.String("report", "", "instead of a fit, write the Markdown report of the fits in this JSON-lines file")
	chartTo := flag.String("chart", "", "with -report: the SVG chart to write")
	sideFrom := flag.String("side", "", "with -report: the output of side.sh, included verbatim")
	scalingFrom := flag.String("scaling", "", "instead of a fit, print the Markdown scaling table of the fits in this JSON-lines file (scaling.sh)")
	flag.Parse()
	if *scalingFrom != "" {
		if err := scalingTable(*scalingFrom, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *reportFrom != "" {
		if err := report(*reportFrom, *chartTo, *sideFrom, os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *dir == "" || *iters < 2 || (*mode != "mem" && *mode != "ooc") {
		flag.Usage()
		os.Exit(2)
	}
	src, err := shard.OpenSource(*dir)
	if err != nil {
		log.Fatal(err)
	}
	man := src.Manifest()
	res := result{Kind: *kind, Mode: *mode, Docs: man.Docs, Terms: man.Terms, NNZ: man.NNZ, Shards: len(man.Shards), Procs: runtime.GOMAXPROCS(0), K: *k, Iterations: *iters}
	var marks []time.Duration
	report := func(s progress.Step) { marks = append(marks, s.Elapsed) }
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
	t0 := time.Now()
	obj, err := fit(src, *kind, *mode, *k, *iters, *state, report)
	if err != nil {
		log.Fatal(err)
	}
	res.Total = time.Since(t0).Seconds()
	res.Objective = obj
	if len(marks) < 2 {
		log.Fatalf("%d iterations reported", len(marks))
	}
	res.SecPerIter = (marks[len(marks)-1] - marks[0]).Seconds() / float64(len(marks)-1)
	if p, err := peakmem.MiB(); err == nil {
		res.PeakMiB = p
	}
	b, _ := json.Marshal(res)
	fmt.Println(string(b))
}

// fit runs one fit and returns its final objective.
func fit(src *shard.Source, kind, mode string, k, iters int, state string, report progress.Func) (float64, error) {
	ctx := context.Background()
	cfg := nmf.Config{K: k, Init: nmf.InitRandomAcol, Seed: 1, MaxIter: iters, Tol: -1, Progress: report}
	if mode == "mem" {
		x, _, labels, err := shard.ReadAll(src.Dir())
		if err != nil {
			return 0, err
		}
		switch kind {
		case "nmf":
			r, err := nmf.Fit(ctx, x, cfg)
			if err != nil {
				return 0, err
			}
			return r.FinalObjective(), nil
		case "tsnmf":
			names, idx := labelIndex(labels)
			cfg.Labels, cfg.Init = idx, nmf.InitAuto
			r, err := nmf.TSNMF(ctx, x, nmf.TSNMFConfig{Config: cfg, LabelNames: names})
			if err != nil {
				return 0, err
			}
			return r.FinalObjective(), nil
		case "corex":
			r, err := corex.Fit(ctx, x, corexConfig(k, iters, report))
			if err != nil {
				return 0, err
			}
			return r.TC, nil
		case "lda":
			if _, err := lda.Fit(ctx, x, ldaConfig(k, iters, report)); err != nil {
				return 0, err
			}
			return 0, nil // no perplexity is evaluated
		}
		return 0, fmt.Errorf("unknown kind %q", kind)
	}
	if state == "" {
		tmp, err := os.MkdirTemp(filepath.Dir(filepath.Clean(src.Dir())), "scale-state-*")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(tmp)
		state = tmp
	}
	st, err := shard.NewStore(state)
	if err != nil {
		return 0, err
	}
	var bst blocks.Store = st
	switch kind {
	case "nmf":
		r, err := nmf.FitBlocks(ctx, src, bst, cfg)
		if err != nil {
			return 0, err
		}
		return r.FinalObjective(), nil
	case "tsnmf":
		_, labels, err := shardLabels(src)
		if err != nil {
			return 0, err
		}
		cfg.Init = nmf.InitAuto
		r, err := nmf.TSNMFBlocks(ctx, src, bst, nmf.TSNMFConfig{Config: cfg, LabelNames: labels})
		if err != nil {
			return 0, err
		}
		return r.FinalObjective(), nil
	case "corex":
		r, err := corex.FitBlocks(ctx, src, bst, corexConfig(k, iters, report))
		if err != nil {
			return 0, err
		}
		return r.TC, nil
	case "lda":
		if _, err := lda.FitBlocks(ctx, src, bst, ldaConfig(k, iters, report)); err != nil {
			return 0, err
		}
		return 0, nil // no perplexity is evaluated
	}
	return 0, fmt.Errorf("unknown kind %q", kind)
}

// corexConfig runs exactly iters iterations of one restart.
func corexConfig(k, iters int, report progress.Func) corex.Config {
	return corex.Config{K: k, MaxIter: iters, Tol: -1, Seed: 1, Progress: report}
}

// ldaConfig runs iters batch passes without evaluating the perplexity.
func ldaConfig(k, iters int, report progress.Func) lda.Config {
	return lda.Config{K: k, MaxIter: iters, Seed: 1, Progress: report}
}

// labelIndex numbers the distinct labels in sorted order.
func labelIndex(labels [][]string) ([]string, [][]int) {
	var names []string
	for _, ls := range labels {
		for _, l := range ls {
			if !slices.Contains(names, l) {
				names = append(names, l)
			}
		}
	}
	slices.Sort(names)
	idx := make([][]int, len(labels))
	for i, ls := range labels {
		for _, l := range ls {
			q, _ := slices.BinarySearch(names, l)
			idx[i] = append(idx[i], q)
		}
	}
	return names, idx
}

// shardLabels reads the labels file shard by shard and returns the sorted
// label names.
func shardLabels(src *shard.Source) (int, []string, error) {
	man := src.Manifest()
	var all [][]string
	for i := range man.Shards {
		ls, err := man.ReadLabels(src.Dir(), i)
		if err != nil {
			return 0, nil, err
		}
		all = append(all, ls...)
	}
	names, _ := labelIndex(all)
	return len(all), names, nil
}
