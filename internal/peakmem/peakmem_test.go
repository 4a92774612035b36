package peakmem

import (
	"errors"
	"runtime"
	"testing"
)

// supported lists the systems that report a peak resident set size.
var supported = map[string]bool{
	"linux": true, "android": true, "freebsd": true, "netbsd": true, "openbsd": true,
	"dragonfly": true, "darwin": true, "ios": true, "windows": true,
}

func TestBytesGrowsWithTouchedMemory(t *testing.T) {
	before, err := Bytes()
	if !supported[runtime.GOOS] {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Fatalf("Bytes on %s = %d, %v; want an error wrapping errors.ErrUnsupported", runtime.GOOS, before, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Bytes: %v", err)
	}
	if before == 0 {
		t.Fatal("Bytes = 0 for a running process")
	}

	// Touch every page of a fresh 64 MiB buffer: the peak must reach it. A
	// unit error (kibibytes read as bytes) reports about a thousandth of it.
	const size = 64 << 20
	buf := make([]byte, size)
	for i := 0; i < len(buf); i += 512 {
		buf[i] = 1
	}
	after, err := Bytes()
	runtime.KeepAlive(buf)
	if err != nil {
		t.Fatalf("Bytes: %v", err)
	}
	if after < before || after < size {
		t.Errorf("peak %d bytes before and %d after touching %d bytes; want it to grow to at least %[3]d", before, after, size)
	}
	// The opposite unit error (bytes read as kibibytes) reports tens of GiB.
	if after > 16<<30 {
		t.Errorf("peak %d bytes after touching %d bytes: implausibly large, a unit error?", after, size)
	}

	mib, err := MiB()
	if err != nil {
		t.Fatalf("MiB: %v", err)
	}
	if mib*bytesPerMiB < float64(after) {
		t.Errorf("MiB = %g, less than the earlier Bytes = %d (%g MiB); the peak never falls", mib, after, float64(after)/bytesPerMiB)
	}
}
