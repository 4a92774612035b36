package corex

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/progress"
	"github.com/semitopic/semitopic/supervision"
)

// Input says how the values of the input matrix become presence
// probabilities.
type Input uint8

// The input modes.
const (
	// Binarize treats every stored non-zero as a presence (1). Default.
	Binarize Input = iota
	// Fraction is the reference's count='fraction': when some value exceeds
	// 1, each count becomes x_di · (total count / count of term i) / (length
	// of document d), clipped to [0, 1]; input already within [0, 1] is
	// used as it is. Transform reuses the training background rates.
	Fraction
	// Probabilities uses the values as presence probabilities; they must
	// lie in [0, 1].
	Probabilities
)

var inputNames = [...]string{"binarize", "fraction", "probabilities"}

// String returns "binarize", "fraction" or "probabilities".
func (in Input) String() string {
	if int(in) < len(inputNames) {
		return inputNames[in]
	}
	return fmt.Sprintf("Input(%d)", in)
}

// ParseInput parses "binarize", "fraction" or "probabilities".
func ParseInput(s string) (Input, error) {
	for i, n := range inputNames {
		if s == n {
			return Input(i), nil
		}
	}
	return 0, fmt.Errorf("corex: unknown input mode %q (want binarize, fraction or probabilities)", s)
}

// DefaultBeta is the anchor strength β of Config.Beta 0. The reference's
// default is 1, where an anchor word is only kept out of the other
// topics (its README asks for values above 1, the paper uses 1.5 to
// 10). 3 is the smallest of 1, 2, 3 and 5 at which, on 20 Newsgroups
// with one topic anchored per newsgroup by its 5 words of highest
// I(L:w) (experiment/corex20ng TestDefaultBetaLong), 90% of the topics
// kept an anchor word among their top 10 words (12, 16, 18 and 19 of
// 20); checked on BBC News, where every β keeps all 5 and homogeneity
// goes 0.845, 0.836, 0.825, 0.798.
const DefaultBeta = 3

// Config configures Fit. The zero value is not usable: K must be set.
type Config struct {
	// K is the number of topics (latent factors), at least 1 and at most
	// the number of terms.
	K int
	// MaxIter bounds the iterations of each restart; 0 means 200.
	MaxIter int
	// Tol stops a restart when the mean TC of its last 5 iterations
	// differs from the mean of the 5 before by less than Tol nats
	// (checked after more than 10 iterations); 0 means 1e-5, negative
	// never stops early.
	Tol float64
	// Seed seeds every random choice; restart r uses Seed + r.
	Seed uint64
	// Restarts is the number of fits from different seeds; the one with
	// the highest total TC is kept (paper §2.1). 0 means 1.
	Restarts int
	// Input says how matrix values become presence probabilities.
	Input Input
	// Vocab, when set, names the columns, one word per column: the model
	// keeps it for TopWords and names the anchors in use.
	Vocab []string
	// Seeds tie terms to topics (paper §2.4): each seed term is an anchor
	// of its topic, with its Strength as β (0 for Config.Beta); a term may
	// be anchored to several topics. Each exclusion keeps a term out of a
	// topic: its α for the topic is zero at every iteration, so the topic
	// never uses it. An anchored topic starts
	// from its anchors: its first p(y|x) is ¾ in the documents holding one
	// of its anchor words and ¼ in the others (the reference's expected
	// start without its random half), its first labels are computed from
	// its anchor words alone (α zero for its other words until the first α
	// update), and its tie-breaking draws follow its anchors rather than
	// its position, so that the order of the anchored topics does not
	// change the fit (TestAnchoredTopicOrderDoesNotMatter). The reference
	// instead mixes the anchors into a random start, which leaves it to
	// the draw, and so to the topics' order, which topics end up following
	// their anchors. On 20 Newsgroups with one topic anchored per
	// newsgroup (β = 2, experiment/corex20ng TestSeedRankLong), the start
	// from the anchors kept an anchor word among the top 10 words of 16
	// topics of 20 for every seed and order, against 13 to 16 from the
	// reference's start, with higher homogeneity (0.446 against 0.42 to
	// 0.45); on BBC News both keep all 5, and the start from the anchors
	// costs some homogeneity (0.836 against 0.849 to 0.857 at β = 2).
	// Config.NumpyRandom restores the reference's start.
	Seeds supervision.Terms
	// KeepOrder keeps the topics in their positions instead of sorting
	// them by decreasing TC, for a caller that names topics by position.
	// A fit with seed terms or exclusions always keeps them.
	KeepOrder bool
	// Beta is the default anchor strength β; 0 means DefaultBeta.
	Beta float64
	// NumpyRandom draws the random start and the tie-breaking noise from
	// numpy's legacy generator (np.random.seed(Seed), MT19937) in the
	// reference's order instead of semitopic's generator, so that a fit
	// follows corextopic's Corex(seed=Seed) on the same matrix (up to
	// floating-point rounding, which slowly separates long runs). The
	// noise is then drawn on one core. Seed + Restarts − 1 must be below
	// 2³². See the package documentation for why this matters for TC.
	// It also starts anchored topics as the reference does (the mean of
	// the random draw and the anchor words' mean presence, α drawn for
	// every word) instead of from their anchors alone (see Anchors). It
	// does not change Beta's default, which is not the reference's: set
	// Beta to 1 for corextopic's default anchor_strength.
	NumpyRandom bool
	// P0 and Alpha0, when set, are a start from an earlier fit (a warm
	// start): P0 holds p(y_j = 1 | x) of every document and topic
	// (documents × K, in [0, 1]), Alpha0 the topics' α (K × terms, finite
	// and ≥ 0), both given together. A topic whose column of P0 has a
	// positive entry starts from that column and its row of Alpha0
	// instead of its random or anchored start (α's update then moves on
	// from the given α); a topic whose column is all zero starts as
	// without them. Every restart starts so.
	P0, Alpha0 *mat.Dense
	// Hold holds training documents to topics, one entry per document (a
	// person's labels: the documents labeled with a label are held in its
	// topic and out of the other labels' topics). At the start and after
	// every iteration's p(y|x), a held document's p(y_j = 1 | x) is set
	// to 1 − 1e-6 for its In topics and 1e-6 for its Out topics (the clip
	// bounds), so that the next marginals learn from it as held, and
	// Model.Train reports it so; a held topic is never flipped (y_j → 1 −
	// y_j). A held document's pointwise TC is that of its words' reading.
	// Fit in memory only.
	Hold []Held
	// Progress, when set, receives every iteration: Run the restart (from
	// 0), Iter the iteration (from 1), Objective the total correlation
	// after it in nats, Elapsed the time since the restart began.
	Progress progress.Func

	// npShift skips one 32-bit draw of numpy's stream before each word's
	// noise (TestNumpyStreamArtifact).
	npShift bool
}

