package text

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestCleanText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Atlanta's mid-week vote", "atlantas midweek vote "},
		{"He didn't go to http://x.org or www.y", "he did not go to or "},
		{"Its 1960's U.S. café!", "it is s us caf! "},
	}
	for _, c := range cases {
		if got := CleanText(c.in); got != c.want {
			t.Errorf("CleanText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// Reuters: WordPunct tokens first, so "U.S." is "U . S ." and "u"
	// becomes "you".
	if got := CleanWordPunct("U.S. 4TH-qtr profit\x1cup"); got != "you  s  th  qtr profit up " {
		t.Errorf("CleanWordPunct = %q", got)
	}
}

// TestCleanOption checks that Options.Clean runs the cleaning inside the
// pipeline exactly as cleaning the text first would, and that it is saved
// by name.
func TestCleanOption(t *testing.T) {
	const doc = "He didn't see Atlanta's mid-week http://x.org game; U.S. fans cheered"
	for c, clean := range map[Clean]func(string) string{ThesisClean: CleanText, ThesisCleanWordPunct: CleanWordPunct} {
		o := Default()
		plain, err := NewAnalyzer(o)
		if err != nil {
			t.Fatal(err)
		}
		o.Clean = c
		cleaning, err := NewAnalyzer(o)
		if err != nil {
			t.Fatal(err)
		}
		want := plain.Tokens(clean(doc))
		if got := cleaning.Tokens(doc); !slices.Equal(got, want) {
			t.Errorf("%v: tokens %q, want %q", c, got, want)
		}
		if slices.Equal(want, plain.Tokens(doc)) {
			t.Errorf("%v: cleaning changes nothing in the test document", c)
		}
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back Options
		if err := json.Unmarshal(b, &back); err != nil || back.Clean != c {
			t.Errorf("%v: JSON %s reads back as %v, %v", c, b, back.Clean, err)
		}
		if p, err := ParseClean(c.String()); err != nil || p != c {
			t.Errorf("ParseClean(%q) = %v, %v", c.String(), p, err)
		}
	}
	if b, err := json.Marshal(Default()); err != nil || containsKey(b, "clean") {
		t.Errorf("the default options write a clean field: %s (%v)", b, err)
	}
	if _, err := ParseClean("scrub"); err == nil {
		t.Error("ParseClean accepts scrub")
	}
	if _, err := NewAnalyzer(Options{Clean: 9}); err == nil {
		t.Error("an invalid cleaning step is accepted")
	}
}

func containsKey(b []byte, key string) bool {
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m[key]
	return ok
}
