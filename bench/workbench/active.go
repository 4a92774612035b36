package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/semitopic/semitopic/classify"
	"github.com/semitopic/semitopic/experiment/labelefficiency"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/model"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/vectorize"
	"github.com/semitopic/semitopic/workbench"
)

// The simulated person's two ways of choosing documents.
const (
	armProposals = "proposed"
	armRandom    = "random"
)

// activeResult is the simulated person's curves.
type activeResult struct {
	Kind string
	Arms []*activeArm
	// SVMPreset is the pipeline of the SVM's features.
	SVMPreset string
}

// activeArm is one way of choosing the documents to label, round after
// round.
type activeArm struct {
	Name   string
	Points []activePoint
	// Proposed counts the documents /api/suggest proposed (proposals
	// arm): fewer than the round's share when it ran out.
	Proposed int
	CPU      cpuTimes
	Wall     float64
}

// activePoint is the state after one round.
type activePoint struct {
	// Labels counts the labeled documents, Classes their classes.
	Labels, Classes int
	// Workbench is the test accuracy (%) of the exported model, SVM that
	// of a linear SVM trained on the same labels (NaN: fewer than two
	// classes).
	Workbench, SVM float64
	// Seconds is the time from the first label edit of the round to the
	// topics of its refit.
	Seconds float64
}

// svmData is the SVM's features: the training and test documents
// through the default pipeline fitted on the training documents.
type svmData struct {
	train *sparse.CSR
	row   map[string]int // training document ID → row of train
	test  *sparse.CSR
	// truth is each test document's class index (in ds.classes).
	truth []int
}

// runActive runs the simulated person: for each arm, a session of
// cfg.activeKind on the training set that starts without labels; each
// round the person labels cfg.perRound documents — those /api/suggest
// proposes, or random ones — with their true labels, waits for the
// refit, and the exported model and a linear SVM on the same labels are
// scored on the test set.
func runActive(ctx context.Context, cfg *config, ds *dataset, dir string) (*activeResult, error) {
	res := &activeResult{Kind: cfg.activeKind, SVMPreset: "default"}
	sd, err := svmFeatures(ctx, ds, res.SVMPreset)
	if err != nil {
		return nil, err
	}
	for _, arm := range []string{armProposals, armRandom} {
		a, err := runArm(ctx, cfg, ds, sd, arm, dir+"-"+arm)
		if err != nil {
			return nil, fmt.Errorf("%s documents: %w", arm, err)
		}
		res.Arms = append(res.Arms, a)
	}
	return res, nil
}

// svmFeatures vectorizes the training and test documents for the SVM.
func svmFeatures(ctx context.Context, ds *dataset, preset string) (*svmData, error) {
	p, err := vectorize.PipelinePreset(preset)
	if err != nil {
		return nil, err
	}
	vec, tr, err := p.FitTransform(ctx, ds.train.Docs)
	if err != nil {
		return nil, err
	}
	te, err := vec.Transform(ctx, ds.test)
	if err != nil {
		return nil, err
	}
	if len(te.Docs) != len(ds.test) {
		return nil, fmt.Errorf("the %s pipeline kept %d of the %d test documents", preset, len(te.Docs), len(ds.test))
	}
	sd := &svmData{train: tr.X, row: map[string]int{}, test: te.X}
	for r, d := range tr.Docs {
		sd.row[d.ID] = r
	}
	for _, d := range te.Docs {
		sd.truth = append(sd.truth, slices.Index(ds.classes, ds.class[d.ID]))
	}
	return sd, nil
}

