// Package native tells whether this machine lays out numbers as the
// project's binary files do — little-endian, with a 64-bit int — and
// views a slice of such numbers as its bytes, so that those files are
// read and written a whole array at a time instead of value by value.
// Where the layouts differ, callers keep their value-by-value path.
package native

import (
	"encoding/binary"
	"strconv"
	"unsafe"
)

// LittleEndian64 reports whether int, int32 and float64 are laid out here
// as in the files: little-endian, and int of 64 bits.
var LittleEndian64 = binary.NativeEndian.Uint16([]byte{1, 0}) == 1 && strconv.IntSize == 64

// Bytes returns the memory of s as bytes, without copying: writing them
// writes s. Its values are the files' only where LittleEndian64 holds.
func Bytes[T int | int32 | float64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(s[0])))
}
