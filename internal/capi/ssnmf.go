package capi

import (
	"context"
	"encoding/json"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/metrics"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/ssnmf"
)

// ssnmfReq is the request of "ssnmf_mult": the ssnmf package's SSNMF
// settings and mult's arguments. The dense inputs, in semitopic's
// orientation (documents × terms; the reference's are transposed), are
// X, S (documents × k, the reference's Sᵀ), A (k × terms, Aᵀ), and with
// labels Y (documents × classes, Yᵀ) and B (classes × k); W and L, the
// data and label masks, are optional (Wᵀ, Lᵀ).
type ssnmfReq struct {
	K        int     `json:"k"`
	ModelNum int     `json:"modelNum"`
	Lam      float64 `json:"lam"`
	Tol      float64 `json:"tol"`
	NumIters int     `json:"numiters"`
	Eps      float64 `json:"eps"`
	SaveErrs bool    `json:"saveerrs"`
	// Dense names the dense inputs and their shapes, for the code that
	// copies them in (cmd/libsemitopic); it is not read here.
	Dense json.RawMessage `json:"dense"`
}

// ssnmfLosses returns the losses of the reference's modelNum and whether
// it is supervised.
func ssnmfLosses(num int) (ssnmf.Losses, bool, error) {
	switch num {
	case 1:
		return ssnmf.Losses{Recon: nmf.Frobenius}, false, nil
	case 2:
		return ssnmf.Losses{Recon: nmf.KullbackLeibler}, false, nil
	case 3, 4, 5, 6:
		l, err := ssnmf.ParseModel(fmt.Sprint(num))
		return l, true, err
	}
	return ssnmf.Losses{}, false, fmt.Errorf("modelNum: %d, want 1 to 6", num)
}

// opSSNMFMult runs the reference's mult: numiters multiplicative updates
// from the given factors, stopping as the reference does when an
// iteration lowers its error by less than tol times the first
// iteration's error (in the reference version whose iterates ssnmf's
// testdata records, which keeps the stopping iteration's errors). With
// saveerrs it also returns every iteration's errors as the reference
// measures them (the Frobenius norm, not its square, and the
// I-divergence) and the accuracy.
func opSSNMFMult(ctx context.Context, raw json.RawMessage, _ any, in Input, report progress.Func) (any, error) {
	var req ssnmfReq
	if err := decode(raw, &req); err != nil {
		return nil, err
	}
	losses, supervised, err := ssnmfLosses(req.ModelNum)
	if err != nil {
		return nil, err
	}
	x, s, a := in.Dense["X"], in.Dense["S"], in.Dense["A"]
	if x == nil || s == nil || a == nil {
		return nil, runtimeErr("ssnmf_mult needs X, S and A")
	}
	if req.NumIters < 0 {
		return nil, fmt.Errorf("numiters: %d, want ≥ 0", req.NumIters)
	}
	cfg := ssnmf.Config{K: req.K, Losses: losses, W0: s, H0: a, Epsilon: req.Eps, DataWeights: in.Dense["W"]}
	if supervised {
		y, b := in.Dense["Y"], in.Dense["B"]
		if y == nil || b == nil {
			return nil, fmt.Errorf("label matrix Y: modelNum %d needs a label matrix Y", req.ModelNum)
		}
		cfg.Y, cfg.B0, cfg.Lambda, cfg.LabelWeights = y, b, req.Lam, in.Dense["L"]
	}
	res := &Result{Mats: map[string]*mat.Dense{}}
	meta := map[string]any{}
	if req.NumIters == 0 {
		res.Mats["S"], res.Mats["A"] = s, a
		if supervised {
			res.Mats["B"] = cfg.B0
		}
		meta["iterations"] = 0
		res.Meta = meta
		return res, nil
	}
	var m *ssnmf.Model
	// One iteration per Fit where one Fit cannot follow the reference:
	// to record every iteration's errors, where the reference's model 1
	// stops by the norm (ssnmf by its square), and at tol 0 (ssnmf's
	// default, not the reference's "stop once the error rises").
	loop := req.SaveErrs || req.Tol == 0 || (req.ModelNum == 1 && req.Tol > 0)
	if !loop {
		cfg.MaxIter, cfg.Tol, cfg.Progress = req.NumIters, req.Tol, report
		if m, err = ssnmf.Fit(ctx, x, cfg); err != nil {
			return nil, err
		}
		meta["iterations"] = m.Iterations
	} else {
		var errs, recon, class, accs []float64
		var first, prev float64
		cfg.MaxIter, cfg.Tol = 1, -1
		for i := 0; i < req.NumIters; i++ {
			if m, err = ssnmf.Fit(ctx, x, cfg); err != nil {
				return nil, err
			}
			r, q := refError(losses.Recon, m.Recon), 0.0
			cur := m.Objective[1]
			if !supervised && losses.Recon == nmf.Frobenius {
				cur = r // model 1 measures the norm
			}
			report(progress.Step{Iter: i + 1, Total: req.NumIters, Objective: cur})
			errs = append(errs, cur)
			if supervised {
				q = refError(losses.Sup, m.Sup)
				recon, class = append(recon, r), append(class, q)
				accs = append(accs, accuracy(cfg.Y, m))
			}
			cfg.W0, cfg.H0, cfg.B0 = m.W, m.H, m.B
			meta["iterations"] = i + 1
			if i == 0 {
				first = cur
			}
			if i > 0 && (prev-cur)/first < req.Tol {
				break
			}
			prev = cur
		}
		meta["errs"] = errs
		if supervised {
			meta["reconerrs"], meta["classerrs"], meta["classaccs"] = recon, class, accs
		}
	}
	res.Mats["S"], res.Mats["A"] = m.W, m.H
	if m.B != nil {
		res.Mats["B"] = m.B
	}
	if !loop {
		meta["objective"] = m.Objective
	}
	res.Meta = meta
	return res, nil
}

// refError returns the reference's measure of a term whose value in
// package ssnmf's objective is v: the Frobenius norm (v is its square)
// or the I-divergence.
func refError(l nmf.Loss, v float64) float64 {
	if l == nmf.Frobenius {
		return math.Sqrt(v)
	}
	return v
}

// accuracy is the reference's accuracy: the share of documents whose
// largest entry of Y is in the column where W·Bᵀ is largest.
func accuracy(y *mat.Dense, m *ssnmf.Model) float64 {
	sc, err := m.Scores(m.W)
	if err != nil {
		return math.NaN()
	}
	want, got := metrics.ArgmaxRows(y), metrics.ArgmaxRows(sc)
	right := 0
	for i := range want {
		if want[i] == got[i] {
			right++
		}
	}
	return float64(right) / float64(len(want))
}