// resolved returns the configuration with defaults filled in, or an error
// naming the invalid field.
func (c Config) resolved(terms int) (Config, error) {
	switch {
	case c.K < 1:
		return c, fmt.Errorf("corex: K = %d topics, want at least 1", c.K)
	case c.K > terms:
		return c, fmt.Errorf("corex: K = %d topics for %d terms, want at most one topic per term", c.K, terms)
	case c.MaxIter < 0:
		return c, fmt.Errorf("corex: MaxIter = %d, want ≥ 0", c.MaxIter)
	case c.Restarts < 0:
		return c, fmt.Errorf("corex: Restarts = %d, want ≥ 0", c.Restarts)
	case math.IsNaN(c.Tol):
		return c, fmt.Errorf("corex: Tol is NaN")
	case !(c.Beta >= 0) || math.IsInf(c.Beta, 0):
		return c, fmt.Errorf("corex: Beta = %v, want a finite value ≥ 0", c.Beta)
	case c.Input > Probabilities:
		return c, fmt.Errorf("corex: unknown input mode %d", c.Input)
	case c.NumpyRandom && c.Seed+uint64(max(c.Restarts, 1))-1 > math.MaxUint32:
		return c, fmt.Errorf("corex: NumpyRandom needs seeds below 2³² (Seed %d, %d restarts)", c.Seed, max(c.Restarts, 1))
	case c.Vocab != nil && len(c.Vocab) != terms:
		return c, fmt.Errorf("corex: %d vocabulary words for %d columns", len(c.Vocab), terms)
	}
	if c.MaxIter == 0 {
		c.MaxIter = 200
	}
	if err := c.checkStart(terms); err != nil {
		return c, err
	}
	if c.Tol == 0 {
		c.Tol = 1e-5
	}
	if c.Restarts == 0 {
		c.Restarts = 1
	}
	if c.Beta == 0 {
		c.Beta = DefaultBeta
	}
	return c, nil
}

// checkStart validates P0 and Alpha0 (the documents are checked by Fit).
func (c Config) checkStart(terms int) error {
	switch {
	case c.P0 == nil && c.Alpha0 == nil:
		return nil
	case c.P0 == nil || c.Alpha0 == nil:
		return fmt.Errorf("corex: P0 and Alpha0 start a fit together; give both or neither")
	case c.P0.IsEmpty() || c.Alpha0.IsEmpty():
		return fmt.Errorf("corex: P0 or Alpha0 is empty")
	}
	if _, k := c.P0.Dims(); k != c.K {
		return fmt.Errorf("corex: P0 has %d columns for K = %d topics", k, c.K)
	}
	if k, m := c.Alpha0.Dims(); k != c.K || m != terms {
		return fmt.Errorf("corex: Alpha0 is %d×%d, want %d×%d", k, m, c.K, terms)
	}
	r, _ := c.P0.Dims()
	for i := 0; i < r; i++ {
		for j, v := range c.P0.RawRowView(i) {
			if !(v >= 0 && v <= 1) {
				return fmt.Errorf("corex: P0 has the entry %v at (%d, %d), want a probability", v, i, j)
			}
		}
	}
	for t := 0; t < c.K; t++ {
		for j, v := range c.Alpha0.RawRowView(t) {
			if !(v >= 0) || math.IsInf(v, 0) {
				return fmt.Errorf("corex: Alpha0 has the entry %v at (%d, %d), want a finite number ≥ 0", v, t, j)
			}
		}
	}
	return nil
}
