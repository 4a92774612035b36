package model

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
	"github.com/semitopic/semitopic/theme"
)

// KindTheme is the name of the theme kind.
const KindTheme = "theme"

// ThemeThreshold is the theme score from which a multi-label theme model
// predicts a theme besides its best one: a subtopic weighing at least as
// much as the background (w/(w + w_bg) ≥ 0.5).
const ThemeThreshold = 0.5

// Describer is implemented by models with a model-specific description of
// their topics beyond Topics: theme-supervised NMF's purity views (thesis
// Figures 8.4–8.6). The description marshals to JSON.
type Describer interface {
	Describe(n int) (Description, error)
}

// Description prints itself as plain text.
type Description interface {
	WriteText(w io.Writer) error
}

// Theme is a fitted theme-supervised NMF model. Its topics are, part by
// part (one part in Combined training, one per theme and one for the new
// topics in Separated training), the part's subtopics, new topics and
// background topic; Transform returns their weights side by side, and
// Predict ranks the themes by the theme score.
type Theme struct {
	m *theme.Model
	// MultiLabel models (some training document had several themes)
	// predict every theme scoring at least ThemeThreshold besides the
	// best; others predict the best theme.
	MultiLabel bool
	Vocab      []string
	weights    []float64
	readoutHolder
}

// Kind implements Model.
func (t *Theme) Kind() string { return KindTheme }

// scoreKind says what Predict's native scores are.
func (t *Theme) scoreKind() ScoreKind {
	return ScoreKind{"theme-score", "the theme score w / (w + w_background) of the theme's best subtopic (0 to 1); the highest is predicted"}
}

// Theme returns the underlying theme.Model.
func (t *Theme) Theme() *theme.Model { return t.m }

// NumTopics implements Model.
func (t *Theme) NumTopics() int {
	n := 0
	for _, p := range t.m.Parts {
		n += len(p.Topics)
	}
	return n
}

// Labels implements Predictor: the themes.
func (t *Theme) Labels() []string { return t.m.Themes }

// topicName names a topic of part p.
func (t *Theme) topicName(p *theme.Part, tp theme.Topic) (name, group, label string) {
	switch tp.Kind {
	case theme.Subtopic:
		th := t.m.Themes[tp.Theme]
		return fmt.Sprintf("%s/%d", th, tp.Index+1), th, th
	case theme.NewTopic:
		return fmt.Sprintf("new/%d", tp.Index+1), "new", ""
	}
	switch {
	case p.Theme >= 0 && p.Theme < len(t.m.Themes):
		th := t.m.Themes[p.Theme]
		return th + "/background", th, ""
	case p.Theme == theme.NewTopicsTheme:
		return "new/background", "new", ""
	}
	return "background", "background", ""
}

// Topics implements Model: words by the direct term score (row-normalised
// H) with their purity d/(d + d_bg) against the background topic of the
// same part; Weight is the topic's share of the reconstructed corpus over
// all parts.
func (t *Theme) Topics(n int) ([]Topic, error) {
	var out []Topic
	pos := make(map[string]int, len(t.Vocab))
	for j, w := range t.Vocab {
		pos[w] = j
	}
	for _, p := range t.m.Parts {
		// Load checks H's shape and finiteness, so this fails only on a
		// negative weight in an edited file.
		d, err := theme.DirectTermScores(p.H)
		if err != nil {
			return nil, fmt.Errorf("model: theme topics: %w", err)
		}
		for c, tp := range p.Topics {
			name, group, label := t.topicName(p, tp)
			tt := Topic{Name: name, Group: group, Label: label, Words: topicWords(d.RawRowView(c), t.Vocab, n)}
			if len(out) < len(t.weights) {
				tt.Weight = t.weights[len(out)]
			}
			if c != p.Background {
				bg := d.RawRowView(p.Background)
				for a := range tt.Words {
					j := pos[tt.Words[a].Word]
					pu := theme.Purity(d.At(c, j), bg[j])
					tt.Words[a].Purity = &pu
				}
			}
			out = append(out, tt)
		}
	}
	return markEmpty(out, len(t.weights) == len(out)), nil
}

// Transform implements Model: each part's weights with its H fixed (exact
// NNLS for the Frobenius loss; multiplicative updates from a start shared
// by the documents transformed together for KL, as scikit-learn does), no
// mask, side by side in the order of Topics.
func (t *Theme) Transform(ctx context.Context, x *sparse.CSR) (*mat.Dense, error) {
	ws, err := t.parts(ctx, x)
	if err != nil {
		return nil, err
	}
	return theme.ConcatParts(x.Rows, ws), nil
}

