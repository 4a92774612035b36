//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Now returns the user and system time the process has used so far, all
// its threads together; ok is false where the system does not say.
func Now() (t time.Duration, ok bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
