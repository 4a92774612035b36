package corpus

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/internal/datadir"
)

// stripCombos are the removal combinations of the fixtures, in column
// order: h = headers, f = footers, q = quotes.
var stripCombos = []string{"h", "f", "q", "hf", "hq", "fq", "hfq"}

func newsgroupsFor(combo string) Newsgroups {
	return Newsgroups{
		RemoveHeaders: strings.Contains(combo, "h"),
		RemoveFooters: strings.Contains(combo, "f"),
		RemoveQuotes:  strings.Contains(combo, "q"),
	}
}

func TestNewsgroups(t *testing.T) {
	paths := archives(t, "testdata/20ng", "20news-bydate")
	for kind, p := range paths {
		t.Run(kind, func(t *testing.T) {
			c := read(t, Newsgroups{}, p)
			equal(t, "IDs", ids(c), []string{
				"20news-bydate-train/alt.atheism/100",
				"20news-bydate-train/alt.atheism/20",
				"20news-bydate-train/sci.space/5",
				"20news-bydate-test/alt.atheism/7",
				"20news-bydate-test/sci.space/30",
				"20news-bydate-test/sci.space/4",
			})
			docs := byID(c)
			d := docs["20news-bydate-test/alt.atheism/7"]
			equal(t, "Latin-1 text", d.Text, "From: latin@example.org\nSubject: café\n\nCafé au lait in orbit.\n")
			equal(t, "labels", d.Labels, []string{"alt.atheism"})
			equal(t, "split", d.Split, SplitTest)
			equal(t, "split", docs["20news-bydate-train/sci.space/5"].Split, SplitTrain)
			if !strings.Contains(strings.Join(c.Notes, "\n"), "1 file decoded as Latin-1") {
				t.Errorf("notes = %q", c.Notes)
			}
		})
	}
	p := paths["folder"]
	train := read(t, Newsgroups{Subset: "train"}, p)
	equal(t, "train IDs", len(train.Docs), 3)
	test := read(t, Newsgroups{Subset: "TEST", Categories: []string{"sci.space"}}, p)
	equal(t, "test sci.space IDs", ids(test), []string{"20news-bydate-test/sci.space/30", "20news-bydate-test/sci.space/4"})

	all := read(t, Newsgroups{RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}, p)
	docs := byID(all)
	equal(t, "stripped", docs["20news-bydate-train/alt.atheism/100"].Text, "\nThere is always a question.\nSaid the author.\n")
	equal(t, "stripped", docs["20news-bydate-train/sci.space/5"].Text, "The launch went well.")
	equal(t, "stripped", docs["20news-bydate-test/sci.space/4"].Text, "")
	if !strings.Contains(strings.Join(all.Notes, "\n"), "removed headers, footers, quotes") {
		t.Errorf("notes = %q", all.Notes)
	}

	readErr(t, Newsgroups{Categories: []string{"sci.space", "comp.nope"}}, p, `unknown category "comp.nope"`, "valid: alt.atheism, sci.space")
	readErr(t, Newsgroups{Subset: "dev"}, p, `unknown subset "dev"`)
	readErr(t, Newsgroups{}, t.TempDir(), "no 20news-bydate-train or 20news-bydate-test folder found")

	// Only the test tree: fine for Subset test, an error for all.
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"20news-bydate-test/g/1":       "x",
		"20news-bydate-test/README":    "not a message",
		"20news-bydate-test/g/.hidden": "x",
	})
	c := read(t, Newsgroups{Subset: "test"}, dir)
	equal(t, "IDs", ids(c), []string{"20news-bydate-test/g/1"})
	equal(t, "notes", c.Notes, []string{"skipped 2 entries outside newsgroup folders or hidden: 20news-bydate-test/README, 20news-bydate-test/g/.hidden"})
	readErr(t, Newsgroups{}, dir, "folder 20news-bydate-train not found")
	writeFiles(t, dir, map[string]string{"20news-bydate-test/g/sub/2": "x"})
	readErr(t, Newsgroups{Subset: "test"}, dir, "g/sub: unexpected folder inside a newsgroup folder")
}

