package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"github.com/semitopic/semitopic/experiment/lab"
	"io"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/workbench"
)

// config is what a run measures, from the flags.
type config struct {
	quick bool
	// corpus is the labeled corpus: 20ng or bbc.
	corpus                  string
	timing, effects, active bool
	// kinds are the kinds timed and edited; k the number of topics.
	kinds []string
	k     int
	// labelFrac is the share of each class's training documents labeled
	// through the API before a kind that learns from labels starts.
	labelFrac float64
	// edits is the number of random edits per kind.
	edits int
	// activeKind is the simulated person's kind, rounds its rounds and
	// perRound the documents labeled per round.
	activeKind string
	rounds     int
	perRound   int
	// big is the size of the synthetic corpus of the responsiveness
	// measurement (0: skipped), bigIter its fits' iterations.
	big     int
	bigIter int
	// maxIter bounds every 20 Newsgroups fit's iterations (0: the kinds'
	// defaults); debounce is the sessions' pause after an edit (0: the
	// workbench's default).
	maxIter  int
	debounce time.Duration
	seed     uint64
	// out is the folder of the report; command the command line, for it.
	out     string
	command string
	log     io.Writer
}

// defaultKinds are the kinds measured.
var defaultKinds = []string{model.KindNMF, model.KindTSNMF, model.KindSSNMF, model.KindCorEx, model.KindLDA}

// defaultConfig is the full protocol, before the flags.
func defaultConfig() config {
	return config{corpus: "20ng", kinds: slices.Clone(defaultKinds), k: 20, labelFrac: 0.02, edits: 40, activeKind: model.KindTSNMF, rounds: 20, perRound: 10,
		big: 300_000, bigIter: 30, seed: 1, out: filepath.Join("docs", "results"), log: os.Stderr}
}

