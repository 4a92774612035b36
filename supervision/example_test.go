package supervision_test

import (
	"fmt"

	"github.com/semitopic/semitopic/supervision"
)

// Topic 0 is seeded by terms 4 and 7 (term 7 twice as strongly as the
// algorithm's default), and may not use term 2; topic 1 is seeded by
// term 2.
func Example() {
	s := supervision.Terms{
		Seeds: []supervision.Seed{
			{Topic: 0, Term: 4},
			{Topic: 0, Term: 7, Strength: 2},
			{Topic: 1, Term: 2},
		},
		Exclude: []supervision.Exclusion{{Topic: 0, Term: 2}},
	}
	fmt.Println("valid for 3 topics × 10 terms:", s.Check(3, 10))
	fmt.Println("for 3 topics × 5 terms:", s.Check(3, 5))
	fmt.Println("seeded topics:", s.SeededTopics())
	fmt.Println("topic 0 may use term 2:", s.Mask(3, 10).At(0, 2) == 1)
	// Output:
	// valid for 3 topics × 10 terms: <nil>
	// for 3 topics × 5 terms: seed 1 (topic 0, term 7): term out of range [0, 5)
	// seeded topics: [0 1]
	// topic 0 may use term 2: false
}
