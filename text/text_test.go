package text

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestNormalize(t *testing.T) {
	cases := []struct {
		in          string
		nfkc, strip bool
		c           Case
		want        string
	}{
		{"Hello World", true, false, Fold, "hello world"},
		{"Hello World", true, false, KeepCase, "Hello World"},
		{"Straße", true, false, Fold, "strasse"},
		{"Straße", true, false, Lower, "straße"},
		{"ﬁle", true, false, Fold, "file"},         // NFKC expands the ligature
		{"ﬁle", false, false, KeepCase, "ﬁle"},     // without NFKC it stays
		{"Café", true, true, Lower, "cafe"},        // accent stripped
		{"cafe\u0301", true, false, Lower, "café"}, // NFKC composes
		{"ＡＢＣ", true, false, Fold, "abc"},          // full-width forms
		{"ΣΊΣΥΦΟΣ", true, false, Lower, "σίσυφος"}, // final sigma, as Python's lower()
	}
	for _, c := range cases {
		if got := Normalize(c.in, c.nfkc, c.strip, c.c); got != c.want {
			t.Errorf("Normalize(%q, nfkc=%v, strip=%v, %v) = %q, want %q", c.in, c.nfkc, c.strip, c.c, got, c.want)
		}
	}
}

func TestTokenize(t *testing.T) {
	s := "The U.S. bought 1,200 tons; it's naïve_code x2 β-carotene 3rd"
	cases := []struct {
		p    Pattern
		want []string
	}{
		{Letters, strings.Fields("The U S bought tons it s naïve code x β carotene rd")},
		{LettersDigits, strings.Fields("The U S bought 1 200 tons it s naïve code x2 β carotene 3rd")},
		{ASCIILetters, strings.Fields("The U S bought tons it s na ve code x carotene rd")},
		{SklearnWords, strings.Fields("The bought 200 tons it naïve_code x2 carotene 3rd")},
	}
	for _, c := range cases {
		if got := Tokenize(nil, s, c.p); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: got %q, want %q", c.p, got, c.want)
		}
	}
}

