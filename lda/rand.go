package lda

import (
	"math"

	"github.com/semitopic/semitopic/internal/rng"
)

// Random starting values. scikit-learn draws the initial λ and each
// training E-step's starting γ from Gamma(shape 100, scale 1/100), which
// has mean 1 and standard deviation 0.1. We draw from the same law with our
// own generator (PCG), so individual values differ from scikit-learn's.
// Each document's γ comes from a generator seeded by (Seed, EM step,
// document), so the values do not depend on how documents are scheduled
// over the cores.
const (
	initShape = 100.0
	initScale = 1 / initShape
)

// Stream selectors mixed into the second PCG seed word.
const (
	streamLambda = 0x6c616d626461 // "lambda"
	streamGamma  = 0x67616d6d61   // "gamma"
)

// splitmix64 is a bijective 64-bit mixer (Steele, Lea & Flood 2014).
func splitmix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// docSeed returns the second seed word of document doc's generator in EM
// step step.
func docSeed(step, doc int) uint64 {
	return splitmix64(splitmix64(streamGamma^uint64(step)<<20) ^ uint64(doc))
}

// gammaSampler draws Gamma(initShape, initScale) variates.
type gammaSampler struct {
	rnd rng.Compat
}

func newGammaSampler() *gammaSampler { return new(gammaSampler) }

// seed restarts the generator.
func (g *gammaSampler) seed(seed, stream uint64) { g.rnd.Seed(seed, stream) }

// fill sets every element of dst to a Gamma(initShape, initScale) draw.
// It uses Marsaglia & Tsang's (2000) squeeze method, valid for shape ≥ 1.
func (g *gammaSampler) fill(dst []float64) {
	const d = initShape - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for i := range dst {
		for {
			x := g.rnd.NormFloat64()
			v := 1 + c*x
			if v <= 0 {
				continue
			}
			v = v * v * v
			u := g.rnd.Float64()
			x2 := x * x
			if u < 1-0.0331*x2*x2 || math.Log(u) < 0.5*x2+d*(1-v+math.Log(v)) {
				dst[i] = d * v * initScale
				break
			}
		}
	}
}
