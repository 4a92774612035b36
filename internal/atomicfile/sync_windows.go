//go:build windows

package atomicfile

// syncDir does nothing on Windows, where folders cannot be synced.
func syncDir(string) {}
