package theme

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/internal/enum"
	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/internal/rng"
	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// TopicKind says what a topic (a column of W, a row of H) stands for.
type TopicKind int

// The kinds of topic.
const (
	// Subtopic is one of a theme's s subtopics.
	Subtopic TopicKind = iota
	// NewTopic is one of the new-topics pseudo-theme's topics.
	NewTopic
	// Background is a background topic.
	Background
)

var kindNames = []string{"subtopic", "new", "background"}

// MarshalText writes the kind's name, so that saved models hold names.
func (k TopicKind) MarshalText() ([]byte, error) {
	return enum.MarshalText(k, kindNames, "topic kind")
}

// UnmarshalJSON reads a kind's name, or the integer older files hold.
func (k *TopicKind) UnmarshalJSON(b []byte) error {
	return enum.UnmarshalJSON(b, k, kindNames, "topic kind")
}

// String returns "subtopic", "new" or "background".
func (k TopicKind) String() string { return enum.Name(k, kindNames, "TopicKind") }

// Topic describes one topic of a Part.
type Topic struct {
	Kind TopicKind `json:"kind"`
	// Theme is the theme index of a subtopic (-1 for the other kinds).
	Theme int `json:"theme"`
	// Index numbers the subtopics of a theme, or the new topics, from 0.
	Index int `json:"index"`
}

// Part is one factorization X ≈ WH of a model: the only one in Combined
// training, one per theme (and one for the new topics) in Separated
// training.
type Part struct {
	// Theme is the theme a Separated part models, NewTopicsTheme for the
	// new-topics model, AllThemes for the Combined model.
	Theme int `json:"theme"`
	// Topics describes each column of W and row of H; Background is the
	// index of the part's background topic (always the last).
	Topics     []Topic `json:"topics"`
	Background int     `json:"background"`
	// W (training documents × topics) and H (topics × terms) are the
	// fitted factors; forbidden entries of W are exactly zero.
	W *mat.Dense `json:"-"`
	H *mat.Dense `json:"-"`
	// Iterations, Objective and Convergence report the fit (Convergence
	// is unknown in files saved before fits reported it).
	Iterations  int                  `json:"iterations"`
	Objective   float64              `json:"objective"`
	Convergence progress.Convergence `json:"convergence,omitzero"`
}

// The values of Part.Theme that are not a theme index.
const (
	AllThemes      = -1
	NewTopicsTheme = -2
)

// Model is a fitted theme-supervised NMF model.
type Model struct {
	// Themes names the themes; theme j is Themes[j].
	Themes []string
	// Subtopics is s, NewTopics the number of new topics.
	Subtopics, NewTopics int
	// Mode, Loss, Init, NoThemeBackground, Stop, Tol and MaxIter are
	// the configuration the model was fitted with (Transform uses the last
	// three).
	Mode              Mode
	Loss              nmf.Loss
	Init              Init
	NoThemeBackground bool
	Stop              StopRule
	Tol               float64
	MaxIter           int
	// Parts are the factorizations: one (Combined) or one per theme
	// followed by the new-topics model if any (Separated).
	Parts []*Part
	// Terms is the number of columns of X.
	Terms int
	// Labeled and Unlabeled count the training documents.
	Labeled, Unlabeled int
	// Elapsed is the wall time of the fit.
	Elapsed time.Duration
	// Convergence says how the fit ended, the worst of its parts':
	// cancelled if any part was, else stopped at MaxIter if any part
	// was (with that part's last measurement), else converged.
	Convergence progress.Convergence

	// prepared holds each part's H prepared for transforms (Prepare).
	prepared []*nmf.FixedH
}

