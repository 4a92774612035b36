//go:build freebsd || netbsd || openbsd || dragonfly

package peakmem

import (
	"fmt"
	"syscall"
)

// peak reads ru_maxrss, which the BSDs count in kibibytes.
func peak() (uint64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("peakmem: getrusage: %w", err)
	}
	return uint64(ru.Maxrss) * 1024, nil
}
