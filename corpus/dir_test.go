package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/internal/datadir"
)

func TestBBC(t *testing.T) {
	paths := archives(t, "testdata/bbc", "")
	paths["root folder"] = "testdata/bbc/bbc"
	for kind, p := range paths {
		t.Run(kind, func(t *testing.T) {
			c := read(t, BBC{}, p)
			equal(t, "IDs", ids(c), []string{"business/001", "business/002", "sport/001", "tech/001"})
			d := byID(c)["sport/001"]
			equal(t, "labels", d.Labels, []string{"sport"})
			equal(t, "Latin-1 text", d.Text, "Cup final\n\nTickets cost £50.\n")
			notes := strings.Join(c.Notes, "\n")
			if !strings.Contains(notes, "README.TXT") || !strings.Contains(notes, "1 file decoded as Latin-1") {
				t.Errorf("notes = %q", c.Notes)
			}
		})
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"README.TXT": "x"})
	readErr(t, BBC{}, dir, "no class folders")
	writeFiles(t, dir, map[string]string{"a/1.txt": "x", "a/1": "y"})
	readErr(t, BBC{}, dir, "ID a/1 also used by 1")
	dir = t.TempDir()
	writeFiles(t, dir, map[string]string{"a/sub/1.txt": "x", "b/2.txt": "y"})
	readErr(t, BBC{}, dir, "unexpected folder inside a class folder")
}

func TestBBCReal(t *testing.T) {
	p := datadir.Require(t, "bbc/bbc-fulltext.tar.gz")
	c := read(t, BBC{}, p)
	if len(c.Docs) != 2225 {
		t.Errorf("%d documents, want 2,225", len(c.Docs))
	}
	equal(t, "class counts", labelCounts(c, -1), map[string]int{"business": 510, "entertainment": 386, "politics": 417, "sport": 511, "tech": 401})
	equal(t, "first", c.Docs[0].ID, "business/001")
	equal(t, "notes", c.Notes, []string{
		"skipped 1 entry outside class folders or hidden: bbc/README.TXT",
		"1 file decoded as Latin-1 (not valid UTF-8): bbc/sport/199.txt",
	})
	if d := byID(c)["sport/199"]; !strings.Contains(d.Text, "£") {
		t.Error("sport/199 not decoded as Latin-1")
	}
}

func TestDir(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"pos/a.txt":     "good",
		"pos/sub/b.txt": "deep",
		"neg/c.txt":     "bad \xe9",
		"neg/d.md":      "markdown",
		"top.txt":       "unlabeled",
		".hidden":       "x",
		".git/config":   "x",
		"neg/.DS_Store": "x",
	})
	c := read(t, Dir{}, src)
	equal(t, "IDs", ids(c), []string{"neg/c.txt", "neg/d.md", "pos/a.txt", "pos/sub/b.txt", "top.txt"})
	docs := byID(c)
	equal(t, "label", docs["pos/sub/b.txt"].Labels, []string{"pos/sub"})
	equal(t, "label", docs["neg/c.txt"].Labels, []string{"neg"})
	if docs["top.txt"].Labels != nil {
		t.Errorf("top.txt labels = %q", docs["top.txt"].Labels)
	}
	equal(t, "Latin-1 text", docs["neg/c.txt"].Text, "bad é")
	equal(t, "notes", c.Notes, []string{
		"skipped 3 hidden entries: .git, .hidden, neg/.DS_Store",
		"1 file decoded as Latin-1 (not valid UTF-8): neg/c.txt",
	})

	ext := read(t, Dir{Extensions: []string{".TXT"}}, src)
	equal(t, "IDs", ids(ext), []string{"neg/c.txt", "pos/a.txt", "pos/sub/b.txt", "top.txt"})
	if !strings.Contains(strings.Join(ext.Notes, "\n"), "skipped 1 file without the extensions .TXT: neg/d.md") {
		t.Errorf("notes = %q", ext.Notes)
	}

	// An archive wrapping everything in one folder is read from inside it;
	// a folder holding one label folder of files is not descended into.
	for kind, p := range archives(t, src, "wrapped") {
		c := read(t, Dir{}, p)
		equal(t, kind+" IDs", ids(c), []string{"neg/c.txt", "neg/d.md", "pos/a.txt", "pos/sub/b.txt", "top.txt"})
	}
	one := t.TempDir()
	writeFiles(t, one, map[string]string{"only/x.txt": "x"})
	equal(t, "single label folder", byID(read(t, Dir{}, one))["only/x.txt"].Labels, []string{"only"})

	if err := os.Symlink("/nonexistent", filepath.Join(src, "pos/broken")); err == nil {
		c := read(t, Dir{}, src)
		if !strings.Contains(strings.Join(c.Notes, "\n"), "skipped 1 entry (symbolic links to folders or to nothing): pos/broken") {
			t.Errorf("notes = %q", c.Notes)
		}
	}
	if err := os.Symlink(filepath.Join(src, "top.txt"), filepath.Join(src, "pos/link.txt")); err == nil {
		c := read(t, Dir{}, src)
		equal(t, "symlinked file", byID(c)["pos/link.txt"].Text, "unlabeled")
	}

	readErr(t, Dir{}, t.TempDir(), "no documents found")
	readErr(t, Dir{}, filepath.Join(src, "missing"), "missing")
}