// Prepare computes, once, what transforms need from the parts' H alone
// (see nmf.FixedH), so that transforming a few documents costs in
// proportion to them. Fit prepares the models it returns; a model built
// otherwise (loaded from a file) should be prepared before serving.
// Changing a part's H afterwards requires another Prepare; a replaced H
// is noticed, an H modified in place is not.
func (m *Model) Prepare() error {
	if err := m.check(); err != nil {
		return err
	}
	prepared := make([]*nmf.FixedH, len(m.Parts))
	for i, p := range m.Parts {
		f, err := nmf.NewFixedH(p.H)
		if err != nil {
			return fmt.Errorf("theme: part %d: %w", i, err)
		}
		prepared[i] = f
	}
	m.prepared = prepared
	return nil
}

// fixedParts returns each part's prepared H: those of Prepare when they
// are current, else prepared for this call only.
func (m *Model) fixedParts() ([]*nmf.FixedH, error) {
	current := len(m.prepared) == len(m.Parts)
	for i := 0; current && i < len(m.Parts); i++ {
		current = m.Parts[i] != nil && m.prepared[i].H() == m.Parts[i].H
	}
	if current {
		return m.prepared, nil
	}
	c := *m
	c.prepared = nil
	if err := c.Prepare(); err != nil {
		return nil, err
	}
	return c.prepared, nil
}

// themeParts returns, for theme j, the part and the column of each of its
// subtopics.
func (m *Model) subtopicColumns(j int) (p *Part, cols []int) {
	if m.Mode == Combined {
		p = m.Parts[0]
		for q := 0; q < m.Subtopics; q++ {
			cols = append(cols, j*m.Subtopics+q)
		}
		return p, cols
	}
	p = m.Parts[j]
	for q := 0; q < m.Subtopics; q++ {
		cols = append(cols, q)
	}
	return p, cols
}

// newTopicColumns returns the part and columns of the new topics (nil
// without new topics).
func (m *Model) newTopicColumns() (p *Part, cols []int) {
	if m.NewTopics == 0 {
		return nil, nil
	}
	if m.Mode == Combined {
		p = m.Parts[0]
		base := len(m.Themes) * m.Subtopics
		for q := 0; q < m.NewTopics; q++ {
			cols = append(cols, base+q)
		}
		return p, cols
	}
	p = m.Parts[len(m.Themes)]
	for q := 0; q < m.NewTopics; q++ {
		cols = append(cols, q)
	}
	return p, cols
}

// toCSR returns x as a CSR matrix (converting a dense one).
func toCSR(x nmf.Matrix) (*sparse.CSR, error) {
	switch v := x.(type) {
	case nil:
		return nil, fmt.Errorf("theme: X is nil")
	case *sparse.CSR:
		if v == nil {
			return nil, fmt.Errorf("theme: X is nil")
		}
		if err := v.Validate(); err != nil {
			return nil, fmt.Errorf("theme: X: %w", err)
		}
		return v, nil
	case mat.Matrix:
		if d, ok := v.(*mat.Dense); ok && (d == nil || d.IsEmpty()) {
			return nil, fmt.Errorf("theme: X is empty")
		}
		r, c := v.Dims()
		if r == 0 || c == 0 {
			return nil, fmt.Errorf("theme: X is empty (%d×%d)", r, c)
		}
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if e := v.At(i, j); math.IsNaN(e) || math.IsInf(e, 0) {
					return nil, fmt.Errorf("theme: X has a non-finite entry %v at row %d, column %d", e, i, j)
				}
			}
		}
		return sparse.FromDense(v), nil
	}
	return nil, fmt.Errorf("theme: X has unsupported type %T (want *sparse.CSR or a gonum mat.Matrix)", x)
}

// checkLabels validates the theme lists against K themes and n documents
// and counts the labeled documents.
func checkLabels(labels [][]int, n, k int) (labeled int, err error) {
	if len(labels) != n {
		return 0, fmt.Errorf("theme: %d theme lists for %d documents", len(labels), n)
	}
	for i, ls := range labels {
		if len(ls) > 0 {
			labeled++
		}
		for a, t := range ls {
			if t < 0 || t >= k {
				return 0, fmt.Errorf("theme: document %d has theme %d, out of range [0,%d)", i, t, k)
			}
			for _, u := range ls[:a] {
				if u == t {
					return 0, fmt.Errorf("theme: document %d lists theme %d twice", i, t)
				}
			}
		}
	}
	return labeled, nil
}

