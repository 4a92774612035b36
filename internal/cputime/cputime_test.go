package cputime

import (
	"runtime"
	"testing"
	"time"
)

// TestNowGrows checks that work moves the processor time forward and
// that sleeping does not move it by the time slept.
func TestNowGrows(t *testing.T) {
	a, ok := Now()
	if !ok {
		t.Skip("no processor time on " + runtime.GOOS)
	}
	x := 0
	for i := 0; i < 200_000_000; i++ {
		x += i & 7
	}
	b, _ := Now()
	if b <= a || x == 0 {
		t.Fatalf("processor time %v then %v after work", a, b)
	}
	time.Sleep(300 * time.Millisecond)
	c, _ := Now()
	if c-b > 200*time.Millisecond {
		t.Errorf("sleeping 300ms used %v of processor time", c-b)
	}
}
