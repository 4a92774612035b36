package tsnmfreuters

import "testing"

func TestWordPunctJoinedLen(t *testing.T) {
	// NLTK: ' '.join(WordPunctTokenizer().tokenize(s)).
	cases := map[string]int{
		"":                       0,
		"Hello, world!":          len("Hello , world !"),
		"  U.S. $1,200 (est.)\n": len("U . S . $ 1 , 200 ( est .)"),
		"don't":                  len("don ' t"),
		"a_b--c":                 len("a_b -- c"),
	}
	for s, want := range cases {
		if got := wordPunctJoinedLen(s); got != want {
			t.Errorf("%q: %d, want %d", s, got, want)
		}
	}
}
