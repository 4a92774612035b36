package npyrand

const (
	stateLen = 624
	shift    = 397
	matrixA  = 0x9908b0df
	upper    = 0x80000000
	lower    = 0x7fffffff
)

// MT19937 is numpy's legacy generator. It is not safe for concurrent use.
type MT19937 struct {
	key [stateLen]uint32
	pos int
}

// New returns the generator of np.random.seed(seed) (numpy's
// _legacy_seeding: Knuth's initialisation of the 624-word state).
func New(seed uint32) *MT19937 {
	m := &MT19937{pos: stateLen}
	m.key[0] = seed
	for i := 1; i < stateLen; i++ {
		prev := m.key[i-1]
		m.key[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	return m
}

// Uint32 returns the next 32 random bits.
func (m *MT19937) Uint32() uint32 {
	if m.pos == stateLen {
		m.refill()
	}
	y := m.key[m.pos]
	m.pos++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	return y ^ (y >> 18)
}

func (m *MT19937) refill() {
	for i := 0; i < stateLen; i++ {
		y := m.key[i]&upper | m.key[(i+1)%stateLen]&lower
		v := m.key[(i+shift)%stateLen] ^ (y >> 1)
		if y&1 != 0 {
			v ^= matrixA
		}
		m.key[i] = v
	}
	m.pos = 0
}

// Float64 returns random_sample(): a uniform number in [0, 1) with 53
// random bits made of two 32-bit draws.
func (m *MT19937) Float64() float64 {
	a, b := m.Uint32()>>5, m.Uint32()>>6
	return (float64(a)*67108864.0 + float64(b)) / 9007199254740992.0
}

// Interval returns a uniform integer in [0, max] as numpy's
// random_interval does: 32-bit draws masked to the smallest covering power
// of two, rejected until in range (max must be below 2³²).
func (m *MT19937) Interval(max uint32) uint32 {
	if max == 0 {
		return 0
	}
	mask := max
	mask |= mask >> 1
	mask |= mask >> 2
	mask |= mask >> 4
	mask |= mask >> 8
	mask |= mask >> 16
	for {
		if v := m.Uint32() & mask; v <= max {
			return v
		}
	}
}

// Shuffle permutes a as RandomState.shuffle does for a one-dimensional
// array: for i from len(a)−1 down to 1, swap a[i] with a[Interval(i)].
func (m *MT19937) Shuffle(a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := m.Interval(uint32(i))
		a[i], a[j] = a[j], a[i]
	}
}
