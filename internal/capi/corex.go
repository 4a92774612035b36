package capi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/corex"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/supervision"
)

// corexModel is a CorEx model of the corextopic drop-in under a handle.
type corexModel struct {
	m *corex.Model
	// seconds is the wall time of corex.Fit (0 for a model from a state).
	seconds float64
}

// corexReq is the request of "corex_fit": corextopic's Corex arguments.
type corexReq struct {
	NHidden int     `json:"n_hidden"`
	MaxIter int     `json:"max_iter"`
	Eps     float64 `json:"eps"`
	Seed    uint64  `json:"seed"`
	Count   string  `json:"count"`
	// Anchors[j] lists the columns anchored to topic j.
	Anchors        [][]int  `json:"anchors"`
	AnchorStrength float64  `json:"anchor_strength"`
	Words          []string `json:"words"`
}

// opCorexFit fits CorEx as corextopic's Corex does, on its random stream
// (corex.Config.NumpyRandom), so that a seed gives the reference's fit.
func opCorexFit(ctx context.Context, raw json.RawMessage, _ any, in Input, report progress.Func) (any, error) {
	var req corexReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if in.X == nil {
		return nil, fmt.Errorf("input X: no matrix")
	}
	count := req.Count
	if count == "" {
		count = "binarize"
	}
	input, err := corex.ParseInput(count)
	if err != nil {
		return nil, fmt.Errorf("count: %w", err)
	}
	if req.Words != nil && len(req.Words) != in.X.Cols {
		return nil, fmt.Errorf("words: %d words for %d columns", len(req.Words), in.X.Cols)
	}
	strength := req.AnchorStrength
	if strength == 0 {
		strength = 1
	}
	if !(strength > 0) || math.IsInf(strength, 0) {
		return nil, fmt.Errorf("anchor_strength: %v, want a finite number > 0", req.AnchorStrength)
	}
	if len(req.Anchors) > req.NHidden {
		return nil, fmt.Errorf("anchors: %d anchored topics for n_hidden = %d", len(req.Anchors), req.NHidden)
	}
	var seeds supervision.Terms
	for j, cols := range req.Anchors {
		for _, c := range cols {
			if c < 0 || c >= in.X.Cols {
				return nil, fmt.Errorf("anchors: topic %d: column %d out of range [0, %d)", j, c, in.X.Cols)
			}
			seeds.Seeds = append(seeds.Seeds, supervision.Seed{Topic: j, Term: c, Strength: strength})
		}
	}
	cfg := corex.Config{
		K: req.NHidden, MaxIter: req.MaxIter, Tol: req.Eps, Seed: req.Seed, Input: input,
		Vocab: req.Words, Seeds: seeds, Beta: strength, NumpyRandom: true, Progress: report,
	}
	start := time.Now()
	m, err := corex.Fit(ctx, in.X, cfg)
	if err != nil {
		return nil, err
	}
	return &corexModel{m: m, seconds: time.Since(start).Seconds()}, nil
}

// describe returns the fit's figures and, as a result's matrices do not
// suit a model handle, nothing of its matrices (see opCorexInfer).
func (o *corexModel) describe() (any, error) {
	m := o.m
	return map[string]any{
		"tc": m.TC, "tcs": m.TCs, "tc_history": m.History, "iterations": m.Iterations,
		"converged": m.Convergence.Status == progress.Converged, "clusters": m.Clusters(),
		"n_hidden": m.K, "terms": m.Terms, "words": m.Vocab, "warnings": m.Warnings, "fit_seconds": o.seconds,
	}, nil
}

// opCorexInfer returns p(y|x), log p(y|x) and the pointwise TC of the
// documents in.X, or of the training documents (with the model's α, MI
// and signs) when there is none.
func opCorexInfer(ctx context.Context, _ json.RawMessage, t any, in Input, _ progress.Func) (any, error) {
	o, err := target[*corexModel](t, "a CorEx model")
	if err != nil {
		return nil, err
	}
	m := o.m
	if in.X == nil {
		st := m.State()
		return &Result{Mats: map[string]*mat.Dense{
			"p_y_given_x": m.Train.P, "log_p_y_given_x": m.Train.LogP, "log_z": m.Train.LogZ,
			"alpha": st.Alpha, "mis": st.MI, "sign": st.Sign,
		}}, nil
	}
	dt, err := m.Infer(ctx, in.X)
	if err != nil {
		return nil, fmt.Errorf("input X: %w", err)
	}
	return &Result{Mats: map[string]*mat.Dense{"p_y_given_x": dt.P, "log_p_y_given_x": dt.LogP, "log_z": dt.LogZ}}, nil
}

// corexWord is one of a topic's words as get_topics lists it.
type corexWord struct {
	Word  string  `json:"word"`
	Index int     `json:"index"`
	MI    float64 `json:"mi"`
	Sign  int     `json:"sign"`
}

// opCorexTopics returns every topic's n top words in corextopic's
// get_topics order (α·MI, corex.ByWeightedMI).
func opCorexTopics(_ context.Context, raw json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*corexModel](t, "a CorEx model")
	if err != nil {
		return nil, err
	}
	var req struct {
		N int `json:"n"`
	}
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	out := make([][]corexWord, o.m.K)
	for j := range out {
		ws, err := o.m.TopWords(j, req.N, corex.ByWeightedMI)
		if err != nil {
			return nil, err
		}
		out[j] = make([]corexWord, len(ws))
		for i, w := range ws {
			out[j][i] = corexWord{Word: w.Term, Index: w.Index, MI: w.MI, Sign: w.Sign}
		}
	}
	return &Result{Meta: out}, nil
}

// opCorexState returns the model's corex.State: its values as the
// metadata, its matrices as the result's (for pickling a drop-in Corex).
func opCorexState(_ context.Context, _ json.RawMessage, t any, _ Input, _ progress.Func) (any, error) {
	o, err := target[*corexModel](t, "a CorEx model")
	if err != nil {
		return nil, err
	}
	st := o.m.State()
	return &Result{
		Meta: map[string]any{"state": st, "words": o.m.Vocab},
		Mats: map[string]*mat.Dense{"alpha": st.Alpha, "mi": st.MI, "mi_nats": st.MINats, "sign": st.Sign, "info": st.Info},
	}, nil
}

// opCorexFromState rebuilds a model from what opCorexState returned: the
// state's values in the request, its matrices as the dense inputs.
func opCorexFromState(_ context.Context, raw json.RawMessage, _ any, in Input, _ progress.Func) (any, error) {
	var req struct {
		State *corex.State    `json:"state"`
		Words []string        `json:"words"`
		Dense json.RawMessage `json:"dense"`
	}
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	if req.State == nil {
		return nil, fmt.Errorf("state: missing")
	}
	st := req.State
	st.Alpha, st.MI, st.MINats, st.Sign, st.Info = in.Dense["alpha"], in.Dense["mi"], in.Dense["mi_nats"], in.Dense["sign"], in.Dense["info"]
	m, err := corex.FromState(st, req.Words)
	if err != nil {
		return nil, err
	}
	return &corexModel{m: m}, nil
}
