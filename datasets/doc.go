// Package datasets turns the raw benchmark corpora into the exact datasets
// of the method papers' experiments: which documents take part, how classes
// are balanced, how the documents are split into training, validation and
// test sets, and how they become matrices (the vectorizer is fitted on the
// training documents only and applied to the others).
//
// Every random choice takes a seed, and the same seed gives the same
// dataset on every machine and Go release: the samplers use PCG-DXSM
// (math/rand/v2.PCG, whose output is fixed by its specification) with
// Fisher–Yates shuffles and unbiased bounded integers written out in this
// package. The papers' own code used other random generators (often
// unseeded), so a seed here does not reproduce their particular draw; it
// reproduces their protocol.
package datasets
