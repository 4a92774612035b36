package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/model"
)

// docs/cli.md is what the commands' and the kinds' definitions generate
// now: a flag, a command or a kind's option changed without regenerating
// it fails here.
func TestCLIDocsCurrent(t *testing.T) {
	var now bytes.Buffer
	if err := writeCLIDocs(&now); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "..", filepath.FromSlash(cliDocsPath))
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: write it with %s", err, cliDocsCommand)
	}
	if !bytes.Equal(saved, now.Bytes()) {
		a, b := strings.Split(string(saved), "\n"), strings.Split(now.String(), "\n")
		line := 0
		for line < len(a) && line < len(b) && a[line] == b[line] {
			line++
		}
		t.Fatalf("%s is stale (first difference at line %d): run %s", cliDocsPath, line+1, cliDocsCommand)
	}
}

// The reference describes every command, flag and kind, and generates the
// same text twice (nothing in it depends on the machine or the clock).
func TestCLIDocsContent(t *testing.T) {
	var a, b bytes.Buffer
	if err := writeCLIDocs(&a); err != nil {
		t.Fatal(err)
	}
	if err := writeCLIDocs(&b); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Error("two generations differ")
	}
	doc := a.String()
	for _, c := range documented(newRoot(nil, nil)) {
		if !strings.Contains(doc, "## "+c.CommandPath()+"\n") {
			t.Errorf("no section for %s", c.CommandPath())
		}
	}
	fit, _, err := newRoot(nil, nil).Find([]string{"fit"})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range model.AllOptions() {
		if fit.Flags().Lookup(opt.Name) == nil {
			t.Errorf("fit has no flag --%s", opt.Name)
		}
		if !strings.Contains(doc, "| `"+opt.Flag()+"` |") {
			t.Errorf("the options table has no row for %s", opt.Flag())
		}
	}
	for _, k := range model.Kinds() {
		if !strings.Contains(doc, "### "+k+"\n") {
			t.Errorf("no section for kind %s", k)
		}
	}
	if strings.Contains(doc, "completion") || strings.Contains(doc, "## semitopic docs") {
		t.Error("the reference describes cobra's completion command or the hidden docs command")
	}
}

// semitopic docs writes the reference, and refuses an output that is not
// Markdown.
func TestDocsCommand(t *testing.T) {
	out := filepath.Join(t.TempDir(), "cli.md")
	if _, _, err := run(t, "docs", "--out", out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := writeCLIDocs(&want); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want.Bytes()) {
		t.Error("semitopic docs wrote another text than writeCLIDocs")
	}
	if _, _, err := run(t, "docs", "--out", filepath.Join(t.TempDir(), "cli.txt")); err == nil || !strings.Contains(err.Error(), ".md") {
		t.Errorf("--out cli.txt: %v", err)
	}
}
