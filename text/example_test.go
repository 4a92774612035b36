package text_test

import (
	"fmt"

	"github.com/semitopic/semitopic/text"
)

func ExampleAnalyzer() {
	a, err := text.NewAnalyzer(text.Default())
	if err != nil {
		panic(err)
	}
	fmt.Println(a.Tokens("The wolves were running past the churches!"))
	// Output: [wolf running past church]
}

func ExampleNGrams() {
	fmt.Println(text.NGrams(nil, []string{"new", "york", "city"}, 1, 2))
	// Output: [new york city new york york city]
}