// parts transforms x with each part of the model, each document alone
// (theme.TransformOptions.PerDocument): a document's weights and label do
// not depend on the documents transformed with it.
func (t *Theme) parts(ctx context.Context, x *sparse.CSR) ([]*mat.Dense, error) {
	return t.m.TransformParts(ctx, x, theme.TransformOptions{PerDocument: true})
}

// Predict implements Predictor: a theme's score is the theme score (the
// largest w/(w + w_bg) of its subtopics); themes are ranked by it.
func (t *Theme) Predict(ctx context.Context, x *sparse.CSR) (*Prediction, error) {
	ws, err := t.parts(ctx, x)
	if err != nil {
		return nil, err
	}
	s, err := t.m.ScoresOf(ws)
	if err != nil {
		return nil, err
	}
	labels := make([][]string, x.Rows)
	for i := range labels {
		rank := s.Rank(i)
		if len(rank) == 0 {
			continue
		}
		labels[i] = []string{t.m.Themes[rank[0]]}
		if t.MultiLabel {
			for _, j := range rank[1:] {
				if s.Theme.At(i, j) >= ThemeThreshold {
					labels[i] = append(labels[i], t.m.Themes[j])
				}
			}
		}
	}
	return t.ro.apply(x, newPrediction(x, theme.ConcatParts(x.Rows, ws), s.Theme, labels), t.m.Themes)
}

// Describe implements Describer: per theme, the top n terms of each
// subtopic and of the max and sum aggregates at purity ratios 0 and 1,
// and the background topics' top terms.
func (t *Theme) Describe(n int) (Description, error) {
	return t.m.Interpret(t.Vocab, theme.InterpretOptions{TopN: n})
}

func fitTheme(ctx context.Context, x *sparse.CSR, vocab []string, sup Supervision, o Options, report progress.Func) (Model, Info, error) {
	if !sup.labeled() {
		return nil, Info{}, fmt.Errorf("model: theme needs labeled documents (for example --labels-from-corpus)")
	}
	names, idx := sup.labelIndex()
	cfg := theme.Config{Subtopics: o.Subtopics, Mode: theme.Separated, Loss: nmf.KullbackLeibler, Seed: o.Seed,
		NewTopics: o.NewTopics, MaxIter: o.MaxIter, Tol: o.Tol, NoThemeBackground: o.NoThemeBackground,
		BackgroundEveryTheme: true}
	var err error
	if o.Mode != "" {
		if cfg.Mode, err = theme.ParseMode(o.Mode); err != nil {
			return nil, Info{}, err
		}
	}
	if o.Loss != "" {
		if cfg.Loss, err = nmf.ParseLoss(o.Loss); err != nil {
			return nil, Info{}, err
		}
	}
	if o.Init != "" {
		if cfg.Init, err = theme.ParseInit(o.Init); err != nil {
			return nil, Info{}, err
		}
	}
	cfg.Progress = report
	cfg.Themes, cfg.Labels = names, idx
	var notes []string
	if cfg.Exclude, notes, err = themeExclusions(sup.Anchors, names, vocab); err != nil {
		return nil, Info{}, err
	}
	m, err := theme.Fit(ctx, x, cfg)
	if err != nil {
		return nil, Info{}, err
	}
	multi := false
	for _, l := range idx {
		multi = multi || len(l) > 1
	}
	tm := &Theme{m: m, MultiLabel: multi, Vocab: vocab}
	var shares []float64
	total := 0.0
	iters, obj := 0, 0.0
	for _, p := range m.Parts {
		for _, s := range topicShares(p.W, p.H) {
			shares = append(shares, s)
			total += s
		}
		iters = max(iters, p.Iterations)
		obj += p.Objective
	}
	if total > 0 {
		for a := range shares {
			shares[a] /= total
		}
		tm.weights = shares
	}
	info := Info{Objective: obj, Iterations: iters, Convergence: m.Convergence, Notes: []string{
		fmt.Sprintf("%s training, %d themes × %d subtopics, %s loss, %s start; %d labeled and %d unlabeled documents",
			m.Mode, len(m.Themes), m.Subtopics, m.Loss, m.Init, m.Labeled, m.Unlabeled),
	}}
	if m.Unlabeled > 0 {
		info.Notes = append(info.Notes, "semi-supervised: the unlabeled documents were in the fit with every topic allowed")
	}
	info.Notes = append(info.Notes, notes...)
	return tm, info, nil
}

