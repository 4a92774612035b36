package model

import (
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/semitopic/semitopic/sparse"
)

func TestSeedCount(t *testing.T) {
	vocab := []string{"rocket", "orbit", "guitar", "melody", "the"}
	x := sparse.FromDense(mat.NewDense(6, 5, []float64{
		1, 1, 1, 0, 0, // two space seeds, one music seed: space
		0, 0, 1, 1, 1, // music
		1, 0, 2, 0, 0, // one each: the heavier (guitar) wins
		0, 0, 0, 0, 1, // no seed: the commonest
		1, 0, 1, 0, 0, // one each, equal weight: prior, else the first
		0, 0, 0, 1, 0, // music
	}))
	anchors := []Anchor{
		{Topic: "space", Words: []string{"rocket", "orbit", "lunar"}},
		{Topic: "nothing", Words: []string{"absent"}},
		{Topic: "music", Words: []string{"guitar", "melody"}},
		{Topic: "excluded only", Exclude: []string{"the"}},
	}
	names, pred, err := SeedCount(x, vocab, anchors, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(names, []string{"space", "music"}) {
		t.Fatalf("names %q, want the seeded topics with a word in the vocabulary", names)
	}
	// Without a prior, music (3 documents with seeds) is the commonest.
	if want := []int{0, 1, 1, 1, 0, 1}; !slices.Equal(pred, want) {
		t.Errorf("pred %v, want %v", pred, want)
	}
	_, pred, err = SeedCount(x, vocab, anchors, []float64{5, 1})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 1, 1, 0, 0, 1}; !slices.Equal(pred, want) {
		t.Errorf("with a prior favouring space: pred %v, want %v", pred, want)
	}
	// A strength counts: orbit at 3 outweighs guitar and melody.
	anchors[0].Beta = []float64{0, 3, 0}
	if _, pred, _ = SeedCount(x, vocab, anchors[:3], nil); pred[0] != 0 || pred[2] != 1 {
		t.Errorf("with strengths: pred %v", pred)
	}
	for _, c := range []struct {
		anchors []Anchor
		prior   []float64
		want    string
	}{
		{[]Anchor{{Topic: "a", Words: []string{"absent"}}}, nil, "no seed word"},
		{anchors, []float64{1}, "1 prior weights for 2"},
	} {
		if _, _, err := SeedCount(x, vocab, c.anchors, c.prior); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want an error saying %q", c.anchors, err, c.want)
		}
	}
}
