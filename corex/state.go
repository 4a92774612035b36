package corex

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
)

// State is a fitted Model in plain values, for saving it and loading it
// back (package model writes the vectors as JSON and the matrices as
// binary blocks). The training documents' topics (Model.Train) are not
// part of it: a model rebuilt from a State has a nil Train and TopDocs
// reports an error; Transform recomputes them for any documents.
type State struct {
	K          int       `json:"k"`
	Terms      int       `json:"terms"`
	Input      string    `json:"input"`
	TC         float64   `json:"tc"`
	TCs        []float64 `json:"tcs"`
	History    []float64 `json:"history,omitempty"`
	Iterations int       `json:"iterations"`
	// Convergence is unknown (the zero value) in files saved before fits
	// reported it.
	Convergence progress.Convergence `json:"convergence,omitzero"`
	Seed        uint64               `json:"seed"`
	RestartTCs  []float64            `json:"restart_tcs,omitempty"`
	Anchors     []AnchorWord         `json:"anchors,omitempty"`
	Warnings    []string             `json:"warnings,omitempty"`
	Anchored    bool                 `json:"anchored,omitempty"`
	// LogPY is log p(y_j = 1); C0 and C1 the per-topic constants of the
	// latent factor's log-likelihood; Background the Fraction input's
	// per-word background rates (nil otherwise).
	LogPY      []float64 `json:"log_py"`
	C0         []float64 `json:"c0"`
	C1         []float64 `json:"c1"`
	Background []float64 `json:"background,omitempty"`

	// Alpha, MI, MINats and Sign are K × Terms (Sign holds −1, 0, +1);
	// Info is Terms × 2K, the log-likelihood ratios Transform multiplies
	// the documents by.
	Alpha  *mat.Dense `json:"-"`
	MI     *mat.Dense `json:"-"`
	MINats *mat.Dense `json:"-"`
	Sign   *mat.Dense `json:"-"`
	Info   *mat.Dense `json:"-"`
}

// State returns the model's state. The matrices are copies.
func (m *Model) State() *State {
	sign := mat.NewDense(m.K, m.Terms, nil)
	for i := 0; i < m.Terms; i++ {
		for j := 0; j < m.K; j++ {
			sign.Set(j, i, float64(m.sign[i*m.K+j]))
		}
	}
	return &State{
		K: m.K, Terms: m.Terms, Input: m.Input.String(), TC: m.TC,
		TCs: clone(m.TCs), History: clone(m.History), Iterations: m.Iterations, Convergence: m.Convergence,
		Seed: m.Seed, RestartTCs: clone(m.RestartTCs), Anchors: append([]AnchorWord(nil), m.Anchors...),
		Warnings: append([]string(nil), m.Warnings...), Anchored: m.anchored,
		LogPY: clone(m.logPY), C0: clone(m.c0), C1: clone(m.c1), Background: clone(m.bg),
		Alpha: m.Alpha(), MI: m.MI(), MINats: m.MINats(), Sign: sign, Info: mat.DenseCopyOf(m.info),
	}
}

func clone(a []float64) []float64 {
	if a == nil {
		return nil
	}
	return append([]float64(nil), a...)
}

// FromState rebuilds a Model from s, checking every dimension and value;
// vocab, when not nil, names the columns. The result transforms documents
// exactly as the model s was taken from.
func FromState(s *State, vocab []string) (*Model, error) {
	if s == nil {
		return nil, fmt.Errorf("corex: nil state")
	}
	k, d := s.K, s.Terms
	if k <= 0 || d <= 0 {
		return nil, fmt.Errorf("corex: state has %d topics and %d terms", k, d)
	}
	if vocab != nil && len(vocab) != d {
		return nil, fmt.Errorf("corex: vocabulary of %d words for a state of %d terms", len(vocab), d)
	}
	in, err := ParseInput(s.Input)
	if err != nil {
		return nil, fmt.Errorf("corex: state: %w", err)
	}
	for name, v := range map[string][]float64{"tcs": s.TCs, "log_py": s.LogPY, "c0": s.C0, "c1": s.C1} {
		if len(v) != k {
			return nil, fmt.Errorf("corex: state field %s has %d values for %d topics", name, len(v), k)
		}
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("corex: state field %s holds %v", name, x)
			}
		}
	}
	if s.Background != nil && len(s.Background) != d {
		return nil, fmt.Errorf("corex: state field background has %d values for %d terms", len(s.Background), d)
	}
	for name, a := range map[string]*mat.Dense{"alpha": s.Alpha, "mi": s.MI, "mi_nats": s.MINats, "sign": s.Sign} {
		if a == nil {
			return nil, fmt.Errorf("corex: state matrix %s is missing", name)
		}
		if r, c := a.Dims(); r != k || c != d {
			return nil, fmt.Errorf("corex: state matrix %s is %d×%d, want %d×%d", name, r, c, k, d)
		}
	}
	if s.Info == nil {
		return nil, fmt.Errorf("corex: state matrix info is missing")
	}
	if r, c := s.Info.Dims(); r != d || c != 2*k {
		return nil, fmt.Errorf("corex: state matrix info is %d×%d, want %d×%d", r, c, d, 2*k)
	}
	for _, a := range s.Anchors {
		if a.Topic < 0 || a.Topic >= k || a.Index < 0 || a.Index >= d {
			return nil, fmt.Errorf("corex: state anchor %q (topic %d, column %d) out of range", a.Word, a.Topic, a.Index)
		}
	}
	m := &Model{
		K: k, Terms: d, Vocab: vocab, Input: in, TC: s.TC, TCs: clone(s.TCs), History: clone(s.History),
		Iterations: s.Iterations, Convergence: s.Convergence, Seed: s.Seed, RestartTCs: clone(s.RestartTCs),
		Anchors: append([]AnchorWord(nil), s.Anchors...), Warnings: append([]string(nil), s.Warnings...),
		PY: make([]float64, k), logPY: clone(s.LogPY), c0: clone(s.C0), c1: clone(s.C1), bg: clone(s.Background),
		anchored: s.Anchored, info: mat.DenseCopyOf(s.Info),
		alpha: make([]float64, d*k), mi: make([]float64, d*k), miNats: make([]float64, d*k), sign: make([]int8, d*k),
	}
	for j, lp := range s.LogPY {
		m.PY[j] = math.Exp(lp)
	}
	for j := 0; j < k; j++ {
		for i := 0; i < d; i++ {
			p := i*k + j
			m.alpha[p], m.mi[p], m.miNats[p] = s.Alpha.At(j, i), s.MI.At(j, i), s.MINats.At(j, i)
			switch v := s.Sign.At(j, i); v {
			case -1, 0, 1:
				m.sign[p] = int8(v)
			default:
				return nil, fmt.Errorf("corex: state matrix sign holds %v at (%d, %d); want −1, 0 or 1", v, j, i)
			}
		}
	}
	return m, nil
}
