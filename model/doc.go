// Package model gives every semitopic topic model one interface — fit on a
// corpus with optional supervision, transform new documents, describe the
// topics — and one file format to save and load them with the text pipeline
// that produced their vocabulary (see docs/model-format.md).
//
// A Fitted bundles a Model with its vectorizer, so that new documents go
// from text to topic weights exactly as the training documents did. The
// CLI, the HTML report and the HTTP server use only this package.
package model
