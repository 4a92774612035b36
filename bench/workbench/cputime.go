package main

import "time"

// cpuTimes is the CPU time a process has used.
type cpuTimes struct {
	User, System time.Duration
	// OK is false where the system does not say.
	OK bool
}

// since returns the CPU time used between c and now.
func (c cpuTimes) since() cpuTimes {
	n := readCPU()
	return cpuTimes{User: n.User - c.User, System: n.System - c.System, OK: c.OK && n.OK}
}

// Total is user and system time together.
func (c cpuTimes) Total() time.Duration { return c.User + c.System }
