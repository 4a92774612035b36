package experiment

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

func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range All() {
		if e.Name == "" || e.Description == "" || e.Run == nil || seen[e.Name] {
			t.Errorf("bad or duplicate experiment %+v", e.Name)
		}
		seen[e.Name] = true
		if _, err := Find(e.Name); err != nil {
			t.Error(err)
		}
	}
	if _, err := Find("nope"); err == nil {
		t.Error("unknown experiment found")
	}
}
