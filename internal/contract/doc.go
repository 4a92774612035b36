// Package contract holds the one test that every estimator of semitopic
// passes: nmf (and TS-NMF), ssnmf, theme, corex and lda each fit with
// Fit(ctx, X, cfg), report progress.Step through Config.Progress, return
// the model their last step left together with ctx's error when the
// context is cancelled, give the same model for the same seed, and
// transform new documents with (*Model).Transform(ctx, X) into a
// documents × topics matrix of finite, non-negative weights.
package contract
