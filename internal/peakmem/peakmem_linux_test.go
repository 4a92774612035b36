package peakmem

import (
	"syscall"
	"testing"
)

func TestParseVmHWM(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"Name:\tx\nVmPeak:\t  9000 kB\nVmHWM:\t    2108 kB\nVmRSS:\t 2000 kB\n", 2108, true},
		{"VmHWM:\t0 kB", 0, true},
		{"VmRSS:\t 2000 kB\n", 0, false},
		{"VmHWM:\t 2108 MB\n", 0, false},
		{"VmHWM:\t -1 kB\n", 0, false},
		{"VmHWM:\n", 0, false},
		{"", 0, false},
	} {
		got, ok := parseVmHWM([]byte(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseVmHWM(%q) = %d, %v; want %d, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

// On Linux ru_maxrss is at least VmHWM (it also covers the parent's peak
// at exec time), in the same unit once converted.
func TestBytesAtMostRusage(t *testing.T) {
	b, err := Bytes()
	if err != nil {
		t.Fatal(err)
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	if r := uint64(ru.Maxrss) * 1024; b > r {
		t.Errorf("Bytes = %d, more than ru_maxrss = %d bytes read after it", b, r)
	}
}