// TestNewsgroupsStripCases checks Strip on hand-written edge cases against
// scikit-learn's output, recorded by testdata/newsgroups_strip.py.
func TestNewsgroupsStripCases(t *testing.T) {
	b, err := os.ReadFile("testdata/newsgroups_strip_cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []map[string]string
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	if len(cases) < 10 {
		t.Fatalf("only %d cases", len(cases))
	}
	for _, c := range cases {
		for _, combo := range stripCombos {
			if got := newsgroupsFor(combo).Strip(c["text"]); got != c[combo] {
				t.Errorf("Strip[%s](%q) = %q, scikit-learn gives %q", combo, c["text"], got, c[combo])
			}
		}
	}
	if got := (Newsgroups{}).Strip("unchanged\n\n"); got != "unchanged\n\n" {
		t.Errorf("Strip without removals = %q", got)
	}
}

// TestNewsgroupsReal checks the bydate counts of the data README and that
// Strip reproduces scikit-learn on the sample hashed by
// testdata/newsgroups_strip.py.
func TestNewsgroupsReal(t *testing.T) {
	p := datadir.Require(t, "20news-bydate/20news-bydate.tar.gz")
	c := read(t, Newsgroups{}, p)
	train, test, none := splitCounts(c)
	if train != 11314 || test != 7532 || none != 0 {
		t.Errorf("train/test = %d/%d (+%d), want 11,314/7,532", train, test, none)
	}
	want := map[string][2]int{
		"alt.atheism": {480, 319}, "comp.graphics": {584, 389}, "comp.os.ms-windows.misc": {591, 394},
		"comp.sys.ibm.pc.hardware": {590, 392}, "comp.sys.mac.hardware": {578, 385}, "comp.windows.x": {593, 395},
		"misc.forsale": {585, 390}, "rec.autos": {594, 396}, "rec.motorcycles": {598, 398},
		"rec.sport.baseball": {597, 397}, "rec.sport.hockey": {600, 399}, "sci.crypt": {595, 396},
		"sci.electronics": {591, 393}, "sci.med": {594, 396}, "sci.space": {593, 394},
		"soc.religion.christian": {599, 398}, "talk.politics.guns": {546, 364}, "talk.politics.mideast": {564, 376},
		"talk.politics.misc": {465, 310}, "talk.religion.misc": {377, 251},
	}
	trainCounts, testCounts := labelCounts(c, int(SplitTrain)), labelCounts(c, int(SplitTest))
	if len(trainCounts) != 20 || len(testCounts) != 20 {
		t.Errorf("%d/%d groups, want 20", len(trainCounts), len(testCounts))
	}
	for g, n := range want {
		if trainCounts[g] != n[0] || testCounts[g] != n[1] {
			t.Errorf("%s: %d/%d documents, want %d/%d", g, trainCounts[g], testCounts[g], n[0], n[1])
		}
	}
	notes := strings.Join(c.Notes, "\n")
	if !strings.Contains(notes, "73 files decoded as Latin-1") {
		t.Errorf("notes = %q, want 73 Latin-1 files", notes)
	}
	if d := byID(c)["20news-bydate-train/comp.sys.mac.hardware/51894"]; !strings.Contains(d.Text, "\r") {
		t.Error("the carriage return of comp.sys.mac.hardware/51894 was lost")
	}

	f, err := os.Open("testdata/newsgroups_strip.sha256")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	docs := byID(c)
	checked := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 1+len(stripCombos) {
			t.Fatalf("bad fixture line %q", line)
		}
		d, ok := docs[fields[0]]
		if !ok {
			t.Errorf("fixture document %s not read", fields[0])
			continue
		}
		for k, combo := range stripCombos {
			sum := sha256.Sum256([]byte(newsgroupsFor(combo).Strip(d.Text)))
			if hex.EncodeToString(sum[:]) != fields[k+1] {
				t.Errorf("%s: Strip[%s] differs from scikit-learn", d.ID, combo)
			}
		}
		checked++
	}
	if checked < 500 {
		t.Errorf("only %d fixture messages checked", checked)
	}

	// The options are applied while reading.
	stripped := read(t, Newsgroups{Subset: "test", Categories: []string{"sci.space"}, RemoveHeaders: true, RemoveFooters: true, RemoveQuotes: true}, p)
	if len(stripped.Docs) != 394 {
		t.Errorf("%d test sci.space documents, want 394", len(stripped.Docs))
	}
	for _, d := range stripped.Docs {
		if d.Text != newsgroupsFor("hfq").Strip(docs[d.ID].Text) {
			t.Fatalf("%s: text read with Remove options differs from Strip", d.ID)
		}
	}
}
