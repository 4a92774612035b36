package peakmem

// bytesPerMiB is the size of the unit MiB reports in.
const bytesPerMiB = 1 << 20

// Bytes returns the peak resident set size of the current process in
// bytes. It returns an error wrapping errors.ErrUnsupported on platforms
// that do not report the figure, and the system call's error when the
// query fails.
func Bytes() (uint64, error) { return peak() }

// MiB returns the peak resident set size of the current process in
// mebibytes (2²⁰ bytes, the "MB" that the benchmarks print), or Bytes's
// error.
func MiB() (float64, error) {
	b, err := peak()
	if err != nil {
		return 0, err
	}
	return float64(b) / bytesPerMiB, nil
}
