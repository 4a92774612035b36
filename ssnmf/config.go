package ssnmf

import (
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/nmf"
	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// Defaults of Config.
const (
	// DefaultEpsilon is added to every divisor (see the package
	// documentation); it is the reference code's default eps.
	DefaultEpsilon = 1e-10
	// DefaultTol is the reference code's default tolerance.
	DefaultTol = 1e-4
	// DefaultMaxIter bounds a fit's iterations when Config.MaxIter is 0.
	DefaultMaxIter = 100
	// DefaultTransformIter is the number of one-sided multiplicative
	// updates that represent new documents under an I-divergence
	// reconstruction loss (the reference's iter_s).
	DefaultTransformIter = 20
)

// The loss of each term of the objective is an nmf.Loss: nmf.Frobenius,
// the squared nmf.Frobenius norm ‖M∘(Z − Ẑ)‖² (Gaussian noise), or
// nmf.KullbackLeibler, the generalized Kullback–Leibler divergence
// Σ M∘(Z log(Z/Ẑ) − Z + Ẑ) (Poisson noise), which the paper calls the
// I-divergence and writes D.

// lossLetter returns "F" or "D", the paper's ‖·‖_F and D.
func lossLetter(l nmf.Loss) string {
	switch l {
	case nmf.Frobenius:
		return "F"
	case nmf.KullbackLeibler:
		return "D"
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// ParseLoss parses "F", "fro", "frobenius", "D", "div", "kl",
// "i-divergence" (any case).
func ParseLoss(s string) (nmf.Loss, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "f", "fro", "frobenius":
		return nmf.Frobenius, nil
	case "d", "div", "i", "idiv", "kl", "i-divergence", "idivergence", "kullback-leibler":
		return nmf.KullbackLeibler, nil
	}
	return 0, fmt.Errorf("ssnmf: unknown loss %q (want F or D)", s)
}

// Losses is one of the paper's models: the loss of the reconstruction term
// R(X, AS) and of the supervision term Q(Y, BS).
type Losses struct {
	Recon, Sup nmf.Loss
}

// The paper's four supervised models.
var (
	FF = Losses{nmf.Frobenius, nmf.Frobenius}             // (‖·‖F, ‖·‖F): Lee, Yoo & Choi's SSNMF; reference modelNum 3
	FD = Losses{nmf.Frobenius, nmf.KullbackLeibler}       // (‖·‖F, D); modelNum 4
	DF = Losses{nmf.KullbackLeibler, nmf.Frobenius}       // (D, ‖·‖F); modelNum 5
	DD = Losses{nmf.KullbackLeibler, nmf.KullbackLeibler} // (D, D); modelNum 6
)

// Models returns the four supervised models in the paper's order.
func Models() []Losses { return []Losses{FF, FD, DF, DD} }

// String returns the paper's name, such as "(F,D)".
func (m Losses) String() string { return "(" + lossLetter(m.Recon) + "," + lossLetter(m.Sup) + ")" }

// Slug returns a lower-case name for files and flags, such as "f-d".
func (m Losses) Slug() string {
	return strings.ToLower(lossLetter(m.Recon) + "-" + lossLetter(m.Sup))
}

// RefNumber returns the reference code's modelNum (3–6).
func (m Losses) RefNumber() int { return 3 + 2*int(m.Recon) + int(m.Sup) }

// ParseModel parses a model name: "(F,D)", "F,D", "FD", "f-d", "fro-div"
// or the reference's modelNum "3"–"6".
func ParseModel(s string) (Losses, error) {
	t := strings.TrimSpace(s)
	switch t {
	case "3":
		return FF, nil
	case "4":
		return FD, nil
	case "5":
		return DF, nil
	case "6":
		return DD, nil
	}
	t = strings.Trim(t, "()")
	var parts []string
	for _, sep := range []string{",", "-", "/", " "} {
		if strings.Contains(t, sep) {
			parts = strings.SplitN(t, sep, 2)
			break
		}
	}
	if parts == nil && len(t) == 2 {
		parts = []string{t[:1], t[1:]}
	}
	if len(parts) == 2 {
		r, err1 := ParseLoss(parts[0])
		q, err2 := ParseLoss(parts[1])
		if err1 == nil && err2 == nil {
			return Losses{r, q}, nil
		}
	}
	return Losses{}, fmt.Errorf("ssnmf: unknown model %q (want (F,F), (F,D), (D,F), (D,D) or 3–6)", s)
}

// Config configures Fit. Only K is required: the zero value otherwise is
// the (F,F) model with λ = 0, uniform random initialisation from seed 0,
// DefaultMaxIter iterations at most and DefaultTol.
type Config struct {
	// K is the number of topics, at least 1.
	K int
	// Losses selects the model by its two losses. Without Y only
	// Losses.Recon matters (the unsupervised models).
	Losses Losses
	// Y is the documents × targets matrix (one-hot classes, multi-hot
	// labels, or non-negative real targets); nil fits the unsupervised
	// model. See OneHot, MultiHot and Targets.
	Y *mat.Dense
	// Lambda (λ ≥ 0) weighs the supervision term. At 0 the representation
	// ignores Y (B is still fitted to it).
	Lambda float64

	// DataRowWeights are optional per-document weights of the
	// reconstruction term (the paper's W with constant columns): 0 leaves
	// a document out of the topics' fit. They keep a sparse X sparse.
	DataRowWeights []float64
	// DataWeights is an optional dense documents × terms matrix of data
	// weights (the paper's Wᵀ, such as a 0/1 missing-data mask). A sparse
	// X is densified when it is given.
	DataWeights *mat.Dense
	// LabelRowWeights are optional per-document weights of the
	// supervision term: 0 for an unlabeled document (partial
	// supervision).
	LabelRowWeights []float64
	// LabelWeights is an optional documents × targets matrix of label
	// weights (the paper's Lᵀ). With LabelRowWeights too, the weight of
	// entry (i, c) is their product.
	LabelWeights *mat.Dense

	// Seeds are seed terms and exclusions (Guided SSNMF, the GSSNMF of Li
	// et al., 2022, through nmf's Guided NMF): a topic's weight for a term
	// excluded from it is exactly zero, and each seeded topic fits a
	// pseudo-document of its seed terms (nmf.NewGuide) that weighs μ in
	// the reconstruction term and, unless SeedLabels, nothing in the
	// label term. A seeded fit starts H from the documents holding each
	// topic's seed terms (nmf.Guide.StartLabels), and B from TopicClasses
	// when it names a class. Seed terms need StartLabels, DataWeights and
	// LabelWeights unset, and W0 unset or given with H0 (a warm start:
	// each pseudo-document's row of W then starts at its best weight for
	// its topic's row of H0, nmf.Guide.StackW). The result's W has the
	// documents' rows only.
	Seeds supervision.Terms
	// SeedWeight (β ≥ 0; 0 means 1) scales the seed pseudo-documents'
	// weight μ against the documents (nmf.Config.SeedWeight).
	SeedWeight float64
	// TopicClasses, when set, has one entry per topic: the class (a
	// column of Y) that the topic stands for, or −1. With seed terms that
	// guide the fit and without B0, B starts mapping each such topic to
	// its class with weight 1, every other entry at 1/(K−1): from a random
	// B the updates can settle with two seeded topics mapped to one class
	// and none to another (on BBC with 3 seed words a class and no labels,
	// 55–65% accuracy on two seeds of three, against 91–93% with this
	// start; 1/(K−1), 0.1 and 0.01 for the other entries changed no
	// accuracy by more than 0.4 points there).
	TopicClasses []int
	// SeedLabels makes each seeded topic's pseudo-document a labeled
	// document of its topic's class (TopicClasses), with label weight 1:
	// with seed terms alone, a class whose seed terms single out no
	// document then still has an example.
	SeedLabels bool

	// Seed seeds the uniform initialisation of the factors not given.
	Seed uint64
	// W0 (documents × K), H0 (K × terms) and B0 (targets × K) are optional
	// starting factors; they are copied, never modified. Their entries must
	// be finite and non-negative.
	W0, H0, B0 *mat.Dense
	// WMask (documents × K), when set, is a 0/1 support of W: a document
	// uses only the topics where its row is 1 (a labeled document held to
	// the topics that serve its labels). A row of zeros keeps its
	// document out of the fit.
	WMask *mat.Dense

	// StartLabels, when set and H0 is not, starts H as nmf.InitLabelMean
	// does instead of Uniform[0, 1): row t is the mean of the documents
	// that list topic t (one entry per document, nil for none), and a
	// topic no document lists is the mean of nmf.DefaultAcolRows documents
	// drawn from Seed. W and B start as without it.
	StartLabels [][]int

	// MaxIter bounds the iterations (0: DefaultMaxIter).
	MaxIter int
	// Tol stops the fit when an iteration decreases the objective by less
	// than Tol times the objective after the first iteration (0:
	// DefaultTol; negative: never, run MaxIter iterations — see
	// Model.Objective).
	Tol float64
	// MinIter, when positive, keeps Tol's rule from stopping the fit
	// before MinIter iterations (nmf.Config.MinIter), as a warm start
	// from an earlier fit's factors needs.
	MinIter int
	// Epsilon is added to every divisor (0: DefaultEpsilon).
	Epsilon float64
	// Progress, if set, receives each iteration's number (from 1) and
	// objective (R + λQ), on the goroutine that called Fit.
	Progress progress.Func
}

// Model is a fitted SSNMF model: X ≈ W·H and Y ≈ W·Bᵀ.
type Model struct {
	// Losses, Lambda and Epsilon are those of the fit.
	Losses  Losses
	Lambda  float64
	Epsilon float64
	// W is documents × K: the paper's Sᵀ.
	W *mat.Dense
	// H is K × terms: the paper's Aᵀ, the topics.
	H *mat.Dense
	// B is targets × K, the paper's B (nil for an unsupervised fit).
	B *mat.Dense
	// Objective[t] is R + λQ after t iterations (Objective[0] at the
	// start); it has Iterations+1 entries.
	Objective []float64
	// Recon and Sup are the final R and Q (Sup is 0 without Y).
	Recon, Sup float64
	// Iterations is the number of iterations done.
	Iterations int
	// Convergence says how the fit ended: converged (the rule of Tol was
	// met, with what it measured last), stopped at MaxIter, or cancelled
	// (the partial result, returned with the context's error).
	Convergence progress.Convergence
	// Elapsed is the wall time of the fit.
	Elapsed time.Duration
	// Seeded lists the topics that seed terms guided (Config.Seeds), in
	// the order of their pseudo-documents; none when no document holds a
	// seed term. Objective and Recon include the pseudo-documents.
	Seeded []int
	// Notes explain in words how the seed terms were weighed and started.
	Notes []string
	// Represent is how Transform and Predict represent new documents under
	// an I-divergence reconstruction loss; the zero value is the
	// reference's evaluation (DefaultTransformIter updates from a row
	// drawn per document, seed 0). Set it before serving: it is read, not
	// written, by Transform.
	Represent TransformConfig

	// fixed is H prepared for transforms (Prepare).
	fixed *nmf.FixedH
}

// Prepare computes, once, what transforms need from H alone (see
// nmf.FixedH), so that transforming a few documents costs in proportion to
// them. Fit prepares the results it returns; a Model built otherwise
// (from a saved model) should be prepared before serving. Changing H
// afterwards requires another Prepare; a replaced H is noticed, an H
// modified in place is not.
func (r *Model) Prepare() error {
	f, err := nmf.NewFixedH(r.H)
	if err != nil {
		return fmt.Errorf("ssnmf: %w", err)
	}
	r.fixed = f
	return nil
}

// fixedH returns H prepared: Prepare's when it is current, else prepared
// for this call.
func (r *Model) fixedH() (*nmf.FixedH, error) {
	if r.fixed != nil && r.fixed.H() == r.H {
		return r.fixed, nil
	}
	f, err := nmf.NewFixedH(r.H)
	if err != nil {
		return nil, fmt.Errorf("ssnmf: %w", err)
	}
	return f, nil
}

// Supervised reports whether the model was fitted with targets.
func (r *Model) Supervised() bool { return r.B != nil }

// K returns the number of topics.
func (r *Model) K() int { _, k := r.W.Dims(); return k }

// FinalObjective returns the objective of the returned factors.
func (r *Model) FinalObjective() float64 {
	if len(r.Objective) == 0 {
		return math.NaN()
	}
	return r.Objective[len(r.Objective)-1]
}

// checkDense validates a dense matrix's shape and entries: finite and
// non-negative.
func checkDense(name string, a *mat.Dense, r, c int) error {
	if err := nmf.CheckMatrix(name, a, r, c); err != nil {
		return fmt.Errorf("ssnmf: %w", err)
	}
	return nil
}

// checkRowWeights validates per-document weights.
func checkRowWeights(name string, w []float64, n int) error {
	if err := nmf.CheckRowWeights(name, w, n); err != nil {
		return fmt.Errorf("ssnmf: %w", err)
	}
	return nil
}

// dataMatrix is a validated X: sparse or dense.
type dataMatrix struct {
	sp    *sparse.CSR
	dense *mat.Dense
	n, m  int
	sum   float64
}

func checkX(x any) (*dataMatrix, error) {
	m, ok := x.(nmf.Matrix)
	if !ok && x != nil {
		return nil, fmt.Errorf("ssnmf: X has unsupported type %T (want *sparse.CSR or a gonum mat.Matrix)", x)
	}
	v, err := nmf.CheckData(m)
	if err != nil {
		return nil, fmt.Errorf("ssnmf: %w", err)
	}
	return &dataMatrix{sp: v.Sparse, dense: v.Dense, n: v.Rows, m: v.Cols, sum: v.Sum}, nil
}

// resolve validates cfg against X and fills in the defaults.
func (cfg Config) resolve(d *dataMatrix) (Config, error) {
	n, m, k := d.n, d.m, cfg.K
	if k < 1 {
		return cfg, fmt.Errorf("ssnmf: K = %d, want at least 1", k)
	}
	for _, l := range []nmf.Loss{cfg.Losses.Recon, cfg.Losses.Sup} {
		if l != nmf.Frobenius && l != nmf.KullbackLeibler {
			return cfg, fmt.Errorf("ssnmf: unknown loss %v in model %v", l, cfg.Losses)
		}
	}
	if math.IsNaN(cfg.Lambda) || math.IsInf(cfg.Lambda, 0) || cfg.Lambda < 0 {
		return cfg, fmt.Errorf("ssnmf: λ = %v, want a finite number ≥ 0", cfg.Lambda)
	}
	var err error
	if cfg.MaxIter, err = nmf.CheckIterations(cfg.MaxIter, cfg.Tol, DefaultMaxIter); err != nil {
		return cfg, fmt.Errorf("ssnmf: %w", err)
	}
	if cfg.Tol == 0 {
		cfg.Tol = DefaultTol
	}
	if math.IsNaN(cfg.Epsilon) || math.IsInf(cfg.Epsilon, 0) || cfg.Epsilon < 0 {
		return cfg, fmt.Errorf("ssnmf: Epsilon = %v, want a finite number ≥ 0", cfg.Epsilon)
	}
	if cfg.Epsilon == 0 {
		cfg.Epsilon = DefaultEpsilon
	}
	if d.sum == 0 {
		return cfg, fmt.Errorf("ssnmf: X (%d×%d) is all zero", n, m)
	}
	if cfg.DataRowWeights != nil {
		if err := checkRowWeights("data row weights", cfg.DataRowWeights, n); err != nil {
			return cfg, err
		}
	}
	if cfg.DataWeights != nil {
		if err := checkDense("DataWeights", cfg.DataWeights, n, m); err != nil {
			return cfg, err
		}
	}
	if err := cfg.checkSeeds(m); err != nil {
		return cfg, err
	}
	if cfg.W0 != nil {
		if err := checkDense("W0", cfg.W0, n, k); err != nil {
			return cfg, err
		}
	}
	if cfg.WMask != nil {
		if err := checkDense("WMask", cfg.WMask, n, k); err != nil {
			return cfg, err
		}
		for _, v := range cfg.WMask.RawMatrix().Data {
			if v != 0 && v != 1 {
				return cfg, fmt.Errorf("ssnmf: WMask holds %v; want 0 or 1", v)
			}
		}
	}
	if cfg.H0 != nil {
		if err := checkDense("H0", cfg.H0, k, m); err != nil {
			return cfg, err
		}
	}
	if cfg.StartLabels != nil {
		if len(cfg.StartLabels) != n {
			return cfg, fmt.Errorf("ssnmf: StartLabels has %d entries for %d documents", len(cfg.StartLabels), n)
		}
		for i, ls := range cfg.StartLabels {
			for _, t := range ls {
				if t < 0 || t >= k {
					return cfg, fmt.Errorf("ssnmf: StartLabels: document %d lists topic %d, want 0..%d", i, t, k-1)
				}
			}
		}
	}
	if cfg.Y == nil {
		if cfg.LabelRowWeights != nil || cfg.LabelWeights != nil || cfg.B0 != nil {
			return cfg, fmt.Errorf("ssnmf: label weights or B0 given without targets Y")
		}
		return cfg, nil
	}
	yr, c := cfg.Y.Dims()
	if cfg.Y.IsEmpty() || yr != n {
		return cfg, fmt.Errorf("ssnmf: Y has %d rows for %d documents", yr, n)
	}
	if err := checkDense("Y", cfg.Y, n, c); err != nil {
		return cfg, err
	}
	if cfg.LabelRowWeights != nil {
		if err := checkRowWeights("label row weights", cfg.LabelRowWeights, n); err != nil {
			return cfg, err
		}
	}
	if cfg.LabelWeights != nil {
		if err := checkDense("LabelWeights", cfg.LabelWeights, n, c); err != nil {
			return cfg, err
		}
	}
	if cfg.B0 != nil {
		if err := checkDense("B0", cfg.B0, c, k); err != nil {
			return cfg, err
		}
	}
	return cfg, nil
}

// checkSeeds validates the seed fields against K, the m terms and Y.
func (cfg Config) checkSeeds(m int) error {
	k := cfg.K
	if v := cfg.SeedWeight; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
		return fmt.Errorf("ssnmf: SeedWeight = %v, want a finite number ≥ 0 (0 for 1)", v)
	}
	if err := cfg.Seeds.Check(k, m); err != nil {
		return fmt.Errorf("ssnmf: Seeds: %w", err)
	}
	if len(cfg.Seeds.Seeds) > 0 {
		switch {
		case cfg.W0 != nil && cfg.H0 == nil:
			return fmt.Errorf("ssnmf: seed terms with W0 need H0 too: the pseudo-documents' rows of W start from H0")
		case cfg.StartLabels != nil:
			return fmt.Errorf("ssnmf: seed terms set StartLabels themselves; leave it unset")
		case cfg.DataWeights != nil || cfg.LabelWeights != nil:
			return fmt.Errorf("ssnmf: seed terms with DataWeights or LabelWeights are not supported (use the row weights)")
		}
	}
	if cfg.TopicClasses != nil {
		if len(cfg.TopicClasses) != k {
			return fmt.Errorf("ssnmf: TopicClasses has %d entries for K = %d topics", len(cfg.TopicClasses), k)
		}
		c := 0
		if cfg.Y != nil {
			_, c = cfg.Y.Dims()
		}
		for t, cl := range cfg.TopicClasses {
			if cl < -1 || cl >= c {
				return fmt.Errorf("ssnmf: TopicClasses: topic %d stands for class %d, want −1 or a class in [0, %d)", t, cl, c)
			}
		}
	}
	if cfg.SeedLabels && cfg.TopicClasses == nil {
		return fmt.Errorf("ssnmf: SeedLabels labels the pseudo-documents with their topics' TopicClasses, which are not given")
	}
	return nil
}
