// Package themenmf reproduces Suyunu's theme-supervised NMF thesis (2020),
// Tables 8.1 and 8.2 on Brown and Reuters with the NMF and LDA baselines,
// as "semitopic experiment theme-nmf", writing docs/results/theme-nmf.md
// (theme-nmf-quick.md with --quick, which does not overwrite it).
//
// Its tests run the quick protocol on two small synthetic corpora in
// seconds; with SEMITOPIC_LONG=1 they also run it on Brown and Reuters.
package themenmf
