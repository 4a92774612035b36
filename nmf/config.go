package nmf

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/sparse"
	"github.com/semitopic/semitopic/supervision"
)

// Epsilon replaces a divisor that is exactly zero (see the package
// documentation). It is float32's machine epsilon, 2⁻²³, as scikit-learn's
// NMF uses.
const Epsilon = 1.0 / (1 << 23)

// Default stopping parameters.
const (
	DefaultMaxIter = 200
	DefaultTol     = 1e-4
	// DefaultAcolRows is the number of random documents averaged per topic
	// by InitRandomAcol (the TS-NMF reference code averages 20).
	DefaultAcolRows = 20
)

// Loss is the divergence between X and WH that a fit minimises.
type Loss int

// The losses.
const (
	// Frobenius is half the squared Frobenius norm ½‖X − WH‖².
	Frobenius Loss = iota
	// KullbackLeibler is the generalized Kullback–Leibler divergence
	// (I-divergence) Σ x log(x/wh) − x + wh.
	KullbackLeibler
)

var lossNames = []string{"frobenius", "kullback-leibler"}

// String returns "frobenius" or "kullback-leibler" (scikit-learn's names).
func (l Loss) String() string {
	if l >= 0 && int(l) < len(lossNames) {
		return lossNames[l]
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// ParseLoss parses a loss name: "frobenius" (or "fro"), "kullback-leibler"
// (or "kl").
func ParseLoss(s string) (Loss, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "frobenius", "fro":
		return Frobenius, nil
	case "kullback-leibler", "kl", "i-divergence":
		return KullbackLeibler, nil
	}
	return 0, fmt.Errorf("nmf: unknown loss %q (want frobenius or kullback-leibler)", s)
}

// Init selects how the factors are initialised. Whatever the method, a
// factor given in Config.W0 or Config.H0 is used instead of the method's,
// forbidden entries (masks) are set to zero, and exact zeros in allowed
// entries of a factor that will be updated are replaced by
// Epsilon·√(mean(X)/k).
type Init int

// The initialisations. mean(X) is the mean over all n·m entries.
const (
	// InitAuto is InitNNDSVDa when k ≤ min(n, m), otherwise InitRandom
	// (scikit-learn's default since 1.1).
	InitAuto Init = iota
	// InitRandom draws every entry as |N(0,1)|·√(mean(X)/k), H first, as
	// scikit-learn's init='random' (so that WH has the mean of X in
	// expectation up to the factor 2/π).
	InitRandom
	// InitRandomAcol sets each topic's row of H to the mean of AcolRows
	// documents (rows of X) drawn uniformly with replacement (Langville et
	// al., "Initializations for the nonnegative matrix factorization",
	// 2006; the TS-NMF paper's choice), and W to Uniform[0,1) entries,
	// as the TS-NMF reference code (kelsey-macmillan/ws-nmf) does.
	InitRandomAcol
	// InitNNDSVD is Boutsidis & Gallopoulos's non-negative double SVD
	// (2008), exactly as scikit-learn's _initialize_nmf: from a rank-k
	// randomized SVD, each singular pair's dominant sign part, entries
	// below 1e-6 set to zero (then lifted to the small positive value
	// above, so that multiplicative updates can move them).
	InitNNDSVD
	// InitNNDSVDa is NNDSVD with the zeros filled by mean(X).
	InitNNDSVDa
	// InitNNDSVDar is NNDSVD with the zeros filled by |N(0,1)|·mean(X)/100.
	InitNNDSVDar
	// InitLabelMean sets each topic's row of H to the mean of the documents
	// labeled with that topic (Config.Labels), falling back to random Acol
	// for a topic without labeled documents, and W to Uniform[0,1) — the
	// TS-NMF reference code's initialisation. Without labels it draws
	// exactly what InitRandomAcol draws.
	InitLabelMean
	// InitCustom starts from Config.W0 and Config.H0, which must both be
	// given (scikit-learn's init='custom'). Model.Init reports it whenever
	// both were given.
	InitCustom
)

var initNames = []string{"auto", "random", "random-acol", "nndsvd", "nndsvda", "nndsvdar", "label-mean", "custom"}

// String returns the method's name as ParseInit accepts it.
func (i Init) String() string {
	if i >= 0 && int(i) < len(initNames) {
		return initNames[i]
	}
	return fmt.Sprintf("Init(%d)", int(i))
}

// ParseInit parses an initialisation name (see Init.String).
func ParseInit(s string) (Init, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	for i, n := range initNames {
		if s == n {
			return Init(i), nil
		}
	}
	if s == "acol" {
		return InitRandomAcol, nil
	}
	return 0, fmt.Errorf("nmf: unknown init %q (want %s)", s, strings.Join(initNames, ", "))
}

// Config configures Fit. The zero value with K set is a valid
// configuration: Frobenius loss, InitAuto, seed 0, 200 iterations at most,
// tolerance 1e-4.
type Config struct {
	// K is the number of topics (components), at least 1. It may exceed
	// min(n, m) except with the NNDSVD initialisations (as in scikit-learn).
	K int
	// Loss is the divergence minimised.
	Loss Loss
	// Init is the initialisation method; Seed seeds all its random choices.
	Init Init
	Seed uint64
	// AcolRows is the number of documents averaged per topic by
	// InitRandomAcol and InitLabelMean's fallback (default 20).
	AcolRows int
	// Labels gives, for InitLabelMean, each document's topic indices (nil
	// or empty for an unlabeled document). It has one entry per document.
	Labels [][]int

	// W0 (n × k) and H0 (k × m), when set, are the starting factors
	// (scikit-learn's init='custom'); either one may be given alone. They
	// are copied, never modified.
	W0, H0 *mat.Dense
	// FixW keeps W0 fixed and solves for H only; FixH keeps H0 fixed and
	// solves for W only (transforming new documents). At most one may be
	// set, and the fixed factor must be given. The result's fixed factor
	// is an exact copy of it (masks are not applied to a fixed factor).
	FixW, FixH bool
	// Fixed, when set, is H prepared by NewFixedH: H stays fixed (FixH is
	// implied, H0 not needed) and the work that depends on H alone is not
	// redone, which makes transforming a few documents cheap. The result's
	// H is then Fixed.H() itself.
	Fixed *FixedH

	// WMask (n × k) and HMask (k × m) are optional 0/1 support masks: a
	// zero forbids the entry, which is then exactly zero throughout.
	// HMask is the engine's form of a support known in advance (such as
	// the zeros of package theme's starting topics); a term that a topic
	// may not use is an exclusion in Seeds, which Fit makes a zero of H's
	// support.
	WMask, HMask *mat.Dense
	// Seeds are seed terms and exclusions (Guided NMF; see the package
	// documentation). A topic never uses a term excluded from it (its
	// entry of H is exactly zero). Each seeded topic fits, beside the
	// documents, a pseudo-document of its seed terms (their strengths, 1
	// for a Strength of 0) that may use that topic alone, so that the
	// seeded topic is the seeds' topic; the result's W has the documents'
	// rows only. Seed terms need W and H updated, without coupled terms
	// or dense Weights; with Init InitAuto a seeded fit starts as
	// InitLabelMean from the documents holding each topic's seed terms.
	// A seeded fit may start from W0 (the documents' rows) only with H0:
	// each pseudo-document's row of W then starts at its best weight for
	// its topic's row of H0 (Guide.StackW), as a warm start from an
	// earlier fit does.
	Seeds supervision.Terms
	// SeedWeight (β ≥ 0; 0 means 1) scales the weight of every seed
	// pseudo-document against the documents (see NewGuide).
	SeedWeight float64
	// SeedRank, when positive, holds every seed term among its topic's
	// SeedRank heaviest terms: after each update of H, a seed term below
	// its topic's (SeedRank − s)-th heaviest other term (s the topic's
	// seed terms) is raised just above it, a projection as exclusions are
	// held at zero. Without it (0, the default) a seed term pulls its
	// topic by its pseudo-document alone, and a term common to many
	// documents may stay far down the topic.
	SeedRank int
	// hold is SeedRank's hold of the seed terms, set by Fit.
	hold *seedHold
	// RowWeights are optional per-document weights e_i ≥ 0 on the error
	// (TS-NMF's E); not all zero.
	RowWeights []float64
	// Weights is an optional dense n × m matrix of entry weights v_ij ≥ 0
	// (general weights, or a 0/1 missing-data mask), not all zero. With
	// RowWeights as well, the weight of entry (i, j) is e_i·v_ij. A sparse
	// X is densified when Weights is given.
	Weights *mat.Dense

	// MaxIter bounds the number of iterations (0: DefaultMaxIter).
	MaxIter int
	// Tol stops the fit when the relative decrease of the objective in an
	// iteration falls below it (0: DefaultTol; negative: never, run
	// MaxIter iterations): the rule RelativeDecrease{Tol}.
	Tol float64
	// Stop, when set, is the stopping rule instead of Tol's, such as
	// SklearnEvery10.
	Stop Stop
	// MinIter, when positive, keeps the stopping rule from stopping the
	// fit before MinIter iterations (MaxIter still bounds it): a fit
	// started near a previous optimum (a warm start) improves too little
	// per iteration for a relative rule to let a change of its
	// supervision take effect.
	MinIter int
	// Progress, if set, receives each iteration's number (from 1) and
	// objective, on the goroutine that called Fit.
	Progress progress.Func

	// Coupled are further terms of the objective that share W with the
	// data term, such as SSNMF's label term Y ≈ W·Bᵀ (see Coupled and the
	// package documentation). They need W and H to be updated (no FixW,
	// FixH or Fixed).
	Coupled []Coupled
	// DataWeight (α > 0; 0 means 1) weighs the data term in the objective
	// α·D(X, WH) + Σ_c λ_c·L_c(Y_c, W·B_cᵀ). It matters only beside
	// coupled terms or with AddEpsilon: a factor that one term alone
	// holds (H, B_c) is updated by that term's own rule, where the weight
	// cancels.
	DataWeight float64
	// AddEpsilon, when positive, is the SSNMF reference code's convention
	// for divisions instead of scikit-learn's: it is added to every
	// divisor of an update and to both sides of the KL logarithm, the
	// weights of a row enter its own update, H entries are not floored
	// under KL, and starting factors are used as given (their zeros are
	// not lifted). See the package documentation.
	AddEpsilon float64
	// Order is the order of the updates within an iteration.
	Order Order
	// Gathers is the precision of the factor rows that the Frobenius
	// updates of a sparse X read once per stored entry (see Gathers); the
	// zero value is GathersAuto.
	Gathers Gathers
}

// Gathers selects the precision of the rows of the other factor that the
// Frobenius updates of a sparse X gather, one per stored entry of X: at
// scale these reads are most of a fit's time. Products and sums are
// float64 either way, and the KL loss, the objective's cross term and
// dense X always read float64. Out of core (FitBlocks, TSNMFBlocks) the W
// update gathers as in memory, by the stored entries of the whole X; H's
// numerator is a float64 pass over each block.
type Gathers int

// The precisions.
const (
	// GathersAuto is GathersFloat32 from AutoFloat32NNZ stored entries
	// of X on, GathersFloat64 below.
	GathersAuto Gathers = iota
	// GathersFloat64 reads the float64 factors: the updates are
	// scikit-learn's to rounding (objectives within about 1e-14).
	GathersFloat64
	// GathersFloat32 reads a float32 copy of the factor, refreshed before
	// each update: half the bytes per gathered row. Each update then
	// differs from the exact one by about float32's precision, 6e-8, in
	// relative terms.
	GathersFloat32
)

// AutoFloat32NNZ is the number of stored entries of X from which
// GathersAuto gathers float32 rows (see docs/results/speed.md for the
// measurements behind it).
const AutoFloat32NNZ = 1 << 23

// String returns "auto", "float64" or "float32".
func (g Gathers) String() string {
	switch g {
	case GathersAuto:
		return "auto"
	case GathersFloat64:
		return "float64"
	case GathersFloat32:
		return "float32"
	}
	return fmt.Sprintf("Gathers(%d)", int(g))
}

// ParseGathers parses a precision by its name (Gathers.String): "auto",
// "float64" or "float32", in any case, surrounding spaces ignored.
func ParseGathers(s string) (Gathers, error) {
	for _, g := range []Gathers{GathersAuto, GathersFloat64, GathersFloat32} {
		if strings.EqualFold(strings.TrimSpace(s), g.String()) {
			return g, nil
		}
	}
	return 0, fmt.Errorf("nmf: unknown gathers precision %q (want auto, float64 or float32)", s)
}

// float32For reports whether a fit gathers float32 rows for a sparse X
// with nnz stored entries.
func (g Gathers) float32For(nnz int) bool {
	return g == GathersFloat32 || (g == GathersAuto && nnz >= AutoFloat32NNZ)
}

// Order is the order of the factor updates within an iteration.
type Order int

// The orders.
const (
	// WFirst updates W, then H, then the coupled terms' factors, as
	// scikit-learn.
	WFirst Order = iota
	// HFirst updates H, then the coupled terms' factors, then W, as the
	// SSNMF reference code (A, B, then S in the paper's notation).
	HFirst
)

// String returns "w-first" or "h-first".
func (o Order) String() string {
	switch o {
	case WFirst:
		return "w-first"
	case HFirst:
		return "h-first"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Coupled is a term λ·L(Y, W·Bᵀ) of the objective: a documents × c matrix
// Y (targets, one-hot labels) approximated through the documents' topic
// weights W and a c × k matrix B fitted with them — the label term of
// SSNMF (Haddock et al.). L is ½Σ m_ij (y_ij − z_ij)² or Σ m_ij (y_ij
// log(y_ij/z_ij) − y_ij + z_ij) with Z = W·Bᵀ, as the data term's losses.
type Coupled struct {
	// Y is documents × c, finite and non-negative.
	Y *mat.Dense
	// Loss is L's divergence.
	Loss Loss
	// Lambda (λ ≥ 0) weighs the term. At 0, W ignores Y (B is still
	// fitted to it).
	Lambda float64
	// Weights is an optional documents × c matrix of entry weights m_ij
	// ≥ 0; RowWeights optional per-document weights (0 for a document
	// without labels). With both, the weight of an entry is their product.
	Weights    *mat.Dense
	RowWeights []float64
	// B0 is the optional starting B (c × k), copied; without it B starts
	// Uniform[0,1) from Config.Seed.
	B0 *mat.Dense
}

// Model is a fitted factorization X ≈ WH.
type Model struct {
	// W is documents × topics and H topics × terms; masked entries are
	// exactly zero.
	W, H *mat.Dense
	// Loss is the loss that was minimised.
	Loss Loss
	// Objective[t] is the objective after t iterations (Objective[0] at the
	// starting point); it has Iterations+1 entries.
	Objective []float64
	// Iterations is the number of iterations done.
	Iterations int
	// Convergence says how the fit ended: converged (the stopping rule
	// was met, with what it measured last), stopped at MaxIter, or
	// cancelled (the factors the last complete iteration left, returned
	// with the context's error); FixedIterations when Tol is negative.
	Convergence progress.Convergence
	// Init is the initialisation method used: InitAuto resolved, or
	// InitCustom when both starting factors were given.
	Init Init
	// Elapsed is the wall time of the fit, initialisation included.
	Elapsed time.Duration
	// B holds the fitted B of each coupled term (Config.Coupled), in order.
	B []*mat.Dense
	// Terms holds each term's value at the returned factors, without its
	// weight: the data term first, then the coupled terms in order. The
	// final objective is DataWeight·Terms[0] + Σ_c λ_c·Terms[c+1].
	Terms []float64
	// WName is set by an out-of-core fit (FitBlocks, TSNMFBlocks), which
	// leaves W nil: block i's rows of W (rows × K, row-major) are the
	// blocks.Store's vector WName of block i.
	WName string
	// Seeded lists the topics that seed terms guided (Config.Seeds), in
	// the order of their pseudo-documents; none when no document holds a
	// seed term. The Objective and Terms include the pseudo-documents.
	Seeded []int
	// Notes explain in words what the fit did beyond the factorization:
	// the seed terms' weights and start, TS-NMF's supervision.
	Notes []string
}

// FinalObjective returns the objective of the returned factors.
func (r *Model) FinalObjective() float64 {
	if len(r.Objective) == 0 {
		return math.NaN()
	}
	return r.Objective[len(r.Objective)-1]
}

// Matrix is a data matrix for Fit and Transform: a *sparse.CSR, or any
// gonum mat.Matrix (dense).
type Matrix interface {
	Dims() (rows, cols int)
}

// data is a validated data matrix in one of the two forms.
type data struct {
	n, m  int
	sp    *sparse.CSR // sparse form, or nil
	dense *mat.Dense  // dense form, or nil
	sum   float64     // Σ x_ij
}

// mean returns mean(X) over all n·m entries.
func (d *data) mean() float64 { return d.sum / (float64(d.n) * float64(d.m)) }

// Data is a validated data matrix: exactly one of Sparse and Dense is set.
type Data struct {
	Sparse     *sparse.CSR
	Dense      *mat.Dense
	Rows, Cols int
	// Sum is the sum of the entries.
	Sum float64
}

// CheckData validates a data matrix X for a factorization — a
// *sparse.CSR or a gonum mat.Matrix (copied unless a *mat.Dense),
// non-empty, with finite, non-negative entries of finite sum — and
// returns it. An all-zero X passes; callers that cannot use one check
// Sum. Errors name the offending entry and carry no package prefix.
func CheckData(x Matrix) (*Data, error) {
	d := &Data{}
	switch v := x.(type) {
	case nil:
		return nil, fmt.Errorf("data matrix X is nil")
	case *sparse.CSR:
		if v == nil {
			return nil, fmt.Errorf("data matrix X is nil")
		}
		if err := v.Validate(); err != nil {
			return nil, fmt.Errorf("data matrix X: %w", err)
		}
		d.Sparse, d.Rows, d.Cols = v, v.Rows, v.Cols
		for i := 0; i < v.Rows; i++ {
			cols, vals := v.Row(i)
			for p, x := range vals { // Validate has checked finiteness
				if x < 0 {
					return nil, fmt.Errorf("data matrix X has a negative entry %g at row %d, column %d", x, i, cols[p])
				}
				d.Sum += x
			}
		}
	case mat.Matrix:
		if dv, ok := v.(*mat.Dense); ok && (dv == nil || dv.IsEmpty()) {
			return nil, fmt.Errorf("data matrix X is empty")
		}
		r, c := v.Dims()
		if r == 0 || c == 0 {
			return nil, fmt.Errorf("data matrix X is empty (%d×%d)", r, c)
		}
		dv, ok := v.(*mat.Dense)
		if !ok {
			dv = mat.DenseCopyOf(v)
		}
		d.Dense, d.Rows, d.Cols = dv, r, c
		for i := 0; i < r; i++ {
			for j, x := range dv.RawRowView(i) {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("data matrix X has a non-finite entry %v at row %d, column %d", x, i, j)
				}
				if x < 0 {
					return nil, fmt.Errorf("data matrix X has a negative entry %g at row %d, column %d", x, i, j)
				}
				d.Sum += x
			}
		}
	default:
		return nil, fmt.Errorf("data matrix X has unsupported type %T (want *sparse.CSR or a gonum mat.Matrix)", x)
	}
	if d.Rows == 0 || d.Cols == 0 {
		return nil, fmt.Errorf("data matrix X is empty (%d×%d)", d.Rows, d.Cols)
	}
	if math.IsInf(d.Sum, 0) {
		return nil, fmt.Errorf("the entries of X sum to infinity")
	}
	return d, nil
}

// checkData validates X (CheckData) and refuses an all-zero X.
func checkData(x Matrix) (*data, error) { return checkDataOpt(x, false) }

// checkDataOpt is checkData, optionally accepting an all-zero X.
func checkDataOpt(x Matrix, allowZero bool) (*data, error) {
	v, err := CheckData(x)
	if err != nil {
		return nil, fmt.Errorf("nmf: %w", err)
	}
	if v.Sum == 0 && !allowZero {
		return nil, fmt.Errorf("nmf: X (%d×%d) is all zero", v.Rows, v.Cols)
	}
	return &data{n: v.Rows, m: v.Cols, sp: v.Sparse, dense: v.Dense, sum: v.Sum}, nil
}

// CheckMatrix validates a matrix given to a fit — a starting factor,
// weights, targets — of shape r × c: present, of that shape, with finite,
// non-negative entries. The error names it and the offending entry and
// carries no package prefix.
func CheckMatrix(name string, f *mat.Dense, r, c int) error {
	return checkEntries(name, f, r, c, func(v float64) string {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return "a non-finite entry"
		case v < 0:
			return "a negative entry"
		}
		return ""
	})
}

// CheckRowWeights validates per-document weights: n finite, non-negative
// numbers. The error names them and carries no package prefix.
func CheckRowWeights(name string, w []float64, n int) error {
	if len(w) != n {
		return fmt.Errorf("%d %s for %d documents", len(w), name, n)
	}
	for i, v := range w {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("%s: weight %v of document %d is not a finite non-negative number", name, v, i)
		}
	}
	return nil
}

