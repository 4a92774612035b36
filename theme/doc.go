// Package theme is theme-supervised non-negative matrix factorization
// (Suyunu, "Theme Supervised Nonnegative Matrix Factorization for Topic
// Modeling", MSc thesis, Boğaziçi University, 2020; reference code
// suyunu/theme-supervised-nmf, libs/TSNMF_Class.py), built on the
// multiplicative-update engine of package nmf (Frobenius or
// Kullback–Leibler loss).
//
// # Model
//
// X is documents × terms. Each theme (a label) owns s subtopics (the same s
// for every theme). A labeled document may use only the subtopics of its
// themes (several themes are allowed) and the background topic; the
// background topic is allowed in every document and soaks up the terms
// common to all themes. Unlabeled documents may use every topic. The
// support constraints are the document-topic mask of package nmf
// (Config.WMask): forbidden entries of W are exactly zero from the start to
// the end of the fit.
//
//   - Combined training fits one factorization with K·s subtopics (theme j
//     owns columns j·s … j·s+s−1), then the NewTopics columns, then one
//     background column (the last).
//   - Separated training fits one model per theme, one-vs-all: that theme's
//     s subtopics plus its own background topic, each fitted on the whole
//     corpus. A labeled document without the theme may use only the
//     background; with Config.NoThemeBackground, a labeled document
//     with the theme may not use the background (the reference code's
//     background_for_theme=False). The models are independent and run
//     concurrently, as many at once as there are cores.
//
// # Supervision
//
// Fit is transductive: documents with a nil theme list are unlabeled, take
// part in the fit with every topic allowed, and get their theme scores from
// the fitted W (the thesis' semi-supervised setting). Fully supervised
// training passes labeled documents only and scores new documents with
// Model.Transform, which solves for W with H fixed. By default Transform
// applies no mask — every topic is allowed, as in the reference code, whose
// scikit-learn transform knows nothing of the mask; TransformOptions.Labels
// restricts labeled new documents as in training.
//
// # New topics
//
// Config.NewTopics = n adds a pseudo-theme of n subtopics that only
// unlabeled documents may use (thesis §3.7), to find what the labels do not
// cover: n more columns before the background in Combined training, one
// more model (n topics plus its background) in Separated training. It needs
// unlabeled documents.
//
// # Initialisation
//
// bCool (thesis ch. 4; bCool_initialization_H) sets H from the labeled
// documents: for each theme, its labeled documents sorted by density (the
// number of distinct terms, densest first), the densest half kept when
// there are at least 2s of them, split into s contiguous groups of
// near-equal total density, each subtopic's row the mean of its group's
// rows of X; the background row is the mean of the densest quarter of every
// theme's kept list (a document counted once per theme). A theme with fewer
// than s labeled documents falls back to groups of ⌊n/(2·K·s)⌋+1 documents
// drawn uniformly with replacement (all documents; unlabeled ones for the
// new topics). W starts Uniform[0,1) on the allowed entries, as in the
// reference. Every random choice comes from Config.Seed. The alternative,
// InitRandom, draws H Uniform[0, 2·√(mean(X)/k)), the reference's scaling.
//
// With bCool, a term that none of a subtopic's documents contains starts at
// exactly zero in that subtopic's row. Multiplicative updates never move an
// exact zero, so in the reference's scikit-learn fits such entries stay zero
// for good; Fit does the same (the zeros of the bCool H become nmf's HMask)
// unless Config.ReviveZeros is set, in which case the nmf engine lifts them
// to a tiny positive value that the updates can grow. The new topics' rows,
// drawn from a few random documents, are never held at zero: they are there
// to find terms the labeled documents do not have.
//
// # Stopping
//
// By default a factorization stops by scikit-learn's rule for its
// multiplicative updates, which the thesis' fits used: every 10
// iterations, when the error √(2·objective) fell by less than 1e-4 of the
// starting point's error since the previous check, or after 200
// iterations (Config.Stop, Config.Tol, Config.MaxIter). The reference also
// regularizes both factors (scikit-learn's alpha = 0.1, l1_ratio = 0.5);
// these fits are not regularized.
//
// # Scores
//
// A document's score for subtopic t is w_t / (w_t + w_bg), its weight
// normalised by the weight of the background topic of the same model (thesis
// ch. 5; 0 when both are 0), and its score for a theme the largest score of
// the theme's subtopics. Ranking the themes by score orders a document's
// themes; metrics.LogRankAccuracy scores those rankings.
//
// # Term scores
//
// Row-normalised H gives each topic's direct term score d; the purity of a
// term in a topic is d/(d + d_bg) against the background row of the same
// model, the Purity Term Score is d·d/(d + d_bg), and the Theme Term Score
// with purity ratio λ ∈ [0,1] is (1−λ)·d + λ·d·d/(d + d_bg) (thesis ch. 6;
// TSNMF.ipynb, calculate_term_scores). A theme's terms are its subtopics'
// scores aggregated by max or by sum. The per-document variant
// (calculate_doc_term_scores) multiplies each topic's direct score by the
// document's row-normalised weight for it and keeps only the document's
// terms, which ranks the terms of one document.
//
// Matrices are documents × terms as everywhere in semitopic.
package theme
