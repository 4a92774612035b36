package vectorize

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/text"
)

func plainAnalyzer(t testing.TB) *text.Analyzer {
	t.Helper()
	a, err := text.NewAnalyzer(text.Options{Case: text.Lower, Pattern: text.ASCIILetters})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func docsOf(texts ...string) []corpus.Document {
	d := make([]corpus.Document, len(texts))
	for i, s := range texts {
		d[i] = corpus.Document{ID: fmt.Sprint("d", i), Text: s}
	}
	return d
}

func fit(t testing.TB, o Options, texts ...string) (*Vectorizer, *Result) {
	t.Helper()
	v, err := New(plainAnalyzer(t), o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := v.FitTransform(context.Background(), docsOf(texts...))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.X.Validate(); err != nil {
		t.Fatal(err)
	}
	return v, r
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

var tfidfDocs = []string{"apple apple banana cherry", "apple date", "banana date date", "egg apple"}

// TestTFIDFHandComputed derives every entry from the formula
// tf·(ln((1+n)/(1+df))+1), L2-normalised per row, and also compares with
// the values printed by scikit-learn 1.2.1's
// TfidfVectorizer(token_pattern='[a-z]+') on the same four documents.
func TestTFIDFHandComputed(t *testing.T) {
	v, r := fit(t, Options{IDF: true, Norm: NormL2}, tfidfDocs...)
	if want := []string{"apple", "banana", "cherry", "date", "egg"}; !reflect.DeepEqual(r.Vocab, want) {
		t.Fatalf("vocab %q, want %q", r.Vocab, want)
	}
	// n = 4 documents; df: apple 3, banana 2, cherry 1, date 2, egg 1.
	idf := func(df float64) float64 { return math.Log(5/(1+df)) + 1 }
	wantIDF := []float64{idf(3), idf(2), idf(1), idf(2), idf(1)}
	for j := range wantIDF {
		if !near(v.IDF()[j], wantIDF[j]) {
			t.Errorf("idf[%d] = %v, want %v", j, v.IDF()[j], wantIDF[j])
		}
	}
	counts := [][]float64{{2, 1, 1, 0, 0}, {1, 0, 0, 1, 0}, {0, 1, 0, 2, 0}, {1, 0, 0, 0, 1}}
	sklearn := [][]float64{
		{0.707981495620271, 0.43724899811882306, 0.5545949111769506, 0, 0},
		{0.6292275146695526, 0, 0, 0.7772211620785797, 0},
		{0, 0.4472135954999579, 0, 0.8944271909999159, 0},
		{0.5380289691033573, 0, 0, 0, 0.8429263481500496},
	}
	for i, row := range counts {
		norm := 0.0
		for j, c := range row {
			norm += (c * wantIDF[j]) * (c * wantIDF[j])
		}
		norm = math.Sqrt(norm)
		for j, c := range row {
			want := c * wantIDF[j] / norm
			if got := r.X.At(i, j); !near(got, want) || !near(got, sklearn[i][j]) {
				t.Errorf("X[%d,%d] = %v, formula %v, scikit-learn %v", i, j, got, want, sklearn[i][j])
			}
		}
	}
}

func TestTFIDFVariantsMatchScikitLearn(t *testing.T) {
	cases := []struct {
		name string
		o    Options
		want [][]float64
	}{
		{"sublinear", Options{IDF: true, Sublinear: true, Norm: NormL2}, [][]float64{
			{0.6470603927378953, 0.4720489296061929, 0.5987342116561641, 0, 0},
			{0.6292275146695526, 0, 0, 0.7772211620785797, 0},
			{0, 0.5085423203783267, 0, 0.8610369959439763, 0},
			{0.5380289691033573, 0, 0, 0, 0.8429263481500496}}},
		{"raw idf", Options{IDF: true, RawIDF: true, Norm: NormL2}, [][]float64{
			{0.6607050186183024, 0.43437385026468767, 0.6121995071696966, 0, 0},
			{0.6053485081062916, 0, 0, 0.7959605415681652, 0},
			{0, 0.4472135954999579, 0, 0.8944271909999159, 0},
			{0.4748870950608337, 0, 0, 0, 0.8800467299778363}}},
		{"no norm", Options{IDF: true}, [][]float64{
			{2.4462871026284194, 1.5108256237659907, 1.916290731874155, 0, 0},
			{1.2231435513142097, 0, 0, 1.5108256237659907, 0},
			{0, 1.5108256237659907, 0, 3.0216512475319814, 0},
			{1.2231435513142097, 0, 0, 0, 1.916290731874155}}},
	}
	for _, c := range cases {
		_, r := fit(t, c.o, tfidfDocs...)
		for i := range c.want {
			for j := range c.want[i] {
				if got := r.X.At(i, j); math.Abs(got-c.want[i][j]) > 1e-14 {
					t.Errorf("%s: X[%d,%d] = %v, want %v", c.name, i, j, got, c.want[i][j])
				}
			}
		}
	}
}

func TestCountsAndBinary(t *testing.T) {
	_, r := fit(t, Options{}, tfidfDocs...)
	if r.X.At(0, 0) != 2 || r.X.At(2, 3) != 2 || r.X.NNZ() != 9 {
		t.Errorf("counts wrong: %v", r.X.ToDense())
	}
	if r.Tokens != 11 || r.Terms != 11 || r.OOV != 0 {
		t.Errorf("tokens %d terms %d oov %d", r.Tokens, r.Terms, r.OOV)
	}
	_, r = fit(t, Options{Binary: true}, tfidfDocs...)
	for _, x := range r.X.Data {
		if x != 1 {
			t.Fatalf("binary value %v", x)
		}
	}
}

func TestMaxFeaturesDeterministicTies(t *testing.T) {
	// Totals: a 3, b 2, c 2, d 2, e 1. max_features 3 keeps a and the two
	// alphabetically smallest of the tied b, c, d.
	_, r := fit(t, Options{MaxFeatures: 3}, "a a a b b", "c c d", "d e")
	if want := []string{"a", "b", "c"}; !reflect.DeepEqual(r.Vocab, want) {
		t.Errorf("vocab %q, want %q", r.Vocab, want)
	}
	if r.OOV != 3 { // d, d, e pruned
		t.Errorf("pruned terms %d, want 3", r.OOV)
	}
}

func TestDocumentFrequencyBounds(t *testing.T) {
	texts := []string{"a b c", "a b", "a d", "a e e"}
	cases := []struct {
		min, max Threshold
		want     []string
	}{
		{Count(2), Threshold{}, []string{"a", "b"}},
		{Count(1), Count(2), []string{"b", "c", "d", "e"}},
		{Fraction(0.5), Fraction(0.99), []string{"b"}},
		{Threshold{}, Fraction(1.0), []string{"a", "b", "c", "d", "e"}},
	}
	for _, c := range cases {
		_, r := fit(t, Options{MinDF: c.min, MaxDF: c.max}, texts...)
		if !reflect.DeepEqual(r.Vocab, c.want) {
			t.Errorf("min %v max %v: vocab %q, want %q", c.min, c.max, r.Vocab, c.want)
		}
	}
	v, _ := New(plainAnalyzer(t), Options{MinDF: Count(3), MaxDF: Count(2)})
	if _, err := v.FitTransform(context.Background(), docsOf(texts...)); err == nil || !strings.Contains(err.Error(), "max_df") {
		t.Errorf("max_df < min_df: err %v", err)
	}
	v, _ = New(plainAnalyzer(t), Options{MinDF: Count(5)})
	if _, err := v.FitTransform(context.Background(), docsOf(texts...)); err == nil || !strings.Contains(err.Error(), "no term left") {
		t.Errorf("nothing left: err %v", err)
	}
}

func TestParseThreshold(t *testing.T) {
	for s, want := range map[string]Threshold{"5": Count(5), "0.7": Fraction(0.7), "1.0": Fraction(1), "1e-3": Fraction(0.001), "0": Count(0)} {
		got, err := ParseThreshold(s)
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", s, got, err, want)
		}
		if back, _ := ParseThreshold(got.String()); back != got {
			t.Errorf("%q: String %q does not parse back", s, got.String())
		}
	}
	for _, s := range []string{"-1", "1.5", "x", ""} {
		if _, err := ParseThreshold(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

func TestDocumentFilters(t *testing.T) {
	v, err := New(plainAnalyzer(t), Options{MinChars: 10, MinTokens: 3})
	if err != nil {
		t.Fatal(err)
	}
	docs := docsOf("short", "one two three four", "just two!!!!!!!", "alpha beta gamma")
	r, err := v.FitTransform(context.Background(), docs)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(r.Kept, []int{1, 3}) || r.X.Rows != 2 || r.Docs[1].ID != "d3" {
		t.Errorf("kept %v rows %d", r.Kept, r.X.Rows)
	}
	if len(r.Dropped) != 2 || r.Dropped[0].Index != 0 || r.Dropped[1].Index != 2 ||
		!strings.Contains(r.Dropped[0].Reason, "characters") || !strings.Contains(r.Dropped[1].Reason, "tokens") {
		t.Errorf("dropped %+v", r.Dropped)
	}
	c := r.Corpus("test")
	if c.Matrix.X != r.X || len(c.Docs) != 2 || len(c.Notes) == 0 {
		t.Errorf("corpus %+v", c)
	}
	if _, err := v.FitTransform(context.Background(), docsOf("a", "b")); err == nil {
		t.Error("all dropped: no error")
	}
}

func TestTransformUsesFittedVocabulary(t *testing.T) {
	v, r := fit(t, Options{IDF: true, Norm: NormL2}, tfidfDocs...)
	again, err := v.Transform(context.Background(), docsOf(tfidfDocs...))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again.X, r.X) {
		t.Error("transform of the training documents differs from fit")
	}
	nr, err := v.Transform(context.Background(), docsOf("apple kiwi kiwi", "", "mango"))
	if err != nil {
		t.Fatal(err)
	}
	if nr.X.Rows != 3 || nr.OOV != 3 || nr.Terms != 4 || nr.EmptyRows != 2 {
		t.Errorf("rows %d oov %d terms %d empty %d", nr.X.Rows, nr.OOV, nr.Terms, nr.EmptyRows)
	}
	if got := nr.X.At(0, 0); !near(got, 1) {
		t.Errorf("single known term should normalise to 1, got %v", got)
	}
	fresh, _ := New(plainAnalyzer(t), Options{})
	if _, err := fresh.Transform(context.Background(), nil); err == nil {
		t.Error("transform before fit: no error")
	}
}

func TestFixedVocabulary(t *testing.T) {
	_, r := fit(t, Options{Vocabulary: []string{"date", "apple", "zebra"}}, tfidfDocs...)
	if !reflect.DeepEqual(r.Vocab, []string{"date", "apple", "zebra"}) {
		t.Fatalf("vocab %q", r.Vocab)
	}
	if r.X.At(2, 0) != 2 || r.X.At(0, 1) != 2 || r.X.At(0, 2) != 0 {
		t.Errorf("fixed vocabulary counts wrong")
	}
	v, _ := New(plainAnalyzer(t), Options{Vocabulary: []string{"a", "a"}})
	if _, err := v.FitTransform(context.Background(), docsOf("a")); err == nil {
		t.Error("duplicate vocabulary term accepted")
	}
}

func TestNGramVocabulary(t *testing.T) {
	a, _ := text.NewAnalyzer(text.Options{Case: text.Lower, Pattern: text.ASCIILetters, NGramMin: 1, NGramMax: 2})
	v, _ := New(a, Options{})
	r, err := v.FitTransform(context.Background(), docsOf("new york city", "new york"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"city", "new", "new york", "york", "york city"}
	if !reflect.DeepEqual(r.Vocab, want) {
		t.Errorf("vocab %q", r.Vocab)
	}
	if r.X.At(0, 2) != 1 || r.X.At(1, 2) != 1 || r.Tokens != 5 || r.Terms != 8 {
		t.Errorf("n-gram counts wrong: tokens %d terms %d", r.Tokens, r.Terms)
	}
}

func TestParallelDeterminism(t *testing.T) {
	var texts []string
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau")
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		for k := 0; k < 5+i%17; k++ {
			b.WriteString(words[(i*7+k*k*3)%len(words)])
			b.WriteByte(' ')
		}
		texts = append(texts, b.String())
	}
	_, r1 := fit(t, Options{IDF: true, Norm: NormL2, MaxFeatures: 10}, texts...)
	_, r2 := fit(t, Options{IDF: true, Norm: NormL2, MaxFeatures: 10}, texts...)
	if !reflect.DeepEqual(r1.X, r2.X) || !reflect.DeepEqual(r1.Vocab, r2.Vocab) {
		t.Error("two fits differ")
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	v, _ := New(plainAnalyzer(t), Options{})
	if _, err := v.FitTransform(ctx, docsOf("a b", "c d")); err == nil {
		t.Error("cancelled context: no error")
	}
}

func TestNewFitted(t *testing.T) {
	v, r := fit(t, Options{IDF: true, Norm: NormL2}, tfidfDocs...)
	w, err := NewFitted(v.Analyzer(), v.Options(), v.Vocabulary(), v.IDF())
	if err != nil {
		t.Fatal(err)
	}
	got, _ := w.Transform(context.Background(), docsOf(tfidfDocs...))
	if !reflect.DeepEqual(got.X, r.X) {
		t.Error("rebuilt vectorizer transforms differently")
	}
	if _, err := NewFitted(v.Analyzer(), v.Options(), v.Vocabulary(), nil); err == nil {
		t.Error("missing idf accepted")
	}
}

func TestTrigramsAndFixedNGramVocabulary(t *testing.T) {
	a, _ := text.NewAnalyzer(text.Options{Case: text.Lower, Pattern: text.ASCIILetters, NGramMin: 2, NGramMax: 3})
	v, _ := New(a, Options{MaxFeatures: 2})
	r, err := v.FitTransform(context.Background(), docsOf("a b c a b c", "a b d"))
	if err != nil {
		t.Fatal(err)
	}
	// Totals: "a b" 3, "b c" 2, "a b c" 2, then 1s; "a b c" < "b c".
	if want := []string{"a b", "a b c"}; !reflect.DeepEqual(r.Vocab, want) {
		t.Errorf("vocab %q, want %q", r.Vocab, want)
	}
	if r.X.At(0, 0) != 2 || r.X.At(0, 1) != 2 || r.X.At(1, 0) != 1 || r.Tokens != 9 || r.Terms != 5+4+1+2 {
		t.Errorf("counts %v tokens %d terms %d", r.X.ToDense(), r.Tokens, r.Terms)
	}
	v, _ = New(a, Options{Vocabulary: []string{"b d", "c a b", "x y", "a b c d"}})
	r, err = v.FitTransform(context.Background(), docsOf("a b c a b c", "a b d"))
	if err != nil {
		t.Fatal(err)
	}
	if r.X.At(1, 0) != 1 || r.X.At(0, 1) != 1 || r.X.NNZ() != 2 {
		t.Errorf("fixed n-gram vocabulary counts %v", r.X.ToDense())
	}
	big, _ := text.NewAnalyzer(text.Options{NGramMin: 1, NGramMax: 4})
	if _, err := New(big, Options{}); err == nil {
		t.Error("4-grams accepted")
	}
}

func TestRankByDFAndDropDigitTerms(t *testing.T) {
	a, err := text.NewAnalyzer(text.Options{Case: text.Lower, Pattern: text.SklearnWords})
	if err != nil {
		t.Fatal(err)
	}
	docs := docsOf("aa aa aa aa bb 12", "bb cc 12 x²", "cc dd 12 x²", "dd 2³")
	fitVocab := func(o Options) []string {
		v, err := New(a, o)
		if err != nil {
			t.Fatal(err)
		}
		r, err := v.FitTransform(context.Background(), docs)
		if err != nil {
			t.Fatal(err)
		}
		return r.Vocab
	}
	// Totals: aa 4, 12 3, bb 2, cc 2, dd 2, x² 2, 2³ 1; document
	// frequencies: 12 3, bb 2, cc 2, dd 2, x² 2, aa 1, 2³ 1.
	if got, want := fitVocab(Options{MaxFeatures: 2}), []string{"12", "aa"}; !reflect.DeepEqual(got, want) {
		t.Errorf("by count: %q, want %q", got, want)
	}
	if got, want := fitVocab(Options{MaxFeatures: 2, RankByDF: true}), []string{"12", "bb"}; !reflect.DeepEqual(got, want) {
		t.Errorf("by document frequency: %q, want %q", got, want)
	}
	// The digit-only terms are dropped after the choice of all 7: 12 and 2³
	// (a superscript is a digit for str.isdigit), but not x².
	if got, want := fitVocab(Options{MaxFeatures: 7, DropDigitTerms: true}), []string{"aa", "bb", "cc", "dd", "x²"}; !reflect.DeepEqual(got, want) {
		t.Errorf("digit terms dropped: %q, want %q", got, want)
	}
	if got, want := fitVocab(Options{MaxFeatures: 3, RankByDF: true, DropDigitTerms: true}), []string{"bb", "cc"}; !reflect.DeepEqual(got, want) {
		t.Errorf("both: %q, want %q", got, want)
	}
	for s, want := range map[string]bool{"123": true, "²": true, "①2": true, "x2": false, "½": false, "": false, "٣": true} {
		if IsDigitTerm(s) != want {
			t.Errorf("IsDigitTerm(%q) = %v", s, !want)
		}
	}
}

func TestNumpyArgsort(t *testing.T) {
	b, err := os.ReadFile("testdata/numpy_argsort.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Values []int64 `json:"values"`
		Order  []int   `json:"order"`
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for k, c := range cases {
		if got := npArgsort(c.Values); !reflect.DeepEqual(got, c.Order) {
			t.Errorf("case %d (%d values): order differs from numpy's", k, len(c.Values))
		}
	}
	// The heapsort fallback sorts.
	v := []int64{5, -1, 3, 3, 9, 0, -1, 7, 2, 2, 8}
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	npHeapsort(v, idx)
	for i := 1; i < len(idx); i++ {
		if v[idx[i-1]] > v[idx[i]] {
			t.Fatalf("heapsort order %v", idx)
		}
	}
}

func TestSklearnTies(t *testing.T) {
	// 20 terms ta..tt, all in one document but ta in two: at the cut of 5,
	// ta wins and four of the 19 tied terms follow in numpy's argsort
	// order, as scikit-learn's CountVectorizer(max_features=5) chooses.
	var words []string
	for i := 0; i < 20; i++ {
		words = append(words, "t"+string(rune('a'+i)))
	}
	docs := []string{strings.Join(words, " "), "ta"}
	_, r := fit(t, Options{MaxFeatures: 5, SklearnTies: true}, docs...)
	neg := make([]int64, 20)
	for i := range neg {
		neg[i] = -1
	}
	neg[0] = -2
	var want []string
	for _, p := range npArgsort(neg)[:5] {
		want = append(want, words[p])
	}
	sort.Strings(want)
	if !reflect.DeepEqual(r.Vocab, want) {
		t.Errorf("vocab %q, want %q", r.Vocab, want)
	}
	// What scikit-learn 1.2.1 prints for CountVectorizer(max_features=5,
	// token_pattern='[a-z]+') on these documents.
	if sk := []string{"ta", "to", "tp", "tq", "tr"}; !reflect.DeepEqual(r.Vocab, sk) {
		t.Errorf("vocab %q, scikit-learn's %q", r.Vocab, sk)
	}
	_, alpha := fit(t, Options{MaxFeatures: 5}, docs...)
	if want := []string{"ta", "tb", "tc", "td", "te"}; !reflect.DeepEqual(alpha.Vocab, want) {
		t.Errorf("alphabetical ties: %q, want %q", alpha.Vocab, want)
	}
}
