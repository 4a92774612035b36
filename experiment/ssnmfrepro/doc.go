// Package ssnmfrepro reproduces Haddock, Kassab et al.'s semi-supervised
// NMF paper: its 20 Newsgroups classification and clustering results
// ("semitopic experiment ssnmf-20ng") and its Table 2 on synthetic data
// ("semitopic experiment ssnmf-synthetic"), writing
// docs/results/ssnmf-20ng.md and docs/results/ssnmf-synthetic.md.
package ssnmfrepro
