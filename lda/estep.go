package lda

import (
	"context"
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/semitopic/semitopic/internal/parallel"
	"github.com/semitopic/semitopic/sparse"
)

// minTermsPerBlock keeps the per-term loops on one goroutine for tiny
// vocabularies.
const minTermsPerBlock = 512

// eStep runs the variational E-step on rows [lo, hi) of x, leaving each
// document's γ in w.gamma (row d-lo) and, when stats is set, its final
// exp(E[log θ]) in w.expTheta. With random set, γ starts from Gamma(100,
// 1/100) draws seeded by (Seed, m.steps, d), as in a training step;
// otherwise from 1, as in scikit-learn's transform and perplexity. It
// returns the total number of iterations over the documents.
//
// Documents are independent, so they are spread over the cores in small
// chunks handed out on demand; each document's result depends on nothing
// but its own data, which keeps the output identical for any number of
// cores.
func (m *Model) eStep(ctx context.Context, w *work, x *sparse.CSR, lo, hi int, random, stats bool) (int, error) {
	return m.eStepAt(ctx, w, x, 0, lo, hi, random, stats)
}

// eStepAt is eStep for a matrix x whose row 0 is document doc0 of the
// corpus, as in a block read out of core: row d's random start is seeded by
// its corpus index doc0+d, so that a block's documents draw the same
// numbers as the whole matrix's, without drawing any other document's.
func (m *Model) eStepAt(ctx context.Context, w *work, x *sparse.CSR, doc0, lo, hi int, random, stats bool) (int, error) {
	k, n := m.k, hi-lo
	if len(w.gamma) < n*k {
		w.gamma = make([]float64, n*k)
	}
	gamma := w.gamma[:n*k]
	var expTheta []float64
	if stats {
		if len(w.expTheta) < n*k {
			w.expTheta = make([]float64, n*k)
		}
		expTheta = w.expTheta[:n*k]
	}
	iters := make([]int, w.workers)
	seed, step := m.opts.Seed, m.steps
	var labels [][]int
	if stats || w.restrict {
		labels = w.labels
	}
	err := forDocs(ctx, n, w.workers, func(wk, a, b int) {
		s := w.scratch[wk]
		for i := a; i < b; i++ {
			d := lo + i
			g := gamma[i*k : (i+1)*k]
			var allow []bool
			if doc0+d < len(labels) && len(labels[doc0+d]) > 0 {
				allow = s.allowed(labels[doc0+d])
			}
			switch {
			case w.keep && startable(g, allow):
				// Start from the γ the document has (Config.Gamma0).
			case random:
				w.samplers[wk].seed(seed, docSeed(step, doc0+d))
				w.samplers[wk].fill(g)
			default:
				for t := range g {
					g[t] = 1
				}
			}
			et := s.tmp
			if stats {
				et = expTheta[i*k : (i+1)*k]
			}
			p0, p1 := x.Indptr[d], x.Indptr[d+1]
			iters[wk] += m.inferDoc(x.Indices[p0:p1], x.Data[p0:p1], g, et, allow, s)
		}
	})
	total := 0
	for _, it := range iters {
		total += it
	}
	return total, err
}

// startable reports whether γ = g can start a document's E-step: it has a
// positive entry at a topic allow permits (allow nil: any topic).
func startable(g []float64, allow []bool) bool {
	for t, v := range g {
		if v > 0 && (allow == nil || allow[t]) {
			return true
		}
	}
	return false
}

