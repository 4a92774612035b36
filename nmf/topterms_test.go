package nmf

import (
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestTopTermsBadN(t *testing.T) {
	h := mat.NewDense(1, 2, []float64{1, 2})
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("TopTerms(h, vocab, -1) panics: %v", r)
			}
		}()
		_, err := TopTerms(h, []string{"a", "b"}, -1)
		if err == nil || !strings.Contains(err.Error(), "n = -1") {
			t.Errorf("TopTerms(h, vocab, -1): error %v, want one naming n = -1", err)
		}
	}()
	got, err := TopTerms(h, []string{"a", "b"}, 0)
	if err != nil || len(got) != 1 || len(got[0]) != 0 {
		t.Errorf("TopTerms(h, vocab, 0) = %v, %v; want one empty list", got, err)
	}
	if _, err := TopTerms(nil, nil, 3); err == nil {
		t.Errorf("TopTerms(nil, nil, 3): no error")
	}
}
