// Package corex20ng reproduces Gallagher et al.'s Anchored CorEx on 20
// Newsgroups — the reference notebook's total correlation, Figure 2's
// anchored and unanchored comparisons and the anchor-strength sweep — as
// "semitopic experiment corex-20ng", writing docs/results/corex-20ng.md.
package corex20ng
