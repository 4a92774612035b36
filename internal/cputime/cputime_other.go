//go:build !unix

package cputime

import "time"

// Now returns false: this system's processor time is not read here.
func Now() (t time.Duration, ok bool) { return 0, false }
