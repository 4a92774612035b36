package parallel

import (
	"sync"
	"testing"
)

func TestForCoversRangeOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 7, 1000} {
		seen := make([]int, n)
		For(n, 1, func(lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("n=%d: index %d visited %d times", n, i, c)
			}
		}
	}
}

func TestForWeightedCoversRangeOnce(t *testing.T) {
	cases := [][]int{
		{0},
		{0, 5},
		{0, 0, 0, 0},
		{0, 100, 100, 101, 250, 250, 900},
		{3, 4, 5, 6, 7, 8, 9, 10, 11},
	}
	for _, prefix := range cases {
		n := len(prefix) - 1
		seen := make([]int, n)
		var mu sync.Mutex
		workers := map[int]bool{}
		ForWeighted(prefix, 1, func(b, lo, hi int) {
			mu.Lock()
			if workers[b] {
				t.Errorf("worker index %d used twice", b)
			}
			workers[b] = true
			mu.Unlock()
			if b < 0 || b >= Workers() {
				t.Errorf("worker index %d out of range", b)
			}
			for i := lo; i < hi; i++ {
				seen[i]++
			}
		})
		for i, c := range seen {
			if c != 1 {
				t.Fatalf("prefix %v: index %d visited %d times", prefix, i, c)
			}
		}
	}
}
