package shard

import (
	"io"

	"github.com/semitopic/semitopic/internal/native"
)

// inPlace reports whether this machine lays out int, int32 and float64
// as shard files do (native.LittleEndian64), so that a shard's arrays can
// be read straight into their memory instead of decoded value by value.
// The tests turn it off to run the other path.
var inPlace = native.LittleEndian64

// readInPlace fills s with the bytes r reads; only when inPlace holds.
func readInPlace[T int | int32 | float64](r io.Reader, s []T) error {
	if len(s) == 0 {
		return nil
	}
	_, err := io.ReadFull(r, native.Bytes(s))
	return err
}
