// Package capi is the logic behind the C ABI of the shared library
// (cmd/libsemitopic) that the Python package calls: a table of objects
// under opaque integer handles, every operation run as a job that the
// caller polls and may cancel, requests and metadata as JSON, and numeric
// arrays copied in from the caller's memory and out into buffers the
// caller allocates.
//
// A foreign caller never holds Go memory and Go never keeps the caller's:
// Input is filled from C pointers by cmd/libsemitopic, which copies the
// arrays before Start returns, and a result's matrices are copied into
// the caller's arrays by CopyMatrix and CopyCSR. Every operation runs on
// a goroutine under a context that Cancel ends, so that the caller (a
// Python process that holds the GIL only between polls) stays responsive
// to Ctrl-C and can stop a long fit.
//
// Fitting goes through package model (Fit, Save, Load), which every
// estimator of the Python package uses. The two drop-in modules that
// replay the reference implementations step for step call the algorithm
// packages instead, because the model front door does not expose what
// they need: corextopic's random stream (corex.Config.NumpyRandom) and
// the SSNMF reference's explicit starting factors, data and label masks
// (ssnmf.Config.W0, H0, B0, DataWeights, LabelWeights).
package capi