// CheckIterations validates the iteration bound and tolerance that every
// estimator of the NMF family takes, and returns maxIter with 0 resolved
// to def. The error carries no package prefix.
func CheckIterations(maxIter int, tol float64, def int) (int, error) {
	if maxIter < 0 {
		return 0, fmt.Errorf("MaxIter = %d, want ≥ 0", maxIter)
	}
	if math.IsNaN(tol) {
		return 0, errors.New("the tolerance Tol is NaN")
	}
	if maxIter == 0 {
		maxIter = def
	}
	return maxIter, nil
}

// checkFactor is CheckMatrix with this package's prefix.
func checkFactor(name string, f *mat.Dense, r, c int) error {
	if err := CheckMatrix(name, f, r, c); err != nil {
		return fmt.Errorf("nmf: %w", err)
	}
	return nil
}

// checkMask validates a 0/1 mask of shape r × c.
func checkMask(name string, f *mat.Dense, r, c int) error {
	err := checkEntries(name, f, r, c, func(v float64) string {
		if v != 0 && v != 1 {
			return "an entry other than 0 or 1:"
		}
		return ""
	})
	if err != nil {
		return fmt.Errorf("nmf: %w", err)
	}
	return nil
}

// checkEntries checks the shape of f and each entry with bad, which
// describes what is wrong with a value ("" if nothing).
func checkEntries(name string, f *mat.Dense, r, c int, bad func(float64) string) error {
	if f == nil || f.IsEmpty() {
		return fmt.Errorf("%s is empty, want %d×%d", name, r, c)
	}
	fr, fc := f.Dims()
	if fr != r || fc != c {
		return fmt.Errorf("%s is %d×%d, want %d×%d", name, fr, fc, r, c)
	}
	for i := 0; i < r; i++ {
		for j, v := range f.RawRowView(i) {
			if what := bad(v); what != "" {
				return fmt.Errorf("%s has %s %v at (%d, %d)", name, what, v, i, j)
			}
		}
	}
	return nil
}

