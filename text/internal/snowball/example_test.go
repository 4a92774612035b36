package snowball_test

import (
	"fmt"

	"github.com/semitopic/semitopic/text/internal/snowball"
)

// ExampleStemGerman stems words with two of the stemmers, reusing one Env.
func ExampleStemGerman() {
	env := snowball.NewEnv("")
	for _, w := range []string{"spiele", "spielen", "gärten"} {
		env.SetCurrent(w)
		snowball.StemGerman(env)
		fmt.Print(env.Current(), " ")
	}
	env.SetCurrent("μαθήματα")
	snowball.StemGreek(env)
	fmt.Println(env.Current())
	// Output: spiel spiel gart μαθημ
}
