//go:build !(linux || darwin || freebsd || netbsd || openbsd)

package main

import "time"

// cpuTime is not measured on this platform.
func cpuTime() time.Duration { return 0 }