func runArm(ctx context.Context, cfg *config, ds *dataset, sd *svmData, arm, dir string) (*activeArm, error) {
	a := &activeArm{Name: arm}
	cpu, start := readCPU(), time.Now()
	// The session opens without labels with the default kind, as
	// `semitopic workbench` does; the first labels make it the default
	// kind that learns from them, and the person then chooses theirs.
	s, err := serve(ctx, openConfig(cfg, ds, workbench.DefaultKind, dir))
	if err != nil {
		return nil, err
	}
	defer s.close()
	labeled := map[string]string{}
	var order []string
	for _, d := range ds.train.Docs {
		order = append(order, d.ID)
	}
	order = shuffled(rng.New(cfg.seed, 0, randomSalt), order)
	next := 0
	for round := 1; round <= cfg.rounds; round++ {
		var ids []string
		if arm == armProposals {
			sg, err := s.suggest(ctx)
			if err != nil {
				return nil, err
			}
			for _, d := range sg.Label {
				if labeled[d.ID] == "" && len(ids) < cfg.perRound {
					ids = append(ids, d.ID)
				}
			}
			a.Proposed += len(ids)
		} else {
			for ; next < len(order) && len(ids) < cfg.perRound; next++ {
				if labeled[order[next]] == "" {
					ids = append(ids, order[next])
				}
			}
		}
		if len(ids) == 0 {
			cfg.logf("active %s: round %d: no document to label", arm, round)
			break
		}
		// One label edit per class, as a person labels a selection.
		byClass := map[string][]string{}
		for _, id := range ids {
			c := ds.class[id]
			byClass[c] = append(byClass[c], id)
			labeled[id] = c
		}
		t0 := time.Now()
		v := 0
		for _, c := range ds.classes {
			if len(byClass[c]) == 0 {
				continue
			}
			if v, err = s.edit(ctx, workbench.Edit{Op: workbench.OpLabel, Docs: byClass[c], Label: c}); err != nil {
				return nil, fmt.Errorf("round %d: labeling %q: %w", round, c, err)
			}
		}
		if st, err := s.state(ctx); err != nil {
			return nil, err
		} else if st.Kind != cfg.activeKind {
			if v, err = s.edit(ctx, workbench.Edit{Op: workbench.OpSetKind, Kind: cfg.activeKind}); err != nil {
				return nil, fmt.Errorf("round %d: %w", round, err)
			}
		}
		if _, err := s.wait(ctx, v); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		if _, err := s.topics(ctx, 10); err != nil {
			return nil, err
		}
		pt := activePoint{Labels: len(labeled), Seconds: time.Since(t0).Seconds()}
		if pt.Workbench, err = scoreExport(ctx, s, ds); err != nil {
			return nil, fmt.Errorf("round %d: %w", round, err)
		}
		if pt.SVM, pt.Classes, err = scoreSVM(ctx, sd, ds, labeled, cfg.seed); err != nil {
			return nil, fmt.Errorf("round %d: SVM: %w", round, err)
		}
		a.Points = append(a.Points, pt)
		cfg.logf("active %s: round %d: %d labels (%d classes): workbench %.1f%%, SVM %.1f%% (refit %.1f s)", arm, round, pt.Labels, pt.Classes, pt.Workbench, pt.SVM, pt.Seconds)
	}
	a.CPU, a.Wall = cpu.since(), time.Since(start).Seconds()
	return a, nil
}

// scoreExport downloads the current round's model (GET
// /api/export/model) and returns its accuracy (%) on the test documents:
// a document counts as right when its predicted label is its class
// (model.Prediction.Accuracy; a document with no known term is wrong).
func scoreExport(ctx context.Context, s *served, ds *dataset) (float64, error) {
	b, err := s.export(ctx, workbench.ExportModel)
	if err != nil {
		return 0, err
	}
	f, err := model.Load(bytes.NewReader(b))
	if err != nil {
		return 0, fmt.Errorf("the exported model: %w", err)
	}
	p, ok := model.AsPredictor(f.Model)
	if !ok {
		return math.NaN(), nil
	}
	res, err := f.Vectorize(ctx, ds.test)
	if err != nil {
		return 0, err
	}
	pred, err := p.Predict(ctx, res.X)
	if err != nil {
		return 0, err
	}
	truth := make([][]string, len(res.Docs))
	for i, d := range res.Docs {
		truth[i] = []string{ds.class[d.ID]}
	}
	right, _, _, err := pred.Accuracy(truth)
	if err != nil {
		return 0, err
	}
	return rate(right, len(ds.test)), nil
}

// scoreSVM trains a linear SVM on the labeled documents' features and
// returns its test accuracy (%, NaN with fewer than two classes) and the
// number of classes it learned.
func scoreSVM(ctx context.Context, sd *svmData, ds *dataset, labeled map[string]string, seed uint64) (float64, int, error) {
	var rows, y []int
	classes := map[int]bool{}
	ids := make([]string, 0, len(labeled))
	for id := range labeled {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		r, ok := sd.row[id]
		if !ok {
			continue
		}
		c := slices.Index(ds.classes, labeled[id])
		rows, y = append(rows, r), append(y, c)
		classes[c] = true
	}
	if len(classes) < 2 {
		return math.NaN(), len(classes), nil
	}
	pred, err := labelefficiency.TrainPredict(ctx, &classify.LinearSVC{Seed: seed}, sd.train.SelectRows(rows), y, sd.test)
	if err != nil {
		return 0, 0, err
	}
	right := 0
	for j, p := range pred {
		if p == sd.truth[j] {
			right++
		}
	}
	return rate(right, len(pred)), len(classes), nil
}
