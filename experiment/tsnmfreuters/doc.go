// Package tsnmfreuters reproduces MacMillan & Wilson's topic-supervised NMF
// (TS-NMF) on Reuters ApteMod — with and without error weighting, against
// unsupervised NMF — as "semitopic experiment tsnmf-reuters", writing
// docs/results/tsnmf-reuters.md.
package tsnmfreuters
