package labtest

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/semitopic/semitopic/experiment/lab"
	"github.com/semitopic/semitopic/synth"
)

// A report written by lab.Report reads back to its title, sections and
// tables, a "|" inside a cell included.
func TestReadReport(t *testing.T) {
	out := t.TempDir()
	env := &lab.Env{Out: out, Quick: true, Command: "go test"}
	r := lab.NewReport(env, "r", "A title")
	r.P("intro")
	r.H2("Figures")
	r.Table([]string{"model", "p(y|x)"}, [][]string{{"a", "**0.5 ± 0.1**"}, {"b", "-2e-3 (4 it.) ✓"}})
	r.P("after")
	r.Table([]string{"x"}, nil)
	if err := r.Finish(); err != nil {
		t.Fatal(err)
	}
	rep := ReadReport(t, out, "r")
	if rep.Title != "A title" || !strings.Contains(rep.Sections[0].Text, "**Quick run**") {
		t.Errorf("title %q, first section %q", rep.Title, rep.Sections[0].Text)
	}
	s := rep.Section(t, "Fig")
	tb := s.Table(t, 0, "model", "p(y|x)")
	if len(s.Tables) != 2 || len(tb.Rows) != 2 || tb.Rows[1][0] != "b" {
		t.Fatalf("tables %+v", s.Tables)
	}
	col := tb.Column(t, "p(y|x)")
	if Number(col[0]) != 0.5 || Number(col[1]) != -2e-3 || !math.IsNaN(Number("—")) {
		t.Errorf("numbers of %q: %g, %g", col, Number(col[0]), Number(col[1]))
	}
	if rep.Section(t, "How this was produced").Text == "" {
		t.Error("empty closing section")
	}
}

func TestSyntheticDocs(t *testing.T) {
	classes := []string{"x", "y", "z"}
	docs, err := SyntheticDocs(context.Background(), synth.Config{Docs: 30, Terms: 50, Topics: 3, Seed: 1}, classes)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, d := range docs {
		if len(d.Labels) != 1 || d.Text == "" || d.ID == "" {
			t.Fatalf("document %+v", d)
		}
		seen[d.Labels[0]] = true
	}
	if len(docs) != 30 || len(seen) != 3 {
		t.Errorf("%d documents, labels %v", len(docs), seen)
	}
	if _, err := SyntheticDocs(context.Background(), synth.Config{Docs: 3, Terms: 5, Topics: 1}, classes); err == nil {
		t.Error("more classes than topics accepted")
	}
}
