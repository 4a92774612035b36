package shard

import (
	"encoding/binary"
	"io"
	"strconv"
	"unsafe"
)

// inPlace reports whether this machine lays out int, int32 and float64
// as shard files do (little-endian, int of 64 bits), so that a shard's
// arrays can be read straight into their memory instead of decoded value
// by value.
var inPlace = binary.NativeEndian.Uint16([]byte{1, 0}) == 1 && strconv.IntSize == 64

// readInPlace fills s with the bytes r reads; only when inPlace holds.
func readInPlace[T int | int32 | float64](r io.Reader, s []T) error {
	if len(s) == 0 {
		return nil
	}
	b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
	_, err := io.ReadFull(r, b)
	return err
}
