// Command gen writes package snowball's Go files from a checkout of the
// Snowball project (github.com/snowballstem/snowball) whose compiler is
// built (make snowball): the runtime, copied from the checkout's go/
// folder, and one file of generated code per stemming algorithm, made by
// the checkout's compiler (-go) from algorithms/NAME.sbl. It is run by
// go generate in text/internal/snowball:
//
//	SNOWBALL=/path/to/snowball go generate ./text/internal/snowball
//
// The checkout must be at the commit the package was made from (gen
// refuses another); the English algorithm is read from the older commit
// that semitopic's English stems come from (git show). The compiler's
// output is renamed so that all algorithms live in one package: each
// top-level name gets the algorithm's name as a prefix, the exported
// stemmer is StemNAME, and the runtime's package qualifier is dropped.
// The same checkout gives the same bytes.
package main
