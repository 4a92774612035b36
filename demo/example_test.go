package demo_test

import (
	"fmt"

	"github.com/semitopic/semitopic/demo"
)

func ExampleLoad() {
	d, err := demo.Load()
	if err != nil {
		panic(err)
	}
	fmt.Println(len(d.Corpus.Docs), "documents,", len(d.ThemeNames()), "themes")
	fmt.Println("space anchors:", d.Anchors()["space"])
	// Output:
	// 480 documents, 8 themes
	// space anchors: [rocket orbit astronaut telescope]
}
