// Package progress defines the two reports every fit of semitopic makes:
// a Step after each iteration (a pass for LDA, a factorization for theme
// models), delivered to the Func in the estimator's Config.Progress while
// it works, and, when it ends, its Convergence: a Status (converged,
// stopped at the iteration limit, cancelled) with what the stopping rule
// measured last, in the estimator's result.
//
// It sits below every algorithm package, so that nmf, ssnmf, theme,
// corex, lda and model all take the same callback and report the same
// status, and a caller — a progress bar, a log line, a warning when a fit
// stops at its limit, a test recording the objective — is written once
// for all of them.
package progress
