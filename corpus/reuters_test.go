package corpus

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/internal/datadir"
)

const sgmlDir = "testdata/reuters-sgml"

func TestReutersSGMLModApte(t *testing.T) {
	for kind, p := range archives(t, sgmlDir, "reuters21578") {
		t.Run(kind, func(t *testing.T) {
			c := read(t, ReutersSGML{}, p)
			equal(t, "IDs", ids(c), []string{"1", "2", "3", "4", "10"})
			docs := byID(c)
			equal(t, "labels 1", docs["1"].Labels, []string{"cocoa", "grain"})
			equal(t, "labels 4", docs["4"].Labels, []string{"grain"}) // "rare" is only in test
			equal(t, "labels 10", docs["10"].Labels, []string{"cocoa"})
			train, test, none := splitCounts(c)
			if train != 3 || test != 2 || none != 0 {
				t.Errorf("splits = %d/%d/%d, want 3/2/0", train, test, none)
			}
			equal(t, "text 1", docs["1"].Text, "COCOA <CCO> REVIEW & OUTLOOK\nShowers continued in\nthe cocoa zone, said the review.\n    Prices rose > 5 pct.")
			equal(t, "text 2", docs["2"].Text, "COCOA TALKS\nCocoa talks resume.")
			equal(t, "text 3 (brief)", docs["3"].Text, "GRAIN STOCKS ROSE 5 PCT IN WEEK")
			equal(t, "text 10 (Latin-1)", docs["10"].Text, "IVORY COAST COCOA\nCafé prices and cocoa exports grew.")
			notes := strings.Join(c.Notes, "\n")
			for _, want := range []string{
				"5 of 10 documents (3 train, 2 test); left out 1 with LEWISSPLIT=NOT-USED, 2 with TOPICS other than YES, 1 without topics, 1 whose topics all occur in only one split",
				"2 topics occur in both splits and are kept; 2 occurring in only one split were removed from the labels (onlytrain, rare)",
				"1 file decoded as Latin-1", "reut2-001.sgm",
			} {
				if !strings.Contains(notes, want) {
					t.Errorf("notes %q lack %q", notes, want)
				}
			}
		})
	}
}

