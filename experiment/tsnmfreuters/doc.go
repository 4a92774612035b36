// Package tsnmfreuters reproduces MacMillan & Wilson's topic-supervised NMF
// (TS-NMF) on Reuters ApteMod — with and without error weighting, against
// unsupervised NMF — as "semitopic experiment tsnmf-reuters", writing
// docs/results/tsnmf-reuters.md (tsnmf-reuters-quick.md with --quick,
// which does not overwrite it).
//
// Its tests run the quick protocol on a small synthetic corpus in seconds;
// with SEMITOPIC_LONG=1 they also run it on Reuters.
package tsnmfreuters
