//go:build linux || darwin || freebsd || netbsd || openbsd

package main

import (
	"syscall"
	"time"
)

// cpuTime returns the process's user and system CPU time, all threads.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