func TestReutersSGMLOptions(t *testing.T) {
	c := read(t, ReutersSGML{All: true}, sgmlDir)
	equal(t, "IDs", ids(c), []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"})
	docs := byID(c)
	equal(t, "labels 4", docs["4"].Labels, []string{"grain", "rare"})
	equal(t, "split 7", docs["7"].Split, SplitNone)
	equal(t, "split 9", docs["9"].Split, SplitTest)
	if docs["8"].Labels != nil {
		t.Errorf("doc 8 labels = %q, want none", docs["8"].Labels)
	}
	equal(t, "text 9 (unprocessed)", docs["9"].Text, "WEEKLY REPORT - FEB 27\n Item one.........12 vs.....10")
	equal(t, "labels 10 (repeated <D>)", docs["10"].Labels, []string{"cocoa"})

	places := read(t, ReutersSGML{LabelField: "places"}, sgmlDir)
	equal(t, "IDs", ids(places), []string{"1", "2", "3", "4", "10"})
	equal(t, "places 1", byID(places)["1"].Labels, []string{"usa", "uk"})
	if byID(places)["3"].Labels != nil {
		t.Errorf("doc 3 places = %q, want none", byID(places)["3"].Labels)
	}
	for field, want := range map[string][]string{"PEOPLE": {"reagan"}, "orgs": {"ec"}, "exchanges": {"lse"}} {
		all := read(t, ReutersSGML{All: true, LabelField: field}, sgmlDir)
		equal(t, field+" 10", byID(all)["10"].Labels, want)
	}
	if _, err := (ReutersSGML{LabelField: "companies"}).Read(context.Background(), sgmlDir); err == nil || !strings.Contains(err.Error(), "topics, places") {
		t.Errorf("unknown label field: err = %v", err)
	}

	keep := read(t, ReutersSGML{KeepSignoff: true}, sgmlDir)
	equal(t, "text 1 with sign-off", byID(keep)["1"].Text, "COCOA <CCO> REVIEW & OUTLOOK\nShowers continued in\nthe cocoa zone, said the review.\n    Prices rose > 5 pct.\n Reuter")

	// A single .sgm file is accepted as PATH.
	one := read(t, ReutersSGML{All: true}, filepath.Join(sgmlDir, "reut2-001.sgm"))
	equal(t, "single file IDs", ids(one), []string{"9", "10"})

	readErr(t, ReutersSGML{}, t.TempDir(), "no .sgm files found")
}

func TestReutersSGMLRepeatedNEWID(t *testing.T) {
	dir := t.TempDir()
	doc := `<REUTERS TOPICS="NO" LEWISSPLIT="TRAIN" NEWID="7"></REUTERS>` + "\n"
	writeFiles(t, dir, map[string]string{"a.sgm": doc, "b.sgm": "\n\n" + doc})
	readErr(t, ReutersSGML{All: true}, dir, "b.sgm:3", `NEWID "7" already used at`, "a.sgm:1")
}

func TestReutersSGMLErrors(t *testing.T) {
	const head = `<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN" NEWID="1">`
	cases := []struct{ name, src, want string }{
		{"unterminated element", head + "\n<TEXT><BODY>x</BODY>\n", "f.sgm:3: unterminated <TEXT> element (opened at line 2)"},
		{"unterminated reuters", head + "\n", "f.sgm:2: unterminated <REUTERS> element (opened at line 1)"},
		{"mismatched end", head + "\n<TITLE>x</BODY></REUTERS>", "f.sgm:2: </BODY> does not close <TITLE>"},
		{"unterminated tag", "\n<REUTERS NEWID=\"1\"", "f.sgm:2: unterminated tag <REUTERS"},
		{"unquoted junk attribute", `<REUTERS NEWID="1" "x"></REUTERS>`, `f.sgm:1: bad attribute syntax in <REUTERS>`},
		{"attribute without value", "<REUTERS\nNEWID></REUTERS>", "f.sgm:2: attribute NEWID of <REUTERS> has no value"},
		{"attribute with empty value", `<REUTERS NEWID=></REUTERS>`, "attribute NEWID of <REUTERS> has no value"},
		{"unterminated value", `<REUTERS NEWID="1></REUTERS>`, "unterminated value of attribute NEWID"},
		{"repeated attribute", `<REUTERS NEWID="1" NEWID="2"></REUTERS>`, "attribute NEWID repeated"},
		{"missing NEWID", `<REUTERS TOPICS="YES" LEWISSPLIT="TRAIN"></REUTERS>`, "without a NEWID"},
		{"bad TOPICS", `<REUTERS TOPICS="MAYBE" LEWISSPLIT="TRAIN" NEWID="1"></REUTERS>`, `TOPICS attribute "MAYBE"`},
		{"bad LEWISSPLIT", `<REUTERS TOPICS="YES" LEWISSPLIT="DEV" NEWID="1"></REUTERS>`, `LEWISSPLIT attribute "DEV"`},
		{"missing LEWISSPLIT", `<REUTERS TOPICS="YES" NEWID="1"></REUTERS>`, `LEWISSPLIT attribute ""`},
		{"text outside", "junk\n" + head + "</REUTERS>", `f.sgm:1: text "junk" outside a <REUTERS> element`},
		{"other element outside", "<DOC></DOC>", "unexpected <DOC> outside a <REUTERS> element"},
		{"end tag outside", "</REUTERS>", "end tag outside any element"},
		{"unterminated end tag", head + "</REUTERS", "unterminated end tag </REUTERS"},
		{"unterminated comment", "<!-- never closed", "unterminated comment"},
		{"unterminated declaration", "<!DOCTYPE x", "unterminated declaration"},
		{"text in REUTERS", head + "stray</REUTERS>", `text "stray" directly inside <REUTERS>`},
		{"text in TOPICS", head + "<TOPICS>cocoa</TOPICS></REUTERS>", `text "cocoa" outside <D> in <TOPICS>`},
		{"element in TOPICS", head + "<TOPICS><X>cocoa</X></TOPICS></REUTERS>", "<X> inside <TOPICS>, want <D>"},
		{"empty D", head + "<TOPICS><D> </D></TOPICS></REUTERS>", "empty <D> in <TOPICS>"},
		{"second TOPICS", head + "<TOPICS></TOPICS><TOPICS></TOPICS></REUTERS>", "second <TOPICS>"},
		{"second TEXT", head + "<TEXT></TEXT><TEXT></TEXT></REUTERS>", "second <TEXT>"},
		{"second TITLE", head + "<TEXT><TITLE></TITLE><TITLE></TITLE></TEXT></REUTERS>", "second <TITLE>"},
		{"second BODY", head + "<TEXT><BODY></BODY><BODY></BODY></TEXT></REUTERS>", "second <BODY>"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReutersSGML{All: true}.parse(context.Background(), "f.sgm", tc.src)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestReutersSGMLLenient(t *testing.T) {
	// Comments, empty elements, lower-case tags, single-quoted and unquoted
	// attribute values, a stray '<' and unknown entities are accepted.
	src := `<!-- a comment --><reuters topics='YES' lewissplit=TRAIN newid="1"><X/>` +
		"<TEXT><TITLE>A &lt; B &unknown; &#9999999; &#x41; & C</TITLE><BODY>1 < 2 &#2;</BODY></TEXT></reuters>"
	docs, err := ReutersSGML{All: true}.parse(context.Background(), "f.sgm", src)
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "text", docs[0].text, "A < B &unknown; &#9999999; A & C\n1 < 2")
}

func TestDecodeEntities(t *testing.T) {
	cases := map[string]string{
		"&lt;&gt;&amp;&quot;&apos;": `<>&"'`,
		"a&#2;b&#3;c&#127;d&#150;e": "a b c d e",
		"tab&#9;nl&#10;cr&#13;":     "tab\tnl\ncr\r",
		"&#xfc;&#XFC;&#252;":        "üüü",
		"&#xD800;&#-1;&#;&#x;&#+5;": "&#xD800;&#-1;&#;&#x;&#+5;",
		"&averyveryverylongname;":   "&averyveryverylongname;",
		"no entities":               "no entities",
		"trailing &":                "trailing &",
		"&#1114112;":                "&#1114112;",
	}
	for in, want := range cases {
		if got := decodeEntities(in); got != want {
			t.Errorf("decodeEntities(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReutersSGMLCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := (ReutersSGML{}).Read(ctx, sgmlDir); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Errorf("err = %v, want cancellation", err)
	}
}

// TestReutersSGMLReal checks the ModApte split and the full distribution
// against the counts in the data README, and compares the texts and labels
// with the NLTK ApteMod files.
func TestReutersSGMLReal(t *testing.T) {
	p := datadir.Require(t, "reuters21578/reuters21578.tar.gz")
	all := read(t, ReutersSGML{All: true}, p)
	if len(all.Docs) != 21578 {
		t.Fatalf("%d documents, want 21,578", len(all.Docs))
	}
	for i, d := range all.Docs {
		if d.ID != fmt.Sprint(i+1) {
			t.Fatalf("document %d has NEWID %s, want %d", i, d.ID, i+1)
		}
	}
	train, test, none := splitCounts(all)
	if train != 14668 || test != 6188 || none != 722 {
		t.Errorf("LEWISSPLIT train/test/not-used = %d/%d/%d, want 14,668/6,188/722", train, test, none)
	}
	if n := len(labelCounts(all, -1)); n != 120 {
		t.Errorf("%d topics occur, want 120", n)
	}
	// 147 of the 175 places occur; the other fields are read the same way.
	places := read(t, ReutersSGML{All: true, LabelField: "places"}, p)
	if n := len(labelCounts(places, -1)); n != 147 {
		t.Errorf("%d places occur, want 147", n)
	}

	c := read(t, ReutersSGML{}, p)
	train, test, none = splitCounts(c)
	if train != 7770 || test != 3019 || none != 0 {
		t.Errorf("ModApte train/test = %d/%d (+%d), want 7,770/3,019", train, test, none)
	}
	if n := len(labelCounts(c, -1)); n != 90 {
		t.Errorf("ModApte has %d categories, want 90", n)
	}
	trainCats, testCats := labelCounts(c, int(SplitTrain)), labelCounts(c, int(SplitTest))
	if len(trainCats) != 90 || len(testCats) != 90 {
		t.Errorf("categories in train/test = %d/%d, want 90/90", len(trainCats), len(testCats))
	}
	notes := strings.Join(c.Notes, "\n")
	for _, want := range []string{"left out 722 with LEWISSPLIT=NOT-USED", "2108 without topics", "1 file decoded as Latin-1 (not valid UTF-8): reuters21578/reut2-017.sgm"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes %q lack %q", notes, want)
		}
	}

	// Against NLTK's ApteMod: the same test set, the train set plus NEWID
	// 1199, the same labels, and the same words except where ApteMod differs
	// on purpose (briefs repeat their title, unprocessed texts became their
	// date, and entities other than &lt; were kept).
	np := datadir.Require(t, "reuters21578-nltk-apte/reuters.tar.gz")
	nltk := read(t, ReutersNLTK{}, np)
	sgml := byID(c)
	var extra []string
	inNLTK := map[string]bool{}
	same, brief := 0, 0
	for _, d := range nltk.Docs {
		newid := d.ID[strings.IndexByte(d.ID, '/')+1:]
		inNLTK[newid] = true
		s, ok := sgml[newid]
		if !ok {
			t.Errorf("NLTK document %s is not in the ModApte split", d.ID)
			continue
		}
		if s.Split != d.Split {
			t.Errorf("%s: split %v, NLTK %v", newid, s.Split, d.Split)
		}
		sl := append([]string(nil), s.Labels...)
		sort.Strings(sl)
		if strings.Join(sl, " ") != strings.Join(d.Labels, " ") {
			t.Errorf("%s: labels %q, NLTK %q", newid, sl, d.Labels)
		}
		ours := strings.Join(strings.Fields(s.Text), " ")
		theirs := strings.Join(strings.Fields(strings.ReplaceAll(d.Text, "&lt;", "<")), " ")
		switch theirs {
		case ours:
			same++
		case ours + " " + ours:
			brief++
		}
	}
	for _, d := range c.Docs {
		if !inNLTK[d.ID] {
			extra = append(extra, d.ID)
		}
	}
	equal(t, "ModApte documents missing from NLTK", extra, []string{"1199"})
	if same != 9782 || brief != 925 {
		t.Errorf("%d texts equal NLTK's word for word and %d are briefs, want 9,782 and 925 (of 10,788)", same, brief)
	}
}

func TestReutersNLTK(t *testing.T) {
	paths := archives(t, "testdata/nltk-reuters", "")
	paths["root folder"] = "testdata/nltk-reuters/reuters"
	for kind, p := range paths {
		t.Run(kind, func(t *testing.T) {
			c := read(t, ReutersNLTK{}, p)
			equal(t, "IDs", ids(c), []string{"test/5", "training/1", "training/10", "training/2"})
			docs := byID(c)
			equal(t, "labels", docs["training/1"].Labels, []string{"cocoa", "grain"})
			equal(t, "split", docs["test/5"].Split, SplitTest)
			equal(t, "split", docs["training/2"].Split, SplitTrain)
			equal(t, "Latin-1 text", docs["test/5"].Text, "GRAIN IN MÜNCHEN\n  Grain sold in München.\n\n")
			equal(t, "verbatim text", docs["training/1"].Text, "COCOA AND GRAIN\n  Cocoa and grain prices rose &lt;CCO> today.\n  \n\n")
			if !strings.Contains(strings.Join(c.Notes, "\n"), "1 file decoded as Latin-1 (not valid UTF-8): ") || !strings.Contains(strings.Join(c.Notes, "\n"), "test/5") {
				t.Errorf("notes = %q", c.Notes)
			}
		})
	}
}

func TestReutersNLTKErrors(t *testing.T) {
	base := map[string]string{
		"cats.txt":   "training/1 a\ntest/2 b\n",
		"training/1": "one",
		"test/2":     "two",
	}
	mk := func(change map[string]string, drop ...string) string {
		dir := t.TempDir()
		files := map[string]string{}
		for k, v := range base {
			files[k] = v
		}
		for k, v := range change {
			files[k] = v
		}
		for _, d := range drop {
			delete(files, d)
		}
		writeFiles(t, dir, files)
		return dir
	}
	read(t, ReutersNLTK{}, mk(nil))
	readErr(t, ReutersNLTK{}, mk(nil, "test/2"), "cats.txt:2: listed file test/2 does not exist")
	readErr(t, ReutersNLTK{}, mk(map[string]string{"training/3": "three"}), "training/3", "not listed in cats.txt")
	readErr(t, ReutersNLTK{}, mk(map[string]string{"cats.txt": "training/1 a\n\ntraining/1 b\ntest/2 c\n"}), "cats.txt:3: training/1 already listed on line 1")
	readErr(t, ReutersNLTK{}, mk(map[string]string{"cats.txt": "../x a\n"}), `cats.txt:1: invalid file ID "../x"`)
	readErr(t, ReutersNLTK{}, mk(nil, "cats.txt"), "no cats.txt found")

	// Hidden files are skipped and counted; an entry without categories is
	// an unlabeled document; an entry outside training/ and test/ has no
	// split.
	c := read(t, ReutersNLTK{}, mk(map[string]string{"training/.DS_Store": "x", "cats.txt": "training/1\ntest/2 b\nextra c\n", "extra": "x"}))
	docs := byID(c)
	if docs["training/1"].Labels != nil || docs["extra"].Split != SplitNone {
		t.Errorf("docs = %+v", docs)
	}
	if !strings.Contains(strings.Join(c.Notes, "\n"), "skipped 1 hidden entry: training/.DS_Store") {
		t.Errorf("notes = %q", c.Notes)
	}
}

func TestReutersNLTKReal(t *testing.T) {
	p := datadir.Require(t, "reuters21578-nltk-apte/reuters.tar.gz")
	c := read(t, ReutersNLTK{}, p)
	train, test, none := splitCounts(c)
	if train != 7769 || test != 3019 || none != 0 {
		t.Errorf("train/test = %d/%d (+%d), want 7,769/3,019", train, test, none)
	}
	if n := len(labelCounts(c, -1)); n != 90 {
		t.Errorf("%d categories, want 90", n)
	}
	if !sort.StringsAreSorted(ids(c)) || c.Docs[0].ID != "test/14826" {
		t.Errorf("documents are not in fileids() order; first %s", c.Docs[0].ID)
	}
	multi := 0
	for _, d := range c.Docs {
		if len(d.Labels) > 1 {
			multi++
		}
	}
	if multi == 0 {
		t.Error("no multi-label document")
	}
	equal(t, "notes", c.Notes, []string{"1 file decoded as Latin-1 (not valid UTF-8): reuters/test/17980"})
	if d := byID(c)["test/17980"]; !strings.Contains(d.Text, "ü") {
		t.Error("test/17980 not decoded as Latin-1")
	}
}

func TestParseCats(t *testing.T) {
	entries, err := parseCats("cats.txt", "a/1 z y z\r\n\n  \nb\tq\n")
	if err != nil {
		t.Fatal(err)
	}
	equal(t, "entries", entries, []catsEntry{{"a/1", []string{"y", "z"}, 1}, {"b", []string{"q"}, 4}})
	if _, err := parseCats("cats.txt", "/abs x\n"); err == nil {
		t.Error("absolute ID: no error")
	}
	if _, err := parseCats("cats.txt", ". x\n"); err == nil {
		t.Error("ID '.': no error")
	}
}

func TestBrownText(t *testing.T) {
	in := "\n\n\tThe/at jury/nn said/vbd ./.\n\tIt/pps ran/vbd 1-1/2/cd miles/nns\n\n\n\tNext/ap paragraph/nn\r\n  bare /nn tag/\n\n"
	equal(t, "brownText", brownText(in), "The jury said .\nIt ran 1-1/2 miles\n\nNext paragraph\nbare tag")
	equal(t, "empty", brownText("\n\n"), "")
}

func TestBrown(t *testing.T) {
	paths := archives(t, "testdata/brown", "")
	paths["root folder"] = "testdata/brown/brown"
	for kind, p := range paths {
		t.Run(kind, func(t *testing.T) {
			c := read(t, Brown{}, p)
			equal(t, "IDs", ids(c), []string{"ca01", "cb01", "cn01"})
			docs := byID(c)
			equal(t, "labels", docs["cb01"].Labels, []string{"editorial"})
			equal(t, "text", docs["ca01"].Text, "The jury said .\n\nIt was 1-1/2 miles .")
			equal(t, "text", docs["cb01"].Text, "Opinion is free .\nSo is speech .\n\nEnd .")
			equal(t, "notes", c.Notes, []string{"ignored 2 entries that cats.txt does not list: CONTENTS, README"})
		})
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"cats.txt": "ca01 news\n", "ca01": "a/at\n", "ca02": "b/at\n"})
	readErr(t, Brown{}, dir, "ca02 is not listed in cats.txt")
	writeFiles(t, dir, map[string]string{"cats.txt": "ca01 news\nca02 news\nca03 news\n"})
	readErr(t, Brown{}, dir, "cats.txt:3: listed file ca03 does not exist")
}

func TestBrownReal(t *testing.T) {
	p := datadir.Require(t, "brown/brown.zip")
	c := read(t, Brown{}, p)
	if len(c.Docs) != 500 {
		t.Fatalf("%d documents, want 500", len(c.Docs))
	}
	want := map[string]int{
		"learned": 80, "belles_lettres": 75, "lore": 48, "news": 44, "hobbies": 36,
		"government": 30, "adventure": 29, "fiction": 29, "romance": 29, "editorial": 27,
		"mystery": 24, "religion": 17, "reviews": 17, "humor": 9, "science_fiction": 6,
	}
	equal(t, "genre counts", labelCounts(c, -1), want)
	equal(t, "first/last", []string{c.Docs[0].ID, c.Docs[499].ID}, []string{"ca01", "cr09"})
	if !strings.HasPrefix(c.Docs[0].Text, "The Fulton County Grand Jury said Friday an investigation of Atlanta's recent primary election produced `` no evidence '' that any irregularities took place .\n\nThe jury further said") {
		t.Errorf("ca01 text starts %q", c.Docs[0].Text[:120])
	}
	for _, d := range c.Docs {
		if strings.Contains(d.Text, "/nn") || strings.Contains(d.Text, "/at ") {
			t.Fatalf("%s: tags left in the text", d.ID)
		}
	}
	equal(t, "notes", c.Notes, []string{"ignored 2 entries that cats.txt does not list: CONTENTS, README"})
}

// writeTemp writes content to a file in a fresh folder and returns its path.
func writeTemp(t testing.TB, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
