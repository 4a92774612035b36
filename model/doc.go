// Package model gives every semitopic topic model one interface — fit on a
// corpus with optional supervision, transform new documents, describe the
// topics — and one file format to save and load them with the text pipeline
// that produced their vocabulary (see docs/model-format.md).
//
// Fit is the one way to fit a model: of any kind, on a corpus of text
// (Text), an already-vectorized matrix (Matrix) or, out of core, a sharded
// corpus on disk (Shards), supervised by labels, seed words and exclusion
// words (Supervision), with KindAuto choosing the kind by cross-validation.
// Each kind is one value (KindOf, Kinds) that declares what it is, the
// supervision it takes and the options it takes with their defaults and
// ranges (Kind.Params); Fit refuses any other option, naming it.
//
// A Fitted bundles a Model with its vectorizer, so that new documents go
// from text to topic weights exactly as the training documents did. The
// CLI, the HTML report and the HTTP server use only this package.
package model
