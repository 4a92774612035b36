package rng

import "testing"

func TestIntnUniformAndDeterministic(t *testing.T) {
	a, b := New(7, 3, 1), New(7, 3, 1)
	counts := make([]int, 5)
	for i := 0; i < 50000; i++ {
		x := a.Intn(5)
		if y := b.Intn(5); x != y {
			t.Fatal("same seed and stream differ")
		}
		counts[x]++
	}
	for v, c := range counts {
		if c < 9500 || c > 10500 {
			t.Errorf("value %d drawn %d times of 50000", v, c)
		}
	}
	if New(7, 4, 1).Uint64() == New(7, 3, 1).Uint64() {
		t.Error("streams 3 and 4 start alike")
	}
}

func TestShufflePermutes(t *testing.T) {
	a := []int{0, 1, 2, 3, 4, 5, 6, 7}
	New(1, 0, 0).Shuffle(a)
	seen := map[int]bool{}
	for _, v := range a {
		seen[v] = true
	}
	if len(seen) != 8 {
		t.Errorf("not a permutation: %v", a)
	}
	for i := 0; i < 1000; i++ {
		if f := New(uint64(i), 0, 0).Float64(); f < 0 || f >= 1 {
			t.Fatalf("Float64 = %v", f)
		}
	}
}
