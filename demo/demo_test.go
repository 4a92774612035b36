package demo

import (
	"reflect"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
)

func TestLoad(t *testing.T) {
	d, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Spec.Themes) < 6 {
		t.Errorf("%d themes, want at least 6", len(d.Spec.Themes))
	}
	docs := d.Corpus.Docs
	if len(docs) != 480 || len(d.Truth) != 480 {
		t.Fatalf("%d documents, %d truths", len(docs), len(d.Truth))
	}
	labeled, test, mixed := 0, 0, 0
	perTheme := map[string]int{}
	for i, doc := range docs {
		if doc.Text == "" || doc.ID == "" {
			t.Fatalf("document %d empty", i)
		}
		if doc.Labeled() {
			labeled++
			if !reflect.DeepEqual(doc.Labels, d.Truth[i]) {
				t.Errorf("%s: labels %v differ from truth %v", doc.ID, doc.Labels, d.Truth[i])
			}
			if doc.Split != corpus.SplitTrain {
				t.Errorf("%s: labeled document in split %q", doc.ID, doc.Split)
			}
		}
		if doc.Split == corpus.SplitTest {
			test++
		}
		if len(d.Truth[i]) > 1 {
			mixed++
		}
		perTheme[d.Truth[i][0]]++
	}
	if labeled < 130 || labeled > 190 {
		t.Errorf("%d labeled documents, want about a third of 480", labeled)
	}
	if test != 96 {
		t.Errorf("%d test documents, want 96", test)
	}
	if mixed < 60 || mixed > 140 {
		t.Errorf("%d documents with two themes, want about 20%%", mixed)
	}
	for name, n := range perTheme {
		if n != 480/len(d.Spec.Themes) {
			t.Errorf("theme %s is primary for %d documents", name, n)
		}
	}
	for _, th := range d.Spec.Themes {
		if len(th.Anchors) == 0 {
			t.Errorf("theme %s has no anchors", th.Name)
		}
		for _, a := range th.Anchors {
			found := false
			for _, w := range th.Words {
				found = found || w == a
			}
			if !found {
				t.Errorf("anchor %q of %s is not one of its words", a, th.Name)
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := Load()
	b, _ := Load()
	if !reflect.DeepEqual(a.Corpus.Docs, b.Corpus.Docs) {
		t.Error("two loads differ")
	}
	c, _ := Generate(Options{Seed: 7})
	if reflect.DeepEqual(a.Corpus.Docs, c.Corpus.Docs) {
		t.Error("different seeds give the same corpus")
	}
}

func TestThemeWordsDominate(t *testing.T) {
	d, _ := Load()
	idx := map[string]int{}
	for i, th := range d.Spec.Themes {
		for _, w := range th.Words {
			idx[w] = i
		}
	}
	// In a single-theme document, the theme's words must outnumber every
	// other theme's words.
	for i, doc := range d.Corpus.Docs {
		if len(d.Truth[i]) != 1 {
			continue
		}
		count := make([]int, len(d.Spec.Themes))
		for _, w := range strings.Fields(strings.ToLower(strings.ReplaceAll(doc.Text, ".", ""))) {
			if k, ok := idx[w]; ok {
				count[k]++
			}
		}
		want := 0
		for k, th := range d.Spec.Themes {
			if th.Name == d.Truth[i][0] {
				want = k
			}
		}
		for k, c := range count {
			if k != want && c >= count[want] {
				t.Fatalf("%s (%s): theme %s has %d words vs %d", doc.ID, d.Truth[i][0], d.Spec.Themes[k].Name, c, count[want])
			}
		}
	}
}

func TestParseSpecErrors(t *testing.T) {
	bad := map[string]string{
		"no themes":      "background: a\nfunction: b\n",
		"continuation":   "  stray words\n",
		"unknown key":    "theme: x\nwords: a b c d e\ncolour: red\n",
		"anchors first":  "anchors: a\n",
		"short theme":    "theme: x\nwords: a\ntheme: y\nwords: a b c d e\nbackground: q\nfunction: z\n",
		"no background":  "theme: x\nwords: a b c d e\ntheme: y\nwords: a b c d e\nfunction: z\n",
		"no colon":       "theme x\n",
		"nameless theme": "theme:\n",
	}
	for name, src := range bad {
		if _, err := ParseSpec(src); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), "line") && !strings.Contains(err.Error(), "want") {
			t.Errorf("%s: unhelpful error %v", name, err)
		}
	}
	if _, err := Generate(Options{Labeled: 2}); err == nil {
		t.Error("labeled fraction 2 accepted")
	}
}