// checkConfig validates cfg against the data and resolves defaults. It
// returns a copy with MaxIter, Tol, AcolRows and Init resolved.
func checkConfig(cfg Config, d *data) (Config, error) {
	n, m, k := d.n, d.m, cfg.K
	if k < 1 {
		return cfg, fmt.Errorf("nmf: K = %d, want at least 1", k)
	}
	if cfg.SeedRank < 0 {
		return cfg, fmt.Errorf("nmf: SeedRank = %d, want 0 (off) or a rank ≥ 1", cfg.SeedRank)
	}
	if err := cfg.hold.check(k, m); err != nil {
		return cfg, err
	}
	if cfg.Loss != Frobenius && cfg.Loss != KullbackLeibler {
		return cfg, fmt.Errorf("nmf: unknown loss %v", cfg.Loss)
	}
	if cfg.Init < InitAuto || cfg.Init > InitCustom {
		return cfg, fmt.Errorf("nmf: unknown init %v", cfg.Init)
	}
	if cfg.Gathers < GathersAuto || cfg.Gathers > GathersFloat32 {
		return cfg, fmt.Errorf("nmf: unknown Gathers %v (want auto, float64 or float32)", cfg.Gathers)
	}
	if cfg.Init == InitCustom && (cfg.W0 == nil || cfg.H0 == nil) {
		return cfg, fmt.Errorf("nmf: init custom needs both W0 and H0")
	}
	var err error
	if cfg.MaxIter, err = CheckIterations(cfg.MaxIter, cfg.Tol, DefaultMaxIter); err != nil {
		return cfg, fmt.Errorf("nmf: %w", err)
	}
	if cfg.MinIter < 0 {
		return cfg, fmt.Errorf("nmf: MinIter = %d, want ≥ 0", cfg.MinIter)
	}
	if cfg.Tol == 0 {
		cfg.Tol = DefaultTol
	}
	if cfg.AcolRows < 0 {
		return cfg, fmt.Errorf("nmf: AcolRows = %d, want ≥ 0", cfg.AcolRows)
	}
	if cfg.AcolRows == 0 {
		cfg.AcolRows = DefaultAcolRows
	}
	if cfg.Fixed != nil {
		if fk, fm := cfg.Fixed.Dims(); fk != k || fm != m {
			return cfg, fmt.Errorf("nmf: fixed H is %d×%d, want %d×%d", fk, fm, k, m)
		}
		if cfg.H0 != nil && cfg.H0 != cfg.Fixed.H() {
			return cfg, fmt.Errorf("nmf: both H0 and a fixed H are given")
		}
		if cfg.HMask != nil {
			return cfg, fmt.Errorf("nmf: HMask with a fixed H")
		}
		cfg.H0, cfg.FixH = nil, true
	}
	if cfg.FixW && cfg.FixH {
		return cfg, fmt.Errorf("nmf: FixW and FixH are both set: nothing to fit")
	}
	if cfg.FixW && cfg.W0 == nil {
		return cfg, fmt.Errorf("nmf: FixW needs W0")
	}
	if cfg.FixH && cfg.H0 == nil && cfg.Fixed == nil {
		return cfg, fmt.Errorf("nmf: FixH needs H0")
	}
	if cfg.W0 != nil {
		if err := checkFactor("W0", cfg.W0, n, k); err != nil {
			return cfg, err
		}
		if cfg.FixW && mat.Max(cfg.W0) == 0 {
			return cfg, fmt.Errorf("nmf: fixed W0 is all zero")
		}
	}
	if cfg.H0 != nil {
		if err := checkFactor("H0", cfg.H0, k, m); err != nil {
			return cfg, err
		}
		if cfg.FixH && mat.Max(cfg.H0) == 0 {
			return cfg, fmt.Errorf("nmf: fixed H0 is all zero")
		}
	}
	if cfg.WMask != nil {
		if err := checkMask("WMask", cfg.WMask, n, k); err != nil {
			return cfg, err
		}
	}
	if cfg.HMask != nil {
		if err := checkMask("HMask", cfg.HMask, k, m); err != nil {
			return cfg, err
		}
	}
	if cfg.RowWeights != nil {
		if err := CheckRowWeights("row weights", cfg.RowWeights, n); err != nil {
			return cfg, fmt.Errorf("nmf: %w", err)
		}
		if floats.Sum(cfg.RowWeights) == 0 {
			return cfg, fmt.Errorf("nmf: all row weights are zero")
		}
	}
	if cfg.Weights != nil {
		if err := checkFactor("Weights", cfg.Weights, n, m); err != nil {
			return cfg, err
		}
		if mat.Max(cfg.Weights) == 0 {
			return cfg, fmt.Errorf("nmf: all entry weights are zero")
		}
	}
	if cfg.Labels != nil {
		if len(cfg.Labels) != n {
			return cfg, fmt.Errorf("nmf: %d label lists for %d documents", len(cfg.Labels), n)
		}
		for i, ls := range cfg.Labels {
			for _, t := range ls {
				if t < 0 || t >= k {
					return cfg, fmt.Errorf("nmf: document %d: label topic %d out of range [0,%d)", i, t, k)
				}
			}
		}
	}
	if err := checkTerms(&cfg, n, k); err != nil {
		return cfg, err
	}
	if cfg.Init == InitAuto {
		if k <= min(n, m) {
			cfg.Init = InitNNDSVDa
		} else {
			cfg.Init = InitRandom
		}
	}
	needsInit := (cfg.W0 == nil) || (cfg.H0 == nil)
	if needsInit && k > min(n, m) {
		switch cfg.Init {
		case InitNNDSVD, InitNNDSVDa, InitNNDSVDar:
			return cfg, fmt.Errorf("nmf: init %v needs K ≤ min(n, m) = %d, got K = %d (use random or random-acol)", cfg.Init, min(n, m), k)
		}
	}
	return cfg, nil
}

