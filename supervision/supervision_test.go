package supervision

import (
	"math"
	"slices"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	ok := Terms{
		Seeds:   []Seed{{Topic: 0, Term: 1}, {Topic: 0, Term: 2, Strength: 3}, {Topic: 2, Term: 1}},
		Exclude: []Exclusion{{Topic: 1, Term: 1}, {Topic: 0, Term: 3}},
	}
	if err := ok.Check(3, 4); err != nil {
		t.Fatalf("valid terms: %v", err)
	}
	if err := (Terms{}).Check(1, 1); err != nil {
		t.Errorf("empty terms: %v", err)
	}
	for _, c := range []struct {
		s    Terms
		want string
	}{
		{Terms{Seeds: []Seed{{Topic: 3, Term: 0}}}, "seed 0 (topic 3, term 0): topic out of range [0, 3)"},
		{Terms{Seeds: []Seed{{Topic: -1, Term: 0}}}, "topic out of range"},
		{Terms{Seeds: []Seed{{Topic: 0, Term: 0}, {Topic: 1, Term: 4}}}, "seed 1 (topic 1, term 4): term out of range [0, 4)"},
		{Terms{Seeds: []Seed{{Topic: 0, Term: -2}}}, "term out of range"},
		{Terms{Seeds: []Seed{{Topic: 0, Term: 0, Strength: -1}}}, "strength -1"},
		{Terms{Seeds: []Seed{{Topic: 0, Term: 0, Strength: math.NaN()}}}, "strength NaN"},
		{Terms{Seeds: []Seed{{Topic: 0, Term: 0, Strength: math.Inf(1)}}}, "strength +Inf"},
		{Terms{Seeds: []Seed{{Topic: 1, Term: 2}, {Topic: 1, Term: 2, Strength: 2}}}, "seed 1 (topic 1, term 2): the pair is seed 0 too"},
		{Terms{Exclude: []Exclusion{{Topic: 0, Term: 9}}}, "exclusion 0 (topic 0, term 9): term out of range"},
		{Terms{Exclude: []Exclusion{{Topic: 2, Term: 1}, {Topic: 2, Term: 1}}}, "exclusion 1 (topic 2, term 1): the pair is exclusion 0 too"},
		{Terms{Seeds: []Seed{{Topic: 2, Term: 3}}, Exclude: []Exclusion{{Topic: 2, Term: 3}}}, "exclusion 0 (topic 2, term 3): the term is seed 0 of the same topic"},
	} {
		err := c.s.Check(3, 4)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want an error saying %q", c.s, err, c.want)
		}
	}
}

func TestSeededTopicsAndMask(t *testing.T) {
	s := Terms{
		Seeds:   []Seed{{Topic: 2, Term: 0}, {Topic: 0, Term: 1}, {Topic: 2, Term: 3}},
		Exclude: []Exclusion{{Topic: 1, Term: 2}, {Topic: 2, Term: 1}},
	}
	if got := s.SeededTopics(); !slices.Equal(got, []int{2, 0}) {
		t.Errorf("seeded topics %v, want [2 0]", got)
	}
	m := s.Mask(3, 4)
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			want := 1.0
			if i == 1 && j == 2 || i == 2 && j == 1 {
				want = 0
			}
			if m.At(i, j) != want {
				t.Errorf("mask(%d, %d) = %v, want %v", i, j, m.At(i, j), want)
			}
		}
	}
	if (Terms{Seeds: s.Seeds}).Mask(3, 4) != nil {
		t.Error("a mask without exclusions")
	}
	if !(Terms{}).Empty() || s.Empty() || (Terms{Exclude: s.Exclude}).Empty() {
		t.Error("Empty is wrong")
	}
}