// inferDoc runs the E-step iterations of one document with words ids and
// counts cnts: starting from γ = g, it alternates
//
//	φ_wt ∝ exp(E[log θ_t]) exp(E[log β_tw])
//	γ_t  = α + Σ_w cnt_w φ_wt
//
// until the mean absolute change of γ falls below MeanChangeTol or
// MaxDocUpdateIter iterations ran. It leaves γ in g and exp(E[log θ]) in e,
// and returns the number of iterations. With allow set (labeled LDA), the
// topics t where allow[t] is false keep γ_t = 0 and exp(E[log θ_t]) = 0, so
// that φ is zero there too, and the Dirichlet expectations run over the
// allowed topics. Only the document's own words are
// visited: their columns of exp(E[log β]) are gathered once into a small
// words × k block, and each iteration is two matrix-vector products with
// it (φ's normalisers, then γ's update); φ itself is never stored.
func (m *Model) inferDoc(ids []int32, cnts []float64, g, e []float64, allow []bool, s *docScratch) int {
	k, nw := len(g), len(ids)
	e = e[:k]
	acc, last := s.acc[:k], s.last[:k]
	alpha := m.alpha
	tol := m.opts.meanChangeTol()
	maxIter := m.opts.maxDocIter()
	cnts = cnts[:nw]

	// exp(E[log θ]) of the starting γ, without the prior (as scikit-learn).
	var sum float64
	if allow != nil {
		for t := range g {
			if !allow[t] {
				g[t] = 0
			}
		}
	}
	for _, v := range g {
		sum += v
	}
	expectTheta(g, e, allow, digamma(sum))
	if maxIter == 0 {
		return 0
	}
	var bd, norm []float64
	if nw > 0 {
		bd, norm = s.block(nw, k)
		B := m.expElogBet
		for p, j := range ids {
			copy(bd[p*k:(p+1)*k], B[int(j)*k:int(j)*k+k])
		}
	}
	n := 0
	for n < maxIter {
		n++
		copy(last, g)
		if nw > 0 {
			// norm_w = Σ_t e_t B_wt; then r_w = cnt_w / (norm_w + eps);
			// then acc_t = Σ_w r_w B_wt. gonum's native BLAS runs these
			// products as SIMD assembly on amd64.
			gonum.Implementation{}.Dgemv(blas.NoTrans, nw, k, 1, bd, k, e, 1, 0, norm, 1)
			for p, c := range cnts {
				norm[p] = c / (norm[p] + eps)
			}
			gonum.Implementation{}.Dgemv(blas.Trans, nw, k, 1, bd, k, norm, 1, 0, acc, 1)
		} else {
			clear(acc)
		}
		sum = 0
		if allow == nil {
			for t := range g {
				v := e[t]*acc[t] + alpha
				g[t] = v
				sum += v
			}
		} else {
			for t := range g {
				if allow[t] {
					v := e[t]*acc[t] + alpha
					g[t] = v
					sum += v
				}
			}
		}
		expectTheta(g, e, allow, digamma(sum))
		if meanChange(last, g) < tol {
			break
		}
	}
	return n
}

// expectTheta sets e to exp(E[log θ]) = exp(ψ(g_t) - ps) where ps is
// ψ(Σ_t g_t), and to 0 at the topics allow forbids (allow nil: none).
func expectTheta(g, e []float64, allow []bool, ps float64) {
	if allow == nil {
		for t, v := range g {
			e[t] = math.Exp(digamma(v) - ps)
		}
		return
	}
	for t, v := range g {
		if allow[t] {
			e[t] = math.Exp(digamma(v) - ps)
		} else {
			e[t] = 0
		}
	}
}

// docScratch is one worker's scratch space for inferDoc.
type docScratch struct {
	acc, last, tmp []float64 // k each
	allow          []bool    // k, a labeled document's topics
	bd, norm       []float64 // grown to the longest document seen
}

func newDocScratch(k int) *docScratch {
	return &docScratch{acc: make([]float64, k), last: make([]float64, k), tmp: make([]float64, k), allow: make([]bool, k)}
}

// allowed returns s.allow set to the given topics.
func (s *docScratch) allowed(topics []int) []bool {
	clear(s.allow)
	for _, t := range topics {
		s.allow[t] = true
	}
	return s.allow
}

