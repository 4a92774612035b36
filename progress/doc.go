// Package progress defines the one report every fit of semitopic makes
// while it works: a Step after each iteration (a pass for LDA, a
// factorization for theme models), delivered to the Func in the
// estimator's Config.Progress.
//
// It sits below every algorithm package, so that nmf, ssnmf, theme,
// corex, lda and model all take the same callback and a caller — a
// progress bar, a log line, a test recording the objective — is written
// once for all of them.
package progress
