//go:build !(linux || freebsd || netbsd || openbsd || dragonfly || darwin || windows)

package peakmem

import (
	"errors"
	"fmt"
	"runtime"
)

// peak reports that this platform has no peak resident set size to read.
func peak() (uint64, error) {
	return 0, fmt.Errorf("peakmem: peak resident memory on %s/%s: %w", runtime.GOOS, runtime.GOARCH, errors.ErrUnsupported)
}
