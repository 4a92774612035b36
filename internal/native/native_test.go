package native

import (
	"encoding/binary"
	"math"
	"testing"
)

// On a machine that reports the files' layout, Bytes gives the bytes the
// value-by-value encoding writes; and writing them writes the slice.
func TestBytes(t *testing.T) {
	if Bytes([]float64(nil)) != nil {
		t.Error("Bytes of an empty slice is not nil")
	}
	f := []float64{1.5, math.Copysign(0, -1), math.Inf(1), math.SmallestNonzeroFloat64}
	i := []int{0, -1, math.MaxInt32}
	i32 := []int32{7, -7, math.MinInt32}
	if len(Bytes(f)) != 32 || len(Bytes(i32)) != 12 {
		t.Fatalf("lengths %d and %d, want 32 and 12", len(Bytes(f)), len(Bytes(i32)))
	}
	if !LittleEndian64 {
		t.Skip("this machine's layout is not the files': the callers decode value by value")
	}
	var want []byte
	for _, v := range f {
		want = binary.LittleEndian.AppendUint64(want, math.Float64bits(v))
	}
	if string(Bytes(f)) != string(want) {
		t.Errorf("float64: % x, want % x", Bytes(f), want)
	}
	want = want[:0]
	for _, v := range i {
		want = binary.LittleEndian.AppendUint64(want, uint64(v))
	}
	if string(Bytes(i)) != string(want) {
		t.Errorf("int: % x, want % x", Bytes(i), want)
	}
	want = want[:0]
	for _, v := range i32 {
		want = binary.LittleEndian.AppendUint32(want, uint32(v))
	}
	if string(Bytes(i32)) != string(want) {
		t.Errorf("int32: % x, want % x", Bytes(i32), want)
	}
	b := Bytes(f)
	b[0] ^= 1
	if math.Float64bits(f[0]) != math.Float64bits(1.5)^1 {
		t.Error("writing the bytes did not write the slice")
	}
}
