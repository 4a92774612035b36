//go:build unix

package main

import (
	"syscall"
	"time"
)

// readCPU returns the CPU time the process has used so far (user and
// system, every thread).
func readCPU() cpuTimes {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return cpuTimes{}
	}
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return cpuTimes{User: tv(ru.Utime), System: tv(ru.Stime), OK: true}
}
