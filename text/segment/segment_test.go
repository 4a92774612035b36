package segment

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestKnownSentences checks the segmentation of known sentences and that
// the words are substrings of the run that cover it.
func TestKnownSentences(t *testing.T) {
	cases := []struct{ lang, run, want string }{
		{"zh", "我们在北京大学学习自然语言处理", "我们|在|北京大学|学习|自然语言|处理"},
		{"zh", "研究生命的起源", "研究|生命|的|起源"},
		{"ja", "すもももももももものうち", "すもも|も|もも|も|もも|の|うち"},
		{"ja", "東京都に住んでいます", "東京|都|に|住ん|で|い|ます"},
	}
	segs := map[string]Segmenter{}
	for _, c := range cases {
		if !slices.Contains(Languages(), c.lang) {
			continue // built without its dictionary
		}
		s, ok := segs[c.lang]
		if !ok {
			var err error
			if s, err = New(c.lang); err != nil {
				t.Fatal(err)
			}
			segs[c.lang] = s
		}
		words := s.Append(nil, c.run)
		if got := strings.Join(words, "|"); got != c.want {
			t.Errorf("%s %q: %q, want %q", c.lang, c.run, got, c.want)
		}
		if strings.Join(words, "") != c.run {
			t.Errorf("%s %q: the words %q do not cover the run", c.lang, c.run, words)
		}
	}
	if _, err := New("th"); err == nil || !strings.Contains(err.Error(), `"th"`) {
		t.Errorf("New(th): %v", err)
	}
}

// FuzzChinese checks that the Chinese words of any text are non-empty and
// cover it.
func FuzzChinese(f *testing.F) {
	for _, s := range []string{"", "北京", "研究生命的起源", "abc中文", "\xff中"} {
		f.Add(s)
	}
	s, err := New("zh")
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, run string) {
		words := s.Append(nil, run)
		for _, w := range words {
			if w == "" {
				t.Fatal("empty word")
			}
		}
		if strings.Join(words, "") != run {
			t.Fatalf("words %q do not cover %q", words, run)
		}
	})
}

// A Segmenter is safe for concurrent use: goroutines cutting the same
// runs get the same words (run with -race).
func TestConcurrent(t *testing.T) {
	runs := map[string]string{"zh": "我们在北京大学学习自然语言处理", "ja": "東京都に住んでいます"}
	for _, lang := range Languages() {
		s, err := New(lang)
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(s.Append(nil, runs[lang]), "|")
		var wg sync.WaitGroup
		errs := make(chan string, 8)
		for g := 0; g < 8; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 50; i++ {
					if got := strings.Join(s.Append(nil, runs[lang]), "|"); got != want {
						errs <- got
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for got := range errs {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

// TestChineseCuts checks that the Chinese segmenter cuts the sample text
// into the words recorded in testdata/zh.cut.
func TestChineseCuts(t *testing.T) {
	s, err := New("zh")
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "zh.cut"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	runs, _ := sampleRuns(t, "zh")
	if len(runs) != len(want) {
		t.Fatalf("%d runs, %d lines in zh.cut", len(runs), len(want))
	}
	for i, run := range runs {
		if got := strings.Join(s.Append(nil, run), "|"); got != want[i] {
			t.Errorf("zh.cut line %d: %q, want %q", i+1, got, want[i])
		}
	}
}
