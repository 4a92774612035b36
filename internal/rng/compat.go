package rng

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
)

//go:generate go test -run ^TestZigguratTables$ -write-ziggurat

// Compat is a seeded generator whose streams are, draw for draw, those of
// math/rand/v2's *Rand over a *PCG as of Go 1.26 (for NormFloat64, those
// of a default amd64 build; see there):
//
//	rng.NewCompat(seed1, seed2) ≡ rand.New(rand.NewPCG(seed1, seed2))
//
// Packages that drew from such a *Rand before they moved to this package
// (nmf, lda, metrics, demo) use Compat so that their published outputs do
// not move. The PCG-DXSM generator underneath has an output sequence fixed
// by its specification; the algorithms that turn its words into floats,
// bounded integers, permutations and normal variates are written out here,
// copying those of math/rand/v2 in Go 1.26 (the Go Authors, BSD licence),
// because Go does not promise to keep them. compat_test.go checks the
// streams against math/rand/v2 and against recorded values.
//
// New code should use Source, whose algorithms are simpler; Compat keeps
// the math/rand/v2 algorithms only for the streams that already exist.
//
// A Compat is not safe for concurrent use. The zero Compat is the stream of
// NewCompat(0, 0).
type Compat struct{ pcg rand.PCG }

// NewCompat returns the generator whose stream is that of
// rand.New(rand.NewPCG(seed1, seed2)).
func NewCompat(seed1, seed2 uint64) *Compat {
	c := new(Compat)
	c.pcg.Seed(seed1, seed2)
	return c
}

// Seed restarts c as NewCompat(seed1, seed2).
func (c *Compat) Seed(seed1, seed2 uint64) { c.pcg.Seed(seed1, seed2) }

// Uint64 returns 64 uniform random bits: the next PCG output.
func (c *Compat) Uint64() uint64 { return c.pcg.Uint64() }

// Float64 returns a uniform number in [0, 1) made of the low 53 bits of
// one PCG output (rand.(*Rand).Float64).
func (c *Compat) Float64() float64 {
	return float64(c.pcg.Uint64()<<11>>11) / (1 << 53)
}

// IntN returns a uniform integer in [0, n) (rand.(*Rand).IntN). It panics
// if n <= 0.
func (c *Compat) IntN(n int) int {
	if n <= 0 {
		panic("rng: Compat.IntN with n <= 0")
	}
	return int(c.uint64n(uint64(n)))
}

// uint64n returns a uniform integer in [0, n) for n > 0 as
// rand.(*Rand).uint64n does: a mask of the low bits when n is a power of
// two, else Lemire's multiply and reject on 64 bits, which computes the
// 64-bit product's high word and rejects when its low word falls below
// 2⁶⁴ mod n (tested only when the low word is below n). On 32-bit machines
// math/rand/v2 takes a 32-bit route for n < 2³², written so that it gives
// these same results; this one route therefore matches it everywhere.
func (c *Compat) uint64n(n uint64) uint64 {
	if n&(n-1) == 0 {
		return c.pcg.Uint64() & (n - 1)
	}
	hi, lo := bits.Mul64(c.pcg.Uint64(), n)
	if lo < n {
		thresh := -n % n
		for lo < thresh {
			hi, lo = bits.Mul64(c.pcg.Uint64(), n)
		}
	}
	return hi
}

// Perm returns a uniform random permutation of 0, 1, ..., n-1
// (rand.(*Rand).Perm: the identity, then Shuffle).
func (c *Compat) Perm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	c.Shuffle(len(p), func(i, j int) { p[i], p[j] = p[j], p[i] })
	return p
}

// Shuffle permutes n elements through swap by Fisher–Yates from the back:
// for i = n-1 down to 1 it swaps i with a uniform j in [0, i]
// (rand.(*Rand).Shuffle). It panics if n < 0.
func (c *Compat) Shuffle(n int, swap func(i, j int)) {
	if n < 0 {
		panic("rng: Compat.Shuffle with n < 0")
	}
	for i := n - 1; i > 0; i-- {
		j := int(c.uint64n(uint64(i + 1)))
		swap(i, j)
	}
}

// zigR is the start of the normal ziggurat's tail, r in Marsaglia & Tsang
// (2000), "The Ziggurat Method for Generating Random Variables", Journal
// of Statistical Software 5(8).
const zigR = 3.442619855899

