package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/corpus"
	"github.com/semitopic/semitopic/demo"
)

// TestDemoReportEvaluatesTestDocuments: the demo report's evaluation is on
// the test documents, never labeled in the fit, and says so.
func TestDemoReportEvaluatesTestDocuments(t *testing.T) {
	d, err := demo.Load()
	if err != nil {
		t.Fatal(err)
	}
	test := 0
	for _, doc := range d.Corpus.Docs {
		if doc.Split == corpus.SplitTest {
			test++
		}
	}
	dir := t.TempDir()
	report := filepath.Join(dir, "demo-report.html")
	if _, _, err := run(t, "demo", "--report", report); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	html := string(b)
	models := strings.Count(html, "<article")
	scope := fmt.Sprintf("<td>evaluated on</td><td>%d test documents, never labeled in the fit</td>", test)
	if n := strings.Count(html, scope); models == 0 || n != models {
		t.Errorf("%d of %d models say %q", n, models, scope)
	}
	if want := fmt.Sprintf("<td>labeled documents</td><td>%d of %d,", test, test); strings.Count(html, want) != models {
		t.Errorf("the evaluation is not on the %d test documents alone (want %q)", test, want)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the report's folder holds %d files, want only the report", len(entries))
	}
}

// TestDemoReportPathCheckedFirst: a report that cannot be written stops
// the demo before any fit, and leaves nothing behind.
func TestDemoReportPathCheckedFirst(t *testing.T) {
	dir := t.TempDir()
	out, _, err := run(t, "demo", "--report", filepath.Join(dir, "missing", "r.html"))
	if err == nil || !strings.Contains(err.Error(), "missing") {
		t.Fatalf("err = %v, want one naming the missing folder", err)
	}
	if strings.Contains(out, "fitted in") {
		t.Error("models were fitted before the report path was checked")
	}
	if err := os.Mkdir(filepath.Join(dir, "r.html"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, _, err := run(t, "demo", "--report", filepath.Join(dir, "r.html")); err == nil {
		t.Error("a folder accepted as the report file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left in the folder, want the folder r.html alone", len(entries))
	}
}
