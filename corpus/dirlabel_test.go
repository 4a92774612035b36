package corpus

import (
	"context"
	"strings"
	"testing"
)

// TestDirFolderLabelsTrimmed checks that folder names become labels
// trimmed of surrounding white space, while IDs keep the paths as they are.
func TestDirFolderLabelsTrimmed(t *testing.T) {
	src := t.TempDir()
	writeFiles(t, src, map[string]string{
		"pos /a.txt":   "good",
		"\tneg/b.txt":  "bad",
		"a/ b /c.txt":  "nested",
		"pos/d.txt":    "also pos",
		"top file.txt": "unlabeled",
	})
	c := read(t, Dir{}, src)
	docs := byID(c)
	equal(t, "label of pos /a.txt", docs["pos /a.txt"].Labels, []string{"pos"})
	equal(t, "label of \\tneg/b.txt", docs["\tneg/b.txt"].Labels, []string{"neg"})
	equal(t, "label of a/ b /c.txt", docs["a/ b /c.txt"].Labels, []string{"a/b"})
	equal(t, "label of pos/d.txt", docs["pos/d.txt"].Labels, []string{"pos"})
	if l := docs["top file.txt"].Labels; l != nil {
		t.Errorf("top file.txt labels = %q", l)
	}

	bbc := t.TempDir()
	writeFiles(t, bbc, map[string]string{"sport /001.txt": "x", "tech/001.txt": "y"})
	c = read(t, BBC{}, bbc)
	equal(t, "BBC IDs", ids(c), []string{"sport /001", "tech/001"})
	equal(t, "BBC label", byID(c)["sport /001"].Labels, []string{"sport"})
}

// TestDirBlankFolder checks that a folder whose name is only white space
// is an error naming it, in the dir and bbc readers, on disk and in the
// fuzzer's layouts ("===  /0", found by FuzzDir).
func TestDirBlankFolder(t *testing.T) {
	for name, files := range map[string]map[string]string{
		`folder " "`:   {" /0": "x", "pos/a.txt": "y"},
		`folder "\t"`:  {"\t/e": "x"},
		`folder "a/ "`: {"a/ /b.txt": "x", "a/c.txt": "y"},
	} {
		dir := t.TempDir()
		writeFiles(t, dir, files)
		readErr(t, Dir{}, dir, name, "blank", "move its files to the top")
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{" /001.txt": "x", "tech/001.txt": "y"})
	readErr(t, BBC{}, dir, `folder " "`, "blank")

	ctx := context.Background()
	for _, layout := range []string{"===  /0", "===  /e", "=== \u00a0/x\n"} {
		src := source{fsys: layoutFS([]byte(layout)), path: "x.tar", lim: Limits{}.resolved()}
		for rname, read := range map[string]func() (*Corpus, error){
			"dir": func() (*Corpus, error) { return Dir{}.readFS(ctx, src) },
			"bbc": func() (*Corpus, error) { return BBC{}.readFS(ctx, src) },
		} {
			c, err := read()
			if err == nil || !strings.Contains(err.Error(), "x.tar") || !strings.Contains(err.Error(), "blank") {
				t.Errorf("%s reader on %q: %v, %v; want an error naming the blank folder", rname, layout, c, err)
			}
		}
	}
}
