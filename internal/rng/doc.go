// Package rng is semitopic's seeded random source for choices that must
// replay identically on every machine and Go release: a PCG-DXSM generator
// (math/rand/v2.PCG, whose output sequence is fixed by its specification)
// with the algorithms that turn its words into numbers written out here
// rather than taken from math/rand/v2's methods, whose algorithms are not
// promised to stay the same.
//
// Source is the generator for new code. Compat replays, draw for draw, the
// streams math/rand/v2's *Rand gave in Go 1.26, for the packages whose
// published results were drawn from it before they moved here. No other
// package of semitopic imports math/rand/v2.
package rng
