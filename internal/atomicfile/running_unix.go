//go:build unix

package atomicfile

import (
	"errors"
	"syscall"
)

// running reports whether a process numbered pid runs on this machine
// (signal 0 checks without sending anything; a process of another user
// answers EPERM).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