// themeExclusions turns the anchors' exclusion words into theme.Config's
// Exclude (none without anchors): an anchor names a theme, and its
// excluded words weigh exactly zero in each of the theme's subtopics.
// Seed words are refused: a theme's subtopics are learned from its
// labeled documents alone, and pseudo-documents of seed words would also
// enter its bCool start and background; tsnmf and ssnmf take labels and
// seed words together. An unknown theme is an error listing the themes.
func themeExclusions(anchors []Anchor, themes, vocab []string) ([]supervision.Exclusion, []string, error) {
	for _, a := range anchors {
		if len(a.Words) > 0 {
			return nil, nil, fmt.Errorf("model: theme models take exclusion words (theme: -word), not seed words (%q: %s): a theme's subtopics are learned from its labeled documents; tsnmf and ssnmf take labels and seed words together", a.Topic, strings.Join(a.Words, ", "))
		}
		if !slices.Contains(themes, a.Topic) {
			return nil, nil, fmt.Errorf("model: the anchors name the theme %q; this theme model's themes are %s", a.Topic, strings.Join(themes, ", "))
		}
	}
	terms, notes, err := anchorTerms(KindTheme, anchors, themes, vocab)
	return terms.Exclude, notes, err
}

// themeParams is the JSON part of a saved theme model; the parts' H are
// the matrices H0, H1, ...
type themeParams struct {
	Themes            []string      `json:"themes"`
	Subtopics         int           `json:"subtopics"`
	NewTopics         int           `json:"new_topics,omitempty"`
	Mode              string        `json:"mode"`
	Loss              string        `json:"loss"`
	Init              string        `json:"init"`
	NoThemeBackground bool          `json:"exclude_theme_background,omitempty"`
	Stop              string        `json:"stop"`
	Tol               float64       `json:"tol"`
	MaxIter           int           `json:"max_iter"`
	Terms             int           `json:"terms"`
	Labeled           int           `json:"labeled"`
	Unlabeled         int           `json:"unlabeled"`
	MultiLabel        bool          `json:"multi_label,omitempty"`
	Parts             []*theme.Part `json:"parts"`
	Weights           []float64     `json:"topic_weights,omitempty"`
}

func saveTheme(m Model) (any, map[string]*mat.Dense, error) {
	t := m.(*Theme)
	tm := t.m
	mats := make(map[string]*mat.Dense, len(tm.Parts))
	for a, p := range tm.Parts {
		mats[fmt.Sprintf("H%d", a)] = p.H
	}
	return themeParams{Themes: tm.Themes, Subtopics: tm.Subtopics, NewTopics: tm.NewTopics, Mode: tm.Mode.String(),
		Loss: tm.Loss.String(), Init: tm.Init.String(), NoThemeBackground: tm.NoThemeBackground,
		Stop: tm.Stop.String(), Tol: tm.Tol, MaxIter: tm.MaxIter, Terms: tm.Terms, Labeled: tm.Labeled,
		Unlabeled: tm.Unlabeled, MultiLabel: t.MultiLabel, Parts: tm.Parts, Weights: t.weights}, mats, nil
}

func loadTheme(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	var p themeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, err
	}
	mode, err := theme.ParseMode(p.Mode)
	if err != nil {
		return nil, err
	}
	loss, err := nmf.ParseLoss(p.Loss)
	if err != nil {
		return nil, err
	}
	init, err := theme.ParseInit(p.Init)
	if err != nil {
		return nil, err
	}
	var stop theme.StopRule
	switch p.Stop {
	case theme.StopSklearn.String():
		stop = theme.StopSklearn
	case theme.StopRelative.String():
		stop = theme.StopRelative
	default:
		return nil, fmt.Errorf("unknown stopping rule %q", p.Stop)
	}
	if p.Terms != len(vocab) || len(p.Themes) == 0 || p.Subtopics < 1 || p.NewTopics < 0 || len(p.Parts) == 0 {
		return nil, fmt.Errorf("inconsistent theme model: %d terms for a %d-word vocabulary, %d themes, %d subtopics, %d parts",
			p.Terms, len(vocab), len(p.Themes), p.Subtopics, len(p.Parts))
	}
	wantParts := 1
	if mode == theme.Separated {
		wantParts = len(p.Themes)
		if p.NewTopics > 0 {
			wantParts++
		}
	}
	if len(p.Parts) != wantParts {
		return nil, fmt.Errorf("%s model with %d themes has %d parts, want %d", mode, len(p.Themes), len(p.Parts), wantParts)
	}
	total := 0
	for a, part := range p.Parts {
		h := mats[fmt.Sprintf("H%d", a)]
		if h == nil || part == nil {
			return nil, fmt.Errorf("part %d: no H matrix", a)
		}
		r, c := h.Dims()
		if r != len(part.Topics) || c != len(vocab) || part.Background != r-1 {
			return nil, fmt.Errorf("part %d: H is %d×%d for %d topics (background %d) and %d terms", a, r, c, len(part.Topics), part.Background, len(vocab))
		}
		for _, tp := range part.Topics {
			if tp.Kind == theme.Subtopic && (tp.Theme < 0 || tp.Theme >= len(p.Themes) || tp.Index < 0 || tp.Index >= p.Subtopics) {
				return nil, fmt.Errorf("part %d: subtopic %+v out of range", a, tp)
			}
		}
		part.H = h
		total += r
	}
	if p.Weights != nil && len(p.Weights) != total {
		return nil, fmt.Errorf("%d topic weights for %d topics", len(p.Weights), total)
	}
	tm := &theme.Model{Themes: p.Themes, Subtopics: p.Subtopics, NewTopics: p.NewTopics, Mode: mode, Loss: loss, Init: init,
		NoThemeBackground: p.NoThemeBackground, Stop: stop, Tol: p.Tol, MaxIter: p.MaxIter, Parts: p.Parts,
		Terms: p.Terms, Labeled: p.Labeled, Unlabeled: p.Unlabeled}
	if err := tm.Prepare(); err != nil {
		return nil, err
	}
	return &Theme{m: tm, MultiLabel: p.MultiLabel, Vocab: vocab, weights: p.Weights}, nil
}