// NormFloat64 returns a standard normal variate (rand.(*Rand).NormFloat64):
// Marsaglia & Tsang's ziggurat with 128 strips, whose tables zigK, zigW and
// zigF (ziggurat.go) are built from the paper's constants by
// TestZigguratTables. One PCG output gives the strip (bits 32–38) and a
// signed 32-bit abscissa (the low word); the base strip's tail is sampled
// by Marsaglia's exponential method, and a wedge is accepted by comparing
// in float32 as math/rand/v2 does.
//
// The Go compiler may fuse a multiplication and an addition into one
// rounding (FMA). It does so in math/rand/v2's NormFloat64 on arm64 and
// other architectures, and on amd64 built with GOAMD64=v3 or later, which
// changes tail values and can flip wedge decisions, and with them the rest
// of the stream. Here the explicit conversions forbid it, so the stream is
// the one math/rand/v2 gives in a default amd64 build (GOAMD64=v1, where
// semitopic's published results were computed) on every architecture and
// GOAMD64 level. The tail and the wedge test still call math.Log and
// math.Exp, whose last bits are not promised to agree between
// architectures.
func (c *Compat) NormFloat64() float64 {
	for {
		u := c.pcg.Uint64()
		j := int32(u) // possibly negative
		i := u >> 32 & 0x7F
		x := float64(j) * float64(zigW[i])
		if absInt32(j) < zigK[i] {
			return x // better than 99% of the draws end here
		}
		if i == 0 {
			// The tail beyond zigR, only reached from the base strip.
			for {
				x = float64(-math.Log(c.Float64()) * (1.0 / zigR)) // not fused into zigR + x
				y := -math.Log(c.Float64())
				if y+y >= x*x {
					break
				}
			}
			if j > 0 {
				return zigR + x
			}
			return -zigR - x
		}
		if zigF[i]+float32(float32(c.Float64())*(zigF[i-1]-zigF[i])) < float32(math.Exp(-.5*x*x)) {
			return x
		}
	}
}

func absInt32(i int32) uint32 {
	if i < 0 {
		return uint32(-i)
	}
	return uint32(i)
}

// The LCG step of PCG-DXSM's 128-bit state, s ← mul·s + inc (mod 2¹²⁸),
// with the constants of its specification (and of math/rand/v2).
const (
	pcgMulHi = 2549297995355413924
	pcgMulLo = 4865540595714422341
	pcgIncHi = 6364136223846793005
	pcgIncLo = 1442695040888963407
)

// u128 is an unsigned 128-bit integer, arithmetic modulo 2¹²⁸.
type u128 struct{ hi, lo uint64 }

func (a u128) mul(b u128) u128 {
	hi, lo := bits.Mul64(a.lo, b.lo)
	return u128{hi + a.hi*b.lo + a.lo*b.hi, lo}
}

func (a u128) add(b u128) u128 {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	hi, _ := bits.Add64(a.hi, b.hi, c)
	return u128{hi, lo}
}

// Advance moves c ahead by delta outputs, as delta calls of Uint64 would,
// in O(log delta) steps (Brown's jump-ahead for linear congruential
// generators). Draws that take one output each (Uint64, Float64) can so be
// split among workers: the one that starts at draw d advances a copy of
// the generator by d.
func (c *Compat) Advance(delta uint64) {
	b, _ := c.pcg.MarshalBinary() // "pcg:" + hi + lo, big-endian
	s := u128{binary.BigEndian.Uint64(b[4:]), binary.BigEndian.Uint64(b[12:])}
	accMul, accInc := u128{0, 1}, u128{}
	curMul, curInc := u128{pcgMulHi, pcgMulLo}, u128{pcgIncHi, pcgIncLo}
	for ; delta > 0; delta >>= 1 {
		if delta&1 == 1 {
			accMul = accMul.mul(curMul)
			accInc = accInc.mul(curMul).add(curInc)
		}
		curInc = curMul.add(u128{0, 1}).mul(curInc)
		curMul = curMul.mul(curMul)
	}
	s = accMul.mul(s).add(accInc)
	binary.BigEndian.PutUint64(b[4:], s.hi)
	binary.BigEndian.PutUint64(b[12:], s.lo)
	if err := c.pcg.UnmarshalBinary(b); err != nil {
		panic("rng: PCG state encoding changed: " + err.Error())
	}
}

// MarshalBinary returns c's state.
func (c *Compat) MarshalBinary() ([]byte, error) { return c.pcg.MarshalBinary() }

// UnmarshalBinary restores a state from MarshalBinary.
func (c *Compat) UnmarshalBinary(b []byte) error {
	if err := c.pcg.UnmarshalBinary(b); err != nil {
		return fmt.Errorf("rng: %w", err)
	}
	return nil
}