// block returns an nw × k block and an nw vector.
func (s *docScratch) block(nw, k int) (bd, norm []float64) {
	if len(s.bd) < nw*k {
		s.bd = make([]float64, nw*k)
		s.norm = make([]float64, nw)
	}
	return s.bd[:nw*k], s.norm[:nw]
}

// emStep runs one EM update of λ on rows [lo, hi) of x: the E-step from
// random γ, the sufficient statistics, then the batch update
// λ = η + S, or the online update λ ← (1-ρ)λ + ρ(η + total/(hi-lo)·S)
// with ρ = (LearningOffset + steps)^-LearningDecay, where
// S_tw = exp(E[log β_tw]) Σ_d cnt_dw exp(E[log θ_dt]) / φnorm_dw.
// It returns the number of E-step iterations.
func (m *Model) emStep(ctx context.Context, w *work, x *sparse.CSR, lo, hi int, batch bool, total float64) (int, error) {
	iters, err := m.eStep(ctx, w, x, lo, hi, !m.fixedInit, true)
	if err != nil {
		return 0, err
	}
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	m.sufficientStats(w, x, lo, hi)
	m.mStep(w.sstats, batch, total/float64(hi-lo))
	return iters, nil
}

// mStep ends an EM step with the statistics S (terms × k, see
// sufficientStats) of its documents: the batch update λ = η + S∘exp(E[log β])
// or, with batch unset, the online update λ ← (1-ρ)λ + ρ(η + ratio·S∘exp(E[log β]))
// with ρ = (LearningOffset + steps)^-LearningDecay, where ratio scales the
// mini-batch to the corpus. It then recomputes exp(E[log β]) and counts the
// step.
func (m *Model) mStep(S []float64, batch bool, ratio float64) {
	k := m.k
	eta := m.eta
	lam, B := m.lambda, m.expElogBet
	if batch {
		parallel.For(m.terms, minTermsPerBlock, func(a, b int) {
			for i := a * k; i < b*k; i++ {
				lam[i] = eta + S[i]*B[i]
			}
		})
	} else {
		rho := math.Pow(m.opts.LearningOffset+float64(m.steps), -m.opts.LearningDecay)
		parallel.For(m.terms, minTermsPerBlock, func(a, b int) {
			for i := a * k; i < b*k; i++ {
				lam[i] = lam[i]*(1-rho) + rho*(eta+ratio*(S[i]*B[i]))
			}
		})
	}
	if m.extra != nil || m.forbid != nil {
		rho := 1.0
		if !batch {
			rho = math.Pow(m.opts.LearningOffset+float64(m.steps), -m.opts.LearningDecay)
		}
		m.applyPrior(batch, rho)
	}
	m.updateExpElogBeta()
	m.steps++
}

// sufficientStats sets w.sstats (terms × k) to
// Σ_d cnt_dw exp(E[log θ_dt]) / φnorm_dw over rows [lo, hi) of x, where
// φnorm_dw = Σ_t exp(E[log θ_dt]) exp(E[log β_tw]) + eps, using the final
// exp(E[log θ]) the E-step left in w.expTheta.
//
// The cores split the terms, not the documents: each goroutine owns a
// range of terms and walks every document's words in that range, in
// document order. No accumulator is shared or merged, and each sum runs in
// the same order whatever the number of cores, so results are identical
// on one core and on many.
func (m *Model) sufficientStats(w *work, x *sparse.CSR, lo, hi int) {
	k, terms := m.k, m.terms
	if len(w.sstats) < terms*k {
		w.sstats = make([]float64, terms*k)
	}
	m.addStats(w.sstats, w.expTheta, x, lo, hi, true)
}