// Fit fits a theme-supervised NMF model to X (documents × terms, a
// *sparse.CSR or a dense gonum matrix, non-negative) with the themes of
// each document, cfg.Labels (see Config). With every document labeled the
// fit is fully supervised; score new documents with Model.Transform.
//
// It is an error if there are no themes, no labeled document, a theme
// index out of range, NewTopics without an unlabeled document, or bad
// values in X (see nmf.Fit). A theme without labeled documents is allowed:
// its subtopics are then used by unlabeled documents only. When ctx is
// done, every factorization stops and Fit returns the model they left —
// each part as its last complete iteration left it, possibly its start —
// together with ctx's error (only the error when the starting points were
// not yet computed).
func Fit(ctx context.Context, x nmf.Matrix, cfg Config) (*Model, error) {
	t0 := time.Now()
	labels, themes := cfg.Labels, cfg.Themes
	cfg, err := cfg.resolve()
	if err != nil {
		return nil, err
	}
	X, err := toCSR(x)
	if err != nil {
		return nil, err
	}
	n, m := X.Dims()
	k := len(themes)
	if k == 0 {
		return nil, fmt.Errorf("theme: no themes")
	}
	labeled, err := checkLabels(labels, n, k)
	if err != nil {
		return nil, err
	}
	if labeled == 0 {
		return nil, fmt.Errorf("theme: no labeled document among %d", n)
	}
	if err := (supervision.Terms{Exclude: cfg.Exclude}).Check(k, m); err != nil {
		return nil, fmt.Errorf("theme: Exclude (topics are themes): %w", err)
	}
	if cfg.NewTopics > 0 && labeled == n {
		return nil, fmt.Errorf("theme: %d new topics need unlabeled documents, but all %d are labeled", cfg.NewTopics, n)
	}
	model := &Model{
		Themes: append([]string(nil), themes...), Subtopics: cfg.Subtopics, NewTopics: cfg.NewTopics,
		Mode: cfg.Mode, Loss: cfg.Loss, Init: cfg.Init, NoThemeBackground: cfg.NoThemeBackground,
		Stop: cfg.Stop, Tol: cfg.Tol, MaxIter: cfg.MaxIter,
		Terms: m, Labeled: labeled, Unlabeled: n - labeled,
	}
	model.Parts = model.layout()

	// Starting H rows: per theme s rows, the new topics' rows, one
	// background row (shared by every Separated part).
	var starts *startRows
	if cfg.Init == InitBCool {
		starts = bCool(X, labels, k, cfg.Subtopics, cfg.NewTopics, cfg.Seed, cfg.BackgroundEveryTheme)
	}

	jobs := make([]func() error, len(model.Parts))
	for pi, p := range model.Parts {
		pi, p := pi, p
		jobs[pi] = func() error {
			mask := model.trainingMask(p, labels)
			r := rng.New(cfg.Seed, uint64(pi), 0x7468656d65) // "theme"
			w0 := mat.NewDense(n, len(p.Topics), nil)
			raw := w0.RawMatrix().Data
			for i := range raw {
				raw[i] = r.Float64()
			}
			w0.MulElem(w0, mask)
			var h0, hmask *mat.Dense
			if starts != nil {
				h0 = starts.forPart(model, p, X)
				if !cfg.ReviveZeros {
					hmask = supportMask(h0)
					// The new topics are there to find what the labels
					// do not cover: their rows are never held at zero.
					for t, tp := range p.Topics {
						if tp.Kind == NewTopic {
							row := hmask.RawRowView(t)
							for j := range row {
								row[j] = 1
							}
						}
					}
				}
			} else {
				h0 = randomH(X, len(p.Topics), r)
			}
			ec := nmf.Config{
				K: len(p.Topics), Loss: cfg.Loss, Init: nmf.InitCustom, W0: w0, H0: h0,
				WMask: mask, HMask: hmask, Seeds: supervision.Terms{Exclude: partExclusions(p, cfg.Exclude)},
				MaxIter: cfg.MaxIter, Stop: engineStop(cfg.Stop, cfg.Tol),
			}
			res, err := nmf.Fit(ctx, X, ec)
			if res != nil { // complete, or partial when ctx is done
				p.W, p.H = res.W, res.H
				p.Iterations, p.Objective, p.Convergence = res.Iterations, res.FinalObjective(), res.Convergence
			}
			if err != nil {
				if p.Theme >= 0 {
					return fmt.Errorf("theme: fitting the model of theme %q: %w", themes[p.Theme], err)
				}
				return fmt.Errorf("theme: fitting: %w", err)
			}
			return nil
		}
	}
	err = runJobs(ctx, jobs, cfg.Progress, t0)
	if err != nil && (ctx.Err() == nil || !model.fitted()) {
		return nil, err
	}
	model.Elapsed = time.Since(t0)
	model.Convergence = model.convergence(err != nil)
	if err := model.Prepare(); err != nil {
		return nil, err
	}
	return model, err
}

