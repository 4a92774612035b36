// Package npyrand reproduces numpy's legacy random generator
// (numpy.random.RandomState: the MT19937 Mersenne Twister seeded by
// np.random.seed(n)) for the few places where semitopic must follow a
// reference implementation's random stream exactly: random_sample and the
// legacy shuffle. Everything else uses internal/rng.
package npyrand
