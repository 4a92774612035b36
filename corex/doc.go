// Package corex is Anchored CorEx, the information-theoretic topic model of
// Gallagher, Reing, Kale & Ver Steeg, "Anchored Correlation Explanation:
// Topic Modeling with Minimal Domain Knowledge" (TACL 2017), with the
// semantics of the authors' Python package corextopic
// (gregversteeg/corex_topic, corextopic/corextopic.py), which is what its
// users know.
//
// Each topic is a binary latent factor Y_j; each word is a binary presence
// variable X_i. Fitting maximises the total correlation (TC) among the
// words that the topics explain, Σ_j TC(X_Gj; Y_j), where G_j are the
// words of topic j. Anchor words (paper §2.4) tie chosen words to chosen
// topics through the information bottleneck with a strength β.
//
// # Model and optimisation
//
// Fit takes a documents × terms *sparse.CSR and follows the sparse
// optimisation of paper §2.3 and the reference code step by step:
//
//   - Input. By default every stored value is a presence (1); Fraction is
//     the reference's count='fraction' transform; Probabilities takes
//     values already in [0,1] as presence probabilities. (The reference
//     binarises only when some value exceeds 1 and otherwise uses values in
//     [0,1] as probabilities; here the choice is explicit.)
//   - Marginals. p(y_j=1) is the mean of p(y_j=1|x) over documents.
//     p(x_i=1|y_j=1) comes from the expected co-count Xᵀ·p(y|x) clipped to
//     [0.01, n−0.01]·p(y_j) as the reference does, and p(x_i=1|y_j=0) from
//     the word count minus that co-count. Word counts are clipped to
//     [0.01, n−0.01] so that words present in no or every document stay
//     finite.
//   - Mutual information I(X_i:Y_j) is h(X_i) − p(y)h(X_i|y=1) −
//     (1−p(y))h(X_i|y=0) in bits, minus the Panzeri–Treves bias correction
//     1/(2n), clipped at 0. The reference mixes units here (the entropies
//     are in bits; 1/(2n) is the correction in nats); we keep it because the
//     word-to-topic weights α are computed from these values, and report
//     MI in the same units so that numbers compare with corextopic's
//     get_topics.
//   - α, the soft word-to-topic assignment, is the annealed softmax
//     α_ji = exp(t_ji (I_ji − max_k I_ki) / h(X_i)) with t_ji = 1 + τ_i·|TC_j|,
//     where the per-word temperature τ_i starts at 20 and grows by 1.3 each
//     iteration in which the word's α summed over informative topics
//     (TC_j > 1/n) exceeds 1.1, i.e. while the word is split between
//     topics. In the limit each word belongs to one topic (α = 1 there, 0
//     elsewhere). Ties in MI are broken by adding 1e-10·U(0,1) noise, as the
//     reference does (to every entry), drawn from the seeded generator
//     (see the last section).
//   - p(y_j|x) for every document comes from log p(y_j) + Σ_i α_ji log
//     p(x_i|y_j)/p(x_i): two sparse products of the documents with a
//     terms × topics matrix (one per latent state, fused here into one
//     product of width 2K), never a dense documents × terms pass. The
//     normaliser log Z_j(x) is the pointwise TC of the document for topic
//     j, in nats; TC_j is its mean over documents and the model's TC their
//     sum. p(y|x) is clipped to [1e-6, 1−1e-6] as in the reference.
//   - From the third iteration on, a topic whose highest-MI word is
//     negatively related to it has its p(y|x) flipped (y ↔ 1−y).
//   - Convergence: after more than 10 iterations, stop when the mean TC of
//     the last 5 iterations differs from that of the 5 before by less than
//     Tol (1e-5 nats); at most MaxIter iterations (200).
//   - Unanchored models sort their topics by decreasing TC; anchored
//     models keep the anchored topics at their positions.
//
// All of TC, TCs, pointwise TC and LogP are in nats. MI values are in the
// reference's units described above; SuggestAnchors reports I(L:w) in
// nats.
//
// # Anchors
//
// Anchors are seed terms of package supervision (Config.Seeds): each ties
// a term, a column of the input, to a topic; a term may be anchored to
// several topics. During fitting, an anchored word's α is 0 for every
// topic except those it is anchored to, where it equals the anchor
// strength β (Config.Beta, or the seed's Strength); an excluded word's α
// is 0 in its topic. An anchored topic starts from
// its anchor words, not at random (see Config.Seeds; with
// Config.NumpyRandom its p(y|x) starts as the mean of a random draw and
// the mean presence of its anchor words, as the reference does), so that
// neither the seed nor the order of the anchored topics decides which
// topics follow their anchors. A fit with anchors or exclusions keeps
// its topics in their positions (Config.KeepOrder keeps them without
// any), so that topics named by position keep their names; package model
// looks anchor words up in a vocabulary and notes those missing from it
// (the reference would shift the later anchor lists to earlier topics).
//
// # Results
//
// The fitted Model holds TC per topic, α, MI and the sign of each
// word-topic pair (presence or absence informative), the documents'
// p(y|x), log p(y|x) and pointwise TC; TopWords ranks a topic's words by MI
// or by the reference's α·MI; TopDocs ranks documents; Transform applies
// the trained marginals to new documents. FitHierarchy stacks layers on the
// binary topic labels (paper §2.1) and prints them as a tree.
// SuggestAnchors proposes anchor words per document label (paper §4.3).
//
// # Parallelism, reproducibility and the random stream
//
// The per-word and per-document work is cut into fixed chunks spread over
// all cores, each chunk drawing its random numbers from its own stream of
// the seeded generator (internal/rng) and every sum running in a fixed
// order, so a model depends on its configuration and data only, not on the
// number of cores.
//
// With Config.NumpyRandom the random start and the tie-breaking noise are
// drawn instead from numpy's legacy Mersenne Twister seeded as
// np.random.seed(Seed), in the reference's order; a fit then follows
// corextopic's Corex(seed=Seed) on the same matrix iteration by iteration
// (testdata/make_fixture.py, TestMatchesReference), up to floating-point
// rounding. The stream matters more than one would expect from noise of
// 1e-10: it decides the topic of every word whose MI is clipped to 0 once
// the per-word temperature has grown, so the final TC spreads over seeds
// (on 20 Newsgroups with 50 topics, from about 44.5 to 47 nats with either
// generator), and from one numpy start, shifting numpy's stream by one
// 32-bit draw per word moves it by 1.3 nats (TestNumpyStreamArtifact, run
// with SEMITOPIC_LONG=1; docs/results/corex-20ng.md).
package corex
