package text

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/text/segment"
)

// TestLanguageGolden runs a short text of each language through the
// pipeline WithLanguage makes of the defaults: stopwords removed, words
// stemmed, Chinese and Japanese segmented. Every stem here but Arabic's is
// the stem Snowball's reference vocabulary of the language gives the word
// (github.com/snowballstem/snowball-data at snowballData, which has them
// all; Greek's with accents, which the stemmer ignores).
func TestLanguageGolden(t *testing.T) {
	cases := []struct{ lang, text, want string }{
		{"de", "Die Kinder spielen gern Spiele im Garten, und das Spiel ist für alle schön.", "kind spiel gern spiel gart spiel schon"},
		{"fr", "L'homme d’État a parlé aux enfants de la République française.", "homm état parl enfant républ franc"},
		{"es", "Los niños juegan en el jardín con sus amigos.", "niñ jueg jardin amig"},
		{"it", "I bambini giocano nel giardino con gli amici.", "bambin gioc giardin amic"},
		{"nl", "De kinderen spelen in de tuin met hun vrienden.", "kinder speel tuin vriend"},
		{"ru", "Дети играют в игры в саду, и эта игра нравится всем.", "дет игра игр сад эт игр нрав всем"},
		{"sv", "Barnen leker i trädgården med sina vänner.", "barn lek trädgård vänn"},
		{"tr", "Çocuklar bahçede arkadaşlarıyla oynuyorlar.", "çocuk bahçe arkadaş oynuyor"},
		{"el", "Τα παιδιά παίζουν στον κήπο με τους φίλους τους.", "πα παι κηπ φιλ"},
		{"ar", "يلعب الأطفال في الحديقة مع أصدقائهم.", "يلعب اطفال حديق اصدقاء"},
		{"zh", "自然语言处理是人工智能的一个重要方向，我们在北京大学学习。", "自然语言 人工智能 一个 方向 北京大学 学习"},
		{"ja", "JACKはレイテンシの少ないサウンドサーバです。そのアプリケーション間でのオーディオの共有ができます。", "jack レイテンシ 少ない サウンド サーバ アプリケーション オーディオ 共有"},
		{"ko", "학교에서 공부합니다. 한국어 텍스트", "학교에서 공부합니다 한국어 텍스트"},
	}
	for _, c := range cases {
		if c.lang == "ja" && !slices.Contains(segment.Languages(), "ja") {
			continue // built without the Japanese dictionary
		}
		o, err := WithLanguage(Default(), c.lang)
		if err != nil {
			t.Fatal(err)
		}
		a, err := NewAnalyzer(o)
		if err != nil {
			t.Fatalf("%s: %v", c.lang, err)
		}
		if got := strings.Join(a.Tokens(c.text), " "); got != c.want {
			t.Errorf("%s: %q\n got %q\nwant %q", c.lang, c.text, got, c.want)
		}
	}
}