// themeKind is theme-supervised NMF (Suyunu's thesis): subtopics per
// theme, learned from the theme's labeled documents, with background
// topics.
type themeKind struct{}

func (themeKind) Name() string   { return KindTheme }
func (themeKind) Preset() string { return "theme" }
func (themeKind) Doc() string {
	return "Theme-supervised NMF (Suyunu's thesis): a few subtopics per theme (label), learned from the theme's labeled documents, beside background topics; Separated training fits one model per theme, Combined one for all."
}
func (themeKind) Params() []Param {
	return []Param{
		seedParam(),
		maxIterParam("iterations of each factorization", theme.DefaultMaxIter),
		tolParam("scikit-learn's rule: every 10 iterations, the fit stops when the error fell by less than this share of the starting error", theme.DefaultSklearnTol),
		nmfLossParam("kl"),
		{Name: "init", Choices: []string{"bcool", "random"}, Default: "bcool",
			Doc:    "the start of H: bcool, the thesis' start from the themes' labeled documents; random",
			accept: func(s string) error { _, err := theme.ParseInit(s); return err }},
		{Name: "subtopics", Range: atLeast(1), Default: strconv.Itoa(theme.DefaultSubtopics),
			Doc: "the number of subtopics of each theme (its topics: a model has no k)"},
		{Name: "mode", Choices: []string{"separated", "combined"}, Default: "separated",
			Doc:    "separated fits one model per theme, its subtopics and a background topic (the thesis' best); combined fits one model, in which themes compete for each document",
			accept: func(s string) error { _, err := theme.ParseMode(s); return err }},
		{Name: "no-theme-background", Default: "off",
			Doc: "separated training: a theme's labeled documents may not use the theme's background topic"},
		{Name: "new-topics", Range: atLeast(0), Default: "0 (none)",
			Doc: "adds a pseudo-theme of this many subtopics, allowed only in the unlabeled documents"},
		readoutParam(),
		autoParam(),
	}
}

func (themeKind) Takes() Takes {
	return Takes{Labels: true, Exclusions: true,
		How: "labels (the themes), and exclusion words per theme (theme: -word), not seed words: a theme's subtopics are learned from its labeled documents; tsnmf and ssnmf take labels and seed words together"}
}
func (themeKind) fit(ctx context.Context, d *data, o Options) (Model, Info, error) {
	return fitTheme(ctx, d.x, d.vocab, d.sup, o, d.report)
}
func (themeKind) save(m Model) (any, map[string]*mat.Dense, error) { return saveTheme(m) }
func (themeKind) load(raw json.RawMessage, mats map[string]*mat.Dense, vocab []string) (Model, error) {
	return loadTheme(raw, mats, vocab)
}

// grid tries the thesis' Separated training with 3 subtopics, one
// subtopic per theme (fewer topics to share few labeled documents), and
// Combined training (one model, so that themes compete for each
// document).
func (themeKind) grid(o Options, g gridInfo) []Options {
	one, combined := o, o
	setIntIf(&one.Subtopics, o.Subtopics, 1)
	setIf(&combined.Mode, o.Mode, "combined")
	setIntIf(&combined.Subtopics, o.Subtopics, 2)
	return []Options{o, one, combined}
}

func (themeKind) describe(o Options) []string {
	mode := o.Mode
	if mode == "" {
		mode = "separated"
	}
	parts := []string{mode}
	if o.Subtopics > 0 {
		parts = append(parts, fmt.Sprintf("%d subtopics", o.Subtopics))
	}
	return parts
}

func (themeKind) fallbackReadout() string { return ReadoutTopics }
