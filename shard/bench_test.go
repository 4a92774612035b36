package shard

import (
	"testing"
)

// BenchmarkStore times what an out-of-core pass of NMF writes and reads
// per block and per pass at k = 50 on a NYTimes-sized vocabulary: one
// 50,000-document block's W (20 MB) saved and loaded, and a 46 MB
// checkpoint (H at 102,660 terms), each written and synced. blocks.Run
// does these in the background; this is the time its passes no longer
// wait for.
func BenchmarkStore(b *testing.B) {
	st, err := NewStore(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	w := make([]float64, 50000*50)
	for i := range w {
		w[i] = float64(i)
	}
	b.Run("SaveW", func(b *testing.B) {
		b.SetBytes(int64(8 * len(w)))
		for b.Loop() {
			if err := st.Save("w", 0, w); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("LoadW", func(b *testing.B) {
		b.SetBytes(int64(8 * len(w)))
		for b.Loop() {
			if err := st.Load("w", 0, w); err != nil {
				b.Fatal(err)
			}
		}
	})
	ck := make([]byte, 102660*56*8)
	b.Run("Checkpoint", func(b *testing.B) {
		b.SetBytes(int64(len(ck)))
		for b.Loop() {
			if err := st.SaveCheckpoint(ck); err != nil {
				b.Fatal(err)
			}
		}
	})
}
