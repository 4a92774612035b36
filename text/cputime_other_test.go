//go:build !unix

package text

import "time"

// cpuTime is not known here: the benchmarks use the time on the clock.
func cpuTime() (time.Duration, bool) { return 0, false }
