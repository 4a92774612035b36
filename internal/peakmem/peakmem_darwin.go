package peakmem

import (
	"fmt"
	"syscall"
)

// peak reads ru_maxrss, which macOS and iOS count in bytes (not in
// kibibytes as Linux and the BSDs do).
func peak() (uint64, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("peakmem: getrusage: %w", err)
	}
	return uint64(ru.Maxrss), nil
}