// addStats adds the statistics of rows [lo, hi) of x, whose final
// exp(E[log θ]) are the rows of expTheta, into S (terms × k), each
// document after the other in row order, after clearing S first when reset
// is set. Out of core, adding a block's documents into the sum of the
// blocks before it runs exactly the additions of sufficientStats over the
// whole matrix.
func (m *Model) addStats(S, expTheta []float64, x *sparse.CSR, lo, hi int, reset bool) {
	k, terms := m.k, m.terms
	B := m.expElogBet
	parallel.For(terms, minTermsPerBlock, func(ja, jb int) {
		if reset {
			clear(S[ja*k : jb*k])
		}
		for d := lo; d < hi; d++ {
			ids := x.Indices[x.Indptr[d]:x.Indptr[d+1]]
			cnts := x.Data[x.Indptr[d]:x.Indptr[d+1]]
			p0, p1 := 0, len(ids)
			if ja > 0 {
				p0 = searchCol(ids, ja)
			}
			if jb < terms {
				p1 = searchCol(ids, jb)
			}
			if p0 == p1 {
				continue
			}
			e := expTheta[(d-lo)*k : (d-lo+1)*k]
			for p := p0; p < p1; p++ {
				off := int(ids[p]) * k
				r := cnts[p] / (dot(e, B[off:off+k]) + eps)
				axpy(S[off:off+k], r, e)
			}
		}
	})
}

// updateExpElogBeta recomputes exp(E[log β]) from λ, zero at the
// forbidden positions, so that φ is zero there.
func (m *Model) updateExpElogBeta() {
	psiSum := m.topicDigammaSums()
	k, lam, B := m.k, m.lambda, m.expElogBet
	parallel.For(m.terms, minTermsPerBlock, func(a, b int) {
		for j := a; j < b; j++ {
			for t := 0; t < k; t++ {
				i := j*k + t
				B[i] = math.Exp(digamma(lam[i]) - psiSum[t])
			}
		}
	})
	for _, i := range m.forbid {
		B[i] = 0
	}
}

// topicSums returns Σ_w λ_tw for each topic, summed in term order.
func (m *Model) topicSums() []float64 {
	k := m.k
	sums := make([]float64, k)
	for j := 0; j < m.terms; j++ {
		row := m.lambda[j*k : (j+1)*k]
		for t, v := range row {
			sums[t] += v
		}
	}
	return sums
}

// topicDigammaSums returns ψ(Σ_w λ_tw) for each topic.
func (m *Model) topicDigammaSums() []float64 {
	s := m.topicSums()
	for t, v := range s {
		s[t] = digamma(v)
	}
	return s
}

// bound returns scikit-learn's approximate variational bound (_approx_bound
// without sub-sampling) for rows [lo, hi) of x with document parameters
// gamma ((hi-lo) × k):
//
//	Σ_d Σ_w cnt_dw log Σ_t exp(E[log θ_dt] + E[log β_tw])
//	+ Σ_d [ Σ_t (α-γ_dt) E[log θ_dt] + log Γ(γ_dt) - log Γ(α) ] + log Γ(kα) - log Γ(Σ_t γ_dt)
//	+ Σ_t [ Σ_w (η-λ_tw) E[log β_tw] + log Γ(λ_tw) - log Γ(η) ] + log Γ(Vη) - log Γ(Σ_w λ_tw)
//
// With a seed prior, η_tw replaces η in the topics' part (Σ_w η_tw in place
// of Vη), and a forbidden (topic, term) pair leaves the term's topic out of
// the documents' sums over t.
//
// Per-document and per-term partial sums are added in index order, so the
// value does not depend on the number of cores.
func (m *Model) bound(ctx context.Context, w *work, x *sparse.CSR, lo, hi int, gamma []float64) (float64, error) {
	elogBeta, termParts := m.topicBoundParts()
	var total float64
	if err := m.addDocBounds(ctx, w, x, lo, hi, gamma, elogBeta, &total); err != nil {
		return 0, err
	}
	return m.finishBound(total, termParts), nil
}