// checkTerms validates the fields of the objective beyond the data term
// (DataWeight, AddEpsilon, Order, Coupled) and resolves DataWeight.
func checkTerms(cfg *Config, n, k int) error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) && v >= 0 }
	if !finite(cfg.DataWeight) {
		return fmt.Errorf("nmf: DataWeight = %v, want a finite number ≥ 0", cfg.DataWeight)
	}
	if cfg.DataWeight == 0 {
		cfg.DataWeight = 1
	}
	if !finite(cfg.AddEpsilon) {
		return fmt.Errorf("nmf: AddEpsilon = %v, want a finite number ≥ 0", cfg.AddEpsilon)
	}
	if cfg.Order != WFirst && cfg.Order != HFirst {
		return fmt.Errorf("nmf: unknown order %v", cfg.Order)
	}
	if len(cfg.Coupled) > 0 && (cfg.FixW || cfg.FixH) {
		return fmt.Errorf("nmf: coupled terms need both W and H updated (FixW, FixH or a fixed H is set)")
	}
	for c, t := range cfg.Coupled {
		name := fmt.Sprintf("coupled term %d", c)
		if t.Y == nil || t.Y.IsEmpty() {
			return fmt.Errorf("nmf: %s: Y is empty", name)
		}
		yr, yc := t.Y.Dims()
		if yr != n {
			return fmt.Errorf("nmf: %s: Y has %d rows for %d documents", name, yr, n)
		}
		if err := checkFactor(name+": Y", t.Y, n, yc); err != nil {
			return err
		}
		if t.Loss != Frobenius && t.Loss != KullbackLeibler {
			return fmt.Errorf("nmf: %s: unknown loss %v", name, t.Loss)
		}
		if !finite(t.Lambda) {
			return fmt.Errorf("nmf: %s: λ = %v, want a finite number ≥ 0", name, t.Lambda)
		}
		if t.Weights != nil {
			if err := checkFactor(name+": Weights", t.Weights, n, yc); err != nil {
				return err
			}
		}
		if t.RowWeights != nil {
			if err := CheckRowWeights("row weights", t.RowWeights, n); err != nil {
				return fmt.Errorf("nmf: %s: %w", name, err)
			}
		}
		if t.B0 != nil {
			if err := checkFactor(name+": B0", t.B0, yc, k); err != nil {
				return err
			}
		}
	}
	return nil
}
