package rng

import (
	"math/bits"
	"math/rand/v2"
)

// Source is a seeded generator. Its methods are not safe for concurrent use;
// give each goroutine its own stream.
type Source struct{ src *rand.PCG }

// New returns the generator for seed and stream; different streams of one
// seed are independent sequences. salt separates the uses of one seed by
// different packages.
func New(seed, stream, salt uint64) Source {
	return Source{rand.NewPCG(seed, stream^salt)}
}

// Uint64 returns 64 uniform random bits.
func (r Source) Uint64() uint64 { return r.src.Uint64() }

// Intn returns a uniform integer in [0, n) by Lemire's unbiased multiply
// and reject method. It panics if n <= 0.
func (r Source) Intn(n int) int {
	if n <= 0 {
		panic("rng: Intn with n <= 0")
	}
	bound := uint64(n)
	hi, lo := bits.Mul64(r.src.Uint64(), bound)
	if lo < bound {
		thresh := -bound % bound
		for lo < thresh {
			hi, lo = bits.Mul64(r.src.Uint64(), bound)
		}
	}
	return int(hi)
}

// Float64 returns a uniform number in [0, 1) with 53 random bits.
func (r Source) Float64() float64 {
	return float64(r.src.Uint64()>>11) / (1 << 53)
}

// Shuffle permutes a uniformly (Fisher–Yates, from the front).
func (r Source) Shuffle(a []int) {
	for i := 0; i < len(a)-1; i++ {
		j := i + r.Intn(len(a)-i)
		a[i], a[j] = a[j], a[i]
	}
}