// layout returns the model's parts with their topics (factors unset).
func (m *Model) layout() []*Part {
	k, s := len(m.Themes), m.Subtopics
	if m.Mode == Combined {
		p := &Part{Theme: AllThemes}
		for j := 0; j < k; j++ {
			for q := 0; q < s; q++ {
				p.Topics = append(p.Topics, Topic{Kind: Subtopic, Theme: j, Index: q})
			}
		}
		for q := 0; q < m.NewTopics; q++ {
			p.Topics = append(p.Topics, Topic{Kind: NewTopic, Theme: -1, Index: q})
		}
		p.Background = len(p.Topics)
		p.Topics = append(p.Topics, Topic{Kind: Background, Theme: -1})
		return []*Part{p}
	}
	var parts []*Part
	for j := 0; j < k; j++ {
		p := &Part{Theme: j}
		for q := 0; q < s; q++ {
			p.Topics = append(p.Topics, Topic{Kind: Subtopic, Theme: j, Index: q})
		}
		p.Background = s
		p.Topics = append(p.Topics, Topic{Kind: Background, Theme: -1})
		parts = append(parts, p)
	}
	if m.NewTopics > 0 {
		p := &Part{Theme: NewTopicsTheme}
		for q := 0; q < m.NewTopics; q++ {
			p.Topics = append(p.Topics, Topic{Kind: NewTopic, Theme: -1, Index: q})
		}
		p.Background = m.NewTopics
		p.Topics = append(p.Topics, Topic{Kind: Background, Theme: -1})
		parts = append(parts, p)
	}
	return parts
}

// allowed reports whether a document with the given themes (nil:
// unlabeled) may use topic t of part p.
func (m *Model) allowed(p *Part, t Topic, themes []int) bool {
	if len(themes) == 0 {
		return true
	}
	switch t.Kind {
	case Subtopic:
		for _, j := range themes {
			if j == t.Theme {
				return true
			}
		}
		return false
	case NewTopic:
		return false
	}
	// Background.
	if m.Mode == Separated && m.NoThemeBackground && p.Theme >= 0 {
		for _, j := range themes {
			if j == p.Theme {
				return false
			}
		}
	}
	return true
}

// trainingMask builds the documents × topics mask of part p.
func (m *Model) trainingMask(p *Part, labels [][]int) *mat.Dense {
	mask := mat.NewDense(len(labels), len(p.Topics), nil)
	for i, ls := range labels {
		row := mask.RawRowView(i)
		for t, tp := range p.Topics {
			if m.allowed(p, tp, ls) {
				row[t] = 1
			}
		}
	}
	return mask
}