func main() {
	cfg := defaultConfig()
	flag.StringVar(&cfg.corpus, "corpus", cfg.corpus, "the labeled corpus: 20ng (20 Newsgroups by date) or bbc (BBC News, a fifth of each class held out); the synthetic corpus is the same for both")
	flag.BoolVar(&cfg.quick, "quick", false, "a reduced protocol on the embedded demo corpus, in seconds (checks the harness, not the figures)")
	flag.BoolVar(&cfg.timing, "timing", false, "run the timing: the scripted edits, and the page during a refit on the synthetic corpus")
	flag.BoolVar(&cfg.effects, "effects", false, "run the random edits and the rates at which they take effect")
	flag.BoolVar(&cfg.active, "active", false, "run the simulated person")
	kinds := flag.String("kinds", strings.Join(cfg.kinds, ","), "kinds timed and edited, comma-separated")
	flag.IntVar(&cfg.k, "k", cfg.k, "number of topics")
	flag.Float64Var(&cfg.labelFrac, "label-frac", cfg.labelFrac, "share of each class's training documents labeled before a kind that learns from labels starts")
	flag.IntVar(&cfg.edits, "edits", cfg.edits, "random edits per kind")
	flag.StringVar(&cfg.activeKind, "active-kind", cfg.activeKind, "the simulated person's kind")
	flag.IntVar(&cfg.rounds, "rounds", cfg.rounds, "the simulated person's rounds")
	flag.IntVar(&cfg.perRound, "per-round", cfg.perRound, "documents the simulated person labels per round")
	flag.IntVar(&cfg.big, "big", cfg.big, "documents of the synthetic corpus of the responsiveness measurement (0: skip it)")
	flag.IntVar(&cfg.bigIter, "big-iter", cfg.bigIter, "iterations of the synthetic corpus's fits")
	flag.IntVar(&cfg.maxIter, "max-iter", cfg.maxIter, "iterations of each 20 Newsgroups fit (0: the kinds' defaults)")
	flag.Uint64Var(&cfg.seed, "seed", cfg.seed, "seed of the fits and of the random choices")
	flag.StringVar(&cfg.out, "out", cfg.out, "folder of the report workbench.md, its chart and its raw results")
	flag.Parse()
	if flag.NArg() > 0 {
		log.Fatalf("workbench: unexpected arguments %q (the benchmark takes flags only)", flag.Args())
	}
	cfg.kinds = splitList(*kinds)
	cfg.command = commandLine(os.Args[1:])
	if cfg.quick {
		cfg.applyQuick(flagsSet())
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	last, err := run(ctx, &cfg)
	if err != nil {
		log.Fatal("workbench: ", err)
	}
	fmt.Println(last)
}

// flagsSet names the flags given on the command line.
func flagsSet() map[string]bool {
	set := map[string]bool{}
	flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// applyQuick sets the quick protocol's sizes, except those given.
func (c *config) applyQuick(set map[string]bool) {
	q := map[string]func(){
		"k":         func() { c.k = 8 },
		"edits":     func() { c.edits = 4 },
		"rounds":    func() { c.rounds = 3 },
		"per-round": func() { c.perRound = 5 },
		"big":       func() { c.big = 3000 },
		"big-iter":  func() { c.bigIter = 10 },
		"max-iter":  func() { c.maxIter = 20 },
		"label-frac": func() {
			c.labelFrac = 0.05
		},
	}
	for name, f := range q {
		if !set[name] {
			f()
		}
	}
	c.debounce = 10 * time.Millisecond
}

// commandLine is the command that ran, for the report.
func commandLine(args []string) string {
	return strings.TrimSpace("go run ./bench/workbench " + strings.Join(args, " "))
}

func splitList(s string) []string {
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}

// check refuses a configuration that cannot run.
func (c *config) check() error {
	if c.corpus != "20ng" && c.corpus != "bbc" {
		return fmt.Errorf("-corpus %q: want 20ng or bbc", c.corpus)
	}
	if !c.timing && !c.effects && !c.active {
		c.timing, c.effects, c.active = true, true, true
	}
	if len(c.kinds) == 0 && c.effects {
		return errors.New("-kinds: no kind given to edit (-effects)")
	}
	for _, k := range append(slices.Clone(c.kinds), c.activeKind) {
		if !slices.Contains(model.Kinds(), k) {
			return fmt.Errorf("-kinds: unknown kind %q (want %s)", k, strings.Join(model.Kinds(), ", "))
		}
	}
	if !takesLabels(c.activeKind) {
		return fmt.Errorf("-active-kind %s: the simulated person needs a kind that learns from labels (%s)", c.activeKind, strings.Join(model.SupervisedKinds(), ", "))
	}
	switch {
	case c.k < 2:
		return fmt.Errorf("-k %d: want at least 2", c.k)
	case c.edits < 0:
		return fmt.Errorf("-edits %d: want 0 or more", c.edits)
	case c.rounds < 1 || c.perRound < 1:
		return fmt.Errorf("-rounds %d, -per-round %d: want at least 1", c.rounds, c.perRound)
	case !(c.labelFrac > 0 && c.labelFrac < 1):
		return fmt.Errorf("-label-frac %v: want a share between 0 and 1", c.labelFrac)
	case c.big < 0 || (c.big > 0 && c.big < 100):
		return fmt.Errorf("-big %d: want 0 (skip) or at least 100 documents", c.big)
	}
	return nil
}

// takesLabels reports whether the kind learns from labeled documents.
func takesLabels(kind string) bool {
	k, err := model.KindOf(kind)
	return err == nil && k.Takes().Labels
}

func (c *config) logf(format string, args ...any) {
	if c.log != nil {
		fmt.Fprintf(c.log, format+"\n", args...)
	}
}

// results is everything a run measured.
type results struct {
	data      string
	trainDocs int
	testDocs  int
	classes   int
	kinds     []*kindRun
	big       *responsive
	active    *activeResult
	cpu       cpuTimes
	load      [2]string
}

// run measures what cfg asks and writes the report; it returns the last
// line to print.
func run(ctx context.Context, cfg *config) (string, error) {
	if err := cfg.check(); err != nil {
		return "", err
	}
	res := &results{cpu: readCPU()}
	res.load[0] = lab.LoadAverage()
	rep := newReport(cfg)
	tmp, err := os.MkdirTemp("", "semitopic-bench-workbench-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	var ds *dataset
	switch {
	case cfg.quick:
		ds, err = readDemo()
	case cfg.corpus == "bbc":
		ds, err = readBBC(ctx, cfg.seed)
	default:
		ds, err = readNewsgroups(ctx)
	}
	if err != nil {
		return "", err
	}
	res.data, res.trainDocs, res.testDocs, res.classes = ds.name, len(ds.train.Docs), len(ds.test), len(ds.classes)
	cfg.logf("%s: %d training documents, %d test documents, %d classes", ds.name, len(ds.train.Docs), len(ds.test), len(ds.classes))
	if cfg.timing || cfg.effects {
		for _, kind := range cfg.kinds {
			kr, err := runKind(ctx, cfg, ds, kind, filepath.Join(tmp, kind))
			if err != nil {
				return "", fmt.Errorf("%s: %w", kind, err)
			}
			res.kinds = append(res.kinds, kr)
		}
	}
	if cfg.timing && cfg.big > 0 {
		if res.big, err = runResponsive(ctx, cfg, filepath.Join(tmp, "synthetic")); err != nil {
			return "", fmt.Errorf("synthetic corpus: %w", err)
		}
	}
	if cfg.active {
		if res.active, err = runActive(ctx, cfg, ds, filepath.Join(tmp, "active")); err != nil {
			return "", fmt.Errorf("simulated person: %w", err)
		}
	}
	res.load[1] = lab.LoadAverage()
	if err := writeReport(rep, cfg, res); err != nil {
		return "", err
	}
	return lastLine(cfg, res), nil
}

// lastLine is the line printed last: the median and 90th percentile of
// the scripted edits' times per kind, or, without the timing, what ran.
func lastLine(cfg *config, res *results) string {
	if !cfg.timing {
		var parts []string
		for _, kr := range res.kinds {
			parts = append(parts, fmt.Sprintf("%s %d random edits", kr.Kind, len(kr.Random)))
		}
		if res.active != nil {
			parts = append(parts, fmt.Sprintf("simulated person: %d rounds", cfg.rounds))
		}
		return "no timing run (-timing): " + strings.Join(parts, "; ")
	}
	if len(res.kinds) == 0 {
		return "no kind timed (-kinds)"
	}
	var parts []string
	for _, kr := range res.kinds {
		xs := kr.scriptSeconds()
		if len(xs) == 0 {
			parts = append(parts, kr.Kind+" no edit timed")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s median %.1f s p90 %.1f s", kr.Kind, quantile(xs, 0.5), quantile(xs, 0.9)))
	}
	return strings.Join(parts, "; ")
}

// openConfig is the session configuration of the benchmark's 20
// Newsgroups sessions.
func openConfig(cfg *config, ds *dataset, kind, dir string) workbench.Config {
	return workbench.Config{Corpus: ds.train, Source: ds.source, Kind: kind, K: cfg.k, Seed: cfg.seed, MaxIter: cfg.maxIter,
		Project: dir, Debounce: cfg.debounce}
}
