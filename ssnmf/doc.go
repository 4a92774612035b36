// Package ssnmf implements semi-supervised non-negative matrix factorization
// (SSNMF) as in Haddock, Kassab, Li et al., "Semi-supervised NMF Models for
// Topic Modeling in Learning Tasks" (arXiv 2010.07956), and its reference
// code (jamiehadd/ssnmf, src/ssnmf/ssnmf_numpy.py and evaluation.py): one
// factorization gives both topics and a predictor.
//
// # Model (the paper's notation)
//
// The paper factors a data matrix X (features × samples) and a target
// matrix Y (classes or target values × samples) through one shared
// representation S ≥ 0 (k × samples):
//
//	X ≈ A S,   A ≥ 0 (features × k): the topics
//	Y ≈ B S,   B ≥ 0 (classes × k):  the predictor
//
// minimising R(X, AS; W) + λ·Q(Y, BS; L), where W ≥ 0 (features × samples)
// weights the data entries (a 0/1 missing-data mask in the paper) and
// L ≥ 0 (classes × samples) the target entries (partial supervision: an
// unlabeled sample has a zero column), and each of R and Q is either the
// squared nmf.Frobenius norm ‖M∘(Z − Ẑ)‖²_F (Gaussian noise) or the
// I-divergence D_M(Z‖Ẑ) = Σ M∘(Z log(Z/Ẑ) − Z + Ẑ) (Poisson noise). The
// four models are (R, Q) = (F,F), (F,D), (D,F) and (D,D) — the reference
// code's modelNum 3, 4, 5 and 6 — each the maximum-likelihood estimator
// for its pair of noise distributions; with no Y, the unsupervised models
// (F) and (D) are plain NMF (modelNum 1 and 2). Y may hold one-hot classes,
// multi-hot labels, or non-negative real targets (regression).
//
// Our convention: X is documents × terms, the transpose of the paper's, so
// Model.W (documents × k) is the paper's Sᵀ, Model.H (k × terms) its Aᵀ,
// Y (documents × classes) ≈ W·Bᵀ with B (classes × k) exactly the paper's
// B, and Config.DataWeights and Config.LabelWeights are Wᵀ and Lᵀ.
//
// # Seed terms (Guided SSNMF)
//
// Config.Seeds guides topics by seed terms and keeps excluded terms out of
// them, in package supervision's term indices: the GSSNMF of Li et al.
// (2022) on nmf's Guided NMF. Each seeded topic's seed terms form a
// pseudo-document (nmf.NewGuide) stacked under the documents, which may
// use its own topic alone and weighs μ in the reconstruction term and
// nothing in the label term — unless Config.SeedLabels makes it a labeled
// document of its topic's class (Config.TopicClasses). A seeded fit
// starts H from the documents holding each topic's seed terms, and B from
// the topics' classes. Model.W has the documents' rows only.
//
// # Updates
//
// Each iteration updates A, then B, then S (in that order, as the
// reference's mult), each by a multiplicative update from the previous
// values of the others: with ⊘ element-wise division, C = M∘Z/(ε + Ẑ) the
// divergence ratio of a term and ε the epsilon below,
//
//	A ← A ∘ [(W∘X)Sᵀ] ⊘ [ε + (W∘AS)Sᵀ]                   (R nmf.Frobenius)
//	A ← A ∘ [C_X Sᵀ] ⊘ [ε + W Sᵀ]                          (R I-divergence)
//	B ← B ∘ [(L∘Y)Sᵀ] ⊘ [ε + (L∘BS)Sᵀ]                   (Q nmf.Frobenius)
//	B ← B ∘ [C_Y Sᵀ] ⊘ [ε + L Sᵀ]                          (Q I-divergence)
//	S ← S ∘ [a·Aᵀ N_X + b·λ·Bᵀ N_Y] ⊘ [ε + a·Aᵀ P_X + b·λ·Bᵀ P_Y]
//
// where for a nmf.Frobenius term N = M∘Z and P = M∘Ẑ, for an I-divergence term
// N = C and P = M, and (a, b) = (1, 1) for (F,F) and (D,D), (2, 1) for
// (F,D) and (1, 2) for (D,F) — the factor 2 of the gradient of a squared
// norm meeting the factor 1 of a divergence. These are Lee, Yoo & Choi's
// rules for (F,F) ("Semi-supervised nonnegative matrix factorization", IEEE
// Signal Processing Letters 17(1), 2010) and the paper's
// Algorithms 1–3 for the others, exactly as the reference implements them.
// With 0/1 weights they equal the reference's updates term for term; for
// general weights the ratio is M∘Z/(ε+Ẑ), the weighted divergence's own
// gradient (the reference writes (M∘Z)/(ε+M∘Ẑ)∘M, which agrees for 0/1
// weights only).
//
// The objective is R + λQ with the squared nmf.Frobenius norm (no ½) and the
// I-divergence evaluated as Σ M∘(Z log((Z+ε)/(Ẑ+ε)) − Z + Ẑ), as the
// reference's fronorm and Idiv compute it.
//
// # Engine
//
// Fit is a thin layer over the nmf engine: the data term R is nmf's data
// term (row weights or dense weights, sparse kernels for a sparse X), the
// supervision term Q an nmf.Coupled term, the update order nmf.HFirst, the
// ε convention nmf.Config.AddEpsilon and the stopping rule
// nmf.RelativeToFirst. The engine's squared norm is ½‖·‖²; Fit sets the
// engine's data weight and λ so that its W update has the coefficients
// (a, b) above and reports the objective on the paper's scale. A sparse X
// stays sparse unless general dense Config.DataWeights are given; the
// targets Y (documents × classes) are dense: they are narrow.
//
// # Epsilon
//
// One convention: ε (Config.Epsilon, default 1e-10, the reference's
// default eps) is added to every divisor — each update's denominator and
// the Ẑ of a divergence ratio — and to both sides of the logarithm in the
// I-divergence. Multiplicative updates cannot revive an exact zero, and
// with ε the updates are monotone up to terms of order ε: the objective
// never increases by more than rounding.
//
// # Stopping
//
// Objective[0] is the objective at the starting point and Objective[t]
// after iteration t. As in the reference's mult, the fit stops after
// iteration t ≥ 2 when (Objective[t−1] − Objective[t]) / Objective[1] <
// Config.Tol — the decrease of the last iteration relative to the
// objective after the first — or after Config.MaxIter iterations. (The
// reference tests the norm rather than its square for the unsupervised
// nmf.Frobenius model; here the objective is the squared norm throughout.)
//
// # Initialisation
//
// As the reference: A, S and B uniform on [0, 1), each from its own
// stream of Config.Seed, so that models with and without Y, or with
// different losses, start from the same A and S. Config.W0, Config.H0 and
// Config.B0 override them; Config.StartLabels starts A (H here) at the
// mean of the documents listing each topic instead (nmf.InitLabelMean).
//
// # Classification framework
//
// The paper's §2.3 and the reference's evaluation.py: fit on the training
// documents; represent new documents with the topics fixed — exact
// non-negative least squares per document when R is nmf.Frobenius (nmf.FixedH.Transform),
// 20 one-sided multiplicative updates of the I-divergence from a uniform
// random start when R is the I-divergence — and score them by Ŷ = W·Bᵀ:
// the class is the arg max of a row (metrics.ArgmaxRows), multi-label
// predictions keep the labels whose score reaches a threshold chosen on
// validation data (metrics.ChooseThreshold, metrics.Threshold), and regression reads Ŷ itself. Transductive
// fits the test documents together with the training ones, with zero label
// weight, and reads their representation from the fit. Select chooses λ,
// tol and k on a validation split over a grid (the paper searched λ ∈ {10,
// 100, 1000} and tol ∈ {1e-4, 1e-3, 1e-2} at k = 13).
package ssnmf
