// Package themenmf reproduces Suyunu's theme-supervised NMF thesis (2020),
// Tables 8.1 and 8.2 on Brown and Reuters with the NMF and LDA baselines,
// as "semitopic experiment theme-nmf", writing docs/results/theme-nmf.md.
package themenmf
