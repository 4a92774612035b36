// Package ssnmfrepro reproduces Haddock, Kassab et al.'s semi-supervised
// NMF paper: its 20 Newsgroups classification and clustering results
// ("semitopic experiment ssnmf-20ng") and its Table 2 on synthetic data
// ("semitopic experiment ssnmf-synthetic"), writing
// docs/results/ssnmf-20ng.md and docs/results/ssnmf-synthetic.md.
//
// Its tests run both quick protocols on small synthetic data in seconds;
// with SEMITOPIC_LONG=1 they also run the quick modes on the real sizes and
// data and rerun the first trial of the committed synthetic results.
package ssnmfrepro
