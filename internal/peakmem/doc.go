// Package peakmem reports the peak resident set size of the current
// process: the most physical memory it has held at any one time since it
// started, as the benchmark programs under bench/ print it beside their
// timings.
//
// The figure comes from the operating system: on Linux and Android the
// VmHWM line of /proc/self/status (getrusage's ru_maxrss where /proc is
// missing: it also counts the parent's peak when a program is started with
// exec, as `go run` does); getrusage's ru_maxrss on the BSDs, which count it
// in kibibytes, and on macOS and iOS, which count it in bytes; and
// GetProcessMemoryInfo's PeakWorkingSetSize on Windows. Elsewhere Bytes
// returns an error that wraps errors.ErrUnsupported.
package peakmem
