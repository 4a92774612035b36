// Package lda is semitopic's latent Dirichlet allocation baseline:
// variational Bayes LDA, batch and online (Hoffman, Blei & Bach, "Online
// Learning for Latent Dirichlet Allocation", NIPS 2010), with the semantics
// and defaults of scikit-learn 1.2's LatentDirichletAllocation.
//
// Fit takes a documents × terms matrix of non-negative counts and returns a
// Model holding λ, the variational parameters of the topic-word
// distributions (Components, TopicWord, TopWords). Transform gives the
// topic distribution of new documents, Score the approximate variational
// bound and Perplexity exp(-bound / words), all computed as scikit-learn
// computes them; New and PartialFit train online over a stream of
// mini-batches.
//
// The E-step visits only each document's non-zero counts and runs on all
// cores, a document at a time; the sufficient statistics are then gathered
// with the cores splitting the terms. Every random start is drawn from a
// generator seeded by Config.Seed, the EM step and the document's
// position, and every sum runs in a fixed order, so a model depends on its
// options and data only, not on the number of cores.
//
// Differences from scikit-learn: the random draws (same Gamma(100, 1/100)
// law, different generator) and the digamma function, which is accurate to
// a few units in the last place where scikit-learn's is accurate to about
// 3e-9. With scikit-learn's random start replaced by γ = 1, the E-step,
// the bound and both M-step updates agree with scikit-learn's to 1e-7
// relative, and to 1e-12 once its digamma is replaced by an accurate one
// (testdata/sklearn_fixture.py, TestMatchesSklearn). Priors above 1 are
// accepted. On 20 Newsgroups (bench/sklearn/ldacmp) the training
// perplexity after 20 batch passes is within 1% of scikit-learn's on
// average over seeds, in an eighth of its time on two cores.
//
// Three kinds of supervision steer the topics, in batch and online Fit,
// PartialFit (where documents have no labels) and out of core alike
// (Config's Seeds, SeedPrior, ZLabels and DocTopics):
// seeded LDA raises the topic-word prior η_tw of a topic's seed terms;
// z-labels LDA (Andrzejewski & Zhu 2009) makes a seed word's φ zero outside
// its topics, and an exclusion makes one (topic, word)'s φ zero; labeled
// LDA (Ramage et al. 2009) makes a labeled document's γ and φ zero outside
// its labels' topics while it trains. With none of them set, a fit is
// exactly the unsupervised one.
package lda
