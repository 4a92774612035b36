// Package nmf is semitopic's non-negative matrix factorization engine and,
// on top of it, topic-supervised NMF (TS-NMF, MacMillan & Wilson 2017).
//
// # Model
//
// X is documents × terms (n × m), sparse (*sparse.CSR) or dense (any
// gonum mat.Matrix). Fit finds W ≥ 0 (n × k, document-topic) and H ≥ 0
// (k × m, topic-term) with X ≈ (W∘L)·(H∘M), where L (n × k) and M (k × m)
// are optional 0/1 support masks: a zero forbids a topic in a document, or
// a term in a topic. Forbidden entries are exactly zero from the start and
// stay exactly zero, so W∘L = W and the returned W and H already include
// the masks. Two losses are minimised by Lee & Seung's multiplicative
// updates (MU), in the order W then H in each iteration, as scikit-learn's
// solver='mu':
//
//	Frobenius:        F(W,H) = ½ Σ_ij v_ij (x_ij − (WH)_ij)²
//	KullbackLeibler:  D(W,H) = Σ_ij v_ij (x_ij log(x_ij/(WH)_ij) − x_ij + (WH)_ij)
//
// (the generalized KL or I-divergence). The weights v_ij are 1 by default,
// e_i for per-document row weights (Config.RowWeights, the error weighting
// E of TS-NMF), or a dense n × m matrix (Config.Weights: general weights or
// a 0/1 missing-data mask, as SSNMF's W). The scale matches scikit-learn's
// _beta_divergence (½ for Frobenius), so objectives compare directly; its
// reconstruction_err_ is √(2F).
//
// # Updates
//
// With G_H = HHᵀ and G_W = Wᵀdiag(e)W (k × k), the fast path for sparse X
// and row weights is
//
//	Frobenius:  W ← W ∘ (X Hᵀ) ⊘ (W G_H)
//	            H ← H ∘ (Wᵀ diag(e) X) ⊘ (G_W H)
//	KL:         W ← W ∘ ((X ⊘ WH) Hᵀ) ⊘ (1 rowsum(H)ᵀ)
//	            H ← H ∘ (Wᵀ diag(e) (X ⊘ WH)) ⊘ (colsum(diag(e)W) 1ᵀ)
//
// where X ⊘ WH is evaluated only at the stored entries of X. A row weight
// cancels in its own row's W update, so it enters only the H update and the
// objective; a zero weight removes the document from H's fit. The
// objective is computed from the same pieces without a dense n × m matrix:
// F = ½(Σ e_i‖x_i‖² − 2⟨Wᵀdiag(e)X, H⟩ + ⟨G_W, G_H⟩), and
// D = Σ_nz e_i (x log(x/wh) − x) + Σ_t colsum(diag(e)W)_t rowsum(H)_t.
// Hot loops run over row blocks of X and of its transpose on all cores
// (internal/parallel), and all work buffers are allocated once per fit.
// Their inner products — a sparse row times a factor, a row times a k × k
// Gram matrix, rank-16 Gram updates, the dot products at X's non-zeros —
// run as the AVX2/FMA assembly kernels of internal/kernels on amd64
// processors that have them (portable Go elsewhere, or with the purego
// build tag); the two agree to rounding.
//
// At scale the Frobenius updates are bound by memory traffic: each stored
// entry of X gathers a k-wide row of the other factor. From
// AutoFloat32NNZ stored entries on (Config.Gathers) they gather rows of a
// float32 copy of that factor, refreshed before each update, with float64
// products and sums: half the bytes, and objectives within 1e-9 to 4e-8
// of scikit-learn's where the exact updates are within 1e-14
// (GathersFloat64 keeps those numerics at any size). From the same size on a
// Frobenius fit does not transpose X: the H update's numerator
// Wᵀdiag(e)X is a tiled pass over X (sparse.TMulDense: each row's entries
// in a tile of terms scattered in one kernel call) into an m × k buffer,
// instead of a gather over Xᵀ, which would take 12 more bytes per stored
// entry. The CLI's and Python's nmf and tsnmf take the precision as
// --gathers / gathers.
// With dense general weights V the updates are the weighted ones,
// W ← W ∘ ((V∘X)Hᵀ) ⊘ ((V∘WH)Hᵀ) and H ← H ∘ (Wᵀ(V∘X)) ⊘ (Wᵀ(V∘WH)) for
// Frobenius, W ← W ∘ ((V∘X⊘WH)Hᵀ) ⊘ (VHᵀ) and H ← H ∘ (Wᵀ(V∘X⊘WH)) ⊘ (WᵀV)
// for KL; they need WH densely, so a sparse X is densified in that case
// only. A dense X without general weights uses gonum's matrix products.
// Each update is monotone: the objective never increases, up to rounding.
//
// # Coupled terms
//
// Config.Coupled adds terms that share W with the data term, such as
// SSNMF's label term: the objective becomes
//
//	α·D(X, WH) + Σ_c λ_c·L_c(Y_c, W·B_cᵀ)
//
// with α = Config.DataWeight, each L_c a Frobenius (½Σ m(y − z)²) or KL
// loss with its own entry and row weights, and B_c (targets × k) fitted
// with W and H. Each factor's multiplicative update divides the negative
// by the positive part of the objective's gradient: W's sums the terms'
// parts, weighted (α·e_i for the data term's row i, λ_c for term c); H
// and each B_c belong to one term, whose own update leaves its weight out.
// Config.Order puts H first (then the B_c, then W), as the SSNMF reference
// does; the default is W, H, then the B_c. Model.B and Model.Terms give
// the fitted B_c and each term's value. Package ssnmf is this engine with
// one coupled term.
//
// # Seed terms (Guided NMF)
//
// Config.Seeds steers topics by terms and keeps terms out of topics, in
// the term indices of package supervision. An exclusion is a zero of H's
// support: the topic's weight for the term is exactly zero. Seed terms
// follow Guided NMF (Vendrow, Haddock, Rebrova & Needell, "On a Guided
// Nonnegative Matrix Factorization", ICASSP 2021): besides the data term
// D(X, W·H) the fit approximates a seed matrix Q (seeded topics × terms,
// each row holding a topic's seed terms' strengths) by the topics,
// μ·D(Q, C·H). That term is the data term of pseudo-documents, Q's rows,
// with row weight μ and topic weights C, so the engine fits it on X with
// Q stacked under it (RowWeights: the documents' own weights, then μ for
// the pseudo-documents) — exactly for the Frobenius loss, and as μ·D_KL
// for KL. Unlike the paper's free C, which only guides, a pseudo-document
// may use its own topic alone (its row of the W mask), so the seeded
// topic is the seeds' topic. μ = β·M(X)/(k·M(q)) — M the data term's mass
// of the documents and of the pseudo-document, β Config.SeedWeight — makes
// a topic's seed terms weigh what an average topic's documents weigh,
// and is scaled by the odds of the share the seed terms hold in the
// documents that hold them (see NewGuide for why). A seeded fit with
// InitAuto starts each seeded topic as the mean of the documents holding
// its seed terms (InitLabelMean). The result's W has the documents' rows
// only; Model.Seeded and Model.Notes say what the seeds did. TSNMF takes
// seed terms for its labels' topics the same way, and package ssnmf
// stacks a Guide under its data (Guided SSNMF).
//
// # Epsilon
//
// One convention guards every division: Epsilon = 2⁻²³ (float32 machine
// epsilon, scikit-learn's EPSILON). A divisor that is exactly zero — an
// update's denominator, or (WH)_ij at a stored entry of X in the KL ratio
// and objective — is replaced by Epsilon; non-zero divisors are used as they
// are. A zero denominator only occurs where the numerator is zero too (or
// the entry itself is zero), so the guard prevents NaN without changing any
// update, and it is exactly what scikit-learn does: from the same start,
// both produce the same objective. An entry that is zero stays zero
// (multiplicative updates cannot revive it), so a factor entry allowed by a
// mask must not start at zero: every exact zero in an allowed entry of a
// factor that will be updated is replaced, after initialisation, by
// Epsilon·√(mean(X)/k) (Epsilon times the random-initialisation scale).
//
// Two rules set tiny entries to zero after an update. Under the KL loss, H
// entries below 2⁻⁵² (float64's machine epsilon) become zero, exactly as
// scikit-learn does: most of H falls below it in long fits on text, and
// keeping those entries changes the objective well beyond rounding (it
// decreases a little further), so this rule is part of reproducing
// scikit-learn's algorithm. And any updated entry below the smallest normal
// float64 (2⁻¹⁰²², about 2.2e-308) becomes zero: subnormal numbers slow
// floating-point arithmetic by two orders of magnitude, entries of both
// factors reach them in long fits, and they cannot affect the objective.
// Neither rule breaks the monotone decrease beyond rounding.
//
// Config.AddEpsilon selects the SSNMF reference's convention instead: a
// positive ε is added to every divisor and to both sides of the KL
// logarithm (x log((x+ε)/(wh+ε))), a row's weights enter its own W update
// (they no longer cancel), H is not floored at 2⁻⁵² under KL, and the
// starting factors' zeros are kept as given.
//
// # Stopping
//
// Objective[0] is the objective of the starting point and Objective[t] the
// objective after iteration t. Fitting stops after iteration t when the
// relative decrease (Objective[t−1] − Objective[t]) / Objective[t−1] is
// below Config.Tol (default 1e-4; an increase, which only rounding can
// cause, also stops it), or after Config.MaxIter iterations (default 200).
// The TS-NMF reference code tests every iteration, as here. Config.Stop
// replaces the rule: SklearnEvery10 is scikit-learn's (every 10
// iterations, against the initial error), RelativeToFirst the SSNMF
// reference's (the last decrease relative to the objective after the
// first iteration). A
// cancelled context stops the fit between iterations; Fit then returns the
// partial result, whose objective history is complete up to its last
// iteration, together with ctx.Err(). Config.Progress is called after every
// iteration with its number and objective.
//
// # Initialisation
//
// See Init for the methods: random (scikit-learn's scaling), random Acol
// (Langville et al.; TS-NMF's choice), NNDSVD, NNDSVDa and NNDSVDar
// (Boutsidis & Gallopoulos, as scikit-learn's _initialize_nmf, from a
// randomized truncated SVD written here: Halko et al.'s range finder with
// power iterations over sparse products, then an SVD of the small
// projected matrix), the mean of each topic's labeled documents (the TS-NMF
// reference code), and custom starting factors (Config.W0, Config.H0). Every
// random choice is drawn from Config.Seed.
//
// # Transform and fixed factors
//
// Config.FixH keeps H0 fixed and solves for W (new documents); Config.FixW
// keeps W0 fixed and solves for H. Transform computes W for new documents
// given H: for the Frobenius loss exactly, by an active-set (Lawson–Hanson)
// non-negative least-squares solve per document on the k × k Gram matrix
// HHᵀ; for KL by multiplicative updates with H fixed. An optional
// documents × topics mask restricts each document to its allowed topics.
//
// # TS-NMF
//
// TSNMF builds L from document labels (a labeled document may use only its
// labels' topics; unlabeled documents and the topics beyond the labels are
// unrestricted) and the row weights E (labeled documents weighted by the
// inverse supervision rate n / labeled, as in the paper's experiments), and
// fits with the engine above. E multiplies each document's squared error,
// as the updates of the reference code (kelsey-macmillan/ws-nmf) do. The
// reference code updates H before W; here, as everywhere in the engine, W
// comes first (each update is monotone either way). With no labels and no
// weights TS-NMF is plain NMF and returns bit-for-bit the same factors as
// Fit with the same seed and initialisation.
package nmf
