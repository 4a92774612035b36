package wordnet

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/semitopic/semitopic/text/wordnet/internal/wndata"
)

func mustLoad(tb testing.TB) *Lemmatizer {
	tb.Helper()
	l, err := Load()
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

var allPOS = []POS{Noun, Verb, Adj, Adv, AdjSat}

// Every expectation here was checked against NLTK 3.8's
// WordNetLemmatizer().lemmatize and wn._morphy over the same WordNet 3.0.
func TestHandFixture(t *testing.T) {
	l := mustLoad(t)
	cases := []struct {
		word  string
		pos   POS
		want  string
		cands []string
	}{
		{"churches", Noun, "church", []string{"church"}},
		{"wolves", Noun, "wolf", []string{"wolf"}},
		{"aardwolves", Noun, "aardwolf", []string{"aardwolf"}},
		{"geese", Noun, "goose", []string{"goose"}},
		{"running", Noun, "running", []string{"running"}},
		{"running", Verb, "run", []string{"run"}},
		{"better", Adj, "good", []string{"better", "good", "well"}},
		{"better", AdjSat, "good", []string{"better", "good", "well"}},
		{"better", Adv, "well", []string{"better", "well"}},
		{"better", Noun, "better", []string{"better"}},
		{"women", Noun, "woman", []string{"woman"}},
		{"feet", Noun, "foot", []string{"foot"}},
		{"mice", Noun, "mouse", []string{"mouse"}},
		{"corpora", Noun, "corpus", []string{"corpus"}},
		{"dogs", Noun, "dog", []string{"dog"}},
		{"abaci", Noun, "abacus", []string{"abacus"}},
		{"hardrock", Noun, "hardrock", nil},
		// The shortest candidate wins, even over the word itself.
		{"has", Noun, "ha", []string{"ha"}},
		{"has", Verb, "have", []string{"have"}},
		{"was", Noun, "wa", []string{"wa"}},
		{"was", Verb, "be", []string{"be"}},
		{"boss", Noun, "bos", []string{"boss", "bos"}},
		{"bosses", Noun, "boss", []string{"boss"}},
		{"ass", Noun, "as", []string{"ass", "as"}},
		{"as", Noun, "a", []string{"as", "a"}},
		{"feed", Verb, "fee", []string{"feed", "fee"}},
		{"fed", Verb, "feed", []string{"feed"}},
		{"bound", Verb, "bind", []string{"bound", "bind"}},
		{"dies", Noun, "dy", []string{"die", "dy"}},
		{"aides", Noun, "aide", []string{"aides", "aide"}},
		{"aides", Verb, "aid", []string{"aid"}},
		// Ties in length go to the first candidate.
		{"men", Noun, "men", []string{"men", "man"}},
		{"teeth", Noun, "teeth", []string{"teeth", "tooth"}},
		{"saw", Verb, "saw", []string{"saw", "see"}},
		{"best", Adj, "best", []string{"best", "good"}},
		{"axes", Noun, "ax", []string{"ax", "axis"}},
		{"actinozoa", Noun, "actinozoa", []string{"actinozoa", "actinozoan"}},
		{"leaves", Noun, "leaf", []string{"leaf", "leave"}},
		{"leaves", Verb, "leave", []string{"leave"}},
		{"knives", Noun, "knife", []string{"knife"}},
		{"flies", Noun, "fly", []string{"flies", "fly"}},
		{"flies", Verb, "fly", []string{"fly"}},
		{"larger", Adj, "large", []string{"larger", "large"}},
		{"biggest", Adj, "big", []string{"big"}},
		{"oxen", Noun, "ox", []string{"oxen", "ox"}},
		{"children", Noun, "child", []string{"child"}},
		{"ran", Verb, "run", []string{"run"}},
		{"went", Verb, "go", []string{"go"}},
		{"is", Verb, "be", []string{"be"}},
		{"been", Verb, "be", []string{"be"}},
		{"stopped", Verb, "stop", []string{"stop"}},
		{"hopping", Verb, "hop", []string{"hop"}},
		{"dying", Verb, "die", []string{"die"}},
		{"lied", Verb, "lie", []string{"lie"}},
		{"studies", Noun, "study", []string{"study"}},
		{"quickly", Adv, "quickly", []string{"quickly"}},
		// Rules applied again after a round with no lemma.
		{"eyeses", Noun, "eyes", []string{"eyes"}},
		{"geeses", Noun, "gee", []string{"gee"}},
		{"gooses", Noun, "goose", []string{"goose"}},
		// Exception lists: the last line for a form wins, and a listed form
		// gets no rule even when none of its bases is a lemma.
		{"aurar", Noun, "eyrir", []string{"eyrir"}},
		{"offer", Adj, "offer", nil},
		// No normalisation of any kind.
		{"Dogs", Noun, "Dogs", nil},
		{"hot_dogs", Noun, "hot_dog", []string{"hot_dog"}},
		{"hot dogs", Noun, "hot dogs", nil},
		{"'hood", Noun, "'hood", []string{"'hood"}},
		{"o'clock", Adv, "o'clock", []string{"o'clock"}},
		{"cafés", Noun, "cafés", nil},
		{"naïve", Adj, "naïve", nil},
		{"", Noun, "", nil},
	}
	for _, c := range cases {
		if got := l.Lemmatize(c.word, c.pos); got != c.want {
			t.Errorf("Lemmatize(%q, %v) = %q, want %q", c.word, c.pos, got, c.want)
		}
		if got := l.Morphy(c.word, c.pos); !reflect.DeepEqual(got, c.cands) {
			t.Errorf("Morphy(%q, %v) = %q, want %q", c.word, c.pos, got, c.cands)
		}
	}
}

func TestParsePOS(t *testing.T) {
	for tag, want := range map[string]POS{"n": Noun, "v": Verb, "a": Adj, "s": AdjSat, "r": Adv} {
		got, err := ParsePOS(tag)
		if err != nil || got != want {
			t.Errorf("ParsePOS(%q) = %v, %v; want %v", tag, got, err, want)
		}
		if got.String() != tag {
			t.Errorf("%v.String() = %q, want %q", got, got.String(), tag)
		}
	}
	for _, tag := range []string{"", "N", "x", "nn", "noun", "\x00"} {
		if _, err := ParsePOS(tag); err == nil || !strings.Contains(err.Error(), strconv.Quote(tag)) {
			t.Errorf("ParsePOS(%q): error %v, want one naming the tag", tag, err)
		}
	}
	if s := POS(7).String(); s != "POS(7)" {
		t.Errorf("POS(7).String() = %q", s)
	}
}

func TestInvalidPOS(t *testing.T) {
	l := mustLoad(t)
	for _, p := range []POS{0, 'x', 'N', 255} {
		if got := l.Lemmatize("dogs", p); got != "dogs" {
			t.Errorf("Lemmatize(dogs, %v) = %q, want the word", p, got)
		}
		if got := l.Morphy("dogs", p); got != nil {
			t.Errorf("Morphy(dogs, %v) = %q, want nil", p, got)
		}
		if l.Has("dog", p) {
			t.Errorf("Has(dog, %v) = true", p)
		}
	}
}

func TestZeroLemmatizer(t *testing.T) {
	var l Lemmatizer
	for _, p := range allPOS {
		if got := l.Lemmatize("dogs", p); got != "dogs" {
			t.Errorf("zero Lemmatizer: Lemmatize(dogs, %v) = %q", p, got)
		}
		if l.Morphy("dogs", p) != nil || l.Has("dog", p) {
			t.Errorf("zero Lemmatizer knows dog (%v)", p)
		}
	}
}

func TestHas(t *testing.T) {
	l := mustLoad(t)
	for _, c := range []struct {
		lemma string
		pos   POS
		want  bool
	}{
		{"dog", Noun, true}, {"dog", Verb, true}, {"dog", Adj, false},
		{"good", Adj, true}, {"good", AdjSat, true}, {"well", Adv, true},
		{"hot_dog", Noun, true}, {"hot dog", Noun, false}, {"dogs", Noun, false},
		{"", Noun, false}, {"Dog", Noun, false},
	} {
		if got := l.Has(c.lemma, c.pos); got != c.want {
			t.Errorf("Has(%q, %v) = %v, want %v", c.lemma, c.pos, got, c.want)
		}
	}
}

// TestRuleTables pins the rule tables to NLTK's, and checks the property
// the search relies on (newRuleSet returns an error otherwise).
func TestRuleTables(t *testing.T) {
	want := map[POS]string{
		Noun:   "s> ses>s ves>f xes>x zes>z ches>ch shes>sh men>man ies>y",
		Verb:   "s> ies>y es>e es> ed>e ed> ing>e ing>",
		Adj:    "er> est> er>e est>e",
		AdjSat: "er> est> er>e est>e",
		Adv:    "",
	}
	for _, p := range allPOS {
		rs, err := newRuleSet(p)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range rs.rules {
			got = append(got, r.suffix+">"+rs.tails[r.ending])
		}
		if s := strings.Join(got, " "); s != want[p] {
			t.Errorf("%v rules = %q, want %q", p, s, want[p])
		}
		for id, tail := range rs.tails {
			if id > 0 && rs.tails[rs.rest[id]] != tail[1:] {
				t.Errorf("%v: rest of %q is %q", p, tail, rs.tails[rs.rest[id]])
			}
		}
	}
	if _, err := newRuleSet('x'); err == nil {
		t.Error("newRuleSet('x'): no error")
	}
}

// fixtureRow is one row of testdata/nltk_lemmas.tsv.gz.
type fixtureRow struct {
	line   int
	word   string
	lemmas [5]string        // for allPOS, "" meaning the word itself
	multi  map[POS][]string // NLTK's _morphy lists with 2+ entries
}

func readGzipLines(tb testing.TB, path string, fn func(line string, n int)) {
	tb.Helper()
	f, err := os.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
	sc := bufio.NewScanner(zr)
	n := 0
	for sc.Scan() {
		n++
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		fn(sc.Text(), n)
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

func readFixture(tb testing.TB) []fixtureRow {
	tb.Helper()
	const path = "testdata/nltk_lemmas.tsv.gz"
	var rows []fixtureRow
	tags := map[string]POS{"n": Noun, "v": Verb, "a": Adj, "r": Adv, "s": AdjSat}
	readGzipLines(tb, path, func(line string, n int) {
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			tb.Fatalf("%s:%d: %d fields, want 7", path, n, len(f))
		}
		r := fixtureRow{line: n, word: f[0]}
		copy(r.lemmas[:], f[1:6])
		if f[6] != "" {
			r.multi = map[POS][]string{}
			for _, part := range strings.Split(f[6], ";") {
				tag, list, ok := strings.Cut(part, "=")
				p, known := tags[tag]
				if !ok || !known {
					tb.Fatalf("%s:%d: bad candidate list %q", path, n, part)
				}
				r.multi[p] = strings.Split(list, ",")
			}
		}
		rows = append(rows, r)
	})
	if len(rows) == 0 {
		tb.Fatalf("%s: no rows", path)
	}
	return rows
}

// TestNLTKFixture compares every row of the table that real NLTK produced
// (testdata/nltk_fixture.py): Lemmatize for five parts of speech, and the
// full Morphy list.
func TestNLTKFixture(t *testing.T) {
	l := mustLoad(t)
	rows := readFixture(t)
	compared, bad := 0, 0
	for _, r := range rows {
		for i, p := range allPOS {
			want := r.lemmas[i]
			if want == "" {
				want = r.word
			}
			got := l.Lemmatize(r.word, p)
			compared++
			if got != want {
				bad++
				if bad <= 20 {
					t.Errorf("line %d: Lemmatize(%q, %v) = %q, NLTK %q", r.line, r.word, p, got, want)
				}
			}
			// The candidate list: given when it has 2+ entries; else it is
			// [lemma] for a changed word, and [word] or nothing otherwise.
			wantC, ok := r.multi[p]
			switch {
			case ok:
			case want != r.word:
				wantC = []string{want}
			case l.Has(r.word, p):
				wantC = []string{r.word}
			}
			if gotC := l.Morphy(r.word, p); !reflect.DeepEqual(gotC, wantC) {
				bad++
				if bad <= 20 {
					t.Errorf("line %d: Morphy(%q, %v) = %q, NLTK %q", r.line, r.word, p, gotC, wantC)
				}
			}
		}
	}
	t.Logf("compared %d words × %d parts of speech = %d lemmatizations (and as many candidate lists) with NLTK: %d mismatches",
		len(rows), len(allPOS), compared, bad)
}

// nltkIndex is testdata/nltk_index.tsv.gz: NLTK's lemma count and digest
// per part of speech, and the lemmas that lemmatize to another word.
type nltkIndex struct {
	count  map[POS]int
	digest map[POS]string
	fix    map[POS]map[string]string
}

func readIndex(tb testing.TB) nltkIndex {
	tb.Helper()
	const path = "testdata/nltk_index.tsv.gz"
	ix := nltkIndex{count: map[POS]int{}, digest: map[POS]string{}, fix: map[POS]map[string]string{}}
	readGzipLines(tb, path, func(line string, n int) {
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			tb.Fatalf("%s:%d: %d fields, want 4", path, n, len(f))
		}
		p, err := ParsePOS(f[1])
		if err != nil {
			tb.Fatalf("%s:%d: %v", path, n, err)
		}
		switch f[0] {
		case "count":
			c, err := strconv.Atoi(f[2])
			if err != nil {
				tb.Fatalf("%s:%d: %v", path, n, err)
			}
			ix.count[p], ix.digest[p] = c, f[3]
		case "fix":
			if ix.fix[p] == nil {
				ix.fix[p] = map[string]string{}
			}
			ix.fix[p][f[2]] = f[3]
		default:
			tb.Fatalf("%s:%d: unknown row kind %q", path, n, f[0])
		}
	})
	return ix
}

// lemmasOf lists the lemmas of p in increasing byte order.
func (l *Lemmatizer) lemmasOf(p POS) []string {
	var out []string
	for lemma, v := range l.index {
		if uint8(v)&p.mask() != 0 {
			out = append(out, lemma)
		}
	}
	sort.Strings(out)
	return out
}

// TestNLTKIndex checks that the embedded lemma sets are NLTK's, byte for
// byte, and lemmatizes every one of the 176,766 (lemma, part of speech)
// pairs against NLTK's answer.
func TestNLTKIndex(t *testing.T) {
	l := mustLoad(t)
	ix := readIndex(t)
	total, changed := 0, 0
	for _, p := range allPOS {
		lemmas := l.lemmasOf(p)
		sum := sha256.Sum256([]byte(strings.Join(lemmas, "\n")))
		if len(lemmas) != ix.count[p] || hex.EncodeToString(sum[:]) != ix.digest[p] {
			t.Errorf("%v: %d lemmas with digest %x, NLTK %d with %s", p, len(lemmas), sum, ix.count[p], ix.digest[p])
		}
		for _, lemma := range lemmas {
			want, ok := ix.fix[p][lemma]
			if !ok {
				want = lemma
			} else {
				changed++
			}
			if got := l.Lemmatize(lemma, p); got != want {
				t.Errorf("Lemmatize(%q, %v) = %q, NLTK %q", lemma, p, got, want)
			}
			total++
		}
		for lemma := range ix.fix[p] {
			if !l.Has(lemma, p) {
				t.Errorf("NLTK lemma %q (%v) missing", lemma, p)
			}
		}
	}
	t.Logf("lemmatized all %d index lemmas as NLTK does (%d of them change)", total, changed)
}

// TestDataUpToDate regenerates the data file from the WordNet files, when
// they are installed, and checks that the embedded file has the same bytes.
func TestDataUpToDate(t *testing.T) {
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(dir + "/index.noun"); err != nil {
		t.Skipf("skipping: WordNet 3.0 files not in %s (apt-get install wordnet-base): %v", dir, err)
	}
	db, err := wndata.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := db.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), []byte(embedded)) {
		t.Fatalf("wordnet.dat.gz is stale: regenerating gives %d bytes, embedded %d; run go generate", buf.Len(), len(embedded))
	}
	// The decoded data holds exactly what was read.
	l := mustLoad(t)
	if len(l.index) != len(db.Lemmas) {
		t.Errorf("%d lemmas decoded, %d read", len(l.index), len(db.Lemmas))
	}
	for lemma, m := range db.Lemmas {
		if v, ok := l.index[lemma]; !ok || uint8(v)&(1<<maskBits-1) != m {
			t.Errorf("lemma %q: decoded %v %#x, read %#x", lemma, ok, v, m)
		}
	}
	for i := range db.Exceptions {
		if !reflect.DeepEqual(normalise(l.exc[i]), normalise(db.Exceptions[i])) {
			t.Errorf("exception table %d differs", i)
		}
	}
}

