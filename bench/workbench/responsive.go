package main

import (
	"context"
	"fmt"
	"time"

	"github.com/semitopic/semitopic/internal/peakmem"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/workbench"
)

// responsive is the page's latency on the synthetic corpus, idle and
// while a refit runs.
type responsive struct {
	Docs, Terms, NNZ int
	Iter             int
	// Open is the time to the first round; Refit the time from the edit
	// to the status saying it is fitted.
	Open, Refit float64
	// Endpoints are the requests timed, in order.
	Endpoints []*endpointLatency
	// PeakMiB is the process's peak resident memory at the end (0:
	// unknown).
	PeakMiB float64
	CPU     cpuTimes
	Wall    float64
}

// endpointLatency is one request's latencies, in milliseconds.
type endpointLatency struct {
	Name         string
	Idle, During []float64
}

// idleRounds is how many times each request is timed while idle.
const idleRounds = 30

// pollEvery is the pause between two rounds of requests during the
// refit: a page polling the status a few times a second.
const pollEvery = 50 * time.Millisecond

// runResponsive opens an nmf session on the synthetic corpus, times the
// status, topics and a topic's documents while idle, then adds a seed
// word and times the same requests, one after another with a short
// pause, until the status says the refit is done.
func runResponsive(ctx context.Context, cfg *config, dir string) (*responsive, error) {
	cpu, start := readCPU(), time.Now()
	cfg.logf("synthetic corpus: drawing %d documents", cfg.big)
	c, err := syntheticCorpus(ctx, cfg.big, cfg.seed)
	if err != nil {
		return nil, err
	}
	res := &responsive{Docs: len(c.Docs), Terms: len(c.Matrix.Vocab), NNZ: c.Matrix.X.NNZ(), Iter: cfg.bigIter}
	t0 := time.Now()
	s, err := serve(ctx, workbench.Config{Corpus: c, Source: []string{"--format", "mtx", "synthetic.mtx"}, Kind: model.KindNMF, K: 20,
		Seed: cfg.seed, MaxIter: cfg.bigIter, Project: dir, Debounce: cfg.debounce})
	if err != nil {
		return nil, err
	}
	defer s.close()
	res.Open = time.Since(t0).Seconds()
	cfg.logf("synthetic corpus: first round in %.1f s", res.Open)
	ts, err := s.topics(ctx, topicWords)
	if err != nil {
		return nil, err
	}
	p, err := newPlanner(ctx, s, ts)
	if err != nil {
		return nil, err
	}
	t, err := p.pick()
	if err != nil {
		return nil, err
	}
	ws := p.words(t, 15, topicWords, 1)
	if len(ws) == 0 {
		return nil, fmt.Errorf("topic %q has no word ranked 15 to %d", t.Name, topicWords)
	}
	var last workbench.Status
	reqs := []struct {
		name string
		do   func() error
	}{
		{"GET /api/status", func() error {
			var err error
			last, err = s.status(ctx)
			return err
		}},
		{"GET /api/topics?n=10", func() error { _, err := s.topics(ctx, 10); return err }},
		{"GET /api/topics/{name}/docs?n=20", func() error { _, err := s.topicDocs(ctx, t.Name, 20); return err }},
	}
	for _, r := range reqs {
		res.Endpoints = append(res.Endpoints, &endpointLatency{Name: r.name})
	}
	// timeAll times each request once; during the refit (v > 0) it stops
	// after a status that says version v is fitted.
	timeAll := func(v int) (bool, error) {
		for k, r := range reqs {
			t0 := time.Now()
			if err := r.do(); err != nil {
				return false, fmt.Errorf("%s: %w", r.name, err)
			}
			ms := float64(time.Since(t0).Microseconds()) / 1000
			if v == 0 {
				res.Endpoints[k].Idle = append(res.Endpoints[k].Idle, ms)
				continue
			}
			res.Endpoints[k].During = append(res.Endpoints[k].During, ms)
			switch {
			case k > 0:
			case last.Fitted >= v:
				return true, nil
			case last.Error != "" && last.ErrorVersion == v:
				return false, fmt.Errorf("the refit failed: %s", last.Error)
			}
		}
		return false, nil
	}
	for range idleRounds {
		if _, err := timeAll(0); err != nil {
			return nil, err
		}
	}
	t1 := time.Now()
	v, err := s.edit(ctx, workbench.Edit{Op: workbench.OpAddSeed, Topic: t.Name, Word: ws[0]})
	if err != nil {
		return nil, err
	}
	for {
		done, err := timeAll(v)
		if err != nil {
			return nil, err
		}
		if done {
			break
		}
		time.Sleep(pollEvery)
	}
	res.Refit = time.Since(t1).Seconds()
	cfg.logf("synthetic corpus: refit in %.1f s, %d rounds of requests during it", res.Refit, len(res.Endpoints[0].During))
	if mib, err := peakmem.MiB(); err == nil {
		res.PeakMiB = mib
	}
	res.CPU, res.Wall = cpu.since(), time.Since(start).Seconds()
	return res, nil
}
