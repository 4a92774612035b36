//go:build !windows

package atomicfile

import "os"

// syncDir makes a rename in dir durable where the system allows it; a
// failure is ignored because the rename itself has happened.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}