func TestTokenizeCombiningMarks(t *testing.T) {
	// A combining mark continues a letter run but never starts one.
	s := "e\u0301te \u0301x"
	got := Tokenize(nil, s, Letters)
	want := []string{"e\u0301te", "x"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// scikit-learn's \w does not include marks: the mark splits the word.
	got = Tokenize(nil, "ab\u0301cd", SklearnWords)
	want = []string{"ab", "cd"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("sklearn: got %q, want %q", got, want)
	}
}

func TestTokenizeInvalidUTF8(t *testing.T) {
	got := Tokenize(nil, "ab\xffcd", Letters)
	if want := []string{"ab", "cd"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestNGrams(t *testing.T) {
	toks := []string{"a", "b", "c"}
	got := NGrams(nil, toks, 1, 3)
	want := []string{"a", "b", "c", "a b", "b c", "a b c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("1..3: got %q", got)
	}
	if got := NGrams(nil, toks, 2, 2); !reflect.DeepEqual(got, []string{"a b", "b c"}) {
		t.Errorf("2..2: got %q", got)
	}
	if got := NGrams(nil, toks, 4, 5); len(got) != 0 {
		t.Errorf("4..5: got %q", got)
	}
	if got := NGrams(nil, nil, 1, 3); len(got) != 0 {
		t.Errorf("empty: got %q", got)
	}
}

func TestStopwordLists(t *testing.T) {
	for name, n := range map[string]int{"nltk": 179, "sklearn": 318} {
		w, err := Stopwords(name)
		if err != nil {
			t.Fatal(err)
		}
		if len(w) != n {
			t.Errorf("%s: %d words, want %d", name, len(w), n)
		}
	}
	if _, err := Stopwords("klingon"); err == nil {
		t.Error("unknown list: no error")
	}
}

func TestAnalyzerDefault(t *testing.T) {
	a, err := NewAnalyzer(Default())
	if err != nil {
		t.Fatal(err)
	}
	got := a.Tokens("The churches and the wolves: geese were RUNNING in 1987!")
	// "the", "and", "were", "in" are NLTK stopwords; "running" stays
	// "running" as a noun, as in NLTK.
	want := []string{"church", "wolf", "goose", "running"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAnalyzerFilterOrder(t *testing.T) {
	// "has" is an NLTK stopword and its noun lemma "ha" (NLTK's quirk) is
	// too short: removed either way. "dies" is no stopword but its noun
	// lemma "dy" is too short: kept only when filtering comes first.
	o := Default()
	a, _ := NewAnalyzer(o)
	if got := a.Tokens("dies has cats"); !reflect.DeepEqual(got, []string{"dy", "cat"}) {
		t.Errorf("before: got %q", got)
	}
	o.FilterAfterMorph = true
	a, _ = NewAnalyzer(o)
	if got := a.Tokens("dies has cats"); !reflect.DeepEqual(got, []string{"cat"}) {
		t.Errorf("after: got %q", got)
	}
}

func TestAnalyzerPOSChain(t *testing.T) {
	o := Default()
	o.LemmaPOS = "n,v,r,a,s"
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	// "running" is unchanged as a noun, so the verb lemma is used;
	// "better" is unchanged as noun and verb, and "well" as an adverb.
	if got := a.Tokens("running better"); !reflect.DeepEqual(got, []string{"run", "well"}) {
		t.Errorf("got %q", got)
	}
	o.LemmaPOS = "x"
	if _, err := NewAnalyzer(o); err == nil {
		t.Error("bad POS: no error")
	}
}

func TestAnalyzerStemAndNGrams(t *testing.T) {
	o := Options{Case: Lower, Pattern: ASCIILetters, Morph: Stem, NGramMin: 1, NGramMax: 2, Stopwords: []string{"sklearn"}}
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	got := a.Terms("Generously running the connections")
	want := []string{"generous", "run", "connect", "generous run", "run connect"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAnalyzerDropNumbersAndLength(t *testing.T) {
	o := Options{Case: Lower, Pattern: SklearnWords, DropNumbers: true, MaxLength: 6}
	a, _ := NewAnalyzer(o)
	got := a.Tokens("In 1987 the 3rd quarter verylongword ok")
	want := []string{"in", "the", "3rd", "ok"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestAnalyzerExtraStopwordsNormalised(t *testing.T) {
	o := Options{NFKC: true, Case: Fold, ExtraStopwords: []string{"  Reuters ", "", "ＭＬＮ"}}
	a, _ := NewAnalyzer(o)
	if got := a.Tokens("REUTERS said mln dlrs"); !reflect.DeepEqual(got, []string{"said", "dlrs"}) {
		t.Errorf("got %q", got)
	}
}

func TestNewAnalyzerRejectsBadOptions(t *testing.T) {
	bad := []Options{
		{NGramMin: 2, NGramMax: 1},
		{MinLength: -1},
		{MinLength: 5, MaxLength: 3},
		{Stopwords: []string{"nope"}},
		{Pattern: 99},
		{Morph: 7},
		{Case: 9},
	}
	for _, o := range bad {
		if _, err := NewAnalyzer(o); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

func TestParseNames(t *testing.T) {
	for _, p := range []Pattern{Letters, LettersDigits, ASCIILetters, SklearnWords} {
		if q, err := ParsePattern(p.String()); err != nil || q != p {
			t.Errorf("pattern %v round trip: %v %v", p, q, err)
		}
	}
	for _, m := range []Morph{NoMorph, Lemma, Stem} {
		if q, err := ParseMorph(m.String()); err != nil || q != m {
			t.Errorf("morph %v round trip: %v %v", m, q, err)
		}
	}
	for _, c := range []Case{Fold, Lower, KeepCase} {
		if q, err := ParseCase(c.String()); err != nil || q != c {
			t.Errorf("case %v round trip: %v %v", c, q, err)
		}
	}
	if _, err := ParsePattern("regex"); err == nil {
		t.Error("unknown pattern accepted")
	}
}

// Term reads a typed word or phrase as the analyzer reads documents.
func TestTerm(t *testing.T) {
	uni, err := NewAnalyzer(Default())
	if err != nil {
		t.Fatal(err)
	}
	o := Default()
	o.NGramMax = 2
	bi, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		a          *Analyzer
		in, want   string
		err        error
		errContain string
	}{
		{a: uni, in: "Games", want: "game"},
		{a: uni, in: "  Players ", want: "player"},
		{a: bi, in: "New  York", want: "new york"},
		{a: bi, in: "Games", want: "game"},
		{a: uni, in: "the", err: ErrNoTerm},
		{a: uni, in: "42", err: ErrNoTerm},
		{a: uni, in: "new york", errContain: "at most 1"},
		{a: bi, in: "new york city", errContain: "3 words (new york city)"},
	} {
		got, err := c.a.Term(c.in)
		switch {
		case c.err != nil:
			if !errors.Is(err, c.err) {
				t.Errorf("Term(%q) = %q, %v; want %v", c.in, got, err, c.err)
			}
		case c.errContain != "":
			if err == nil || !strings.Contains(err.Error(), c.errContain) {
				t.Errorf("Term(%q) = %q, %v; want an error saying %q", c.in, got, err, c.errContain)
			}
		case err != nil || got != c.want:
			t.Errorf("Term(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}

// CountSteps accounts for every token the tokenizer finds, and keeps
// exactly the tokens AppendTokens returns.
func TestCountSteps(t *testing.T) {
	texts := []string{"The 3 cats were running and it RAN, a café w1 w22", "", "  ", "x y z 42 and of"}
	for _, o := range []Options{Default(), {Pattern: LettersDigits, MinLength: 2, MaxLength: 4, DropNumbers: true, Stopwords: []string{"sklearn"}, FilterAfterMorph: true, Morph: Stem}} {
		a, err := NewAnalyzer(o)
		if err != nil {
			t.Fatal(err)
		}
		var st Steps
		kept := 0
		for _, s := range texts {
			a.CountSteps(&st, s)
			kept += len(a.Tokens(s))
		}
		if st.Texts != 4 || st.Blank != 2 || st.Kept != kept || st.Numbers+st.Length+st.Stopwords+st.Empty+st.Kept != st.Tokens || st.Length == 0 || st.Stopwords == 0 {
			t.Errorf("%+v: steps %+v, %d kept by Tokens", o, st, kept)
		}
	}
}
