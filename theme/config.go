package theme

import (
	"fmt"
	"strings"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/supervision"
)

// DefaultSubtopics is the number of subtopics per theme when Config.Subtopics
// is 0 (the thesis' experiments use 3; TSNMF_Class's n_topics default).
const DefaultSubtopics = 3

// DefaultMaxIter bounds each factorization when Config.MaxIter is 0
// (scikit-learn's default).
const DefaultMaxIter = 200

// Mode selects Combined or Separated training.
type Mode int

// The training modes.
const (
	// Separated fits one model per theme: its s subtopics and its own
	// background topic (the reference code's separate_models=True, its
	// default).
	Separated Mode = iota
	// Combined fits one model with every theme's subtopics and one
	// background topic.
	Combined
)

var modeNames = []string{"separated", "combined"}

// String returns "separated" or "combined".
func (m Mode) String() string {
	if m >= 0 && int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode parses "separated" (or "separate") and "combined".
func ParseMode(s string) (Mode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "separated", "separate":
		return Separated, nil
	case "combined":
		return Combined, nil
	}
	return 0, fmt.Errorf("theme: unknown mode %q (want separated or combined)", s)
}

// Init selects the initialisation of H.
type Init int

// The initialisations.
const (
	// InitBCool is the thesis' bCool initialisation (see the package
	// documentation).
	InitBCool Init = iota
	// InitRandom draws H Uniform[0, 2·√(mean(X)/k)) (the reference's
	// random start).
	InitRandom
)

var initNames = []string{"bcool", "random"}

// String returns "bcool" or "random".
func (i Init) String() string {
	if i >= 0 && int(i) < len(initNames) {
		return initNames[i]
	}
	return fmt.Sprintf("Init(%d)", int(i))
}

// ParseInit parses "bcool" and "random".
func ParseInit(s string) (Init, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "bcool":
		return InitBCool, nil
	case "random":
		return InitRandom, nil
	}
	return 0, fmt.Errorf("theme: unknown init %q (want bcool or random)", s)
}

// Config configures Fit: the supervision (Themes and Labels, required)
// and the settings. The zero settings are Separated training with 3
// subtopics, bCool, the Frobenius loss and seed 0.
type Config struct {
	// Themes names the themes; Labels[i] lists document i's theme indices
	// into Themes, nil or empty for an unlabeled document (which takes
	// part in the fit with every topic allowed).
	Themes []string
	Labels [][]int

	// Subtopics is the number s of subtopics of every theme (0: 3).
	Subtopics int
	// Mode is Separated (default) or Combined training.
	Mode Mode
	// Loss is the divergence minimised (the thesis' experiments use KL).
	Loss nmf.Loss
	// Init is the initialisation of H; Seed seeds every random choice.
	Init Init
	Seed uint64
	// NoThemeBackground forbids, in Separated training, the
	// background topic of a theme's model in the labeled documents of that
	// theme (the reference's background_for_theme=False). By default they
	// may use it.
	NoThemeBackground bool
	// BackgroundEveryTheme makes bCool's background start take at least
	// the densest labeled document of every theme. The reference takes
	// each theme's densest quarter, so a theme with fewer than four
	// (halved) labeled documents adds none, and with few labels the
	// background starts as the mean of a handful of documents of a few
	// themes: whether one more labeled document is there then flips
	// the theme scores of most documents (docs/results/label-efficiency.md).
	BackgroundEveryTheme bool
	// NewTopics is the number of subtopics of the new-topics pseudo-theme,
	// allowed only in unlabeled documents (0: none).
	NewTopics int
	// Exclude keeps terms out of themes: an exclusion's Topic is a theme
	// (an index into Themes) and its Term a column of X, whose weight in
	// each of the theme's subtopics is exactly zero (an H mask).
	Exclude []supervision.Exclusion
	// ReviveZeros lets the updates move the entries of the starting H that
	// are exactly zero (see the package documentation); by default they
	// stay zero, as in the reference's fits.
	ReviveZeros bool
	// MaxIter bounds each factorization (0: DefaultMaxIter); Stop and Tol
	// say when it stops earlier (StopSklearn, the reference's rule, by
	// default; Tol 0 means the rule's default tolerance; a negative Tol
	// never stops early).
	MaxIter int
	Stop    StopRule
	Tol     float64
	// Progress, if set, receives a step after each factorization
	// finishes: Iter the factorizations done, Total their number (one in
	// Combined training, one per model in Separated training), Objective
	// NaN. Calls never overlap, but come from the workers.
	Progress progress.Func
}

// resolve validates cfg and fills its defaults.
func (cfg Config) resolve() (Config, error) {
	if cfg.Subtopics < 0 {
		return cfg, fmt.Errorf("theme: Subtopics = %d, want ≥ 1", cfg.Subtopics)
	}
	if cfg.Subtopics == 0 {
		cfg.Subtopics = DefaultSubtopics
	}
	if cfg.Mode != Separated && cfg.Mode != Combined {
		return cfg, fmt.Errorf("theme: unknown mode %v", cfg.Mode)
	}
	if cfg.Loss != nmf.Frobenius && cfg.Loss != nmf.KullbackLeibler {
		return cfg, fmt.Errorf("theme: unknown loss %v", cfg.Loss)
	}
	if cfg.Init != InitBCool && cfg.Init != InitRandom {
		return cfg, fmt.Errorf("theme: unknown init %v", cfg.Init)
	}
	if cfg.NewTopics < 0 {
		return cfg, fmt.Errorf("theme: NewTopics = %d, want ≥ 0", cfg.NewTopics)
	}
	var err error
	if cfg.MaxIter, err = nmf.CheckIterations(cfg.MaxIter, cfg.Tol, DefaultMaxIter); err != nil {
		return cfg, fmt.Errorf("theme: %w", err)
	}
	if cfg.Stop != StopSklearn && cfg.Stop != StopRelative {
		return cfg, fmt.Errorf("theme: unknown stopping rule %v", cfg.Stop)
	}
	return cfg, nil
}