// TestWithLanguage checks what WithLanguage changes: English not at all.
func TestWithLanguage(t *testing.T) {
	for _, p := range []Options{Default(), {Case: Lower, Pattern: SklearnWords, Stopwords: []string{"sklearn"}}} {
		o, err := WithLanguage(p, "en")
		if err != nil || !slices.Equal(o.Stopwords, p.Stopwords) || o.Pattern != p.Pattern || o.Morph != p.Morph || o.Language != "" {
			t.Errorf("English changes %+v into %+v (%v)", p, o, err)
		}
	}
	o, err := WithLanguage(Default(), "de")
	if err != nil {
		t.Fatal(err)
	}
	if o.Language != "de" || !slices.Equal(o.Stopwords, []string{"nltk-de"}) || o.Morph != Stem || o.Pattern != Words || o.MinLength != 3 {
		t.Errorf("German: %+v", o)
	}
	o, _ = WithLanguage(Default(), "el")
	if !slices.Equal(o.Stopwords, []string{"semitopic-el"}) || o.Morph != Stem || !o.StripAccents {
		t.Errorf("Greek: %+v", o)
	}
	// Modern Greek's function words go, in any case and accent (NLTK's
	// Ancient Greek list kept σας, ένα, μια, μου, whose stems σ, εν, μ
	// came to the top of topics).
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.Terms("Σας επιτρέπει να παίξετε ένα παιχνίδι με μια μπάλα ΜΟΥ στην οθόνη"); !slices.Equal(got, []string{"επιτρεπ", "παιξ", "παιχνιδ", "μπαλ", "οθον"}) {
		t.Errorf("Greek terms %q", got)
	}
	// Turkish, Catalan and Hungarian take NLTK's list and the function
	// words it lacks: the indefinite article bir (618 times in the
	// AppStream Turkish descriptions, in no NLTK list), Catalan ell and té,
	// Hungarian ő (NLTK writes õ). Catalan pot (can) goes, and potència
	// (power), of the same stem, with it.
	for _, c := range []struct {
		code, text string
		want       []string
	}{
		{"tr", "Bir oyun ve bunun için başka bir araç olarak", []string{"oy", "araç"}},
		{"ca", "Ell té un joc i ella pot mesurar la potència", []string{"joc", "mesur"}},
		{"hu", "Ő is játszik, ha mind a számok elsők", []string{"játsz", "szám"}},
	} {
		o, err := WithLanguage(Default(), c.code)
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"nltk-" + c.code, "semitopic-" + c.code}; !slices.Equal(o.Stopwords, want) {
			t.Errorf("%s lists %q, want %q", c.code, o.Stopwords, want)
		}
		a, err := NewAnalyzer(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Terms(c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s terms of %q: %q, want %q", c.code, c.text, got, c.want)
		}
	}
	o, _ = WithLanguage(Options{Stopwords: []string{"nltk", "nltk-fr"}, Morph: Lemma}, "he")
	if !slices.Equal(o.Stopwords, []string{"nltk-fr", "nltk-he"}) || o.Morph != NoMorph {
		t.Errorf("Hebrew (no stemmer): %+v", o)
	}
	if len(o.Warnings()) != 0 {
		t.Errorf("Hebrew without lemmas warns %q", o.Warnings())
	}
	o.Morph = Lemma
	if w := o.Warnings(); len(w) != 1 || !strings.Contains(w[0], "English") || !strings.Contains(w[0], "no Snowball stemmer") {
		t.Errorf("lemmas on Hebrew: warnings %q", w)
	}
	o, _ = WithLanguage(Options{Morph: Lemma}, "pl")
	if w := o.Warnings(); o.Morph != Stem || len(w) != 1 || !strings.Contains(w[0], "no stopword list for Polish") {
		t.Errorf("Polish (a stemmer, no stopword list): %+v, warnings %q", o, w)
	}
	o, _ = WithLanguage(Options{Pattern: SklearnWords, Stopwords: []string{"sklearn"}}, "fr")
	if o.MinLength != 2 || o.Pattern != Words || !slices.Equal(o.Stopwords, []string{"nltk-fr"}) {
		t.Errorf("French from scikit-learn's tokens: %+v", o)
	}
	o.Stopwords = []string{"nltk"}
	if w := o.Warnings(); len(w) != 1 || !strings.Contains(w[0], "nltk-fr") {
		t.Errorf("English stopwords on French: warnings %q", w)
	}
	o, _ = WithLanguage(Default(), "zh")
	if o.MinLength != 2 || !slices.Equal(o.Stopwords, []string{"nltk-zh"}) || o.Morph != NoMorph {
		t.Errorf("Chinese: %+v", o)
	}
	if _, err := WithLanguage(Default(), "xx"); err == nil || !strings.Contains(err.Error(), `"xx"`) {
		t.Errorf("unknown language: %v", err)
	}
	if _, err := NewAnalyzer(Options{Language: "he", Morph: Stem}); err == nil || !strings.Contains(err.Error(), "Hebrew") {
		t.Errorf("stemming Hebrew: %v", err)
	}
	if _, err := NewAnalyzer(Options{Language: "DE"}); err == nil {
		t.Error("an upper-case language code is accepted")
	}
	for _, l := range Languages() {
		// NLTK has no list for these.
		noList := []string{"cs", "eo", "et", "fa", "ga", "hi", "hy", "ko", "lt", "pl", "sr", "ta", "th", "yi"}
		if l.Stopwords == "" && !slices.Contains(noList, l.Code) {
			t.Errorf("%s has no stopword list", l.Code)
		}
		if _, err := stemmer(l.Code); (err == nil) != l.Stemmer {
			t.Errorf("%s: Stemmer %v, stemmer error %v", l.Code, l.Stemmer, err)
		}
		if _, err := Stopwords(l.Stopwords); l.Stopwords != "" && err != nil {
			t.Error(err)
		}
	}
}

