package text

import (
	"testing"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// TestFoldFast checks the fast path of Normalize against its slow path on
// every rune up to U+2FFFF that it takes (one in 16 of the CJK
// ideographs and Hangul syllables, which are alike), in every mode, and
// that it takes the runes of the scripts it is for.
func TestFoldFast(t *testing.T) {
	fast := 0
	for r := rune(0x80); r < 0x30000; r++ {
		if 0x3400 <= r && r <= 0xD7A3 && r%16 != 0 {
			continue
		}
		s := string(r)
		if foldable(r) {
			if p := norm.NFKC.PropertiesString(s); p.CCC() != 0 || !p.BoundaryBefore() {
				t.Fatalf("%U is foldable but combines with the rune before it", r)
			}
		}
		for _, c := range []Case{Fold, Lower, KeepCase} {
			for _, nfkc := range []bool{true, false} {
				for _, strip := range []bool{false, true} {
					got, ok := foldFast(s, nfkc, strip, c)
					if !ok {
						continue
					}
					fast++
					if want := normalizeSlow(s, nfkc, strip, c); got != want {
						t.Fatalf("%U %q, %v, nfkc %v, strip accents %v: fast %q, slow %q", r, s, c, nfkc, strip, got, want)
					}
				}
			}
		}
	}
	if fast < 12*4000 {
		t.Errorf("the fast path took only %d runes × modes", fast)
	}
	// Marks after a letter, a fullwidth letter, an accented letter.
	for r := rune(0x300); r < 0x30000; r++ {
		if !unicode.Is(unicode.Mn, r) {
			continue
		}
		for _, s := range []string{"a" + string(r), "Ａ" + string(r) + "b", "Ά" + string(r), string(r) + "ι"} {
			for _, c := range []Case{Fold, Lower, KeepCase} {
				for _, nfkc := range []bool{true, false} {
					if got, want := Normalize(s, nfkc, true, c), normalizeSlow(s, nfkc, true, c); got != want {
						t.Fatalf("%q, %v, nfkc %v: fast %q, slow %q", s, c, nfkc, got, want)
					}
				}
			}
		}
	}
	// Arabic vowel marks in and out of canonical order.
	var marks []rune
	for r := rune(0x64B); r <= 0x652; r++ {
		marks = append(marks, r)
	}
	marks = append(marks, 0x670, 0x653, 0x654)
	for _, a := range marks {
		for _, b := range marks {
			for _, s := range []string{"ب" + string(a) + string(b), "ا" + string(a) + "ب" + string(b) + string(a), string(a) + string(b)} {
				for _, c := range []Case{Fold, Lower, KeepCase} {
					for _, nfkc := range []bool{true, false} {
						if got, want := Normalize(s, nfkc, false, c), normalizeSlow(s, nfkc, false, c); got != want {
							t.Fatalf("%q, %v, nfkc %v: fast %q, slow %q", s, c, nfkc, got, want)
						}
					}
				}
			}
		}
	}
	// The fast path takes the texts of these languages.
	for _, s := range []string{"مُحَمَّدٌ رَسُولُ", "İSTANBUL’da İnsan… çok\u00a0güzel", "می\u200cخواهم", "ΟΔΟΣ Ένας άνθρωπος", "ＪＡＣＫは（低遅延）"} {
		if _, ok := foldFast(s, true, false, Fold); !ok {
			t.Errorf("%q takes the slow path", s)
		}
	}
	texts := []string{
		"مُحَمَّدٌ رَسُولُ اللَّهِ، ومحمّد", "İSTANBUL’da İnsan… çok\u00a0güzel ʼ", "می\u200cخواهم\u200f",
		"ΟΔΟΣ ΣΤΗΝ ΑΘΗΝΑ· Ο Σωκράτης είπε «ΝΑΙ». Ένας άνθρωπος, ΐ ΰ ς",
		"يلعب الأطفال في الحديقة مع أصدقائهم، ويَكتُبون.",
		"ＪＡＣＫは、レイテンシの少ない（低遅延）サウンドサーバです。　東京都！",
		"自然语言处理是人工智能的一个重要方向：我们在北京大学学习。",
		"שלום עולם", "Die STRASSE und die Straße", "Россия — Москва", "ｶﾞｷﾞ ㈱ ﬁ",
	}
	for _, s := range texts {
		for _, c := range []Case{Fold, Lower, KeepCase} {
			for _, nfkc := range []bool{true, false} {
				for _, strip := range []bool{false, true} {
					if got, want := Normalize(s, nfkc, strip, c), normalizeSlow(s, nfkc, strip, c); got != want {
						t.Errorf("%q, %v, nfkc %v, strip accents %v: fast %q, slow %q", s, c, nfkc, strip, got, want)
					}
				}
			}
		}
	}
}

// TestShortcuts checks toLower and isLetter against package unicode on
// every rune up to U+2FFFF.
func TestShortcuts(t *testing.T) {
	for r := rune(0); r < 0x30000; r++ {
		if toLower(r) != unicode.ToLower(r) || isLetter(r) != unicode.IsLetter(r) {
			t.Fatalf("%U: toLower %U, unicode.ToLower %U; isLetter %v, unicode.IsLetter %v", r, toLower(r), unicode.ToLower(r), isLetter(r), unicode.IsLetter(r))
		}
	}
}

// TestFoldFastRuns checks the fast path on texts where runes that
// normalisation changes (capitals, fullwidth forms, ß, marks out of
// order) come before, between and after runs of runes it keeps (CJK,
// kana, Cyrillic, Arabic), so that the kept bytes are copied once each
// and in order.
func TestFoldFastRuns(t *testing.T) {
	for _, s := range []string{
		"東京都に住んでいます", "Ａ東京，都に住んでいます。", "东京，北京。Ｂ", "ｶﾀｶﾅ東京Ａ", "々〆〇ゝ",
		"Straße Москва ПРИВЕТ мир", "ABC東京def", "Ὀδυσσεύς ΣΟΦΙΑ", "كِتَابٌ الكتابْ", "كَِتاب",
		"\u3000東京\u3000", "…東京…", "中文ＡＢＣ中文ｄｅｆ", "ÄÖÜäöüßÿ Größe", "ςσΣ ΑΒΓαβγ", "שָׁלוֹם עולם", "ёЁѐЀ", "한국어 ＡＢ 문장", "\xed\xa0\x80한",
	} {
		for _, c := range []Case{Fold, Lower, KeepCase} {
			for _, nfkc := range []bool{true, false} {
				got, ok := foldFast(s, nfkc, false, c)
				if !ok {
					continue
				}
				if want := normalizeSlow(s, nfkc, false, c); got != want {
					t.Errorf("%q, %v, nfkc %v: fast %q, slow %q", s, c, nfkc, got, want)
				}
			}
		}
	}
}