// partExclusions returns the exclusions of part p's topics: each
// subtopic's theme's excluded terms, the subtopic's index in the part as
// the topic.
func partExclusions(p *Part, exclude []supervision.Exclusion) []supervision.Exclusion {
	if len(exclude) == 0 {
		return nil
	}
	byTheme := map[int][]int{}
	for _, e := range exclude {
		byTheme[e.Topic] = append(byTheme[e.Topic], e.Term)
	}
	var out []supervision.Exclusion
	for t, tp := range p.Topics {
		if tp.Kind != Subtopic {
			continue
		}
		for _, c := range byTheme[tp.Theme] {
			out = append(out, supervision.Exclusion{Topic: t, Term: c})
		}
	}
	return out
}

// supportMask returns the 0/1 mask of the non-zero entries of h.
func supportMask(h *mat.Dense) *mat.Dense {
	r, c := h.Dims()
	mask := mat.NewDense(r, c, nil)
	src, dst := h.RawMatrix().Data, mask.RawMatrix().Data
	for i, v := range src {
		if v != 0 {
			dst[i] = 1
		}
	}
	return mask
}

// randomH draws a k × m starting H Uniform[0, 2·√(mean(X)/k)).
func randomH(x *sparse.CSR, k int, r rng.Source) *mat.Dense {
	n, m := x.Dims()
	sum := 0.0
	for _, v := range x.Data {
		sum += v
	}
	scale := 2 * math.Sqrt(sum/(float64(n)*float64(m))/float64(k))
	h := mat.NewDense(k, m, nil)
	raw := h.RawMatrix().Data
	for i := range raw {
		raw[i] = r.Float64() * scale
	}
	return h
}

// runJobs runs independent jobs on at most parallel.Workers() goroutines,
// each taking the next job when it becomes free, and returns the first
// error; no job starts after an error other than ctx's. Once ctx is done
// the remaining jobs still run (they return at once with their starting
// state) and runJobs returns ctx's error. report, when
// not nil, receives one call at a time after each job that succeeded: Iter
// the jobs done, Total their number, Elapsed the time since t0.
func runJobs(ctx context.Context, jobs []func() error, report progress.Func, t0 time.Time) error {
	var (
		mu        sync.Mutex
		done      int
		cancelled error
	)
	err := parallel.ForDynamic(context.WithoutCancel(ctx), len(jobs), 1, 0, func(_, j, _ int) error {
		err := jobs[j]()
		mu.Lock()
		defer mu.Unlock()
		if err != nil && ctx.Err() != nil && errors.Is(err, ctx.Err()) {
			cancelled = err
			return nil
		}
		done++
		if err == nil && report != nil {
			report(progress.Step{Iter: done, Total: len(jobs), Runs: 1, Objective: math.NaN(), Elapsed: time.Since(t0)})
		}
		return err
	})
	if err == nil {
		err = cancelled
	}
	if err == nil {
		// Cancelled while the last jobs ran, too late for them to see
		// it: still a cancelled fit, as documented (and as the caller's
		// Progress, which may have cancelled, expects).
		err = ctx.Err()
	}
	return err
}

// convergence is how the fit of the parts ended: the first of the worst
// of their endings (cancelled, iteration limit, fixed iterations,
// converged); cancelled when the fit was.
func (m *Model) convergence(cancelled bool) progress.Convergence {
	rank := map[progress.Status]int{progress.Converged: 1, progress.FixedIterations: 2, progress.IterationLimit: 3, progress.Cancelled: 4}
	var c progress.Convergence
	for _, p := range m.Parts {
		if rank[p.Convergence.Status] > rank[c.Status] {
			c = p.Convergence
		}
	}
	if cancelled {
		return progress.Convergence{Status: progress.Cancelled, MaxIter: m.MaxIter}
	}
	return c
}

// fitted reports whether every part has factors.
func (m *Model) fitted() bool {
	for _, p := range m.Parts {
		if p.W == nil || p.H == nil {
			return false
		}
	}
	return true
}