// TestWordsPattern checks the UAX #29 tokens.
func TestWordsPattern(t *testing.T) {
	cases := []struct{ in, want string }{
		{"l'homme d’État U.S. mp3 1990 e-mail foo_bar", "l|homme|d|État|U.S|mp3|e|mail|foo_bar"},
		{"我们在北京大学学习。JACKはレイテンシ", "我们在北京大学学习|JACK|はレイテンシ"},
		{"ภาษาไทยเป็นภาษา ไทย", "ภาษาไทยเป็นภาษา|ไทย"},
		{"학교에서 공부합니다.", "학교에서|공부합니다"},
		{"\xff\xfeabc", "abc"},
	}
	for _, c := range cases {
		if got := strings.Join(Tokenize(nil, c.in, Words), "|"); got != c.want {
			t.Errorf("Tokenize(%q, Words) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestDetectLanguage checks the detection on short texts of several
// languages and its errors.
func TestDetectLanguage(t *testing.T) {
	texts := map[string]string{
		"de": "Die Kinder spielen gern Spiele im Garten, und das Spiel ist für alle schön. Morgen gehen wir wieder hinaus.",
		"fr": "Les enfants jouent dans le jardin avec leurs amis, et le jeu plaît à tout le monde depuis des années.",
		"ru": "Дети играют в игры в саду, и эта игра нравится всем. Завтра мы снова пойдём гулять.",
		"ja": "JACKはレイテンシの少ないサウンドサーバです。そのアプリケーション間でのオーディオの共有ができます。",
		"zh": "自然语言处理是人工智能的一个重要方向，我们在北京大学学习计算机科学和语言学。",
	}
	for want, s := range texts {
		d, err := DetectLanguage([]string{s, s, "short"})
		if err != nil {
			t.Fatalf("%s: %v", want, err)
		}
		if d.Language.Code != want || d.Texts != 2 || d.Votes != 2 || d.Share() != 1 {
			t.Errorf("%s detected as %v", want, d)
		}
	}
	d, err := DetectLanguage([]string{texts["de"], texts["de"], texts["fr"]})
	if err != nil || d.Language.Code != "de" || d.String() != "de (German) in 2 of 3 texts, also fr 1" {
		t.Errorf("mixed: %v, %v", d, err)
	}
	if _, err := DetectLanguage([]string{"", "ok"}); err == nil {
		t.Error("no text to tell from is accepted")
	}
}

// TestSimpleWords checks the fast path of the Words pattern against
// uniseg on every string of up to 4 characters over an alphabet of each
// word-break class, white space and runes of the fast path's scripts and
// of others (4 is the widest context of the rules), on every rune the fast
// path knows in a few contexts, and on longer texts.
func TestSimpleWords(t *testing.T) {
	alphabet := []string{"a", "7", "_", ":", ".", "'", ",", " ", "é", "Ж", "한", "’", "«", "\u0301", "中", "λ", "ア", "の", "ب", "\u064e", "\u200c"}
	check := func(s string) {
		t.Helper()
		want := unisegWords(nil, s)
		if got := tokenizeWords(nil, s); !slices.Equal(got, want) {
			t.Fatalf("%q: %q, uniseg %q", s, got, want)
		}
	}
	var all func(prefix string, depth int)
	n := 0
	all = func(s string, depth int) {
		n++
		check(s)
		if depth == 0 {
			return
		}
		for _, a := range alphabet {
			all(s+a, depth-1)
		}
	}
	all("", 4)
	if n < 60000 {
		t.Errorf("only %d strings", n)
	}
	known := 0
	for r := rune(0x80); r < 0x30000; r++ {
		if _, ok := simpleClass(r); !ok || 0x3400 <= r && r <= 0x9FFF && r%16 != 0 {
			continue // not known, or a CJK ideograph like the one before
		}
		known++
		c := string(r)
		for _, s := range []string{c, "a" + c + "a", "1" + c + "1", c + c, "a" + c, c + "a", "a." + c, c + "'" + c, c + "_1"} {
			check(s)
		}
	}
	if known < 11000 {
		t.Errorf("only %d runes on the fast path", known)
	}
	for _, s := range []string{"U.S.A. e-mail 3.14 1,000,000 a.b.c foo_bar_9 l'homme:x don't", "x1.2a 'a' a'' _a_ 3_a a:b:c",
		"Größe d’État naïve café\u0301 mp3 «Ça» — “quoted”", "Россия — Москва, 2024 г.", "학교에서 공부합니다.",
		"Τα παιδιά παίζουν στον κήπο. ΟΔΟΣ", "يلعب الأطفال في الحديقة، ٢٠٢٤ مع أصدقائهم. مُحَمَّدٌ رَسُولُ", "می\u200cخواهم", "JACKはレイテンシの少ない「サウンドサーバ」です。東京都_1 ア_b 人々"} {
		check(s)
	}
}

// TestFoldable checks the fast path of Normalize against its slow path on
// every rune up to U+2FFFF, in every case mode, and on texts.
func TestFoldable(t *testing.T) {
	n := 0
	for r := rune(0x80); r < 0x30000; r++ {
		if !foldable(r) {
			continue
		}
		n++
		s := string(r)
		for _, c := range []Case{Fold, Lower, KeepCase} {
			for _, nfkc := range []bool{true, false} {
				fast, ok := foldFast(s, nfkc, false, c)
				if slow := normalizeSlow(s, nfkc, false, c); !ok || fast != slow {
					t.Fatalf("%U %q, %v, nfkc %v: fast %q, slow %q", r, s, c, nfkc, fast, slow)
				}
			}
		}
	}
	if n < 11000 {
		t.Errorf("only %d foldable runes", n)
	}
	for _, s := range []string{"Die STRASSE und die Straße", "L’État Français «Ça»", "Россия — Москва", "Ærø Ål ŁÓDŹ"} {
		for _, c := range []Case{Fold, Lower, KeepCase} {
			if fast, slow := Normalize(s, true, false, c), normalizeSlow(s, true, false, c); fast != slow {
				t.Errorf("%q, %v: fast %q, slow %q", s, c, fast, slow)
			}
		}
	}
}

// TestStopStems checks that the inflected forms of stopwords go with
// StopStems (Turkish bunun → bu) and that a word whose
// stemmer took a prefix away to leave a stopword's stem stays (Indonesian
// pengguna → guna), and that English pipelines leave it off.
func TestStopStems(t *testing.T) {
	if o, _ := WithLanguage(Default(), "en"); o.StopStems {
		t.Error("English pipelines remove stopwords' stems")
	}
	o, err := WithLanguage(Default(), "tr")
	if err != nil || !o.StopStems {
		t.Fatalf("Turkish: StopStems %v (%v)", o.StopStems, err)
	}
	on, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	o.StopStems = false
	off, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	const tr = "bunun birini birlikte kullanıcı"
	// bir (semitopic-tr) goes with its form birini; birlikte, of stem
	// birlik, stays.
	if got, want := on.Terms(tr), []string{"birlik", "kullanıç"}; !slices.Equal(got, want) {
		t.Errorf("Turkish with stopwords' stems: %q, want %q", got, want)
	}
	if got, want := off.Terms(tr), []string{"bu", "bir", "birlik", "kullanıç"}; !slices.Equal(got, want) {
		t.Errorf("Turkish without: %q, want %q", got, want)
	}
	if !on.IsStopword("bunun") || off.IsStopword("bunun") || on.IsStopword("kullanıcı") {
		t.Errorf("IsStopword(bunun) %v/%v, (kullanıcı) %v", on.IsStopword("bunun"), off.IsStopword("bunun"), on.IsStopword("kullanıcı"))
	}
	if _, err := on.Term("bunun"); !errors.Is(err, ErrNoTerm) {
		t.Errorf("a seed word that is an inflected stopword: %v, want ErrNoTerm", err)
	}
	o, _ = WithLanguage(Default(), "id")
	a, err := NewAnalyzer(o)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := a.Terms("pengguna guna"), []string{"guna"}; !slices.Equal(got, want) {
		t.Errorf("Indonesian: %q, want %q (pengguna's prefix is not an ending)", got, want)
	}
	// Content words whose stem is some stopword's stem, but no stopword,
	// stay (Portuguese foram → form, French sommes → somm, Spanish
	// para → par).
	for _, c := range []struct{ lang, word string }{{"pt", "forma"}, {"fr", "somme"}, {"es", "parar"}} {
		o, _ := WithLanguage(Default(), c.lang)
		a, err := NewAnalyzer(o)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Terms(c.word); len(got) != 1 {
			t.Errorf("%s: %q gives %q, want its stem", c.lang, c.word, got)
		}
	}
	o, _ = WithLanguage(Default(), "id")
	// Without a morphology there is nothing to compare.
	o.Morph = NoMorph
	if a, err = NewAnalyzer(o); err != nil || !slices.Equal(a.Terms("pengguna guna"), []string{"pengguna"}) {
		t.Errorf("Indonesian without stems: %q (%v)", a.Terms("pengguna guna"), err)
	}
}
