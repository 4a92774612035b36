// Package corex20ng reproduces Gallagher et al.'s Anchored CorEx on 20
// Newsgroups — the reference notebook's total correlation, Figure 2's
// anchored and unanchored comparisons and the anchor-strength sweep — as
// "semitopic experiment corex-20ng", writing docs/results/corex-20ng.md
// (corex-20ng-quick.md with --quick, which does not overwrite it).
//
// Its tests run the quick protocol on small synthetic corpora in seconds;
// with SEMITOPIC_LONG=1 they also run it on 20 Newsgroups and BBC News,
// rerun the seed-rank section and Figure 3's seeded LDA rows against the
// committed results, and check the measurement behind corex.DefaultBeta.
package corex20ng
