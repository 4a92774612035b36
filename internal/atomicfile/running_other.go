//go:build !unix

package atomicfile

// running cannot tell here whether a process runs: it says it does, so
// that only StaleAge makes a temporary stale.
func running(int) bool { return true }
