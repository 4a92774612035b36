package peakmem

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"syscall"
)

// peak reads the VmHWM ("high water mark") line of /proc/self/status, and
// falls back on getrusage's ru_maxrss, in kibibytes, where /proc is not
// mounted. VmHWM is preferred because ru_maxrss survives execve: a program
// started by another, as `go run` starts it, reports at least its parent's
// peak at the time of the exec.
func peak() (uint64, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err == nil {
		if kib, ok := parseVmHWM(status); ok {
			return kib * 1024, nil
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, fmt.Errorf("peakmem: getrusage: %w", err)
	}
	return uint64(ru.Maxrss) * 1024, nil
}

// parseVmHWM returns the value of the "VmHWM:  1234 kB" line of a
// /proc/PID/status file in kibibytes, and whether it found a well-formed
// one.
func parseVmHWM(status []byte) (uint64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		rest, found := bytes.CutPrefix(sc.Bytes(), []byte("VmHWM:"))
		if !found {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, false
		}
		kib, err := strconv.ParseUint(string(f[0]), 10, 64)
		return kib, err == nil
	}
	return 0, false
}