func normalise(m map[string][]string) map[string][]string {
	out := make(map[string][]string, len(m))
	for k, v := range m {
		out[k] = append([]string{}, v...)
	}
	return out
}

// rawData returns the embedded data uncompressed.
func rawData(tb testing.TB) []byte {
	tb.Helper()
	zr, err := gzip.NewReader(strings.NewReader(embedded))
	if err != nil {
		tb.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return raw
}

func gz(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

func TestDecodeErrors(t *testing.T) {
	raw := rawData(t)
	if _, err := decode(bytes.NewReader(gz(raw))); err != nil {
		t.Fatalf("re-compressed data: %v", err)
	}
	// Locate the columns of the lemma table.
	n, w := binary.Uvarint(raw[5:])
	sharedAt := 5 + w
	suffixAt := sharedAt + int(n)
	maskAt := suffixAt
	for i := 0; i < int(n); i++ {
		maskAt += bytes.IndexByte(raw[maskAt:], '\n') + 1
	}
	edit := func(at int, b ...byte) []byte {
		c := append([]byte{}, raw...)
		copy(c[at:], b)
		return gz(c)
	}
	bad := map[string][]byte{
		"not gzip":                []byte("STWN\x01"),
		"empty":                   gz(nil),
		"bad magic":               edit(0, 'X'),
		"bad version":             edit(4, 2),
		"trailing bytes":          gz(append(append([]byte{}, raw...), 0)),
		"zero mask":               edit(maskAt, 0),
		"mask out of range":       edit(maskAt, 0x40),
		"long prefix":             edit(sharedAt+1, 200),
		"lemmas out of order":     edit(suffixAt, 'z'),
		"truncated gzip":          []byte(embedded[:len(embedded)/2]),
		"truncated data":          gz(raw[:len(raw)/2]),
		"huge lemma count":        gz([]byte("STWN\x01\xff\xff\xff\xff\x0f")),
		"exception without space": gz(bytes.Replace(raw, []byte("aardwolves aardwolf \n"), []byte("aardwolves aardwolf\n\n"), 1)),
		"exception double space":  gz(bytes.Replace(raw, []byte("aardwolves aardwolf \n"), []byte("aardwolves  ardwolf \n"), 1)),
	}
	for name, data := range bad {
		if _, err := decode(bytes.NewReader(data)); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.HasPrefix(err.Error(), "wordnet: data: ") {
			t.Errorf("%s: error %q lacks context", name, err)
		}
	}
	// Every truncation of the uncompressed data is an error, never a panic.
	for n := 0; n < len(raw); n += 1 + n/3 {
		if _, err := decode(bytes.NewReader(gz(raw[:n]))); err == nil {
			t.Errorf("data cut at %d of %d bytes: no error", n, len(raw))
		}
	}
}

// refMorphy is a literal, slow transcription of NLTK's _morphy (without
// the de-duplication of forms that candidates does), for differential
// tests. It gives up (ok false) when a round exceeds budget forms.
func refMorphy(l *Lemmatizer, word string, pos POS, budget int) (out []string, ok bool) {
	rules := map[POS][][2]string{
		Noun: {{"s", ""}, {"ses", "s"}, {"ves", "f"}, {"xes", "x"}, {"zes", "z"},
			{"ches", "ch"}, {"shes", "sh"}, {"men", "man"}, {"ies", "y"}},
		Verb: {{"s", ""}, {"ies", "y"}, {"es", "e"}, {"es", ""}, {"ed", "e"},
			{"ed", ""}, {"ing", "e"}, {"ing", ""}},
		Adj: {{"er", ""}, {"est", ""}, {"er", "e"}, {"est", "e"}},
		Adv: nil,
	}
	rules[AdjSat] = rules[Adj]
	excs := map[POS]map[string][]string{Noun: l.exc[0], Verb: l.exc[1], Adj: l.exc[2], AdjSat: l.exc[2], Adv: l.exc[3]}
	apply := func(forms []string) []string {
		var next []string
		for _, f := range forms {
			for _, r := range rules[pos] {
				if strings.HasSuffix(f, r[0]) {
					next = append(next, f[:len(f)-len(r[0])]+r[1])
				}
			}
		}
		return next
	}
	filter := func(forms []string) []string {
		var res []string
		seen := map[string]bool{}
		for _, f := range forms {
			if l.Has(f, pos) && !seen[f] {
				res = append(res, f)
				seen[f] = true
			}
		}
		return res
	}
	if bases, found := excs[pos][word]; found {
		return filter(append([]string{word}, bases...)), true
	}
	forms := apply([]string{word})
	if res := filter(append([]string{word}, forms...)); len(res) > 0 {
		return res, true
	}
	for len(forms) > 0 {
		if len(forms) > budget {
			return nil, false
		}
		forms = apply(forms)
		if res := filter(forms); len(res) > 0 {
			return res, true
		}
	}
	return nil, true
}

// TestAgainstReference compares candidates with the literal algorithm on
// words built to chain many rules, where NLTK's rounds fill with
// duplicates.
func TestAgainstReference(t *testing.T) {
	l := mustLoad(t)
	var words []string
	stems := []string{"", "a", "bos", "fee", "gee", "wom", "ch", "sh", "ax", "fl", "stud", "d", "be"}
	ends := []string{"s", "es", "ses", "ves", "xes", "zes", "ches", "shes", "men", "ies", "ed", "ing", "er", "est", "e"}
	for _, s := range stems {
		for _, a := range ends {
			for _, b := range ends {
				words = append(words, s+a+b)
				for _, c := range ends[:6] {
					words = append(words, s+a+b+c)
				}
			}
		}
	}
	for _, s := range []string{"es", "s", "ses", "ing", "ed", "est", "men"} {
		for n := 1; n <= 12; n++ {
			words = append(words, strings.Repeat(s, n), "fe"+strings.Repeat(s, n))
		}
	}
	compared := 0
	for _, w := range words {
		for _, p := range allPOS {
			want, ok := refMorphy(l, w, p, 1<<14)
			if !ok {
				continue
			}
			compared++
			if got := l.Morphy(w, p); !reflect.DeepEqual(got, want) {
				t.Errorf("Morphy(%q, %v) = %q, reference %q", w, p, got, want)
			}
		}
	}
	t.Logf("%d (word, part of speech) pairs agree with the reference", compared)
}

// TestAwkwardInput: long, repetitive, non-ASCII and invalid UTF-8 input.
func TestAwkwardInput(t *testing.T) {
	l := mustLoad(t)
	long := []string{
		strings.Repeat("es", 200000),
		strings.Repeat("s", 300000),
		strings.Repeat("ing", 100000) + "ed",
		strings.Repeat("men", 50000),
		strings.Repeat("x", 1<<20),
		strings.Repeat("é", 1000) + "s",
		"\xff\xfe\xfds", "dog\x00s", "_", "__s", " ", "s", "es", "ies",
	}
	for _, w := range long {
		for _, p := range allPOS {
			got := l.Lemmatize(w, p)
			if got == "" && w != "" {
				t.Errorf("Lemmatize(%.20q…, %v) is empty", w, p)
			}
			if utf8.RuneCountInString(got) > utf8.RuneCountInString(w) {
				t.Errorf("Lemmatize(%.20q…, %v) = %.20q… is longer", w, p, got)
			}
		}
	}
	// A long run of "s" ends in a lemma of that shape; the reference gets
	// there too on a shorter run.
	if got, want := l.Lemmatize(strings.Repeat("s", 300000), Noun), l.Lemmatize("sssss", Noun); got != want {
		t.Errorf("Lemmatize(s×300000) = %q, want %q", got, want)
	}
}

func TestConcurrent(t *testing.T) {
	l := mustLoad(t)
	rows := readFixture(t)
	var wg sync.WaitGroup
	errs := make(chan string, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := g; i < len(rows); i += 37 {
				r := rows[i]
				want := r.lemmas[0]
				if want == "" {
					want = r.word
				}
				if got := l.Lemmatize(r.word, Noun); got != want {
					errs <- fmt.Sprintf("goroutine %d: Lemmatize(%q) = %q, want %q", g, r.word, got, want)
					return
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestTinyDatabase encodes a small hand-made database and lemmatizes with
// it, so that encoding and decoding are tested together without the
// WordNet files.
func TestTinyDatabase(t *testing.T) {
	db := &wndata.DB{
		Lemmas: map[string]uint8{
			"dog": wndata.MaskNoun | wndata.MaskVerb, "hot_dog": wndata.MaskNoun,
			"bos": wndata.MaskNoun, "boss": wndata.MaskNoun,
			"good": wndata.MaskAdj | wndata.MaskAdjSat, "well": wndata.MaskAdv | wndata.MaskAdj,
		},
		Exceptions: [4]map[string][]string{
			{"geese": {"goose"}}, {}, {"better": {"good", "well"}}, {},
		},
	}
	var buf bytes.Buffer
	if err := db.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	l, err := decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		word string
		pos  POS
		want string
	}{
		{"dogs", Noun, "dog"}, {"dogs", Verb, "dog"}, {"dogged", Verb, "dogged"}, // no rule undoubles consonants
		{"hot_dogs", Noun, "hot_dog"}, {"bosses", Noun, "boss"}, {"boss", Noun, "bos"},
		{"better", Adj, "good"}, {"better", AdjSat, "good"}, {"better", Adv, "better"},
		{"geese", Noun, "geese"}, {"wells", Noun, "wells"},
	} {
		if got := l.Lemmatize(c.word, c.pos); got != c.want {
			t.Errorf("Lemmatize(%q, %v) = %q, want %q", c.word, c.pos, got, c.want)
		}
	}
	if got := l.Morphy("better", Adj); !reflect.DeepEqual(got, []string{"good", "well"}) {
		t.Errorf("Morphy(better, a) = %q", got)
	}
}