// topicBoundParts returns E[log β] (terms × k) and each term's part of the
// bound's topic side, Σ_t (η-λ_tw) E[log β_tw] + log Γ(λ_tw) - log Γ(η).
func (m *Model) topicBoundParts() (elogBeta, termParts []float64) {
	k, terms := m.k, m.terms
	eta := m.eta
	lam := m.lambda
	psiSum := m.topicDigammaSums()
	elogBeta = make([]float64, terms*k)
	termParts = make([]float64, terms)
	lgEta := lgamma(eta)
	parallel.For(terms, minTermsPerBlock, func(a, b int) {
		for j := a; j < b; j++ {
			var s float64
			for t := 0; t < k; t++ {
				i := j*k + t
				v := digamma(lam[i]) - psiSum[t]
				elogBeta[i] = v
				s += (eta-lam[i])*v + lgamma(lam[i]) - lgEta
			}
			termParts[j] = s
		}
	})
	// The seed prior: (η_tw - λ_tw) E[log β_tw] - log Γ(η_tw) in place
	// of the same with η.
	for _, p := range m.extra {
		termParts[p.i/k] += p.v*elogBeta[p.i] - lgamma(eta+p.v) + lgEta
	}
	// A forbidden word is never drawn from the topic: it adds nothing to
	// the documents' likelihoods.
	for _, i := range m.forbid {
		elogBeta[i] = math.Inf(-1)
	}
	return elogBeta, termParts
}

// addDocBounds adds to *total the bound's part of each of rows [lo, hi) of
// x, with document parameters gamma ((hi-lo) × k) and E[log β] from
// topicBoundParts, one document after the other in row order.
func (m *Model) addDocBounds(ctx context.Context, w *work, x *sparse.CSR, lo, hi int, gamma, elogBeta []float64, total *float64) error {
	k, n := m.k, hi-lo
	alpha := m.alpha
	if len(w.parts) < n {
		w.parts = make([]float64, n)
	}
	parts := w.parts[:n]
	lgAlpha, lgKAlpha := lgamma(alpha), lgamma(float64(k)*alpha)
	err := forDocs(ctx, n, w.workers, func(wk, a, b int) {
		s := w.scratch[wk]
		elt, tmp := s.acc, s.tmp
		for i := a; i < b; i++ {
			d := lo + i
			g := gamma[i*k : (i+1)*k]
			dirichletExpectation(g, elt)
			var score float64
			for p := x.Indptr[d]; p < x.Indptr[d+1]; p++ {
				off := int(x.Indices[p]) * k
				eb := elogBeta[off : off+k]
				mx := math.Inf(-1)
				for t := range tmp {
					v := elt[t] + eb[t]
					tmp[t] = v
					mx = max(mx, v)
				}
				var se float64
				for _, v := range tmp {
					se += math.Exp(v - mx)
				}
				score += x.Data[p] * (math.Log(se) + mx)
			}
			var gs float64
			for t, v := range g {
				score += (alpha-v)*elt[t] + lgamma(v) - lgAlpha
				gs += v
			}
			score += lgKAlpha - lgamma(gs)
			parts[i] = score
		}
	})
	if err != nil {
		return err
	}
	for _, v := range parts {
		*total += v
	}
	return nil
}

// finishBound returns the bound whose documents' parts add up to docs:
// it adds the terms' parts from topicBoundParts and each topic's
// log Γ(Vη) - log Γ(Σ_w λ_tw).
func (m *Model) finishBound(docs float64, termParts []float64) float64 {
	total := docs
	for _, v := range termParts {
		total += v
	}
	lgVEta := lgamma(float64(m.terms) * m.eta)
	for t, v := range m.topicSums() {
		if m.extraSum != nil {
			total += lgamma(float64(m.terms)*m.eta+m.extraSum[t]) - lgamma(v)
			continue
		}
		total += lgVEta - lgamma(v)
	}
	return total
}

// lgamma returns log Γ(x) for x > 0.
func lgamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}
