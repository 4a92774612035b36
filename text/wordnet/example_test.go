package wordnet_test

import (
	"fmt"
	"log"

	"github.com/semitopic/semitopic/text/wordnet"
)

func Example() {
	lem, err := wordnet.Load() // once per program; safe to share
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(lem.Lemmatize("churches", wordnet.Noun))
	fmt.Println(lem.Lemmatize("running", wordnet.Verb))
	fmt.Println(lem.Lemmatize("better", wordnet.Adj))
	fmt.Println(lem.Lemmatize("geese", wordnet.Noun))
	fmt.Println(lem.Lemmatize("hardrock", wordnet.Noun)) // unknown: unchanged
	fmt.Println(lem.Lemmatize("has", wordnet.Noun))      // NLTK's famous quirk
	fmt.Println(lem.Morphy("axes", wordnet.Noun))
	fmt.Println(lem.Has("hot_dog", wordnet.Noun))
	// Output:
	// church
	// run
	// good
	// goose
	// hardrock
	// ha
	// [ax axis]
	// true
}

func ExampleParsePOS() {
	lem, err := wordnet.Load()
	if err != nil {
		log.Fatal(err)
	}
	for _, tag := range []string{"n", "v", "a", "r"} {
		pos, err := wordnet.ParsePOS(tag)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %s\n", pos, lem.Lemmatize("better", pos))
	}
	_, err = wordnet.ParsePOS("x")
	fmt.Println(err)
	// Output:
	// n: better
	// v: better
	// a: good
	// r: well
	// wordnet: unknown part of speech "x" (want n, v, a, s or r)
}
