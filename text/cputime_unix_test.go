//go:build unix

package text

import (
	"syscall"
	"time"
)

// cpuTime returns the processor time the process has used, which, unlike
// the time on the clock, other processes on a loaded machine do not
// lengthen; ok is false where it cannot be read.
func cpuTime() (t time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
