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

func ExampleWithLanguage() {
	o, err := text.WithLanguage(text.Default(), "de")
	if err != nil {
		panic(err)
	}
	a, err := text.NewAnalyzer(o)
	if err != nil {
		panic(err)
	}
	fmt.Println(o.Stopwords, o.Morph, o.Pattern)
	fmt.Println(a.Tokens("Die Kinder spielen gern Spiele im Garten."))
	// Output:
	// [nltk-de] stem words
	// [kind spiel gern spiel gart]
}

func ExampleDetectLanguage() {
	d, err := text.DetectLanguage([]string{
		"Die Kinder spielen gern Spiele im Garten, und das Spiel ist für alle schön.",
		"Der Koch schneidet das Gemüse und kocht eine Suppe mit frischen Kräutern.",
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(d)
	// Output: de (German) in 2 of 2 texts
}
