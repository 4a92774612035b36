package npyrand

import (
	"reflect"
	"testing"
)

// The expected values are numpy 1.24's (make_fixture.py prints them).
func TestMatchesNumpy(t *testing.T) {
	r := New(1)
	for i, want := range []float64{0.417022004702574, 0.7203244934421581, 0.00011437481734488664} {
		if got := r.Float64(); got != want {
			t.Errorf("RandomState(1).random_sample()[%d] = %v, want %v", i, got, want)
		}
	}
	a := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	New(42).Shuffle(a)
	if want := []int{8, 1, 5, 0, 7, 2, 9, 4, 3, 6}; !reflect.DeepEqual(a, want) {
		t.Errorf("RandomState(42).shuffle(arange(10)) = %v, want %v", a, want)
	}
	b := make([]int, 1000)
	for i := range b {
		b[i] = i
	}
	New(0).Shuffle(b)
	if !reflect.DeepEqual(b[:8], []int{993, 859, 298, 553, 672, 971, 27, 231}) || !reflect.DeepEqual(b[997:], []int{629, 559, 684}) {
		t.Errorf("RandomState(0).shuffle(arange(1000)) = %v … %v", b[:8], b[997:])
	}
	r = New(7)
	for i := 0; i < 700; i++ {
		r.Float64()
	}
	if got, want := r.Float64(), 0.059200845313875594; got != want {
		t.Errorf("RandomState(7) draw 701 = %v, want %v", got, want)
	}
}
